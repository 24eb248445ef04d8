"""The open questions of a kind checked through the protocol alone (Tấn today):
exhaustive searches of the kind's scaled-down games under each reading of each open or
provisional row, and where two readings part.

`compute(table, kind)` returns the findings document (``OPEN_QUESTIONS-<id>.json``);
`render(table, doc)` the page (``OPEN_QUESTIONS-<id>.md``), Vietnamese first with English
beside it.  For every scale (`chanspec.model.kind.Kind.scales`) and every reading (the
table's defaults, then each other value of each open or provisional row with the others
at their defaults) every seeded deal is searched (`protocol_search.explore`); for every
other value, every deal is walked in step under the default and under that value
(`protocol_search.part_ways`): the shortest common play after which the legal actions or
the outcome differ, else "no difference at these scales".  Every move told is said by the
kind's words (`Kind.words.say_action`) in the position it is played from, so the page is
generated from the machine; ``tests/test_tan_check.py`` replays every told play.

The document holds no timings: the same table, scales and machine give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from chanspec.checks.explore import protocol_search as ps
from chanspec.checks.findings import questions

SCHEMA = 1
PART_CAP = 200_000  # pairs of states per deal when two readings are walked in step


def md_path(ruleset: str) -> Path:
    return questions.default_path(ruleset)


def json_path(ruleset: str) -> Path:
    return md_path(ruleset).with_suffix(".json")


def dumps(doc: Mapping[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def readings(table: Any) -> list[tuple[str, str]]:
    """(row, value) for every non-default value of every open or provisional row, in
    the table's order of rows."""
    return [(r.id, v) for r in table.rows.values() if r.is_choice and r.values
            for v in r.values if v != r.default]


# --------------------------------------------------------------------------- telling


def replay(start: Any, codes: Sequence[str]) -> list[tuple[Any, Any]]:
    """(state before, action) for each move of `codes` from `start`, each found among the
    legal actions of the state it is played in (ValueError for a move that is not)."""
    st = start
    out = []
    for code in codes:
        a = next((x for x in st.legal_actions() if x.code() == code), None)
        if a is None:
            raise ValueError(f"{code!r} is not legal after {len(out)} moves")
        out.append((st, a))
        st = st.child(a)
    return out


def tell(kind: Any, start: Any, codes: Sequence[str]) -> list[list[str]]:
    """The moves `codes` from `start`, each as [vi, en] in the kind's words."""
    return [list(kind.words.say_action(st, a)) for st, a in replay(start, codes)]


def end_of(start: Any, codes: Sequence[str]) -> Any:
    st = start
    for _, a in replay(start, codes):
        st = st.child(a)
    return st


def tell_deal(start: Any) -> list[str]:
    """The deal as the start position's views show it: each seat's hand, the turned
    card."""
    v = start.view()
    hands = [" ".join(start.view(s)["hand"]) for s in range(start.rules.players)]
    seats_vi = "; ".join(f"ghế {s}: {h}" for s, h in enumerate(hands))
    seats_en = "; ".join(f"seat {s}: {h}" for s, h in enumerate(hands))
    turned = v.get("turned") or "—"
    return [f"Chia bài — {seats_vi}; lá lật {turned} định chủ",
            f"The deal — {seats_en}; the turned {turned} names trump"]


def tell_offer(kind: Any, st: Any, codes: Sequence[str]) -> list[str]:
    acts = [a for a in st.legal_actions() if a.code() in codes]
    if not acts:
        return ["không có", "none"]
    said = [kind.words.say_action(st, a) for a in acts]
    return ["; ".join(s[0].rstrip(".") for s in said), "; ".join(s[1].rstrip(".") for s in said)]


def _order(out: Mapping[str, Any] | None) -> str:
    if out is None:
        return "—"
    return " > ".join("=".join(map(str, g)) for g in out.get("order", [])) or "—"


# --------------------------------------------------------------------------- compute


