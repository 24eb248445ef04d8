"""Loading a Chắn table (``spec/family.toml``, ``spec/classic.toml``) and resolving it
into `Rules`.

The rows (``[[rule]]``) are read by the shared row parser of `chanspec.model.table`
(statuses, values, defaults, titles, locators, decisions, presets); the Chắn sections by
`chanspec.model.chan.vocab`.  Every problem is reported at once as a
`chanspec.model.table.TableError` naming the file, the rule id (or table path) and the
field.  Nothing from the table is ever executed.

`Table` is the validated file; `Table.resolve(players, options)` gives `Rules`, the
concrete parameters one game runs under.  A table picks its deck from the 30-face
universe of `cards` (``[deck] faces``: ``"all"`` or a list of codes).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import textfile
from ..table import (
    UNCHECKED,
    OptionError,
    Problem,
    Row,
    RulesetNotFound,
    TableError,
    _toml_error,
    builtin_names,
    builtin_path,
    check_presets,
    cond_holds,
    option_items,
    preset_problems,
    without_audit,
)
from . import cards
from .vocab import (
    MACHINE_DEFAULTS,
    MACHINE_VALUES,
    PLAYED_FLOWS,
    SCOPES,
    SETTLE_SECTIONS,
    ChanChecker,
    Variant,
    _validate,
    cai_count_key,
    role_row,
)


class MachineGapError(ValueError):
    """A table whose turn (``[turn] flow``) the machine does not play; `vi` and `en` are
    the one-line reason in each language."""

    def __init__(self, vi: str, en: str):
        self.vi, self.en = vi, en
        super().__init__(en)


@dataclass(frozen=True)
class Restriction:
    """A ``[[restriction]]`` resolved: the bans its trigger creates, and how far they reach
    from the triggering card (`scope`, one of `SCOPES`; `scope_rule` is the option row
    that chose it, empty when the restriction states its scope itself).  A restriction
    with `when` (one of `HAND_CONDITIONS`) and no trigger bans its acts while the hand
    meets that condition."""

    rule: str
    trigger: str
    bans: tuple[str, ...]
    scope: str = "face"
    scope_rule: str = ""
    when: str = ""


@dataclass(frozen=True)
class ClaimRule:
    allowed: bool
    rule: str


@dataclass(frozen=True)
class Rules:
    """One table resolved for a player count and a choice of every option."""

    table: Table
    variant: Variant
    options: Mapping[str, str]
    faces: tuple[int, ...]  # faces in the deck
    copies: int
    red: frozenset[int]
    ca_rules: tuple[tuple[tuple[str, ...], ...], ...]  # [a][b] -> rule ids making a cạ
    special: tuple[tuple[bool, ...], ...]  # [a][b] -> special cạ
    components: tuple[tuple[int, ...], ...]  # connected classes of the cạ graph
    never_complete: frozenset[int]
    never_complete_applies: frozenset[str]
    claims: Mapping[tuple[str, str], ClaimRule]
    priority: tuple[tuple[str, ...], ...]
    restrictions: tuple[Restriction, ...]
    odd_group: frozenset[int]
    ca_class_rules: tuple[str, ...]  # every [[pairing.ca]] row, for "no cạ" explanations
    rule_ids: Mapping[str, str]  # role -> row id, from [win], [eating], [turn], ...
    # faces that complete only a hand of exactly `min_chan` chắn, by which kinds of win
    # ([win] exact_min, exact_min_applies or exact_min_applies_by_value)
    exact_min: frozenset[int] = frozenset()
    exact_min_applies: frozenset[str] = frozenset()
    # role -> the value the machine reads for it (`MACHINE_VALUES`), under these options
    machine: Mapping[str, str] = field(default_factory=dict)
    # chắn needed for a win on the dealt hand ([win] opening_min_chan; min_chan otherwise)
    opening_min_chan: int = -1
    # [cai]: the number each face of the deck counts as when it is the cái card; None for
    # a table without the dealing ritual (the opener is given)
    cai_counts: Mapping[int, int] | None = None

    def __post_init__(self) -> None:
        if self.opening_min_chan < 0:
            object.__setattr__(self, "opening_min_chan", self.variant.min_chan)

    @property
    def laid_pooled(self) -> bool:
        """[win] laid_rule reads ``pooled``: laid chắn and cạ are split again with the
        concealed cards when a win is judged (False: as laid, also without the role)."""
        return self.machine.get("win.laid_rule", "as-laid") == "pooled"

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def pairs(self) -> int:
        return self.variant.pairs

    @property
    def min_chan(self) -> int:
        return self.variant.min_chan

    def is_ca(self, a: int, b: int) -> bool:
        return bool(self.ca_rules[a][b])

    def is_special(self, a: int, b: int) -> bool:
        return self.special[a][b]

    def option(self, name: str) -> str:
        return self.options[name]

    def rid(self, role: str) -> str:
        return self.rule_ids[role]

    def machine_value(self, role: str) -> str:
        """The value the machine reads for a role of `MACHINE_VALUES` (e.g.
        ``turn.timeout_rule`` -> ``none``): the option value of its row, or what the table
        states for it."""
        return self.machine[role]

    def scope_faces(self, scope: str, face: int) -> tuple[int, ...]:
        """The faces a ban of this `scope` (one of `SCOPES`) triggered by `face` covers,
        `face` first, then the others in face order.

        >>> rules("family", 4).scope_faces("rank", cards.parse("3v"))  # 3v, 3n, 3s
        (2, 11, 20)
        """
        if scope == "face":
            return (face,)
        if scope == "rank":
            r = cards.rank_of(face)
            return (face,) + tuple(f for f in self.faces
                                   if f != face and r is not None and cards.rank_of(f) == r)
        if scope == "ca-partners":
            return (face,) + tuple(f for f in self.faces if f != face and self.is_ca(face, f))
        if scope == "any":
            return (face,) + tuple(f for f in self.faces if f != face)
        raise ValueError(f"unknown restriction scope {scope!r}; scopes: {', '.join(SCOPES)}")

    def with_options(self, **changes: str) -> Rules:
        opts = dict(self.options)
        opts.update({k.replace("_", "-"): v for k, v in changes.items()})
        return self.table.resolve(self.players, opts)

    def key(self) -> tuple[Any, ...]:
        return (self.table.id, self.players, tuple(sorted(self.options.items())))


@dataclass(frozen=True)
class Table:
    """A validated rule table."""

    id: str
    path: str
    data: Mapping[str, Any]
    rows: Mapping[str, Row]
    variants: Mapping[int, Variant]
    # resolved rules by (players, options in force): a table never changes, and
    # resolving is the slow part of starting a hand (a replayed log, an engine's start)
    _resolved: dict[tuple[Any, ...], Rules] = field(default_factory=dict, compare=False,
                                                    repr=False)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_resolved": {}}  # the cache is not sent to other processes

    @property
    def title_vi(self) -> str:
        return str(self.data["ruleset"]["title_vi"])

    @property
    def title_en(self) -> str:
        return str(self.data["ruleset"]["title_en"])

    @property
    def kind_name(self) -> str | None:
        """The table's ``[ruleset] kind``, None when it states none (then the registry's
        default kind, `chanspec.model.kinds.of`, plays it)."""
        kind = self.data["ruleset"].get("kind")
        return None if kind is None else str(kind)

    def digest(self) -> str:
        """SHA-256 of the table's data (not of its file: comments and layout do not count);
        logs name a table by it (saved findings use the same digest of the table with
        its decisions taken back and without its words, `without_wording`:
        `chanspec.checks.findings.compute.table_digest`)."""
        text = json.dumps(without_audit(self.data), sort_keys=True, ensure_ascii=False,
                          default=str)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @property
    def flow(self) -> str:
        """The turn the table states (``[turn] flow``; the machine's own when absent)."""
        turn = self.data.get("turn", {})
        return str(turn.get("flow", PLAYED_FLOWS[0]))

    def machine_gap(self) -> tuple[str, str] | None:
        """None when the machine can play a hand of this table; otherwise one line in
        Vietnamese and one in English naming what it lacks: the table's ``[turn] flow``
        and the rows of ``flow_rules`` (by their titles)."""
        if self.flow in PLAYED_FLOWS:
            return None
        ids = self.data["turn"].get("flow_rules", [])
        rows = [self.rows[r] for r in ids if r in self.rows]
        vi = ", ".join(f"{r.title('vi')} ({r.id})" for r in rows)
        en = ", ".join(f"{r.title('en')} ({r.id})" for r in rows)
        return (f"bảng {self.id!r} có lượt chơi [turn] flow = {self.flow!r}, máy chưa chơi "
                f"được (máy chỉ chơi lượt {', '.join(PLAYED_FLOWS)}); còn thiếu: {vi}",
                f"table {self.id!r} states [turn] flow = {self.flow!r}, which the machine "
                f"does not play yet (it plays the {', '.join(PLAYED_FLOWS)} turn only); "
                f"missing: {en}")

    def require_playable(self) -> None:
        """Nothing when the machine plays this table's turn; raises MachineGapError
        naming what it lacks otherwise (`machine_gap`)."""
        gap = self.machine_gap()
        if gap is not None:
            raise MachineGapError(*gap)

    def deck_faces(self) -> tuple[int, ...]:
        """The faces of this table's deck, in face order."""
        faces = self.data["deck"]["faces"]
        if faces == "all":
            return tuple(range(cards.NUM_FACES))
        return tuple(sorted({cards.parse(c) for c in faces}))

    def check_cards(self, faces: Iterable[int]) -> list[int]:
        """`faces` unchanged when every one is in this table's deck; raises CardError
        naming the first that is not and the faces the deck has."""
        return cards.require_in_deck(faces, self.deck_faces(), f"{self.id!r} ({self.title_en})")

    def is_builtin(self) -> bool:
        """Is this the built-in table of the same id, unchanged?"""
        return self.id in builtin_names() and load(self.id).digest() == self.digest()

    def option_rows(self) -> list[Row]:
        """The open and provisional rows: the choices ``--option`` may make."""
        return [r for r in self.rows.values() if r.is_choice]

    def defaults(self) -> dict[str, str]:
        """The value in force of every row the machine reads a value for: the default
        of an open or provisional row, the chosen value of a settled one."""
        return {r.id: r.default for r in self.rows.values()
                if r.is_option and r.default is not None}

    def parse_options(self, items: Iterable[str]) -> dict[str, str]:
        """``["lao-thang=off", ...]`` -> {"lao-thang": "off"}, with clear errors."""
        out = option_items(items, "lao-thang=off")
        self.check_options(out)
        return out

    def check_options(self, options: Mapping[str, str]) -> None:
        rows = {r.id: r for r in self.option_rows()}
        for k, v in options.items():
            row = self.rows.get(k)
            if k not in rows and row is not None and row.is_option:
                if v == row.default:
                    continue
                when = row.decisions[-1].get("date", "?") if row.decisions else "?"
                raise OptionError(
                    f"{k!r} was settled as {row.default!r} ({when}); its other readings "
                    f"({', '.join(x for x in row.values if x != row.default)}) are history. "
                    f"To try one, reopen it: chanspec settle --undo {k}")
            if k not in rows:
                near = difflib.get_close_matches(k, sorted(rows), n=1)
                hint = f" Did you mean {near[0]!r}?" if near else ""
                raise OptionError(
                    f"there is no option {k!r} in table {self.id!r}.{hint} "
                    f"Options: {', '.join(sorted(rows))}"
                )
            if v not in rows[k].values:
                raise OptionError(
                    f"option {k!r} has no value {v!r}; its values are: "
                    f"{', '.join(rows[k].values)} (default {rows[k].default})"
                )

    def rows_named_in(self, sections: Iterable[str]) -> set[str]:
        """The row ids named anywhere (any depth of tables and lists) in these sections
        of the table's data: the rows those sections make the machine read."""
        found: set[str] = set()

        def walk(x: Any) -> None:
            if isinstance(x, str) and x in self.rows:
                found.add(x)
            elif isinstance(x, dict):
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)

        for name in sections:
            walk(self.data.get(name))
        return found

    def option_space(self) -> list[tuple[str, tuple[str, ...]]]:
        return [(r.id, r.values) for r in self.option_rows()]

    def resolve(self, players: int, options: Mapping[str, str] | None = None) -> Rules:
        if players not in self.variants:
            raise OptionError(
                f"table {self.id!r} has no variant for {players} players; "
                f"it has: {', '.join(str(p) for p in sorted(self.variants))}"
            )
        opts = self.defaults()
        if options:
            self.check_options(options)
            opts.update(options)
        key = (players, tuple(sorted(opts.items())))
        rules = self._resolved.get(key)
        if rules is None:
            rules = self._resolved[key] = _resolve(self, self.variants[players], opts)
        return rules


