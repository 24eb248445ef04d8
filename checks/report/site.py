"""The family's report: a self-contained static site built from the rule table.

``build_report(out_dir, ...)`` writes plain HTML/CSS/JS that opens from ``file://``
(no server, no network): Vietnamese by default with an English switch.

Pages
-----
``index.html``      the rulebook: every ``[[rule]]`` row grouped by section, with status
                    badges, options, defaults and "found by the checker" marks;
``questions.html``  one entry per open/provisional row: the question, the options, and the
                    checker's findings (witness scenarios drawn step by step, how often
                    it happens, what each option changes, the divergence picture with the
                    readings side by side) when there are any; then "Đã quyết định /
                    Decided": every decision ``chanspec settle`` recorded in the table;
``diagrams.html``   the SVG diagrams handed to ``build_report`` (copied into the site with a
                    <title>/<desc> for screen readers, the description given or read
                    from the graph, `describe_svg`), each in a pan and zoom box
                    (``assets/app.js``), and the flow of a hand as Mermaid source;
``explorer.html``   the winning-hand explorer, which runs ``assets/win.js`` (a port of
                    model/chan/win.py) on the resolved rule sets exported here as JSON.

Feeding findings
----------------
``findings`` maps an open/provisional row id to the checker's finding for it: the
dataclass from checks/findings/questions.py or a plain dict.  Fields read (attribute or key):

* ``scenarios``: a list; each is a list of *steps* or an object/dict with ``steps`` and
  optional ``title`` (text), ``players``, ``note`` (text), ``option``/``options``;
* ``frequency`` / ``frequencies``: a number (a share, 0..1), a text, a mapping or a list;
* ``effects`` / ``option_effects``: mapping option value -> text.

A *text* is a ``str`` (shown in both languages), a ``{"vi": ..., "en": ...}`` dict, or a
pair of fields ``<name>_vi`` / ``<name>_en``.

A *step* (see `render_scenario`) is a dict with optional keys: ``seat`` (the acting seat),
``action`` (text, or ``action_vi``/``action_en``), ``cards`` (face codes the action is
about), ``hands`` / ``gates`` / ``laid`` (per seat: a dict ``{seat: [...]}`` or a list
indexed by seat; ``gates[s]`` is the cards face up at seat s's own gate, offered to the
next seat; ``laid[s]`` is a list of groups), ``note`` (text).  Cards are face codes
(``"8v"``, ``"chi"``), Vietnamese names or face numbers.
"""

from __future__ import annotations

import dataclasses
import html
import importlib.resources
import itertools
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from chanspec.checks.findings import clauses as clauses_mod
from chanspec.checks.output import prepare_output_dir, write_atomic
from chanspec.checks.report import figures
from chanspec.checks.report.markup import bi, esc
from chanspec.model import table as shared_table
from chanspec.model.chan import cards
from chanspec.model.chan import table as table_mod
from chanspec.model.source import place_words

ASSETS = ("style.css", "app.js", "win.js", "explorer.js")
PAGES = (
    ("index.html", "Luật chơi", "Rulebook"),
    ("questions.html", "Câu hỏi còn mở", "Open questions"),
    ("diagrams.html", "Sơ đồ", "Diagrams"),
    ("explorer.html", "Thử bài ù", "Winning-hand explorer"),
)
SECTION_TITLES = {
    "1": ("Mặt quân, Chắn và Cạ", "Faces, chắn and cạ"),
    "2": ("Chia bài và một lượt chơi", "The deal and a turn"),
    "3": ("Bỏ qua, ăn và đánh: những điều bị cấm", "Passing, eating, discarding: what gets banned"),
    "4": ("Ù, hòa và kết thúc ván", "Winning, drawn hands and the end of a hand"),
}
# what the first step of a witness says, the deal itself being drawn below it
DEAL_WORDS = ("Chia bài: bài của từng ghế, xếp như khi cầm trên tay (Chắn, rồi Cạ, rồi quân lẻ)",
              "The deal: each seat's hand, laid out as it is held (chắn, then cạ, then loose "
              "cards)")
STATUS = {
    "settled": ("✔", "Đã chốt", "Settled"),
    "provisional": ("◐", "Tạm thời", "Provisional"),
    "open": ("?", "Còn mở", "Open"),
}


# --------------------------------------------------------------------------- small helpers


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    for n in names:
        if isinstance(obj, Mapping):
            if n in obj and obj[n] is not None:
                return obj[n]
        elif getattr(obj, n, None) is not None:
            return getattr(obj, n)
    return default


def text_of(obj: Any, name: str | None = None) -> tuple[str, str] | None:
    """(vi, en) from a str, a {vi, en} dict, or fields ``name_vi`` / ``name_en`` of obj."""
    if name is not None:
        vi, en = _get(obj, f"{name}_vi"), _get(obj, f"{name}_en")
        if vi is not None or en is not None:
            return str(vi if vi is not None else en), str(en if en is not None else vi)
        obj = _get(obj, name)
    if obj is None:
        return None
    if isinstance(obj, str):
        return obj, obj
    if isinstance(obj, Mapping) and ("vi" in obj or "en" in obj):
        vi, en = obj.get("vi"), obj.get("en")
        return str(vi if vi is not None else en), str(en if en is not None else vi)
    return None


