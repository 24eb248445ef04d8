"""Hostile engines and bad engine commands given to `chanspec conform`: every one ends
with an exit code of the documented set (1: the engine failed or differs, 2: bad input),
one clear line naming what went wrong, no traceback, no exit 70, in bounded time and
memory.  Each engine is a small Python script written to a temporary directory."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

PY = sys.executable
_SCRIPT = Path(PY).parent / "chanspec"
CHANSPEC = [str(_SCRIPT)] if _SCRIPT.exists() else [PY, "-m", "chanspec.checks.cli.app"]

# the start of every misbehaving engine: answers like the reference for `after` requests
PRELUDE = """
import json, os, subprocess, sys, time
from chanspec.checks.conform.refengine import Session
session = Session()
def answer(req):
    resp = session.handle(req)
    resp["id"] = req.get("id")
    return json.dumps(resp)
def out(text):
    sys.stdout.write(text + "\\n"); sys.stdout.flush()
"""

ENGINES: dict[str, str] = {
    # exits at once while a child it started keeps its standard output open
    "child-holds-stdout": """
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
sys.exit(0)
""",
    # 30 MB on stderr without a newline for each of the first requests, then a crash
    "stderr-flood": """
chunk = "x" * (1 << 20)
for n, line in enumerate(sys.stdin):
    for _ in range(30):
        sys.stderr.write(chunk)
    sys.stderr.flush()
    if n >= 4:
        sys.exit(4)
    out(answer(json.loads(line)))
""",
    # one answer line of 64 MB without a newline on stdout
    "stdout-flood": """
for line in sys.stdin:
    sys.stdout.write("[" * (64 << 20)); sys.stdout.flush()
    time.sleep(60)
""",
    # every legal action listed twice
    "duplicates": """
for line in sys.stdin:
    req = json.loads(line)
    resp = session.handle(req)
    if req.get("op") in ("legal", "legal_all") and resp.get("actions"):
        resp["actions"] = resp["actions"] + resp["actions"][:1]
    resp["id"] = req.get("id")
    out(json.dumps(resp))
""",
    # JSON nested 100,000 deep
    "deep-json": """
for line in sys.stdin:
    out("[" * 100000 + "]" * 100000)
""",
    # bytes that are not UTF-8
    "not-utf8": """
for line in sys.stdin:
    sys.stdout.buffer.write(b"\\xff\\xfe{\\n"); sys.stdout.flush()
""",
    # answers with another request's id
    "wrong-id": """
for line in sys.stdin:
    req = json.loads(line)
    resp = session.handle(req); resp["id"] = 999999
    out(json.dumps(resp))
""",
    # 'ok' is not a boolean
    "ok-string": """
for line in sys.stdin:
    out(json.dumps({"ok": "yes", "id": json.loads(line).get("id")}))
""",
    # ignores SIGTERM and stops answering after the start
    "deaf": """
import signal
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for n, line in enumerate(sys.stdin):
    if n >= 1:
        time.sleep(3600)
    out(answer(json.loads(line)))
""",
    # refuses every start
    "refuses-start": """
for line in sys.stdin:
    req = json.loads(line)
    out(json.dumps({"ok": False, "error": "I only play Tổ Tôm", "id": req.get("id")}))
""",
    # lists an action of another seat when asked for one seat
    "other-seat": """
for line in sys.stdin:
    req = json.loads(line)
    if req.get("op") == "start":
        resp = session.handle(req); resp.pop("accepts", None)  # no legal_all: one seat asked
    elif req.get("op") == "legal":
        resp = {"ok": True, "actions": [{"type": "pass", "seat": (req["seat"] + 1) % 4}]}
    else:
        resp = session.handle(req)
    resp["id"] = req.get("id")
    out(json.dumps(resp))
""",
    # exits without a word, status 0
    "silent-exit": """
