"""The packed breadth-first search partitioned over shards (the Murφ / PReach design).

`search(rules, deals, shards=K, backend=...)` explores what `packed_search.search`
explores and reports the very same result -- distinct and generated states, depth, the
queue's high-water mark, verdicts, witnesses, outcomes, claim ties, rules cited, option
changes -- for any number of shards, on any back end.

* **Owners.**  A state's owner is chosen from a 64-bit blake2b digest of its packed bytes
  (`fingerprint`, never Python's salted ``hash()``): ``owner = (key * K) >> 64``.  The
  same digest is the key of the owner's seen-set.
* **Shards** (`Shard`) keep their own seen-set (key -> global state number) and their
  own frontier.  A level is expanded in rounds: every shard expands up to ``batch``
  states of its frontier and returns the successors grouped by owner (one message per
  owner per round, ``batch`` states times the branching factor); the coordinator hands
  each group to its owner.  A level ends when every shard has drained its frontier.
* **The same numbering as one process.**  The single-process search numbers states in
  the order it first reaches them: by the number of the parent, then by the position of
  the action in the parent's list.  Every successor travels with that key
  (``parent * 256 + action index``); at the end of a level each owner keeps, for every
  new state, its smallest key, and the coordinator merges the owners' sorted keys into
  the global numbering (and applies the state cap there, as the single process does).
  So "the state numbered n" is the same state whatever K is: the sample of states
  replayed on the reference (every ``check_every``-th), the first state of every kind,
  the first violation of every kind and its shortest path, the edges kept for endless
  play are all those of the single-process search.
* **Per-state checks** are `packed_search`'s own functions (`census_checker`,
  `expander`, `_invariants`, `_signature`, `_stuck_what`, `_closes_tie`,
  `_reference_check`), called by the shard on the states it expands.  What needs the
  whole search is decided at the level's end by the coordinator: which state is the
  first of a new kind (the smallest number among the shards' candidates), and then the
  replays on the reference machine run on the shard that holds the state.
* **Paths.**  The coordinator keeps, per state, its parent's number, the index of the
  action that reached it and its nọc position (6 bytes a state, against the shard's
  ~100: the seen-set entry and the frontier); a path is rebuilt by walking the parents
  and replaying the action indices on the packed machine.

Back ends (one interface, `Backend`): ``inline`` (the shards in this process; a test and
debugging aid), ``local`` (one worker process per shard, pipes; the default) and
``ray`` (one Ray actor per shard; `RayBackend`, ``pip install 'chanspec[cluster]'``).
"""

from __future__ import annotations

import heapq
import json
import multiprocessing
import time
import traceback
from array import array
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from typing import Any, Protocol

from chanspec.checks.chan import packed_search as ps
from chanspec.checks.chan.shard import Batch, Order, Shard, ShardFull, fingerprint, owner
from chanspec.checks.explore import search as explore
from chanspec.checks.explore.search import DealResult, Result, Violation
from chanspec.model.chan.game import Action, Deal
from chanspec.model.chan.packed import Packed
from chanspec.model.chan.table import Rules

DEFAULT_BATCH = 4096  # frontier states a shard expands per round
BACKENDS = ("inline", "local", "ray")
__all__ = ["Batch", "Shard", "ShardFull", "fingerprint", "owner", "search", "document"]


# ---------------------------------------------------------------- back ends
class Backend(Protocol):
    """K shards and a way to call a method on several of them at once: ``args[s]`` for
    shard s (None: no call), the results in shard order (None where not called);
    `close` stops them."""

    shards: int

    def call(self, method: str, args: Sequence[tuple[Any, ...] | None]) -> list[Any]: ...

    def close(self) -> None: ...


class InlineBackend:
    """The shards in this process, called one after the other."""

    def __init__(self, shards: int, init: Callable[[int], tuple[Any, ...]]) -> None:
        self.shards = shards
        self.objs = [Shard(*init(s)) for s in range(shards)]

    def call(self, method: str, args: Sequence[tuple[Any, ...] | None]) -> list[Any]:
        return [None if a is None else getattr(o, method)(*a)
                for o, a in zip(self.objs, args, strict=True)]

    def close(self) -> None:
        self.objs = []


