"""The ``chanspec`` command line.

Commands are plug-ins.  Each lives in its own module ``chanspec.checks.cli.cmd_<name>``
exposing ``register(subparsers) -> None``, which adds one subparser (use
`chanspec.checks.cli.options.add_command`) and sets ``func=run`` with ``run(args) -> int``.

To add a command, create ``checks/cli/cmd_<name>.py``.  It is picked up automatically; listing
it in `COMMANDS` only fixes its place in ``--help`` (listed ones come first, in order,
then the others alphabetically).  A command module that fails to import does not break
the other commands: its name still appears and running it explains the failure.

Exit codes (all commands):

* 0   success / the check passed
* 1   the check ran and found a problem (e.g. ``questions --check`` on a stale file)
* 2   bad input: a usage error, an unknown card, an impossible hand, an unknown option
* 3   a command could not be loaded (its module failed to import)
* 4   ``replay``: every line conforms but the log stops before the hand is over
* 70  internal error (a bug in chanspec; set CHANSPEC_DEBUG=1 to see the traceback)
* 74  standard output cannot be written: closed (``>&-``), a full device (``> /dev/full``)
      or another write error (one line on stderr says which)
* 130 interrupted (Ctrl-C)
* 141 the reader of standard output went away (a broken pipe, e.g. ``| head -1``)
* 143 stopped by SIGTERM (``kill``): like Ctrl-C, nothing half-written, no process left
* 150 the rule table does not load (the message names file, rule id/path and field)

The full list, with what each command adds, is in docs/cli.md.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import pkgutil
import signal
import sys
import traceback
from collections.abc import Sequence
from types import ModuleType
from typing import Any

COMMANDS: list[str] = [
    "chanspec.checks.cli.cmd_win",
    "chanspec.checks.cli.cmd_score",
    "chanspec.checks.cli.cmd_questions",
    "chanspec.checks.cli.cmd_check",
    "chanspec.checks.cli.cmd_report",
    "chanspec.checks.cli.cmd_play",
    "chanspec.checks.cli.cmd_explain",
    "chanspec.checks.cli.cmd_rules",
    "chanspec.checks.cli.cmd_explore",
    "chanspec.checks.cli.cmd_replay",
    "chanspec.checks.cli.cmd_conform",
    "chanspec.checks.cli.cmd_serve",
    "chanspec.checks.cli.cmd_vectors",
]

EXIT_OK = 0
EXIT_FOUND = 1
EXIT_INPUT = 2
EXIT_BROKEN_COMMAND = 3
EXIT_INTERNAL = 70
EXIT_OUTPUT = 74  # sysexits' EX_IOERR
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell shows for a reader gone away
EXIT_TERMINATED = 143  # 128 + SIGTERM
EXIT_TABLE = 150

_PACKAGE = "chanspec.checks.cli"


def command_modules() -> list[str]:
    """COMMANDS first, then every other ``cmd_*`` module of the package, sorted."""
    names = list(dict.fromkeys(COMMANDS))
    try:
        pkg = importlib.import_module(_PACKAGE)
        found = sorted(
            f"{_PACKAGE}.{m.name}"
            for m in pkgutil.iter_modules(pkg.__path__)
            if m.name.startswith("cmd_")
        )
    except ImportError:
        found = []
    names += [n for n in found if n not in names]
    return names


def _command_name(module: str) -> str:
    last = module.rsplit(".", 1)[-1]
    return last.removeprefix("cmd_").replace("_", "-")


def _register_broken(subparsers: argparse._SubParsersAction, module: str,  # type: ignore[type-arg]
                     error: BaseException) -> None:
    name = _command_name(module)
    if name in subparsers.choices:
        return
    why = f"{type(error).__name__}: {error}"
    p = subparsers.add_parser(
        name, help=f"(không dùng được / unavailable: {why})", add_help=False,
    )
    p.add_argument("rest", nargs=argparse.REMAINDER)

    def run(args: argparse.Namespace) -> int:
        print(f"chanspec {name}: lệnh này không tải được / this command could not be loaded: "
              f"module {module} failed with {why}. Reinstall chanspec or report the bug.",
              file=sys.stderr)
        return EXIT_BROKEN_COMMAND

    p.set_defaults(func=run)


# commands that play or explore hands (settle: to say what a decision changes): a table
# whose turn the machine does not play (`Table.machine_gap`) is refused up front, exit 2
PLAYING_COMMANDS = frozenset({"play", "explain", "explore", "check", "replay", "vectors",
                              "conform", "serve", "questions", "report", "settle", "flow"})


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="chanspec",
        description=(
            "Luật Bài Chắn dạng bảng luật, kiểm tra bằng máy.\n"
            "The rules of Bài Chắn as a rule table, checked by machine.\n\n"
            "Ngôn ngữ: mặc định in tiếng Việt, dòng tiếng Anh đi kèm bắt đầu bằng (en); "
            "--lang en chỉ in tiếng Anh.\n"
            "Language: Vietnamese by default, each line followed by its English marked (en); "
            "--lang en prints English only."
        ),
        epilog=(
            "Mã thoát / exit codes: 0 ok, 1 check found a problem, 2 bad input, "
            "3 command unavailable, 4 replay: the log is unfinished, 11/12/13 check: deadlock, "
            "invariant, endless play, 70 internal error, 74 standard output cannot be "
            "written, 130 interrupted, 141 broken pipe, 143 stopped by SIGTERM, "
            "150 rule table does not load (docs/cli.md)."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"chanspec {_version()}",
                        help="in phiên bản / print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                title="lệnh / commands")
    for module in command_modules():
        mod: ModuleType | None
        try:
            mod = importlib.import_module(module)
            register = mod.register
        except ModuleNotFoundError as exc:
            if exc.name == module and module not in COMMANDS:
                continue  # vanished between discovery and import
            _register_broken(sub, module, exc)
            continue
        except Exception as exc:  # noqa: BLE001 - one broken plug-in must not sink the rest
            _register_broken(sub, module, exc)
            continue
        try:
            register(sub)
        except Exception as exc:  # noqa: BLE001
            _register_broken(sub, module, exc)
    return parser


def _version() -> str:
    """The installed distribution's version (``pyproject.toml``)."""
    from importlib import metadata

    try:
        return metadata.version("chanspec")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def _error(prefix_vi: str, prefix_en: str, message: object) -> None:
    print(f"chanspec: {prefix_vi} / {prefix_en}:\n{message}", file=sys.stderr)


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into the same unwinding as Ctrl-C (pools stopped, temporary files
    removed), but exiting 143."""


class StdoutError(Exception):
    """Standard output could not be written (`errno` of the OSError underneath)."""

    def __init__(self, exc: OSError):
        self.errno, self.strerror = exc.errno, exc.strerror
        super().__init__(str(exc))


class GuardedStream:
    """Standard output whose write errors become StdoutError, so that they are told
    apart from the errors of the files a command reads or writes."""

    def __init__(self, stream: Any):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text))
        except OSError as exc:
            raise StdoutError(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise StdoutError(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _stdout_closed() -> bool:
    """Is standard output closed (``>&-``)?  Then a file opened later could take its
    descriptor and get the printed lines: nothing runs."""
    if sys.stdout is None:
        return True
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):
        return False  # not a real file (a test's capture): it is open
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def _stdout_failed(exc: StdoutError, real: Any) -> int:
    """One line on stderr for a standard output that cannot be written, the exit code,
    and standard output pointed at /dev/null so the interpreter's last flush is quiet."""
    if exc.errno == errno.EPIPE:
        msg, code = ("đầu ra đã bị đóng bởi chương trình đọc nó (ống vỡ); dừng in / "
                     "output stopped: the reader of standard output went away (broken pipe)",
                     EXIT_BROKEN_PIPE)
    elif exc.errno == errno.ENOSPC:
        msg, code = ("không ghi được đầu ra chuẩn: thiết bị đã đầy / cannot write standard "
                     "output: no space left on the device it goes to", EXIT_OUTPUT)
    elif exc.errno == errno.EBADF:
        msg, code = ("đầu ra chuẩn đã đóng / standard output is closed: give it a file or "
                     "a pipe (> /dev/null to discard it)", EXIT_OUTPUT)
    else:
        msg, code = (f"không ghi được đầu ra chuẩn ({exc.strerror}) / cannot write standard "
                     f"output ({exc.strerror})", EXIT_OUTPUT)
    try:
        print(f"chanspec: {msg}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    try:
        if real.fileno() == 1:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
    return code


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated


def main(argv: Sequence[str] | None = None) -> int:
    if _stdout_closed():
        print("chanspec: đầu ra chuẩn đã đóng / standard output is closed (>&-): give it a "
              "file or a pipe (> /dev/null to discard it)", file=sys.stderr)
        return EXIT_OUTPUT
    real = sys.stdout
    sys.stdout = GuardedStream(real)  # type: ignore[assignment]
    old_term: Any = None
    try:
        old_term = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread: leave signals alone
        old_term = None
    try:
        code = _main(argv)
        try:
            sys.stdout.flush()
        except StdoutError as exc:
            code = _stdout_failed(exc, real)
        return code
    finally:
        sys.stdout = real
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)