sys.exit(0)
""",
}

# name -> (exit code, words the message must contain)
EXPECT: dict[str, tuple[int, str]] = {
    "child-holds-stdout": (1, "exited"),
    "stderr-flood": (1, "exited"),
    "stdout-flood": (1, "longer than"),
    "duplicates": (1, "listed twice"),
    "deep-json": (1, "not JSON"),
    "not-utf8": (1, "not JSON"),
    "wrong-id": (1, "carries id"),
    "ok-string": (1, "boolean 'ok'"),
    "deaf": (1, "no answer within"),
    "refuses-start": (1, "refused 'start'"),
    "other-seat": (1, "an action of seat"),
    "silent-exit": (1, "exited"),
}


def _run(args: list[str], timeout: float = 60) -> tuple[int, str, str, float]:
    """Run chanspec; exit code, stdout, stderr, seconds."""
    t0 = time.monotonic()
    p = subprocess.Popen([*CHANSPEC, *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        raise AssertionError(f"chanspec {' '.join(args)} ran over {timeout} s") from None
    took = time.monotonic() - t0
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), took


def _clean(code: int, out: str, err: str) -> None:
    assert code in (0, 1, 2), (code, out, err)
    assert code != 70 and "Traceback" not in out + err, out + err


@pytest.mark.parametrize("name", list(ENGINES))
def test_a_hostile_engine_is_reported_clearly(name: str, tmp_path: Path) -> None:
    script = tmp_path / f"{name}.py"
    script.write_text(PRELUDE + textwrap.dedent(ENGINES[name]), encoding="utf-8")
    save = tmp_path / "found.ndjson"
    code, out, err, took = _run(
        ["conform", "--impl", f"{PY} {script}", "--hands", "5", "--seed", "1",
         "--timeout", "3", "--players", "4", "--save", str(save), "--lang", "en"])
    _clean(code, out, err)
    want_code, words = EXPECT[name]
    assert code == want_code, (code, out, err)
    assert took < 25, took  # --timeout 3; an engine's child or a flood never holds it up
    first = next(ln for ln in out.splitlines() if ln.startswith("The engine"))
    assert words in first, out


@pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(),
                    reason="needs Linux's /proc/self/clear_refs to measure a peak")
def test_a_stderr_flood_keeps_chanspec_small(tmp_path: Path) -> None:
    """150 MB written to stderr without a newline: chanspec keeps a bounded tail.

    The peak is measured from after the imports: a process started by fork inherits the
    peak of its parent (here a test worker that may be large), so the peak is reset
    first (writing 5 to /proc/self/clear_refs) and read from VmHWM at the end."""
    script = tmp_path / "flood.py"
    script.write_text(PRELUDE + textwrap.dedent(ENGINES["stderr-flood"]), encoding="utf-8")
    probe = (
        "import re, sys\n"
        "from chanspec.checks.conform import campaign\n"
        "open('/proc/self/clear_refs', 'w').write('5')\n"
        f"r = campaign.campaign([{PY!r}, {str(script)!r}], hands=3, seed=1, timeout=5,"
        " players=(4,))\n"
        "assert r.error is not None and len(r.error.stderr) <= 70000, len(r.error.stderr)\n"
        "print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1))\n")
    p = subprocess.run([PY, "-c", probe], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    peak_kib = int(p.stdout.split()[-1])
    assert peak_kib < 200_000, f"chanspec grew to {peak_kib} KiB"


BAD_TIMEOUTS = ["nan", "inf", "-inf", "0", "-1", "soon"]


@pytest.mark.parametrize("value", BAD_TIMEOUTS)
def test_a_bad_timeout_is_refused(value: str) -> None:
    code, out, err, _ = _run(["conform", "--impl", f"{PY} -m chanspec.checks.cli.app serve",
                                 f"--timeout={value}", "--hands", "1"])
    _clean(code, out, err)
    assert code == 2 and "--timeout" in err and "seconds" in err, err


def _not_executable(tmp: Path) -> str:
    f = tmp / "engine.sh"
    f.write_text("#!/bin/sh\nexit 0\n")
    f.chmod(stat.S_IRUSR | stat.S_IWUSR)
    return str(f)


MISSING = [
    ("not-found", lambda tmp: "no-such-engine-anywhere --stdio", "not found"),
    ("no-such-path", lambda tmp: str(tmp / "nope" / "engine"), "does not exist"),
    ("directory", lambda tmp: str(tmp), "is a directory"),
    ("not-executable", _not_executable, "not executable"),
    ("empty", lambda tmp: "  ", "is empty"),
    ("unbalanced-quote", lambda tmp: "python3 'engine.py", "cannot be split"),
]


@pytest.mark.parametrize("name,command,words", MISSING, ids=[m[0] for m in MISSING])
def test_an_engine_command_that_cannot_run(name: str, command: object, words: str,
                                           tmp_path: Path) -> None:
    cmd = command(tmp_path)  # type: ignore[operator]
    code, out, err, _ = _run(["conform", "--impl", cmd, "--hands", "1"], timeout=30)
    _clean(code, out, err)
    assert code == 2, (code, out, err)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and words in lines[0], err
    assert not any(p.name.startswith("conform-") for p in Path(os.getcwd()).iterdir())
