"""The family's static site (checks/report/site.py): content, consistency, links, and the JS
port of the winning-hand engine against model/chan/win.py."""

from __future__ import annotations

import html
import json
import random
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest
from chanspec.checks.cli import main
from chanspec.checks.findings import questions
from chanspec.checks.report import site as report
from chanspec.model.chan import cards, table, win
from conftest import JS_RUNTIMES, needs_node, needs_renderer, run_js

ROOT = Path(__file__).resolve().parent.parent
TABLE = table.load("family")
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60">'
       '<rect x="5" y="5" width="110" height="50" fill="#cde"/>'
       '<text x="12" y="35">bốc → ăn</text></svg>')

# A hand-made witness for lao-thang, in the structured form the renderer takes.
LAO_THANG_STEPS = [
    {"seat": 0, "action": {"vi": "Ghế 0 đánh Lão ra cửa mình.", "en": "Seat 0 discards Lão."},
     "cards": ["lao"], "hands": {0: ["8v", "8v", "1n"], 1: ["thang", "9s", "9s"]},
     "gates": {0: ["lao"], 1: []}},
    {"seat": 1, "action_vi": "Ghế 1 ăn Lão bằng Thang thành Cạ.",
     "action_en": "Seat 1 eats Lão with Thang as a cạ.", "cards": ["lao", "thang"],
     "hands": [["8v", "8v", "1n"], ["9s", "9s"]], "gates": [[], []],
     "laid": {1: [["lao", "thang"]]}, "note": "chỉ khi lao-thang=on"},
]
FINDINGS = {
    "lao-thang": {
        "scenarios": [{"title": {"vi": "Ăn Lão bằng Thang", "en": "Eating Lão with Thang"},
                       "players": 4, "steps": LAO_THANG_STEPS}],
        "frequency": 0.0125,
        "effects": {"on": {"vi": "Ghế 1 được ăn.", "en": "Seat 1 may eat."},
                    "off": {"vi": "Ghế 1 không ăn được.", "en": "Seat 1 cannot eat."}},
    },
    # the shape checks/findings/questions.py produces
    "drawn-card-offer": questions.Finding(
        steps_vi=("Ghế 2 bốc Tam Văn.", "Ghế 2 chuyển; Ghế 3 ăn."),
        steps_en=("Seat 2 draws Tam Văn.", "Seat 2 passes; seat 3 eats."),
        frequency_vi="khoảng 3 ván trên 10", frequency_en="about 3 hands in 10",
        effects={"next-only": questions.Effect("Ghế 2 không được ăn.", "Seat 2 may not eat."),
                 "drawer-then-next": questions.Effect("Ghế 2 ăn trước.", "Seat 2 eats first.")},
        source="chanspec explore --seed 7",
    ),
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("site")
    svg = d.parent / "turn-flow.svg"
    svg.write_text(SVG, encoding="utf-8")
    out = d / "out"
    index = report.build_report(out, table=TABLE, findings=FINDINGS,
                                svgs=[svg, (svg, {"vi": "Đồ thị", "en": "Graph"})])
    assert index == out / "index.html"
    return out


def page(site: Path, name: str) -> str:
    return (site / name).read_text(encoding="utf-8")


def article(text: str, anchor: str) -> str:
    """The <article> with the given id."""
    start = text.index(f'id="{anchor}"')
    return text[start:text.index("</article>", start)]


# --------------------------------------------------------------------------- rulebook


def test_rulebook_has_every_row_in_its_section_with_both_languages(site: Path) -> None:
    text = page(site, "index.html")
    sections = {m.group(1): m.start() for m in re.finditer(r'<section id="s(\d)"', text)}
    assert sorted(sections) == ["1", "2", "3", "4"]
    bounds = sorted(sections.values()) + [len(text)]
    for row in TABLE.rows.values():
        pos = text.index(f'id="r-{row.id}"')
        key = re.search(r"§\s*(\d)", row.section).group(1)
        start = sections[key]
        end = next(b for b in bounds if b > start)
        assert start < pos < end, f"{row.id} is outside §{key}"
        art = article(text, f"r-{row.id}")
        assert html.escape(row.vi) in art and html.escape(row.en) in art
        assert f"badge st-{row.status}" in art
        icon, vi, en = report.STATUS[row.status]
        assert icon in art and vi in art and en in art  # not colour alone
        assert ("Bộ kiểm tra phát hiện" in art) == (row.found_by == "checker")


def test_rulebook_lists_options_meanings_and_default(site: Path) -> None:
    text = page(site, "index.html")
    for row in TABLE.option_rows():
        art = article(text, f"r-{row.id}")
        for v in row.values:
            # a reading by its label, its id small and grey for whoever types a command
            assert report.bi(row.label(v, "vi"), row.label(v, "en")) in art
            assert f'<span class="footnote">{html.escape(v)}</span>' in art
            assert html.escape(row.value_text[v]["vi"]) in art
            assert html.escape(row.value_text[v]["en"]) in art
        dflt = re.search(r"<tr class='is-default'><th scope='row'>.*?"
                         r'<span class="footnote">([^<]+)</span></th>', art)
        assert dflt and dflt.group(1) == row.default
        assert "mặc định" in art and f'href="questions.html#q-{row.id}"' in art


def test_pages_are_vietnamese_first_with_an_english_switch(site: Path) -> None:
    for name, vi, en in report.PAGES:
        text = page(site, name)
        assert '<html lang="vi" data-lang="vi">' in text
        assert 'id="lang-switch"' in text and "assets/app.js" in text
        both = f'<span class="vi" lang="vi">{vi}</span><span class="en" lang="en">{en}</span>'
        assert both in text
    css = page(site, "assets/style.css")
    assert 'html[data-lang="en"] .vi' in css
    app = page(site, "assets/app.js")
    assert "localStorage" in app and "lang=" in app


# --------------------------------------------------------------------------- open questions


def _expected_questions() -> list[tuple[str, str]]:
    """(id, default's label) of every question, read from OPEN_QUESTIONS.md as the CLI
    writes it (a question by its title, linked to its id; the default by its label)."""
    md = questions.render(TABLE)
    on_disk = ROOT / questions.FILE_NAME
    texts = [md] + ([on_disk.read_text(encoding="utf-8")] if on_disk.is_file() else [])
    found: list[tuple[str, str]] = []
    for text in texts:
        rows = re.findall(r"^\| \[[^\]]+\]\(#([a-z0-9-]+)\) \|.*\| «([^»]+)» \|$", text,
                          re.MULTILINE)
        assert rows, "the OPEN_QUESTIONS.md summary table was not found"
        found += [r for r in rows if r not in found]
    table_rows = [(r.id, f"{r.label(r.default or '', 'vi')} / {r.label(r.default or '', 'en')}")
                  for r in TABLE.rows.values() if r.status in ("open", "provisional")]
    assert sorted(table_rows) == sorted(found)  # the table and the file agree
    return found


def test_questions_page_matches_open_questions_md(site: Path) -> None:
    text = page(site, "questions.html")
    expected = _expected_questions()
    assert len(expected) == sum(r.status in ("open", "provisional") for r in TABLE.rows.values())
    assert len(expected) >= 9  # the family's five undecided points and the checker's own
    for rid, _default in expected:
        art = article(text, f"q-{rid}")
        row = TABLE.rows[rid]
        d = row.default or ""
        assert f"«{report.bi(row.label(d, 'vi'), row.label(d, 'en'))}»" in art
        assert html.escape(row.vi) in art and html.escape(row.en) in art
        assert f"badge st-{row.status}" in art
    # every findings text OPEN_QUESTIONS.md would show is on the page too
    md = questions.render(TABLE, {"drawn-card-offer": FINDINGS["drawn-card-offer"]})
    f = FINDINGS["drawn-card-offer"]
    art = article(text, "q-drawn-card-offer")
    for t in (*f.steps_vi, *f.steps_en, f.frequency_vi, f.frequency_en,
              *(e.vi for e in f.effects.values()), *(e.en for e in f.effects.values())):
        assert t in md and html.escape(t) in art
    assert "chanspec explore --seed 7" in art


def test_questions_without_findings_say_no_scenario_yet(site: Path) -> None:
    text = page(site, "questions.html")
    for row in report.question_rows(TABLE):
        art = article(text, f"q-{row.id}")
        says_none = "Chưa tính được tình huống minh hoạ" in art
        assert says_none == (row.id not in FINDINGS), row.id
        assert ("No scenario has been computed for this question yet." in art) == says_none


def test_question_with_findings_shows_scenario_frequency_and_effects(site: Path) -> None:
    art = article(page(site, "questions.html"), "q-lao-thang")
    assert '<details class="scenario" id="sc-lao-thang-1">' in art
    assert "Ăn Lão bằng Thang" in art and "Eating Lão with Thang" in art
    assert "1.25 %" in art
    assert "Ghế 1 được ăn." in art and "Seat 1 cannot eat." in art
    # the effects sit in the options table, in the row of their value
    off = TABLE.rows["lao-thang"].label("off", "vi")
    off_row = re.search(rf"<th scope='row'><span class=\"vi\" lang=\"vi\">{off}</span>.*?</tr>",
                        art, re.S)
    assert off_row and "Ghế 1 không ăn được." in off_row.group(0)
    assert "Ghế 1 được ăn." not in off_row.group(0)


def test_findings_for_unknown_rows_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="deck"):
        report.build_report(tmp_path, findings={"deck": {"frequency": 1}})


