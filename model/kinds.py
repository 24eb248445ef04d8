"""The registry of game kinds, and the one door to a ruleset.

`KINDS` maps the value of a table's ``[ruleset] kind`` to its `Kind` record; a table that
states no kind is of `DEFAULT` (every table written before kinds existed, so their digests
and the findings and vectors saved from them did not move).  This is the only module that
names kinds: the kinds are imported plainly here, so that ``tests/test_layout.py`` sees
every arrow, and nothing else imports a kind's record module.

>>> load("family").id, of(load("classic")).name, of(load("chiha")).name, of(load("tan")).name
('family', 'chan', 'chiha', 'tan')
>>> rules("family", 4, lao_thang="off").option("lao-thang")
'off'
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import table as shared_table
from . import textfile
from .chan import kind as chan_kind
from .chan import table as table_mod
from .chan.table import Rules, Table
from .chiha import kind as chiha_kind
from .kind import Kind
from .table import Problem, TableError
from .tan import kind as tan_kind

KINDS: dict[str, Kind] = {k.name: k for k in (chan_kind.KIND, chiha_kind.KIND, tan_kind.KIND)}
DEFAULT = chan_kind.KIND.name  # the kind of a table without [ruleset] kind


class KindError(TableError):
    """A table whose ``[ruleset] kind`` names no kind this chanspec plays."""


class UnsupportedError(ValueError):
    """A command asked of a table whose kind it does not take yet; `vi` and `en` are the
    one-line reason in each language."""

    def __init__(self, vi: str, en: str):
        self.vi, self.en = vi, en
        super().__init__(en)


def names() -> list[str]:
    """The kinds there are, sorted."""
    return sorted(KINDS)


def get(name: str, path: str = "<table>") -> Kind:
    """The kind called `name`; raises KindError (with a close match, if any, and the
    kinds there are) when there is none."""
    kind = KINDS.get(name)
    if kind is None:
        near = difflib.get_close_matches(name, names(), n=1)
        hint = f" Did you mean {near[0]!r}?" if near else ""
        raise KindError([Problem(path, "ruleset", "kind", f"unknown kind {name!r}.{hint} "
                                 f"Kinds: {', '.join(names())}")])
    return kind


def of(table: Table) -> Kind:
    """The kind that plays `table` (its ``[ruleset] kind``, else `DEFAULT`)."""
    return get(table.kind_name or DEFAULT, table.path)


def builtin_names() -> list[str]:
    """The built-in rulesets (``spec/*.toml``), sorted: ``chiha``, ``classic``,
    ``family``, ``tan``."""
    return shared_table.builtin_names()


def builtin_of(pred: Callable[[Kind], bool]) -> list[str]:
    """The built-in rulesets whose kind satisfies `pred`, sorted (``builtin_of(lambda k:
    k.has_machine)``: those a machine plays)."""
    return [n for n in builtin_names() if pred(kind_of_file(n))]


def require(name_or_path: str, command: str) -> Kind:
    """The kind of ruleset `name_or_path` when `command` takes it; raises
    UnsupportedError (one line naming the kind and what does take it) otherwise, and
    KindError for a kind this chanspec does not have."""
    kind = kind_of_file(name_or_path)
    if kind.supports(command):
        return kind
    takes = ", ".join(sorted(kind.commands or ()))
    raise UnsupportedError(
        f"chanspec {command}: bộ luật {name_or_path!r} thuộc loại {kind.name!r} "
        f"({kind.title_vi}); lệnh này chưa nhận loại ấy (các lệnh nhận nó: {takes or 'chưa có'})",
        f"chanspec {command}: ruleset {name_or_path!r} is of kind {kind.name!r} "
        f"({kind.title_en}); this command does not take that kind yet (commands that do: "
        f"{takes or 'none yet'})")


def from_data(data: dict[str, Any], path: str = "<data>", *, dealt: bool = True) -> Table:
    """A table from parsed TOML, validated by its kind's loader; raises TableError
    (KindError for an unknown kind)."""
    rs = data.get("ruleset")
    name = rs.get("kind", DEFAULT) if isinstance(rs, dict) else DEFAULT
    if not isinstance(name, str):
        raise KindError([Problem(path, "ruleset", "kind", f"expected a string naming a kind, "
                                 f"found {name!r}; kinds: {', '.join(names())}")])
    return get(name, path).from_data(data, path, dealt=dealt)


def load_text(text: str, path: str = "<table>", *, dealt: bool = True) -> Table:
    """A table from TOML text; raises TableError (KindError for an unknown kind)."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except (tomllib.TOMLDecodeError, RecursionError):
        return table_mod.load_text(text, path, dealt=dealt)  # its own one-line errors
    return from_data(data, path, dealt=dealt)


def kind_of_file(name_or_path: str) -> Kind:
    """The kind a built-in ruleset (by name) or a table file (by path) states; the
    default for a table that states none, or one that does not parse (its kind's loader
    then gives the one-line error)."""
    p = Path(name_or_path)
    if not os.path.lexists(p):
        if name_or_path not in builtin_names():
            return KINDS[DEFAULT]  # the loader says "no such ruleset"
        p = shared_table.builtin_path(name_or_path)
    try:  # only a regular file, up to a size: a FIFO or /dev/zero is the loader's to refuse
        text = textfile.read(p, textfile.TABLE_LIMIT)
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except (textfile.FileRefused, tomllib.TOMLDecodeError, RecursionError):
        return KINDS[DEFAULT]
    rs = data.get("ruleset")
    name = rs.get("kind", DEFAULT) if isinstance(rs, dict) else DEFAULT
    return get(name, str(p)) if isinstance(name, str) else KINDS[DEFAULT]


def load(name_or_path: str = "family") -> Table:
    """A built-in ruleset by name (``family``, ``classic``) or a table file by path,
    validated by the loader of its kind; raises TableError (KindError for an unknown
    kind) with every problem found."""
    return kind_of_file(name_or_path).load(name_or_path)


def rules(name: str = "family", players: int = 4, **options: str) -> Rules:
    """The rules of ruleset `name` for `players` seats under these option values
    (``lao_thang="off"`` sets row ``lao-thang``; the table's defaults otherwise); raises
    TableError, or OptionError for an option or a player count the table lacks."""
    table = load(name)
    opts = {k.replace("_", "-"): v for k, v in options.items()}
    return table.resolve(players, opts or None)
