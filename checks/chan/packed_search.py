"""Breadth-first model checking on packed positions (model/chan/packed.py): millions of states.

`search(rules, deals, ...)` explores every position reachable from *all* the given deals
in one breadth-first search with one seen-set (like TLC with many initial states), on
the packed machine.  It checks in every state what is cheap on packed bytes:

* **invariants** -- the census (each face ``copies`` times across hands, laid-down
  cards, dead cards, the nọc and the window) and every seat's hand size;
* **deadlock** -- a non-terminal position in which the awaited seat has no legal
  action, classified as in checks/explore/search.py;
* **endless play** -- a cycle among positions with the same nọc position;
* claim ties and their tie-break, outcomes.

and, in a deterministic sample of states (every ``check_every``-th distinct state, the
first state of every kind -- `_signature` -- and every violating one), what needs the
reference machine: the path to the state is replayed through `State` (model/chan/game.py) --
each action checked legal by the reference -- and the reference position must pack to
the very same bytes and list the very same legal actions (``engines-disagree``
otherwise); then every check of checks/explore/search.py runs on the reference state:
explanations against legality and rules cited (vacuity), and, on the every
``check_every``-th states, the same position under every other option value.

The claim-window reduction of checks/explore/search.py applies (only the lowest awaited seat's
answers are expanded; answers commute).  States are stored as a 64-bit hash of the
packed bytes (collision chance about N^2 / 2^65) with a parent link, the action that
reached it and its nọc position: about 80 bytes per state with the dict, plus the
frontier of packed positions (``size`` bytes each) waiting in the queue, and the edges
that keep the nọc position but reach a state already seen (for endless play).
"""

from __future__ import annotations

import sys
import time
from array import array
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from chanspec.checks import output
from chanspec.checks.explore import search as explore
from chanspec.checks.explore.search import STUCK_TEXT, DealResult, Result, Violation
from chanspec.model.chan import cards
from chanspec.model.chan.game import Action, ActionError, Deal, State
from chanspec.model.chan.packed import (
    P_DISCARD,
    P_OPENING,
    P_OVER,
    P_RETURN,
    P_WINDOW,
    Packed,
    claim_kind,
)
from chanspec.model.chan.table import Rules

MAX_DEALS = 65_535  # the deal number takes two bytes of a position
NO_ACTION = Action("pass", -1)  # stands for "no action" at the deals themselves
Progress = Callable[[int, int, int, int, float], None]  # distinct, generated, queue, depth, s


