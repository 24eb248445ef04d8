"""What a win is worth: 001's formula over the cước declared, from the table's
``[scoring]`` section (data; this module reads its few fields and nothing else).

The formula (``[scoring]``, row ``score-formula``): when the hand holds a cước named in
``sum_diem_if`` (thập thành), the total is the sum of the điểm of every cước declared;
otherwise, when every cước declared is worth at most ``low_diem`` điểm (none at all: ù
xuông), the total is the sum of their dịch plus ``low_base``; otherwise the sum of their
dịch plus ``base``.  A cước counted several times (``times``) counts its amounts that
many times.  Gà: ``ga`` more for each entry of ``ga_for`` whose cước the hand has (all of
``declared``, or all of ``held`` with replaced ones included), when its ``when`` holds.
``min_rule``/``min_total``: the smallest total a house accepts as a win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chanspec.model.chan.cuoc import CuocHit, Judgement

from ..table import cond_holds
from .table import Rules, Table


@dataclass(frozen=True)
class Score:
    """The worth of a win: `total` (the formula), `ga` (gà points), `diem`/`dich` (the
    sums over the declared cước), which case of the formula applied (`case`: ``diem``,
    ``low`` or ``dich``), the smallest total accepted (`minimum`) and the rows behind it."""

    total: int
    ga: int
    diem: int
    dich: int
    case: str
    minimum: int
    rules: tuple[str, ...]

    @property
    def allowed(self) -> bool:
        """Whether the house accepts the win (its total reaches `minimum`)."""
        return self.total >= self.minimum

    def as_json(self) -> dict[str, object]:
        return {"total": self.total, "ga": self.ga, "diem": self.diem, "dich": self.dich,
                "case": self.case, "minimum": self.minimum, "allowed": self.allowed,
                "rules": list(self.rules)}


def _sum(hits: Sequence[CuocHit], attr: str) -> int:
    return sum((getattr(h, attr) or 0) * h.times for h in hits)


def score(rules: Rules, judgement: Judgement) -> Score | None:
    """The score of a win whose cước are `judgement`; None when the table has no
    ``[scoring]`` section."""
    sc = rules.table.data.get("scoring")
    if sc is None:
        return None
    declared = judgement.declared
    held = {h.row for h in judgement.held}
    names = {h.row for h in declared}
    diem, dich = _sum(declared, "diem"), _sum(declared, "dich")
    used = [sc["rule"]]
    if names & set(sc.get("sum_diem_if", [])):
        total, case = diem, "diem"
    elif all((h.diem or 0) <= sc["low_diem"] for h in declared):
        total, case = dich + sc["low_base"], "low"
    else:
        total, case = dich + sc["base"], "dich"
    ga = 0
    for g in sc.get("ga_for", []):
        if not cond_holds(g.get("when", True), rules.options):
            continue
        need = set(g["declared"]) <= names if "declared" in g else set(g["held"]) <= held
        if need:
            ga += sc.get("ga", 0)
            if "when" in g:
                used.append(g["when"]["option"])
    if ga and "ga_rule" in sc:
        used.append(sc["ga_rule"])
    minimum = 0
    if "min_rule" in sc:
        minimum = sc["min_total"][rules.options[sc["min_rule"]]]
        used.append(sc["min_rule"])
    return Score(total, ga, diem, dich, case, minimum, tuple(dict.fromkeys(used)))


def pattern_breaks(tbl: Table) -> list[tuple[str, str | None, int, int]]:
    """The amounts that break the pattern of 001's own table, under the formula: a cước
    declared alone is worth the formula's total for it (``dịch + low_base`` up to
    ``low_diem`` điểm, ``dịch + base`` above), which 001's fourteen amounts all satisfy.
    Every amount of every [[cuoc]] entry is checked, for each value of its amount row;
    an entry worth 0 điểm (ù xuông, or no amount of its own) is left out.  Returns
    (row, value or None, điểm, dịch) for each amount that breaks it."""
    sc = tbl.data.get("scoring")
    if sc is None:
        return []
    out = []
    for c in tbl.data.get("cuoc", []):
        if "amount_rule" in c:
            pairs = [(v, int(d), int(x)) for v, (d, x) in c["amounts"].items()]
        elif "diem" in c:
            pairs = [(None, c["diem"], c.get("dich", 0))]
        else:
            continue
        for value, d, x in pairs:
            if d == 0 or c["rule"] in sc.get("sum_diem_if", []):
                continue
            alone = x + (sc["low_base"] if d <= sc["low_diem"] else sc["base"])
            if alone != d:
                out.append((c["rule"], value, d, x))
    return out
