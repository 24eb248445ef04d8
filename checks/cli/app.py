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
* 130 interrupted (Ctrl-C)
* 150 the rule table does not load (the message names file, rule id/path and field)
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import traceback
from collections.abc import Sequence
from types import ModuleType

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
EXIT_INTERRUPTED = 130
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
                              "conform", "serve", "questions", "report", "settle"})


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
            "invariant, endless play, 70 internal error, 130 interrupted, "
            "150 rule table does not load."
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


def main(argv: Sequence[str] | None = None) -> int:
    from chanspec.checks.output import OutputPathError
    from chanspec.model import cards, kinds, table, win

    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # --help, or a usage error argparse already reported
        return int(exc.code) if isinstance(exc.code, int) else EXIT_INPUT
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return EXIT_INPUT
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
    except table.TableError as exc:
        _error("bảng luật không đọc được", "the rule table does not load", exc)
        return EXIT_TABLE
    except cards.CardError as exc:
        _error("quân bài không hợp lệ", "unknown card", exc)
        return EXIT_INPUT
    except win.HandError as exc:
        _error("bài không hợp lệ", "impossible hand", exc)
        return EXIT_INPUT
    except table.OptionError as exc:
        _error("tùy chọn không hợp lệ", "bad option", exc)
        return EXIT_INPUT
    except OutputPathError as exc:
        print(exc.line(), file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("chanspec: đã dừng / interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader (e.g. `head`) went away; stop quietly
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        except OSError:
            pass
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - never show a traceback to the family
        if os.environ.get("CHANSPEC_DEBUG"):
            traceback.print_exc()
        _error("lỗi nội bộ", "internal error",
               f"{type(exc).__name__}: {exc}\nThis is a bug in chanspec; rerun with "
               "CHANSPEC_DEBUG=1 to see the traceback and report it.")
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
