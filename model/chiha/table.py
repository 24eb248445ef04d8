"""Loading a Chiha table (``spec/chiha.toml``) and resolving its open rows.

The rows (``[[rule]]``) are read by the shared row parser of `chanspec.model.table`
(statuses, values, defaults, titles, locators); the Chiha sections by `vocab`.  Every
problem is reported at once as a `chanspec.model.table.TableError` naming the file, the
entry and the field.  The door to a Chiha table is the registry
(`chanspec.model.kinds.load`), which calls `load` here for a table whose ``[ruleset]
kind`` is ``chiha``.

`ChihaRules` is a table for a number of players with a value chosen for each open row
(its default unless an option says otherwise); `ChihaRules.value(row_id)` is what the
code reads, and `ChihaRules.rid(role)` the row a field of the table names
(``win.count_rule`` -> ``lenh-partition``).
"""

from __future__ import annotations

import difflib
import importlib.resources
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chanspec.model import gamelog
from chanspec.model.table import (
    OptionError,
    Problem,
    Row,
    TableError,
    _Checker,
    _parse_rows,
    option_items,
)

from . import vocab
from .deck import Deck, Suit

KIND_NAME = "chiha"  # the [ruleset] kind of a Chiha table
BUILTIN = "chiha"  # the built-in table's name (spec/chiha.toml)


@dataclass(frozen=True)
class Variant:
    """One ``[[variant]]``: a player count and its deal sizes."""

    rule: str
    players: int
    opener_cards: int
    other_cards: int


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
    variants: Mapping[int, Variant]
    _decks: dict[int, Deck] = field(default_factory=dict, compare=False, repr=False)
    _digest: list[str] = field(default_factory=list, compare=False, repr=False)

    @property
    def kind_name(self) -> str:
        return str(self.data["ruleset"]["kind"])

    @property
    def title_vi(self) -> str:
        return str(self.data["ruleset"]["title_vi"])

    @property
    def title_en(self) -> str:
        return str(self.data["ruleset"]["title_en"])

    def digest(self) -> str:
        """SHA-256 of the table's data (comments and layout do not count): a game log
        written under another table than the built-in one names it by this digest."""
        if not self._digest:
            self._digest.append(gamelog.table_digest(self.data))
        return self._digest[0]

    def require_playable(self) -> None:
        """A Chiha table is played by its machine (`chanspec.model.chiha.game`); the
        registry refuses the commands that do not take the kind."""

    def field_rule(self, role: str) -> str:
        """The row id a field of the table names: ``win.count_rule`` -> ``lenh-partition``
        (``section.field``; a list section's first entry with that field)."""
        sec, _, fld = role.partition(".")
        obj = self.data.get(sec)
        if isinstance(obj, list):
            obj = next((o for o in obj if isinstance(o, dict) and fld in o), None)
        if not isinstance(obj, dict) or not isinstance(obj.get(fld), str):
            raise KeyError(f"table {self.id!r} has no field {role}")
        return str(obj[fld])

    def defaults(self) -> dict[str, str]:
        """Each open or provisional row's default value (a settled row with history: its
        chosen value)."""
        return {r.id: r.default for r in self.rows.values() if r.values and r.default}

    def parse_options(self, items: Iterable[str]) -> dict[str, str]:
        """``NAME=VALUE`` items checked against the rows (`OptionError` with a hint)."""
        out = option_items(items, "discard-chot-scope=holds-set")
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

    def resolve(self, players: int | None = None,
                options: Mapping[str, str] | None = None) -> ChihaRules:
        """The rules for `players` (the table's only count when None) under these
        option values (`OptionError` for a count the table has no [[variant]] for)."""
        if players is None:
            players = min(self.variants)
        if players not in self.variants:
            raise OptionError(f"table {self.id!r} has no [[variant]] for {players} players; "
                              f"it has: {', '.join(map(str, sorted(self.variants)))} (row "
                              "two-players: the text gives no rules for two)")
        opts = dict(options or {})
        self.check_options(opts)
        return ChihaRules(self, players, {**self.defaults(), **opts})

    def deck(self, copies: int) -> Deck:
        if copies not in self._decks:
            self._decks[copies] = Deck(self.colours, self.ranks, copies)
        return self._decks[copies]


@dataclass(frozen=True)
class ChihaRules:
    """A Chiha table with one value for each of its open rows."""

    table: ChihaTable
    players: int
    options: Mapping[str, str]

    def value(self, rid: str) -> str:
        """The value row `rid` has here (its default unless an option chose another)."""
        return self.options[rid]

    def option(self, name: str) -> str:
        return self.options[name]

    def rid(self, role: str) -> str:
        """The row a field names (``win.count_rule`` -> ``lenh-partition``)."""
        return self.table.field_rule(role)

    def reading(self, role: str) -> str:
        """The value in force of the open row a field names (``win.count_rule`` ->
        ``laid-fixed-hand-best``)."""
        return self.value(self.rid(role))

    def with_options(self, **changes: str) -> ChihaRules:
        opts = dict(self.options)
        opts.update({k.replace("_", "-"): v for k, v in changes.items()})
        return self.table.resolve(self.players, opts)

    @property
    def variant(self) -> Variant:
        return self.table.variants[self.players]

    @property
    def copies(self) -> int:
        return self.table.copies_by_value[self.value(self.table.copies_rule)]

    @property
    def deck(self) -> Deck:
        return self.table.deck(self.copies)

    def key(self) -> tuple[Any, ...]:
        return (self.table.id, self.players, tuple(sorted(self.options.items())))


