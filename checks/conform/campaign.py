"""Differential testing: play hands on the reference machine and an external engine in
lockstep, compare them at every step, and report every distinct difference.

A hand is made from a sequence of choices (`Choices`): the player count and options,
the deal built card by card (seats are dealt mostly chắn, a mix, or random cards, so
that wins, chíu and bans come up often), then each action as an index into the
reference's legal actions.  Hand i of a campaign draws its choices from its own seed, so
hands are independent (`--jobs`).  The recorded choices replay a hand exactly; shrinking
edits them (cut, zero, lower) and keeps a smaller hand that shows the same difference.

At each step the legal actions of *every* seat (pending or not) are compared as sets;
after the last step both engines' outcomes are compared (result, winner, kind, card).
A difference is a `Mismatch`, classified into a `Difference` by its decision point
(`classify`); the hand goes on along an action both sides allow.  An engine whose start
answer declares ``"claim_style": "one-seat-at-a-time"`` is asked a window's questions in
the order `claim_asks` derives from the table's claim priority and seat order; one that
declares ``events`` has each step's consequences compared with the rules'.  Requests are
pipelined: chanspec plays ahead and sends a stretch of steps before reading the answers.
Engine failures (timeout, crash, garbage, protocol errors) stop the campaign at once and
are reported with the last exchanges.  `deals` (a Hypothesis strategy over the same deal
builder) is kept for property tests.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from chanspec.checks.conform import logs, replay
from chanspec.checks.conform.driver import Engine, EngineError
from chanspec.checks.conform.refengine import (
    action_text,
    comparable_faults,
    outcome_json,
    state_json,
)
from chanspec.checks.output import count
from chanspec.model.chan import cai, cards, win
from chanspec.model.chan import game as game_mod
from chanspec.model.chan import table as table_mod
from chanspec.model.chan.game import CLAIM_KINDS, Action, Deal, State
from hypothesis import strategies as st

DEFAULT_MAX_STEPS = 400
SENT_AHEAD = 2  # hands a campaign sends an engine before reading the current one's answers
DEFAULT_SHRINK_BUDGET = 300  # hands replayed while shrinking, after the first failure
# the witnesses shrunk so far, by key: the witness's choices and the hands replayed for it
Known = dict[tuple[Any, ...], tuple[tuple[int, ...], int]]
CLAIM_STYLES = ("all-at-once", "one-seat-at-a-time")
INTERNAL_EXIT = 70  # chanspec failed on its own side (the CLI's internal-error code)


@dataclass(frozen=True)
class Scenario:
    rules: table_mod.Rules
    deal: Deal
    actions: tuple[Action, ...]

    def describe(self) -> str:
        return (f"{self.rules.players} players, options "
                f"{dict(sorted(self.rules.options.items()))}, {count(len(self.actions), 'action')}")


# --------------------------------------------------------------------------- strategies


def build_deal(rules: table_mod.Rules, choose: Callable[[int], int],
               coin: Callable[[], bool]) -> Deal:
    """A deal built card by card from choices: `choose(k)` picks 0..k-1, `coin()` a bool.

    Each seat is dealt in one of three styles: all chắn (one card short of a complete
    hand, the odd card often one of the faces the table singles out: those that may
    never complete ù and the Nhất/yêu group), a quarter chắn and the rest random, or
    random cards.  The nọc is drawn card by card, each card either any card left or,
    often, one that some hand holds an odd number of times (so wins and chíu come up).
    With choices from Hypothesis (`deals`) the deal shrinks toward simple hands; with
    choices from a seeded random generator it is reproducible from the seed.
    """
    v = rules.variant
    faces = list(rules.faces)
    special = sorted(rules.never_complete | rules.odd_group)
    pool = {f: rules.copies for f in faces}

    def take(candidates: list[int]) -> int:
        f = candidates[choose(len(candidates))]
        pool[f] -= 1
        return f

    opener = choose(v.players)
    hands: list[tuple[int, ...]] = []
    for seat in range(v.players):
        k = v.opener_cards if seat == opener else v.other_cards
        style = choose(3)
        hand: list[int] = []
        pairs = {0: k // 2, 1: k // 4, 2: 0}[style]
        for _ in range(pairs):
            avail = [f for f in faces if pool[f] >= 2]
            if not avail:
                break
            f = take(avail)
            pool[f] -= 1
            hand += [f, f]
        while len(hand) < k:
            odd = [f for f in special if pool[f] >= 1]
            if style == 0 and odd and coin():
                hand.append(take(odd))
            else:
                hand.append(take([f for f in faces if pool[f] >= 1]))
        hands.append(tuple(sorted(hand)))
    singles = sorted({f for h in hands for f in set(h) if h.count(f) % 2 == 1})
    noc: list[int] = []
    while any(pool.values()):
        useful = [f for f in singles if pool[f] >= 1]
        if useful and coin():
            noc.append(take(useful))
        else:
            noc.append(take([f for f in faces if pool[f] >= 1]))
    if not cai.has_ritual(rules):
        return Deal(tuple(hands), tuple(noc), opener)
    return _with_cai(rules, Deal(tuple(hands), tuple(noc), opener), choose)


def _with_cai(rules: table_mod.Rules, deal: Deal, choose: Callable[[int], int]) -> Deal:
    """`deal` under the dealing ritual: a cái card where the table puts it (the opener's
    hand or the nọc) and a drawer whose count of it names the opener, both chosen among
    the pairs that fit; the deal as it is when none does (a deal taken as given)."""
    in_hand = rules.machine_value("cai.card_rule") == "opener-hand"
    where = deal.hands[deal.opener] if in_hand else deal.noc
    fits = [(f, d) for f in sorted(set(where)) for d in range(rules.players)
            if cai.cai_opener(rules, f, d).opener == deal.opener]
    if not fits:
        return deal
    card, drawer = fits[choose(len(fits))]
    return Deal(deal.hands, deal.noc, deal.opener, card, drawer)


@st.composite
def deals(draw: Any, rules: table_mod.Rules) -> Deal:
    """`build_deal` driven by Hypothesis (shrinks toward simple hands)."""
    return build_deal(rules, lambda k: draw(st.integers(0, k - 1)), lambda: draw(st.booleans()))


def option_choices(table: table_mod.Table, fixed: Mapping[str, str],
                   vary: bool) -> list[tuple[str, tuple[str, ...]]]:
    """For each option row: its fixed value, or (with `vary`) every value, default first."""
    out = []
    for name, values in table.option_space():
        default = table.defaults()[name]
        if name in fixed:
            out.append((name, (fixed[name],)))
        elif vary:
            out.append((name, (default, *[v for v in values if v != default])))
        else:
            out.append((name, (default,)))
    return out


# --------------------------------------------------------------------------- lockstep


@dataclass
class SeatDiff:
    seat: int
    extra: list[Action]  # the engine allows them, the rules do not
    missing: list[Action]  # the rules allow them, the engine does not

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "extra": [a.as_json() for a in self.extra],
                "missing": [a.as_json() for a in self.missing]}


@dataclass
class Mismatch:
    step: int  # actions applied before the comparison that failed
    kind: str  # legal | refused | outcome
    seats: list[SeatDiff] = field(default_factory=list)
    refused: Action | None = None
    refused_error: str = ""
    reference_outcome: dict[str, Any] | None = None
    engine_outcome: dict[str, Any] | None = None
    resolution: list[str] = field(default_factory=list)  # rows that decided the last claim
    desync: bool = False  # the engine waits for other seats: it is elsewhere in the hand
    style: str = ""  # the claim style the engine plays, when it is not the declared one
    order: list[str] = field(default_factory=list)  # one seat at a time: another seat asked
    reference_events: list[dict[str, Any]] | None = None  # kind consequence: both sides'
    engine_events: list[dict[str, Any]] | None = None
    # the engine's 'state' is at another card: (the rules' card, the engine's card)
    elsewhere: tuple[str, str] | None = None
    one_seat: bool = False  # the engine was asked one seat at a time
    # one seat at a time: the restriction rows without which the rules ask exactly the
    # engine's question here (the engine asks a window the rules skip, or another card)
    lifted: tuple[str, ...] = ()
    # a guessed claim style: how the mismatch is keyed if the guess is dropped
    alt: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)

    def as_json(self) -> dict[str, Any]:
        out = {
            "step": self.step, "kind": self.kind, "seats": [d.as_json() for d in self.seats],
            "refused": None if self.refused is None else self.refused.as_json(),
            "refused_error": self.refused_error,
            "reference_outcome": self.reference_outcome, "engine_outcome": self.engine_outcome,
            "resolution": self.resolution, "desync": self.desync,
        }
        if self.style:
            out["style"] = self.style
        if self.order:
            out["order"] = self.order
        if self.elsewhere:
            out["elsewhere"] = {"rules": self.elsewhere[0], "engine": self.elsewhere[1]}
        if self.kind == "consequence":
            out["reference_events"] = self.reference_events
            out["engine_events"] = self.engine_events
        return out


def _parse_actions(engine: Engine, resp: dict[str, Any], seat: int, n: int) -> set[Action]:
    acts = resp.get("actions")
    if not isinstance(acts, list):
        raise engine.fail("protocol", f"'legal' for seat {seat} must answer with a list "
                           f"'actions'; got {str(resp)[:200]}")
    out = set()
    for i, a in enumerate(acts):
        if not isinstance(a, dict) or a.get("type") not in logs.ACTION_TYPES:
            raise engine.fail("protocol", f"'legal' for seat {seat}: actions[{i}] is not an "
                               f"action object with a known type: {a!r}")
        try:
            out.add(logs.LineCheck("<legal>", 1, a, n).action_fields(a, f"actions[{i}]."))
        except logs.LogError as exc:
            raise engine.fail("protocol", f"'legal' for seat {seat}: {exc.field}: "
                               f"{exc.message}") from None
    return out


class Choices:
    """The choices that make a hand: replayed from `given`, then drawn from `rng` (or 0).

    Every choice is an integer in 0..k-1; `made` records the values used, so a hand can
    be replayed exactly, and shrunk by editing the list (a value beyond the range of a
    later choice is taken modulo it, a missing one is 0).
    """

    def __init__(self, given: Sequence[int] = (), rng: random.Random | None = None):
        self.given = list(given)
        self.rng = rng
        self.made: list[int] = []

    def choose(self, k: int) -> int:
        i = len(self.made)
        if i < len(self.given):
            v = self.given[i] % k
        elif self.rng is not None:
            v = self.rng.randrange(k)
        else:
            v = 0
        self.made.append(v)
        return v

    def coin(self) -> bool:
        return self.choose(2) == 1

    def rewind(self, pos: int) -> None:
        del self.made[pos:]


@dataclass(frozen=True)
class Witness:
    """A hand that shows a difference: its choices, and how it went up to it."""

    choices: tuple[int, ...]
    rules: table_mod.Rules
    deal: Deal
    actions: tuple[Action, ...]  # the actions played before the mismatch
    mismatch: Mismatch
    before: int  # mismatches of other differences earlier in the same hand
    sent: table_mod.Rules | None = None  # the rules the engine was sent, if not `rules`
    clean: bool = True  # chanspec's explanation of the disputed action names its rows
    # one-seat-at-a-time: the actions sent to the engine (None: `actions`), and how many
    # of them answered the current window's questions before the difference
    sent_actions: tuple[Action, ...] | None = None
    asked: int = 0

    def size(self) -> tuple[bool, int, int, int, tuple[int, ...]]:
        """Smaller is simpler: a witness whose replay names the deciding rows, with
        fewer other differences before it, fewer steps, fewer and smaller choices."""
        return (not self.clean, self.before, len(self.actions), len(self.choices),
                self.choices)


@dataclass
class Difference:
    """One distinct difference: a decision point where the engine and the rules part."""

    key: tuple[Any, ...]
    label_en: str
    label_vi: str
    rows: list[str]
    count: int = 0
    hands: int = 0  # hands in which it showed
    first_hand: int = -1
    first_pos: int = 0  # its place among the mismatches of that hand
    witness_hand: int = -1  # the hand of `witness`, the simplest occurrence seen
    witness: Witness | None = None
    shrunk: Witness | None = None
    shrink_plays: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)
    saved: str | None = None
    explained_by: list[tuple[str, str]] = field(default_factory=list)
    states: dict[str, Any] | None = None  # chanspec's and the engine's 'state' there

    @property
    def best(self) -> Witness:
        w = self.shrunk or self.witness
        assert w is not None
        return w

    def as_json(self) -> dict[str, Any]:
        w = self.best
        return {"difference": self.label_en, "difference_vi": self.label_vi,
                "key": [list(k) if isinstance(k, tuple) else k for k in self.key],
                "rows": self.rows, "count": self.count, "hands": self.hands,
                "first_hand": self.first_hand, "witness_steps": len(w.actions),
                "witness": {"players": w.rules.players,
                            "options": dict(sorted(w.rules.options.items())),
                            "deal": w.deal.as_json(),
                            "actions": [a.as_json() for a in w.actions]},
                "mismatch": w.mismatch.as_json(), "log": self.saved, "states": self.states,
                **sides(self),
                "explained_by": [{"row": r, "value": v} for r, v in self.explained_by]}


def _sent_of(w: Witness) -> tuple[Action, ...]:
    """The actions the engine was sent up to a witness's difference."""
    return w.actions if w.sent_actions is None else w.sent_actions


def _source(st: State) -> str:
    if st.phase == "window" and st.window is not None:
        return st.window.source
    return st.phase


SOURCE_LABEL = {"draw": ("quân bốc", "a drawn card"), "discard": ("quân đánh ra",
                "a discarded card"), "return": ("quân trả cửa", "a returned card"),
                "opening": ("lượt mở đầu", "the opening turn"),
                "discard-turn": ("lượt đánh", "a discard turn"),
                "return-turn": ("lượt trả cửa", "a return turn"), "over": ("cuối ván",
                "the end of the hand")}


def _disputed(m: Mismatch) -> Action:
    """The action a legal-action mismatch is about: one the engine allows and the rules
    forbid if any (else one it lacks); a claim or a discard before a pass or a timeout."""
    d = next((d for d in m.seats if d.extra), m.seats[0])
    pool = d.extra or d.missing
    return min(pool, key=lambda a: (a.kind in ("pass", "timeout"), a))


