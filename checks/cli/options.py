"""Shared pieces of the command line: the options every command accepts, and how they
resolve to a rule table.  How lines are printed and files written is `chanspec.checks.output`.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from chanspec.model import table as table_mod

PLAYER_CHOICES = (4, 5)


def add_command(
    subparsers: argparse._SubParsersAction, name: str, vi: str, en: str,  # type: ignore[type-arg]
    epilog: str | None = None,
) -> argparse.ArgumentParser:
    """A subparser whose one-line help is ``"<vi> / <en>"`` (what ``--help`` lists)."""
    return subparsers.add_parser(
        name,
        help=f"{vi} / {en}",
        description=f"{vi}\n{en}",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def add_common(
    parser: argparse.ArgumentParser,
    *,
    players: bool = True,
    options: bool = True,
    json: bool = True,
) -> None:
    """--ruleset, --players, --option NAME=VALUE, --json and --lang."""
    parser.add_argument(
        "--ruleset", default="family", metavar="NAME|PATH",
        help="bộ luật: tên có sẵn (family) hoặc đường dẫn .toml / "
             "rule table: a built-in name (default: family) or a path to a .toml file",
    )
    if players:
        parser.add_argument(
            "--players", type=int, default=4, choices=PLAYER_CHOICES,
            help="số người chơi / number of players (4 or 5, default 4)",
        )
    if options:
        parser.add_argument(
            "--option", action="append", default=[], metavar="NAME=VALUE",
            help="chọn giá trị cho một luật còn mở, lặp lại được / set an open or "
                 "provisional rule, repeatable (e.g. lao-thang=off)",
        )
    if json:
        parser.add_argument(
            "--json", action="store_true",
            help="in kết quả dạng JSON / print JSON instead of text",
        )
    parser.add_argument(
        "--lang", choices=("vi", "en"), default="vi",
        help="ngôn ngữ: vi = tiếng Việt kèm tiếng Anh, en = chỉ tiếng Anh / "
             "output language: vi = Vietnamese with English beside it (default), en = English",
    )


def load_table(args: argparse.Namespace) -> table_mod.Table:
    """The table named by --ruleset (raises TableError with the reasons)."""
    return table_mod.load(args.ruleset)


def options_of(args: argparse.Namespace, table: table_mod.Table) -> dict[str, str]:
    """--option items checked against the table (raises OptionError)."""
    return table.parse_options(getattr(args, "option", None) or [])


def resolve(args: argparse.Namespace) -> table_mod.Rules:
    """The resolved rules for --ruleset, --players and --option."""
    table = load_table(args)
    return table.resolve(getattr(args, "players", 4), options_of(args, table))








def non_default_options(rules: table_mod.Rules) -> Mapping[str, str]:
    """Options whose value differs from the table's default."""
    defaults = rules.table.defaults()
    return {k: v for k, v in sorted(rules.options.items()) if defaults.get(k) != v}


def positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1 (a clear message otherwise)."""
    import argparse

    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return n
