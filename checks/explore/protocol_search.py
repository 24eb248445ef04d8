"""Breadth-first model checking of any game kind, through `GameState` alone.

`explore_one(start, index, rows)` visits every state reachable from one start position
(`legal_actions` / `child`), deduplicated by `fingerprint()` itself (exact: no hash, so
no collision can merge two states), and checks in every state:

* **invariants**: the kind's own (`invariants()`: for Tấn the card census, hand sizes,
  the table's beats and limits, the finishing order); every pending seat has a legal
  action and only pending seats have one; a terminal state has an `outcome()`;
  `progress()` never decreases along a move;
* **contradictions**: `explain` agrees with `legal_actions` for every legal action and
  every other candidate action of a pending seat, a legal action cites at least one row,
  and every row cited is one of the table's; at a simultaneous node (several pending
  seats) the answers commute: the first answer of each of two seats applied in both
  orders reaches equal fingerprints (the contract of `chanspec.model.kind`);
* **deadlocks**: a state neither terminal nor chance in which nobody may act
  (`is_stuck()`, no pending seat, or no legal action), named by `decision_point()`;
* **endless play**: a cycle among moves that leave `progress()` unchanged (found by a
  topological sort of those edges once the search is over), or more than `stall_bound`
  such moves in a row along a shortest path (which also catches a search cut by `cap`).

Chance: a state for which `is_chance()` holds is expanded through its
``chance_outcomes()`` (pairs of action and probability) when the kind has it; a chance
state without it is a contradiction (``chance``).  Tấn fixes its chance in the deal, so
its states are never chance nodes and each seeded deal is one start.

Reduction: at a simultaneous node only the lowest pending seat's answers are expanded;
by the contract (which is checked at each such node) the other orders reach the same
states.  Nothing else is reduced.

Every violation is kept with its shortest path: breadth-first order finds it at the
least depth, and among paths of that depth the first in the machine's order of
`legal_actions` (which every kind gives deterministically); across starts, the lowest
start index.  Statistics are TLC's: distinct states, generated states, depth, the
largest queue.

`part_ways(a, b)` walks two positions in step (the same deal under two readings, moves
matched by their codes) until the legal actions or the outcome differ: the shortest
common play after which two readings of a row part.

Nothing here imports a kind: any `GameState` will do (``tests/test_layout.py``).
"""

from __future__ import annotations

import time
from array import array
from collections import Counter, deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

KIND_EXIT = {"invariant": 12, "contradiction": 12, "deadlock": 11, "endless": 13}
EXIT_ORDER = ("invariant", "contradiction", "deadlock", "endless")
STALL_BOUND = 400  # moves in a row without progress that count as endless play
CAP = 500_000  # states per start


@dataclass(frozen=True)
class Violation:
    kind: str  # invariant | contradiction | deadlock | endless
    what: str  # the kind's invariant name, pending, explain-disagrees, commute, cycle, ...
    vi: str
    en: str
    rules: tuple[str, ...]
    deal: int  # the start's index
    path: tuple[Any, ...]  # the actions from the start

    @property
    def depth(self) -> int:
        return len(self.path)

    def codes(self) -> list[str]:
        return [a.code() for a in self.path]

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "what": self.what, "vi": self.vi, "en": self.en,
                "rules": list(self.rules), "deal": self.deal, "depth": self.depth,
                "path": self.codes()}


@dataclass
class StartResult:
    """The search of one start position."""

    deal: int
    distinct: int = 0
    generated: int = 0
    depth: int = 0
    max_queue: int = 0
    complete: bool = True
    seconds: float = 0.0
    violations: dict[tuple[str, str], Violation] = field(default_factory=dict)
    outcomes: Counter[str] = field(default_factory=Counter)
    cited_allow: set[str] = field(default_factory=set)
    cited_refuse: set[str] = field(default_factory=set)
    simultaneous: int = 0  # simultaneous nodes whose commutation was checked


@dataclass
class Result:
    """The searches of several starts (the deals of one scale under one reading)."""

    label: str
    per_start: list[StartResult]

    @property
    def distinct(self) -> int:
        return sum(r.distinct for r in self.per_start)

    @property
    def generated(self) -> int:
        return sum(r.generated for r in self.per_start)

    @property
    def depth(self) -> int:
        return max((r.depth for r in self.per_start), default=0)

    @property
    def max_queue(self) -> int:
        return max((r.max_queue for r in self.per_start), default=0)

    @property
    def complete(self) -> bool:
        return all(r.complete for r in self.per_start)

    @property
    def seconds(self) -> float:
        return sum(r.seconds for r in self.per_start)

    def outcomes(self) -> dict[str, int]:
        c: Counter[str] = Counter()
        for r in self.per_start:
            c.update(r.outcomes)
        return dict(sorted(c.items()))

    def violations(self) -> list[Violation]:
        """The shortest violation of each (kind, what): least depth, then lowest start."""
        best: dict[tuple[str, str], Violation] = {}
        for r in self.per_start:
            for k, v in r.violations.items():
                if k not in best or (v.depth, v.deal) < (best[k].depth, best[k].deal):
                    best[k] = v
        return sorted(best.values(), key=lambda v: (EXIT_ORDER.index(v.kind), v.depth,
                                                     v.deal, v.what))

    def exit_code(self) -> int:
        return exit_code(self.violations())

    def cited(self) -> set[str]:
        out: set[str] = set()
        for r in self.per_start:
            out |= r.cited_allow | r.cited_refuse
        return out