def _serve(conn: Connection, init: tuple[Any, ...]) -> None:
    """A local worker: one shard, called over a pipe until the pipe closes."""
    explore.worker_ignores_sigint()
    with explore.gc_paused():
        try:
            shard = Shard(*init)
            conn.send(("ok", None))
        except Exception:  # noqa: BLE001 -- the parent raises it
            conn.send(("err", traceback.format_exc()))
            return
        while True:
            try:
                method, args = conn.recv()
            except EOFError:
                return
            try:
                conn.send(("ok", getattr(shard, method)(*args)))
            except ShardFull as e:
                conn.send(("full", str(e)))
            except Exception:  # noqa: BLE001
                conn.send(("err", traceback.format_exc()))


class LocalBackend:
    """One worker process per shard (fork), called over pipes; the coordinator hands
    each round's batches to their owners."""

    def __init__(self, shards: int, init: Callable[[int], tuple[Any, ...]]) -> None:
        self.shards = shards
        ctx = multiprocessing.get_context("fork")
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        try:
            for s in range(shards):
                mine, theirs = ctx.Pipe()
                pr = ctx.Process(target=_serve, args=(theirs, init(s)), daemon=True)
                pr.start()
                theirs.close()
                self.conns.append(mine)
                self.procs.append(pr)
            for c in self.conns:
                _answer(c.recv())
        except BaseException:
            self.close()
            raise

    def call(self, method: str, args: Sequence[tuple[Any, ...] | None]) -> list[Any]:
        for c, a in zip(self.conns, args, strict=True):
            if a is not None:
                c.send((method, a))
        return [None if a is None else _answer(c.recv())
                for c, a in zip(self.conns, args, strict=True)]

    def close(self) -> None:
        """Stop the workers (SIGTERM: they hold nothing worth keeping, and one busy in a
        call would otherwise finish it first), also on Ctrl-C: no orphans."""
        for pr in self.procs:
            pr.terminate()
        for pr in self.procs:
            pr.join()
        for c in self.conns:
            c.close()
        self.conns, self.procs = [], []


def _answer(msg: tuple[str, Any]) -> Any:
    status, value = msg
    if status == "full":
        raise ShardFull(value)
    if status == "err":
        raise RuntimeError(f"a shard failed:\n{value}")
    return value


# ---------------------------------------------------------------- the coordinator
def search(rules: Rules, deals: Sequence[Deal], *, shards: int = 2,
           backend: str | Backend = "local", cap: int = 10_000_000, check_every: int = 1000,
           por: bool = True, label: str = "", batch: int = DEFAULT_BATCH,
           max_states: int | None = None, address: str | None = None,
           progress: ps.Progress | None = None) -> Result:
    """`packed_search.search`, partitioned over `shards` shards on `backend` (``inline``,
    ``local``, ``ray`` or a `Backend`); `max_states` caps the states of one shard
    (`ShardFull` past it); `address` is the Ray cluster to join (None: start one)."""
    if len(deals) > ps.MAX_DEALS:
        raise ValueError(f"one packed search holds at most {ps.MAX_DEALS:,} deals")
    t0 = time.perf_counter()
    deals = list(deals)

    def init(s: int) -> tuple[Any, ...]:
        return (s, shards, rules, deals, check_every, por, max_states)

    if isinstance(backend, str):
        if backend == "inline":
            be: Backend = InlineBackend(shards, init)
        elif backend == "local":
            be = LocalBackend(shards, init)
        elif backend == "ray":
            from chanspec.checks.chan import cluster_ray
            be = cluster_ray.RayBackend(shards, init, address)
        else:
            raise ValueError(f"unknown back end {backend!r}")
    else:
        be = backend
    try:
        with explore.gc_paused():
            return _coordinate(be, rules, deals, cap, check_every, por, label, batch,
                               progress, t0)
    finally:
        if isinstance(backend, str):
            be.close()


