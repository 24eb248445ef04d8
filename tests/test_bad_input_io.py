"""Hostile output paths: every command's output flag × every kind of bad path.

For each: exit 2, one line on stderr naming the path and what is wrong, no traceback, no
exit 70, and nothing created anywhere (the tmp folder, the path's existing parents, the
current folder, the checkout, the system's temporary folder).  Paths are checked before
the long work starts (a `conform` campaign with a bad ``--save`` never starts).  Atomic
writes keep the umask-based mode instead of a temporary file's 0600.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks import output
from chanspec.checks.cli import app as cli
from chanspec.checks.output import OutputPathError, check_output_file, write_atomic

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_LOG = ROOT / "tests" / "golden" / "01_pass_chan_ban.json"
PY = sys.executable
# an engine that would never answer: a campaign that started would take the whole timeout
NEVER_ANSWERS = f"{PY} -c 'import time; time.sleep(60)'"
PSEUDO = (Path("/proc"), Path("/sys"))

# command line for each output flag; PATH is replaced by the hostile path
FILE_FLAGS: dict[str, list[str]] = {
    "play --out": ["play", "--seed", "1", "--out", "PATH"],
    "questions --write": ["questions", "--write", "PATH"],
    "replay --itf": ["replay", str(GOLDEN_LOG), "--itf", "PATH"],
    "conform --save": ["conform", "--impl", NEVER_ANSWERS, "--hands", "1", "--seed", "1",
                       "--timeout", "30", "--save", "PATH"],
}
DIR_FLAGS: dict[str, list[str]] = {
    "check --out": ["check", "--quick", "--no-write", "--quiet", "--out", "PATH"],
    "report --out": ["report", "--out", "PATH", "--from", "NONE"],
    "vectors --out": ["vectors", "--out", "PATH"],
    "explore --save": ["explore", "--seed", "1", "--games", "2", "--save", "PATH"],
}


# each kind: (tmp) -> (path, words the message must contain)
def _missing_parent(t: Path) -> tuple[Path, str]:
    return t / "no-such-folder" / "out.txt", "does not exist"


def _a_folder(t: Path) -> tuple[Path, str]:
    (t / "a-folder").mkdir()
    return t / "a-folder", "is a folder"


def _under_a_file(t: Path) -> tuple[Path, str]:
    (t / "plain.txt").write_text("x")
    return t / "plain.txt" / "out.txt", "is a file, not a folder"


def _deep_under_a_file(t: Path) -> tuple[Path, str]:
    (t / "plain.txt").write_text("x")
    return t / "plain.txt" / "sub" / "out.txt", "is a file, not a folder"


def _in_proc(t: Path) -> tuple[Path, str]:
    return Path("/proc/chanspec-out.txt"), "cannot create"


def _in_sys(t: Path) -> tuple[Path, str]:
    return Path("/sys/chanspec-out.txt"), "cannot create"


def _trailing_slash(t: Path) -> tuple[Path, str]:
    return Path(f"{t / 'new-folder'}/"), "expected the name of a file"


def _a_file(t: Path) -> tuple[Path, str]:
    (t / "plain.txt").write_text("x")
    return t / "plain.txt", "is a file where a folder is expected"


def _dir_under_a_file(t: Path) -> tuple[Path, str]:
    (t / "plain.txt").write_text("x")
    return t / "plain.txt" / "site", "is a file, not a folder"


def _dir_in_proc(t: Path) -> tuple[Path, str]:
    return Path("/proc/chanspec-out"), "cannot create the folder"


def _proc_itself(t: Path) -> tuple[Path, str]:
    return Path("/proc"), "cannot create a file in the folder"


FILE_KINDS: dict[str, Callable[[Path], tuple[Path, str]]] = {
    "missing-parent": _missing_parent, "a-folder": _a_folder, "under-a-file": _under_a_file,
    "deep-under-a-file": _deep_under_a_file, "in-proc": _in_proc, "in-sys": _in_sys,
    "trailing-slash": _trailing_slash,
}
DIR_KINDS: dict[str, Callable[[Path], tuple[Path, str]]] = {
    "a-file": _a_file, "under-a-file": _dir_under_a_file, "in-proc": _dir_in_proc,
    "proc-itself": _proc_itself,
}
CASES = ([(flag, kind, FILE_FLAGS[flag], FILE_KINDS[kind])
          for flag in FILE_FLAGS for kind in FILE_KINDS]
         + [(flag, kind, DIR_FLAGS[flag], DIR_KINDS[kind])
            for flag in DIR_FLAGS for kind in DIR_KINDS])


def _listing(folder: Path) -> set[str] | None:
    try:
        return set(os.listdir(folder))
    except OSError:
        return None


def _tree(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def _watched(path: Path, cwd: Path) -> list[Path]:
    """Folders where a stray file could appear: the path's existing ancestors (not the
    pseudo file systems, whose listings change by themselves), cwd, the checkout, /, the
    system's temporary folder."""
    out = [cwd, ROOT, Path("/"), Path(tempfile.gettempdir())]
    for p in [path, *path.parents]:
        if p.is_dir() and not any(p == q or q in p.parents for q in PSEUDO):
            out.append(p)
    return list(dict.fromkeys(out))