def search(rules: Rules, deals: Sequence[Deal], *, cap: int = 10_000_000,
           check_every: int = 1000, por: bool = True, label: str = "",
           progress: Progress | None = None, progress_every: float = 2.0) -> Result:
    """One breadth-first search from every deal at once."""
    t0 = time.perf_counter()
    pk = Packed(rules, deals)
    res = DealResult(0)
    alts = explore.alt_rules(rules)
    res.cited_allow.update((rules.rid("deck.rule"), rules.variant.rule,
                            rules.rid("turn.opener_rule")))
    ids: dict[int, int] = {}  # hash of a position -> its number
    parent = array("i")  # number of the state it was first reached from (-1: a deal)
    act: list[Action] = []  # the action that first reached it
    nocp = array("B")  # its nọc position
    # Endless play is a cycle of edges that keep the nọc position.  Edges to new states
    # are the BFS tree (parent, nocp); only the others are recorded.  Along tree edges
    # depth grows by one, so a cycle needs an edge to a state no deeper than its source
    # (a "back" edge): with none there is no cycle, and a cycle through a back edge
    # u -> v means v reaches u, which `_endless` checks walking back from u.
    esrc = array("i")
    edst = array("i")
    back: list[int] = []  # positions in esrc/edst of the back edges
    # The queue holds positions only: BFS takes states out in the order it numbered
    # them, so the state taken out n-th is state number n.
    q: deque[bytes] = deque()
    roots: dict[int, int] = {}  # state number of a root -> its deal number
    for i in range(len(deals)):
        p = pk.initial(i)
        k = hash(p)
        if k in ids:
            continue
        roots[len(parent)] = i
        ids[k] = len(parent)
        q.append(p)
        parent.append(-1)
        act.append(NO_ACTION)
        nocp.append(p[2])

    census_bad = census_checker(pk, rules)
    expansion_legal = expander(pk, por)
    step = pk.step
    tie_rule = rules.rid("claims.tie_break_rule")
    stuck_as_written = pk.plan.stuck_as_written

    def path_to(i: int) -> tuple[int, tuple[Action, ...]]:
        out = []
        while parent[i] >= 0:
            out.append(act[i])
            i = parent[i]
        return i, tuple(reversed(out))

    def found(kind: str, what: str, vi: str, en: str, rids: tuple[str, ...], i: int) -> None:
        if (kind, what) not in res.violations:
            root, path = path_to(i)
            res.violations[(kind, what)] = Violation(kind, what, vi, en, rids,
                                                     roots[root], path)

    kinds: set[bytes] = set()
    i = -1  # the state being expanded
    level, level_end = 0, len(parent) - 1  # BFS depth of state i; last state of it
    generated = 0
    last = t0
    max_queue = 0
    while q:
        if len(q) > max_queue:
            max_queue = len(q)
        p = q.popleft()
        i += 1
        if i > level_end:
            level += 1
            level_end = len(parent) - 1
        ph = p[0]
        # ---- invariants on the packed position
        bad = census_bad(p)
        if bad:
            _invariants(pk, p, rules, i, found)
        # ---- what happens next
        if ph == P_OVER:
            res.outcomes["draw" if p[16] == 4 else "win"] += 1
            sig = _signature(pk, p, [])
            if sig not in kinds or i % check_every == 0:
                kinds.add(sig)
                _reference_check(pk, res, alts, i, p, path_to, found)
            continue
        legal, tie_possible = expansion_legal(p)
        sample = i % check_every == 0
        first_of_kind = False
        if not sample:  # also the first state of every kind (see _signature)
            sig = _signature(pk, p, legal)
            if sig not in kinds:
                kinds.add(sig)
                first_of_kind = True
        if not legal:
            res.outcomes["stuck"] += 1
            what = _stuck_what(pk, p, stuck_as_written)
            vi, en = STUCK_TEXT[what]
            found("deadlock", what, vi, en, (rules.rid("turn.stuck_rule"),), i)
            sample = True
        if sample or bad or first_of_kind:
            # other option values are tried on the regular sample only (they are for
            # option vacuity, which needs no rare positions)
            _reference_check(pk, res, alts if sample else (), i, p, path_to, found)
        noc_pos = p[2]
        for a in legal:
            if tie_possible and _closes_tie(pk, p, a):
                res.ties += 1
                res.cited_allow.add(tie_rule)
                if res.tie_path is None:
                    res.tie_path = path_to(i)[1] + (a,)
            cp = step(p, a)
            generated += 1
            k = hash(cp)
            j = ids.get(k)
            if j is None:
                if len(parent) >= cap:
                    res.complete = False
                    continue
                ids[k] = len(parent)
                parent.append(i)
                act.append(a)
                nocp.append(cp[2])
                q.append(cp)
            elif cp[2] == noc_pos:
                esrc.append(i)
                edst.append(j)
                if j <= level_end:  # states are numbered in BFS order
                    back.append(len(esrc) - 1)
        if progress is not None and i & 4095 == 0:
            now = time.perf_counter()
            if now - last >= progress_every:
                last = now
                progress(len(parent), generated, len(q), level, now - t0)
    res.generated = generated
    res.depth = level
    res.max_queue = max_queue
    res.distinct = len(parent)
    cyc = _endless(parent, nocp, esrc, edst, back)
    if cyc is not None:
        rr = rules.rid("turn.exhausted_rule")
        steps = " → ".join(act[x].code() for x in cyc[1:])
        found("endless", "cycle", f"Ván có thể kéo dài mãi mà không bốc nọc: {steps}",
              f"The hand can go on for ever without drawing: {steps}", (rr,), cyc[0])
    res.store_bytes = (sys.getsizeof(ids) + len(ids) * 32  # the dict and its int keys
                       + sys.getsizeof(act) + (parent.itemsize + 1) * len(parent))
    res.seconds = time.perf_counter() - t0
    if progress is not None:
        progress(len(parent), res.generated, 0, res.depth, res.seconds)
    out = Result(label or rules.table.id, rules, list(deals), [res], res.seconds, 1)
    out.edges = len(esrc)  # type: ignore[attr-defined]
    out.packed_bytes = pk.size  # type: ignore[attr-defined]
    return out


