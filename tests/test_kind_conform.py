"""Conformance for a kind with its own game-log format (Tấn): `chanspec serve` answers a
Tấn hand, `chanspec conform --ruleset tan` finds no difference against it, and a Tấn engine
with one bug (tests/engines/tan_follows_suit.py: no trump while holding a higher card of
the suit, against seed 003 ¶9 s3) is diagnosed as exactly one cause, named by its row,
with a witness that replays on both sides."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from chanspec.checks.conform import kind_campaign
from chanspec.checks.conform.kind_engine import KindSession, ServeSession
from chanspec.model import kinds

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
SERVE = f"{PY} -m chanspec.checks.cli serve"
WRONG = f"{PY} {ROOT / 'tests' / 'engines' / 'tan_follows_suit.py'}"
RULES = kinds.rules("tan", 2)
KIND = kinds.of(RULES.table)


def start_request(seed: int, rules=RULES) -> dict:
    st = KIND.State.new(rules, seed=seed)
    h = KIND.log.header(rules, st.deal)
    return {"op": "start", "ruleset": h["ruleset"], "players": h["players"],
            "options": h["options"], "deal": h["deal"]}


def test_the_session_plays_a_hand_as_the_machine_does() -> None:
    s = KindSession()
    assert s.handle(start_request(3))["ok"]
    st = KIND.State.new(RULES, seed=3)
    for _ in range(60):
        if st.is_terminal():
            break
        legal = s.handle({"op": "legal_all"})["actions"]
        assert sorted(map(json.dumps, legal)) == sorted(json.dumps(a.as_json())
                                                         for a in st.legal_actions())
        for seat in range(RULES.players):
            one = s.handle({"op": "legal", "seat": seat})["actions"]
            assert one == [a.as_json() for a in st.legal_actions(seat)]
        a = st.legal_actions()[-1]
        assert s.handle({"op": "apply", "action": a.as_json()}) == {"ok": True}
        st.apply(a)
        assert s.handle({"op": "state"})["state"]["phase"] == st.decision_point()[0]
    out = s.handle({"op": "outcome"})
    assert out["terminal"] == st.is_terminal()


@pytest.mark.parametrize(("req", "said"), [
    ({"op": "legal", "seat": 0}, "no hand started"),
    ({"op": "dance"}, "unknown op"),
    ({"op": "start", "ruleset": "/etc/passwd"}, "never opens a file a request names"),
    ({"op": "legal_all", "id": "7"}, "'id' must be an integer"),
])
def test_bad_requests_are_errors_not_crashes(req: dict, said: str) -> None:
    resp = KindSession().handle(req)
    assert resp["ok"] is False and said in resp["error"]


def test_an_illegal_action_is_refused_with_its_rows_and_the_state_kept() -> None:
    s = KindSession()
    s.handle(start_request(3))
    assert s.handle({"op": "legal", "seat": 5})["ok"] is False
    before = s.state.fingerprint()
    resp = s.handle({"op": "apply", "action": {"type": "take", "seat": 0}})
    assert resp["ok"] is False and resp["rules"] and "illegal action" in resp["error"]
    assert s.state.fingerprint() == before


def test_serve_hands_each_start_to_its_kind() -> None:
    s = ServeSession()
    assert s.handle(start_request(1))["ok"] and s.current is s.other
    family = {"op": "start", "ruleset": "family", "players": 4}
    s.handle(family)  # a Chắn start (its missing deal is Chắn's session's error to give)
    assert s.current is s.chan


def test_conform_against_serve_finds_nothing(tmp_path: Path) -> None:
    rules = kinds.rules("tan", 3)
    res = kind_campaign.run(rules, SERVE, hands=3, seed=2, save=tmp_path / "w.ndjson")
    assert res.hands == 3 and res.steps > 0 and not res.differences


def test_a_wrong_engine_is_one_cause_named_by_its_row(tmp_path: Path) -> None:
    res = kind_campaign.run(RULES, WRONG, hands=6, seed=1, save=tmp_path / "w.ndjson")
    assert len(res.differences) == 1
    (d,) = res.differences.values()
    assert (d.what, d.point, d.missing, d.extra) == ("legal", "defend", ("beat",), ())
    assert "trump-while-suit" in d.rules
    # the witness replays on the machine up to the step where the sides part, and there
    # the machine allows the beat the engine lacks
    log = Path(d.saved or "").read_text().splitlines()
    r = subprocess.run([PY, "-m", "chanspec.checks.cli", "replay", d.saved or "", "--json"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 4, r.stdout + r.stderr  # it stops before the hand is over
    header = json.loads(log[0])
    rules, deal = KIND.log.read_header(header, RULES.table)
    actions = [a for a in (KIND.log.read_line(rules, json.loads(x)) for x in log[1:])
               if a is not None]
    st = KIND.State.replay(rules, deal, actions)
    missing = KIND.log.read_line(rules, d.example["missing"][0])
    assert st.explain(missing).legal
    eng = KindSession(state_factory=_wrong_factory())
    eng.handle({"op": "start", "ruleset": "tan", "players": 2,
                "options": header["options"], "deal": header["deal"]})
    for a in actions:
        assert eng.handle({"op": "apply", "action": a.as_json()})["ok"]
    assert missing.as_json() not in eng.handle({"op": "legal_all"})["actions"]


def _wrong_factory():
    sys.path.insert(0, str(ROOT / "tests" / "engines"))
    try:
        import tan_follows_suit
    finally:
        sys.path.pop(0)
    return tan_follows_suit.make_state


def test_the_command_reports_and_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    save = tmp_path / "w.ndjson"
    r = subprocess.run([PY, "-m", "chanspec.checks.cli", "conform", "--ruleset", "tan",
                        "--players", "2", "--impl", WRONG, "--hands", "3", "--seed", "1",
                        "--save", str(save), "--lang", "en"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 1, r.stderr
    assert "Seed: 1" in r.stdout and "1 distinct differences" in r.stdout
    assert "trump-while-suit" in r.stdout and str(save) in r.stdout and save.exists()
    r = subprocess.run([PY, "-m", "chanspec.checks.cli", "conform", "--ruleset", "tan",
                        "--impl", SERVE, "--infer-options"], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == 2 and "--infer-options is not available for kind 'tan'" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_chiha_against_serve_and_a_wrong_chiha_engine(tmp_path: Path) -> None:
    # seed 004 "Luật vứt bài" •3: a Tướng is never discarded (row discard-no-tuong); the
    # engine tests/engines/chiha_discards_tuong.py lets it go
    rules = kinds.rules("chiha", 3)
    assert not kind_campaign.run(rules, SERVE, hands=3, seed=2).differences
    wrong = f"{PY} {ROOT / 'tests' / 'engines' / 'chiha_discards_tuong.py'}"
    res = kind_campaign.run(rules, wrong, hands=3, seed=2, save=tmp_path / "c.ndjson")
    assert len(res.differences) == 1
    (d,) = res.differences.values()
    assert (d.what, d.point, d.missing, d.extra) == ("legal", "discard", (), ("discard",))
    assert "discard-no-tuong" in d.rules
    deck = rules.deck
    assert all(deck.rank_id(deck.parse(c)) == "tuong"
               for x in d.example["extra"] for c in x["cards"])
    r = subprocess.run([PY, "-m", "chanspec.checks.cli", "replay", d.saved or ""],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 4, r.stdout + r.stderr
