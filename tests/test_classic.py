"""Classic Chắn (spec/classic.toml): the deck as data, the loader's checks on it, dealing
the 100-card deck, winning hands judged on the classic deck, the rows and their locators
in seeds 000/001, the commands on classic, and a table whose turn the machine does not
play refused clearly by every command (tests/test_classic_play.py plays classic hands)."""

from __future__ import annotations

import copy
import io
import json
import re
import tomllib
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.cli import app
from chanspec.checks.conform.campaign import build_deal
from chanspec.model import source
from chanspec.model import table as shared_table
from chanspec.model.chan import cards, game, table, win
from chanspec.model.table import TableError
from test_table import SEEDS, _has, needs_seeds, problems_of, to_toml

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "spec" / "classic.toml"
CLASSIC_TEXT = CLASSIC.read_text(encoding="utf-8")
SEED_000 = "000_e2a536ce1178235b.txt"
SEED_001 = "001_83f6d9d412e94032.txt"
CLASSIC_FACES = [f"{r}{s}" for s in "vns" for r in range(2, 10)] + ["chi"]


def classic_data() -> dict[str, Any]:
    return tomllib.loads(CLASSIC_TEXT)


def _row(data: dict[str, Any], rid: str) -> dict[str, Any]:
    return next(r for r in data["rule"] if r["id"] == rid)


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = app.main(list(argv))
    return code, out.getvalue(), err.getvalue()


# --------------------------------------------------------------------------- the table


def test_classic_is_a_builtin_with_its_own_deck() -> None:
    t = table.load("classic")
    assert "classic" in shared_table.builtin_names()
    assert t.id == "classic" and sorted(t.variants) == [2, 3, 4]
    assert [cards.code(f) for f in t.deck_faces()] == [
        cards.code(cards.parse(c)) for c in sorted(CLASSIC_FACES, key=cards.parse)]
    for p in (2, 3, 4):
        r = t.resolve(p)
        assert (r.variant.opener_cards, r.variant.other_cards, r.pairs, r.min_chan) == (
            20, 19, 10, 6)
        assert len(r.faces) == 25 and r.copies == 4
        # Chi Chi pairs only as a chắn: no cạ partner, a class of its own
        assert not any(r.is_ca(cards.CHI, f) for f in r.faces)
        assert (cards.CHI,) in r.components
        assert not any(r.is_special(a, b) for a in r.faces for b in r.faces)


def test_the_family_table_still_takes_every_face() -> None:
    t = table.load("family")
    assert t.data["deck"]["faces"] == "all"
    assert t.deck_faces() == tuple(range(cards.NUM_FACES))
    assert t.machine_gap() is None
    assert t.resolve(4).exact_min == frozenset()


@pytest.mark.parametrize("bad, words", [
    (["2v", "1x"], ("deck", "faces[1]", "unknown card '1x'", "1v..9v")),
    (["2v", "2v", "chi"], ("deck", "faces", "listed 2 times")),
    ("some", ("deck", "faces", "expected a list of card codes")),
])
def test_a_bad_deck_list_is_refused_naming_the_field(bad: Any, words: tuple[str, ...]) -> None:
    data = classic_data()
    data["deck"]["faces"] = bad
    probs = problems_of(to_toml(data))
    where, fld, *rest = words
    assert _has(probs, where, fld, *rest), probs


def test_a_deck_too_small_to_deal_is_refused() -> None:
    data = classic_data()
    data["deck"]["faces"] = ["2v", "3v", "4v", "5v", "6v", "7v", "8v", "9v", "chi"]
    probs = problems_of(to_toml(data))
    # 9 faces x 4 = 36 cards: 2 players need 39 and one card left for the nọc
    assert _has(probs, "variant[0]", "players", "cannot be dealt", "only 36 cards"), probs
    assert _has(probs, "variant[2]", "players", "cannot be dealt"), probs


def test_an_open_row_without_labels_or_title_is_refused() -> None:
    data = classic_data()
    row = _row(data, "chi-completes")
    del row["values"]["chi-rong"]["label_vi"]
    del row["title_en"]
    probs = problems_of(to_toml(data))
    assert _has(probs, "chi-completes", "values.chi-rong.label_vi", "short label"), probs
    assert _has(probs, "chi-completes", "title_en", "short title"), probs


