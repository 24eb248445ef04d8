"""Loading a Tấn table (``spec/tan.toml``) and resolving its open rows.

The rows (``[[rule]]``) are read by the shared row parser of `chanspec.model.table`
(statuses, values, defaults, titles, locators); the Tấn sections by `vocab`.  Every
problem is reported at once as a `chanspec.model.table.TableError` naming the file, the
entry and the field.  The door to a Tấn table is the registry
(`chanspec.model.kinds.load`), which calls `load` here for a table whose ``[ruleset]
kind`` is ``tan``.

`TanRules` is a table for a number of players with a value for each open or provisional
row (its default unless an option chose another); `TanRules.rid(role)` is the row a field
names (``play.after_take`` -> ``after-take``) and `TanRules.value(role)` its value in
force.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chanspec.model import gamelog, presets, textfile
from chanspec.model.table import (
    PRESETS,
    OptionError,
    Problem,
    Row,
    TableError,
    _Checker,
    _parse_rows,
    builtin_path,
    check_presets,
    preset_problems,
)

from . import vocab
from .cards import Deck

KIND_NAME = "tan"  # the [ruleset] kind of a Tấn table
BUILTIN = "tan"  # the built-in table's name (spec/tan.toml)


@dataclass(frozen=True)
class Variant:
    """A player count the table plays, and its hand size."""

    rule: str
    players: int
    hand: int


@dataclass(frozen=True)
class TanTable:
    """A validated Tấn table."""

    id: str
    path: str
    data: Mapping[str, Any]
    rows: Mapping[str, Row]
    deck: Deck
    hand: int
    variants: Mapping[int, Variant]
    roles: Mapping[str, str]  # "play.after_take" -> "after-take"
    _digest: list[str] = field(default_factory=list, compare=False, repr=False)
    # the short pack and hand ([deck] short_weakest, [deal] short_hand), read when the
    # rows [deck] rule and [deal] rule name are open or provisional and valued "short"
    short_deck: Deck | None = None
    short_hand: int = 0

    def deck_of(self, options: Mapping[str, str]) -> Deck:
        """The pack these option values play with (row ``deck``)."""
        rid = str(self.data["deck"]["rule"])
        return self.short_deck if self.short_deck and options.get(rid) == "short" \
            else self.deck

    def hand_of(self, options: Mapping[str, str]) -> int:
        """The hand size these option values play with (row ``hand-size``)."""
        rid = str(self.data["deal"]["rule"])
        return self.short_hand if self.short_hand and options.get(rid) == "short" \
            else self.hand

    def presets(self) -> dict[str, presets.Preset]:
        """The table's named sets of option values (``[presets.NAME]``)."""
        return presets.presets_of(self)

    @property
    def kind_name(self) -> str:
        return str(self.data["ruleset"]["kind"])

    @property
    def title_vi(self) -> str:
        return str(self.data["ruleset"]["title_vi"])

    @property
    def title_en(self) -> str:
        return str(self.data["ruleset"]["title_en"])

    def require_playable(self) -> None:
        """A Tấn table is always played by its machine (the registry refuses the commands
        that do not take the kind)."""

    def digest(self) -> str:
        """SHA-256 of the table's data (comments and layout do not count)."""
        if not self._digest:
            self._digest.append(gamelog.table_digest(self.data))
        return self._digest[0]

    def field_rule(self, role: str) -> str:
        """The row a field names: ``play.after_take`` -> ``after-take``."""
        if role not in self.roles:
            raise KeyError(f"table {self.id!r} has no field {role}")
        return self.roles[role]

    def defaults(self) -> dict[str, str]:
        """Each open or provisional row's default value."""
        return {r.id: r.default for r in self.rows.values() if r.values and r.default}

    def parse_options(self, items: Iterable[str]) -> dict[str, str]:
        """``NAME=VALUE`` items checked against the rows (`OptionError` with a hint)."""
        out: dict[str, str] = {}
        for item in items:
            name, sep, value = item.partition("=")
            if not sep:
                raise OptionError(f"--option {item!r}: expected NAME=VALUE, e.g. "
                                  "after-take=after-taker")
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
            for role, unplayed in vocab.UNPLAYED.items():
                if self.roles.get(role) == name and value in unplayed:
                    played = [v for v in row.values if v not in unplayed]
                    raise OptionError(f"--option {name}={value}: the Tấn machine does not "
                                      f"play that reading yet; it plays {', '.join(played)}")

    def resolve(self, players: int | None = None,
                options: Mapping[str, str] | None = None) -> TanRules:
        """The rules for `players` (the smallest count when None) under these option
        values (`OptionError` for a count the table does not play)."""
        if players is None:
            players = min(self.variants)
        if players not in self.variants:
            raise OptionError(f"table {self.id!r} has no variant for {players} players; it "
                              f"has: {', '.join(map(str, sorted(self.variants)))} (row "
                              f"{self.roles.get('deal.players', 'players')})")
        opts = dict(options or {})
        self.check_options(opts)
        full = {**self.defaults(), **opts}
        deck, hand = self.deck_of(full), self.hand_of(full)
        if hand * players + 1 > deck.size:
            raise OptionError(f"{players} hands of {hand} and the turned card need "
                              f"{hand * players + 1} cards; the pack of these options has "
                              f"{deck.size} (rows {self.data['deal']['rule']}, "
                              f"{self.data['deck']['rule']})")
        return TanRules(self, players, full)


