"""``chanspec report --out DIR``: the family's static site (see checks/report/site.py).

* ``--svg PATH`` (repeatable): diagrams to embed, copied into the site;
* ``--findings FILE.json``: the checker's findings, a JSON object mapping an open or
  provisional row id to a finding (the fields checks/report/site.py documents: ``steps_vi``/
  ``steps_en`` or structured ``scenarios``, ``frequency_vi``/``frequency_en``,
  ``effects`` {value: {vi, en}}, ``source``).

Without ``--findings`` the report uses the checker's saved results, OPEN_QUESTIONS.json
(the very data OPEN_QUESTIONS.md is rendered from), when they match the table.  Without
``--svg`` it takes every SVG that ``chanspec check`` wrote to ``--from`` (default
out/check); when there are none it draws the turn and claim flow from the table itself.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from chanspec.checks.cli.options import add_command, add_common, load_table
from chanspec.checks.findings import compute as findings_mod
from chanspec.checks.output import say
from chanspec.checks.report import diagrams
from chanspec.checks.report import site as report


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
    p.add_argument("--from", dest="from_dir", default="out/check", metavar="DIR",
                   help="thư mục kết quả của `chanspec check` (mặc định out/check) / where "
                        "`chanspec check` wrote its pictures (default out/check)")
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
    else:
        findings = findings_mod.report_findings(findings_mod.load(), table) or None
        if findings is None:
            print(say(args.lang, "Chưa có kết quả kiểm tra khớp với bảng luật: trang câu hỏi "
                      "sẽ chỉ có câu hỏi và lựa chọn. Chạy `chanspec check` để tính.",
                      "No checker results match the table: the questions page will show the "
                      "questions and options only. Run `chanspec check` to compute them."),
                  file=sys.stderr)
    missing = [s for s in args.svg if not Path(s).is_file()]
    if missing:
        print(say(args.lang, f"Không thấy tệp sơ đồ: {', '.join(missing)}",
                  f"No such diagram file: {', '.join(missing)}"), file=sys.stderr)
        return 2
    try:
        with tempfile.TemporaryDirectory() as tmp:
            svgs: list[Any] = list(args.svg) or _checker_svgs(
                Path(args.from_dir), Path(tmp), table, args.lang)
            index = report.build_report(args.out, table=table, findings=findings, svgs=svgs)
    except ValueError as exc:
        print(say(args.lang, f"Kết quả kiểm tra không hợp lệ: {exc}", f"Bad findings: {exc}"),
              file=sys.stderr)
        return 2
    print(say(args.lang, f"Đã tạo trang web. Mở tệp này bằng trình duyệt: {index}",
              f"Site written. Open this file in a browser: {index}"))
    return 0


_TITLES = {
    "flow": ("Luồng lượt đi và quyền nhận quân (vẽ từ bảng luật)",
             "The turn and claim flow (drawn from the rule table)"),
    "states": ("Đồ thị trạng thái của một cấu hình thu nhỏ", "Explored state graph of a small "
               "configuration"),
    "witness": ("Tình huống cho câu hỏi", "Witness scenario for question"),
    "quotient": ("Đồ thị thương: các trạng thái gộp theo giai đoạn, nguồn quân, người được "
                 "chờ và lệnh cấm", "Quotient graph: states grouped by phase, card source, "
                 "awaited seats and bans"),
    "diverge": ("Nơi các cách hiểu tách ra", "Where the readings part"),
}


def _checker_svgs(src: Path, tmp: Path, table: Any, lang: str) -> list[dict[str, str]]:
    """The checker's pictures, titled; or, when there are none, the flow diagram drawn
    from the table now (needs Graphviz's `dot`)."""
    found = sorted(src.glob("*.svg")) if src.is_dir() else []
    if not found:
        if not diagrams.have_dot():
            print(say(lang, "Không có `dot` (Graphviz) để vẽ sơ đồ: cài bằng "
                      "`apt-get install graphviz`.", "Graphviz's `dot` is missing, so no "
                      "diagram is drawn: install it with `apt-get install graphviz`."),
                  file=sys.stderr)
            return []
        found = diagrams.write(diagrams.flow_dot(table), tmp / "flow.dot", ("svg",))
        found = [p for p in found if p.suffix == ".svg"]
    descs = _descriptions(src, table)
    items = []
    for p in found:
        kind, _, rest = p.stem.partition("-")
        vi, en = _TITLES.get(kind, (p.stem, p.stem))
        if rest:
            vi, en = f"{vi}: {rest}", f"{en}: {rest}"
        item = {"path": str(p), "title_vi": vi, "title_en": en}
        if p.stem in descs:
            item["desc"] = descs[p.stem]
        items.append(item)
    return items


def _descriptions(src: Path, table: Any) -> dict[str, str]:
    """Text alternatives drawn from the graphs themselves where the checker kept them
    (quotient graphs in findings.json; the flow from the table); the report reads the
    others from the SVG."""
    out = {"flow": diagrams.graph_text(diagrams.flow_graph(table), "flow")}
    try:
        rep = json.loads((src / "findings.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return out
    for q in rep.get("quotients") or []:
        if isinstance(q, dict) and "scale" in q and "text" in q:
            out[f"quotient-{q['scale']}"] = str(q["text"])
    return out
