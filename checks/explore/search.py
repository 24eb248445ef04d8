"""Breadth-first model checking of scaled-down hands on the reference machine.

`explore(rules, deals, ...)` runs, for every deal, a breadth-first search over all
states reachable from it (`State.legal_actions` / `State.child`), deduplicated by a
64-bit hash of `State.fingerprint()`, and checks in every state:

* **invariants** -- the census (every face of the deck exactly ``copies`` times, counted
  by `State.census`), every seat's hand size against `expected_hand_size`, every pending
  seat has a legal action, and only pending seats have one;
* **deadlock** -- a non-terminal state in which nobody may act (`is_stuck`), classified
  as ``stuck-all-banned`` (a discard is due and every card is banned: the
  ``stuck-discard=as-written`` reading), ``stuck-empty-hand`` (a discard or return is due
  and no concealed card is left) or ``stuck-other``;
* **contradictions** -- for every legal action and every candidate action of a pending
  seat, the machine's explanation (the rule path behind `explain`) must agree with
  `legal_actions` (``explain-disagrees``), cite at least one rule (``no-rule``: a phase
  no rule speaks for) and cite only rows the table has (``unknown-rule``); every claim
  tie (two seats with claims of the same top tier on one card) is counted and must be
  settled by the table's tie-break row;
* **endless play** -- a cycle among states with the same nọc position (a game that can
  go on for ever without drawing), by a topological sort of those edges after the
  search.

Vacuity: the rule ids cited by explanations (for legal actions and for refusals) and by
the events of each step (draws, returns, chíu, and the faults recorded under
``restriction-mode=penalise``, where a broken rule of play refuses nothing but acts by
being recorded) are collected; rows never cited anywhere in the explored space are dead
or unreachable at that scale. For option rows, every ``sample_every``-th state is
re-evaluated under each other value of each option (the same position, the rules
swapped) and the states where the legal action set changes are counted; a value seen
changing it `SAMPLE_ENOUGH` times in a deal is not sampled again there (its count is a
lower bound), so the cost of sampling falls on the values that have not shown an effect
yet.

Reductions, and why they are sound:

* *Claim windows*: when several seats are asked about one card, each answers once and
  nothing happens until all have answered (`State.apply` only records the answer).  The
  answers commute, so only the lowest pending seat's answers are expanded; every
  resolution, and so every later state, is still reached.  States that differ only in
  which seats have already answered are skipped; they have the same hands, bans, nọc and
  cards as states that are explored, and their legal actions are the unanswered seats'
  options, a subset of those checked.  Turn it off with ``por=False``.
* *Hashing*: states are stored as Python's 64-bit hash of the fingerprint (one process
  per deal, so the hash is stable within a search).  A collision would merge two states;
  with N states the chance is about N^2 / 2^65 (1e-7 at a million).
* No symmetry reduction: relabelling suits is unsound (the group of six holds the three
  Nhất and the yêu faces, and rank cạ depend on suits), and seat rotation moves the
  opener.

Each deal is searched by one worker process (``workers``); results are merged in deal
order, so the output does not depend on timing.  For every kind of violation the
shortest path (fewest actions, then lowest deal index) is kept.

This explorer checks everything on every state and so runs at the reference machine's
speed.  For millions of states, checks/chan/packed_search.py explores the packed machine
(model/chan/packed.py) instead, with these same checks on a replayed sample.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import sys
import time
from array import array
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.checks.explore import protocol_search
from chanspec.checks.output import progress_every
from chanspec.model.chan import cards
from chanspec.model.chan.game import STUCK_WORDS, Action, Deal, State
from chanspec.model.chan.table import Rules

KIND_EXIT = {"invariant": 12, "contradiction": 12, "deadlock": 11, "endless": 13}
EXIT_ORDER = ("invariant", "contradiction", "deadlock", "endless")
SAMPLE_ENOUGH = 20  # per deal: an option value seen changing this often is sampled no more

# The explanation path of the machine says "allowed" with one of these openings.
ALLOW_PREFIXES = ("allowed", "complete", "the dealt hand is complete",
                  "a claim is never compulsory", "the silent seat is taken")


@dataclass(frozen=True)
class Violation:
    kind: str  # invariant | contradiction | deadlock | endless
    what: str  # census, hand-size, pending, stuck-all-banned, explain-disagrees, cycle ...
    vi: str
    en: str
    rules: tuple[str, ...]
    deal: int
    path: tuple[Action, ...]

    @property
    def depth(self) -> int:
        return len(self.path)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "what": self.what, "vi": self.vi, "en": self.en,
                "rules": list(self.rules), "deal": self.deal, "depth": self.depth,
                "path": [a.code() for a in self.path]}


@dataclass
class DealResult:
    deal: int
    distinct: int = 0
    generated: int = 0
    depth: int = 0
    complete: bool = True
    seconds: float = 0.0
    max_queue: int = 0
    violations: dict[tuple[str, str], Violation] = field(default_factory=dict)
    outcomes: Counter[str] = field(default_factory=Counter)
    cited_allow: set[str] = field(default_factory=set)
    cited_refuse: set[str] = field(default_factory=set)
    option_changes: Counter[str] = field(default_factory=Counter)
    option_samples: int = 0
    ties: int = 0
    tie_path: tuple[Action, ...] | None = None
    store_bytes: int = 0
    graph: dict[str, Any] | None = None  # nodes/edges when asked for (small searches)


@dataclass
class Result:
    label: str
    rules: Rules
    deals: list[Deal]
    per_deal: list[DealResult]
    seconds: float
    workers: int

    @property
    def distinct(self) -> int:
        return sum(d.distinct for d in self.per_deal)

    @property
    def generated(self) -> int:
        return sum(d.generated for d in self.per_deal)

    @property
    def depth(self) -> int:
        return max((d.depth for d in self.per_deal), default=0)

    @property
    def complete(self) -> bool:
        return all(d.complete for d in self.per_deal)

    @property
    def states_per_second(self) -> float:
        return self.distinct / self.seconds if self.seconds else 0.0

    @property
    def states_per_core_second(self) -> float:
        busy = sum(d.seconds for d in self.per_deal)
        return self.distinct / busy if busy else 0.0

    @property
    def bytes_per_state(self) -> float:
        n = self.distinct
        return sum(d.store_bytes for d in self.per_deal) / n if n else 0.0

    def violations(self) -> list[Violation]:
        """The shortest violation of each (kind, what), shortest first."""
        best: dict[tuple[str, str], Violation] = {}
        for d in self.per_deal:
            for k, v in d.violations.items():
                if k not in best or (v.depth, v.deal) < (best[k].depth, best[k].deal):
                    best[k] = v
        return sorted(best.values(), key=lambda v: (EXIT_ORDER.index(v.kind), v.depth,
                                                     v.deal, v.what))

    def exit_code(self) -> int:
        kinds = {v.kind for v in self.violations()}
        for k in EXIT_ORDER:
            if k in kinds:
                return KIND_EXIT[k]
        return 0

    def cited(self) -> tuple[set[str], set[str]]:
        allow: set[str] = set()
        refuse: set[str] = set()
        for d in self.per_deal:
            allow |= d.cited_allow
            refuse |= d.cited_refuse
        return allow, refuse

    def never_cited(self) -> list[str]:
        allow, refuse = self.cited()
        return [r for r in self.rules.table.rows if r not in allow | refuse]

    def option_changes(self) -> dict[str, int]:
        c: Counter[str] = Counter()
        for d in self.per_deal:
            c.update(d.option_changes)
        return dict(c)

    def option_samples(self) -> int:
        return sum(d.option_samples for d in self.per_deal)

    def outcomes(self) -> dict[str, int]:
        c: Counter[str] = Counter()
        for d in self.per_deal:
            c.update(d.outcomes)
        return dict(c)

    def ties(self) -> tuple[int, tuple[Action, ...] | None, int]:
        best: tuple[int, tuple[Action, ...], int] | None = None
        total = 0
        for d in self.per_deal:
            total += d.ties
            if d.tie_path is not None and (best is None or len(d.tie_path) < len(best[1])):
                best = (len(d.tie_path), d.tie_path, d.deal)
        return total, (None if best is None else best[1]), (-1 if best is None else best[2])


# --------------------------------------------------------------------------- checks


def alt_rules(rules: Rules) -> list[tuple[str, str, Rules]]:
    """(option, value, rules) for every non-current value of every option row."""
    out = []
    for opt, values in rules.table.option_space():
        for v in values:
            if v != rules.options[opt]:
                out.append((opt, v, rules.with_options(**{opt: v})))
    return out


def reevaluate(st: State, alt: Rules) -> set[Action]:
    """The legal actions of the same position if the rules were `alt`."""
    return set(st.under(alt).legal_actions())


def stuck_what(st: State) -> str:
    """Which deadlock a stuck state is in: the kind's `decision_point` names it (a key
    of `STUCK_TEXT`; ``stuck-other`` when the kind names none)."""
    key = st.decision_point()[0]
    return key if key in STUCK_TEXT else "stuck-other"


# the Chắn deadlock classes and their words (the packed machine's search reads them)
STUCK_TEXT: dict[str, tuple[str, str]] = dict(STUCK_WORDS)


def _allows(en: str) -> bool:
    return en.startswith(ALLOW_PREFIXES)


Problem = tuple[str, str, str, str, tuple[str, ...]]  # kind, what, vi, en, rule ids


def invariant_problems(r: Rules, census: list[int],
                       sizes: list[tuple[int, int]]) -> list[Problem]:
    """The census (copies of each face anywhere) and every seat's (hand size, expected
    hand size) against the rules; shared by both explorers."""
    out: list[Problem] = []
    want = [r.copies if f in r.faces else 0 for f in range(cards.NUM_FACES)]
    if census != want:
        bad = [f for f in range(cards.NUM_FACES) if census[f] != want[f]]
        out.append(("invariant", "census",
                    f"Kiểm đếm sai: {', '.join(f'{cards.name(f)} có {census[f]}' for f in bad)}",
                    f"Census broken: {', '.join(f'{cards.name(f)} x{census[f]}' for f in bad)}",
                    (r.rid("deck.rule"),)))
    for s, (hs, es) in enumerate(sizes):
        if hs != es:
            out.append(("invariant", "hand-size", f"Ghế {s} có {hs} quân, đáng lẽ {es}",
                        f"Seat {s} holds {hs} cards, expected {es}", (r.variant.rule,)))
    return out


def check_state(st: State, legal: list[Action], explain: bool,
                cited_allow: set[str], cited_refuse: set[str]) -> list[tuple[str, str, str, str,
                                                                             tuple[str, ...]]]:
    """Problems of one state: (kind, what, vi, en, rules)."""
    r = st.rules
    out = invariant_problems(r, st.census(), [(st.hand_size(s), st.expected_hand_size(s))
                                              for s in range(st.n)])
    pend = st.pending()
    if legal:
        seats = {a.seat for a in legal}
        for s in pend:
            if s not in seats:
                out.append(("invariant", "pending",
                            f"Ghế {s} đang được chờ nhưng không có nước đi nào",
                            f"Seat {s} is awaited but has no legal action",
                            (r.rid("turn.direction_rule"),)))
        for s in seats - set(pend):
            out.append(("invariant", "pending",
                        f"Ghế {s} có nước đi dù không đến lượt",
                        f"Seat {s} has legal actions although nobody awaits it",
                        (r.rid("turn.direction_rule"),)))
    if not explain or st.is_terminal():
        return out
    legal_set = set(legal)
    cands: dict[Action, None] = dict.fromkeys(legal)
    for s in pend:
        for a in st.candidate_actions(s):
            cands.setdefault(a, None)
    rows = r.table.rows
    for a in cands:
        is_legal = a in legal_set
        ids, en, vi = st._reasons(a, is_legal)
        ids = list(dict.fromkeys(ids))
        (cited_allow if is_legal else cited_refuse).update(ids)
        unknown = [i for i in ids if i not in rows]
        if unknown:
            out.append(("contradiction", "unknown-rule",
                        f"{a.code()} viện dẫn luật không có trong bảng: {', '.join(unknown)}",
                        f"{a.code()} cites rules the table lacks: {', '.join(unknown)}",
                        tuple(unknown)))
        if is_legal and not ids:
            out.append(("contradiction", "no-rule",
                        f"{a.code()} hợp lệ nhưng không luật nào nói điều gì xảy ra",
                        f"{a.code()} is legal but no rule says what happens", ()))
        if _allows(en) != is_legal:
            said = "cho phép" if _allows(en) else "cấm"
            out.append(("contradiction", "explain-disagrees",
                        f"{a.code()}: danh sách nước đi nói {'được' if is_legal else 'không'}, "
                        f"lời giải thích {said} ({vi})",
                        f"{a.code()}: legal_actions says {'allowed' if is_legal else 'refused'}"
                        f" but the explanation says {en!r}", tuple(ids)))
    return out


EVENT_ROLES = {
    "draw": ("turn.draw_rule", "turn.direction_rule"),
    "passed-on": ("turn.drawn_offer_rule",),
    "returned": ("turn.chiu_return_rule", "turn.return_resume_rule"),
}


def _cite_events(st: State, c: State, a: Action, cited: set[str]) -> None:
    """Rules the machine acted on between `st` and its child (draws, passing on, returns,
    chíu counting, claim priority and tie-break)."""
    r = c.rules
    for e in c.events[len(st.events):]:
        for role in EVENT_ROLES.get(e.get("type", ""), ()):
            cited.add(r.rid(role))
        if e.get("type") == "fault":  # restriction-mode=penalise: the rows broken acted
            cited.update(e.get("rules", ()))
        if e.get("type") == "laid" and len(e.get("group", ())) == 4:
            cited.add(r.rid("turn.chiu_counts_rule"))
    w = st.window
    if st.phase == "window" and w is not None and st.pending() == (a.seat,):
        answers = [x for x in list(w.responses.values()) + [a]
                   if x.kind not in ("pass", "timeout")]
        tiers = sorted({st._tier(x.kind) for x in answers})
        if len(tiers) >= 2:
            cited.add(r.rid(f"claims.priority_rules.{min(tiers[0], 2)}"))
        if _tie(st, a):
            cited.add(r.rid("claims.tie_break_rule"))


def _tie(st: State, a: Action) -> bool:
    """Does answering `a` close a window in which two seats claim in the same top tier?"""
    w = st.window
    if st.phase != "window" or w is None or st.pending() != (a.seat,):
        return False
    answers = [x for x in list(w.responses.values()) + [a] if x.kind not in ("pass", "timeout")]
    if len(answers) < 2:
        return False
    tiers = [st._tier(x.kind) for x in answers]
    return tiers.count(min(tiers)) >= 2


# --------------------------------------------------------------------------- search


def explore_deal(rules: Rules, deal: Deal, index: int = 0, *, cap: int = 2_000_000,
                 por: bool = True, explain_every: int = 1, sample_every: int = 7,
                 alts: Sequence[tuple[str, str, Rules]] | None = None,
                 graph_limit: int = 0) -> DealResult:
    """Breadth-first search of every state reachable from one deal."""
    t0 = time.perf_counter()
    res = DealResult(index)
    alts = alt_rules(rules) if alts is None else alts
    # an option value seen changing the legal actions `enough` times is not sampled again
    # in this deal (the count is then a lower bound); the graph's states sample them all
    sampling = list(alts)
    enough = SAMPLE_ENOUGH
    start = State(rules, deal)
    # the deal itself acts under the deck row, the variant row and the opener row
    res.cited_allow.update((rules.rid("deck.rule"), rules.variant.rule,
                            rules.rid("turn.opener_rule")))
    ids: dict[int, int] = {hash(start.fingerprint()): 0}
    parent = array("i", [-1])
    act = array("H", [0])
    depth = array("H", [0])
    nocp = array("H", [start.progress()])
    act_ids: dict[Action, int] = {}
    act_list: list[Action] = [Action("pass", -1)]
    esrc = array("i")
    edst = array("i")
    q: deque[tuple[State, int]] = deque([(start, 0)])
    graph: dict[str, Any] | None = {"nodes": {}, "edges": []} if graph_limit else None

    def path_to(i: int) -> tuple[Action, ...]:
        out = []
        while parent[i] >= 0:
            out.append(act_list[act[i]])
            i = parent[i]
        return tuple(reversed(out))

    def found(kind: str, what: str, vi: str, en: str, rids: tuple[str, ...], i: int) -> None:
        if (kind, what) not in res.violations:
            res.violations[(kind, what)] = Violation(kind, what, vi, en, rids, index, path_to(i))

    n_state = 0
    while q:
        res.max_queue = max(res.max_queue, len(q))
        st, i = q.popleft()
        n_state += 1
        legal = st.legal_actions()
        for kind, what, vi, en, rids in check_state(st, legal, n_state % explain_every == 0,
                                                    res.cited_allow, res.cited_refuse):
            found(kind, what, vi, en, rids, i)
        if graph is not None and i < graph_limit:
            graph["nodes"][i] = _node(st, legal)
        if st.is_terminal():
            out = st.outcome() or {}
            res.outcomes[str(out.get("result"))] += 1
            res.cited_allow.update(out.get("rules", ()))
            continue
        if not legal:
            res.outcomes["stuck"] += 1
            what, vi, en = st.decision_point()  # which deadlock, in the kind's words
            found("deadlock", what, vi, en, (st.rules.rid("turn.stuck_rule"),), i)
            if graph is not None and i < graph_limit:  # which reading would move on here
                graph["nodes"][i]["diverge"] = [f"{o}={v}" for o, v, alt in alts
                                                if reevaluate(st, alt)]
            continue
        if n_state % sample_every == 0 and sampling:
            res.option_samples += 1
            if graph is not None and i < graph_limit:
                graph["nodes"][i]["sampled"] = True
            ls = set(legal)
            for opt, val, alt in list(sampling):
                if reevaluate(st, alt) != ls:
                    key = f"{opt}={val}"
                    res.option_changes[key] += 1
                    if graph is not None and i < graph_limit:
                        graph["nodes"][i].setdefault("diverge", []).append(key)
                    elif res.option_changes[key] >= enough:
                        sampling.remove((opt, val, alt))
        expand = legal
        if por and st.phase == "window":
            first = st.pending()[0]
            expand = [a for a in legal if a.seat == first]
        for a in expand:
            if _tie(st, a):
                res.ties += 1
                if res.tie_path is None:
                    res.tie_path = path_to(i) + (a,)
            c = st.child(a)
            res.generated += 1
            _cite_events(st, c, a, res.cited_allow)
            k = hash(c.fingerprint())
            j = ids.get(k)
            if j is None:
                if len(ids) >= cap:
                    res.complete = False
                    if graph is not None and i < graph_limit:
                        graph["nodes"][i]["cut"] = True
                    continue
                j = len(parent)
                ids[k] = j
                parent.append(i)
                aid = act_ids.get(a)
                if aid is None:
                    aid = act_ids[a] = len(act_list)
                    act_list.append(a)
                act.append(aid)
                d = depth[i] + 1
                depth.append(d)
                nocp.append(c.progress())
                res.depth = max(res.depth, d)
                q.append((c, j))
            if c.progress() == nocp[i]:
                esrc.append(i)
                edst.append(j)
            if graph is not None and i < graph_limit and j >= graph_limit:
                graph["nodes"][i]["cut"] = True
            if graph is not None and i < graph_limit and j < graph_limit:
                why: set[str] = set(st.explain(a).rules)
                _cite_events(st, c, a, why)
                graph["edges"].append((i, j, a.code(), tuple(sorted(why))))
    res.distinct = len(parent)
    cyc = _cycle(esrc, edst, len(parent))
    if cyc is not None:
        rr = rules.rid("turn.exhausted_rule")
        steps = " → ".join(act_list[act[n]].code() for n in cyc[1:])
        found("endless", "cycle", f"Ván có thể kéo dài mãi mà không bốc nọc: {steps}",
              f"The hand can go on for ever without drawing: {steps}", (rr,), cyc[0])
    res.store_bytes = (sys.getsizeof(ids) + sum(sys.getsizeof(k) for k in ids)
                       + sum(a.itemsize * len(a) for a in (parent, act, depth, nocp, esrc, edst)))
    res.seconds = time.perf_counter() - t0
    if graph is not None:
        graph["violating"] = {v.what: len(v.path) for v in res.violations.values()}
        res.graph = graph
    return res


def _node(st: State, legal: list[Action]) -> dict[str, Any]:
    """What a picture of the state graph shows of one state: phase, outcome, the seats
    awaited and their role (``gate``: the card is at their gate; ``turn``: theirs to eat),
    the source of the card on the table, and whether a ban of their own past binds any
    awaited seat."""
    out = st.outcome()
    pend = list(st.pending())
    w = st.window if st.phase == "window" else None
    roles = sorted({"gate" if w is not None and s == w.gate else
                    "turn" if w is not None and s == w.turn else
                    "other" if w is not None else "actor" for s in pend})
    return {"phase": st.phase, "terminal": st.is_terminal(), "stuck": not legal and
            not st.is_terminal(), "stuck_what": stuck_what(st) if not legal and
            not st.is_terminal() else None,
            "result": None if out is None else (out.get("result"), out.get("winner")),
            "win_kind": None if out is None else out.get("kind"),
            "pending": pend, "roles": roles, "noc_left": st.noc_left(),
            "source": None if w is None else w.source,
            "ban": any(st.marks[s] for s in pend)}


# a cycle among the same-nọc edges: the kind-neutral explorer's (one copy of the code)
_cycle = protocol_search.find_cycle


_WORK: dict[str, Any] = {}


def _run_one(i: int) -> DealResult:
    w = _WORK
    return explore_deal(w["rules"], w["deals"][i], i, **w["kw"])


def explore(rules: Rules, deals: Sequence[Deal], *, label: str = "", workers: int = 1,
            progress: Callable[[int, int, int, int, float], None] | None = None,
            **kw: Any) -> Result:
    """Search every deal (one process per deal when workers > 1) and merge in deal order."""
    with gc_paused():  # the workers are forked with it paused too
        return _explore(rules, deals, label, workers, progress, **kw)


def _explore(rules: Rules, deals: Sequence[Deal], label: str, workers: int,
             progress: Callable[[int, int, int, int, float], None] | None,
             **kw: Any) -> Result:
    t0 = time.perf_counter()
    kw.setdefault("alts", alt_rules(rules))
    results: list[DealResult] = []
    _WORK.update(rules=rules, deals=list(deals), kw=kw)

    def tick() -> None:
        if progress is not None:
            progress(len(results), len(deals), sum(r.generated for r in results),
                     sum(r.distinct for r in results), time.perf_counter() - t0)

    if workers > 1 and len(deals) > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(min(workers, len(deals)), initializer=worker_ignores_sigint) as pool:
            for r in pool.imap(_run_one, range(len(deals))):
                results.append(r)
                tick()
    else:
        for i in range(len(deals)):
            results.append(_run_one(i))
            tick()
    return Result(label or rules.table.id, rules, list(deals), results,
                  time.perf_counter() - t0, workers)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cycle collector off for the duration (back to how it was after).

    The searches and the seeded hands keep hundreds of thousands of states alive and
    build no reference cycles (a collection after one frees nothing), so the collector,
    which walks every live object again and again as they accumulate, only costs time:
    up to two thirds of a witness search's.  Nothing computed depends on it."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def worker_ignores_sigint() -> None:
    """Pool initializer: Ctrl-C reaches the whole process group, but only the parent
    handles it (it stops the pool and exits 130); a worker that took it too would print
    its own traceback (``Process ForkPoolWorker-N: ...``).  SIGTERM gets its default
    back: the parent's handler (exit 143, `chanspec.checks.cli.app`) is for the parent,
    and the pool stops its workers by SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Progress:
    """Rate-limited progress lines on stderr: every `every` seconds on a terminal, every
    `file_every` seconds when stderr is a file or a pipe (a log still sees the search
    advance)."""

    def __init__(self, label: str, quiet: bool = False, every: float | None = None,
                 file_every: float | None = None):
        self.label = label
        self.on = not quiet
        kw = {k: v for k, v in (("tty", every), ("other", file_every)) if v is not None}
        self.every = progress_every(sys.stderr, **kw)
        self.last = 0.0

    def __call__(self, done: int, total: int, generated: int, distinct: int,
                 seconds: float) -> None:
        if not self.on or (seconds - self.last < self.every and done < total):
            return
        self.last = seconds
        rate = distinct / seconds if seconds else 0.0
        print(f"  [{self.label}] ván/deals {done}/{total}: {generated:,} states generated, "
              f"{distinct:,} distinct, {rate:,.0f} states/s, {seconds:.0f}s",
              file=sys.stderr, flush=True)


def run_deals(rules: Rules, deals: Iterable[Deal], **kw: Any) -> Result:
    """Convenience: `explore` with default workers."""
    return explore(rules, list(deals), workers=kw.pop("workers", default_workers()), **kw)
