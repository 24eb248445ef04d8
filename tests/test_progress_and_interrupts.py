"""Long runs seen from outside: progress lines also when stderr is a file, Ctrl-C without
the pool workers' tracebacks, and an ``explore`` rerun line that repeats every flag."""

from __future__ import annotations

import io
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.chan import packed_search
from chanspec.checks.cli import app as cli
from chanspec.checks.explore import search as explore
from chanspec.checks.findings import compute, witness
from chanspec.checks.output import Ticker
from chanspec.model import table

PY = sys.executable
ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------- progress


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_search_reports_progress_into_a_file_every_few_seconds(monkeypatch: Any) -> None:
    err = io.StringIO()  # not a terminal
    monkeypatch.setattr(sys, "stderr", err)
    prog = explore.Progress("five", file_every=5.0)
    for tenth in range(1, 121):  # 12 seconds, a report every 0.1 s
        prog(tenth // 20, 10, tenth * 100, tenth * 50, tenth / 10)
    prog(10, 10, 12_100, 6_050, 12.1)  # the end is always reported
    lines = err.getvalue().splitlines()
    assert [ln.split()[-1] for ln in lines] == ["5s", "10s", "12s"], lines
    assert all(ln.startswith("  [five] ván/deals") for ln in lines)


def test_the_packed_search_reports_progress_into_a_file(monkeypatch: Any) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    prog = packed_search.TLCProgress("chiu3-packed", file_every=5.0)
    for s in range(2, 21, 2):  # the search reports every 2 s with states queued
        prog(s * 1000, s * 3000, 500, s, float(s))
    prog(21_000, 63_000, 0, 22, 21.0)
    lines = err.getvalue().splitlines()
    assert [ln.split(" at ")[1].split("s:")[0] for ln in lines] == ["2", "8", "14", "20", "21"]
    assert "0 states left on queue" in lines[-1]


def test_a_terminal_still_gets_every_line(monkeypatch: Any) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    prog = packed_search.TLCProgress("x")
    for s in range(2, 11, 2):
        prog(s, s, 1, s, float(s))
    assert len(err.getvalue().splitlines()) == 5


def test_quiet_prints_nothing(monkeypatch: Any) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    explore.Progress("x", quiet=True)(1, 1, 1, 1, 60.0)
    packed_search.TLCProgress("x", quiet=True)(1, 1, 0, 1, 60.0)
    assert err.getvalue() == ""


def test_the_open_questions_phase_says_how_far_the_hands_are() -> None:
    """The full-size phase used to be silent for minutes: it now reports hands done, every
    few seconds of the clock and at the end."""
    clock = FakeClock()
    seen: list[tuple[int, int]] = []
    tick = compute.every_few_seconds(lambda d, t: seen.append((d, t)), Ticker(5.0, clock))
    for done in range(1, 31):
        clock.now = float(done)  # a hand a second
        tick(done, 30)
    assert seen == [(1, 30), (6, 30), (11, 30), (16, 30), (21, 30), (26, 30), (30, 30)]
    rules = table.load("family").resolve(4)
    calls: list[tuple[int, int]] = []
    witness.frequency(rules, [], 3, 1, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


# --------------------------------------------------------------------------- Ctrl-C


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def _interrupt_once_the_pool_runs(argv: list[str]) -> tuple[int, str]:
    """Start argv in its own process group, wait for two pool workers, then Ctrl-C the
    group as a terminal would; returns (exit code, stderr)."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < 2:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the pool never started"
            time.sleep(0.05)
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, err


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_ctrl_c_during_the_search_pool_exits_130_without_worker_tracebacks(
        tmp_path: Path) -> None:
    code, err = _interrupt_once_the_pool_runs(
        [PY, "-m", "chanspec.checks.cli", "check", "--quick", "--no-write", "--quiet",
         "--scales", "ranks2=60", "--workers", "2", "--out", str(tmp_path / "out")])
    assert code == 130, err
    assert "ForkPoolWorker" not in err and "Traceback" not in err, err
    assert "interrupted" in err


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_ctrl_c_during_the_full_size_hands_exits_without_worker_tracebacks() -> None:
    script = ("import sys\n"
              "from chanspec.checks.findings import witness\n"
              "from chanspec.model import table\n"
              "r = table.load('family').resolve(4)\n"
              "try:\n"
              "    witness.frequency(r, [], 100000, 1, workers=2)\n"
              "except KeyboardInterrupt:\n"
              "    sys.exit(130)\n")
    code, err = _interrupt_once_the_pool_runs([PY, "-c", script])
    assert code == 130, err
    assert "ForkPoolWorker" not in err and "Traceback" not in err, err


_COMPUTE = ("import sys\n"
            "from chanspec.checks.findings import compute\n"
            "from chanspec.model import table\n"
            "try:\n"
            "    compute.compute(table.load('family'), {'hands': 100000}, workers=2)\n"
            "except KeyboardInterrupt:\n"
            "    sys.exit(130)\n")


def _spawned(pid: int) -> list[int]:
    """The Z3 process a findings computation starts (a fresh interpreter)."""
    out = []
    for c in _children(pid):
        try:
            if b"z3_all" in Path(f"/proc/{c}/cmdline").read_bytes():
                out.append(c)
        except OSError:
            pass
    return out


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_ctrl_c_while_z3_runs_beside_the_findings_stops_it_too() -> None:
    proc = subprocess.Popen([PY, "-c", _COMPUTE], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not _spawned(proc.pid) or len(_children(proc.pid)) < 3:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the Z3 process and the pool never started"
            time.sleep(0.05)
        z3 = _spawned(proc.pid)[0]
        time.sleep(1.0)  # the pool workers have set themselves to ignore Ctrl-C
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)  # not waiting for Z3 to finish its questions
        assert proc.returncode == 130, err
        assert "Traceback" not in err, err
        time.sleep(0.5)
        assert not Path(f"/proc/{z3}").exists() or \
            Path(f"/proc/{z3}/stat").read_text().split()[2] == "Z"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_the_z3_process_does_not_outlive_a_killed_parent() -> None:
    proc = subprocess.Popen([PY, "-c", _COMPUTE], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True, cwd=ROOT)
    z3 = None
    try:
        deadline = time.monotonic() + 60
        while not _spawned(proc.pid):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        z3 = _spawned(proc.pid)[0]
        os.kill(proc.pid, signal.SIGKILL)  # no chance to clean up
        proc.wait()
        deadline = time.monotonic() + 15
        while Path(f"/proc/{z3}").exists() and \
                Path(f"/proc/{z3}/stat").read_text().split()[2] != "Z":
            assert time.monotonic() < deadline, "the Z3 process runs on alone"
            time.sleep(0.1)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the rest of the group (pool workers)
        except ProcessLookupError:
            pass


# --------------------------------------------------------------------------- explore rerun


def test_explore_rerun_line_repeats_every_flag(tmp_path: Path, capsys: Any) -> None:
    argv = ["explore", "--seed", "3", "--games", "2", "--no-hypothesis", "--players", "5",
            "--option", "lao-thang=off", "--lang", "en", "--save", str(tmp_path / "my dir")]
    assert cli.main(argv) in (0, 1)
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith("Rerun: "))
    words = shlex.split(line.removeprefix("Rerun: "))
    assert words[:2] == ["chanspec", "explore"]
    parser = cli.build_parser()
    given, again = vars(parser.parse_args(argv)), vars(parser.parse_args(words[1:]))
    given.pop("func")
    again.pop("func")
    assert again == given
