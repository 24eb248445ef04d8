"""``chanspec audit``: the machine's own decisions, found by mutation.

    chanspec audit [--ruleset family|classic] [--players 4,5] [--hands N] [--seed S]
                   [--jobs J] [--json] [--write] [--reaccount]

Each condition of the audited modules (`chanspec.checks.audit.mutants.AUDITED`) is
changed once; seeded hands of each table are played on the real and the mutated machine
in lockstep.  A mutant that changes the legal actions or a result is a decision, which a
row (``decides``), a proposed row (``docs/decisions-proposed.toml``) or an internal
invariant must account for.  ``--write`` writes ``docs/decisions.json`` and
``docs/decisions.md``.  Exit 0 when every decision is accounted for, 12 when one is not.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from chanspec.checks.cli.options import add_command
from chanspec.checks.output import Ticker, count, progress_every, say

EXIT_UNACCOUNTED = 12


def _players(text: str) -> tuple[int, ...]:
    try:
        out = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected player counts such as 4,5, got {text!r}") from None
    if not out or any(n < 2 or n > 6 for n in out):
        raise argparse.ArgumentTypeError(f"expected player counts such as 4,5, got {text!r}")
    return out


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {n}")
    return n


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from chanspec.checks.audit import inventory as inv

    p = add_command(
        subparsers, "audit",
        "kiểm kê các quyết định riêng của máy bằng cách đổi từng điều kiện",
        "an inventory of the machine's own decisions, by mutating each condition",
        epilog=("Ví dụ / example:\n"
                "  chanspec audit --write\n"
                "  chanspec audit --ruleset classic --hands 10 --seed 3 --json"),
        codes=("0   mọi quyết định đều có chỗ nêu / every decision is accounted for",
               "12  có quyết định chưa chỗ nào nêu / a decision nothing accounts for"),
    )
    p.add_argument("--ruleset", choices=inv.RULESETS, default=None,
                   help="chỉ một bảng luật (mặc định cả hai) / only one table (default both)")
    p.add_argument("--players", type=_players, default=None, metavar="4,5",
                   help="số người (mặc định family 4,5; classic 4) / player counts "
                        "(default family 4,5; classic 4)")
    p.add_argument("--hands", type=_positive, default=inv.DEFAULT_HANDS, metavar="N",
                   help=f"số ván mỗi cấu hình / hands per configuration (default "
                        f"{inv.DEFAULT_HANDS})")
    p.add_argument("--seed", type=int, default=1, help="hạt giống / seed (default 1)")
    p.add_argument("--jobs", type=_positive, default=2, help="số tiến trình / worker "
                   "processes (default 2)")
    p.add_argument("--write", action="store_true",
                   help="ghi docs/decisions.json và .md / write docs/decisions.json and .md")
    p.add_argument("--reaccount", action="store_true",
                   help="chỉ tính lại phần nêu từ docs/decisions.json và các dòng luật, không "
                        "chơi lại / only account again for docs/decisions.json from today's "
                        "rows and proposals (seconds), with --write to save it")
    p.add_argument("--json", action="store_true", help="in JSON / print JSON")
    p.add_argument("--lang", choices=("vi", "en"), default="vi",
                   help="vi (mặc định, kèm tiếng Anh) hoặc en / vi (default) or en")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chanspec.checks.audit import inventory as inv
    from chanspec.checks.audit import mutants as mut

    if args.reaccount:
        return _reaccount(args)
    rulesets = (args.ruleset,) if args.ruleset else inv.RULESETS
    cfgs = inv.configs_of(rulesets, args.players)
    if not cfgs:
        print("chanspec audit: " + say(
            args.lang, f"không bảng nào có {','.join(map(str, args.players))} người chơi",
            f"no table among {', '.join(rulesets)} has "
            f"{','.join(map(str, args.players))} players"),
            file=sys.stderr)
        return 2
    err = sys.stderr
    print(say(args.lang, f"kiểm kê: hạt giống {args.seed}, {args.hands} ván mỗi cấu hình "
              f"({', '.join(c.label for c in cfgs)})",
              f"audit: seed {args.seed}, {args.hands} hands per configuration "
              f"({', '.join(c.label for c in cfgs)})"), file=err)
    t0, c0 = time.monotonic(), time.process_time()
    b = inv.baseline(cfgs, args.seed, args.hands)
    ms = mut.mutants()
    tick = Ticker(progress_every(err))

    def progress(k: int, n: int, dt: float) -> None:
        if tick.due() or k == n:
            print(f"  {k:,}/{n:,} mutants, {dt:.0f} s", file=err, flush=True)

    results = inv.run(b, ms, jobs=args.jobs, progress=progress)
    full = inv.account(b, ms, results, rulesets)
    c = inv.compact(full)
    c["replay"] = (f"chanspec audit --seed {args.seed} --hands {args.hands}"
                   + (f" --ruleset {args.ruleset}" if args.ruleset else "")
                   + (f" --players {','.join(map(str, args.players))}" if args.players
                      else ""))
    wall = time.monotonic() - t0
    # the workers' CPU time (with --jobs 1 the mutants ran in this process, counted once)
    cpu = time.process_time() - c0 + (sum(r.get("cpu", 0.0) for r in results)
                                      if args.jobs > 1 else 0.0)
    if args.write:
        for path in inv.write(c):
            print(say(args.lang, f"đã ghi {path}", f"wrote {path}"), file=err)
    bad = inv.unaccounted(full)
    if args.json:
        sys.stdout.write(json.dumps(c, ensure_ascii=False, indent=1) + "\n")
    else:
        _text(args, c, bad, wall, cpu)
    return EXIT_UNACCOUNTED if bad else 0


def _reaccount(args: argparse.Namespace) -> int:
    from chanspec.checks.audit import inventory as inv

    c = inv.committed()
    if c is None:
        print("chanspec audit: " + say(args.lang, "chưa có docs/decisions.json; chạy "
                                       "chanspec audit --write trước", "no docs/decisions.json "
                                       "yet; run chanspec audit --write first"), file=sys.stderr)
        return 2
    c = inv.reaccount(c)
    if args.write:
        for path in inv.write(c):
            print(say(args.lang, f"đã ghi {path}", f"wrote {path}"), file=sys.stderr)
    bad = [m for m in c["mutants"] if m.get("accounted") == "unaccounted"]
    if args.json:
        sys.stdout.write(json.dumps(c, ensure_ascii=False, indent=1) + "\n")
    else:
        for k, v in c["summary"].items():
            print(f"  {k}: {v:,}")
    return EXIT_UNACCOUNTED if bad else 0


def _text(args: argparse.Namespace, c: dict[str, Any], bad: list[dict[str, Any]],
          wall: float, cpu: float) -> None:
    s = c["summary"]
    out = sys.stdout
    print(say(args.lang, f"{s['mutants']:,} thể đột biến, {s.get('decision', 0):,} quyết định",
              f"{count(s['mutants'], 'mutant')}, {count(s.get('decision', 0), 'decision')}"),
          file=out)
    for k, v in s.items():
        if k != "mutants":
            print(f"  {k}: {v:,}", file=out)
    for e in bad[:50]:
        print(f"  unaccounted: {e['id']} ({e['file']}:{e['line']}) "
              f"{e['divergence']['config']} hand {e['divergence']['hand']} step "
              f"{e['divergence']['step']} {e['divergence']['what']}; cited: "
              f"{', '.join(e['cited'][:4]) or '—'}", file=out)
    if len(bad) > 50:
        print(f"  … and {len(bad) - 50:,} more (docs/decisions.md)", file=out)
    print(say(args.lang, f"{wall:.0f} s, CPU {cpu:.0f} s; chạy lại: {c['replay']}",
              f"{wall:.0f} s, CPU {cpu:.0f} s; run again: {c['replay']}"), file=out)
