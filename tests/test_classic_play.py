"""Classic Chắn played by the machine: its turn stated by role in spec/classic.toml, the
17 rules of play of 000 ("Luật đánh bài") as restrictions, forbidden or penalised by row
restriction-mode.

Two oracles for the faults: under ``restriction-mode=penalise`` the machine records a
fault exactly when the same act, in the same position, is refused under ``forbid``
(`State.under` recomputes legality under the other value without replaying).  Golden
cases, checked by hand against 000 [Luật đánh bài], build a deal where one rule of play
is broken and assert the row cited in both modes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from chanspec.model.chan import cards, table
from chanspec.model.chan.game import Action, Deal, State
from hypothesis import given, settings
from hypothesis import strategies as st

CLASSIC = table.load("classic")
RESTRICTION_ROWS = {r["rule"] for r in CLASSIC.data["restriction"]}


def _rules(players: int = 2, **options: str) -> table.Rules:
    return CLASSIC.resolve(players, {k.replace("_", "-"): v for k, v in options.items()})


def _deal(rules: table.Rules, hands: Sequence[Sequence[str]], noc: Sequence[str]) -> Deal:
    """A deal whose hands start with `hands` and whose nọc starts with `noc`; the rest of
    the deck fills them in a fixed order (so that the test is reproducible)."""
    rest = [f for f in rules.faces for _ in range(rules.copies)]
    for c in [c for h in hands for c in h] + list(noc):
        rest.remove(cards.parse(c))
    random.Random(7).shuffle(rest)
    out: list[tuple[int, ...]] = []
    for seat, h in enumerate(hands):
        k = rules.variant.opener_cards if seat == 0 else rules.variant.other_cards
        fill = [rest.pop() for _ in range(k - len(h))]
        out.append(tuple(sorted([cards.parse(c) for c in h] + fill)))
    return Deal(tuple(out), tuple(cards.parse(c) for c in noc) + tuple(rest), 0)


def _pass_until(s: State, want: Action, limit: int = 40) -> None:
    """Let every claim window go by (pass) until `want` is legal."""
    for _ in range(limit):
        if want in s.legal_actions(want.seat):
            return
        assert s.phase == "window", (s.phase, s.pending(), want)
        s.apply(Action("pass", s.pending()[0]))
    raise AssertionError(f"{want.code()} never became legal")


def _play_random(rules: table.Rules, seed: int) -> State:
    s = State.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if s.is_terminal() or s.is_stuck():
            break
        s.apply(rng.choice(s.legal_actions(s.pending()[0])))
    return s


def _both_modes(s: State, act: Action, row: str) -> None:
    """`act` is legal here under penalise; under forbid the same position refuses it,
    citing `row`; made under penalise, it is recorded as a fault citing `row`."""
    forbid = s.under(s.rules.with_options(restriction_mode="forbid"))
    assert act not in forbid.legal_actions(act.seat)
    assert row in forbid.explain(act).rules
    n = len(s.faults)
    s.apply(act)
    if s.phase == "window" and s.window is not None and s.window.responses:
        for seat in s.pending():  # let the others answer so that the claim resolves
            s.apply(Action("pass", seat))
    assert len(s.faults) == n + 1 and s.faults[-1]["seat"] == act.seat
    assert row in s.faults[-1]["rules"]
    assert any(e["type"] == "fault" and row in e["rules"] for e in s.events)


# --------------------------------------------------------------------------- golden cases


def test_eating_a_face_once_discarded_is_rule_12() -> None:
    """000 [Luật đánh bài] #12: after discarding a card, eating that face is a fault.
    Seat 0 holds two Ngũ Vạn, discards one, and later draws the third."""
    rules = _rules(restriction_mode="penalise")
    s = State(rules, _deal(rules, [["5v", "5v"], []], ["2s", "5v"]))
    s.apply(Action("discard", 0, cards.parse("5v")))
    eat = Action("eat", 0, cards.parse("5v"))
    _pass_until(s, eat)
    _both_modes(s, eat, "loi-12-danh-roi-an")


def test_discarding_a_face_once_eaten_is_rule_14() -> None:
    """000 [Luật đánh bài] #14: after eating a card, discarding that face is a fault.
    Seat 0 eats the drawn Tam Sách with one of its three, then discards the third."""
    rules = _rules(restriction_mode="penalise")
    s = State(rules, _deal(rules, [["3s", "3s", "9v"], []], ["2n", "3s"]))
    s.apply(Action("discard", 0, cards.parse("9v")))
    eat = Action("eat", 0, cards.parse("3s"))
    _pass_until(s, eat)
    s.apply(eat)
    assert s.phase == "discard" and s.actor == 0
    n = len(s.faults)
    s.apply(Action("discard", 0, cards.parse("3s")))
    assert len(s.faults) == n + 1 and "loi-14-an-roi-danh" in s.faults[-1]["rules"]
    forbid = rules.with_options(restriction_mode="forbid")
    t = State(forbid, s.deal)
    for a in s.history[:-1]:
        t.apply(a)
    bad = Action("discard", 0, cards.parse("3s"))
    assert bad not in t.legal_actions(0)
    assert "loi-14-an-roi-danh" in t.explain(bad).rules


def test_eating_as_a_ca_while_holding_the_face_is_rule_1() -> None:
    """000 [Luật đánh bài] #1 (ăn treo tranh): holding a card identical to the one taken,
    eating it as a cạ with another card."""
    rules = _rules(restriction_mode="penalise")
    s = State(rules, _deal(rules, [["7v", "7n", "9s"], []], ["2n", "7v"]))
    s.apply(Action("discard", 0, cards.parse("9s")))
    as_ca = Action("eat", 0, cards.parse("7n"))
    _pass_until(s, as_ca)
    assert Action("eat", 0, cards.parse("7v")) in s.legal_actions(0)  # the chắn was there
    _both_modes(s, as_ca, "loi-1-an-treo-tranh")


@pytest.mark.parametrize("value,faulted", [("fault", True), ("free", False)])
def test_letting_a_win_from_the_noc_go_is_bo_u(value: str, faulted: bool) -> None:
    """000 [Luật đánh bài] #4 and [Cước] #2: letting a winning card from the nọc go is
    the fault bỏ ù (row bo-u, reading fault); 001 is silent (reading free).  Seat 1
    holds six chắn, three cạ and a Tam Văn, waiting on Tam Văn, the first nọc card."""
    rules = _rules(bo_u=value)
    hand = ["2v", "2v", "3v", "3v", "4v", "4v", "5v", "5v", "6v", "6v", "7v", "7v",
            "8v", "8n", "9v", "9n", "2n", "2s", "3n"]
    s = State(rules, _deal(rules, [["chi"], hand], ["3n"]))
    s.apply(Action("discard", 0, cards.parse("chi")))
    win = Action("u", 1)
    _pass_until(s, win)
    assert s.window is not None and s.window.source == "draw"
    for seat in s.pending():
        s.apply(Action("pass", seat))
    got = [f for f in s.faults if "bo-u" in f["rules"]]
    assert got == ([{"seat": 1, "action": "1:pass", "rules": ["bo-u"]}] if faulted else [])
    assert any(e["type"] == "fault" and e["rules"] == ["bo-u"] for e in s.events) == faulted
    assert not s.is_terminal()  # the hand goes on


def test_a_win_taken_from_the_noc_is_no_fault() -> None:
    rules = _rules(bo_u="fault")
    hand = ["2v", "2v", "3v", "3v", "4v", "4v", "5v", "5v", "6v", "6v", "7v", "7v",
            "8v", "8n", "9v", "9n", "2n", "2s", "3n"]
    s = State(rules, _deal(rules, [["chi"], hand], ["3n"]))
    s.apply(Action("discard", 0, cards.parse("chi")))
    win = Action("u", 1)
    _pass_until(s, win)
    s.apply(win)
    while s.phase == "window":
        s.apply(Action("pass", s.pending()[0]))
    s.apply(s.legal_actions()[0])  # the winner's correct declaration (xướng) ends the hand
    assert s.is_terminal() and not [f for f in s.faults if "bo-u" in f["rules"]]


def test_a_rule_scoped_by_rank_reaches_every_suit() -> None:
    """000 [Luật đánh bài] #11 (xé cạ ăn cạ): after discarding a card, no cạ of its rank
    may be eaten, whatever the suits: discard Tứ Vạn, then eat Tứ Sách with Tứ Văn."""
    rules = _rules(restriction_mode="penalise")
    s = State(rules, _deal(rules, [["4v", "4n"], []], ["2n", "4s"]))
    s.apply(Action("discard", 0, cards.parse("4v")))
    eat = Action("eat", 0, cards.parse("4n"))
    _pass_until(s, eat)
    _both_modes(s, eat, "loi-11-xe-ca-an-ca")


# --------------------------------------------------------------------------- properties


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]),
       mode=st.sampled_from(["penalise", "forbid"]))
def test_random_classic_hands_keep_the_deck_and_end(seed: int, players: int, mode: str) -> None:
    s = _play_random(_rules(players, restriction_mode=mode), seed)
    assert s.is_terminal() or s.is_stuck(), seed
    assert all(c in (0, 4) for c in s.census()), seed
    assert sum(1 for c in s.census() if c) == 25  # classic's 25 faces, four of each
    if mode == "forbid":  # only bỏ ù (row bo-u) is a fault outside the rules of play
        assert all(f["rules"] == ["bo-u"] for f in s.faults), seed
    for f in s.faults:
        assert set(f["rules"]) <= RESTRICTION_ROWS | {"stuck-discard", "bo-u",
                                                      "restriction-mode"}, f
        assert ("restriction-mode" in f["rules"]) == (f["rules"] != ["bo-u"]), f
    if s.is_terminal():
        assert s.result is not None
        assert s.result.get("faults", []) == s.faults


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_a_fault_is_recorded_exactly_when_forbid_would_refuse(seed: int) -> None:
    """Two oracles: the fault the machine records under penalise, and the legality of the
    same act under forbid worked out afresh on the same position (`State.under`)."""
    rules = _rules(3, restriction_mode="penalise")
    forbid = rules.with_options(restriction_mode="forbid")
    s = State.new(rules, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not s.is_terminal() and len(s.history) < 400:
        seat = s.pending()[0]
        a = rng.choice(s.legal_actions(seat))
        if s.phase in ("discard", "return", "opening"):
            refused = a not in s.under(forbid).legal_actions(seat)
            n = len(s.faults)
            s.apply(a)
            assert (len(s.faults) > n) == refused, (seed, a.code())
            checked += 1
        else:
            s.apply(a)
    assert checked > 0


def test_every_rule_of_play_is_broken_somewhere_in_random_play() -> None:
    """Each of the 17 rows is reachable: random play under penalise breaks every one (the
    figures are in `chanspec check --ruleset classic`)."""
    seen: set[str] = set()
    for seed in range(400):
        for f in _play_random(_rules(3, restriction_mode="penalise"), seed).faults:
            seen.update(f["rules"])
        if RESTRICTION_ROWS <= seen:
            break
    assert RESTRICTION_ROWS <= seen, sorted(RESTRICTION_ROWS - seen)


@pytest.mark.parametrize("value,minimum", [("six-chan", 6), ("any-pairs", 0)])
def test_thien_u_reading_sets_the_chan_a_dealt_win_needs(value: str, minimum: int) -> None:
    rules = _rules(thien_u=value)
    assert rules.opening_min_chan == minimum
    from chanspec.model.chan.win import engine

    # ten cạ and no chắn: a dealt win only when the reading asks for no chắn
    hand = [cards.parse(c) for c in ("2v 2n 3v 3n 4v 4n 5v 5n 6v 6n 7v 7n 8v 8n 9v 9n "
                                     "2s 3s 4s 5s").split()]
    hand[-4:] = [cards.parse(c) for c in ("2s", "2s", "3s", "3s")]
    counts = cards.counts(hand)
    assert engine(rules).is_win(counts, 0, None, "opening") == (minimum <= 2)
    v = engine(rules).judge(hand, (), None, "opening")
    assert v.win == (minimum <= 2) and "thien-u" in v.rules


def test_the_packed_machine_refuses_classic_with_the_reason() -> None:
    from chanspec.model.chan import packed

    rules = _rules(3)
    why = packed.unsupported(rules)
    assert why is not None and "penalise" in why
    forbid = rules.with_options(restriction_mode="forbid")
    assert "when" in (packed.unsupported(forbid) or "")
    with pytest.raises(ValueError, match="does not play table 'classic'"):
        packed.Packed(rules, [])
    assert packed.unsupported(table.rules("family", 4)) is None
