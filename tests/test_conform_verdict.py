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


# --------------------------------------------------------------------------- one key per cause


def test_one_ignored_ban_is_one_key_wherever_it_shows() -> None:
    """tests/engines/pass_chan.py ignores pass-chan-ban: a discard, an eat or a return
    the ban forbids are one cause, keyed once by the ban's row (not by every row that
    allows the action, nor once per decision point)."""
    res = conform.campaign(engine("pass_chan"), hands=60, seed=1, timeout=10,
                           shrink_budget=0, players=(4,))
    keys = [d.key for d in res.differences]
    ban = [d for d in res.differences if "pass-chan-ban" in d.rows]
    assert [d.key for d in ban] == [("legal", "*", "*", ("pass-chan-ban",), "*")], keys
    assert ban[0].count >= 20 and ban[0].count == max(d.count for d in res.differences)


def test_a_reading_is_one_key_and_a_guessed_style_does_not_stick() -> None:
    """tests/engines/three_readings.py offers a drawn card to the next seat only
    (drawn-card-offer=next-only): the drawer's missing eat and the next seat's extra one
    are one key, decided by that row; the windows where its answer happens to look like
    a one-seat-at-a-time engine's first question do not make a claim-style key."""
    res = conform.campaign(engine("three_readings"), hands=80, seed=3, timeout=10,
                           shrink_budget=0, players=(4,))
    keys = [d.key for d in res.differences]
    offer = [k for k in keys if "drawn-card-offer" in k[3]]
    assert offer == [("legal", "*", "*", ("drawn-card-offer",), "*")], keys
    assert not any(k[0] in ("style", "turn") for k in keys), keys
    assert sum(d.count for d in res.differences) == res.mismatches


def test_an_engine_at_another_card_is_one_elsewhere_key(tmp_path: Path) -> None:
    """Test engine (c), tests/engines/draws_ahead.py: on a drawn card it looks at the
    next one.  Its 'state' says so: every hand shows it once, keyed "elsewhere" and
    nothing else; the witness replays."""
    res = conform.campaign(engine("draws_ahead"), hands=25, seed=3, timeout=10,
                           shrink_budget=5, players=(4,))
    assert [d.key for d in res.differences] == [conform.ELSEWHERE_KEY], \
        [(d.key, d.label_en) for d in res.differences]
    d = res.differences[0]
    assert d.count == d.hands >= 15
    m = d.best.mismatch
    assert m.elsewhere is not None and m.elsewhere[0] != m.elsewhere[1]
    assert "another card" in d.label_en and "quân khác" in d.label_vi
    path = tmp_path / "c.ndjson"
    path.write_text(conform.logs.dumps(d.log), encoding="utf-8")
    assert replay.replay_path(str(path)).status in ("conforming", "unfinished", "divergence")


def test_a_rule_the_table_does_not_have_is_one_key_and_no_reading(tmp_path: Path,
                                                                 capsys: Any) -> None:
    """Test engine (b), tests/engines/keeps_thang.py: Thang is never given up.  No row
    forbids it and no reading allows it: one key, no reading inferred."""
    code = cli.main(["conform", "--impl", " ".join(engine("keeps_thang")), "--hands", "30",
                     "--seed", "3", "--players", "4", "--shrink-budget", "10",
                     "--infer-options", "--json", "--save", str(tmp_path / "b.ndjson")])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["internal_error"] is None
    assert [d["key"] for d in data["differences"]] == [["legal", "discard", "*", [], "less"]]
    inf = data["inference"]
    assert inf["readings"] == {} and len(inf["unexplained"]) == 1, inf
    d = data["differences"][0]
    assert d["count"] >= 30 and "thang" in d["difference"]
    assert replay.replay_path(d["log"]).status in ("conforming", "unfinished")


