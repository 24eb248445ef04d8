"""The family reads words, not machine codes.

OPEN_QUESTIONS.md and the report name a question by its row's short title and a reading
by its value's short label (both from the table); kinds of action are words; ids live
only in each question's small footnote.  Scenarios say who wanted a card and which claim
took it, by the row that decides it, and why each ban that matters was made.
"""

from __future__ import annotations

import dataclasses
import html
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.findings import compute, render, scenario
from chanspec.checks.report import site
from chanspec.model import table as shared_table
from chanspec.model.chan import cards, table
from chanspec.model.chan.game import Action, Deal, State, deal_random
from chanspec.model.table import TableError

ROOT = Path(__file__).resolve().parent.parent
TABLE = table.load("family")
FAMILY_TEXT = shared_table.builtin_path("family").read_text(encoding="utf-8")
RAW_KINDS = ("discard", "eat", "chiu", "chiu-u", "return", "win", "pass", "reclaim", "timeout")
WORDS = ("hạt giống", "witness", "z3", "seed")


# --------------------------------------------------------------------------- the scanner


def machine_words(text: str, tbl: table.Table = TABLE) -> list[str]:
    """Every row id, value id, raw action kind or machine word in the Vietnamese prose of
    `text` (Markdown or text already stripped of HTML), outside footnotes (``<sub>``),
    HTML tags (anchors), link targets and Mermaid diagrams."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"<sub>.*?</sub>", " ", text, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"\]\(#[^)]*\)", "]", text)
    ids = {r.id for r in tbl.rows.values()} | {v for r in tbl.rows.values() for v in r.values}
    names = sorted(ids | set(RAW_KINDS), key=len, reverse=True)
    pat = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")
    found = [m.group(1) for m in pat.finditer(text)]
    low = text.lower()
    found += [w for w in WORDS if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", low)]
    return found


def test_the_scanner_finds_a_planted_line() -> None:
    good = "Khi «được đánh bất kỳ quân nào»: ghế 1 đánh Tam Vạn. <sub>mã: stuck-discard</sub>"
    assert machine_words(good) == []
    for bad in ("chỉ với `lift-bans`: ghế 1 ăn", "nó biến mất nếu: ate-ca-no-both-sides",
                "thay đổi đầu tiên: discard 2106, return 40", "(3.000 ván, hạt giống 2026)",
                "tìm bằng Z3", "một witness ngắn"):
        assert machine_words(good + "\n" + bad), bad


# --------------------------------------------------------------------------- the findings


def _doc() -> dict[str, Any]:
    """The saved findings; when they were saved for an older table, their scenarios told
    again by today's narrator (the deals and actions are the same) under today's digest,
    so the wording under test is always the current one."""
    doc: dict[str, Any] = json.loads((ROOT / compute.FILE_NAME).read_text(encoding="utf-8"))
    if doc.get("table_digest") == compute.table_digest(TABLE):
        return doc
    doc = compute.retell(TABLE, doc)
    doc["table_digest"] = compute.table_digest(TABLE)
    return doc


DOC = _doc()


def _with_extra(doc: dict[str, Any]) -> dict[str, Any]:
    """`doc` with a finding beyond the table's rows (as `compute` adds for a deadlock the
    defaults reach), made of a saved scenario."""
    doc = json.loads(json.dumps(doc))
    w = doc["questions"]["stuck-discard"]["witness"]
    doc["extra"] = [{"id": "empty-hand-discard", "vi": "Câu hỏi thử.", "en": "A test question.",
                     "witness": {**w, "what": "stuck-empty-hand"},
                     "full_size": {"hands": 3000, "seed": 2026, "first": {},
                                   "stuck": {"stuck-empty-hand": 12}}}]
    return doc


def test_open_questions_vietnamese_has_no_machine_words() -> None:
    text = render.render(TABLE, _with_extra(DOC), "vi-only")
    assert "#### Tình huống" in text and "Mức thường gặp" in text  # the findings are in
    assert "## Máy kiểm tra tìm thêm" in text and "không còn quân để đánh: 12" in text
    found = machine_words(text)
    assert found == [], sorted(set(found))
    # the committed (bilingual) file carries the same Vietnamese, and the ids in footnotes
    both = render.render(TABLE, DOC, "vi")
    notes = re.findall(r"<sub>.*?</sub>", both)
    assert len(notes) >= len([r for r in TABLE.rows.values() if r.is_choice])
    assert any("stuck-discard = " in n and "--option stuck-discard=" in n for n in notes)


def test_open_questions_english_prose_names_readings_by_labels_too() -> None:
    """English may say "eat" or "discard" (its own words), but not a row's or a value's
    id (the hyphenated ones cannot be English words): those are in the footnotes."""
    text = render.render(TABLE, _with_extra(DOC), "en")
    ids = {x for r in TABLE.rows.values() for x in (r.id, *r.values) if "-" in x}
    found = [w for w in machine_words(text) if w in ids]
    assert found == [], sorted(set(found))
    assert not re.search(r"(?i)\b(seed|witness)\b", re.sub(r"<sub>.*?</sub>", "", text))


def test_a_planted_id_in_the_findings_is_caught() -> None:
    bad = json.loads(json.dumps(DOC))
    w = bad["questions"]["stuck-discard"].get("full_witness") or \
        bad["questions"]["stuck-discard"]["witness"]
    w["steps"][1]["action_vi"] += "; chỉ với `lift-bans`"
    assert "lift-bans" in machine_words(render.render(TABLE, bad, "vi-only"))


def _vietnamese_text(page: str) -> str:
    """The page as the family reads it in Vietnamese: no English spans, no footnotes, no
    Mermaid source, no tags."""
    page = re.sub(r'<span class="en" lang="en">.*?</span>', " ", page, flags=re.S)
    page = re.sub(r'<(p|span|details)[^>]*class="[^"]*footnote[^"]*"[^>]*>.*?</\1>', " ", page,
                  flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


def test_report_vietnamese_has_no_machine_words() -> None:
    findings = render.report_findings(DOC, TABLE)
    assert findings
    page = site.questions_page(TABLE, findings)
    text = _vietnamese_text(page)
    assert "Phụ thuộc" in text and TABLE.rows["stuck-discard"].title("vi") in text
    found = machine_words(text)
    assert found == [], sorted(set(found))
    # the ids are still there for whoever types a command: in the small grey footnote
    assert re.search(r'<p class="footnote">[^<]*stuck-discard = [^<]*</p>', page)
    # and a planted id is caught
    assert machine_words(_vietnamese_text(page.replace("Phụ thuộc", "Phụ thuộc lift-bans")))


# --------------------------------------------------------------------------- scenarios


def _find_path(rules: table.Rules, want: Callable[[State, Action], bool], pick: str,
               seeds: int = 400) -> tuple[Deal, list[Action], int]:
    """A seeded hand reaching an action `a` with ``want(state, a)``: the deal, the path up
    to and including it, and its index.  Every seat claims whenever it can (`pick`: the
    claim kind it prefers), so contested cards come up early."""
    order = {k: i for i, k in enumerate((pick, "u", "chiu-u", "chiu", "eat", "reclaim"))}
    for seed in range(seeds):
        rng = random.Random(seed)
        deal = deal_random(rules, rng.randrange(2**62), opener=seed % rules.players)
        st = State(rules, deal)
        path: list[Action] = []
        for _ in range(400):
            legal = st.legal_actions()
            if st.is_terminal() or not legal:
                break
            seat = legal[0].seat
            mine = [a for a in legal if a.seat == seat]
            claims = sorted((a for a in mine if a.kind in order), key=lambda a: order[a.kind])
            a = claims[0] if claims else rng.choice(mine)
            if want(st, a):
                return deal, path + [a], len(path)
            path.append(a)
            st.apply(a)
    raise AssertionError("no seeded hand reached the situation")


def _closes_contest(kinds: set[str]) -> Callable[[State, Action], bool]:
    def want(st: State, a: Action) -> bool:
        w = st.window
        if st.phase != "window" or w is None:
            return False
        answers = {**w.responses, a.seat: a}
        return (set(answers) == set(w.options)
                and {x.kind for x in answers.values()} >= kinds)
    return want


@pytest.mark.parametrize("value,winner_kind", [("chiu-first", "chiu"), ("eat-first", "eat")])
def test_a_contested_card_names_the_winning_claim_and_its_row(value: str,
                                                              winner_kind: str) -> None:
    rules = TABLE.resolve(4, {"chiu-before-eat": value})
    deal, path, i = _find_path(rules, _closes_contest({"chiu", "eat"}), "chiu")
    st = State.replay(rules, deal, path[:i])
    answers = {**st.window.responses, path[i].seat: path[i]}  # type: ignore[union-attr]
    best, beaten = st.claim_verdict(answers)
    assert best is not None and best.kind == winner_kind
    assert [rid for _, rid in beaten] == ["chiu-before-eat"] * len(beaten) and beaten
    row = TABLE.rows["chiu-before-eat"]
    step = scenario.narrate(rules, deal, path)[i + 1]
    card = cards.name(st.window.card)  # type: ignore[union-attr]
    # who wanted what, who got it, and by which row (its title and the reading in force)
    assert f"được hỏi về {card}:" in step.vi
    for s, a in answers.items():
        want = {"chiu": "muốn Chíu", "eat": "muốn ăn", "pass": "bỏ qua"}.get(a.kind, "")
        assert f"ghế {s} {want}" in step.vi, (s, a, step.vi)
    assert f"ghế {best.seat} được quân" in step.vi
    assert f"luật «{row.title('vi')}»: {row.label(value, 'vi')}" in step.vi
    assert f"rule «{row.title('en')}»: {row.label(value, 'en')}" in step.en
    assert "chiu-before-eat" not in step.vi + step.en and machine_words(step.vi) == []


def test_two_wins_on_one_card_are_settled_by_the_seat_order_row() -> None:
    rules = TABLE.resolve(4)

    def two_wins(st: State, a: Action) -> bool:
        if not _closes_contest({"u"})(st, a):
            return False
        answers = {**st.window.responses, a.seat: a}  # type: ignore[union-attr]
        return sum(x.kind == "u" for x in answers.values()) >= 2

    deal, path, i = _find_path(rules, two_wins, "u", seeds=3000)
    step = scenario.narrate(rules, deal, path)[i + 1]
    row = TABLE.rows["claim-seat-order"]
    assert f"luật «{row.title('vi')}»: {row.label(row.default or '', 'vi')}" in step.vi


def _ban_words(step: scenario.Step) -> list[str]:
    return [p for p in step.vi.split("; ") if p.startswith("từ giờ ghế")]


def test_a_ban_is_told_with_its_reason_and_row() -> None:
    rules = TABLE.resolve(4)

    def lets_a_chan_go(st: State, a: Action) -> bool:
        w = st.window
        return (st.phase == "window" and w is not None and a.kind == "pass"
                and a.seat == w.turn and Action("eat", a.seat, w.card) in st.legal_actions())

    deal, path, i = _find_path(rules, lets_a_chan_go, "pass")
    st = State.replay(rules, deal, path[:i])
    card = cards.name(st.window.card)  # type: ignore[union-attr]
    step = scenario.narrate(rules, deal, path)[i + 1]
    row = TABLE.rows["pass-chan-ban"]
    told = [p for p in _ban_words(step) if row.title("vi") in p]
    assert told == [f"từ giờ ghế {path[i].seat} không được ăn, Chíu hay đánh {card}: đã bỏ ăn "
                    f"{card} thành Chắn (luật «{row.title('vi')}»)"], step.vi
    assert f"(the rule «{row.title('en')}»)" in step.en and "pass-chan-ban" not in step.en


def test_routine_bans_are_told_only_when_they_refuse_something() -> None:
    rules = TABLE.resolve(4)
    st = State.new(rules, seed=5)
    a = st.legal_actions()[0]  # the opener's first discard bans eating that face again
    steps = scenario.narrate(rules, st.deal, [a])  # type: ignore[attr-defined]
    assert _ban_words(steps[1]) == []
    # a discard whose ban later refuses an eat of that face is told with its reason
    dr = TABLE.rows["discarded-face-no-eat"]

    def eat_refused(st: State, a: Action) -> bool:
        return st.phase == "window" and any(
            dr.id in st.explain(c).rules for c in st.candidate_actions(a.seat)
            if c.kind == "eat" and c not in st.legal_actions())

    deal, path, i = _find_path(rules, eat_refused, "eat", seeds=200)
    told = [p for s in scenario.narrate(rules, deal, path[:i]) for p in _ban_words(s)
            if dr.title("vi") in p]
    assert told and all(": đã đánh " in p for p in told), told


# --------------------------------------------------------------------------- the loader


def _without(text: str, line: str) -> str:
    assert line in text, line
    return text.replace(line, "", 1)


def _problems(text: str) -> list[str]:
    with pytest.raises(TableError) as info:
        table.load_text(text, "bad.toml")
    return [f"{p.where}.{p.field}: {p.message}" for p in info.value.problems]


def test_an_open_row_needs_a_label_for_each_reading() -> None:
    line = ', label_vi = "được tách", label_en = "allowed" }'
    bad = FAMILY_TEXT.replace(line, " }", 1)
    got = _problems(bad)
    assert any(p.startswith("split-chan-to-eat.values.allowed.label_vi") for p in got), got
    assert any(p.startswith("split-chan-to-eat.values.allowed.label_en") for p in got), got


def test_an_open_row_needs_a_title() -> None:
    got = _problems(_without(FAMILY_TEXT, 'title_vi = "Tách Chắn để ăn Cạ"\n'))
    assert any(p.startswith("split-chan-to-eat.title_vi: an open row needs a short title")
               for p in got), got


def test_a_row_a_scenario_cites_needs_a_title() -> None:
    got = _problems(_without(FAMILY_TEXT, 'title_vi = "Bỏ Chắn bị cấm"\n'))
    assert any(p.startswith("pass-chan-ban.title_vi: cited by [[restriction]]") for p in got), got
    got = _problems(_without(FAMILY_TEXT, 'title_en = "Ù before chíu"\n'))
    assert any(p.startswith("u-before-chiu.title_en: cited by [claims] priority_rules")
               for p in got), got


def test_labels_tell_readings_apart_and_stay_short() -> None:
    same = FAMILY_TEXT.replace('label_vi = "không được tách"', 'label_vi = "được tách"', 1)
    assert any("also the label of 'allowed'" in p for p in _problems(same))
    long = FAMILY_TEXT.replace('title_vi = "Tách Chắn để ăn Cạ"', 'title_vi = "' + "x" * 80
                               + '"', 1)
    assert any(p.startswith("split-chan-to-eat.title_vi: must be a few words")
               for p in _problems(long))
    empty = FAMILY_TEXT.replace('label_en = "allowed"', 'label_en = " "', 1)
    assert any(p == "split-chan-to-eat.values.allowed.label_en: must not be empty"
               for p in _problems(empty))


def test_labels_and_titles_are_read() -> None:
    row = TABLE.rows["stuck-discard"]
    assert row.title("vi") and row.title("en") and row.title("vi") != row.id
    assert {row.label(v, "vi") for v in row.values}.isdisjoint(row.values)
    # a row built without a title (the loader refuses one in a table) falls back to its id
    bare = dataclasses.replace(TABLE.rows["deck"], title_vi="", title_en="")
    assert bare.title("vi") == bare.title("en") == "deck"
    assert TABLE.rows["deck"].title("vi") == "Bộ bài 120 quân"


CARD_CODE = re.compile(r"(?<![\w-])(?:[1-9][vns]|chi|lao|thang)(?![\w-])")


def test_vietnamese_diagrams_name_the_cards() -> None:
    """The Mermaid pictures of the Vietnamese file show the deal by the cards' names, not
    their codes (the English file keeps the codes)."""
    vi = render.render(TABLE, DOC, "vi")
    blocks = re.findall(r"```mermaid\n(.*?)```", vi, re.S)
    assert blocks
    for b in blocks:
        assert CARD_CODE.findall(b) == [], b[:300]
    en = render.render(TABLE, DOC, "en")
    assert any(CARD_CODE.search(b) for b in re.findall(r"```mermaid\n(.*?)```", en, re.S))
