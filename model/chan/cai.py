"""The dealing ritual (bốc cái) of a table with a ``[cai]`` section: who opens the hand.

Chance turns one card of the deck face up: the *cái card*.  The seat that drew it (the
*drawer*: the last hand's winner, or the seat the players agree on for a first hand)
counts as one, and the count goes on seat by seat in the direction of play (the
machine's seat order: seat s+1 follows seat s) up to the number the cái card counts as
(``[cai] counts``: a rank counts as itself, Chi Chi as one in classic Chắn).  The seat
the count ends on takes the cái pile and plays first.  Everything here cites the rows
of the table's ``[cai]`` roles.

With fewer than four players, role ``cai.places_rule`` says what the count runs round:

* ``players``: the players at the table, so the count wraps round them;
* ``four-places``: the four places of a full table, the players on the first ones in
  seat order; a count that ends on an empty place goes on to the next player in the
  direction of play (seat 0).

>>> from chanspec.model.chan import table
>>> r = table.rules("classic", 4)
>>> cai_opener(r, cards.parse("7v"), drawer=1).opener   # 000: B draws Thất, D opens
3
"""

from __future__ import annotations

from dataclasses import dataclass

from . import cards
from .table import Rules

FULL_TABLE = 4  # the places of a full table (the worked example of seed 000)


class CaiError(ValueError):
    """A question about the cái asked of a table without the dealing ritual, or a seat
    or card that cannot be; `.rules` names the rows concerned."""

    def __init__(self, message: str, rules: tuple[str, ...] = ()):
        super().__init__(message)
        self.rules = rules


@dataclass(frozen=True)
class CaiCount:
    """How the cái card found the opener: the card, its count, the drawer, the seat the
    count ended on, and the rows that decided it."""

    card: int
    count: int
    drawer: int
    opener: int
    rules: tuple[str, ...]


def has_ritual(rules: Rules) -> bool:
    """True when the table deals by the cái ritual (it has a ``[cai]`` section)."""
    return rules.cai_counts is not None


def count_rules(rules: Rules) -> tuple[str, ...]:
    """The rows that decide the opener from the cái card: the count's row, and the row of
    the count with fewer than four players when fewer play."""
    out = [rules.rid("cai.rule")]
    if rules.players < FULL_TABLE:
        out.append(rules.rid("cai.places_rule"))
    return tuple(dict.fromkeys(out))


def count_seat(count: int, drawer: int, players: int, places: str) -> int:
    """The seat a count of `count` ends on, the `drawer` counting as one.

    >>> [count_seat(c, 1, 4, "players") for c in range(1, 9)]  # B draws, A..D = 0..3
    [1, 2, 3, 0, 1, 2, 3, 0]
    >>> [count_seat(c, 0, 3, "four-places") for c in range(1, 5)]  # place 3 is empty
    [0, 1, 2, 0]
    """
    if places == "players":
        return (drawer + count - 1) % players
    place = (drawer + count - 1) % max(players, FULL_TABLE)
    return place if place < players else 0  # an empty place: on to the next player


def cai_opener(rules: Rules, card: int, drawer: int) -> CaiCount:
    """The opener the cái `card` names when `drawer` drew it, with the rows that say so."""
    if rules.cai_counts is None:
        raise CaiError(f"table {rules.table.id!r} has no dealing ritual ([cai]): its "
                       "opener is given, not counted")
    if not 0 <= drawer < rules.players:
        raise CaiError(f"the drawer of the cái card must be a seat 0..{rules.players - 1}, "
                       f"found {drawer}", (rules.rid("cai.rule"),))
    if card not in rules.cai_counts:
        raise CaiError(f"{cards.label(card)} is not a card of the deck of table "
                       f"{rules.table.id!r}", (rules.rid("deck.rule"),))
    count = rules.cai_counts[card]
    seat = count_seat(count, drawer, rules.players, rules.machine_value("cai.places_rule"))
    return CaiCount(card, count, drawer, seat, count_rules(rules))


def card_rules(rules: Rules) -> tuple[str, ...]:
    """The row that says where the cái card goes (the opener's hand, or back to the nọc)
    and that everyone sees it."""
    return (rules.rid("cai.card_rule"),)