def test_exact_min_must_give_kinds_for_every_value() -> None:
    data = classic_data()
    del data["win"]["exact_min_applies_by_value"]["chi-rong"]
    data["win"]["exact_min_applies_by_value"]["exactly-six"] = ["u", "nope"]
    probs = problems_of(to_toml(data))
    assert _has(probs, "win", "exact_min_applies_by_value", "exactly the values"), probs
    assert _has(probs, "win", "exact_min_applies_by_value.exactly-six", "expected a list"), probs


def foreign_flow(data: dict[str, Any], flow: str = "other-turn",
                 rows: tuple[str, ...] = ("duoi", "tra-cua")) -> dict[str, Any]:
    """A copy of the classic table that states a turn of its own (``[turn] flow``) and none
    of the machine's turn sections: loaded and judged, never played."""
    data = copy.deepcopy(data)
    data["turn"] = {"flow": flow, "flow_rules": list(rows)}
    for sec in ("eating", "claim", "claims", "restriction"):
        data.pop(sec, None)
    for k in ("opening_rule", "opening_min_chan_by_value"):
        data["win"].pop(k, None)
    return data


FOREIGN_TEXT = to_toml(foreign_flow(classic_data(), "classic"))


def test_a_turn_the_machine_does_not_play_must_name_its_rows() -> None:
    data = foreign_flow(classic_data())
    table.load_text(to_toml(data), "foreign.toml")  # loads: judged, never played
    data["turn"]["flow_rules"] = []
    assert _has(problems_of(to_toml(data)), "turn", "flow_rules", "non-empty"), data["turn"]
    data["turn"]["flow_rules"] = ["no-such-row"]
    assert _has(problems_of(to_toml(data)), "turn", "flow_rules[0]", "no [[rule]] row")


def test_the_family_turn_still_needs_every_section() -> None:
    """Only a table whose flow the machine does not play may leave out [[claim]]."""
    data = tomllib.loads((ROOT / "spec" / "family.toml").read_text(encoding="utf-8"))
    del data["claim"]
    assert _has(problems_of(to_toml(data)), "(top level)", "claim", "missing required")


def test_the_classic_restrictions_are_the_17_of_000_keyed_as_it_keys_them() -> None:
    t = table.load("classic")
    faults = {int(r.id.split("-")[1]): r for r in t.rows.values() if r.id.startswith("loi-")}
    assert sorted(faults) == list(range(1, 18))
    for n, r in faults.items():
        assert r.locator.startswith(f"{SEED_000} [Luật đánh bài] #{n} "), r.id
        assert r.title_vi and r.title_en, r.id


def test_the_disagreements_of_the_seeds_are_open_rows() -> None:
    t = table.load("classic")
    for rid in ("chi-completes", "restriction-mode", "duoi", "tra-cua", "thien-u", "bo-u",
                "eat-discard", "loi-3-an-chon-ca", "loi-4-an-ca-chuyen-cho",
                "loi-13-danh-doi-chan", "loi-16-danh-ca-khi-da-an-ca"):
        r = t.rows[rid]
        assert r.status == "open" and len(r.values) >= 2 and r.default in r.values, rid
    assert set(t.rows["chi-completes"].values) == {"exactly-six", "bach-thu-chi", "chi-rong"}
    assert set(t.rows["restriction-mode"].values) == {"penalise", "forbid"}


# --------------------------------------------------------------------------- locators


@needs_seeds
def test_every_classic_locator_resolves_in_seed_000_or_001() -> None:
    assert SEEDS is not None
    for r in table.load("classic").rows.values():
        assert r.locator, f"{r.id} has no locator"
        files = {p[0] for p in source.places(r.locator)}
        assert files <= {SEED_000, SEED_001}, r.id
        found = source.resolve(r.locator, SEEDS)
        assert found and all(s.strip() for s in found), r.id


@needs_seeds
def test_a_headed_locator_past_the_text_is_refused() -> None:
    assert SEEDS is not None
    assert len(source.resolve(f"{SEED_000} [Luật đánh bài] #17 s1-2", SEEDS)) == 2
    for bad, why in ((f"{SEED_000} [Luật đánh bài] #18 s1", "no item 18"),
                     (f"{SEED_000} [Luật đánh bài] #1 s3", "has 2 sentences"),
                     (f"{SEED_000} [No such heading] ¶1 s1", "no heading"),
                     (f"{SEED_001} [|] ¶1 s1", "more than one heading"),
                     (f"{SEED_000} §3 #1 s1", "is not a place")):
        with pytest.raises(source.LocatorError, match=why):
            source.resolve(bad, SEEDS)


