"""How chanspec prints and writes: bilingual lines and atomic files.

Every part of `chanspec.checks` may use this module; it imports nothing of chanspec.

Language convention (``--lang``):

* ``vi`` (the default): every human line is Vietnamese; the English translation follows
  on the next line, indented and marked ``(en)``.  Rule ids, card codes and JSON stay as
  they are.
* ``en``: English only.

JSON output (``--json``) is language-independent.
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

EN_MARK = "(en)"


def say(lang: str, vi: str, en: str, indent: str = "") -> str:
    """One message in the chosen language convention (see the module docstring)."""
    if lang == "en":
        return f"{indent}{en}"
    if vi.casefold() == en.casefold():
        return f"{indent}{vi}"
    return f"{indent}{vi}\n{indent}  {EN_MARK} {en}"


def pick(lang: str, vi: str, en: str) -> str:
    """A short label: ``vi / en`` in Vietnamese mode, ``en`` in English mode."""
    if lang == "en":
        return en
    return vi if vi.casefold() == en.casefold() else f"{vi} / {en}"


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``1 deal``, ``2 deals``: English number agreement (thousands separated)."""
    return f"{n:,} {singular if n == 1 else plural or singular + 's'}"


def with_article(word: str) -> str:
    """``a discard``, ``an open row``, ``an 'eat' line``: the English indefinite article,
    chosen by the first letter or digit of `word` (quotes skipped; 8, 11 and 18 read "an")."""
    bare = word.lstrip("'\"`")
    digits = bare[:len(bare) - len(bare.lstrip("0123456789"))]
    if digits:
        vowel = digits.startswith("8") or digits in ("11", "18")
    elif bare[:1].lower() == "u" and not bare[1:2].isalpha():
        vowel = False  # 'u' (ù) reads "you"
    else:
        vowel = bare[:1].lower() in tuple("aeiou")
    return f"{'an' if vowel else 'a'} {word}"


class OutputPathError(ValueError):
    """An output path chanspec cannot write: which path and what is wrong (vi and en).

    The command line reports it on one line and exits 2 (bad input)."""

    def __init__(self, path: str | os.PathLike[str], vi: str, en: str):
        self.path, self.vi, self.en = str(path), vi, en
        super().__init__(f"{self.path}: {en}")

    def line(self) -> str:
        return (f"chanspec: không ghi được '{self.path}': {self.vi} / "
                f"cannot write '{self.path}': {self.en}")


def _first_missing_or_file(folder: Path, shown: str | os.PathLike[str],
                           ) -> tuple[Path, str] | None:
    """The first ancestor of `folder` (itself included) that is missing or not a folder
    (raises OutputPathError for one that may not be looked into)."""
    chain = [folder, *folder.parents]
    for p in reversed(chain):
        try:
            mode = p.stat().st_mode
        except (FileNotFoundError, NotADirectoryError):
            return p, "missing"
        except OSError as exc:
            raise OutputPathError(shown, f"không xem được {p} ({exc.strerror})",
                                  f"cannot look into {p} ({exc.strerror})") from None
        if not stat.S_ISDIR(mode):
            return p, "file"
    return None


