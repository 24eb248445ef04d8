"""Scaled-down configurations of a rule table that keep its rule structure.

The real game (120 cards, hands of 23/24, a nọc of 27 or 41 cards) is far too large to
enumerate.  A *scale* edits a deep copy of the table's data -- the deck's faces and
copies, and one ``[[variant]]`` (seats, deal sizes, pairs, minimum chắn) -- and
re-validates it with `chanspec.model.chan.table.from_data`, so everything else (every cạ
class, the restrictions, the claim rows, the priorities, every option) is the table's
own.  The edited table gets its own id (``family@group4``) so that caches keyed by the
table id never mix a scale with the real game.

How each scale maps to the real game, and what it can and cannot show:

``ranks2``  Nhất and Nhì in three suits plus the three yêu faces, 2 copies each
            (18 cards); 4 seats, hands 4/3, 2 pairs with at least 1 chắn (1 of 2: "at
            least one chắn, at most one cạ"), nọc of 5.  Shows: faces that do not pair
            (Nhì with the group), ordinary same-rank cạ, special cạ, Lão + Thang, the
            Nhất + Nhất scope, bans on chắn and cạ, claim ties.  Cannot show: chíu (two
            copies).
``chiu4``   Nhất Vạn, Nhất Văn, Lão, Thang, 4 copies each (16 cards); 4 seats, hands
            4/3, 2 pairs with at least 1 chắn, nọc of 3.  Shows: chíu and chíu-ù, a chíu
            that empties the hand.  Cannot show: a return (a chíu uses every concealed
            card at this hand size).
``chiu3``   Nhất Vạn, Nhất Văn, Chi Chi, Lão, Thang, 4 copies each (20 cards); 3 seats,
            hands 6/5, 3 pairs with at least 2 chắn (the real two thirds), nọc of 4.
            The only scale where an out-of-turn chíu leaves cards to return, so the
            returned card (``returned-card-u``, ``returned-card-chiu``) can be reached.
            Too large to search completely: witness searches and bounded explorations
            only.  Three seats are not in the family's text (the variant reuses the
            4-seat row); the claim rules do not depend on the number of seats.
``five``    Nhất and Nhì in three suits and the three yêu faces, 2 copies each
            (18 cards); 5 seats, hands 4/3, 2 pairs with at least 1 chắn, nọc of 2.
            The 5-seat table: seat order around five gates.  Cannot show: chíu.

Classic Chắn (spec/classic.toml) has no Nhất and no yêu faces: its scales
(`CLASSIC_SCALES`, ids ``classic@c-...``) take ranks Nhị and Tam and Chi Chi, which has no
rank and so pairs only as a chắn.  Its thiên ù minimum (``opening_min_chan_by_value``) is
scaled with the minimum chắn: the reading that asks for the real minimum (six) asks for the
scale's, the one that asks for none still asks for none.  Chi Chi's ``exact_min`` (it
completes only a hand of exactly the minimum chắn) keeps its meaning at every scale, as
the minimum is at least one and below the number of pairs.

``c-ranks2``  Nhị and Tam in three suits and Chi Chi, 2 copies each (14 cards); 3 seats,
              hands 4/3, 2 pairs with at least 1 chắn, nọc of 4.  Shows: same-rank cạ
              of two ranks, Chi Chi as a chắn only, the rank-scoped rules of play (bỏ cạ
              ăn cạ, ăn cạ đánh cùng hàng...), Chi Chi completing a hand of one chắn and
              one cạ but not of two chắn (``chi-completes``), dưới and trả cửa, faults
              under penalise and refusals under forbid.  Cannot show: chíu (two copies).
``c-chiu3``   Nhị Vạn, Nhị Văn, Tam Vạn, Chi Chi, 4 copies each (16 cards); 3 seats,
              hands 4/3, 2 pairs with at least 1 chắn, nọc of 6.  Shows: chíu and chíu-ù
              (also on Chi Chi), the rules of play on a face held three times, a Tam
              Vạn that pairs with nothing but itself.  Cannot show: a return after a chíu (a
              chíu uses every concealed card at this hand size), a third suit.
``c-four``    the faces of ``c-ranks2`` with 4 seats, hands 4/3, nọc of 1.  Shows: seat
              order and claims around four gates, claim ties among three seats.
              Cannot show: a long nọc (one draw), chíu.
``c-duo``     Nhị Vạn, Nhị Văn, Tam Vạn, Chi Chi, 4 copies each (16 cards); 2 seats,
              hands 6/5, 3 pairs with at least 2 chắn (as the real six of ten is more
              than half), nọc of 5.  The only classic scale where a chíu leaves cards to
              return (trả cửa after a chíu), where thiên ù under ``six-chan`` needs more
              than one chắn, and where Chi Chi may complete a hand with more than one
              chắn.  Too large to search completely: witness searches and bounded
              explorations only.

What no scale can show: anything that needs long hands (many pairs at once, e.g. a hand
that needs two special cạ), how often a situation arises in real play (use the
full-size random games of `checks/findings/witness.py` for that), and scoring.  A violation found
at a scale is a real path of the real rules on a smaller deck: the rules are the same
rows, so a deadlock here is a deadlock of the text; the converse does not hold (no
violation at a scale does not prove there is none at full size).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chanspec.model.chan import cards
from chanspec.model.chan import table as table_mod
from chanspec.model.chan.game import Deal, check_deal

GROUP = ("1v", "1n", "1s", "chi", "lao", "thang")


@dataclass(frozen=True)
class Scale:
    name: str
    faces: tuple[str, ...]
    copies: int
    players: int
    other_cards: int
    min_chan: int
    vi: str
    en: str
    exhaustive: bool = True  # small enough to search every deal completely

    @property
    def opener_cards(self) -> int:
        return self.other_cards + 1

    @property
    def pairs(self) -> int:
        return (self.other_cards + 1) // 2

    @property
    def deck_size(self) -> int:
        return len(self.faces) * self.copies

    @property
    def noc_size(self) -> int:
        return self.deck_size - self.opener_cards - (self.players - 1) * self.other_cards

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name, "faces": list(self.faces), "copies": self.copies,
            "players": self.players, "opener_cards": self.opener_cards,
            "other_cards": self.other_cards, "pairs": self.pairs, "min_chan": self.min_chan,
            "deck": self.deck_size, "noc": self.noc_size, "vi": self.vi, "en": self.en,
        }


SCALES: dict[str, Scale] = {
    s.name: s for s in (
        Scale("ranks2", GROUP + ("2v", "2n", "2s"), 2, 4, 3, 1,
              "Nhất, Nhì ba chất và ba quân yêu × 2 bản; 4 người, bài 4/3, "
              "2 đôi ít nhất 1 Chắn, nọc 5",
              "Nhất and Nhì in three suits and the three yêu x 2 copies; 4 seats, hands 4/3, "
              "2 pairs with at least 1 chắn, nọc of 5"),
        Scale("chiu4", ("1v", "1n", "lao", "thang"), 4, 4, 3, 1,
              "Nhất Vạn, Nhất Văn, Lão, Thang × 4 bản; 4 người, bài 4/3, "
              "2 đôi ít nhất 1 Chắn, nọc 3",
              "Nhất Vạn, Nhất Văn, Lão, Thang x 4 copies; 4 seats, hands 4/3, "
              "2 pairs with at least 1 chắn, nọc of 3"),
        Scale("chiu3", ("1v", "1n", "chi", "lao", "thang"), 4, 3, 5, 2,
              "Nhất Vạn, Nhất Văn, Chi Chi, Lão, Thang × 4 bản; 3 người, bài 6/5, "
              "3 đôi ít nhất 2 Chắn, nọc 4",
              "Nhất Vạn, Nhất Văn, Chi Chi, Lão, Thang x 4 copies; 3 seats, hands 6/5, "
              "3 pairs with at least 2 chắn, nọc of 4", exhaustive=False),
        Scale("five", GROUP + ("2v", "2n", "2s"), 2, 5, 3, 1,
              "Nhất, Nhì ba chất và ba quân yêu × 2 bản; 5 người, bài 4/3, "
              "2 đôi ít nhất 1 Chắn, nọc 2",
              "Nhất and Nhì in three suits and the three yêu x 2 copies; 5 seats, hands 4/3, "
              "2 pairs with at least 1 chắn, nọc of 2"),
    )
}


# Classic Chắn (spec/classic.toml): no Nhất, no yêu faces but Chi Chi, which has no rank
# and so pairs only as a chắn; ranks Nhị to Cửu in three suits; 2 to 4 seats.
CLASSIC_SCALES: dict[str, Scale] = {
    s.name: s for s in (
        Scale("c-ranks2", ("2v", "2n", "2s", "3v", "3n", "3s", "chi"), 2, 3, 3, 1,
              "Nhị, Tam ba chất và Chi Chi × 2 bản; 3 người, bài 4/3, "
              "2 đôi ít nhất 1 Chắn, nọc 4",
              "Nhị and Tam in three suits and Chi Chi x 2 copies; 3 seats, hands 4/3, "
              "2 pairs with at least 1 chắn, nọc of 4"),
        Scale("c-chiu3", ("2v", "2n", "3v", "chi"), 4, 3, 3, 1,
              "Nhị Vạn, Nhị Văn, Tam Vạn, Chi Chi × 4 bản; 3 người, bài 4/3, "
              "2 đôi ít nhất 1 Chắn, nọc 6",
              "Nhị Vạn, Nhị Văn, Tam Vạn, Chi Chi x 4 copies; 3 seats, hands 4/3, "
              "2 pairs with at least 1 chắn, nọc of 6"),
        Scale("c-four", ("2v", "2n", "2s", "3v", "3n", "3s", "chi"), 2, 4, 3, 1,
              "Nhị, Tam ba chất và Chi Chi × 2 bản; 4 người, bài 4/3, "
              "2 đôi ít nhất 1 Chắn, nọc 1",
              "Nhị and Tam in three suits and Chi Chi x 2 copies; 4 seats, hands 4/3, "
              "2 pairs with at least 1 chắn, nọc of 1"),
        Scale("c-duo", ("2v", "2n", "3v", "chi"), 4, 2, 5, 2,
              "Nhị Vạn, Nhị Văn, Tam Vạn, Chi Chi × 4 bản; 2 người, bài 6/5, "
              "3 đôi ít nhất 2 Chắn, nọc 5",
              "Nhị Vạn, Nhị Văn, Tam Vạn, Chi Chi x 4 copies; 2 seats, hands 6/5, "
              "3 pairs with at least 2 chắn, nọc of 5", exhaustive=False),
    )
}

# The scales of each built-in table, by its id; a table given by path gets the first set
# whose faces its deck holds (`scales_for`).
SCALE_SETS: dict[str, dict[str, Scale]] = {"family": SCALES, "classic": CLASSIC_SCALES}
ALL_SCALES: dict[str, Scale] = {n: s for ss in SCALE_SETS.values() for n, s in ss.items()}


class ScaleError(ValueError):
    """A scale that does not fit (deck too small for the deal, unknown faces)."""


def scale_set(base: table_mod.Table) -> str:
    """The name of the set of scales that keeps `base`'s structure (a key of
    `SCALE_SETS`): its own when it is a built-in table (by id), else the first set
    (family, then classic) whose faces its deck holds."""
    if base.id in SCALE_SETS:
        return base.id
    deck = set(base.deck_faces())
    for name, ss in SCALE_SETS.items():
        if all(cards.parse(f) in deck for sc in ss.values() for f in sc.faces):
            return name
    raise ScaleError(f"table {base.id!r}: no set of scaled configurations fits its deck "
                     f"(known sets: {', '.join(SCALE_SETS)})")


def scales_for(base: table_mod.Table) -> dict[str, Scale]:
    """The scales of `base` (see `scale_set`), by name."""
    return SCALE_SETS[scale_set(base)]


def scaled_data(base: table_mod.Table, scale: Scale) -> dict[str, Any]:
    """A deep copy of the table's data with the deck and one variant edited."""
    data = copy.deepcopy(dict(base.data))
    for f in scale.faces:
        cards.parse(f)
    if scale.noc_size < 1:
        raise ScaleError(f"scale {scale.name}: {scale.deck_size} cards cannot deal "
                         f"{scale.opener_cards} + {scale.players - 1} x {scale.other_cards} "
                         "and leave a nọc")
    data["ruleset"]["id"] = f"{base.id}@{scale.name}"
    data["deck"]["faces"] = list(scale.faces)
    data["deck"]["copies"] = scale.copies
    data["deck"]["red"] = [c for c in data["deck"].get("red", []) if c in scale.faces]
    by_players = {int(v["players"]): v for v in data["variant"]}
    template = by_players.get(scale.players) or by_players[min(by_players)]
    data["variant"] = [{
        "rule": template["rule"], "players": scale.players,
        "opener_cards": scale.opener_cards, "other_cards": scale.other_cards,
        "pairs": scale.pairs, "min_chan": scale.min_chan,
    }]
    # A win on the dealt hand that needs so many chắn (classic's six-chan reading of
    # thiên ù) needs as many in proportion at the scale: the real minimum becomes the
    # scale's, 0 stays 0 (the family's table states no such numbers).
    by_value = data.get("win", {}).get("opening_min_chan_by_value")
    if isinstance(by_value, dict):
        real = int(template["min_chan"]) or 1
        data["win"]["opening_min_chan_by_value"] = {
            k: min(scale.pairs, round(int(v) * scale.min_chan / real))
            for k, v in by_value.items()}
    return data