def test_a_malformed_headed_locator_names_the_row() -> None:
    data = classic_data()
    _row(data, "deck")["locator"] = f"{SEED_000} [Bộ bài] •4"
    probs = problems_of(to_toml(data))
    assert _has(probs, "deck", "locator", "is not a locator"), probs


@needs_seeds
def test_the_headed_parser_finds_the_17_restrictions_and_the_cuoc() -> None:
    assert SEEDS is not None
    secs = source.parse_headed((SEEDS / SEED_000).read_text(encoding="utf-8"))
    assert sorted(secs["Luật đánh bài"][0].items) == list(range(1, 18))
    assert sorted(secs["Cước"][0].items) == list(range(1, 27))
    guide = source.parse_headed((SEEDS / SEED_001).read_text(encoding="utf-8"))
    assert len(guide["Giới hạn về cách ăn bài và vất rác"][0].bullets) == 6


# --------------------------------------------------------------------------- dealing


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_classic_deal_holds_the_100_cards(players: int) -> None:
    rules = table.rules("classic", players)
    for seed in range(5):
        deal = game.deal_random(rules, seed, drawer=seed % players)
        everything = [f for h in deal.hands for f in h] + list(deal.noc)
        cnt = cards.counts(everything)
        assert len(everything) == 100
        assert {f for f in range(cards.NUM_FACES) if cnt[f]} == set(rules.faces)
        assert all(cnt[f] == 4 for f in rules.faces)
        sizes = [len(h) for h in deal.hands]
        assert sizes[deal.opener] == 20 and sorted(sizes) == [19] * (players - 1) + [20]
        game.check_deal(rules, deal)  # the census the machine checks, on the classic deck


def test_the_conformance_deal_builder_uses_the_classic_deck() -> None:
    import random

    rules = table.rules("classic", 4)
    rng = random.Random(5)
    for _ in range(20):
        deal = build_deal(rules, lambda k: rng.randrange(k), lambda: rng.random() < 0.5)
        game.check_deal(rules, deal)


def test_a_deal_with_a_card_outside_the_deck_is_refused() -> None:
    rules = table.rules("classic", 2)
    deal = game.deal_random(rules, 1)
    hand = list(deal.hands[1])
    hand[0] = cards.parse("1v")
    bad = game.Deal((deal.hands[0], tuple(hand)), deal.noc, deal.opener)
    with pytest.raises(game.ActionError, match="Nhất Vạn appears 1 times"):
        game.check_deal(rules, bad)


# --------------------------------------------------------------------------- winning hands

