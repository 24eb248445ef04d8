"""A wrong engine with two independent bugs, the second only reachable after the first.

1. At the opening it also lets the opener pass (the rules make the opener discard, or
   win on the dealt hand): this shows in every hand, at step 0.
2. Passing a card one could eat as a chắn creates no ban (it ignores pass-chan-ban,
   §3 bullet 1), which can only show later in a hand.

A campaign that stops at the first mismatch only ever sees bug 1.  Everything else is
the reference machine.
"""

from __future__ import annotations

import dataclasses
import sys

from chanspec.checks.conform.refengine import serve
from chanspec.model.chan.game import Action, Deal, State
from chanspec.model.chan.table import Rules


class OpenerMayPass(State):
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        acts = super().legal_actions(seat)
        if self.phase == "opening" and self.actor is not None and seat in (None, self.actor):
            acts = [*acts, Action("pass", self.actor)]
        return acts


def drop_pass_chan_ban(rules: Rules) -> Rules:
    kept = tuple(r for r in rules.restrictions if r.rule != "pass-chan-ban")
    return dataclasses.replace(rules, restrictions=kept)


def make_state(rules: Rules, deal: Deal) -> State:
    return OpenerMayPass(rules, deal)


if __name__ == "__main__":
    sys.exit(serve(rules_hook=drop_pass_chan_ban, state_factory=make_state))
