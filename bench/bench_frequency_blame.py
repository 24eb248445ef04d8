"""Benchmark: the cost of measuring each question's frequencies again under the readings
its witness rests on (checks/findings/compute.py `frequency_blame`), the part of
``chanspec check --recompute`` that does it, alone.

    python bench/bench_frequency_blame.py [--workers N] [--hands N] [--json]

The readings are taken from the saved findings (OPEN_QUESTIONS.json: the witnesses'
blame), as `_compute` takes them from the findings it has just computed; the runs are
the same.  Prints the wall and CPU seconds (this process and its worker processes).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from chanspec.checks.findings import compute
from chanspec.model.chan import table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--hands", type=int, default=None,
                    help="hands per reading (default: the findings' blame_hands)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    t = table.load("family")
    doc = compute.load()
    if doc is None:
        print("OPEN_QUESTIONS.json is missing or unreadable", file=sys.stderr)
        return 2
    p = {**compute.PARAMS, **doc.get("params", {})}
    for k in ("blame_hands", "blame_readings"):
        p.setdefault(k, compute.PARAMS[k])
    if a.hands is not None:
        p["blame_hands"] = a.hands
    wanted = {opt: compute.frequency_readings(t, opt, q, int(p["blame_readings"]))
              for opt, q in doc["questions"].items() if opt in t.rows}
    runs = {r for rs in wanted.values() for r in rs}
    shadows = sum(len(t.rows[o].values) - 1 for o, rs in wanted.items() for _ in rs)
    t0, c0 = time.perf_counter(), os.times()
    out = compute.frequency_blame(t, p, wanted, a.workers)
    c1 = os.times()
    wall = time.perf_counter() - t0
    cpu = (c1.user - c0.user) + (c1.system - c0.system) \
        + (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)
    res = {"workers": a.workers, "hands": p["blame_hands"], "runs": len(runs),
           "shadows": shadows, "questions": len(out), "wall_s": round(wall, 1),
           "cpu_s": round(cpu, 1)}
    if a.json:
        print(json.dumps(res))
    else:
        print(f"{res['runs']} runs of {res['hands']} hands ({res['shadows']} shadows over "
              f"{res['questions']} questions), {a.workers} worker(s): "
              f"{res['wall_s']} s wall, {res['cpu_s']} CPU-s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
