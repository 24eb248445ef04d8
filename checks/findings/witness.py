"""Where do two values of an option part ways?  Shortest witnesses and their frequency.

Two rule sets that differ in one option are run in lockstep on the same deal: the same
action is applied to both as long as both allow exactly the same actions.  The first
position where the legal action sets differ, or where the hands end differently (who
wins, win or draw), is a *divergence*; the actions leading to it are its witness.

* `search(rules_a, rules_b, deals)` -- a breadth-first search over pairs of states from
  all the deals at once, so the witness it returns has the fewest actions of all
  divergences reachable from those deals (claim windows are expanded in seat order only,
  as in checks/explore/search.py).  None when there is none within the budget; the result says
  whether the search was exhaustive.
* `frequency(rules, alts, hands, seed)` -- full-size random games under `rules` (the
  table's defaults), with a shadow game under each alternative value receiving the same
  actions; counts the hands in which each alternative would have changed the legal
  actions, the result or (restriction-mode=penalise) the faults recorded, and what the
  first change was (a win allowed or refused, an eat, a chíu, a discard, a fault, a
  deadlock...).  Play is a fixed greedy-random policy: a seat
  that may win does, chíu is taken with probability 0.9, eating with 0.8 (a random
  partner), discards are uniform.  Every deal is ``random.Random(seed * 1_000_003 + i)``
  so any hand can be replayed from the printed seed and its number.

Causal frequencies (common random numbers).  The randomness of each decision is not
drawn from a stream shared by the whole hand: it comes from a hash (`decision_seed`,
blake2b) of the hand's seed and number, a salt, the seat deciding, what that seat sees
(its concealed cards, every laid group and dead card, the card on offer and its gate,
the nọc left) and the actions it may take.  So the same situation gets the
same choice under both readings, whatever happened before, and a reading that changes
nothing after the parting point changes no result.  Beside each figure a *placebo*:
the table's own value played on from the same parting point with another salt (the
decisions perturbed from there on, nothing else); how often that alone changes the
result is how much of the figure chance could make (`indistinguishable`).
"""

from __future__ import annotations

import functools
import hashlib
import multiprocessing
import random
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.checks.explore.search import gc_paused, worker_ignores_sigint
from chanspec.model.chan import pay
from chanspec.model.chan.game import Action, Deal, State, deal_random
from chanspec.model.chan.table import Rules

WIN = ("u", "chiu-u")


def observe(st: State) -> tuple[frozenset[Action], Any]:
    """What a player can tell apart: the legal actions, and the result once over (with,
    after a declaration, its judgement, consequence and the totals paid or owed, and
    under a table that says who pays whom, every seat's net: `model.pay.settle`)."""
    out = st.outcome()
    res = None if out is None else (out.get("result"), out.get("winner"), out.get("kind"))
    d = None if out is None else out.get("declaration")
    if res is not None and d is not None and st.is_terminal():
        res += (d["judgement"], d["consequence"],
                None if d["paid"] is None else d["paid"]["total"] + d["paid"]["ga"],
                None if d["den"] is None else d["den"]["total"] + d["den"]["ga"])
        if pay.has_payment(st.rules):
            res += (pay.settle(st.rules, st).net,)
    return frozenset(st.legal_actions()), res


@dataclass
class Divergence:
    deal_index: int
    deal: Deal
    path: tuple[Action, ...]
    only_a: tuple[Action, ...]  # legal under a, not under b
    only_b: tuple[Action, ...]
    result_a: Any
    result_b: Any
    pairs_explored: int
    seconds: float

    def as_json(self) -> dict[str, Any]:
        return {"deal_index": self.deal_index, "deal": self.deal.as_json(),
                "path": [a.code() for a in self.path],
                "only_a": [a.code() for a in self.only_a],
                "only_b": [a.code() for a in self.only_b],
                "result_a": self.result_a, "result_b": self.result_b,
                "pairs_explored": self.pairs_explored}


@dataclass
class SearchResult:
    found: Divergence | None
    pairs: int
    exhaustive: bool
    seconds: float


def faults(st: State) -> tuple[tuple[int, str, tuple[str, ...]], ...]:
    """The faults recorded so far (restriction-mode=penalise): (seat, action, rows)."""
    return tuple((f["seat"], f["action"], tuple(f["rules"])) for f in st.faults)


