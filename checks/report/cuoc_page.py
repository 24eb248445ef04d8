"""The cước page of the report: every ``[[cuoc]]`` of classic Chắn with its condition in
the family's words (the row's text) and as the machine reads it (the entry's closed
vocabulary told in words), a drawn example (a winning hand found by the seeded search of
checks/chan/cuoc_search.py, never written by hand), its value under each reading, how
often it came up in seeded random play (checks/chan/cuoc_freq.py, with the number of
hands stated), and which cước of the final hand can be held together
(checks/chan/cuoc_cooccur.py, proved by Z3).

`compute()` gathers the data (plain JSON-ready values, so a build can save or reuse
them); `cuoc_page()` renders it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chanspec.checks.chan import cuoc_cooccur, cuoc_freq, cuoc_search
from chanspec.checks.report.site import bi, esc, place_line, rid_anchor, tiles
from chanspec.model.chan import cards, score
from chanspec.model.chan import table as table_mod

PAGE = ("cuoc.html", "Cước", "Cước (bonuses)")


# --------------------------------------------------------------------------- conditions

_SEL_VI = {"cards": "số quân", "red": "số quân đỏ", "black": "số quân đen",
           "quads": "số bộ bốn quân giống nhau", "pairs": "số đôi", "card": "số quân như quân ù",
           "chan": "số chắn", "ca": "số cạ", "chiu": "số chíu", "waits": "số quân chờ ù",
           "bon": "số lần ăn bòn"}
_SEL_EN = {"cards": "cards", "red": "red cards", "black": "black cards",
           "quads": "sets of four alike", "pairs": "pairs of alike cards",
           "card": "cards like the winning card", "chan": "chắn", "ca": "cạ", "chiu": "chíu",
           "waits": "faces waited on", "bon": "ăn bòn"}
_CMP = {"eq": "=", "ge": "≥", "le": "≤"}
_PART_VI = {"count": "trong bài", "concealed": "trên tay (chưa hạ)", "laid": "đã hạ",
            "dealt": "lúc chia"}
_PART_EN = {"count": "in the hand", "concealed": "concealed", "laid": "laid down",
            "dealt": "as dealt"}
_KIND_VI = {"u": "ù thường", "chiu-u": "chíu ù", "opening": "thiên ù"}
_SOURCE_VI = {"own-draw": "mình bốc", "other-draw": "người khác bốc", "discard": "quân đánh",
              "returned": "quân trả cửa vào cửa mình", "cai": "quân cái"}


def _faces(sel: Sequence[str]) -> str:
    return ", ".join(cards.name(cards.parse(c)) for c in sel)


def _sel(sel: Any, lang: str) -> str:
    if isinstance(sel, list):
        return ("số quân " if lang == "vi" else "cards of ") + _faces(sel)
    return (_SEL_VI if lang == "vi" else _SEL_EN).get(sel, str(sel))


def condition_words(cond: Mapping[str, Any], tbl: table_mod.Table, lang: str) -> str:
    """One condition of a ``[[cuoc]]`` entry told in words (``vi`` or ``en``)."""
    vi = lang == "vi"
    out: str
    if "any" in cond:
        alts = [" và ".join(condition_words(c, tbl, lang) for c in alt) if vi else
                " and ".join(condition_words(c, tbl, lang) for c in alt) for alt in cond["any"]]
        out = (" hoặc " if vi else " or ").join(f"({a})" for a in alts)
    elif "kind" in cond:
        kinds = [(_KIND_VI if vi else {"u": "ordinary ù", "chiu-u": "chíu ù",
                                       "opening": "thiên ù"})[k] for k in cond["kind"]]
        out = ("kiểu ù: " if vi else "kind of win: ") + ", ".join(kinds)
    elif "source" in cond:
        srcs = [_SOURCE_VI[s] if vi else s for s in cond["source"]]
        out = ("quân ù là " if vi else "winning card from: ") + ", ".join(srcs)
    elif "card" in cond:
        out = ("quân ù là " if vi else "winning card: ") + _faces(cond["card"])
    elif "flag" in cond:
        out = {"thong": ("thông (ván trước cũng ù)", "thông (won the last hand)"),
               "first-round": ("chưa qua cửa chì", "before one's gate came round")}[
                   cond["flag"]][0 if vi else 1]
    elif "has" in cond:
        row = tbl.rows.get(cond["has"])
        out = ("có cước " if vi else "holds ") + (row.title(lang) if row else cond["has"])
    elif "held" in cond:
        out = ("số cước ở trên" if vi else "cước above held") + \
            f" {_CMP[_cmp(cond)]} {cond[_cmp(cond)]}"
    elif "laid_chan" in cond:
        out = ("số Chắn hay Chíu đã hạ của " if vi else "chắn or chíu laid down of ") + \
            _faces(cond["laid_chan"]) + f" {_CMP[_cmp(cond)]} {cond[_cmp(cond)]}"
    elif "sets" in cond:
        out = ("số bộ đủ " if vi else "complete sets of ") + _faces(cond["sets"]) + \
            f" {_CMP[_cmp(cond)]} {cond[_cmp(cond)]}"
    else:
        part = next(k for k in ("count", "concealed", "laid", "dealt") if k in cond)
        sel = cond[part]
        where = (_PART_VI if vi else _PART_EN)[part]
        out = f"{_sel(sel, lang)} {where} {_CMP[_cmp(cond)]} {cond[_cmp(cond)]}"
    if cond.get("is") is False:
        out = ("không: " if vi else "not: ") + out
    if "when" in cond:
        w = cond["when"]
        row = tbl.rows.get(w.get("option", ""))
        label = row.label(w.get("is", ""), lang) if row else w.get("is", "")
        out += (f" (khi {w.get('option')} = {label})" if vi else
                f" (when {w.get('option')} = {label})")
    return out


def _cmp(cond: Mapping[str, Any]) -> str:
    return next(k for k in _CMP if k in cond)


def entry_words(entry: Mapping[str, Any], tbl: table_mod.Table) -> tuple[str, str]:
    """(vi, en): every condition of an entry, joined by 'and'."""
    return ("; ".join(condition_words(c, tbl, "vi") for c in entry["all"]),
            "; ".join(condition_words(c, tbl, "en") for c in entry["all"]))


def _option_rows(node: Any) -> list[str]:
    """The option rows an entry's conditions, times or amounts read (in order)."""
    out: list[str] = []
    if isinstance(node, dict):
        if "option" in node and isinstance(node["option"], str):
            out.append(node["option"])
        for k, v in node.items():
            if k == "amount_rule":
                out.append(v)
            else:
                out += _option_rows(v)
    elif isinstance(node, list):
        for v in node:
            out += _option_rows(v)
    return list(dict.fromkeys(out))


