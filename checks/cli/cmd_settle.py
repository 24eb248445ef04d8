"""``chanspec settle ID=VALUE``: the family decides an open question, in one command.

It edits the row of the table file in place (tomlkit keeps every comment, blank line and
the order of keys): ``status`` becomes ``settled``, ``default = "X"`` becomes
``value = "VALUE"`` on the same line, the readings stay under ``[rule.values]`` as
history, and a ``[[rule.decision]]`` records the date, the value, what the row was
(``was``, ``was_default``), the note and who decided.  ``chanspec settle --undo ID``
takes the last decision back and gives the file back byte for byte.

Before writing it says what the decision changes:

* the witness under the chosen reading (checks/findings/divergence.py, from the saved
  ``OPEN_QUESTIONS.json``): the shared steps, then what this reading does;
* the frequencies that now hold (the saved full-size games: how often the chosen value
  plays differently from the previous default; when the value is the previous default,
  every saved finding of the other questions still holds);
* a quick small-scope exploration (scale ``five``, `QUICK_DEALS` deals, every state
  checked as by ``chanspec check``) under the table before and after: a deadlock,
  invariant or contradiction the decision brings back is refused unless ``--force``
  (exit 1), one it removes is reported.

Then it regenerates OPEN_QUESTIONS.md (the checkout's one for the built-in table; the one
beside the table file for ``--ruleset PATH``).  Exit codes: 0 done, 1 refused (needs
``--force``), 2 bad input, 150 the table does not load.
"""

from __future__ import annotations

import argparse
import datetime
import difflib
import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from chanspec.checks.cli.options import add_command
from chanspec.checks.output import check_output_file, say, write_atomic

QUICK_SCALE = "five"
QUICK_DEALS = 2
QUICK_SEED = 1


class SettleError(ValueError):
    """A settle or undo that cannot be done (unknown row, wrong value, nothing to undo)."""

    def __init__(self, vi: str, en: str):
        super().__init__(en)
        self.vi, self.en = vi, en


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = add_command(
        subparsers, "settle",
        "gia đình quyết định một câu hỏi còn mở: sửa bảng luật, ghi lại quyết định",
        "the family decides an open question: edit the table, record the decision",
        epilog="Mã thoát / exit codes: 0 done, 1 refused (the decision brings back a "
               "deadlock or contradiction: --force), 2 bad input, 150 the table does not load.")
    p.add_argument("choice", nargs="?", metavar="ID=VALUE",
                   help="dòng luật và giá trị được chọn / the row and the chosen value, "
                        "e.g. stuck-discard=lift-bans")
    p.add_argument("--undo", metavar="ID", help="bỏ quyết định cuối của dòng này / take back "
                   "the row's last decision (the file comes back byte for byte)")
    p.add_argument("--note", default=None, help="ghi chú / why (kept in the table)")
    p.add_argument("--by", default=None, metavar="NAME", help="ai quyết định / who decided")
    p.add_argument("--date", default=None, metavar="YYYY-MM-DD",
                   help="ngày quyết định / date of the decision (default: today, UTC)")
    p.add_argument("--force", action="store_true",
                   help="vẫn quyết định dù máy tìm thấy bế tắc / settle even if the checker "
                        "finds a deadlock or contradiction under the chosen value")
    p.add_argument("--ruleset", default=None, metavar="PATH",
                   help="tệp bảng luật / the table file to edit (default: spec/family.toml "
                        "of this checkout)")
    p.add_argument("--questions", default=None, metavar="PATH",
                   help="OPEN_QUESTIONS.md cần ghi lại / the OPEN_QUESTIONS.md to regenerate "
                        "(default: the checkout's for the built-in table, else beside the "
                        "table file)")
    p.add_argument("--json", action="store_true", help="in kết quả dạng JSON / print JSON")
    p.add_argument("--lang", choices=("vi", "en"), default="vi",
                   help="ngôn ngữ / output language (vi: Vietnamese with English)")
    p.set_defaults(func=run)


# --------------------------------------------------------------------------- the edit


