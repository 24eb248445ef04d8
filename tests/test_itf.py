"""ITF traces (checks/conform/itf.py): Apalache's Informal Trace Format, replayable."""

from __future__ import annotations

import json

from chanspec.checks.conform import itf, replay
from kit_helpers import played


def test_trace_shape_follows_itf() -> None:
    st = played(31, 5, {"timeout": "auto-pass"})
    doc = itf.trace(st.rules, st.deal, st.history, description="a test hand",
                    meta={"x-origin": "test"})
    meta = doc["#meta"]
    assert meta["format"] == "ITF" and meta["description"] == "a test hand"
    assert meta["x-origin"] == "test" and meta["chanspec"]["players"] == 5
    assert doc["vars"] == list(itf.VARS)
    states = doc["states"]
    assert len(states) == len(st.history) + 1
    for i, s in enumerate(states):
        assert s["#meta"] == {"index": i}
        assert set(s) == {"#meta", *itf.VARS}
        assert set(s["pending"]) == {"#set"}
        # records keep the same fields in every state (typed tools need that)
        assert set(s["action"]) == {"type", "seat", "card"}
        assert set(s["window"]) == {"card", "gate", "source", "turn"}
        assert set(s["outcome"]) == {"result", "winner", "kind", "card"}
        for bans in s["bans"]:
            assert all(set(t) == {"#tup"} and len(t["#tup"]) == 3 for t in bans["#set"])
    assert states[0]["action"]["type"] == "deal"
    assert [s["action"]["type"] for s in states[1:]] == [a.kind for a in st.history]
    last = states[-1]
    assert last["noc_left"] == st.noc_left()
    expected = "ongoing" if not st.is_terminal() and not st.is_stuck() else (
        (st.outcome() or {}).get("result", "stuck"))
    assert last["outcome"]["result"] == expected
    # one state per line, valid JSON, and replayable
    text = itf.dumps(doc)
    assert json.loads(text) == doc
    assert len(text.splitlines()) == len(states) + len(doc) + 3
    res = replay.replay_text(text, "t.itf.json")
    assert res.status == "conforming" and res.steps == len(st.history)


def test_a_counterexample_prefix_exports_and_replays(tmp_path) -> None:
    st = played(32)
    prefix = st.history[:7]
    path = tmp_path / "cex.itf.json"
    itf.write(path, itf.trace(st.rules, st.deal, prefix, source="checker"))
    res = replay.replay_path(str(path))
    assert res.status == "unfinished" and res.steps == 7 and res.exit_code == 4
    assert res.state is not None and res.state.history == prefix
