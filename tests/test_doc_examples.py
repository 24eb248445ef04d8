"""Every command the README and docs/ show runs as shown.

Each ```sh block of README.md and docs/*.md is run line by line in a scratch folder (exit
0 expected), and each ```console block's command is run and every line it shows (up to an
elision "…") must be in what the command prints.  Three kinds of line are adapted, and
each adaptation is stated here: the README's two set-up commands are what `.ci/run`
runs (only their shape is checked: `python3` for the venv, the README's test command);
`chanspec settle` would edit the project's own table, so it runs on a copy of it
(`--ruleset COPY`); and a frequency over 10,000 hands (minutes) runs over 20.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CHANSPEC = [sys.executable, "-m", "chanspec.checks.cli"]


def _blocks(kind: str) -> list[tuple[str, str]]:
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for i, m in enumerate(re.finditer(rf"```{kind}\n(.*?)^ *```", text, re.S | re.M)):
            out.append((f"{path.relative_to(ROOT)}#{kind}{i}", textwrap.dedent(m.group(1))))
    return out


SH = [(name, line.split("#", 1)[0].strip() if " # " in line else line.strip())
      for name, body in _blocks("sh") for line in body.splitlines() if line.strip()]
# what a shown command's comment says it does (``cmd   # a won hand``), by command
SAYS = {line.split(" # ", 1)[0].strip(): line.split(" # ", 1)[1].strip()
        for _, body in _blocks("sh") for line in body.splitlines() if " # " in line}
SETUP = [(n, c) for n, c in SH if c.startswith("python3 -m venv")]
RUN = [(n, c) for n, c in SH if c.startswith("chanspec ")]


def test_every_shown_command_is_classified() -> None:
    assert len(SETUP) + len(RUN) == len(SH), [c for n, c in SH if (n, c) not in SETUP + RUN]
    assert RUN, "no chanspec example found in README.md or docs/"


def test_the_readme_set_up_commands_need_only_python3() -> None:
    readme = [c for n, c in SETUP if n.startswith("README.md")]
    assert len(readme) == 2, readme
    check, tests = readme
    assert check.endswith("pip install -e . && chanspec check")
    assert tests.endswith("pip install -e '.[dev]' && python -m pytest -q")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'TEST_CMD="python -m pytest -q"' in ci
    # nothing before the venv is activated may call `python` (absent where only python3 is)
    for c in readme:
        before = c.split(". .venv/bin/activate", 1)[0]
        assert not re.search(r"(^|[\s;&|])python(\s|$)", before), c


def _adapt(cmd: str, tmp: Path) -> tuple[list[str], Path | None]:
    """The argv to run for a shown command, and the file its stdout goes to (if any)."""
    out_file = None
    if ">" in cmd:
        cmd, target = cmd.split(">", 1)
        out_file = tmp / target.strip()
    argv = shlex.split(cmd)
    if argv[1] == "settle":
        copy = tmp / "family.toml"
        shutil.copy(ROOT / "spec" / "family.toml", copy)
        argv += ["--ruleset", str(copy)]
    if "--frequency" in argv:
        argv[argv.index("--frequency") + 1] = "20"
    return CHANSPEC + argv[1:], out_file


@pytest.mark.parametrize("name,cmd", RUN, ids=[f"{n}:{c[:40]}" for n, c in RUN])
def test_shown_command_runs(name: str, cmd: str, tmp_path: Path) -> None:
    # the commands of one block run in order in one folder (a log written, then read)
    block = [c for n, c in RUN if n == name]
    if "--cluster ray" in cmd and importlib.util.find_spec("ray") is None:
        pytest.skip("Ray is not installed: pip install -e '.[dev,cluster]' runs this one")
    for c in block[: block.index(cmd) + 1]:
        argv, out_file = _adapt(c, tmp_path)
        r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (name, c, r.stderr[-1500:])
        if out_file is not None:
            out_file.write_text(r.stdout, encoding="utf-8")
    if cmd in SAYS:
        EFFECTS[SAYS[cmd]](cmd, tmp_path)


def _won_log(cmd: str, folder: Path) -> None:
    """The log the command wrote (``--out FILE``) records a won hand."""
    argv = shlex.split(cmd)
    lines = (folder / argv[argv.index("--out") + 1]).read_text(encoding="utf-8").splitlines()
    end = json.loads(lines[-1])
    assert end["type"] == "end" and end["result"] == "win", (cmd, end)


# what each comment of a shown command claims, checked after it ran (a new comment needs
# a checker here: test_every_stated_effect_is_checked)
EFFECTS: dict[str, Callable[[str, Path], None]] = {"a won hand": _won_log}


def test_every_stated_effect_is_checked() -> None:
    assert set(SAYS.values()) <= set(EFFECTS), set(SAYS.values()) - set(EFFECTS)


CONSOLE = [(n, b) for n, b in _blocks("console")]


@pytest.mark.parametrize("name,body", CONSOLE, ids=[n for n, _ in CONSOLE])
def test_shown_transcript_is_what_the_command_prints(name: str, body: str,
                                                     tmp_path: Path) -> None:
    lines = body.splitlines()
    assert lines[0].startswith("$ chanspec "), (name, lines[0])
    argv, _ = _adapt(lines[0][2:], tmp_path)
    r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (name, r.stderr[-1500:])
    printed = r.stdout
    for shown in lines[1:]:
        piece = shown.strip()
        if not piece or piece == "…":
            continue
        # a shown line may elide its start or its end with "…"; what is left must be there
        for frag in filter(None, (f.strip() for f in piece.split("…"))):
            assert frag in printed, (name, frag, printed[-3000:])


# --------------------------------------------------------------------------- README table

def _table_examples() -> list[str]:
    """The concrete commands of the README's table of commands (first column): those
    without a placeholder (FILE, N, CARDS …), an alternative or an optional part."""
    out = []
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        if not line.startswith("| `chanspec"):
            continue
        cell = line.split(" | ", 1)[0]
        for cmd in re.findall(r"`(chanspec [^`]*)`", cell):
            if not re.search(r"\b[A-Z]{1,}\b|[\[|…]", cmd.replace("\\|", "|")):
                out.append(cmd)
    return out


TABLE = _table_examples()


def _narrates_a_family_game(r: subprocess.CompletedProcess[str]) -> None:
    # "narrates a random game in Vietnamese": the deal, numbered moves, the end, replay
    out = r.stdout
    assert "Bài chia" in out and "  1. " in out and "Kết thúc:" in out, out[:2000]
    assert "(en) " in out and "Phát lại: chanspec play --players 5 --seed 7" in out


def _a_classic_session(r: subprocess.CompletedProcess[str]) -> None:
    # "who draws each cái and why, how each hand ended, who paid whom with the rows
    # behind it, the running totals, and the command that plays each hand again"
    out = r.stdout
    for k in range(1, 11):
        assert f"Ván {k} (hạt giống {6 + k})" in out, k
        assert f"Sau ván {k}:" in out, k
    assert out.count("bốc cái được") == 10
    assert out.count("Tính tiền:") == 10 and out.count("theo luật:") == 10
    assert "ù với" in out and "ván hòa" in out  # wins and drawn hands, each told
    assert "Tổng cả buổi:" in out
    assert out.count("Chơi lại ván này: chanspec play --ruleset classic --players 4") == 10


def _serves(r: subprocess.CompletedProcess[str]) -> None:
    answers = [json.loads(x) for x in r.stdout.splitlines()]
    assert answers[-1] == {"ok": True, "id": 5}, answers


# each concrete command of the table: (stdin, what its description says, checked)
TABLE_EFFECTS: dict[str, tuple[str, Callable[[subprocess.CompletedProcess[str]], None]]] = {
    "chanspec play --players 5 --seed 7": ("", _narrates_a_family_game),
    "chanspec play --ruleset classic --players 4 --seed 7 --hands 10": ("", _a_classic_session),
    "chanspec serve": ('{"op":"outcome","id":4}\n{"op":"quit","id":5}\n', _serves),
}


def test_every_concrete_table_command_has_its_effect_checked() -> None:
    assert TABLE and sorted(TABLE) == sorted(TABLE_EFFECTS), TABLE


@pytest.mark.parametrize("cmd", sorted(TABLE_EFFECTS))
def test_table_command_does_what_its_row_says(cmd: str, tmp_path: Path) -> None:
    stdin, check = TABLE_EFFECTS[cmd]
    r = subprocess.run(CHANSPEC + shlex.split(cmd)[1:], cwd=tmp_path, input=stdin,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-1500:]
    check(r)


def test_a_session_hand_replays_alone_as_docs_chan_says(tmp_path: Path) -> None:
    """docs/chan.md: `chanspec play --ruleset classic --seed 11 --drawer 2 --thong 2` plays
    hand 5 of the session of seed 7 on its own: the same moves and the same end."""
    text = (ROOT / "docs" / "chan.md").read_text(encoding="utf-8")
    shown = "chanspec play --ruleset classic --seed 11 --drawer 2 --thong 2"
    assert f"`{shown}`" in text
    one = subprocess.run(CHANSPEC + shlex.split(shown)[1:] + ["--json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120, check=True)
    session = subprocess.run(CHANSPEC + ["play", "--ruleset", "classic", "--seed", "7",
                                         "--hands", "5", "--json"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120, check=True)
    hand2 = [json.loads(x) for x in session.stdout.splitlines()][5]
    assert hand2["replay"].endswith("--seed 11 --drawer 2 --thong 2"), hand2["replay"]
    log = [json.loads(x) for x in one.stdout.splitlines()]
    assert log[0]["deal"]["hands"] == hand2["deal"]["hands"]
    assert log[-1]["type"] == "end" and log[-1]["result"] == hand2["outcome"]["result"]
    assert len([x for x in log if x["type"] == "fault"]) == len(hand2["outcome"]["faults"])


# --------------------------------------------------------------------------- --help

def _help_examples() -> list[tuple[str, str]]:
    from chanspec.checks.cli import app

    parser = app.build_parser()
    sub = next(a for a in parser._actions if a.choices and "play" in a.choices)
    out = []
    for name, p in sub.choices.items():
        for line in (p.epilog or "").splitlines():
            if line.startswith("  chanspec "):
                out.append((name, line.strip()))
    return out


HELP = _help_examples()


@pytest.mark.parametrize("name,cmd", HELP, ids=[f"{n}:{c[:50]}" for n, c in HELP])
def test_help_example_parses(name: str, cmd: str) -> None:
    """Every example of a command's --help is a command line its parser accepts."""
    from chanspec.checks.cli import app

    cmd = cmd.split(" # ", 1)[0].split(">", 1)[0]
    app.build_parser().parse_args(shlex.split(cmd)[1:])


def test_the_help_of_score_shows_a_won_hand(tmp_path: Path) -> None:
    """score --help plays a hand and scores its log: the hand it names is won, and the
    docs name the same one."""
    shown = [c for n, c in HELP if n == "score" and "--out hand.ndjson" in c]
    assert len(shown) == 1, shown
    cmd = shown[0].split(" # ", 1)[0].strip()
    assert SAYS.get(cmd) == "a won hand", (cmd, SAYS)
    subprocess.run(CHANSPEC + shlex.split(cmd)[1:], cwd=tmp_path, check=True,
                   capture_output=True, timeout=120)
    _won_log(cmd, tmp_path)
