"""Named presets: sets of option values a rule table names, shared by every kind.

A table may hold ``[presets.NAME]`` entries, each with ``title_vi``, ``title_en`` and
``options = {row = "value", …}``: a house's way of playing in one word instead of a dozen
``--option`` flags.  The table as written (every row at its default) stays what is played
without ``--preset``; ``--option`` given beside ``--preset`` overrides single values.

`check` validates the entries while a table loads (each problem names the file, the
preset and the row); `presets_of` reads them from a loaded table; `options_for` turns
``--preset`` and ``--option`` into the option values a table resolves with.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from chanspec.model.table import ID_RE, OptionError, Problem, Row, _Checker

SECTION = "presets"  # the table's key


@dataclass(frozen=True)
class Preset:
    """One named set of option values (`options`: row id -> value)."""

    name: str
    title_vi: str
    title_en: str
    options: Mapping[str, str]


class _Table(Protocol):
    id: str
    data: Mapping[str, Any]

    def parse_options(self, items: Iterable[str]) -> dict[str, str]: ...

    def check_options(self, options: Mapping[str, str]) -> None: ...


def check(ck: _Checker, data: Mapping[str, Any], rows: Mapping[str, Row]) -> None:
    """The ``[presets]`` of a table's data: each a table with both titles and options
    that name open or provisional rows and values those rows have."""
    raw = data.get(SECTION)
    if raw is None:
        return
    if not isinstance(raw, dict):
        ck.add(SECTION, "", f"expected [{SECTION}.NAME] tables, found {type(raw).__name__}")
        return
    choices = sorted(r.id for r in rows.values() if r.is_choice)
    for name, entry in raw.items():
        where = f"{SECTION}.{name}"
        if not ID_RE.match(str(name)):
            ck.add(where, "", "a preset name must be kebab-case, e.g. durak-two")
        if not ck.keys(where, entry, ["title_vi", "title_en", "options"]):
            continue
        for fld in ("title_vi", "title_en"):
            if fld in entry and not (isinstance(entry[fld], str) and entry[fld].strip()):
                ck.add(where, fld, "expected a non-empty string")
        opts = entry.get("options")
        if not isinstance(opts, dict) or not opts:
            ck.add(where, "options", 'expected a table of row = "value", e.g. '
                   'options = { after-take = "after-taker" }')
            continue
        for rid, value in opts.items():
            row = rows.get(rid)
            fld = f"options.{rid}"
            if row is None:
                near = difflib.get_close_matches(str(rid), choices, n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                ck.add(where, fld, f"no row {rid!r} in this table{hint}")
            elif not row.is_choice:
                ck.add(where, fld, f"row {rid!r} is settled; a preset sets only open or "
                       f"provisional rows ({', '.join(choices)})")
            elif value not in row.values:
                ck.add(where, fld, f"row {rid!r} has no value {value!r}; its values are "
                       f"{', '.join(row.values)}")


def check_playable(table: _Table, path: str) -> list[Problem]:
    """The presets' option values the table's own check refuses (e.g. a reading its
    machine does not play yet), as problems naming the preset."""
    out = []
    for p in presets_of(table).values():
        try:
            table.check_options(p.options)
        except OptionError as exc:
            out.append(Problem(path, f"{SECTION}.{p.name}", "options", str(exc)))
    return out


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
