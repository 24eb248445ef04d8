"""An engine that asks one seat at a time, draws by itself, plays three readings other
than the table's defaults, and has two bugs.

Claim style: the one of tests/engines/one_seat.py (one question at a time in the
table's priority, the first claim taken, the card going on by itself when everybody
says no), declared in its start answer.  Readings (open or provisional rows):
``lao-thang=off``, ``pass-ca-ban=none``, ``split-chan-to-eat=forbidden``.  Bugs, rules no
reading allows: (1) at the opening the opener may also pass (every hand, at its first
step); (2) passing a card one could eat as a chắn creates no ban (pass-chan-ban is
ignored), which can show only later in a hand, after bug 1.
A campaign with --infer-options must name exactly those three readings and leave two
differences no reading explains, one key each.
"""

from __future__ import annotations

import dataclasses
import sys

from chanspec.checks.conform.refengine import serve
from chanspec.model.chan.game import Action, Deal, State
from chanspec.model.chan.table import Rules
from one_seat import OneSeat

READINGS = {"lao-thang": "off", "pass-ca-ban": "none", "split-chan-to-eat": "forbidden"}


def its_own_rules(rules: Rules) -> Rules:
    mine = rules.table.resolve(rules.players, {**rules.options, **READINGS})
    kept = tuple(r for r in mine.restrictions if r.rule != "pass-chan-ban")
    return dataclasses.replace(mine, restrictions=kept)


class OpenerMayPass(State):
    def _opener_pass(self, a: Action) -> bool:
        return self.phase == "opening" and a == Action("pass", self.actor)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        acts = super().legal_actions(seat)
        if self.phase == "opening" and self.actor is not None and seat in (None, self.actor):
            acts = [*acts, Action("pass", self.actor)]
        return acts

    def _is_legal(self, action: Action) -> bool:
        return self._opener_pass(action) or super()._is_legal(action)


def make_state(rules: Rules, deal: Deal) -> State:
    return OpenerMayPass(rules, deal)


if __name__ == "__main__":
    engine = OneSeat({"accepts": ["legal_all"], "claim_style": "one-seat-at-a-time"})
    engine.inner.rules_hook = its_own_rules
    engine.inner.state_factory = make_state
    sys.exit(serve(session=engine))
