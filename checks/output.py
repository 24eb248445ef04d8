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

import errno
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
    """The first ancestor of `folder` (itself included) that is missing or not a folder:
    ``(path, "missing")`` or ``(path, "file")`` (raises OutputPathError for one that may
    not be looked into, a link loop among them).  A folder reached through a symbolic link
    is a real folder: only the file written must not be a link."""
    chain = [folder, *folder.parents]
    for p in reversed(chain):
        try:
            mode = p.stat().st_mode
        except (FileNotFoundError, NotADirectoryError):
            if os.path.islink(p):
                raise _link_refusal(shown, p, folder=True) from None
            return p, "missing"
        except OSError as exc:
            raise OutputPathError(shown, f"không xem được {p} ({exc.strerror})",
                                  f"cannot look into {p} ({exc.strerror})") from None
        if not stat.S_ISDIR(mode):
            return p, "file" if stat.S_ISREG(mode) else "other"
    return None


def _not_a_folder(shown: str | os.PathLike[str], where: Path) -> OutputPathError:
    try:
        vi, en = kind_of(where.stat().st_mode)
    except OSError:
        vi, en = "một tệp", "a file"
    if vi == "một tệp thường":
        vi, en = "một tệp", "a file"
    return OutputPathError(shown, f"{where} là {vi}, không phải thư mục",
                           f"{where} is {en}, not a folder")


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

    The folder must exist (it is not created), `path` must be a new name or a regular file
    (`writable_target`), and the folder must accept a new file (tested by creating and
    removing one)."""
    target = _file_target(path)
    _probe(target.parent, path)
    return target


# What chanspec writes over (the one rule, `writable_target`): a new name in a real
# folder, or a regular file.  Never a device, a FIFO, a socket, a folder, nor a symbolic
# link of any kind (to a file, dangling, or a loop): an atomic write replaces the name
# with a new file, which would turn /dev/full into a regular file or cut a link loose
# from what it points to, so the real path must be given.
NAME_MAX_FALLBACK = 255
PATH_MAX_FALLBACK = 4096


def kind_of(mode: int) -> tuple[str, str]:
    """What a file's mode says it is, in Vietnamese and English (for messages)."""
    if stat.S_ISDIR(mode):
        return "một thư mục", "a folder"
    if stat.S_ISCHR(mode):
        return "một thiết bị ký tự", "a character device"
    if stat.S_ISBLK(mode):
        return "một thiết bị khối", "a block device"
    if stat.S_ISFIFO(mode):
        return "một ống có tên (FIFO)", "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "một socket", "a socket"
    if stat.S_ISLNK(mode):
        return "một liên kết tượng trưng", "a symbolic link"
    return "một tệp thường", "a regular file"


def _limit(folder: Path, name: str, fallback: int) -> int:
    try:
        return int(os.pathconf(folder, name))
    except (OSError, ValueError):
        return fallback


def _link_refusal(path: str | os.PathLike[str], target: Path,
                  folder: bool = False) -> OutputPathError:
    try:
        dest = os.readlink(target)
    except OSError:
        dest = "?"
    try:
        target.stat()
        vi_how, en_how = f"trỏ tới {dest}", f"pointing to {dest}"
    except FileNotFoundError:
        vi_how, en_how = f"trỏ tới {dest}, không tồn tại", f"pointing to {dest}, which is missing"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            vi_how, en_how = (f"trỏ tới {dest}, một vòng liên kết",
                              f"pointing to {dest}, a loop of links")
            return _link_message(path, target, folder, vi_how, en_how)
        vi_how, en_how = (f"trỏ tới {dest} ({exc.strerror})",
                          f"pointing to {dest} ({exc.strerror})")
    return _link_message(path, target, folder, vi_how, en_how)


def _link_message(path: str | os.PathLike[str], target: Path, folder: bool, vi_how: str,
                  en_how: str) -> OutputPathError:
    if folder:
        return OutputPathError(path, f"{target} là một liên kết tượng trưng ({vi_how})",
                               f"{target} is a symbolic link ({en_how})")
    return OutputPathError(
        path, f"là một liên kết tượng trưng ({vi_how}); chanspec không ghi qua liên kết: "
        "hãy cho đường dẫn thật",
        f"is a symbolic link ({en_how}); chanspec does not write through links: give the "
        "real path")