def census_checker(pk: Packed, rules: Rules) -> Callable[[bytes], bool]:
    """The invariants that are cheap on packed bytes, as one test: does position `p`
    break the census (each face ``copies`` times across hands, laid-down cards, dead
    cards, the nọc and the window) or a seat's hand size?  (`_invariants` then says
    which.)  Shared by this search and the partitioned one (checks/chan/cluster.py)."""
    want = _census_key([rules.copies if f in rules.faces else 0 for f in range(30)])
    noc_keys = [[_census_key(_counts(noc[j:])) for j in range(len(noc) + 1)]
                for noc in pk.nocs]
    F = cards.NUM_FACES
    card_key = [1 << (8 * f) for f in range(F)]
    blocks = [(s, pk.laid_at[s]) for s in range(pk.n)]  # laid + concealed: one slice
    expected_sizes = pk.expected_sizes
    dead = pk.DEAD
    low = (1 << 8 * F) - 1
    frm = int.from_bytes

    def bad(p: bytes) -> bool:
        c = frm(p[dead:dead + F], "little") + noc_keys[p[3] * 256 + p[4]][p[2]]
        if p[0] == P_WINDOW:
            c += card_key[p[5]]
        sizes = expected_sizes(p)
        broken = False
        for s, lo in blocks:
            held = p[lo:lo + 2 * F]
            c += frm(held, "little")
            if sum(held) != sizes[s] and sizes[s] >= 0:
                broken = True
        c = (c & low) + (c >> 8 * F)  # laid + concealed, face by face
        return broken or c != want

    return bad


def expander(pk: Packed, por: bool) -> Callable[[bytes], tuple[list[Action], bool]]:
    """The actions the search expands at position `p` (with the claim-window reduction:
    only the lowest awaited seat's answers) and whether one of them may close a claim
    tie.  Shared by this search and the partitioned one."""
    resp = pk.RESP
    legal_of = pk.legal
    claims_of = pk.claims_of
    passes = pk.act["pass"]
    plain_windows = por and not pk.plan.auto_timeout

    def expand(p: bytes) -> tuple[list[Action], bool]:
        if p[0] != P_WINDOW:
            return legal_of(p), False
        answers = p[resp:]
        if plain_windows:
            first = answers.index(1)
            legal = claims_of(p, first) + [passes[first]]
        else:
            legal = legal_of(p, answers.index(1)) if por else legal_of(p)
        # a tie needs the window to close on this answer and another claim made
        return legal, answers.count(1) == 1 and max(answers) > 2

    return expand


class TLCProgress:
    """Progress lines on stderr in the style of TLC: as often as the search reports on a
    terminal, at most every `file_every` seconds when stderr is a file or a pipe (the
    last line, with an empty queue, always)."""

    def __init__(self, label: str, quiet: bool = False, force: bool = False,
                 file_every: float | None = None):
        self.label = label
        self.on = not quiet
        self.every = 0.0 if force else output.progress_every(
            sys.stderr, 0.0, output.PROGRESS_FILE_EVERY if file_every is None else file_every)
        self.last: float | None = None

    def __call__(self, distinct: int, generated: int, queue: int, depth: int,
                 seconds: float) -> None:
        if not self.on:
            return
        if queue and self.last is not None and seconds - self.last < self.every:
            return
        self.last = seconds
        rate = distinct / seconds if seconds else 0.0
        print(f"  [{self.label}] Progress({depth}) at {seconds:,.0f}s: {generated:,} states "
              f"generated, {distinct:,} distinct states found ({rate:,.0f}/s), {queue:,} "
              f"states left on queue.", file=sys.stderr, flush=True)


def _counts(faces: Sequence[int]) -> list[int]:
    c = [0] * 30
    for f in faces:
        c[f] += 1
    return c


def _census_key(counts: Sequence[int]) -> int:
    """A count vector as one integer, a byte per face (sums never carry: counts <= 255)."""
    return int.from_bytes(bytes(counts), "little")


def _endless(parent: array, nocp: array, esrc: array, edst: array,
             back: list[int]) -> list[int] | None:
    """A cycle of edges that keep the nọc position, as [node, ..., node], or None.

    The graph is the BFS tree (`parent`, where the nọc position stays) plus the recorded
    non-tree edges `esrc` -> `edst`.  A cycle must use a back edge u -> v (`back`), and
    then v reaches u: walk back from u along tree and recorded edges looking for v.
    Walks share a step budget; past it (or when some v is found) the whole graph goes to
    `explore._cycle`, which is exact."""
    if not back:
        return None
    into: dict[int, list[int]] = {}
    for a, b in zip(esrc, edst, strict=True):
        into.setdefault(b, []).append(a)
    budget = 4 * len(parent) + 1000
    suspect = False
    for e in back:
        u, v = esrc[e], edst[e]
        seen = {u}
        stack = [u]
        while stack and budget > 0:
            x = stack.pop()
            budget -= 1
            if x == v:
                suspect = True
                break
            w = parent[x]
            if w >= 0 and nocp[w] == nocp[x] and w not in seen:
                seen.add(w)
                stack.append(w)
            for w in into.get(x, ()):
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        if suspect or budget <= 0:
            break
    if not suspect and budget > 0:
        return None
    src, dst = array("i", esrc), array("i", edst)
    for j in range(len(parent)):  # the tree edges that keep the nọc position
        u = parent[j]
        if u >= 0 and nocp[u] == nocp[j]:
            src.append(u)
            dst.append(j)
    return explore._cycle(src, dst, len(parent))