def exit_code(violations: Sequence[Violation]) -> int:
    """The documented code of the worst kind found (12, 11, 13 in that order), else 0."""
    kinds = {v.kind for v in violations}
    return next((KIND_EXIT[k] for k in EXIT_ORDER if k in kinds), 0)


# --------------------------------------------------------------------------- checks

Problem = tuple[str, str, str, str, tuple[str, ...]]  # kind, what, vi, en, rule ids


def check_state(st: Any, legal: Sequence[Any], rows: Collection[str],
                allow: set[str], refuse: set[str]) -> list[Problem]:
    """The problems of one state, through the protocol; the rows its explanations cite
    go into `allow` (legal actions) and `refuse` (refused ones)."""
    out: list[Problem] = []
    for what, detail in st.invariants():
        out.append(("invariant", what, f"Bất biến «{what}» bị vi phạm: {detail}",
                    f"Invariant «{what}» broken: {detail}", ()))
    pend = tuple(st.pending())
    if st.is_terminal():
        if st.outcome() is None:
            out.append(("invariant", "outcome", "Ván đã xong nhưng không có kết quả",
                        "The hand is over but has no outcome", ()))
        if legal:
            out.append(("invariant", "pending", "Ván đã xong mà vẫn còn nước đi",
                        "The hand is over yet actions are legal", ()))
        return out
    seats = {a.seat for a in legal}
    for s in pend:
        if s not in seats and legal:
            out.append(("invariant", "pending", f"Ghế {s} đang được chờ nhưng không có nước đi",
                        f"Seat {s} is awaited but has no legal action", ()))
    for s in sorted(seats - set(pend)):
        out.append(("invariant", "pending", f"Ghế {s} có nước đi dù không ai chờ ghế ấy",
                    f"Seat {s} has legal actions although nobody awaits it", ()))
    legal_set = set(legal)
    cands: dict[Any, None] = dict.fromkeys(legal)
    for s in pend:
        for a in st.candidate_actions(s):
            cands.setdefault(a, None)
    for a in cands:
        is_legal = a in legal_set
        e = st.explain(a)
        ids = list(e.rules)
        (allow if is_legal else refuse).update(ids)
        unknown = [i for i in ids if i not in rows]
        if unknown:
            out.append(("contradiction", "unknown-rule",
                        f"{a.code()} viện dẫn luật không có trong bảng: {', '.join(unknown)}",
                        f"{a.code()} cites rules the table lacks: {', '.join(unknown)}",
                        tuple(unknown)))
        if is_legal and not ids:
            out.append(("contradiction", "no-rule",
                        f"{a.code()} hợp lệ nhưng không luật nào nói vì sao",
                        f"{a.code()} is legal but no rule says why", ()))
        if bool(e.legal) != is_legal:
            out.append(("contradiction", "explain-disagrees",
                        f"{a.code()}: danh sách nước đi nói {'được' if is_legal else 'không'}, "
                        f"lời giải thích nói {'được' if e.legal else 'không'} ({e.vi})",
                        f"{a.code()}: legal_actions says {'allowed' if is_legal else 'refused'}"
                        f", explain says {'allowed' if e.legal else 'refused'} ({e.en})",
                        tuple(ids)))
    return out


def commute_problems(st: Any, legal: Sequence[Any]) -> list[Problem]:
    """At a simultaneous node: the first answer of each of two pending seats, applied in
    both orders, must reach equal fingerprints (and stay legal after the other)."""
    out: list[Problem] = []
    pend = tuple(st.pending())
    first = {s: next((a for a in legal if a.seat == s), None) for s in pend}
    for i, s in enumerate(pend):
        for t in pend[i + 1:]:
            a, b = first[s], first[t]
            if a is None or b is None:
                continue
            ends = []
            for x, y in ((a, b), (b, a)):
                c = st.child(x)
                if y not in c.legal_actions():
                    out.append(("contradiction", "commute",
                                f"Ở nút đồng thời, {y.code()} không còn hợp lệ sau {x.code()}",
                                f"At a simultaneous node {y.code()} is no longer legal after "
                                f"{x.code()}", ()))
                    break
                ends.append(c.child(y).fingerprint())
            if len(ends) == 2 and ends[0] != ends[1]:
                out.append(("contradiction", "commute",
                            f"Ở nút đồng thời, {a.code()} rồi {b.code()} khác {b.code()} rồi "
                            f"{a.code()}",
                            f"At a simultaneous node {a.code()} then {b.code()} differs from "
                            f"{b.code()} then {a.code()}", ()))
    return out


