"""The pages the family reads (issue 31 item 7): hands laid out as a family holds them,
frequencies drawn as 100 squares, and no row id or English place label in the
Vietnamese text of a built report."""

from __future__ import annotations

import html
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from chanspec.checks.findings import compute, render
from chanspec.checks.report import figures
from chanspec.checks.report import site as report
from chanspec.model import kinds, source
from chanspec.model.chan import cards
from hypothesis import given, settings
from hypothesis import strategies as st

FAMILY = kinds.load("family")
CLASSIC = kinds.load("classic")

# --------------------------------------------------------------------------- the layout

HANDS = st.lists(st.integers(0, cards.NUM_FACES - 1), max_size=30).filter(
    lambda h: max(Counter(h).values(), default=0) <= cards.COPIES)


@settings(max_examples=200, deadline=None)
@given(HANDS)
def test_layout_keeps_every_card_and_groups_chan_then_ca_then_loose(hand: list[int]) -> None:
    groups = cards.layout(hand)
    assert Counter(f for _, g in groups for f in g) == Counter(hand)
    kinds_seen = [k for k, _ in groups]
    assert kinds_seen == sorted(kinds_seen, key=["chan", "ca", "que"].index)
    for kind, g in groups:
        if kind == "chan":
            assert len(g) == 2 and g[0] == g[1]
        elif kind == "ca":
            assert len(g) == 2 and cards.same_rank(g[0], g[1])
        else:
            assert len(g) == 1
    # each run in suit and rank order (the face number)
    for kind in ("chan", "ca", "que"):
        firsts = [g[0] for k, g in groups if k == kind]
        assert firsts == sorted(firsts)
    # as many chắn as there are identical pairs, and no two loose cards make a cạ
    assert kinds_seen.count("chan") == sum(n // 2 for n in Counter(hand).values())
    loose = [g[0] for k, g in groups if k == "que"]
    assert not any(cards.same_rank(a, b) for a in loose for b in loose)


def test_layout_uses_the_tables_ca() -> None:
    """Under the family's table Chi Chi and Nhất Vạn are a (special) cạ; by rank alone
    they are two loose cards."""
    hand = cards.parse_list(["chi", "1v", "5s", "5s"])
    rules = FAMILY.resolve(4)
    assert [k for k, _ in cards.layout(hand, rules.is_ca)] == ["chan", "ca"]
    assert [k for k, _ in cards.layout(hand)] == ["chan", "que", "que"]


def test_a_hand_is_drawn_in_its_layout_order() -> None:
    hand = cards.parse_list(["9s", "3n", "3v", "chi", "3v", "3s"])
    drawn = report.hand_html(hand, red=[])
    names = re.findall(r'aria-label="([^"]+)"', drawn)
    assert names == ["Tam Vạn", "Tam Vạn", "Tam Văn", "Tam Sách", "Cửu Sách", "Chi Chi"]
    assert drawn.count('class="group chan"') == 1 and drawn.count('class="group ca"') == 1
    assert report.hand_words(hand) == ", ".join(names)


# --------------------------------------------------------------------------- the pictures

RATES = st.floats(0, 10_000, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(RATES, st.one_of(st.none(), RATES))
def test_the_grid_fills_one_square_per_100_hands(rate: float, floor: float | None) -> None:
    svg = figures.per_hundred_svg(rate, "nhãn", floor)
    on, off = svg.count('class="on"'), svg.count('class="off"')
    assert on + off == 100
    assert abs(on - rate / 100) <= 0.5  # the nearest whole square
    assert svg.count('class="part"') == (1 if on == 0 and rate > 0 else 0)
    assert svg.count('class="floor"') == (0 if floor is None else 1)
    assert svg.startswith("<svg") and 'role="img"' in svg and "<title>nhãn</title>" in svg


@pytest.mark.parametrize(("rate", "squares"), [(0, 0), (49.9, 0), (50, 1), (936.7, 9),
                                               (8133.3, 81), (9950, 100), (10_000, 100)])
def test_filled_squares_of_known_figures(rate: float, squares: int) -> None:
    assert figures.filled_squares(rate) == squares


def test_a_figure_has_its_numbers_beside_it_and_says_when_no_chance_level_was_measured(
) -> None:
    m = {"vi": "gặp ở", "en": "comes up in", "per_10000": 8133.3, "ci95": [7989.9, 8268.7]}
    fig = figures.figure_html(m)
    assert "~81/100 ván" in fig and "8.133 / 10.000 (7.990–8.269)" in fig
    assert "chưa đo mức may rủi" in fig and "no chance level measured" in fig
    assert 'class="floor"' not in fig
    marked = figures.figure_html({**m, "floor_per_10000": 400.0})
    assert 'class="floor"' in marked and "may rủi chừng 4 trên 100" in marked


def test_the_saved_findings_become_figures() -> None:
    doc = compute.load()
    assert doc is not None
    found = render.report_findings(doc, FAMILY)
    with_freq = {rid: q for rid, q in doc["questions"].items() if q.get("frequency")}
    assert with_freq
    for rid, q in with_freq.items():
        figs = found[rid]["frequency_figures"]
        assert [v["value"] for v in figs["values"]] == [
            v for v in FAMILY.rows[rid].values if v in q["frequency"]]
        for v in figs["values"]:
            f = q["frequency"][v["value"]]
            rates = [m["per_10000"] for p in v["players"] for m in p["measures"]]
            runs = compute.measured(f)  # greedy and uniform, at every player count
            assert rates == [x for pf in runs for x in (pf["per_10000"],
                                                         pf["changed_per_10000"])]
            # the placebo is the chance level of "changes the result", and only of it
            floors = [m.get("floor_per_10000") for p in v["players"] for m in p["measures"]]
            assert floors == [x for pf in runs for x in (None, pf["placebo_per_10000"])]
            # the figures under other readings (the "read otherwise" line) as pictures too
            other = v["otherwise"]
            assert len(other) == (len(f["blame"]) + 1 if f.get("blame") else 0)
            key = "stuck_per_10000" if f.get("stuck") else "per_10000"
            assert [o["measures"][0]["per_10000"] for o in other] == (
                [f[key]] + [e[key] for e in f["blame"]] if other else [])


def test_read_otherwise_is_drawn_not_written_when_measured() -> None:
    found = render.report_findings(compute.load(), FAMILY)
    rid = next(r for r, f in found.items()
               if any(v["otherwise"] for v in f["frequency_figures"]["values"]))
    page = report.questions_page(FAMILY, {rid: found[rid]})
    figs = found[rid]["frequency_figures"]
    n = sum(len(p["measures"]) for v in figs["values"] for p in v["players"])
    n += sum(len(o["measures"]) for v in figs["values"] for o in v["otherwise"])
    assert page.count('<svg class="per100"') == n
    assert 'class="otherwise"' in page
    assert html.escape(found[rid]["frequency_blame_vi"]) not in page  # the dense line is gone


# --------------------------------------------------------------------------- the words


class _ViText(HTMLParser):
    """The text a reader of the Vietnamese page sees: without the English spans, the
    scripts, and the small print meant for commands (code, footnotes, id anchors)."""

    VOID = {"br", "img", "meta", "link", "input", "hr", "wbr", "source", "col"}
    HIDDEN = {"en", "footnote", "rid"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.heads: list[str] = []
        self.text: list[str] = []
        self.cur: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        a = dict(attrs)
        cls = set((a.get("class") or "").split())
        self.stack.append((tag, bool(cls & self.HIDDEN) or a.get("lang") == "en"
                           or tag in ("script", "style", "code", "title")))
        if re.fullmatch(r"h[1-6]", tag):
            self.cur = []

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        while self.stack and self.stack.pop()[0] != tag:
            pass
        if re.fullmatch(r"h[1-6]", tag) and self.cur is not None:
            self.heads.append("".join(self.cur).strip())
            self.cur = None

    def handle_data(self, data: str) -> None:
        if any(hidden for _, hidden in self.stack):
            return
        self.text.append(data)
        if self.cur is not None:
            self.cur.append(data)


ENGLISH_PLACES = re.compile(r"\b(first paragraph|closing paragraph|paragraphs?|bullets?|"
                            r"items?)\b")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for name in ("family", "classic"):
        d = tmp_path_factory.mktemp(f"site-{name}")
        table = FAMILY if name == "family" else CLASSIC
        found = render.report_findings(compute.load(compute.default_path(name)), table)
        assert found, f"the saved findings of {name} are fresh"
        report.build_report(d, table=table, findings=found)
        out[name] = d
    return out


@pytest.mark.parametrize("name", ["family", "classic"])
@pytest.mark.parametrize("page", ["index.html", "questions.html"])
def test_no_row_id_heads_and_no_english_place_label_on_the_vietnamese_page(
        built: dict[str, Path], name: str, page: str) -> None:
    table = FAMILY if name == "family" else CLASSIC
    p = _ViText()
    p.feed((built[name] / page).read_text(encoding="utf-8"))
    assert p.heads, page
    ids = set(table.rows)
    for head in p.heads:
        words = set(re.findall(r"[\w-]+", head))
        assert not words & ids, (page, head, words & ids)
    text = " ".join(p.text)
    assert not ENGLISH_PLACES.findall(text), (page, sorted(set(ENGLISH_PLACES.findall(text))))
    if page == "index.html":  # every row is headed by its title, its id only an anchor
        raw = (built[name] / page).read_text(encoding="utf-8")
        for row in table.rows.values():
            assert any(h.startswith(row.title("vi")) for h in p.heads), row.id
            assert f'<a class="rid" href="#r-{row.id}"' in raw, row.id


def test_the_place_words_of_every_row_read_in_vietnamese() -> None:
    for table in (FAMILY, CLASSIC):
        for row in table.rows.values():
            vi = source.place_words(row.section, "vi")
            assert not ENGLISH_PLACES.search(vi), (row.id, vi)
    assert source.place_words("§1, first paragraph", "vi") == "§1, đoạn đầu"
    assert source.place_words("§3 bullet 2", "vi") == "§3, gạch đầu dòng 2"
    assert source.place_words("§3 bullet 2", "en") == "§3, bullet 2"


def test_a_witness_deal_is_drawn_one_row_per_seat(built: dict[str, Path]) -> None:
    page = (built["family"] / "questions.html").read_text(encoding="utf-8")
    # no paragraph of card names: the deal's words are only in its folded text alternative
    acts = re.findall(r'<p class="act">(.*?)</p>', page, re.S)
    assert acts and not any("Chia bài —" in a for a in acts)
    deals = re.findall(r'<div class="deal">(.*?)</div><details', page, re.S)
    assert deals
    for d in deals:
        rows = re.findall(r'class="deal-row" role="group" aria-label="([^"]+)"', d)
        assert 2 <= len(rows) <= 5, rows
        assert all(re.match(r"Ghế \d", r) for r in rows)