def _coordinate(be: Backend, rules: Rules, deals: list[Deal], cap: int, check_every: int,
                por: bool, label: str, batch: int, progress: ps.Progress | None,
                t0: float) -> Result:
    K = be.shards
    pk = Packed(rules, deals)
    legal_of = ps.expander(pk, por)
    parent = array("i")
    aidx = array("B")
    nocp = array("B")
    roots: dict[int, int] = {}  # state number of a root -> its deal number
    seen_roots: set[int] = set()
    mine: list[list[tuple[int, bytes]]] = [[] for _ in range(K)]
    for d in range(len(deals)):
        p = pk.initial(d)
        k = fingerprint(p)
        if k in seen_roots:
            continue
        seen_roots.add(k)
        roots[len(parent)] = d
        mine[owner(k, K)].append((len(parent), p))
        parent.append(-1)
        aidx.append(0)
        nocp.append(p[2])
    be.call("add", [(m,) for m in mine])
    complete = True
    level_starts = [0]
    level_counts = [len(parent)]
    kinds: set[bytes] = set()
    generated = 0
    rounds = messages = payload = 0  # expansion rounds, batches sent, their bytes

    def indices(n: int) -> tuple[int, list[int]]:
        out = []
        while parent[n] >= 0:
            out.append(aidx[n])
            n = parent[n]
        return roots[n], out[::-1]

    def actions(deal: int, idx: Sequence[int]) -> tuple[Action, ...]:
        p = pk.initial(deal)
        path = []
        for x in idx:
            a = legal_of(p)[0][x]
            path.append(a)
            p = pk.step(p, a)
        return tuple(path)

    def path_of(n: int) -> tuple[int, tuple[Action, ...]]:
        deal, idx = indices(n)
        return deal, actions(deal, idx)

    while True:
        # ---- expand the level in rounds of `batch` states a shard
        active = set(range(K))
        while active:
            exchange = getattr(be, "exchange", None)  # a back end's own (Ray's: direct)
            stats = (exchange(sorted(active), batch) if exchange is not None
                     else _exchange(be, sorted(active), batch))
            rounds += 1
            for s, (drained, made, sent, size) in zip(sorted(active), stats, strict=True):
                generated += made
                messages += sent
                payload += size
                if drained:
                    active.discard(s)
        # ---- the first state of every new kind, then the replays on the reference
        new: dict[bytes, tuple[int, int]] = {}
        for s, got in enumerate(be.call("level_kinds", [()] * K)):
            for sig, n in got.items():
                if sig not in kinds and (sig not in new or n < new[sig][0]):
                    new[sig] = (n, s)
        kinds.update(new)
        firsts: list[list[int]] = [[] for _ in range(K)]
        for n, s in new.values():
            firsts[s].append(n)
        wanted = be.call("wanted", [()] * K)
        args = []
        for s in range(K):
            paths = {n: (path_of(n)[1], wa) for n, wa in wanted[s]}
            for n in firsts[s]:
                if n not in paths:
                    paths[n] = (path_of(n)[1], False)
            args.append((list(new), firsts[s], paths))
        be.call("replay", args)
        # ---- number the new states as one process would, and cut at the cap
        got = be.call("candidates", [()] * K)
        numbers = [array("i", [-1]) * len(keys) for keys, _ in got]
        start = len(parent)
        merged = heapq.merge(*[_tagged(keys, s) for s, (keys, _) in enumerate(got)])
        for key, s, x in merged:
            if len(parent) >= cap:
                complete = False
                break
            numbers[s][x] = len(parent)
            parent.append(key >> 8)
            aidx.append(key & 255)
            nocp.append(got[s][1][x])
        sizes = be.call("assign", [(numbers[s],) for s in range(K)])
        if progress is not None:
            progress(len(parent), generated, sum(sizes), len(level_starts),
                     time.perf_counter() - t0)
        if len(parent) == start:
            break
        level_starts.append(start)
        level_counts.append(len(parent) - start)

    # ---- merge what the shards found
    res = DealResult(0)
    res.cited_allow.update((rules.rid("deck.rule"), rules.variant.rule,
                            rules.rid("turn.opener_rule")))
    parts = be.call("collect", [()] * K)
    found: list[tuple[Order, tuple[str, str], int, str, str, tuple[str, ...]]] = []
    best: dict[tuple[str, str], Any] = {}
    for part in parts:
        res.outcomes.update(part["outcomes"])
        res.cited_allow |= part["allow"]
        res.cited_refuse |= part["refuse"]
        res.option_changes.update(part["option_changes"])
        res.option_samples += part["option_samples"]
        res.ties += part["ties"]
        for key, (order, n, vi, en, rids) in part["found"].items():
            if key not in best or order < best[key][0]:
                best[key] = (order, key, n, vi, en, rids)
    found = sorted(best.values())
    for _order, (kind, what), n, vi, en, rids in found:
        deal, path = path_of(n)
        res.violations[(kind, what)] = Violation(kind, what, vi, en, rids, deal, path)
    ties = [part["tie"] for part in parts if part["tie"] is not None]
    if ties:
        n, x = min(ties)
        deal, idx = indices(n)
        res.tie_path = actions(deal, idx + [x])
    # edges in the order the single process records them (by source, then action)
    edges = sorted(e for part in parts for e in part["edges"])
    esrc = array("i", (key >> 8 for key, _, _ in edges))
    edst = array("i", (dst for _, dst, _ in edges))
    back = [x for x, (_, _, b) in enumerate(edges) if b]
    cyc = ps._endless(parent, nocp, esrc, edst, back)
    if cyc is not None and ("endless", "cycle") not in res.violations:
        rr = rules.rid("turn.exhausted_rule")
        steps = " → ".join(actions(*indices(x))[-1].code() for x in cyc[1:])
        deal, path = path_of(cyc[0])
        res.violations[("endless", "cycle")] = Violation(
            "endless", "cycle", f"Ván có thể kéo dài mãi mà không bốc nọc: {steps}",
            f"The hand can go on for ever without drawing: {steps}", (rr,), deal, path)
    res.generated = generated
    res.depth = len(level_starts) - 1
    res.max_queue = _max_queue(parent, len(roots))
    res.distinct = len(parent)
    res.complete = complete
    shard_bytes = [part["store_bytes"] for part in parts]
    res.store_bytes = sum(shard_bytes) + (parent.itemsize + 2) * len(parent)
    res.seconds = time.perf_counter() - t0
    if progress is not None:
        progress(res.distinct, res.generated, 0, res.depth, res.seconds)
    out = Result(label or rules.table.id, rules, deals, [res], res.seconds, K)
    out.edges = len(esrc)  # type: ignore[attr-defined]
    out.packed_bytes = pk.size  # type: ignore[attr-defined]
    out.levels = level_counts  # type: ignore[attr-defined]
    out.shard_states = [part["states"] for part in parts]  # type: ignore[attr-defined]
    out.shard_bytes = shard_bytes  # type: ignore[attr-defined]
    out.traffic = {"rounds": rounds, "messages": messages,  # type: ignore[attr-defined]
                   "payload_bytes": payload, "levels": len(level_counts)}
    return out


