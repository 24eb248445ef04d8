"""Which cước of the final hand can be held together, proved by Z3, and the largest score.

The cước judged here are the ``[[cuoc]]`` entries that read the final hand alone
(`cuoc.entry_needs_context` is false: thập thành, bạch định, tám đỏ, kính tứ chi, lèo,
tôm in classic).  Their conditions are translated word by word into Z3 over the count of
each face in a *complete hand*: ``2 * pairs`` cards, at most ``copies`` of a face, that
split into ``pairs`` pairs (chắn, or cạ the rules allow) with at least ``min_chan`` chắn
(the engine's judgement of a dealt hand, kind ``opening``).  The translation never asks
more than the condition: ``count = "chan"`` is the chắn of *one* decomposition Z3 picks,
where the scorer reads the largest over all of them, so ``unsat`` proves a pair can never
occur together, and a ``sat`` model is only a candidate: it is judged by the win engine
and `cuoc.judge`, and a candidate they turn down is excluded and the search goes on.

`cooccurrence()` returns, for every pair of those cước, a witness hand (checked by the
scorer) or a proof of impossibility (Z3 ``unsat``).  `largest()` finds the highest total
of 001's formula a complete hand reaches from these cước: for every set of them Z3 finds
jointly possible, a hand holding them all with each counted cước (``times``) counted as
often as Z3 can make it, scored by `score.score`; the formula only grows with more cước
and more times, so the best of those is the largest.  `with_context()` then tries every
way that hand could have been won (each card of it as the winning card, each kind and
source, thông, first round) and keeps the best total, a witness of a larger score.

`all_pairs()` extends the table to every pair of the table's cước: a witness from the
seeded search of checks/chan/cuoc_search.py (checked by the scorer), or a proof that
they never meet: Z3 (above), the enumeration of every context of a win (`context_clash`:
the facts of the two entries never hold together, whatever the hand), or the ranges the
two entries put on one measure (`range_clash`); what neither finds stays ``unknown``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3
from chanspec.model.chan import cards, cuoc, score, win
from chanspec.model.chan.table import Rules
from chanspec.model.chan.vocab import WIN_SOURCES
from chanspec.model.table import cond_holds


class NotEncodable(ValueError):
    """A condition word this module does not translate into Z3."""


def hand_entries(rules: Rules) -> list[dict[str, Any]]:
    """The ``[[cuoc]]`` entries that read the final hand alone."""
    return [c for c in rules.table.data.get("cuoc", []) if not cuoc.entry_needs_context(c)]


@dataclass(frozen=True)
class Pair:
    """Two cước: a hand that holds both (`witness`, checked by the scorer), or None with
    `proof` saying how Z3 refuted it."""

    a: str
    b: str
    witness: tuple[int, ...] | None
    proof: str = ""
    tries: int = 1

    @property
    def possible(self) -> bool:
        return self.witness is not None

    def as_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "possible": self.possible,
                "witness": None if self.witness is None else cards.codes(self.witness),
                "proof": self.proof, "tries": self.tries}


class _Model:
    """Z3 variables of one complete hand: the count of each face and one decomposition."""

    def __init__(self, rules: Rules):
        self.rules = rules
        fs = sorted(rules.faces)
        self.h = {f: z3.Int(f"n_{f}") for f in fs}
        self.chan = {f: z3.Int(f"chan_{f}") for f in fs}
        self.ca = {(a, b): z3.Int(f"ca_{a}_{b}") for i, a in enumerate(fs) for b in fs[i + 1:]
                   if rules.is_ca(a, b)}
        cons: list[Any] = [z3.And(v >= 0, v <= rules.copies) for v in self.h.values()]
        cons.append(z3.Sum(list(self.h.values())) == 2 * rules.pairs)
        cons += [v >= 0 for v in self.chan.values()] + [v >= 0 for v in self.ca.values()]
        for f in fs:
            touch = [v for (a, b), v in self.ca.items() if f in (a, b)]
            cons.append(2 * self.chan[f] + z3.Sum(touch + [z3.IntVal(0)]) == self.h[f])
        cons.append(self.total_chan() >= rules.min_chan)
        self.base = cons

    def total_chan(self) -> Any:
        return z3.Sum(list(self.chan.values()))

    def scope(self, sel: Any) -> Any:
        r = self.rules
        if isinstance(sel, list):
            return z3.Sum([self.h[f] for f in {cards.parse(c) for c in sel}] + [z3.IntVal(0)])
        if sel == "cards":
            return z3.Sum(list(self.h.values()))
        if sel == "red":
            return z3.Sum([v for f, v in self.h.items() if f in r.red] + [z3.IntVal(0)])
        if sel == "black":
            return z3.Sum([v for f, v in self.h.items() if f not in r.red] + [z3.IntVal(0)])
        if sel == "quads":
            return z3.Sum([z3.If(v >= 4, 1, 0) for v in self.h.values()])
        if sel == "pairs":
            return z3.Sum([v / 2 for v in self.h.values()])
        if sel == "chan":
            return self.total_chan()
        raise NotEncodable(f"selector {sel!r}")

    def measure(self, m: Mapping[str, Any]) -> Any:
        if "sets" in m:
            vals = [self.h[cards.parse(c)] for c in m["sets"]]
            out = vals[0]
            for v in vals[1:]:
                out = z3.If(v < out, v, out)
            return out
        if "count" in m:
            return self.scope(m["count"])
        raise NotEncodable(f"measure {sorted(m)}")

    def holds(self, cond: Mapping[str, Any]) -> Any:
        if "when" in cond and not cond_holds(cond["when"], self.rules.options):
            return z3.BoolVal(True)
        if "any" in cond:
            return z3.Or([z3.And([self.holds(c) for c in alt]) for alt in cond["any"]])
        v = self.measure(cond)
        if "eq" in cond:
            return v == cond["eq"]
        if "ge" in cond:
            return v >= cond["ge"]
        return v <= cond["le"]

    def entry(self, c: Mapping[str, Any]) -> Any:
        return z3.And([self.holds(cond) for cond in c["all"]])

    def times(self, c: Mapping[str, Any]) -> Any:
        spec = c.get("times")
        if spec is None or not cond_holds(c.get("times_if", True), self.rules.options):
            return z3.IntVal(1)
        for m in spec if isinstance(spec, list) else [spec]:
            if cond_holds(m.get("when", True), self.rules.options):
                return self.measure(m)
        return z3.IntVal(1)

    def hand(self, model: z3.ModelRef) -> tuple[int, ...]:
        out: list[int] = []
        for f in sorted(self.h):
            out += [f] * model.eval(self.h[f], model_completion=True).as_long()
        return tuple(out)

    def block(self, hand: Sequence[int]) -> Any:
        counts = cards.counts(hand)
        return z3.Or([v != counts[f] for f, v in self.h.items()])


def judge_hand(rules: Rules, hand: Sequence[int]) -> cuoc.Judgement:
    """The cước of a complete hand judged by the engine and the scorer (no context: only
    the entries that read the final hand)."""
    verdict = win.engine(rules).judge(list(hand), [], None, "opening")
    return cuoc.judge(rules, cards.counts(hand), [], verdict)


def _find(rules: Rules, want: Sequence[str], timeout_ms: int, max_tries: int,
          objective: Any = None) -> tuple[tuple[int, ...] | None, str, int]:
    """A complete hand the scorer says holds every cước of `want`, or None with why."""
    entries = {c["rule"]: c for c in hand_entries(rules)}
    m = _Model(rules)
    s: Any = z3.Optimize() if objective is not None else z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(*m.base)
    s.add(*[m.entry(entries[r]) for r in want])
    if objective is not None:
        s.maximize(objective(m, entries))
    for tries in range(1, max_tries + 1):
        res = s.check()
        if res == z3.unsat:
            return None, "unsat" if tries == 1 else f"unsat after {tries - 1} candidates " \
                "the scorer turned down", tries
        if res != z3.sat:
            return None, f"unknown ({res})", tries
        hand = m.hand(s.model())
        held = {h.row for h in judge_hand(rules, hand).held}
        if set(want) <= held:
            return hand, "", tries
        s.add(m.block(hand))
    return None, f"undecided after {max_tries} candidates", max_tries


def cooccurrence(rules: Rules, timeout_ms: int = 60_000, max_tries: int = 50) -> list[Pair]:
    """Every pair of the cước of the final hand: a witness or Z3's refutation."""
    rows = [c["rule"] for c in hand_entries(rules)]
    out = []
    for a, b in itertools.combinations(rows, 2):
        hand, why, tries = _find(rules, (a, b), timeout_ms, max_tries)
        out.append(Pair(a, b, hand, why, tries))
    return out


