"""An independent Z3 oracle for Chiha's meld questions (seed 004): the most lệnh of a
hand over every split into melds, and whether a split with nothing left over exists.

The encoding shares no code with ``model/chiha/melds.py``.  It lists the concrete melds
the hand's cards could make, from the raw ``[[meld]]`` entries of the table (`candidates`:
for a same-face shape every face held often enough, for a named-ranks shape every
colour, for a distinct-colours shape every set of colours), and gives each an integer
unknown ``use[m] >= 0``, how many times the split takes it.  Every face is used at most
as often as it is held (exactly as often for a split with no trash), and the lệnh
``sum use[m] * worth[m]`` is maximised with ``z3.Optimize``.  The model read back is a
split, returned as evidence.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3
from chanspec.model.chiha.table import ChihaRules


class Z3Unknown(RuntimeError):
    """Z3 gave up; neither an optimum nor a proof."""


@dataclass(frozen=True)
class Z3Split:
    lenh: int
    groups: tuple[tuple[str, tuple[int, ...]], ...]  # (row, faces) per meld used


@dataclass(frozen=True)
class Candidate:
    rule: str
    faces: tuple[int, ...]
    lenh: int


class ChihaZ3:
    """The optimisation model of one resolved Chiha table."""

    def __init__(self, rules: ChihaRules, timeout_ms: int = 20_000):
        self.rules = rules
        self.deck = rules.deck
        data: Any = rules.table.data
        self.shapes: list[dict[str, Any]] = list(data["meld"])
        self.bonus = int(data["concealed"]["bonus"])
        self.timeout_ms = timeout_ms

    def candidates(self, held: Counter[int], concealed: bool) -> list[Candidate]:
        """Every concrete meld whose cards `held` contains (with repeats)."""
        d = self.deck
        n_col = len(d.colours)
        rank_ids = [r.id for r in d.ranks]
        out: list[Candidate] = []
        for m in self.shapes:
            extra = self.bonus if concealed and m.get("concealed", False) else 0
            by_rank = m.get("lenh_by_rank", {})
            groups: list[tuple[tuple[int, ...], str]] = []
            if m["shape"] == "same-face":
                for f, n in held.items():
                    if n >= m["size"] and (not m.get("ranks") or d.rank_id(f) in m["ranks"]):
                        groups.append(((f,) * m["size"], d.rank_id(f)))
            elif m["shape"] == "named-ranks-one-colour":
                for c in range(n_col):
                    groups.append((tuple(c * len(rank_ids) + rank_ids.index(r)
                                         for r in m["ranks"]), ""))
            else:
                r = rank_ids.index(m["rank"])
                for cs in itertools.combinations(range(n_col), m["size"]):
                    groups.append((tuple(c * len(rank_ids) + r for c in cs), m["rank"]))
            for faces, rank in groups:
                need = Counter(faces)
                if all(held[f] >= k for f, k in need.items()):
                    out.append(Candidate(m["rule"], faces,
                                         int(by_rank.get(rank, m["lenh"])) + extra))
        return out

    def split(self, hand: Sequence[int], concealed: bool = True, exact: bool = False
              ) -> Z3Split | None:
        """The most lệnh over splits of `hand` (no trash with `exact`); None when no split
        with no trash exists."""
        held = Counter(hand)
        cands = self.candidates(held, concealed)
        opt = z3.Optimize()
        opt.set("timeout", self.timeout_ms)
        use = [z3.Int(f"use_{i}") for i in range(len(cands))]
        for u in use:
            opt.add(u >= 0)
        for f, n in held.items():
            total = z3.Sum([u * c.faces.count(f) for u, c in zip(use, cands, strict=True)
                            if f in c.faces] or [z3.IntVal(0)])
            opt.add(total == n if exact else total <= n)
        worth = z3.Sum([u * c.lenh for u, c in zip(use, cands, strict=True)] or [z3.IntVal(0)])
        opt.maximize(worth)
        res = opt.check()
        if res == z3.unsat:
            return None
        if res != z3.sat:
            raise Z3Unknown(f"z3 returned {res} on {sorted(hand)}")
        model = opt.model()
        groups: list[tuple[str, tuple[int, ...]]] = []
        for u, c in zip(use, cands, strict=True):
            groups += [(c.rule, c.faces)] * model.eval(u, model_completion=True).as_long()
        return Z3Split(model.eval(worth, model_completion=True).as_long(), tuple(groups))

    def best(self, hand: Sequence[int], concealed: bool = True) -> int:
        s = self.split(hand, concealed)
        assert s is not None
        return s.lenh

    def exact(self, hand: Sequence[int], concealed: bool = True) -> int | None:
        s = self.split(hand, concealed, exact=True)
        return None if s is None else s.lenh