# Golden hands, checked by hand against 000 [Đánh bài] •6 (10 pairs of chắn or cạ, at
# least 6 chắn, a chíu counting two) and 000 [Chắn, Cạ, ba đầu, què] •1-2 (Chi Chi is
# named only as a chắn).  Each: cards before the completing one, the card, kind,
# options, expected (win, chắn).
# 6 chắn (the sixth Chi Chi) and 4 cạ, less one Chi Chi: 19 cards waiting on Chi Chi
SIX_FOUR = "2v 2v 3v 3v 4n 4n 5s 5s 6v 6v 7v 7n 8s 8n 9v 9s 2n 2s chi"
SEVEN_THREE = "2v 2v 3v 3v 4n 4n 5s 5s 6v 6v 7v 7v 8s 8n 9v 9s 2n 2s chi"  # 7 chắn with Chi Chi
GOLDEN: list[tuple[str, str, str, str, dict[str, str], tuple[bool, int | None]]] = [
    # 6 chắn (2v 3v 4n 5s 6v 9n) and 4 cạ (7v 7n, 8s 8n, 9v 9s, 2n 2s), the drawn 7n
    # completing the cạ 7v 7n: 000 •6
    ("six chắn, four cạ", "2v 2v 3v 3v 4n 4n 5s 5s 6v 6v 9n 9n 7v 8s 8n 9v 9s 2n 2s",
     "7n", "u", {}, (True, 6)),
    # five chắn and five cạ: ten pairs, too few chắn (000 •6: at least 6)
    ("five chắn", "2v 2v 3v 3v 4n 4n 5s 5s 6v 6v 6n 7v 7n 8s 8n 9v 9s 2n 2s",
     "6s", "u", {}, (False, 5)),
    # Chi Chi completing the sixth chắn: exactly six, allowed under every reading
    ("Chi Chi sixth chắn", SIX_FOUR, "chi", "u", {}, (True, 6)),
    ("Chi Chi sixth chắn (bạch thủ chi)", SIX_FOUR, "chi", "u",
     {"chi-completes": "bach-thu-chi"}, (True, 6)),
    # a seventh chắn with Chi Chi: refused under exactly-six (001) and bach-thu-chi
    # (000 Cước 12: more than 5 chắn waiting on Chi Chi may not win) ...
    ("Chi Chi seventh chắn", SEVEN_THREE, "chi", "u", {}, (False, 7)),
    ("Chi Chi seventh chắn (bạch thủ chi)", SEVEN_THREE, "chi", "u",
     {"chi-completes": "bach-thu-chi"}, (False, 7)),
    # ... and allowed as ù chi rộng (000 Cước 20)
    ("Chi Chi seventh chắn (chi rộng)", SEVEN_THREE, "chi", "u",
     {"chi-completes": "chi-rong"}, (True, 7)),
    # Chi Chi is no cạ: a lone Chi Chi and a 7n make no pair
    ("Chi Chi is no cạ", SEVEN_THREE, "7n", "u", {}, (False, None)),
    # chíu-ù on Chi Chi: three concealed Chi Chi and the fourth count two chắn (000 •6);
    # with 4 chắn besides and 4 cạ that is exactly 6: a win under exactly-six
    ("chíu-ù Chi Chi, six chắn", "2v 2v 3v 3v 4n 4n 5s 5s 6v 6n 7v 7n 8s 8n 9v 9s chi chi chi",
     "chi", "chiu-u", {}, (True, 6)),
    # with one chắn more: 7, refused by chíu too under exactly-six (001 [Điều kiện ù] ¶1
    # s3), allowed under bach-thu-chi, which limits only an ordinary ù
    ("chíu-ù Chi Chi, seven chắn", "2v 2v 3v 3v 4n 4n 5s 5s 6v 6v 7v 7n 8s 8n 9v 9s chi chi chi",
     "chi", "chiu-u", {}, (False, 7)),
    ("chíu-ù Chi Chi, seven chắn (bạch thủ chi)",
     "2v 2v 3v 3v 4n 4n 5s 5s 6v 6v 7v 7n 8s 8n 9v 9s chi chi chi",
     "chi", "chiu-u", {"chi-completes": "bach-thu-chi"}, (True, 7)),
]


@pytest.mark.parametrize("name, hand, card, kind, opts, want", GOLDEN,
                         ids=[g[0] for g in GOLDEN])
def test_golden_classic_hands(name: str, hand: str, card: str, kind: str,
                              opts: dict[str, str], want: tuple[bool, int | None]) -> None:
    from chanspec.checks.chan.brute import Brute

    rules = table.rules("classic", 4, opts)
    faces = cards.parse_many(hand)
    assert len(faces) == 19, name
    v = win.engine(rules).judge(faces, (), cards.parse(card), kind)  # type: ignore[arg-type]
    assert (v.win, v.chan) == want, (name, v)
    b = Brute(rules).judge(faces, (), cards.parse(card), kind)
    assert (b.win, b.chan) == want, (name, b)
    exact = "chi-completes" in v.rules
    assert exact == (card == "chi" and kind in rules.exact_min_applies and v.chan is not None
                     and (v.win or v.chan > 6)), (name, v.rules)


