"""``chanspec conform --impl CMD``: differential testing of an external engine.

Plays generated hands on the reference machine and on the engine (run as CMD, spoken to
over the JSON-lines protocol of vectors/PROTOCOL.md) in lockstep, compares the legal
actions of every seat at every step and the outcome, and goes on past mismatches: every
distinct difference is counted and its first witness shrunk to a minimal scenario (the
first printed step by step; each saved as a game log for ``chanspec replay``).
``--infer-options`` then says which readings of the open rows the engine plays.

Exit codes: 0 no mismatch in N hands, 1 a difference or an engine failure (timeout,
crash, garbage output, protocol error), 2 bad input (a bad flag value, an engine command
that does not exist or is not executable), 70 chanspec failed on its own side while
comparing a hand (a bug in chanspec: the hand is saved as a log and named).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import shutil
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
from chanspec.checks.conform.driver import EngineError
from chanspec.checks.output import check_output_file, prepare_output_dir, say, write_atomic
from chanspec.model import kinds


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "conform",
        "so sánh một engine khác với máy tham chiếu trên các ván sinh ngẫu nhiên",
        "compare another engine with the reference machine on generated hands",
        epilog=(
            "Ví dụ / example:\n"
            "  chanspec conform --impl \"chanspec serve\" --hands 50\n"
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
    p.add_argument("--timeout", type=_seconds, default=5.0, metavar="SEC",
                   help="giới hạn mỗi yêu cầu / seconds the engine has per request (default 5)")
    p.add_argument("--shrink-budget", type=int, default=conform.DEFAULT_SHRINK_BUDGET,
                   metavar="N", help="số ván tối đa khi thu gọn / hands replayed at most while "
                   f"shrinking (default {conform.DEFAULT_SHRINK_BUDGET})")
    p.add_argument("--max-steps", type=int, default=conform.DEFAULT_MAX_STEPS, metavar="N",
                   help="số bước tối đa mỗi ván / steps per hand at most")
    p.add_argument("--vary-options", action="store_true",
                   help="thử mọi giá trị tùy chọn (trừ --option đã cố định) / also vary every "
                        "open/provisional option (those not fixed by --option)")
    p.add_argument("--stop-at-first", action="store_true",
                   help="dừng ở chỗ lệch đầu tiên / stop at the first mismatch (the old "
                        "behaviour) instead of listing every distinct difference")
    p.add_argument("--max-differences", type=int, default=None, metavar="N",
                   help="dừng khi đã thấy N khác biệt / stop generating hands once N "
                        "distinct differences are known")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="số tiến trình engine song song / engine processes run in parallel "
                        "on independent hands (default 1; each hand has its own seed)")
    p.add_argument("--infer-options", action="store_true",
                   help="tìm cách đọc luật mà engine chơi / find which readings of the open "
                        "and provisional rows explain each difference, then confirm them "
                        "with a fresh campaign")
    p.add_argument("--save", metavar="PATH",
                   help="nơi lưu nhật ký kịch bản lệch / where to save the first difference's "
                        "shortest witness as a game log (default conform-<seed>.ndjson); the "
                        "others go beside it as <name>-2.ndjson, <name>-3.ndjson, …; with "
                        "--json nothing is written unless --save is given (the logs are in "
                        "the JSON)")
    add_common(p, players=False)
    p.add_argument("--players", type=player_count, action="append", metavar="N",
                   help="số người chơi, lặp lại được / player count(s) to play (default: every "
                        "variant of the table, 4 and 5 for family)")
    p.set_defaults(func=run)


def _seconds(text: str) -> float:
    """A positive, finite number of seconds (argparse type: bad values exit 2)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, found {text!r}"
                                         ) from None
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive, finite number of seconds, "
                                         f"found {text!r}")
    return v


