"""The cước (named bonuses) a winning hand has, from the table's ``[[cuoc]]`` entries.

Each ``[[cuoc]]`` entry is a conjunction (``all``) of conditions from the closed
vocabulary of model/chan/vocab.py (`CARD_SELECTORS`, `GROUP_SELECTORS`, `SCOPE_SELECTORS`,
`CONTEXT_SELECTORS`, `FACTS`, `MEASURES`, `COMPARISONS`).  Nothing is executed: this
module interprets those few words and nothing else.

Card measures count over the final hand (every concealed card, the completing card
included, plus every laid-down card); ``concealed``, ``laid`` and ``dealt`` count over a
part of it or over the hand as dealt.  Group measures read the decomposition the win
engine reports (`Verdict.groups`); ``chan`` is the engine's chắn count (`Verdict.chan`,
the largest over every admissible decomposition, so it does not depend on the split).

A cước may also depend on how the hand was won: a `WinContext` carries the kind of win,
the winning card and where it came from, and the hand's history.  Without a context
(`chanspec win`) only the entries that need none are judged; the others are left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.model.chan import cards
from chanspec.model.chan.win import Group, Verdict, WinKind, engine

from ..table import cond_holds
from .table import Rules
from .vocab import (
    CONTEXT_FACTS,
    CONTEXT_MEASURES,
    CONTEXT_SELECTORS,
    HISTORY_SELECTORS,
    WIN_SOURCES,
)


@dataclass(frozen=True)
class WinContext:
    """How a hand was won, beyond its final cards: what the ``[[cuoc]]`` words of a win
    context (`table.CONTEXT_FACTS`, `table.CONTEXT_MEASURES`) read.

    `kind` is the engine's kind of win (``opening`` = thiên ù, the dealt hand of the cái
    holder).  `card` is the winning card's face (None for an opening win) and `source`
    where it came from (`table.SOURCES`).  `thong`: the same player won the previous hand
    and declared it correctly (or it was treo tranh).  `first_round`: the win comes before
    the winner's own turn has passed their cửa chì (địa ù).  `dealt`: the count of each
    face in the hand as dealt, when known (None: cước that need it stay undecided)."""

    kind: WinKind = "u"
    card: int | None = None
    source: str = "own-draw"
    thong: bool = False
    first_round: bool = False
    dealt: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.source not in WIN_SOURCES:
            raise ValueError(f"unknown source {self.source!r}; known: {', '.join(WIN_SOURCES)}")

    def as_json(self) -> dict[str, object]:
        return {"kind": self.kind, "card": None if self.card is None else cards.code(self.card),
                "source": self.source, "thong": self.thong, "first_round": self.first_round,
                "dealt": None if self.dealt is None else cards.codes(
                    [f for f, n in enumerate(self.dealt) for _ in range(n)])}


@dataclass(frozen=True)
class CuocHit:
    """One cước the hand has: its row, its name, how many times it counts, its amounts
    (``None`` when the table gives none), the option row its amounts come from (if any)
    and the cước it replaces (``replaced_by``: the cước that replaced this one)."""

    row: str
    name_vi: str
    name_en: str
    times: int
    diem: int | None
    dich: int | None
    amount_rule: str | None = None
    group: str = "have"
    replaced_by: str | None = None
    rules: tuple[str, ...] = field(default_factory=tuple)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"row": self.row, "name_vi": self.name_vi,
                                  "name_en": self.name_en, "times": self.times,
                                  "diem": self.diem, "dich": self.dich}
        if self.replaced_by is not None:
            out["replaced_by"] = self.replaced_by
        return out


class Undecided(Exception):
    """A condition that needs a fact the context does not carry (the dealt hand)."""


@dataclass
class _Hand:
    """What the conditions read: the final hand, its parts, the verdict and the context."""

    rules: Rules
    counts: list[int]
    concealed: list[int]
    laid: Sequence[Group]
    verdict: Verdict
    ctx: WinContext | None
    laid_counts: list[int] = field(default_factory=list)
    held: dict[str, int] = field(default_factory=dict)  # cước so far -> times
    _waits: int | None = None

    def waits(self) -> int:
        """How many faces would have completed the hand as it stood before the winning
        card, by an ordinary win or by a chíu-ù (the card a fourth of three held)."""
        if self._waits is None:
            ctx = self.ctx
            assert ctx is not None and ctx.card is not None
            laid = final_counts([0] * cards.NUM_FACES, self.laid)
            before = [c - n for c, n in zip(self.counts, laid, strict=True)]
            before[ctx.card] -= 1
            hand = [f for f, n in enumerate(before) for _ in range(n)]
            hand += [f for g in self.laid for f in g.faces]
            eng = engine(self.rules)
            n = 0
            for f in self.rules.table.deck_faces():
                if self.counts[f] - (f == ctx.card) >= self.rules.copies:
                    continue
                kinds: tuple[WinKind, ...] = ("u", "chiu-u") if before[f] == 3 else ("u",)
                n += any(eng.judge(hand, self.laid, f, k).win for k in kinds)
            self._waits = n
        return self._waits


def final_counts(concealed_counts: Sequence[int], laid_groups: Sequence[Group]) -> list[int]:
    """Count of each face in the final hand: concealed plus laid down."""
    out = list(concealed_counts) + [0] * max(0, cards.NUM_FACES - len(concealed_counts))
    for g in laid_groups:
        for f in g.faces:
            out[f] += 1
    return out


def _scope_value(sel: Any, counts: Sequence[int], h: _Hand) -> int:
    """A scope selector (``cards``, ``red``, ``black``, ``quads``, ``pairs``, ``card``
    or a list of faces) over one count vector."""
    if isinstance(sel, list):
        return sum(counts[f] for f in {cards.parse(c) for c in sel})
    if sel == "cards":
        return sum(counts)
    if sel == "red":
        return sum(n for f, n in enumerate(counts) if f in h.rules.red)
    if sel == "black":
        return sum(n for f, n in enumerate(counts) if f not in h.rules.red)
    if sel == "quads":
        return sum(1 for n in counts if n >= 4)
    if sel == "pairs":
        return sum(n // 2 for n in counts)
    if sel == "card":
        if h.ctx is None or h.ctx.card is None:
            return 0
        return counts[h.ctx.card]
    raise ValueError(f"unknown selector {sel!r}")  # the loader refuses it first


def measure(m: Mapping[str, Any], rules: Rules, counts: Sequence[int],
            verdict: Verdict, h: _Hand | None = None) -> int:
    """The value of one measure over a final hand (and its context, for the words of
    `table.CONTEXT_MEASURES`)."""
    if h is None:
        h = _Hand(rules, list(counts), list(counts), (), verdict, None, [0] * len(counts))
    if "sets" in m:
        return min(counts[cards.parse(c)] for c in m["sets"])
    if "concealed" in m:
        return _scope_value(m["concealed"], h.concealed, h)
    if "laid" in m:
        sel = m["laid"]
        if sel == "chiu":
            return sum(1 for g in h.laid if g.kind == "chiu")
        if sel == "bon":
            chan_faces = [g.faces[0] for g in h.laid if g.kind == "chan"]
            return sum(1 for f in set(chan_faces) if chan_faces.count(f) >= 2)
        return _scope_value(sel, h.laid_counts, h)
    if "laid_chan" in m:  # an eaten chắn or a chíu of these faces, not a laid cạ
        faces = {cards.parse(c) for c in m["laid_chan"]}
        return sum(1 for g in h.laid if g.kind in ("chan", "chiu") and g.faces[0] in faces)
    if "dealt" in m:
        if h.ctx is None or h.ctx.dealt is None:
            raise Undecided("dealt")
        return _scope_value(m["dealt"], h.ctx.dealt, h)
    if "held" in m:
        return sum(1 for _ in h.held)
    sel = m["count"]
    if sel == "waits":
        return h.waits()
    if isinstance(sel, list) or sel in ("cards", "red", "black", "quads", "card"):
        return _scope_value(sel, counts, h)
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
        return bool(value == cond["eq"])
    if "ge" in cond:
        return bool(value >= cond["ge"])
    return bool(value <= cond["le"])


def _fact(cond: Mapping[str, Any], h: _Hand) -> bool:
    """A fact of the context: ``kind``, ``source``, ``card`` (lists to be in), ``flag``
    (a named yes/no) and ``has`` (a cước judged earlier in the table)."""
    ctx = h.ctx
    assert ctx is not None
    if "kind" in cond:
        return ctx.kind in cond["kind"]
    if "source" in cond:
        return ctx.source in cond["source"]
    if "card" in cond:
        return ctx.card is not None and cards.code(ctx.card) in {
            cards.code(cards.parse(c)) for c in cond["card"]}
    if "has" in cond:
        return cond["has"] in h.held
    flag = cond["flag"]
    return bool({"thong": ctx.thong, "first-round": ctx.first_round}[flag])


def _needs_context(cond: Mapping[str, Any]) -> bool:
    if "any" in cond:
        return any(_needs_context(c) for alt in cond["any"] for c in alt)
    if any(k in cond for k in CONTEXT_FACTS) or any(k in cond for k in CONTEXT_MEASURES):
        return True
    if cond.get("laid") in HISTORY_SELECTORS:
        return True
    sel = cond.get("count", cond.get("concealed", cond.get("laid")))
    return isinstance(sel, str) and sel in CONTEXT_SELECTORS


def entry_needs_context(entry: Mapping[str, Any]) -> bool:
    """Whether a ``[[cuoc]]`` entry reads anything beyond the final hand."""
    return any(_needs_context(c) for c in entry["all"])


def _cond_holds(cond: Mapping[str, Any], h: _Hand) -> bool:
    if "when" in cond and not cond_holds(cond["when"], h.rules.options):
        return True  # a condition that applies under another reading only
    if "any" in cond:
        return any(all(_cond_holds(c, h) for c in alt) for alt in cond["any"])
    if any(k in cond for k in CONTEXT_FACTS):
        return _fact(cond, h) == cond.get("is", True)
    return holds(cond, measure(cond, h.rules, h.counts, h.verdict, h))


def _times(entry: Mapping[str, Any], h: _Hand) -> int:
    spec = entry.get("times")
    if spec is None or not cond_holds(entry.get("times_if", True), h.rules.options):
        return 1
    for m in spec if isinstance(spec, list) else [spec]:
        if cond_holds(m.get("when", True), h.rules.options):
            return measure(m, h.rules, h.counts, h.verdict, h)
    return 1


def amounts(entry: Mapping[str, Any], rules: Rules) -> tuple[int | None, int | None]:
    """(điểm, dịch) of an entry: its own, or those of the value its ``amount_rule``
    (an option row) has under these rules."""
    if "amount_rule" in entry:
        d, c = entry["amounts"][rules.options[entry["amount_rule"]]]
        return int(d), int(c)
    return entry.get("diem"), entry.get("dich")


@dataclass(frozen=True)
class Judgement:
    """Every cước a winning hand holds (`held`, in table order, replaced ones marked) and
    the rows that could not be judged for want of a fact (`undecided`)."""

    held: tuple[CuocHit, ...]
    undecided: tuple[str, ...]

    @property
    def declared(self) -> tuple[CuocHit, ...]:
        """The cước to declare: those held that no other cước held replaces."""
        return tuple(h for h in self.held if h.replaced_by is None)


@dataclass(frozen=True)
class Declaration:
    """A winner's declaration (xướng) judged against the cước the hand holds: the rows
    named that make it wrong (`wrong`: not held, named beside the cước that replaces
    them, or named alone where the table says that is wrong), the cước held but not named
    (`missing`: forfeited), and the cước paid (`paid`: those named, when nothing is wrong)."""

    named: tuple[str, ...]
    wrong: tuple[str, ...]
    missing: tuple[str, ...]
    paid: tuple[CuocHit, ...]

    @property
    def correct(self) -> bool:
        """No wrong name (a declaration that leaves cước out is still correct)."""
        return not self.wrong

    def as_json(self) -> dict[str, object]:
        return {"named": list(self.named), "correct": self.correct, "wrong": list(self.wrong),
                "missing": list(self.missing), "paid": [h.row for h in self.paid]}


def check_declaration(rules: Rules, j: Judgement, named: Sequence[str]) -> Declaration:
    """Judge a declaration naming the cước rows `named` (000 [Xướng] ¶1: naming a cước
    the hand lacks is wrong, leaving one out forfeits it; [Cước] ¶4 and #12 for replaced
    cước, as each entry's ``declare_replaced`` says)."""
    entries = {c["rule"]: c for c in rules.table.data.get("cuoc", [])}
    held = {h.row: h for h in j.held}
    names = list(dict.fromkeys(named))
    wrong: list[str] = []
    paid: list[CuocHit] = []
    for r in names:
        h = held.get(r)
        if h is None:
            wrong.append(r)
        elif h.replaced_by is None:
            paid.append(h)
        elif h.replaced_by in names:
            wrong.append(r)
        elif entries[h.replaced_by]["declare_replaced"] == "wrong":
            wrong.append(r)
        else:
            paid.append(h)
    missing = [h.row for h in j.declared if h.row not in names]
    return Declaration(tuple(names), tuple(wrong), tuple(missing),
                       () if wrong else tuple(paid))


def judge(rules: Rules, concealed_counts: Sequence[int], laid_groups: Sequence[Group],
          verdict: Verdict, ctx: WinContext | None = None) -> Judgement:
    """Every cước of the table the winning hand has.  Without `ctx` only the entries
    that read the final hand alone are judged.  `concealed_counts` includes the
    completing card."""
    if not verdict.win:
        return Judgement((), ())
    counts = final_counts(concealed_counts, laid_groups)
    concealed = list(concealed_counts) + [0] * max(0, cards.NUM_FACES - len(concealed_counts))
    laid_counts = final_counts([0] * cards.NUM_FACES, laid_groups)
    if ctx is not None and ctx.kind == "chiu-u" and ctx.card is not None:
        # the winning chíu is laid down as it wins: its four cards are no longer concealed
        laid_counts[ctx.card] += concealed[ctx.card]
        concealed[ctx.card] = 0
    h = _Hand(rules, counts, concealed, laid_groups, verdict, ctx, laid_counts)
    found: list[tuple[Mapping[str, Any], int]] = []
    undecided: list[str] = []
    for c in rules.table.data.get("cuoc", []):
        if ctx is None and entry_needs_context(c):
            continue
        try:
            if not all(_cond_holds(cond, h) for cond in c["all"]):
                continue
        except Undecided:
            undecided.append(c["rule"])
            continue
        times = _times(c, h)
        if times <= 0:
            continue
        h.held[c["rule"]] = times
        found.append((c, times))
    replaced: dict[str, str] = {}
    for c, _ in found:
        for r in c.get("replaces", []):
            if r in h.held and r not in replaced:
                replaced[r] = c["rule"]
    hits = []
    for c, times in found:
        row = rules.table.rows[c["rule"]]
        d, dich = amounts(c, rules)
        hits.append(CuocHit(row.id, row.title_vi, row.title_en, times, d, dich,
                            c.get("amount_rule"), c.get("group", "have"),
                            replaced.get(row.id),
                            tuple(r for r in (row.id, c.get("amount_rule")) if r)))
    return Judgement(tuple(hits), tuple(undecided))


def hand_cuoc(rules: Rules, concealed_counts: Sequence[int], laid_groups: Sequence[Group],
              verdict: Verdict, ctx: WinContext | None = None) -> list[CuocHit]:
    """The cước to declare for a winning hand, in table order; none for a hand that does
    not win.  Without `ctx`, only those the final hand alone decides."""
    return list(judge(rules, concealed_counts, laid_groups, verdict, ctx).declared)


# --------------------------------------------------------------------------- from a hand


class NoWin(ValueError):
    """A hand that has nothing to score: not over, stuck, or ended drawn."""


@dataclass(frozen=True)
class WonHand:
    """A finished hand's win, read from its history: the winner's seat, every card held
    before the winning card (laid-down ones included, as `chanspec win` takes them), the
    laid groups, the `WinContext` and the faults recorded (restriction-mode=penalise)."""

    seat: int
    hand: tuple[int, ...]
    laid: tuple[Group, ...]
    ctx: WinContext
    faults: tuple[dict[str, Any], ...] = ()

    def as_json(self) -> dict[str, object]:
        return {"seat": self.seat, "hand": cards.codes(sorted(self.hand)),
                "laid": [cards.codes(g.faces) for g in self.laid],
                "context": self.ctx.as_json(), "faults": [dict(f) for f in self.faults]}


def won_hand(st: Any) -> WonHand:
    """The win of a finished hand (a `model.game.State`), from its events.

    The winning card's source is where its window came from: a draw at the winner's own
    gate (``own-draw``) or at another's (``other-draw``, also once passed on), a discard
    (``discard``), a card given back after a chíu to the winner's gate (``returned``); a
    card given back to another player's gate is read as ``discard`` (another player put it
    out at a gate not the winner's).  ``first_round`` (địa ù, 000 [Cước] #5): before the
    winning card the winner had drawn no card from the nọc and eaten none, so their turn
    had not yet passed their cửa chì; a chíu made meanwhile does not count (000 says so),
    nor does the opener's first discard.  ``dealt``: the winner's cards as dealt.
    ``thong``: the winner is one of the seats the deal names (`Deal.thong`, set by a
    session from the last hand; a hand on its own has none).
    Raises `NoWin` for a hand that is not over or ended drawn."""
    res = st.result
    if res is None:
        what = "stuck (a seat must act and has no legal action)" if st.is_stuck() else \
            "not over (seats still have moves to make)"
        raise NoWin(f"the hand is {what}: there is no win to score")
    if res.get("result") != "win":
        raise NoWin("the hand ended drawn (the nọc ran out): there is no winner to score")
    n = st.n
    drew = [0] * n  # nọc cards each seat drew so far
    ate = [0] * n  # cards each seat ate (eat or reclaim) so far
    window: tuple[str, int, int] | None = None  # (source, gate, card) of the open window
    draws_before = 0
    for e in st.events:
        t = e["type"]
        if t == "timeout-as":
            e, t = e["action"], e["action"]["type"]
        if t == "draw":
            window = ("draw", int(e["seat"]), cards.parse(e["card"]))
            draws_before = drew[int(e["seat"])]
            drew[int(e["seat"])] += 1
        elif t == "discard":
            window = ("discard", int(e["seat"]), cards.parse(e["card"]))
        elif t == "returned":
            window = ("return", int(e["gate"]), cards.parse(e["card"]))
        elif t == "laid" and len(e["group"]) == 2:
            ate[int(e["seat"])] += 1
        elif t == "end":
            break
    w = int(res["winner"])
    kind: WinKind = res["kind"]
    laid = tuple(st.laid[w])
    concealed = list(st.hands[w])
    card: int | None = None
    source = "own-draw"
    drawn = drew[w]
    if kind != "opening":
        assert window is not None
        src, gate, card = window
        if cards.code(card) != res["card"]:  # the events and the result disagree
            raise NoWin(f"the winning card {res['card']} is not the card of the last "
                        f"window ({cards.code(card)}): the history is inconsistent")
        concealed[card] -= 1
        if src == "draw":
            source = "own-draw" if gate == w else "other-draw"
            if gate == w:
                drawn = draws_before
        else:
            source = "returned" if src == "return" and gate == w else "discard"
    hand = [f for f, k in enumerate(concealed) for _ in range(k)]
    hand += [f for g in laid for f in g.faces]
    dealt = None if st.deal is None else tuple(cards.counts(st.deal.hands[w]))
    thong = st.deal is not None and w in st.deal.thong
    ctx = WinContext(kind=kind, card=card, source=source, thong=thong,
                     first_round=kind != "opening" and drawn == 0 and ate[w] == 0,
                     dealt=dealt)
    faults = tuple(f for f in st.faults if f["seat"] == w)
    return WonHand(w, tuple(hand), laid, ctx, faults)