def claim_asks(ref: State) -> list[tuple[int, list[Action]]]:
    """How a one-seat-at-a-time engine settles the window `ref` is at: the questions it
    asks, in order, as (seat, what that seat is offered).  The tiers are the table's
    claim priority (``[claims] priority``), within a tier the seats go in the machine's
    own seat order from the gate (``claim-seat-order``); a seat is asked about a tier
    only when it has a claim of that tier, and is offered those claims plus its ways of
    saying no (``pass``, and ``timeout`` where the table allows it): the machine's own
    `State.ask_order`."""
    return ref.ask_order()


def window_answers(ref: State, asks: Sequence[tuple[int, Sequence[Action]]],
                   granted: Action | None, at: int, nos: Mapping[int, Action]
                   ) -> list[Action]:
    """The answers chanspec's machine settles a window with when the engine asks one
    seat at a time: the granted claim (question `at` of `asks`); a seat with a claim it
    was never asked about was outranked (its highest claim not asked, which loses: no
    ban of a pass falls on it); a seat that said no (`nos`) to every question passed."""
    outranked: dict[int, Action] = {}
    if granted is not None:
        for s, rest in asks[at + 1:]:
            outranked.setdefault(s, rest[0])
    refs = [granted] if granted is not None else []
    refs += [outranked.get(s) or nos.get(s) or Action("pass", s) for s in ref.pending()
             if granted is None or s != granted.seat]
    return refs


def one_seat_replay(rules: table_mod.Rules, deal: Deal, sent: Sequence[Action],
                    edited: bool = False) -> tuple[State, int] | None:
    """chanspec's machine under `rules` (`edited`: rules edited in memory, its plan built
    for them) after the answers `sent` to a one-seat-at-a-time engine, and how many of
    the current window's questions they answered; None when one of them is not what
    those rules ask at its point."""
    st = _replay_with(rules, deal, ()) if edited else State(rules, deal)
    i = 0
    while i < len(sent):
        if st.phase != "window":
            if not st._is_legal(sent[i]):
                return None
            st.apply(sent[i], check=False)
            i += 1
            continue
        asks = claim_asks(st)
        granted: Action | None = None
        nos: dict[int, Action] = {}
        k = 0
        while k < len(asks):
            if i == len(sent):
                return st, k  # inside this window, question k is asked now
            seat, offer = asks[k]
            x = sent[i]
            if x not in offer:
                return None
            i += 1
            if x.kind in CLAIM_KINDS:
                granted = x
                break
            nos[seat] = x
            k += 1
        for a in window_answers(st, asks, granted, k, nos):
            st.apply(a)
    return st, 0


_EVENT_FIELDS = {t: (*req, *(opt if t != "end" else ("seat", "kind", "card")))
                 for t, (req, opt) in logs._CONSEQUENCE_FIELDS.items()}


def _event_keys(events: Sequence[Any]) -> list[str]:
    """Consequence lines in a comparable form (their defining fields, sorted): the
    order in which one action's consequences are reported is not compared."""
    out = []
    for e in events:
        if isinstance(e, dict) and e.get("type") in _EVENT_FIELDS:
            e = {k: e.get(k) for k in ("type", *_EVENT_FIELDS[e["type"]])}
        out.append(json.dumps(e, sort_keys=True, ensure_ascii=False))
    return sorted(out)


def _line_label(e: Any) -> str:
    """A consequence line's kind in a difference's key: its type, and for a ``banned``
    line the restriction row it names (bans of different rows are different differences)."""
    if not isinstance(e, dict):
        return "?"
    t = str(e.get("type", "?"))
    if t == "banned" and isinstance(e.get("rule"), str):
        return f"banned {e['rule']}"
    return t


def _deciding_rules(ref: State, a: Action, more: bool) -> tuple[str, ...]:
    """The rule ids that decide `a` on chanspec's side.  For a win the engine claims and
    the rules refuse, the win judgement's own rows when the hand is not complete (the
    first reason `explain` gives may be a window rule that also happens to refuse it)."""
    if more and a.kind in ("u", "chiu-u") and ref.phase == "window" and ref.window:
        try:
            v = ref.engine.judge(ref.held_faces(a.seat), ref.laid[a.seat], ref.window.card,
                                 a.kind)  # type: ignore[arg-type]
        except win.HandError:
            # the seat cannot even make that claim on this card (a chíu-ù without three
            # concealed copies: the engine is at another card, or counts otherwise):
            # the reason `explain` gives is the one that decides
            return ref.explain(a).rules
        if not v.win:
            return tuple(v.rules)
    return ref.explain(a).rules


def _flipping_rows(ref: State, a: Action, rows: Sequence[str],
                   seat_acts: frozenset[Action] | None) -> list[str]:
    """Of `rows` (the rows chanspec's explanation of `a` names), the option rows with a
    value under which the same hand, replayed, decides `a` the other way and leaves the
    seat exactly what the engine offers it (`seat_acts`; None: not compared): the rows
    that decide the disputed action, not every row that allows something."""
    rules, deal = ref.rules, ref.deal
    if deal is None:
        return []
    space = dict(rules.table.option_space())
    legal = ref._is_legal(a)
    out: list[str] = []
    for r in rows:
        for v in space.get(r, ()):
            if v == rules.options.get(r):
                continue
            try:
                other = resolved(rules.table, rules.players, {**rules.options, r: v})
                st = State.replay(other, deal, ref.history)
                flips = st._is_legal(a) != legal and _same_seat(st, a.seat, seat_acts)
            except Exception:  # noqa: BLE001 - the hand is not playable under that value
                continue
            if flips:
                out.append(r)
                break
    return out


_RESOLVED: dict[tuple[Any, ...], table_mod.Rules] = {}
_EDITED_PLANS: dict[tuple[Any, ...], Any] = {}
_CACHE_LIMIT = 4096  # entries of each cache above, at most (then it starts again)


def resolved(table: table_mod.Table, players: int, options: Mapping[str, str]
             ) -> table_mod.Rules:
    """`table.resolve(players, options)`, worked out once per table and options: the
    classifier asks for the same readings at every mismatch."""
    k = (id(table), players, tuple(sorted(options.items())))
    r = _RESOLVED.get(k)
    if r is None or r.table is not table:
        if len(_RESOLVED) >= _CACHE_LIMIT:
            _RESOLVED.clear()
        r = _RESOLVED[k] = table.resolve(players, options)
    return r


def _replay_with(rules: table_mod.Rules, deal: Deal, history: Iterable[Action]) -> State:
    """`State.replay` under rules edited in memory (a restriction row left out): the
    machine's plan is built for them (once per table, options and restrictions kept),
    not taken from the cache of the table's own."""
    k = (id(rules.table), rules.key(), tuple(r.rule for r in rules.restrictions))
    got = _EDITED_PLANS.get(k)
    if got is None or got[0] is not rules.table:
        if len(_EDITED_PLANS) >= _CACHE_LIMIT:
            _EDITED_PLANS.clear()
        got = _EDITED_PLANS[k] = (rules.table, game_mod._plan_uncached(rules))
    plan = got[1]
    st = State(rules)
    st._plan = plan
    st.apply_deal(deal)
    for a in history:
        st.apply(a)
    return st


def _same_seat(st: State, seat: int, seat_acts: frozenset[Action] | None) -> bool:
    """Does `st` offer `seat` exactly `seat_acts` (None: not compared)?"""
    if seat_acts is None:
        return True
    mine = {x for x in st.legal_actions(seat) if x.kind != "timeout"}
    return mine == {x for x in seat_acts if x.kind != "timeout"}


def _lifting_marks(ref: State, a: Action, seat_acts: frozenset[Action] | None
                   ) -> list[str]:
    """The restriction rows behind the seat's bans (its marks) without which the same hand,
    replayed, allows `a`: the ban an engine that allows `a` does not apply."""
    rules, deal = ref.rules, ref.deal
    if deal is None:
        return []
    out: list[str] = []
    for row in dict.fromkeys(m.rule for m in ref.marks[a.seat]):
        kept = tuple(r for r in rules.restrictions if r.rule != row)
        if len(kept) == len(rules.restrictions):
            continue
        try:
            st = _replay_with(dataclasses.replace(rules, restrictions=kept), deal, ref.history)
            lifts = st._is_legal(a) and _same_seat(st, a.seat, seat_acts)
        except Exception:  # noqa: BLE001 - the hand is not playable without that row
            continue
        if lifts:
            out.append(row)
    return out


# kinds of one decision: a discard and a return are both "a card given up from the hand"
_KIND_FAMILY = {"return": "discard"}


def deciding_rows(ref: State, a: Action, more: bool,
                  seat_acts: frozenset[Action] | None = None
                  ) -> tuple[tuple[str, ...], bool]:
    """The rows that decide the disputed action `a`, and whether they are the cause
    wherever it shows (True: an option row whose other value flips it; the key then
    leaves out where the card came from).  Where the engine allows less and no row flips
    it, the engine forbids something no row forbids: keyed by the action's kind alone
    (so one cause seen at several decision points, or with several faces, is one key)."""
    return _deciding(ref, a, more, seat_acts)[:2]


def _deciding(ref: State, a: Action, more: bool, seat_acts: frozenset[Action] | None
              ) -> tuple[tuple[str, ...], bool, bool]:
    """`deciding_rows`, and whether an option row flips `a`."""
    rows = _deciding_rules(ref, a, more)
    marks = {m.rule for m in ref.marks[a.seat]}
    vias = {m.via for m in ref.marks[a.seat] if m.via}
    if more and rows and set(rows) <= marks | vias and set(rows) & marks:
        # the seat's own bans refuse it: their restriction rows decide (the scope row
        # that carried a ban to this face is said in the explanation, not keyed)
        return tuple(sorted(set(rows) & marks)), True, True
    flips = _flipping_rows(ref, a, rows, seat_acts)
    if not flips and more and marks:
        flips = _lifting_marks(ref, a, seat_acts)
    if not flips and more:  # rare: a row the explanation does not name (e.g. who may claim)
        others = [r for r, _ in ref.rules.table.option_space() if r not in rows]
        flips = _flipping_rows(ref, a, others, seat_acts)
    if flips:
        return tuple(sorted(flips)), True, True
    if not more:
        return (), True, False
    return tuple(sorted(rows)), False, False


def _engine_seat(ref: State, m: Mismatch, seat: int) -> frozenset[Action] | None:
    """What the engine offered `seat` at a legal mismatch (None when the engine asks one
    seat at a time: it was offered one question, not the seat's every option)."""
    d = next((d for d in m.seats if d.seat == seat), None)
    if m.one_seat:
        return None
    if d is None:
        return frozenset(ref.legal_actions(seat))
    return frozenset({x for x in ref.legal_actions(seat) if x not in d.missing} | set(d.extra))


def _disputed_pairs(m: Mismatch) -> list[tuple[Action, bool]]:
    """The disputed actions of a legal mismatch, each with whether the engine allows more:
    one it allows and the rules forbid first, then one it lacks."""
    out = []
    for more in (True, False):
        d = next((d for d in m.seats if (d.extra if more else d.missing)), None)
        if d is not None:
            pool = d.extra if more else d.missing
            out.append((min(pool, key=lambda a: (a.kind in ("pass", "timeout"), a)), more))
    return out


ELSEWHERE_KEY = ("elsewhere",)


