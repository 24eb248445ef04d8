"""Named presets: sets of option values a rule table names, shared by every kind.

A table may hold ``[presets.NAME]`` entries, each with ``title_vi``, ``title_en`` and
``options = {row = "value", …}``: a house's way of playing in one word instead of a dozen
``--option`` flags.  The table as written (every row at its default) stays what is played
without ``--preset``; ``--option`` given beside ``--preset`` overrides single values.

`chanspec.model.table.check_presets` validates the entries while a table of any kind
loads (each problem names the file, the preset and the row); `presets_of` reads them
from a loaded table; `options_for` turns
``--preset`` and ``--option`` into the option values a table resolves with.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .table import PRESETS as SECTION
from .table import OptionError


@dataclass(frozen=True)
class Preset:
    """One named set of option values (`options`: row id -> value)."""

    name: str
    title_vi: str
    title_en: str
    options: Mapping[str, str]


__all__ = ["SECTION", "Preset", "lookup", "options_for", "presets_of"]


class _Table(Protocol):
    id: str
    data: Mapping[str, Any]

    def parse_options(self, items: Iterable[str]) -> dict[str, str]: ...

    def check_options(self, options: Mapping[str, str]) -> None: ...


def presets_of(table: _Table) -> dict[str, Preset]:
    """The table's presets by name, in the table's order (empty when it has none)."""
    raw = table.data.get(SECTION) or {}
    return {name: Preset(name, str(e["title_vi"]), str(e["title_en"]),
                         {str(k): str(v) for k, v in e["options"].items()})
            for name, e in raw.items()}


def lookup(table: _Table, name: str) -> Preset:
    """The preset `name` of `table` (OptionError listing its presets otherwise)."""
    have = presets_of(table)
    if name in have:
        return have[name]
    near = difflib.get_close_matches(name, sorted(have), n=1)
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    listed = f"its presets: {', '.join(have)}" if have else "it has none"
    raise OptionError(f"--preset {name}: table {table.id!r} has no preset of that "
                      f"name{hint}; {listed} (chanspec rules --ruleset {table.id} lists them)")


def options_for(table: _Table, preset: str | None, items: Iterable[str]) -> dict[str, str]:
    """The option values of `preset` (none: the table as written), with each
    ``--option NAME=VALUE`` of `items` overriding one of them (OptionError when bad)."""
    out = dict(lookup(table, preset).options) if preset else {}
    out.update(table.parse_options(items))
    table.check_options(out)
    return out