@dataclass(frozen=True)
class Best:
    """The highest total found, its hand and context, its cước and score."""

    hand: tuple[int, ...]
    ctx: cuoc.WinContext | None
    rows: tuple[str, ...]
    total: int
    ga: int

    def as_json(self) -> dict[str, Any]:
        return {"hand": cards.codes(self.hand),
                "context": None if self.ctx is None else self.ctx.as_json(),
                "cuoc": list(self.rows), "total": self.total, "ga": self.ga}


def _times_sum(m: _Model, entries: Mapping[str, Any]) -> Any:
    return z3.Sum([m.times(c) for c in entries.values() if "times" in c] + [z3.IntVal(0)])


def largest(rules: Rules, timeout_ms: int = 60_000) -> Best:
    """The highest total of a complete hand from the cước of the final hand alone."""
    rows = [c["rule"] for c in hand_entries(rules)]
    best: Best | None = None
    for k in range(len(rows), -1, -1):
        for want in itertools.combinations(rows, k):
            hand, _, _ = _find(rules, want, timeout_ms, 20, objective=_times_sum)
            if hand is None:
                continue
            j = judge_hand(rules, hand)
            sc = score.score(rules, j)
            assert sc is not None
            if best is None or sc.total > best.total:
                best = Best(hand, None, tuple(h.row for h in j.declared), sc.total, sc.ga)
    assert best is not None  # a hand of min_chan chắn and cạ always exists
    return best


