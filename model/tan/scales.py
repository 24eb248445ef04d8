"""The scaled-down Tấn games the checker searches exhaustively (``spec/scales/<id>.toml``).

A scale keeps every row of the table and shrinks only the data the machine sizes itself
by: the suits and ranks of ``[deck]`` (ids of the table's own), the player count and the
hand of ``[deal]``, and the short pack's weakest rank and hand (read when row ``deck`` or
``hand-size`` is valued ``short``).  The edited copy of the table is validated again by
`chanspec.model.tan.table.from_data` under its own id (``tan@duo``), so a scale that the
table's own checks would refuse is refused here too.  The file is data beside the table
(as a TLA+ model's ``MC.cfg`` is beside its spec): it changes no row and no digest.

`scales(table)` is the kind's answer to "which small games may the checker enumerate"
(`chanspec.model.kind.Kind.scales`); each `Scale` builds its rules under option values
(`Scale.rules`), its seeded deals (`Scale.deals`) and a start position (`Scale.start`).
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chanspec.model import textfile
from chanspec.model.table import Problem, TableError, _Checker, builtin_path

from . import table as table_mod
from .game import Deal, State, deal_random
from .table import TanRules, TanTable

_KEYS = ("name", "players", "suits", "ranks", "hand", "deals", "seed", "vi", "en",
         "keeps_vi", "keeps_en", "drops_vi", "drops_en")
_OPTIONAL = ("short_weakest", "short_hand", "previous", "quick_deals")


@dataclass(frozen=True)
class Scale:
    """One scaled-down game of a Tấn table (see the module docstring)."""

    name: str
    players: int
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    hand: int
    deal_count: int
    quick_deals: int
    seed: int
    previous: tuple[int, int] | None
    vi: str
    en: str
    keeps: tuple[str, str]  # vi, en
    drops: tuple[str, str]
    table: TanTable = field(compare=False, repr=False)
    _rules: dict[tuple[tuple[str, str], ...], TanRules] = field(
        default_factory=dict, compare=False, repr=False)

    def rules(self, options: Mapping[str, str] | None = None) -> TanRules:
        """The scaled table at this scale's player count under these option values."""
        key = tuple(sorted((options or {}).items()))
        r = self._rules.get(key)
        if r is None:
            r = self._rules[key] = self.table.resolve(self.players, dict(options or {}))
        return r

    def deal_seeds(self, n: int | None = None) -> list[int]:
        """The seeds of the first `n` deals (all of them by default)."""
        return [self.seed + i for i in range(self.deal_count if n is None else n)]

    def deals(self, rules: TanRules, n: int | None = None) -> list[Deal]:
        """The seeded deals (the same seeds under every option value; a pack of another
        size, row ``deck``, deals other cards)."""
        return [deal_random(rules, s, 0, self.previous) for s in self.deal_seeds(n)]

    def start(self, rules: TanRules, deal: Deal) -> State:
        return State(rules, deal, _dealt=True)

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "players": self.players, "suits": list(self.suits),
                "ranks": list(self.ranks), "hand": self.hand, "deals": self.deal_count,
                "seed": self.seed, "previous": None if self.previous is None else
                list(self.previous), "vi": self.vi, "en": self.en,
                "keeps": list(self.keeps), "drops": list(self.drops)}


def path_of(table: TanTable) -> Path:
    """Where the scales of `table` are: ``spec/scales/<id>.toml`` for the built-in
    table, ``<file>.scales.toml`` beside a table given by path."""
    home = builtin_path(table_mod.BUILTIN)
    if table.path == home.name:
        return home.parent / "scales" / f"{table.id}.toml"
    p = Path(table.path)
    return p.with_name(p.stem + ".scales.toml")


