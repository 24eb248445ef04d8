"""The dealing ritual of classic Chắn (bốc cái): the table's [cai] section, the machine's
chance step that turns up the cái card and counts the opener from it (model/chan/cai.py,
model/chan/game.py), and the cái card carried by logs, replay, ITF traces, the conformance
protocol and the commands.  The family's table has no ritual: its deals stay as they were.

Golden cases are checked by hand against seed 000, section "Chia bài, chọn nọc, bốc cái":
its counting rule (¶3), its worked example (¶4) and its memory aid (¶5)."""

from __future__ import annotations

import copy
import io
import json
import random
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

import pytest
from chanspec.checks.cli import app
from chanspec.checks.conform import itf, logs, refengine, replay
from chanspec.checks.conform.campaign import build_deal
from chanspec.model.chan import cai, cards, game, table
from hypothesis import given, settings
from hypothesis import strategies as st
from test_classic import _row, classic_data
from test_table import _has, problems_of, to_toml

A, B, C, D = 0, 1, 2, 3  # 000's four players, seated in the direction of play
SUITS = "vns"
PLACES = ("players", "four-places")


def classic(players: int = 4, **options: str) -> table.Rules:
    return table.rules("classic", players, options)


def face(code: str) -> int:
    return cards.parse(code)


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = app.main(list(argv))
    return code, out.getvalue(), err.getvalue()


# --------------------------------------------------------------------------- golden: 000


def test_the_worked_example_of_000_b_turns_up_that_vạn_and_d_opens() -> None:
    """000 [Chia bài, chọn nọc, bốc cái] ¶4: four players A, B, C, D (B and D opposite);
    B draws the cái and turns up Thất Vạn; counting B as 1, C 2, D 3, A 4, B 5, C 6, D 7,
    the count ends on D, who takes the cái pile."""
    cc = cai.cai_opener(classic(4), face("7v"), drawer=B)
    assert (cc.count, cc.opener, cc.drawer) == (7, D, B)
    assert cc.rules == ("cai-pile",)
    assert [cai.count_seat(k, B, 4, "players") for k in range(1, 8)] == [B, C, D, A, B, C, D]


def test_the_example_as_a_deal_holds_the_cai_card_in_d_s_hand() -> None:
    """The same example as a chance step: the first seed whose cái card is a Thất, drawn
    by B; D gets 20 cards, one of them the cái card, and the start event says why."""
    rules = classic(4)
    deal = next(d for d in (game.deal_random(rules, s, drawer=B) for s in range(500))
                if d.cai is not None and cards.rank_of(d.cai) == 7)
    assert deal.opener == D and deal.drawer == B
    assert deal.cai is not None and deal.cai in deal.hands[D] and len(deal.hands[D]) == 20
    start = game.State(rules, deal).events[0]
    assert start == {"type": "start", "opener": D, "cai": cards.code(deal.cai), "drawer": B,
                     "count": 7, "rules": ["cai-pile", "cai-card-public"]}


# 000 [Chia bài, chọn nọc, bốc cái] ¶5, written down by hand: nhị and lục go to the next
# seat (tiến), tứ and bát to the seat before the drawer (tụt), tam and thất opposite
# (đối).  Offsets from the drawer, in the direction of play, at a table of four.
RHYME = {2: 1, 6: 1, 4: -1, 8: -1, 3: 2, 7: 2}


@pytest.mark.parametrize("rank", sorted(RHYME))
@pytest.mark.parametrize("suit", SUITS)
def test_the_memory_aid_of_000_agrees_with_the_count(rank: int, suit: str) -> None:
    """Two statements of one rule (¶3's count and ¶5's rhyme) name the same opener, for
    every drawer, every suit and both readings of the count (four play: they agree)."""
    for places in PLACES:
        rules = classic(4, **{"cai-count-few-players": places})
        for drawer in range(4):
            got = cai.cai_opener(rules, face(f"{rank}{suit}"), drawer).opener
            assert got == (drawer + RHYME[rank]) % 4, (rank, suit, drawer, places)


