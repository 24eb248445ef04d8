"""Benchmark of the model checker (checks/explore.py): distinct states per second and
bytes per stored state, one core and all workers, against a baseline measured in the
same run (the bare search loop: child + fingerprint + dedup, no checks).

    python bench/bench_check.py [--scale ranks2] [--deals 6] [--seed 1]
    python bench/bench_check.py --big 10000000 [--scale chiu3]

``--big N`` instead explores ONE deal with a cap of N distinct states, all of them stored
in a single seen-set in one process, and prints the distinct states reached, the time and
the peak resident memory of the process (the scale must have a deal that large).

Prints the figures and the ratio checked/bare; the memory line extrapolates bytes per
stored state to 10 million states.  The frontier (states waiting in the queue) is not in
the per-state figure; its peak size is printed.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections import deque

from chanspec.checks import explore, scale
from chanspec.model import table
from chanspec.model.game import State


def bare(rules, deals) -> tuple[int, float]:
    t0 = time.perf_counter()
    n = 0
    for d in deals:
        st = State(rules, d)
        seen = {hash(st.fingerprint())}
        q = deque([st])
        while q:
            s = q.popleft()
            acts = s.legal_actions()
            if s.phase == "window" and acts:
                acts = [a for a in acts if a.seat == s.pending()[0]]
            for a in acts:
                c = s.child(a)
                k = hash(c.fingerprint())
                if k not in seen:
                    seen.add(k)
                    q.append(c)
        n += len(seen)
    return n, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", default="ranks2", choices=list(scale.SCALES))
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--big", type=int, default=0, metavar="N",
                    help="explore one deal up to N distinct states in one process")
    a = ap.parse_args()
    rules = scale.scaled_rules(table.load("family"), scale.SCALES[a.scale])
    if a.big:
        big(rules, a.scale, a.seed, a.big)
        return
    deals = scale.deals(rules, a.deals, a.seed)
    print(f"scale {a.scale}, {len(deals)} deals, seed {a.seed}")
    n0, t0 = bare(rules, deals)
    print(f"baseline (bare search, 1 core): {n0:,} states in {t0:.2f}s = {n0 / t0:,.0f} states/s")
    r1 = explore.explore(rules, deals, workers=1)
    print(f"checked, 1 core: {r1.distinct:,} states in {r1.seconds:.2f}s = "
          f"{r1.states_per_second:,.0f} states/s (ratio to baseline "
          f"{r1.states_per_second / (n0 / t0):.2f}); {r1.bytes_per_state:.0f} bytes/state; "
          f"peak queue {max(d.max_queue for d in r1.per_deal):,}")
    r2 = explore.explore(rules, deals, workers=explore.default_workers())
    print(f"checked, {r2.workers} workers: {r2.states_per_second:,.0f} states/s "
          f"({r2.states_per_second / r1.states_per_second:.2f}x one core)")
    print(f"10 million states would store {10_000_000 * r1.bytes_per_state / 2**30:.2f} GiB "
          f"of hashes and parent links (frontier not included)")


def big(rules, name: str, seed: int, cap: int) -> None:
    deal = scale.deals(rules, 1, seed)[0]
    print(f"scale {name}, one deal (seed {seed}), cap {cap:,} distinct states, one process")
    t0 = time.perf_counter()
    d = explore.explore_deal(rules, deal, 0, cap=cap)
    dt = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB -> GiB
    print(f"{d.distinct:,} distinct states stored together in {dt:,.0f}s = "
          f"{d.distinct / dt:,.0f} states/s; complete: {d.distinct < cap}; "
          f"peak resident memory {peak:.2f} GiB "
          f"({peak * 2**30 / max(d.distinct, 1):.0f} bytes per distinct state, queue included)")


if __name__ == "__main__":
    main()