def test_one_seat_engine_with_three_readings_and_two_bugs(tmp_path: Path,
                                                          capsys: Any) -> None:
    """Test engine (a), tests/engines/one_seat_readings.py: asks one seat at a time,
    draws by itself, plays three readings and has two bugs (the second only reachable
    after the first).  The verdict names exactly the three readings and two differences
    no reading explains, one key each; every witness, the confirmation's included, is a
    log replay accepts."""
    sys.path.insert(0, str(ENGINES))
    try:
        from one_seat_readings import READINGS
    finally:
        sys.path.remove(str(ENGINES))
    code = cli.main(["conform", "--impl", " ".join(engine("one_seat_readings")), "--hands",
                     "60", "--seed", "3", "--players", "4", "--shrink-budget", "10",
                     "--infer-options", "--json", "--save", str(tmp_path / "a.ndjson")])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["internal_error"] is None
    inf = data["inference"]
    assert inf["readings"] == READINGS, inf
    left = inf["confirm"]["differences"]
    keys = [tuple(map(str, d["key"])) for d in left]
    assert len(left) == 2 == len(set(keys)) == len(inf["unexplained"]), keys
    assert any("pass-chan-ban" in d["rows"] for d in left), keys
    assert any(d["key"][:3] == ["legal", "pass", "opening"] for d in left), keys
    for d in data["differences"] + left:
        assert d["log"] and Path(d["log"]).exists(), d["difference"]
        assert replay.replay_path(d["log"]).status in ("conforming", "unfinished",
                                                       "divergence")


def test_a_failure_while_shrinking_or_inferring_is_exit_70_with_the_report(
        tmp_path: Path, capsys: Any, monkeypatch: Any) -> None:
    """chanspec's own failure after the hands were compared (simulated: the win judge
    refuses a hand while a witness is shrunk, then while readings are inferred) is exit
    70 naming the saved log, never the bad-input exit 2, and the differences are kept."""
    from chanspec.model.chan import win

    def impossible(*_: Any, **__: Any) -> Any:
        raise win.HandError("simulated: impossible hand")

    for target in ("shrink", "_explanations"):
        with monkeypatch.context() as mp:
            mp.setattr(conform, target, impossible)
            out = tmp_path / f"{target}.ndjson"
            code = cli.main(["conform", "--impl", " ".join(engine("keeps_thang")), "--hands",
                             "6", "--seed", "1", "--players", "4", "--shrink-budget", "3",
                             "--infer-options", "--json", "--save", str(out)])
            cap = capsys.readouterr()
            data = json.loads(cap.out)
            assert code == 70, (target, cap.err)
            assert "simulated: impossible hand" in data["internal_error"]
            assert data["differences"] and out.exists() and str(out) in cap.err
            assert replay.replay_path(str(out)).status in ("conforming", "unfinished")


def test_readings_are_chosen_as_an_optimisation_not_greedily() -> None:
    # difference 0 (5 mismatches) is explained by a=x or b=y, 1 and 2 (4 each) only by
    # b=w, 3 (1) only by b=y.  Taking, for the commonest difference first, the value that
    # explains most (b=y: 6) would block b=w and explain 6 mismatches; a=x with b=w
    # explains 13.
    def diff(i: int, count: int) -> conform.Difference:
        return conform.Difference(key=("k", i), label_en="", label_vi="", rows=[], count=count)

    res = conform.CampaignResult("mismatch", "engine", 0)
    res.differences = [diff(0, 5), diff(1, 4), diff(2, 4), diff(3, 1)]
    cands = {0: [("a", "x"), ("b", "y")], 1: [("b", "w")], 2: [("b", "w")], 3: [("b", "y")]}
    assert conform._choose(res, cands, {}) == {"a": "x", "b": "w"}
    # a row fixed in an earlier round is not chosen again
    assert conform._choose(res, cands, {"b": "w"}) == {"a": "x"}
    # one difference, two values of one row explaining it: one reading, the first
    res.differences = [diff(0, 3)]
    assert conform._choose(res, {0: [("a", "z"), ("a", "x")]}, {}) == {"a": "x"}
    # nothing explains anything: no reading
    assert conform._choose(res, {0: []}, {}) == {}


def test_a_bug_seen_from_another_question_is_keyed_as_that_bug() -> None:
    """Test engine (a) with chanspec playing its three readings: its two bugs, and no
    other key.  It ignores pass-chan-ban, so it sometimes asks a seat about a claim the
    rules skip (a window the rules let go by, or another card); answering that question
    as if it were the rules' one put the two sides apart (hands 9 and 12 of this seed
    were keyed "after pass/discard, the engine waits for other seats").  Without the
    ban's row the rules ask exactly the engine's question: that row's key."""
    sys.path.insert(0, str(ENGINES))
    try:
        from one_seat_readings import READINGS
    finally:
        sys.path.remove(str(ENGINES))
    res = conform.campaign(engine("one_seat_readings"), hands=40, seed=3, timeout=10,
                           shrink_budget=0, players=(4,), readings=READINGS)
    keys = [d.key for d in res.differences]
    assert keys == [("legal", "pass", "opening", ("opener-no-draw",), "more"),
                    ("legal", "*", "*", ("pass-chan-ban",), "*")], keys
    assert res.differences[0].count == 40 and res.differences[1].hands >= 30
    assert sum(d.count for d in res.differences) == res.mismatches


