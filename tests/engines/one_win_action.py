"""An engine with a single win action: it calls both an ordinary ù and a chíu-ù ``u``
(in its legal lists, in the actions it applies and in its outcome), and says so in its
start answer: ``"action_names": {"chiu-u": "u"}``.  Otherwise it is the reference machine.

``python tests/engines/one_win_action.py --silent`` does not declare the mapping (then
chanspec reports its chíu-ù as a difference).
"""

from __future__ import annotations

import sys
from typing import Any

from chanspec.checks.conform.refengine import serve
from chanspec.model.chan.game import Action, Deal, State
from chanspec.model.chan.table import Rules


class OneWin(State):
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        out: list[Action] = []
        for a in super().legal_actions(seat):
            b = Action("u", a.seat, a.card) if a.kind == "chiu-u" else a
            if b not in out:
                out.append(b)
        return out

    def apply(self, action: Action, *, check: bool = True) -> None:
        if action.kind == "u":
            real = super().legal_actions(action.seat)
            if action not in real and Action("chiu-u", action.seat, action.card) in real:
                action = Action("chiu-u", action.seat, action.card)
        super().apply(action, check=check)

    def outcome(self) -> dict[str, Any] | None:
        o = super().outcome()
        if o is not None and o.get("kind") == "chiu-u":
            o = {**o, "kind": "u"}
        return o


def make_state(rules: Rules, deal: Deal) -> State:
    return OneWin(rules, deal)


if __name__ == "__main__":
    declare = {} if "--silent" in sys.argv else {"action_names": {"chiu-u": "u"}}
    sys.exit(serve(state_factory=make_state, declare=declare))
