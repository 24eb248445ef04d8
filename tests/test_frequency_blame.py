"""Blame for frequencies: each question's figures measured again under the readings of
other rows its witness rests on (checks/findings/compute.py `frequency_blame`).

The figures are checked against hands played from their deal under the reading and the
question's value (the oracle of tests/test_frequency.py), against `witness.frequency`
run on its own, against the figure without the reading when the reading can change
nothing, and across worker counts; and the OPEN_QUESTIONS.md line is checked to carry
them in the Vietnamese number format.  Few hands each, so every test takes seconds.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from chanspec.checks.findings import compute, questions, render, witness
from chanspec.checks.output import Ticker
from chanspec.model.chan import table
from chanspec.model.chan.game import State, deal_random

TABLE = table.load("family")
SEED = 2026
HANDS = 24
P: dict[str, Any] = {**compute.PARAMS, "blame_hands": HANDS, "hand_seed": SEED}
# the headline deadlock (stuck-discard=as-written) and the reading it rests on
STUCK = ("stuck-discard", "as-written")
BOTH_SIDES = ("ate-ca-no-both-sides", "eaten-faces")
# a reading that behaves exactly like the default (OPEN_QUESTIONS: never diverges)
NO_CHANGE = ("pass-ca-ban", "eat-same-face")


def _from_scratch(opts: dict[str, str], i: int) -> Any:
    """Hand `i` of the seeded run played by the greedy player under `opts` from its deal."""
    rules = TABLE.resolve(4, opts)
    rng = random.Random(SEED * 1_000_003 + i)
    s = State(rules, deal_random(rules, rng.randrange(2**62)))
    key = witness.hand_key(SEED, i)
    while not s.is_terminal() and s.legal_actions():
        s.apply(witness.decide(s, "greedy", key))
    return witness._result(s)


def _direct(reading: tuple[str, str], opt: str, b: str, hands: int = HANDS) -> dict[str, Any]:
    rid, v = reading
    (f,), _, _ = witness.frequency(TABLE.resolve(4, {rid: v}),
                                   [(f"{opt}={b}", TABLE.resolve(4, {rid: v, opt: b}))],
                                   hands, SEED)
    return f.as_json()


def _same_figures(entry: dict[str, Any], f: dict[str, Any]) -> None:
    for k in compute._BLAME_KEYS:
        assert entry[k] == f[k], (k, entry[k], f[k])


def test_the_figures_are_those_of_the_hands_played_under_the_reading() -> None:
    opt, b = STUCK
    got = compute.frequency_blame(TABLE, P, {opt: [BOTH_SIDES, NO_CHANGE]})
    assert list(got) == [opt]
    assert set(got[opt]) == {x for x in TABLE.rows[opt].values if x != TABLE.rows[opt].default}
    for value, entries in got[opt].items():
        assert [(e["row"], e["value"]) for e in entries] == [BOTH_SIDES, NO_CHANGE]
        for e in entries:
            # the same as witness.frequency run alone on that reading and that value
            _same_figures(e, _direct((e["row"], e["value"]), opt, value))
    # the oracle: every hand played from its deal, with and without the question's value
    e = got[opt][b][0]
    base = {BOTH_SIDES[0]: BOTH_SIDES[1]}
    stuck = changed = 0
    for i in range(HANDS):
        mine, theirs = _from_scratch(base, i), _from_scratch({**base, opt: b}, i)
        stuck += theirs[0] == "stuck"
        changed += theirs != mine
    assert (e["stuck"], e["changed"], e["hands"]) == (stuck, changed, HANDS)
    # and the reading matters: as the table reads today most of these hands get stuck
    today = _direct(NO_CHANGE, opt, b)
    assert today["stuck"] > HANDS // 3 and e["stuck"] < today["stuck"] // 3, (today, e)


def test_a_reading_that_changes_nothing_gives_the_figure_without_it() -> None:
    got = compute.frequency_blame(TABLE, P, {"stuck-discard": [NO_CHANGE],
                                             "empty-hand": [NO_CHANGE]})
    for opt, per_value in got.items():
        for b, (e,) in per_value.items():
            (f,), _, _ = witness.frequency(TABLE.resolve(4), [(f"{opt}={b}",
                                                               TABLE.resolve(4, {opt: b}))],
                                           HANDS, SEED)
            _same_figures(e, f.as_json())
    assert got["stuck-discard"]["as-written"][0]["stuck"] > 0  # not a vacuous comparison


def test_the_readings_are_those_the_witness_rests_on_in_table_order() -> None:
    order = compute._readings(TABLE)
    gone = [{"row": r, "value": v, "how": "same"} for r, v in reversed(order[:6])]
    q = {"full_witness": {"blame": {"checked": 9, "removed_by": gone}},
         "blame": {"checked": 9, "removed_by": gone[-1:]}}
    opt = "timeout"
    want = [r for r in order if r[0] != opt and r in {(g["row"], g["value"]) for g in gone}]
    assert compute.frequency_readings(TABLE, opt, q, 3) == want[:3]
    # no reading removes the full-size witness: those of the scaled-down one
    q["full_witness"]["blame"]["removed_by"] = []
    assert compute.frequency_readings(TABLE, opt, q, 3) == [(gone[-1]["row"],
                                                             gone[-1]["value"])]
    # the question's own row is never one of its readings
    own = order[0][0]
    q["full_witness"]["blame"]["removed_by"] = [g for g in gone if g["row"] == own]
    q["blame"] = None
    assert compute.frequency_readings(TABLE, own, q, 3) == []


def test_compute_attaches_them_and_worker_counts_do_not_matter(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`_compute` (tiny budgets) in two worker processes: every value of every question
    carries the figures `frequency_blame` gives in one process.

    Two parts of `_compute` that neither read nor write a question's frequencies are
    left out, as they were 60% of this test's time: the winning-hand counts (checked by
    tests/test_check.py and test_check_classic.py against the engine) and the shortest
    deadlock under the defaults (an exhaustive exploration of every small scale, checked
    by tests/test_clauses.py); the slow tests of test_findings_fresh*.py run all of it."""
    monkeypatch.setattr(compute, "hand_counts", lambda table: {})
    monkeypatch.setattr(compute, "_stuck_witness", lambda *args: None)
    p = {**compute.PARAMS, "hands": 16, "hands_uniform": 8, "budget": 300,
         "deals": {k: 1 for k in compute.PARAMS["deals"]}, "clause_hands": 2,
         "explore_deals": 1, "blame_hands": 8}
    doc: dict[str, Any] = {"questions": {}, "extra": []}
    compute._compute(TABLE, p, doc, 2, lambda s: None, Ticker())
    wanted = {opt: compute.frequency_readings(TABLE, opt, q, int(p["blame_readings"]))
              for opt, q in doc["questions"].items()}
    assert sum(map(len, wanted.values())) > 0
    alone = compute.frequency_blame(TABLE, p, wanted, workers=1)
    for opt, q in doc["questions"].items():
        for b, f in q["frequency"].items():
            assert f["blame"] == alone[opt][b], (opt, b)
            assert len(f["blame"]) == len(wanted[opt]) <= p["blame_readings"]
    assert compute.frequency_blame(TABLE, p, wanted, workers=2) == alone


