"""The Chiha meld engine (model/chiha/melds.py) against two independent oracles on
Hypothesis-drawn hands: a brute force over every split (checks/chiha/melds_brute.py)
and a Z3 optimisation model (checks/chiha/melds_z3.py); each split given as evidence is
checked to be a split of the hand into valid melds with the stated worth."""

from __future__ import annotations

from collections import Counter

from chanspec.checks.chiha.melds_brute import ChihaBrute
from chanspec.checks.chiha.melds_z3 import ChihaZ3
from chanspec.model import kinds
from chanspec.model.chiha import melds
from hypothesis import given, settings
from hypothesis import strategies as st

RULES = kinds.rules("chiha", 3)
ENGINE = melds.engine(RULES)
BRUTE = ChihaBrute(RULES)
Z3 = ChihaZ3(RULES)
DECK = ENGINE.deck
# a narrow pool (two colours, every Tướng and Chốt) so that small hands hold melds
POOL = [f for f in DECK.faces if DECK.colour_index(f) < 2 or DECK.rank_id(f) in ("tuong", "chot")]


def capped(cards: list[int]) -> list[int]:
    seen: Counter[int] = Counter()
    out = []
    for f in cards:
        if seen[f] < DECK.copies:
            seen[f] += 1
            out.append(f)
    return sorted(out)


small = st.lists(st.sampled_from(POOL), max_size=10).map(capped)


def check_evidence(hand: list[int], ev: melds.Evaluation) -> None:
    used = Counter(f for m in ev.melds for f in m.faces) + Counter(ev.trash)
    assert used == Counter(hand)
    for m in ev.melds:
        w = BRUTE.meld_worth(m.faces, ev.concealed)
        assert w is not None and w[0] == m.lenh(ev.concealed)
    assert sum(m.lenh(ev.concealed) for m in ev.melds) == ev.best
    if ev.exact_melds is not None:
        assert Counter(f for m in ev.exact_melds for f in m.faces) == Counter(hand)
        assert sum(m.lenh(ev.concealed) for m in ev.exact_melds) == ev.exact


@settings(max_examples=60, deadline=None)
@given(small, st.booleans())
def test_engine_agrees_with_brute_force_and_z3(hand: list[int], concealed: bool) -> None:
    counts = ENGINE.counts(hand)
    ev = ENGINE.evaluate(counts, concealed)
    assert ev.best == BRUTE.best(hand, concealed) == Z3.best(hand, concealed)
    assert ev.exact == BRUTE.exact(hand, concealed) == Z3.exact(hand, concealed)
    assert ENGINE.can_empty(counts) == (BRUTE.exact(hand) is not None)
    assert ENGINE.discards(counts) == BRUTE.discards(hand)
    check_evidence(hand, ev)


def test_the_partition_reading_is_the_row_lenh_partition() -> None:
    """Seed 004 [Nhóm bài hợp lệ] •9: a khạp counts 2 more concealed.  Three Generals
    shown (laid face up) and Sĩ, Tượng đỏ in hand: as laid, the khạp is worth 4 (shown)
    and the hand's Sĩ, Tượng are trash; all split again, the best is still 4 (TST 2 +
    pair of Generals 2, or the khạp 4); the player's arrangement needs an arrangement."""
    p = DECK.parse_all
    laid = [melds.Laid(tuple(p(["tgd tgd tgd"])), False)]
    hand = ENGINE.counts(p(["sid tud"]))
    fixed = melds.engine(RULES.with_options(lenh_partition="laid-fixed-hand-best"))
    c = fixed.player_lenh(hand, laid)
    assert c is not None and c.lenh == 4 and c.trash == tuple(sorted(p(["sid tud"])))
    assert c.rules[0] == "lenh-partition" and "concealed-bonus" not in c.rules
    down = fixed.player_lenh(hand, [melds.Laid(laid[0].faces, True)])
    assert down is not None and down.lenh == 6 and "concealed-bonus" in down.rules
    again = melds.engine(RULES.with_options(lenh_partition="all-cards-best"))
    a = again.player_lenh(hand, laid)
    assert a is not None and a.lenh == 4 and a.trash == ()
    chooses = melds.engine(RULES.with_options(lenh_partition="player-chooses"))
    import pytest
    with pytest.raises(ValueError, match="player-chooses"):
        chooses.player_lenh(hand, laid)
    h = ENGINE.counts(p(["tgd tgd tgd"]))
    got = chooses.player_lenh(h, arrangement=[p(["tgd"]), p(["tgd tgd"])])
    assert got is not None and got.lenh == 3  # 1 + 2, as arranged (the khạp would be 6)