def with_context(rules: Rules, hand: Sequence[int]) -> Best:
    """The best total of `hand` over every way it could have been won: each of its cards
    as the winning card (ordinary ù or chíu-ù), each source, thông, first round; and as a
    thiên ù (its dealt hand being itself)."""
    eng = win.engine(rules)
    best: Best | None = None
    counts = cards.counts(hand)
    dealt = tuple(counts)
    for thong, first in itertools.product((False, True), repeat=2):
        tries: list[tuple[list[int], cuoc.WinContext]] = [
            (list(hand), cuoc.WinContext("opening", None, "own-draw", thong, False, dealt))]
        for f in sorted(set(hand)):
            before = list(hand)
            before.remove(f)
            kinds: tuple[win.WinKind, ...] = ("u", "chiu-u") if counts[f] == 4 else ("u",)
            for kind, src in itertools.product(kinds, WIN_SOURCES):
                tries.append((before, cuoc.WinContext(kind, f, src, thong, first, dealt)))
        for held, ctx in tries:
            verdict = eng.judge(held, [], ctx.card, ctx.kind)
            if not verdict.win:
                continue
            j = cuoc.judge(rules, counts, [], verdict, ctx)
            sc = score.score(rules, j)
            if sc is not None and (best is None or sc.total > best.total):
                best = Best(tuple(hand), ctx, tuple(h.row for h in j.declared), sc.total, sc.ga)
    assert best is not None, "the hand wins as a thiên ù at least"
    return best


# --------------------------------------------------------------------------- every cước

CONTEXT_WORDS = ("kind", "source", "card", "flag", "has")


def facts_hold(cond: Mapping[str, Any], ctx: cuoc.WinContext, entries: Mapping[str, Any],
            options: Mapping[str, str]) -> bool:
    """Whether `cond` can hold in context `ctx` for *some* hand: the facts of the context
    are judged, every measure of the hand is taken to hold (a relaxation)."""
    if "when" in cond and not cond_holds(cond["when"], options):
        return True
    if "any" in cond:
        return any(all(facts_hold(c, ctx, entries, options) for c in alt) for alt in cond["any"])
    want = cond.get("is", True)
    if "kind" in cond:
        return (ctx.kind in cond["kind"]) == want
    if "source" in cond:
        return (ctx.source in cond["source"]) == want
    if "card" in cond:
        named = {cards.parse(c) for c in cond["card"]}
        return (ctx.card is not None and ctx.card in named) == want
    if "flag" in cond:
        return {"thong": ctx.thong, "first-round": ctx.first_round}[cond["flag"]] == want
    if "has" in cond:
        return all(facts_hold(c, ctx, entries, options) for c in entries[cond["has"]]["all"])
    return True


