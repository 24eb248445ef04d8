"""How often an open question comes up, and how often it changes the result.

`witness.frequency` plays seeded full-size hands under the defaults with a shadow game
under each other value; where a shadow parts ways it plays on from that point, which must
be the same as playing the whole hand under that value from the start (checked here
against that slower oracle), and the counts come with 95% Wilson intervals.
"""

from __future__ import annotations

import random

import pytest
from chanspec.checks.explore.search import alt_rules
from chanspec.checks.findings import questions, witness
from chanspec.model.chan import table
from chanspec.model.chan.game import State, deal_random
from hypothesis import given
from hypothesis import strategies as st

TABLE = table.load("family")
FULL = TABLE.resolve(4)
ALTS = [(f"{o}={v}", a) for o, v, a in alt_rules(FULL)]


def _from_scratch(rules: table.Rules, seed: int, i: int, policy: str) -> object:
    """Hand `i` of a frequency run played under `rules` from its deal: the oracle."""
    rng = random.Random(seed * 1_000_003 + i)
    s = State(rules, deal_random(rules, rng.randrange(2**62)))
    key = witness.hand_key(seed, i)
    while not s.is_terminal() and s.legal_actions():
        s.apply(witness.decide(s, policy, key))
    return witness._result(s)


@pytest.mark.parametrize("policy", sorted(witness.POLICIES))
def test_playing_on_from_the_parting_equals_playing_the_hand_under_the_value(
        policy: str) -> None:
    seed = 77
    witness._FW.update(rules=FULL, alts=ALTS, seed=seed, policy=policy)
    changed_seen = 0
    for i in range(6):
        row, _end = witness._one_hand(i)
        mine = _from_scratch(FULL, seed, i, policy)
        for (key, alt), f in zip(ALTS, row, strict=True):
            other = _from_scratch(alt, seed, i, policy)
            if f is None:
                # it never came up: the hand is the same hand under the other value
                assert other == mine, (key, i)
            else:
                assert f[2] == (other != mine), (key, i)
                assert f[3] == (other[0] == "stuck"), (key, i)
                changed_seen += f[2]
    assert changed_seen > 0  # the comparison is not vacuous


def test_counts_and_intervals() -> None:
    freqs, ends, _ = witness.frequency(FULL, ALTS, 12, 5, policy="greedy")
    assert sum(ends.values()) == 12
    for f in freqs:
        j = f.as_json()
        assert 0 <= j["changed"] <= j["diverged"] <= 12
        for k, ci in (("per_10000", "ci95"), ("changed_per_10000", "changed_ci95")):
            lo, hi = j[ci]
            assert 0 <= lo <= j[k] <= hi <= 10_000
    by = {f.key: f for f in freqs}
    # a deadlock under stuck-discard=as-written always changes the result
    s = by["stuck-discard=as-written"]
    assert s.changed == s.diverged
    # auto-pass changes who is asked (it comes up in every hand), never who wins
    t = by["timeout=auto-pass"]
    assert t.diverged == 12 and t.changed == 0


@given(st.integers(0, 500), st.integers(1, 5000))
def test_wilson_interval_holds_the_proportion(k: int, n: int) -> None:
    k = min(k, n)
    lo, hi = witness.wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    lo2, hi2 = witness.wilson(4 * k, 4 * n)
    assert hi2 - lo2 < hi - lo  # four times the hands: a narrower interval


def test_wilson_known_values() -> None:
    # none in 3,000: the upper bound is z^2 / (n + z^2)
    lo, hi = witness.wilson(0, 3000)
    assert lo == 0.0 and hi == pytest.approx(3.8415 / (3000 + 3.8415), rel=1e-3)
    lo, hi = witness.wilson(50, 100)
    assert (lo, hi) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))


def test_numbers_in_the_familys_format() -> None:
    from chanspec.checks.findings import render

    assert render.number(7153, "vi") == "7.153" and render.number(7153, "en") == "7,153"
    assert render.number(12.5, "vi") == "12,5" and render.number(12.5, "en") == "12.5"
    assert render.number(10_000, "vi") == "10.000" and render.number(0.0, "vi") == "0"
    # per 10,000 hands a family reads whole hands: 7.153,3 becomes 7.153
    assert render.whole(7153.3, "vi") == "7.153" and render.whole(2296.7, "en") == "2,297"
    assert render.whole(0.2, "vi") == "dưới 1" and render.whole(0.0, "vi") == "0"


def test_questions_that_change_results_most_come_first() -> None:
    rows = questions.question_rows(TABLE)
    last = rows[-1].id
    md = questions.render(TABLE, {last: questions.Finding(weight=1.0)})
    order = [r.id for r in rows]
    heads = [line for line in md.splitlines() if line.startswith('<a id="')]
    assert heads[0] == f'<a id="{last}"></a>'  # the only question that changes results
    assert [h.split('"')[1] for h in heads[1:]] == [r for r in order if r != last]
    # without findings: the table's order
    md = questions.render(TABLE)
    assert [line.split('"')[1] for line in md.splitlines()
            if line.startswith('<a id="')] == order