def expansion(st: Any, legal: Sequence[Any]) -> list[Any]:
    """The moves searched from `st`: a chance node's outcomes; at a simultaneous node
    the lowest pending seat's answers (the others commute); else every legal action."""
    pend = tuple(st.pending())
    if len(pend) > 1:
        return [a for a in legal if a.seat == pend[0]]
    return list(legal)


# --------------------------------------------------------------------------- search


def explore_one(start: Any, index: int = 0, rows: Collection[str] = (), *, cap: int = CAP,
                stall_bound: int = STALL_BOUND) -> StartResult:
    """Breadth-first search of every state reachable from `start`."""
    t0 = time.perf_counter()
    res = StartResult(index)
    for e in start.events:  # what the deal itself did (the turned card, a count, a gift)
        res.cited_allow.update(e.get("rules", ()))
    fp0 = start.fingerprint()
    ids: dict[Any, int] = {fp0: 0}
    parent = array("i", [-1])
    act: list[Any] = [None]
    depth = array("i", [0])
    prog = [start.progress()]
    stall = array("i", [0])
    esrc, edst = array("i"), array("i")
    eact: dict[tuple[int, int], Any] = {}  # the first move along each same-progress edge
    q: deque[tuple[Any, int]] = deque([(start, 0)])

    def path_to(i: int) -> tuple[Any, ...]:
        out = []
        while parent[i] >= 0:
            out.append(act[i])
            i = parent[i]
        return tuple(reversed(out))

    def found(p: Problem, i: int, extra: tuple[Any, ...] = ()) -> None:
        kind, what, vi, en, rids = p
        if (kind, what) not in res.violations:
            res.violations[(kind, what)] = Violation(kind, what, vi, en, rids, index,
                                                     path_to(i) + extra)

    while q:
        res.max_queue = max(res.max_queue, len(q))
        st, i = q.popleft()
        if st.is_chance():
            outs = getattr(st, "chance_outcomes", None)
            if outs is None:
                found(("contradiction", "chance", "Nút may rủi mà máy không kể các khả năng",
                       "A chance node whose outcomes the machine does not list", ()), i)
                continue
            moves = [a for a, _ in outs()]
        else:
            legal = st.legal_actions()
            for p in check_state(st, legal, rows, res.cited_allow, res.cited_refuse):
                found(p, i)
            if st.is_terminal():
                out = st.outcome() or {}
                res.outcomes[str(out.get("result"))] += 1
                res.cited_allow.update(out.get("rules", ()))
                continue
            if st.is_stuck() or not legal or not st.pending():
                res.outcomes["stuck"] += 1
                what, vi, en = st.decision_point()
                found(("deadlock", what, f"Bế tắc: {vi}", f"Deadlock: {en}", ()), i)
                continue
            if len(st.pending()) > 1:
                res.simultaneous += 1
                for p in commute_problems(st, legal):
                    found(p, i)
            moves = expansion(st, legal)
        for a in moves:
            c = st.child(a)
            res.generated += 1
            for e in c.events[len(st.events):]:
                res.cited_allow.update(e.get("rules", ()))
            pc = c.progress()
            if pc < prog[i]:
                found(("invariant", "progress", f"Số đo tiến triển giảm ({prog[i]} → {pc})",
                       f"The progress measure went down ({prog[i]} → {pc})", ()), i, (a,))
            fp = c.fingerprint()
            j = ids.get(fp)
            if j is None:
                if len(ids) >= cap:
                    res.complete = False
                    continue
                j = len(parent)
                ids[fp] = j
                parent.append(i)
                act.append(a)
                depth.append(depth[i] + 1)
                prog.append(pc)
                stall.append(stall[i] + 1 if pc == prog[i] else 0)
                res.depth = max(res.depth, depth[j])
                if stall[j] > stall_bound:
                    found(("endless", "no-progress",
                           f"Hơn {stall_bound} nước liền mà ván không tiến triển",
                           f"More than {stall_bound} moves in a row without progress", ()), j)
                q.append((c, j))
            if pc == prog[i] and (i, j) not in eact:
                eact[i, j] = a
                esrc.append(i)
                edst.append(j)
    res.distinct = len(parent)
    cyc = find_cycle(esrc, edst, len(parent))
    if cyc is not None:
        loop = tuple(eact[u, v] for u, v in zip(cyc, cyc[1:], strict=False))
        steps = " → ".join(a.code() for a in loop)
        res.violations.setdefault(("endless", "cycle"), Violation(
            "endless", "cycle", f"Ván có thể kéo dài mãi mà không tiến triển: {steps}",
            f"The hand can go on for ever without progress: {steps}", (), index,
            path_to(cyc[0]) + loop))
    res.seconds = time.perf_counter() - t0
    return res