def test_one_seat_replay_follows_the_questions_the_rules_ask() -> None:
    """`one_seat_replay` rebuilds chanspec's machine from the answers sent to a
    one-seat-at-a-time engine: the window's questions in order, the first claim granted,
    the card going on when every answer is no; an answer the rules do not ask is None."""
    from chanspec.model.chan import table as table_mod
    from chanspec.model.chan.game import State

    rules = table_mod.rules("family", 4)
    for seed in range(6):
        st = State.new(rules, seed=seed)
        sent: list[conform.Action] = []
        ref = State(rules, st.deal)
        rng = conform.random.Random(seed)
        for _ in range(60):
            if ref.phase == "over" or not ref.legal_actions():
                break
            if ref.phase != "window":
                a = rng.choice(ref.legal_actions())
                ref.apply(a)
                sent.append(a)
                continue
            asks = conform.claim_asks(ref)
            granted, at, nos = None, len(asks), {}
            for i, (seat, offer) in enumerate(asks):
                x = rng.choice(offer)
                sent.append(x)
                got = conform.one_seat_replay(rules, st.deal, sent)
                assert got is not None
                if x.kind in conform.CLAIM_KINDS:
                    granted, at = x, i
                    break
                nos[seat] = x
                if i + 1 < len(asks):  # still inside the window, at the next question
                    assert got[1] == i + 1 and got[0].phase == "window"
            for b in conform.window_answers(ref, asks, granted, at, nos):
                ref.apply(b)
            got = conform.one_seat_replay(rules, st.deal, sent)
            assert got is not None and got[0].fingerprint() == ref.fingerprint()
        wrong = conform.Action("discard", 9, 0)
        assert conform.one_seat_replay(rules, st.deal, [*sent, wrong]) is None


def test_an_engine_offering_nothing_at_a_turn_allows_less_there() -> None:
    """At a turn, an engine offering nothing at all (tests/engines/keeps_thang.py when
    Thang is the seat's only card it may give up: one hand of 500, seed 3, was keyed
    "after eat, the engine waits for other seats") is at the same point and
    allows less: keyed as its cause, like the seat's other missing discards.  In a claim
    window, offering nothing is being elsewhere."""
    from chanspec.model.chan import table as table_mod
    from chanspec.model.chan.game import State

    rules = table_mod.rules("family", 4)
    turn = window = None
    for seed in range(40):
        st = State.new(rules, seed=seed)
        rng = conform.random.Random(seed)
        for _ in range(80):
            acts = st.legal_actions()
            if not acts:
                break
            if st.phase == "discard" and turn is None:
                turn = State.replay(st.rules, st.deal, st.history)
            if st.phase == "window" and window is None:
                window = State.replay(st.rules, st.deal, st.history)
            st.apply(rng.choice(acts))
        if turn is not None and window is not None:
            break
    assert turn is not None and window is not None
    mine = frozenset(turn.legal_actions())
    assert not conform._is_desync(turn, mine, frozenset(), False)
    m = conform.Mismatch(len(turn.history), "legal",
                         [conform.SeatDiff(s, [], sorted(a for a in mine if a.seat == s))
                          for s in sorted({a.seat for a in mine})])
    key = conform.classify(turn, m, turn.history[-1] if turn.history else None)[0]
    assert key[0] == "legal" and key[-1] in ("less", "*"), key
    assert conform._is_desync(window, frozenset(window.legal_actions()), frozenset(), False)


def test_an_answer_like_another_claim_style_still_asks_where_the_engine_is() -> None:
    """Hand 125 of seed 3 against test engine (c): the engine's answer on its other card
    happens to look like a one-seat-at-a-time engine's first question.  The engine is
    still asked its 'state': the difference is "elsewhere" (it was keyed by
    drawn-card-offer once that guessed style was dropped)."""
    from chanspec.checks.conform.driver import Engine
    from chanspec.model.chan import table as table_mod

    table = table_mod.load("family")
    with Engine(engine("draws_ahead"), 10) as e:
        runner = conform.Runner(e, table, (4,), conform.option_choices(table, {}, False),
                                conform.DEFAULT_MAX_STEPS)
        hr = runner.play(conform.Choices((), conform.random.Random(conform.hand_seed(3, 125))))
    assert hr.error is None and not hr.internal
    assert [k for k, *_ in hr.found] == [conform.ELSEWHERE_KEY], [k for k, *_ in hr.found]