def engine_problem(command: str) -> str | None:
    """Why the engine command cannot be run, or None: checked before the campaign."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return f"--impl {command!r} cannot be split into words: {exc}"
    if not argv:
        return "--impl is empty: give the command that runs the engine"
    prog = argv[0]
    if os.sep in prog or (os.altsep and os.altsep in prog):
        if not os.path.exists(prog):
            return f"--impl: {prog!r} does not exist"
        if os.path.isdir(prog):
            return f"--impl: {prog!r} is a directory, not a program"
        if not os.access(prog, os.X_OK):
            return (f"--impl: {prog!r} is not executable (chmod +x it, or run it through its "
                    f"interpreter, e.g. --impl \"python3 {prog}\")")
        return None
    if shutil.which(prog) is None:
        return f"--impl: command {prog!r} not found on PATH"
    return None


def run(args: argparse.Namespace) -> int:
    table = load_table(args)
    if kinds.of(table).log is not None:  # a kind with its own log format (Tấn, Chiha)
        return run_kind(args, table)
    fixed = options_of(args, table)
    if args.hands < 1 or args.shrink_budget < 0 or args.max_steps < 1 or args.jobs < 1 or (
            args.max_differences is not None and args.max_differences < 1):
        print("chanspec conform: --hands, --max-steps, --jobs and --max-differences must be "
              "positive, --shrink-budget not negative", file=sys.stderr)
        return 2
    problem = engine_problem(args.impl)
    if problem is not None:
        print(f"chanspec conform: {problem}", file=sys.stderr)
        return 2
    players = players_of(table, args.players)
    # where the scenario will be saved is checked before the campaign, not after it
    if args.save is not None:
        check_output_file(args.save)
    elif not args.json:
        prepare_output_dir(".")  # the default conform-<seed>.ndjson goes here
    if not args.json:
        # print the seed first: a campaign that is interrupted can still be rerun
        seed_text = "" if args.seed is None else str(args.seed)
        if seed_text:
            print(say(args.lang, f"Hạt giống: {seed_text}", f"Seed: {seed_text}"), flush=True)
    common = dict(timeout=args.timeout, players=players, options=fixed,
                  vary_options=args.vary_options, ruleset=args.ruleset,
                  max_steps=args.max_steps, shrink_budget=args.shrink_budget, jobs=args.jobs)
    known: conform.Known = {}  # witnesses shrunk, by key: each key is shrunk once
    result = conform.campaign(
        args.impl, hands=args.hands, seed=args.seed, stop_at_first=args.stop_at_first,
        max_differences=args.max_differences, known=known, **common)  # type: ignore[arg-type]
    inference = None
    if args.infer_options and result.differences and result.error is None:
        try:
            inference = conform.infer_readings(args.impl, result, hands=args.hands,
                                               known=known, **common)  # type: ignore[arg-type]
        except EngineError as exc:  # the engine failed while its witnesses were replayed
            result.status, result.error = "engine-error", exc
        except Exception as exc:  # noqa: BLE001 - chanspec's own bug: exit 70, report kept
            result.internal = result.internal or (
                f"{type(exc).__name__}: {exc} (while inferring the readings)")
    saved = None
    # --json writes nothing into the current folder unless --save asks for it: the
    # scenario is in the JSON itself (and the game log under "game_log")
    if result.log and (args.save or not args.json):
        saved = args.save or f"conform-{result.seed}.ndjson"
        write_atomic(saved, logs.dumps(result.log))
    for i, d in enumerate(result.differences):
        if i == 0:
            d.saved = saved
        elif d.log and saved:
            stem, dot, ext = saved.rpartition(".")
            d.saved = f"{stem}-{i + 1}.{ext}" if dot and "/" not in ext else f"{saved}-{i + 1}"
            write_atomic(d.saved, logs.dumps(d.log))
    if inference is not None and inference.confirm is not None and saved:
        # the confirmation campaign's differences have their witnesses too
        stem, dot, ext = saved.rpartition(".")
        for i, d in enumerate(inference.confirm.differences, start=1):
            if d.log:
                d.saved = (f"{stem}-confirm-{i}.{ext}" if dot and "/" not in ext
                           else f"{saved}-confirm-{i}")
                write_atomic(d.saved, logs.dumps(d.log))
    if result.internal:
        # chanspec's own failure: never blamed on the input, and the hand is kept
        where = saved or "(the hand is under \"game_log\" in the JSON)"
        print(say(args.lang, f"chanspec conform: lỗi nội bộ của chanspec (không phải của "
                  f"engine): {result.internal}; ván đó đã lưu: {where}; xin báo lỗi này",
                  f"chanspec conform: internal error in chanspec (not the engine's): "
                  f"{result.internal}; the hand is saved: {where}; please report it"),
              file=sys.stderr)
    if args.json:
        out = result.as_json()
        out["log"] = saved
        out["game_log"] = result.log or None
        if inference is not None:
            out["inference"] = inference.as_json()
        print(json.dumps(out, ensure_ascii=False))
    else:
        text = conform.render(result, args.lang, say)
        if args.seed is not None:
            text = "\n".join(text.splitlines()[(1 if args.lang == "en" else 2):])
        print(text)
        if saved:
            print(say(args.lang, f"Đã lưu kịch bản: {saved} (kiểm tra: chanspec replay {saved})",
                      f"Scenario saved: {saved} (check it: chanspec replay {saved})"))
        if result.differences:
            print(conform.render_table(result, args.lang, say))
        if inference is not None:
            print(conform.render_inference(inference, args.lang, say))
    return result.exit_code


# flags of the Chắn campaign that a kind with its own log format does not take yet
CHAN_ONLY = (("vary_options", False, "--vary-options"), ("stop_at_first", False,
             "--stop-at-first"), ("max_differences", None, "--max-differences"),
             ("jobs", 1, "--jobs"), ("infer_options", False, "--infer-options"))


def run_kind(args: argparse.Namespace, table: object) -> int:
    """The campaign of a kind with its own game-log format (checks/conform/kind_campaign.py):
    legal sets step by step and the outcome, one key per cause, each witness saved."""
    import random
    from pathlib import Path

    from chanspec.checks.conform import kind_campaign

    kind = kinds.of(table)  # type: ignore[arg-type]
    for attr, default, flag in CHAN_ONLY:
        if getattr(args, attr) != default:
            print(f"chanspec conform: {flag} is not available for kind {kind.name!r} yet; "
                  "drop it", file=sys.stderr)
            return 2
    if args.hands < 1:
        print("chanspec conform: --hands must be positive", file=sys.stderr)
        return 2
    problem = engine_problem(args.impl)
    if problem is not None:
        print(f"chanspec conform: {problem}", file=sys.stderr)
        return 2
    counts = players_of(table, args.players)  # type: ignore[arg-type]
    opts = options_of(args, table)  # type: ignore[arg-type]
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    first = Path(args.save) if args.save is not None else None
    if first is not None:
        check_output_file(first)
    elif not args.json:
        prepare_output_dir(".")
        first = Path(f"conform-{seed}.ndjson")
    if not args.json:
        print(say(args.lang, f"Hạt giống: {seed}", f"Seed: {seed}"), flush=True)
    results = []
    for n in counts:  # one campaign per player count, the witnesses named apart
        rules = table.resolve(n, opts)  # type: ignore[attr-defined]
        save = first if first is None or len(counts) == 1 else first.with_name(
            f"{first.stem}-p{n}{first.suffix}")
        try:
            res = kind_campaign.run(rules, args.impl, args.hands, seed, args.timeout, save)
        except EngineError as exc:
            print(say(args.lang, f"chanspec conform: engine lỗi ({n} người): {exc}",
                      f"chanspec conform: the engine failed ({n} players): {exc}"),
                  file=sys.stderr)
            return 1
        results.append(res)
        if not args.json:
            print(say(args.lang, f"== {n} người", f"== {n} players"))
            print(kind_campaign.report(res, args.lang))
    if args.json:
        print(json.dumps({"kind": kind.name, "campaigns": [r.as_json() for r in results]},
                         ensure_ascii=False))
    return 1 if any(r.differences for r in results) else 0