def _probe(folder: Path, shown: str | os.PathLike[str]) -> None:
    """Create and remove a temporary file in `folder`: the test that holds even for root
    (a read-only file system, /proc, a full disk)."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".chanspec-probe.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputPathError(shown, f"không tạo được tệp trong thư mục {folder} "
                              f"({exc.strerror})",
                              f"cannot create a file in the folder {folder} "
                              f"({exc.strerror})") from None
    os.close(fd)
    os.unlink(tmp)


def check_output_file(path: str | os.PathLike[str]) -> Path:
    """Check up front that a file can be written at `path` (raises OutputPathError).

    The folder must exist (it is not created), `path` must not be a folder, and the
    folder must accept a new file (tested by creating and removing one)."""
    target = _file_target(path)
    _probe(target.parent, path)
    return target


def _file_target(path: str | os.PathLike[str]) -> Path:
    """`path` as a file to write: its folder exists and is writable, it is not a folder."""
    target = Path(path)
    text = os.fspath(path)
    if text == "" or target.name in ("", ".", "..") or text.endswith(("/", os.sep)):
        raise OutputPathError(path, "cần tên một tệp, không phải thư mục",
                              "expected the name of a file, not a folder")
    folder = target.parent
    bad = _first_missing_or_file(folder, path)
    if bad is None and target.is_dir():
        raise OutputPathError(path, "là một thư mục, cần một tệp",
                              "is a folder where a file is expected")
    if bad is not None:
        where, kind = bad
        if kind == "missing":
            raise OutputPathError(path, f"thư mục {where} không tồn tại (hãy tạo nó trước)",
                                  f"the folder {where} does not exist (create it first)")
        raise OutputPathError(path, f"{where} là một tệp, không phải thư mục",
                              f"{where} is a file, not a folder")
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputPathError(path, "tệp không cho phép ghi", "the file is not writable")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputPathError(path, f"không có quyền ghi vào thư mục {folder}",
                              f"no permission to write in the folder {folder}")
    return target


def prepare_output_dir(path: str | os.PathLike[str]) -> Path:
    """Make sure `path` is a folder chanspec can write into (raises OutputPathError).

    Missing folders are created (``mkdir -p``, as output folders usually are); a file in
    the way, or a folder that does not accept a new file, is an error."""
    target = Path(path)
    if str(path) == "":
        raise OutputPathError(path, "cần tên một thư mục", "expected the name of a folder")
    bad = _first_missing_or_file(target, path)
    if bad is not None and bad[1] == "file":
        where = bad[0]
        if where == target:
            raise OutputPathError(path, "là một tệp, cần một thư mục",
                                  "is a file where a folder is expected")
        raise OutputPathError(path, f"{where} là một tệp, không phải thư mục",
                              f"{where} is a file, not a folder")
    if bad is not None:  # missing: create what is missing, from the first existing parent
        parent = bad[0].parent
        if not os.access(parent, os.W_OK | os.X_OK):
            raise OutputPathError(path, f"không có quyền tạo thư mục trong {parent}",
                                  f"no permission to create a folder in {parent}")
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputPathError(path, f"không tạo được thư mục ({exc.strerror})",
                                  f"cannot create the folder ({exc.strerror})") from None
    if not os.access(target, os.W_OK | os.X_OK):
        raise OutputPathError(path, "không có quyền ghi vào thư mục này",
                              "no permission to write in this folder")
    _probe(target, path)
    return target


def current_umask() -> int:
    """The process's umask (read without changing it where the system allows)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


PROGRESS_TTY_EVERY = 2.0  # seconds between progress lines on a terminal
PROGRESS_FILE_EVERY = 5.0  # and when standard error is a file or a pipe


def progress_every(stream: TextIO, tty: float = PROGRESS_TTY_EVERY,
                   other: float = PROGRESS_FILE_EVERY) -> float:
    """Seconds between two progress lines on `stream`: a terminal gets them more often
    than a log file, which still gets one now and then (never minutes of silence)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return tty if isatty is not None and isatty() else other
    except ValueError:  # a closed stream
        return other


class Ticker:
    """Rate limit for progress lines: `due()` is true at the first call and then at most
    once every `every` seconds of `clock`."""

    def __init__(self, every: float = PROGRESS_FILE_EVERY,
                 clock: Callable[[], float] = time.monotonic):
        self.every, self.clock = every, clock
        self.last: float | None = None

    def due(self) -> bool:
        now = self.clock()
        if self.last is not None and now - self.last < self.every:
            return False
        self.last = now
        return True


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write text to path atomically: a temporary file in the same folder, then replace.

    The file gets the mode a plain ``open(path, "w")`` would give it: the mode of the file
    it replaces, or 0666 less the umask for a new file (not the 0600 of a temporary file).
    A path that cannot be written raises OutputPathError, and no temporary file is left."""
    target = _file_target(path)
    folder = target.parent
    try:
        mode = target.stat().st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~current_umask()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputPathError(path, f"không tạo được tệp tạm ({exc.strerror})",
                              f"cannot create a temporary file ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            os.fchmod(fh.fileno(), mode)
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputPathError(path, f"ghi không được ({exc.strerror})",
                                  f"the write failed ({exc.strerror})") from exc
        raise