def _row(doc: Any, rid: str) -> Any:
    rows = doc.get("rule")
    for r in rows or ():
        if r.get("id") == rid:
            return r
    ids = [str(r.get("id")) for r in rows or ()]
    near = difflib.get_close_matches(rid, ids, n=1)
    hint_vi = f" Có phải {near[0]!r}?" if near else ""
    hint_en = f" Did you mean {near[0]!r}?" if near else ""
    raise SettleError(f"Bảng không có dòng luật {rid!r}.{hint_vi}",
                      f"The table has no rule row {rid!r}.{hint_en}")


def settle_text(text: str, rid: str, value: str, *, date: str, note: str | None = None,
                by: str | None = None) -> str:
    """The table file `text` with row `rid` settled on `value` (see the module doc)."""
    import tomlkit

    doc = tomlkit.parse(text)
    row = _row(doc, rid)
    status = str(row.get("status"))
    values = [str(v) for v in (row.get("values") or {})]
    if status not in ("open", "provisional"):
        raise SettleError(f"Dòng {rid!r} không còn mở (trạng thái {status}). Muốn mở lại: "
                          f"chanspec settle --undo {rid}",
                          f"Row {rid!r} is not open (status {status}). To reopen it: "
                          f"chanspec settle --undo {rid}")
    if value not in values:
        near = difflib.get_close_matches(value, values, n=1)
        raise SettleError(
            f"Dòng {rid!r} không có giá trị {value!r}; các giá trị: {', '.join(values)}"
            + (f". Có phải {near[0]!r}?" if near else ""),
            f"Row {rid!r} has no value {value!r}; its values are: {', '.join(values)}"
            + (f". Did you mean {near[0]!r}?" if near else ""))
    was_default = str(row.get("default"))
    row["status"] = "settled"
    row.value._replace("default", "value", tomlkit.string(value))
    dec = tomlkit.table()
    dec["date"] = date
    dec["value"] = value
    dec["was"] = status
    dec["was_default"] = was_default
    if note:
        dec["note"] = note
    if by:
        dec["by"] = by
    # Exactly one blank line comes with the decision, next to it (what `undo_text` takes
    # away): tomlkit puts one before it unless the row already ends with one; then the
    # blank line goes after it, before the next row.
    body = row["values"].value.body if "values" in row else []
    if body and body[-1][0] is None and str(body[-1][1].as_string()).strip() == "":
        dec.add(tomlkit.nl())
    if "decision" in row:
        row["decision"].append(dec)
    else:
        aot = tomlkit.aot()
        aot.append(dec)
        row.append("decision", aot)
    return tomlkit.dumps(doc)


HEADER_RE = re.compile(r"^\s*\[")
KEY_RE = re.compile(r"^\s*[A-Za-z0-9_-]+\s*=")


def _drop_last_decision(text: str, rid: str) -> str:
    """`text` without the last ``[[rule.decision]]`` block of row `rid` and the one blank
    line `settle_text` added beside it."""
    lines = text.split("\n")
    start = next(i for i, ln in enumerate(lines) if re.match(
        rf'^\s*id\s*=\s*"{re.escape(rid)}"\s*$', ln))
    end = next((i for i in range(start + 1, len(lines))
                if HEADER_RE.match(lines[i]) and lines[i].strip() == "[[rule]]"), len(lines))
    head = max(i for i in range(start, end) if lines[i].strip() == "[[rule.decision]]")
    stop = head + 1
    while stop < end and KEY_RE.match(lines[stop]):
        stop += 1
    if stop < len(lines) - 1 and lines[stop] == "":
        stop += 1
    elif head > 0 and lines[head - 1] == "":
        head -= 1
    return "\n".join(lines[:head] + lines[stop:])


def undo_text(text: str, rid: str) -> tuple[str, dict[str, str]]:
    """The table file `text` with the last decision of row `rid` taken back, and that
    decision."""
    import tomlkit

    doc = tomlkit.parse(text)
    row = _row(doc, rid)
    decisions = row.get("decision")
    if not decisions:
        raise SettleError(f"Dòng {rid!r} chưa có quyết định nào để bỏ.",
                          f"Row {rid!r} has no decision to take back.")
    d = {str(k): str(v) for k, v in decisions[-1].items()}
    doc = tomlkit.parse(_drop_last_decision(text, rid))
    row = _row(doc, rid)
    row["status"] = d["was"]
    row.value._replace("value", "default", tomlkit.string(d.get("was_default", d["value"])))
    return tomlkit.dumps(doc), d


