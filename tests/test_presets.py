"""Named presets (model/presets.py): the loader's checks, ``--preset`` on the command
line, ``chanspec rules`` listing them, and Tấn's two-player Durak preset played by the
machine (Hypothesis: hand sizes, the card census, never more attack cards than the
defender held, the defender drawing last)."""

from __future__ import annotations

import copy
import json
import random
import tomllib
from typing import Any

import pytest
from chanspec.checks.cli import app as cli
from chanspec.model import kinds, presets
from chanspec.model.table import OptionError, TableError, builtin_path
from chanspec.model.tan.game import LEAD, State
from hypothesis import given, settings
from hypothesis import strategies as st_
from test_table import to_toml

TAN = kinds.load("tan")
DURAK = "durak-two"


def tan_data() -> dict[str, Any]:
    return copy.deepcopy(TAN.data)


def problems(d: dict[str, Any]) -> list[str]:
    with pytest.raises(TableError) as info:
        kinds.load_text(to_toml(d), "bad.toml")
    lines = [str(p) for p in info.value.problems]
    assert lines and all("\n" not in x and x.startswith("bad.toml: ") for x in lines), lines
    return lines


def durak(players: int = 2, **changes: str) -> Any:
    opts = {**presets.lookup(TAN, DURAK).options, **{k.replace("_", "-"): v
                                                     for k, v in changes.items()}}
    return TAN.resolve(players, opts)


# ---------------------------------------------------------------------- the loader

def test_the_durak_preset_names_open_rows_and_their_values() -> None:
    p = TAN.presets()[DURAK]
    assert p.title_vi and p.title_en
    for rid, value in p.options.items():
        assert TAN.rows[rid].is_choice and value in TAN.rows[rid].values
    r = TAN.resolve(2, p.options)
    assert (r.deck.size, r.hand, r.deck.code(0), r.deck.code(r.deck.size - 1)) == \
        (36, 6, "6H", "AS")
    # the table as written is still the default
    assert (TAN.resolve(2).deck.size, TAN.resolve(2).hand) == (52, 8)


@pytest.mark.parametrize(("entry", "expect"), [
    ({"options": {"after-take": "after-taker"}}, "presets.x-y.title_vi: missing"),
    ({"title_vi": "a", "title_en": "b", "options": {"after-takee": "after-taker"}},
     "presets.x-y.options.after-takee: no row 'after-takee' in this table (did you mean "
     "'after-take'?)"),
    ({"title_vi": "a", "title_en": "b", "options": {"lead": "any"}},
     "presets.x-y.options.lead: row 'lead' is settled"),
    ({"title_vi": "a", "title_en": "b", "options": {"after-take": "never"}},
     "presets.x-y.options.after-take: row 'after-take' has no value 'never'; its values are "
     "right-of-attacker, after-taker"),
    ({"title_vi": "a", "title_en": "b", "options": {}}, "presets.x-y.options: expected"),
    ({"title_vi": "", "title_en": "b", "options": {"deck": "short"}},
     "presets.x-y.title_vi: expected a non-empty string"),
    ({"title_vi": "a", "title_en": "b", "options": {"attack-pace": "several-open"}},
     "presets.x-y.options: --option attack-pace=several-open: the Tấn machine does not play"),
], ids=["title", "row", "settled", "value", "empty", "blank-title", "unplayed"])
def test_a_bad_preset_is_one_line_naming_file_preset_and_row(entry: dict[str, Any],
                                                             expect: str) -> None:
    d = tan_data()
    d["presets"]["x-y"] = entry
    lines = problems(d)
    assert any(expect in x for x in lines), lines


def test_a_preset_name_must_be_kebab_case() -> None:
    d = tan_data()
    d["presets"]["Durak_2"] = d["presets"][DURAK]
    assert any("presets.Durak_2: a preset name must be kebab-case" in x for x in problems(d))


def test_a_chan_table_may_name_presets_too() -> None:
    d = tomllib.loads(builtin_path("family").read_text(encoding="utf-8"))
    rid = next(r["id"] for r in d["rule"] if r.get("status") == "open")
    other = next(v for v in next(r for r in d["rule"] if r["id"] == rid)["values"]
                 if v != next(r for r in d["rule"] if r["id"] == rid)["default"])
    d["presets"] = {"house": {"title_vi": "nhà", "title_en": "house",
                              "options": {rid: other}}}
    t = kinds.from_data(d, "family-house.toml")
    assert presets.options_for(t, "house", []) == {rid: other}
    d["presets"]["house"]["options"] = {rid: "no-such-value"}
    with pytest.raises(TableError, match=f"presets.house.options.{rid}: row '{rid}' has no "
                       "value 'no-such-value'"):
        kinds.from_data(d, "family-house.toml")


