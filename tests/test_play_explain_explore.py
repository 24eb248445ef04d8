"""``chanspec play``, ``chanspec explain`` and ``chanspec explore`` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chanspec.checks.cli import cmd_explain, main
from chanspec.checks.report import narrate
from chanspec.model.chan import cards, table
from chanspec.model.chan.game import Action, Deal, State

GOLDEN = Path(__file__).parent / "golden"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


# --------------------------------------------------------------------------- play


def test_play_narrates_in_vietnamese_with_english(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--players", "5", "--seed", "7")
    assert code == 0
    assert "hạt giống 7" in out and "(en)" in out
    assert "đánh" in out and "bốc" in out  # Vietnamese verbs
    assert any(n in out for n in cards.NAMES if " " in n)  # Vietnamese card names
    assert "[deal-5, opener-no-draw]" in out
    assert "Kết thúc:" in out and "Phát lại: chanspec play --players 5 --seed 7" in out


def test_play_is_reproducible_and_english_only(capsys: pytest.CaptureFixture[str]) -> None:
    _, a, _ = run(capsys, "play", "--players", "4", "--seed", "3", "--lang", "en")
    _, b, _ = run(capsys, "play", "--players", "4", "--seed", "3", "--lang", "en")
    assert a == b and "(en)" not in a and "discards" in a
    assert "Kết thúc" not in a and "End:" in a


def test_play_json_is_a_replayable_log(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--players", "5", "--seed", "7", "--json",
                       "--option", "lao-thang=off")
    assert code == 0
    lines = [json.loads(x) for x in out.splitlines()]
    head = lines[0]
    assert head["type"] == "header" and head["players"] == 5 and head["x-seed"] == 7
    assert head["options"]["lao-thang"] == "off" and head["ruleset"] == "family"
    assert len(head["deal"]["hands"]) == 5
    assert lines[-1]["type"] == "end"
    rules = table.rules("family", 5, {"lao-thang": "off"})
    deal, actions = narrate.random_game(rules, 7)
    kinds = {"u", "chiu-u", "chiu", "eat", "reclaim", "pass", "discard", "return", "timeout"}
    assert [a.as_json() for a in actions] == [x for x in lines if x["type"] in kinds]
    st = State.replay(rules, deal, actions)
    assert lines[-1]["result"] == st.outcome()["result"]  # type: ignore[index]
    # every event of the machine is in the log, in order
    kinds = [x["type"] for x in lines[1:] if x["type"] not in ("declined", "banned")]
    assert kinds == [e["type"] for e in st.events[1:]]


def test_play_out_writes_atomically(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "g.ndjson"
    code, out, _ = run(capsys, "play", "--seed", "2", "--json", "--out", str(target))
    assert code == 0 and target.exists() and str(target) in out
    assert json.loads(target.read_text("utf-8").splitlines()[0])["type"] == "header"
    assert [p.name for p in tmp_path.iterdir()] == ["g.ndjson"]


@pytest.mark.parametrize("argv,needle", [
    (["play", "--option", "lao-thang=maybe"], "lao-thang"),
    (["play", "--players", "6"], "no variant for 6 players; it has: 4, 5"),
    (["play", "--opener", "7"], "--opener"),
])
def test_play_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and needle in err and "Traceback" not in err


# --------------------------------------------------------------------------- explain


def golden_state_file(tmp_path: Path, name: str, upto: int) -> Path:
    g = json.loads((GOLDEN / name).read_text("utf-8"))
    rules = table.rules("family", g["players"], g.get("options") or {})
    d = g["deal"]
    deal = Deal(tuple(tuple(cards.parse_many(h)) for h in d["hands"]),
                tuple(cards.parse_many(d["noc"])), int(d["opener"]))
    st = State.replay(rules, deal, [Action.parse(a) for a in g["actions"][:upto]])
    p = tmp_path / f"{name}.state.json"
    p.write_text(json.dumps(st.to_json()), "utf-8")
    return p


def test_explain_lists_legal_and_forbidden_with_rule_ids(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Golden game 01 after seat 1 ate Thất Vạn: discarding Tam Văn is banned (§3 bullet 1)."""
    f = golden_state_file(tmp_path, "01_pass_chan_ban.json", 3)
    code, out, _ = run(capsys, "explain", str(f), "--seat", "1")
    assert code == 0
    assert "✓ Người 1 đánh Cửu Sách" in out
    assert "✗ Người 1 đánh Tam Văn" in out and "[pass-chan-ban]" in out
    assert "pass-chan-ban (§3 bullet 1, settled):" in out  # the row's paraphrase
    code, out, _ = run(capsys, "explain", str(f), "--seat", "1", "--json")
    rep = json.loads(out)
    forbidden = {i["action"]: i["rules"] for i in rep["forbidden"]}
    assert forbidden["1:discard 3n"] == ["pass-chan-ban"]
    assert "1:discard 9s" in {i["action"] for i in rep["legal"]}
    assert rep["rules"]["pass-chan-ban"]["section"] == "§3 bullet 1"