def _main(argv: Sequence[str] | None) -> int:
    from chanspec.checks.output import OutputPathError
    from chanspec.model import kinds
    from chanspec.model import table as shared_table
    from chanspec.model.chan import cards, table, win

    real = getattr(sys.stdout, "_stream", sys.stdout)
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(list(argv) if argv is not None else None)
        except SystemExit as exc:  # --help, or a usage error argparse already reported
            return int(exc.code) if isinstance(exc.code, int) else EXIT_INPUT
        func = getattr(args, "func", None)
        if func is None:
            parser.print_help(sys.stderr)
            return EXIT_INPUT
    except StdoutError as exc:
        return _stdout_failed(exc, real)
    try:
        if getattr(args, "ruleset", None):
            # a table of a kind this command does not take yet, or whose turn the
            # machine does not play: say so in one line before any work
            kinds.require(args.ruleset, args.command)
            if args.command in PLAYING_COMMANDS:
                kinds.load(args.ruleset).require_playable()
        return int(func(args))
    except (table.MachineGapError, kinds.UnsupportedError) as exc:
        en_only = getattr(args, "lang", "vi") == "en"
        print(f"chanspec: {exc.en if en_only else f'{exc.vi} / {exc.en}'}", file=sys.stderr)
        return EXIT_INPUT
    except shared_table.RulesetNotFound as exc:
        print(f"chanspec: {exc.line()}", file=sys.stderr)
        return EXIT_INPUT
    except shared_table.TableError as exc:
        _error("bảng luật không đọc được", "the rule table does not load", exc)
        return EXIT_TABLE
    except cards.CardError as exc:
        _error("quân bài không hợp lệ", "unknown card", exc)
        return EXIT_INPUT
    except win.HandError as exc:
        _error("bài không hợp lệ", "impossible hand", exc)
        return EXIT_INPUT
    except shared_table.OptionError as exc:
        _error("tùy chọn không hợp lệ", "bad option", exc)
        return EXIT_INPUT
    except OutputPathError as exc:
        print(exc.line(), file=sys.stderr)
        return EXIT_INPUT
    except StdoutError as exc:
        return _stdout_failed(exc, real)
    except Terminated:
        print("chanspec: đã dừng (SIGTERM) / stopped (SIGTERM)", file=sys.stderr)
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        print("chanspec: đã dừng / interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:  # noqa: BLE001 - never show a traceback to the family
        if os.environ.get("CHANSPEC_DEBUG"):
            traceback.print_exc()
        _error("lỗi nội bộ", "internal error",
               f"{type(exc).__name__}: {exc}\nThis is a bug in chanspec; rerun with "
               "CHANSPEC_DEBUG=1 to see the traceback and report it.")
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