def scales(table: TanTable) -> list[Scale]:
    """The scales of `table`, validated (TableError naming the file, the scale and the
    field otherwise)."""
    p = path_of(table)
    try:
        text = textfile.read(p, textfile.TABLE_LIMIT)
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except (textfile.FileRefused, OSError) as exc:
        why = getattr(exc, "why", None) or getattr(exc, "strerror", None) or str(exc)
        raise TableError([Problem(str(p), "(file)", "", f"no scales for table {table.id!r} "
                                  f"({why}); write them there as [[scale]] entries")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise TableError([Problem(str(p), "(syntax)", "", f"not valid TOML: {exc}")]) from None
    return from_data(table, data, str(p))


def from_data(table: TanTable, data: Mapping[str, Any], path: str) -> list[Scale]:
    ck = _Checker(path)
    ck.keys("(top level)", data, ["schema", "scale"])
    items = data.get("scale")
    if not isinstance(items, list) or not items:
        ck.add("scale", "", "expected a list of [[scale]] entries")
        raise TableError(ck.problems)
    out: list[Scale] = []
    names: set[str] = set()
    suit_ids = [s[0] for s in table.deck.suits]
    rank_ids = [r[0] for r in table.deck.ranks]
    for i, it in enumerate(items):
        where = f"scale[{i}]"
        if not ck.keys(where, it, _KEYS, _OPTIONAL):
            continue
        name = it["name"]
        if not isinstance(name, str) or not name.isidentifier() or name in names:
            ck.add(where, "name", f"expected a new identifier, found {name!r}")
            continue
        names.add(name)
        where = f"scale {name}"
        bad = len(ck.problems)
        for fld in ("players", "hand", "deals", "seed", *(
                f for f in ("short_hand", "quick_deals") if f in it)):
            v = it[fld]
            if not isinstance(v, int) or isinstance(v, bool) or v < (0 if fld == "seed" else 1):
                ck.add(where, fld, f"expected a whole number of at least "
                       f"{0 if fld == 'seed' else 1}, found {v!r}")
        for fld, known in (("suits", suit_ids), ("ranks", rank_ids)):
            v = it[fld]
            if not (isinstance(v, list) and v and all(x in known for x in v)
                    and len(set(v)) == len(v)):
                ck.add(where, fld, f"expected distinct ids of the table's {fld} "
                       f"({', '.join(known)}), found {v!r}")
        for fld in ("vi", "en", "keeps_vi", "keeps_en", "drops_vi", "drops_en"):
            if not isinstance(it[fld], str) or not it[fld].strip():
                ck.add(where, fld, "expected a non-empty string")
        prev = it.get("previous")
        if prev is not None and not (isinstance(prev, list) and len(prev) == 2 and all(
                isinstance(x, int) and not isinstance(x, bool) for x in prev)):
            ck.add(where, "previous", f"expected [first, last], two seats, found {prev!r}")
        if len(ck.problems) > bad:
            continue
        try:
            scaled = _scaled_table(table, it)
            scaled.resolve(it["players"])
        except TableError as exc:
            for pr in exc.problems:
                ck.add(where, pr.field or pr.where, f"the scaled table is refused: {pr.message}")
            continue
        except ValueError as exc:  # OptionError: a player count the table lacks, too few cards
            ck.add(where, "players", f"the scaled table is refused: {exc}")
            continue
        out.append(Scale(name, it["players"], tuple(it["suits"]), tuple(it["ranks"]),
                         it["hand"], it["deals"], it.get("quick_deals", it["deals"]), it["seed"],
                         None if prev is None else (prev[0], prev[1]), it["vi"], it["en"],
                         (it["keeps_vi"], it["keeps_en"]), (it["drops_vi"], it["drops_en"]),
                         scaled))
    if ck.problems:
        raise TableError(ck.problems)
    return out


def _scaled_table(table: TanTable, it: Mapping[str, Any]) -> TanTable:
    """A copy of the table's data with this scale's deck and deal, validated again."""
    data = copy.deepcopy(dict(table.data))
    data["ruleset"] = {**data["ruleset"], "id": f"{table.id}@{it['name']}"}
    keep_s: Sequence[str] = it["suits"]
    keep_r: Sequence[str] = it["ranks"]
    deck = dict(data["deck"])
    deck["suit"] = [s for s in deck["suit"] if s["id"] in keep_s]
    deck["rank"] = [r for r in deck["rank"] if r["id"] in keep_r]  # strongest first, as listed
    for fld in ("short_weakest",):
        if fld in it:
            deck[fld] = it[fld]
        else:
            deck.pop(fld, None)
    deal = {**data["deal"], "hand": it["hand"], "players": [it["players"]]}
    if "short_hand" in it:
        deal["short_hand"] = it["short_hand"]
    else:
        deal.pop("short_hand", None)
    data["deck"], data["deal"] = deck, deal
    return table_mod.from_data(data, f"{table.path}@{it['name']}")
