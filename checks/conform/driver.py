"""Driving an external engine over the JSON-lines protocol (vectors/PROTOCOL.md).

`Engine` runs the command in its own process group, writes requests to its standard
input and reads responses from its standard output on a reader thread, so that every
request has a deadline.  Whatever goes wrong on the engine's side (no answer in time, the
process exits, a line that is not JSON, a response of the wrong shape) raises
`EngineError` naming the kind of failure and the last exchanges, and the process is
killed: a campaign never hangs on a misbehaving engine.
"""

from __future__ import annotations

import collections
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

EXCHANGES_KEPT = 8
STDERR_LINES_KEPT = 40


class EngineError(Exception):
    """The engine under test misbehaved: kind is start, timeout, crash, garbage or protocol."""

    def __init__(self, kind: str, message: str, exchanges: Sequence[tuple[str, str]] = (),
                 stderr: str = "", returncode: int | None = None):
        self.kind = kind
        self.message = message
        self.exchanges = list(exchanges)
        self.stderr = stderr
        self.returncode = returncode
        super().__init__(f"{kind}: {message}")

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message,
                "exchanges": [{"sent": s, "received": r} for s, r in self.exchanges],
                "stderr": self.stderr, "returncode": self.returncode}


@dataclass
class Stats:
    requests: int = 0
    seconds: float = 0.0
    starts: int = 0


@dataclass
class Engine:
    """One external engine process."""

    command: str | Sequence[str]
    timeout: float = 5.0
    stats: Stats = field(default_factory=Stats)

    def __post_init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES_KEPT)
        self._exchanges: collections.deque[tuple[str, str]] = collections.deque(
            maxlen=EXCHANGES_KEPT)
        self._next_id = 0
        self._threads: list[threading.Thread] = []

    # ------------------------------------------------------------------ process
    def argv(self) -> list[str]:
        return shlex.split(self.command) if isinstance(self.command, str) else list(self.command)

    def start(self) -> None:
        argv = self.argv()
        if not argv:
            raise EngineError("start", "the engine command is empty")
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, encoding="utf-8", errors="replace", bufsize=1,
                start_new_session=True)
        except OSError as exc:
            raise EngineError("start", f"cannot run {argv[0]!r}: {exc.strerror}") from None
        self.stats.starts += 1
        self._lines = queue.Queue()
        out, err = self.proc.stdout, self.proc.stderr
        assert out is not None and err is not None
        t1 = threading.Thread(target=self._pump, args=(out, self._lines), daemon=True)
        t2 = threading.Thread(target=self._pump_err, args=(err,), daemon=True)
        t1.start()
        t2.start()
        self._threads = [t1, t2]

    @staticmethod
    def _pump(stream: Any, q: queue.Queue[str | None]) -> None:
        try:
            for line in stream:
                q.put(line)
        except (OSError, ValueError):
            pass
        q.put(None)

    def _pump_err(self, stream: Any) -> None:
        try:
            for line in stream:
                self._stderr.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Kill the engine's process group (the one we started), then reap it."""
        p = self.proc
        if p is None:
            return
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                try:
                    p.kill()
                except ProcessLookupError:
                    pass
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not ignorable
            pass
        for stream in (p.stdin, p.stdout, p.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        for t in self._threads:
            t.join(timeout=1)

    def close(self) -> None:
        """Ask the engine to quit (briefly), then make sure it is gone."""
        if self.alive():
            try:
                self.send({"op": "quit"}, min(self.timeout, 1.0))
            except EngineError:
                pass
        self.kill()

    def __enter__(self) -> Engine:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ requests
    def stderr_tail(self) -> str:
        return "\n".join(self._stderr)

    def fail(self, kind: str, message: str) -> EngineError:
        rc = None
        if self.proc is not None:
            self.kill()
            rc = self.proc.returncode
        time.sleep(0)  # let the stderr pump deliver what it has
        return EngineError(kind, message, list(self._exchanges), self.stderr_tail(), rc)

    def _write(self, text: str) -> None:
        p = self.proc
        if p is None or p.stdin is None:
            raise self.fail("start", "the engine is not running")
        try:
            p.stdin.write(text)
            p.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._exchanges.append((text.rstrip("\n"), "<could not write: the engine is gone>"))
            raise self.fail("crash", "the engine closed its input (it exited or crashed)"
                             ) from None

    def _read(self, sent: str, deadline: float) -> dict[str, Any]:
        remaining = deadline - time.monotonic()
        try:
            line = self._lines.get(timeout=max(remaining, 0.0))
        except queue.Empty:
            self._exchanges.append((sent, f"<no answer within {self.timeout:g} s>"))
            raise self.fail("timeout", f"no answer within {self.timeout:g} s") from None
        if line is None:
            self._exchanges.append((sent, "<end of output: the engine exited>"))
            if self.proc is not None:
                try:
                    self.proc.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    pass
            raise self.fail("crash", "the engine exited (or closed its output) instead of "
                             "answering")
        text = line.rstrip("\n")
        self._exchanges.append((sent, text))
        try:
            resp = json.loads(text)
        except json.JSONDecodeError as exc:
            raise self.fail("garbage", f"the answer is not JSON ({exc.msg}): {text[:200]!r}"
                             ) from None
        if not isinstance(resp, dict) or not isinstance(resp.get("ok"), bool):
            raise self.fail("protocol", "every answer must be a JSON object with a boolean "
                             f"'ok'; got {text[:200]!r}")
        return resp

    def send(self, req: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        return self.pipeline([req], timeout)[0]

    def pipeline(self, reqs: Sequence[dict[str, Any]],
                 timeout: float | None = None) -> list[dict[str, Any]]:
        """Send several requests at once, then read their answers in order.

        Each answer has its own deadline of `timeout` seconds from when the previous
        answer arrived.
        """
        t0 = time.monotonic()
        texts = []
        ids = []
        for r in reqs:
            self._next_id += 1
            ids.append(self._next_id)
            texts.append(json.dumps({**r, "id": self._next_id}, ensure_ascii=False,
                                    separators=(",", ":")))
        self._write("".join(t + "\n" for t in texts))
        out = []
        limit = self.timeout if timeout is None else timeout
        for rid, sent in zip(ids, texts, strict=True):
            resp = self._read(sent, time.monotonic() + limit)
            if "id" in resp and resp["id"] != rid:
                raise self.fail("protocol", f"answer carries id {resp['id']!r}, expected "
                                 f"{rid}: the engine is out of step")
            out.append(resp)
        self.stats.requests += len(reqs)
        self.stats.seconds += time.monotonic() - t0
        return out

    def call(self, req: dict[str, Any]) -> dict[str, Any]:
        """One request that must succeed (``ok: true``)."""
        resp = self.send(req)
        if not resp["ok"]:
            raise self.fail("protocol", f"the engine refused {req.get('op')!r}: "
                             f"{resp.get('error', '(no error message)')}")
        return resp