def _violation_doc(kind: Any, start: Any, v: ps.Violation) -> dict[str, Any]:
    codes = v.codes()
    return {**v.as_json(), "deal_text": tell_deal(start), "told": tell(kind, start, codes)}


def exploration(kind: Any, table: Any, sc: Any, label: str, opts: dict[str, str],
                 n_deals: int, cap: int) -> tuple[dict[str, Any], list[ps.Violation]]:
    rules = sc.rules(opts)
    starts = [sc.start(rules, d) for d in sc.deals(rules, n_deals)]
    res = ps.explore(starts, table.rows, label=label, cap=cap)
    vs = res.violations()
    return {"scale": sc.name, "reading": label, "options": opts, "deals": len(starts),
            "seeds": sc.deal_seeds(n_deals), "distinct": res.distinct,
            "generated": res.generated, "depth": res.depth, "max_queue": res.max_queue,
            "complete": res.complete, "outcomes": res.outcomes(),
            "cited": sorted(res.cited()),
            "violations": [_violation_doc(kind, starts[v.deal], v) for v in vs]}, vs


def compute(table: Any, kind: Any, *, quick: bool = False, cap: int = ps.CAP,
            say: Callable[[str], None] = lambda s: None) -> dict[str, Any]:
    """The findings of every open or provisional row of `table` at its kind's scales."""
    scales = kind.scales(table)
    defaults = table.defaults()
    doc: dict[str, Any] = {
        "schema": SCHEMA, "ruleset": table.id, "table_digest": table.digest(),
        "scales_digest": hashlib.sha256(json.dumps([s.describe() for s in scales],
                                                   sort_keys=True, ensure_ascii=False)
                                        .encode()).hexdigest(),
        "quick": quick, "cap": cap, "scales": [s.describe() for s in scales],
        "explorations": [], "questions": {}}
    from chanspec.model.table import OptionError

    for sc in scales:
        n = sc.quick_deals if quick else sc.deal_count
        say(f"{sc.name}: {n} deals, the defaults")
        ex, _ = exploration(kind, table, sc, "default", {}, n, cap)
        doc["explorations"].append(ex)
        default_rules = sc.rules({})
        default_starts = [sc.start(default_rules, d) for d in sc.deals(default_rules, n)]
        for rid, value in readings(table):
            q = doc["questions"].setdefault(rid, {
                "status": table.rows[rid].status, "default": defaults.get(rid),
                "values": list(table.rows[rid].values), "unplayed": {}, "scales": {}})
            try:
                alt_rules = sc.rules({rid: value})
            except OptionError as exc:
                q["unplayed"].setdefault(value, {})[sc.name] = str(exc)
                continue
            say(f"{sc.name}: {rid}={value}")
            ex, _ = exploration(kind, table, sc, f"{rid}={value}", {rid: value}, n, cap)
            doc["explorations"].append(ex)
            best: dict[str, Any] | None = None
            complete = True
            for i, (a0, d) in enumerate(zip(default_starts, sc.deals(alt_rules, n),
                                            strict=True)):
                b0 = sc.start(alt_rules, d)
                part, done, _ = ps.part_ways(a0, b0, cap=PART_CAP)
                complete &= done
                if part is None or (best is not None and len(part.path) >= len(best["path"])):
                    continue
                end_a, end_b = end_of(a0, part.path), end_of(b0, part.path)
                best = {**part.as_json(), "deal": i, "seed": sc.deal_seeds(n)[i],
                        "deal_text": tell_deal(a0), "deal_text_b": tell_deal(b0),
                        "told": tell(kind, a0, part.path),
                        "offer_a": tell_offer(kind, end_a, part.only_a),
                        "offer_b": tell_offer(kind, end_b, part.only_b),
                        "order_a": _order(part.outcome_a), "order_b": _order(part.outcome_b)}
            q["scales"].setdefault(sc.name, {})[value] = {
                "parting": best, "complete": complete,
                "violations": [{k: v[k] for k in ("kind", "what", "depth")}
                               for v in ex["violations"]]}
    return doc


