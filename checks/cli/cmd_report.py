"""``chanspec report --out DIR``: the family's static site (see checks/report/site.py).

* ``--svg PATH`` (repeatable): diagrams to embed, copied into the site;
* ``--findings FILE.json``: the checker's findings, a JSON object mapping an open or
  provisional row id to a finding (the fields checks/report/site.py documents: ``steps_vi``/
  ``steps_en`` or structured ``scenarios``, ``frequency_vi``/``frequency_en``,
  ``effects`` {value: {vi, en}}, ``source``).

Without ``--findings`` the report uses the checker's saved results, OPEN_QUESTIONS.json
(the very data OPEN_QUESTIONS.md is rendered from), when they match the table.  Without
``--svg`` it takes every SVG that ``chanspec check`` wrote to ``--from`` (default
out/check), draws those it saved only as ``.dot`` (a check run without a renderer), and
when there are none draws the turn and claim flow from the table itself.
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
from chanspec.checks.findings import render as render_mod
from chanspec.checks.output import prepare_output_dir, say
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
    p.add_argument("--cuoc-hands", type=int, default=200, metavar="N",
                   help="trang cước: số ván ngẫu nhiên để đếm tần suất (mặc định 200; 0: không "
                        "có trang cước) / the cước page: seeded hands played for its "
                        "frequencies (default 200; 0: no cước page)")
    add_common(p, players=False, options=False, json=False)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    prepare_output_dir(args.out)
    table = load_table(args)
    findings = None
    clause_docs: list[dict[str, Any]] = []
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
        doc = findings_mod.load()
        findings = render_mod.report_findings(doc, table) or None
        if findings is not None and doc is not None:
            clause_docs = list(doc.get("clauses") or [])
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
    if args.cuoc_hands < 0:
        print(say(args.lang, "--cuoc-hands phải ≥ 0", "--cuoc-hands must be 0 or more"),
              file=sys.stderr)
        return 2
    cuoc_data = None
    if args.cuoc_hands:
        from chanspec.checks.report import cuoc_page  # Z3 and random play: only when asked
        from chanspec.model.chan.table import load as load_builtin


        print(say(args.lang, f"Trang cước: tìm ví dụ và chơi {args.cuoc_hands} ván…",
                  f"The cước page: finding examples and playing {args.cuoc_hands} hands…"),
              file=sys.stderr)
        cuoc_data = cuoc_page.compute(load_builtin("classic"), hands=args.cuoc_hands)
    extra = [] if cuoc_data is None else [cuoc_page.page(cuoc_data)]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            svgs: list[Any] = list(args.svg) or _checker_svgs(
                Path(args.from_dir), Path(tmp), table, args.lang)
            index = report.build_report(args.out, table=table, findings=findings, svgs=svgs,
                                        clauses=clause_docs,
                                        extra_pages=extra)
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
    """The checker's pictures, titled.  A picture `chanspec check` saved only as DOT (it
    had no renderer) is drawn now from its .dot file, without rerunning the check; when
    the checker left nothing, the flow diagram is drawn from the table.  Drawing needs a
    renderer (graphviz-pure or Graphviz's dot)."""
    found = sorted(src.glob("*.svg")) if src.is_dir() else []
    undrawn = sorted(p for p in src.glob("*.dot") if not p.with_suffix(".svg").is_file()) \
        if src.is_dir() else []
    if (undrawn or not found) and not diagrams.have_dot():
        vi, en = diagrams.HOW_TO_GET_DOT
        n = len(undrawn) or 1
        print(say(lang, f"{n} sơ đồ không vẽ được. {vi}", f"{n} diagram(s) not drawn. {en}"),
              file=sys.stderr)
        return _titled(found, src, table)
    for dot in undrawn:
        try:
            found.append(diagrams.render(dot, tmp / f"{dot.stem}.svg"))
        except diagrams.RenderError as exc:
            print(say(lang, f"Không vẽ được {dot}: {exc}", f"Could not draw {dot}: {exc}"),
                  file=sys.stderr)
    if not found:
        try:
            found = diagrams.write(diagrams.flow_dot(table), tmp / "flow.dot", ("svg",))
        except diagrams.RenderError as exc:
            print(say(lang, f"Không vẽ được sơ đồ luồng: {exc}",
                      f"Could not draw the flow diagram: {exc}"), file=sys.stderr)
        found = [p for p in found if p.suffix == ".svg"]
    return _titled(sorted(found, key=lambda p: p.name), src, table)


def _titled(found: list[Path], src: Path, table: Any) -> list[dict[str, str]]:
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
