"""The command line: registry, common options, exit codes, and ``chanspec win``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from chanspec.checks.cli import app as cli
from chanspec.checks.cli import cmd_win

# 23 cards (4 players, not the opener): eleven chắn and a lone Thất Sách.
HAND4 = ("2v 2v 3n 3n 4s 4s 5v 5v 6n 6n 7s 8v 8v 9n 9n 1v 1v 2n 2n 3s 3s 4v 4v").split()
# 19 cards (5 players): nine chắn and a lone Thất Sách.
HAND5 = ("2v 2v 3n 3n 4s 4s 5v 5v 6n 6n 8v 8v 9n 9n 1v 1v 2n 2n 7s").split()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_help_lists_every_command_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    names = list(sub.choices)  # type: ignore[union-attr]
    assert {"win", "questions"} <= set(names)
    for name in names:
        assert name in out
    for action in sub._choices_actions:  # type: ignore[attr-defined]
        assert " / " in action.help, action.dest  # "<Vietnamese> / <English>"
    flat = " ".join(out.split())
    assert "xét một bài có ù không" in flat and "judge whether a hand wins" in flat


def test_command_modules_are_discovered() -> None:
    mods = cli.command_modules()
    assert mods[: len(cli.COMMANDS)] == cli.COMMANDS
    assert "chanspec.checks.cli.cmd_win" in mods
    assert all(m.rsplit(".", 1)[-1].startswith("cmd_") for m in mods)


def test_broken_command_module_does_not_break_the_rest(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "COMMANDS", [*cli.COMMANDS, "chanspec.checks.cli.cmd_not_there"])
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "not-there" in out and "win" in out
    code, _, err = run(capsys, "not-there")
    assert code == cli.EXIT_BROKEN_COMMAND
    assert "chanspec.checks.cli.cmd_not_there" in err
    code, out, _ = run(capsys, "win", *HAND4, "--with", "7s", "--json")
    assert code == 0 and json.loads(out)["win"] is True


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == 2 and "COMMAND" in err


def test_win_text_in_vietnamese_with_english(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "win", *HAND4, "--with", "7s", "--laid", "2v 2v")
    assert code == 0
    assert "Kết quả: Ù" in out and "(en) Verdict: WIN" in out
    assert "Số Chắn / Chắn count: 12" in out
    assert "Thất Sách + Thất Sách" in out and "đôi cuối" in out
    assert "Nhì Vạn + Nhì Vạn (Chắn)  [đã hạ / laid]" in out
    # deciding rules with their paraphrases from the table
    assert "win-shape" in out and "chia hết thành đôi" in out and "splits into pairs" in out


def test_win_lang_en_is_english_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "win", *HAND4, "--with", "7s", "--lang", "en")
    assert code == 0
    assert "Verdict: WIN" in out and "(en)" not in out and "Kết quả" not in out
    assert "Thất Sách" in out  # card names stay Vietnamese


def test_win_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "win", *HAND4, "--with", "Thất Sách", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["win"] is True and obj["chan"] == 12
    assert ["7s", "7s"] in obj["pairs"] and len(obj["pairs"]) == 12
    assert obj["rules"] == ["win-shape", "win-counts"]


def test_win_five_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "win", *HAND5, "--with", "7s", "--players", "5", "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["win"] is True and obj["chan"] == 10 and len(obj["pairs"]) == 10
    # the same cards are too few for four players
    code, out, _ = run(capsys, "win", *HAND5, "--with", "7s", "--json")
    obj = json.loads(out)
    assert {k: obj[k] for k in ("win", "chan", "pairs", "rules")} == {
        "win": False, "chan": None, "pairs": None, "rules": ["win-shape"]}
    # the reason of a losing hand is in the JSON too, as in the text output
    assert obj["reason"]["en"] and obj["reason"]["vi"]
    code, text, _ = run(capsys, "win", *HAND5, "--with", "7s")
    assert obj["reason"]["en"] in text and obj["reason"]["vi"] in text


def test_win_too_few_chan(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "2v 2n 3v 3n 4v 4n 5v 5n 6v 6n 7v 7v 8v 8v 9v 9v 1n 1n 2s 2s 3s 3s 7s".split()
    code, out, _ = run(capsys, "win", *hand, "--with", "7s", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["win"] is False and obj["chan"] == 7
    assert "win-counts" in obj["rules"]


def test_win_reading_of_laid_groups(capsys: pytest.CaptureFixture[str]) -> None:
    """--option laid-groups=pooled: the laid cạ 3v+3n and the concealed 3v, 3n make two
    chắn only when split again; both verdicts name the row, which decided them."""
    hand = "3v 3n 3v 3n 2v 2v 4v 4v 5v 5v 6v 6v 7v 7v 2n 8v 8n 9v 9n 4n 4s 5n 5s".split()
    got = {}
    for value in ("as-laid", "pooled"):
        code, out, _ = run(capsys, "win", *hand, "--with", "2n", "--laid", "3v 3n",
                           "--option", f"laid-groups={value}", "--json")
        assert code == 0
        got[value] = json.loads(out)
    assert (got["as-laid"]["win"], got["as-laid"]["chan"]) == (False, 6)
    assert (got["pooled"]["win"], got["pooled"]["chan"]) == (True, 8)
    assert ["3v", "3v"] in got["pooled"]["pairs"] and ["3n", "3n"] in got["pooled"]["pairs"]
    assert all("laid-groups" in g["rules"] for g in got.values())


def test_yeu_never_completes(capsys: pytest.CaptureFixture[str]) -> None:
    hand = [c for c in HAND4 if c != "7s"] + ["chi"]
    code, out, _ = run(capsys, "win", *hand, "--with", "chi", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["win"] is False and obj["rules"] == ["yeu-never-completes"]
    code, out, _ = run(capsys, "win", *hand, "--with", "chi")
    assert "không bao giờ được là quân hoàn thành Ù" in out and "yeu-never-completes" in out


def test_chiu_u_and_opening(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "2v 2v 3n 3n 4s 4s 5v 5v 6n 6n 8v 8v 9n 9n 1v 1v 2n 2n 3s 3s 7s 7s 7s".split()
    code, out, _ = run(capsys, "win", *hand, "--with", "7s", "--chiu", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["win"] is True and obj["chan"] == 12
    assert ["7s"] * 4 in obj["pairs"] and "chiu-counts-two" in obj["rules"]
    code, out, _ = run(capsys, "win", *HAND4, "7s", "--opening", "--json")
    assert code == 0 and json.loads(out)["win"] is True


def test_option_changes_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    # ten chắn, and Lão + Thang, with a Nhất Vạn pair completed by the drawn Nhất Vạn
    hand = "2v 2v 3n 3n 4s 4s 5v 5v 6n 6n 8v 8v 9n 9n 2n 2n 3s 3s 4v 4v lao thang 1v".split()
    code, out, _ = run(capsys, "win", *hand, "--with", "1v", "--json")
    assert code == 0 and json.loads(out)["win"] is True
    code, out, _ = run(capsys, "win", *hand, "--with", "1v", "--json",
                       "--option", "lao-thang=off")
    assert code == 0 and json.loads(out)["win"] is False


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["win", *HAND4, "--with", "7x"], ["unknown card", "7x", "Thất Vạn"]),
        (["win", *HAND4], ["--with"]),
        (["win", *HAND4, "--with", "7s", "--option", "lao-thang=maybe"], ["lao-thang", "on, off"]),
        (["win", *HAND4, "--with", "7s", "--option", "laothang=on"], ["laothang", "lao-thang"]),
        (["win", *HAND4, "7s", "7s", "7s", "--with", "7s"], ["Thất Sách", "4"]),
        (["win", *HAND4, "--with", "7s", "--laid", "2v 3v"], ["Nhì Vạn + Tam Vạn"]),
        (["win", *HAND4, "--with", "7s", "--opening"], ["--with"]),
        (["win", "--players", "6"], ["--players"]),
        (["nonsense"], ["nonsense"]),
    ],
)
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                           words: list[str]) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    for w in words:
        assert w in err


def test_bad_table_exits_150(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from chanspec.model import table as shared_table

    bad = tmp_path / "house.toml"
    text = shared_table.builtin_path("family").read_text(encoding="utf-8")
    bad.write_text(text.replace('default = "never"', 'default = "sometimes"'), encoding="utf-8")
    code, _, err = run(capsys, "win", *HAND4, "--with", "7s", "--ruleset", str(bad))
    assert code == 150
    assert f"{bad}: reclaim-deadline.default" in err and "sometimes" in err
    bad.write_text(text.replace("copies = 4", "copies = = 4"), encoding="utf-8")
    code, _, err = run(capsys, "questions", "--ruleset", str(bad))
    assert code == 150 and "line " in err and "not valid TOML" in err
    code, _, err = run(capsys, "win", *HAND4, "--with", "7s", "--ruleset", "nope")
    names = ", ".join(shared_table.builtin_names())
    assert code == 2 and f"built-in rulesets are {names}" in err  # a usage error
    assert "spec/family.toml" not in err and len(err.splitlines()) == 1


def test_internal_error_has_no_traceback(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(cmd_win, "judge", boom)
    monkeypatch.delenv("CHANSPEC_DEBUG", raising=False)
    code, _, err = run(capsys, "win", *HAND4, "--with", "7s")
    assert code == cli.EXIT_INTERNAL and "simulated bug" in err and "CHANSPEC_DEBUG" in err


# --------------------------------------------------------------------------- JSONL


def jsonl(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
          lines: list[str], *extra: str) -> tuple[int, list[dict[str, object]]]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(x + "\n" for x in lines)))
    code, out, _ = run(capsys, "win", "--jsonl", *extra)
    return code, [json.loads(x) for x in out.splitlines()]


def test_jsonl_all_good(capsys: pytest.CaptureFixture[str],
                        monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [
        json.dumps({"hand": HAND4, "with": "7s", "laid": [["2v", "2v"]]}),
        "",
        json.dumps({"players": 5, "hand": HAND5, "with": "7s"}),
        json.dumps({"hand": HAND4 + ["7s"], "kind": "opening"}),
        json.dumps({"hand": [c for c in HAND4 if c != "7s"] + ["chi"], "with": "chi"}),
    ]
    code, out = jsonl(capsys, monkeypatch, lines)
    assert code == 0
    assert [o["win"] for o in out] == [True, True, True, False]
    assert out[0]["pairs"][0] == ["2v", "2v"] and out[1]["chan"] == 10
    assert out[3]["rules"] == ["yeu-never-completes"]
    assert all(set(o) == {"win", "chan", "pairs", "rules", "reason"} for o in out)


def test_jsonl_malformed_lines_do_not_stop_the_batch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    good = json.dumps({"hand": HAND4, "with": "7s"})
    lines = [
        "not json",
        good,
        "[1, 2]",
        json.dumps({"hand": ["zz"], "with": "7s"}),
        json.dumps({"hand": HAND4, "with": "7s", "options": {"lao-thang": "x"}}),
        json.dumps({"hand": HAND4, "with": 7}),
        json.dumps({"hand": HAND4, "with": "7s", "kind": "big"}),
        json.dumps({"hand": HAND4, "with": "7s", "colour": "red"}),
        json.dumps({"with": "7s"}),
        json.dumps({"hand": HAND4, "with": "7s", "laid": [["2v", "3v"]]}),
        json.dumps({"hand": HAND4, "kind": "opening", "with": "7s"}),
        json.dumps({"hand": HAND4, "with": "7s", "players": "four"}),
        good,
    ]
    code, out = jsonl(capsys, monkeypatch, lines)
    assert code == 2
    assert len(out) == len(lines)
    assert out[1]["win"] is True and out[-1]["win"] is True
    for n, o in enumerate(out, 1):
        if n in (2, len(lines)):
            continue
        assert set(o) == {"error", "line"} and o["line"] == n and o["error"], o
    assert "JSON" in str(out[0]["error"]) and "zz" in str(out[3]["error"])
    assert "colour" in str(out[7]["error"])


def test_jsonl_options_from_command_line(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    hand = "2v 2v 3n 3n 4s 4s 5v 5v 6n 6n 8v 8v 9n 9n 2n 2n 3s 3s 4v 4v lao thang 1v".split()
    line = json.dumps({"hand": hand, "with": "1v"})
    on = json.dumps({"hand": hand, "with": "1v", "options": {"lao-thang": "on"}})
    code, out = jsonl(capsys, monkeypatch, [line, on], "--option", "lao-thang=off")
    assert code == 0 and out[0]["win"] is False and out[1]["win"] is True


def test_jsonl_rejects_command_line_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "win", "--jsonl", "2v")
    assert code == 2 and "stdin" in err


def test_jsonl_two_chi_chi_in_a_list_are_two_cards(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    hand = [c for c in HAND4 if c not in ("3s",)] + ["chi", "chi"]
    code, out = jsonl(capsys, monkeypatch, [json.dumps({"hand": hand, "with": "7s"})])
    assert code == 0 and out[0]["win"] is True
    assert ["chi", "chi"] in out[0]["pairs"]


def test_jsonl_hand_and_laid_as_strings_follow_one_rule(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [json.dumps({"hand": " ".join(HAND4), "with": "7s"}),
             json.dumps({"hand": HAND4, "with": "7s", "laid": "2v 2v"}),
             json.dumps({"hand": HAND4, "with": "7s", "laid": ["2v 2v"]})]
    code, out = jsonl(capsys, monkeypatch, lines)
    assert code == 2
    assert all("list" in str(o["error"]) for o in out)


def test_win_with_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "win", *HAND4, "--with", "7s", "--with", "8s")
    assert code == 2 and "--with given twice" in err


# --------------------------------------------------------------------------- help, language


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import metadata

    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"chanspec {metadata.version('chanspec')}"


@pytest.mark.parametrize("command", [cli._command_name(m) for m in cli.command_modules()])
def test_every_command_help_lists_the_exit_codes(capsys: pytest.CaptureFixture[str],
                                                 command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    tail = out.split("exit codes:", 1)[1]
    for c in ("0 ", "2 ", "70 ", "130 ", "150 "):
        assert f"\n  {c}" in tail, (command, c)
    if command == "replay":
        assert "\n  4 " in tail and "unfinished" in tail
    if command == "check":
        assert all(f"\n  {c} " in tail for c in ("11", "12", "13"))


def test_play_in_english_names_the_noc_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--seed", "3", "--lang", "en")
    assert code == 0 and "nọc / nọc" not in out and "\n  nọc: " in out


def test_questions_in_english_are_english_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "questions", "--lang", "en")
    assert code == 0 and out.startswith("# Open questions\n")
    for vi in ("Câu hỏi", "giá trị", "mặc định", "Tình huống", "Trạng thái", " / "):
        assert vi not in out, vi
    code, both, _ = run(capsys, "questions")
    assert both.startswith("# Câu hỏi còn mở / Open questions")


def test_english_numbers_and_articles() -> None:
    from chanspec.checks.output import count, with_article

    assert [count(1, "deal"), count(2, "deal"), count(1, "step"), count(1500, "state")] == [
        "1 deal", "2 deals", "1 step", "1,500 states"]
    assert [with_article(w) for w in ("open row", "provisional row", "'eat' line",
                                      "'discard' line", "8-player hand", "4-player hand",
                                      "'u' line")] == [
        "an open row", "a provisional row", "an 'eat' line", "a 'discard' line",
        "an 8-player hand", "a 4-player hand", "a 'u' line"]


def test_replay_says_who_won_in_a_sentence(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import random

    from chanspec.checks.conform import logs
    from chanspec.model.chan import table
    from chanspec.model.chan.game import State, random_playout

    for seed in range(40):
        st = State.new(table.rules("family", 4), seed=seed)
        random_playout(st, random.Random(seed))
        if (st.outcome() or {}).get("result") == "win":
            break
    p = tmp_path / "g.ndjson"
    p.write_text(logs.dumps(logs.record(st.rules, st.deal, st.history)), encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(p), "--lang", "en")
    assert code == 0 and "the hand is seat" not in out
    assert f"; seat {st.outcome()['winner']} won (" in out
