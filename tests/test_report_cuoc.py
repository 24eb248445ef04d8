"""The cước page of the report (checks/report/cuoc_page.py, cuoc.html): every cước of
classic Chắn with its condition in words, a drawn example judged again here by the
scorer, its amounts under each reading, its frequency with the number of hands stated,
and the co-occurrence table."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.chan import cuoc_search
from chanspec.checks.cli.app import main
from chanspec.checks.report import cuoc_page, site
from chanspec.model.chan import cards, cuoc, table, win

HANDS = 16


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return cuoc_page.compute(table.load("classic"), hands=HANDS, seed=0)


@pytest.fixture(scope="module")
def built(data: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    site.build_report(out, table="family", extra_pages=[cuoc_page.page(data)])
    return out


def _article(page: str, rid: str) -> str:
    m = re.search(rf'<article class="cuoc" id="c-{re.escape(rid)}">(.*?)</article>', page, re.S)
    assert m, rid
    return m.group(1)


def _sample(ex: dict[str, Any], tbl: table.Table) -> tuple[table.Rules, cuoc_search.Sample]:
    ctx = ex["context"]
    dealt = None if ctx["dealt"] is None else tuple(cards.counts(cards.parse_many(
        " ".join(ctx["dealt"]))))
    rules = tbl.resolve(4, ex["options"])
    laid = tuple(win.group_of(
        cards.parse_many(" ".join(g)), rules) for g in ex["laid"])
    c = cuoc.WinContext(ctx["kind"], None if ctx["card"] is None else cards.parse(ctx["card"]),
                        ctx["source"], ctx["thong"], ctx["first_round"], dealt)
    s = cuoc_search.Sample(tuple(cards.parse_many(" ".join(ex["hand"]))), laid, c,
                           tuple(sorted(ex["options"].items())))
    return rules, s


def test_every_cuoc_has_an_article_with_words_amounts_example_and_frequency(
        built: Path, data: dict[str, Any]) -> None:
    tbl = table.load("classic")
    page = (built / "cuoc.html").read_text(encoding="utf-8")
    entries = tbl.data["cuoc"]
    assert page.count('<article class="cuoc"') == len(entries) >= 26
    for e in entries:
        rid = e["rule"]
        art = _article(page, rid)
        row = tbl.rows[rid]
        assert html.escape(row.title_vi, quote=True) in art and \
            html.escape(row.title_en, quote=True) in art
        vi, en = cuoc_page.entry_words(e, tbl)
        assert html.escape(vi, quote=True) in art and html.escape(en, quote=True) in art
        if "amount_rule" in e:
            for v in e["amounts"]:
                assert html.escape(tbl.rows[e["amount_rule"]].label(v, "vi"), quote=True) in art
        elif "diem" in e:
            assert f"{e['diem']} " in art
        assert f"/ {data['frequency']['wins']} ván ù" in art
        assert 'class="tile' in art  # the example is drawn


def test_each_example_is_a_win_the_scorer_says_holds_its_cuoc(data: dict[str, Any]) -> None:
    tbl = table.load("classic")
    assert set(data["examples"]) == {e["rule"] for e in tbl.data["cuoc"]}
    for rid, ex in data["examples"].items():
        rules, s = _sample(ex, tbl)
        j = cuoc_search.judge_sample(rules, s)
        assert rid in {h.row for h in j.declared}, rid
        assert [h.row for h in j.declared] == ex["declared"]


def test_the_number_of_hands_is_stated_and_matches_the_counts(built: Path,
                                                               data: dict[str, Any]) -> None:
    page = (built / "cuoc.html").read_text(encoding="utf-8")
    f = data["frequency"]
    assert f["hands"] == HANDS and sum(f["ended"].values()) == HANDS
    assert f"Tần suất: {HANDS} ván có hạt giống 0" in page
    assert f"Frequencies: {HANDS} hands seeded 0" in page
    for rid, c in f["cuoc"].items():
        assert f"Gặp trong {c['declared']} / {f['wins']} ván ù" in _article(page, rid)


def test_cooccurrence_table_and_largest_score(built: Path, data: dict[str, Any]) -> None:
    page = (built / "cuoc.html").read_text(encoding="utf-8")
    table_html = page[page.index("class='cooccur'"):]
    impossible = sum(1 for p in data["pairs"] if not p["possible"])
    assert impossible >= 1
    # each pair shows twice (the table is symmetric)
    assert table_html.count("không thể") == 2 * impossible
    assert f"{data['largest']['total']} (gà" in page


def test_the_nav_links_the_page_only_when_it_is_built(built: Path, tmp_path: Path) -> None:
    for name in ("index.html", "questions.html", "cuoc.html"):
        assert 'href="cuoc.html"' in (built / name).read_text(encoding="utf-8")
    site.build_report(tmp_path, table="family")
    assert not (tmp_path / "cuoc.html").exists()
    assert 'href="cuoc.html"' not in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_condition_words() -> None:
    tbl = table.load("classic")
    assert cuoc_page.condition_words({"count": "red", "eq": 0}, tbl, "en") == \
        "red cards in the hand = 0"
    assert cuoc_page.condition_words({"count": "red", "eq": 0}, tbl, "vi") == \
        "số quân đỏ trong bài = 0"
    words = cuoc_page.condition_words(
        {"source": ["own-draw"], "when": {"option": "cuoc-chi-source", "is": "own-draw"}},
        tbl, "en")
    assert "own-draw" in words and "cuoc-chi-source" in words
    assert cuoc_page.condition_words({"sets": ["9v", "8s", "chi"], "ge": 1}, tbl, "en") == \
        "complete sets of Cửu Vạn, Bát Sách, Chi Chi ≥ 1"


def test_cli_report_builds_the_cuoc_page_with_a_small_n(tmp_path: Path) -> None:
    assert main(["report", "--out", str(tmp_path / "s"), "--cuoc-hands", "4",
                 "--from", str(tmp_path / "none")]) == 0
    page = (tmp_path / "s" / "cuoc.html").read_text(encoding="utf-8")
    assert "Tần suất: 4 ván" in page
    assert main(["report", "--out", str(tmp_path / "t"), "--cuoc-hands", "-1"]) == 2
