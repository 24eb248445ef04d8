"""An engine that follows a rule the table does not have: Thang is never given up.

A seat may neither discard nor give back Thang (at the opening, on its turn, or when it
returns a card after a chíu), unless every card it holds is Thang.  No row of the
table says so and no reading of an open row allows it, so a campaign must infer no
reading for it and report it as one difference no reading explains.  Everything else is
the reference machine.
"""

from __future__ import annotations

import sys

from chanspec.checks.conform.refengine import serve
from chanspec.model.chan.cards import THANG
from chanspec.model.chan.game import Action, Deal, State
from chanspec.model.chan.table import Rules


class KeepsThang(State):
    def _gives_up_thang(self, a: Action) -> bool:
        if a.kind not in ("discard", "return") or a.card != THANG:
            return False
        return any(n for f, n in enumerate(self.hands[a.seat]) if f != THANG)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        return [a for a in super().legal_actions(seat) if not self._gives_up_thang(a)]

    def _is_legal(self, action: Action) -> bool:
        return not self._gives_up_thang(action) and super()._is_legal(action)


def make_state(rules: Rules, deal: Deal) -> State:
    return KeepsThang(rules, deal)


if __name__ == "__main__":
    sys.exit(serve(state_factory=make_state))
