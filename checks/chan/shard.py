"""One shard of the partitioned packed search (checks/chan/cluster.py): its seen-set, its
frontier, and the per-state checks of checks/chan/packed_search.py run on the states it
owns.  The same class runs in-process, in a local worker process and as a Ray actor."""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Callable, Sequence
from typing import Any

from chanspec.checks.chan import packed_search as ps
from chanspec.checks.explore import search as explore
from chanspec.checks.explore.search import STUCK_TEXT, DealResult
from chanspec.model.chan.game import Action, Deal
from chanspec.model.chan.packed import P_OVER, Packed
from chanspec.model.chan.table import Rules

# (state number, phase, count) orders the findings of one search
Order = tuple[int, int, int]
# successors for one owner: fingerprints, keys (parent * 256 + action index), the nọc
# position of each parent, and the positions end to end (all of the packed size)
Batch = tuple[array, array, bytes, bytes]


def fingerprint(p: bytes) -> int:
    """The 64-bit blake2b digest of a packed position: the same in every process."""
    return int.from_bytes(hashlib.blake2b(p, digest_size=8).digest(), "little")


def owner(key: int, shards: int) -> int:
    """The shard that owns the state with fingerprint `key` (multiply-shift: the high
    bits choose, so the seen-set's dict still gets well-spread low bits)."""
    return (key * shards) >> 64


class ShardFull(RuntimeError):
    """A shard was asked to hold more states than its cap (`max_states`)."""


