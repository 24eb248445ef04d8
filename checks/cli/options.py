"""Shared pieces of the command line: the options every command accepts, and how they
resolve to a rule table.  How lines are printed and files written is `chanspec.checks.output`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping

from chanspec.model import kinds, presets
from chanspec.model import table as shared_table
from chanspec.model.chan import table as table_mod


def player_count(text: str) -> int:
    """argparse type for --players: a whole number; which counts exist is the table's
    business (`players_of` checks it once the table is loaded)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of players such as 4 or 5, got {text!r}") from None


def players_of(table: table_mod.Table, requested: Iterable[int] | None) -> tuple[int, ...]:
    """The player counts to use: every variant of the table when none is requested;
    raises OptionError naming the table's variants for a count it does not define."""
    have = tuple(sorted(table.variants))
    if not requested:
        return have
    for n in requested:
        if n not in table.variants:
            raise shared_table.OptionError(
                f"--players {n}: table {table.id!r} has no variant for {n} players; "
                f"it has: {', '.join(str(p) for p in have)} ({_players_place(table)})")
    return tuple(sorted(set(requested)))


def _players_place(table: table_mod.Table) -> str:
    """Where the table lists its player counts: a Chắn table's ``[[variant]]`` rows, or
    the ``[deal] players`` of a kind that lists them there (Tấn)."""
    deal = table.data.get("deal")
    if isinstance(deal, dict) and "players" in deal:
        rid = deal.get("players_rule")
        return "[deal] players of the table" + (f", row {rid}" if rid else "")
    return "[[variant]] rows of the table"


COMMON_EXIT_CODES = (
    "2   đầu vào sai / bad input (usage, card, hand, option, file)",
    "70  lỗi nội bộ / internal error: a bug in chanspec (CHANSPEC_DEBUG=1 shows the traceback)",
    "130 bị ngắt / interrupted (Ctrl-C)",
    "150 bảng luật không đọc được / the rule table does not load",
)


def exit_codes_line(codes: tuple[str, ...] = ("0   xong / ok",)) -> str:
    """The exit codes every command's help ends with: its own, then the ones any command
    may return."""
    return "\n  ".join(("Mã thoát / exit codes:", *codes, *COMMON_EXIT_CODES))


def add_command(
    subparsers: argparse._SubParsersAction, name: str, vi: str, en: str,  # type: ignore[type-arg]
    epilog: str | None = None, codes: tuple[str, ...] = ("0   xong / ok",),
) -> argparse.ArgumentParser:
    """A subparser whose one-line help is ``"<vi> / <en>"`` (what ``--help`` lists); its
    help ends with `epilog` and the exit codes (`codes`: the command's own)."""
    tail = exit_codes_line(codes)
    return subparsers.add_parser(
        name,
        help=f"{vi} / {en}",
        description=f"{vi}\n{en}",
        epilog=f"{epilog}\n\n{tail}" if epilog else tail,
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
        help="bộ luật: tên có sẵn (family, classic, tan) hoặc đường dẫn .toml / "
             "rule table: a built-in name (default: family; classic: classic Chắn bí tứ; "
             "tan: Tấn, on the 52-card pack) or a path to a .toml file",
    )
    if players:
        parser.add_argument(
            "--players", type=player_count, default=None, metavar="N",
            help="số người chơi, một biến thể của bảng luật / number of players, one of the "
                 "table's variants (family: 4 or 5; tan: 2 to 4; chiha: 3; default 4, or "
                 "the table's only count)",
        )
    if options:
        add_preset(parser)
        parser.add_argument(
            "--option", action="append", default=[], metavar="NAME=VALUE",
            help="chọn giá trị cho một luật còn mở, lặp lại được; ghi đè giá trị của "
                 "--preset / set an open or provisional rule, repeatable, overriding the "
                 "value --preset gives it (e.g. lao-thang=off)",
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


def add_preset(parser: argparse.ArgumentParser) -> None:
    """--preset NAME: a named set of option values of the table (``[presets.NAME]``)."""
    parser.add_argument(
        "--preset", default=None, metavar="NAME",
        help="một bộ giá trị có tên của bảng luật (chanspec rules liệt kê) / a named set of "
             "option values of the table (chanspec rules lists them; e.g. tan: durak-two); "
             "without it the table is played as written",
    )


def add_log_ruleset(parser: argparse.ArgumentParser) -> None:
    """--ruleset for commands that read a game log: by default the log names a built-in
    ruleset; a log never makes chanspec open a table file it names."""
    parser.add_argument(
        "--ruleset", default=None, metavar="NAME|PATH",
        help="bảng luật của nhật ký khi không phải bảng có sẵn (nhật ký không bao giờ khiến "
             "chanspec mở một tệp nó nêu) / the rule table the log was written under, when it "
             "is not a built-in one (a log never makes chanspec open a file it names); its "
             "id, and its digest when the log carries one, must match the log",
    )


def log_table(args: argparse.Namespace) -> table_mod.Table | None:
    """The table given with --ruleset to read a log with, or None (the log's built-in)."""
    name = getattr(args, "ruleset", None)
    return None if name is None else kinds.load(name)


def load_table(args: argparse.Namespace) -> table_mod.Table:
    """The table named by --ruleset, through the registry of kinds (raises TableError
    with the reasons; an unknown ``[ruleset] kind`` is one of them)."""
    return kinds.load(args.ruleset)


def options_of(args: argparse.Namespace, table: table_mod.Table) -> dict[str, str]:
    """The values of --preset, each --option overriding one, checked against the table
    (raises OptionError: an unknown preset lists the table's presets)."""
    return presets.options_for(table, getattr(args, "preset", None),
                               getattr(args, "option", None) or [])


def default_players(table: table_mod.Table, given: int | None) -> int:
    """--players as given; without it 4, or the table's smallest count when it has no
    variant for 4 (Chiha is for three)."""
    if given is not None:
        return given
    return 4 if 4 in table.variants else min(table.variants)


def resolve(args: argparse.Namespace) -> table_mod.Rules:
    """The resolved rules for --ruleset, --players and --option."""
    table = load_table(args)
    players = players_of(table, [default_players(table, getattr(args, "players", None))])[0]
    return table.resolve(players, options_of(args, table))


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


# The most hands one command plays (`score --frequency N`, `play --hands N`): one place
# for the limit; the CPU time of a hand was measured on the project's 2-core machine
# (2026-12-03: 400 greedy frequency hands in 2.7 s, a 100-hand session in 0.5 s,
# start-up taken off), so the message can say what a larger count would cost.
MAX_HANDS = 100_000
SECONDS_PER_HAND = {"--frequency": 0.007, "--hands": 0.005}


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600),
                       ("minutes", 60)):
        if seconds >= size:
            return f"about {seconds / size:,.0f} {unit}"
    return f"about {seconds:.0f} seconds"


def hand_count(flag: str) -> Callable[[str], int]:
    """argparse type for a number of hands to play (`flag` is the option's name): a whole
    number up to MAX_HANDS; above it, the limit and an estimate of the time asked for."""
    import argparse

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number of hands such as 1000, got {text!r}") from None
        if n > MAX_HANDS:
            per = SECONDS_PER_HAND[flag]
            raise argparse.ArgumentTypeError(
                f"{n:,} hands is more than the limit of {MAX_HANDS:,} (one hand takes about "
                f"{per * 1000:.0f} ms of CPU, so {MAX_HANDS:,} take {_duration(MAX_HANDS * per)}"
                f" and {n:,} would take {_duration(n * per)}); run several seeds "
                f"(--seed) instead")
        return n

    return parse
