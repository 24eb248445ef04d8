"""`witness.search_many` (one breadth-first search for many alternatives) gives exactly
what `witness.search` gives for each alternative on its own: the same witness, the same
number of pairs explored, the same "exhaustive" verdict, whatever the budget."""

from __future__ import annotations

from functools import cache

from chanspec.checks.chan import scale
from chanspec.checks.findings import questions, witness
from chanspec.model.chan.table import Rules, load
from hypothesis import given, settings
from hypothesis import strategies as st


@cache
def _setting(ruleset: str, name: str) -> tuple[Rules, tuple[Rules, ...], tuple[str, ...]]:
    table = load(ruleset)
    sc = scale.ALL_SCALES[name]
    rows = [(r.id, b) for r in questions.question_rows(table) for b in r.values
            if b != r.default]
    alts = tuple(scale.scaled_rules(table, sc, {o: b}) for o, b in rows)
    return scale.scaled_rules(table, sc), alts, tuple(f"{o}={b}" for o, b in rows)


def _same(one: witness.SearchResult, many: witness.SearchResult) -> bool:
    if (one.pairs, one.exhaustive) != (many.pairs, many.exhaustive):
        return False
    if one.found is None or many.found is None:
        return one.found is None and many.found is None
    return one.found.as_json() == many.found.as_json()


@settings(max_examples=12, deadline=None)
@given(setting=st.sampled_from([("family", "ranks2"), ("family", "five"),
                                ("classic", "c-ranks2"), ("classic", "c-duo")]),
       n_deals=st.integers(1, 3), budget=st.integers(1, 400), data=st.data())
def test_search_many_is_each_search_on_its_own(setting: tuple[str, str], n_deals: int,
                                               budget: int, data: st.DataObject) -> None:
    base, alts, names = _setting(*setting)
    picked = data.draw(st.lists(st.integers(0, len(alts) - 1), min_size=1, max_size=6,
                                unique=True))
    deals = scale.deals(base, n_deals, 1)
    many = witness.search_many(base, [alts[j] for j in picked], deals, budget=budget)
    for j, m in zip(picked, many, strict=True):
        one = witness.search(base, alts[j], deals, budget=budget)
        assert _same(one, m), (names[j], one, m)


def test_search_many_finds_and_runs_out_like_search() -> None:
    """At a budget where some alternatives part and others run out of pairs, both kinds
    of answer come back as `search` gives them (a search that could never fail to
    agree would prove nothing)."""
    base, alts, names = _setting("family", "ranks2")
    deals = scale.deals(base, 2, 1)
    many = witness.search_many(base, list(alts), deals, budget=300)
    assert any(m.found is not None for m in many)
    assert any(m.found is None for m in many)
    for j, m in enumerate(many):
        assert _same(witness.search(base, alts[j], deals, budget=300), m), names[j]
