"""Benchmark of the project's budgets: the README test command, each table's recompute,
`chanspec check` and `--quick`, each as wall time, CPU time and a multiple of a baseline
measured in the same run.

    python bench/bench_suite.py [--only tests,quick,check,recompute] [--tables family,classic]
                                [--json] [--out FILE]

The baseline is the reference machine's speed on this machine at this moment: random
5-player family hands per second on one core (`bench/bench_game.py`'s figure, measured
before and after the timed commands; their mean is used).  Each command's figure is also
given in "baseline hands": its wall time multiplied by that rate, i.e. how many random
5-player hands one core could have played in the same time.  That product moves little
between a fast and a slow machine (or a quiet and a loaded one), so it is what to compare
across machines; the wall time is what the budgets are about.

Budgets (2-core machine; see docs/development.md):

* README test command (``python -m pytest -q``) <= 10 min;
* each table's ``chanspec check --ruleset NAME --verify`` (a recompute) <= 5 min;
* ``chanspec check`` <= 2 min, ``chanspec check --quick`` <= 45 s.

Every command runs in a scratch copy of the working tree's committed files (so nothing
in the checkout is written), one after another, with the current interpreter's
environment.  CPU time is the children's user + system time (``os.times``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

BUDGETS_S = {"tests": 600.0, "quick": 45.0, "check": 120.0, "recompute": 300.0}


def commands(tables: list[str]) -> dict[str, list[str]]:
    """The timed commands, by name; each is run in the scratch copy's root."""
    out = {
        "tests": [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        "quick": ["chanspec", "check", "--quick", "--no-write", "--quiet",
                  "--out", "out/bench-quick"],
        "check": ["chanspec", "check", "--no-write", "--quiet", "--out", "out/bench-check"],
    }
    for t in tables:
        out[f"recompute:{t}"] = ["chanspec", "check", "--ruleset", t, "--verify", "--quiet",
                                 "--out", f"out/bench-recompute-{t}"]
    return out


def baseline(games: int = 300) -> float:
    """Random 5-player family hands per second on one core, now."""
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_game.py"), "--json",
                        "--players", "5", "--games", str(games), "--repeat", "1"],
                       capture_output=True, text=True, check=True)
    return float(json.loads(r.stdout)["results"][0]["games_per_s"])


def timed(cmd: list[str], cwd: Path) -> dict[str, Any]:
    """Run one command to its end; wall and CPU seconds, exit code, last lines."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    out, _ = proc.communicate()
    wall = time.perf_counter() - t0
    return {"cmd": shlex.join(cmd), "rc": proc.returncode, "wall_s": round(wall, 1),
            "tail": out.strip().splitlines()[-3:]}


def run(only: list[str], tables: list[str]) -> dict[str, Any]:
    cmds = {k: v for k, v in commands(tables).items() if k.split(":")[0] in only}
    with tempfile.TemporaryDirectory(prefix="chanspec-bench-") as tmp:
        copy = Path(tmp) / "tree"
        files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                               check=True).stdout.decode().split("\0")
        for f in filter(None, files):
            (copy / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, copy / f)
        before = baseline()
        results = {}
        for name, cmd in cmds.items():
            ru0 = os.times()
            r = timed(cmd, copy)
            ru1 = os.times()
            r["cpu_s"] = round((ru1.children_user - ru0.children_user)
                               + (ru1.children_system - ru0.children_system), 1)
            results[name] = r
            print(f"bench_suite: {name}: {r['wall_s']} s wall, {r['cpu_s']} CPU-s, "
                  f"exit {r['rc']}", file=sys.stderr, flush=True)
        after = baseline()
    rate = (before + after) / 2
    for name, r in results.items():
        budget = BUDGETS_S[name.split(":")[0]]
        r["budget_s"] = budget
        r["within_budget"] = r["rc"] == 0 and r["wall_s"] <= budget
        r["baseline_hands"] = round(r["wall_s"] * rate)
    return {"machine": {"python": platform.python_version(), "arch": platform.machine(),
                        "cores": os.cpu_count(), "node": platform.node()},
            "baseline": {"what": "random 5-player family hands per second, one core",
                         "before": before, "after": after, "mean": round(rate, 1)},
            "results": results}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="tests,quick,check,recompute",
                    help="which figures (comma-separated: tests, quick, check, recompute)")
    ap.add_argument("--tables", default="family,classic",
                    help="the tables whose recompute is timed (comma-separated)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--out", default=None, metavar="FILE", help="also write the JSON here")
    args = ap.parse_args(argv)
    only = [s for s in args.only.split(",") if s]
    bad = sorted(set(only) - set(BUDGETS_S))
    if bad:
        print(f"bench_suite: unknown figure {', '.join(bad)}; "
              f"expected some of {', '.join(BUDGETS_S)}", file=sys.stderr)
        return 2
    report = run(only, [t for t in args.tables.split(",") if t])
    text = json.dumps(report, indent=2, ensure_ascii=False)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    if args.json:
        print(text)
    else:
        b = report["baseline"]
        print(f"baseline: {b['mean']} random 5-player family hands/s on one core "
              f"(before {b['before']}, after {b['after']})")
        print(f"{'figure':<20} {'wall':>8} {'CPU':>8} {'budget':>7} {'x baseline':>12}  ok")
        for name, r in report["results"].items():
            ok = "yes" if r["within_budget"] else "NO"
            print(f"{name:<20} {r['wall_s']:>7.1f}s {r['cpu_s']:>7.1f}s {r['budget_s']:>6.0f}s "
                  f"{r['baseline_hands']:>12,}  {ok}")
    return 0 if all(r["within_budget"] for r in report["results"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
