"""``chanspec conform --impl CMD``: differential testing of an external engine.

Plays generated hands on the reference machine and on the engine (run as CMD, spoken to
over the JSON-lines protocol of vectors/PROTOCOL.md) in lockstep, compares the legal
actions of every seat at every step and the outcome, and shrinks the first mismatch to
a minimal scenario: printed step by step and saved as a game log for ``chanspec replay``.

Exit codes: 0 no mismatch in N hands, 1 a mismatch or an engine failure (timeout,
crash, garbage output, protocol error), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

from chanspec.checks.cli.options import (
    add_command,
    add_common,
    load_table,
    options_of,
    player_count,
    players_of,
)
from chanspec.checks.conform import campaign as conform
from chanspec.checks.conform import logs
from chanspec.checks.output import say, write_atomic


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "conform",
        "so sánh một engine khác với máy tham chiếu trên các ván sinh ngẫu nhiên",
        "compare another engine with the reference machine on generated hands",
        epilog=(
            "Ví dụ / example:\n"
            "  chanspec conform --impl \"python -m chanspec.checks.refengine\" --hands 50\n"
            "  chanspec conform --impl \"./my-engine --stdio\" --seed 7 --timeout 2\n\n"
            "Giao thức / protocol: vectors/PROTOCOL.md."
        ),
        codes=("0   phù hợp / conforming",
               "1   khác máy tham chiếu hoặc engine lỗi / a mismatch or an engine error"),
    )
    p.add_argument("--impl", required=True, metavar="CMD",
                   help="lệnh chạy engine cần kiểm tra / the command that runs the engine "
                        "under test (split like a shell would, no shell features)")
    p.add_argument("--hands", type=int, default=100, metavar="N",
                   help="số ván tối đa / how many hands to compare at most (default 100)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="hạt giống, in ra để chạy lại / the seed (printed; default random)")
    p.add_argument("--timeout", type=float, default=5.0, metavar="SEC",
                   help="giới hạn mỗi yêu cầu / seconds the engine has per request (default 5)")
    p.add_argument("--shrink-budget", type=int, default=conform.DEFAULT_SHRINK_BUDGET,
                   metavar="N", help="số ván tối đa khi thu gọn / hands replayed at most while "
                   f"shrinking (default {conform.DEFAULT_SHRINK_BUDGET})")
    p.add_argument("--max-steps", type=int, default=conform.DEFAULT_MAX_STEPS, metavar="N",
                   help="số bước tối đa mỗi ván / steps per hand at most")
    p.add_argument("--vary-options", action="store_true",
                   help="thử mọi giá trị tùy chọn (trừ --option đã cố định) / also vary every "
                        "open/provisional option (those not fixed by --option)")
    p.add_argument("--save", metavar="PATH",
                   help="nơi lưu nhật ký kịch bản lệch / where to save the minimal scenario as "
                        "a game log (default conform-<seed>.ndjson)")
    add_common(p, players=False)
    p.add_argument("--players", type=player_count, action="append", metavar="N",
                   help="số người chơi, lặp lại được / player count(s) to play (default: every "
                        "variant of the table, 4 and 5 for family)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    table = load_table(args)
    fixed = options_of(args, table)
    if args.hands < 1 or args.timeout <= 0 or args.shrink_budget < 0 or args.max_steps < 1:
        print("chanspec conform: --hands, --timeout and --max-steps must be positive, "
              "--shrink-budget not negative", file=sys.stderr)
        return 2
    players = players_of(table, args.players)
    if not args.json:
        # print the seed first: a campaign that is interrupted can still be rerun
        seed_text = "" if args.seed is None else str(args.seed)
        if seed_text:
            print(say(args.lang, f"Hạt giống: {seed_text}", f"Seed: {seed_text}"), flush=True)
    result = conform.campaign(
        args.impl, hands=args.hands, seed=args.seed, timeout=args.timeout, players=players,
        options=fixed, vary_options=args.vary_options, ruleset=args.ruleset,
        max_steps=args.max_steps, shrink_budget=args.shrink_budget)
    saved = None
    if result.log:
        saved = args.save or f"conform-{result.seed}.ndjson"
        write_atomic(saved, logs.dumps(result.log))
    if args.json:
        out = result.as_json()
        out["log"] = saved
        print(json.dumps(out, ensure_ascii=False))
    else:
        text = conform.render(result, args.lang, say)
        if args.seed is not None:
            text = "\n".join(text.splitlines()[(1 if args.lang == "en" else 2):])
        print(text)
        if saved:
            print(say(args.lang, f"Đã lưu kịch bản: {saved} (kiểm tra: chanspec replay {saved})",
                      f"Scenario saved: {saved} (check it: chanspec replay {saved})"))
    return result.exit_code