def load_text(text: str, path: str = "<table>", *, dealt: bool = True) -> Table:
    """A table from TOML text (a UTF-8 byte-order mark at the start is ignored).

    ``dealt=False`` is for tables that only judge hands and are never dealt (the oracles'
    reduced decks): the deck need not cover every variant's deal."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise TableError([_toml_error(path, exc)]) from None
    except RecursionError:
        raise TableError([Problem(path, "(syntax)", "", "arrays or tables nested too deeply "
                                  "to read; a rule table nests a few levels at most (compare "
                                  "with spec/family.toml)")]) from None
    return from_data(data, path, dealt=dealt)



def from_data(data: dict[str, Any], path: str = "<data>", *, dealt: bool = True) -> Table:
    """A table from already-parsed data (e.g. an edited copy of ``load(...).data``),
    validated exactly as `load_text` validates a file."""
    ck = ChanChecker(path, dealt=dealt)
    try:
        rows, variants = _validate(ck, data)
    except (TypeError, KeyError, AttributeError, ValueError, IndexError) as exc:
        # A shape the field checks above did not foresee.  Still a clear error, never a
        # traceback; the mutation tests fail if they ever reach this line.
        raise TableError(ck.problems + [Problem(
            path, UNCHECKED, "", f"a value has an unexpected type or a section is missing "
            f"({type(exc).__name__}: {exc}); compare with spec/family.toml")]) from None
    check_presets(ck, data, rows)
    if ck.problems:
        raise TableError(ck.problems)
    table = Table(str(data["ruleset"]["id"]), path, data, rows, variants)
    if bad := preset_problems(table, path):
        raise TableError(bad)
    # Resolve every variant under the defaults: catches tables that validate field by
    # field but do not make a playable game.
    for p in variants:
        try:
            table.resolve(p)
        except OptionError as exc:
            raise TableError([Problem(path, f"variant for {p} players", "", str(exc))]) from None
        except (TypeError, KeyError, AttributeError, ValueError, IndexError) as exc:
            raise TableError([Problem(
                path, UNCHECKED, "", f"the table validates but does not resolve for {p} "
                f"players ({type(exc).__name__}: {exc})")]) from None
    return table


_CACHE: dict[str, Table] = {}


def load(name_or_path: str = "family") -> Table:
    """A built-in ruleset by name (``family``) or a table file by path (a regular file of
    at most `textfile.TABLE_LIMIT` bytes; raises RulesetNotFound for anything else)."""
    if name_or_path in _CACHE:
        return _CACHE[name_or_path]
    p = Path(name_or_path)
    if not os.path.lexists(p):
        names = builtin_names()
        if name_or_path not in names:
            looks_like_path = p.suffix == ".toml" or os.sep in name_or_path
            what = ("no such file" if looks_like_path
                    else "no built-in ruleset of that name, and no such file")
            raise RulesetNotFound(name_or_path, f"{what}; the built-in rulesets are "
                                  f"{', '.join(names)}; or give the path of a .toml rule "
                                  "table")
        p = builtin_path(name_or_path)
    try:
        text = textfile.read(p, textfile.TABLE_LIMIT)
    except textfile.FileRefused as exc:
        if exc.why.startswith("not UTF-8"):
            raise TableError([Problem(str(p), "(file)", "", exc.why)]) from None
        raise RulesetNotFound(name_or_path, exc.why) from None
    table = load_text(text, str(p) if p.is_absolute() and "site-packages" in str(p) else
                      (p.name if p.parent == builtin_path("family").parent else str(p)))
    _CACHE[name_or_path] = table
    return table


def rules(
    name: str = "family", players: int = 4, options: Mapping[str, str] | None = None
) -> Rules:
    return load(name).resolve(players, options)


# --------------------------------------------------------------------------- resolving


def _resolve(table: Table, variant: Variant, options: Mapping[str, str]) -> Rules:
    d = table.data
    deck = d["deck"]
    faces = tuple(range(cards.NUM_FACES)) if deck["faces"] == "all" else tuple(
        sorted({cards.parse(c) for c in deck["faces"]}))
    in_deck = set(faces)
    ca: list[list[list[str]]] = [[[] for _ in range(30)] for _ in range(30)]
    nonspecial: list[list[bool]] = [[False] * 30 for _ in range(30)]
    flag_special: list[list[bool]] = [[False] * 30 for _ in range(30)]

    def add(a: int, b: int, rid: str, special: bool) -> None:
        if a == b or a not in in_deck or b not in in_deck:
            return
        for x, y in ((a, b), (b, a)):
            if rid not in ca[x][y]:
                ca[x][y].append(rid)
            if not special:
                nonspecial[x][y] = True

    for c in d["pairing"]["ca"]:
        if "when" in c and not cond_holds(c["when"], options):
            continue
        rid, kind, special = c["rule"], c["kind"], bool(c.get("special", False))
        if kind == "same-rank":
            for a in faces:
                for b in faces:
                    ra, rb = cards.rank_of(a), cards.rank_of(b)
                    if ra is not None and ra == rb and a != b:
                        add(a, b, rid, special)
        elif kind in ("within-group", "pair"):
            grp = [cards.parse(x) for x in c["faces"]]
            excluded = {frozenset(cards.parse(x) for x in pr) for pr in c.get("except", [])}
            for a in grp:
                for b in grp:
                    if a != b and frozenset((a, b)) not in excluded:
                        add(a, b, rid, special)
        elif kind == "special-flag":
            grp = [cards.parse(x) for x in c["faces"]]
            for a in grp:
                for b in grp:
                    if a != b:
                        flag_special[a][b] = True
    special = tuple(
        tuple(bool(ca[a][b]) and (not nonspecial[a][b] or flag_special[a][b]) for b in range(30))
        for a in range(30)
    )
    # connected classes of the cạ graph (singletons for faces with no cạ partner)
    seen: set[int] = set()
    comps: list[tuple[int, ...]] = []
    for f in faces:
        if f in seen:
            continue
        stack, comp = [f], []
        seen.add(f)
        while stack:
            x = stack.pop()
            comp.append(x)
            for y in faces:
                if ca[x][y] and y not in seen:
                    seen.add(y)
                    stack.append(y)
        comps.append(tuple(sorted(comp)))
    win = d["win"]
    claims = {
        (c["source"], c["claim"]): ClaimRule(cond_holds(c["allowed"], options), c["rule"])
        for c in d.get("claim", [])
    }
    restrictions = []
    for r in d.get("restriction", []):
        bans = r["bans_by_value"][options[r["option"]]] if "option" in r else r["bans"]
        scope, scope_rule = r.get("scope", "face"), ""
        if "scope_option" in r:
            scope_rule = r["scope_option"]
            scope = r["scope_by_value"][options[scope_rule]]
        restrictions.append(Restriction(r["rule"], r.get("trigger", ""), tuple(bans), scope,
                                        scope_rule, r.get("when", "")))
    rule_ids: dict[str, str] = {}
    machine: dict[str, str] = {}
    for section in ("win", "eating", "turn", "cai", "declaration", *SETTLE_SECTIONS):
        for k, v in d.get(section, {}).items():
            if k.endswith("rule") and isinstance(role_row(v), str):
                role = f"{section}.{k}"
                rule_ids[role] = role_row(v)
                if role in MACHINE_VALUES:
                    machine[role] = (options[v] if isinstance(v, str) else v["value"]
                                     if "value" in v else v["by_value"][options[v["rule"]]])
    for role, value in MACHINE_DEFAULTS.items():
        machine.setdefault(role, value)
    rule_ids["pairing.chan_rule"] = d["pairing"]["chan_rule"]
    cl = d.get("claims", {})
    for k in ("tie_break_rule", "tie_break_option", "chiu_eat_option"):
        if k in cl:
            rule_ids[f"claims.{k}"] = cl[k]
    priority = cl.get("priority", [])
    if "priority_by_value" in cl:
        priority = cl["priority_by_value"][options[cl["chiu_eat_option"]]]
    rule_ids["deck.rule"] = deck["rule"]
    for i, rid in enumerate(cl.get("priority_rules", [])):
        rule_ids[f"claims.priority_rules.{i}"] = rid
    exact_applies = win.get("exact_min_applies", [])
    if "exact_min_applies_by_value" in win:
        exact_applies = win["exact_min_applies_by_value"][options[win["exact_min_rule"]]]
    return Rules(
        table=table,
        variant=variant,
        options=dict(options),
        faces=faces,
        copies=int(deck["copies"]),
        red=frozenset(cards.parse(c) for c in deck.get("red", [])),
        ca_rules=tuple(tuple(tuple(ca[a][b]) for b in range(30)) for a in range(30)),
        special=special,
        components=tuple(comps),
        never_complete=frozenset(cards.parse(c) for c in win.get("never_complete", [])),
        never_complete_applies=frozenset(win.get("never_complete_applies", [])),
        claims=claims,
        priority=tuple(tuple(t) for t in priority),
        restrictions=tuple(restrictions),
        odd_group=frozenset(cards.parse(c) for c in d.get("eating", {}).get("odd_group", [])),
        ca_class_rules=tuple(dict.fromkeys(c["rule"] for c in d["pairing"]["ca"])),
        rule_ids=rule_ids,
        exact_min=frozenset(cards.parse(c) for c in win.get("exact_min", [])),
        exact_min_applies=frozenset(exact_applies),
        machine=machine,
        opening_min_chan=(int(win["opening_min_chan_by_value"][options[win["opening_rule"]]])
                          if "opening_min_chan_by_value" in win else variant.min_chan),
        cai_counts=(None if "cai" not in d else
                    {f: int(d["cai"]["counts"][cai_count_key(f)]) for f in faces}),
    )
