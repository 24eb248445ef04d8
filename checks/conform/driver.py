"""Driving an external engine over the JSON-lines protocol (vectors/PROTOCOL.md).

`Engine` runs the command in its own process group, writes requests to its standard
input and reads responses from its standard output without blocking (the engine's
standard error is drained on a thread), so that every request has a deadline.  Whatever
goes wrong on the engine's side (no answer in time, the process exits, a line that is not
JSON, a response of the wrong shape) raises `EngineError` naming the kind of failure and
the last exchanges, and the process is killed: a campaign never hangs on a misbehaving
engine.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import os
import select
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
STDERR_BYTES_KEPT = 64 * 1024  # the tail of the engine's standard error, in bytes
MAX_LINE_BYTES = 4 * 1024 * 1024  # a longer answer line is garbage (and is not kept)
STARTUP_SECONDS = 2.5  # the first answer may take this long (loading a runtime is no hang)
EXIT_GRACE = 0.3  # seconds an answer may still arrive after the engine process exited


class _Tail:
    """The last `limit` bytes written to a stream: bounded however much is written."""

    def __init__(self, limit: int = STDERR_BYTES_KEPT):
        self.limit = limit
        self.data = bytearray()
        self.lock = threading.Lock()

    def add(self, chunk: bytes) -> None:
        with self.lock:
            self.data += chunk[-self.limit:]
            if len(self.data) > self.limit:
                del self.data[:len(self.data) - self.limit]

    def text(self, lines: int = STDERR_LINES_KEPT) -> str:
        with self.lock:
            raw = bytes(self.data)
        kept = raw.decode("utf-8", errors="replace").splitlines()[-lines:]
        return "\n".join(ln[-2000:] for ln in kept)


class _Lines:
    """The lines of the engine's standard output, read without blocking in the thread
    that asks for them (no reader thread: an answer is parsed as soon as it is read).
    A line longer than MAX_LINE_BYTES is cut, marked, and what follows it up to its
    newline dropped, so memory stays bounded."""

    NOTHING = "nothing"  # no complete line has arrived yet

    def __init__(self, fd: int):
        self.fd = fd
        self.buf = bytearray()
        self.ready: collections.deque[bytes] = collections.deque()
        self.skipping = False
        self.eof = fd < 0

    def next_line(self) -> bytes | None | str:
        """A complete line if one has arrived (reading what is there first), None at
        the end of output, NOTHING otherwise."""
        if not self.ready and not self.eof:
            self._read()
        if self.ready:
            return self.ready.popleft()
        return None if self.eof else self.NOTHING

    def wait(self, seconds: float) -> bool:
        """Wait up to `seconds` for output; True when something may be read."""
        if self.eof or self.ready:
            return True
        try:
            return bool(select.select([self.fd], [], [], seconds)[0])
        except (OSError, ValueError):
            self.eof = True
            return True

    def pull(self) -> None:
        """Read what has arrived into the buffer of complete lines."""
        if not self.eof:
            self._read()

    def _read(self) -> None:
        try:
            chunk = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return
        except (OSError, ValueError):
            chunk = b""
        if not chunk:
            if self.buf and not self.skipping:
                self.ready.append(bytes(self.buf))
            self.buf.clear()
            self.eof = True
            return
        buf = self.buf
        buf += chunk
        start = 0
        while True:
            nl = buf.find(b"\n", start)
            if nl < 0:
                break
            if self.skipping:
                self.skipping = False
            else:
                self.ready.append(bytes(buf[start:nl]))
            start = nl + 1
        del buf[:start]
        if len(buf) > MAX_LINE_BYTES:
            if not self.skipping:
                self.ready.append(bytes(buf[:200]) + b"\x00<line longer than "
                                  + str(MAX_LINE_BYTES).encode() + b" bytes>")
            self.skipping = True
            buf.clear()


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


ENGINE_MARK = "CHANSPEC_ENGINE_MARK"  # set in every engine's environment (see `marked`)
_marks = itertools.count()


def marked(mark: str, proc_root: str = "/proc") -> list[int]:
    """The processes whose environment carries ``CHANSPEC_ENGINE_MARK=mark``: an engine
    and all it started, also those that left its session (``setsid``) and so escape the
    process group.  Linux only (empty where /proc is missing); a process that rewrote its
    environment before running a new program is not found."""
    needle = b"\0" + f"{ENGINE_MARK}={mark}".encode() + b"\0"
    me = os.getpid()
    out = []
    try:
        entries = os.listdir(proc_root)
    except OSError:
        return out
    for d in entries:
        if not d.isdigit() or int(d) == me:
            continue
        try:
            with open(f"{proc_root}/{d}/environ", "rb") as fh:
                env = fh.read()
        except OSError:
            continue
        if needle in b"\0" + env + b"\0":
            out.append(int(d))
    return out


def kill_marked(mark: str, rounds: int = 20) -> int:
    """SIGKILL every process carrying `mark` until none is left (a process may start
    another between the look and the kill: look again); how many were killed."""
    killed = 0
    for _ in range(rounds):
        pids = marked(mark)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
        time.sleep(0.01)
    return killed


@dataclass
class Engine:
    """One external engine process."""

    command: str | Sequence[str]
    timeout: float = 5.0
    stats: Stats = field(default_factory=Stats)

    def __post_init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self._out = _Lines(-1)
        self.last_line = b""
        self._stderr = _Tail()
        self._exchanges: collections.deque[tuple[str, str | bytes]] = collections.deque(
            maxlen=EXCHANGES_KEPT)
        self._next_id = 0
        self._fresh = False  # no answer read yet from the process just started
        self._inflight: collections.deque[tuple[int, str]] = collections.deque()
        self._threads: list[threading.Thread] = []
        self._mark = ""

    # ------------------------------------------------------------------ process
    def argv(self) -> list[str]:
        return shlex.split(self.command) if isinstance(self.command, str) else list(self.command)

    def start(self) -> None:
        argv = self.argv()
        if not argv:
            raise EngineError("start", "the engine command is empty")
        # a mark in its environment, inherited by whatever it starts: kill() finds them
        # all, also those that left the engine's session
        self._mark = f"{os.getpid()}-{next(_marks)}-{time.monotonic_ns()}"
        env = {**os.environ, ENGINE_MARK: self._mark}
        try:
            # its own session and process group: kill() ends the engine and every
            # process it started, even one that keeps the engine's output open
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, start_new_session=True, env=env)
        except OSError as exc:
            raise EngineError("start", f"cannot run {argv[0]!r}: {exc.strerror}") from None
        self.stats.starts += 1
        os.set_blocking(self.proc.stdin.fileno(), False)  # type: ignore[union-attr]
        self._inflight.clear()
        self._fresh = True
        self._stderr = _Tail()
        out, err = self.proc.stdout, self.proc.stderr
        assert out is not None and err is not None
        os.set_blocking(out.fileno(), False)
        self._out = _Lines(out.fileno())
        # standard error is read on a thread that owns it (it is only kept, never waited on)
        t2 = threading.Thread(target=self._pump_err, args=(err, self._stderr), daemon=True)
        t2.start()
        self._threads = [t2]

    @staticmethod
    def _pump_err(stream: Any, tail: _Tail) -> None:
        fd = stream.fileno()
        try:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                tail.add(chunk)
        except (OSError, ValueError):
            pass
        finally:
            try:
                stream.close()
            except OSError:
                pass

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Kill the engine's process group (the one we started), then reap the engine.

        The group is killed even when the engine itself has already exited: a process it
        started may still hold its output open.  Standard error is left to its reader
        thread (it ends at end of file); nothing here waits on it for long.
        """
        p = self.proc
        if p is None:
            return
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            if p.poll() is None:
                try:
                    p.kill()
                except ProcessLookupError:
                    pass
        if self._mark:
            kill_marked(self._mark)  # those that left the group (setsid)
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not ignorable
            pass
        for stream in (p.stdin, p.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):  # already closed by a dead engine
                    stream.close()
        self._out = _Lines(-1)  # nothing more is read from a closed descriptor
        for t in self._threads:
            t.join(timeout=0.5)

    def close(self) -> None:
        """Ask the engine to quit (briefly), then make sure it is gone."""
        if self.alive() and not self._inflight:
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
        return self._stderr.text()

    def fail(self, kind: str, message: str) -> EngineError:
        rc = None
        if self.proc is not None:
            self.kill()
            rc = self.proc.returncode
        if self._threads:
            self._threads[0].join(timeout=0.2)  # let the stderr pump deliver what it has
        seen = [(sent, got if isinstance(got, str)
                 else got.decode("utf-8", errors="replace").rstrip("\r"))
                for sent, got in self._exchanges]
        return EngineError(kind, message, seen, self.stderr_tail(), rc)

    def _write(self, text: str, deadline: float) -> None:
        """Write all of `text` to the engine's input, or fail by `deadline` (an engine
        that stops reading must not block chanspec on a full pipe)."""
        p = self.proc
        if p is None or p.stdin is None:
            raise self.fail("start", "the engine is not running")
        data = memoryview(text.encode("utf-8"))
        try:
            # inside the try: a dead engine's input may already be closed (ValueError)
            fd = p.stdin.fileno()
            while data:
                try:
                    n = os.write(fd, data)
                except BlockingIOError:
                    n = 0
                data = data[n:]
                if data:
                    left = deadline - time.monotonic()
                    if left > 0 and self._out.fd >= 0 and not self._out.eof:
                        # read the engine's answers while waiting to write: an engine
                        # blocked on a full output pipe reads no more input
                        r, w, _ = select.select([self._out.fd], [fd], [], left)
                        if r:
                            self._out.pull()
                        if r or w:
                            continue
                    if left <= 0 or not select.select([], [fd], [], left)[1]:
                        self._exchanges.append((text.rstrip("\n")[:300],
                                                "<the engine stopped reading its input>"))
                        raise self.fail("timeout", "the engine stopped reading its input "
                                        f"for {self.timeout:g} s")
        except (BrokenPipeError, OSError, ValueError):
            self._exchanges.append((text.rstrip("\n")[:300],
                                    "<could not write: the engine is gone>"))
            raise self.fail("crash", "the engine closed its input (it exited or crashed)"
                             ) from None

    def _next_line(self, deadline: float) -> bytes | None | str:
        """The next output line, None at end of output, "timeout" when the deadline
        passes, "exited" when the engine process is gone and nothing more came within
        EXIT_GRACE (a child process may keep its output open: do not wait for it)."""
        exited_at: float | None = None
        out = self._out
        while True:
            line = out.next_line()
            if line is not _Lines.NOTHING:
                return line
            now = time.monotonic()
            wait = deadline - now
            if exited_at is not None:
                wait = min(wait, exited_at + EXIT_GRACE - now)
            if out.wait(max(min(wait, 0.25), 0.0)):
                continue
            now = time.monotonic()
            if exited_at is None and self.proc is not None and self.proc.poll() is not None:
                exited_at = now
            elif exited_at is not None and now >= exited_at + EXIT_GRACE:
                return "exited"
            if now >= deadline:
                return "timeout"

    def _read(self, sent: str, deadline: float) -> dict[str, Any]:
        line = self._next_line(deadline)
        if line == "timeout":
            self._exchanges.append((sent, f"<no answer within {self.timeout:g} s>"))
            raise self.fail("timeout", f"no answer within {self.timeout:g} s")
        if line is None or line == "exited":
            self._exchanges.append((sent, "<end of output: the engine exited>"))
            if self.proc is not None:
                try:
                    self.proc.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    pass
            raise self.fail("crash", "the engine exited (or closed its output) instead of "
                             "answering")
        assert isinstance(line, bytes)
        self.last_line = line  # the answer as it came (the campaign's fast comparison)
        # kept as it came: decoded only when an error reports the last exchanges
        self._exchanges.append((sent, line[:2000]))
        text = line.decode("utf-8", errors="replace").rstrip("\r")
        if b"\x00<line longer than" in line:
            raise self.fail("garbage", f"an answer line longer than {MAX_LINE_BYTES} bytes: "
                            f"{text[:120]!r}…")
        try:
            resp = json.loads(text)
        except (ValueError, RecursionError) as exc:
            why = exc.msg if isinstance(exc, json.JSONDecodeError) else (
                "nested too deeply" if isinstance(exc, RecursionError) else str(exc))
            raise self.fail("garbage", f"the answer is not JSON ({why}): {text[:200]!r}"
                             ) from None
        if not isinstance(resp, dict) or not isinstance(resp.get("ok"), bool):
            raise self.fail("protocol", "every answer must be a JSON object with a boolean "
                             f"'ok'; got {text[:200]!r}")
        return resp

    def send(self, req: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        return self.pipeline([req], timeout)[0]

    def submit(self, reqs: Sequence[dict[str, Any]], timeout: float | None = None) -> None:
        """Send requests without waiting for their answers (read them with `receive`)."""
        texts = []
        for r in reqs:
            self._next_id += 1
            text = json.dumps({**r, "id": self._next_id}, ensure_ascii=False,
                              separators=(",", ":"))
            self._inflight.append((self._next_id, text))
            texts.append(text)
        limit = self.timeout if timeout is None else timeout
        self._write("".join(t + "\n" for t in texts), time.monotonic() + limit)
        self.stats.requests += len(reqs)

    def submit_texts(self, texts: Sequence[str], timeout: float | None = None) -> None:
        """Like `submit`, for requests already encoded as JSON text without their
        closing brace (the id is added here): the campaign's hot path."""
        out = []
        for t in texts:
            self._next_id += 1
            full = f'{t},"id":{self._next_id}}}'
            self._inflight.append((self._next_id, full))
            out.append(full)
        limit = self.timeout if timeout is None else timeout
        self._write("".join(t + "\n" for t in out), time.monotonic() + limit)
        self.stats.requests += len(texts)

    def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The answer to the oldest request sent and not yet answered."""
        t0 = time.monotonic()
        rid, sent = self._inflight.popleft()
        limit = self.timeout if timeout is None else timeout
        if self._fresh:
            limit = max(limit, STARTUP_SECONDS)
            self._fresh = False
        resp = self._read(sent, t0 + limit)
        if "id" in resp and resp["id"] != rid:
            raise self.fail("protocol", f"answer carries id {resp['id']!r}, expected "
                             f"{rid}: the engine is out of step")
        self.stats.seconds += time.monotonic() - t0
        return resp

    def next_id(self) -> int:
        """The id the next request sent will carry."""
        return self._next_id + 1

    def in_flight_from(self, rid: int) -> bool:
        """Whether the oldest request still to be answered is the one with id `rid`."""
        return bool(self._inflight) and self._inflight[0][0] == rid

    def pending_answers(self) -> int:
        return len(self._inflight)

    def drain(self) -> None:
        """Read (and drop) the answers to every request still unanswered."""
        while self._inflight:
            self.receive()

    def pipeline(self, reqs: Sequence[dict[str, Any]],
                 timeout: float | None = None) -> list[dict[str, Any]]:
        """Send several requests at once, then read their answers in order.

        Each answer has its own deadline of `timeout` seconds from when the previous
        answer arrived.
        """
        self.drain()
        self.submit(reqs, timeout)
        return [self.receive(timeout) for _ in reqs]

    def call(self, req: dict[str, Any]) -> dict[str, Any]:
        """One request that must succeed (``ok: true``)."""
        resp = self.send(req)
        if not resp["ok"]:
            raise self.fail("protocol", f"the engine refused {req.get('op')!r}: "
                             f"{resp.get('error', '(no error message)')}")
        return resp
