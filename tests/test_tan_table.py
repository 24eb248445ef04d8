"""The Tấn table (spec/tan.toml, seed 003) through the registry of kinds: it loads as its
kind's table, every row cites seed 003 by a locator that resolves and pastes nothing, the
open points the text leaves are rows with their readings as values, and a broken copy is
refused with one line per problem naming the entry and the field."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

import pytest
from chanspec.model import kinds, source
from chanspec.model import table as table_mod
from chanspec.model.table import OptionError, TableError
from chanspec.model.tan import table as tan_table
from chanspec.model.tan import vocab
from test_table import SEEDS, needs_seeds, to_toml

SEED_003 = "003_81c86855296f93c5.txt"
TEXT = table_mod.builtin_path("tan").read_text(encoding="utf-8")


def data() -> dict[str, Any]:
    return copy.deepcopy(tomllib.loads(TEXT))


def problems(d: dict[str, Any]) -> list[str]:
    with pytest.raises(TableError) as info:
        kinds.load_text(to_toml(d), "bad.toml")
    lines = [str(p) for p in info.value.problems]
    assert lines and all("\n" not in x and x.startswith("bad.toml: ") for x in lines), lines
    return lines


def test_tan_loads_through_the_registry_as_its_own_kind() -> None:
    t = kinds.load("tan")
    assert isinstance(t, tan_table.TanTable) and kinds.of(t).name == "tan"
    assert sorted(t.variants) == [2, 3, 4] and t.hand == 8
    deck = t.deck
    assert deck.size == 52 and deck.per_suit == 13
    # ranks as data, strongest first: A K Q J 10 … 2; a card's index grows with strength
    assert [r[1] for r in deck.ranks] == ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5",
                                          "4", "3", "2"]
    assert deck.code(deck.card(3, 12)) == "AS" and deck.code(deck.card(0, 0)) == "2H"
    assert [deck.count(deck.parse(c)) for c in ("AH", "KH", "QH", "JH", "10H", "2H")] == \
        [1, 13, 12, 11, 10, 2]
    r = kinds.rules("tan", 4, after_take="after-taker")
    assert r.players == 4 and r.value("play.after_take") == "after-taker"
    assert r.rid("play.trump_choice") == "trump-while-suit"
    assert r.with_options(hand_end="first-out").value("end.end") == "first-out"
    assert r.key() != kinds.rules("tan", 4).key()
    assert kinds.load(str(table_mod.builtin_path("tan"))).rows == t.rows


# the points issue 28 names, and the rows that hold them with their readings
OPEN_POINTS = {
    "defender-out": ("round-beaten", "defender-draws"),  # the two ways announced, not given
    "after-take": ("right-of-attacker", "after-taker"),  # 'right of the attacker' = the taker
    "take-what": ("attack-cards", "all-table"),
    "attack-limit": ("none", "six"),
    "out-turn": ("next-holding", "previous-attacker"),
    "direction": ("one-way", "deal-opposite"),
    "take-when-able": ("may-take", "must-beat"),
    "same-round-out": ("order-of-emptying", "shared-place"),
    # both ways the text gives, and Durak's for comparison
    "first-attacker": ("count-card", "dealer-then-winner", "lowest-trump"),
    "first-round-limit": ("as-others", "five"),  # silent: Durak's five, for comparison
    "add-after-take": ("take-ends", "add-to-taker"),  # a take ends the round, as written
    "count-from": ("drawer-is-one", "next-is-one"),
    "add-who": ("attacker-and-others", "others-only"),
    "add-ranks": ("all-table", "attack-only"),
    "add-order": ("attacker-first", "round-from-defender"),
    "pass-scope": ("whole-round", "this-card"),
    "hand-end": ("play-to-last", "first-out"),
    "cung-no-trump": ("gives-nothing", "gives-highest"),
    "xa-redeal": ("whole-deal", "own-hand"),
}


def test_every_open_point_is_a_row_with_its_readings_and_a_named_default() -> None:
    t = kinds.load("tan")
    for rid, values in OPEN_POINTS.items():
        row = t.rows[rid]
        assert row.is_choice, rid
        assert row.values == values, rid
        assert row.default in values and row.default == values[0], rid
        assert row.title_vi and row.title_en, rid
    choices = [r for r in t.rows.values() if r.is_choice]
    assert len(choices) >= 9
    # the text says a trump may be used while a higher card of the suit is held: settled
    assert t.rows["trump-while-suit"].status == "settled"
    # the three house rules are options, off unless chosen
    for rid in ("doi-hai-chu", "cung-chu", "xa-chu"):
        assert t.rows[rid].values == ("off", "on") and t.rows[rid].default == "off"


def test_the_readings_kept_for_comparison_say_so() -> None:
    """Where seed 003 is silent and a reading is other houses' (podkidnoy Durak, preset
    durak-two), the row is provisional, keeps the text's way as its default, and its
    paraphrases say the other reading is kept for comparison."""
    t = kinds.load("tan")
    durak = t.presets()["durak-two"].options
    for rid in ("deck", "hand-size", "refill-order", "first-attacker", "first-round-limit",
                "add-after-take"):
        row = t.rows[rid]
        assert row.status == "provisional" and row.found_by == "reading", rid
        assert "chỉ để so sánh" in row.vi and "kept for comparison" in row.en, rid
        assert durak[rid] != row.default, rid
    assert (durak["first-attacker"], durak["first-round-limit"], durak["add-after-take"]) \
        == ("lowest-trump", "five", "add-to-taker")


def test_every_field_names_a_row_and_the_open_ones_have_the_machines_values() -> None:
    t = kinds.load("tan")
    for sec, fields in vocab.FIELDS.items():
        for f in fields:
            rid = t.field_rule(f"{sec}.{f}")
            row = t.rows[rid]
            if f"{sec}.{f}" in vocab.ROLE_VALUES:
                assert sorted(row.values) == sorted(vocab.ROLE_VALUES[f"{sec}.{f}"])
            else:
                assert not row.is_choice, rid
    named = {t.field_rule(f"{s}.{f}") for s, fs in vocab.FIELDS.items() for f in fs}
    named |= {t.data["deck"]["rule"], t.data["deck"]["order_rule"], t.data["deal"]["rule"]}
    assert named == set(t.rows), set(t.rows) ^ named  # no row idle, none missing


def test_options_are_checked_with_hints() -> None:
    t = kinds.load("tan")
    with pytest.raises(OptionError, match="no open or provisional row .*did you mean "
                       "'after-take'"):
        t.resolve(4, {"after-tak": "x"})
    with pytest.raises(OptionError, match="has the values right-of-attacker, after-taker"):
        t.resolve(4, {"after-take": "x"})
    with pytest.raises(OptionError, match="no variant for 5 players; it has: 2, 3, 4"):
        t.resolve(5)
    with pytest.raises(OptionError, match="no open or provisional row"):
        t.resolve(4, {"beat-suit": "x"})  # a settled row is no option
    # a reading the machine does not play yet is refused in one line, naming what it plays
    with pytest.raises(OptionError, match="does not play that reading yet; it plays "
                       "one-at-a-time"):
        t.resolve(4, {"attack-pace": "several-open"})
    assert t.parse_options(["xa-chu=on"]) == {"xa-chu": "on"}
    with pytest.raises(OptionError, match="expected NAME=VALUE"):
        t.parse_options(["xa-chu"])


@needs_seeds
def test_every_locator_resolves_in_seed_003_and_nothing_is_pasted() -> None:
    assert SEEDS is not None
    t = kinds.load("tan")
    assert t.data["ruleset"]["source"] == SEED_003
    for r in t.rows.values():
        assert r.locator.startswith(SEED_003 + " "), r.id
        assert {p[0] for p in source.places(r.locator)} == {SEED_003}, r.id
        found = source.resolve(r.locator, SEEDS)
        assert found and all(s.strip() for s in found), r.id
    text = (SEEDS / SEED_003).read_text(encoding="utf-8")
    sents = source.all_sentences(text)
    assert len(sents) > 40
    pasted = [s for s in sents if len(s.split()) >= 5 and s.rstrip(".") in TEXT]
    assert not pasted, pasted
    # every paragraph that states a rule (¶3–¶22, the etiquette included) is cited
    cited = {p[3] for r in t.rows.values() for p in source.places(r.locator)}
    assert set(range(3, 23)) <= cited, sorted(set(range(3, 23)) - cited)


@needs_seeds
def test_a_plain_locator_past_the_text_is_refused() -> None:
    assert SEEDS is not None
    assert source.resolve(f"{SEED_003} ¶9 s4", SEEDS)
    for bad, why in ((f"{SEED_003} ¶9 s5", "has 4 sentences"),
                     (f"{SEED_003} ¶40 s1", "has 23 paragraphs")):
        with pytest.raises(source.LocatorError, match=why):
            source.resolve(bad, SEEDS)


@pytest.mark.parametrize(("mutate", "expect"), [
    (lambda d: d["deck"]["rank"][0].update(count=0), "deck.rank[0].count: expected a whole"),
    (lambda d: d["deck"]["suit"][1].update(code="H"), "deck.suit: two suits share one code"),
    (lambda d: d["deal"].update(hand=20), "deal.hand: 4 hands of 20 and the turned card"),
    (lambda d: d["deal"].update(players=[1, 4]), "deal.players: expected a list of distinct"),
    (lambda d: d["play"].update(after_take_rule="after-takee"), "play.after_take_rule: refers "
     "to rule 'after-takee'"),
    (lambda d: d["play"].update(take_what_rule="add-ranks"), "play.take_what_rule: row "
     "'add-ranks' is read for play.take_what"),
    (lambda d: d["play"].update(beat_suit_rule="after-take"), "play.beat_suit_rule: row "
     "'after-take' is open or provisional"),
    (lambda d: d["end"].pop("same_round_rule"), "end.same_round_rule: missing"),
    (lambda d: d["ruleset"].update(kind="tann"), "unknown kind 'tann'. Did you mean 'tan'?"),
    (lambda d: d["rule"][0].update(locator="003_81c86855296f93c5.txt 9 s1"),
     "players.locator: "),
], ids=["count", "suit-code", "hand", "players", "rule-ref", "role-values", "settled-role",
        "missing", "kind", "locator"])
def test_a_broken_table_is_one_line_per_problem(mutate: Any, expect: str) -> None:
    d = data()
    mutate(d)
    lines = problems(d)
    assert any(expect in x for x in lines), lines


def test_several_problems_at_once_and_files_that_fail_cleanly(tmp_path: Any) -> None:
    d = data()
    d["deal"]["hand"] = 0
    d["variants"]["xa_chu_rule"] = "nope"
    assert len(problems(d)) >= 2
    bad = tmp_path / "bad.toml"
    bad.write_text('[ruleset]\nid = "x"\nkind = "tan"\n[[rule]\n', encoding="utf-8")
    with pytest.raises(TableError, match="not valid TOML"):
        kinds.load(str(bad))
    with pytest.raises(TableError, match="cannot read"):
        tan_table.load(str(tmp_path / "none.toml"))
    with pytest.raises(TableError, match="not a regular file"):
        tan_table.load(str(tmp_path))
