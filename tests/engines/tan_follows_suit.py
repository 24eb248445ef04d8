"""A Tấn engine with one bug: the defender must beat with the suit when it can.

Seed 003 ¶9 s3 (row trump-while-suit, settled) lets the defender beat with a trump even
while holding a higher card of the suit led.  This engine refuses it: holding such a card,
the defender may not beat a card of another suit with a trump.  Everything else is the
reference machine; `chanspec conform --ruleset tan` must find exactly this one cause.
"""

from __future__ import annotations

import sys
from typing import Any

from chanspec.checks.conform.kind_engine import KindSession
from chanspec.checks.conform.refengine import serve
from chanspec.model.tan.game import DEFEND, Action, State


class FollowsSuit(State):
    def _trumps_while_suit(self, a: Action) -> bool:
        if self.phase != DEFEND or a.kind != "beat":
            return False
        p = self.p
        led = self.att[-1]
        suit = p.deck.suit(led)
        if suit == self.trump or p.deck.suit(a.card) != self.trump:
            return False
        return bool(self.hands[a.seat] & p.beat[self.trump][led] & p.suit_mask[suit])

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        return [a for a in super().legal_actions(seat) if not self._trumps_while_suit(a)]


def make_state(rules: Any, deal: Any) -> State:
    return FollowsSuit(rules, deal)


if __name__ == "__main__":
    sys.exit(serve(session=KindSession(state_factory=make_state)))