def test_win_json_on_classic() -> None:
    code, out, err = run_cli("win", "--ruleset", "classic", *SIX_FOUR.split(),
                             "--with", "chi", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["win"] is True and got["chan"] == 6
    assert ["chi", "chi"] in got["pairs"] and len(got["pairs"]) == 10
    assert got["rules"] == ["win-shape", "chiu-counts-two", "chi-completes"]
    code, out, _ = run_cli("win", "--ruleset", "classic", "--players", "2", *SIX_FOUR.split(),
                           "--with", "chi", "--option", "chi-completes=chi-rong", "--json")
    assert code == 0 and json.loads(out)["rules"] == ["win-shape", "chiu-counts-two"]


@pytest.mark.parametrize("card, name", [("1v", "Nhất Vạn"), ("lao", "Lão"), ("Thang", "Thang")])
def test_win_on_classic_refuses_a_card_the_deck_lacks(card: str, name: str) -> None:
    hand = SIX_FOUR.split()
    for argv in (["win", "--ruleset", "classic", card, *hand[1:], "--with", "chi"],
                 ["win", "--ruleset", "classic", *hand, "--with", card],
                 ["win", "--ruleset", "classic", *hand, "--with", "chi", "--laid",
                  f"{card} {card}"]):
        code, out, err = run_cli(*argv)
        assert code == 2 and not out, argv
        assert "ruleset 'classic'" in err and f"has no {name}" in err, err
        assert "Traceback" not in err
    # the same hand on the family's deck is a hand like any other
    assert run_cli("win", card, *hand[1:], "--with", "chi", "--json")[0] == 0


def test_win_jsonl_on_classic_refuses_a_card_the_deck_lacks() -> None:
    from chanspec.checks.cli import cmd_win

    lines = [json.dumps({"hand": SIX_FOUR.split(), "with": "chi"}),
             json.dumps({"hand": SIX_FOUR.split()[1:] + ["lao"], "with": "chi"})]
    args = app.build_parser().parse_args(["win", "--jsonl", "--ruleset", "classic"])
    out = io.StringIO()
    assert cmd_win.run_jsonl(args, io.StringIO("\n".join(lines) + "\n"), out) == 2
    first, second = (json.loads(x) for x in out.getvalue().splitlines())
    assert first["win"] is True
    assert second["line"] == 2 and "has no Lão" in second["error"]


# --------------------------------------------------------------------------- played


def test_play_explain_and_replay_a_classic_hand(tmp_path: Path) -> None:
    log = tmp_path / "classic.ndjson"
    code, out, err = run_cli("play", "--ruleset", "classic", "--players", "3", "--seed", "4",
                             "--out", str(log), "--json")
    assert code == 0, err
    assert log.exists() and json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    code, out, err = run_cli("replay", str(log), "--ruleset", "classic")
    assert code == 0, (out, err)
    code, out, err = run_cli("explain", str(log), "--seat", "0", "--ruleset", "classic")
    assert code == 0, (out, err)


def test_serve_plays_classic() -> None:
    from chanspec.checks.conform import refengine

    out = io.StringIO()
    rules = table.rules("classic", 4)
    deal = game.deal_random(rules, 3).as_json()
    reqs = [{"op": "start", "ruleset": "classic", "players": 4, "deal": deal},
            {"op": "legal_all"}, {"op": "quit"}]
    refengine.serve(io.StringIO("".join(json.dumps(r) + "\n" for r in reqs)), out)
    first, legal = (json.loads(x) for x in out.getvalue().splitlines()[:2])
    assert first["ok"] is True, first
    assert legal["ok"] is True and legal["actions"], legal


# --------------------------------------------------------------------------- not played


def _commands(tmp_path: Path) -> Iterator[list[str]]:
    log = str(tmp_path / "any.ndjson")
    path = tmp_path / "foreign.toml"
    path.write_text(FOREIGN_TEXT, encoding="utf-8")
    t = str(path)
    yield ["play", "--ruleset", t, "--players", "4"]
    yield ["explain", log, "--seat", "0", "--ruleset", t]
    yield ["explore", "--ruleset", t]
    yield ["check", "--ruleset", t, "--quick"]
    yield ["replay", log, "--ruleset", t]
    yield ["vectors", "--ruleset", t, "--out", str(tmp_path / "v")]
    yield ["conform", "--ruleset", t, "--impl", "true"]
    yield ["serve", "--ruleset", t]
    yield ["questions", "--ruleset", t]
    yield ["report", "--ruleset", t, "--out", str(tmp_path / "site")]
    yield ["settle", "chi-completes=chi-rong", "--ruleset", t]


COMMANDS = ["play", "explain", "explore", "check", "replay", "vectors", "conform", "serve",
            "questions", "report", "settle"]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_that_plays_hands_refuses_a_foreign_turn_in_one_line(
        command: str, tmp_path: Path) -> None:
    argv = next(a for a in _commands(tmp_path) if a[0] == command)
    code, out, err = run_cli(*argv)
    assert code == 2, (argv, err)
    assert not out and "Traceback" not in err
    assert err.count("\n") == 1, err  # one line
    assert "flow = 'classic'" in err and "does not play" in err
    for rid in ("duoi", "tra-cua"):
        assert f"({rid})" in err, rid
    assert not (tmp_path / "v").exists() and not (tmp_path / "site").exists()
    if command == "settle":  # the table is left as it was
        assert (tmp_path / "foreign.toml").read_text(encoding="utf-8") == FOREIGN_TEXT


def test_the_refusal_comes_from_the_table_data_not_its_name(tmp_path: Path) -> None:
    """A copy of the classic table under another id and another flow name is refused the
    same way, and naming the rows it lists."""
    data = foreign_flow(classic_data(), "other-turn", ("duoi",))
    data["ruleset"]["id"] = "other-house"
    path = tmp_path / "other.toml"
    path.write_text(to_toml(data), encoding="utf-8")
    code, _, err = run_cli("play", "--ruleset", str(path), "--lang", "en")
    assert code == 2 and "flow = 'other-turn'" in err and "(duoi)" in err
    assert "(tra-cua)" not in err


def test_a_family_log_claiming_classic_is_refused_clearly(tmp_path: Path) -> None:
    """A family log whose header names the classic ruleset: its deal holds cards classic's
    deck lacks, which replay and explain say in one message, without a traceback."""
    code, out, _ = run_cli("play", "--seed", "2", "--json")
    assert code == 0
    lines = out.splitlines()
    head = json.loads(lines[0])
    head["ruleset"] = "classic"
    p = tmp_path / "classic.ndjson"
    p.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", encoding="utf-8")
    for argv in (["replay", str(p)], ["explain", str(p), "--seat", "0"]):
        code, out, err = run_cli(*argv)
        assert code == 2 and "Traceback" not in out + err, (argv, err)


def test_the_machine_itself_refuses_a_foreign_turn() -> None:
    t = table.from_data(foreign_flow(classic_data(), "classic"), "<foreign>")
    rules = t.resolve(4)
    with pytest.raises(table.MachineGapError, match="flow = 'classic'"):
        game.State(rules, game.deal_random(rules, 1))


def test_rules_lists_every_classic_row_with_its_locator() -> None:
    code, out, err = run_cli("rules", "--ruleset", "classic", "--json")
    assert code == 0, err
    doc = json.loads(out)
    t = table.load("classic")
    assert [r["id"] for r in doc["rows"]] == list(t.rows)
    assert all(r["locator"] == t.rows[r["id"]].locator for r in doc["rows"])
    assert doc["sample"]["games"] > 0 and "not_played" not in doc["sample"]
    code, text, _ = run_cli("rules", "--ruleset", "classic", "--lang", "en")
    assert code == 0
    assert text.count("Where in the text") == len(t.rows)


def test_copies_of_the_data_do_not_change_the_builtin() -> None:
    data = copy.deepcopy(classic_data())
    data["deck"]["copies"] = 5
    t = table.from_data(data, "<copy>")
    assert t.resolve(4).copies == 5 and table.load("classic").resolve(4).copies == 4
    with pytest.raises(TableError):
        data["deck"]["faces"] = ["2v"]
        table.from_data(data, "<copy>")


def test_win_rows_come_whole_or_not_at_all() -> None:
    """[win] never_complete* and special_ca_* are optional (classic has neither), but each
    group is given whole or not at all."""
    fam = tomllib.loads((ROOT / "spec" / "family.toml").read_text(encoding="utf-8"))
    del fam["win"]["special_ca_final_rule"]
    assert _has(problems_of(to_toml(fam)), "win", "special_ca_final_rule", "give all of")
    data = classic_data()
    data["win"]["never_complete"] = ["chi"]
    probs = problems_of(to_toml(data))
    assert _has(probs, "win", "never_complete_rule", "give all of"), probs


def test_classic_sections_are_cited_by_their_own_seeds() -> None:
    """A classic row's section names seeds 000 and 001; it is never given the title of the
    family's text (Bài Chắn) before it, while a family section still is."""
    from chanspec.model.source import cite_section, place_words

    classic = table.load("classic")
    secs = [r.section for r in classic.rows.values()]
    assert secs and all(s[:3].isdigit() for s in secs)
    for s in secs:
        assert cite_section(s) == s and cite_section(s, "vi") == place_words(s, "vi")
        assert not re.search(r"\b(bullets?|items?|and|paragraph)\b", cite_section(s, "vi")), s
    assert cite_section("000 Cước, item 2", "vi") == "000 Cước, mục 2"
    assert cite_section("§3 bullet 2") == "Bài Chắn §3, bullet 2"