@pytest.mark.parametrize("code", ["chi", "5v", "5n", "5s", "9v", "9n", "9s"])
def test_the_ranks_the_rhyme_leaves_out_come_back_to_the_drawer(code: str) -> None:
    """¶3: Chi Chi counts one (the drawer himself); Ngũ and Cửu go once (five) or twice
    (nine) round a table of four and end on the drawer too."""
    for drawer in range(4):
        assert cai.cai_opener(classic(4), face(code), drawer).opener == drawer


# Counted by hand, with fewer players, for the readings of row cai-count-few-players;
# index k-1 holds the seat a count of k (Chi Chi = 1, Nhị = 2, ..., Cửu = 9) ends on.
FEW = {
    # round the players: the count wraps round the seats at the table
    ("players", 3, 0): [0, 1, 2, 0, 1, 2, 0, 1, 2],
    ("players", 3, 2): [2, 0, 1, 2, 0, 1, 2, 0, 1],
    ("players", 2, 0): [0, 1, 0, 1, 0, 1, 0, 1, 0],
    ("players", 2, 1): [1, 0, 1, 0, 1, 0, 1, 0, 1],
    # round four places, the players on places 0.. in seat order; a count ending on an
    # empty place goes on to the next player (seat 0)
    ("four-places", 3, 0): [0, 1, 2, 0, 0, 1, 2, 0, 0],
    ("four-places", 3, 2): [2, 0, 0, 1, 2, 0, 0, 1, 2],
    ("four-places", 2, 0): [0, 1, 0, 0, 0, 1, 0, 0, 0],
    ("four-places", 2, 1): [1, 0, 0, 0, 1, 0, 0, 0, 1],
}


@pytest.mark.parametrize("key", sorted(FEW), ids=lambda k: f"{k[0]}-p{k[1]}-d{k[2]}")
def test_the_count_with_two_or_three_players(key: tuple[str, int, int]) -> None:
    places, players, drawer = key
    rules = classic(players, **{"cai-count-few-players": places})
    codes = ["chi"] + [f"{r}{SUITS[r % 3]}" for r in range(2, 10)]
    got = [cai.cai_opener(rules, face(c), drawer) for c in codes]
    assert [g.opener for g in got] == FEW[key]
    assert all(g.rules == ("cai-pile", "cai-count-few-players") for g in got)


# --------------------------------------------------------------------------- properties

OPTION_SPACE = st.fixed_dictionaries({
    "cai-count-few-players": st.sampled_from(PLACES),
    "cai-first-drawer": st.sampled_from(("given-seat", "by-chance")),
    "cai-card-public": st.sampled_from(("twentieth-card", "back-to-noc")),
})


@st.composite
def ritual_deals(draw: st.DrawFn) -> tuple[table.Rules, int, int | None]:
    players = draw(st.integers(2, 4))
    rules = classic(players, **draw(OPTION_SPACE))
    drawer = draw(st.none() | st.integers(0, players - 1))
    return rules, draw(st.integers(0, 2**32 - 1)), drawer


@settings(max_examples=60, deadline=None)
@given(ritual_deals())
def test_a_ritual_deal_names_its_opener_by_the_count(case: tuple[table.Rules, int, int | None]
                                                     ) -> None:
    rules, seed, drawer = case
    deal = game.deal_random(rules, seed, drawer=drawer)
    v = rules.variant
    assert deal.cai is not None and deal.drawer is not None
    assert 0 <= deal.opener < v.players and 0 <= deal.drawer < v.players
    if drawer is not None:
        assert deal.drawer == drawer
    elif rules.option("cai-first-drawer") == "given-seat":
        assert deal.drawer == 0
    assert deal.opener == cai.cai_opener(rules, deal.cai, deal.drawer).opener
    assert [len(h) for h in deal.hands] == [
        v.opener_cards if s == deal.opener else v.other_cards for s in range(v.players)]
    if rules.option("cai-card-public") == "twentieth-card":
        assert deal.cai in deal.hands[deal.opener]
    else:
        assert deal.cai in deal.noc
    everything = cards.counts([f for h in deal.hands for f in h] + list(deal.noc))
    assert all(everything[f] == (rules.copies if f in rules.faces else 0)
               for f in range(cards.NUM_FACES))
    game.check_cai(rules, deal)
    assert game.deal_random(rules, seed, drawer=drawer) == deal  # the seed decides
    # the drawer written back (a log's header) deals the same cards
    assert game.deal_random(rules, seed, drawer=deal.drawer) == deal
    assert game.Deal.from_json(json.loads(json.dumps(deal.as_json()))) == deal


