"""`chanspec score --log`: a finished classic hand scored from its record (model/chan/cuoc.py
`won_hand`, checks/cli/cmd_score.py `from_log`).

The hands are played by the reference machine from seeds, exactly as ``chanspec play
--ruleset classic --seed S --json`` plays them.  The context read from the events is
compared with what an independent replay sees action by action: the window open when the
winning claim is made (its card, gate, and whether it came from the nọc), the winner's own
draws and eats before it, and the deal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.conform import logs
from chanspec.checks.report import narrate
from chanspec.model.chan import cards, cuoc, table
from chanspec.model.chan.game import State
from test_classic import run_cli

SEEDS = range(60)


def _rules() -> table.Rules:
    return table.rules("classic", 4)


def _played(seed: int) -> State:
    rules = _rules()
    deal, actions = narrate.random_game(rules, seed)
    return State.replay(rules, deal, actions)


def _independent(st: State) -> dict[str, Any]:
    """What a step-by-step replay sees: the window of the winning claim, and whether the
    winner drew or ate before it."""
    assert st.deal is not None and st.result is not None
    w = st.result["winner"]
    ref = State(st.rules, st.deal)
    drew = ate = 0
    last_noc = 0
    window = None
    for a in st.history:
        if ref.window is not None:
            window = (ref.window.source, ref.window.gate, ref.window.card)
        else:
            window = None
        laid_before = len(ref.laid[w])
        ref.apply(a)
        if ref.is_terminal() or ref.phase == "declare":  # won (then the winner declares)
            break
        if ref.noc_pos > last_noc:
            # every nọc card drawn by this action; a draw window opened at the drawer's
            # gate.  The drawer of the last one is the gate of the open window (or the
            # seat the dead card's turn passed to); count the winner's own draws
            for i in range(last_noc, ref.noc_pos):
                drawer = _drawer(ref, i)
                drew += drawer == w
            last_noc = ref.noc_pos
        if len(ref.laid[w]) > laid_before and len(ref.laid[w][-1].faces) == 2:
            ate += 1
    return {"window": window, "drew": drew, "ate": ate}


def _drawer(st: State, i: int) -> int:
    """The seat that drew nọc card number `i` (from the draw events)."""
    draws = [e for e in st.events if e["type"] == "draw"]
    return int(draws[i]["seat"])


def _wins() -> list[tuple[int, State]]:
    out = []
    for seed in SEEDS:
        st = _played(seed)
        if st.result is not None and st.result["result"] == "win":
            out.append((seed, st))
    return out


WINS = _wins()


def test_enough_seeded_wins_of_several_sources() -> None:
    sources = {cuoc.won_hand(st).ctx.source for _, st in WINS}
    assert len(WINS) >= 10, len(WINS)
    assert {"own-draw", "other-draw"} <= sources, sources


@pytest.mark.parametrize("seed", [s for s, _ in WINS[:12]])
def test_context_matches_the_history(seed: int) -> None:
    st = dict(WINS)[seed]
    won = cuoc.won_hand(st)
    ind = _independent(st)
    res = st.result
    assert res is not None and won.seat == res["winner"] and won.ctx.kind == res["kind"]
    if won.ctx.kind == "opening":
        assert won.ctx.card is None
    else:
        src, gate, card = ind["window"]
        assert won.ctx.card == card and cards.code(card) == res["card"]
        expected = {("draw", True): "own-draw", ("draw", False): "other-draw",
                    ("return", True): "returned"}.get((src, gate == won.seat), "discard")
        assert won.ctx.source == expected
        # the winning draw itself does not spoil the first round
        own = int(src == "draw" and gate == won.seat)
        assert won.ctx.first_round == (ind["drew"] - own == 0 and ind["ate"] == 0)
    assert st.deal is not None
    assert won.ctx.dealt == tuple(cards.counts(st.deal.hands[won.seat]))
    # the hand before the winning card + that card = the final concealed and laid cards
    final = list(st.hands[won.seat])
    for g in st.laid[won.seat]:
        for f in g.faces:
            final[f] += 1
    before = cards.counts(won.hand)
    if won.ctx.card is not None:
        before[won.ctx.card] += 1
    assert before == final
    assert list(won.laid) == st.laid[won.seat]
    assert won.faults == tuple(f for f in st.faults if f["seat"] == won.seat)


def test_a_first_round_win_is_read_from_the_history() -> None:
    """A win before the winner drew or ate (địa ù): found among the greedy hands of
    checks/chan/cuoc_freq.py seeded 1, and read as such by the independent replay."""
    from chanspec.checks.chan import cuoc_freq

    rules = _rules()
    seen = 0
    for i in range(300):
        st = cuoc_freq.play(rules, cuoc_freq.hand_seed(1, i))
        if st.result is None or st.result["result"] != "win" or st.result["kind"] == "opening":
            continue
        won = cuoc.won_hand(st)
        ind = _independent(st)
        src, gate, _ = ind["window"]
        own = int(src == "draw" and gate == won.seat)
        first = ind["drew"] - own == 0 and ind["ate"] == 0
        assert won.ctx.first_round == first
        if first:
            seen += 1
            assert "cuoc-dia-u" in {h.row for h in _judge(st).declared}
    assert seen >= 1


def _judge(st: State) -> cuoc.Judgement:
    from chanspec.checks.cli.cmd_score import evaluate

    won = cuoc.won_hand(st)
    res = evaluate(st.rules, list(won.hand), list(won.laid), won.ctx)
    assert res["judgement"] is not None
    return res["judgement"]  # type: ignore[no-any-return]


def test_no_win_to_score() -> None:
    rules = _rules()
    drawn = next(s for s in SEEDS if _played(s).result["result"] == "draw")  # type: ignore[index]
    with pytest.raises(cuoc.NoWin, match="drawn"):
        cuoc.won_hand(_played(drawn))
    with pytest.raises(cuoc.NoWin, match="not over"):
        cuoc.won_hand(State.new(rules, seed=1))


def _write_log(tmp_path: Path, st: State, name: str = "hand.ndjson") -> Path:
    assert st.deal is not None
    p = tmp_path / name
    p.write_text(logs.dumps(logs.record(st.rules, st.deal, st.history)), encoding="utf-8")
    return p


def test_cli_log_scores_as_the_hand_form_does(tmp_path: Path) -> None:
    seed, st = WINS[0]
    won = cuoc.won_hand(st)
    p = _write_log(tmp_path, st)
    code, out, err = run_cli("score", "--log", str(p), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["log"]["seat"] == won.seat
    assert doc["context"] == won.ctx.as_json()
    # the same hand given by hand (cards, --card, --source, --laid, --dealt)
    argv = ["score", *cards.codes(won.hand), "--json",
            "--dealt", " ".join(doc["context"]["dealt"])]
    if won.ctx.card is not None:
        argv += ["--card", cards.code(won.ctx.card), "--source", won.ctx.source,
                 "--kind", won.ctx.kind]
    else:
        argv += ["--kind", "opening"]
    for g in won.laid:
        argv += ["--laid", " ".join(cards.codes(g.faces))]
    if won.ctx.first_round:
        argv.append("--first-round")
    code2, out2, err2 = run_cli(*argv)
    assert code2 == 0, err2
    by_hand = json.loads(out2)
    assert by_hand["cuoc"] == doc["cuoc"] and by_hand["score"] == doc["score"]
    # a state file of the same hand scores the same
    sp = tmp_path / "hand.json"
    sp.write_text(json.dumps(st.to_json()), encoding="utf-8")
    code3, out3, _ = run_cli("score", "--log", str(sp), "--json")
    assert code3 == 0 and json.loads(out3)["cuoc"] == doc["cuoc"]
    # text output names the log and the winner
    code4, out4, _ = run_cli("score", "--log", str(p), "--lang", "en")
    assert code4 == 0 and f"seat {won.seat} wins" in out4 and "Correct declaration" in out4


def test_a_classic_log_with_fault_lines_conforms(tmp_path: Path) -> None:
    from chanspec.checks.conform import replay

    _, st = next((s, x) for s, x in WINS if x.faults)
    p = _write_log(tmp_path, st)
    assert '"type":"fault"' in p.read_text(encoding="utf-8")
    res = replay.replay_path(str(p))
    assert res.status == "conforming", res.as_json()
    bad = p.read_text(encoding="utf-8").replace('"type":"fault","seat":', '"type":"fault","x":', 1)
    (tmp_path / "bad.ndjson").write_text(bad, encoding="utf-8")
    res = replay.replay_path(str(tmp_path / "bad.ndjson"))
    assert res.status == "malformed" and res.error is not None and "seat" in str(res.error)


def test_cli_log_errors_are_clear(tmp_path: Path) -> None:
    drawn = next(s for s in SEEDS if _played(s).result["result"] == "draw")  # type: ignore[index]
    p = _write_log(tmp_path, _played(drawn), "drawn.ndjson")
    code, out, err = run_cli("score", "--log", str(p))
    assert code == 2 and "drawn" in err and "Traceback" not in err
    # a family hand
    fam = table.rules("family", 4)
    deal, actions = narrate.random_game(fam, 3)
    fp = tmp_path / "family.ndjson"
    fp.write_text(logs.dumps(logs.record(fam, deal, actions)), encoding="utf-8")
    code, _, err = run_cli("score", "--log", str(fp))
    assert code == 2 and "'family'" in err and "no cước" in err
    # malformed: the file, the line and what was expected
    _, st = WINS[0]
    text = _write_log(tmp_path, st).read_text(encoding="utf-8").split("\n")
    text[2] = '{"type": "discard", "seat": 0}'
    mp = tmp_path / "malformed.ndjson"
    mp.write_text("\n".join(text), encoding="utf-8")
    code, _, err = run_cli("score", "--log", str(mp))
    assert code == 2 and f"{mp}:3" in err and "card" in err
    # unfinished: the log stops early
    up = tmp_path / "unfinished.ndjson"
    assert st.deal is not None
    up.write_text(logs.dumps(logs.record(st.rules, st.deal, st.history[:5])), encoding="utf-8")
    code, _, err = run_cli("score", "--log", str(up))
    assert code == 2 and "not over" in err
    # the hand's own flags contradict --log
    code, _, err = run_cli("score", "--log", str(mp), "--card", "2v")
    assert code == 2 and "--card" in err
    code, _, err = run_cli("score", "--log", str(tmp_path / "none.ndjson"))
    assert code == 2 and "cannot read" in err


def test_cli_log_takes_readings_thong_and_a_declaration(tmp_path: Path) -> None:
    _, st = WINS[0]
    p = _write_log(tmp_path, st)
    code, out, _ = run_cli("score", "--log", str(p), "--json", "--option", "score-min=five",
                           "--thong")
    assert code == 0
    doc = json.loads(out)
    assert doc["options"] == {"score-min": "five"} and doc["score"]["minimum"] == 5
    assert doc["context"]["thong"] is True and "cuoc-thong" in doc["declaration"]
    right = ",".join(doc["declaration"])
    code, out, _ = run_cli("score", "--log", str(p), "--json", "--thong", "--declare", right)
    assert code == 0 and json.loads(out)["declared"]["correct"] is True
    code, _, err = run_cli("score", "--log", str(p), "--option", "no-such-row=1")
    assert code == 2 and "no-such-row" in err