def exit_code(doc: Mapping[str, Any]) -> int:
    """The code of the worst violation under the defaults (12, 11, 13), else 0."""
    kinds = {v["kind"] for ex in doc["explorations"] if ex["reading"] == "default"
             for v in ex["violations"]}
    return next((ps.KIND_EXIT[k] for k in ps.EXIT_ORDER if k in kinds), 0)


# --------------------------------------------------------------------------- render

KIND_VI = {"deadlock": "bế tắc", "invariant": "vi phạm bất biến",
           "contradiction": "mâu thuẫn", "endless": "chơi mãi không hết"}
STATUS_VI = {"open": "còn mở", "provisional": "tạm thời", "settled": "đã chốt"}


def _moves(told: Sequence[Sequence[str]], start: int = 1) -> list[str]:
    return [f"{i}. {vi}  \n   *{en}*" for i, (vi, en) in enumerate(told, start)]


def render(table: Any, doc: Mapping[str, Any]) -> str:
    rows = table.rows
    L: list[str] = ["# Câu hỏi còn mở / Open questions", "",
                    f"**{table.title_vi}** — *{table.title_en}* (`{table.id}`)", "",
                    "Tệp này được tạo tự động từ bảng luật và máy trạng thái; đừng sửa tay "
                    f"(`chanspec check --ruleset {table.id}` viết lại nó). Mỗi câu hỏi là một "
                    "dòng còn mở hoặc tạm thời của bảng; máy chơi hết mọi nước đi của những ván "
                    "thu nhỏ dưới đây theo từng cách hiểu, và chỉ ra nước đi ngắn nhất sau đó các "
                    "cách hiểu khác nhau. «Không khác nhau ở các cấu hình này» chỉ nói về các "
                    "ván thu nhỏ ấy, không nói về ván đủ cỡ.", "",
                    "*This file is generated from the rule table and the machine; do not edit it "
                    f"by hand (`chanspec check --ruleset {table.id}` rewrites it). Each question "
                    "is an open or provisional row of the table; the machine plays every move of "
                    "the scaled-down hands below under each reading, and shows the shortest play "
                    "after which the readings differ. «No difference at these scales» speaks of "
                    "those small hands only, not of the full-size game.*", ""]
    L += ["## Các ván thu nhỏ / The scaled-down games", "",
          "| cấu hình / scale | ván / game | giữ lại / keeps | bỏ đi / drops | ván chia / deals |",
          "|---|---|---|---|---|"]
    for s in doc["scales"]:
        seeds = next((e["seeds"] for e in doc["explorations"] if e["scale"] == s["name"]), [])
        L.append(f"| `{s['name']}` | {s['vi']}<br>*{s['en']}* | {s['keeps'][0]}<br>"
                 f"*{s['keeps'][1]}* | {s['drops'][0]}<br>*{s['drops'][1]}* | {len(seeds)} "
                 f"(hạt giống / seeds {', '.join(map(str, seeds))}) |")
    L += ["", "## Kiểm tra mô hình theo mặc định / Model checking under the defaults", "",
          "| cấu hình / scale | trạng thái phân biệt / distinct | sinh ra / generated | "
          "độ sâu / depth | hàng đợi lớn nhất / largest queue | xong / complete | "
          "kết thúc / ends | lỗi / violations |", "|---|---|---|---|---|---|---|---|"]
    for e in doc["explorations"]:
        if e["reading"] != "default":
            continue
        viol = ", ".join(f"{v['kind']} ({v['what']})" for v in e["violations"]) or "—"
        ends = ", ".join(f"{k} {n:,}" for k, n in e["outcomes"].items())
        L.append(f"| `{e['scale']}` | {e['distinct']:,} | {e['generated']:,} | {e['depth']} | "
                 f"{e['max_queue']:,} | {'có / yes' if e['complete'] else 'không / no'} | "
                 f"{ends} | {viol} |")
    L.append("")
    for e in doc["explorations"]:
        if e["reading"] != "default":
            continue
        for v in e["violations"]:
            L += [f"### {KIND_VI[v['kind']].capitalize()} ({v['what']}) — *{v['kind']} "
                  f"({v['what']})*, `{e['scale']}`", "", f"{v['vi']}  ", f"*{v['en']}*", "",
                  f"Ván chia {v['deal']} (hạt giống {e['seeds'][v['deal']]}), ngắn nhất: "
                  f"{v['depth']} nước. — *Deal {v['deal']} (seed {e['seeds'][v['deal']]}), the "
                  f"shortest: {v['depth']} moves.*", "",
                  f"- {v['deal_text'][0]}  \n  *{v['deal_text'][1]}*", "",
                  *_moves(v["told"]), ""]
    cited = {r for e in doc["explorations"] for r in e["cited"]}
    never = [r for r in rows if r not in cited]
    L += ["## Luật không bao giờ được dẫn ở các cấu hình này / Rows never cited at these "
          "scales", "",
          "Không lời giải thích nào của một nước đi (hợp lệ hay bị từ chối), không hệ quả "
          "và không kết quả nào ở mọi cấu hình và mọi cách hiểu dẫn các dòng này: chúng chỉ "
          "là lời, hoặc không tới được ở các ván nhỏ này. — *No explanation of a move (legal "
          "or refused), no consequence and no outcome at any scale under any reading cites "
          "these rows: they are words only, or out of reach of these small hands.*", "",
          (", ".join(f"`{r}`" for r in never) or "—"), ""]
    others = [(e, v) for e in doc["explorations"] if e["reading"] != "default"
              for v in e["violations"]]
    L += ["## Lỗi theo các cách hiểu khác / Violations under the other readings", ""]
    if not others:
        L += ["Không có. — *None.*", ""]
    else:
        L += ["| cách hiểu / reading | cấu hình / scale | lỗi / violation | nước / moves |",
              "|---|---|---|---|"]
        for e, v in others:
            L.append(f"| `{e['reading']}` | `{e['scale']}` | {KIND_VI[v['kind']]} / "
                     f"{v['kind']} ({v['what']}) | {v['depth']} |")
        L.append("")
    # in the table's order of rows, scales and values (the saved JSON sorts its keys)
    qs = {rid: doc["questions"][rid] for rid in rows if rid in doc["questions"]}
    names = [s["name"] for s in doc["scales"]]
    L += ["## Các câu hỏi / The questions", "",
          "| câu hỏi / question | trạng thái / status | mặc định / default | "
          "tách ra ở / readings part at |", "|---|---|---|---|"]
    for rid, q in qs.items():
        r = rows[rid]
        parts = []
        for sname, val, f in _cells(q, names):
            p = f["parting"]
            parts.append(f"`{val}` {sname}: " + (f"{len(p['path'])}" if p else "—"))
        L.append(f"| [{r.title('vi')} — *{r.title('en')}*](#{rid}) | "
                 f"{STATUS_VI.get(q['status'], q['status'])} / {q['status']} | "
                 f"«{r.label(q['default'], 'vi')} / {r.label(q['default'], 'en')}» | "
                 f"{'; '.join(parts) or '—'} |")
    L.append("")
    for rid, q in qs.items():
        L += _question(rows[rid], rid, q, names)
    return "\n".join(L).rstrip() + "\n"