def _fault_result(fs: tuple[tuple[int, str, tuple[str, ...]], ...], k: int) -> Any:
    """The faults from the `k`-th on, as a result: ``("fault", [[seat, action, rows]])``."""
    return ("fault", [[seat, act, list(rows)] for seat, act, rows in fs[k:]])


def _differ(sa: State, sb: State) -> tuple[frozenset[Action], frozenset[Action], Any, Any] | None:
    """Legal actions, result, or (under restriction-mode=penalise, where a broken rule
    refuses nothing) the faults recorded: the first where the two readings differ."""
    return _differ_seen(sa, observe(sa), sb)


def _differ_seen(sa: State, seen_a: tuple[frozenset[Action], Any], sb: State
                 ) -> tuple[frozenset[Action], frozenset[Action], Any, Any] | None:
    """`_differ` with `sa` already observed (`seen_a`: `observe(sa)`)."""
    la, ra = seen_a
    lb, rb = observe(sb)
    if la != lb or ra != rb:
        return la, lb, ra, rb
    fa, fb = faults(sa), faults(sb)
    if fa != fb:  # the same act is a fault under one reading only
        k = next((i for i, (x, y) in enumerate(zip(fa, fb, strict=False)) if x != y),
                 min(len(fa), len(fb)))
        return la, lb, _fault_result(fa, k), _fault_result(fb, k)
    return None


def _judges_declarations_apart(a: Rules, b: Rules) -> bool:
    """Whether the two rule sets differ in a row of ``[declaration]`` (what a wrong
    declaration costs): only then are the wrong declarations worth exploring; otherwise
    the declaration phase (xướng) is explored by its correct declaration alone, which
    ends the hand (a difference in the cước held shows in the legal declarations)."""
    rows = {v for k, v in a.rule_ids.items() if k.startswith("declaration.")}
    return any(a.options.get(r) != b.options.get(r) for r in rows)


def search(rules_a: Rules, rules_b: Rules, deals: Sequence[Deal], budget: int = 200_000,
           por: bool = True) -> SearchResult:
    """Shortest divergence between two rule sets over the given deals (see module doc)."""
    with gc_paused():
        return _search(rules_a, rules_b, deals, budget, por)


def _search(rules_a: Rules, rules_b: Rules, deals: Sequence[Deal], budget: int,
            por: bool) -> SearchResult:
    t0 = time.perf_counter()
    every_declaration = _judges_declarations_apart(rules_a, rules_b)
    seen: set[int] = set()
    q: deque[tuple[int, State, State, tuple[Action, ...]]] = deque()
    for i, d in enumerate(deals):
        sa, sb = State(rules_a, d), State(rules_b, d)
        k = hash((i, sa.fingerprint(), sb.fingerprint()))
        if k not in seen:
            seen.add(k)
            q.append((i, sa, sb, ()))
    n = 0
    while q:
        i, sa, sb, path = q.popleft()
        n += 1
        diff = _differ(sa, sb)
        if diff is not None:
            la, lb, ra, rb = diff
            return SearchResult(Divergence(i, deals[i], path, tuple(sorted(la - lb)),
                                           tuple(sorted(lb - la)), ra, rb, n,
                                           time.perf_counter() - t0), n, False,
                                time.perf_counter() - t0)
        if sa.is_terminal():
            continue
        acts = sa.legal_actions()
        if por and sa.phase == "window":
            first = sa.pending()[0]
            acts = [a for a in acts if a.seat == first]
        if sa.phase == "declare" and not every_declaration:
            acts = acts[:1]  # the correct declaration: how it is judged is not in question
        for a in acts:
            ca, cb = sa.child(a), sb.child(a)
            k = hash((i, ca.fingerprint(), cb.fingerprint()))
            if k in seen:
                continue
            if len(seen) >= budget:
                return SearchResult(None, n, False, time.perf_counter() - t0)
            seen.add(k)
            q.append((i, ca, cb, path + (a,)))
    return SearchResult(None, n, True, time.perf_counter() - t0)


def search_many(rules_a: Rules, alts: Sequence[Rules], deals: Sequence[Deal],
                budget: int = 200_000, por: bool = True) -> list[SearchResult]:
    """``[search(rules_a, b, deals, budget, por) for b in alts]`` in one breadth-first
    search, with the same answers (witness, pairs explored, whether exhaustive; only the
    seconds differ): the positions under `rules_a` are computed once for every
    alternative instead of once per alternative.

    Each node holds one position under `rules_a` and the positions of the alternatives
    for which it is the first visit of their pair, so each alternative sees exactly the
    nodes of its own `search`, in the same order, with the same budget on its own pairs."""
    with gc_paused():
        return _search_many(rules_a, alts, deals, budget, por)


