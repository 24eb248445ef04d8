"""``chanspec check`` for a kind checked through the protocol alone (one whose `Kind`
gives `scales`: Tấn today): the exhaustive searches of its scaled-down games and the
findings on its open questions (`chanspec.checks.findings.protocol_findings`).

Prints in Vietnamese with English beside it (``--lang``), or the report as JSON
(``--json``); writes ``report.txt`` and ``findings.json`` into ``--out``, and
``OPEN_QUESTIONS-<id>.md`` and ``.json`` atomically at the top of the checkout (not with
``--no-write``, which only says whether they are stale, nor with ``--quick``,
``--option``, ``--preset`` or ``--players``, whose findings are not the committed ones).

Exit codes as for Chắn: 0 nothing found, 11 deadlock, 12 invariant or contradiction,
13 endless play (the worst, in the order 12, 11, 13), found under the readings in force
(the table's defaults, or ``--option``/``--preset``); what the other readings give is in
the findings.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from chanspec.checks.cli.options import options_of, players_of
from chanspec.checks.explore import protocol_search as ps
from chanspec.checks.findings import protocol_findings as pf
from chanspec.checks.output import (
    check_output_file,
    count,
    prepare_output_dir,
    say,
    write_atomic,
)

VERDICT = {0: ("Không tìm thấy lỗi.", "No error has been found."),
           11: ("Lỗi: bế tắc (deadlock).", "Error: Deadlock reached."),
           12: ("Lỗi: vi phạm bất biến hoặc mâu thuẫn.",
                "Error: Invariant violated or contradiction."),
           13: ("Lỗi: ván có thể kéo dài mãi.", "Error: endless play.")}


def run(args: argparse.Namespace, table: Any, kind: Any) -> int:
    t0 = time.perf_counter()
    opts = options_of(args, table)
    if args.players is not None:
        players_of(table, [args.players])
    out = prepare_output_dir(args.out)
    md_path, json_path = pf.md_path(table.id), pf.json_path(table.id)
    writes = not (args.no_write or args.quick or opts or args.players is not None)
    if writes:
        check_output_file(md_path)
        check_output_file(json_path)
    text: list[str] = []

    def emit(vi: str, en: str) -> None:
        if vi.startswith("\n"):
            text.append("")
            if not args.json:
                print()
            vi, en = vi.lstrip("\n"), en.lstrip("\n")
        line = say(args.lang, vi, en)
        text.append(line)
        if not args.json:
            print(line, flush=True)

    emit(f"chanspec check — bảng luật {table.id} ({table.title_vi}), loại {kind.title_vi}",
         f"chanspec check — rule table {table.id} ({table.title_en}), kind {kind.title_en}")
    if opts:
        emit(f"Tùy chọn: {opts}", f"Options: {opts}")
    scales = [s for s in kind.scales(table)
              if args.players is None or s.players == args.players]
    if not scales:
        emit(f"Không có cấu hình thu nhỏ nào cho {args.players} người",
             f"No scaled-down game has {args.players} players")
    quiet = args.quiet or args.json
    doc = pf.compute(table, kind, quick=args.quick, say=(lambda s: None) if quiet else
                     (lambda s: print(f"  {s}", file=sys.stderr, flush=True)))
    found: list[ps.Violation] = []
    report: dict[str, Any] = {"ruleset": table.id, "kind": kind.name, "options": opts,
                              "quick": args.quick, "explorations": []}
    for sc in scales:
        n = sc.quick_deals if args.quick else sc.deal_count
        if opts:
            ex, vs = pf.exploration(kind, table, sc, "options", opts, n, ps.CAP)
        else:
            ex = next(e for e in doc["explorations"] if e["scale"] == sc.name
                      and e["reading"] == "default")
            vs = [ps.Violation(v["kind"], v["what"], v["vi"], v["en"], tuple(v["rules"]),
                               v["deal"], tuple(v["path"])) for v in ex["violations"]]
        found += vs
        report["explorations"].append(ex)
        emit(f"\n== Cấu hình {sc.name}: {sc.vi}; {n} ván chia (hạt giống "
             f"{', '.join(map(str, ex['seeds']))})",
             f"\n== Scale {sc.name}: {sc.en}; {count(n, 'deal')} (seeds "
             f"{', '.join(map(str, ex['seeds']))})")
        emit(f"Giữ lại: {sc.keeps[0]}. Bỏ đi: {sc.drops[0]}.",
             f"Keeps: {sc.keeps[1]}. Drops: {sc.drops[1]}.")
        done = ("xong", "complete") if ex["complete"] else (
            f"DỪNG ở giới hạn {ps.CAP:,} trạng thái/ván", f"STOPPED at the {ps.CAP:,} "
            "states/deal cap")
        emit(f"Kiểm tra mô hình {done[0]}.", f"Model checking {done[1]}.")
        emit(f"{ex['generated']:,} trạng thái sinh ra, {ex['distinct']:,} trạng thái phân biệt, "
             f"hàng đợi dài nhất {ex['max_queue']:,}, độ sâu {ex['depth']}.",
             f"{ex['generated']:,} states generated, {ex['distinct']:,} distinct states found, "
             f"the longest queue {ex['max_queue']:,}, depth {ex['depth']}.")
        ends = ", ".join(f"{k} {v:,}" for k, v in ex["outcomes"].items())
        emit(f"Kết thúc: {ends}.", f"Ends: {ends}.")
        for v in ex["violations"]:
            emit(f"Lỗi: {pf.KIND_VI[v['kind']]} ({v['what']}) sau {v['depth']} nước — {v['vi']}",
                 f"Error: {v['kind']} ({v['what']}) after {count(v['depth'], 'move')} — "
                 f"{v['en']}")
            emit(f"  {v['deal_text'][0]}", f"  {v['deal_text'][1]}")
            for i, (vi, en) in enumerate(v["told"], 1):
                emit(f"  {i}. {vi}", f"  {i}. {en}")
    code = ps.exit_code(found)
    emit("\n== Câu hỏi còn mở: nơi các cách hiểu tách ra (số nước ngắn nhất)",
         "\n== Open questions: where the readings part (the shortest play)")
    for rid, q in doc["questions"].items():
        for sname, per in q["scales"].items():
            if args.players is not None and sname not in {s.name for s in scales}:
                continue
            for val, f in per.items():
                p = f["parting"]
                if p is None:
                    emit(f"  {rid}: {q['default']} / {val} ({sname}): không khác nhau ở cấu "
                         "hình này",
                         f"  {rid}: {q['default']} / {val} ({sname}): no difference at this "
                         "scale")
                else:
                    emit(f"  {rid}: {q['default']} ≠ {val} sau {len(p['path'])} nước ({sname}, "
                         f"ván {p['deal']})",
                         f"  {rid}: {q['default']} ≠ {val} after "
                         f"{count(len(p['path']), 'move')} ({sname}, deal {p['deal']})")
    md = pf.render(table, doc)
    if writes:
        write_atomic(json_path, pf.dumps(doc))
        write_atomic(md_path, md)
        emit(f"Đã ghi {md_path} và {json_path.name}", f"Wrote {md_path} and {json_path.name}")
    elif args.no_write and not (args.quick or opts or args.players is not None):
        current = md_path.read_text(encoding="utf-8") if md_path.exists() else None
        if current != md:
            emit(f"{md_path} đã cũ. Chạy: chanspec check --ruleset {table.id}",
                 f"{md_path} is stale. Run: chanspec check --ruleset {table.id}")
        else:
            emit(f"{md_path} đúng bằng kết quả vừa tính", f"{md_path} equals this run's")
    else:
        emit(f"Không ghi {md_path.name}: các phát hiện trong tệp ấy được tính đủ và theo mặc "
             "định (không --quick, --option, --preset, --players)",
             f"{md_path.name} not written: its findings are computed in full under the "
             "defaults (no --quick, --option, --preset, --players)")
    report["questions"] = doc["questions"]
    report["exit_code"] = code
    report["seconds"] = round(time.perf_counter() - t0, 1)
    emit(f"\n{VERDICT[code][0]} Mã thoát {code}. Tổng thời gian {report['seconds']} giây.",
         f"\n{VERDICT[code][1]} Exit code {code}. Total {report['seconds']}s.")
    write_atomic(out / "findings.json", json.dumps(report, ensure_ascii=False, indent=1) + "\n")
    write_atomic(out / "report.txt", "\n".join(text) + "\n")
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    return code