def _stray(names: set[str]) -> set[str]:
    """Names that look like chanspec's temporary files (the shared /tmp: only these)."""
    return {n for n in names if n.endswith(".tmp") or n.startswith(".chanspec-probe")}


def test_there_are_at_least_thirty_hostile_output_paths() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize(("flag", "kind", "argv", "make"), CASES,
                         ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_a_bad_output_path_is_one_clear_line_and_exit_2(
        flag: str, kind: str, argv: list[str], make: Callable[[Path], tuple[Path, str]],
        tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    work = tmp_path / "work"
    work.mkdir()
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    path, words = make(work)
    shown = f"{path}/" if kind == "trailing-slash" else str(path)
    args = [shown if a == "PATH" else str(tmp_path / "none") if a == "NONE" else a
            for a in argv]
    watched = _watched(path, cwd)
    before = {w: _listing(w) for w in watched}
    before_tree = _tree(tmp_path)
    t0 = time.monotonic()
    code = cli.main(args)
    took = time.monotonic() - t0
    err = capsys.readouterr().err
    assert code == 2, (code, err)
    assert "Traceback" not in err and "internal error" not in err
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, err
    assert f"'{shown}'" in lines[0] and words in lines[0], lines[0]
    # checked before the work starts: no campaign, no generation, no exploration
    assert took < 20, f"{flag} did its work before refusing {path}: {took:.1f}s"
    assert _tree(tmp_path) == before_tree, "a file was created under the test folder"
    for w in watched:
        after = _listing(w)
        if w == tmp_path or tmp_path in w.parents:
            assert after == before[w], (w, (after or set()) ^ (before[w] or set()))
        else:  # shared with other processes: only chanspec's kind of stray file counts
            assert _stray(after or set()) <= _stray(before[w] or set()), w


@pytest.mark.parametrize("argv", [["play", "--out", ""], ["replay", str(GOLDEN_LOG), "--itf", ""],
                                  ["conform", "--impl", NEVER_ANSWERS, "--save", ""]],
                         ids=["play", "replay", "conform"])
def test_an_empty_output_path(argv: list[str], tmp_path: Path, monkeypatch: Any,
                              capsys: Any) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "cannot write '': expected the name of a file" in err and len(err.splitlines()) == 1
    assert os.listdir(tmp_path) == []


def test_a_file_that_is_not_writable(tmp_path: Path, capsys: Any) -> None:
    if os.geteuid() == 0:
        pytest.skip("runs as root, who may write any file whatever its mode; the cases "
                    "under a regular file, /proc and /sys fail even for root")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert cli.main(["play", "--out", str(folder / "x.txt")]) == 2
        assert "no permission" in capsys.readouterr().err
    finally:
        folder.chmod(0o700)


def test_conform_with_a_bad_save_path_fails_before_the_campaign(tmp_path: Path,
                                                                capsys: Any) -> None:
    """The engine never answers: a campaign that started would wait for it."""
    t0 = time.monotonic()
    code = cli.main(["conform", "--impl", NEVER_ANSWERS, "--hands", "1", "--timeout", "30",
                     "--save", str(tmp_path / "missing" / "x.ndjson")])
    assert code == 2 and time.monotonic() - t0 < 10
    assert "does not exist" in capsys.readouterr().err


def test_conform_json_writes_nothing_into_the_current_folder(tmp_path: Path, monkeypatch: Any,
                                                             capsys: Any) -> None:
    import json

    monkeypatch.chdir(tmp_path)
    engine = f"{PY} {ROOT / 'tests' / 'engines' / 'misbehave.py'} crash"
    code = cli.main(["conform", "--impl", engine, "--hands", "1", "--seed", "1", "--json",
                     "--shrink-budget", "2", "--players", "4"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["result"] == "engine-error"
    assert os.listdir(tmp_path) == []
    assert data["log"] is None and data["game_log"][0]["type"] == "header"


# --------------------------------------------------------------------------- write_atomic


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077])
def test_atomic_writes_get_the_umask_mode(tmp_path: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        write_atomic(tmp_path / "new.md", "x\n")
        plain = tmp_path / "plain.md"
        plain.write_text("x\n")
    finally:
        os.umask(old)
    got = stat.S_IMODE((tmp_path / "new.md").stat().st_mode)
    assert got == 0o666 & ~mask == stat.S_IMODE(plain.stat().st_mode)


def test_atomic_writes_keep_the_mode_of_the_file_they_replace(tmp_path: Path) -> None:
    target = tmp_path / "kept.md"
    target.write_text("old\n")
    target.chmod(0o640)
    write_atomic(target, "new\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and target.read_text() == "new\n"


def test_the_commands_files_get_the_umask_mode(tmp_path: Path, capsys: Any) -> None:
    """OPEN_QUESTIONS.md (questions --write), a played game, the report's pages."""
    old = os.umask(0o022)
    try:
        assert cli.main(["questions", "--write", str(tmp_path / "OPEN_QUESTIONS.md")]) == 0
        assert cli.main(["play", "--out", str(tmp_path / "game.txt")]) == 0
        assert cli.main(["report", "--out", str(tmp_path / "site"),
                         "--from", str(tmp_path / "none")]) == 0
    finally:
        os.umask(old)
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) >= 6
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in files} == {
        p.name: 0o644 for p in files}


def test_a_failed_replace_leaves_no_temporary_file(tmp_path: Path, monkeypatch: Any) -> None:
    def refuse(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(output.os, "replace", refuse)
    with pytest.raises(OutputPathError, match="No space left"):
        write_atomic(tmp_path / "x.txt", "x")
    assert os.listdir(tmp_path) == []


def test_the_up_front_check_leaves_nothing(tmp_path: Path) -> None:
    check_output_file(tmp_path / "x.txt")
    assert os.listdir(tmp_path) == []
    with pytest.raises(OutputPathError, match="is a folder"):
        check_output_file(tmp_path)


def test_everything_under_the_checks_output_folder_gets_the_umask_mode(
        tmp_path: Path, capsys: Any) -> None:
    """`chanspec check` writes findings, the report, ITF traces, scenarios and pictures."""
    out = tmp_path / "check"
    old = os.umask(0o022)
    try:
        code = cli.main(["check", "--quick", "--scales", "five=2", "--no-write", "--quiet",
                         "--out", str(out), "--option", "empty-hand=as-written"])
    finally:
        os.umask(old)
    assert code == 11  # a deadlock: an ITF trace and a scenario are written too
    files = sorted(p for p in out.iterdir() if p.is_file())
    kinds = {p.name.split(".", 1)[1] for p in files}
    assert {"json", "txt", "itf.json", "dot"} <= kinds
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in files} == {
        p.name: 0o644 for p in files}


def test_a_folder_that_may_not_be_looked_into(tmp_path: Path, monkeypatch: Any) -> None:
    """What a non-root user meets under a folder without the x bit (simulated: tests run
    as root, for whom the bit does not count)."""
    locked = tmp_path / "locked"
    real_stat = Path.stat

    def stat_(self: Path, *a: Any, **k: Any) -> Any:
        if self == locked:
            raise PermissionError(13, "Permission denied")
        return real_stat(self, *a, **k)

    monkeypatch.setattr(Path, "stat", stat_)
    with pytest.raises(OutputPathError, match="cannot look into .*locked"):
        check_output_file(locked / "x.txt")
    with pytest.raises(OutputPathError, match="cannot look into .*locked"):
        output.prepare_output_dir(locked / "site")