class Shard:
    """One shard: its seen-set, its frontier and what it found on the states it owns."""

    def __init__(self, index: int, shards: int, rules: Rules, deals: Sequence[Deal],
                 check_every: int, por: bool, max_states: int | None) -> None:
        self.index, self.shards = index, shards
        self.rules = rules
        self.pk = Packed(rules, list(deals))
        self.alts = explore.alt_rules(rules)
        self.check_every = check_every
        self.max_states = max_states
        self.bad_of = ps.census_checker(self.pk, rules)
        self.legal_of = ps.expander(self.pk, por)
        self.tie_rule = rules.rid("claims.tie_break_rule")
        self.stuck_rule = rules.rid("turn.stuck_rule")
        self.seen: dict[int, int] = {}  # fingerprint -> global state number
        self.frontier: list[tuple[int, bytes]] = []  # (number, position), by number
        self.pos = 0
        # this level's new states: fingerprint -> [position, reaches (key, same nọc)]
        self.cand: dict[int, list[Any]] = {}
        self.cand_order: list[int] = []
        self.edges: list[tuple[int, int, bool]] = []  # (key of the edge, dst, back)
        self.res = DealResult(0)
        self.found_at: dict[tuple[str, str], tuple[Order, int, str, str, tuple[str, ...]]] = {}
        self.kinds: set[bytes] = set()
        self.level_sigs: dict[bytes, int] = {}  # a new kind -> first state of it here
        self.pending: dict[int, tuple[bytes, bool]] = {}  # to replay: position, with alts
        self.kind_p: dict[int, bytes] = {}  # positions of the candidate firsts of kinds
        self.tie: tuple[int, int] | None = None  # (state, action index) of the first tie
        self.generated = 0
        self.peak_frontier = 0

    # ---- findings, ordered as the single-process search finds them
    def _found(self, order: Order, kind: str, what: str, vi: str, en: str,
               rids: tuple[str, ...]) -> None:
        old = self.found_at.get((kind, what))
        if old is None or order < old[0]:
            self.found_at[(kind, what)] = (order, order[0], vi, en, tuple(rids))

    def _finder(self, i: int, phase: int) -> Callable[..., None]:
        count = [0]

        def found(kind: str, what: str, vi: str, en: str, rids: tuple[str, ...],
                  _i: int) -> None:
            count[0] += 1
            self._found((i, phase, count[0]), kind, what, vi, en, rids)
        return found

    # ---- the level's work
    def add(self, states: list[tuple[int, bytes]]) -> None:
        """The roots this shard owns, numbered by the coordinator."""
        for n, p in states:
            self.seen[fingerprint(p)] = n
            self.frontier.append((n, p))
        self._check_cap()

    def expand(self, batch: int) -> tuple[list[Batch | None], bool, int]:
        """Expand up to `batch` frontier states; their successors grouped by owner (a
        `Batch`: fingerprints, keys, the sources' nọc positions and the positions end to
        end), whether the frontier is drained, and how many successors were generated."""
        K = self.shards
        fps = [array("Q") for _ in range(K)]
        keys = [array("q") for _ in range(K)]
        nocs = [bytearray() for _ in range(K)]
        blobs = [bytearray() for _ in range(K)]
        pk, res, every = self.pk, self.res, self.check_every
        step, b2 = pk.step, hashlib.blake2b
        frm = int.from_bytes
        end = min(len(self.frontier), self.pos + batch)
        made = 0
        for n, p in self.frontier[self.pos:end]:
            bad = self.bad_of(p)
            f0 = None  # one count for the state's findings before its replay
            if bad:
                f0 = self._finder(n, 0)
                ps._invariants(pk, p, self.rules, n, f0)
            sample = n % every == 0
            if p[0] == P_OVER:
                res.outcomes["draw" if p[16] == 4 else "win"] += 1
                self._kind(ps._signature(pk, p, []), n, p, sample)
                if sample:
                    self.pending[n] = (p, True)
                continue
            legal, tie_possible = self.legal_of(p)
            if not sample:
                self._kind(ps._signature(pk, p, legal), n, p, bad)
            if not legal:
                res.outcomes["stuck"] += 1
                what = ps._stuck_what(pk, p, pk.plan.stuck_as_written)
                vi, en = STUCK_TEXT[what]
                (f0 or self._finder(n, 0))("deadlock", what, vi, en, (self.stuck_rule,), n)
                sample = True
            if sample or bad:
                self.pending[n] = (p, sample)
            noc = p[2]
            if len(legal) > 256:
                raise ValueError("more than 256 actions in one position")
            base = n * 256
            for x, a in enumerate(legal):
                if tie_possible and ps._closes_tie(pk, p, a):
                    res.ties += 1
                    res.cited_allow.add(self.tie_rule)
                    if self.tie is None:
                        self.tie = (n, x)
                cp = step(p, a)
                k = frm(b2(cp, digest_size=8).digest(), "little")
                t = (k * K) >> 64
                fps[t].append(k)
                keys[t].append(base + x)
                nocs[t].append(noc)
                blobs[t] += cp
            made += len(legal)
        self.pos = end
        self.generated += made
        out: list[Batch | None] = [(fps[t], keys[t], bytes(nocs[t]), bytes(blobs[t]))
                                   if fps[t] else None for t in range(K)]
        return out, end >= len(self.frontier), made

    def expand_split(self, batch: int) -> tuple[Any, ...]:
        """`expand` as K + 1 values: the batch for each owner (None: nothing for it),
        then (drained, generated, which owners got a batch, bytes) -- for back ends that
        hand each batch to its owner directly (Ray)."""
        out, drained, made = self.expand(batch)
        size = sum(len(b[3]) + 17 * len(b[0]) for b in out if b is not None)
        return (*out, (drained, made, [b is not None for b in out], size))

    def receive_some(self, *batches: Batch | None) -> None:
        self.receive([b for b in batches if b is not None])

    def _kind(self, sig: bytes, n: int, p: bytes, replayed: bool) -> None:
        if sig not in self.kinds and sig not in self.level_sigs:
            self.level_sigs[sig] = n
            if not replayed:
                self.kind_p[n] = p

    def receive(self, batches: list[Batch]) -> None:
        """Successors sent to this owner by the expanders."""
        seen, cand, size = self.seen, self.cand, self.pk.size
        for fps, keys, nocs, blob in batches:
            at = 0
            for k, key, noc in zip(fps, keys, nocs, strict=True):
                same = blob[at + 2] == noc
                j = seen.get(k)
                if j is not None:
                    if same:  # to a state of this level or an earlier one: back
                        self.edges.append((key, j, True))
                elif (c := cand.get(k)) is None:
                    cand[k] = [blob[at:at + size], [(key, same)]]
                else:
                    c[1].append((key, same))
                at += size

    def level_kinds(self) -> dict[bytes, int]:
        return self.level_sigs

    def replay(self, new_kinds: list[bytes], firsts: list[int],
               paths: dict[int, tuple[tuple[Action, ...], bool]]) -> None:
        """The level's replays on the reference machine (`paths`: the state's path and
        whether other option values are tried too); `firsts` are this shard's states that
        are the first of a new kind."""
        self.kinds.update(new_kinds)
        for n in firsts:
            if n not in self.pending:
                self.pending[n] = (self.kind_p[n], False)
        for n in sorted(self.pending):
            p, with_alts = self.pending[n]
            path, _ = paths[n]
            ps._reference_check(self.pk, self.res, self.alts if with_alts else (), n, p,
                                lambda _i, path=path: (0, path), self._finder(n, 1))
        self.pending.clear()
        self.level_sigs.clear()
        self.kind_p.clear()

    def wanted(self) -> list[tuple[int, bool]]:
        """The states to replay this level (number, with alts), before `replay`."""
        return [(n, wa) for n, (_, wa) in self.pending.items()]

    def candidates(self) -> tuple[array, array]:
        """The level's new states: their smallest keys (sorted) and nọc positions."""
        items = sorted((min(c[1])[0], k) for k, c in self.cand.items())
        self.cand_order = [k for _, k in items]
        keys = array("q", (key for key, _ in items))
        nocs = array("B", (self.cand[k][0][2] for k in self.cand_order))
        return keys, nocs

    def assign(self, numbers: array) -> int:
        """Global numbers for the candidates (-1: cut by the cap); the next frontier."""
        self.frontier = []
        self.pos = 0
        for k, n in zip(self.cand_order, numbers, strict=True):
            if n < 0:
                continue
            cp, reaches = self.cand[k]
            self.seen[k] = n
            self.frontier.append((n, cp))
            first = min(reaches)[0]
            for key, same in reaches:
                if same and key != first:
                    self.edges.append((key, n, False))
        self.cand.clear()
        self.cand_order = []
        self.peak_frontier = max(self.peak_frontier, len(self.frontier))
        self._check_cap()
        return len(self.frontier)

    def _check_cap(self) -> None:
        if self.max_states is not None and len(self.seen) > self.max_states:
            raise ShardFull(f"shard {self.index} of {self.shards} holds {len(self.seen):,} "
                            f"states, over its cap of {self.max_states:,}")

    def store_bytes(self) -> int:
        """The seen-set (dict and int keys and values) and the frontier at its peak."""
        size = self.pk.size + 33  # a bytes object of the packed size
        return (sys.getsizeof(self.seen) + len(self.seen) * 64
                + self.peak_frontier * (size + 56 + 28))

    def collect(self) -> dict[str, Any]:
        res = self.res
        return {"found": self.found_at, "outcomes": dict(res.outcomes),
                "allow": res.cited_allow, "refuse": res.cited_refuse,
                "option_changes": dict(res.option_changes),
                "option_samples": res.option_samples, "ties": res.ties, "tie": self.tie,
                "generated": self.generated, "edges": self.edges,
                "store_bytes": self.store_bytes(), "states": len(self.seen)}
