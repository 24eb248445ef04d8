"""Chiha game logs (model/chiha/log.py on the shared frame model/gamelog.py, read and
replayed by checks/conform): the writer, the strict reader, the replay through the
GameState protocol, and the JSON Schema."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks import cli
from chanspec.checks.cli import cmd_replay
from chanspec.checks.conform import logs, replay
from chanspec.model import kinds
from chanspec.model.chiha import log as chihalog
from chanspec.model.chiha import words
from chanspec.model.chiha.game import Action, State
from chanspec.model.chiha.table import ChihaRules
from chanspec.model.tan import log as tanlog
from hypothesis import given, settings
from hypothesis import strategies as st_
from kit_helpers import VECTORS, played

jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads((VECTORS / "log.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
TABLE = kinds.load("chiha")
CHOICES = {r.id: sorted(r.values) for r in TABLE.rows.values() if r.is_choice}
# readings the machine refuses in one line (tests/test_chiha_game.py; their logs below)
REFUSED = {("lenh-partition", "player-chooses"), ("deck-size", "as-counted")}
CAP = 1500


def only(defs: str) -> Any:
    """A validator of one of the schema's line kinds (chanLine, tanLine, chihaLine)."""
    return jsonschema.Draft202012Validator(SCHEMA["$defs"][defs] | {"$defs": SCHEMA["$defs"]})


CHIHA_LINE = only("chihaLine")


def lines_of(seed: int = 5) -> list[dict[str, Any]]:
    return chihalog.random_log(kinds.rules("chiha", 3), seed)


def replayed(lines: list[dict[str, Any]] | str) -> replay.ReplayResult:
    text = lines if isinstance(lines, str) else logs.dumps(lines)
    return replay.replay_text(text, "<mem>")


def hand_of(r: ChihaRules, seed: int, choices: int) -> State:
    """A seeded hand under `r`, moves picked by Random(choices), stopped after CAP."""
    st = State.new(r, seed)
    rng = random.Random(choices)
    while not st.is_terminal() and len(st.history) < CAP:
        st.apply(rng.choice(st.legal_actions()))
    return st


@st_.composite
def hands(draw: Any) -> tuple[ChihaRules, int, int]:
    opts = {k: draw(st_.sampled_from([v for v in vs if (k, v) not in REFUSED]))
            for k, vs in sorted(CHOICES.items())}
    players = draw(st_.sampled_from(sorted(TABLE.variants)))
    return TABLE.resolve(players, opts), draw(st_.integers(0, 2**31)), draw(
        st_.integers(0, 2**31))


@settings(max_examples=8, deadline=None, derandomize=True)
@given(hands())
def test_a_logged_hand_replays_and_matches_the_schema(g: Any) -> None:
    """Under any readings the machine plays: the log of a seeded random hand fits the
    schema (as a Chiha line, and as no Chắn or Tấn line), reads back to the same rules,
    deal and actions, and replays as conforming to the same position and outcome (or as
    unfinished, for a hand stopped after CAP moves)."""
    r, seed, choices = g
    st = hand_of(r, seed, choices)
    lines = chihalog.record(r, st.deal, st.history, seed=seed)
    assert lines[0]["kind"] == "chiha" and lines[0]["x-seed"] == seed
    chan, tan = only("chanLine"), only("tanLine")
    seen: set[str] = set()
    for line in lines:
        errors = list(CHIHA_LINE.iter_errors(line))
        assert not errors, (line, errors[0].message)
        if line["type"] not in seen:  # the whole schema too, once per type (it is slow)
            seen.add(line["type"])
            assert VALIDATOR.is_valid(line), line
        if line["type"] == "header":
            assert list(chan.iter_errors(line)) and list(tan.iter_errors(line))
    log = logs.parse(logs.dumps(lines), "<mem>")
    assert log.kind is not None and log.kind.name == "chiha"
    assert log.rules.options == r.options and log.deal == st.deal
    assert log.actions() == st.history
    res = replay.replay_log(log)
    assert res.status == ("conforming" if st.is_terminal() else "unfinished"), res.as_json()
    assert res.exit_code == (0 if st.is_terminal() else replay.EXIT_UNFINISHED)
    assert res.steps == len(st.history)
    assert res.state is not None and res.state.fingerprint() == st.fingerprint()
    assert res.state.outcome() == st.outcome()
    if st.is_terminal():
        assert lines[-1]["type"] == "end" and lines[-1]["payments"] == st.outcome()["payments"]
    # the consequence lines may be left out: the actions alone conform too
    bare = [lines[0], *(x for x in lines[1:] if x["type"] in chihalog.ACTION_TYPES)]
    assert replayed(bare).status == res.status
    # and extension fields are ignored
    assert replayed([x | {"x-note": 1} for x in lines]).status == res.status


