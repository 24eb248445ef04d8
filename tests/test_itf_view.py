"""ITF traces of Tấn and Chiha hands (checks/conform/itf_view.py): one writer for every
kind with its own log format, through the protocol's public view(); the traces replay."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks import cli
from chanspec.checks.conform import itf, itf_view, logs, replay
from chanspec.model import kinds

# the variables of each kind: the protocol's, then the public view's fields
VIEW_VARS = {
    "tan": {"phase", "trump", "turned", "stock", "discard", "table", "attacker", "defender",
            "places", "known"},
    "chiha": {"phase", "turn", "drawer", "card", "noc", "dead", "hand_sizes", "laid", "out",
              "result"},
}
ACTION_FIELDS = {"tan": {"type", "seat", "card"}, "chiha": {"type", "seat", "cards", "index"}}
HANDS = [("tan", 2, 3), ("tan", 3, 5), ("tan", 4, 8), ("chiha", 3, 1), ("chiha", 3, 8)]


def hand(name: str, players: int, seed: int, cap: int = 400) -> Any:
    """A seeded random hand of kind `name` (stopped after `cap` moves)."""
    kind = kinds.get(name)
    st = kind.State.new(kinds.rules(name, players), seed)
    rng = random.Random(seed)
    while not st.is_terminal() and len(st.history) < cap:
        la = st.legal_actions()
        st.apply(la[rng.randrange(len(la))])
    return kind, st


def _walk(v: Any, path: tuple[Any, ...], seen: dict[tuple[Any, ...], set[str]]) -> None:
    """No null anywhere; record the field names of every record by its place."""
    assert v is not None, path
    if isinstance(v, dict):
        seen.setdefault(path, set()).add(",".join(sorted(v)))
        for k, x in v.items():
            _walk(x, (*path, k), seen)
    elif isinstance(v, list):
        for x in v:
            _walk(x, (*path, "*"), seen)


@pytest.mark.parametrize("name, players, seed", HANDS)
def test_a_trace_has_one_state_per_step_and_the_kinds_variables(name: str, players: int,
                                                                 seed: int) -> None:
    kind, st = hand(name, players, seed)
    doc = itf_view.trace(kind, st.rules, st.deal, st.history, description="a test hand",
                         meta={"x-origin": "test"})
    meta = doc["#meta"]
    assert meta["format"] == "ITF" and meta["description"] == "a test hand"
    assert meta["x-origin"] == "test"
    cs = meta["chanspec"]
    assert cs["kind"] == name and cs["players"] == players
    assert cs["deal"] == kind.log.deal_json(st.rules, st.deal) and "table_digest" not in cs
    assert doc["vars"][:2] == ["action", "pending"] and doc["vars"][-1] == "outcome"
    assert set(doc["vars"][2:-1]) == VIEW_VARS[name]
    states = doc["states"]
    assert len(states) == len(st.history) + 1
    seen: dict[tuple[Any, ...], set[str]] = {}
    for i, s in enumerate(states):
        assert s["#meta"] == {"index": i}
        assert list(s) == ["#meta", *doc["vars"]]
        assert set(s["action"]) == ACTION_FIELDS[name]
        assert set(s["pending"]) == {"#set"}
        _walk({k: v for k, v in s.items() if k != "#meta"}, (), seen)
    # every record keeps the same fields in every state (typed tools want that)
    assert all(len(names) == 1 for names in seen.values()), {
        p: n for p, n in seen.items() if len(n) > 1}
    assert states[0]["action"]["type"] == "deal" and states[0]["action"]["seat"] == -1
    assert [s["action"]["type"] for s in states[1:]] == [a.kind for a in st.history]
    assert [{k: s["action"][k] for k in a.as_json()} for s, a in zip(
        states[1:], st.history, strict=True)] == [a.as_json() for a in st.history]
    last = states[-1]
    assert last["pending"] == {"#set": sorted(st.pending())}
    assert last["phase"] == st.view()["phase"]
    if st.is_terminal():
        assert last["outcome"]["result"] == st.outcome()["result"]
        assert all(s["outcome"]["result"] == "ongoing" for s in states[:-1])
    else:
        assert last["outcome"]["result"] == ("stuck" if st.is_stuck() else "ongoing")


@pytest.mark.parametrize("name, players, seed", HANDS)
def test_a_trace_replays_to_the_same_position(name: str, players: int, seed: int) -> None:
    """As Chắn's: the trace's #meta.chanspec and action records are a log of its
    actions, which replays to the position it was written from."""
    kind, st = hand(name, players, seed)
    text = itf.dumps(itf_view.trace(kind, st.rules, st.deal, st.history))
    doc = json.loads(text)
    assert len(text.splitlines()) == len(doc["states"]) + len(doc) + 3
    res = replay.replay_text(text, "t.itf.json")
    assert res.status == ("conforming" if st.is_terminal() else "unfinished"), res.as_json()
    assert res.fmt == "itf" and res.steps == len(st.history)
    assert res.state is not None and res.state.fingerprint() == st.fingerprint()
    prefix = itf_view.trace(kind, st.rules, st.deal, st.history[:7])
    res = replay.replay_text(json.dumps(prefix), "p.itf.json")
    assert res.status == "unfinished" and res.steps == 7 and res.exit_code == 4


@pytest.mark.parametrize("name", ["tan", "chiha"])
def test_a_tampered_trace_is_malformed_or_diverges(name: str) -> None:
    kind, st = hand(name, 3, 5)
    doc = itf_view.trace(kind, st.rules, st.deal, st.history)
    field = "card" if name == "tan" else "cards"
    i = next(i for i, s in enumerate(doc["states"]) if s["action"][field])
    bad = json.loads(json.dumps(doc))
    bad["states"][i]["action"][field] = "ZZ" if name == "tan" else ["ZZ"]
    res = replay.replay_text(json.dumps(bad), "bad.itf.json")
    assert res.exit_code == 2 and res.error is not None
    assert res.error.field.startswith(f"states[{i}].action.{field}")
    bad = json.loads(json.dumps(doc))
    bad["states"][1]["action"]["seat"] = (bad["states"][1]["action"]["seat"] + 1) % 3
    res = replay.replay_text(json.dumps(bad), "bad.itf.json")
    assert res.exit_code == 1 and res.divergence is not None
    assert res.divergence.kind == "illegal-action"
    bad = json.loads(json.dumps(doc))
    bad["#meta"]["chanspec"]["kind"] = "tan" if name == "chiha" else "chiha"
    res = replay.replay_text(json.dumps(bad), "bad.itf.json")
    assert res.exit_code == 2 and res.error is not None and res.error.field == "kind"


@pytest.mark.parametrize("name, players", [("tan", 3), ("chiha", 3)])
def test_replay_itf_writes_a_trace_of_the_log(tmp_path: Path, name: str, players: int,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    log, out = tmp_path / f"{name}.ndjson", tmp_path / f"{name}.itf.json"
    lines = kinds.get(name).log.random_log(kinds.rules(name, players), 5)
    log.write_text(logs.dumps(lines), encoding="utf-8")
    assert cli.main(["replay", str(log), "--itf", str(out), "--lang", "en"]) == 0
    capsys.readouterr()
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["#meta"]["chanspec"]["kind"] == name
    assert doc["#meta"]["description"] == f"replay of {log}"
    assert len(doc["states"]) == 1 + sum(1 for x in lines if x["type"] in
                                         kinds.get(name).log.ACTION_TYPES)
    assert cli.main(["replay", str(out), "--lang", "en"]) == 0
    assert "Conforming" in capsys.readouterr().out
