"""OPEN_QUESTIONS.md and the report's findings, in the family's words.

The saved findings (checks/findings/compute.py, ``OPEN_QUESTIONS.json``) are machine
data: row and value ids, action codes, seeds.  This module tells them to the family: a
question by its row's short title (``title_vi``/``title_en`` in the table), a reading by
its value's short label (``label_vi``/``label_en``), kinds of action as words (đánh, ăn,
Chíu…), numbers in the Vietnamese format (7.153 / 10.000 ván).  Ids appear only in one
small footnote per question (``<sub>`` in Markdown), for whoever types a command.

`render(table, doc, lang)` gives the whole OPEN_QUESTIONS.md: ``vi`` (the committed file:
Vietnamese with the English beside it), ``en`` (English only) or ``vi-only`` (the
Vietnamese alone: what tests/test_prose.py scans for machine words).
`report_findings(doc, table)` gives the same findings for ``chanspec report``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chanspec.checks.chan import scale
from chanspec.checks.explore.invariants import STUCK_BANS, STUCK_EMPTY
from chanspec.checks.findings import clauses, compute, divergence, questions, witness
from chanspec.model.chan import cards
from chanspec.model.chan.table import Table
from chanspec.model.chan.vocab import role_row
from chanspec.model.table import Row

# the kind of the first action in which a reading changed what may happen
FIRST_KIND = {
    "discard": ("đánh", "a discard"), "eat": ("ăn", "an eat"), "chiu": ("Chíu", "a chíu"),
    "return": ("trả cửa", "a return"), "win": ("ù", "a win"),
    "reclaim": ("nhận lại", "a take-back"), "timeout": ("hết giờ", "a timeout"),
    "pass": ("bỏ qua", "a pass"),
}
HOW_GONE = {
    "path": ("một bước không còn được phép", "a step is no longer allowed"),
    "same": ("hai cách hiểu không còn khác", "the readings no longer differ"),
    "moves": ("ván không còn kẹt", "the hand is no longer stuck"),
}
STUCK_TEXT = {
    STUCK_BANS: ("mọi quân trên tay đều bị cấm đánh", "every card in hand banned"),
    STUCK_EMPTY: ("không còn quân để đánh", "no card left to discard"),
}


def number(x: float, lang: str) -> str:
    """7153 -> ``7.153`` in Vietnamese (``,`` for decimals), ``7,153`` in English."""
    text = f"{x:,.1f}".rstrip("0").rstrip(".")
    if lang != "en":
        text = text.replace(",", " ").replace(".", ",").replace(" ", ".")
    return text


def whole(x: float, lang: str) -> str:
    """A count per 10,000 hands rounded to a whole number (``dưới 1`` / ``under 1`` for a
    small non-zero one): a family counts hands, not tenths of them."""
    if 0 < x < 0.5:
        return "dưới 1" if lang != "en" else "under 1"
    return number(round(x), lang)


def _rate(f: Mapping[str, Any], key: str, ci: str, lang: str) -> str:
    lo, hi = f.get(ci) or (f[key], f[key])
    return f"{whole(f[key], lang)} ({whole(lo, lang)}–{whole(hi, lang)})"


def _policy_name(name: str, lang: str) -> str:
    """``người chơi tham`` / ``a greedy player``: the policy's name without its gloss."""
    vi, en = witness.POLICY_TEXT.get(name, (name, name))
    return (en if lang == "en" else vi).split(":")[0]


# the mark of a "changes the result" figure whose 95% interval overlaps the placebo's
CHANCE_MARK = ("không phân biệt được với may rủi", "not distinguishable from chance")


def who(pf: Mapping[str, Any], lang: str) -> str:
    """``người chơi tham, 4 người`` / ``a greedy player, 4 players``: whose run it is."""
    n = int(pf.get("players", 4))
    return (f"{_policy_name(pf.get('policy', 'greedy'), lang)}, "
            f"{n} {'players' if lang == 'en' else 'người'}")


def changed_text(pf: Mapping[str, Any], lang: str) -> str:
    """The "changes the result" figure with its placebo beside it, and the chance mark
    when their intervals overlap (``chance``): ``đổi kết quả ở 540 (480–600); may rủi
    520 (460–580), không phân biệt được với may rủi``.  The one wording of it."""
    ch = _rate(pf, "changed_per_10000", "changed_ci95", lang)
    if "placebo_per_10000" not in pf:  # saved before the placebo was measured
        return f"changes the result in {ch}" if lang == "en" else f"đổi kết quả ở {ch}"
    pl = _rate(pf, "placebo_per_10000", "placebo_ci95", lang)
    mark = f", {CHANCE_MARK[1 if lang == 'en' else 0]}" if pf.get("chance") else ""
    if lang == "en":
        return f"changes the result in {ch} (placebo {pl}{mark})"
    return f"đổi kết quả ở {ch} (may rủi {pl}{mark})"


