"""The questions over all hands answered class by class (checks/chan/class_search.py),
against enumerating every hand with the brute-force oracle and against Z3's quantified
form of the same questions, on small decks; and its Z3 confirmation refusing non-witnesses."""

from __future__ import annotations

import itertools
import random

import pytest
from chanspec.checks.chan import class_search, z3win
from chanspec.checks.chan.brute import Brute, reduced_rules
from chanspec.model.chan import cards, table
from chanspec.model.chan.table import Rules
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_win_engine import _exhaustive_dead_wait, _is_dead_wait, _plain_brute

SMALL = settings(max_examples=40, derandomize=True, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])
POOL = ["1v", "1n", "1s", "chi", "lao", "thang", "2v", "2n", "3s"]


@st.composite
def small_decks(draw: st.DrawFn) -> Rules:
    faces = draw(st.lists(st.sampled_from(POOL), min_size=2, max_size=5, unique=True))
    copies = draw(st.integers(1, 3))
    pairs = draw(st.integers(1, 3))
    min_chan = draw(st.integers(1, pairs))
    return reduced_rules(sorted(faces, key=cards.parse), copies, [(4, pairs, min_chan)], 4,
                         table_id="class-search")


def _hands(rules: Rules) -> list[list[int]]:
    faces = sorted(rules.faces)
    out = []
    for combo in itertools.product(range(rules.copies + 1), repeat=len(faces)):
        if sum(combo) == 2 * rules.pairs - 1:
            out.append([f for f, n in zip(faces, combo, strict=True) for _ in range(n)])
    return out


def _needs_special(rules: Rules, hand: list[int], g: int) -> bool:
    if cards.counts(hand)[g] >= rules.copies:
        return False
    return (Brute(rules).judge(hand, [], g, "u").win
            and not _plain_brute(rules).judge(hand, [], g, "u").win)


def _exhaustive_needs_special(rules: Rules) -> bool:
    return any(_needs_special(rules, h, g) for h in _hands(rules) for g in rules.faces)


@SMALL
@given(small_decks())
def test_needs_special_ca_agrees_with_enumeration_and_quantified_z3(rules: Rules) -> None:
    found = class_search.search_special_ca(rules)
    truth = _exhaustive_needs_special(rules)
    assert (found is not None) == truth
    if found is not None:
        hand, g = found
        assert len(hand) == 2 * rules.pairs - 1 and _needs_special(rules, list(hand), g)


@SMALL
@given(small_decks())
def test_dead_wait_agrees_with_enumeration_and_quantified_z3(rules: Rules) -> None:
    found = class_search.search_dead_wait(rules)
    truth = _exhaustive_dead_wait(rules)
    assert (found is not None) == truth
    if found is not None:
        hand, y = found
        assert len(hand) == 2 * rules.pairs - 1 and _is_dead_wait(rules, list(hand), y)


def _deck(seed: int) -> Rules:
    rng = random.Random(seed)
    faces = sorted(rng.sample(POOL, rng.randint(2, 5)), key=cards.parse)
    pairs = rng.randint(1, 3)
    return reduced_rules(faces, rng.randint(1, 3), [(4, pairs, rng.randint(1, pairs))], 4,
                         table_id="class-search")


@pytest.mark.parametrize("seed", range(24))
def test_the_search_agrees_with_quantified_z3(seed: int) -> None:
    """Z3's quantified form of both questions (a witness, or unsat over every hand) gives
    the same answers as the search, on decks it answers within seconds (on the full deck
    its memory grows past this machine's)."""
    rules = _deck(seed)
    assert (z3win.dead_wait(rules, timeout_ms=60_000) is not None) == (
        class_search.search_dead_wait(rules) is not None)
    if any(rules.is_special(a, b) for a, b in z3win._ca_pairs(rules)):
        assert (z3win.needs_special_ca(rules, timeout_ms=60_000) is not None) == (
            class_search.search_special_ca(rules) is not None)


@pytest.mark.parametrize("options", [{}, {"lao-thang": "off"},
                                     {"special-ca-scope": "whole-group"}])
@pytest.mark.parametrize("players", [4, 5])
def test_family_answers_are_confirmed_witnesses(players: int, options: dict[str, str]) -> None:
    """On the full deck, both questions have a witness under each reading that changes
    their inputs; brute force confirms each one."""
    rules = table.rules("family", players, options)
    w = class_search.needs_special_ca(rules)
    assert w is not None and w.candidate is not None
    assert _needs_special(rules, list(w.hand), w.candidate)
    d = class_search.dead_wait(rules)
    assert d is not None and d.candidate is not None
    assert _is_dead_wait(rules, list(d.hand), d.candidate)


def test_the_search_is_deterministic() -> None:
    rules = table.rules("family", 4, {})
    assert class_search.search_special_ca(rules) == class_search.search_special_ca(rules)
    assert class_search.search_dead_wait(rules) == class_search.search_dead_wait(rules)


def test_confirmation_refuses_what_is_not_a_witness() -> None:
    """Z3's confirmation is a real check: a hand that wins without a special cạ, and a
    wait that another face completes, are refused."""
    rules = table.rules("family", 4, {})
    plain_win = tuple(cards.parse(c) for c in
                      ["2v", "2v", "3v", "3v", "4v", "4v", "5v", "5v", "6v", "6v", "7v", "7v",
                       "8v", "8v", "9v", "9v", "2n", "2n", "3n", "3n", "4n", "4n", "5n"])
    with pytest.raises(class_search.OracleDisagreement, match="without a special"):
        class_search.confirm_special_ca(rules, plain_win, cards.parse("5n"))
    with pytest.raises(class_search.OracleDisagreement, match="wins with"):
        class_search.confirm_dead_wait(rules, plain_win, cards.parse("5n"))