# --------------------------------------------------------------------------- data


def compute(tbl: table_mod.Table, *, hands: int = 200, seed: int = 0,
            budget: int = 6000, players: int = 4) -> dict[str, Any]:
    """The page's data: examples (first seeded sample declaring each cước), their score,
    frequencies over `hands` seeded greedy hands, and the co-occurrence of the cước of
    the final hand."""
    rules = tbl.resolve(players, {})
    examples: dict[str, Any] = {}
    for row, s in cuoc_search.find_witnesses(tbl, seed=seed, budget=budget,
                                             players=players).items():
        r = tbl.resolve(players, dict(s.options))
        j = cuoc_search.judge_sample(r, s)
        sc = score.score(r, j)
        examples[row] = {**s.as_json(),
                         "options": {k: v for k, v in s.options
                                     if v != rules.options.get(k)},
                         "declared": [h.row for h in j.declared],
                         "total": None if sc is None else sc.total,
                         "ga": None if sc is None else sc.ga}
    freq = cuoc_freq.frequency(rules, hands, seed=seed).as_json() if hands else None
    pairs = [p.as_json() for p in cuoc_cooccur.cooccurrence(rules)]
    best = cuoc_cooccur.largest(rules)
    best_ctx = cuoc_cooccur.with_context(rules, best.hand)
    return {"table": tbl.id, "players": players, "seed": seed, "budget": budget,
            "examples": examples, "frequency": freq, "pairs": pairs,
            "largest": best.as_json(), "largest_context": best_ctx.as_json()}


