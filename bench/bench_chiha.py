"""Benchmark: complete random 3-player Chiha hands per second on one core, as a ratio to
the random 4-player Tấn hands (readings ``after-take = after-taker``, where every hand
ends) measured in the same run.

    python bench/bench_chiha.py [--seed N] [--games N] [--json]

Each hand is dealt from seed ``seed + i`` and played with uniformly random legal actions
(``Random(seed + i)``), applied unchecked (`check=False`), as the Tấn bench does.
Timing is CPU time of this process (`time.process_time`), the best of three runs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from chanspec.model import kinds
from chanspec.model.chiha.game import State as ChihaState
from chanspec.model.tan.game import State as TanState


def _best(fn: Any, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def chiha_hands(seed: int, games: int, **options: str) -> float:
    rules = kinds.rules("chiha", 3, **options)

    def run() -> None:
        for s in range(seed, seed + games):
            st = ChihaState.new(rules, s)
            rng = random.Random(s)
            while not st.is_terminal():
                la = st.legal_actions()
                st.apply(la[rng.randrange(len(la))], check=False)

    return games / _best(run)


def tan_hands(seed: int, games: int) -> float:
    rules = kinds.rules("tan", 4, after_take="after-taker")

    def run() -> None:
        for s in range(seed, seed + games):
            st = TanState.new(rules, s)
            rng = random.Random(s)
            while st.phase != "over":
                la = st.legal_actions()
                st.apply(la[rng.randrange(len(la))], check=False)

    return games / _best(run)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.games < 1:
        print("bench_chiha: --games must be at least 1", file=sys.stderr)
        return 2
    chiha = chiha_hands(args.seed, args.games)
    tan = tan_hands(args.seed, args.games)
    out = {"chiha_hands_per_s": round(chiha, 1), "tan_hands_per_s": round(tan, 1),
           "ratio_to_tan": round(chiha / tan, 3), "games": args.games, "seed": args.seed}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"Chiha (3 players, as written): {chiha:,.1f} hands/s; Tấn (4 players, "
              f"after-taker): {tan:,.1f} hands/s; ratio {chiha / tan:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
