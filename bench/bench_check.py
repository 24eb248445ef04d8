"""Benchmark of the model checker: distinct states per second and bytes per stored
state, on one core, for the packed search (checks/chan/packed_search.py) against baselines
measured in the same run on the same deals: the reference explorer with every check
(checks/explore/search.py) and the bare reference search (child + fingerprint + dedup).

    python bench/bench_check.py [--scale ranks2] [--deals 20] [--seed 1]
    python bench/bench_check.py --big 10000000 [--scale ranks2] [--deals 1400]

``--big N`` instead runs ONE packed search from all the deals with a cap of N distinct
states, every one of them held in a single seen-set in one process, and prints the
distinct states reached, whether the search completed, the time, the peak queue and the
peak resident memory of the process.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections import deque

from chanspec.checks.chan import packed_search, scale
from chanspec.checks.explore import search as explore
from chanspec.model.chan import table
from chanspec.model.chan.game import State


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
    ap.add_argument("--deals", type=int, default=None,
                    help="deals (default 20; with --big, 1400)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check-every", type=int, default=1000,
                    help="packed search: one state in K replayed on the reference")
    ap.add_argument("--big", type=int, default=0, metavar="N",
                    help="one packed search of up to N distinct states in one process")
    a = ap.parse_args()
    rules = scale.scaled_rules(table.load("family"), scale.SCALES[a.scale])
    if a.big:
        big(rules, a.scale, a.seed, a.deals or 1400, a.big, a.check_every)
        return
    deals = scale.deals(rules, a.deals or 20, a.seed)
    print(f"scale {a.scale}, {len(deals)} deals, seed {a.seed}, one core")
    n0, t0 = bare(rules, deals)
    print(f"baseline 1, bare reference search: {n0:,} states in {t0:.2f}s = "
          f"{n0 / t0:,.0f} states/s")
    r1 = explore.explore(rules, deals, workers=1)
    ref = r1.states_per_second
    print(f"baseline 2, reference explorer, every check on every state: {r1.distinct:,} "
          f"states in {r1.seconds:.2f}s = {ref:,.0f} states/s; "
          f"{r1.bytes_per_state:.0f} bytes/state")
    p = packed_search.search(rules, deals, check_every=a.check_every)
    print(f"packed search, per-state checks + 1 state in {a.check_every} (and the first of "
          f"every kind) replayed on the reference: {p.distinct:,} states in "
          f"{p.seconds:.2f}s = {p.states_per_second:,.0f} states/s; "
          f"{p.bytes_per_state:.0f} bytes/state stored + "
          f"{p.packed_bytes} bytes/position in the queue "  # type: ignore[attr-defined]
          f"(peak queue {p.per_deal[0].max_queue:,})")
    print(f"ratios: packed / reference explorer = {p.states_per_second / ref:.1f}x; "
          f"packed / bare reference search = {p.states_per_second / (n0 / t0):.1f}x")
    if p.distinct != r1.distinct:
        print(f"NOTE: distinct states differ ({p.distinct:,} packed, {r1.distinct:,} "
              "reference): the packing merges positions the reference keeps apart")


def big(rules, name: str, seed: int, n_deals: int, cap: int, check_every: int) -> None:
    deals = scale.deals(rules, n_deals, seed)
    print(f"scale {name}, {len(deals)} deals (seed {seed}) in ONE packed search, cap "
          f"{cap:,} distinct states, one process")
    prog = packed_search.TLCProgress(name, force=True)
    r = packed_search.search(rules, deals, cap=cap, check_every=check_every,
                             progress=prog, progress_every=30.0)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB -> GiB
    print(f"{r.distinct:,} distinct states held together; {r.generated:,} generated; "
          f"complete: {r.complete}; depth {r.depth}; {r.seconds:,.0f}s = "
          f"{r.states_per_second:,.0f} states/s; peak queue {r.per_deal[0].max_queue:,}; "
          f"violations: {len(r.violations())}; peak resident memory {peak:.2f} GiB "
          f"({peak * 2**30 / max(r.distinct, 1):.0f} bytes per distinct state, queue and "
          f"edges included)")


if __name__ == "__main__":
    main()
