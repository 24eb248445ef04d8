"""A brute-force oracle for Chiha's meld questions (seed 004): the most lệnh of a hand,
whether it splits into melds with nothing left over, and which of its cards may be
discarded.

It enumerates splits directly: take the lowest card still unplaced, and either leave it
as trash (rác) or put it in a group with any 0 to 3 of the other cards left; a group
counts when it *is* a meld by the words of the table's ``[[meld]]`` entries, tested on
the group's cards (`meld_worth`).  There are no precomputed tables, no components and
no list of candidate melds; the only cache is a memo keyed by the cards left.  The
discard bans are read from the table's ``[[discard_ban]]`` entries and the open row of
the Chốt ban, again on the cards themselves.

It shares no code with ``model/chiha/melds.py``: it reads the raw table data, the open
rows' values (`ChihaRules.value`) and the deck's names of faces only.  Used by the tests
to cross-check the engine and the Z3 oracle on small hands.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from chanspec.model.chiha.table import ChihaRules


@dataclass(frozen=True)
class BruteSplit:
    """A best split found by the search: its worth and groups (each a tuple of faces with
    the row that makes it a meld), and the trash."""

    lenh: int
    groups: tuple[tuple[str, tuple[int, ...]], ...]
    trash: tuple[int, ...]


class ChihaBrute:
    """Exhaustive split search for one resolved Chiha table."""

    def __init__(self, rules: ChihaRules):
        self.rules = rules
        self.deck = rules.deck
        data: Any = rules.table.data
        self.shapes: list[dict[str, Any]] = list(data["meld"])
        self.bonus = int(data["concealed"]["bonus"])
        self.bans: list[dict[str, Any]] = list(data.get("discard_ban", []))

    # ------------------------------------------------------------------ is it a meld?

    def meld_worth(self, group: Sequence[int], concealed: bool) -> tuple[int, str] | None:
        """(lệnh, row) of the best ``[[meld]]`` entry that `group` is, or None."""
        d = self.deck
        ranks = [d.rank_id(f) for f in group]
        colours = [d.colour_index(f) for f in group]
        found: tuple[int, str] | None = None
        for m in self.shapes:
            shape = m["shape"]
            ok, rank = False, ""
            if shape == "same-face":
                ok = (len(group) == m["size"] and len(set(group)) == 1
                      and (not m.get("ranks") or ranks[0] in m["ranks"]))
                rank = ranks[0] if ok else ""
            elif shape == "named-ranks-one-colour":
                ok = (sorted(ranks) == sorted(m["ranks"]) and len(set(colours)) == 1)
            elif shape == "distinct-colours-one-rank":
                ok = (len(group) == m["size"] and set(ranks) == {m["rank"]}
                      and len(set(colours)) == len(group))
                rank = m["rank"]
            if not ok:
                continue
            v = int(m.get("lenh_by_rank", {}).get(rank, m["lenh"]))
            if concealed and m.get("concealed", False):
                v += self.bonus
            if found is None or v > found[0]:
                found = (v, m["rule"])
        return found

    # ------------------------------------------------------------------ the search

    def split(self, hand: Sequence[int], concealed: bool = True, exact: bool = False
              ) -> BruteSplit | None:
        """A split of `hand` (a list of faces) with the most lệnh: trash allowed, or with
        `exact` none (None when no such split exists)."""

        @cache
        def go(rest: tuple[int, ...]) -> BruteSplit | None:
            if not rest:
                return BruteSplit(0, (), ())
            first, others = rest[0], rest[1:]
            top: BruteSplit | None = None
            if not exact:
                sub = go(others)
                assert sub is not None
                top = BruteSplit(sub.lenh, sub.groups, (first, *sub.trash))
            tried: set[tuple[int, ...]] = set()
            for k in range(4):
                for idx in itertools.combinations(range(len(others)), k):
                    with_ = tuple(others[i] for i in idx)
                    if with_ in tried:
                        continue
                    tried.add(with_)
                    worth = self.meld_worth((first, *with_), concealed)
                    if worth is None:
                        continue
                    left = list(others)
                    for i in reversed(idx):
                        del left[i]
                    sub = go(tuple(left))
                    if sub is None:
                        continue
                    total = worth[0] + sub.lenh
                    if top is None or total > top.lenh:
                        top = BruteSplit(total, ((worth[1], (first, *with_)), *sub.groups),
                                         sub.trash)
            return top

        return go(tuple(sorted(hand)))

    def best(self, hand: Sequence[int], concealed: bool = True) -> int:
        s = self.split(hand, concealed)
        assert s is not None
        return s.lenh

    def exact(self, hand: Sequence[int], concealed: bool = True) -> int | None:
        s = self.split(hand, concealed, exact=True)
        return None if s is None else s.lenh

    # ------------------------------------------------------------------ discards

    def banned(self, hand: Sequence[int], face: int) -> list[str]:
        """The ``[[discard_ban]]`` rows (and the Chốt ban's open row) forbidding `face`."""
        d = self.deck
        held = Counter(hand)
        why: list[str] = []
        for b in self.bans:
            if b["kind"] == "rank" and d.rank_id(face) in b["ranks"]:
                why.append(b["rule"])
            elif b["kind"] == "same-face-at-least" and held[face] >= b["count"]:
                why.append(b["rule"])
            elif b["kind"] == "distinct-colours-set" and d.rank_id(face) == b["rank"]:
                of_rank = [f for f in hand if d.rank_id(f) == b["rank"]]
                colours = {d.colour_index(f) for f in of_rank}
                scope = self.rules.value(b["scope_rule"])
                if scope == "exactly-four":
                    hit = len(of_rank) == b["size"] and len(colours) == b["size"]
                elif scope == "holds-set":
                    hit = len(colours) >= b["size"]
                else:  # keeps-set: may go only when the set of colours stays whole
                    after = list(of_rank)
                    after.remove(face)
                    hit = (len(colours) >= b["size"]
                           and len({d.colour_index(f) for f in after}) < b["size"])
                if hit:
                    why += [b["rule"], b["scope_rule"]]
        return why

    def discards(self, hand: Sequence[int]) -> list[int]:
        """The faces of `hand` that may be discarded, in face order."""
        return [f for f in sorted(set(hand)) if not self.banned(hand, f)]