# --------------------------------------------------------------------------- scenarios


def test_render_scenario_draws_a_hand_made_scenario() -> None:
    red = TABLE.resolve(4).red
    out = report.render_scenario(LAO_THANG_STEPS, red, players=4,
                                 title=("Thử", "Try"), sid="sc-x")
    assert out.startswith('<details class="scenario" id="sc-x">')
    assert out.count('<li class="step">') == 2
    # step 1: who acts, what, which card, which gate, who holds what
    assert "Ghế 0 đánh Lão ra cửa mình." in out and "Seat 0 discards Lão." in out
    assert "Cửa của Ghế 0 (mời Ghế 1)" in out and "Gate of seat 0 (offered to seat 1)" in out
    assert "Trên tay (3)" in out and "Hand (3)" in out
    # red card: colour class AND a text mark AND a spoken label
    red_tile = re.search(r'<span class="tile red small" role="img" aria-label="Bát Vạn, quân đỏ"'
                         r'.*?</span></span>', out)
    assert red_tile and "◆đỏ" in red_tile.group(0)
    black = re.search(r'<span class="tile small" role="img" aria-label="Nhất Văn"[^>]*>.*?'
                      r"</span></span>", out)
    assert black and "◆" not in black.group(0) and "Nhất" in black.group(0)
    assert 'aria-label="Lão"' in out and 'aria-label="Thang"' in out
    # step 2: the list form of hands/gates, laid groups, the acting seat marked in words
    assert "Đã hạ" in out and "Laid down" in out and "đang đi" in out
    assert "Trên tay (2)" in out and "trống" in out
    assert "chỉ khi lao-thang=on" in out


