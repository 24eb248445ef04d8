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

Ratios are what to compare across machines.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=40, help="hands replayed (default 40)")
    ap.add_argument("--hands", type=int, default=40, help="differential hands (default 40)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1, help="engine processes (default 1)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    print(f"seed {args.seed}", file=sys.stderr)
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


if __name__ == "__main__":
    sys.exit(main())
