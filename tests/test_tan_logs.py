"""Tấn game logs (model/tan/log.py, read and replayed by checks/conform): the writer, the
strict reader, the replay through the GameState protocol, and the JSON Schema."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks import cli
from chanspec.checks.conform import logs, replay
from chanspec.model import kinds
from chanspec.model.tan import log as tanlog
from chanspec.model.tan import vocab
from chanspec.model.tan.game import State
from chanspec.model.tan.table import TanRules
from hypothesis import given, settings
from hypothesis import strategies as st_
from kit_helpers import VECTORS, played

jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads((VECTORS / "log.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
TABLE = kinds.load("tan")
CAP = 3000
# every reading the machine plays, by row
CHOICES = {r.id: [v for v in r.values if not any(
    TABLE.roles.get(role) == r.id and v in un for role, un in vocab.UNPLAYED.items())]
    for r in TABLE.rows.values() if r.is_choice}


def hand_of(r: TanRules, seed: int, previous: tuple[int, int] | None = None) -> State:
    """A seeded random hand under `r` (stopped after CAP moves)."""
    st = State.new(r, seed, previous=previous)
    rng = random.Random(seed)
    while not st.is_terminal() and len(st.history) < CAP:
        la = st.legal_actions()
        st.apply(la[rng.randrange(len(la))])
    return st


def text_of(lines: list[dict[str, Any]]) -> str:
    return logs.dumps(lines)


def lines_of(seed: int = 5, players: int = 3) -> list[dict[str, Any]]:
    return tanlog.random_log(kinds.rules("tan", players), seed)


def replayed(lines: list[dict[str, Any]] | str) -> replay.ReplayResult:
    text = lines if isinstance(lines, str) else text_of(lines)
    return replay.replay_text(text, "<mem>")


@st_.composite
def hands(draw: Any) -> tuple[TanRules, int, tuple[int, int] | None]:
    players = draw(st_.sampled_from([2, 3, 4]))
    opts = {rid: draw(st_.sampled_from(vals)) for rid, vals in sorted(CHOICES.items())}
    r = TABLE.resolve(players, opts)
    seed = draw(st_.integers(0, 2**31))
    prev = draw(st_.sampled_from([None, (0, 1), (1, 0)]))
    return r, seed, prev


@settings(max_examples=15, deadline=None, derandomize=True)
@given(hands())
def test_a_logged_hand_replays_and_matches_the_schema(g: Any) -> None:
    """Under any readings, at 2, 3 and 4 players: the log of a seeded hand fits the schema,
    reads back to the same rules, deal and actions, and replays as conforming (or as
    unfinished, for a hand stopped after CAP moves)."""
    r, seed, prev = g
    st = hand_of(r, seed, prev)
    lines = tanlog.record(r, st.deal, st.history, seed=seed)
    assert lines[0]["kind"] == "tan" and lines[0]["x-seed"] == seed
    for line in lines:
        errors = list(VALIDATOR.iter_errors(line))
        assert not errors, (line, errors[0].message)
    log = logs.parse(text_of(lines), "<mem>")
    assert log.kind is not None and log.rules.options == r.options
    assert log.actions() == st.history
    res = replay.replay_log(log)
    assert res.status == ("conforming" if st.is_terminal() else "unfinished"), res.as_json()
    assert res.steps == len(st.history)
    assert res.state is not None and res.state.fingerprint() == st.fingerprint()
    # the consequence lines may be left out: the actions alone conform too
    bare = [lines[0], *(x for x in lines[1:] if x["type"] in tanlog.ACTION_TYPES)]
    assert replayed(bare).status == res.status
    # and extension fields are ignored
    marked = [x | {"x-note": 1} for x in lines]
    assert replayed(marked).status == res.status


def test_the_seed_header_deals_the_same_hand() -> None:
    lines = lines_of(7, 4)
    head = {k: v for k, v in lines[0].items() if k not in ("deal", "x-seed")}
    res = replayed([head | {"seed": 7}, *lines[1:]])
    assert res.status == "conforming" and res.exit_code == 0


def test_play_json_writes_the_log_and_replay_accepts_it(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    out = tmp_path / "tan.ndjson"
    for players in (2, 3, 4):
        assert cli.main(["play", "--ruleset", "tan", "--players", str(players), "--seed", "5",
                         "--json", "--out", str(out)]) == 0
        capsys.readouterr()
        first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
        assert first["kind"] == "tan" and first["players"] == players
        assert cli.main(["replay", str(out), "--lang", "en"]) == 0
        said = capsys.readouterr().out
        assert "Conforming" in said and "finishing order" in said
        assert cli.main(["replay", str(out), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["result"] == "conforming" and doc["final"]["outcome"]["result"] == "order"


def _illegal_beat(lines: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    """The first beat line, replaced by a beat with a card of the defender's that does
    not beat (its line number, the new line)."""
    r = kinds.rules("tan", lines[0]["players"])
    st = State.new(r, lines[0]["x-seed"])
    for i, line in enumerate(lines[1:], start=2):
        if line["type"] in tanlog.ACTION_TYPES:
            a = tanlog.read_line(r, line)
            assert a is not None
            if line["type"] == "beat":
                wrong = next(c for c in st.candidate_actions(a.seat)
                             if c.kind == "beat" and not st.explain(c).legal)
                return i, wrong.as_json()
            st.apply(a)
    raise AssertionError("no beat in the hand")


def test_an_illegal_beat_is_a_divergence_naming_the_rows() -> None:
    lines = lines_of()
    at, bad = _illegal_beat(lines)
    lines[at - 1] = bad
    res = replayed(lines)
    assert res.status == "divergence" and res.exit_code == 1
    d = res.divergence
    assert d is not None and d.line == at and d.kind == "illegal-action"
    assert d.rules and set(d.rules) <= set(TABLE.rows)
    assert any("beat" in x for x in d.legal[bad["seat"]])
    from chanspec.checks.cli import cmd_replay

    text = cmd_replay.render(res, "en")
    assert f"Divergence at line {at}" in text and "Why:" in text and "Traceback" not in text


def test_a_wrong_draw_is_a_divergence_with_the_expected_line() -> None:
    lines = lines_of()
    at = next(i for i, x in enumerate(lines) if x["type"] == "draw")
    lines[at] = lines[at] | {"n": lines[at]["n"] + 1}
    res = replayed(lines)
    d = res.divergence
    assert res.exit_code == 1 and d is not None and d.kind == "consequence"
    assert d.line == at + 1 and d.expected is not None and d.expected["n"] == lines[at]["n"] - 1


def test_draw_lines_name_the_cards_drawn_and_a_wrong_card_diverges() -> None:
    """A draw line gives the cards taken from the stock, in order (the top first), as
    many as it counts; a log that names another card there diverges at that line, and
    one that leaves the cards out still replays (each field present is checked)."""
    lines = lines_of()
    draws = [(i, x) for i, x in enumerate(lines) if x["type"] == "draw"]
    assert draws and all(len(x["cards"]) == x["n"] for _, x in draws)
    at, first = draws[0]
    header = lines[0]
    # the stock as it stands before the action whose consequence the draw is: its top
    # cards (the end of the machine's list) are the ones named, in order
    rules, deal = tanlog.read_header(header, kinds.load("tan"))
    st = State.new(rules, deal=deal)
    before = [x for x in lines[1:at] if tanlog.read_line(rules, x) is not None]
    for x in before[:-1]:
        st.apply(tanlog.read_line(rules, x))
    top = [rules.deck.code(c) for c in reversed(st.stock)][:first["n"]]
    assert first["cards"] == top
    wrong = next(c for h in header["deal"]["hands"] for c in h if c not in first["cards"])
    bad = [*lines[:at], first | {"cards": [wrong, *first["cards"][1:]]}, *lines[at + 1:]]
    res = replayed(bad)
    assert res.exit_code == 1 and res.divergence is not None
    assert res.divergence.kind == "consequence" and res.divergence.line == at + 1
    assert res.divergence.expected is not None
    assert res.divergence.expected["cards"] == first["cards"]
    left_out = [*lines[:at], {k: v for k, v in first.items() if k != "cards"},
                *lines[at + 1:]]
    assert replayed(left_out).exit_code == 0


def test_an_invented_or_reordered_consequence_is_refused() -> None:
    lines = lines_of()
    at = next(i for i, x in enumerate(lines) if x["type"] == "took")
    swapped = [*lines[:at], lines[at + 1], lines[at], *lines[at + 2:]]
    assert replayed(swapped).exit_code == 1
    invented = [*lines[:at], {"type": "out", "seat": 0, "place": 1, "rules": ["finish"]},
                *lines[at:]]
    assert replayed(invented).exit_code == 1


def test_a_truncated_log_is_unfinished() -> None:
    lines = lines_of()
    res = replayed(lines[:40])
    assert res.status == "unfinished" and res.exit_code == replay.EXIT_UNFINISHED
    fin = res.final()
    assert fin is not None and fin["terminal"] is False and fin["pending"]


def test_an_action_after_the_end_is_refused() -> None:
    lines = lines_of()
    res = replayed([*lines, {"type": "pass", "seat": 0}])
    assert res.exit_code == 1 and res.divergence is not None
    assert res.divergence.kind == "after-end"


@pytest.mark.parametrize("change, field", [
    (lambda ls: ls[3].update(card="7X"), "card"),  # a card no pack has
    (lambda ls: ls[3].update(card="1v"), "card"),  # a Chắn card in a Tấn log
    (lambda ls: ls[3].update(extra=1), "extra"),  # a field no line has
    (lambda ls: ls[3].update(seat=9), "seat"),
    (lambda ls: ls[3].pop("seat"), "seat"),
    (lambda ls: ls.insert(3, {"type": "shuffle"}), "type"),
    (lambda ls: ls[0]["deal"]["stock"].__setitem__(0, ls[0]["deal"]["turned"]), "deal"),
    (lambda ls: ls[0]["deal"]["hands"][0].pop(), "deal.hands[0]"),
    (lambda ls: ls[0]["deal"].update(hands="AS"), "deal.hands"),
    (lambda ls: ls[0].update(players=7), "players"),
    (lambda ls: ls[0].update(options={"xa-chu": "maybe"}), "options"),
    (lambda ls: ls[0].update(kind="chess"), "kind"),
    (lambda ls: ls[0].pop("kind"), "kind"),  # a Tấn table without kind tan
    (lambda ls: ls[0].update(ruleset="family"), "kind"),  # a Chắn ruleset with kind tan
    (lambda ls: ls[0].update(ruleset="../spec/tan.toml"), "ruleset"),
    (lambda ls: ls[0].update(seed=1), "deal"),  # both a deal and a seed
])
def test_malformed_tan_logs_are_refused_in_one_line(change: Any, field: str) -> None:
    lines = json.loads(json.dumps(lines_of()))
    assert lines[3]["type"] in tanlog.ACTION_TYPES
    change(lines)
    res = replayed(lines)
    assert res.status == "malformed" and res.exit_code == 2, res.as_json()
    e = res.error
    assert e is not None and e.field == field and e.message and "\n" not in str(e)


def test_a_chan_log_that_says_kind_tan_is_refused(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    st = played(3, 4, {})
    lines = logs.record(st.rules, st.deal, st.history)
    lines[0]["kind"] = "tan"
    path = tmp_path / "chan.ndjson"
    path.write_text(logs.dumps(lines), encoding="utf-8")
    assert cli.main(["replay", str(path), "--lang", "en"]) == 2
    out = capsys.readouterr().out
    assert "field 'kind'" in out and "of kind 'chan'" in out and "Traceback" not in out
    # kind chan, said aloud, is the same as no kind
    lines[0]["kind"] = "chan"
    assert replay.replay_text(logs.dumps(lines), "<mem>").status == "conforming"


def test_chan_logs_still_carry_no_kind_and_fit_the_schema() -> None:
    st = played(11, 5, {})
    lines = logs.record(st.rules, st.deal, st.history, extra={"x-seed": 11})
    assert "kind" not in lines[0]
    for line in lines:
        assert not list(VALIDATOR.iter_errors(line)), line
    # a Tấn header is no Chắn header, and the other way round
    tan_head = lines_of()[0]
    assert list(jsonschema.Draft202012Validator(
        SCHEMA["$defs"]["chanLine"] | {"$defs": SCHEMA["$defs"]}).iter_errors(tan_head))
    assert list(jsonschema.Draft202012Validator(
        SCHEMA["$defs"]["tanLine"] | {"$defs": SCHEMA["$defs"]}).iter_errors(lines[0]))


def test_replay_takes_the_tan_ruleset_by_name(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tan.ndjson"
    path.write_text(text_of(lines_of()), encoding="utf-8")
    assert kinds.require("tan", "replay") is kinds.of(TABLE)
    assert cli.main(["replay", "--ruleset", "tan", str(path)]) == 0
    capsys.readouterr()


def test_a_tan_state_file_replays_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    """`State.to_json()` of a Tấn hand (it names its kind) replays like its log."""
    st = hand_of(kinds.rules("tan", 3), 5)
    doc = st.to_json()
    path = tmp_path / "state.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = replay.replay_path(str(path))
    assert res.status == "conforming" and res.fmt == "state" and res.steps == len(st.history)
    doc["deal"]["order"][0] = doc["deal"]["order"][1]
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = replay.replay_path(str(path))
    assert res.exit_code == 2 and res.error is not None and res.error.field == "deal"
    doc = st.to_json()
    doc["actions"][0] = {"type": "lead", "seat": 0, "card": "ZZ"}
    path.write_text(json.dumps(doc), encoding="utf-8")
    res = replay.replay_path(str(path))
    assert res.exit_code == 2 and res.error is not None
    assert res.error.field == "actions[0].card"


def test_commands_that_do_not_take_tan_refuse_its_log_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tan.ndjson"
    path.write_text(text_of(lines_of()), encoding="utf-8")
    assert cli.main(["explain", str(path), "--seat", "0", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "kind 'tan'" in err and "internal error" not in err and "\n" not in err.strip()
    assert cli.main(["score", "--log", str(path)]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and "Traceback" not in err
