"""The winner's declaration (xướng) judged, and what it costs, from the table's
``[declaration]`` section (data; this module reads its few fields and nothing else).

After a win under a table whose ``[turn] declare_rule`` reads ``declare``, the winner
names a set of cước rows.  The machine knows the cước the hand truly holds
(`model.cuoc.judge`, on the win read from the hand's history by `model.cuoc.won_hand`)
and judges the declaration with `model.cuoc.check_declaration`:

* ``over``: some row named is wrong (a cước the hand lacks, or one named beside the cước
  that replaces it, as its ``declare_replaced`` says): xướng sai;
* ``must-missing``: nothing wrong, but a cước of ``[declaration] must`` is left out while
  the hand holds those of its ``with``;
* ``under``: nothing wrong, some cước left out (forfeited);
* ``correct``: exactly the cước to declare.

Each judgement but ``correct`` names, by role, the row that decides its consequence
(`table.DECLARE_CONSEQUENCES`): ``paid-named`` (the winner is paid the formula over the
cước named and held) or ``den`` (the winner pays; how much: ``den_amount_rule``, the
worth of the cước named, or of those truly held).  ``correct`` is paid in full.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chanspec.model.chan import cards
from chanspec.model.chan.cuoc import (
    CuocHit,
    Declaration,
    Judgement,
    WinContext,
    amounts,
    check_declaration,
    judge,
)
from chanspec.model.chan.score import Score, score
from chanspec.model.chan.win import Group, Verdict, engine

from .table import Rules

JUDGEMENTS = ("correct", "over", "under", "must-missing")
# the [declaration] role deciding the consequence of each wrong judgement
ROLE_OF = {"over": "declaration.over_rule", "under": "declaration.under_rule",
           "must-missing": "declaration.must_missing_rule"}


def declares(rules: Rules) -> bool:
    """Whether a win under these rules is followed by a declaration phase."""
    return rules.machine.get("turn.declare_rule", "none") == "declare"


def cuoc_ids(rules: Rules) -> tuple[str, ...]:
    """The rows a declaration may name: every ``[[cuoc]]`` entry, in table order."""
    return tuple(c["rule"] for c in rules.table.data.get("cuoc", []))


def hand_judgement(rules: Rules, hand: Sequence[int], laid: Sequence[Group],
                   ctx: WinContext) -> tuple[Verdict, Judgement | None]:
    """The win engine's verdict on a hand (every card held before the winning card, laid
    ones included) and, when it wins, every cước it holds (None when it does not win)."""
    verdict = engine(rules).judge(hand, laid, ctx.card, ctx.kind)
    if not verdict.win:
        return verdict, None
    concealed = cards.counts(hand)
    for g in laid:
        for f in g.faces:
            concealed[f] -= 1
    if ctx.card is not None:
        concealed[ctx.card] += 1
    return verdict, judge(rules, concealed, laid, verdict, ctx)


def correct(j: Judgement) -> tuple[str, ...]:
    """The correct declaration: every cước held that no other cước held replaces, as
    sorted row ids (the form of a ``declare`` action)."""
    return tuple(sorted(h.row for h in j.declared))


def paid_score(rules: Rules, d: Declaration) -> Score | None:
    """The formula over the cước a declaration gets paid (`Declaration.paid`)."""
    paid = tuple(dataclasses.replace(h, replaced_by=None) for h in d.paid)
    return score(rules, Judgement(paid, ()))


def named_hits(rules: Rules, j: Judgement, named: Sequence[str]) -> tuple[CuocHit, ...]:
    """The cước named, as hits: those held as held (their times), the others once, with
    the amounts their entry gives under these rules (for what a wrong declaration
    claimed)."""
    held = {h.row: h for h in j.held}
    entries = {c["rule"]: c for c in rules.table.data.get("cuoc", [])}
    out = []
    for r in named:
        h = held.get(r)
        if h is not None:
            out.append(dataclasses.replace(h, replaced_by=None))
            continue
        row = rules.table.rows[r]
        d, dich = amounts(entries[r], rules)
        out.append(CuocHit(r, row.title_vi, row.title_en, 1, d, dich,
                           entries[r].get("amount_rule"), entries[r].get("group", "have")))
    return tuple(out)


@dataclass(frozen=True)
class Judged:
    """A declaration judged: the rows `named`, the correct declaration (`expected`), the
    `judgement` (`JUDGEMENTS`), the rows that make it so (`wrong`, `missing`,
    `must_missing`), its `consequence` (``paid``, or a value of
    `table.DECLARE_CONSEQUENCES`), the score paid to the winner (`paid`) or the one the
    winner pays (`den`), and the rows that decide all this (`rules`)."""

    named: tuple[str, ...]
    expected: tuple[str, ...]
    judgement: str
    wrong: tuple[str, ...]
    missing: tuple[str, ...]
    must_missing: tuple[str, ...]
    consequence: str
    paid: Score | None
    den: Score | None
    rules: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {"named": list(self.named), "expected": list(self.expected),
                "judgement": self.judgement, "wrong": list(self.wrong),
                "missing": list(self.missing), "must_missing": list(self.must_missing),
                "consequence": self.consequence,
                "paid": None if self.paid is None else self.paid.as_json(),
                "den": None if self.den is None else self.den.as_json(),
                "rules": list(self.rules)}


def _must_missing(rules: Rules, j: Judgement, named: Sequence[str]) -> tuple[list[str], list[str]]:
    """(cước of ``[declaration] must`` left out, the rows that require them)."""
    dc = rules.table.data.get("declaration", {})
    declared = {h.row for h in j.declared}
    held = {h.row for h in j.held}
    out: list[str] = []
    why: list[str] = []
    for m in dc.get("must", []):
        if not set(m.get("with", [])) <= held:
            continue
        left = [r for r in m["cuoc"] if r in declared and r not in named]
        if left:
            out += left
            why.append(m["rule"])
    return out, why


def judge_declaration(rules: Rules, j: Judgement, named: Sequence[str]) -> Judged:
    """Judge the declaration naming the rows `named` of a hand whose cước are `j`, and
    settle it as the table's ``[declaration]`` says."""
    d = check_declaration(rules, j, named)
    names = tuple(sorted(d.named))
    must, must_rows = _must_missing(rules, j, names)
    held = {h.row: h for h in j.held}
    if d.wrong:
        judgement = "over"
    elif must:
        judgement = "must-missing"
    elif d.missing:
        judgement = "under"
    else:
        judgement = "correct"
    rid = rules.rid
    why = [rid("declaration.rule")]
    if judgement == "correct":
        consequence = "paid"
    else:
        consequence = rules.machine_value(ROLE_OF[judgement])
        why.append(rid(ROLE_OF[judgement]))
    why += must_rows
    for r in d.wrong:  # a replaced cước named: the entry that replaces it decides
        by = held[r].replaced_by if r in held else None
        why += [r] + ([by] if by is not None else [])
    why += list(d.missing)
    if consequence == "den":
        why.append(rid("declaration.den_amount_rule"))
        basis = (named_hits(rules, j, names)
                 if rules.machine_value("declaration.den_amount_rule") == "declared"
                 else tuple(dataclasses.replace(h, replaced_by=None) for h in j.declared))
        den = score(rules, Judgement(basis, ()))
        paid = None
        sc = den
    else:
        d_ok = d if not d.wrong else dataclasses.replace(
            d, paid=tuple(held[r] for r in names if r in held and r not in d.wrong))
        paid = paid_score(rules, d_ok)
        den = None
        sc = paid
    if sc is not None:
        why += list(sc.rules)
    return Judged(names, correct(j), judgement, tuple(sorted(d.wrong)), tuple(sorted(d.missing)),
                  tuple(sorted(must)), consequence, paid, den, tuple(dict.fromkeys(why)))