def test_explain_a_declined_win_for_a_seat_not_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Golden game 05: the opener discarded a winning hand; the drawn card would complete it
    again, and explain names the decline rather than 'not your turn' (§4 bullet 4)."""
    f = golden_state_file(tmp_path, "05_opening_discard_declines.json", 1)
    code, out, _ = run(capsys, "explain", str(f), "--seat", "0", "--json")
    rep = json.loads(out)
    why = {i["action"]: i["rules"] for i in rep["forbidden"]}
    assert "opening-discard-declines" in why["0:u"]
    assert rep["legal"] == []


def test_explain_reads_play_logs_and_steps(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.ndjson"
    run(capsys, "play", "--players", "5", "--seed", "7", "--json", "--out", str(log))
    code, out, _ = run(capsys, "explain", str(log), "--seat", "1", "--step", "1", "--json")
    rep = json.loads(out)
    assert code == 0 and rep["position"]["actions_played"] == 1
    assert rep["position"]["window"]["source"] == "discard"
    code, out, _ = run(capsys, "explain", str(log), "--seat", "0", "--step", "0", "--lang", "en")
    assert code == 0 and "Seat 0 may (" in out and "(en)" not in out


@pytest.mark.parametrize("content,needle", [
    ('{"type": "header"}\n', "format"),
    ("not json at all\n", "JSON"),
    ('{"players": 4}', "actions"),
])
def test_explain_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                           needle: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(content, "utf-8")
    code, _, err = run(capsys, "explain", str(f), "--seat", "0")
    assert code == 2 and needle in err and "Traceback" not in err


def test_explain_bad_seat_and_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = golden_state_file(tmp_path, "01_pass_chan_ban.json", 2)
    code, _, err = run(capsys, "explain", str(f), "--seat", "5")
    assert code == 2 and "0..4" in err
    code, _, err = run(capsys, "explain", str(f), "--seat", "1", "--step", "9")
    assert code == 2 and "0..2" in err


def test_explain_illegal_action_in_file(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    f = golden_state_file(tmp_path, "01_pass_chan_ban.json", 2)
    d = json.loads(f.read_text("utf-8"))
    d["actions"].append({"type": "discard", "seat": 1, "card": "3n"})
    f.write_text(json.dumps(d), "utf-8")
    code, _, err = run(capsys, "explain", str(f), "--seat", "1")
    assert code == 2 and "action 3" in err and "--step 2" in err


def test_explain_report_covers_every_candidate() -> None:
    st = State.new(table.rules("family", 4), seed=4)
    rep = cmd_explain.report(st, 0)
    acts = {i["action"] for i in rep["legal"]} | {i["action"] for i in rep["forbidden"]}
    assert {a.code() for a in st.candidate_actions(0)} <= acts
    assert all(i["rules"] for i in rep["forbidden"])


# --------------------------------------------------------------------------- explore


def test_explore_ci_prints_counts_and_no_machine_finding(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explore", "--profile", "ci", "--seed", "1", "--games", "12",
                       "--players", "5")
    assert code == 0
    assert "Hypothesis" in out and "trạng thái khác nhau" in out
    assert "Không có lỗi của máy" in out
    assert "Chạy lại: chanspec explore --profile ci --seed 1 --players 5 --games 12" in out


def test_explore_json_and_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explore", "--seed", "1", "--games", "40", "--no-hypothesis",
                       "--option", "stuck-discard=as-written", "--json",
                       "--save", str(tmp_path))
    r = json.loads(out)
    assert code == 0 and r["hypothesis"] is None and r["machine_findings"] == []
    assert r["simulation"]["stats"]["games"] == 40
    assert r["options"] == {"stuck-discard": "as-written"}
    # rules findings are saved as state files that explain can read
    for kind, f in r["rules_findings"].items():
        saved = tmp_path / f"rules-{kind}.json"
        assert saved.exists()
        code, out, _ = run(capsys, "explain", str(saved), "--seat", str(f["seat"]), "--json")
        assert code == 0 and json.loads(out)["legal"] == []


def test_explore_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "explore", "--games", "-1")
    assert code == 2
    code, _, err = run(capsys, "explore", "--option", "nope=1", "--no-hypothesis")
    assert code == 2 and "nope" in err


def test_every_ban_the_table_can_make_has_words() -> None:
    t = table.load("family")
    kinds = set()
    for name, values in [(None, [None])] + list(t.option_space()):
        for v in values:
            rules = t.resolve(4, {name: v} if name else None)
            kinds |= {b for r in rules.restrictions for b in r.bans}
    assert "discard-ca-eaten" in kinds  # only under ate-ca-no-both-sides=eaten-faces
    assert kinds <= set(narrate.BAN_VI) and kinds <= set(narrate.BAN_EN)


@pytest.mark.parametrize("opt", [f"{n}={v}" for n, vs in table.load("family").option_space()
                                 for v in vs])
def test_play_narrates_a_hand_under_every_option_value(opt: str, capsys: pytest.CaptureFixture
                                                       [str]) -> None:
    # `play --option ate-ca-no-both-sides=eaten-faces` used to end in exit 70 (no words
    # for the ban that value creates)
    for seed in (1, 2):
        assert main(["play", "--seed", str(seed), "--option", opt]) == 0
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("ruleset", ["family", "classic"])
def test_a_move_out_of_turn_cites_the_row_that_makes_the_due_move_due(ruleset: str) -> None:
    # at the opening a pass (or an eat) is refused by the opener's row, not by the row of
    # giving a card back after a chíu (a wrong citation once sent conformance keys astray)
    seen = 0
    for seed in range(5):
        st = State.new(table.rules(ruleset, 4), seed=seed)
        if st.phase != "opening":
            continue
        seen += 1
        for kind in ("pass", "chiu"):
            ex = st.explain(Action(kind, st.actor))
            assert not ex.legal
            assert ex.rules == (st.rules.rid("turn.opener_rule"),), (seed, kind, ex)
    assert seen
