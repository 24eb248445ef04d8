"""Reading the text files chanspec is given (rule tables, game logs): only regular files,
and only up to a size, so that ``/dev/zero``, a FIFO or a huge file gets a clear error
instead of a hang or running out of memory.

`read` opens without blocking (a FIFO with no writer would otherwise wait for ever),
looks at what was opened, and reads at most `limit` bytes plus one.
"""

from __future__ import annotations

import os
import stat

TABLE_LIMIT = 4 * 1024 * 1024  # bytes; the built-in tables are 60 and 120 kB
LOG_LIMIT = 64 * 1024 * 1024  # bytes; a 5-seat hand's log is a few kB, a campaign's a few MB


class FileRefused(ValueError):
    """A file that is not read: `why` says what it is or what went wrong (English; the
    callers wrap it in their own error with the file's name)."""

    def __init__(self, path: str, why: str):
        self.path, self.why = path, why
        super().__init__(f"{path}: {why}")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def megabytes(n: int) -> str:
    return f"{n / (1024 * 1024):g} MiB"


def read(path: str | os.PathLike[str], limit: int) -> str:
    """The UTF-8 text of the regular file at `path` (raises FileRefused: not a regular
    file, larger than `limit` bytes, unreadable, not UTF-8)."""
    shown = os.fspath(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise FileRefused(shown, f"cannot read: {exc.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(shown, f"is {_kind(st.st_mode)}, not a regular file: give "
                              "the path of a file")
        if st.st_size > limit:
            raise FileRefused(shown, f"is {megabytes(st.st_size)}, more than the "
                              f"{megabytes(limit)} chanspec reads")
        chunks, got = [], 0
        while got <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:  # grew while being read
            raise FileRefused(shown, f"is more than the {megabytes(limit)} chanspec reads")
    except OSError as exc:
        raise FileRefused(shown, f"cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileRefused(shown, f"not UTF-8 text (byte {exc.start})") from None
