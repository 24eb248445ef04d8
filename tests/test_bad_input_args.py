"""Arguments that were accepted without a word (issue 31, item 6), each now a clear
answer: the exit code and the one line that says what is wrong.

* ``--option`` given twice with two values (the last used to win silently);
* ``score --declare`` naming no cước or an empty one between commas, ``score --dealt``
  with a number of cards no seat is dealt;
* ``score --frequency N`` and ``play --hands N`` above the one limit
  (`options.MAX_HANDS`), with the time asked for estimated;
* several runs writing pictures and files into one folder at once: each keeps every
  file (temporary names are unique per process).

The commands run in-process from an empty folder (no file may appear there).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from chanspec.checks.cli import app as cli
from chanspec.checks.cli import options
from conftest import needs_renderer

HAND = "5v 5v 3n 3n 4s 4s 7v 7v 9n 9n 2n 2s 3v 3s 6n 6s 7n 7s 4n".split()
TWICE = ["--option", "lao-thang=off", "--option", "lao-thang=on"]
TWICE_MSG = "--option lao-thang is given twice, as 'off' and 'on'"

# (id, argv, exit code, words the message's line must hold)
CASES: list[tuple[str, list[str], int, tuple[str, ...]]] = [
    ("option-twice-play", ["play", *TWICE], 2, (TWICE_MSG,)),
    ("option-twice-play-classic", ["play", "--ruleset", "classic", "--option",
                                   "pay-payers=each", "--option", "pay-payers=giver"], 2,
     ("--option pay-payers is given twice", "'each'", "'giver'")),
    ("option-twice-win", ["win", "2v", "2v", "--with", "3v", *TWICE], 2, (TWICE_MSG,)),
    ("option-twice-check", ["check", "--quick", *TWICE], 2, (TWICE_MSG,)),
    ("option-twice-explore", ["explore", "--profile", "ci", "--seed", "1", *TWICE], 2,
     (TWICE_MSG,)),
    ("option-twice-score", [*HAND, "--card", "4n", "--option", "pay-payers=each",
                            "--option", "pay-payers=giver"], 2,
     ("--option pay-payers is given twice",)),
    ("option-twice-spaces", ["play", "--option", "lao-thang = off", "--option",
                             "lao-thang=on"], 2, (TWICE_MSG,)),
    ("declare-commas", [*HAND, "--card", "4n", "--declare", ",,,"], 2,
     ("--declare ',,,' names no cước", "--declare chi,bach-thu")),
    ("declare-empty", [*HAND, "--card", "4n", "--declare", ""], 2,
     ("--declare '' names no cước",)),
    ("declare-double-comma", [*HAND, "--card", "4n", "--declare", "chi,,tom"], 2,
     ("--declare 'chi,,tom' has an empty name",)),
    ("declare-trailing-comma", [*HAND, "--card", "4n", "--declare", "chi,tom,"], 2,
     ("has an empty name",)),
    ("dealt-two", [*HAND, "--card", "4n", "--dealt", "2v 3v"], 2,
     ("--dealt names 2 cards", "19 or 20")),
    ("dealt-too-many", [*HAND, "--card", "4n", "--dealt", " ".join(HAND + ["9s", "9s"])], 2,
     ("--dealt names 21 cards", "19 or 20")),
    ("dealt-two-players", [*HAND, "--card", "4n", "--players", "2", "--dealt", "2v"], 2,
     ("--dealt names 1 cards", "2 players")),
    ("frequency-huge", ["--frequency", str(10**12)], 2,
     ("1,000,000,000,000 hands is more than the limit of 100,000", "years")),
    ("frequency-over", ["--frequency", str(options.MAX_HANDS + 1)], 2,
     ("100,001 hands is more than the limit of 100,000", "minutes")),
    ("frequency-expression", ["--frequency", "10**12"], 2,
     ("expected a whole number of hands", "'10**12'")),
    ("hands-huge", ["play", "--ruleset", "classic", "--hands", str(10**9)], 2,
     ("--hands: 1,000,000,000 hands is more than the limit of 100,000", "days")),
    ("hands-word", ["play", "--ruleset", "classic", "--hands", "many"], 2,
     ("--hands: expected a whole number of hands", "'many'")),
]


def _argv(args: list[str]) -> list[str]:
    commands = {"play", "win", "check", "explore", "score"}
    return args if args[0] in commands else ["score", *args]


@pytest.mark.parametrize("case_id, args, code, words", CASES, ids=[c[0] for c in CASES])
def test_argument_gets_one_clear_line(case_id: str, args: list[str], code: int,
                                      words: tuple[str, ...], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    got = cli.main(_argv(args))
    out, err = capsys.readouterr()
    assert got == code, (got, out, err)
    assert "Traceback" not in err
    # the message is one line of its own (after argparse's usage or the kind of error)
    line = [ln for ln in err.splitlines() if all(w in ln for w in words)]
    assert len(line) == 1, err
    assert list(tmp_path.iterdir()) == []


def test_the_same_option_twice_with_one_value_is_one_choice(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["win", *"2v 2v".split(), "--with", "3v", "--option", "lao-thang=off",
                     "--option", "lao-thang=off", "--json"]) == 0
    capsys.readouterr()


def test_the_limit_is_in_each_help(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["score", "--help"], ["play", "--help"]):
        with pytest.raises(SystemExit):
            cli.build_parser().parse_args(argv)
        assert f"at most {options.MAX_HANDS:,}" in " ".join(capsys.readouterr().out.split())


def test_a_count_at_the_limit_is_accepted() -> None:
    assert options.hand_count("--hands")(str(options.MAX_HANDS)) == options.MAX_HANDS


# --------------------------------------------------------------------------- one folder

WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from chanspec.checks.output import write_atomic
    from chanspec.checks.report import diagrams
    folder, me = Path(sys.argv[1]), sys.argv[2]
    for i in range(3):
        dot = folder / f"g{i}.{me}.dot"
        dot.write_text("digraph g { a -> b%s }" % i, encoding="utf-8")
        diagrams.render(dot, folder / f"g{i}.svg", "svg")
        write_atomic(folder / f"t{i}.txt", me * 100)
""")


@needs_renderer
def test_runs_into_one_folder_at_once_keep_every_picture(tmp_path: Path) -> None:
    """Three processes render the same pictures and write the same files into one folder
    at the same time: every picture is there, whole, and no temporary file is left."""
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), me],
                              stderr=subprocess.PIPE, text=True) for me in "abc"]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    for i in range(3):
        svg = (tmp_path / f"g{i}.svg").read_text(encoding="utf-8")
        assert svg.rstrip().endswith("</svg>"), svg[-200:]
        assert (tmp_path / f"t{i}.txt").read_text(encoding="utf-8") in {
            me * 100 for me in "abc"}
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_the_docs_state_the_limit_and_the_default_rate_of_the_code() -> None:
    from chanspec.checks.report import narrate

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    chan = (root / "docs" / "chan.md").read_text(encoding="utf-8")
    assert f"at most {options.MAX_HANDS:,}" in readme and f"at most {options.MAX_HANDS:,}" in chan
    assert f"default {narrate.DECLARE_MISTAKES}" in readme
    assert f"default {narrate.DECLARE_MISTAKES}:" in chan