def contexts(rules: Rules) -> list[cuoc.WinContext]:
    """Every context the ``[[cuoc]]`` facts can tell apart: each kind of win, winning
    card (none for thiên ù), source, thông and first round."""
    out = []
    for kind, src, thong, first in itertools.product(("u", "chiu-u", "opening"), WIN_SOURCES,
                                                     (False, True), (False, True)):
        faces: list[int | None] = [None] if kind == "opening" else sorted(rules.faces)
        for f in faces:
            out.append(cuoc.WinContext(kind, f, src, thong, first))  # type: ignore[arg-type]
    return out


def context_clash(rules: Rules, a: str, b: str) -> bool:
    """True when no context lets both entries' facts hold (whatever the hand): the pair
    can never occur together, proved by enumerating every context."""
    entries = {c["rule"]: c for c in rules.table.data.get("cuoc", [])}
    for ctx in contexts(rules):
        if all(facts_hold(c, ctx, entries, rules.options) for c in entries[a]["all"]) and \
                all(facts_hold(c, ctx, entries, rules.options) for c in entries[b]["all"]):
            return False
    return True


_CMPS = ("eq", "ge", "le")


def _ranges(conds: Sequence[Mapping[str, Any]], options: Mapping[str, str],
            entries: Mapping[str, Any], row: str, order: Sequence[str]
            ) -> list[dict[str, tuple[float, float]]]:
    """The alternatives of a list of conditions, each as measure -> [low, high]: the
    bounds the comparisons put on each measure (a measure is the condition without its
    comparison), ``has`` expanded into the entry it names.  ``held = "cuoc"`` (how many
    cước above this entry the hand holds) bounds the measure ``held:<row above>`` of every
    entry above, so ``eq = 0`` says none of them is held."""
    alts: list[dict[str, tuple[float, float]]] = [{}]

    def meet(a: dict[str, tuple[float, float]], key: str, lo: float, hi: float
             ) -> dict[str, tuple[float, float]]:
        out = dict(a)
        plo, phi = out.get(key, (float("-inf"), float("inf")))
        out[key] = (max(lo, plo), min(hi, phi))
        return out

    for c in conds:
        if "when" in c and not cond_holds(c["when"], options):
            continue
        if "any" in c:
            new: list[dict[str, tuple[float, float]]] = []
            for alt in c["any"]:
                for sub in _ranges(alt, options, entries, row, order):
                    for a in alts:
                        merged = dict(a)
                        for k, (lo, hi) in sub.items():
                            merged = meet(merged, k, lo, hi)
                        new.append(merged)
            alts = new
            continue
        if "has" in c:
            sub_alts = _ranges(entries[c["has"]]["all"], options, entries, c["has"], order)
            alts = [_merge(a, s) for a in alts for s in sub_alts]
            alts = [meet(a, f"held:{c['has']}", 1, 1) for a in alts]
            continue
        if c.get("held") == "cuoc" and any(k in c for k in _CMPS):
            if c.get("eq") == 0 or c.get("le") == 0:
                above = order[:order.index(row)]
                for r in above:
                    alts = [meet(a, f"held:{r}", 0, 0) for a in alts]
            continue
        if any(k in c for k in CONTEXT_WORDS):
            continue  # facts: context_clash
        cmp = next((k for k in _CMPS if k in c), None)
        if cmp is None:
            continue
        key = repr(sorted((k, v) for k, v in c.items() if k not in _CMPS and k != "when"))
        v = c[cmp]
        lo, hi = {"eq": (v, v), "ge": (v, float("inf")), "le": (float("-inf"), v)}[cmp]
        alts = [meet(a, key, lo, hi) for a in alts]
    return alts


