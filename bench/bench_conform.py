"""Benchmark: the conformance kit's throughput.

    python bench/bench_conform.py [--seed N] [--games N] [--hands N] [--json]

Measured in one run, on the same seeded hands:

* ``machine``: the baseline.  The hands' actions applied in-process with
  ``State.replay`` (no checking beyond the machine's own legality test): steps/s.
* ``replay``: ``chanspec replay`` on the same hands written as full game logs (every
  consequence line present): parse + check every action and consequence, read from cold
  (no line remembered as checked before the repetition): steps/s, and
  its ratio to the machine baseline.
* ``differential``: ``chanspec conform`` against ``chanspec serve`` as an external engine
  (``legal_all``, pipelined requests; ``--jobs N`` engine processes), no mismatch to
  shrink: completed hands/s while playing (the engine's start-up, a fixed cost, is
  reported apart) and compared steps/s (every seat's legal actions at every step, over
  the protocol), against in-process random hands of the same generator
  (``conform.build_deal`` deals, random legal actions) as the baseline.

* ``infer`` (``--infer N``): ``chanspec conform --infer-options`` over N hands against
  ``tests/engines/one_seat_readings.py`` (one seat at a time, three readings, two bugs;
  4 players), end to end and by phase: the first campaign's playing and shrinking, the
  witnesses replayed under each value, the confirmation campaigns' playing and their
  shrinking.  Each phase in hands/s (witness replays per second for the replays), and
  every figure as a ratio to ``chanspec serve`` playing the same N hands alone (4
  players, the same seed) in the same run; and the verdict (readings, unexplained keys).

Ratios are what to compare across machines.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

from chanspec.checks.conform import campaign as conform
from chanspec.checks.conform import logs, replay
from chanspec.model.chan import game, table
from timing import best


def bench_replay(seed: int, games: int, repeat: int) -> dict[str, Any]:
    hands = []
    for i in range(games):
        rules = table.rules("family", 4 + i % 2)
        st = game.State.new(rules, seed=seed + i)
        game.random_playout(st, random.Random(seed + i))
        hands.append(st)
    steps = sum(len(h.history) for h in hands)
    texts = [logs.dumps(logs.record(h.rules, h.deal, h.history)) for h in hands]
    lines = sum(t.count("\n") for t in texts)

    def machine() -> None:
        for h in hands:
            assert h.deal is not None
            game.State.replay(h.rules, h.deal, h.history)

    def check() -> None:
        logs.forget_checked()  # each repetition reads the logs from cold
        for t in texts:
            assert replay.replay_text(t).status == "conforming"

    tm, tr = (best(machine, repeat, time.perf_counter),
              best(check, repeat, time.perf_counter))
    return {"hands": games, "steps": steps, "lines": lines,
            "machine_steps_per_s": round(steps / tm, 1),
            "replay_steps_per_s": round(steps / tr, 1),
            "replay_lines_per_s": round(lines / tr, 1),
            "replay_over_machine": round(tm / tr, 3)}


def bench_differential(seed: int, hands: int, jobs: int = 1) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "chanspec.checks.cli.app", "serve"]  # `chanspec serve`
    t0 = time.perf_counter()
    res = conform.campaign(cmd, hands=hands, seed=seed, timeout=30, jobs=jobs)
    td = time.perf_counter() - t0
    if res.status != "conforming":
        raise SystemExit(f"the reference does not conform to itself: {res.as_json()}")
    # baseline: hands of the same generator played in-process, no external engine
    rng = random.Random(seed)
    t0 = time.perf_counter()
    base_steps = 0
    for i in range(hands):
        rules = table.rules("family", 4 + i % 2)
        deal = conform.build_deal(rules, lambda k: rng.randrange(k), lambda: rng.random() < 0.5)
        st = game.State(rules, deal)
        game.random_playout(st, rng)
        base_steps += len(st.history)
    tb = time.perf_counter() - t0
    tp = res.play_seconds or td
    ph = res.play_hands if res.play_seconds else res.hands
    return {"hands": res.hands, "steps": res.steps, "seconds": round(td, 3), "jobs": jobs,
            "legal_all": res.legal_all,
            "play_seconds": round(tp, 3),  # without starting the engine process
            "hands_per_s": round(res.hands / td, 2),
            "playing_hands_per_s": round(ph / tp, 2),
            "steps_per_s": round(res.steps / td, 1),
            "in_process_hands_per_s": round(hands / tb, 2),
            "in_process_steps_per_s": round(base_steps / tb, 1),
            "differential_over_in_process": round((ph / tp) / (hands / tb), 4),
            "with_start_up_over_in_process": round((res.hands / td) / (hands / tb), 4)}


ENGINE = Path(__file__).resolve().parent.parent / "tests" / "engines" / "one_seat_readings.py"


def bench_infer(seed: int, hands: int) -> dict[str, Any]:
    serve = [sys.executable, "-m", "chanspec.checks.cli.app", "serve"]
    t0 = time.perf_counter()
    ref = conform.campaign(serve, hands=hands, seed=seed, timeout=30, players=(4,))
    t_serve = time.perf_counter() - t0
    if ref.status != "conforming":
        raise SystemExit(f"the reference does not conform to itself: {ref.as_json()}")
    base = hands / t_serve  # chanspec serve, the same hands alone, start-up included
    cmd = [sys.executable, str(ENGINE)]
    known: conform.Known = {}
    t0 = time.perf_counter()
    res = conform.campaign(cmd, hands=hands, seed=seed, timeout=30, players=(4,), known=known)
    inf = conform.infer_readings(cmd, res, hands=hands, timeout=30, players=(4,), known=known)
    total = time.perf_counter() - t0
    trials = inf.trials

    def phase(count: float, seconds: float) -> dict[str, float]:
        rate = count / seconds if seconds > 0 else 0.0
        return {"count": count, "seconds": round(seconds, 2), "per_s": round(rate, 2),
                "over_serve": round(rate / base, 4)}

    left = inf.confirm.differences if inf.confirm is not None else res.differences
    return {
        "hands": hands, "seed": seed, "serve_seconds": round(t_serve, 2),
        "serve_hands_per_s": round(base, 2), "seconds": round(total, 2),
        "hands_per_s": round(hands / total, 2), "over_serve": round(hands / total / base, 4),
        "phases": {
            "playing": phase(res.hands, res.seconds - res.shrink_seconds),
            "shrinking": phase(res.shrink_plays, res.shrink_seconds),
            "witness_replays": phase(inf.replays, inf.explain_seconds),
            "confirmation_playing": phase(sum(t.hands for t in trials),
                                          sum(t.seconds - t.shrink_seconds for t in trials)),
            "confirmation_shrinking": phase(sum(t.shrink_plays for t in trials),
                                            sum(t.shrink_seconds for t in trials)),
        },
        "campaigns": 1 + inf.campaigns, "readings": inf.readings,
        "first_differences": len(res.differences), "unexplained": len(left),
        "unexplained_keys": [list(map(str, d.key)) for d in left]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=40, help="hands replayed (default 40)")
    ap.add_argument("--hands", type=int, default=40, help="differential hands (default 40)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1, help="engine processes (default 1)")
    ap.add_argument("--infer", type=int, default=0, metavar="N",
                    help="also the --infer-options campaign of N hands (0: not run)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    print(f"seed {args.seed}", file=sys.stderr)
    if args.infer:
        return _print_infer(bench_infer(args.seed, args.infer), args.json)
    out = {"python": platform.python_version(), "machine": platform.machine(),
           "seed": args.seed,
           "replay": bench_replay(args.seed, args.games, args.repeat),
           "differential": bench_differential(args.seed, args.hands, args.jobs)}
    if args.json:
        print(json.dumps(out))
        return 0
    r, d = out["replay"], out["differential"]
    print(f"replay: {r['replay_steps_per_s']:.0f} steps/s ({r['replay_lines_per_s']:.0f} "
          f"log lines/s) vs machine {r['machine_steps_per_s']:.0f} steps/s: ratio "
          f"{r['replay_over_machine']:.3f} ({r['hands']} hands, {r['steps']} steps)")
    print(f"differential vs chanspec serve ({d['jobs']} engine process(es), legal_all "
          f"{d['legal_all']}): {d['playing_hands_per_s']:.1f} hands/s while playing "
          f"({d['hands_per_s']:.1f} with the engine's start-up), {d['steps_per_s']:.0f} "
          f"compared steps/s; in-process {d['in_process_hands_per_s']:.1f} hands/s: ratio "
          f"{d['differential_over_in_process']:.4f} ({d['hands']} hands)")
    return 0


def _print_infer(r: dict[str, Any], as_json: bool) -> int:
    if as_json:
        print(json.dumps(r))
        return 0
    print(f"--infer-options, {r['hands']} hands (seed {r['seed']}, 4 players, "
          f"one_seat_readings): {r['seconds']:.1f} s, {r['hands_per_s']:.2f} hands/s; "
          f"chanspec serve alone {r['serve_seconds']:.1f} s, {r['serve_hands_per_s']:.2f} "
          f"hands/s: ratio {r['over_serve']:.4f}; {r['campaigns']} campaigns")
    for name, p in r["phases"].items():
        unit = "replays" if name == "witness_replays" else "hands"
        print(f"  {name}: {p['count']} {unit} in {p['seconds']:.1f} s, {p['per_s']:.1f}/s: "
              f"ratio {p['over_serve']:.4f}")
    print(f"  verdict: readings {r['readings']}, {r['unexplained']} unexplained "
          f"({r['first_differences']} differences in the first campaign)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