def test_render_scenario_rejects_unknown_cards() -> None:
    with pytest.raises(cards.CardError):
        report.render_scenario([{"cards": ["10v"]}], set())


# --------------------------------------------------------------------------- diagrams, links


def test_diagrams_are_copied_and_embedded(site: Path, tmp_path: Path) -> None:
    text = page(site, "diagrams.html")
    copied = (site / "diagrams" / "turn-flow.svg").read_text(encoding="utf-8")
    # copied with a title and a description for screen readers, drawn from its content
    assert copied == report.accessible_svg(SVG, "turn flow / turn flow", "bốc → ăn")
    assert '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" role="img"' in copied
    assert (site / "diagrams" / "turn-flow-2.svg").is_file()
    assert 'src="diagrams/turn-flow.svg"' in text and 'src="diagrams/turn-flow-2.svg"' in text
    assert 'data-alt-en="Graph"' in text
    report.build_report(tmp_path)
    empty = (tmp_path / "diagrams.html").read_text(encoding="utf-8")
    assert "Chưa có sơ đồ nào" in empty and "<img" not in empty
    with pytest.raises(FileNotFoundError):
        report.build_report(tmp_path / "x", svgs=[tmp_path / "missing.svg"])


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for k, v in attrs:
            if k in ("href", "src") and v:
                self.refs.append(v)
            if k == "id" and v:
                self.ids.add(v)


def broken_links(root: Path) -> list[str]:
    """Every href/src of every page that does not resolve to a file (and anchor)."""
    parsed: dict[Path, _Links] = {}
    for p in root.rglob("*.html"):
        parsed[p] = _Links()
        parsed[p].feed(p.read_text(encoding="utf-8"))
    bad = []
    for p, links in parsed.items():
        for ref in links.refs:
            assert not re.match(r"^[a-z]+:", ref), f"{p.name}: external reference {ref}"
            target_s, _, frag = ref.partition("#")
            target = (p.parent / unquote(target_s)).resolve() if target_s else p
            if not target.is_file():
                bad.append(f"{p.name}: {ref}")
                continue
            anchor = frag.split("&")[0]
            if anchor and not anchor.startswith("lang=") and target in parsed:
                if anchor not in parsed[target].ids:
                    bad.append(f"{p.name}: {ref} (no such anchor)")
    return bad


def test_every_link_resolves(site: Path) -> None:
    assert broken_links(site) == []
    assert len(list(site.rglob("*.html"))) == 4


