"""The cards of a Tấn table, as the table's ``[deck]`` gives them.

A card is an index ``suit * R + strength`` (R ranks; strength 0 is the weakest rank, the
last one ``[[deck.rank]]`` lists), so that within a suit a higher index is a stronger
card and a set of cards fits in one int as a bit mask (bit ``card``).  A card's code is
its rank code and suit code (``AS``, ``10H``, ``2C``); its name is the rank's and the
suit's words (``Q bích`` / ``Q of spades``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


class CardError(ValueError):
    """A card code the deck does not have."""


@dataclass(frozen=True)
class Deck:
    suits: tuple[tuple[str, str, str, str], ...]  # id, code, vi, en
    ranks: tuple[tuple[str, str, str, str, int], ...]  # strongest first: id, code, vi, en, count
    _codes: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def size(self) -> int:
        return len(self.suits) * len(self.ranks)

    @property
    def per_suit(self) -> int:
        return len(self.ranks)

    def suit(self, card: int) -> int:
        return card // len(self.ranks)

    def strength(self, card: int) -> int:
        """0 for the weakest rank, R-1 for the strongest."""
        return card % len(self.ranks)

    def rank(self, card: int) -> tuple[str, str, str, str, int]:
        return self.ranks[len(self.ranks) - 1 - self.strength(card)]

    def card(self, suit: int, strength: int) -> int:
        return suit * len(self.ranks) + strength

    def count(self, card: int) -> int:
        """What the card counts for when it picks the first attacker (A 1, K 13, …)."""
        return self.rank(card)[4]

    def code(self, card: int) -> str:
        return self.rank(card)[1] + self.suits[self.suit(card)][1]

    def codes(self, cards: Iterable[int]) -> list[str]:
        return [self.code(c) for c in cards]

    def parse(self, text: str) -> int:
        if not self._codes:
            self._codes.update({self.code(c).upper(): c for c in range(self.size)})
        c = self._codes.get(text.strip().upper())
        if c is None:
            raise CardError(f"{text!r} is no card of this deck (a rank code and a suit code, "
                            f"such as {self.code(self.size - 1)} or {self.code(0)})")
        return c

    def name(self, card: int, lang: str = "vi") -> str:
        r, s = self.rank(card), self.suits[self.suit(card)]
        return f"{r[1]} {s[2]}" if lang == "vi" else f"{r[1]} of {s[3]}"

    def mask(self, cards: Iterable[int]) -> int:
        m = 0
        for c in cards:
            m |= 1 << c
        return m


def cards_of(mask: int) -> list[int]:
    """The cards of a bit mask, lowest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
