"""``chanspec replay LOG``: check a game log step by step against the reference machine.

LOG is an NDJSON game log (format in vectors/README.md), a state file written by
``State.to_json()``, or an ITF trace written by chanspec; ``-`` reads standard input.

Exit codes: 0 the log conforms and the hand is over, 1 it diverges from the rules (the
first divergence is reported: line, step, what the log did, what the rules allow there
and the rule ids that forbid it), 2 the log is malformed (line and field), 4 every line
conforms but the log stops before the hand is over (unfinished).
"""

from __future__ import annotations

import argparse
import json
import sys

from chanspec.checks.cli.options import add_command, add_log_ruleset, log_table
from chanspec.checks.conform import itf, itf_view, logs, replay
from chanspec.checks.output import check_output_file, count, pick, say
from chanspec.model import kinds
from chanspec.model.chan import cards

EXIT_CONFORMING, EXIT_DIVERGENCE, EXIT_MALFORMED = 0, 1, 2


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "replay",
        "kiểm tra một nhật ký ván bài từng bước theo máy tham chiếu",
        "check a game log step by step against the reference machine",
        epilog="Định dạng / format: vectors/README.md, vectors/log.schema.json.",
        codes=("0   phù hợp, ván đã xong / conforming, the hand is over",
               "1   lệch luật / divergence", "4   phù hợp nhưng ván chưa xong / conforming "
               "but unfinished (the log stops before the end)"),
    )
    p.add_argument("log", metavar="LOG",
                   help="nhật ký NDJSON, tệp to_json hoặc vết ITF; '-' là stdin / an NDJSON "
                        "log, a State.to_json() file or an ITF trace; '-' reads stdin")
    p.add_argument("--itf", metavar="OUT",
                   help="ghi các bước đã phát lại thành vết ITF / also write the replayed "
                        "steps as an ITF trace")
    p.add_argument("--json", action="store_true", help="in kết quả dạng JSON / print JSON")
    p.add_argument("--lang", choices=("vi", "en"), default="vi",
                   help="ngôn ngữ / output language (vi: Vietnamese with English, en)")
    add_log_ruleset(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.itf is not None:
        check_output_file(args.itf)
    table = log_table(args)
    if args.log == "-":
        result = replay.replay_text(sys.stdin.read(), "<stdin>", table)
    else:
        result = replay.replay_path(args.log, table)
    if args.itf and result.state is not None:
        st = result.state
        assert st.deal is not None
        about = f"replay of {result.source}"
        itf.write(args.itf, itf_view.trace(kinds.of(st.rules.table), st.rules, st.deal,
                                           st.history, description=about)
                  if result.own_format else
                  itf.trace(st.rules, st.deal, st.history, description=about))
    if args.json:
        print(json.dumps(result.as_json(), ensure_ascii=False))
    else:
        print(render(result, args.lang))
    return result.exit_code


def _rule_label(rid: str, result: replay.ReplayResult) -> str:
    st = result.state
    row = st.rules.table.rows.get(rid) if st is not None else None
    return f"{rid} ({row.section})" if row is not None else rid


def render(result: replay.ReplayResult, lang: str) -> str:
    out: list[str] = []
    if result.status == "malformed":
        e = result.error
        assert e is not None
        where_vi = f"dòng {e.line}" + (f", trường {e.field!r}" if e.field else "")
        where_en = f"line {e.line}" + (f", field {e.field!r}" if e.field else "")
        out.append(say(lang, f"Nhật ký sai định dạng: {e.source}, {where_vi}",
                       f"Malformed log: {e.source}, {where_en}"))
        out.append(f"  {e.message}")
        if e.hint:
            # the hint is English (as in every LogError): one labelled line, not a
            # Vietnamese line carrying English
            out.append(f"  {pick(lang, 'Gợi ý', 'Hint')}: {e.hint}")
        return "\n".join(out)
    st = result.state
    assert st is not None
    if result.status == "unfinished":
        fin = result.final() or {}
        seats = ", ".join(map(str, fin.get("pending", [])))
        out.append(say(lang, f"Ván CHƯA XONG: nhật ký dừng khi ván chưa kết thúc "
                       f"({result.steps} hành động, {result.lines} dòng, {result.fmt}), "
                       f"đang chờ người {seats}. Các dòng đã có đều phù hợp luật.",
                       f"UNFINISHED hand: the log stops before the hand is over "
                       f"({count(result.steps, 'action')}, {count(result.lines, 'line')}, "
                       f"{result.fmt}), "
                       f"waiting for seat(s) {seats}. Every line so far conforms."))
        out.append(say(lang, "Mã thoát 4: nhật ký bị cắt hoặc chưa ghi hết ván.",
                       "Exit code 4: the log is truncated or does not record the whole hand.",
                       "  "))
        return "\n".join(out)
    if result.status == "conforming":
        fin = result.final() or {}
        if fin.get("terminal"):
            o = fin["outcome"]
            if result.own_format:  # a kind with its own log format tells its own end
                end_vi, end_en = kinds.of(st.rules.table).log.say_end(st)
            elif o["result"] == "win":
                card = "" if o.get("card") is None else f" {cards.name(cards.parse(o['card']))}"
                end_vi = f"người {o['winner']} ù ({o['kind']}){card}"
                end_en = f"seat {o['winner']} won ({o['kind']}){card}"
                d = o.get("declaration")
                if d is not None:  # the winner's declaration (xướng), judged
                    rows = ", ".join(d["rules"])
                    end_vi += f", xướng {d['judgement']} ({d['consequence']}; {rows})"
                    end_en += f", declared: {d['judgement']} ({d['consequence']}; {rows})"
            else:
                end_vi, end_en = "ván hòa (hết nọc)", "the hand was drawn (the nọc ran out)"
        else:
            end_vi, end_en = ("ván bị kẹt (không ai đi được)",
                              "the hand is stuck (nobody has a legal move)")
        out.append(say(lang, f"Phù hợp luật: {result.steps} hành động, {result.lines} dòng "
                       f"({result.fmt}); {end_vi}.",
                       f"Conforming: {count(result.steps, 'action')}, "
                       f"{count(result.lines, 'line')} ({result.fmt}); {end_en}."))
        return "\n".join(out)
    d = result.divergence
    assert d is not None
    vi_l, en_l = d.said if d.said[0] else logs.say_line(d.logged)
    out.append(say(lang, f"Lệch luật ở dòng {d.line} (sau {d.step} hành động): {vi_l}",
                   f"Divergence at line {d.line} (after {count(d.step, 'action')}): {en_l}"))
    out.append(f"  {json.dumps(d.logged, ensure_ascii=False)}")
    out.append(say(lang, f"Lý do: {d.vi}", f"Why: {d.en}", "  "))
    if d.rules:
        labels = ", ".join(_rule_label(r, result) for r in d.rules)
        out.append(say(lang, f"Luật liên quan: {labels}", f"Rules: {labels}", "  "))
    if d.expected is not None:
        out.append(say(lang, "Máy tham chiếu sinh ra:", "The reference machine produced:", "  ")
                   + f" {json.dumps(d.expected, ensure_ascii=False)}")
    if d.pending:
        seats = ", ".join(map(str, d.pending))
        out.append(say(lang, f"Đang chờ: người {seats}", f"Pending: seat(s) {seats}", "  "))
    for s, acts in d.legal.items():
        shown = ", ".join(acts) if acts else "—"
        out.append(say(lang, f"Người {s} được phép: {shown}", f"Seat {s} may: {shown}", "  "))
    return "\n".join(out)