def _exchange(be: Backend, active: list[int], batch: int) -> list[tuple[bool, int, int, int]]:
    """One expansion round through the coordinator: the `active` shards expand, their
    batches go to the owners; per active shard (drained, generated, batches, bytes)."""
    K = be.shards
    outs = be.call("expand", [(batch,) if s in active else None for s in range(K)])
    inbox: list[list[Batch]] = [[] for _ in range(K)]
    stats = []
    for s in active:
        out, drained, made = outs[s]
        sent = size = 0
        for t in range(K):
            b = out[t]
            if b is not None:
                inbox[t].append(b)
                sent += 1
                size += len(b[3]) + 17 * len(b[0])
        stats.append((drained, made, sent, size))
    be.call("receive", [(inbox[t],) if inbox[t] else None for t in range(K)])
    return stats


def document(res: Result) -> str:
    """Everything a packed search reports except its time and memory, as JSON (sorted
    keys, sets sorted): two searches that agree give the very same bytes."""
    d = res.per_deal[0]

    def path(p: Sequence[Action] | None) -> list[str] | None:
        return None if p is None else [a.code() for a in p]

    return json.dumps({
        "label": res.label, "deals": len(res.deals), "distinct": d.distinct,
        "generated": d.generated, "depth": d.depth, "complete": d.complete,
        "max_queue": d.max_queue,
        "violations": [[kind, what, v.vi, v.en, list(v.rules), v.deal, path(v.path)]
                       for (kind, what), v in d.violations.items()],
        "outcomes": dict(d.outcomes), "cited_allow": sorted(d.cited_allow),
        "cited_refuse": sorted(d.cited_refuse), "option_changes": dict(d.option_changes),
        "option_samples": d.option_samples, "ties": d.ties, "tie_path": path(d.tie_path),
        "edges": getattr(res, "edges", None), "packed_bytes": getattr(res, "packed_bytes", None),
    }, sort_keys=True, ensure_ascii=False)


def _tagged(keys: array, s: int) -> Iterator[tuple[int, int, int]]:
    for x, key in enumerate(keys):
        yield key, s, x


def _max_queue(parent: array, roots: int) -> int:
    """The single-process search's queue high-water mark: before it takes out state m
    it has numbered the roots and every state whose parent is below m (states are
    numbered in their parents' order), so its queue holds that many minus m."""
    best, ptr, n = 0, roots, len(parent)
    for m in range(n):
        while ptr < n and parent[ptr] < m:
            ptr += 1
        if ptr - m > best:
            best = ptr - m
    return best