@settings(max_examples=20, deadline=None)
@given(ritual_deals(), st.integers(0, 60))
def test_a_log_with_a_cai_replays_to_the_same_state(
        case: tuple[table.Rules, int, int | None], steps: int) -> None:
    rules, seed, drawer = case
    deal = game.deal_random(rules, seed, drawer=drawer)
    state = game.State(rules, deal)
    rng = random.Random(seed)
    for _ in range(steps):
        acts = state.legal_actions()
        if not acts:
            break
        state.apply(rng.choice(acts))
    for with_seed in (None, seed):
        text = logs.dumps(logs.record(rules, deal, state.history, seed=with_seed))
        header = json.loads(text.splitlines()[0])
        if with_seed is None:
            assert header["deal"]["cai"] == cards.code(deal.cai or 0)
            assert header["deal"]["drawer"] == deal.drawer
        else:
            assert header["drawer"] == deal.drawer and "opener" not in header
        res = replay.replay_text(text)
        assert res.status in ("conforming", "unfinished"), res.as_json()
        assert res.state == state
    doc = itf.trace(rules, deal, state.history)
    first = dict(doc["states"][0]["action"])
    assert first.pop("cuoc", []) == []  # a table that declares lists no cước for the deal
    assert first == {"type": "deal", "seat": deal.opener, "card": cards.code(deal.cai or 0)}
    back = itf.to_log(json.loads(itf.dumps(doc)))
    assert back.deal == deal
    assert game.State.from_json(json.loads(json.dumps(state.to_json()))) == state