def _search_many(rules_a: Rules, alts: Sequence[Rules], deals: Sequence[Deal], budget: int,
                 por: bool) -> list[SearchResult]:
    t0 = time.perf_counter()
    every = [_judges_declarations_apart(rules_a, b) for b in alts]
    seen: list[set[int]] = [set() for _ in alts]
    popped = [0] * len(alts)
    out: list[SearchResult | None] = [None] * len(alts)
    q: deque[tuple[int, State, dict[int, State], tuple[Action, ...]]] = deque()
    for i, d in enumerate(deals):
        sa = State(rules_a, d)
        fa = sa.fingerprint()
        live: dict[int, State] = {}
        for j, rb in enumerate(alts):
            sb = State(rb, d)
            k = hash((i, fa, sb.fingerprint()))
            if k not in seen[j]:
                seen[j].add(k)
                live[j] = sb
        if live:
            q.append((i, sa, live, ()))
    while q:
        i, sa, live, path = q.popleft()
        seen_a: tuple[frozenset[Action], Any] | None = None
        going: dict[int, State] = {}
        for j, sb in live.items():
            if out[j] is not None:
                continue
            popped[j] += 1
            if seen_a is None:
                seen_a = observe(sa)
            diff = _differ_seen(sa, seen_a, sb)
            if diff is not None:
                la, lb, ra, rb = diff
                dt = time.perf_counter() - t0
                out[j] = SearchResult(Divergence(i, deals[i], path, tuple(sorted(la - lb)),
                                                 tuple(sorted(lb - la)), ra, rb, popped[j],
                                                 dt), popped[j], False, dt)
            else:
                going[j] = sb
        if not going or sa.is_terminal():
            continue
        acts = sa.legal_actions()
        if por and sa.phase == "window":
            first = sa.pending()[0]
            acts = [a for a in acts if a.seat == first]
        declare = sa.phase == "declare"
        for n_act, a in enumerate(acts):
            if declare and n_act:  # past the correct declaration: only where it is judged
                going = {j: sb for j, sb in going.items() if every[j]}
                if not going:
                    break
            ca = sa.child(a)
            fa = ca.fingerprint()
            child: dict[int, State] = {}
            for j, sb in going.items():
                if out[j] is not None:
                    continue
                cb = sb.child(a)
                k = hash((i, fa, cb.fingerprint()))
                if k in seen[j]:
                    continue
                if len(seen[j]) >= budget:
                    out[j] = SearchResult(None, popped[j], False, time.perf_counter() - t0)
                    continue
                seen[j].add(k)
                child[j] = cb
            if child:
                q.append((i, ca, child, path + (a,)))
    dt = time.perf_counter() - t0
    return [r if r is not None else SearchResult(None, popped[j], True, dt)
            for j, r in enumerate(out)]


# --------------------------------------------------------------------------- frequency


def _mine(st: State) -> tuple[int, list[Action]]:
    """The seat that decides now (the first pending one, or the seat to act) and the
    actions it may take (a timeout only when it has nothing else)."""
    acts = st.legal_actions()
    pend = st.pending()
    seat = pend[0] if pend else acts[0].seat
    return seat, [a for a in acts if a.seat == seat and a.kind != "timeout"] or acts


def _greedy(mine: Sequence[Action], rng: random.Random) -> Action:
    wins = [a for a in mine if a.kind in WIN]
    if wins:
        return wins[0]
    chiu = [a for a in mine if a.kind == "chiu"]
    if chiu and rng.random() < 0.9:
        return chiu[0]
    eats = [a for a in mine if a.kind in ("eat", "reclaim")]
    if eats and rng.random() < 0.8:
        return rng.choice(eats)
    passes = [a for a in mine if a.kind == "pass"]
    if passes:
        return passes[0]
    return rng.choice(list(mine))


def _uniform(mine: Sequence[Action], rng: random.Random) -> Action:
    return rng.choice(list(mine))


def policy(st: State, rng: random.Random) -> Action:
    """The greedy player (see the module doc): wins, chíu, eats whenever it can."""
    return _greedy(_mine(st)[1], rng)