def test_option_overrides_one_value_of_the_preset() -> None:
    got = presets.options_for(TAN, DURAK, ["hand-size=full"])
    assert got["hand-size"] == "full" and got["deck"] == "short"
    assert presets.options_for(TAN, None, ["deck=short"]) == {"deck": "short"}
    with pytest.raises(OptionError, match="has no preset of that name .did you mean "
                       "'durak-two'.*its presets: durak-two"):
        presets.options_for(TAN, "durak-tow", [])
    with pytest.raises(OptionError, match="row 'deck' has the values"):
        presets.options_for(TAN, DURAK, ["deck=tiny"])


def test_a_pack_too_small_for_the_hands_is_refused() -> None:
    d = tan_data()
    d["deck"]["short_weakest"] = "r10"  # a short pack of 20 cards
    t = kinds.load_text(to_toml(d), "short.toml")
    with pytest.raises(OptionError, match="4 hands of 6 and the turned card need 25 cards; "
                       "the pack of these options has 20"):
        t.resolve(4, {"deck": "short", "hand-size": "short"})
    assert t.resolve(3, {"deck": "short", "hand-size": "short"}).deck.size == 20
    d["deck"]["short_weakest"] = "a"
    assert any("deck.short_weakest: expected the id of a rank below the strongest" in x
               for x in problems(d))


# ---------------------------------------------------------------------- the command line

def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_with_a_preset_and_an_override(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--ruleset", "tan", "--players", "2", "--seed", "3",
                       "--preset", DURAK, "--lang", "en")
    assert code == 0 and "deck=short" in out and "hand-size=short" in out
    code, out, _ = run(capsys, "play", "--ruleset", "tan", "--players", "2", "--seed", "3",
                       "--preset", DURAK, "--option", "hand-size=full", "--lang", "en")
    assert code == 0 and "deck=short" in out and "hand-size=short" not in out
    code, out, _ = run(capsys, "play", "--ruleset", "tan", "--players", "2", "--seed", "3",
                       "--lang", "en")
    assert code == 0 and "deck=short" not in out


def test_an_unknown_preset_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "--ruleset", "tan", "--players", "2",
                         "--preset", "podkidnoy")
    assert code == 2 and not out
    assert "--preset podkidnoy: table 'tan' has no preset of that name; its presets: " \
        "durak-two" in err and "Traceback" not in err
    code, _, err = run(capsys, "win", "1v", "--preset", "house")
    assert code == 2 and "table 'family' has no preset of that name; it has none" in err