def representative(j: Judgement, ids: Sequence[str]) -> list[tuple[str, ...]]:
    """A bounded set of declarations for the machine's `legal_actions` (every subset of
    `ids` is legal; listing them all is not possible): the correct one, each single
    under-declaration (the correct one less one cước) and each single over-declaration
    (the correct one plus one row not in it), as sorted tuples, in that order."""
    good = correct(j)
    out = [good]
    out += [tuple(r for r in good if r != x) for x in good]
    out += [tuple(sorted(good + (x,))) for x in ids if x not in good]
    return list(dict.fromkeys(out))


def check_named(rules: Rules, named: Sequence[str]) -> str | None:
    """None when `named` is a declaration the table can state (known rows, each once,
    sorted); else what is wrong with it, in English."""
    known = cuoc_ids(rules)
    unknown = [r for r in named if r not in known]
    if unknown:
        return (f"{', '.join(map(repr, unknown))} is no cước of table {rules.table.id!r}; "
                f"a declaration names rows of [[cuoc]]: {', '.join(known)}")
    twice = sorted({r for r in named if list(named).count(r) > 1})
    if twice:
        return (f"{', '.join(twice)} named more than once; a declaration names each cước "
                "once (the machine counts how many times the hand holds it)")
    if list(named) != sorted(named):
        return "the cước of a declaration are listed sorted (the form of a declare action)"
    return None


def summary(judged: Mapping[str, Any]) -> dict[str, Any]:
    """The comparable part of a judged declaration: judgement and consequence."""
    return {"judgement": judged.get("judgement"), "consequence": judged.get("consequence")}