def uniform(st: State, rng: random.Random) -> Action:
    """The uniform random player: the first pending seat (or the seat to act) picks any of
    its legal actions with equal chance."""
    return _uniform(_mine(st)[1], rng)


_CHOOSERS: dict[str, Callable[[Sequence[Action], random.Random], Action]] = {
    "greedy": _greedy, "uniform": _uniform}


def hand_key(seed: int, i: int) -> bytes:
    """The key of hand `i` of a run of seed `seed`: what every decision hash starts with."""
    return f"chanspec-crn:{seed}:{i}".encode()


def observation(st: State, seat: int, mine: Sequence[Action]) -> bytes:
    """What `seat` sees and may do, canonically encoded (stable across processes: no
    salted hash, sets sorted): the phase, its concealed cards, every seat's laid groups
    and dead cards, the card on offer (its gate, source and turn), the nọc left and its
    legal actions.  Not the machine's bookkeeping behind them (the bans it records, which
    rows they cite): a seat sees a ban only as an action it may not take, so two readings
    that allow the same see the same."""
    w = st.window
    wkey = b"-" if w is None else repr((w.card, w.gate, w.source, w.turn)).encode()
    laid = b";".join(b",".join(sorted(bytes(g.faces) for g in gs)) for gs in st.laid)
    return b"|".join((st.phase.encode(), b"%d" % seat, bytes(st.hands[seat]).hex().encode(),
                      laid.hex().encode(), b";".join(bytes(sorted(d)).hex().encode()
                                                  for d in st.dead),
                      wkey, b"%d" % st.noc_left(),
                      " ".join(sorted(map(_code, mine))).encode()))


@functools.cache
def _code(a: Action) -> str:
    return a.code()


def decision_seed(key: bytes, salt: int, obs: bytes) -> int:
    """The seed of one decision: blake2b of the hand's key, the salt and the observation."""
    h = hashlib.blake2b(key, digest_size=16)
    h.update(b"|%d|" % salt)
    h.update(obs)
    return int.from_bytes(h.digest(), "big")


def decide(st: State, policy: str, key: bytes, salt: int = 0) -> Action:
    """The choice of `policy` (a key of `POLICIES`) in `st`, its randomness drawn from
    the hash of (`key`, `salt`, the deciding seat's `observation`): the same seat seeing
    the same and allowed the same gets the same choice, in any world."""
    seat, mine = _mine(st)
    if len(mine) == 1:
        return mine[0]
    mine = sorted(mine, key=_code)  # the same set, the same order, in any world
    rng = random.Random(decision_seed(key, salt, observation(st, seat, mine)))
    return _CHOOSERS[policy](mine, rng)


POLICIES: dict[str, Callable[[State, random.Random], Action]] = {
    "greedy": policy, "uniform": uniform}
POLICY_TEXT = {
    "greedy": ("người chơi tham: ù khi được, Chíu 9 lần trên 10, ăn 8 lần trên 10",
               "a greedy player: wins when it can, chíu 9 times in 10, eats 8 times in 10"),
    "uniform": ("người chơi ngẫu nhiên: mọi nước hợp lệ đều có khả năng như nhau",
                "a uniform random player: every legal move equally likely"),
}


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    # exact at the ends (rounding would otherwise leave 1.0 just outside for k = n)
    lo = 0.0 if k == 0 else max(0.0, min(p, mid - half))
    hi = 1.0 if k == n else min(1.0, max(p, mid + half))
    return lo, hi


def classify(only_a: Sequence[Action], only_b: Sequence[Action], ra: Any, rb: Any) -> str:
    """What kind of change a divergence is."""
    kinds = {a.kind for a in list(only_a) + list(only_b)}
    if isinstance(ra, tuple) and ra and ra[0] == "fault":
        return "fault"
    if ra != rb and (ra is not None and rb is not None):
        return "result"
    if kinds & set(WIN):
        return "win"
    if not only_b and not only_a:
        return "result"
    for k in ("chiu", "reclaim", "eat", "discard", "return", "timeout"):
        if k in kinds:
            return k
    return "other"