def how_often(f: Mapping[str, Any], lang: str) -> str:
    """Both measures under both players at every player count measured
    (`compute.measured`), per 10,000 hands with 95% intervals (the legend
    `frequency_legend` says so once), and the kind of action in which the reading first
    changed something."""
    out = []
    for pf in compute.measured(f):
        whose = who(pf, lang)
        up = _rate(pf, "per_10000", "ci95", lang)
        if "changed_per_10000" not in pf:  # saved before results were compared
            out.append(f"{whose}: comes up in {up}" if lang == "en" else f"{whose}: gặp ở {up}")
            continue
        out.append(f"{whose}: comes up in {up}, {changed_text(pf, lang)}" if lang == "en" else
                   f"{whose}: gặp ở {up}, {changed_text(pf, lang)}")
    kinds = f.get("kinds") or {}
    if kinds:
        k = 1 if lang == "en" else 0
        parts = [f"{FIRST_KIND.get(x, (x, x))[k]} ({number(c, lang)})" for x, c in kinds.items()]
        out.append(f"first differs at {_or(parts, 'or')}" if lang == "en" else
                   f"lần đầu khác nhau ở một nước {_or(parts, 'hay')}")
    return "; ".join(out)


def _or(items: list[str], word: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def frequency_legend(f: Mapping[str, Any], lang: str) -> str:
    """What the figures of `how_often` are: hands per 10,000, which players, how many,
    and what the placebo beside "changes the result" is."""
    parts = []
    glosses: dict[str, str] = {}
    for pf in compute.measured(f):
        vi, en = witness.POLICY_TEXT.get(pf.get("policy", "greedy"), ("", ""))
        glosses.setdefault(_policy_name(pf.get("policy", "greedy"), lang),
                           (en if lang == "en" else vi).partition(":")[2].strip())
        n = number(pf["hands"], lang)
        parts.append(f"{n} hands by {who(pf, lang)}" if lang == "en" else
                     f"{n} ván của {who(pf, lang)}")
    gl = "; ".join(f"{k}: {v}" for k, v in glosses.items())
    placebo = any("placebo_per_10000" in pf for pf in compute.measured(f))
    if lang == "en":
        return (f"Hands in 10,000 (95% interval in brackets), over the trial hands: "
                f"{'; '.join(parts)} ({gl})."
                + (" Both readings of a hand make the same choice wherever a player sees "
                   "the same and may do the same; the placebo is the table's own reading "
                   "played on from the same point with the players' choices drawn afresh: "
                   "how often chance alone changes the result. A figure whose interval "
                   f"overlaps the placebo's is marked «{CHANCE_MARK[1]}»." if placebo else ""))
    return (f"Số ván trên 10.000 ván (trong ngoặc: khoảng tin cậy 95%), qua các ván chơi thử: "
            f"{'; '.join(parts)} ({gl})."
            + (" Ở mỗi ván, hai cách hiểu chọn cùng một nước ở mọi chỗ người chơi thấy như "
               "nhau và được đi như nhau; «may rủi» là chính cách hiểu của bảng chơi tiếp từ "
               "cùng chỗ đó với các lựa chọn của người chơi được rút lại: số ván đổi kết quả "
               "chỉ do may rủi. Con số có khoảng tin cậy chồng lên khoảng của «may rủi» được "
               f"ghi «{CHANCE_MARK[0]}»." if placebo else ""))


def frequency_figures(freq: Mapping[str, Mapping[str, Any]], row: Any,
                      table: Table) -> dict[str, Any]:
    """A question's frequencies as figures for the report's pictures
    (`chanspec.checks.report.figures`): the legend (`frequency_legend`), then per reading
    (by its label) and per player and player count (`compute.measured`) the measures,
    each with its words, its rate per 10,000 hands, its 95% interval and, for "changes
    the result", its chance level: the placebo (``floor_per_10000``, ``floor_ci95``) and
    whether the two intervals overlap (``chance``); and
    ``otherwise``, the greedy player's figures under each other reading the value's
    scenario rests on (`frequency_blame_line` in pictures), with the hands counted."""
    values = []
    legend: dict[str, str] = {}
    for v in [x for x in row.values if x in freq]:
        f = freq[v]
        if not legend:
            legend = {"vi": frequency_legend(f, "vi"), "en": frequency_legend(f, "en")}
        players = []
        for pf in compute.measured(f):
            players.append({"vi": who(pf, "vi"), "en": who(pf, "en"),
                            "measures": _measures(pf)})
        otherwise = []
        if f.get("blame"):  # the same figures under each other reading it rests on
            stuck = bool(f.get("stuck"))
            otherwise.append({"vi": "như bảng hiện nay", "en": "as the table reads today",
                              "measures": _measures(f, stuck)})
            otherwise += [{"vi": f"nếu {reading(table, e['row'], e['value'], 'vi')}",
                           "en": f"if {reading(table, e['row'], e['value'], 'en')}",
                           "measures": _measures(e, stuck)} for e in f["blame"]]
        values.append({"value": v, "vi": row.label(v, "vi"), "en": row.label(v, "en"),
                       "players": players, "otherwise": otherwise})
    return {"legend": legend, "values": values}


def _measures(pf: Mapping[str, Any], stuck: bool = False) -> list[dict[str, Any]]:
    """One player's figures as measures: how often the hand is stuck when `stuck`, else
    how often the choice comes up and (when measured) changes the result."""
    if stuck:
        return [{"vi": "bị kẹt ở", "en": "stuck in", "per_10000": pf["stuck_per_10000"],
                 "ci95": pf.get("stuck_ci95")}]
    ms = [{"vi": "gặp ở", "en": "comes up in", "per_10000": pf["per_10000"],
           "ci95": pf.get("ci95"), "floor_per_10000": pf.get("floor_per_10000")}]
    if "changed_per_10000" in pf:
        ms.append({"vi": "đổi kết quả ở", "en": "changes the result in",
                   "per_10000": pf["changed_per_10000"], "ci95": pf.get("changed_ci95"),
                   "floor_per_10000": pf.get("placebo_per_10000"),
                   "floor_ci95": pf.get("placebo_ci95"), "chance": bool(pf.get("chance"))})
    return ms


def frequency_blame_line(f: Mapping[str, Any], table: Table, lang: str) -> str:
    """One value's figure as the table reads today and under each single other reading
    its scenario rests on (``f["blame"]``, greedy player), in words: how often the hand
    is stuck when the value leaves hands stuck, else how often the choice comes up and
    changes the result.  Empty for findings saved before the figures were measured
    again."""
    if "blame" not in f:
        return ""
    entries = f["blame"]
    vi = lang != "en"
    rid, _, value = str(f["option"]).partition("=")
    row = table.rows.get(rid)
    name = f"«{row.label(value, 'vi' if vi else 'en')}»" if row is not None else value
    if not entries:
        return (f"Với {name}, tình huống không dựa vào cách hiểu nào của câu hỏi khác: con "
                f"số không được đo lại." if vi else
                f"With {name} the scenario rests on no reading of another question: the "
                f"figure was not measured again.")
    stuck = bool(f.get("stuck"))

    def rates(x: Mapping[str, Any]) -> str:
        n = number(x["hands"], lang)
        if stuck:
            s = _rate(x, "stuck_per_10000", "stuck_ci95", lang)
            return f"{s} / 10.000 ván ({n} ván)" if vi else f"{s} in 10,000 hands ({n} hands)"
        up = _rate(x, "per_10000", "ci95", lang)
        ch = changed_text(x, lang)
        return (f"gặp ở {up}, {ch} / 10.000 ván ({n} ván)" if vi else
                f"comes up in {up} and {ch} in 10,000 hands ({n} hands)")

    k = "vi" if vi else "en"
    if vi:
        head = f"Với {name}, ván bị kẹt ở " if stuck else f"Với {name}, lựa chọn này "
        rest = [f"nếu {reading(table, e['row'], e['value'], k)}: {'ở ' if stuck else ''}"
                f"{rates(e)}" for e in entries]
    else:
        head = f"With {name} the hand is stuck in " if stuck else f"With {name} the choice "
        rest = [f"if {reading(table, e['row'], e['value'], k)}: {'in ' if stuck else ''}"
                f"{rates(e)}" for e in entries]
    return head + "; ".join([rates(f), *rest]) + "."


def reading(table: Table, rid: str, value: str, lang: str) -> str:
    """«title» là «label» — a row read one way, in words."""
    row = table.rows.get(rid)
    if row is None:
        return f"{rid} = {value}"
    if lang == "en":
        return f"«{row.title('en')}» read as «{row.label(value, 'en')}»"
    return f"«{row.title('vi')}» là «{row.label(value, 'vi')}»"


def blame_line(b: Mapping[str, Any] | None, table: Table) -> tuple[str, str, str] | None:
    """(vi, en, ids): the readings of other rows under which a scenario disappears, in
    words, and the same as ``row=value`` ids for the footnote."""
    if not b:
        return None
    gone = b["removed_by"]
    tried_vi, tried_en = number(b["checked"], "vi"), number(b["checked"], "en")
    if not gone:
        return ("Không cách hiểu nào khác của một câu hỏi khác làm tình huống này biến mất "
                f"(đã thử {tried_vi} cách).",
                f"No single other reading of another question makes this scenario disappear "
                f"({tried_en} tried).", "")
    vi = "; ".join(f"{reading(table, g['row'], g['value'], 'vi')} ({HOW_GONE[g['how']][0]})"
                   for g in gone)
    en = "; ".join(f"{reading(table, g['row'], g['value'], 'en')} ({HOW_GONE[g['how']][1]})"
                   for g in gone)
    ids = ", ".join(f"{g['row']}={g['value']}" for g in gone)
    return (f"Tình huống này dựa vào cách hiểu mặc định của câu hỏi khác; nó biến mất nếu "
            f"{vi} (đã thử {tried_vi} cách).",
            f"This scenario rests on the default reading of other questions; it disappears "
            f"if {en} ({tried_en} tried).", ids)


def searched_text(searched: Sequence[Mapping[str, Any]], lang: str) -> str:
    """The full-size trial hands a witness was looked for in (``full_search``), in words:
    ``800 ván của người chơi tham, 4 người; …``."""
    parts = [f"{number(x['hands'], lang)} {'hands by' if lang == 'en' else 'ván của'} "
             f"{who(x, lang)}" for x in searched]
    return "; ".join(parts)


def scale_note(w: Mapping[str, Any], fallback: bool = False,
               table: Table | None = None,
               searched: Sequence[Mapping[str, Any]] = ()) -> tuple[str, str, str]:
    """(vi, en, ids): which game the scenario is a hand of (`fallback`: a scaled-down one
    shown because no trial hand of the full-size game reached the choice, `searched`:
    the trial hands looked at, ``full_search``; `table`: whose full-size game, when it is
    not the family's)."""
    n = len(w["path"])
    pol = w.get("policy", "greedy")
    if w["scale"] == scale.FULL and table is not None and table.id != "family":
        return (f"Một ván đủ cỡ của bảng «{table.title_vi}» ({w['players']} người, đủ bộ "
                f"bài) trong các ván chơi thử, {_policy_name(pol, 'vi')}; chỉ kể "
                f"{number(n, 'vi')} nước đầu.",
                f"A full-size hand of «{table.title_en}» ({w['players']} players, the whole "
                f"deck), one of the trial hands, {_policy_name(pol, 'en')}; its first "
                f"{number(n, 'en')} moves only.",
                f"hand {w['hand']}, seed {w['seed']}, {pol}")
    if w["scale"] == scale.FULL:
        return (f"Một ván đủ cỡ của gia đình ({w['players']} người, đủ bộ bài) trong các ván "
                f"chơi thử, {_policy_name(pol, 'vi')}; chỉ kể {number(n, 'vi')} nước đầu.",
                f"A hand of the family's own game ({w['players']} players, the whole deck), "
                f"one of the trial hands, {_policy_name(pol, 'en')}; its first "
                f"{number(n, 'en')} moves only.",
                f"hand {w['hand']}, seed {w['seed']}, {pol}")
    sc = scale.ALL_SCALES.get(w["scale"])
    if sc is None:
        return "", "", str(w["scale"])
    if fallback:
        svi = f": {searched_text(searched, 'vi')}" if searched else ""
        sen = f": {searched_text(searched, 'en')}" if searched else ""
        return (f"Một ván thu nhỏ (không ván đủ cỡ nào trong các ván chơi thử đi tới lựa chọn "
                f"này{svi}): {sc.vi}.",
                f"A scaled-down game (no full-size trial hand reached this choice{sen}): "
                f"{sc.en}.",
                sc.name)
    return f"Một ván thu nhỏ: {sc.vi}.", f"A scaled-down game: {sc.en}.", sc.name


def _footnote(parts: list[tuple[str, str]], lang: str = "vi") -> str:
    """One small line of ids: ``<sub>mã / ids — …</sub>``."""
    body = " · ".join(f"{k}: {v}" for k, v in parts if v)
    return f"<sub>{questions.label(lang, 'mã', 'ids')} — {body}</sub>" if body else ""


def _row_ids(row: Row) -> str:
    vals = ", ".join(f"{v}{' (default)' if v == row.default else ''}" for v in row.values)
    return f"{row.id} = {vals}"


def session_rows(table: Table) -> set[str]:
    """The rows the table's ``[session]`` roles name: they act between hands."""
    ses = table.data.get("session", {})
    return {role_row(v) for k, v in ses.items() if k.endswith("_rule") and k != "rule"}


def finding_objects(doc: Mapping[str, Any], table: Table,
                    lang: str = "vi") -> dict[str, questions.Finding]:
    out: dict[str, questions.Finding] = {}
    open_rows = {r.id for r in questions.question_rows(table)}
    for rid, q in doc.get("questions", {}).items():
        if rid not in open_rows:  # a row settled since: no longer a question
            continue
        row = table.rows[rid]
        small = q.get("witness")
        # the scenario shown: a hand of the family's own game when one parted, else the
        # shortest one of a scaled-down game (marked as such)
        w = q.get("full_witness") or small
        steps_vi: list[str] = []
        steps_en: list[str] = []
        eff: dict[str, questions.Effect] = {}
        notes: list[tuple[str, str]] = [("question", _row_ids(row)),
                                        ("try", f"--option {rid}=…")]
        if w is not None:
            nvi, nen, nid = scale_note(w, fallback=w is small, table=table,
                                       searched=q.get("full_search") or ())
            steps_vi = [nvi] + [str(s["action_vi"]) for s in w["steps"]]
            steps_en = [nen] + [str(s["action_en"]) for s in w["steps"]]
            eff = {k: questions.Effect(v["vi"], v["en"]) for k, v in w["effects"].items()}
            notes.append(("scenario", f"{w['value_a']} vs {w['value_b']}, {nid}: "
                                      f"{' | '.join(w['path']) or '(deal)'}"))
            if small is not None and small is not w:
                svi, sen, sid = scale_note(small, table=table)
                n = len(small["path"])
                steps_vi.append(f"Ngắn nhất trong một ván thu nhỏ: {number(n, 'vi')} nước "
                                f"(sơ đồ dưới). {svi}")
                steps_en.append(f"Shortest in a scaled-down game: {number(n, 'en')} moves "
                                f"(the diagram below). {sen}")
                notes.append(("diagram", f"{sid}: {' | '.join(small['path']) or '(deal)'}"))
        else:
            pairs = sum(s["pairs"] for s in q["searches"])
            exhaustive = sum(1 for s in q["searches"] if s["exhaustive"])
            steps_vi = [f"Không tìm thấy tình huống nào mà các cách hiểu cho nước đi hay kết "
                        f"quả khác nhau (đã so {number(pairs, 'vi')} cặp trạng thái trong "
                        f"{number(len(q['searches']), 'vi')} lần tìm, {exhaustive} lần vét "
                        f"cạn)."]
            steps_en = [f"No scenario found in which the readings allow different actions or "
                        f"give different results ({number(pairs, 'en')} state pairs compared "
                        f"in {len(q['searches'])} searches, {exhaustive} exhaustive)."]
            if q.get("full_search"):
                steps_vi[0] += (" Không ván đủ cỡ nào trong các ván chơi thử đi tới lựa chọn "
                                f"này: {searched_text(q['full_search'], 'vi')}.")
                steps_en[0] += (" No full-size trial hand reached this choice: "
                                f"{searched_text(q['full_search'], 'en')}.")
            notes.append(("searched", ", ".join(f"{s['value']}@{s['scale']}"
                                                for s in q["searches"])))
            if rid in session_rows(table):
                steps_vi.append("Lựa chọn này chỉ có tác dụng giữa hai ván liền nhau của "
                                "một buổi chơi (ai bốc cái ván sau, ván sau ai được hô thông), "
                                "nên một ván đơn lẻ không thể cho thấy nó.")
                steps_en.append("This choice acts only between two hands of a session (who "
                                "draws the next cái, whose win of the next hand is thông), so "
                                "no single hand can show it.")
                notes.append(("sessions", "chanspec play --hands N"))
        freq = q.get("frequency", {})
        for v in row.values:
            if v == row.default or w is None:
                continue
            searched = [s for s in q["searches"] if s["value"] == v]
            f = freq.get(v)
            if (searched and not any(s["found"] for s in searched) and f
                    and not any(pf["diverged"] for pf in compute.measured(f))):
                pairs = sum(s["pairs"] for s in searched)
                hands = sum(int(pf["hands"]) for pf in compute.measured(f))
                eff[v] = questions.Effect(
                    f"Không tìm thấy tình huống nào mà «{row.label(v, 'vi')}» khác mặc định "
                    f"«{row.label(row.default or '', 'vi')}»: đã so {number(pairs, 'vi')} cặp "
                    f"trạng thái và {number(hands, 'vi')} ván đủ cỡ. Trong những gì đã "
                    f"tìm, lựa chọn này không làm thay đổi gì.",
                    f"No scenario found in which «{row.label(v, 'en')}» differs from the "
                    f"default «{row.label(row.default or '', 'en')}»: compared "
                    f"{number(pairs, 'en')} state pairs and {number(hands, 'en')} "
                    f"full-size hands. As far as searched, this choice changes nothing.")
        fvi, fen = [], []
        for v in [x for x in row.values if x in freq]:
            f = freq[v]
            if not fvi:
                fvi.append(frequency_legend(f, "vi"))
                fen.append(frequency_legend(f, "en"))
                notes.append(("trial hands", f"seed {f['seed']}"))
            fvi.append(f"«{row.label(v, 'vi')}» — {how_often(f, 'vi')}")
            fen.append(f"«{row.label(v, 'en')}» — {how_often(f, 'en')}")
        fbvi = " ".join(x for v in row.values if v in freq
                        if (x := frequency_blame_line(freq[v], table, "vi")))
        fben = " ".join(x for v in row.values if v in freq
                        if (x := frequency_blame_line(freq[v], table, "en")))
        bl = blame_line(w.get("blame", q.get("blame")) if w is not None else None, table)
        if bl is not None and bl[2]:
            notes.append(("depends on", bl[2]))
        out[rid] = questions.Finding(
            blame_vi=None if bl is None else bl[0], blame_en=None if bl is None else bl[1],
            weight=max((float(pf.get("changed_per_10000", 0.0)) for f in freq.values()
                        for pf in compute.measured(f)), default=0.0),
            steps_vi=steps_vi, steps_en=steps_en,
            frequency_vi="\n".join(fvi) or None, frequency_en="\n".join(fen) or None,
            frequency_blame_vi=fbvi or None, frequency_blame_en=fben or None,
            effects=eff, source=None, footnote=_footnote(notes, lang),
            mermaid=None if w is None else divergence.to_mermaid(
                divergence.picture(table, small or w), lang))
    return out


def report_findings(doc: Mapping[str, Any] | None, table: Table) -> dict[str, dict[str, Any]]:
    """The same findings OPEN_QUESTIONS.md shows, for ``chanspec report``, with each
    witness also as a structured scenario (hands, gates and laid cards at every step) so
    the report can draw the table.  Empty when `doc` is missing or stale for `table`.
    ``footnote`` holds the ids (shown small and grey)."""
    if doc is None or doc.get("table_digest") != compute.table_digest(table):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for rid, f in finding_objects(doc, table).items():
        row = table.rows[rid]
        d: dict[str, Any] = {
            "steps_vi": list(f.steps_vi), "steps_en": list(f.steps_en),
            "frequency_vi": f.frequency_vi, "frequency_en": f.frequency_en,
            "blame_vi": f.blame_vi, "blame_en": f.blame_en,
            "frequency_blame_vi": f.frequency_blame_vi, "frequency_blame_en": f.frequency_blame_en,
            "effects": {k: {"vi": e.vi, "en": e.en} for k, e in f.effects.items()},
            "footnote": _strip_sub(f.footnote or ""),
        }
        q = doc["questions"][rid]
        if q.get("frequency"):
            d["frequency_figures"] = frequency_figures(q["frequency"], row, table)
        found = [x for x in (q.get("full_witness"), q.get("witness")) if x is not None]
        if found:
            d["scenarios"] = []
            for x in found:
                nvi, nen, _ = scale_note(x, fallback=len(found) == 1, table=table,
                                         searched=q.get("full_search") or ())
                a, b = x["value_a"], x["value_b"]
                d["scenarios"].append({
                    "steps": x["steps"], "players": x["players"],
                    "title": {"vi": f"«{row.label(a, 'vi')}» và «{row.label(b, 'vi')}»",
                              "en": f"«{row.label(a, 'en')}» and «{row.label(b, 'en')}»"},
                    "note": {"vi": nvi, "en": nen},
                })
            pic = divergence.picture(table, found[-1])
            d["divergence"] = {**pic, "text": divergence.text(pic),
                               "mermaid": divergence.to_mermaid(pic)}
        out[rid] = _plain(d)
    return out


def _strip_sub(text: str) -> str:
    return text.removeprefix("<sub>").removesuffix("</sub>")


def _plain(x: Any) -> Any:
    """The Markdown code marks (backticks) dropped, for text shown as HTML."""
    if isinstance(x, str):
        return x.replace("`", "")
    if isinstance(x, list):
        return [_plain(v) for v in x]
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x


def render(table: Table, doc: Mapping[str, Any] | None, lang: str = "vi") -> str:
    """OPEN_QUESTIONS.md (``vi``: Vietnamese with English, as committed; ``en``: English
    only; ``vi-only``: Vietnamese only), with the findings of `doc` when they were
    computed for this table."""
    if doc is None or doc.get("table_digest") != compute.table_digest(table):
        return questions.render(table, lang=lang)
    return questions.render(table, finding_objects(doc, table, lang),
                            extra=extra_sections(doc, table, lang), lang=lang)


def _option_words(table: Table, opts: str, lang: str) -> str:
    """``lao-thang=off`` as «Lão + Thang có là Cạ» là «không là Cạ»; '' as the defaults."""
    if not opts or opts == "defaults":
        return questions.label(lang, "mặc định", "defaults")
    rid, _, value = opts.partition("=")
    if lang == "vi-only":
        return reading(table, rid, value, "vi")
    return questions.label(lang, reading(table, rid, value, "vi"), reading(table, rid, value,
                                                                           "en"))


def scenario_counts(doc: Mapping[str, Any], table: Table) -> dict[str, list[str]]:
    """The open questions by the scenario the findings give them: ``full`` (a hand of the
    full-size game), ``scaled`` (only a scaled-down game), ``none``; ids in table order.
    What OPEN_QUESTIONS.md says every question has, and what tests/test_readme_claims.py
    checks the README's words against."""
    out: dict[str, list[str]] = {"full": [], "scaled": [], "none": [], "both": []}
    qs = doc.get("questions", {})
    for row in questions.question_rows(table):
        q = qs.get(row.id) or {}
        kind = "full" if q.get("full_witness") else "scaled" if q.get("witness") else "none"
        out[kind].append(row.id)
        if q.get("full_witness") and q.get("witness"):
            out["both"].append(row.id)
    return out


def scenario_summary(doc: Mapping[str, Any], table: Table, lang: str = "vi") -> list[str]:
    """Markdown: how many questions have a full-size hand, only a scaled-down game, or no
    scenario (those named), and the full-size trial hands searched."""
    c = scenario_counts(doc, table)
    if not doc.get("questions"):
        return []
    lbl = questions.label
    n = len(c["full"]) + len(c["scaled"]) + len(c["none"])
    none = ", ".join(f"[{_one_title(table, r, 'vi')}](#{r})" for r in c["none"]) or "—"
    none_en = ", ".join(f"[{_one_title(table, r, 'en')}](#{r})" for r in c["none"]) or "—"
    searched = next((q.get("full_search") for q in doc["questions"].values()
                     if q.get("full_search")), None) or []
    vi = (f"Trong {number(n, 'vi')} câu hỏi: {number(len(c['full']), 'vi')} có một ván đủ cỡ "
          f"làm tình huống ({number(len(c['both']), 'vi')} trong số đó có cả một ván thu "
          f"nhỏ), {number(len(c['scaled']), 'vi')} chỉ có một ván thu nhỏ, "
          f"{number(len(c['none']), 'vi')} không có tình huống nào ({none}).")
    en = (f"Of the {number(n, 'en')} questions, {number(len(c['full']), 'en')} have a hand of "
          f"the full-size game as scenario ({number(len(c['both']), 'en')} of them also a "
          f"scaled-down game), {number(len(c['scaled']), 'en')} only a "
          f"scaled-down game, {number(len(c['none']), 'en')} no scenario ({none_en}).")
    if searched:
        vi += f" Các ván đủ cỡ đã xem: {searched_text(searched, 'vi')}."
        en += f" Full-size trial hands searched: {searched_text(searched, 'en')}."
    return ["", '<a id="scenarios"></a>',
            f"## {lbl(lang, 'Tình huống của các câu hỏi', 'Scenarios of the questions')}",
            "", questions.text(lang, vi, en, " ")]


def _one_title(table: Table, rid: str, lang: str) -> str:
    return " ".join(table.rows[rid].title(lang).split())


def extra_sections(doc: Mapping[str, Any], table: Table, lang: str = "vi") -> list[str]:
    """Markdown for what the checker found beyond the table's rows, and the hand counts."""
    en = lang == "en"
    lbl = questions.label
    out: list[str] = scenario_summary(doc, table, lang)
    if doc.get("extra"):
        out += ["", f"## {lbl(lang, 'Máy kiểm tra tìm thêm', 'Found by the checker')}"]
    for e in doc.get("extra", []):
        w = e["witness"]
        nvi, nen, nid = scale_note(w, table=table)
        head = lbl(lang, "Tình huống văn bản không nói (máy phát hiện, chưa có trong bảng)",
                   "A case the text does not cover (found by the checker, not in the table)")
        out += ["", f'<a id="{e["id"]}"></a>', f"### {head}", ""]
        if en:
            out += [f"**Question:** {e['en']}", "", "#### Scenario", "", nen, ""]
        elif lang == "vi-only":
            out += [f"**Câu hỏi:** {e['vi']}", "", "#### Tình huống", "", nvi, ""]
        else:
            out += [f"**Câu hỏi:** {e['vi']}", "", f"*Question: {e['en']}*", "",
                    "#### Tình huống / Scenario", "", f"{nvi}  ", f"*{nen}*", ""]
        out += questions.steps(lang, [s["action_vi"] for s in w["steps"]],
                               [s["action_en"] for s in w["steps"]], start=0)
        bl = blame_line(w.get("blame"), table)
        if bl is not None:
            out += ["", f"**{lbl(lang, 'Phụ thuộc', 'Depends on')}:** "
                    f"{questions.text(lang, bl[0], bl[1])}"]
        fs = e.get("full_size")
        if fs:
            k = 1 if en else 0
            stuck = ", ".join(f"{STUCK_TEXT.get(x, ('bị kẹt', 'stuck'))[k]}: {number(v, lang)}"
                              for x, v in sorted(fs["stuck"].items())) or "0"
            n = number(fs["hands"], "en" if en else "vi")
            out += ["", f"**{lbl(lang, 'Mức thường gặp', 'How often')}:** " + questions.text(
                lang, f"trong {n} ván đủ cỡ chơi thử, số ván bị kẹt: {stuck}",
                f"of {n} full-size trial hands, the ones that got stuck: {stuck}")]
        notes = [("id", e["id"]), ("scenario", f"{nid}: {' | '.join(w['path'])}")]
        if fs:
            notes.append(("trial hands", f"seed {fs['seed']}"))
        out += ["", _footnote(notes, lang)]
    if doc.get("clauses"):
        out += clauses.markdown(doc["clauses"], lang, table)
    hands = doc.get("hands") or {}
    if hands:
        out += ["", f"## {lbl(lang, 'Đếm bài ù', 'Counting winning hands')}", ""]
        out.append(questions.text(
            lang, "Đếm chính xác theo từng lớp quân (bảng của bộ máy ù), tính theo số lượng "
                  "mỗi mặt quân: *bài ù ngay* là bài đã đủ đôi không cần quân nào nữa; *cặp "
                  "chờ ù* là một bài thiếu một quân cùng một quân làm nó ù thường.",
            "Exact counts over the win engine's per-class tables, counting face multisets: "
            "*complete* hands need no further card; *waiting pairs* are a hand one card short "
            "with a card that completes it by ordinary ù.", " "))
        out += ["", f"| {lbl(lang, 'người', 'players')} | {lbl(lang, 'cách hiểu', 'reading')} "
                f"| {lbl(lang, 'bài ù ngay', 'complete')} | "
                f"{lbl(lang, 'cặp chờ ù', 'waiting pairs')} |", "|---|---|---:|---:|"]
        # the defaults first, then the readings by name: the same order whether the
        # counts come from memory or from the saved JSON (whose keys are sorted)
        for players, counts in sorted(hands.items(), key=lambda kv: int(kv[0])):
            for label, c in sorted(counts.items(), key=lambda kv: (kv[0] != "defaults", kv[0])):
                out.append(f"| {players} | {_option_words(table, label, lang)} | "
                           f"{number(c['complete'], lang)} | {number(c['u_wins'], lang)} |")
        ids = "; ".join(dict.fromkeys(label for counts in hands.values() for label in counts
                                      if label != "defaults"))
        out += ["", _footnote([("readings", ids), ("columns", "complete, u_wins")], lang)]
    z = doc.get("z3") or {}
    if z:
        out += ["", f"## {lbl(lang, 'Câu hỏi trên mọi bài', 'Questions over all hands')}", "",
                questions.text(lang, "Đã xét mọi bài có thể có, không chỉ các ván chơi thử "
                                     "(tìm vét cạn theo từng nhóm quân có thể bắt cạ với "
                                     "nhau); mỗi bài nêu ra đã được máy giải ràng buộc "
                                     "kiểm lại.",
                               "Every possible hand was considered, not only the trial hands "
                               "(an exhaustive search, group by group of the cards that can "
                               "make cạ together); a constraint solver checked each hand "
                               "shown.", " "), ""]
        names = {"dead_wait": ("bài chờ chỉ bằng quân không bao giờ được ù",
                               "a wait only on cards that may never complete ù"),
                 "needs_special_ca": ("bài ù bắt buộc phải có Cạ đặc biệt",
                                      "a winning hand that needs a special cạ")}
        for opts, qs in z.items():
            for name, ans in qs.items():
                vi, en_ = names.get(name, (name, name))
                label = _option_words(table, opts, lang)
                what = questions.text(lang, vi, en_, " / ")
                if ans["answer"] == "witness":
                    hand = cards.names(cards.parse(c) for c in ans["hand"])
                    cand = cards.name(cards.parse(ans["candidate"])) if ans["candidate"] else ""
                    out.append(f"- {label} — {what}: {lbl(lang, 'có', 'yes')} — {hand}"
                               + (f" + **{cand}**" if cand else ""))
                elif ans["answer"] == "none":
                    out.append(f"- {label} — {what}: "
                               f"{lbl(lang, 'không có (đã chứng minh)', 'none (proved)')}")
                elif ans["answer"] == "not-asked":
                    out.append(f"- {label} — {what}: "
                               f"{lbl(lang, 'không đặt ra với bảng này', 'does not arise')} "
                               f"({ans.get('why', '')})")
                else:
                    out.append(f"- {label} — {what}: {lbl(lang, 'chưa rõ', 'unknown')}")
        out += ["", _footnote([("method", "exhaustive search per class of the cạ graph "
                                          "(checks/chan/class_search.py); witnesses "
                                          "confirmed by Z3"),
                               ("readings", "; ".join(o for o in z if o)),
                               ("unknown", "; ".join(f"{o or 'defaults'} {n}: {a.get('why')}"
                                                     for o, qs in z.items()
                                                     for n, a in qs.items()
                                                     if a["answer"] not in ("witness", "none",
                                                                            "not-asked")))],
                                 lang)]
    return out
