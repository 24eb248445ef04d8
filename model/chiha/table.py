"""Loading a Chiha table (``spec/chiha.toml``) and resolving its open rows.

The rows (``[[rule]]``) are read by the shared row parser of `chanspec.model.table`
(statuses, values, defaults, titles, locators); the Chiha sections by `vocab`.  Every
problem is reported at once as a `chanspec.model.table.TableError` naming the file, the
entry and the field.  Until the kind registry dispatches on ``[ruleset] kind``, this
module is the door to a Chiha table: `load("chiha")` or `load(path)`.

`ChihaRules` is a table with a value chosen for each open row (its default unless an
option says otherwise); `ChihaRules.value(row_id)` is what the code reads.
"""

from __future__ import annotations

import difflib
import importlib.resources
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chanspec.model.table import OptionError, Problem, Row, TableError, _Checker, _parse_rows

from . import vocab
from .deck import Deck, Suit

KIND = "chiha"


@dataclass(frozen=True)
class ChihaTable:
    """A validated Chiha table."""

    id: str
    path: str
    data: Mapping[str, Any]
    rows: Mapping[str, Row]
    colours: tuple[Suit, ...]
    ranks: tuple[Suit, ...]
    copies_rule: str
    copies_by_value: Mapping[str, int]
    melds: tuple[vocab.MeldShape, ...]
    bonus: int
    bans: tuple[vocab.DiscardBan, ...]
    _decks: dict[int, Deck] = field(default_factory=dict, compare=False, repr=False)

    def defaults(self) -> dict[str, str]:
        """Each open or provisional row's default value (a settled row with history: its
        chosen value)."""
        return {r.id: r.default for r in self.rows.values() if r.values and r.default}

    def parse_options(self, items: Iterable[str]) -> dict[str, str]:
        """``NAME=VALUE`` items checked against the rows (`OptionError` with a hint)."""
        out: dict[str, str] = {}
        for item in items:
            name, sep, value = item.partition("=")
            if not sep:
                raise OptionError(f"--option {item!r}: expected NAME=VALUE, e.g. "
                                  "discard-chot-scope=holds-set")
            out[name.strip()] = value.strip()
        self.check_options(out)
        return out

    def check_options(self, options: Mapping[str, str]) -> None:
        choices = sorted(r.id for r in self.rows.values() if r.is_choice)
        for name, value in options.items():
            row = self.rows.get(name)
            if row is None or not row.is_choice:
                near = difflib.get_close_matches(name, choices, n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise OptionError(f"--option {name}: no open or provisional row of table "
                                  f"{self.id!r} has that id{hint}; open rows: "
                                  f"{', '.join(choices)}")
            if value not in row.values:
                raise OptionError(f"--option {name}={value}: row {name!r} has the values "
                                  f"{', '.join(row.values)}")

    def resolve(self, options: Mapping[str, str] | None = None) -> ChihaRules:
        opts = dict(options or {})
        self.check_options(opts)
        return ChihaRules(self, {**self.defaults(), **opts})

    def deck(self, copies: int) -> Deck:
        if copies not in self._decks:
            self._decks[copies] = Deck(self.colours, self.ranks, copies)
        return self._decks[copies]


@dataclass(frozen=True)
class ChihaRules:
    """A Chiha table with one value for each of its open rows."""

    table: ChihaTable
    options: Mapping[str, str]

    def value(self, rid: str) -> str:
        """The value row `rid` has here (its default unless an option chose another)."""
        return self.options[rid]

    @property
    def copies(self) -> int:
        return self.table.copies_by_value[self.value(self.table.copies_rule)]

    @property
    def deck(self) -> Deck:
        return self.table.deck(self.copies)

    def key(self) -> tuple[Any, ...]:
        return (self.table.id, tuple(sorted(self.options.items())))


def _suits(items: list[dict[str, str]]) -> tuple[Suit, ...]:
    return tuple(Suit(i["id"], i["code"], i["vi"], i["en"]) for i in items)


def from_data(data: dict[str, Any], path: str = "<data>") -> ChihaTable:
    """A table from parsed TOML, validated (`TableError` listing every problem)."""
    ck = _Checker(path)
    ck.keys("(top level)", data, ["schema", "ruleset", "rule", *vocab.SECTIONS[:2]],
            list(vocab.SECTIONS[2:]))
    rs = data.get("ruleset")
    if ck.keys("ruleset", rs, ["id", "kind", "title_vi", "title_en", "source"]):
        assert isinstance(rs, dict)
        if rs.get("kind") != KIND:
            ck.add("ruleset", "kind", f"expected {KIND!r} for a Chiha table, found "
                   f"{rs.get('kind')!r}")
    rows = _parse_rows(ck, data)
    colours, ranks, copies_rule, by_value = vocab.validate_deck(ck, data, rows)
    rank_ids = tuple(r["id"] for r in ranks)
    melds = vocab.validate_melds(ck, data, rows, rank_ids, len(colours))
    bans = vocab.validate_bans(ck, data, rows, rank_ids)
    vocab.validate_rest(ck, data, rows, rank_ids)
    con = data.get("concealed")
    bonus = con.get("bonus", 0) if isinstance(con, dict) else 0
    if ck.problems:
        raise TableError(ck.problems)
    return ChihaTable(str(data["ruleset"]["id"]), path, data, rows, _suits(colours),
                      _suits(ranks), copies_rule, by_value, tuple(melds), int(bonus),
                      tuple(bans))


_CACHE: dict[str, ChihaTable] = {}


def load(name_or_path: str = "chiha") -> ChihaTable:
    """The built-in table ``chiha`` or a Chiha table file by path."""
    if name_or_path in _CACHE:
        return _CACHE[name_or_path]
    p = Path(name_or_path)
    if p.suffix != ".toml" and not p.exists():
        if name_or_path != KIND:
            raise TableError([Problem(name_or_path, "(ruleset)", "", "no such Chiha table; "
                                      "built-in: chiha, or give a path to a .toml file")])
        p = Path(str(importlib.resources.files("chanspec.spec").joinpath("chiha.toml")))
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8").removeprefix("\ufeff"))
    except OSError as exc:
        raise TableError([Problem(str(p), "(file)", "", f"cannot read: {exc.strerror}")]) from None
    except UnicodeDecodeError:
        raise TableError([Problem(str(p), "(file)", "", "not UTF-8 text")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise TableError([Problem(str(p), "(syntax)", "", f"not valid TOML: {exc}")]) from None
    table = from_data(data, p.name if name_or_path == KIND else str(p))
    _CACHE[name_or_path] = table
    return table
