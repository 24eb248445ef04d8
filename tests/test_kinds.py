"""Every built-in table through the generic interface of game kinds (model/kind.py), as
OpenSpiel's generic game tests run every registered game."""

from __future__ import annotations

import copy
import json
import random

import pytest
from chanspec.model import kinds
from chanspec.model.kind import GameState
from chanspec.model.table import TableError
from kit_helpers import ROOT

ALL_TABLES = kinds.builtin_names()
# the tables a machine plays (a kind whose machine is not written yet loads, but plays nothing)
TABLES = kinds.builtin_of(lambda k: k.has_machine)
SEEDS = (0, 1, 2)
# random play stops here: a kind's rules may allow endless play (Tấn's row after-take as
# written lets two seats hand one unbeatable card back and forth)
STEP_CAP = 3000


def test_the_builtin_tables_and_which_a_machine_plays() -> None:
    assert ALL_TABLES == ["chiha", "classic", "family", "tan"]
    assert TABLES == ["chiha", "classic", "family", "tan"]
    assert {kinds.of(kinds.load(n)).name for n in ALL_TABLES} == set(kinds.names())


@pytest.mark.parametrize("name", ALL_TABLES)
def test_load_and_resolve_every_variant(name: str) -> None:
    table = kinds.load(name)
    assert kinds.of(table).name in kinds.names()
    for players in table.variants:
        assert kinds.rules(name, players).players == players


def test_an_unknown_kind_is_one_clear_error() -> None:
    data = copy.deepcopy(dict(kinds.load("family").data))
    data["ruleset"] = {**data["ruleset"], "kind": "chna"}
    with pytest.raises(TableError, match=r"unknown kind 'chna'\. Did you mean 'chan'\? Kinds"):
        kinds.from_data(data)
    data["ruleset"]["kind"] = "chan"  # naming the default kind is the same table
    assert kinds.from_data(data).rows == kinds.load("family").rows


def _play(name: str, seed: int):  # type: ignore[no-untyped-def]
    rules = kinds.rules(name, max(kinds.load(name).variants))
    kind = kinds.of(rules.table)
    st = kind.State.new(rules, seed)
    rng = random.Random(seed)
    yield st
    while not st.is_terminal() and st.legal_actions() and len(st.history) < STEP_CAP:
        st.apply(rng.choice(st.legal_actions()))
        yield st


@pytest.mark.parametrize("name", TABLES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_keeps_the_kinds_invariants(name: str, seed: int) -> None:
    """Seeded random play (seed printed by the id): the kind's invariants hold, explain
    agrees with legal_actions, progress never decreases, the JSON round trip rebuilds."""
    last = -1
    st = None
    for st in _play(name, seed):
        assert isinstance(st, GameState)
        assert st.invariants() == []
        assert st.progress() >= last
        last = st.progress()
        legal = set(st.legal_actions())
        for s in st.pending():
            for a in st.candidate_actions(s)[:12]:
                assert st.explain(a).legal == (a in legal), a.code()
        key, vi, en = st.decision_point()
        assert key and vi and en
        json.dumps(st.view())
    assert st is not None
    back = type(st).from_json(json.loads(json.dumps(st.to_json())))
    assert back.fingerprint() == st.fingerprint()


@pytest.mark.parametrize("name", TABLES)
def test_answers_at_a_simultaneous_node_commute(name: str) -> None:
    """Several pending seats: applying their answers in two orders reaches one state."""
    seen = 0
    for seed in range(12):
        for st in _play(name, seed):
            pend = st.pending()
            if len(pend) < 2:
                continue
            answers = [st.legal_actions(s)[-1] for s in pend]
            a, b = st.copy(), st.copy()
            for x in answers:
                a.apply(x)
            for x in reversed(answers):
                b.apply(x)
            assert a.fingerprint() == b.fingerprint()
            seen += 1
    if kinds.of(kinds.load(name)).name == kinds.DEFAULT:
        assert seen > 0  # Chắn's claim windows are simultaneous nodes
    else:
        assert seen == 0  # a kind that presents one seat at a time (Tấn)


def test_a_kind_without_a_machine_is_refused_by_the_commands_that_play() -> None:
    """Every kind either has a machine or names the few commands that take its tables;
    the others refuse them in one line (UnsupportedError), never a traceback."""
    for name in ALL_TABLES:
        kind = kinds.of(kinds.load(name))
        assert kind.has_machine or kind.commands is not None, kind.name
        if not kind.has_machine:
            for command in ("play", "check", "explain", "vectors", "serve", "win"):
                with pytest.raises(kinds.UnsupportedError, match=f"chanspec {command}: "
                                   f"ruleset {name!r} is of kind {kind.name!r}"):
                    kinds.require(name, command)
                assert "\n" not in str(kinds.UnsupportedError("", "x"))
            for command in sorted(kind.commands or ()):
                assert kinds.require(name, command) is kind


@pytest.mark.parametrize("name", TABLES)
def test_each_builtin_table_has_committed_findings_and_vectors(name: str) -> None:
    kind = kinds.of(kinds.load(name))
    if not (kind.supports("check") and kind.supports("vectors")):
        pytest.skip(f"kind {kind.name!r} takes neither check nor vectors yet: no findings "
                    "or vectors to commit")
    findings = ROOT / ("OPEN_QUESTIONS.json" if name == "family" else f"OPEN_QUESTIONS-{name}.json")
    vectors = ROOT / "vectors" / ("" if name == "family" else name) / "index.json"
    assert findings.is_file(), findings
    assert vectors.is_file(), vectors


def test_a_kind_with_its_own_log_format_takes_play_and_replay() -> None:
    """A kind that brings its own game-log lines (`Kind.log`) writes them with `chanspec
    play --json` and reads them with `chanspec replay` (Tấn today)."""
    own = [kinds.of(kinds.load(name)) for name in ALL_TABLES]
    own = [k for k in own if k.log is not None]
    assert own
    for kind in own:
        assert kind.has_machine and kind.supports("play") and kind.supports("replay"), kind.name