_TABLES: dict[tuple[str, str], table_mod.Table] = {}


def scaled_table(base: table_mod.Table, scale: Scale) -> table_mod.Table:
    key = (base.path + "#" + base.id, scale.name)
    t = _TABLES.get(key)
    if t is None:
        t = _TABLES[key] = table_mod.from_data(scaled_data(base, scale),
                                               f"{base.path} (scale {scale.name})")
    return t


def scaled_rules(base: table_mod.Table, scale: Scale,
                 options: Mapping[str, str] | None = None) -> table_mod.Rules:
    return scaled_table(base, scale).resolve(scale.players, options)


FULL = "full"  # the scale name of a witness found in the family's own game


def rules_for(base: table_mod.Table, name: str, players: int,
              options: Mapping[str, str] | None = None) -> table_mod.Rules:
    """The rules a saved witness was found under: a scale of `SCALES` by its name, or the
    full-size game (`FULL`) for `players` seats."""
    if name == FULL:
        return base.resolve(players, options)
    return scaled_rules(base, ALL_SCALES[name], options)


def deals(rules: table_mod.Rules, count: int, seed: int, opener: int = 0) -> list[Deal]:
    """`count` distinct seeded deals (fewer if the deck has fewer)."""
    rng = random.Random(seed)
    deck = [f for f in rules.faces for _ in range(rules.copies)]
    v = rules.variant
    out: list[Deal] = []
    seen: set[tuple[Any, ...]] = set()
    tries = 0
    while len(out) < count and tries < count * 20:
        tries += 1
        rng.shuffle(deck)
        hands: list[tuple[int, ...]] = []
        pos = 0
        for seat in range(v.players):
            k = v.opener_cards if seat == opener else v.other_cards
            hands.append(tuple(sorted(deck[pos:pos + k])))
            pos += k
        d = Deal(tuple(hands), tuple(deck[pos:]), opener)
        key = (d.hands, d.noc)
        if key in seen:
            continue
        seen.add(key)
        check_deal(rules, d)
        out.append(d)
    return out