def _plain(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    return obj


def face_of(card: Any) -> int:
    if isinstance(card, int):
        if not 0 <= card < cards.NUM_FACES:
            raise cards.CardError(f"face number {card} is out of range 0..29")
        return card
    return cards.parse(str(card))


def tile(face: int, red: Iterable[int], *, small: bool = False) -> str:
    """One card as a tile: rank mark, Vietnamese name, suit; red cards carry a text mark."""
    is_red = face in set(red)
    name = cards.name(face)
    rank, suit = cards.rank_of(face), cards.suit_of(face)
    if rank is None:
        top, mid, low = "yêu", name, ""
    else:
        top, mid, low = str(rank), cards.RANK_NAMES[rank - 1], cards.SUIT_NAMES[suit or 0]
    label_vi = name + (", quân đỏ" if is_red else "")
    label_en = name + (", red card" if is_red else "")
    cls = "tile" + (" red" if is_red else "") + (" small" if small else "")
    mark = '<span class="tm" aria-hidden="true">◆đỏ</span>' if is_red else ""
    return (
        f'<span class="{cls}" role="img" aria-label="{esc(label_vi)}" '
        f'data-label-vi="{esc(label_vi)}" data-label-en="{esc(label_en)}" '
        f'title="{esc(name)} ({cards.code(face)})">'
        f'<span class="tr" aria-hidden="true">{esc(top)}</span>'
        f'<span class="tn" aria-hidden="true">{esc(mid)}</span>'
        f'<span class="ts" aria-hidden="true">{esc(low)}</span>{mark}</span>'
    )


def tiles(items: Iterable[Any], red: Iterable[int], *, small: bool = False) -> str:
    red = set(red)
    return "".join(tile(face_of(c), red, small=small) for c in items)


def hand_html(items: Iterable[Any], red: Iterable[int],
              is_ca: Callable[[int, int], bool] = cards.same_rank) -> str:
    """A hand drawn as cards, laid out as a family holds it (`chanspec.model.chan.cards.layout`:
    chắn, then cạ, then loose cards, each in suit and rank order), each chắn or cạ in its
    own frame."""
    red = set(red)
    out = []
    for kind, group in cards.layout([face_of(c) for c in items], is_ca):
        out.append(f'<span class="group {kind}">{tiles(group, red, small=True)}</span>')
    return "".join(out)


def hand_words(items: Iterable[Any],
               is_ca: Callable[[int, int], bool] = cards.same_rank) -> str:
    """The text alternative of `hand_html`: the cards' names in the order drawn."""
    faces = [face_of(c) for c in items]
    return cards.names(f for _, g in cards.layout(faces, is_ca) for f in g)


def deal_html(hands: Mapping[int, Sequence[Any]], red: Iterable[int], *, opener: int | None,
              is_ca: Callable[[int, int], bool] = cards.same_rank,
              noc: int | None = None, words: tuple[str, str] | None = None) -> str:
    """A deal drawn as cards: one row per seat, each hand laid out (`hand_html`), with
    how many cards are left in the nọc; each row carries its names as its accessible
    label, and the deal in words (`words`) is folded below as its text alternative."""
    rows = []
    for s in sorted(hands):
        h = list(hands[s])
        lead_vi = f"Ghế {s}" + (" (mở đầu)" if s == opener else "")
        lead_en = f"Seat {s}" + (" (opener)" if s == opener else "")
        names = hand_words(h, is_ca)
        rows.append(f'<div class="deal-row" role="group" '
                    f'aria-label="{esc(f"{lead_vi}, {len(h)} quân: {names}")}">'
                    f'<span class="lbl">'
                    f'{bi(f"{lead_vi} · {len(h)} quân", f"{lead_en} · {len(h)} cards")}</span> '
                    f'<span class="deal-cards">{hand_html(h, red, is_ca)}</span></div>')
    if noc is not None:
        left = bi(f"Nọc: còn {noc} quân, úp", f"Nọc: {noc} cards, face down")
        rows.append(f'<p class="noc">{left}</p>')
    alt = ""
    if words:
        head = bi("Ván chia bằng chữ", "The deal in words")
        alt = (f'<details class="desc footnote"><summary>{head}</summary>'
               f'<p>{bi(*words)}</p></details>')
    return f'<div class="deal">{"".join(rows)}</div>{alt}'


# --------------------------------------------------------------------------- data export


def _win_signature(rules: table_mod.Rules) -> tuple[Any, ...]:
    return (
        tuple(tuple(bool(x) for x in row) for row in rules.ca_rules),
        rules.special,
        rules.components,
        rules.never_complete,
        rules.never_complete_applies,
        rules.faces,
        rules.exact_min,
        rules.exact_min_applies,
        rules.opening_min_chan,
    )


def win_options(table: table_mod.Table) -> list[shared_table.Row]:
    """The option rows whose value changes what a winning hand is."""
    out = []
    for p in sorted(table.variants):
        base = _win_signature(table.resolve(p))
        for row in table.option_rows():
            if row in out:
                continue
            if any(_win_signature(table.resolve(p, {row.id: v})) != base for v in row.values):
                out.append(row)
    return out


def ruleset_json(rules: table_mod.Rules, options: Mapping[str, str]) -> dict[str, Any]:
    """What assets/win.js needs of one resolved rule set."""
    ca, special = [], []
    for a in range(cards.NUM_FACES):
        for b in range(a + 1, cards.NUM_FACES):
            if rules.is_ca(a, b):
                ca.append([a, b])
                if rules.is_special(a, b):
                    special.append([a, b])
    r = rules.rule_ids
    return {
        "players": rules.players,
        "options": dict(options),
        "pairs": rules.pairs,
        "min_chan": rules.min_chan,
        "copies": rules.copies,
        "faces": list(rules.faces),
        "ca": ca,
        "special": special,
        "components": [list(c) for c in rules.components],
        "never_complete": sorted(rules.never_complete),
        "never_complete_applies": sorted(rules.never_complete_applies),
        # faces that complete only exactly min_chan chắn, for these kinds ([win] exact_min)
        "exact_min": sorted(rules.exact_min),
        "exact_min_applies": sorted(rules.exact_min_applies),
        "opening_min_chan": rules.opening_min_chan,
        "rule_ids": {
            "shape": r["win.rule"],
            "counts": r["win.counts_rule"],
            "never": r.get("win.never_complete_rule", ""),
            "final": r.get("win.special_ca_final_rule", ""),
            "chiu": r["turn.chiu_counts_rule"],
            "exact": r.get("win.exact_min_rule", ""),
            "opening": r.get("win.opening_rule", ""),
        },
    }


def export_rulesets(table: table_mod.Table) -> dict[str, Any]:
    """Every (players, win-affecting option values) rule set, plus the face list."""
    opts = win_options(table)
    rulesets = []
    for p in sorted(table.variants):
        for combo in itertools.product(*(row.values for row in opts)):
            chosen = {row.id: v for row, v in zip(opts, combo, strict=True)}
            rulesets.append(ruleset_json(table.resolve(p, chosen), chosen))
    red = table.resolve(min(table.variants)).red
    return {
        "win_options": [
            {"id": r.id, "default": r.default, "values": list(r.values),
             "meaning": {v: dict(r.value_text.get(v, {})) for v in r.values}}
            for r in opts
        ],
        "players": sorted(table.variants),
        "variants": {str(p): {"pairs": v.pairs, "min_chan": v.min_chan,
                              "opener_cards": v.opener_cards, "other_cards": v.other_cards}
                     for p, v in table.variants.items()},
        "rulesets": rulesets,
        "faces": [
            {"face": f, "code": cards.code(f), "name": cards.name(f),
             "rank": cards.rank_of(f), "rank_name": (cards.RANK_NAMES[f % 9] if f < 27 else None),
             "suit": (cards.SUIT_NAMES[f // 9] if f < 27 else None), "red": f in red}
            for f in range(cards.NUM_FACES)
        ],
    }


# --------------------------------------------------------------------------- page frame


def _page(table: table_mod.Table, current: str, title: tuple[str, str], body: str,
          scripts: Sequence[str] = (),
          pages: Sequence[tuple[str, str, str]] = PAGES) -> str:
    nav = []
    for href, vi, en in pages:
        cur = ' aria-current="page"' if href == current else ""
        nav.append(f'<li><a class="internal" href="{href}"{cur}>{bi(vi, en)}</a></li>')
    script_tags = "".join(f'<script src="{esc(s)}"></script>' for s in scripts)
    return f"""<!DOCTYPE html>
<html lang="vi" data-lang="vi">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title data-title-vi="{esc(title[0])} · {esc(table.title_vi)}" \
data-title-en="{esc(title[1])} · {esc(table.title_en)}">\
{esc(title[0])} · {esc(table.title_vi)}</title>
<link rel="stylesheet" href="assets/style.css">
</head>
<body>
<a class="skip" href="#main">{bi("Bỏ qua, tới nội dung", "Skip to content")}</a>
<header class="top">
<p class="site">{bi(table.title_vi, table.title_en)}</p>
<button type="button" id="lang-switch" class="lang" aria-label="Switch to English" \
data-label-vi="Switch to English" data-label-en="Chuyển sang tiếng Việt">\
<span class="vi" lang="en">English</span><span class="en" lang="vi">Tiếng Việt</span></button>
<nav aria-label="Trang"><ul>{"".join(nav)}</ul></nav>
</header>
<main id="main">
<h1>{bi(*title)}</h1>
{body}
</main>
<footer>{bi("Trang này được tạo tự động từ bảng luật " + Path(table.path).name
            + "; không cần mạng, không cần cài gì.",
            "Generated from the rule table " + Path(table.path).name
            + "; works offline, nothing to install.")}</footer>
<script src="assets/app.js"></script>{script_tags}
</body>
</html>
"""


def _section_key(section: str) -> str:
    m = re.search(r"§\s*(\d+)", section)
    return m.group(1) if m else "?"


def status_badge(status: str) -> str:
    icon, vi, en = STATUS[status]
    return (f'<span class="badge st-{status}"><span class="icon" aria-hidden="true">{icon}</span>'
            f' {bi(vi, en)}</span>')


def found_badge(row: shared_table.Row) -> str:
    if row.found_by == "checker":
        return ('<span class="badge found"><span class="icon" aria-hidden="true">⚙</span> '
                f'{bi("Bộ kiểm tra phát hiện", "Found by the checker")}</span>')
    return ""


def options_table(row: shared_table.Row, effects: Mapping[str, Any] | None = None) -> str:
    head = bi("Lựa chọn", "Option") + "</th><th scope='col'>" + bi("Nghĩa là", "Meaning")
    if effects is not None:
        head += "</th><th scope='col'>" + bi("Điều gì thay đổi", "What it changes")
    out = [f"<table class='opts'><thead><tr><th scope='col'>{head}</th></tr></thead><tbody>"]
    for v in row.values:
        meaning = row.value_text.get(v, {})
        is_def = v == row.default
        dflt = (' <span class="badge default"><span class="icon" aria-hidden="true">★</span> '
                + bi("mặc định", "default") + "</span>") if is_def else ""
        cells = (f"<th scope='row'>{bi(row.label(v, 'vi'), row.label(v, 'en'))}{dflt}"
                 f' <span class="footnote">{esc(v)}</span></th>'
                 f"<td>{bi(meaning.get('vi', ''), meaning.get('en', ''))}</td>")
        if effects is not None:
            eff = effects.get(v)
            cells += f"<td>{render_any(eff) if eff is not None else '—'}</td>"
        out.append(f"<tr class='{'is-default' if is_def else ''}'>{cells}</tr>")
    for v, eff in (effects or {}).items():
        if v not in row.values:  # an effect for a value the row does not offer: show it
            out.append(f"<tr><th scope='row'><code>{esc(v)}</code> (?)</th><td>—</td>"
                       f"<td>{render_any(eff)}</td></tr>")
    out.append("</tbody></table>")
    return "".join(out)


# --------------------------------------------------------------------------- rulebook


def rulebook_page(table: table_mod.Table) -> str:
    groups: dict[str, list[shared_table.Row]] = {}
    for row in table.rows.values():
        groups.setdefault(_section_key(row.section), []).append(row)
    counts = {s: sum(1 for r in table.rows.values() if r.status == s) for s in STATUS}
    parts = [
        "<p class='lead'>"
        + bi("Mỗi luật của gia đình được viết lại một dòng, kèm trạng thái: ",
             "Each of the family's rules, restated in one entry with its status: ")
        + " ".join(f"{status_badge(s)} {counts[s]}" for s in STATUS)
        + "</p>",
        "<p>" + bi("Luật còn mở hoặc tạm thời có các lựa chọn; máy dùng lựa chọn mặc định. "
                   "Xem trang ", "Open or provisional rules list their options; the machine "
                   "uses the default. See the ")
        + f'<a class="internal" href="questions.html">{bi("Câu hỏi còn mở", "open questions")}</a>.'
        + "</p>",
    ]
    toc = []
    for key in sorted(groups, key=lambda k: (not k.isdigit(), k)):
        vi, en = SECTION_TITLES.get(key, (f"Phần {key}", f"Part {key}"))
        toc.append(f'<li><a class="internal" href="#s{esc(key)}">§{esc(key)} {bi(vi, en)}</a></li>')
    parts.append(f"<nav aria-label='Mục lục'><ol class='toc'>{''.join(toc)}</ol></nav>")
    for key in sorted(groups, key=lambda k: (not k.isdigit(), k)):
        vi, en = SECTION_TITLES.get(key, (f"Phần {key}", f"Part {key}"))
        parts.append(f'<section id="s{esc(key)}" class="part"><h2>§{esc(key)} {bi(vi, en)}</h2>')
        for row in groups[key]:
            parts.append(_rule_entry(row))
        parts.append("</section>")
    return "\n".join(parts)


def rid_anchor(rid: str, prefix: str = "r-") -> str:
    """A row's id, outside its heading: a small code-styled link to the entry (what
    ``--option`` and ``chanspec settle`` name it by), never the words of the page."""
    return (f'<a class="rid" href="#{esc(prefix + rid)}" title="{esc(rid)}">'
            f'<code>{esc(rid)}</code></a>')


def place_line(section: str) -> str:
    """Where a row is in its text (`chanspec.model.source.place_words`), both languages."""
    return bi(place_words(section, "vi"), place_words(section, "en"))


def _rule_entry(row: shared_table.Row) -> str:
    out = [f'<article class="rule st-{row.status}" id="r-{esc(row.id)}">',
           f'<h3>{bi(row.title("vi"), row.title("en"))} {status_badge(row.status)} '
           f'{found_badge(row)}</h3>',
           f'<p class="where">{place_line(row.section)} {rid_anchor(row.id)}</p>',
           f"<p>{bi(row.vi, row.en)}</p>"]
    if row.is_choice:
        out.append(options_table(row))
        out.append(f'<p><a class="internal" href="questions.html#q-{esc(row.id)}">'
                   + bi("Xem câu hỏi và tình huống minh hoạ", "See the question and its scenario")
                   + "</a></p>")
    elif row.is_option:  # settled by the family; the readings stay as history
        d = row.decisions[-1] if row.decisions else {}
        chosen = row.default or ""
        out.append(f'<p class="dflt">{bi("Gia đình đã chọn:", "The family chose:")} '
                   f'{bi(row.label(chosen, "vi"), row.label(chosen, "en"))} '
                   f'<span class="footnote">{esc(chosen)}</span>'
                   + (f" ({esc(d.get('date', ''))})" if d else "") + "</p>")
        out.append(options_table(row))
        out.append('<p><a class="internal" href="questions.html#decided">'
                   + bi("Xem các quyết định", "See the decisions") + "</a></p>")
    out.append("</article>")
    return "\n".join(out)


# --------------------------------------------------------------------------- scenarios


def _per_seat(value: Any) -> dict[int, Any]:
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return {int(k): v for k, v in value.items()}
    return dict(enumerate(value))


def render_any(value: Any) -> str:
    """A finding field of unknown shape: texts, numbers, mappings and lists, readably."""
    value = _plain(value)
    t = text_of(value)
    if t is not None:
        return bi(*t)
    if isinstance(value, bool):
        return bi("có", "yes") if value else bi("không", "no")
    if isinstance(value, float):
        if 0 <= value <= 1:
            return esc(f"{value * 100:.3g} %")
        return esc(f"{value:.4g}")
    if isinstance(value, int):
        return esc(value)
    if isinstance(value, Mapping):
        items = "".join(f"<dt>{esc(k)}</dt><dd>{render_any(v)}</dd>" for k, v in value.items())
        return f"<dl class='kv'>{items}</dl>"
    if isinstance(value, (list, tuple)):
        return "<ul>" + "".join(f"<li>{render_any(v)}</li>" for v in value) + "</ul>"
    return esc(value)


def render_scenario(steps: Sequence[Mapping[str, Any]], red: Iterable[int], *,
                    players: int | None = None, title: tuple[str, str] | None = None,
                    note: tuple[str, str] | None = None, sid: str = "sc",
                    open_: bool | None = None,
                    is_ca: Callable[[int, int], bool] = cards.same_rank) -> str:
    """A witness scenario drawn step by step, as the table would look after each step.

    ``steps`` is a plain list of dicts (see the module docstring).  Seats are shown with
    the numbers the steps use.  Returns an HTML fragment (a <details> element), open when
    ``open_`` says so; by default a scenario of text steps only is open and one that draws
    the table is folded.
    """
    red = set(red)
    seats: set[int] = set()
    for st in steps:
        st = _plain(st)
        for k in ("hands", "gates", "laid"):
            seats |= set(_per_seat(_get(st, k)))
        if _get(st, "seat") is not None:
            seats.add(int(_get(st, "seat")))
    if players is None and seats:
        players = max(seats) + 1
    head = bi(*(title or ("Tình huống minh hoạ", "Witness scenario")))
    if open_ is None:
        open_ = not seats and not any(_get(_plain(st), "cards") for st in steps)
    out = [f'<details class="scenario" id="{esc(sid)}"{" open" if open_ else ""}>'
           f'<summary>{head} '
           f'<span class="nsteps">({len(steps)} {bi("bước", "steps")})</span></summary>']
    if note:
        out.append(f"<p>{bi(*note)}</p>")
    out.append('<ol class="steps">')
    dealt = False
    for n, st in enumerate(steps, 1):
        st = _plain(st)
        seat = _get(st, "seat")
        action = text_of(st, "action") or ("", "")
        who = (f'<span class="who">{bi(f"Ghế {seat}", f"Seat {seat}")}:</span> '
               if seat is not None else "")
        hands = _per_seat(_get(st, "hands"))
        # the deal: the first step that shows the hands, with no seat acting and no card
        is_deal = not dealt and seat is None and bool(hands) and not _get(st, "cards")
        dealt = dealt or bool(hands)
        told = (DEAL_WORDS if is_deal else action)
        out.append(f'<li class="step"><p class="act"><span class="stepno">'
                   f'{bi(f"Bước {n}", f"Step {n}")}</span> {who}{bi(*told)}</p>')
        if is_deal:  # the deal: one row of cards per seat, its names folded below
            out.append(deal_html(hands, red, opener=_get(st, "opener"), is_ca=is_ca,
                                 words=action if action != ("", "") else None))
            out.append("</li>")
            continue
        moved = _get(st, "cards") or []
        if moved:
            out.append(f'<p class="moved">{bi("Quân:", "Card:")} {tiles(moved, red)}</p>')
        nt = text_of(st, "note")
        if nt:
            out.append(f'<p class="note">{bi(*nt)}</p>')
        gates, laid = (_per_seat(_get(st, k)) for k in ("gates", "laid"))
        shown = sorted(set(hands) | set(gates) | set(laid))
        if shown:
            out.append('<div class="table-view">')
            for s in shown:
                cur = " acting" if seat is not None and int(seat) == s else ""
                nxt = (s + 1) % players if players else s + 1
                mark = (' <span class="badge acting-b"><span class="icon" aria-hidden="true">▶'
                        f'</span> {bi("đang đi", "to act")}</span>') if cur else ""
                out.append(f'<section class="seat{cur}" aria-label="Ghế {s}">'
                           f'<h4>{bi(f"Ghế {s}", f"Seat {s}")}{mark}</h4>')
                if s in hands:
                    h = list(hands[s])
                    said = f"Ghế {s}, trên tay {len(h)} quân: {hand_words(h, is_ca)}"
                    out.append(f'<p class="hand" role="group" aria-label="{esc(said)}">'
                               f'<span class="lbl">'
                               f'{bi(f"Trên tay ({len(h)})", f"Hand ({len(h)})")}</span> '
                               f'{hand_html(h, red, is_ca)}</p>')
                if laid.get(s):
                    groups = "".join(f'<span class="group">{tiles(g, red, small=True)}</span>'
                                     for g in laid[s])
                    out.append(f'<p class="laid"><span class="lbl">{bi("Đã hạ", "Laid down")}'
                               f"</span> {groups}</p>")
                if s in gates:
                    g = list(gates[s])
                    empty = f'<span class="empty">{bi("trống", "empty")}</span>'
                    inner = tiles(g, red) if g else empty
                    gate_vi = f"Cửa của Ghế {s} (mời Ghế {nxt})"
                    gate_en = f"Gate of seat {s} (offered to seat {nxt})"
                    out.append(f'<p class="gate"><span class="lbl">{bi(gate_vi, gate_en)}'
                               f"</span> {inner}</p>")
                out.append("</section>")
            out.append("</div>")
        out.append("</li>")
    out.append("</ol></details>")
    return "\n".join(out)


def _scenario_list(finding: Any) -> list[Any]:
    """The finding's scenarios, each a list of steps or a dict with ``steps``.

    checks/findings/questions.py's `Finding` gives its scenario as text only (``steps_vi`` /
    ``steps_en``); a structured ``scenario``/``scenarios`` (step dicts with cards, hands
    and gates) is used when present, and the text steps become the actions of its steps
    when those have none.
    """
    sc = _get(finding, "scenarios", "scenario", "witnesses", "witness")
    out: list[Any]
    if sc is None:
        out = []
    elif isinstance(sc, Mapping) or not isinstance(sc, (list, tuple)):
        out = [sc]
    elif sc and isinstance(_plain(sc[0]), Mapping) and _get(_plain(sc[0]), "steps") is None:
        out = [list(sc)]  # one scenario given as its list of steps
    else:
        out = list(sc)
    svi = list(_get(finding, "steps_vi", default=()) or ())
    sen = list(_get(finding, "steps_en", default=()) or ())
    if svi or sen:
        texts = [{"vi": v, "en": e} for v, e in itertools.zip_longest(svi, sen, fillvalue="")]
        texts = [{"vi": t["vi"] or t["en"], "en": t["en"] or t["vi"]} for t in texts]
        first = _plain(out[0]) if out else None
        steps = _get(first, "steps") if isinstance(first, Mapping) else first
        if steps is not None and len(steps) == len(texts):
            merged = []
            for st, t in zip(steps, texts, strict=True):
                st = dict(_plain(st))
                if text_of(st, "action") is None:
                    st["action"] = t
                merged.append(st)
            if isinstance(first, Mapping) and "steps" in first:
                out[0] = {**first, "steps": merged}
            else:
                out[0] = merged
        else:
            out.insert(0, [_drawn_deal({"action": t}, out) for t in texts])
    return out


def _drawn_deal(step: dict[str, Any], scenarios: Sequence[Any]) -> dict[str, Any]:
    """A text step that tells a deal which a structured scenario also shows (the same
    words, with the hands): given those hands, so that it is drawn as cards too."""
    for sc in scenarios:
        sc = _plain(sc)
        steps = _get(sc, "steps") if isinstance(sc, Mapping) else sc
        for st in steps or ():
            st = _plain(st)
            if (isinstance(st, Mapping) and _get(st, "hands") and _get(st, "seat") is None
                    and text_of(st, "action") == text_of(step, "action")):
                return {**step, "hands": _get(st, "hands")}
    return step


def question_rows(table: table_mod.Table) -> list[shared_table.Row]:
    """The open and provisional rows, in table order (as in OPEN_QUESTIONS.md)."""
    return [r for r in table.rows.values() if r.status in ("open", "provisional")]


def clauses_section(table: table_mod.Table, docs: Sequence[Mapping[str, Any]]) -> str:
    """Each clause of the ban rows measured on its own (OPEN_QUESTIONS.json ``clauses``):
    how often it was in force and refused, the dead ones marked, with the proof by
    counting or the question of a wider scope where there is one."""
    if not docs:
        return ""
    verdicts = {k: bi(*(t.strip("*") for t in v)) for k, v in
                clauses_mod.VERDICT_TEXT.items() if v[0]}
    rows, notes = [], []
    for c in clauses_mod.merged(docs):
        row = table.rows.get(str(c["rule"]))
        name = bi(row.title("vi"), row.title("en")) if row is not None else esc(c["rule"])
        act = bi(*clauses_mod.CLASS_TEXT.get(str(c["class"]), (c["ban"], c["ban"])))
        v = clauses_mod.verdict(c)
        rows.append(f'<tr class="clause-{v}"><td>{name}</td><td>{act}</td>'
                    f'<td class="num">{c["in_force"]:,}</td><td class="num">{c["refused"]:,}'
                    f"</td><td>{verdicts.get(v, '')}</td></tr>")
        said = []
        if c.get("dead_by_counting"):
            said.append(bi(c["dead_by_counting"]["vi"], c["dead_by_counting"]["en"]))
        q = table.rows.get(str(c.get("scope_rule") or ""))
        if q is not None and v != "live":
            said.append(bi(f"phạm vi rộng hơn là một câu hỏi: {q.title('vi')}",
                           f"a wider scope is asked as a question: {q.title('en')}")
                        + f' (<a class="internal" href="#q-{esc(q.id)}">→</a>)')
        if said:
            notes.append(f"<li>{name} ({act}): {'; '.join(said)}</li>")
    sample = "; ".join(f"{d['players']} {bi('người', 'players')}, {d['games']:,} "
                       f"{bi('ván', 'hands')}, {bi(*clauses_mod.policy_name(d['policy']))}"
                       for d in docs)
    head = "".join(f"<th>{bi(*h)}</th>" for h in (
        ("dòng", "row"), ("việc", "act"), ("có hiệu lực", "in force"),
        ("đã cấm", "refused"), ("", "")))
    return ('<section id="clauses"><h2>'
            + bi("Từng điều khoản của các dòng cấm", "Clauses of the ban rows") + "</h2>"
            + "<p>" + bi(
                "Mỗi việc một dòng cấm cấm được kiểm riêng trên các ván chơi thử: có hiệu lực "
                "là những lần việc đó lẽ ra được phép nếu không có lệnh cấm; đã cấm là những "
                "lần lệnh cấm thật sự chặn.",
                "Each act a ban row forbids is checked on its own in trial hands: in force "
                "counts the times the act would have been allowed without the ban; refused, "
                "the times the ban did stop it.") + "</p>"
            + f"<table class=\"clauses\"><thead><tr>{head}</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>"
            + (f"<ul>{''.join(notes)}</ul>" if notes else "")
            + f'<p class="where">{bi("Mẫu:", "Sample:")} {sample}</p></section>')


def questions_page(table: table_mod.Table, findings: Mapping[str, Any],
                   clauses: Sequence[Mapping[str, Any]] = ()) -> str:
    rules = table.resolve(min(table.variants))
    red, is_ca = rules.red, rules.is_ca
    rows = question_rows(table)
    parts = ["<p class='lead'>" + bi(
        "Mỗi mục dưới đây là một luật gia đình chưa chốt hoặc đang dùng tạm. Với mỗi câu hỏi: "
        "các lựa chọn, lựa chọn mặc định, và (nếu bộ kiểm tra đã tính) một ván minh hoạ từng "
        "bước, tần suất xảy ra và điều mỗi lựa chọn làm thay đổi.",
        "Each entry is a family rule that is not settled or only provisional. For each: the "
        "options, the default, and (when the checker has computed them) a witness game step by "
        "step, how often it happens, and what each option changes.") + "</p>"]
    toc = "".join(f'<li><a class="internal" href="#q-{esc(r.id)}">'
                  f"{bi(r.title('vi'), r.title('en'))}</a> "
                  f"{status_badge(r.status)}</li>" for r in rows)
    toc += (f'<li><a class="internal" href="#decided">{bi("Đã quyết định", "Decided")}</a>'
            "</li>")
    parts.append(f"<nav aria-label='Danh sách câu hỏi'><ul class='qtoc'>{toc}</ul></nav>")
    for row in rows:
        f = findings.get(row.id)
        effects = _get(f, "effects", "option_effects", "per_option") if f is not None else None
        effects = _plain(effects) if isinstance(_plain(effects), Mapping) and effects else None
        parts.append(f'<article class="question st-{row.status}" id="q-{esc(row.id)}">')
        parts.append(f"<h2>{bi(row.title('vi'), row.title('en'))} {status_badge(row.status)} "
                     f"{found_badge(row)}</h2>")
        parts.append(f'<p class="where">{place_line(row.section)} · '
                     f'<a class="internal" href="index.html#r-{esc(row.id)}">'
                     f'{bi("xem trong luật", "see in the rulebook")}</a></p>')
        parts.append(f'<p class="ask">{bi(row.vi, row.en)}</p>')
        uses = bi("Máy đang dùng mặc định:", "The machine uses the default:")
        dflt = row.default or ""
        parts.append(f'<p class="dflt">{uses} «{bi(row.label(dflt, "vi"), row.label(dflt, "en"))}»'
                     "</p>")
        how = bi("Gia đình quyết định xong thì chạy lệnh ở dòng chữ nhỏ cuối câu hỏi.",
                 "Once the family has decided, run the command in the small print at the end "
                 "of the question.")
        parts.append(f'<p class="how">{how}</p>')
        parts.append(options_table(row, effects if effects is not None else None))
        scenarios = _scenario_list(f) if f is not None else []
        freq = None
        if f is not None:
            freq = text_of(f, "frequency") or _get(f, "frequency", "frequencies", "how_often")
            freq = freq if not isinstance(freq, tuple) else {"vi": freq[0], "en": freq[1]}
        figs = _get(f, "frequency_figures") if f is not None else None
        if isinstance(figs, Mapping) and figs.get("values"):
            parts.append(f'<div class="freq"><h3>{bi("Xảy ra thường không?", "How often?")}'
                         f"</h3>{figures.figures_html(figs)}</div>")
        elif freq is not None:
            t = text_of(freq)
            if t is not None and "\n" in t[0] and t[0].count("\n") == t[1].count("\n"):
                # a first line saying what the figures are, then one line per reading
                lines = list(zip(t[0].split("\n"), t[1].split("\n"), strict=True))
                body = (f"<p>{bi(*lines[0])}</p><ul>"
                        + "".join(f"<li>{bi(*x)}</li>" for x in lines[1:]) + "</ul>")
            else:
                body = render_any(freq)
            parts.append(f'<div class="freq"><h3>{bi("Xảy ra thường không?", "How often?")}</h3>'
                         f"{body}</div>")
        blame = text_of(f, "blame") if f is not None else None
        if blame:
            parts.append(f'<p class="blame"><strong>{bi("Phụ thuộc:", "Depends on:")}</strong> '
                         f"{bi(*blame)}</p>")
        again = text_of(f, "frequency_blame") if f is not None else None
        drawn = isinstance(figs, Mapping) and any(v.get("otherwise") for v in figs.get(
            "values", []))
        if again and not drawn:  # drawn with the pictures above when they are there
            parts.append(f'<p class="blame"><strong>{bi("Nếu hiểu khác:", "Read otherwise:")}'
                         f"</strong> {bi(*again)}</p>")
        summary = text_of(f, "summary") if f is not None else None
        if summary:
            parts.append(f"<p>{bi(*summary)}</p>")
        source = _get(f, "source") if f is not None else None
        if source:
            parts.append(f'<p class="where">{bi("Nguồn:", "Source:")} <code>{esc(source)}</code>'
                         "</p>")
        if scenarios:
            for k, sc in enumerate(scenarios, 1):
                sc = _plain(sc)
                if isinstance(sc, Mapping):
                    steps = list(_get(sc, "steps", default=[]))
                    title = text_of(sc, "title")
                    note = text_of(sc, "note")
                    players = _get(sc, "players")
                    opt = _get(sc, "options", "option")
                    if opt is not None and note is None:
                        note = (f"Lựa chọn: {opt}", f"Options: {opt}")
                else:
                    steps, title, note, players = list(sc), None, None, None
                title = title or (f"Tình huống minh hoạ {k}", f"Witness scenario {k}")
                parts.append(render_scenario(steps, red, players=players, title=title, note=note,
                                             sid=f"sc-{row.id}-{k}", is_ca=is_ca))
        else:
            parts.append('<p class="none">' + bi(
                "Chưa tính được tình huống minh hoạ nào cho câu hỏi này.",
                "No scenario has been computed for this question yet.") + "</p>")
        pic = _get(f, "divergence") if f is not None else None
        if isinstance(pic, Mapping):
            parts.append(divergence_html(pic, red, f"dv-{row.id}", is_ca))
        note = _get(f, "footnote") if f is not None else None
        vals = ", ".join(f"{v}{' (default)' if v == row.default else ''}" for v in row.values)
        note = note or f"mã / ids — question: {row.id} = {vals} · try: --option {row.id}=…"
        parts.append(f'<p class="footnote">{esc(note)} · chanspec settle {esc(row.id)}=…</p>')
        parts.append("</article>")
    parts.append(clauses_section(table, clauses))
    parts.append(decided_section(table))
    return "\n".join(parts)


def _dv_step(s: Mapping[str, Any], red: Iterable[int]) -> str:
    shown = [c for c in (s.get("table_card"), s.get("card")) if c]
    return (f'<li>{tiles(shown, red, small=True)} '
            f'{bi(s["vi"], s["en"])} <span class="rids footnote">{esc(s["code"])} '
            f'[{esc(", ".join(s["rules"]))}]</span></li>')


def divergence_html(pic: Mapping[str, Any], red: Iterable[int], sid: str,
                    is_ca: Callable[[int, int], bool] = cards.same_rank) -> str:
    """The divergence picture (checks/findings/divergence.py) drawn in HTML: the shared
    steps, then one column per reading, side by side, each ending in what differs; with
    its text alternative and its Mermaid source."""
    red = set(red)
    common = "".join(_dv_step(s, red) for s in pic["common"]) or (
        "<li>" + bi("(ngay sau khi chia bài)", "(right after the deal)") + "</li>")
    cols = []
    for b in pic["branches"]:
        end = b["end"]
        steps = "".join(_dv_step(s, red) for s in b["steps"])
        lab = b.get("label") or {"vi": b["value"], "en": b["value"]}
        cols.append(
            f'<div class="branch end-{esc(end["kind"])}" role="group" '
            f'aria-label="{esc(lab["vi"])}">'
            f'<h4>«{bi(lab["vi"], lab["en"])}» <span class="footnote">'
            f'{esc(pic["option"])}={esc(b["value"])}</span></h4>'
            f'<ol class="steps">{steps}</ol>'
            f'<p class="end">{bi(end["vi"], end["en"])}'
            + (f' <span class="rids footnote">[{esc(", ".join(end["rules"]))}]</span>'
               if end["rules"] else "") + "</p></div>")
    return (
        f'<section class="divergence" id="{esc(sid)}" aria-describedby="{esc(sid)}-text">'
        f'<h3>{bi("Nơi các cách hiểu tách ra", "Where the readings part")}</h3>'
        + _divergence_deal(pic, red, is_ca)
        + f'<p class="where footnote">{esc(pic["scale"])}</p>'
        f'<ol class="steps common">{common}</ol>'
        f'<div class="branches">{"".join(cols)}</div>'
        f'<details class="desc footnote"><summary>{bi("Mô tả bằng chữ", "Text description")}'
        f'</summary><pre id="{esc(sid)}-text">{esc(pic.get("text", ""))}</pre></details>'
        + (f'<details class="footnote"><summary>Mermaid</summary><pre class="mermaid-src"><code>'
           f'{esc(pic["mermaid"])}</code></pre></details>' if pic.get("mermaid") else "")
        + "</section>")


def _divergence_deal(pic: Mapping[str, Any], red: Iterable[int],
                     is_ca: Callable[[int, int], bool]) -> str:
    """The deal the readings part from, drawn as cards when the picture carries it (its
    words otherwise)."""
    words = (pic.get("deal_vi", ""), pic.get("deal_en", ""))
    deal = pic.get("deal")
    if not isinstance(deal, Mapping) or not deal.get("hands"):
        return f'<p class="where">{bi(*words)}</p>'
    hands = dict(enumerate(deal["hands"]))
    return deal_html(hands, red, opener=deal.get("opener"), is_ca=is_ca,
                     noc=len(deal.get("noc", [])), words=words if words[0] else None)


def decided_section(table: table_mod.Table) -> str:
    """"Đã quyết định / Decided": every decision recorded in the table (``chanspec
    settle``), newest first, with the value chosen, what the row was and the note."""
    items = []
    for row in table.rows.values():
        for d in row.decisions:
            items.append((d.get("date", ""), row, d))
    items.sort(key=lambda x: (x[0], x[1].id), reverse=True)
    head = f'<section id="decided"><h2>{bi("Đã quyết định", "Decided")}</h2>'
    if not items:
        return head + "<p class='none'>" + bi(
            "Gia đình chưa chốt câu hỏi nào bằng chanspec settle.",
            "The family has not settled any question with chanspec settle yet.") + "</p></section>"
    rows = []
    for date, row, d in items:
        meaning = row.value_text.get(d["value"], {})
        others = ", ".join(v for v in row.values if v != d["value"])
        rows.append(
            f"<tr><td>{esc(date)}</td><td><a class='internal' href='index.html#r-{esc(row.id)}'>"
            f"{bi(row.title('vi'), row.title('en'))} <code>{esc(row.id)}</code></a></td>"
            f"<td>«{bi(row.label(d['value'], 'vi'), row.label(d['value'], 'en'))}» "
            f"<code>{esc(d['value'])}</code><br>"
            f"{bi(meaning.get('vi', ''), meaning.get('en', ''))}</td>"
            f"<td>{esc(d.get('was', ''))}, {bi('mặc định', 'default')} "
            f"<code>{esc(d.get('was_default', ''))}</code>; "
            f"{bi('cách hiểu khác', 'other readings')}: <code>{esc(others)}</code></td>"
            f"<td>{esc(d.get('by', ''))}</td><td>{esc(d.get('note', ''))}</td></tr>")
    return (head + "<table class='decided'><thead><tr>"
            f"<th>{bi('ngày', 'date')}</th><th>{bi('luật', 'rule')}</th>"
            f"<th>{bi('đã chọn', 'chosen')}</th><th>{bi('trước đó', 'before')}</th>"
            f"<th>{bi('ai quyết', 'by')}</th><th>{bi('ghi chú', 'note')}</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></section>")


# --------------------------------------------------------------------------- diagrams


DiagramItem = tuple[Path, tuple[str, str], str | None]


def _svg_items(svgs: Iterable[Any]) -> list[DiagramItem]:
    """(file, (title vi, title en), text description or None) for every diagram given."""
    out = []
    for item in svgs:
        desc = None
        if isinstance(item, (str, Path)):
            p = Path(item)
            title = (p.stem.replace("_", " ").replace("-", " "),) * 2
        elif isinstance(item, Mapping):
            p = Path(item["path"])
            title = text_of(item, "title") or (p.stem, p.stem)
            desc = item.get("desc")
        else:
            p = Path(item[0])
            t = text_of(item[1]) if len(item) > 1 else None
            title = t or (p.stem, p.stem)
        if not p.is_file():
            raise FileNotFoundError(f"diagram {p} does not exist")
        out.append((p, (title[0], title[1]), desc))
    return out


def describe_svg(svg: str) -> str:
    """A text description of a drawn graph read from its SVG: every box's text, and how
    many arrows (Graphviz marks nodes and edges with ``class="node"``/``"edge"``); for
    another picture, all its text."""
    def texts(fragment: str) -> str:
        return " ".join(html.unescape(t).strip() for t in re.findall(
            r"<text[^>]*>(.*?)</text>", fragment, flags=re.S) if t.strip())
    nodes = re.findall(r'<g id="[^"]*" class="node">(.*?)</g>', svg, flags=re.S)
    edges = re.findall(r'<g id="[^"]*" class="edge">(.*?)</g>', svg, flags=re.S)
    if not nodes:
        return texts(svg) or "—"
    lines = [f"{len(nodes)} ô / boxes, {len(edges)} mũi tên / arrows."]
    lines += [f"- {texts(n)}" for n in nodes if texts(n)]
    labels = [texts(e) for e in edges if texts(e)]
    if labels:
        lines.append("Mũi tên / arrows: " + "; ".join(labels))
    return "\n".join(lines)


def accessible_svg(svg: str, title: str, desc: str) -> str:
    """The SVG with ``role="img"``, a <title> and a <desc> first inside it (a screen
    reader reads them; any earlier ones are left after)."""
    m = re.search(r"<svg\b[^>]*>", svg)
    if m is None:
        return svg
    tag = m.group(0)
    if "role=" not in tag:
        tag = tag[:-1] + ' role="img" aria-labelledby="svg-title svg-desc">'
    inner = (f'<title id="svg-title">{esc(title)}</title>'
             f'<desc id="svg-desc">{esc(desc)}</desc>')
    return svg[:m.start()] + tag + inner + svg[m.end():]


def diagrams_page(items: Sequence[tuple[str, tuple[str, str], str]],
                  flow_mermaid: str | None = None) -> str:
    parts: list[str] = []
    if not items:
        parts.append("<p class='none'>" + bi(
            "Chưa có sơ đồ nào được đưa vào báo cáo này. Khi bộ kiểm tra vẽ sơ đồ lượt đi, "
            "quyền nhận quân và đồ thị trạng thái, chúng sẽ hiện ở đây.",
            "No diagrams were given to this report. When the checker draws the turn and claim "
            "flow and the state graph, they appear here.") + "</p>")
    else:
        parts.append("<p class='lead'>" + bi(
            "Lăn chuột hoặc dùng nút +/− để phóng to, kéo để di chuyển; bấm tên hình để mở cỡ "
            "lớn. Mỗi hình có phần mô tả bằng chữ.",
            "Scroll or use +/− to zoom, drag to move; select a picture's name to open it full "
            "size. Every picture has a text description.") + "</p>")
    for k, (rel, (vi, en), desc) in enumerate(items):
        did = f"desc-{k}"
        parts.append(
            f'<figure class="diagram">'
            f'<div class="zoom-tools" aria-hidden="false">'
            f'<button type="button" data-zoom="in" aria-label="phóng to / zoom in">+</button>'
            f'<button type="button" data-zoom="out" aria-label="thu nhỏ / zoom out">−</button>'
            f'<button type="button" data-zoom="reset" aria-label="vừa khung / fit">⤢</button>'
            f"</div>"
            f'<div class="zoom" tabindex="0" aria-describedby="{did}">'
            f'<img src="{esc(rel)}" alt="{esc(vi)}" data-alt-vi="{esc(vi)}" '
            f'data-alt-en="{esc(en)}" aria-describedby="{did}" draggable="false"></div>'
            f'<figcaption><a href="{esc(rel)}">{bi(vi, en)}</a></figcaption>'
            f'<details class="desc"><summary>{bi("Mô tả bằng chữ", "Text description")}'
            f'</summary><pre id="{did}">{esc(desc)}</pre></details></figure>')
    if flow_mermaid:
        parts.append(
            '<section id="flow-mermaid"><h2>' + bi("Luồng ván bài dạng Mermaid",
                                                   "The flow of a hand as Mermaid") + "</h2>"
            "<p>" + bi("Dán đoạn này vào nơi đọc Markdown có Mermaid để vẽ lại sơ đồ luồng.",
                       "Paste this where Markdown with Mermaid is read to redraw the flow.")
            + f'</p><pre class="mermaid-src"><code>{esc(flow_mermaid)}</code></pre></section>')
    return "\n".join(parts)


# --------------------------------------------------------------------------- explorer


def explorer_page(table: table_mod.Table, data: Mapping[str, Any]) -> str:
    red = {f["face"] for f in data["faces"] if f["red"]}
    groups: list[tuple[str, str, list[int]]] = [
        (f"Chất {s}", f"Suit {s}", [si * 9 + r for r in range(9)])
        for si, s in enumerate(cards.SUIT_NAMES)
    ]
    groups.append(("Yêu", "Yêu (no suit)", list(cards.YEU)))
    pick = []
    for vi, en, faces in groups:
        btns = []
        for f in faces:
            if f not in data["rulesets"][0]["faces"]:
                continue
            name = cards.name(f)
            btns.append(
                f'<div class="pick" data-face="{f}">'
                f'<button type="button" class="add" data-face="{f}" '
                f'aria-label="Thêm {esc(name)}" data-label-vi="Thêm {esc(name)}" '
                f'data-label-en="Add {esc(name)}">{tile(f, red)}</button>'
                f'<span class="count" aria-live="off" id="count-{f}">0</span>'
                f'<button type="button" class="sub" data-face="{f}" '
                f'aria-label="Bớt {esc(name)}" data-label-vi="Bớt {esc(name)}" '
                f'data-label-en="Remove {esc(name)}">−</button></div>')
        pick.append(f"<fieldset class='faces'><legend>{bi(vi, en)}</legend>"
                    f"{''.join(btns)}</fieldset>")
    players = "".join(
        f'<label><input type="radio" name="players" value="{p}"{" checked" if i == 0 else ""}> '
        f'{bi(f"{p} người", f"{p} players")}</label>'
        for i, p in enumerate(data["players"]))
    cand = ['<option value="">'
            + esc("— không có / none (cả bài như khi vừa chia / the hand as dealt)")
            + "</option>"]
    cand += [f'<option value="{f}">{esc(cards.name(f))} ({cards.code(f)})</option>'
             for f in data["rulesets"][0]["faces"]]
    payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return f"""
<p class="lead">{bi(
    "Chọn các quân trên tay (bấm vào quân để thêm, nút − để bớt, tối đa 4 bản mỗi mặt), số "
    "người chơi và, nếu muốn, quân sẽ hoàn thành Ù. Máy cho biết bài có ù không dưới mỗi lựa "
    "chọn của những luật còn mở có ảnh hưởng, kèm cách chia đôi. Mọi quân được coi là còn kín.",
    "Pick the cards in the hand (select a tile to add it, − to remove; at most 4 copies of a "
    "face), the number of players and, if you like, the card that would complete the hand. "
    "The verdict is shown under each value of the open rules that matter, with the pairs. "
    "All cards count as concealed.")}</p>
<form id="explorer" onsubmit="return false">
<fieldset class="setup"><legend>{bi("Ván chơi", "Game")}</legend>
<div class="row">{players}</div>
<div class="row"><label for="cand">{bi("Quân hoàn thành Ù:", "Completing card:")}</label>
<select id="cand">{"".join(cand)}</select></div>
<div class="row"><label><input type="checkbox" id="chiu-u"> {bi(
    "Ù bằng Chíu (quân thứ tư của ba quân đang cầm)",
    "Win by chíu (the fourth copy of three held)")}</label></div>
<div class="row"><button type="button" id="clear">{bi("Xoá hết", "Clear all")}</button>
<button type="button" id="sample">{bi("Bài mẫu", "Sample hand")}</button></div>
</fieldset>
<p id="hand-status" class="status" aria-live="polite"></p>
<div id="hand-view" class="hand-view" aria-label="Bài đang chọn"></div>
{"".join(pick)}
</form>
<section id="verdicts" aria-live="polite"><h2>{bi("Kết quả", "Verdict")}</h2>
<div id="verdict-body"><noscript>{bi("Cần bật JavaScript để dùng trang này.",
                                     "This page needs JavaScript.")}</noscript></div></section>
<script type="application/json" id="chan-data">{payload}</script>
"""


# --------------------------------------------------------------------------- building


def asset_text(name: str) -> str:
    return importlib.resources.files("chanspec.checks.report").joinpath("assets", name).read_text(
        encoding="utf-8")


def _findings_map(findings: Any) -> dict[str, Any]:
    if findings is None:
        return {}
    if isinstance(findings, Mapping):
        return dict(findings)
    out = {}
    for f in findings:  # a list of findings that carry their row id
        rid = _get(f, "row", "rule", "id", "row_id", "question")
        rid = _get(rid, "id", default=rid) if not isinstance(rid, str) else rid
        if rid is None:
            raise ValueError(f"a finding without a row id: {f!r}")
        out[str(rid)] = f
    return out


def _flow_mermaid(tbl: table_mod.Table) -> str | None:
    try:  # networkx draws the flow; without it the page simply has no Mermaid source
        from chanspec.checks.report import diagrams
    except ImportError:
        return None
    return diagrams.flow_mermaid(tbl)


def build_report(out_dir: str | Path, *, table: table_mod.Table | str = "family",
                 findings: Mapping[str, Any] | Iterable[Any] | None = None,
                 svgs: Iterable[Any] = (),
                 clauses: Sequence[Mapping[str, Any]] = (),
                 extra_pages: Sequence[tuple[str, tuple[str, str], tuple[str, str], str]] = ()
                 ) -> Path:
    """Write the site into out_dir (created if needed); returns the path of index.html.

    ``table``: a loaded Table or a ruleset name/path.  ``findings``: row id -> finding
    (or a list of findings carrying their row id in ``row``/``rule``/``id``).  ``svgs``:
    paths of SVG files, or ``(path, title)`` pairs, or ``{"path", "title_vi", "title_en"}``
    dicts; they are copied into ``out_dir/diagrams/``.  ``clauses``: the clause
    measurements of the saved findings (``OPEN_QUESTIONS.json``), shown on the questions
    page.  ``extra_pages``: (file name, (nav vi, nav en), (title vi, title en), body HTML)
    of more pages, linked from every page (the cước page: `cuoc_page.page()`).
    """
    tbl = table_mod.load(table) if isinstance(table, str) else table
    fmap = _findings_map(findings)
    unknown = sorted(set(fmap) - {r.id for r in question_rows(tbl)})
    if unknown:
        raise ValueError(f"findings for rows that are not open/provisional options: {unknown}")
    out = prepare_output_dir(out_dir)
    prepare_output_dir(out / "assets")
    for name in ASSETS:
        write_atomic(out / "assets" / name, asset_text(name))
    diagram_items: list[tuple[str, tuple[str, str], str]] = []
    svg_list = _svg_items(svgs)
    if svg_list:
        prepare_output_dir(out / "diagrams")
    used: set[str] = set()
    for p, title, desc in svg_list:
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", p.stem) or "diagram"
        name, k = f"{stem}.svg", 2
        while name in used:
            name, k = f"{stem}-{k}.svg", k + 1
        used.add(name)
        svg = p.read_text(encoding="utf-8")
        desc = desc or describe_svg(svg)
        write_atomic(out / "diagrams" / name,
                     accessible_svg(svg, f"{title[0]} / {title[1]}", desc))
        diagram_items.append((f"diagrams/{name}", title, desc))
    data = export_rulesets(tbl)
    flow_mermaid = _flow_mermaid(tbl)
    pages = {
        "index.html": (("Luật chơi", "Rulebook"), rulebook_page(tbl), ()),
        "questions.html": (("Câu hỏi còn mở", "Open questions"),
                           questions_page(tbl, fmap, clauses), ()),
        "diagrams.html": (("Sơ đồ", "Diagrams"), diagrams_page(diagram_items, flow_mermaid),
                          ()),
        "explorer.html": (("Thử bài ù", "Winning-hand explorer"), explorer_page(tbl, data),
                          ("assets/win.js", "assets/explorer.js")),
    }
    nav = PAGES + tuple((name, vi, en) for name, (vi, en), _, _ in extra_pages)
    for name, _, title, body in extra_pages:
        if name in pages or "/" in name or not name.endswith(".html"):
            raise ValueError(f"extra page {name!r}: a new .html file name is needed")
        pages[name] = (title, body, ())
    for name, (title, body, scripts) in pages.items():
        write_atomic(out / name, _page(tbl, name, title, body, scripts, nav))
    return out / "index.html"
