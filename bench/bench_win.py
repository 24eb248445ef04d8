"""Benchmark: win decisions per second, engine fast path vs judge() vs the Z3 oracle.

    python bench/bench_win.py [--seed N] [--json] [--ruleset family|classic] [--players N]
                              [--hands N]

The hands are near-complete: a random complete decomposition (some groups laid down,
now and then a chíu) with one concealed card taken out as the candidate; for half of
them one further concealed card is replaced so that the hand no longer wins.  Every
input is checked against judge() before timing, and the Z3 oracle is timed on a subset
of the same hands in the same run.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from chanspec.checks.chan.z3win import Z3Win
from chanspec.model import table as shared_table
from chanspec.model.chan import cards, table, win
from chanspec.model.chan.table import Rules

Case = tuple[list[int], list[win.Group], int, list[int], int]


def _complete(rng: random.Random, rules: Rules) -> list[tuple[str, tuple[int, ...], bool]]:
    left = {f: rules.copies for f in rules.faces}
    cas = [(a, b) for a in rules.faces for b in rules.faces if a < b and rules.is_ca(a, b)]
    out: list[tuple[str, tuple[int, ...], bool]] = []
    need = rules.pairs
    while need:
        roll = rng.random()
        laid = rng.random() < 0.3
        quads = [f for f in rules.faces if left[f] >= 4]
        if need >= 2 and roll < 0.08 and quads:
            f = rng.choice(quads)
            left[f] -= 4
            out.append(("chiu", (f,) * 4, laid))
            need -= 2
            continue
        pairs = [f for f in rules.faces if left[f] >= 2]
        if roll < 0.7 and pairs:
            f = rng.choice(pairs)
            left[f] -= 2
            out.append(("chan", (f, f), laid))
        else:
            a, b = rng.choice([(a, b) for a, b in cas if left[a] and left[b]])
            left[a] -= 1
            left[b] -= 1
            out.append(("ca", (a, b), laid))
        need -= 1
    return out


def make_cases(rules: Rules, n: int, rng: random.Random) -> list[Case]:
    """`n` near-complete hands for ordinary ù, half winning and half not."""
    e = win.engine(rules)
    wins: list[Case] = []
    losses: list[Case] = []
    while len(wins) < n // 2 or len(losses) < n - n // 2:
        groups = _complete(rng, rules)
        laid = [win.Group(k, tuple(sorted(fs))) for k, fs, lf in groups if lf]  # type: ignore[arg-type]
        concealed = [f for _, fs, lf in groups if not lf for f in fs]
        held = [f for _, fs, _ in groups for f in fs]
        if not concealed:
            continue
        cand = rng.choice(concealed)
        held.remove(cand)
        concealed.remove(cand)
        want_loss = len(wins) >= n // 2 or (len(losses) < n - n // 2 and rng.random() < 0.5)
        if want_loss and concealed:
            cnt = cards.counts(held)
            cnt[cand] += 1
            out = rng.choice(concealed)
            new = rng.choice([f for f in rules.faces if cnt[f] < rules.copies and f != out])
            held.remove(out)
            held.append(new)
            concealed.remove(out)
            concealed.append(new)
        v = e.judge(held, laid, cand, "u")
        counts = cards.counts(concealed)
        laid_chan = sum(g.chan for g in laid)
        assert e.is_win(counts, laid_chan, cand, "u") == v.win
        bucket = wins if v.win else losses
        if len(bucket) < (n // 2 if v.win else n - n // 2):
            bucket.append((held, laid, cand, counts, laid_chan))
    cases = wins + losses
    rng.shuffle(cases)
    return cases


def _rate(fn: Any, reps: int, n: int) -> float:
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        fn(reps)
        dt = time.perf_counter() - t0
        best = max(best, reps * n / dt)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--ruleset", default="family", choices=shared_table.builtin_names())
    ap.add_argument("--players", type=int, default=4,
                    help="one of the table's variants (family 4 or 5, classic 2 to 4)")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--z3-hands", type=int, default=100)
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    print(f"seed {seed}", file=sys.stderr if args.json else sys.stdout)
    rng = random.Random(seed)
    rules = table.rules(args.ruleset, args.players, {})
    e = win.engine(rules)
    cases = make_cases(rules, args.hands, rng)
    n = len(cases)
    share = sum(e.judge(h, laid, c, "u").win for h, laid, c, _, _ in cases) / n

    fast_in = [(counts, lc, c) for _, _, c, counts, lc in cases]
    is_win = e.is_win

    def run_is_win(reps: int) -> None:
        for _ in range(reps):
            for counts, lc, c in fast_in:
                is_win(counts, lc, c, "u")

    # The incremental index: one per hand, built once; each decision is wins_with().
    indexes = [(win.HandIndex(e, counts, lc), c) for counts, lc, c in fast_in]
    for (idx, c), (h, laid, _, _, _) in zip(indexes, cases, strict=True):
        assert idx.wins_with(c) == e.judge(h, laid, c, "u").win

    def run_index(reps: int) -> None:
        for _ in range(reps):
            for idx, c in indexes:
                idx.wins_with(c)

    judge = e.judge

    def run_judge(reps: int) -> None:
        for _ in range(reps):
            for h, laid, c, _, _ in cases:
                judge(h, laid, c, "u")

    z = Z3Win(rules)
    zcases = cases[: args.z3_hands]
    oracle_in = [(h, [(g.kind, g.faces) for g in laid], c) for h, laid, c, _, _ in zcases]
    t0 = time.perf_counter()
    for (h, laid, c, _, _), (zh, zl, zc) in zip(zcases, oracle_in, strict=True):
        assert z.judge(zh, zl, zc, "u").win == e.judge(h, laid, c, "u").win
    z3_rate = len(zcases) / (time.perf_counter() - t0)

    rates = {
        "is_win": _rate(run_is_win, 50, n),
        "hand_index_wins_with": _rate(run_index, 50, n),
        "judge": _rate(run_judge, 2, n),
        "z3_oracle": z3_rate,
    }
    result = {
        "seed": seed,
        "ruleset": args.ruleset,
        "players": args.players,
        "hands": n,
        "winning_share": round(share, 3),
        "z3_hands": len(zcases),
        "decisions_per_second": {k: round(v) for k, v in rates.items()},
        "ratio_is_win_over_z3": round(rates["is_win"] / rates["z3_oracle"]),
        "ratio_judge_over_z3": round(rates["judge"] / rates["z3_oracle"]),
        "ratio_is_win_over_judge": round(rates["is_win"] / rates["judge"], 1),
        "target_is_win": 1_000_000,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{args.ruleset} rules, {args.players} players; {n} near-complete hands, "
              f"{share:.0%} winning")
        for k, v in rates.items():
            print(f"  {k:22s} {v:14,.0f} decisions/s")
        print(f"  is_win / z3 = {result['ratio_is_win_over_z3']:,}x, "
              f"judge / z3 = {result['ratio_judge_over_z3']:,}x, "
              f"is_win / judge = {result['ratio_is_win_over_judge']}x")
        ok = rates["is_win"] >= 1_000_000
        print(f"  target >= 1,000,000 is_win/s: {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
