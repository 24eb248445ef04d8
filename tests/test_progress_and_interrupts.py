"""Long runs seen from outside: progress lines also when stderr is a file, Ctrl-C without
the pool workers' tracebacks, and an ``explore`` rerun line that repeats every flag."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.chan import packed_search
from chanspec.checks.cli import app as cli
from chanspec.checks.explore import search as explore
from chanspec.checks.findings import compute, witness
from chanspec.checks.output import Ticker
from chanspec.model.chan import table

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


class Watched:
    """A command started in its own process group (as a terminal's foreground job),
    its stderr read line by line in the background, so a test can wait for the work to
    be under way (a progress line) instead of sleeping a fixed time: that holds on a
    loaded machine too.  Waits give up after `WAIT` seconds."""

    WAIT = 180.0

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     text=True, start_new_session=True, cwd=ROOT, env=env)
        self.lines: list[str] = []
        self._got = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._got:
                self.lines.append(line)
                self._got.notify_all()
        with self._got:
            self.lines.append("")  # end of stderr
            self._got.notify_all()

    def err(self) -> str:
        with self._got:
            return "".join(self.lines)

    def wait_for_line(self, pattern: str) -> None:
        """Until stderr has a line matching `pattern` (the work is under way)."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + self.WAIT
        with self._got:
            while not any(rx.search(ln) for ln in self.lines):
                assert not (self.lines and self.lines[-1] == ""), \
                    f"ended before {pattern!r}: {''.join(self.lines)}"
                left = deadline - time.monotonic()
                assert left > 0, f"no line {pattern!r} in {self.WAIT:.0f} s"
                self._got.wait(min(left, 1.0))

    def wait_until(self, ok: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + self.WAIT
        while not ok():
            assert self.proc.poll() is None, self.err()
            assert time.monotonic() < deadline, what
            time.sleep(0.05)

    def interrupt(self, group: bool = True) -> tuple[int, str]:
        """Ctrl-C the whole group as a terminal would (or, `group` false, SIGINT to the
        command alone, as `kill -INT` does); (exit code, stderr)."""
        if group:
            os.killpg(self.proc.pid, signal.SIGINT)
        else:
            os.kill(self.proc.pid, signal.SIGINT)
        self.proc.wait(timeout=self.WAIT)
        self._reader.join(timeout=self.WAIT)
        return self.proc.returncode, self.err()

    def __enter__(self) -> Watched:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def _gone(pid: int) -> bool:
    """The process has ended (no longer there, or a zombie left for its parent)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except OSError:
        return True


def _eventually(ok: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not ok():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_ctrl_c_during_the_search_pool_exits_130_without_worker_tracebacks(
        tmp_path: Path) -> None:
    # a progress line counts a deal done: the pool's workers are set up and searching
    with Watched([PY, "-m", "chanspec.checks.cli", "check", "--quick", "--no-write",
                  "--scales", "ranks2=60", "--workers", "2",
                  "--out", str(tmp_path / "out")]) as w:
        w.wait_for_line(r"\[ranks2\] .*deals \d+/60")
        w.wait_until(lambda: _workers_ready(w.proc.pid), "the pool's workers never set up")
        code, err = w.interrupt()
    assert code == 130, err
    assert "ForkPoolWorker" not in err and "Traceback" not in err, err
    assert "interrupted" in err


def _carrying(mark: str) -> list[str]:
    """The command lines of the processes whose command line holds `mark`."""
    found = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit() and not _gone(int(d.name)):
            try:
                cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if mark in cmd:
                found.append(cmd)
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_sigint_during_a_ray_search_exits_130_and_stops_the_cluster(tmp_path: Path) -> None:
    # SIGINT to chanspec alone (kill -INT): Ray's processes, in the same group, get none,
    # so chanspec itself must stop them (Ctrl-C at a terminal signals the whole group, and
    # exits 130 with nothing left behind too: checked by hand, 2.0 s)
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'chanspec[cluster]')")
    # Ray's own processes (GCS, raylet, workers) all carry its temporary directory in their
    # command lines: a directory of this test's own tells them from any other cluster's
    # (short: Ray's socket paths under it may have at most 107 bytes)
    ray_tmp = Path(tempfile.mkdtemp(prefix="cs-ray-", dir="/tmp"))
    env = dict(os.environ, RAY_TMPDIR=str(ray_tmp))
    with Watched([PY, "-m", "chanspec.checks.cli", "check", "--quick", "--no-write",
                  "--machine", "packed", "--scales", "ranks2=30", "--cluster", "ray",
                  "--shards", "2", "--out", str(tmp_path / "out")], env=env) as w:
        w.wait_for_line(r"\[ranks2-packed\] Progress")  # the shards are searching
        assert _carrying(str(ray_tmp)), "the search runs on no Ray process of its own"
        code, err = w.interrupt(group=False)
    assert code == 130, err
    assert "Traceback" not in err, err
    assert "interrupted" in err
    _eventually(lambda: not _carrying(str(ray_tmp)),
                f"Ray processes run on after the interrupt: {_carrying(str(ray_tmp))}")
    shutil.rmtree(ray_tmp, ignore_errors=True)


def test_a_local_ray_cluster_that_cannot_start_is_one_line_and_exit_2(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'chanspec[cluster]')")
    deep = tmp_path / ("d" * 100)  # Ray's socket paths under it are over 107 bytes
    deep.mkdir()
    r = subprocess.run([PY, "-m", "chanspec.checks.cli", "check", "--quick", "--no-write",
                        "--machine", "packed", "--scales", "ranks2=1", "--cluster", "ray",
                        "--out", str(tmp_path / "out")], capture_output=True, text=True,
                       env=dict(os.environ, RAY_TMPDIR=str(deep)), timeout=300)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    assert "Ray could not start a local cluster" in r.stderr
    assert "set RAY_TMPDIR to a short directory" in r.stderr


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_ctrl_c_during_the_full_size_hands_exits_without_worker_tracebacks() -> None:
    script = ("import sys\n"
              "from chanspec.checks.findings import witness\n"
              "from chanspec.model.chan import table\n"
              "r = table.load('family').resolve(4)\n"
              "def said(done, total):\n"
              "    print(f'hands {done}/{total}', file=sys.stderr, flush=True)\n"
              "try:\n"
              "    witness.frequency(r, [], 100000, 1, workers=2, progress=said)\n"
              "except KeyboardInterrupt:\n"
              "    sys.exit(130)\n")
    with Watched([PY, "-c", script]) as w:
        w.wait_for_line(r"^hands \d+/100000")  # a hand played in a worker
        w.wait_until(lambda: _workers_ready(w.proc.pid), "the pool's workers never set up")
        code, err = w.interrupt()
    assert code == 130, err
    assert "ForkPoolWorker" not in err and "Traceback" not in err, err


_COMPUTE = ("import sys\n"
            "from chanspec.checks.findings import compute\n"
            "from chanspec.model.chan import table\n"
            "try:\n"
            "    compute.compute(table.load('family'), {'hands': 100000}, workers=2,\n"
            "                    say=lambda s: print(s, file=sys.stderr, flush=True))\n"
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


def _ignores_ctrl_c(pid: int) -> bool:
    """Whether the process has set SIGINT to be ignored (a pool worker, once set up)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    mask = next(int(ln.split()[1], 16) for ln in status.splitlines()
                if ln.startswith("SigIgn:"))
    return bool(mask & (1 << (signal.SIGINT - 1)))


def _workers_ready(pid: int, n: int = 2) -> bool:
    """`n` child processes (pool workers) have set themselves to ignore Ctrl-C."""
    return sum(_ignores_ctrl_c(c) for c in _children(pid)) >= n


def _pool_ready_beside_z3(pid: int) -> bool:
    """Z3 runs, and two pool workers have set themselves to ignore Ctrl-C."""
    z3 = _spawned(pid)
    workers = [c for c in _children(pid) if c not in z3]
    return bool(z3) and sum(_ignores_ctrl_c(c) for c in workers) >= 2


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_ctrl_c_while_z3_runs_beside_the_findings_stops_it_too() -> None:
    with Watched([PY, "-c", _COMPUTE]) as w:
        # Z3 answers its questions for a few seconds only: the moment to press Ctrl-C is
        # when it runs and the pool's workers are set up (read from /proc, not a sleep)
        w.wait_until(lambda: _pool_ready_beside_z3(w.proc.pid),
                     "the Z3 process and the pool never ran together")
        z3 = _spawned(w.proc.pid)[0]
        code, err = w.interrupt()  # not waiting for Z3 to finish its questions
    assert code == 130, err
    assert "Traceback" not in err, err
    _eventually(lambda: _gone(z3), "the Z3 process runs on after Ctrl-C")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_the_z3_process_does_not_outlive_a_killed_parent() -> None:
    with Watched([PY, "-c", _COMPUTE]) as w:
        w.wait_until(lambda: bool(_spawned(w.proc.pid)), "the Z3 process never started")
        z3 = _spawned(w.proc.pid)[0]
        os.kill(w.proc.pid, signal.SIGKILL)  # no chance to clean up
        w.proc.wait()
        try:
            _eventually(lambda: _gone(z3), "the Z3 process runs on alone", 15.0)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(w.proc.pid, signal.SIGKILL)  # the rest of the group (the pool)


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