@pytest.mark.parametrize("card_place", ["twentieth-card", "back-to-noc"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_conformance_deals_carry_a_fitting_cai(players: int, card_place: str) -> None:
    """The deals a conformance campaign sends an engine carry a cái card where the
    reading puts it, drawn by a seat whose count of it names the opener."""
    rules = classic(players, **{"cai-card-public": card_place})
    rng = random.Random(players)
    for _ in range(30):
        deal = build_deal(rules, lambda k: rng.randrange(k), lambda: rng.random() < 0.5)
        game.check_cai(rules, deal)
        # round the players, some drawer's count of any card names any seat: one fits
        assert deal.cai is not None and deal.drawer is not None
        assert cai.cai_opener(rules, deal.cai, deal.drawer).opener == deal.opener
        assert deal.cai in (deal.hands[deal.opener] if card_place == "twentieth-card"
                            else deal.noc)


# --------------------------------------------------------------------------- the family


def _old_family_deal(rules: table.Rules, seed: int, opener: int) -> game.Deal:
    """The family's deal as it was before the ritual: shuffle, then deal in seat order."""
    deck = [f for f in rules.faces for _ in range(rules.copies)]
    random.Random(seed).shuffle(deck)
    hands, pos = [], 0
    for seat in range(rules.players):
        k = rules.variant.opener_cards if seat == opener else rules.variant.other_cards
        hands.append(tuple(sorted(deck[pos:pos + k])))
        pos += k
    return game.Deal(tuple(hands), tuple(deck[pos:]), opener)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([4, 5]), st.integers(0, 2**32 - 1), st.integers(0, 4))
def test_the_family_deals_are_unchanged(players: int, seed: int, opener: int) -> None:
    rules = table.rules("family", players)
    opener %= players
    deal = game.deal_random(rules, seed, opener)
    assert deal == _old_family_deal(rules, seed, opener)
    assert set(deal.as_json()) == {"hands", "noc", "opener"}
    assert rules.cai_counts is None and not cai.has_ritual(rules)
    start = game.State(rules, deal).events[0]
    assert start == {"type": "start", "opener": opener}


def test_the_family_refuses_a_drawer_and_a_cai_card() -> None:
    rules = table.rules("family", 4)
    with pytest.raises(ValueError, match="no dealing ritual"):
        game.deal_random(rules, 1, drawer=2)
    with pytest.raises(cai.CaiError, match="no dealing ritual"):
        cai.cai_opener(rules, face("7v"), 0)
    deal = game.deal_random(rules, 1)
    bad = game.Deal(deal.hands, deal.noc, deal.opener, deal.hands[0][0], 1)
    with pytest.raises(game.ActionError, match="no dealing ritual"):
        game.check_deal(rules, bad)
    header = logs.header(rules, seed=1)
    header.pop("opener")
    header["drawer"] = 1
    with pytest.raises(logs.LogError, match="no dealing ritual"):
        logs.parse(json.dumps(header) + "\n")


# --------------------------------------------------------------------------- refusals


def test_a_classic_deal_whose_opener_the_count_does_not_name_is_refused() -> None:
    rules = classic(4)
    deal = game.deal_random(rules, 11, drawer=B)
    other = (deal.opener + 1) % 4
    hands = list(deal.hands)
    hands[deal.opener], hands[other] = hands[other], hands[deal.opener]
    with pytest.raises(game.ActionError, match=f"names seat {deal.opener}") as info:
        game.check_cai(rules, game.Deal(tuple(hands), deal.noc, other, deal.cai, B))
    assert "cai-pile" in info.value.rules
    with pytest.raises(game.ActionError, match="not the seat that drew it"):
        game.check_deal(rules, game.Deal(deal.hands, deal.noc, deal.opener, deal.cai))
    with pytest.raises(ValueError, match="give the seat that draws it"):
        game.deal_random(rules, 11, opener=2)


def test_a_cai_card_missing_from_the_opener_s_hand_is_refused() -> None:
    rules = classic(4)
    deal = game.deal_random(rules, 5, drawer=A)
    assert deal.cai is not None
    hand = list(deal.hands[deal.opener])
    hand.remove(deal.cai)
    swap = next(f for f in deal.noc if f != deal.cai)
    hand.append(swap)
    noc = list(deal.noc)
    noc[noc.index(swap)] = deal.cai
    hands = list(deal.hands)
    hands[deal.opener] = tuple(sorted(hand))
    with pytest.raises(game.ActionError, match="must be in the opener") as info:
        game.check_cai(rules, game.Deal(tuple(hands), tuple(noc), deal.opener, deal.cai, A))
    assert info.value.rules == ("cai-card-public",)


@pytest.mark.parametrize("players", [2, 3])
def test_a_deal_of_one_reading_plays_on_under_another_but_a_log_must_fit(players: int
                                                                         ) -> None:
    """The checker plays one deal under each reading of an open row (its shadows): the
    readings of the cái rows act at the chance step only, so the machine plays the deal
    as dealt; a log or an engine's start must give a deal that fits its own options."""
    base = classic(players)
    other = classic(players, **{"cai-count-few-players": "four-places",
                                "cai-card-public": "back-to-noc"})
    deal = next(d for d in (game.deal_random(base, s, drawer=players - 1) for s in range(200))
                if d.cai is not None
                and cai.cai_opener(other, d.cai, d.drawer or 0).opener != d.opener)
    st_ = game.State(other, deal)
    assert st_.pending() == (deal.opener,) and st_.events[0]["opener"] == deal.opener
    header = logs.header(other, deal)
    with pytest.raises(logs.LogError, match="names seat") as info:
        logs.parse(json.dumps(header) + "\n")
    assert info.value.field == "deal"
    logs.parse(json.dumps(logs.header(base, deal)) + "\n")  # under its own options: fine


def test_a_log_header_with_a_bad_cai_is_refused_naming_the_field() -> None:
    rules = classic(4)
    deal = game.deal_random(rules, 3, drawer=C)
    header = logs.header(rules, deal)
    header["deal"]["cai"] = "Thất Vạn"
    with pytest.raises(logs.LogError) as info:
        logs.parse(json.dumps(header) + "\n")
    assert info.value.field == "deal.cai"
    header["deal"]["cai"] = cards.code(deal.cai or 0)
    header["deal"]["drawer"] = 9
    with pytest.raises(logs.LogError) as info:
        logs.parse(json.dumps(header) + "\n")
    assert info.value.field == "deal.drawer"
    seeded = logs.header(rules, seed=3, drawer=C)
    seeded["opener"] = 1
    with pytest.raises(logs.LogError, match="counts the opener from the cái card"):
        logs.parse(json.dumps(seeded) + "\n")


# --------------------------------------------------------------------------- the loader


def test_the_cai_section_is_checked_naming_field_and_expectation() -> None:
    data = classic_data()
    del data["cai"]["counts"]["7"]
    data["cai"]["counts"]["chi"] = 0
    data["cai"]["counts"]["ten"] = 10
    data["cai"]["place_rule"] = "cai-pile"
    probs = problems_of(to_toml(data))
    assert _has(probs, "cai", "counts", "missing the count of '7'"), probs
    assert _has(probs, "cai", "counts.chi", "at least 1"), probs
    assert _has(probs, "cai", "counts.ten", "unknown key"), probs
    assert _has(probs, "cai", "place_rule", "unknown key", "places_rule"), probs


def test_the_cai_roles_must_name_rows_and_machine_values() -> None:
    data = classic_data()
    data["cai"]["rule"] = "cai-piles"
    data["cai"]["card_rule"]["by_value"]["back-to-noc"] = "under-the-mat"
    data["cai"]["places_rule"] = "cai-pile"
    probs = problems_of(to_toml(data))
    assert _has(probs, "cai", "rule", "no [[rule]] row", "cai-pile"), probs
    assert _has(probs, "cai", "card_rule.by_value.back-to-noc", "opener-hand, noc"), probs
    assert _has(probs, "cai", "places_rule", "exactly the values", "players, four-places"), probs
    data = classic_data()
    del data["cai"]["first_drawer_rule"]
    assert _has(problems_of(to_toml(data)), "cai", "first_drawer_rule", "missing"), data["cai"]


def test_a_table_without_cai_keeps_a_given_opener() -> None:
    data = classic_data()
    del data["cai"]
    t = table.from_data(copy.deepcopy(data), "no-cai.toml")
    rules = t.resolve(3)
    deal = game.deal_random(rules, 8, opener=2)
    assert deal.opener == 2 and deal.cai is None and len(deal.hands[2]) == 20


def test_the_open_rows_of_the_ritual_cite_000_and_offer_their_readings() -> None:
    t = table.load("classic")
    for rid, values, default in (
            ("cai-count-few-players", {"players", "four-places"}, "players"),
            ("cai-first-drawer", {"given-seat", "by-chance"}, "given-seat")):
        r = t.rows[rid]
        assert (r.status, set(r.values), r.default, r.found_by) == ("open", values, default,
                                                                   "reading")
        assert r.locator.startswith("000_e2a536ce1178235b.txt [Chia bài, chọn nọc, bốc cái]")
    row = _row(classic_data(), "cai-card-public")
    assert set(row["values"]) == {"twentieth-card", "back-to-noc"}


# --------------------------------------------------------------------------- commands


def test_play_shows_the_cai_card_and_why_this_seat_opens() -> None:
    rules = classic(4)
    deal = game.deal_random(rules, 9, drawer=B)
    assert deal.cai is not None
    code, out, err = run_cli("play", "--ruleset", "classic", "--seed", "9", "--drawer", "1",
                             "--lang", "en")
    assert code == 0, err
    cc = cai.cai_opener(rules, deal.cai, B)
    assert f"  cái: {cards.code(deal.cai)}" in out
    assert (f"The cái: seat 1 turns up {cards.name(deal.cai)} (the cái card, seen by all), "
            f"which counts {cc.count}") in out
    assert f"ends on seat {deal.opener}, who takes the cái pile" in out
    assert "[cai-pile, cai-card-public]" in out
    assert "--drawer 1" in out  # the replay command keeps the drawer
    code, _, err = run_cli("play", "--ruleset", "classic", "--seed", "9", "--opener", "2")
    assert code == 2 and "--drawer" in err
    code, _, err = run_cli("play", "--seed", "9", "--drawer", "2")
    assert code == 2 and "--opener" in err


def test_explain_shows_the_cai_card_to_any_seat(tmp_path: Any) -> None:
    log = tmp_path / "c.ndjson"
    code, _, err = run_cli("play", "--ruleset", "classic", "--players", "3", "--seed", "4",
                           "--json", "--out", str(log))
    assert code == 0, err
    deal = logs.parse(log.read_text(encoding="utf-8")).deal
    assert deal.cai is not None
    for seat in range(3):
        code, out, err = run_cli("explain", str(log), "--seat", str(seat), "--ruleset",
                                 "classic", "--json")
        assert code == 0, err
        assert json.loads(out)["position"]["cai"] == {
            "card": cards.code(deal.cai), "drawer": deal.drawer, "opener": deal.opener,
            "rules": ["cai-pile", "cai-count-few-players", "cai-card-public"]}
    code, out, err = run_cli("replay", str(log), "--ruleset", "classic")
    assert code == 0, (out, err)


def test_serve_takes_a_deal_with_its_cai_and_refuses_one_that_does_not_fit() -> None:
    rules = classic(4)
    deal = game.deal_random(rules, 3, drawer=D)
    good = deal.as_json()
    bad = dict(good, drawer=(D + 1) % 4)
    reqs = [{"op": "start", "ruleset": "classic", "players": 4, "deal": good},
            {"op": "events"},
            {"op": "start", "ruleset": "classic", "players": 4, "deal": bad},
            {"op": "quit"}]
    out = io.StringIO()
    refengine.serve(io.StringIO("".join(json.dumps(r) + "\n" for r in reqs)), out)
    first, _, third = (json.loads(x) for x in out.getvalue().splitlines()[:3])
    assert first["ok"] is True, first
    assert third["ok"] is False and "names seat" in third["error"], third


def test_a_hand_starts_from_the_opener_or_from_the_drawer_of_the_cai() -> None:
    """The explorers start the next hand from the last winner: the opener in the family,
    the seat that draws the cái card in classic (000 •2: the last winner draws it)."""
    from chanspec.checks.explore import simulate

    assert game.start_seat(classic(3), 2) == {"drawer": 2}
    assert game.start_seat(table.rules("family", 4), 2) == {"opener": 2}
    t = table.load("classic")
    spec = simulate.GameSpec(0, 3, t.defaults(), 77, 0.0)
    st_ = simulate.play_spec(t, spec)
    assert st_.deal is not None and st_.deal.cai is not None
    assert st_.deal.drawer == 77 % 3
    assert st_.deal.opener == cai.cai_opener(st_.rules, st_.deal.cai, 77 % 3).opener


def test_the_winner_of_a_classic_hand_draws_the_next_cai() -> None:
    """000 •2: the last winner draws the next cái; the family's winner opens instead."""
    from chanspec.checks.report import narrate

    rules = classic(4)
    wins = []
    for seed in range(40):
        deal, actions = narrate.random_game(rules, seed, drawer=seed % 4)
        out = game.State.replay(rules, deal, actions).outcome()
        if out is not None and out["result"] == "win":
            wins.append(out)
    assert wins and all(o["next_drawer"] == o["winner"] and "next_opener" not in o
                        for o in wins)
    assert all("cai-pile" in o["rules"] for o in wins)
    fam = table.rules("family", 4)
    deal, actions = narrate.random_game(fam, 1)
    out = game.State.replay(fam, deal, actions).outcome()
    assert out is not None and "next_drawer" not in out
