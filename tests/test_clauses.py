"""Vacuity per clause (checks/findings/clauses.py): each act a ban row covers, on its own."""

from __future__ import annotations

import random

import pytest
from chanspec.checks.findings import clauses, witness
from chanspec.model import table as shared_table
from chanspec.model.chan import table
from chanspec.model.chan.game import State, deal_random

TABLE = table.load("family")


@pytest.fixture(scope="module")
def sample() -> list[dict[str, object]]:
    return [clauses.measure(TABLE.resolve(4), 40, 3, pol) for pol in sorted(witness.POLICIES)]


def _by(docs: list[dict[str, object]]) -> dict[tuple[str, str], dict[str, object]]:
    return {(c["rule"], c["ban"]): c for c in clauses.merged(docs)}  # type: ignore[arg-type]


def test_every_ban_of_every_restriction_is_a_clause(sample: list[dict[str, object]]) -> None:
    want = {(r.rule, b) for r in TABLE.resolve(4).restrictions for b in r.bans}
    assert set(_by(sample)) == want
    assert ("pass-chan-ban", "chiu") in want and ("pass-chan-ban", "discard") in want


def test_live_dead_and_unreached(sample: list[dict[str, object]]) -> None:
    by = _by(sample)
    # passing a card one could eat as a chắn bans discarding it: that clause acts
    assert clauses.verdict(by[("pass-chan-ban", "discard")]) == "live"
    assert clauses.verdict(by[("ate-ca-no-both-sides", "discard-ca-pair")]) == "live"
    # ... and bans a later chíu of it, which can never matter: a seat that could chíu
    # held three copies when it let the fourth go, so no copy is left to come again
    # (proved by counting, and never in force in the sample either)
    assert clauses.verdict(by[("pass-chan-ban", "chiu")]) == "counting"
    assert by[("pass-chan-ban", "chiu")]["in_force"] == 0
    assert clauses.verdict({**by[("pass-chan-ban", "chiu")], "dead_by_counting": None}) \
        == "unreached"
    for c in by.values():
        assert 0 <= int(c["refused"]) <= int(c["in_force"])  # type: ignore[call-overload]


def test_a_refusal_counted_for_a_clause_is_one_the_machine_explains_by_its_row() -> None:
    # Two ways to the same fact: removing the clause's marks makes the action legal
    # (what `measure` counts), and the machine's own explanation cites the row.
    rules = TABLE.resolve(5)
    wanted = set(clauses.clauses(rules))
    checked = 0
    for i in range(25):
        rng = random.Random(i)
        st = State(rules, deal_random(rules, rng.randrange(2**62)))
        while not st.is_terminal() and st.legal_actions():
            legal = set(st.legal_actions())
            for s in range(st.n):
                for c in {(m.rule, m.ban) for m in st.marks[s]} & wanted:
                    freed = clauses._without(st, s, c)
                    for a in freed - legal:
                        if a.seat != s:
                            continue
                        ex = st.explain(a)
                        assert not ex.legal and c[0] in ex.rules, (i, a, c, ex)
                        checked += 1
            st.apply(witness.uniform(st, rng))
    assert checked > 20


def test_a_table_without_a_clause_does_not_count_it() -> None:
    text = shared_table.builtin_path("family").read_text(encoding="utf-8")
    old = 'bans = ["eat-chan", "eat-ca", "chiu", "discard"]'
    assert old in text
    t = table.load_text(text.replace(old, 'bans = ["eat-chan", "eat-ca", "chiu"]'))
    d = clauses.measure(t.resolve(4), 10, 3)
    got = {(c["rule"], c["ban"]) for c in d["clauses"]}
    assert ("pass-chan-ban", "discard") not in got and ("pass-chan-ban", "chiu") in got


def test_markdown_names_each_verdict(sample: list[dict[str, object]]) -> None:
    md = "\n".join(clauses.markdown(sample, "vi", TABLE))
    row = TABLE.rows["pass-chan-ban"]
    # the row by its title; its id (and the clause's) only in the footnote
    assert f"| {row.title('vi')} / {row.title('en')} | Chíu / chíu |" in md
    assert "**chưa bao giờ gặp** / **never reached**" in md
    body, note = md.split("<sub>")
    assert "pass-chan-ban" not in body and "pass-chan-ban (chiu)" in note
    assert "seed" not in body and "seed: 3" in note
    en = "\n".join(clauses.markdown(sample, "en", TABLE))
    assert "never reached" in en and "chưa" not in en and row.title("en") in en


# --------------------------------------------------------------------------- blame


def test_blame_names_the_readings_a_witness_rests_on() -> None:
    import json
    from pathlib import Path

    from chanspec.checks.findings import compute

    doc = json.loads((Path(__file__).parents[1] / "OPEN_QUESTIONS.json").read_text("utf-8"))
    w = doc["questions"]["stuck-discard"]["witness"]
    b = compute.blame(TABLE, w)
    others = sum(len(r.values) - 1 for r in compute.questions.question_rows(TABLE)
                 if r.id != "stuck-discard")
    assert b["checked"] == others
    gone = {(g["row"], g["value"]) for g in b["removed_by"]}
    # the deadlock as written needs "any cạ" (README: the deadlock rests on one reading)
    assert ("ate-ca-no-both-sides", "eaten-faces") in gone
    # a reading that cannot touch this scenario does not remove it
    assert ("lao-thang", "off") not in gone
    from chanspec.checks.findings import render

    line = render.blame_line(b, TABLE)
    assert line is not None
    row = TABLE.rows["ate-ca-no-both-sides"]
    # in words: the row's title and the reading's label; the ids only for the footnote
    assert f"«{row.title('vi')}» là «{row.label('eaten-faces', 'vi')}»" in line[0]
    assert f"«{row.title('en')}» read as «{row.label('eaten-faces', 'en')}»" in line[1]
    assert "eaten-faces" not in line[0] and "ate-ca-no-both-sides=eaten-faces" in line[2]


def test_blame_of_a_deadlock() -> None:
    from chanspec.checks.findings import compute

    text = shared_table.builtin_path("family").read_text(encoding="utf-8")
    old = 'id = "stuck-discard"'
    assert old in text
    # the same table with the deadlock as written made the default
    i = text.index(old)
    j = text.index('default = "lift-bans"', i)
    n = len('default = "lift-bans"')
    t = table.load_text(text[:j] + 'default = "as-written"' + text[j + n:])
    params = dict(compute.PARAMS, explore_deals=2)
    w = compute._stuck_witness(t, params, 1, lambda s: None)
    assert w is not None and w["what"] == "stuck-all-banned"
    gone = {(g["row"], g["value"], g["how"]) for g in w["blame"]["removed_by"]}
    assert ("stuck-discard", "lift-bans", "moves") in gone
    assert ("stuck-discard", "forbid-claim", "path") in gone  # no such claim then
    assert len(gone) < w["blame"]["checked"]  # some readings leave it as it is