def _render(frequency: dict[str, Any]) -> str:
    doc = {"questions": {"stuck-discard": {"witness": None, "searches": [],
                                           "frequency": frequency}}}
    return questions.render(TABLE, render.finding_objects(doc, TABLE))


def _figure(value: str, hands: int, diverged: int, changed: int, stuck: int) -> dict[str, Any]:
    f = witness.Frequency(f"stuck-discard={value}", hands, SEED, diverged=diverged,
                          changed=changed, stuck=stuck)
    return f.as_json()


def test_the_line_in_open_questions_md_says_stuck_in_vietnamese_numbers() -> None:
    as_written = _figure("as-written", 3000, 2146, 2146, 2146)
    entry = {"row": BOTH_SIDES[0], "value": BOTH_SIDES[1],
             **{k: v for k, v in _figure("as-written", 500, 1, 1, 1).items()
                if k in compute._BLAME_KEYS}}
    other = _figure("forbid-claim", 3000, 2311, 189, 0)
    other_entry = {**entry, **{k: v for k, v in _figure("forbid-claim", 500, 40, 4, 0).items()
                               if k in compute._BLAME_KEYS}}
    md = _render({"as-written": {**as_written, "blame": [entry]},
                  "forbid-claim": {**other, "blame": [other_entry]}})
    line = next(x for x in md.split("\n") if x.startswith("**Nếu hiểu khác"))
    row, other_row = TABLE.rows["stuck-discard"], TABLE.rows[BOTH_SIDES[0]]
    # in words: the value by its label, the other reading by its row's title and label
    aw = f"«{row.label('as-written', 'vi')}»"
    rd = f"«{other_row.title('vi')}» là «{other_row.label(BOTH_SIDES[1], 'vi')}»"
    assert (f"Với {aw}, ván bị kẹt ở 7.153 (6.989–7.312) / 10.000 ván (3.000 ván); "
            f"nếu {rd}: ở 20 (4–112) / 10.000 ván (500 ván).") in line
    assert ("the hand is stuck in 7,153 (6,989–7,312) in 10,000 hands (3,000 hands)") in line
    # a value that leaves no hand stuck: how often it comes up and changes the result
    fc = f"«{row.label('forbid-claim', 'vi')}»"
    # the placebo beside "changes the result" (none of 3,000 here: no chance mark)
    assert (f"Với {fc}, lựa chọn này gặp ở 7.703 (7.549–7.850), đổi kết quả ở 630 (548–723) "
            f"(may rủi 0 (0–13)) / 10.000 ván (3.000 ván); nếu {rd}: gặp ở 800") in line
    assert line.index(f"Với {aw}") < line.index(f" — *With «{row.label('as-written', 'en')}»")
    assert "as-written" not in line and BOTH_SIDES[0] not in line  # no ids in the prose
    # no reading to measure again under: said so; saved before these figures: no line
    md = _render({"as-written": {**as_written, "blame": []}})
    assert (f"**Nếu hiểu khác / How often, read otherwise:** Với {aw}, tình huống không dựa "
            "vào cách hiểu nào của câu hỏi khác") in md
    assert "**Nếu hiểu khác" not in _render({"as-written": as_written})
