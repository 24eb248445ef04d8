"""Game logs (checks/conform/logs.py): the writer, the strict reader, and the JSON Schema."""

from __future__ import annotations

import json

import pytest
from chanspec.checks.conform import itf, logs, records
from chanspec.model.chan import table
from chanspec.model.chan.game import Action, State
from hypothesis import given, settings
from hypothesis import strategies as st
from kit_helpers import VECTORS, build_deal, played

jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads((VECTORS / "log.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def test_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([4, 5]),
       timeout=st.sampled_from(["none", "auto-pass"]))
def test_written_logs_read_back_and_match_the_schema(seed: int, players: int,
                                                     timeout: str) -> None:
    state = played(seed, players, {"timeout": timeout})
    lines = logs.record(state.rules, state.deal, state.history, extra={"x-seed": seed})
    for line in lines:
        errors = list(VALIDATOR.iter_errors(line))
        assert not errors, (line, errors[0].message)
    text = logs.dumps(lines)
    assert text.count("\n") == len(lines) and text.endswith("\n")
    log = logs.parse(text, "<mem>")
    assert log.actions() == state.history
    assert log.deal == state.deal and log.rules.options == state.rules.options
    kinds = [e.kind for e in log.entries]
    assert kinds.count("action") == len(state.history)
    # every machine event but the echo of each action and 'start' is a consequence line
    # (a stuck hand is not over: no end line for it)
    cons = [e.data for e in log.entries
            if e.kind == "consequence" and e.type not in ("declined", "banned")]
    machine = [e for e in state.events if e["type"] not in ("start", *logs.ACTION_TYPES)]
    assert cons == machine


def test_a_seed_header_deals_the_same_hand() -> None:
    state = played(11)
    lines = logs.record(state.rules, state.deal, state.history, seed=11)
    assert "deal" not in lines[0] and lines[0]["seed"] == 11
    assert logs.parse(logs.dumps(lines)).deal == state.deal
    with pytest.raises(ValueError, match="does not deal"):
        logs.record(state.rules, state.deal, state.history, seed=12)


def test_opening_decline_is_a_declined_line() -> None:
    # §4 bullet 4: an opener whose dealt hand wins but who discards has declined ù.
    rules = table.rules("family", 4)
    opener = "2v 2v 3v 3v 4v 4v 5v 5v 6v 6v 7v 7v 8v 8v 9v 9v 2n 2n 3n 3n 4n 4n 5n 5n"
    deal = build_deal(rules, {0: opener})
    st = State(rules, deal)
    assert Action("u", 0) in st.legal_actions()
    cons = logs.step(st, Action("discard", 0, 1))
    assert cons[0] == {"type": "declined", "seat": 0, "card": None}


def test_timeout_lines() -> None:
    rules = table.rules("family", 4, {"timeout": "auto-pass"})
    st = State.new(rules, seed=3)
    first = next(a for a in st.legal_actions(0) if a.kind == "discard")
    cons = logs.step(st, Action("timeout", 0))
    assert cons[0] == {"type": "timeout-as", "seat": 0, "action": first.as_json()}


def _good_lines() -> list[str]:
    state = played(5)
    return logs.dumps(logs.record(state.rules, state.deal, state.history)).splitlines()


def _with(lines: list[str], i: int, obj: object) -> str:
    out = list(lines)
    out[i] = obj if isinstance(obj, str) else json.dumps(obj)
    return "\n".join(out)


MALFORMED = [
    # (what, line index to replace, replacement, expected line, expected field)
    ("not JSON", 3, "{oops", 4, ""),
    ("not an object", 3, "[1, 2]", 4, ""),
    ("no type", 3, {"seat": 1}, 4, "type"),
    ("unknown type", 3, {"type": "chow", "seat": 1}, 4, "type"),
    ("seat out of range", 3, {"type": "pass", "seat": 7}, 4, "seat"),
    ("seat not an int", 3, {"type": "pass", "seat": "1"}, 4, "seat"),
    ("missing card", 3, {"type": "discard", "seat": 1}, 4, "card"),
    ("card name instead of code", 3, {"type": "discard", "seat": 1, "card": "Tam Văn"}, 4,
     "card"),
    ("unknown card", 3, {"type": "discard", "seat": 1, "card": "10v"}, 4, "card"),
    ("unknown field", 3, {"type": "pass", "seat": 1, "why": "x"}, 4, "why"),
    ("card on a pass", 3, {"type": "pass", "seat": 1, "card": "1v"}, 4, "card"),
    ("bad group", 3, {"type": "laid", "seat": 1, "group": ["1v", "1v", "1v"]}, 4, "group"),
    ("bad end result", 3, {"type": "end", "result": "tie"}, 4, "result"),
    ("win end without seat", 3, {"type": "end", "result": "win", "kind": "u", "card": "1v"}, 4,
     "seat"),
    ("second header", 3, None, 4, "type"),
]


@pytest.mark.parametrize("what,index,obj,line,fld", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_lines_name_line_and_field(what: str, index: int, obj: object, line: int,
                                            fld: str) -> None:
    lines = _good_lines()
    if obj is None:
        obj = lines[0]
    with pytest.raises(logs.LogError) as exc:
        logs.parse(_with(lines, index, obj), "game.ndjson")
    assert exc.value.line == line and exc.value.field == fld, str(exc.value)
    assert str(exc.value).startswith(f"game.ndjson:{line}")


HEADER_PROBLEMS = [
    ("format", {"format": "mjai"}, "format"),
    ("version", {"version": 2}, "version"),
    ("players", {"players": 6}, "players"),
    ("option name", {"options": {"lao-thang": "maybe"}}, "options.lao-thang"),
    ("unknown option", {"options": {"no-such-row": "x"}}, "options.no-such-row"),
    ("both deal and seed", {"seed": 3}, "deal"),
    ("short hand", {"deal": "SHORT"}, "deal"),
    ("bad card in hand", {"deal": "BADCARD"}, "deal.hands[1][0]"),
    ("extra field", {"players_count": 4}, "players_count"),
]


@pytest.mark.parametrize("what,change,fld", HEADER_PROBLEMS, ids=[h[0] for h in HEADER_PROBLEMS])
def test_malformed_headers(what: str, change: dict[str, object], fld: str) -> None:
    lines = _good_lines()
    hdr = json.loads(lines[0])
    for k, v in change.items():
        if v == "SHORT":
            hdr["deal"]["hands"][1] = hdr["deal"]["hands"][1][:-1]
        elif v == "BADCARD":
            hdr["deal"]["hands"][1][0] = "0v"
        elif k == "options":
            hdr["options"] = {**hdr["options"], **v}  # type: ignore[dict-item]
        else:
            hdr[k] = v
    with pytest.raises(logs.LogError) as exc:
        logs.parse(_with(lines, 0, hdr), "g")
    assert exc.value.line == 1 and exc.value.field == fld, str(exc.value)


def test_empty_log_and_missing_header() -> None:
    with pytest.raises(logs.LogError, match="empty"):
        logs.parse("\n\n")
    with pytest.raises(logs.LogError) as exc:
        logs.parse('{"type":"pass","seat":1}\n')
    assert exc.value.line == 1 and exc.value.field == "type"


def test_extension_fields_are_ignored() -> None:
    lines = _good_lines()
    obj = json.loads(lines[1])
    obj["x-time"] = "12:00"
    log = logs.parse(_with(lines, 1, obj))
    assert log.entries[0].data["x-time"] == "12:00"


def test_state_files_and_itf_traces_load_as_logs() -> None:
    state = played(8, 5)
    as_state = records.load_text(json.dumps(state.to_json(), indent=2), "s.json")
    assert as_state.fmt == "state" and as_state.actions() == state.history
    trace = itf.trace(state.rules, state.deal, state.history)
    as_itf = records.load_text(itf.dumps(trace), "t.itf.json")
    assert as_itf.fmt == "itf" and as_itf.actions() == state.history
    with pytest.raises(logs.LogError, match="neither"):
        records.load_text(json.dumps({"hello": 1}), "x.json")
    bad = state.to_json()
    bad["actions"][2] = {"type": "eat", "seat": 1}
    with pytest.raises(logs.LogError) as exc:
        records.load_text(json.dumps(bad), "s.json")
    assert exc.value.field == "actions[2].card"


def test_narration_is_vietnamese_with_card_names() -> None:
    vi, en = logs.say_line({"type": "eat", "seat": 2, "card": "3n"})
    assert vi == "người 2 ăn bằng Tam Văn" and en == "seat 2 eats with Tam Văn"
    vi, en = logs.say_line({"type": "draw", "seat": 1, "card": "chi"})
    assert "Chi Chi" in vi and "bốc" in vi and "draws" in en
    vi, _ = logs.say_line({"type": "end", "result": "draw"})
    assert vi == "hết nọc, ván hòa"


# --------------------------------------------------------------------------- bans

GOLDEN_PASS_CHAN = VECTORS.parent / "tests" / "golden" / "01_pass_chan_ban.json"


def _golden_pass_chan() -> tuple[State, list[Action]]:
    from chanspec.model.chan import cards
    from chanspec.model.chan.game import Deal

    g = json.loads(GOLDEN_PASS_CHAN.read_text(encoding="utf-8"))
    rules = table.rules("family", g["players"], g["options"])
    d = g["deal"]
    deal = Deal(tuple(tuple(cards.parse_many(h)) for h in d["hands"]),
                tuple(cards.parse_many(d["noc"])), int(d["opener"]))
    acts = [Action.parse(a) for a in g["actions"]]
    return State(rules, deal), acts


def test_a_pass_that_could_eat_a_chan_writes_its_bans() -> None:
    # Bài Chắn §3, bullet 1: letting go a card one could eat as a chắn bans that face.
    st, acts = _golden_pass_chan()
    cons = logs.step(st, acts[0])  # 0 discards 3n: its own discard bans eating 3n
    assert [c for c in cons if c["type"] == "banned"] == [
        {"type": "banned", "seat": 0, "ban": b, "face": "3n", "rule": "discarded-face-no-eat"}
        for b in ("eat-chan", "eat-ca")]
    assert Action("eat", 1, acts[0].card) in st.legal_actions(1)
    cons = logs.step(st, acts[1])  # 1 passes on 3n, which it could eat as a chắn
    bans = [c for c in cons if c["type"] == "banned"]
    assert bans == [{"type": "banned", "seat": 1, "ban": b, "face": "3n", "rule": "pass-chan-ban"}
                    for b in ("eat-chan", "eat-ca", "chiu", "discard")]
    assert [c["type"] for c in cons] == ["banned"] * 4 + ["dead", "draw"]
    assert logs.say_line(bans[3])[1] == "seat 1 may no longer discard Tam Văn (pass-chan-ban)"
    for line in cons:
        assert not list(VALIDATOR.iter_errors(line)), line


def _ban_oracle(st: State, step: int) -> list[tuple[int, str, str | None, str]]:
    """The bans made by action number `step`, read off the marks by their origin."""
    from chanspec.model.chan import cards

    return [(s, m.ban, None if m.face is None else cards.code(m.face), m.rule)
            for s, ms in enumerate(st.marks) for m in ms
            if m.origin == step and m.ban != "win"]


def _claiming_playout(st: State, seed: int) -> None:
    """A hand that takes reclaims, eats and chíu often (so that reclaims undo bans)."""
    import random

    rng = random.Random(seed)
    for _ in range(400):
        legal = st.legal_actions()
        if st.is_terminal() or not legal:
            return
        rec = [a for a in legal if a.kind == "reclaim"]
        claims = [a for a in legal if a.kind in ("eat", "chiu")]
        a = (rng.choice(rec) if rec else rng.choice(claims) if claims and rng.random() < 0.3
             else rng.choice(legal))
        st.apply(a)


OPTION_WORLDS = [{}] + [{name: v} for name, values in table.load("family").option_space()
                        for v in values]


@pytest.mark.parametrize("options", OPTION_WORLDS,
                         ids=[",".join(f"{k}={v}" for k, v in o.items()) or "defaults"
                              for o in OPTION_WORLDS])
def test_banned_lines_are_the_marks_each_step_makes(options: dict[str, str]) -> None:
    """Under every option value, for seeded hands: each step's banned lines are exactly
    the marks (other than a ban on winning) whose origin is that step, in seat order; no
    mark made on the side (origin -1, `State._strands`) is ever stored; and the log
    written replays as conforming."""
    from chanspec.checks.conform import replay

    reclaims = 0
    for seed in range(3):
        played_st = State.new(table.rules("family", 4 + seed % 2, options), seed=seed)
        _claiming_playout(played_st, seed)
        st = State(played_st.rules, played_st.deal)
        for i, a in enumerate(played_st.history):
            reclaims += a.kind == "reclaim"
            bans = [(c["seat"], c["ban"], c["face"], c["rule"])
                    for c in logs.step(st, a) if c["type"] == "banned"]
            assert bans == _ban_oracle(st, i), (options, seed, i, a)
            assert all(m.origin >= 0 for ms in st.marks for m in ms)
        lines = logs.record(st.rules, st.deal, played_st.history)
        res = replay.replay_text(logs.dumps(lines))
        assert res.status == "conforming", (options, seed, res.divergence)
    if options.get("reclaim-deadline") == "before-next-acts":
        assert reclaims > 0  # the rebuilt mark list of a reclaim is exercised


def test_classic_logs_match_the_schema() -> None:
    """Classic hands: the cái card and its drawer in the deal, faults (restriction-mode
    penalise, bỏ ù), declarations and their judgement: every line fits log.schema.json,
    and the lines the schema adds for classic do occur."""
    import random

    from chanspec.model.chan import table
    from chanspec.model.chan.game import State

    seen: set[str] = set()
    for seed in range(8):
        rules = table.load("classic").resolve(2 + seed % 3)
        st = State.new(rules, seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal() and len(st.history) < 600:
            legal = st.legal_actions()
            if not legal:
                break
            st.apply(rng.choice(legal))
        lines = logs.record(st.rules, st.deal, st.history)
        for line in lines:
            errors = list(VALIDATOR.iter_errors(line))
            assert not errors, (seed, line, errors[0].message)
            seen.add(line.get("type", ""))
        assert "cai" in lines[0]["deal"] and "drawer" in lines[0]["deal"]
    assert {"declare", "declared", "fault"} <= seen, seen
