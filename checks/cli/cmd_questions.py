"""``chanspec questions``: print, write or check OPEN_QUESTIONS.md.

* ``chanspec questions``              print it (``--lang en``: English only)
* ``chanspec questions --write [PATH]`` regenerate it (atomically)
* ``chanspec questions --check [PATH]`` exit 1 when the file differs from the table

Without PATH these name the checkout's OPEN_QUESTIONS.md, which belongs to the built-in
family table (OPEN_QUESTIONS-classic.md with ``--ruleset classic``): with ``--ruleset
PATH/TO/TABLE.toml`` a path of its own is required.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from chanspec.checks.cli.options import add_command, add_common, load_table
from chanspec.checks.findings import compute as findings
from chanspec.checks.findings import questions
from chanspec.checks.findings import render as render_mod
from chanspec.checks.output import check_output_file, say, write_atomic
from chanspec.model import table as table_mod


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "questions",
        "tạo OPEN_QUESTIONS.md: các luật còn mở và các lựa chọn",
        "generate OPEN_QUESTIONS.md: the open rules and their choices",
        codes=("0   xong / ok", "1   tệp đã cũ / the file is stale (--check)"),
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--write", nargs="?", const="", default=None, metavar="PATH",
                      help="ghi lại tệp / regenerate the file (default: OPEN_QUESTIONS.md at "
                           "the top of the checkout)")
    mode.add_argument("--check", nargs="?", const="", default=None, metavar="PATH",
                      help="báo lỗi (mã 1) nếu tệp đã cũ / exit 1 if the file is stale")
    add_common(p, players=False, options=False, json=False)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.write:
        check_output_file(args.write)
    # with the checker's findings (OPEN_QUESTIONS.json) when they match the table
    table = load_table(args)
    builtin = args.ruleset in table_mod.builtin_names()
    # a built-in table's own findings (OPEN_QUESTIONS-classic.json for classic), else the
    # family's, which render uses only when they were computed for this very table
    saved = findings.load(findings.default_path(args.ruleset if builtin else "family"))
    if args.write is None and args.check is None:
        # on the terminal in the chosen language; the file itself is always bilingual
        sys.stdout.write(render_mod.render(table, saved, lang=args.lang))
        return 0
    text = render_mod.render(table, saved)
    if not (args.write or args.check) and args.ruleset not in table_mod.builtin_names():
        flag = "--write" if args.write is not None else "--check"
        print(say(args.lang,
                  f"chanspec questions: {flag} không kèm đường dẫn chỉ dành cho bảng luật có "
                  f"sẵn; bảng {args.ruleset} cần một đường dẫn riêng, ví dụ {flag} "
                  "out/OPEN_QUESTIONS.md",
                  f"chanspec questions: {flag} without a path is for the built-in table only "
                  f"(it is the checkout's OPEN_QUESTIONS.md); for the table {args.ruleset} "
                  f"give a path of its own, e.g. {flag} out/OPEN_QUESTIONS.md"),
              file=sys.stderr)
        return 2
    path = Path(args.write or args.check or questions.default_path(args.ruleset))
    if args.write is not None:
        write_atomic(path, text)
        print(say(args.lang, f"Đã ghi {path}", f"Wrote {path}"))
        return 0
    try:
        current = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        current = None
    except (OSError, UnicodeDecodeError) as exc:
        print(say(args.lang, f"Không đọc được {path}: {exc}", f"Cannot read {path}: {exc}"),
              file=sys.stderr)
        return 2
    if current == text:
        print(say(args.lang, f"{path} khớp với bảng luật.", f"{path} is up to date."))
        return 0
    if current is None:
        msg_vi, msg_en = f"Chưa có {path}.", f"{path} does not exist."
    else:
        msg_vi = f"{path} đã cũ, không khớp với bảng luật."
        msg_en = f"{path} is stale: it does not match the rule table."
    print(say(args.lang, f"{msg_vi} Chạy: chanspec questions --write",
              f"{msg_en} Run: chanspec questions --write"), file=sys.stderr)
    return 1