# --------------------------------------------------------------------------- page


def _bi(vi: str, en: str) -> str:
    return bi(vi, en)


def page(data: Mapping[str, Any]) -> tuple[str, tuple[str, str], tuple[str, str], str]:
    """cuoc.html for `site.build_report(extra_pages=...)`: file name, nav words, title,
    body."""
    tbl = table_mod.load(str(data["table"]))
    return (PAGE[0], (PAGE[1], PAGE[2]),
            (f"{PAGE[1]} — {tbl.title_vi}", f"{PAGE[2]} — {tbl.title_en}"),
            cuoc_page(tbl, data))


def _amounts(entry: Mapping[str, Any], tbl: table_mod.Table) -> str:
    if "amount_rule" in entry:
        row = tbl.rows[entry["amount_rule"]]
        items = []
        for v, (d, x) in entry["amounts"].items():
            star = " ★" if v == row.default else ""
            items.append(f"<li>{_bi(row.label(v, 'vi'), row.label(v, 'en'))}{star}: "
                         f"{int(d)} {_bi('điểm', 'points')}, {int(x)} dịch</li>")
        return (f"<p>{_bi('Số tiền còn mở', 'The amount is open')} "
                f"(<code>{esc(row.id)}</code>, ★ = {_bi('mặc định', 'default')}):</p>"
                f"<ul>{''.join(items)}</ul>")
    if "diem" in entry:
        return (f"<p>{entry['diem']} {_bi('điểm', 'points')}, {entry.get('dich', 0)} dịch "
                f"{_bi('(theo 001)', '(001)')}</p>")
    return ""


def _readings(entry: Mapping[str, Any], tbl: table_mod.Table) -> str:
    rows = [r for r in _option_rows({k: v for k, v in entry.items() if k != "amount_rule"})
            if r in tbl.rows]
    if not rows:
        return ""
    items = []
    for rid in rows:
        row = tbl.rows[rid]
        vals = ", ".join(row.label(v, "vi") + (" ★" if v == row.default else "")
                         for v in row.values)
        vals_en = ", ".join(row.label(v, "en") + (" ★" if v == row.default else "")
                            for v in row.values)
        items.append(f"<li><code>{esc(rid)}</code> — {_bi(row.title('vi'), row.title('en'))}: "
                     f"{_bi(vals, vals_en)}</li>")
    return (f"<p>{_bi('Các cách đọc của điều kiện:', 'Readings of the condition:')}</p>"
            f"<ul>{''.join(items)}</ul>")