# --------------------------------------------------------------------------- what changes


def _quick(table: Any, options: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The violations of a small exhaustive exploration, by what (shortest first)."""
    from chanspec.checks.chan import scale
    from chanspec.checks.explore import search as explore

    sc = scale.SCALES[QUICK_SCALE]
    rules = scale.scaled_rules(table, sc, options)
    deals = scale.deals(rules, QUICK_DEALS, QUICK_SEED)
    res = explore.explore(rules, deals, label=sc.name)
    return {v.what: {**v.as_json(), "scale": sc.name} for v in res.violations()}


def _findings(table: Any, table_path: Path, builtin: bool) -> dict[str, Any] | None:
    from chanspec.checks.findings import compute

    beside = table_path.with_name(compute.FILE_NAME)
    doc = compute.load(None if builtin or not beside.exists() else beside)
    if doc is None or doc.get("table_digest") != compute.table_digest(table):
        return None
    return doc


def changes(table: Any, rid: str, value: str, doc: dict[str, Any] | None) -> dict[str, Any]:
    """What settling `rid` on `value` changes (computed on the table before the edit)."""
    from chanspec.checks.findings import divergence, render

    row = table.rows[rid]

    def name(v: str, lang: str) -> str:  # «label» (id): the family's words, the id to type
        return f"«{row.label(v, lang)}» (`{v}`)"

    out: dict[str, Any] = {"witness": None, "frequency": None, "findings_kept": False,
                           "appears": [], "disappears": [], "messages": []}
    msg = out["messages"]
    q = (doc or {}).get("questions", {}).get(rid) if doc else None
    if doc is None:
        msg.append({"vi": "Không có kết quả kiểm tra khớp với bảng (OPEN_QUESTIONS.json): "
                          "không nói được tình huống và tần suất.",
                    "en": "No saved findings match the table (OPEN_QUESTIONS.json): no "
                          "witness or frequency to show."})
    elif q and q.get("witness"):
        pic = divergence.picture(table, q["witness"])
        br = next(b for b in pic["branches"] if b["value"] == value) if any(
            b["value"] == value for b in pic["branches"]) else None
        if br is not None:
            out["witness"] = {"scale": pic["scale"], "common": [s["code"] for s in
                                                                pic["common"]],
                              "steps": br["steps"], "end": br["end"]}
            steps_vi = "; ".join(s["vi"] for s in br["steps"]) or "không có nước nào khác"
            steps_en = "; ".join(s["en"] for s in br["steps"]) or "no other move"
            n = len(pic["common"])
            msg.append({
                "vi": f"Tình huống (một ván thu nhỏ, sau {render.number(n, 'vi')} nước chung) "
                      f"với {name(value, 'vi')}: {steps_vi} → {br['end']['vi']}.",
                "en": f"Witness (scale {pic['scale']}, after "
                      f"{' | '.join(out['witness']['common']) or 'the deal'}) under "
                      f"{name(value, 'en')}: {steps_en} → {br['end']['en']}."})
    if doc is not None:
        if value == row.default:
            out["findings_kept"] = True
            msg.append({
                "vi": f"{name(value, 'vi')} đã là mặc định: cách chơi không đổi; mọi kết quả đã "
                      "lưu của các câu hỏi khác (tình huống, tần suất) vẫn đúng.",
                "en": f"{name(value, 'en')} was already the default: play does not change; "
                      "every saved finding of the other questions (witnesses, frequencies) "
                      "still holds."})
        else:
            f = ((q or {}).get("frequency") or {}).get(value)
            old = row.default or ""
            if f:
                out["frequency"] = f
                changed = f.get("changed_per_10000")
                hands_vi, hands_en = render.number(f["hands"], "vi"), render.number(f["hands"],
                                                                                     "en")
                # "changes the result" in the one wording of the findings: placebo beside it
                msg.append({
                    "vi": f"So với mặc định cũ {name(old, 'vi')}, {name(value, 'vi')} đổi cách "
                          f"chơi trong {render.whole(f['per_10000'], 'vi')} / 10.000 ván"
                          + ("" if changed is None else
                             f", {render.changed_text(f, 'vi')} / 10.000 ván")
                          + f" ({render.number(f['diverged'], 'vi')} trên {hands_vi} ván đủ cỡ "
                          f"chơi thử, {render.who(f, 'vi')}).",
                    "en": f"Against the previous default {name(old, 'en')}, {name(value, 'en')} "
                          f"changes play in {render.whole(f['per_10000'], 'en')} per 10,000 "
                          "hands"
                          + ("" if changed is None else
                             f" and {render.changed_text(f, 'en')} per 10,000")
                          + f" ({render.number(f['diverged'], 'en')} of {hands_en} full-size "
                          f"hands, {render.who(f, 'en')}, seed {f['seed']})."})
            msg.append({
                "vi": "Các kết quả đã lưu được tính với mặc định cũ: chạy `chanspec check` để "
                      "tính lại; OPEN_QUESTIONS.md tạm chỉ có câu hỏi và lựa chọn.",
                "en": "The saved findings were computed under the previous default: run "
                      "`chanspec check` to recompute them; until then OPEN_QUESTIONS.md shows "
                      "the questions and choices only."})
    return out


def _what(v: Mapping[str, Any], lang: str) -> str:
    """A finding of the explorer (a deadlock…) in words."""
    from chanspec.checks.findings import render

    vi, en = render.STUCK_TEXT.get(str(v.get("what")), (str(v.get("kind")), str(v.get("kind"))))
    return en if lang == "en" else vi


def _compare(before: dict[str, Any], after: dict[str, Any], out: dict[str, Any]) -> None:
    out["appears"] = [after[w] for w in sorted(set(after) - set(before))]
    out["disappears"] = [before[w] for w in sorted(set(before) - set(after))]
    for v in out["appears"]:
        out["messages"].append({
            "vi": f"CẢNH BÁO: quyết định này làm ván có thể bị kẹt ({_what(v, 'vi')}): một ván "
                  f"thu nhỏ kẹt sau {v['depth']} bước: {v['vi']}.",
            "en": f"WARNING: this decision brings in a {v['kind']} ({v['what']}) at scale "
                  f"{v['scale']} after {v['depth']} steps: {v['en']} "
                  f"({' | '.join(v['path'])})."})
    for v in out["disappears"]:
        out["messages"].append({
            "vi": f"Quyết định này bỏ được một chỗ ván bị kẹt ({_what(v, 'vi')}).",
            "en": f"This decision removes the {v['kind']} ({v['what']}) at scale "
                  f"{v['scale']}."})


# --------------------------------------------------------------------------- command


def _target(args: argparse.Namespace) -> tuple[Path, bool]:
    """The table file to edit, and whether it is the checkout's built-in one."""
    from chanspec.checks.findings import questions
    from chanspec.model import table as shared_table

    if args.ruleset and args.ruleset not in shared_table.builtin_names():
        return Path(args.ruleset), False
    name = args.ruleset or "family"
    p = shared_table.builtin_path(name)
    root = questions.default_path().parent
    if not questions.default_path().is_absolute() or p.resolve().parent != (root / "spec"):
        raise SettleError(
            "Không chạy từ một bản checkout: bảng có sẵn nằm trong gói đã cài. Chỉ rõ tệp "
            "cần sửa bằng --ruleset ĐƯỜNG-DẪN.",
            "Not running from a checkout: the built-in table is inside the installed "
            "package. Name the table file to edit with --ruleset PATH.")
    return p, True


def _questions_path(args: argparse.Namespace, table_path: Path, builtin: bool) -> Path:
    from chanspec.checks.findings import questions

    if args.questions:
        return Path(args.questions)
    return questions.default_path() if builtin else table_path.with_name(questions.FILE_NAME)


def run(args: argparse.Namespace) -> int:
    from chanspec.model.chan import table as table_mod

    lang = args.lang
    try:
        if bool(args.undo) == bool(args.choice):
            raise SettleError("Cần đúng một trong hai: ID=GIÁ-TRỊ hoặc --undo ID.",
                              "Give exactly one of ID=VALUE or --undo ID.")
        path, builtin = _target(args)
        # both files it writes are checked before anything is written (a bad --questions
        # must not leave the table settled and its questions stale)
        check_output_file(path)
        check_output_file(_questions_path(args, path, builtin))
        try:
            before_text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SettleError(f"Không đọc được {path}: {exc.strerror}",
                              f"Cannot read {path}: {exc.strerror}") from None
        table = table_mod.load_text(before_text, str(path))
        if args.undo:
            new_text, dec = undo_text(before_text, args.undo)
            report: dict[str, Any] = {"action": "undo", "id": args.undo, "decision": dec,
                                      "messages": [{
                "vi": f"Đã bỏ quyết định {dec['date']} ({args.undo}={dec['value']}); dòng "
                      f"trở lại {dec['was']}, mặc định `{dec.get('was_default')}`.",
                "en": f"Took back the decision of {dec['date']} ({args.undo}={dec['value']}); "
                      f"the row is {dec['was']} again, default `{dec.get('was_default')}`."}]}
            code = 0
        else:
            rid, sep, value = str(args.choice).partition("=")
            rid, value = rid.strip(), value.strip()
            if not sep or not rid or not value:
                raise SettleError(f"{args.choice!r} phải có dạng ID=GIÁ-TRỊ, ví dụ "
                                  "stuck-discard=lift-bans",
                                  f"{args.choice!r} must look like ID=VALUE, e.g. "
                                  "stuck-discard=lift-bans")
            date = args.date or datetime.datetime.now(datetime.UTC).date().isoformat()
            if args.date:
                try:
                    datetime.date.fromisoformat(args.date)
                except ValueError:
                    raise SettleError(f"--date {args.date!r}: cần dạng YYYY-MM-DD",
                                      f"--date {args.date!r}: expected YYYY-MM-DD") from None
            new_text = settle_text(before_text, rid, value, date=date, note=args.note,
                                   by=args.by)
            report = {"action": "settle", "id": rid, "value": value,
                      "was": table.rows[rid].status, "was_default": table.rows[rid].default,
                      "date": date, "note": args.note, "by": args.by, "forced": args.force}
            report.update(changes(table, rid, value, _findings(table, path, builtin)))
            _compare(_quick(table, {}), _quick(table, {rid: value}), report)
            code = 0
            if report["appears"] and not args.force:
                code = 1
                report["messages"].append({
                    "vi": "Chưa ghi gì. Nếu gia đình vẫn chọn như vậy, chạy lại với --force.",
                    "en": "Nothing was written. If the family still chooses this, run again "
                          "with --force."})
    except SettleError as exc:
        if args.json:
            print(json.dumps({"error": {"vi": exc.vi, "en": exc.en}}, ensure_ascii=False))
        else:
            print(say(lang, exc.vi, exc.en), file=sys.stderr)
        return 2
    report["table"] = str(path)
    if code == 0:
        new_table = table_mod.load_text(new_text, str(path))  # TableError: exit 150
        write_atomic(path, new_text)
        qpath = _questions_path(args, path, builtin)
        _write_questions(new_table, path, builtin, qpath)
        report["questions_file"] = str(qpath)
        report["messages"].append({"vi": f"Đã ghi {path} và {qpath}.",
                                   "en": f"Wrote {path} and {qpath}."})
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1, default=str))
    else:
        if report["action"] == "settle":
            head_vi, head_en = ("Quyết định", "Decision") if code == 0 else (
                "Quyết định chưa ghi", "Decision not written")
            print(say(lang, f"{head_vi}: {report['id']} = {report['value']} (trước đây "
                      f"{report['was']}, mặc định `{report['was_default']}`), ngày "
                      f"{report['date']}" + (f", bởi {args.by}" if args.by else ""),
                      f"{head_en}: {report['id']} = {report['value']} (was {report['was']}, "
                      f"default `{report['was_default']}`), on {report['date']}"
                      + (f", by {args.by}" if args.by else "")))
        msgs = report["messages"]
        for k, m in enumerate(msgs):  # a refusal's last line (what to do) on stderr
            last = code and k == len(msgs) - 1
            print(say(lang, m["vi"], m["en"]), file=sys.stderr if last else sys.stdout,
                  flush=True)
    return code


def _write_questions(table: Any, path: Path, builtin: bool, qpath: Path) -> None:
    from chanspec.checks.findings import render as render_mod

    doc = _findings(table, path, builtin)
    write_atomic(qpath, render_mod.render(table, doc))