def _signature(pk: Packed, p: bytes, legal: list[Action]) -> bytes:
    """What kind of position this is, for sampling: the phase and actor, the window
    (gate, source, turn, giver, passed-on, reclaimer), an interrupted window, the
    outcome, what every seat could claim (OPTF), the kinds of ban that bear on the
    decision (on the window's card for the seat whose turn it is; every ban of the seat
    that must discard), and whether an opening ù is offered.  The first state of every
    kind is replayed on the reference, so rules that act only in rare positions are
    cited too."""
    ph = p[0]
    if ph == P_WINDOW:
        row = pk.bans_at[p[8]]
        extra = p[row + p[5]] | p[row + 30]
    elif ph == P_OVER:
        extra = 0
    else:
        extra = p[pk.bsum_at[p[1]]] | (256 if legal and legal[0].kind == "u" else 0)
    return p[0:2] + p[6:17] + p[pk.OPTF:pk.RESP] + extra.to_bytes(2, "little")


def _stuck_what(pk: Packed, p: bytes, as_written: bool) -> str:
    if p[0] in (P_OPENING, P_DISCARD, P_RETURN):
        if not any(pk.hand(p, p[1])):
            return "stuck-empty-hand"
        if as_written:
            return "stuck-all-banned"
    return "stuck-other"


def _closes_tie(pk: Packed, p: bytes, a: Action) -> bool:
    """Does answering `a` close a window with two claims of the same top tier?"""
    r, n = pk.RESP, pk.n
    if [s for s in range(n) if p[r + s] == 1] != [a.seat]:
        return False
    codes = [p[r + s] for s in range(n) if p[r + s] > 2]
    if a.kind not in ("pass", "timeout"):
        codes.append(Packed.answer_code(a))
    if len(codes) < 2:
        return False
    tiers = [pk.tier[claim_kind(c)] for c in codes]
    return tiers.count(min(tiers)) >= 2


def _invariants(pk: Packed, p: bytes, rules: Rules, i: int,
                found: Callable[..., None]) -> None:
    sizes = [(pk.hand_size(p, s), pk.expected_hand_size(p, s)) for s in range(pk.n)]
    for problem in explore.invariant_problems(rules, pk.census(p), sizes):
        found(*problem, i)


def _reference_check(pk: Packed, res: DealResult, alts: Any, i: int, p: bytes,
                     path_to: Callable[[int], tuple[int, tuple[Action, ...]]],
                     found: Callable[..., None]) -> None:
    """Replay the path through the reference machine and compare, then run the
    reference's own checks on the state (explanations, vacuity, other option values)."""
    deal = pk.deal_index(p)
    _, path = path_to(i)
    try:
        st = State.replay(pk.rules, pk.deals[deal], path)
    except ActionError as e:
        found("contradiction", "engines-disagree",
              f"Máy nén cho phép một nước mà máy tham chiếu cấm: {e}",
              f"The packed machine took a step the reference forbids: {e}", tuple(e.rules), i)
        return
    legal = st.legal_actions()
    if pk.encode(st, deal) != p or pk.legal(p) != legal:
        found("contradiction", "engines-disagree",
              "Máy nén và máy tham chiếu khác nhau ở thế bài này",
              "The packed and the reference machines differ in this position", (), i)
        return
    for kind, what, vi, en, rids in explore.check_state(st, legal, True, res.cited_allow,
                                                        res.cited_refuse):
        found(kind, what, vi, en, rids, i)
    if st.is_terminal():
        res.cited_allow.update((st.outcome() or {}).get("rules", ()))
        return
    if legal and alts:
        res.option_samples += 1
        ls = set(legal)
        for opt, val, alt in alts:
            if explore.reevaluate(st, alt) != ls:
                res.option_changes[f"{opt}={val}"] += 1
    for a in legal:
        explore._cite_events(st, st.child(a), a, res.cited_allow)