def classify(ref: State, m: Mismatch, prev: Action | None) -> tuple[tuple[Any, ...], str, str,
                                                                     list[str]]:
    """The decision point of a mismatch: (key, label en, label vi, rule ids involved).

    Legal-action mismatches with the same seats pending on both sides are keyed by the
    kind of the disputed action, the source of the card, the rule ids that decide it on
    chanspec's side and whether the engine allows more or less; when the engine waits
    for other seats than the rules do, it is at another point of the hand: keyed by the
    previous action and the rows that settled it.
    """
    src = _source(ref)
    if src in ("discard", "return") and ref.phase != "window":
        src = f"{src}-turn"
    svi, sen = SOURCE_LABEL.get(src, (src, src))
    if m.kind == "consequence":
        ro = collections.Counter(_event_keys(m.reference_events or []))
        eo = collections.Counter(_event_keys(m.engine_events or []))
        lacking = [json.loads(e) for e in ro - eo]
        adding = [json.loads(e) for e in eo - ro]
        lacks = tuple(sorted({_line_label(e) for e in lacking}))
        adds = tuple(sorted({_line_label(e) for e in adding}))
        # a differing ban cites the restriction row that creates it
        rows = list(dict.fromkeys(r for e in lacking + adding
                                  if isinstance(e, dict) and e.get("type") == "banned"
                                  for r in replay.consequence_rules(ref.rules, e)))
        key = ("consequence", lacks, adds)
        en = ", ".join(lacks) or "nothing"
        vi = ", ".join(lacks) or "không có gì"
        if lacks == adds:  # the same kinds of lines, saying other things
            return (key, f"consequences: the engine's {en} lines differ from the rules'",
                    f"hệ quả: dòng {vi} của engine khác với luật", rows)
        return (key, f"consequences: the engine reports {', '.join(adds) or 'nothing'} where "
                f"the rules have {en}",
                f"hệ quả: engine báo {', '.join(adds) or 'không có gì'} trong khi luật có "
                f"{vi}", rows)
    if m.elsewhere:
        return (ELSEWHERE_KEY, "the engine is at another card than the rules (its 'state' "
                f"names {m.elsewhere[1]}, the rules' window is on {m.elsewhere[0]})",
                f"engine đang ở quân khác với luật ('state' của engine là {m.elsewhere[1]}, "
                f"luật đang xét {m.elsewhere[0]})", [])
    if m.kind == "legal" and m.lifted:
        rules = list(m.lifted)
        a, more = (_disputed_pairs(m) or [(None, True)])[0]
        what = a.code() if a is not None else "another question"
        key = ("legal", "*", "*", m.lifted, "*")
        return (key, f"the engine plays otherwise where {', '.join(rules)} decide: e.g. "
                f"it asks about {what}, which the rules do not ask here",
                f"engine chơi khác luật ở chỗ {', '.join(rules)} quyết định: ví dụ engine "
                f"hỏi {what}, luật không hỏi ở đây", rules)
    if m.kind == "legal" and m.style:
        key = ("style", m.style)
        return (key, f"the engine asks claims {m.style} but its start answer does not "
                "declare it (\"claim_style\")",
                f"engine hỏi nhận quân kiểu {m.style} mà câu trả lời start không khai báo "
                "(\"claim_style\")", [])
    if m.kind == "legal" and m.order:
        key = ("order", tuple(m.order))
        return (key, "the engine asks another seat first than the claim order of the rules "
                f"({', '.join(m.order)})",
                "engine hỏi người khác trước, sai thứ tự nhận quân của luật "
                f"({', '.join(m.order)})", list(m.order))
    if m.kind == "legal" and not m.desync:
        # the side (allowed more, allowed less) whose action an option row decides
        # names the cause; else the action the engine allows and the rules forbid
        tried = [(a, more, *_deciding(ref, a, more, _engine_seat(ref, m, a.seat)))
                 for a, more in _disputed_pairs(m)]
        a, more, decided, anywhere, flipped = next((t for t in tried if t[4]), tried[0])
        rules = list(decided)
        kind = _KIND_FAMILY.get(a.kind, a.kind)
        if flipped:
            # an option row (or a ban's row) decides it: one cause wherever it shows,
            # whichever action and whichever way
            key = ("legal", "*", "*", decided, "*")
            return (key, f"the engine plays otherwise where {', '.join(rules)} decide: e.g. "
                    f"it {'allows' if more else 'does not allow'} {a.code()}, the rules "
                    f"{'forbid' if more else 'allow'} it",
                    f"engine chơi khác luật ở chỗ {', '.join(rules)} quyết định: ví dụ "
                    f"engine {'cho' if more else 'không cho'} {a.code()}, luật "
                    f"{'cấm' if more else 'cho'}", rules)
        where = "*" if anywhere else src
        key = ("legal", kind, where, decided, "more" if more else "less")
        if anywhere:
            svi, sen = ("mọi chỗ", "any decision point")
        if more:
            return (key, f"the engine allows {kind} on {sen}, the rules forbid it "
                    f"({', '.join(rules)})",
                    f"engine cho {kind} với {svi}, luật cấm ({', '.join(rules)})", rules)
        if not rules:
            shown = ", ".join(ref.explain(a).rules)
            return (key, f"the engine does not allow some {kind} the rules allow, and no row "
                    f"forbids it (a rule the table does not have; e.g. {a.code()}: {shown})",
                    f"engine không cho một số {kind} mà luật cho, không dòng luật nào cấm "
                    f"(một luật bảng không có; ví dụ {a.code()}: {shown})",
                    list(ref.explain(a).rules))
        return (key, f"the engine does not allow {kind} on {sen}, the rules do "
                f"({', '.join(rules)})",
                f"engine không cho {kind} với {svi}, luật cho ({', '.join(rules)})", rules)
    if m.kind == "legal":
        res = sorted(m.resolution)
        if res:  # competing claims settled: the rows that settled them are the point
            key = ("turn", "claims", tuple(res))
            return (key, f"after competing claims settled by {', '.join(res)}, the engine "
                    "waits for other seats than the rules",
                    f"sau khi phân xử nhiều người nhận quân theo {', '.join(res)}, engine "
                    "chờ người khác với luật", res)
        pk = prev.kind if prev is not None else "start"
        key = ("turn", pk, ())
        return (key, f"after {pk}, the engine waits for other seats than the rules",
                f"sau {pk}, engine chờ người khác với luật", res)
    if m.kind == "refused" and m.refused is not None:
        rules = sorted(ref.explain(m.refused).rules)
        key = ("refused", m.refused.kind, src, tuple(rules))
        return (key, f"the engine refuses {m.refused.kind} on {sen} that it listed",
                f"engine từ chối {m.refused.kind} với {svi} dù đã liệt kê", rules)
    ro = (m.reference_outcome or {}).get("outcome") or {}
    eo = (m.engine_outcome or {}).get("outcome") or {}
    key = ("outcome", ro.get("result"), ro.get("kind"), eo.get("result"), eo.get("kind"))
    return (key, f"outcome: rules {ro.get('result')}/{ro.get('kind')}, engine "
            f"{eo.get('result')}/{eo.get('kind')}",
            f"kết quả: luật {ro.get('result')}/{ro.get('kind')}, engine "
            f"{eo.get('result')}/{eo.get('kind')}", [])


_WINDOW_KINDS = frozenset(("chiu-u", "chiu", "eat", "reclaim", "pass"))
_TURN_KINDS = frozenset(("discard", "return", "declare"))


def _is_desync(ref: State, mine: Iterable[Action], theirs: Iterable[Action],
               one_seat: bool) -> bool:
    """Is the engine at another decision point of the hand than the rules (rather than at
    the same one, allowing other things)?  It is when it offers nothing where the rules
    ask answers to a claim window, when it offers answers to a claim window where the rules want a
    discard or the other way round, or (outside a window, and for an engine asking one
    seat at a time) when it waits for other seats.  In a window, an all-at-once engine
    that offers a seat nothing (a claim it does not allow) is at the same card, and so is
    an engine offering nothing at all at a turn (it allows none of the seat's cards)."""
    def fam(acts: Iterable[Action]) -> set[str]:
        return {"w" if a.kind in _WINDOW_KINDS else "t" for a in acts
                if a.kind in _WINDOW_KINDS or a.kind in _TURN_KINDS}

    ms = {a.seat for a in mine if a.kind != "timeout"}
    ts = {a.seat for a in theirs if a.kind != "timeout"}
    if ms == ts:
        return False
    if not ts:
        # nothing at all: at a turn, the engine allows none of what the seat may give up
        # (the same point: e.g. a card it never lets go is the seat's only discard);
        # where a claim window wants answers, it is not at that window
        return ref.phase == "window"
    if fam(mine) != fam(theirs):
        return True
    return ref.phase != "window" or one_seat


class _Step(NamedTuple):
    """One planned step of the engine: what it should offer, the action sent to it (None:
    the end, ask the outcome), the reference actions it stands for, the choice position,
    its place among the window's questions, and the rules' consequences (with 'events')."""

    mine: frozenset[Action]
    action: Action | None
    refs: tuple[Action, ...]
    pos: int
    asked: int
    cons: list[dict[str, Any]] | None
    said: bytes | None = None  # `mine` as chanspec serve would list it, in its order


@dataclass
class HandResult:
    choices: Choices
    rules: table_mod.Rules
    deal: Deal
    actions: list[Action]
    found: list[tuple[tuple[Any, ...], str, str, list[str], Witness]] = field(
        default_factory=list)
    error: EngineError | None = None
    target_hit: Witness | None = None
    sent: table_mod.Rules | None = None
    sent_actions: list[Action] = field(default_factory=list)  # as sent to the engine
    asked: int = 0  # engine steps into the current window (one-seat-at-a-time)
    internal: str = ""  # chanspec's own failure in this hand (a bug in chanspec)


class _Prepared(NamedTuple):
    """A hand made and sent ahead of its turn: its result so far, chanspec's machine at
    the end of the planned steps, the plan, the request texts and the first one's id."""

    hr: HandResult
    ref: State
    plan: list[_Step]
    texts: list[str]
    first_id: int