def writable_target(path: str | os.PathLike[str], target: Path) -> None:
    """Raise OutputPathError unless `target` is a new name or a regular file that the
    atomic write may replace (see the note above `kind_of`), and its name fits."""
    folder = target.parent
    name_max = _limit(folder, "PC_NAME_MAX", NAME_MAX_FALLBACK)
    size = len(os.fsencode(target.name))
    if size > name_max:
        raise OutputPathError(path, f"tên tệp dài {size} byte, quá giới hạn {name_max} byte "
                              "của hệ thống tệp: hãy đặt tên ngắn hơn",
                              f"the file name is {size} bytes long, over the file system's "
                              f"limit of {name_max}: choose a shorter name")
    path_max = _limit(folder, "PC_PATH_MAX", PATH_MAX_FALLBACK)
    whole = len(os.fsencode(os.path.abspath(target)))
    if whole >= path_max:
        raise OutputPathError(path, f"đường dẫn dài {whole} byte, quá giới hạn {path_max} "
                              "byte: hãy chọn đường dẫn ngắn hơn",
                              f"the path is {whole} bytes long, over the limit of "
                              f"{path_max}: choose a shorter one")
    try:
        st = target.lstat()
    except FileNotFoundError:
        return  # a new name
    except OSError as exc:
        raise OutputPathError(path, f"không xem được ({exc.strerror})",
                              f"cannot look at it ({exc.strerror})") from None
    if stat.S_ISLNK(st.st_mode):
        raise _link_refusal(path, target)
    if stat.S_ISDIR(st.st_mode):
        raise OutputPathError(path, "là một thư mục, cần một tệp",
                              "is a folder where a file is expected")
    if not stat.S_ISREG(st.st_mode):
        vi, en = kind_of(st.st_mode)
        raise OutputPathError(path, f"là {vi}, không phải tệp thường: chanspec chỉ ghi một "
                              "tệp mới hoặc thay một tệp thường",
                              f"is {en}, not a regular file: chanspec writes only a new file "
                              "or over a regular file")


def _file_target(path: str | os.PathLike[str]) -> Path:
    """`path` as a file to write: its folder exists and is writable, and it is a new name
    or a regular file (`writable_target`)."""
    target = Path(path)
    text = os.fspath(path)
    if text == "" or target.name in ("", ".", "..") or text.endswith(("/", os.sep)):
        raise OutputPathError(path, "cần tên một tệp, không phải thư mục",
                              "expected the name of a file, not a folder")
    if "\0" in text:
        raise OutputPathError(path, "tên chứa ký tự NUL", "the name holds a NUL character")
    folder = target.parent
    bad = _first_missing_or_file(folder, path)
    if bad is not None:
        where, kind = bad
        if kind == "missing":
            raise OutputPathError(path, f"thư mục {where} không tồn tại (hãy tạo nó trước)",
                                  f"the folder {where} does not exist (create it first)")
        raise _not_a_folder(path, where)
    writable_target(path, target)
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputPathError(path, "tệp không cho phép ghi", "the file is not writable")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputPathError(path, f"không có quyền ghi vào thư mục {folder}",
                              f"no permission to write in the folder {folder}")
    return target


def prepare_output_dir(path: str | os.PathLike[str]) -> Path:
    """Make sure `path` is a folder chanspec can write into (raises OutputPathError).

    Missing folders are created (``mkdir -p``, as output folders usually are); a file, a
    device or a dangling link in the way, or a folder that does not accept a new file, is
    an error.  A link to a real folder is followed (the files written in it are checked
    one by one by `write_atomic`)."""
    target = Path(path)
    if str(path) == "":
        raise OutputPathError(path, "cần tên một thư mục", "expected the name of a folder")
    if "\0" in str(path):
        raise OutputPathError(path, "tên chứa ký tự NUL", "the name holds a NUL character")
    for p in [target, *target.parents]:
        size = len(os.fsencode(p.name))
        if size > NAME_MAX_FALLBACK:
            raise OutputPathError(path, f"tên {p.name[:20]}… dài {size} byte, quá giới hạn "
                                  f"{NAME_MAX_FALLBACK} byte: hãy đặt tên ngắn hơn",
                                  f"the name {p.name[:20]}… is {size} bytes long, over the "
                                  f"limit of {NAME_MAX_FALLBACK}: choose a shorter name")
    bad = _first_missing_or_file(target, path)
    if bad is not None and bad[1] != "missing":
        where = bad[0]
        if where == target:
            try:
                vi, en = kind_of(where.stat().st_mode)
            except OSError:
                vi, en = "một tệp thường", "a regular file"
            if vi == "một tệp thường":
                raise OutputPathError(path, "là một tệp, cần một thư mục",
                                      "is a file where a folder is expected")
            raise OutputPathError(path, f"là {vi}, cần một thư mục",
                                  f"is {en} where a folder is expected")
        raise _not_a_folder(path, where)
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
        writable_target(path, target)  # once more: nothing took the name meanwhile
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