def _example(ex: Mapping[str, Any] | None, tbl: table_mod.Table, red: Sequence[int]) -> str:
    if ex is None:
        return f"<p>{_bi('Chưa tìm được ví dụ.', 'No example found yet.')}</p>"
    ctx = ex["context"]
    laid = ex["laid"]
    rest = list(ex["hand"])
    for g in laid:
        for c in g:
            rest.remove(c)
    parts = [f"<p>{_bi('Trên tay', 'Concealed')}:</p><p class='hand'>{tiles(rest, red)}</p>"]
    if laid:
        groups = " ".join(f"<span class='group'>{tiles(g, red, small=True)}</span>"
                          for g in laid)
        parts.append(f"<p>{_bi('Đã hạ', 'Laid down')}: {groups}</p>")
    kind_vi = _KIND_VI[ctx["kind"]]
    if ctx["card"] is not None:
        src_vi = _SOURCE_VI.get(ctx["source"], ctx["source"])
        parts.append(f"<p>{_bi(f'Ù ({kind_vi}) quân', 'Wins (' + ctx['kind'] + ') on')} "
                     f"{tiles([ctx['card']], red, small=True)} "
                     f"{_bi(src_vi, ctx['source'])}</p>")
    else:
        parts.append(f"<p>{_bi(kind_vi, 'thiên ù: the dealt hand wins')}</p>")
    flags = [(_bi("thông", "thông"), ctx["thong"]),
             (_bi("chưa qua cửa chì", "first round"), ctx["first_round"])]
    on = [f for f, b in flags if b]
    if on:
        parts.append(f"<p>{', '.join(on)}</p>")
    if ctx.get("dealt"):
        parts.append(f"<p>{_bi('Bài lúc chia', 'Dealt hand')}:</p>"
                     f"<p class='hand'>{tiles(ctx['dealt'], red, small=True)}</p>")
    if ex.get("options"):
        opts = ", ".join(f"{k}={v}" for k, v in sorted(ex["options"].items()))
        parts.append(f"<p>{_bi('Theo cách đọc', 'Under the reading')}: "
                     f"<code>{esc(opts)}</code></p>")
    names_vi = ", ".join(tbl.rows[r].title("vi") for r in ex["declared"])
    names_en = ", ".join(tbl.rows[r].title("en") for r in ex["declared"])
    if ex.get("total") is not None:
        parts.append(f"<p>{_bi('Xướng', 'Declared')}: {_bi(names_vi, names_en)} — "
                     f"{_bi('điểm thắng', 'worth')} {ex['total']}, gà {ex['ga']}</p>")
    return "".join(parts)


def _frequency(row: str, freq: Mapping[str, Any] | None) -> str:
    if freq is None:
        return ""
    c = freq["cuoc"].get(row)
    n = 0 if c is None else c["declared"]
    rate = None if c is None else c["per_10000_wins"]
    wins = freq["wins"]
    rate_txt = "—" if rate is None else f"{rate:.0f}"
    return "<p>" + _bi(f"Gặp trong {n} / {wins} ván ù ({rate_txt} trên 10.000 ván ù)",
                       f"Declared in {n} of {wins} wins ({rate_txt} per 10,000 wins)") + "</p>"


def _titles(tbl: table_mod.Table, rows: Sequence[str]) -> str:
    return _bi(", ".join(tbl.rows[r].title("vi") for r in rows),
               ", ".join(tbl.rows[r].title("en") for r in rows))


def _cooccur_table(tbl: table_mod.Table, pairs: Sequence[Mapping[str, Any]]) -> str:
    rows = list(dict.fromkeys([p["a"] for p in pairs] + [p["b"] for p in pairs]))
    cell = {(p["a"], p["b"]): p for p in pairs}
    head = "".join(f"<th scope='col'>{_titles(tbl, [r])}</th>" for r in rows)
    body = []
    for a in rows:
        tds = []
        for b in rows:
            p = cell.get((a, b)) or cell.get((b, a))
            if p is None:
                tds.append("<td>—</td>")
            elif p["possible"]:
                hand = esc(" ".join(p["witness"]))
                tds.append(f"<td title='{hand}'>{_bi('có thể', 'possible')}</td>")
            else:
                tds.append(f"<td><strong>{_bi('không thể', 'impossible')}</strong></td>")
        body.append(f"<tr><th scope='row'>{_titles(tbl, [a])}</th>{''.join(tds)}</tr>")
    intro = _bi("Các cước chỉ xét bài cuối; “không thể” được Z3 chứng minh, “có thể” có "
                "một bài làm chứng (di chuột để xem).",
                "The cước of the final hand alone; “impossible” is proved by Z3, “possible” "
                "has a witness hand (hover to see it).")
    return (f"<h2 id='cung-nhau'>{_bi('Cước nào đi cùng nhau', 'Which cước can go together')}"
            f"</h2><p>{intro}</p><table class='cooccur'><thead><tr><td></td>{head}</tr>"
            f"</thead><tbody>{''.join(body)}</tbody></table>")


