"""A Chiha engine with one bug: a Tướng may be discarded.

Seed 004 "Luật vứt bài" •3 (row discard-no-tuong, settled) never lets a Tướng go as rác.
This engine lets it: at a discard, every Tướng in the hand is one more choice.  Everything
else is the reference machine; `chanspec conform --ruleset chiha` must find this one cause.
"""

from __future__ import annotations

import sys
from typing import Any

from chanspec.checks.conform.kind_engine import KindSession
from chanspec.checks.conform.refengine import serve
from chanspec.model.chiha.game import DISCARD, Action, State


class DiscardsTuong(State):
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        acts = super().legal_actions(seat)
        if self.phase != DISCARD or not self.pending() or (
                seat is not None and seat not in self.pending()):
            return acts
        s = self.pending()[0]
        deck = self.p.deck
        more = [self._a("discard", s, (f,)) for f in deck.faces
                if self.hands[s][f] and deck.rank_id(f) == "tuong"]
        return list(dict.fromkeys(acts + more))


def make_state(rules: Any, deal: Any) -> State:
    return DiscardsTuong(rules, deal)


if __name__ == "__main__":
    sys.exit(serve(session=KindSession(state_factory=make_state)))
