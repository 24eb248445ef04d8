"""``chanspec report --out DIR``: the family's static site (see checks/report.py).

* ``--svg PATH`` (repeatable): diagrams to embed, copied into the site;
* ``--findings FILE.json``: the checker's findings, a JSON object mapping an open or
  provisional row id to a finding (the fields checks/report.py documents: ``steps_vi``/
  ``steps_en`` or structured ``scenarios``, ``frequency_vi``/``frequency_en``,
  ``effects`` {value: {vi, en}}, ``source``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import report
from .common import add_command, add_common, load_table, say


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "report",
        "tạo trang web tĩnh cho gia đình: luật, câu hỏi còn mở, sơ đồ, thử bài ù",
        "build the family's static site: rulebook, open questions, diagrams, hand explorer",
    )
    p.add_argument("--out", required=True, metavar="DIR",
                   help="thư mục ghi trang web / folder to write the site into")
    p.add_argument("--svg", action="append", default=[], metavar="PATH",
                   help="sơ đồ SVG đưa vào trang, lặp lại được / an SVG diagram to include "
                        "(repeatable)")
    p.add_argument("--findings", metavar="FILE.json",
                   help="kết quả của bộ kiểm tra (JSON) / the checker's findings as JSON: "
                        "{row id: finding}")
    add_common(p, players=False, options=False, json=False)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    table = load_table(args)
    findings = None
    if args.findings:
        try:
            findings = json.loads(Path(args.findings).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            print(say(args.lang, f"Không đọc được {args.findings}: {exc}",
                      f"Cannot read {args.findings}: {exc}"), file=sys.stderr)
            return 2
        if not isinstance(findings, dict):
            print(say(args.lang, f"{args.findings} phải là một đối tượng JSON {{mã luật: ...}}",
                      f"{args.findings} must be a JSON object {{row id: ...}}"), file=sys.stderr)
            return 2
    missing = [s for s in args.svg if not Path(s).is_file()]
    if missing:
        print(say(args.lang, f"Không thấy tệp sơ đồ: {', '.join(missing)}",
                  f"No such diagram file: {', '.join(missing)}"), file=sys.stderr)
        return 2
    try:
        index = report.build_report(args.out, table=table, findings=findings, svgs=args.svg)
    except ValueError as exc:
        print(say(args.lang, f"Kết quả kiểm tra không hợp lệ: {exc}", f"Bad findings: {exc}"),
              file=sys.stderr)
        return 2
    print(say(args.lang, f"Đã tạo trang web. Mở tệp này bằng trình duyệt: {index}",
              f"Site written. Open this file in a browser: {index}"))
    return 0
