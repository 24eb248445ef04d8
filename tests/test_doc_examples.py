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

import re
import shlex
import shutil
import subprocess
import sys
import textwrap
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
    for c in block[: block.index(cmd) + 1]:
        argv, out_file = _adapt(c, tmp_path)
        r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, (name, c, r.stderr[-1500:])
        if out_file is not None:
            out_file.write_text(r.stdout, encoding="utf-8")


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
