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
import sys

from chanspec.model import kinds
from chanspec.model.chiha.game import State as ChihaState
from chanspec.model.tan.game import State as TanState
from timing import best, random_hands

CAP = 3000  # moves; never reached (a Chiha hand and an after-taker Tấn hand always end)


def chiha_hands(seed: int, games: int, **options: str) -> float:
    rules = kinds.rules("chiha", 3, **options)

    def run() -> None:
        random_hands(ChihaState, rules, seed, games, CAP)

    return games / best(run)


def tan_hands(seed: int, games: int) -> float:
    rules = kinds.rules("tan", 4, after_take="after-taker")

    def run() -> None:
        random_hands(TanState, rules, seed, games, CAP)

    return games / best(run)


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