def cuoc_page(tbl: table_mod.Table, data: Mapping[str, Any]) -> str:
    """The body of cuoc.html."""
    red = sorted(tbl.resolve(data.get("players", 4), {}).red)
    freq = data.get("frequency")
    out = ["<p>" + _bi(
        'Mỗi cước của Chắn cổ điển: điều kiện theo lời của luật và theo cách máy đọc, một '
        'ví dụ do máy tìm (không viết tay), số tiền theo từng cách đọc, và tần suất trong '
        'các ván chơi ngẫu nhiên.',
        'Every cước of classic Chắn: its condition in the rules’ words and as the machine '
        'reads it, an example found by the machine (not written by hand), its amount under '
        'each reading, and how often it came up in random play.') + "</p>"]
    if freq is not None:
        ended = ", ".join(f"{k} {v}" for k, v in freq["ended"].items())
        n, sd, hs, pol = freq["hands"], freq["seed"], freq["hand_seeds"], freq["policy"]
        out.append("<p>" + _bi(
            f"Tần suất: {n} ván có hạt giống {sd} (ván {hs}), người chơi {pol}, "
            f"{data.get('players', 4)} người; kết thúc: {ended}. Số ván nhỏ: chỉ để biết "
            "cước nào hay gặp (chanspec score --frequency N cho số lớn hơn).",
            f"Frequencies: {n} hands seeded {sd} (hands {hs}), {pol} player, "
            f"{data.get('players', 4)} players; ended: {ended}. A small number of hands: "
            "a rough idea only (chanspec score --frequency N for more).") + "</p>")
    sd, budget = data["seed"], data["budget"]
    out.append("<p>" + _bi(
        f"Ví dụ: mẫu đầu tiên có cước ấy trong tìm kiếm có hạt giống {sd} "
        f"(checks/chan/cuoc_search.py, tối đa {budget} mẫu).",
        f"Examples: the first sample holding the cước in the search seeded {sd} "
        f"(checks/chan/cuoc_search.py, up to {budget} samples).") + "</p>")
    for entry in tbl.data.get("cuoc", []):
        rid = entry["rule"]
        row = tbl.rows[rid]
        wvi, wen = entry_words(entry, tbl)
        replaces = (f"<p>{_bi('Thay cho', 'Replaces')}: {_titles(tbl, entry['replaces'])}</p>"
                    if entry.get("replaces") else "")
        out.append(
            f'<article class="cuoc" id="c-{esc(rid)}">'
            f"<h2>{_titles(tbl, [rid])}</h2>"
            f"<p class='src'>{place_line(row.section)} {rid_anchor(rid, 'c-')}</p>"
            f"<p>{_bi(row.vi, row.en)}</p>"
            f"<p>{_bi('Máy đọc', 'The machine reads')}: {_bi(wvi, wen)}</p>"
            + replaces + _amounts(entry, tbl) + _readings(entry, tbl)
            + f"<h3>{_bi('Ví dụ', 'Example')}</h3>"
            + _example(data["examples"].get(rid), tbl, red)
            + _frequency(rid, freq)
            + "</article>")
    pairs = data.get("pairs") or []
    if pairs:
        out.append(_cooccur_table(tbl, pairs))
    lg, lc = data.get("largest"), data.get("largest_context")
    if lg and lc:
        out.append(
            f"<h2 id='cao-nhat'>{_bi('Điểm cao nhất', 'The largest score')}</h2><p>"
            + _bi(f"Từ các cước của bài cuối: {lg['total']} (gà {lg['ga']}).",
                  f"From the cước of the final hand: {lg['total']} (gà {lg['ga']}).")
            + f"</p><p class='hand'>{tiles(lg['hand'], red)}</p><p>"
            + _bi(f"Cùng bài ấy, với cách ù tốt nhất: {lc['total']}",
                  f"The same hand won the best way: {lc['total']}")
            + f" ({_titles(tbl, lc['cuoc'])})</p>")
    return "\n".join(out)