class Runner:
    """Plays hands on the reference and the engine in lockstep.

    Requests are pipelined: chanspec plays ahead on its own machine and sends, for each
    step, the engine's ``legal_all`` (or one ``legal`` per seat) and the ``apply`` of
    its chosen action, then reads the answers.  A mismatch is recorded, classified, and
    the hand goes on along an action both sides allow (the engine's hand is rebuilt up
    to that point when chanspec had planned ahead along a disputed action); a hand
    where the engine waits for other seats than the rules do ends there.
    """

    AHEAD = 120  # steps sent before reading their answers

    def __init__(self, engine: Engine, table: table_mod.Table, players: Sequence[int],
                 options: Sequence[tuple[str, Sequence[str]]], max_steps: int,
                 overrides: Mapping[str, str] | None = None):
        self.engine = engine
        self.table = table
        self.players = list(players)
        self.options = [(n, list(v)) for n, v in options]
        self.max_steps = max_steps
        self.overrides = dict(overrides or {})  # chanspec's own readings (--infer-options)
        self.legal_all: bool | None = None  # learnt from the 'start' answer
        self.state_op = False  # the engine answers 'state' (its start answer says so)
        self.events_op = False  # ... and 'events': consequences are compared after each step
        self.one_seat = False  # its start answer declares "claim_style":"one-seat-at-a-time"
        self.no_style = False  # the campaign found no claim style to guess (`_Collector`)
        # chanspec's action types as the engine names them (its start answer's
        # "action_names", e.g. {"chiu-u": "u"} for an engine with one win action)
        self.rename: dict[str, str] = {}
        self.plays = 0
        self._lookup: dict[tuple[Any, ...], Action] = {}
        self._rules: dict[tuple[Any, ...], table_mod.Rules] = {}
        self._texts: dict[Action, str] = {}
        self._said_texts: dict[Action, str] = {}  # each action as a legal_all answer lists it
        # called once a hand is wholly planned and sent, while its answers are still to
        # be read: the campaign prepares the next hand there (`prepare`)
        self.ahead: Callable[[], None] | None = None
        # while shrinking: a hand is given up once it has played more actions than this
        # (a witness is never longer than the best one so far), and planned no further
        self.limit: int | None = None
        self.before_limit: int | None = None  # ... or once it showed more other differences

    # ------------------------------------------------------------------ one hand
    def make(self, ch: Choices) -> tuple[table_mod.Rules, table_mod.Rules, Deal]:
        """The rules sent to the engine, chanspec's rules (with overrides), the deal."""
        n = self.players[ch.choose(len(self.players))]
        # a choice only where there is one: a row added to the table with its value
        # fixed does not change the hands every seed makes
        opts = {name: values[ch.choose(len(values))] if len(values) > 1 else values[0]
                for name, values in self.options}
        sent = self._resolve(n, opts)
        mine = self._resolve(n, {**opts, **self.overrides}) if self.overrides else sent
        return sent, mine, build_deal(mine, ch.choose, ch.coin)

    def _resolve(self, n: int, opts: Mapping[str, str]) -> table_mod.Rules:
        key = (n, tuple(sorted(opts.items())))
        rules = self._rules.get(key)
        if rules is None:
            rules = self._rules[key] = self.table.resolve(n, opts)
        return rules

    def play(self, ch: Choices, *, target: tuple[Any, ...] | None = None,
             stop_first: bool = False, pre: _Prepared | None = None) -> HandResult:
        """One hand (`pre`: the same hand's choices, already made and sent by
        `prepare`)."""
        self.plays += 1
        if pre is not None:
            hr = pre.hr
            if hr.error is not None:
                return hr
        else:
            sent, rules, deal = self.make(ch)
            hr = HandResult(ch, rules, deal, [], sent=sent)
        try:
            assert hr.sent is not None
            self._play(hr, hr.sent, target, stop_first, pre)
        except EngineError as exc:
            hr.error = exc
        except Exception as exc:  # noqa: BLE001 - chanspec's own bug: kept with its hand
            hr.internal = f"{type(exc).__name__}: {exc}"
            try:
                self.engine.drain()
            except EngineError:
                pass  # a broken engine shows in the next hand, if there is one
        return hr

    def _start_req(self, rules: table_mod.Rules, deal: Deal) -> dict[str, Any]:
        return {"op": "start", "ruleset": rules.table.id, "players": rules.players,
                "options": dict(sorted(rules.options.items())), "deal": deal.as_json()}

    def _restart(self, sent: table_mod.Rules, deal: Deal, actions: Sequence[Action]) -> None:
        """Rebuild the engine's hand: start, then the actions played so far."""
        e = self.engine
        e.drain()
        e.submit([self._start_req(sent, deal)] +
                 [{"op": "apply", "action": a.as_json()} for a in actions])
        self._check_start(e.receive())
        for a in actions:
            r = e.receive()
            if not r["ok"]:
                raise e.fail("protocol", f"the engine refused {a.code()} when its hand was "
                             "replayed, after accepting it before: "
                             f"{r.get('error', '(no error message)')}")
        if self.events_op:  # the replayed actions' consequences were compared before
            e.submit_texts(['{"op":"events"'])
            self._read_events()

    def _read_events(self) -> list[Any]:
        e = self.engine
        r = e.receive()
        evs = r.get("events")
        if not r["ok"] or not isinstance(evs, list):
            raise e.fail("protocol", "'events' must answer with a list 'events'; got "
                         f"{str(r)[:200]}")
        return evs

    def _compare_events(self, mine: list[dict[str, Any]], step: int) -> Mismatch | None:
        """The engine's consequences of the last step against the rules'."""
        theirs = self._read_events()
        if self.rename:
            mine = [{**c, "kind": self.rename.get(c["kind"], c["kind"])}
                    if c.get("type") == "end" and c.get("kind") else c for c in mine]
        if _event_keys(theirs) == _event_keys(mine):
            return None
        return Mismatch(step, "consequence", reference_events=mine,
                        engine_events=[e if isinstance(e, dict) else {"value": e}
                                       for e in theirs][:50])

    def _check_start(self, resp: dict[str, Any]) -> None:
        if not resp["ok"]:
            raise self.engine.fail("protocol", "the engine refused 'start': "
                                   f"{resp.get('error', '(no error message)')}")
        if self.legal_all is None:
            feats = resp.get("accepts")
            feats = feats if isinstance(feats, list) else []
            self.legal_all = "legal_all" in feats
            self.state_op = "state" in feats
            self.events_op = "events" in feats
            style = resp.get("claim_style", CLAIM_STYLES[0])
            if style not in CLAIM_STYLES:
                raise self.engine.fail("protocol", "'claim_style' in the start answer must be "
                                       f"one of {', '.join(CLAIM_STYLES)}; got {str(style)[:80]}")
            self.one_seat = style == "one-seat-at-a-time"
            names = resp.get("action_names", {})
            if not isinstance(names, dict) or any(
                    k not in logs.ACTION_TYPES or v not in logs.ACTION_TYPES
                    for k, v in names.items()):
                raise self.engine.fail("protocol", "'action_names' in the start answer must "
                                       "map action types to action types, e.g. "
                                       '{"chiu-u": "u"}; got ' + str(names)[:200])
            self.rename = {k: v for k, v in names.items() if k != v}

    def _legal_reqs(self, n: int) -> list[dict[str, Any]]:
        if self.legal_all:
            return [{"op": "legal_all"}]
        return [{"op": "legal", "seat": s} for s in range(n)]

    def _read_legal(self, n: int, mine: frozenset[Action], said: bytes | None = None
                    ) -> frozenset[Action]:
        e = self.engine
        if self.legal_all:
            r = e.receive()
            if not r["ok"]:
                raise e.fail("protocol", "'legal_all' failed: "
                             f"{r.get('error', '(no error message)')}")
            if said is not None and isinstance(r.get("actions"), list):
                raw = e.last_line
                i = raw.find(b'"actions":[')
                if i >= 0 and raw[i + 11:raw.find(b"]", i)] == said:
                    return mine  # word for word what chanspec lists
            return self._parse(r, None, n)
        out: set[Action] = set()
        for s in range(n):
            r = e.receive()
            if not r["ok"]:
                raise e.fail("protocol", f"'legal' for seat {s} failed: "
                             f"{r.get('error', '(no error message)')}")
            out |= self._parse(r, s, n)
        return frozenset(out)

    def _parse(self, resp: dict[str, Any], seat: int | None, n: int) -> frozenset[Action]:
        e = self.engine
        who = "'legal_all'" if seat is None else f"'legal' for seat {seat}"
        acts = resp.get("actions")
        if not isinstance(acts, list):
            raise e.fail("protocol", f"{who} must answer with a list 'actions'; got "
                         f"{str(resp)[:200]}")
        out: set[Action] = set()
        lookup = self._lookup
        for i, a in enumerate(acts):
            act = None
            if isinstance(a, dict) and len(a) <= 3 and "cuoc" not in a:
                t, s_, c = a.get("type"), a.get("seat"), a.get("card")
                if isinstance(t, str) and type(s_) is int and (c is None or isinstance(c, str)):
                    act = lookup.get((t, s_, c, n))
            if act is None:
                if not isinstance(a, dict) or a.get("type") not in logs.ACTION_TYPES:
                    raise e.fail("protocol", f"{who}: actions[{i}] is not an action object "
                                 f"with a known type: {str(a)[:200]}")
                try:
                    act = logs.LineCheck("<legal>", 1, a, n).action_fields(a, f"actions[{i}].")
                except logs.LogError as exc:
                    raise e.fail("protocol", f"{who}: {exc.field}: {exc.message}") from None
                if "cuoc" not in a:  # a declaration is not keyed by its card
                    lookup[(a.get("type"), a.get("seat"), a.get("card"), n)] = act
            if seat is not None and act.seat != seat:
                raise e.fail("protocol", f"{who}: actions[{i}] is an action of seat "
                             f"{act.seat}: {act.code()}")
            if act in out:
                raise e.fail("protocol", f"{who}: actions[{i}] is listed twice: {act.code()} "
                             "(PROTOCOL.md: every action once, without duplicates)")
            out.add(act)
        return frozenset(out)

    def _engine_state(self) -> dict[str, Any]:
        e = self.engine
        e.submit_texts(['{"op":"state"'])
        r = e.receive()
        theirs = r.get("state") if r["ok"] else None
        if not isinstance(theirs, dict):
            raise e.fail("protocol", "'state' must answer with a 'state' object; got "
                         f"{str(r)[:200]}")
        return theirs

    def _elsewhere(self, sent: table_mod.Rules, deal: Deal, actions: Sequence[Action],
                   at: State) -> tuple[str, str] | None:
        """(the rules' card, the engine's card) when the engine's 'state' puts it in a
        claim window on another card than the rules' window: the engine is elsewhere in
        the hand, and every difference that follows is a knock-on of that.  The engine's
        hand is rebuilt up to `actions` to ask it (and left there)."""
        self._restart(sent, deal, actions)
        theirs = self._engine_state()
        mine = state_json(at)
        if mine["card"] is None or theirs.get("card") is None:
            return None
        # the same moment (as many cards left in the nọc), another card: an engine that
        # has already moved on to a later card skipped a window (a claim it lacks)
        if theirs.get("noc") != mine["noc"] or all(
                theirs.get(k) == mine[k] for k in ("card", "source", "gate")):
            return None

        def said(st: Mapping[str, Any]) -> str:
            return f"{st.get('card')} ({st.get('source')}, gate {st.get('gate')}, " \
                   f"nọc {st.get('noc')})"
        return (said(mine), said(theirs))

    def states_at(self, w: Witness) -> dict[str, Any] | None:
        """At the witness's difference: what chanspec and the engine each think is
        happening (the engine's optional 'state'), and which fields differ."""
        if not self.state_op:
            return None
        e = self.engine
        self._restart(w.sent or w.rules, w.deal, _sent_of(w))
        e.submit_texts(['{"op":"state"'])
        r = e.receive()
        theirs = r.get("state") if r["ok"] else None
        if not isinstance(theirs, dict):
            raise e.fail("protocol", "'state' must answer with a 'state' object; got "
                         f"{str(r)[:200]}")
        at = State.replay(w.rules, w.deal, w.actions)
        mine = state_json(at)
        if self.one_seat and at.phase == "window":  # the seat asked now, one at a time
            asks = claim_asks(at)
            mine["pending"] = [asks[w.asked][0]] if w.asked < len(asks) else []
        differ = [k for k in mine if theirs.get(k) != mine[k]]
        return {"rules": mine, "engine": {k: theirs.get(k) for k in mine}, "differ": differ}

    def conforms_through(self, w: Witness, mine: table_mod.Rules) -> bool:
        """With chanspec playing `mine`, does the engine agree at the witness's own
        decision point?  The engine is sent the witness's rules and the witness's actions
        (each must stay legal under `mine` and be accepted); differences at earlier steps
        belong to other differences and are not looked at (but a consequence difference
        compares the consequences of the whole witness)."""
        e = self.engine
        n = w.rules.players
        try:
            ref = State(mine, w.deal)
        except ValueError:  # a reading under which the deal is not valid
            return False
        self._restart(w.sent or w.rules, w.deal, ())
        cons: list[dict[str, Any]] = []
        for a in w.actions:
            if not ref._is_legal(a):
                return False
            cons += logs.step(ref, a, check=False)
        for a in _sent_of(w):
            e.submit_texts([self._apply_text(a)])
            if not e.receive()["ok"]:
                return False
        if w.mismatch.kind == "consequence":
            e.submit_texts(['{"op":"events"'])
            return self._compare_events(cons, len(w.actions)) is None
        mine_acts = self.view(ref.legal_actions())
        if self.one_seat and ref.phase == "window":
            asks = claim_asks(ref)
            if w.asked >= len(asks):
                return False
            mine_acts = self.view(asks[w.asked][1])
        if w.mismatch.kind == "outcome":
            if mine_acts:
                return False
            e.submit_texts(self._legal_texts(n) + ['{"op":"outcome"'])
            if self._read_legal(n, mine_acts) != mine_acts:
                e.drain()
                return False
            return self._compare_outcome(ref) is None
        e.submit_texts(self._legal_texts(n))
        theirs = self._read_legal(n, mine_acts)
        if w.mismatch.kind == "refused" and w.mismatch.refused is not None:
            a = w.mismatch.refused
            if self._renamed(a) not in mine_acts or self._renamed(a) not in theirs:
                return theirs == mine_acts
            e.submit_texts([self._apply_text(a)])
            return bool(e.receive()["ok"]) and theirs == mine_acts
        return theirs == mine_acts

    def _record(self, hr: HandResult, ref: State, m: Mismatch, before: int,
                choices: Sequence[int], target: tuple[Any, ...] | None) -> bool:
        """Classify and keep a mismatch; True when it is the target difference (or, while
        shrinking, when the hand can no longer show it simply enough: it ends there)."""
        prev = hr.actions[-1] if hr.actions else None
        if m.kind == "legal" and prev is not None and ref.history:
            pb = State.replay(hr.rules, hr.deal, hr.actions[:-1])
            if pb.phase == "window":
                m.resolution = replay.claim_resolution(pb, prev, ref)
        if m.style:
            m.alt = classify(ref, dataclasses.replace(m, style=""), prev)
        key, en, vi, rows = classify(ref, m, prev)
        clean = True
        if m.kind == "legal" and not m.desync and rows:
            named = {r for a, _ in _disputed_pairs(m) for r in ref.explain(a).rules}
            clean = bool(named & set(rows))
        w = Witness(tuple(choices), hr.rules, hr.deal, tuple(hr.actions), m, before,
                    None if hr.sent is hr.rules else hr.sent, clean,
                    tuple(hr.sent_actions) if self.one_seat else None, hr.asked)
        hr.found.append((key, en, vi, rows, w))
        if target is not None and key == target:
            hr.target_hit = w
            return True
        # while shrinking: more other differences before the target than the best
        # witness has, and this hand can no longer give a simpler one (`Witness.size`)
        return self.before_limit is not None and len(hr.found) > self.before_limit

    def _plan_window(self, ref: State, ch: Choices, plan: list[_Step],
                     texts: list[str], n: int) -> None:
        """One-seat-at-a-time: the questions of the window `ref` is at, each a step for
        the engine; chanspec chooses each answer.  The first claim is granted and the
        questions left are never asked: a seat with a claim it was never asked about was
        outranked (its answer on `ref` is that claim, which loses: no ban of a pass falls
        on it), a seat that answered no to every question it was asked passed.  `ref`
        settles the window with these answers, all at once (its own draw, dead or
        passed-on card follow, as the engine's automatic ones must)."""
        granted: Action | None = None
        nos: dict[int, Action] = {}
        first = len(plan)
        asks = claim_asks(ref)
        at = len(asks)
        for i, (seat, offer) in enumerate(asks):
            pos = len(ch.made)
            x = offer[ch.choose(len(offer))]
            plan.append(_Step(self.view(offer), x, (), pos, len(plan) - first,
                              [] if self.events_op else None))
            texts += self._legal_texts(n)
            texts.append(self._apply_text(x))
            if self.events_op:
                texts.append('{"op":"events"')
            if x.kind in CLAIM_KINDS:
                granted, at = x, i
                break
            nos[seat] = x
        refs = window_answers(ref, asks, granted, at, nos)
        cons = self._advance(ref, refs)
        last = plan[-1]
        plan[-1] = _Step(last.mine, last.action, tuple(refs), last.pos, last.asked, cons)

    def _advance(self, ref: State, refs: Sequence[Action]) -> list[dict[str, Any]] | None:
        """Apply `refs` to `ref`; their consequence lines when the engine reports its own."""
        if not self.events_op:
            for a in refs:
                ref.apply(a, check=False)
            return None
        cons: list[dict[str, Any]] = []
        for a in refs:
            cons += logs.step(ref, a, check=False)
        return cons

    def _plan(self, ref: State, ch: Choices, base: int) -> tuple[list[_Step], list[str]]:
        """Up to AHEAD steps planned on chanspec's machine (`ref` moves along them) and
        the request texts that ask the engine the same; the plan's last step has no
        action when it reaches the end of the hand."""
        plan: list[_Step] = []
        texts: list[str] = []
        n = ref.n
        limit = self.AHEAD if self.limit is None else min(self.AHEAD, self.limit - base + 2)
        while len(plan) < max(1, limit):
            acts = ref.legal_actions()
            if not acts or base + len(plan) >= self.max_steps:
                texts += self._legal_texts(n)
                plan.append(_Step(frozenset(acts), None, (), len(ch.made), 0, None))
                texts.append('{"op":"outcome"')
                break
            if self.one_seat and ref.phase == "window":
                self._plan_window(ref, ch, plan, texts, n)
                continue
            texts += self._legal_texts(n)
            pos = len(ch.made)
            a = acts[ch.choose(len(acts))]
            texts.append(self._apply_text(a))
            if self.events_op:
                texts.append('{"op":"events"')
            plan.append(_Step(self.view(acts), a, (a,), pos, 0, self._advance(ref, (a,)),
                              self._said(acts) if self.legal_all else None))
        return plan, texts

    def _said(self, acts: Sequence[Action]) -> bytes:
        """The ``actions`` of a ``legal_all`` answer listing `acts` as chanspec serve does
        (in this order, the engine's names): an answer with exactly these bytes lists
        exactly these actions, and need not be read action by action."""
        said = self._said_texts
        for a in acts:
            if a not in said:
                said[a] = action_text(self._renamed(a))
        return ",".join([said[a] for a in acts]).encode()

    def prepare(self, ch: Choices) -> _Prepared | None:
        """Make the next hand and send its start and first planned steps now, while the
        engine is still answering the hand before.  None before the engine's first start
        answer, which says how to ask it (the hand is then played from the start by
        `play`); when the engine cannot be written to, the hand carries the error."""
        if self.legal_all is None:
            return None
        sent, rules, deal = self.make(ch)
        hr = HandResult(ch, rules, deal, [], sent=sent)
        ref = State(rules, deal)
        plan, texts = self._plan(ref, ch, 0)
        start = json.dumps(self._start_req(sent, deal), ensure_ascii=False,
                           separators=(",", ":"))[:-1]
        texts = [start] + texts
        first_id = self.engine.next_id()
        try:
            self.engine.submit_texts(texts)
        except EngineError as exc:
            hr.error = exc
        return _Prepared(hr, ref, plan, texts, first_id)

    def _play(self, hr: HandResult, sent: table_mod.Rules, target: tuple[Any, ...] | None,
              stop_first: bool, pre: _Prepared | None = None) -> None:
        e = self.engine
        rules, deal, ch = hr.rules, hr.deal, hr.choices
        first: list[_Step] | None = None
        if pre is None:
            ref = State(rules, deal)
            e.drain()
            e.submit([self._start_req(sent, deal)])
        else:
            ref, first = pre.ref, pre.plan
            if not e.in_flight_from(pre.first_id):
                # the answers were drained by the hand before (it ended at a mismatch,
                # or rebuilt its own hand in the engine): send this hand again
                e.drain()
                e.submit_texts(pre.texts)
        self._check_start(e.receive())
        n = ref.n
        while True:
            # plan ahead on chanspec's machine (`ref` moves along the plan), send the
            # whole plan, then read the answers; the state at a step where the engine
            # differs is rebuilt from the actions (rare)
            if first is not None:  # planned and sent before this hand began (`prepare`)
                plan, first = first, None
            else:
                plan, texts = self._plan(ref, ch, len(hr.actions))
                e.submit_texts(texts)
            if plan[-1].action is None and self.ahead is not None:
                self.ahead()  # the whole hand is sent: the engine works, we plan the next
            replan = False
            for mine, a, refs, pos, asked, cons, said in plan:
                hr.asked = asked
                theirs = self._read_legal(n, mine, said)
                if theirs != mine:
                    at = State.replay(rules, deal, hr.actions)
                    m = self._legal_mismatch(at, mine, theirs, len(hr.actions))
                    # an engine that answers 'state' says first whether it is at the
                    # same card at all (its hand is rebuilt up to here to ask it); also
                    # where its answer looks like another claim style's: if that guess
                    # is dropped, the mismatch is keyed as if never guessed
                    asked_state = self.state_op
                    if asked_state:
                        m.elsewhere = self._elsewhere(sent, deal, hr.sent_actions, at)
                    if self.one_seat and not m.elsewhere and (
                            m.desync or m.order or not mine <= theirs):
                        m.lifted = self._lifted(at, hr.sent_actions, theirs,
                                                m.desync and not m.order)
                        if m.lifted:
                            m.desync, m.order = False, []
                    hit = self._record(hr, at, m, len(hr.found),
                                       ch.made[:pos] if a is not None else ch.made, target)
                    if hit or stop_first or m.desync or m.style or m.elsewhere or \
                            m.lifted or a is None or (self.one_seat and at.phase == "window" and
                                          (asked_state or not mine <= theirs)):
                        # the hand ends here (no outcome after a mismatch); one seat at
                        # a time, an engine that lacks part of the rules' question may be
                        # asking another card's (a window the rules skip): an answer
                        # sent to it would answer that other question and put the two
                        # sides apart, every difference after it a knock-on
                        e.drain()
                        return
                    if self._renamed(a) not in theirs or asked_state:
                        # planned along an action the engine does not allow (or its hand
                        # was rebuilt to ask its state): rebuild the engine's hand here
                        # and go on along one both sides allow
                        if self._renamed(a) not in theirs:
                            both = [x for x in at.legal_actions()
                                    if self._renamed(x) in theirs]
                            if not both or self.one_seat:
                                e.drain()
                                return
                            ch.rewind(pos)
                            a = both[ch.choose(len(both))]
                        if not asked_state:
                            self._restart(sent, deal, hr.sent_actions)
                        e.submit_texts([self._apply_text(a)] +
                                       (['{"op":"events"'] if self.events_op else []))
                        replan = True
                        ref = at
                        refs = (a,)
                        cons = self._advance(ref, refs)
                if a is None:
                    m2 = self._compare_outcome(ref)
                    if m2 is not None:
                        self._record(hr, ref, m2, len(hr.found), ch.made, target)
                    return
                if not self._apply_answer(hr, a, target):
                    e.drain()
                    return
                hr.actions += refs
                hr.sent_actions.append(a)
                if cons is not None:
                    m3 = self._compare_events(cons, len(hr.actions))
                    if m3 is not None:
                        at = State.replay(rules, deal, hr.actions)
                        if self._record(hr, at, m3, len(hr.found),
                                        ch.made[:pos + 1], target) or stop_first:
                            e.drain()
                            return
                if self.limit is not None and len(hr.actions) > self.limit:
                    e.drain()  # longer than any witness still wanted (`shrink`)
                    return
                if replan:
                    break

    def _lifted(self, at: State, sent: Sequence[Action], theirs: frozenset[Action],
                elsewhere: bool) -> tuple[str, ...]:
        """One seat at a time, where the engine's question is not the rules': the
        restriction rows behind the bans held so far without which the rules, given the
        same answers, ask exactly the engine's question (an engine that does not apply
        such a ban asks about a claim the rules skip: that row decides, wherever it
        shows); failing that, when the engine is `elsewhere` (at another decision point:
        e.g. a reading that takes every claim away lets the window go by), the option
        rows with a value under which they do.  A question the rules ask later stays a
        question of the claim order (a reading that would explain some of them is
        for the inference to try on its witness)."""
        rules, deal = at.rules, at.deal
        if deal is None:
            return ()

        def asks_theirs(mine: table_mod.Rules, edited: bool) -> bool:
            try:
                got = one_seat_replay(mine, deal, sent, edited)
            except Exception:  # noqa: BLE001 - the hand is not playable under those rules
                return False
            if got is None:
                return False
            st, k = got
            asks = claim_asks(st)
            offer = asks[k][1] if st.phase == "window" and k < len(asks) else \
                st.legal_actions()
            return self.view(offer) == theirs

        out = []
        for row in dict.fromkeys(mk.rule for marks in at.marks for mk in marks):
            kept = tuple(r for r in rules.restrictions if r.rule != row)
            if len(kept) < len(rules.restrictions) and asks_theirs(
                    dataclasses.replace(rules, restrictions=kept), True):
                out.append(row)
        if out or not elsewhere:
            return tuple(sorted(out))
        for row, values in rules.table.option_space():
            for v in values:
                if v != rules.options.get(row) and asks_theirs(
                        self._resolve(rules.players, {**rules.options, row: v}), False):
                    out.append(row)
                    break
        return tuple(sorted(out))

    def view(self, acts: Iterable[Action]) -> frozenset[Action]:
        """chanspec's actions as the engine names them."""
        if not self.rename:
            return acts if isinstance(acts, frozenset) else frozenset(acts)
        r = self.rename
        return frozenset(dataclasses.replace(a, kind=r.get(a.kind, a.kind)) for a in acts)

    def _renamed(self, a: Action) -> Action:
        k = self.rename.get(a.kind)
        return a if k is None else dataclasses.replace(a, kind=k)

    def _legal_texts(self, n: int) -> list[str]:
        if self.legal_all:
            return ['{"op":"legal_all"']
        return [f'{{"op":"legal","seat":{s}' for s in range(n)]

    def _apply_text(self, a: Action) -> str:
        t = self._texts.get(a)
        if t is None:
            t = self._texts[a] = '{"op":"apply","action":' + json.dumps(
                self._renamed(a).as_json(), separators=(",", ":"))
        return t

    def _apply_answer(self, hr: HandResult, a: Action, target: tuple[Any, ...] | None
                      ) -> bool:
        r = self.engine.receive()
        if r["ok"]:
            return True
        m = Mismatch(len(hr.actions), "refused", refused=a,
                     refused_error=str(r.get("error", "")))
        at = State.replay(hr.rules, hr.deal, hr.actions)
        self._record(hr, at, m, len(hr.found), hr.choices.made, target)
        return False

    def _legal_mismatch(self, ref: State, mine: frozenset[Action], theirs: frozenset[Action],
                        step: int) -> Mismatch:
        diffs = []
        back = {self._renamed(a): a for a in ref.legal_actions()} if self.rename else {}
        for s in range(ref.n):
            t = {a for a in theirs if a.seat == s}
            m = {a for a in mine if a.seat == s}
            if t != m:
                # chanspec's own names for its actions (explained by its rules)
                diffs.append(SeatDiff(s, sorted(t - m),
                                      sorted(back.get(a, a) for a in m - t)))
        desync = _is_desync(ref, mine, theirs, self.one_seat)
        style, order = "", []
        if self.one_seat and desync and ref.phase == "window":
            # the engine asks a question the rules ask too, only earlier: the question
            # order (from the priority tiers and the tie-break rows); else it skipped
            # the rules' question (a claim it does not allow): the same card
            if any(self.view(offer) == theirs for _, offer in claim_asks(ref)):
                ids = ref.rules.rule_ids
                order = sorted({v for k, v in ids.items() if k == "claims.tie_break_rule"
                                or k.startswith("claims.priority_rules.")})
            else:
                desync = False
        if not self.one_seat and ref.phase == "window" and not self.no_style:
            # the engine offers exactly the first question of a one-seat-at-a-time engine
            # (a guess the campaign drops when it shows in too few hands: `_Collector`)
            asks = claim_asks(ref)
            if len(asks) > 1 and theirs == self.view(asks[0][1]):
                style = CLAIM_STYLES[1]
        return Mismatch(step, "legal", diffs, desync=desync, style=style, order=order,
                        one_seat=self.one_seat)

    def _compare_outcome(self, ref: State) -> Mismatch | None:
        resp = self.engine.receive()
        if not resp["ok"]:
            raise self.engine.fail("protocol", "the engine refused 'outcome': "
                                   f"{resp.get('error', '(no error message)')}")
        theirs: dict[str, Any] = {"terminal": resp.get("terminal")}
        if resp.get("terminal"):
            o = resp.get("outcome")
            if not isinstance(o, dict):
                raise self.engine.fail("protocol", "'outcome' with terminal true needs an "
                                       "'outcome' object")
            theirs["outcome"] = {k: o.get(k) for k in ("result", "winner", "kind", "card")}
            if "declaration" in (ref.outcome() or {}):  # and how the declaration was judged
                theirs["outcome"].update({k: o.get(k) for k in ("judgement", "consequence")})
            if ref.records_faults():  # and the faults recorded (restriction-mode=penalise)
                theirs["outcome"]["faults"] = comparable_faults(o.get("faults", []))
        mine = outcome_json(ref)
        if self.rename and mine.get("outcome"):
            o = dict(mine["outcome"])
            o["kind"] = self.rename.get(o["kind"], o["kind"]) if o.get("kind") else o["kind"]
            mine = {**mine, "outcome": o}
        if theirs != mine:
            return Mismatch(len(ref.history), "outcome", reference_outcome=mine,
                            engine_outcome=theirs)
        return None


