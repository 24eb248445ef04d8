"""What a classic player reads (issue 31, item 8), compared exactly with committed
transcripts, and the random winners' declaration.

The transcripts are `tests/golden/transcripts/*.txt`: one seeded classic session and one
score, in the default language (Vietnamese, English beside it).  After a deliberate
change of the wording, regenerate them with the command in `TRANSCRIPTS` (from any
folder) and read the diff before committing it.

Checked by hand in the score transcript (001 [Cách tính điểm] ¶2: the worth of a win
without thập thành is its dịch plus 3): bạch định 4 dịch + tôm 1 dịch declared, bạch thủ
left out and forfeited (000 [Xướng]), so 5 + 3 = 8, the 8 printed; the payment of each of
the other three players is that worth plus the gà, as `model.pay` settles it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from chanspec.checks.cli import app as cli
from chanspec.checks.report import hand_story, narrate
from chanspec.model.chan import pay, session, table
from chanspec.model.chan.game import Action

GOLDEN = Path(__file__).resolve().parent / "golden" / "transcripts"
SCORE = ("score 5v 5v 3n 3n 4s 4s 7v 7v 9n 9n 2n 2s 3v 3s 6n 6s 7n 7s 4n --laid 5v_5v "
         "--card 4n --source discard --declare bach-dinh,tom")
TRANSCRIPTS = {
    "play-classic-seed7-hands5.txt": "play --ruleset classic --seed 7 --hands 5",
    "score-bach-dinh-discard.txt": SCORE,
}


@pytest.mark.parametrize("name", sorted(TRANSCRIPTS))
def test_transcript_is_exactly_the_committed_one(name: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    argv = [a.replace("_", " ") for a in TRANSCRIPTS[name].split()]
    assert cli.main(argv) == 0
    got = capsys.readouterr().out
    want = (GOLDEN / name).read_text(encoding="utf-8")
    assert got == want, (f"chanspec {TRANSCRIPTS[name]} no longer prints "
                         f"tests/golden/transcripts/{name}")


def test_the_session_transcript_tells_each_hand() -> None:
    text = (GOLDEN / "play-classic-seed7-hands5.txt").read_text(encoding="utf-8")
    assert text.count("  Diễn biến: ") == 5  # how each hand went, drawn ones too
    assert text.count("(en) How it went: ") == 5
    assert "← ù]" in text and "Chắn [" in text  # the winning hands laid out as cards
    assert "ghế 1 trả mỗi ghế 0, 2 và 3 18" in text  # who pays whom, grouped
    for line in text.splitlines():
        if "theo luật:" in line or "by the rules:" in line:
            assert "loi-" not in line and "pay-" not in line, line  # rules in words


def test_bao_is_shown_during_a_session(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--ruleset", "classic", "--seed", "7", "--hands", "2",
                     "--option", "pay-fault=bao", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "is báo from move " in out and "they may only draw, pass and win" in out


# --------------------------------------------------------------------------- declaration

def _acts() -> list[Action]:
    return [Action("declare", 0, cuoc=("cuoc-chi",)), Action("declare", 0, cuoc=()),
            Action("declare", 0, cuoc=("cuoc-chi", "cuoc-tom"))]


@pytest.mark.parametrize("mistakes", [0.0, 0.1, 0.5, 1.0])
def test_the_declaration_is_wrong_at_the_rate_asked(mistakes: float) -> None:
    rng = random.Random(5)
    acts = _acts()
    n = 4000
    wrong = sum(narrate.choose_declaration(acts, rng, mistakes) is not acts[0]
                for _ in range(n))
    # binomial: within 4 standard deviations of n * p
    sd = (n * mistakes * (1 - mistakes)) ** 0.5
    assert abs(wrong - n * mistakes) <= 4 * sd + 1e-9, (wrong, mistakes)


def test_a_lone_declaration_is_the_one_made() -> None:
    act = _acts()[:1]
    assert narrate.choose_declaration(act, random.Random(0), 1.0) is act[0]


def test_winners_declare_rightly_without_mistakes() -> None:
    """With --declare-mistakes 0 every win of a session is declared correctly; the old
    players (None) keep their uniform choice, which the explorations use."""
    rules = table.rules("classic", 4)
    played, _ = session.play(rules, 12, 7,
                             lambda st, s: narrate.play_out(st, s, "eager", mistakes=0.0))
    wins = [h for h in played if (h.outcome or {}).get("result") == "win"]
    assert wins
    assert all(h.outcome["declaration"]["judgement"] == "correct" for h in wins)
    old, _ = session.play(rules, 12, 7, lambda st, s: narrate.play_out(st, s, "eager"))
    assert [h.deal for h in old][:1] == [h.deal for h in played][:1]


@pytest.mark.parametrize("value, words", [("1.5", "'1.5'"), ("-0.1", "'-0.1'"),
                                          ("often", "'often'"), ("nan", "'nan'")])
def test_a_bad_mistake_rate_is_one_clear_line(value: str, words: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--ruleset", "classic", "--declare-mistakes", value]) == 2
    err = capsys.readouterr().err
    line = [ln for ln in err.splitlines() if "--declare-mistakes" in ln and words in ln]
    assert len(line) == 1 and "expected a rate from 0 to 1" in line[0], err


def test_a_non_default_rate_is_in_the_replay_command(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    assert cli.main(["play", "--ruleset", "classic", "--hands", "1",
                     "--declare-mistakes", "0.5", "--lang", "en"]) == 0
    assert "--declare-mistakes 0.5" in capsys.readouterr().out


# --------------------------------------------------------------------------- words

def test_payments_are_grouped_as_said_at_the_table() -> None:
    t = pay.Transfer
    assert pay.moves_words([t(1, 0, 5, ()), t(2, 0, 5, ()), t(3, 0, 5, ())])[1] == (
        "seats 1, 2 and 3 each pay seat 0 5")
    assert pay.moves_words([t(0, 1, 7, ()), t(0, 3, 7, ())])[0] == "ghế 0 trả mỗi ghế 1 và 3 7"
    assert pay.moves_words([t(0, 1, 7, ()), t(2, 3, 8, ())])[1] == (
        "seat 0 pays seat 1 7; seat 2 pays seat 3 8")
    assert pay.moves_words([t(2, 0, 42, ())])[1] == "seat 2 pays seat 0 42"


def test_layout_puts_chan_first_and_marks_the_winning_pair() -> None:
    text = hand_story.layout([["2v", "2n"], ["chi", "chi"], ["3s", "3s"]], "2v")
    assert text == "Chắn [Tam Sách Tam Sách] [Chi Chi Chi Chi] · Cạ [Nhì Vạn Nhì Văn ← ù]"


def test_rule_names_are_words_with_the_reading_in_force() -> None:
    rules = table.rules("classic", 4)
    vi, en = hand_story.rule_names(rules, ["pay-win", "pay-payers", "xuong", "pay-win"])
    assert vi.startswith("Người ù được trả tiền; Ai trả tiền ván ù (")
    assert en.count("The winner is paid") == 1 and "xuong" not in en
