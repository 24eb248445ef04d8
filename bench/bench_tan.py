"""Benchmark: complete random 4-player Tấn hands per second on one core, as a ratio to
the family's random 5-player Chắn hands measured in the same run.

    python bench/bench_tan.py [--seed N] [--games N] [--json]

Each hand is dealt from seed ``seed + i`` and played with uniformly random legal actions
(``Random(seed + i)``), applied unchecked as the family's bench does (`check=False`).
Tấn is timed under two readings of row after-take: as written (the taker attacks next),
where some random hands go round for ever and are stopped at `CAP` moves (counted apart,
never as complete hands), and ``after-taker``, where every hand ends.  The family's
hands are `chanspec.model.chan.game.random_playout` on the family's table, 5 players.
Timing is CPU time of this process (`time.process_time`), the best of three runs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from chanspec.model import kinds
from chanspec.model.chan import game
from chanspec.model.tan.game import State
from timing import best, random_hands

CAP = 3000
BUDGET = 2000.0  # complete 4-player Tấn hands per CPU-second (issue 28)


def tan_hands(seed: int, games: int, **options: str) -> tuple[float, int]:
    """(complete hands per CPU-second, hands stopped at the cap)."""
    rules = kinds.rules("tan", 4, **options)
    stopped = [0]

    def run() -> None:
        stopped[0] = random_hands(State, rules, seed, games, CAP)

    t = best(run)
    return (games - stopped[0]) / t, stopped[0]


def family_hands(seed: int, games: int) -> float:
    rules = kinds.rules("family", 5)

    def run() -> None:
        for s in range(seed, seed + games):
            st = game.State.new(rules, seed=s)
            game.random_playout(st, random.Random(s))

    return games / best(run)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    fam = family_hands(args.seed, args.games)
    written, stopped = tan_hands(args.seed, args.games)
    skip, stopped_skip = tan_hands(args.seed, args.games, after_take="after-taker")
    doc = {"seed": args.seed, "games": args.games, "family_5p_per_s": round(fam, 1),
           "tan_4p_per_s": round(written, 1), "tan_4p_stopped_at_cap": stopped,
           "tan_4p_after_taker_per_s": round(skip, 1),
           "tan_4p_after_taker_stopped": stopped_skip,
           "ratio_tan_to_family": round(written / fam, 2),
           "ratio_after_taker_to_family": round(skip / fam, 2), "budget": BUDGET}
    if args.json:
        print(json.dumps(doc))
    else:
        print(f"seed {args.seed}, {args.games} hands each, CPU time, best of 3")
        print(f"family, 5 players:            {fam:8.1f} hands/s")
        print(f"Tấn, 4 players, as written:   {written:8.1f} complete hands/s "
              f"({stopped} stopped at {CAP} moves)  ratio {written / fam:.2f}")
        print(f"Tấn, 4 players, after-taker:  {skip:8.1f} complete hands/s "
              f"({stopped_skip} stopped)  ratio {skip / fam:.2f}")
        print(f"budget: {BUDGET:.0f} complete 4-player Tấn hands/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