def explore(starts: Sequence[Any], rows: Collection[str] = (), *, label: str = "",
            cap: int = CAP, stall_bound: int = STALL_BOUND) -> Result:
    """Search every start, in order."""
    return Result(label, [explore_one(s, i, rows, cap=cap, stall_bound=stall_bound)
                          for i, s in enumerate(starts)])


def find_cycle(src: array, dst: array, n: int) -> list[int] | None:
    """A cycle in the graph of the edges src[k] -> dst[k] over nodes 0..n-1, as [node,
    ..., node] (the first node repeated at the end), or None (Kahn's topological sort;
    the cycle is walked from the lowest node left)."""
    if not src:
        return None
    indeg: dict[int, int] = {}
    succ: dict[int, list[int]] = {}
    for a, b in zip(src, dst, strict=True):
        succ.setdefault(a, []).append(b)
        indeg[b] = indeg.get(b, 0) + 1
        indeg.setdefault(a, 0)
    ready = [v for v, d in indeg.items() if d == 0]
    removed = 0
    while ready:
        v = ready.pop()
        removed += 1
        for w in succ.get(v, ()):
            indeg[w] -= 1
            if indeg[w] == 0:
                ready.append(w)
    if removed == len(indeg):
        return None
    left = {v for v, d in indeg.items() if d > 0}
    # what is left is the cycles and what they lead to: keep the nodes with a successor
    # still left until none goes (then every node left lies on or before a cycle)
    while True:
        sinks = {v for v in left if not any(w in left for w in succ.get(v, ()))}
        if not sinks:
            break
        left -= sinks
    v = min(left)
    seen: list[int] = []
    pos: dict[int, int] = {}
    while v not in pos:
        pos[v] = len(seen)
        seen.append(v)
        v = min(w for w in succ.get(v, ()) if w in left)
    return seen[pos[v]:] + [v]


# --------------------------------------------------------------------------- readings


@dataclass(frozen=True)
class Parting:
    """Where two readings part: after the common play `path` (action codes), the legal
    actions differ (`what` = ``legal``: `only_a`, `only_b`) or the outcome does
    (``outcome``: `outcome_a`, `outcome_b`; None while a hand is not over)."""

    what: str
    path: tuple[str, ...]
    only_a: tuple[str, ...] = ()
    only_b: tuple[str, ...] = ()
    outcome_a: dict[str, Any] | None = None
    outcome_b: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        return {"what": self.what, "path": list(self.path), "only_a": list(self.only_a),
                "only_b": list(self.only_b), "outcome_a": self.outcome_a,
                "outcome_b": self.outcome_b}


def _result(st: Any) -> dict[str, Any] | None:
    out = st.outcome()
    return None if out is None else {k: v for k, v in out.items() if k != "rules"}


def part_ways(a0: Any, b0: Any, *, cap: int = CAP) -> tuple[Parting | None, bool, int]:
    """The shortest common play after which positions `a0` and `b0` (one deal under
    two readings) differ in their legal actions or their outcome, breadth-first over
    the pairs of states reached by the same moves (matched by `code()`); the first such
    play in `a0`'s order of legal actions.  Returns (parting or None, complete, pairs
    visited); None with complete True: no play parts them."""
    seen: set[tuple[Any, Any]] = {(a0.fingerprint(), b0.fingerprint())}
    q: deque[tuple[Any, Any, tuple[str, ...]]] = deque([(a0, b0, ())])
    while q:
        a, b, path = q.popleft()
        ra, rb = _result(a), _result(b)
        if ra != rb:
            return Parting("outcome", path, outcome_a=ra, outcome_b=rb), True, len(seen)
        la = {x.code(): x for x in a.legal_actions()}
        lb = {x.code(): x for x in b.legal_actions()}
        if la.keys() != lb.keys():
            return (Parting("legal", path, tuple(c for c in la if c not in lb),
                            tuple(c for c in lb if c not in la)), True, len(seen))
        for code, x in la.items():
            ca, cb = a.child(x), b.child(lb[code])
            key = (ca.fingerprint(), cb.fingerprint())
            if key in seen:
                continue
            if len(seen) >= cap:
                return None, False, len(seen)
            seen.add(key)
            q.append((ca, cb, path + (code,)))
    return None, True, len(seen)
