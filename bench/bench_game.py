"""Benchmark: complete random hands per second per core on the reference machine.

    python bench/bench_game.py [--seed N] [--games N] [--players 4 5] [--json]

For each player count, ``--games`` hands are dealt from seeds ``seed, seed+1, ...`` and
played to the end with uniformly random legal actions (`game.random_playout`), on one
core.  Baselines measured in the same run, on the same seeds:

* ``deal``: dealing the hand and building the `State` only (the fixed cost of a hand);
* ``replay``: rebuilding each finished hand from its deal and action list
  (`State.replay`: applies the same actions without choosing them);
* ``step``: the hands' steps per second.

Ratios against the deal baseline are what to compare across machines; the absolute
figure is what the issue's target (>= 1,000 five-player hands per second) is about.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from typing import Any

from chanspec.model.chan import game, table

TARGET_5P = 1000.0


def bench(players: int, seed: int, games: int, repeat: int = 3) -> dict[str, Any]:
    rules = table.rules("family", players)
    seeds = list(range(seed, seed + games))
    deals = [game.deal_random(rules, s) for s in seeds]

    def best(fn: Any) -> float:
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return min(times)

    def deal_only() -> None:
        for s in seeds:
            game.State.new(rules, seed=s)

    # only the action lists and outcomes are kept: holding every finished State (with its
    # event log) would time the garbage collector walking a growing heap, not the machine
    finished: list[tuple[list[game.Action], dict[str, Any] | None]] = []

    def play() -> None:
        finished.clear()
        for s in seeds:
            st = game.State.new(rules, seed=s)
            game.random_playout(st, random.Random(s))
            finished.append((st.history, st.outcome()))

    def replay() -> None:
        for d, (history, _) in zip(deals, finished, strict=True):
            game.State.replay(rules, d, history)

    t_deal = best(deal_only)
    t_play = best(play)
    t_replay = best(replay)
    steps = sum(len(history) for history, _ in finished)
    outcomes: dict[str, int] = {}
    for _, out in finished:
        k = out["result"] if out else "stuck"
        outcomes[k] = outcomes.get(k, 0) + 1
    gps = games / t_play
    return {
        "players": players, "seed": seed, "games": games,
        "games_per_s": round(gps, 1),
        "steps_per_s": round(steps / t_play, 1),
        "mean_steps": round(steps / games, 1),
        "deal_per_s": round(games / t_deal, 1),
        "replay_per_s": round(games / t_replay, 1),
        "game_cost_in_deals": round(t_play / t_deal, 2),
        "play_vs_replay": round(t_play / t_replay, 2),
        "outcomes": outcomes,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", type=int, nargs="+", default=[5, 4], choices=(4, 5))
    ap.add_argument("--repeat", type=int, default=3, help="best of N timings (default 3)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.games < 1:
        print("bench_game: --games must be >= 1", file=sys.stderr)
        return 2
    results = [bench(p, args.seed, args.games, args.repeat) for p in args.players]
    env = {"python": platform.python_version(), "machine": platform.machine()}
    if args.json:
        print(json.dumps({"seed": args.seed, "env": env, "results": results,
                          "target_5p_games_per_s": TARGET_5P}, indent=2))
        return 0
    print(f"bench_game: seed {args.seed}, {args.games} hands per player count, one core, "
          f"best of {args.repeat}; Python {env['python']}")
    for r in results:
        print(f"  {r['players']} players: {r['games_per_s']:.0f} hands/s "
              f"({r['steps_per_s']:.0f} steps/s, {r['mean_steps']} steps per hand)")
        print(f"      baseline deal+State: {r['deal_per_s']:.0f}/s -> a hand costs "
              f"{r['game_cost_in_deals']} deals; replay of the same actions "
              f"{r['replay_per_s']:.0f}/s (play/replay {r['play_vs_replay']}x); "
              f"outcomes {r['outcomes']}")
        if r["players"] == 5:
            ok = "meets" if r["games_per_s"] >= TARGET_5P else "below"
            print(f"      target >= {TARGET_5P:.0f} five-player hands/s: {ok}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