def test_rules_lists_the_presets(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--ruleset", "tan", "--lang", "en")
    assert code == 0 and "Named presets" in out
    assert f"{DURAK} — Two-player podkidnoy Durak" in out and "deck=short" in out
    code, out, _ = run(capsys, "rules", "--ruleset", "tan", "--json", "--row", "deck")
    doc = json.loads(out)
    assert code == 0 and [p["name"] for p in doc["presets"]] == [DURAK]
    assert doc["presets"][0]["options"] == dict(TAN.presets()[DURAK].options)
    assert [r["id"] for r in doc["rows"]] == ["deck"]
    code, out, _ = run(capsys, "rules", "--ruleset", "family", "--json", "--games", "1",
                       "--row", "lao-thang")
    assert code == 0 and json.loads(out)["presets"] == []


# ---------------------------------------------------------------------- the machine

def play_checked(rules: Any, seed: int, explain: bool = False) -> tuple[State, list[str]]:
    """A random hand, every move checked; the problems found at each step (`explain`:
    also every candidate action of every seat explained as legal exactly when it is)."""
    st = State.new(rules, seed, dealer=seed % rules.players)
    rng = random.Random(seed)
    bad: list[str] = []
    start_hand = -1
    rounds = 0
    first_five = rules.value("play.first_limit") == "five"
    while st.phase != "over" and len(st.history) < 3000:
        if st.phase == LEAD and not st.att:
            rounds += 1
            start_hand = st.hands[st.defender].bit_count()
            if st.stock and not st.history:
                bad += [f"seat {s} dealt {h.bit_count()}" for s, h in enumerate(st.hands)
                        if h.bit_count() != rules.hand]
            if rounds == 1 and rules.value("deal.first_attacker") == "lowest-trump":
                trumps = [(c, s) for s in range(rules.players) for c in
                          st.sorted_hand(s) if st.p.deck.suit(c) == st.trump]
                want = min(trumps)[1] if trumps else st.deal.dealer
                if st.attacker != want:
                    bad.append(f"seat {st.attacker} leads; the lowest trump is seat {want}'s")
        a, d, k = st.attacker, st.defender, len(st.events)
        la = st.legal_actions()
        if explain:
            bad += [f"explain {x.code()}" for s in range(rules.players)
                    for x in st.candidate_actions(s) if st.explain(x).legal != (x in la)]
        table = st.att + st.beats
        choice = la[rng.randrange(len(la))]
        st.apply(choice)
        limit = 5 if rounds == 1 and first_five else 6
        if st.phase != LEAD and len(st.att) > min(limit, start_hand):
            bad.append(f"{len(st.att)} attack cards in round {rounds}, the defender held "
                       f"{start_hand}")
        if st.taking and len(st.att) - len(st.beats) > st.hands[d].bit_count():
            bad.append("more unbeaten cards than the taker holds")
        took = [e for e in st.events[k:] if e["type"] == "took"]
        if took and sorted(took[0]["cards"]) != sorted(
                st.p.deck.codes([*table, *([choice.card] if choice.kind == "add" else [])])):
            bad.append(f"took {took[0]['cards']}, the table held {st.p.deck.codes(table)}")
        draws = [e["seat"] for e in st.events[k:] if e["type"] == "draw"]
        ring = [(a + j) % rules.players for j in range(rules.players)]
        order = [*(s for s in ring if s != d), d]  # row refill-order: defender-last
        if draws != sorted(draws, key=order.index):
            bad.append(f"drew in the order {draws} after a round of {a} on {d}")
        bad += [f"{k}: {why}" for k, why in st.invariants()]
        if sum(st.census()) != rules.deck.size:
            bad.append("census")
    return st, bad


@settings(max_examples=40, deadline=None)
@given(seed=st_.integers(0, 10**9))
def test_durak_hands_keep_their_sizes_census_and_attack_limit(seed: int) -> None:
    """Podkidnoy's rules in the preset: the lowest trump leads, five cards at most in the
    first round and six after, never more than the defender held (nor more unbeaten
    cards than a taker holds, when cards are added after the take), the taker takes the
    whole table, the defender draws last; explain agrees with the legal actions."""
    st, bad = play_checked(durak(2), seed, explain=True)
    assert not bad, bad
    assert st.phase == "over" and st.p.size == 36 and st.p.hand == 6


def _first_rounds(rules: Any, seeds: range) -> tuple[int, list[int]]:
    """(cards added to takers in the hands, the most attack cards of each hand's first
    round) under a greedy policy: add or beat whenever possible."""
    added = 0
    most: list[int] = []
    for seed in seeds:
        st = State.new(rules, seed)
        rng = random.Random(seed)
        first = 0
        while st.phase != "over":
            la = st.legal_actions()
            eager = [a for a in la if a.kind in ("add", "beat")] or la
            a = eager[rng.randrange(len(eager))]
            added += st.taking and a.kind == "add"
            if st.cap == st.p.first_limit and not st.discard and not any(
                    e["type"] == "took" for e in st.events):  # still the first round
                first = max(first, len(st.att) + (a.kind in ("lead", "add")))
            st.apply(a)
        most.append(first)
    return added, most


def test_durak_hands_add_to_takers_and_fill_the_first_round() -> None:
    """The preset's readings are met in play, not only allowed: cards are added after a
    take, first rounds reach their five cards and never more, while under row
    first-round-limit's other value some first round goes past five."""
    added, _ = _first_rounds(durak(2), range(30))
    assert added > 10
    _, most = _first_rounds(durak(4), range(30))
    assert max(most) == 5 and most.count(5) >= 3
    _, most = _first_rounds(durak(4, first_round_limit="as-others"), range(30))
    assert max(most) == 6


@settings(max_examples=25, deadline=None)
@given(seed=st_.integers(0, 10**9), players=st_.sampled_from([3, 4]))
def test_durak_readings_at_more_seats_draw_the_defender_last(seed: int, players: int) -> None:
    st, bad = play_checked(durak(players), seed, explain=players == 3)
    assert not bad, bad
    assert st.p.defender_last and st.phase == "over"


def refill_orders(rules: Any, seeds: range) -> tuple[int, int]:
    """(rounds where a seat other than attacker and defender drew, those of them where
    the defender did not draw last) over random hands of these seeds."""
    n = rules.players
    seen = wrong = 0
    for seed in seeds:
        st = State.new(rules, seed)
        rng = random.Random(seed)
        while st.phase != "over":
            a, d, k = st.attacker, st.defender, len(st.events)
            la = st.legal_actions()
            st.apply(la[rng.randrange(len(la))])
            draws = [e["seat"] for e in st.events[k:] if e["type"] == "draw"]
            if d in draws and set(draws) - {a, d}:
                seen += 1
                wrong += draws[-1] != d
    assert n >= 3
    return seen, wrong


def test_the_two_refill_orders_part_at_three_seats() -> None:
    seen, wrong = refill_orders(durak(3), range(60))
    assert seen >= 3 and wrong == 0
    seen, wrong = refill_orders(durak(3, refill_order="from-attacker"), range(60))
    assert seen >= 3 and wrong == seen  # round from the attacker: the others after the defender
