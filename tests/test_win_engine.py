"""The engine's fast paths (is_win, HandIndex), its cache, and the Z3 all-hands questions."""

from __future__ import annotations

import itertools
import random

import pytest
from chanspec.checks.chan import class_search
from chanspec.checks.chan.brute import Brute, reduced_rules
from chanspec.checks.chan.z3win import dead_wait
from chanspec.model.chan import cards, table, win
from chanspec.model.chan.table import Rules
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_win_oracles import near_case

FAST = settings(max_examples=150, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
OPTION_SETS = [{}, {"lao-thang": "off"}, {"special-ca-scope": "whole-group"}]


@FAST
@given(st.sampled_from([4, 5]), st.sampled_from(range(3)), st.integers(0, 2**32 - 1))
def test_hand_index_follows_is_win_through_adds_and_removes(players: int, oi: int,
                                                            seed: int) -> None:
    """Random walks of add/remove: wins_with() equals is_win() for every face and kind,
    and best() equals the brute-force maximum of the concealed cards."""
    rules = table.rules("family", players, OPTION_SETS[oi])
    e = win.engine(rules)
    b = Brute(rules)
    rng = random.Random(seed)
    deck = [f for f in rules.faces for _ in range(rules.copies)]
    rng.shuffle(deck)
    size = 2 * rules.pairs - 1
    held, rest = deck[:size], deck[size:]
    idx = win.HandIndex(e, cards.counts(held), laid_chan=0)
    for step in range(6):
        if step:
            out = held.pop(rng.randrange(len(held)))
            new = rest.pop(rng.randrange(len(rest)))
            idx.remove(out)
            idx.add(new)
            held.append(new)
            rest.append(out)
        assert idx.counts == cards.counts(held)
        best = b.max_chan(tuple(idx.counts))
        assert idx.best() == (win.NONE if best is None else best)
        for c in rules.faces:
            if idx.counts[c] < rules.copies:
                assert idx.wins_with(c, "u") == e.is_win(idx.counts, 0, c, "u")
            if idx.counts[c] == 3:
                assert idx.wins_with(c, "chiu-u") == e.is_win(idx.counts, 0, c, "chiu-u")


@FAST
@given(st.sampled_from([4, 5]), st.sampled_from(range(3)), st.sampled_from(["as-laid", "pooled"]),
       st.integers(0, 2**32 - 1))
def test_hand_index_follows_judge_through_eating_and_chiu(players: int, oi: int, laid: str,
                                                          seed: int) -> None:
    """Random walks of eat (a card taken with a concealed partner, as a chắn or a cạ),
    chíu and discards, under both readings of laid groups (row laid-groups): after each
    step, wins_with() equals judge() on the same laid groups, for every face that could
    still come, and equals is_win() on the counts `win_counts` gives."""
    rules = table.rules("family", players, {**OPTION_SETS[oi], "laid-groups": laid})
    e = win.engine(rules)
    rng = random.Random(seed)
    deck = [f for f in rules.faces for _ in range(rules.copies)]
    rng.shuffle(deck)
    size = 2 * rules.pairs - 1
    concealed, rest = deck[:size], deck[size:]
    laid: list[win.Group] = []
    idx = win.HandIndex(e, cards.counts(concealed))
    eaten = 0
    for _ in range(8):
        x = rest.pop(rng.randrange(len(rest)))
        cnt = cards.counts(concealed)
        if cnt[x] == 3:
            idx.lay_chiu(x)
            for _ in range(3):
                concealed.remove(x)
            laid.append(win.Group("chiu", (x,) * 4))
        else:
            partners = sorted({y for y in concealed if y == x or rules.is_ca(x, y)})
            if not partners:
                rest.append(x)
                continue
            y = rng.choice(partners)
            idx.eat(x, y)
            concealed.remove(y)
            laid.append(win.group_of((x, y), rules))
        eaten += 1
        out = concealed.pop(rng.randrange(len(concealed)))  # the discard after eating
        idx.remove(out)
        rest.append(out)
        assert idx.counts == cards.counts(concealed)
        held = concealed + [f for g in laid for f in g.faces]
        pool, fixed = e.win_counts(idx.counts, laid)
        assert (idx.pool, idx.laid_chan) == (pool, fixed)
        for c in sorted(set(rest)):
            if cards.counts(held)[c] < rules.copies:
                want = e.judge(held, laid, c, "u").win
                assert idx.wins_with(c, "u") == want == e.is_win(pool, fixed, c, "u")
            if idx.counts[c] == 3:
                want = e.judge(held, laid, c, "chiu-u").win
                assert idx.wins_with(c, "chiu-u") == want
    assert eaten


@pytest.mark.parametrize("kind", ["u", "chiu-u", "opening"])
def test_readings_of_laid_groups_agree_when_nothing_is_laid(kind: str) -> None:
    """With no laid group the two readings of row laid-groups give the same verdict,
    rows and decomposition (so the report's win.js, which judges concealed hands only,
    needs no code for the row), on random and near-complete hands."""
    from test_win_oracles import random_case

    laid_r = table.rules("family", 4, {})
    pool_r = table.rules("family", 4, {"laid-groups": "pooled"})
    wins = 0
    for seed in range(150):
        case = (random_case(seed, laid_r, kind) if seed % 2
                else near_case(seed, laid_r, kind, 0.0, seed % 4 == 0))
        hand, laid, cand, k = case
        assert not laid
        a = win.engine(laid_r).judge(hand, (), cand, k)  # type: ignore[arg-type]
        b = win.engine(pool_r).judge(hand, (), cand, k)  # type: ignore[arg-type]
        assert a == b
        wins += a.win
    assert wins


def test_hand_index_on_winning_hands_with_laid_chan() -> None:
    """A known ù (8 chắn with one laid) through the index, then broken by one swap."""
    rules = table.rules("family", 4, {})
    e = win.engine(rules)
    concealed = cards.parse_many("3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 2n 2s 3n 3s 4n 4s 5n")
    idx = win.HandIndex(e, cards.counts(concealed), laid_chan=1)  # 2v 2v laid
    five_s = cards.parse("5s")
    assert idx.wins_with(five_s)
    idx.laid_chan = 0
    assert not idx.wins_with(five_s)
    idx.laid_chan = 1
    idx.remove(cards.parse("9v"))
    idx.add(cards.parse("9n"))
    assert not idx.wins_with(five_s)
    assert idx.wins_with(five_s) == e.is_win(idx.counts, 1, five_s, "u")


def test_hand_index_rejects_impossible_moves() -> None:
    e = win.engine(table.rules("family", 4, {}))
    idx = win.HandIndex(e, cards.counts(cards.parse_many("2v 2v 2v 2v")))
    with pytest.raises(win.HandError, match="deck has only 4"):
        idx.add(cards.parse("2v"))
    with pytest.raises(win.HandError, match="not in the concealed hand"):
        idx.remove(cards.parse("3v"))
    with pytest.raises(win.HandError, match="not in the concealed hand"):
        idx.eat(cards.parse("3v"), cards.parse("3n"))
    with pytest.raises(win.HandError, match="not a group"):
        idx.eat(cards.parse("3v"), cards.parse("2v"))
    with pytest.raises(win.HandError, match="three concealed copies"):
        idx.lay_chiu(cards.parse("3v"))
    pooled = win.engine(table.rules("family", 4, {"laid-groups": "pooled"}))
    idx = win.HandIndex(pooled, cards.counts(cards.parse_many("2v 2v 2v")))
    idx.eat(cards.parse("2v"), cards.parse("2v"))  # a laid chắn stays among the counts
    assert idx.pool[cards.parse("2v")] == 4 and idx.counts[cards.parse("2v")] == 2
    with pytest.raises(win.HandError, match="deck has only 4"):
        idx.eat(cards.parse("2v"), cards.parse("2v"))


def test_engine_cache_tells_tables_with_one_id_apart() -> None:
    """Two tables that share an id (a reduced copy of the family's) get their own engines."""
    small = reduced_rules(["2v", "2n", "2s"], 2, [(4, 1, 1)], 4, table_id="family")
    full = table.rules("family", 4, {})
    assert small.key() == full.key()  # same id, players and options
    assert win.engine(small) is not win.engine(full)
    assert win.engine(small).rules.pairs == 1
    assert win.engine(full).rules.pairs == 12


def test_verdict_groups_are_a_real_decomposition() -> None:
    """The pairs judge() shows are chắn or cạ of the table, the final one holds the
    candidate and is no special cạ, and the chắn among them add up to `chan`."""
    rules = table.rules("family", 4, {})
    e = win.engine(rules)
    checked = 0
    for seed in range(300):
        hand, laid, cand, _ = near_case(seed, rules, "u", 0.0, seed % 3 == 0)
        assert cand is not None and not laid
        v = e.judge(hand, [], cand, "u")
        if v.chan is None or v.groups is None:
            continue
        checked += 1
        pairs = list(v.groups)
        assert sorted(f for p in pairs for f in p) == sorted(hand + [cand])
        assert all(p[0] == p[1] or rules.is_ca(p[0], p[1]) for p in pairs)
        final = pairs[-1]
        assert cand in final
        assert final[0] == final[1] or not rules.is_special(final[0], final[1])
        assert sum(p[0] == p[1] for p in pairs) == v.chan
    assert checked > 20


# --------------------------------------------------------------------------- all hands


def _completes(b: Brute, rules: Rules, hand: list[int], g: int, kind: str) -> bool:
    """Would `g` complete `hand` (shape, final pair, chắn), the never rule aside?"""
    res = b.judge(hand, [], g, kind)
    return res.chan is not None and res.chan >= rules.min_chan


def _is_dead_wait(rules: Rules, hand: list[int], y: int) -> bool:
    b = Brute(rules)
    cnt = cards.counts(hand)
    if cnt[y] >= rules.copies or not _completes(b, rules, hand, y, "u"):
        return False
    for g in rules.faces:
        if g in rules.never_complete:
            continue
        if cnt[g] < rules.copies and _completes(b, rules, hand, g, "u"):
            return False
        if 3 <= cnt[g] < rules.copies and _completes(b, rules, hand, g, "chiu-u"):
            return False
    return True


def test_dead_wait_witness_for_the_family() -> None:
    """The search finds a hand whose only completing card is a yêu face (§4 bullet 2
    makes that wait hopeless); brute force confirms every face of the deck."""
    rules = table.rules("family", 5, {})
    w = class_search.dead_wait(rules)
    assert w is not None and w.candidate in rules.never_complete
    assert len(w.hand) == 2 * rules.pairs - 1
    assert _is_dead_wait(rules, list(w.hand), w.candidate)
    assert not win.engine(rules).judge(w.hand, [], w.candidate, "u").win


def test_needs_special_ca_witness_for_the_family() -> None:
    """The search finds a winning hand that cannot win without a special cạ; brute
    force with the special cạ taken out of the pairing graph confirms it does not win
    then."""
    rules = table.rules("family", 4, {})
    w = class_search.needs_special_ca(rules)
    assert w is not None and w.candidate is not None
    assert win.engine(rules).judge(w.hand, [], w.candidate, "u").win
    assert Brute(rules).judge(w.hand, [], w.candidate, "u").win
    assert not _plain_brute(rules).judge(w.hand, [], w.candidate, "u").win


def _plain_brute(rules: Rules) -> Brute:
    """The brute-force oracle with every special cạ taken out of the pairing graph."""
    plain = Brute(rules)
    plain.partners = {a: tuple(p for p in ps if not rules.is_special(a, p))
                      for a, ps in plain.partners.items()}
    return plain


def _exhaustive_dead_wait(rules: Rules) -> bool:
    faces = sorted(rules.faces)
    for combo in itertools.product(range(rules.copies + 1), repeat=len(faces)):
        if sum(combo) != 2 * rules.pairs - 1:
            continue
        hand = [f for f, n in zip(faces, combo, strict=True) for _ in range(n)]
        if any(_is_dead_wait(rules, hand, y) for y in rules.never_complete if y in faces):
            return True
    return False


@pytest.mark.parametrize("faces,copies,pairs,min_chan", [
    (["1v", "chi"], 1, 1, 1),          # Chi Chi has no chắn and only a special cạ: none
    (["1v", "1n", "chi"], 2, 2, 2),
    (["1v", "2v", "2n", "lao", "thang"], 2, 2, 1),
])
def test_dead_wait_agrees_with_exhaustive_search(faces: list[str], copies: int, pairs: int,
                                                 min_chan: int) -> None:
    """On small decks Z3's answer (witness or proof of none) matches enumeration."""
    rules = reduced_rules(faces, copies, [(4, pairs, min_chan)], 4, table_id="dead-wait")
    w = dead_wait(rules)
    assert (w is not None) == _exhaustive_dead_wait(rules)
    if w is not None:
        assert w.candidate is not None and _is_dead_wait(rules, list(w.hand), w.candidate)