def test_the_log_is_the_hand_play_tells() -> None:
    """`play --json` logs the very hand `play` tells (the same deal and moves)."""
    r = kinds.rules("chiha", 3)
    for seed in (1, 2, 9):
        told = words.random_hand(r, seed)
        log = logs.parse(logs.dumps(chihalog.random_log(r, seed)), "<mem>")
        assert log.deal == told.deal and log.actions() == told.history


def test_the_seed_header_deals_the_same_hand() -> None:
    lines = lines_of(7)
    head = {k: v for k, v in lines[0].items() if k not in ("deal", "x-seed")}
    res = replayed([head | {"seed": 7}, *lines[1:]])
    assert res.status == "conforming" and res.exit_code == 0


def test_play_json_writes_the_log_and_replay_accepts_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "chiha.ndjson"
    assert cli.main(["play", "--ruleset", "chiha", "--seed", "5", "--json", "--out",
                     str(out)]) == 0
    capsys.readouterr()
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert first["kind"] == "chiha" and first["players"] == 3
    assert cli.main(["replay", str(out), "--lang", "en"]) == 0
    said = capsys.readouterr().out
    assert "Conforming" in said and "paid:" in said
    assert cli.main(["replay", "--ruleset", "chiha", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["result"] == "conforming" and doc["final"]["terminal"] is True
    assert kinds.require("chiha", "replay") is kinds.of(TABLE)


def test_a_reading_the_machine_does_not_play_is_refused_in_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    for opt in ("lenh-partition=player-chooses", "deck-size=as-counted"):
        assert cli.main(["play", "--ruleset", "chiha", "--seed", "1", "--json", "--option",
                         opt, "--lang", "en"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        lines = lines_of()
        row, _, value = opt.partition("=")
        lines[0]["options"][row] = value
        res = replayed(lines)
        assert res.exit_code == 2 and res.error is not None and res.error.field == "options"


def _first(lines: list[dict[str, Any]], pred: Any) -> int:
    return next(i for i, x in enumerate(lines) if pred(x))


def _state_before(lines: list[dict[str, Any]], at: int) -> State:
    """The machine's position just before line `at` (an index into `lines`)."""
    r = kinds.rules("chiha", lines[0]["players"])
    st = State.new(r, deal=chihalog.read_header(lines[0], TABLE)[1])
    for x in lines[1:at]:
        a = chihalog.read_line(r, x)
        if a is not None:
            st.apply(a)
    return st


def test_a_discard_the_rules_refuse_diverges_at_its_line() -> None:
    """A discard of a card the seat does not hold, or may not throw, is named with its
    line, the rows that refuse it, and what the seat may do there."""
    lines = lines_of()
    at = _first(lines, lambda x: x["type"] == "discard")
    st = _state_before(lines, at)
    seat = lines[at]["seat"]
    wrong = next(a for a in st.candidate_actions(seat) if a.kind == "discard"
                 and not st.explain(a).legal)
    bad = [*lines[:at], wrong.as_json(), *lines[at + 1:]]
    res = replayed(bad)
    d = res.divergence
    assert res.exit_code == 1 and d is not None and d.kind == "illegal-action"
    assert d.line == at + 1 and d.rules and set(d.rules) <= set(TABLE.rows)
    assert d.legal[seat] and all(x.split()[1] == "discard" for x in d.legal[seat])
    text = cmd_replay.render(res, "en")
    assert f"Divergence at line {at + 1}" in text and "Why:" in text
    assert "Traceback" not in text


def test_a_pass_on_a_forced_claim_diverges_naming_the_forced_row() -> None:
    """Where an ``asked`` line says the first seat asked is bound to eat, a log in which
    that seat passes diverges there, naming forced-claims and the row that binds it."""
    for seed in range(12):
        lines = lines_of(seed)
        i = next((i for i, x in enumerate(lines) if x["type"] == "asked" and x["forced"]
                  and x["forced"][0] == x["seats"][0]), None)
        if i is not None:
            break
    assert i is not None
    asked = lines[i]
    at = i + 1
    assert lines[at]["type"] in ("eat", "add") and lines[at]["seat"] == asked["seats"][0]
    bad = [*lines[:at], {"type": "pass", "seat": asked["seats"][0]}, *lines[at + 1:]]
    res = replayed(bad)
    d = res.divergence
    assert res.exit_code == 1 and d is not None and d.kind == "illegal-action"
    assert d.line == at + 1 and "forced-claims" in d.rules
    assert set(asked["rules"]) - {"claim-priority"} <= set(d.rules)


def test_a_wrong_drawn_card_diverges_and_a_drawn_card_may_be_left_out() -> None:
    lines = lines_of()
    at = _first(lines, lambda x: x["type"] == "drawn")
    other = next(c for c in lines[0]["deal"]["hands"][0] if c != lines[at]["card"])
    res = replayed([*lines[:at], lines[at] | {"card": other}, *lines[at + 1:]])
    d = res.divergence
    assert res.exit_code == 1 and d is not None and d.kind == "consequence"
    assert d.line == at + 1 and d.expected is not None
    assert d.expected["card"] == lines[at]["card"]
    left_out = {k: v for k, v in lines[at].items() if k != "card"}
    assert replayed([*lines[:at], left_out, *lines[at + 1:]]).exit_code == 0


@pytest.mark.parametrize("kind, change", [
    ("asked", lambda x: x | {"forced": x["seats"] if not x["forced"] else []}),
    ("asked", lambda x: x | {"seats": x["seats"][::-1] + [9 % 3]}),
    ("end", lambda x: x | {"payments": [p + 1 for p in x["payments"]]}),
    ("end", lambda x: x | {"winner": None, "result": "bust"}),
    ("giet", lambda x: x | {"drawer": x["seat"]}),
])
def test_a_wrong_consequence_diverges_with_the_machines_line(kind: str, change: Any) -> None:
    lines = lines_of(6)
    at = _first(lines, lambda x: x["type"] == kind)
    res = replayed([*lines[:at], change(lines[at]), *lines[at + 1:]])
    d = res.divergence
    assert res.exit_code == 1 and d is not None and d.kind == "consequence"
    assert d.line == at + 1 and d.expected == lines[at]


def test_an_invented_or_reordered_consequence_is_refused() -> None:
    lines = lines_of()
    at = _first(lines, lambda x: x["type"] == "shown")
    swapped = [*lines[:at - 1], lines[at], lines[at - 1], *lines[at + 1:]]
    assert replayed(swapped).exit_code == 1
    invented = [*lines[:at], {"type": "giet", "seat": 0, "drawer": 1, "rules": ["giet"]},
                *lines[at:]]
    assert replayed(invented).exit_code == 1


def test_a_truncated_log_is_unfinished_and_an_action_after_the_end_refused() -> None:
    lines = lines_of()
    res = replayed(lines[:40])
    assert res.status == "unfinished" and res.exit_code == replay.EXIT_UNFINISHED
    fin = res.final()
    assert fin is not None and fin["terminal"] is False and fin["pending"]
    res = replayed([*lines, {"type": "pass", "seat": 0}])
    assert res.exit_code == 1 and res.divergence is not None
    assert res.divergence.kind == "after-end"


def _at(kind: str) -> Any:
    """A change to the first line of type `kind` (the log is lines_of())."""
    def pick(ls: list[dict[str, Any]]) -> dict[str, Any]:
        return ls[_first(ls, lambda x: x["type"] == kind)]
    return pick


@pytest.mark.parametrize("change, field", [
    (lambda ls: _at("discard")(ls).update(cards=["zzz"]), "cards[0]"),  # no such card
    (lambda ls: _at("discard")(ls).update(cards=["AS"]), "cards[0]"),  # a Tấn card
    (lambda ls: _at("discard")(ls).update(cards="phd"), "cards"),
    (lambda ls: _at("discard")(ls).update(cards=[]), "cards"),  # a discard throws one card
    (lambda ls: _at("discard")(ls).update(card="phd"), "card"),  # Chắn's field name
    (lambda ls: _at("discard")(ls).update(seat=3), "seat"),
    (lambda ls: _at("discard")(ls).pop("seat"), "seat"),
    (lambda ls: _at("add")(ls).update(index=-1), "index"),
    (lambda ls: _at("eat")(ls).update(index=0), "index"),
    (lambda ls: _at("drawn")(ls).update(card=7), "card"),
    (lambda ls: _at("asked")(ls).update(forced=[5]), "forced[0]"),
    (lambda ls: _at("end")(ls).update(payments=["x"]), "payments"),
    (lambda ls: _at("end")(ls).pop("busted"), "busted"),
    (lambda ls: _at("win")(ls).update(quan="no"), "quan"),
    (lambda ls: _at("deal")(ls).update(rules="deal"), "rules"),
    (lambda ls: ls.insert(3, {"type": "shuffle"}), "type"),
    (lambda ls: ls.insert(3, {"type": ["discard"]}), "type"),
    (lambda ls: ls.insert(3, {"seat": 0}), "type"),
    (lambda ls: ls.insert(3, dict(ls[0])), "type"),  # a second header
    (lambda ls: ls[0]["deal"]["noc"].__setitem__(0, ls[0]["deal"]["hands"][0][0]), "deal"),
    (lambda ls: ls[0]["deal"]["hands"][0].pop(), "deal.hands[0]"),
    (lambda ls: ls[0]["deal"].update(hands="tgd"), "deal.hands"),
    (lambda ls: ls[0]["deal"].update(cai=3), "deal.cai"),
    (lambda ls: ls[0]["deal"].pop("noc"), "deal.noc"),
    (lambda ls: ls[0]["deal"].update(order=[]), "deal.order"),
    (lambda ls: ls[0].update(players=2, options=ls[0]["options"] | {"two-players":
                                                                    "three-only"}), "players"),
    (lambda ls: ls[0].update(options={"xep-optional": "maybe"}), "options"),
    (lambda ls: ls[0].update(dealer=1), "dealer"),  # a Tấn header field
    (lambda ls: ls[0].update(kind="tan"), "kind"),
    (lambda ls: ls[0].pop("kind"), "kind"),  # a Chiha table without kind chiha
    (lambda ls: ls[0].update(ruleset="tan"), "kind"),
    (lambda ls: ls[0].update(ruleset="../spec/chiha.toml"), "ruleset"),
    (lambda ls: ls[0].update(table_digest="0" * 64), "table_digest"),
    (lambda ls: ls[0].update(seed=1), "deal"),  # both a deal and a seed
    (lambda ls: (ls[0].pop("deal"), ls[0].update(seed=-1)), "seed"),
])
def test_malformed_chiha_logs_are_refused_in_one_line(change: Any, field: str) -> None:
    lines = json.loads(json.dumps(lines_of()))
    change(lines)
    res = replayed(lines)
    assert res.status == "malformed" and res.exit_code == 2, res.as_json()
    e = res.error
    assert e is not None and e.field == field, (e, field)
    assert e.message and "\n" not in str(e)
    text = cmd_replay.render(res, "en")
    assert "Malformed log" in text and "Traceback" not in text


def test_logs_of_another_kind_that_say_chiha_are_refused() -> None:
    st = played(3, 4, {})
    chan = logs.record(st.rules, st.deal, st.history)
    chan[0]["kind"] = "chiha"
    res = replayed(chan)
    assert res.exit_code == 2 and res.error is not None and res.error.field == "kind"
    assert "of kind 'chan'" in str(res.error)
    tan = tanlog.random_log(kinds.rules("tan", 3), 5)
    tan[0]["kind"] = "chiha"
    res = replayed(tan)
    assert res.exit_code == 2 and res.error is not None and res.error.field == "kind"


def test_a_chiha_state_file_replays_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    """`State.to_json()` of a Chiha hand (it names its kind) replays like its log."""
    st = hand_of(kinds.rules("chiha", 3), 5, 5)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(st.to_json()), encoding="utf-8")
    res = replay.replay_path(str(path))
    assert res.status == "conforming" and res.fmt == "state" and res.steps == len(st.history)
    doc = st.to_json()
    doc["deal"]["order"][0] = doc["deal"]["order"][1] ^ 1
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = replay.replay_path(str(path))
    assert res.exit_code == 2 and res.error is not None and res.error.field == "deal"
    doc = st.to_json()
    doc["actions"][0] = {"type": "discard", "seat": 0, "cards": ["ZZ"]}
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = replay.replay_path(str(path))
    assert res.exit_code == 2 and res.error is not None
    assert res.error.field == "actions[0].cards[0]"


def test_an_own_table_file_is_named_by_its_digest(tmp_path: Path) -> None:
    """A log under a table other than the built-in one carries its digest, and replays
    only with that table given."""
    src = (Path(TABLE.path) if Path(TABLE.path).exists() else
           Path(__file__).resolve().parents[1] / "spec" / "chiha.toml")
    own = tmp_path / "own.toml"
    own.write_text(src.read_text(encoding="utf-8").replace(
        'title_en = "Three players"', 'title_en = "Three players (a copy)"', 1),
        encoding="utf-8")
    table = kinds.load(str(own))
    assert table.digest() != TABLE.digest()
    r = table.resolve(3, {})
    lines = chihalog.random_log(r, 4)
    assert lines[0]["table_digest"] == table.digest()
    assert replay.replay_text(logs.dumps(lines), "<mem>", table).exit_code == 0
    res = replayed(lines)  # the built-in table is not the one the log names
    assert res.exit_code == 2 and res.error is not None
    assert res.error.field in ("ruleset", "table_digest")


def test_each_action_line_is_the_actions_json() -> None:
    """Every action type the machine has is a line the reader takes back, field for
    field (`Action.as_json()`), and its code is kept."""
    r = kinds.rules("chiha", 3)
    d = r.deck
    for a in (Action.make(d, "discard", 1, [d.parse("phd")]),
              Action.make(d, "eat", 2, [d.parse("tuv"), d.parse("tuv")]),
              Action.make(d, "eat", 0, []), Action.make(d, "add", 1, (), 2),
              *(Action.make(d, k, 0) for k in ("pass", "draw", "xep", "show", "quan", "toi"))):
        line = a.as_json()
        assert not list(VALIDATOR.iter_errors(line)), line
        back = chihalog.read_line(r, line)
        assert back == a and back.code() == a.code()