def test_cli_report_writes_the_site(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "g.svg"
    svg.write_text(SVG, encoding="utf-8")
    fjson = tmp_path / "f.json"
    fjson.write_text(json.dumps({"timeout": {"steps_vi": ["Ghế 1 im lặng."],
                                             "steps_en": ["Seat 1 stays silent."]}}),
                     encoding="utf-8")
    assert main(["report", "--out", str(tmp_path / "s"), "--svg", str(svg),
                 "--findings", str(fjson), "--cuoc-hands", "0"]) == 0  # cước page: its own tests
    assert "index.html" in capsys.readouterr().out
    q = (tmp_path / "s" / "questions.html").read_text(encoding="utf-8")
    assert "Seat 1 stays silent." in article(q, "q-timeout")
    assert (tmp_path / "s" / "diagrams" / "g.svg").is_file()
    assert main(["report", "--out", str(tmp_path / "t"), "--svg", str(tmp_path / "no.svg")]) == 2
    fjson.write_text("[1]", encoding="utf-8")
    assert main(["report", "--out", str(tmp_path / "t"), "--findings", str(fjson)]) == 2


# --------------------------------------------------------------------------- hand explorer


def test_explorer_exports_the_options_that_change_a_win(site: Path) -> None:
    assert [r.id for r in report.win_options(TABLE)] == ["lao-thang", "special-ca-scope"]
    text = page(site, "explorer.html")
    m = re.search(r'<script type="application/json" id="chan-data">(.*?)</script>', text, re.S)
    assert m
    data = json.loads(m.group(1).replace("<\\/", "</"))
    assert len(data["rulesets"]) == 2 * 2 * 2  # players x lao-thang x special-ca-scope
    assert data == json.loads(json.dumps(report.export_rulesets(TABLE)))
    assert text.count('class="add"') == 30 and text.count('class="sub"') == 30
    assert 'aria-label="Thêm Bát Vạn"' in text


def _random_group(rules: table.Rules, rng: random.Random) -> tuple[int, int]:
    r = rng.random()
    if r < 0.55:
        f = rng.choice(rules.faces)
        return f, f
    pairs = [(a, b) for a in rules.faces for b in rules.faces if a < b and rules.is_ca(a, b)]
    if r < 0.8:
        pairs = [p for p in pairs if 0 in p or 9 in p or 18 in p or max(p) >= 27] or pairs
    return rng.choice(pairs)


def _cases(rules: table.Rules, rng: random.Random, n: int) -> list[dict[str, object]]:
    """Near-complete hands (often winning, sometimes one card off), random ones,
    chíu-ù and opening hands, and a few with the wrong number of cards."""
    need = 2 * rules.pairs
    out: list[dict[str, object]] = []
    while len(out) < n:
        style = rng.random()
        cnt = [0] * 30
        hand: list[int] = []

        def add(f: int, cnt: list[int] = cnt, hand: list[int] = hand) -> bool:
            if cnt[f] >= rules.copies:
                return False
            cnt[f] += 1
            hand.append(f)
            return True

        if style < 0.12:  # random cards
            while len(hand) < need:
                add(rng.choice(rules.faces))
        else:
            chiu = style < 0.3
            if chiu:
                f = rng.choice(rules.faces)
                for _ in range(4):
                    add(f)
            tries = 0
            while len(hand) < need and tries < 500:
                tries += 1
                a, b = _random_group(rules, rng)
                if cnt[a] + 1 + (a == b) <= rules.copies and cnt[b] + 1 <= rules.copies:
                    add(a)
                    add(b)
            if len(hand) < need:
                continue
            if rng.random() < 0.25:  # one card off
                i = rng.randrange(need)
                g = rng.choice(rules.faces)
                if cnt[g] < rules.copies:
                    cnt[hand[i]] -= 1
                    hand[i] = g
                    cnt[g] += 1
            if chiu and rng.random() < 0.8:
                rest = list(hand)
                for _ in range(4):
                    rest.remove(hand[0])
                rng.shuffle(rest)
                out.append({"hand": [hand[0]] * 3 + rest, "cand": hand[0], "kind": "chiu-u"})
                continue
        rng.shuffle(hand)
        r = rng.random()
        if r < 0.15:
            out.append({"hand": hand, "cand": None, "kind": "opening"})
        elif r < 0.2:
            out.append({"hand": hand[:-2], "cand": hand[-1], "kind": "u"})  # a card short
        else:
            out.append({"hand": hand[:-1], "cand": hand[-1], "kind": "u"})
    return out


def _python_verdict(rules: table.Rules, case: dict[str, object]) -> dict[str, object]:
    try:
        v = win.engine(rules).judge(case["hand"], candidate=case["cand"],  # type: ignore[arg-type]
                                    kind=case["kind"])  # type: ignore[arg-type]
    except win.HandError:
        return {"error": True}
    return {"win": v.win, "chan": v.chan, "rules": list(v.rules),
            "groups": None if v.groups is None else [list(g) for g in v.groups]}


@pytest.mark.parametrize("runtime", JS_RUNTIMES)
def test_js_engine_agrees_with_python_on_every_hand(runtime: str, tmp_path: Path) -> None:
    data = report.export_rulesets(TABLE)
    rng = random.Random(20240601)
    by_players = {p: _cases(TABLE.resolve(p), rng, 200) for p in (4, 5)}
    cases = []
    for i, rs in enumerate(data["rulesets"]):
        for c in by_players[rs["players"]]:
            cases.append({"rs": i, **c})
    assert len(cases) == 8 * 200
    js = run_js(runtime, "D.cases.map(c => W.engine(D.rulesets[c.rs]).judge(c.hand, c.cand, "
                "c.kind))", {"rulesets": data["rulesets"], "cases": cases}, tmp_path)
    assert isinstance(js, list)
    assert len(js) == len(cases)
    wins = kinds_seen = 0
    outcomes: set[str] = set()
    for case, jv in zip(cases, js, strict=True):
        rs = data["rulesets"][case["rs"]]
        pv = _python_verdict(TABLE.resolve(rs["players"], rs["options"]), case)
        if "error" in pv:
            assert "error" in jv, (case, jv)
            continue
        got = {k: jv[k] for k in ("win", "chan", "rules", "groups")}
        assert got == pv, (rs["players"], rs["options"], case)
        wins += pv["win"]
        kinds_seen += 1
        outcomes.add(jv["why"])
    # the test set reaches every branch of the verdict
    assert wins >= 150 and kinds_seen >= 1500
    assert outcomes >= {"ok", "count", "never", "shape", "final", "min"}


def _some_cases(rules: table.Rules, rng: random.Random, n: int) -> list[dict[str, object]]:
    """`_cases`, drawn again when a draw does not fit the deck (its chíu hands assume the
    four copies went in whole, which the classic deck's smaller face list can break)."""
    for _ in range(100):
        try:
            return _cases(rules, rng, n)
        except ValueError:
            continue
    raise AssertionError("no set of cases fits this deck")


@pytest.mark.parametrize("runtime", JS_RUNTIMES)
def test_js_engine_agrees_with_python_on_classic_hands(runtime: str, tmp_path: Path) -> None:
    """Classic's deck, its Chi Chi that completes only exactly six chắn (by each reading of
    chi-completes) and its thiên ù minimum (thien-u): the report's engine and model/chan/win.py
    agree, Chi Chi candidates included."""
    classic = table.load("classic")
    data = report.export_rulesets(classic)
    assert {o["id"] for o in data["win_options"]} >= {"chi-completes", "thien-u"}
    rng = random.Random(7)
    chi = cards.parse("chi")
    cases = []
    for i, rs in enumerate(data["rulesets"]):
        cs = _some_cases(classic.resolve(rs["players"]), rng, 40)
        for c in cs[:20]:  # half of them on Chi Chi, where the readings part
            if c["kind"] == "u" and c["cand"] != chi and chi in c["hand"]:
                h = list(c["hand"])
                h.remove(chi)
                c = {"hand": h + [c["cand"]], "cand": chi, "kind": "u"}
            cases.append({"rs": i, **c})
        cases += [{"rs": i, **c} for c in cs[20:]]
    js = run_js(runtime, "D.cases.map(c => W.engine(D.rulesets[c.rs]).judge(c.hand, c.cand, "
                "c.kind))", {"rulesets": data["rulesets"], "cases": cases}, tmp_path)
    outcomes: set[str] = set()
    for case, jv in zip(cases, js, strict=True):
        rs = data["rulesets"][case["rs"]]
        pv = _python_verdict(classic.resolve(rs["players"], rs["options"]), case)
        if "error" in pv:
            assert "error" in jv, (case, jv)
            continue
        got = {k: jv[k] for k in ("win", "chan", "rules", "groups")}
        assert got == pv, (rs["players"], rs["options"], case)
        outcomes.add(jv["why"])
    assert outcomes >= {"ok", "shape", "min"}, outcomes


@pytest.mark.parametrize("runtime", JS_RUNTIMES)
def test_js_engine_sees_the_open_rules_change_a_verdict(runtime: str, tmp_path: Path) -> None:
    """Hand-picked hands whose verdict the open rules decide, judged in JavaScript."""
    data = report.export_rulesets(TABLE)
    p = cards.parse_many
    # 23 cards, Nhất Văn completes the final pair with Nhất Vạn: special under whole-group
    nhat = p("1v 2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 2n 2n 3n 3n 4n 4n")
    # Lão + Thang held as a pair
    lt = p("lao thang 2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 2n 2n 3n 3n 4n")
    cases = [{"hand": nhat, "cand": cards.parse("1n"), "kind": "u"},
             {"hand": lt, "cand": cards.parse("4s"), "kind": "u"}]
    res = run_js(runtime, "D.rulesets.filter(r => r.players === 4).map(r => [r.options, "
                 "D.cases.map(c => W.engine(r).judge(c.hand, c.cand, c.kind).win)])",
                 {"rulesets": data["rulesets"], "cases": cases}, tmp_path)
    assert isinstance(res, list)
    got = {(o["lao-thang"], o["special-ca-scope"]): w for o, w in res}
    assert got == {("on", "yeu-only"): [True, True], ("on", "whole-group"): [False, True],
                   ("off", "yeu-only"): [True, False], ("off", "whole-group"): [False, False]}


@needs_renderer
def test_default_report_shows_the_checkers_saved_findings(tmp_path: Path) -> None:
    """Without --findings, the report is built from OPEN_QUESTIONS.json, the data that
    OPEN_QUESTIONS.md is rendered from: every witness scenario in it appears, drawn as a
    table, and so do the frequencies."""
    import html as html_mod
    import json as json_mod

    from chanspec.checks.cli import app as cli
    from chanspec.checks.findings import compute as findings
    from chanspec.checks.findings import render

    doc = findings.load()
    assert doc is not None and doc["table_digest"] == findings.table_digest(TABLE)
    out = tmp_path / "site"
    assert cli.main(["report", "--out", str(out), "--from", str(tmp_path / "none")]) == 0
    text = html_mod.unescape((out / "questions.html").read_text(encoding="utf-8"))
    witnessed = [rid for rid, q in doc["questions"].items() if q.get("witness")]
    assert witnessed, "the saved findings have witness scenarios"
    for rid in witnessed:
        w = doc["questions"][rid]["witness"]
        last = w["steps"][-1]["action_vi"].replace("`", "")
        assert last in text, (rid, last)
    for rid, q in doc["questions"].items():
        for v, f in q.get("frequency", {}).items():
            # how often it comes up and how often it changes the result, both players,
            # each as a picture of 100 squares with its figure per 10,000 beside it
            # (greedy and uniform at every player count), the placebo beside the second
            for pf in findings.measured(f):
                for key in ("per_10000", "changed_per_10000"):
                    assert f"{render.whole(pf[key], 'vi')} / 10.000 (" in text, (rid, v, key)
                assert f"may rủi {render.whole(pf['placebo_per_10000'], 'vi')} (" in text
            assert (f"{render.number(f['hands'], 'vi')} ván của người chơi tham, "
                    f"{f['players']} người") in text
    # with no checker pictures at --from, the flow diagram is drawn from the table
    assert (out / "diagrams").is_dir() and list((out / "diagrams").glob("flow*.svg"))
    json_mod.dumps(doc)  # the saved document is plain JSON


WITNESS_DOT = ('digraph "w" {\n  node [fontname="Helvetica"];\n'
               '  0 [label="0. Ghế 0 đánh Tam Văn / Seat 0 discards Tam Văn"];\n'
               '  1 [label="1. Ghế 1 chíu / Seat 1 takes a chíu"];\n  0 -> 1;\n}\n')


@needs_renderer
def test_report_draws_the_pictures_the_checker_saved_only_as_dot(tmp_path: Path,
                                                                 capsys: object) -> None:
    """`chanspec check` without a renderer leaves .dot files only; `chanspec report` with a
    renderer draws them itself (into the site, the check's folder is left as it was)."""
    from chanspec.checks.report import diagrams

    src = tmp_path / "check"
    src.mkdir()
    (src / "flow.dot").write_text(diagrams.flow_dot(TABLE), encoding="utf-8")
    (src / "witness-lao-thang.dot").write_text(WITNESS_DOT, encoding="utf-8")
    before = sorted(p.name for p in src.iterdir())
    assert main(["report", "--out", str(tmp_path / "site"), "--from", str(src)]) == 0
    drawn = sorted(p.name for p in (tmp_path / "site" / "diagrams").glob("*.svg"))
    assert drawn == ["flow.svg", "witness-lao-thang.svg"]
    svg = (tmp_path / "site" / "diagrams" / "witness-lao-thang.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and "Ghế 0 đánh Tam Văn" in svg and "chíu" in svg
    text = page(tmp_path / "site", "diagrams.html")
    assert 'src="diagrams/witness-lao-thang.svg"' in text
    assert sorted(p.name for p in src.iterdir()) == before


def test_report_without_a_renderer_says_what_to_install(tmp_path: Path, capsys: object,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHANSPEC_DOT", "none")
    src = tmp_path / "check"
    src.mkdir()
    (src / "witness-lao-thang.dot").write_text(WITNESS_DOT, encoding="utf-8")
    assert main(["report", "--out", str(tmp_path / "site"), "--from", str(src),
                 "--lang", "en"]) == 0
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "1 diagram(s) not drawn" in err and "pip install graphviz-pure" in err
    assert "Traceback" not in err
    assert not list((tmp_path / "site").rglob("*.svg"))


# --------------------------------------------------------------------------- readable diagrams


GRAPHVIZ_LIKE = ('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="90"><g id="graph0" '
                 'class="graph"><g id="node1" class="node"><title>a</title><text>mở đầu</text>'
                 '</g><g id="node2" class="node"><title>b</title><text>hết ván &amp; ù</text>'
                 '</g><g id="edge1" class="edge"><title>a&#45;&gt;b</title><text>u [opening-win]'
                 '</text></g></g></svg>')


def test_diagram_text_alternative_comes_from_the_graph() -> None:
    d = report.describe_svg(GRAPHVIZ_LIKE)
    assert d.splitlines()[0] == "2 ô / boxes, 1 mũi tên / arrows."
    assert "- mở đầu" in d and "- hết ván & ù" in d and "u [opening-win]" in d
    acc = report.accessible_svg(GRAPHVIZ_LIKE, "Luồng / Flow", d)
    assert acc.index("<title id=\"svg-title\">Luồng / Flow</title>") < acc.index("<g id=")
    assert 'role="img" aria-labelledby="svg-title svg-desc"' in acc
    assert "hết ván &amp; ù" in acc.split("<desc")[1].split("</desc>")[0]


def test_diagrams_page_pans_zooms_and_describes(tmp_path: Path) -> None:
    svg = tmp_path / "quotient-five.svg"
    svg.write_text(GRAPHVIZ_LIKE, encoding="utf-8")
    out = tmp_path / "s"
    report.build_report(out, svgs=[{"path": str(svg), "title_vi": "Đồ thị thương",
                                    "title_en": "Quotient graph", "desc": "14 nhóm / groups"}])
    text = page(out, "diagrams.html")
    assert '<div class="zoom" tabindex="0" aria-describedby="desc-0">' in text
    assert 'data-zoom="in"' in text and 'data-zoom="out"' in text and 'data-zoom="reset"' in text
    assert '<pre id="desc-0">14 nhóm / groups</pre>' in text
    assert "14 nhóm / groups" in (out / "diagrams" / "quotient-five.svg").read_text(
        encoding="utf-8")
    assert "panZoom" in (out / "assets" / "app.js").read_text(encoding="utf-8")
    # the flow of a hand as Mermaid, and it parses
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    import mermaid_grammar

    src = html.unescape(text.split('<pre class="mermaid-src"><code>')[1].split("</code>")[0])
    assert src.startswith("flowchart TD") and mermaid_grammar.problems(src) == []
    assert broken_links(out) == []


@needs_node
def test_pan_zoom_script_zooms_at_the_pointer_and_drags(tmp_path: Path) -> None:
    """app.js's pan and zoom, run by Node.js on a minimal stand-in for the page."""
    js = (ROOT / "checks" / "report" / "assets" / "app.js").read_text(encoding="utf-8")
    harness = """
    var handlers = {}, docHandlers = {};
    function el(tag) { return { tagName: tag, style: {}, attrs: {}, ev: {},
      setAttribute: function (k, v) { this.attrs[k] = v; },
      getAttribute: function (k) { return this.attrs[k]; },
      addEventListener: function (t, f) { this.ev[t] = f; },
      querySelectorAll: function () { return []; }, setPointerCapture: function () {},
      getBoundingClientRect: function () { return { left: 0, top: 0 }; } }; }
    var img = el("IMG"); img.complete = true; img.naturalWidth = 2000;
    var box = el("DIV"); box.clientWidth = 500; box.clientHeight = 300;
    box.querySelector = function () { return img; };
    var fig = el("FIGURE"); fig.querySelector = function () { return box; };
    var body = el("BODY");
    global.location = { hash: "" }; global.history = {};
    global.localStorage = { getItem: function () { return null; } };
    global.CustomEvent = function () {};
    global.window = { addEventListener: function () {} };
    global.document = { documentElement: el("HTML"), body: body,
      getElementById: function () { return null; }, querySelector: function () { return null; },
      createElement: function (t) { return el(t); }, dispatchEvent: function () {},
      addEventListener: function (t, f) { docHandlers[t] = f; },
      querySelectorAll: function (sel) { return sel === "figure.diagram" ? [fig] : []; } };
    body.appendChild = function () {};
    """ + js + """
    docHandlers.DOMContentLoaded();
    var out = {};
    out.fit = fig.panZoom.state();
    box.ev.wheel({ deltaY: -1, clientX: 100, clientY: 50, preventDefault: function () {} });
    out.wheel = fig.panZoom.state();
    box.ev.pointerdown({ clientX: 10, clientY: 10, pointerId: 1 });
    box.ev.pointermove({ clientX: 40, clientY: 30 });
    box.ev.pointerup({});
    out.drag = fig.panZoom.state();
    box.ev.keydown({ key: "0", preventDefault: function () {} });
    out.reset = fig.panZoom.state();
    out.transform = img.style.transform;
    console.log(JSON.stringify(out));
    """
    f = tmp_path / "h.js"
    f.write_text(harness, encoding="utf-8")
    r = subprocess.run(["node", str(f)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["fit"] == [0.25, 0, 0]  # 2000 px wide in a 500 px box
    s, x, y = out["wheel"]
    assert s == pytest.approx(0.3) and x == pytest.approx(100 - 100 * 1.2)  # the point stays
    assert out["drag"][1] == pytest.approx(x + 30) and out["drag"][2] == pytest.approx(y + 20)
    assert out["reset"] == [0.25, 0, 0] and out["transform"] == "translate(0px,0px) scale(0.25)"


def test_questions_page_draws_each_divergence_side_by_side(tmp_path: Path) -> None:
    from chanspec.checks.findings import compute as findings
    from chanspec.checks.findings import render

    doc = findings.load()
    assert doc is not None
    fmap = render.report_findings(doc, TABLE)
    out = tmp_path / "s"
    report.build_report(out, table=TABLE, findings=fmap)
    text = page(out, "questions.html")
    for rid, q in doc["questions"].items():
        w = q.get("witness")
        if not w:
            continue
        art = article(text, f"q-{rid}")
        sec = art.split('<section class="divergence"', 1)[1]
        assert sec.count('<div class="branch end-') == 2, rid
        for v in (w["value_a"], w["value_b"]):
            # each reading by its label; its id only in the small grey print
            assert f'aria-label="{html.escape(TABLE.rows[rid].label(v, "vi"))}"' in sec, (rid, v)
            assert f'<span class="footnote">{rid}={v}</span>' in sec, (rid, v)
        assert 'class="tile' in sec or not w["path"]
    # empty-hand as written jams the hand where its default lets play go on to a win
    stuck = article(text, "q-empty-hand")
    assert 'class="branch end-stuck"' in stuck and 'class="branch end-win"' in stuck


def test_questions_page_has_the_decided_history(tmp_path: Path) -> None:
    from chanspec.checks.cli import cmd_settle

    text = (ROOT / "spec" / "family.toml").read_text(encoding="utf-8")
    empty = tmp_path / "e"
    report.build_report(empty, table=TABLE)
    none = page(empty, "questions.html").split('<section id="decided">', 1)[1]
    assert "Gia đình chưa chốt câu hỏi nào" in none.split("</section>", 1)[0]
    settled = cmd_settle.settle_text(text, "lao-thang", "off", date="2026-11-30",
                                     note="Bàn ngày Tết", by="Bà nội")
    settled = cmd_settle.settle_text(settled, "timeout", "auto-pass", date="2026-12-01")
    t = table.load_text(settled, "family.toml")
    out = tmp_path / "s"
    report.build_report(out, table=t)
    q = page(out, "questions.html")
    dec = q.split('<section id="decided">', 1)[1].split("</section>", 1)[0]
    assert "Đã quyết định" in dec and "Decided" in dec
    assert dec.index("2026-12-01") < dec.index("2026-11-30")  # newest first
    assert "Bàn ngày Tết" in dec and "Bà nội" in dec and "<code>off</code>" in dec
    assert 'id="q-lao-thang"' not in q  # no longer an open question
    assert broken_links(out) == []


def test_questions_page_shows_both_blame_lines_of_a_question() -> None:
    """What a witness rests on and how often the choice matters under other readings:
    both are on the question's page, in both languages, and absent when not computed."""
    rid = questions.question_rows(TABLE)[0].id
    f = {"blame_vi": "dựa vào cách hiểu khác", "blame_en": "rests on another reading",
         "frequency_blame_vi": "kẹt ở 80 / 10.000 ván", "frequency_blame_en": "stuck in 80"}
    page = report.questions_page(TABLE, {rid: f})
    for text in f.values():
        assert html.escape(text) in page
    assert "Nếu hiểu khác" in page and "Read otherwise" in page
    bare = report.questions_page(TABLE, {rid: {"blame_vi": "x", "blame_en": "y"}})
    assert "Nếu hiểu khác" not in bare


def test_questions_page_lists_the_clauses_of_the_ban_rows() -> None:
    """The clause measurements of the saved findings are on the questions page: each
    clause with its counts, the dead ones marked, the counting proof and the question of
    a wider scope beside them (as in OPEN_QUESTIONS.md)."""
    docs = [{"players": 4, "games": 200, "policy": "greedy", "seed": 2026, "decisions": 1,
             "clauses": [
                 {"rule": "pass-chan-ban", "ban": "chiu", "class": "chiu", "in_force": 0,
                  "refused": 0, "dead_by_counting": {"vi": "ba quân cộng hai", "en": "3 + 2"},
                  "scope_rule": "pass-chan-scope"},
                 {"rule": "pass-chan-ban", "ban": "discard", "class": "discard",
                  "in_force": 1902, "refused": 1690}]}]
    page = report.questions_page(TABLE, {}, docs)
    assert 'id="clauses"' in page and "1,902" in page and "1,690" in page
    assert "ba quân cộng hai" in page and "dead by counting" in page
    assert 'href="#q-pass-chan-scope"' in page
    assert 'id="clauses"' not in report.questions_page(TABLE, {})