def _cells(q: Mapping[str, Any], names: Sequence[str]
           ) -> list[tuple[str, str, Mapping[str, Any]]]:
    """(scale, value, finding) of one question, in the order of the scales and values."""
    return [(n, v, q["scales"][n][v]) for n in names if n in q["scales"]
            for v in q["values"] if v in q["scales"][n]]


def _question(r: Any, rid: str, q: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    L = [f'<a id="{rid}"></a>', f"### {r.title('vi')} — *{r.title('en')}*", "",
         f"- **Trạng thái / Status:** {STATUS_VI.get(q['status'], q['status'])} — "
         f"*{q['status']}*", f"- **Chỗ trong văn bản / Locator:** {r.locator}", "",
         f"**Câu hỏi:** {r.vi}", "", f"*Question: {r.en}*", "",
         "| cách hiểu / reading | ý nghĩa / meaning |", "|---|---|"]
    for v in q["values"]:
        t = r.value_text.get(v, {})
        dflt = " **(mặc định / default)**" if v == q["default"] else ""
        L.append(f"| «{r.label(v, 'vi')} / {r.label(v, 'en')}»{dflt} | {t.get('vi', '')}<br>"
                 f"*{t.get('en', '')}* |")
    L.append("")
    for v in (v for v in q["values"] if v in q["unplayed"]):
        for sname, why in ((n, q["unplayed"][v][n]) for n in names if n in q["unplayed"][v]):
            L += [f"«{r.label(v, 'vi')}» không chơi được ở `{sname}`, nên không có ván nào "
                  f"để so. — *«{r.label(v, 'en')}» cannot be played at `{sname}`, so there is "
                  f"no hand to compare: {why}.*", ""]
    d_vi, d_en = r.label(q["default"], "vi"), r.label(q["default"], "en")
    for sname, v, f in _cells(q, names):
        v_vi, v_en = r.label(v, "vi"), r.label(v, "en")
        L.append(f"#### «{d_vi}» / «{v_vi}» — `{sname}`")
        L.append("")
        p = f["parting"]
        if p is None:
            if f["complete"]:
                L += ["Không khác nhau ở các cấu hình này: mọi ván chia của cấu hình này "
                      "được chơi hết theo cả hai cách hiểu, nước đi hợp lệ và kết quả như "
                      "nhau. — *No difference at these scales: every deal of this scale "
                      "played out under both readings has the same legal actions and "
                      "outcomes.*", ""]
            else:
                L += ["Không thấy khác nhau trong giới hạn tìm kiếm (chưa xong). — *No "
                      "difference found within the search limit (incomplete).*", ""]
        else:
            L += [f"Ván chia {p['deal']} (hạt giống {p['seed']}); ngắn nhất: "
                  f"{len(p['path'])} nước. — *Deal {p['deal']} (seed {p['seed']}); the "
                  f"shortest: {len(p['path'])} moves.*", "",
                  f"- «{d_vi}»: {p['deal_text'][0]}  \n  *«{d_en}»: {p['deal_text'][1]}*"]
            if p["deal_text_b"] != p["deal_text"]:
                L.append(f"- «{v_vi}»: {p['deal_text_b'][0]}  \n  *«{v_en}»: "
                         f"{p['deal_text_b'][1]}*")
            L += ["", *_moves(p["told"])]
            n = len(p["told"]) + 1
            if p["what"] == "legal":
                L.append(f"{n}. Tại đây hai cách hiểu khác nhau — chỉ «{d_vi}» cho phép: "
                         f"{p['offer_a'][0]}; chỉ «{v_vi}» cho phép: {p['offer_b'][0]}  \n"
                         f"   *Here the readings part — only «{d_en}» allows: "
                         f"{p['offer_a'][1]}; only «{v_en}» allows: {p['offer_b'][1]}*")
            else:
                L.append(f"{n}. Tại đây kết quả khác nhau — «{d_vi}»: thứ tự về "
                         f"{p['order_a']}; «{v_vi}»: {p['order_b']}  \n"
                         f"   *Here the outcomes differ — «{d_en}»: finishing order "
                         f"{p['order_a']}; «{v_en}»: {p['order_b']}*")
            L.append("")
        if f["violations"]:
            said = ", ".join(f"{x['kind']} ({x['what']}, {x['depth']})"
                             for x in f["violations"])
            L += [f"Theo «{v_vi}» ở `{sname}`: {said}. — *Under «{v_en}» at `{sname}`: "
                  f"{said}.*", ""]
    L += [f"<sub>mã / ids — question: {rid} = {', '.join(q['values'])} · try: --option "
          f"{rid}=…</sub>", ""]
    return L
