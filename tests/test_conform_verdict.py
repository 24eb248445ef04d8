"""The conformance verdict (issue 27): chanspec never fails on an engine's claim style,
one key per cause, readings that are right or silent, a report that reads as a
diagnosis."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from chanspec.checks.cli import app as cli
from chanspec.checks.conform import campaign as conform
from chanspec.checks.conform import replay
from kit_helpers import ENGINES

PY = sys.executable


def engine(name: str, *args: str) -> list[str]:
    return [PY, str(ENGINES / f"{name}.py"), *args]


def test_a_claim_chanspec_cannot_judge_is_a_difference_not_a_crash(tmp_path: Path,
                                                                   capsys: Any) -> None:
    """A one-seat-at-a-time engine offering chíu-ù to a seat without three copies of
    the card: chanspec's win judgement refuses such a hand outright; the campaign keys
    it by the row that forbids it, never exits 2, and every witness replays."""
    out = tmp_path / "w.ndjson"
    code = cli.main(["conform", "--impl", " ".join(engine("phantom_chiu_u")), "--hands", "12",
                     "--seed", "1", "--players", "4", "--shrink-budget", "5", "--json",
                     "--save", str(out)])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["result"] == "mismatch", data.get("internal_error")
    assert data["internal_error"] is None
    chiu_u = [d for d in data["differences"] if d["key"][:2] == ["legal", "chiu-u"]]
    assert chiu_u and any("chiu" in d["rows"] for d in chiu_u), \
        [d["key"] for d in data["differences"]]
    for d in data["differences"]:
        rep = replay.replay_path(d["log"])
        assert rep.status in ("conforming", "unfinished", "divergence"), rep.error


def test_chanspecs_own_failure_is_exit_70_with_the_hand_saved(tmp_path: Path, capsys: Any,
                                                              monkeypatch: Any) -> None:
    """A bug inside the classifier (simulated: `classify` raises) is chanspec's own
    failure: exit 70, the hand saved as a log replay accepts, its path named; never the
    bad-input exit 2, never a lost report."""
    def broken(*_: Any) -> Any:
        raise KeyError("simulated classifier bug")

    monkeypatch.setattr(conform, "classify", broken)
    out = tmp_path / "hand.ndjson"
    code = cli.main(["conform", "--impl", " ".join(engine("phantom_chiu_u")), "--hands", "5",
                     "--seed", "1", "--players", "4", "--save", str(out), "--lang", "en"])
    cap = capsys.readouterr()
    assert code == 70, cap.err
    assert "internal error in chanspec" in cap.err and str(out) in cap.err
    assert "simulated classifier bug" in cap.err
    rep = replay.replay_path(str(out))
    assert rep.status in ("conforming", "unfinished"), rep.error
    header = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert "simulated classifier bug" in header["x-conform"]["internal_error"]