def _merge(a: Mapping[str, tuple[float, float]], b: Mapping[str, tuple[float, float]]
           ) -> dict[str, tuple[float, float]]:
    out = dict(a)
    for k, (lo, hi) in b.items():
        plo, phi = out.get(k, (float("-inf"), float("inf")))
        out[k] = (max(lo, plo), min(hi, phi))
    return out


def range_clash(rules: Rules, a: str, b: str) -> bool:
    """True when every alternative of `a`'s conditions and every one of `b`'s bound
    one measure of the same win to ranges that do not meet (thập thành's ten chắn and
    bạch thủ's six; xuông, which holds no cước above it, and any cước above it)."""
    entries = {c["rule"]: c for c in rules.table.data.get("cuoc", [])}
    order = [c["rule"] for c in rules.table.data.get("cuoc", [])]
    ra = [meet_held(x, a) for x in _ranges(entries[a]["all"], rules.options, entries, a, order)]
    rb = [meet_held(x, b) for x in _ranges(entries[b]["all"], rules.options, entries, b, order)]
    for x in ra:
        for y in rb:
            m = _merge(x, y)
            if all(lo <= hi for lo, hi in m.values()):
                return False
    return True


def meet_held(alt: Mapping[str, tuple[float, float]], row: str
              ) -> dict[str, tuple[float, float]]:
    """An alternative of `row` with the fact that `row` itself is held."""
    return _merge(alt, {f"held:{row}": (1, 1)})


@dataclass(frozen=True)
class AnyPair:
    """Two cước of the table under the rules' readings: `how` is ``witness`` (a winning
    sample of the seeded search that holds both, replaced ones included; `sample`),
    ``z3`` (both read the final hand alone and Z3 refutes them), ``context`` (no context
    of the win lets both hold), ``definition`` (`range_clash`: both bound one measure to
    ranges that do not meet) or ``unknown`` (no witness within the budget, no proof)."""

    a: str
    b: str
    how: str
    sample: Any = None

    def as_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "how": self.how,
                "sample": None if self.sample is None else self.sample.as_json()}


def all_pairs(rules: Rules, seed: int = 0, budget: int = 20_000,
              focus_budget: int = 0) -> list[AnyPair]:
    """Every pair of the table's cước, held together (replaced ones included) or not:
    witnesses from `budget` samples of the seeded search (those judged under `rules`'
    options) and, with `focus_budget`, that many more favouring the faces of each entry
    still in a pair without witness; proofs from Z3 for the cước of the final hand, from
    the enumeration of contexts and from the ranges of the measures."""
    from chanspec.checks.chan import cuoc_search

    entries = rules.table.data.get("cuoc", [])
    rows = [c["rule"] for c in entries]
    found: dict[tuple[str, str], Any] = {}

    def run(stream: Any, n_max: int) -> None:
        for n, (r, s) in enumerate(stream):
            if n >= n_max:
                return
            if r.options != rules.options:
                continue
            held = [h.row for h in cuoc_search.judge_sample(r, s).held]
            for x, y in itertools.combinations(sorted(held, key=rows.index), 2):
                found.setdefault((x, y), s)

    run(cuoc_search.samples(rules.table, seed, rules.players), budget)
    if focus_budget:
        for c in entries:
            if any((x, y) not in found for x, y in itertools.combinations(rows, 2)
                   if c["rule"] in (x, y)):
                run(cuoc_search.samples(rules.table, seed, rules.players, focus=c),
                    focus_budget)
    refuted = {(p.a, p.b) for p in cooccurrence(rules) if not p.possible}
    out = []
    for a, b in itertools.combinations(rows, 2):
        if (a, b) in found:
            out.append(AnyPair(a, b, "witness", found[(a, b)]))
        elif (a, b) in refuted:
            out.append(AnyPair(a, b, "z3"))
        elif context_clash(rules, a, b):
            out.append(AnyPair(a, b, "context"))
        elif range_clash(rules, a, b):
            out.append(AnyPair(a, b, "definition"))
        else:
            out.append(AnyPair(a, b, "unknown"))
    return out