def overlaps(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether two intervals ``[lo, hi]`` share a point."""
    return a[0] <= b[1] and b[0] <= a[1]


def indistinguishable(changed: int, placebo: int, hands: int) -> bool:
    """Whether a "changes the result" count is not distinguishable from chance: its 95%
    interval overlaps that of the placebo (the same hands, the table's own value played
    on from the same parting points with the decisions perturbed)."""
    return overlaps(wilson(changed, hands), wilson(placebo, hands))


@dataclass
class Frequency:
    key: str  # option=value
    hands: int
    seed: int
    policy: str = "greedy"
    players: int = 4
    diverged: int = 0  # hands in which the choice comes up (legal actions or result differ)
    changed: int = 0  # hands whose result (winner, or drawn) differs when played under it
    placebo: int = 0  # hands whose result differs when the default is played on from the
    # same parting point with the decisions perturbed (another salt): chance alone
    stuck: int = 0  # hands that, played under it from the start, end stuck (a deadlock)
    kinds: Counter[str] = field(default_factory=Counter)
    first: tuple[int, int] | None = None  # (hand number, step) of the earliest divergence

    def per_10k(self) -> float:
        return 10_000 * self.diverged / self.hands if self.hands else 0.0

    def as_json(self) -> dict[str, Any]:
        def per(k: int) -> float:
            return round(10_000 * k / self.hands, 1) if self.hands else 0.0

        def ci(k: int) -> list[float]:
            lo, hi = wilson(k, self.hands)
            return [round(10_000 * lo, 1), round(10_000 * hi, 1)]

        return {"option": self.key, "hands": self.hands, "seed": self.seed,
                "policy": self.policy, "players": self.players,
                "diverged": self.diverged, "per_10000": per(self.diverged),
                "ci95": ci(self.diverged),
                "changed": self.changed, "changed_per_10000": per(self.changed),
                "changed_ci95": ci(self.changed),
                "placebo": self.placebo, "placebo_per_10000": per(self.placebo),
                "placebo_ci95": ci(self.placebo),
                "chance": indistinguishable(self.changed, self.placebo, self.hands),
                "stuck": self.stuck, "stuck_per_10000": per(self.stuck),
                "stuck_ci95": ci(self.stuck),
                "kinds": dict(sorted(self.kinds.items())),
                "first": None if self.first is None else list(self.first)}


_FW: dict[str, Any] = {}
PLACEBO_SALT = 1  # the salt of the placebo's decisions from the parting point on


def _play_out(st: State, policy: str, key: bytes, salt: int = 0) -> Any:
    """`st` played on to the end by `policy` (decisions hashed with `salt`): its result."""
    while not st.is_terminal() and st.legal_actions():
        st.apply(decide(st, policy, key, salt), check=False)  # one of its legal actions
    return _result(st)


def _result(st: State) -> Any:
    """Who won (and how the hand ended): what the result comparison looks at."""
    if not st.is_terminal():
        return ("stuck", None)
    o = st.outcome() or {}
    return (o.get("result"), o.get("winner"))


def hand_deal(rules: Rules, seed: int, i: int) -> Deal:
    """The deal of hand `i` of a run of seed `seed`."""
    return deal_random(rules, random.Random(seed * 1_000_003 + i).randrange(2**62))


Row = tuple[int, str, bool, bool, bool]  # step, kind, changed, stuck, placebo changed


def _one_hand(i: int) -> tuple[list[Row | None], str]:
    """Hand `i` under the defaults with a shadow under each alternative: for each, None
    when the choice never came up, else (step, kind of the first change, whether the
    hand played under the alternative from the start ends with another result, whether
    it ends stuck, and whether the placebo -- the defaults played on from the same
    parting point with the decisions perturbed -- ends with another result)."""
    rules: Rules = _FW["rules"]
    alts: list[tuple[str, Rules]] = _FW["alts"]
    seed: int = _FW["seed"]
    pol: str = _FW["policy"]
    key = hand_key(seed, i)
    deal = hand_deal(rules, seed, i)
    st = State(rules, deal)
    shadows: list[State | None] = [State(r, deal) for _, r in alts]
    first: list[tuple[int, str] | None] = [None] * len(alts)
    # where each alternative parted ways: its state there (the decisions depend on what
    # each seat sees only, so playing on from there is playing the hand under it from
    # the start), and the default's state at each parting step, for the placebo
    parted: list[State | None] = [None] * len(alts)
    at_step: dict[int, State] = {}
    step = 0
    while True:
        obs = observe(st)
        for j, sh in enumerate(shadows):
            if sh is None:
                continue
            ob = observe(sh)
            if ob != obs or sh.faults != st.faults:
                la, ra = obs
                lb, rb = ob
                if ob == obs:  # restriction-mode=penalise: a fault under one reading only
                    ra = ("fault", [])
                first[j] = (step, classify(tuple(la - lb), tuple(lb - la), ra, rb))
                parted[j] = sh
                shadows[j] = None
                if step not in at_step:
                    at_step[step] = st.copy()
        if st.is_terminal() or not obs[0]:
            break
        a = decide(st, pol, key)
        # `a` is legal here, and in every shadow still in play: they allow the same
        st.apply(a, check=False)
        for sh in shadows:
            if sh is not None:
                sh.apply(a, check=False)
        step += 1
    end = str((st.outcome() or {}).get("result")) if st.is_terminal() else _stuck(st)
    mine = _result(st)
    placebo = {k: _play_out(s0, pol, key, PLACEBO_SALT) != mine for k, s0 in at_step.items()}
    out: list[Row | None] = []
    for j, f in enumerate(first):
        pj = parted[j]
        if f is None or pj is None:  # never came up: the same hand, the same result
            out.append(None)
            continue
        theirs = _play_out(pj, pol, key)
        out.append((f[0], f[1], theirs != mine, theirs[0] == "stuck", placebo[f[0]]))
    return out, end


def _stuck(st: State) -> str:
    from chanspec.checks.explore.search import stuck_what

    return stuck_what(st)


def frequency(rules: Rules, alts: Sequence[tuple[str, Rules]], hands: int, seed: int,
              workers: int = 1, progress: Callable[[int, int], None] | None = None,
              policy: str = "greedy",
              ) -> tuple[list[Frequency], Counter[str], dict[str, int]]:
    """Random full-size hands under `rules` played by `policy` (a key of `POLICIES`),
    shadowed under each alternative.

    Returns the per-alternative counts (how often the choice comes up; how often playing
    the same hand, same deal and the same decision hashes (`decide`), under the
    alternative ends with another result; how often the placebo does, the defaults played
    on from the same parting point with the decisions perturbed; and how often it ends
    stuck), how the default games ended (win, draw,
    or the kind of deadlock) and, for each kind of deadlock, the first hand number that
    hit it.
    `progress(done, hands)` is called after every hand (in order)."""
    with gc_paused():  # the workers are forked with it paused too
        return _frequency(rules, alts, hands, seed, workers, progress, policy)


def _frequency(rules: Rules, alts: Sequence[tuple[str, Rules]], hands: int, seed: int,
               workers: int, progress: Callable[[int, int], None] | None, policy: str,
               ) -> tuple[list[Frequency], Counter[str], dict[str, int]]:
    _FW.update(rules=rules, alts=list(alts), seed=seed, policy=policy)
    out = [Frequency(k, hands, seed, policy, rules.variant.players) for k, _ in alts]
    first_end: dict[str, int] = {}
    rows = []
    if workers > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers, initializer=worker_ignores_sigint) as pool:
            chunk = max(1, min(50, hands // (8 * workers)))
            for row in pool.imap(_one_hand, range(hands), chunksize=chunk):
                rows.append(row)
                if progress is not None:
                    progress(len(rows), hands)
    else:
        for i in range(hands):
            rows.append(_one_hand(i))
            if progress is not None:
                progress(len(rows), hands)
    ends: Counter[str] = Counter()
    for i, (row, end) in enumerate(rows):
        ends[end] += 1
        if end.startswith("stuck") and end not in first_end:
            first_end[end] = i
        for j, f in enumerate(row):
            if f is None:  # the same hand under the alternative: stuck when this one is
                out[j].stuck += end.startswith("stuck")
                continue
            fr = out[j]
            fr.diverged += 1
            fr.changed += f[2]
            fr.stuck += f[3]
            fr.placebo += f[4]
            fr.kinds[f[1]] += 1
            if fr.first is None or f[0] < fr.first[1]:
                fr.first = (i, f[0])
    return out, ends, first_end


def replay_hand(rules: Rules, seed: int, i: int, steps: int, policy: str = "greedy"
                ) -> tuple[Deal, list[Action]]:
    """The deal and first `steps` actions of hand `i` of a `frequency` run of `policy`
    (fewer when the hand is over, or stuck, before)."""
    key = hand_key(seed, i)
    deal = hand_deal(rules, seed, i)
    st = State(rules, deal)
    acts = []
    for _ in range(steps):
        if st.is_terminal() or not st.legal_actions():
            break
        a = decide(st, policy, key)
        acts.append(a)
        st.apply(a)
    return deal, acts