# --------------------------------------------------------------------------- shrinking


def shrink(runner: Runner, key: tuple[Any, ...], witness: Witness, budget: int) -> tuple[
        Witness, int]:
    """The smallest witness of difference `key` found by editing the choice sequence.

    Tries, while the budget lasts: cutting blocks of choices, setting blocks to 0, and
    lowering single choices; a candidate is kept when it still shows the same
    difference with fewer other mismatches before it, fewer steps, fewer or smaller
    choices.  Returns the best witness and the hands replayed.
    """
    best = witness
    plays = 0

    def attempt(seq: list[int]) -> bool:
        nonlocal best, plays
        if plays >= budget:
            return False
        plays += 1
        runner.limit = len(best.actions)
        # a witness with as many other differences before it, or fewer; any number when
        # the best one is not clean (a clean witness is simpler whatever comes before)
        runner.before_limit = best.before if best.clean else None
        try:
            hr = runner.play(Choices(seq), target=key)
        finally:
            runner.limit = runner.before_limit = None
        if hr.error is not None:
            raise hr.error
        w = hr.target_hit
        # simpler, and never longer: a shrunk witness has at most the witness's steps
        if w is not None and w.size() < best.size() and len(w.actions) <= len(best.actions):
            best = w
            return True
        return False

    improved = True
    while improved and plays < budget:
        improved = False
        for size in (32, 16, 8, 4, 2, 1):
            i = 0
            while i < len(best.choices) and plays < budget:
                seq = list(best.choices)
                cut = seq[:i] + seq[i + size:]
                if attempt(cut):
                    improved = True
                    continue
                zero = seq[:i] + [0] * len(seq[i:i + size]) + seq[i + size:]
                if zero != seq and attempt(zero):
                    improved = True
                    continue
                i += size
        i = len(best.choices) - 1
        while i >= 0 and plays < budget:
            seq = list(best.choices)
            if i < len(seq) and seq[i] > 0:
                for v in (0, seq[i] // 2, seq[i] - 1):
                    if v < seq[i] and attempt(seq[:i] + [v] + seq[i + 1:]):
                        improved = True
                        break
            i -= 1
    return best, plays


@dataclass
class CampaignResult:
    status: str  # conforming | mismatch | engine-error
    command: str
    seed: int
    hands: int = 0  # hands compared (shrinking not included)
    steps: int = 0
    evaluations: int = 0  # hands played in all, shrinking included
    seconds: float = 0.0
    play_seconds: float = 0.0  # comparing hands after each engine's first (no shrinking)
    play_hands: int = 0  # the hands compared in play_seconds
    first_steps: int | None = None  # steps of the first difference's witness, unshrunk
    scenario: Scenario | None = None  # the first difference's shortest witness
    mismatch: Mismatch | None = None
    error: EngineError | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    mismatches: int = 0  # every mismatch seen while generating, all differences
    legal_all: bool = False
    jobs: int = 1
    stopped: str = ""  # why generation stopped before --hands (max-differences, first,
    # found: the difference a trial looked for)
    readings: dict[str, str] = field(default_factory=dict)  # chanspec's overrides
    internal: str = ""  # chanspec failed (its own bug) in a hand: the hand is in `log`
    no_style: bool = False  # a guessed claim style was dropped (`_Collector.settle_style`)
    shrunk: bool = False  # the differences' witnesses were shrunk (`shrink_differences`)
    shrink_seconds: float = 0.0  # spent shrinking (and asking the engine's state there)
    shrink_plays: int = 0  # the hands replayed for it

    @property
    def exit_code(self) -> int:
        if self.internal:
            return INTERNAL_EXIT
        if self.error is not None and self.error.kind == "start":
            return 2
        return 0 if self.status == "conforming" else 1

    def as_json(self) -> dict[str, Any]:
        sc = self.scenario
        return {
            "result": self.status, "command": self.command, "seed": self.seed,
            "hands": self.hands, "steps": self.steps, "evaluations": self.evaluations,
            "seconds": round(self.seconds, 3), "play_seconds": round(self.play_seconds, 3),
            "hands_per_second": round(self.hands / self.seconds, 2) if self.seconds else None,
            "first_failure_steps": self.first_steps,
            "jobs": self.jobs, "legal_all": self.legal_all, "stopped": self.stopped or None,
            "mismatches": self.mismatches,
            "differences": [d.as_json() for d in self.differences],
            "scenario": None if sc is None else {
                "players": sc.rules.players, "options": dict(sorted(sc.rules.options.items())),
                "deal": sc.deal.as_json(), "actions": [a.as_json() for a in sc.actions]},
            "mismatch": None if self.mismatch is None else self.mismatch.as_json(),
            "engine_error": None if self.error is None else self.error.as_json(),
            "internal_error": self.internal or None,
        }


def hand_seed(seed: int, index: int) -> int:
    """The seed of hand `index` of a campaign: independent of the order hands are run."""
    return random.Random(f"{seed}:{index}").randrange(2**63)


class _Collector:
    """Differences seen while generating, merged deterministically by hand index."""

    def __init__(self, max_differences: int | None, stop_first: bool,
                 until: Callable[[Difference], bool] | None = None):
        self.max = max_differences
        self.stop_first = stop_first
        self.until = until  # generation stops at the first difference it accepts
        self.by_key: dict[tuple[Any, ...], Difference] = {}
        self.lock = threading.Lock()
        self.hands = 0
        self.steps = 0
        self.mismatches = 0
        self.error: tuple[int, EngineError, HandResult] | None = None
        self.internal: tuple[int, HandResult] | None = None  # chanspec's own failure
        self.stop = threading.Event()
        self.stopped = ""
        self.style_alts: list[tuple[int, int, Witness]] = []  # guessed claim styles

    def _merge(self, index: int, pos: int, key: tuple[Any, ...], en: str, vi: str,
               rows: list[str], w: Witness, seen_here: set[tuple[Any, ...]]) -> None:
        d = self.by_key.get(key)
        if d is None:
            if self.max is not None and len(self.by_key) >= self.max:
                return  # the table is full (--max-differences)
            d = self.by_key[key] = Difference(key, en, vi, rows)
            if self.until is not None and self.until(d):
                self.stopped = "found"
                self.stop.set()
        d.count += 1
        if key not in seen_here:
            d.hands += 1
            seen_here.add(key)
        if d.witness is None or (index, pos) < (d.first_hand, d.first_pos):
            d.first_hand, d.first_pos = index, pos
        # the simplest occurrence seen is shrunk (ties: the earliest hand)
        if d.witness is None or (w.size(), index) < (d.witness.size(), d.witness_hand):
            d.witness, d.witness_hand = w, index

    def settle_style(self) -> bool:
        """Drop a guessed claim style seen in fewer than half the hands (an all-at-once
        engine that happened to offer one window's first question): its mismatches are
        keyed as they would be without the guess.  True when it was dropped."""
        keys = [k for k in self.by_key if k[0] == "style"]
        if not keys or all(self.by_key[k].hands * 2 >= self.hands for k in keys):
            return False
        for k in keys:
            del self.by_key[k]
        seen: dict[int, set[tuple[Any, ...]]] = collections.defaultdict(set)
        for index, pos, w in self.style_alts:
            assert w.mismatch.alt is not None
            key, en, vi, rows = w.mismatch.alt
            m = dataclasses.replace(w.mismatch, style="", alt=None)
            self._merge(index, pos, key, en, vi, rows, dataclasses.replace(w, mismatch=m),
                        seen[index])
        return True

    def fold_supersets(self) -> None:
        """One key per cause: a difference whose deciding rows are several option rows
        (each of whose other values flips the action) folds into the difference keyed by
        fewer of them, when there is one (the same cause, seen where another row also
        happens to decide it)."""
        keys = sorted(self.by_key, key=lambda k: -len(k[3]) if k[0] == "legal" else 0)
        for k in keys:
            if k[0] != "legal" or k[1] != "*" or len(k[3]) < 2 or k not in self.by_key:
                continue
            into = [k2 for k2 in self.by_key if k2[0] == "legal" and k2[1] == "*" and
                    k2[3] and set(k2[3]) < set(k[3])]
            if not into:
                continue
            t = self.by_key[max(into, key=lambda k2: (self.by_key[k2].count, k2))]
            d = self.by_key.pop(k)
            t.count += d.count
            t.hands += d.hands
            if (d.first_hand, d.first_pos) < (t.first_hand, t.first_pos):
                t.first_hand, t.first_pos = d.first_hand, d.first_pos

    def add(self, index: int, hr: HandResult) -> None:
        with self.lock:
            if hr.error is not None:
                if self.error is None or index < self.error[0]:
                    self.error = (index, hr.error, hr)
                self.stop.set()
                return
            if hr.internal:
                if self.internal is None or index < self.internal[0]:
                    self.internal = (index, hr)
                self.stop.set()
                return
            self.hands += 1
            self.steps += len(hr.actions)
            seen_here: set[tuple[Any, ...]] = set()
            for pos, (key, en, vi, rows, w) in enumerate(hr.found):
                self.mismatches += 1
                if key[0] == "style" and w.mismatch.alt is not None:
                    self.style_alts.append((index, pos, w))
                self._merge(index, pos, key, en, vi, rows, w, seen_here)
            if hr.found and self.stop_first:
                self.stopped = "first"
                self.stop.set()
            if self.max is not None and len(self.by_key) >= self.max:
                self.stopped = "max-differences"
                self.stop.set()


def campaign(command: str | Sequence[str], *, hands: int = 100, seed: int | None = None,
             timeout: float = 5.0, players: Sequence[int] = (4, 5),
             options: Mapping[str, str] | None = None, vary_options: bool = False,
             ruleset: str = "family", max_steps: int = DEFAULT_MAX_STEPS,
             shrink_budget: int = DEFAULT_SHRINK_BUDGET, stop_at_first: bool = False,
             max_differences: int | None = None, jobs: int = 1,
             readings: Mapping[str, str] | None = None, ahead: bool = True,
             known: Known | None = None,
             shrink_witnesses: bool = True,
             until: Callable[[Difference], bool] | None = None) -> CampaignResult:
    """Compare `hands` generated hands; every distinct difference is counted, and its
    first witness shrunk to a minimal one.

    Hand i is made from its own seed (`hand_seed`), so `jobs` engine processes can play
    hands in parallel and the result does not depend on `jobs` (unless generation stops
    early at `max_differences` or the first difference).  `readings` are option values
    chanspec's own side plays while the engine is still sent the campaign's options
    (used by --infer-options).  With `ahead`, each engine is sent the next hand while it
    still answers the one before (the result is the same without).  `known` holds the
    witnesses shrunk before, by key (`shrink_differences`); without `shrink_witnesses`
    the witnesses are left as found (a trial that only counts differences); with
    `until`, generation stops at the first difference it accepts (a trial that only
    asks whether some difference shows).
    """
    table = table_mod.load(ruleset)
    fixed = dict(options or {})
    table.check_options(fixed)
    if readings:
        table.check_options(dict(readings))
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    cmd_text = command if isinstance(command, str) else " ".join(command)
    result = CampaignResult("conforming", cmd_text, seed, jobs=max(1, jobs),
                            readings=dict(readings or {}))
    t0 = time.monotonic()
    send_ahead = ahead
    choices = option_choices(table, fixed, vary_options)
    col = _Collector(max_differences, stop_at_first, until)
    counter = iter(range(hands))
    counter_lock = threading.Lock()
    runners: list[Runner] = []
    gen_start: list[float] = []  # when each engine had played its first hand
    start_errors: list[EngineError] = []

    def worker() -> None:
        engine = Engine(command, timeout)
        try:
            engine.start()
        except EngineError as exc:
            start_errors.append(exc)
            col.stop.set()
            return
        runner = Runner(engine, table, players, choices, max_steps, readings)
        runners.append(runner)
        first = True
        # the next hands, made and sent while the engine answers the one being read
        ready: collections.deque[tuple[int, Choices, _Prepared | None]] = collections.deque()

        def take() -> tuple[int, Choices] | None:
            with counter_lock:
                i = next(counter, None)
            return None if i is None else (i, Choices((), random.Random(hand_seed(seed, i))))

        def ahead() -> None:
            # while the engine answers this hand, make and send the next ones (two, so
            # that neither side waits for the other)
            while len(ready) < SENT_AHEAD and not col.stop.is_set():
                t = take()
                if t is None:
                    return
                ready.append((*t, runner.prepare(t[1])))

        runner.ahead = ahead if send_ahead else None
        try:
            while not col.stop.is_set():
                if ready:
                    i, ch, pre = ready.popleft()
                else:
                    t = take()
                    if t is None:
                        break
                    (i, ch), pre = t, None
                hr = runner.play(ch, stop_first=stop_at_first, pre=pre)
                col.add(i, hr)
                if first:  # the first hand also waited for the engine to start
                    first = False
                    with counter_lock:
                        gen_start.append(time.monotonic())
                if hr.error is not None:
                    break
        finally:
            engine.close()

    n_jobs = max(1, min(jobs, hands))
    if n_jobs == 1:
        worker()
    else:
        threads = [threading.Thread(target=worker, daemon=True) for _ in range(n_jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    if gen_start:
        result.play_seconds = time.monotonic() - min(gen_start)
        result.play_hands = max(0, col.hands - len(gen_start))
    result.hands, result.steps, result.mismatches = col.hands, col.steps, col.mismatches
    result.stopped = col.stopped
    result.legal_all = any(r.legal_all for r in runners)
    result.evaluations = sum(r.plays for r in runners)
    if start_errors and not runners:
        result.status, result.error = "engine-error", start_errors[0]
        result.seconds = time.monotonic() - t0
        return result
    if col.error is not None:
        _, err, hr = col.error
        result.status, result.error = "engine-error", err
        result.scenario = Scenario(hr.rules, hr.deal, tuple(hr.actions))
        result.log = failure_log(result)
    elif col.internal is not None:
        _, hr = col.internal
        result.status, result.internal = "internal-error", hr.internal
        result.scenario = Scenario(hr.rules, hr.deal, tuple(hr.actions))
        result.log = failure_log(result)
        result.seconds = time.monotonic() - t0
        return result
    result.no_style = col.settle_style()
    col.fold_supersets()
    result.differences = sorted(col.by_key.values(), key=lambda d: (d.first_hand, d.first_pos))
    if result.differences and shrink_witnesses:
        shrink_differences(result, command, table, choices, timeout=timeout, players=players,
                           max_steps=max_steps, readings=readings, budget=shrink_budget,
                           known=known)
    else:
        verdict(result)
    result.seconds = time.monotonic() - t0
    return result


def shrink_differences(result: CampaignResult, command: str | Sequence[str],
                       table: table_mod.Table, choices: Sequence[tuple[str, Sequence[str]]],
                       *, timeout: float, players: Sequence[int], max_steps: int,
                       readings: Mapping[str, str] | None, budget: int,
                       known: Known | None = None) -> None:
    """Shrink the witness of each of `result`'s differences, ask the engine's 'state'
    there, and make its log; then the result's verdict.  Once per key: a witness already
    shrunk for the same key (`known`, filled here: its choices and the hands replayed to
    shrink it) is played first and kept when it still shows that key, and shrunk further
    only with what is left of the key's `budget`."""
    diffs = result.differences
    t0 = time.monotonic()
    engine = Engine(command, timeout)
    try:
        engine.start()
        runner = Runner(engine, table, players, choices, max_steps, readings)
        runner.no_style = result.no_style
        for d in diffs:
            assert d.witness is not None
            d.shrink_plays = 0
            try:
                seen = known.get(d.key) if known is not None else None
                spent = 0  # of this key's budget, in earlier campaigns
                if seen is not None:
                    hr = runner.play(Choices(seen[0]), target=d.key)
                    d.shrink_plays = 1
                    if hr.error is not None:
                        raise hr.error
                    d.shrunk = hr.target_hit
                    spent = seen[1]
                if d.shrunk is None:
                    spent = 0
                if spent < budget:  # shrunk with what is left of the key's budget
                    d.shrunk, plays = shrink(runner, d.key, d.best, budget - spent)
                    d.shrink_plays += plays
                    # a shrink that stopped before its budget found nothing simpler
                    spent = budget if plays < budget - spent else spent + plays
                if known is not None:
                    known[d.key] = (d.best.choices, spent)
                d.states = runner.states_at(d.best)
            except EngineError as exc:
                if result.error is None:
                    result.status, result.error = "engine-error", exc
                break
            except Exception as exc:  # noqa: BLE001 - chanspec's own bug: reported (70)
                # with every witness kept; this one unshrunk
                if not result.internal:
                    result.internal = (f"{type(exc).__name__}: {exc} (while shrinking "
                                       f"the witness of: {d.label_en})")
                d.shrunk = None
            finally:
                result.evaluations += d.shrink_plays
                result.shrink_plays += d.shrink_plays
        result.legal_all = result.legal_all or bool(runner.legal_all)
    except EngineError as exc:
        if result.error is None:
            result.status, result.error = "engine-error", exc
    finally:
        engine.close()
        result.shrink_seconds += time.monotonic() - t0
    result.shrunk = True
    verdict(result)


def verdict(result: CampaignResult) -> None:
    """A campaign's verdict from its differences (their witnesses shrunk or not): each
    difference's log, and the first difference's scenario as the result's."""
    diffs = result.differences
    if not diffs:
        return
    for d in diffs:
        d.log = witness_log(result.command, result.seed, d)
    first = diffs[0].best
    result.first_steps = len(diffs[0].witness.actions) if diffs[0].witness else None
    if result.error is None:
        result.status = "mismatch"
        result.scenario = Scenario(first.rules, first.deal, first.actions)
        result.mismatch = first.mismatch
        result.log = diffs[0].log


@dataclass
class Inference:
    """Which readings of the open and provisional rows the engine plays."""

    candidates: dict[int, list[tuple[str, str]]]  # difference index -> explaining values
    readings: dict[str, str]  # the combined assignment (rows not at their default)
    confirm: CampaignResult | None
    unexplained: list[Difference]  # no single value explains them
    replays: int = 0
    dropped: dict[str, str] = field(default_factory=dict)  # explained a witness, not needed
    # the confirmation still shows differences their row decides, and fewer without them
    contradicted: dict[str, str] = field(default_factory=dict)
    campaigns: int = 0  # fresh campaigns run (each seed and set of readings once)
    explain_seconds: float = 0.0  # replaying witnesses under each value
    trials: list[CampaignResult] = field(default_factory=list)  # those campaigns

    def as_json(self) -> dict[str, Any]:
        c = self.confirm
        return {"readings": dict(sorted(self.readings.items())),
                "per_difference": {str(i): [{"row": r, "value": v} for r, v in vs]
                                   for i, vs in sorted(self.candidates.items())},
                "unexplained": [d.label_en for d in self.unexplained],
                "unexplained_table": [{"difference": d.label_en, "difference_vi": d.label_vi,
                                       **sides(d), "rows": d.rows, "count": d.count,
                                       "hands": d.hands, "log": d.saved}
                                      for d in self.unexplained],
                "dropped": dict(sorted(self.dropped.items())),
                "contradicted": dict(sorted(self.contradicted.items())),
                "confirm": None if c is None else {
                    "result": c.status, "seed": c.seed, "hands": c.hands,
                    "seconds": round(c.seconds, 3),
                    "differences": [d.as_json() for d in c.differences]},
                "replays": self.replays, "campaigns": self.campaigns}


def infer_readings(command: str | Sequence[str], result: CampaignResult, *, hands: int,
                   timeout: float = 5.0, players: Sequence[int] = (4, 5),
                   options: Mapping[str, str] | None = None, vary_options: bool = False,
                   ruleset: str = "family", max_steps: int = DEFAULT_MAX_STEPS,
                   shrink_budget: int = DEFAULT_SHRINK_BUDGET, jobs: int = 1,
                   known: Known | None = None) -> Inference:
    """Per difference, which single value of an open or provisional row makes its
    witness conform (chanspec playing that value, the engine sent the same request);
    then one value per row chosen to explain the most differences, confirmed by a fresh
    campaign under it.  Cost: differences x values, never the product of the rows; each
    campaign (seed and readings) is run once, and a witness is shrunk once per key
    (`known`: those of `result`'s campaign, if it kept them)."""
    table = table_mod.load(ruleset)
    fixed = dict(options or {})
    rows = [(r, vs) for r, vs in table.option_space() if r not in fixed]
    kw = dict(timeout=timeout, players=players, options=fixed, vary_options=vary_options,
              ruleset=ruleset, max_steps=max_steps, shrink_budget=shrink_budget, jobs=jobs)
    trials = _Trials(command, hands, kw, table, option_choices(table, fixed, vary_options),
                     {} if known is None else known)
    inf = Inference({}, {}, None, [], 0)
    current = result
    for round_ in range(1, INFER_ROUNDS + 1):
        candidates = _explanations(command, current, table, rows, timeout, max_steps, inf)
        if current is result:
            inf.candidates = candidates
        added = _choose(current, candidates, inf.readings)
        if not added:
            break
        inf.readings.update(added)
        # confirm the readings so far with a fresh campaign: what is left is explained
        # by no reading (or hides behind what the readings removed: another round)
        current = trials.run((result.seed + round_) % 2**32, inf.readings, shrunk=True)
        inf.confirm = current
        if not current.differences or current.error is not None:
            break
    if inf.confirm is not None and inf.confirm.error is None and inf.readings:
        _drop_contradicted(trials, inf)
    if inf.confirm is not None and inf.confirm.error is None and inf.readings:
        _keep_needed(trials, inf)
    if inf.confirm is not None:  # the verdict's witnesses are shrunk, once per key
        inf.confirm = trials.run(inf.confirm.seed, inf.readings, shrunk=True)
    inf.unexplained = list(inf.confirm.differences if inf.confirm is not None
                           else result.differences)
    inf.campaigns = trials.runs
    inf.trials = list(trials.done.values()) + trials.trials
    return inf


class _Trials:
    """The campaigns an inference runs, each seed and set of readings once (a trial
    asked again is the same campaign: the same hands, the same answers), their
    witnesses shrunk only when asked, once per key (`known`)."""

    def __init__(self, command: str | Sequence[str], hands: int, kw: Mapping[str, Any],
                 table: table_mod.Table, choices: Sequence[tuple[str, Sequence[str]]],
                 known: Known):
        self.command, self.hands, self.kw = command, hands, dict(kw)
        self.table, self.choices, self.known = table, choices, known
        self.done: dict[tuple[Any, ...], CampaignResult] = {}
        # campaigns stopped at the first difference a test accepted (never the verdict)
        self.partial: dict[tuple[Any, ...], tuple[Callable[[Difference], bool],
                                                  CampaignResult]] = {}
        self.trials: list[CampaignResult] = []  # those, for the timings
        self.runs = 0

    def run(self, seed: int, readings: Mapping[str, str], *, shrunk: bool,
            until: Callable[[Difference], bool] | None = None) -> CampaignResult:
        """The campaign of `seed` under `readings` (`until`: it may stop at the first
        difference `until` accepts; a campaign played whole answers that too)."""
        k = (seed, tuple(sorted(readings.items())))
        res = self.done.get(k)
        if res is None and until is not None:
            part = self.partial.get(k)
            if part is not None and part[0] is until:
                return part[1]
            self.runs += 1
            res = campaign(self.command, hands=self.hands, seed=seed, readings=dict(readings),
                           known=self.known, shrink_witnesses=False, until=until,
                           **self.kw)  # type: ignore[arg-type]
            if res.stopped != "found":
                self.done[k] = res  # played whole: the campaign itself
            else:
                self.partial[k] = (until, res)
                self.trials.append(res)
            return res
        if res is None:
            self.runs += 1
            res = self.done[k] = campaign(self.command, hands=self.hands, seed=seed,
                                          readings=dict(readings), known=self.known,
                                          shrink_witnesses=shrunk,
                                          **self.kw)  # type: ignore[arg-type]
        elif shrunk and not res.shrunk and res.differences and res.error is None:
            kw = self.kw
            shrink_differences(res, self.command, self.table, self.choices,
                               timeout=kw["timeout"], players=kw["players"],
                               max_steps=kw["max_steps"], readings=res.readings,
                               budget=kw["shrink_budget"], known=self.known)
        return res


def _drop_contradicted(trials: _Trials, inf: Inference) -> None:
    """A reading whose row decides differences the confirmation under it still shows is
    contradicted by them: the engine does not play that value everywhere it matters.  It
    is dropped when the confirmation's own hands without it show no more mismatches that
    its row decides (it explained a witness by accident, e.g. by hiding another bug), and
    the confirmation then is the run without it."""
    for row in sorted(inf.readings):
        c = inf.confirm
        assert c is not None
        if row not in inf.readings:
            continue
        mine = sum(d.count for d in c.differences if row in d.rows)
        if not mine:
            continue
        trial = trials.run(c.seed, {r: v for r, v in inf.readings.items() if r != row},
                           shrunk=False)
        if trial.error is None and sum(d.count for d in trial.differences
                                       if row in d.rows) <= mine:
            inf.contradicted[row] = inf.readings.pop(row)
            inf.confirm = trial


def _keep_needed(trials: _Trials, inf: Inference) -> None:
    """Keep a reading only if it beats leaving its row at the default: on the confirmation
    campaign's own hands without it, a difference shows that is not left with it and that
    its row decides: a reading that merely hides witnesses of another cause removes no
    difference of its own.  The confirmation is that of the readings kept."""
    c = inf.confirm
    assert c is not None
    left = {d.key for d in c.differences}
    dropped = []
    for row in sorted(inf.readings):
        without = {r: v for r, v in inf.readings.items() if r != row}

        def its_own(d: Difference, row: str = row) -> bool:
            return d.key not in left and row in d.rows

        # what shows without it and not with it, and that its row decides (the rows of a
        # difference are those with a value under which its witness plays the other way):
        # the reading's own differences; others are more of another cause, or chance.
        # The trial stops at the first one (the reading is needed)
        trial = trials.run(c.seed, without, shrunk=False, until=its_own)
        own = [d for d in trial.differences if its_own(d)]
        if not own and trial.stopped == "found":  # folded away: look at every hand
            trial = trials.run(c.seed, without, shrunk=False)
            own = [d for d in trial.differences if its_own(d)]
        if trial.error is None and not own:
            dropped.append(row)
    if not dropped:
        return
    inf.dropped = {r: inf.readings.pop(r) for r in dropped}
    inf.confirm = trials.run(c.seed, inf.readings, shrunk=False)


INFER_ROUNDS = 3


def _explanations(command: str | Sequence[str], result: CampaignResult,
                  table: table_mod.Table, rows: Sequence[tuple[str, Sequence[str]]],
                  timeout: float, max_steps: int, inf: Inference
                  ) -> dict[int, list[tuple[str, str]]]:
    """Per difference of `result`: the single values (row, value) under which chanspec
    agrees with the engine at the difference's witness."""
    out: dict[int, list[tuple[str, str]]] = {}
    t0 = time.monotonic()
    engine = Engine(command, timeout)
    engine.start()
    runner = Runner(engine, table, (), [], max_steps)
    try:
        for i, d in enumerate(result.differences):
            w = d.best
            found: list[tuple[str, str]] = []
            for row, values in rows:
                for v in values:
                    if v == w.rules.options.get(row):
                        continue
                    mine = table.resolve(w.rules.players, {**w.rules.options, row: v})
                    if mine.key() == w.rules.key():
                        continue
                    inf.replays += 1
                    if runner.conforms_through(w, mine):
                        found.append((row, v))
            out[i] = found
            d.explained_by = found
    finally:
        engine.close()
        inf.explain_seconds += time.monotonic() - t0
    return out


def _choose(result: CampaignResult, candidates: Mapping[int, list[tuple[str, str]]],
            fixed: Mapping[str, str]) -> dict[str, str]:
    """One value per row not chosen yet, as an optimisation over the witnesses (z3's
    ``Optimize``): the assignment explaining the most differences (weighted by how often
    each showed: a difference is explained when one of its values is chosen), then the
    fewest readings, then the values explaining the most.  Two values of one row
    contradict each other: at most one is chosen.  Ties left go to the smaller pair, so
    the choice is the same on every run."""
    import z3

    score: dict[tuple[str, str], int] = {}
    for i, vs in candidates.items():
        for rv in vs:
            if rv[0] not in fixed:
                score[rv] = score.get(rv, 0) + result.differences[i].count
    if not score:
        return {}
    pairs = sorted(score)
    pick = {rv: z3.Bool(f"pick {rv[0]}={rv[1]}") for rv in pairs}
    opt = z3.Optimize()
    for row in sorted({r for r, _ in pairs}):
        opt.add(z3.AtMost(*[pick[rv] for rv in pairs if rv[0] == row], 1))
    explained = []
    for i in sorted(candidates):
        vs = [pick[rv] for rv in candidates[i] if rv in pick]
        if vs:
            e = z3.Bool(f"explained {i}")
            opt.add(e == z3.Or(*vs))
            explained.append((result.differences[i].count, e))
    total = z3.Sum(*[z3.If(e, c, 0) for c, e in explained])
    opt.maximize(total)
    opt.minimize(z3.Sum(*[z3.If(pick[rv], 1, 0) for rv in pairs]))
    opt.maximize(z3.Sum(*[z3.If(pick[rv], score[rv], 0) for rv in pairs]))
    # ties: prefer the pairs first in order (a weight halving down the list)
    opt.maximize(z3.Sum(*[z3.If(pick[rv], 2 ** (len(pairs) - k), 0)
                          for k, rv in enumerate(pairs)]))
    if opt.check() != z3.sat:  # cannot happen: choosing nothing satisfies every constraint
        raise AssertionError("no assignment of readings")
    m = opt.model()
    return {r: v for (r, v) in pairs if z3.is_true(m.eval(pick[(r, v)]))}


def witness_log(command: str, seed: int, d: Difference) -> list[dict[str, Any]]:
    """A difference's shortest witness as a game log `chanspec replay` accepts."""
    w = d.best
    summary: dict[str, Any] = {"engine": command, "seed": seed, "status": "mismatch",
                               "difference": d.label_en, "rows": d.rows, "count": d.count,
                               "mismatch": w.mismatch.as_json()}
    return scenario_log(Scenario(w.rules, w.deal, w.actions), w.mismatch, summary)


def failure_log(result: CampaignResult) -> list[dict[str, Any]]:
    """The minimal scenario as a game log, ending with what the engine did differently.

    Reference lines up to the mismatch; then the engine's disputed action (one it allows
    that the rules forbid, else one the rules allow that it refused), or its disagreeing
    ``end`` line.  ``chanspec replay`` accepts it; the header's ``x-conform`` field sums
    the mismatch up.
    """
    sc = result.scenario
    assert sc is not None
    m = result.mismatch
    summary: dict[str, Any] = {"engine": result.command, "seed": result.seed,
                               "status": result.status}
    if m is not None:
        summary["mismatch"] = m.as_json()
    if result.error is not None:
        summary["engine_error"] = {"kind": result.error.kind, "message": result.error.message}
    if result.internal:
        summary["internal_error"] = result.internal
    return scenario_log(sc, m, summary)


def scenario_log(sc: Scenario, m: Mismatch | None,
                 summary: dict[str, Any]) -> list[dict[str, Any]]:
    upto = len(sc.actions) if m is None else m.step
    lines = logs.record(sc.rules, sc.deal, sc.actions[:upto], extra={"x-conform": summary})
    if m is None:
        return lines
    if m.kind == "legal":
        d = next((d for d in m.seats if d.extra), m.seats[0])
        pool = d.extra or d.missing
        # a claim or a discard says more than a pass or a timeout
        disputed = min(pool, key=lambda a: (a.kind in ("pass", "timeout"), a))
        lines.append({**disputed.as_json(),
                      "x-conform": "engine allows, rules forbid" if d.extra else
                      "rules allow, engine does not offer it"})
    elif m.kind == "refused" and m.refused is not None:
        lines.append({**m.refused.as_json(), "x-conform": "rules allow, engine refused it"})
    elif m.kind == "outcome":
        eo = (m.engine_outcome or {}).get("outcome")
        if isinstance(eo, dict):
            lines = [ln for ln in lines if ln.get("type") != "end"]
            end: dict[str, Any] = {"type": "end", "result": eo.get("result")}
            if eo.get("result") == "win":
                end.update(seat=eo.get("winner"), kind=eo.get("kind"), card=eo.get("card"))
            end["x-conform"] = "the engine's outcome"
            lines.append(end)
    return lines


# --------------------------------------------------------------------------- report


def _acts(actions: Sequence[Action]) -> str:
    return ", ".join(logs.codes_of(actions)) or "—"


def render(result: CampaignResult, lang: str, say: Any) -> str:
    """Human report: the seed, the verdict, and the minimal scenario step by step."""
    out = [say(lang, f"Hạt giống: {result.seed} (chạy lại với --seed {result.seed})",
               f"Seed: {result.seed} (rerun with --seed {result.seed})")]
    if result.status == "conforming":
        out.append(say(lang, f"Phù hợp: {result.hands} ván, {result.steps} bước, không lệch "
                       f"({result.seconds:.1f} giây).",
                       f"Conforming: {count(result.hands, 'hand')}, {count(result.steps, 'step')}, "
                       "no mismatch "
                       f"({result.seconds:.1f} s)."))
        return "\n".join(out)
    if result.error is not None:
        e = result.error
        kinds = {"timeout": ("không trả lời kịp", "did not answer in time"),
                 "crash": ("đã thoát hoặc bị lỗi", "exited or crashed"),
                 "garbage": ("trả lời không phải JSON", "answered with something not JSON"),
                 "protocol": ("sai giao thức", "broke the protocol"),
                 "start": ("không chạy được", "could not be started")}
        vi, en = kinds.get(e.kind, (e.kind, e.kind))
        out.append(say(lang, f"Engine {vi}: {e.message}", f"The engine {en}: {e.message}"))
        if e.returncode is not None:
            out.append(say(lang, f"Mã thoát của engine: {e.returncode}",
                           f"Engine exit code: {e.returncode}", "  "))
        if e.exchanges:
            out.append(say(lang, "Các trao đổi cuối:", "Last exchanges:", "  "))
            for sent, got in e.exchanges[-4:]:
                out.append(f"    >> {sent[:300]}")
                out.append(f"    << {got[:300]}")
        if e.stderr:
            out.append(say(lang, "stderr của engine (cuối):", "Engine stderr (tail):", "  "))
            out += [f"    {ln}" for ln in e.stderr.splitlines()[-10:]]
    sc = result.scenario
    if sc is None:
        return "\n".join(out)
    m = result.mismatch
    if m is not None:
        out.append(say(lang, f"Lệch luật sau {m.step} bước (đã thu gọn; {result.evaluations} "
                       f"ván đã chơi).",
                       f"Mismatch after {m.step} step(s) (shrunk; {result.evaluations} hands "
                       "played)."))
    out.append(say(lang, f"Kịch bản tối thiểu: {sc.rules.players} người, tùy chọn khác mặc "
                   f"định: {_non_default(sc.rules) or 'không'}",
                   f"Minimal scenario: {sc.rules.players} players, non-default options: "
                   f"{_non_default(sc.rules) or 'none'}"))
    for seat, h in enumerate(sc.deal.hands):
        opener = " (mở đầu / opener)" if seat == sc.deal.opener else ""
        out.append(f"  người/seat {seat}{opener}: {' '.join(cards.codes(h))}")
    out.append(f"  nọc: {' '.join(cards.codes(sc.deal.noc[:12]))} …")
    if sc.deal.cai is not None:
        out.append(f"  cái: {cards.code(sc.deal.cai)} (người bốc / drawer {sc.deal.drawer})")
    upto = len(sc.actions) if m is None else m.step
    st = State(sc.rules, sc.deal)
    for i, a in enumerate(sc.actions[:upto], start=1):
        card = st.window.card if st.window is not None else None
        vi, en = logs.say_action(a, card)
        out.append(say(lang, f"Bước {i}: {vi}", f"Step {i}: {en}", "  "))
        for ln in logs.step(st, a):
            vi, en = logs.say_line(ln)
            out.append(say(lang, f"→ {vi}", f"→ {en}", "      "))
    if m is None:
        return "\n".join(out)
    if m.resolution:
        out.append(say(lang, f"Bước vừa rồi phân xử nhiều người cùng nhận quân theo luật: "
                       f"{', '.join(m.resolution)}",
                       f"The last step settled competing claims by: {', '.join(m.resolution)}",
                       "  "))
    if m.kind == "legal":
        for d in m.seats:
            out.append(say(lang, f"Người {d.seat}: luật cho phép {_acts(st.legal_actions(d.seat))}",
                           f"Seat {d.seat}: the rules allow "
                           f"{_acts(st.legal_actions(d.seat))}", "  "))
            for a in d.extra:
                ex = st.explain(a)
                out.append(say(lang, f"engine cho thêm {a.code()}: luật cấm vì {ex.vi} "
                               f"({', '.join(ex.rules)})",
                               f"the engine also allows {a.code()}: forbidden because {ex.en} "
                               f"({', '.join(ex.rules)})", "    "))
            for a in d.missing:
                ex = st.explain(a)
                out.append(say(lang, f"engine thiếu {a.code()}: luật cho phép "
                               f"({', '.join(ex.rules)})",
                               f"the engine lacks {a.code()}: allowed by "
                               f"{', '.join(ex.rules)}", "    "))
    elif m.kind == "consequence":
        for who_vi, who_en, evs in (("luật", "the rules", m.reference_events),
                                    ("engine", "the engine", m.engine_events)):
            said = [logs.say_line(e) if isinstance(e, dict) and e.get("type") in
                    logs.CONSEQUENCE_TYPES else (str(e), str(e)) for e in evs or []]
            vi = "; ".join(v for v, _ in said) or "—"
            en = "; ".join(x for _, x in said) or "—"
            out.append(say(lang, f"Hệ quả của bước cuối theo {who_vi}: {vi}",
                           f"Consequences of the last step by {who_en}: {en}", "  "))
    elif m.kind == "refused" and m.refused is not None:
        out.append(say(lang, f"Engine từ chối {m.refused.code()} dù luật cho phép: "
                       f"{m.refused_error}",
                       f"The engine refused {m.refused.code()}, which the rules allow: "
                       f"{m.refused_error}", "  "))
    else:
        out.append(say(lang, f"Kết quả khác: máy tham chiếu {m.reference_outcome}, engine "
                       f"{m.engine_outcome}",
                       f"Outcomes differ: reference {m.reference_outcome}, engine "
                       f"{m.engine_outcome}", "  "))
    return "\n".join(out)


def render_table(result: CampaignResult, lang: str, say: Any) -> str:
    """The end table: every distinct difference, its count, its shortest witness."""
    out = [say(lang, f"{len(result.differences)} khác biệt riêng ({result.mismatches} lần lệch "
               f"trong {result.hands} ván):",
               f"{len(result.differences)} distinct difference(s) ({result.mismatches} "
               f"mismatches in {result.hands} hands):")]
    if result.stopped:
        why = {"first": ("dừng ở khác biệt đầu tiên", "stopped at the first difference"),
               "max-differences": ("dừng vì đủ --max-differences",
                                   "stopped at --max-differences"),
               "found": ("dừng ở khác biệt cần tìm", "stopped at the difference looked for")
               }[result.stopped]
        out.append(say(lang, why[0], why[1], "  "))
    out.append(say(lang, f"Thời gian: {result.seconds:.1f} giây, {rate(result):.1f} ván/giây",
                   f"Time: {result.seconds:.1f} s, {rate(result):.1f} hands/s", "  "))
    out += difference_table(result.differences, lang, say)
    for i, d in enumerate(result.differences, start=1):
        if d.states and d.states["differ"]:
            out.append(say(lang, f"{i}. {d.label_vi}", f"{i}. {d.label_en}", "  "))
            r, e = d.states["rules"], d.states["engine"]
            out.append(say(lang, f"engine đang ở chỗ khác: {_where(e)}; theo luật: {_where(r)}",
                           f"the engine is elsewhere: {_where(e)}; by the rules: {_where(r)}",
                           "     "))
    return "\n".join(out)


def sides(d: Difference) -> dict[str, str]:
    """What the engine does and what the rules say at a difference's shortest witness,
    in words (Vietnamese and English): one cell each of the report's table."""
    m = d.best.mismatch
    if m.elsewhere is not None:
        r, e = m.elsewhere
        return {"engine_vi": f"ở quân {e}", "engine_en": f"is at {e}",
                "rules_vi": f"ở quân {r}", "rules_en": f"are at {r}"}
    if m.kind == "legal" and m.seats and not (m.desync or m.style or m.order):
        a, more = _disputed_pairs(m)[0]
        c = a.code()
        if more:
            return {"engine_vi": f"cho {c}", "engine_en": f"allows {c}",
                    "rules_vi": "cấm", "rules_en": "forbid it"}
        return {"engine_vi": f"không cho {c}", "engine_en": f"does not offer {c}",
                "rules_vi": "cho phép", "rules_en": "allow it"}
    if m.kind == "refused" and m.refused is not None:
        c = m.refused.code()
        return {"engine_vi": f"từ chối {c}", "engine_en": f"refuses {c}",
                "rules_vi": "cho phép", "rules_en": "allow it"}
    if m.kind == "outcome":
        ro = (m.reference_outcome or {}).get("outcome") or {}
        eo = (m.engine_outcome or {}).get("outcome") or {}

        def end(o: Mapping[str, Any]) -> str:
            return "/".join(str(o.get(k)) for k in ("result", "winner", "kind") if o.get(k)
                            is not None) or "—"
        return {"engine_vi": f"kết thúc {end(eo)}", "engine_en": f"ends {end(eo)}",
                "rules_vi": f"kết thúc {end(ro)}", "rules_en": f"end {end(ro)}"}
    return {"engine_vi": d.label_vi, "engine_en": d.label_en, "rules_vi": "—", "rules_en": "—"}


def rate(result: CampaignResult) -> float:
    """Hands compared per second, end to end (shrinking and inference not included)."""
    return result.hands / result.seconds if result.seconds > 0 else 0.0


def _where(st: Mapping[str, Any]) -> str:
    card = f"{st.get('card')} ({st.get('source')}, gate {st.get('gate')})" \
        if st.get("card") else st.get("phase")
    return f"{card}, pending {st.get('pending')}, nọc {st.get('noc')}"


def difference_table(diffs: Sequence[Difference], lang: str, say: Any) -> list[str]:
    """The differences as a table, one row each: what the engine does, what the rules
    say, the rows that decide it, how often, the witness file."""
    if not diffs:
        return []
    en = lang == "en"
    head = (["#", "engine", "rules", "rows", "times/hands", "steps", "witness"] if en else
            ["#", "engine", "luật / rules", "dòng / rows", "lần/ván", "bước",
             "kịch bản / witness"])
    body = []
    for i, d in enumerate(diffs, start=1):
        sd = sides(d)
        eng = sd["engine_en"] if en else f"{sd['engine_vi']} / {sd['engine_en']}"
        rul = sd["rules_en"] if en else f"{sd['rules_vi']} / {sd['rules_en']}"
        body.append([str(i), eng, rul, ", ".join(d.rows) or "—", f"{d.count}/{d.hands}",
                     str(len(d.best.actions)), d.saved or "—"])
    widths = [max(len(r[c]) for r in [head, *body]) for c in range(len(head))]
    out = []
    for r in [head, ["-" * w for w in widths], *body]:
        out.append("  " + " | ".join(x.ljust(w) for x, w in zip(r, widths, strict=True))
                   .rstrip())
    return out


def render_inference(inf: Inference, lang: str, say: Any) -> str:
    """The verdict as a diagnosis: the readings the engine plays, then the differences no
    reading explains as a table (what the engine does, what the rules say, the rows, the
    witness file), and the time the confirmation took."""
    out = [say(lang, "Chẩn đoán:", "Diagnosis:")]
    if inf.readings:
        out.append(say(lang, "Engine chơi các cách đọc luật sau (khác mặc định):",
                       "The engine plays these readings (not the defaults):", "  "))
        for r, v in sorted(inf.readings.items()):
            out.append(f"    {r} = {v}")
    else:
        out.append(say(lang, "Không cách đọc nào giải thích engine: nó chơi các giá trị mặc "
                       "định, hoặc một luật bảng không có.",
                       "No reading explains the engine: it plays the defaults, or a rule the "
                       "table does not have.", "  "))
    if inf.dropped:
        shown = ", ".join(f"{r}={v}" for r, v in sorted(inf.dropped.items()))
        out.append(say(lang, f"Bỏ (chỉ che một kịch bản, không bớt khác biệt nào): {shown}",
                       f"Dropped (they only hid a witness, removing no difference): {shown}",
                       "  "))
    if inf.contradicted:
        shown = ", ".join(f"{r}={v}" for r, v in sorted(inf.contradicted.items()))
        out.append(say(lang, f"Bỏ (bị kiểm lại bác bỏ: vẫn lệch ở chính dòng đó, không ít "
                       f"hơn khi bỏ): {shown}",
                       f"Dropped (the confirmation contradicts them: it still differs where "
                       f"their row decides, no less without them): {shown}", "  "))
    left = inf.unexplained
    out.append(say(lang, f"Khác biệt không cách đọc nào giải thích: {len(left)}",
                   f"Differences no reading explains: {len(left)}", "  "))
    out += difference_table(left, lang, say)
    if inf.confirm is not None:
        c = inf.confirm
        out.append(say(lang, f"Kiểm lại với các cách đọc đó: {c.hands} ván mới (hạt giống "
                       f"{c.seed}), {c.seconds:.1f} giây, {rate(c):.1f} ván/giây.",
                       f"Confirmed with those readings: {c.hands} fresh hands (seed {c.seed}), "
                       f"{c.seconds:.1f} s, {rate(c):.1f} hands/s.", "  "))
    return "\n".join(out)


def _non_default(rules: table_mod.Rules) -> str:
    d = rules.table.defaults()
    return ", ".join(f"{k}={v}" for k, v in sorted(rules.options.items()) if d.get(k) != v)