@dataclass(frozen=True)
class WinBar:
    """The lệnh a win needs (``[win] threshold``) and tới quan needs (``[win] quan``), each
    read "at least" or "more than" as its open row says (u-threshold, quan-threshold):
    the one place where a count of lệnh is compared with them."""

    threshold: int
    more_than: bool
    quan: int
    quan_more: bool
    rows: tuple[str, str]  # the rows of the two readings

    @classmethod
    def of(cls, rules: ChihaRules) -> WinBar:
        w = rules.table.data["win"]
        return cls(int(w["threshold"]), rules.value(w["threshold_rule"]) == "more-than",
                   int(w["quan"]), rules.value(w["quan_rule"]) == "more-than",
                   (w["threshold_rule"], w["quan_rule"]))

    def wins(self, lenh: int) -> bool:
        """Are `lenh` enough to win (an empty hand granted)?"""
        return lenh > self.threshold if self.more_than else lenh >= self.threshold

    def is_quan(self, lenh: int) -> bool:
        """Are `lenh` enough for tới quan?"""
        return lenh > self.quan if self.quan_more else lenh >= self.quan


def _suits(items: list[dict[str, str]]) -> tuple[Suit, ...]:
    return tuple(Suit(i["id"], i["code"], i["vi"], i["en"]) for i in items)


def from_data(data: dict[str, Any], path: str = "<data>", *, dealt: bool = True) -> ChihaTable:
    """A table from parsed TOML, validated (`TableError` listing every problem);
    `dealt` is the registry's flag for Chắn tables and changes nothing here."""
    ck = _Checker(path)
    ck.keys("(top level)", data, ["schema", "ruleset", "rule", *vocab.SECTIONS[:2]],
            list(vocab.SECTIONS[2:]))
    rs = data.get("ruleset")
    if ck.keys("ruleset", rs, ["id", "kind", "title_vi", "title_en", "source"]):
        assert isinstance(rs, dict)
        if rs.get("kind") != KIND_NAME:
            ck.add("ruleset", "kind", f"expected {KIND_NAME!r} for a Chiha table, found "
                   f"{rs.get('kind')!r}")
    rows = _parse_rows(ck, data)
    colours, ranks, copies_rule, by_value = vocab.validate_deck(ck, data, rows)
    rank_ids = tuple(r["id"] for r in ranks)
    melds = vocab.validate_melds(ck, data, rows, rank_ids, len(colours))
    bans = vocab.validate_bans(ck, data, rows, rank_ids)
    vocab.validate_rest(ck, data, rows, rank_ids)
    con = data.get("concealed")
    bonus = con.get("bonus", 0) if isinstance(con, dict) else 0
    variants: dict[int, Variant] = {}
    for v in data.get("variant", []) if isinstance(data.get("variant"), list) else []:
        if isinstance(v, dict) and all(isinstance(v.get(k), int) for k in
                                       ("players", "opener_cards", "other_cards")):
            if v["players"] in variants:
                ck.add("variant", "players", f"two [[variant]] entries for {v['players']} "
                       "players")
            variants[v["players"]] = Variant(str(v.get("rule", "")), v["players"],
                                             v["opener_cards"], v["other_cards"])
    if ck.problems:
        raise TableError(ck.problems)
    return ChihaTable(str(data["ruleset"]["id"]), path, data, rows, _suits(colours),
                      _suits(ranks), copies_rule, by_value, tuple(melds), int(bonus),
                      tuple(bans), variants)


_CACHE: dict[str, ChihaTable] = {}


def load(name_or_path: str = BUILTIN) -> ChihaTable:
    """The built-in table ``chiha`` or a Chiha table file by path."""
    if name_or_path in _CACHE:
        return _CACHE[name_or_path]
    p = Path(name_or_path)
    if p.suffix != ".toml" and not p.exists():
        if name_or_path != BUILTIN:
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
    except RecursionError:
        raise TableError([Problem(str(p), "(syntax)", "", "not valid TOML: nested too "
                                  "deeply")]) from None
    if not isinstance(data, dict):
        raise TableError([Problem(str(p), "(file)", "", "expected a TOML table")])
    table = from_data(data, p.name if name_or_path == BUILTIN else str(p))
    _CACHE[name_or_path] = table
    return table
