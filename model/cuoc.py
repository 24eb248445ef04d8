"""The cước (named bonuses) a winning hand has, from the table's ``[[cuoc]]`` entries.

Only the cước that depend on the final hand alone are data today: each ``[[cuoc]]`` entry
is a conjunction (``all``) of conditions from the closed vocabulary of model/table.py
(`CARD_SELECTORS`, `GROUP_SELECTORS`, `MEASURES`, `COMPARISONS`).  Nothing is executed:
this module interprets those few words and nothing else.

Card measures count over the final hand (every concealed card, the completing card
included, plus every laid-down card).  Group measures read the decomposition the win
engine reports (`Verdict.groups`); ``chan`` is the engine's chắn count (`Verdict.chan`,
the largest over every admissible decomposition, so it does not depend on the split).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chanspec.model import cards
from chanspec.model.table import Rules, cond_holds
from chanspec.model.win import Group, Verdict


@dataclass(frozen=True)
class CuocHit:
    """One cước the hand has: its row, its name, how many times it counts, its amounts
    (``None`` when the table gives none)."""

    row: str
    name_vi: str
    name_en: str
    times: int
    diem: int | None
    dich: int | None

    def as_json(self) -> dict[str, object]:
        return {"row": self.row, "name_vi": self.name_vi, "name_en": self.name_en,
                "times": self.times, "diem": self.diem, "dich": self.dich}


def final_counts(concealed_counts: Sequence[int], laid_groups: Sequence[Group]) -> list[int]:
    """Count of each face in the final hand: concealed plus laid down."""
    out = list(concealed_counts) + [0] * max(0, cards.NUM_FACES - len(concealed_counts))
    for g in laid_groups:
        for f in g.faces:
            out[f] += 1
    return out


def measure(m: Mapping[str, Any], rules: Rules, counts: Sequence[int],
            verdict: Verdict) -> int:
    """The value of one measure (``count`` or ``sets``) over a final hand."""
    if "sets" in m:
        return min(counts[cards.parse(c)] for c in m["sets"])
    sel = m["count"]
    if isinstance(sel, list):
        return sum(counts[f] for f in {cards.parse(c) for c in sel})
    if sel == "cards":
        return sum(counts)
    if sel == "red":
        return sum(n for f, n in enumerate(counts) if f in rules.red)
    if sel == "black":
        return sum(n for f, n in enumerate(counts) if f not in rules.red)
    if sel == "chan":
        return verdict.chan or 0
    groups = verdict.groups or ()
    if sel == "ca":
        return sum(1 for g in groups if len(g) == 2 and g[0] != g[1])
    if sel == "chiu":
        return sum(1 for g in groups if len(g) == 4)
    raise ValueError(f"unknown selector {sel!r}")  # the loader refuses it first


def holds(cond: Mapping[str, Any], value: int) -> bool:
    if "eq" in cond:
        return value == cond["eq"]
    if "ge" in cond:
        return value >= cond["ge"]
    return value <= cond["le"]


def hand_cuoc(rules: Rules, concealed_counts: Sequence[int], laid_groups: Sequence[Group],
              verdict: Verdict) -> list[CuocHit]:
    """Every cước of the table the winning hand has, in table order; none for a hand that
    does not win.  `concealed_counts` includes the completing card."""
    if not verdict.win:
        return []
    counts = final_counts(concealed_counts, laid_groups)
    hits = []
    for c in rules.table.data.get("cuoc", []):
        if not all(holds(cond, measure(cond, rules, counts, verdict)) for cond in c["all"]):
            continue
        times = 1
        if "times" in c and cond_holds(c.get("times_if", True), rules.options):
            times = measure(c["times"], rules, counts, verdict)
        row = rules.table.rows[c["rule"]]
        hits.append(CuocHit(row.id, row.title_vi, row.title_en, times,
                            c.get("diem"), c.get("dich")))
    return hits
