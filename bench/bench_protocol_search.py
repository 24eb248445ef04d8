"""Benchmark: the kind-neutral explorer (checks/explore/protocol_search.py) on Tấn's
scales, distinct states per CPU-second, with every check on every state, and the cost of
the whole findings computation of ``chanspec check --ruleset tan``.

    python bench/bench_protocol_search.py [--findings] [--json]

Each scale is searched under the table's defaults over all its deals; timing is CPU time
of this process (`time.process_time`), the best of three runs.  ``--findings`` also
times one `protocol_findings.compute` (every reading of every open row, once).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from chanspec.checks.explore import protocol_search as ps
from chanspec.checks.findings import protocol_findings as pf
from chanspec.model import kinds


def _best(fn: Any, repeat: int = 3) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--findings", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    table = kinds.load("tan")
    kind = kinds.of(table)
    rows: dict[str, Any] = {}
    for sc in kind.scales(table):
        rules = sc.rules()
        deals = sc.deals(rules)
        secs, res = _best(lambda sc=sc, rules=rules, deals=deals: ps.explore(
            [sc.start(rules, d) for d in deals], table.rows))
        rows[sc.name] = {"deals": len(deals), "distinct": res.distinct,
                         "generated": res.generated, "cpu_seconds": round(secs, 3),
                         "states_per_cpu_second": round(res.distinct / secs) if secs else 0}
    if args.findings:
        t = time.process_time()
        pf.compute(table, kind)
        rows["findings"] = {"cpu_seconds": round(time.process_time() - t, 1)}
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for name, r in rows.items():
        print(name, ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}"
                              for k, v in r.items()))


if __name__ == "__main__":
    main()