@dataclass(frozen=True)
class TanRules:
    """A Tấn table with one value for each of its open rows."""

    table: TanTable
    players: int
    options: Mapping[str, str]

    def option(self, name: str) -> str:
        return self.options[name]

    def rid(self, role: str) -> str:
        """The row a field names (``play.after_take`` -> ``after-take``)."""
        return self.table.field_rule(role)

    def value(self, role: str) -> str:
        """The value in force of the open row a field names (``play.after_take`` ->
        ``right-of-attacker``)."""
        return self.options[self.rid(role)]

    def on(self, role: str) -> bool:
        """A variant row read as on/off."""
        return self.value(role) == "on"

    def with_options(self, **changes: str) -> TanRules:
        opts = dict(self.options)
        opts.update({k.replace("_", "-"): v for k, v in changes.items()})
        return self.table.resolve(self.players, opts)

    @property
    def hand(self) -> int:
        """The cards dealt to each seat and refilled to (row hand-size)."""
        return self.table.hand_of(self.options)

    @property
    def deck(self) -> Deck:
        """The pack (row deck): the table's, or its short one."""
        return self.table.deck_of(self.options)

    def key(self) -> tuple[Any, ...]:
        return (self.table.id, self.players, tuple(sorted(self.options.items())))


def from_data(data: dict[str, Any], path: str = "<data>", *, dealt: bool = True) -> TanTable:
    """A table from parsed TOML, validated (`TableError` listing every problem);
    `dealt` is the registry's flag for Chắn tables and changes nothing here."""
    ck = _Checker(path)
    ck.keys("(top level)", data, ["schema", "ruleset", "rule", *vocab.SECTIONS],
            [PRESETS])
    rs = data.get("ruleset")
    if ck.keys("ruleset", rs, ["id", "kind", "title_vi", "title_en", "source"]):
        assert isinstance(rs, dict)
        if rs.get("kind") != KIND_NAME:
            ck.add("ruleset", "kind", f"expected {KIND_NAME!r} for a Tấn table, found "
                   f"{rs.get('kind')!r}")
    rows = _parse_rows(ck, data)
    check_presets(ck, data, rows)
    suits, ranks = vocab.validate_deck(ck, data, rows)
    hand, players = vocab.validate_deal(ck, data, rows)
    roles = vocab.validate_fields(ck, data, rows)
    if suits and ranks and hand and players and hand * max(players) + 1 > len(suits) * len(ranks):
        ck.add("deal", "hand", f"{max(players)} hands of {hand} and the turned card need "
               f"{hand * max(players) + 1} cards; the deck has {len(suits) * len(ranks)}")
    if ck.problems:
        raise TableError(ck.problems)
    deal = data["deal"]
    suit_t = tuple((s["id"], s["code"], s["vi"], s["en"]) for s in suits)
    rank_t = tuple((r["id"], r["code"], r["vi"], r["en"], r["count"]) for r in ranks)
    deck = Deck(suit_t, rank_t)
    weakest = data["deck"].get("short_weakest")
    short = None if weakest is None else Deck(
        suit_t, rank_t[:[r[0] for r in rank_t].index(weakest) + 1])
    variants = {p: Variant(str(deal["players_rule"]), p, hand) for p in players}
    table = TanTable(str(data["ruleset"]["id"]), path, data, rows, deck, hand, variants, roles,
                     short_deck=short, short_hand=int(deal.get("short_hand", 0)))
    if bad := preset_problems(table, path):
        raise TableError(bad)
    return table


_CACHE: dict[str, TanTable] = {}


def load(name_or_path: str = BUILTIN) -> TanTable:
    """The built-in table ``tan`` or a Tấn table file by path (`TableError` otherwise)."""
    if name_or_path in _CACHE:
        return _CACHE[name_or_path]
    p = Path(name_or_path)
    if name_or_path == BUILTIN and not p.exists():
        p = builtin_path(BUILTIN)
    try:
        text = textfile.read(p, textfile.TABLE_LIMIT)
    except textfile.FileRefused as exc:
        raise TableError([Problem(str(p), "(file)", "", exc.why)]) from None
    except UnicodeDecodeError:
        raise TableError([Problem(str(p), "(file)", "", "not UTF-8 text")]) from None
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise TableError([Problem(str(p), "(syntax)", "", f"not valid TOML: {exc}")]) from None
    except RecursionError:
        raise TableError([Problem(str(p), "(syntax)", "", "not valid TOML: nested too "
                                  "deeply")]) from None
    table = from_data(data, p.name if name_or_path == BUILTIN else str(p))
    _CACHE[name_or_path] = table
    return table
