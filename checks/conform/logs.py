"""Game logs: one hand of Bài Chắn as NDJSON, one event per line with a ``type`` tag.

The format is specified for implementers in ``vectors/README.md`` (section "Game logs")
and by the JSON Schema ``vectors/log.schema.json``; this module is its reference writer
and strict reader.  In short:

* line 1 is the ``header``: format, version, ruleset, players, options and the deal (or,
  for logs chanspec itself wrote, the ``seed`` it dealt from);
* *action* lines are decisions, exactly `Action.as_json()` of the machine:
  ``u``, ``chiu-u``, ``chiu``, ``eat``, ``reclaim``, ``pass``, ``discard``, ``return``,
  ``timeout``, and under a table with a declaration phase ``declare`` (its ``cuoc``: the
  cước rows named, sorted).  A replayer checks each one is legal where it stands;
* *consequence* lines are what the rules make happen after an action: ``draw``, ``laid``,
  ``returned``, ``passed-on``, ``dead``, ``timeout-as``, ``declined``, ``banned``,
  ``fault``, ``declared`` (a declaration judged: its judgement, consequence and rows) and
  ``end``.  They are optional in a log, but each one present must agree with the rules,
  in order (and a log that writes ``banned`` lines must write all of them).

A kind with its own log lines (`Kind.log`, such as Tấn's ``chanspec.model.tan.log``)
says so in the header's ``kind``; `parse()` then reads the lines through that kind
(`parse_kind`), and a header without ``kind`` is a Chắn log, as every Chắn log is.

`record()` writes a log by replaying actions on the reference machine; `parse()` reads
one back and raises `LogError` (line, field, what was expected, what to try) on the first
malformed line.  `chanspec.checks.conform.records.load()` reads a file that may also be
the machine's own ``State.to_json()`` file or an ITF trace (`chanspec.checks.conform.itf`).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.checks.output import with_article
from chanspec.model import kinds
from chanspec.model import table as shared_table
from chanspec.model.chan import cai, cards
from chanspec.model.chan import declare as declare_mod
from chanspec.model.chan import table as table_mod
from chanspec.model.chan import vocab as chan_vocab
from chanspec.model.chan.game import (
    Action,
    ActionError,
    Deal,
    Mark,
    State,
    check_cai,
    check_deal,
    deal_random,
)

FORMAT = "chanspec-log"
VERSION = 1
ACTION_TYPES = ("u", "chiu-u", "chiu", "eat", "reclaim", "pass", "discard", "return", "timeout",
                "declare")
CARD_ACTIONS = frozenset({"eat", "reclaim", "discard", "return"})
CONSEQUENCE_TYPES = ("draw", "laid", "returned", "passed-on", "dead", "timeout-as", "declined",
                     "banned", "fault", "declared", "end")
# The bans a ``banned`` line names: every kind a restriction row may create
# (`chanspec.model.chan.vocab.BANS`) but ``win``, which is the ``declined`` line.
BAN_KINDS = tuple(b for b in chan_vocab.BANS if b != "win")
END_RESULTS = ("win", "draw")  # a stuck hand is not over: no end line
CONSEQUENCES = ("paid",) + chan_vocab.DECLARE_CONSEQUENCES
WIN_KINDS = ("u", "chiu-u", "opening")
EXTENSION_PREFIX = "x-"
# A deal's fields; cai (the cái card, face up) and drawer (who drew it) only under a
# table with the dealing ritual ([cai], chanspec.model.chan.cai).
DEAL_FIELDS = ("hands", "noc", "opener", "cai", "drawer", "thong")

# Field kinds: seat, card, card-or-null, group (2 or 4 cards), groups, action, result,
# win-kind, ban-kind, rule.  Every type lists its required and optional fields.
_CONSEQUENCE_FIELDS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "draw": ({"seat": "seat", "card": "card"}, {}),
    "laid": ({"seat": "seat", "group": "group"}, {}),
    "returned": ({"seat": "seat", "card": "card", "gate": "seat"}, {}),
    "passed-on": ({"card": "card", "to": "seat"}, {}),
    "dead": ({"card": "card", "gate": "seat"}, {}),
    "timeout-as": ({"seat": "seat", "action": "action"}, {}),
    "declined": ({"seat": "seat", "card": "card-or-null"}, {}),
    "banned": ({"seat": "seat", "ban": "ban-kind", "face": "card-or-null", "rule": "rule"}, {}),
    # an act that broke a rule of play, made under restriction-mode=penalise
    "fault": ({"seat": "seat", "rules": "rules"}, {}),
    # the winner's declaration judged (model/chan/declare.py): correct, over, under, must-missing;
    # its consequence (paid, paid-named, den) and the rows that decide it
    "declared": ({"seat": "seat", "judgement": "judgement", "consequence": "consequence",
                  "rules": "rules"}, {}),
    "end": ({"result": "result"},
            {"seat": "seat", "kind": "win-kind", "card": "card-or-null", "hand": "groups"}),
}


class LogError(ValueError):
    """A malformed log: where (line and field), what is wrong, what was expected."""

    def __init__(self, source: str, line: int, fld: str, message: str, hint: str = ""):
        self.source = source
        self.line = line
        self.field = fld
        self.message = message
        self.hint = hint
        where = f"{source}:{line}" + (f": field {fld!r}" if fld else "")
        super().__init__(f"{where}: {message}" + (f" ({hint})" if hint else ""))

    def as_json(self) -> dict[str, Any]:
        return {"source": self.source, "line": self.line, "field": self.field,
                "message": self.message, "hint": self.hint}


@dataclass(frozen=True)
class Entry:
    """One line after the header."""

    line: int
    kind: str  # "action" | "consequence"
    data: dict[str, Any]
    action: Action | None = None

    @property
    def type(self) -> str:
        return str(self.data["type"])


@dataclass
class GameLog:
    source: str
    fmt: str  # "ndjson" | "state" | "itf"
    header: dict[str, Any]
    rules: table_mod.Rules
    deal: Deal
    entries: list[Entry] = field(default_factory=list)
    # the kind whose own log format this is (`Kind.log`), None for the default format:
    # then `rules`, `deal` and the entries' actions are that kind's
    kind: Any = None

    def actions(self) -> list[Action]:
        return [e.action for e in self.entries if e.action is not None]


# --------------------------------------------------------------------------- writing


def header(rules: table_mod.Rules, deal: Deal | None = None, seed: int | None = None,
           opener: int = 0, extra: Mapping[str, Any] | None = None,
           drawer: int | None = None, thong: tuple[int, ...] = ()) -> dict[str, Any]:
    """The header line: a deal, or (for chanspec's own logs) the seed it came from, with
    the opener, or under the dealing ritual ([cai]) the seat that drew the cái card, and
    in a session the seats whose win is thông (`Deal.thong`)."""
    h: dict[str, Any] = {
        "type": "header", "format": FORMAT, "version": VERSION,
        "ruleset": rules.table.id, "players": rules.players,
        "options": dict(sorted(rules.options.items())),
    }
    if not rules.table.is_builtin():
        h["table_digest"] = rules.table.digest()
    if deal is not None:
        h["deal"] = deal.as_json()
    elif seed is not None:
        h["seed"] = seed
        if drawer is not None:
            h["drawer"] = drawer
        else:
            h["opener"] = opener
        if thong:
            h["thong"] = list(thong)
    else:
        raise ValueError("a header needs a deal or a seed")
    if extra:
        for k, v in extra.items():
            if not k.startswith(EXTENSION_PREFIX):
                raise ValueError(f"extra header fields must start with {EXTENSION_PREFIX!r}")
            h[k] = v
    return h


def step(st: State, action: Action, check: bool = True) -> list[dict[str, Any]]:
    """Apply `action` to `st` (it must be legal) and return its consequence lines
    (``check=False``: `action` was just taken from `st.legal_actions()`).

    Their order: ``timeout-as``, ``declined``, ``banned``, then the machine's events as
    they happened.  One ``banned`` line per ban (`Mark`) the step adds to a seat, other
    than a ban on winning (that is ``declined``): by seat, then in the order the machine
    made them."""
    card = st.window.card if st.window is not None else None
    wins_before = [sum(1 for m in ms if m.ban == "win") for ms in st.marks]
    marks_before = [(ms, len(ms)) for ms in st.marks]
    first = len(st.events)
    st.apply(action, check=check)
    new = [dict(e) for e in st.events[first + 1:]]  # events[first] echoes the action
    lead = [e for e in new[:1] if e["type"] == "timeout-as"]
    rest = new[len(lead):]
    declined = [
        {"type": "declined", "seat": s, "card": None if card is None else cards.code(card)}
        for s, ms in enumerate(st.marks)
        if sum(1 for m in ms if m.ban == "win") > wins_before[s]
    ]
    return lead + declined + new_bans(st, marks_before) + rest


def new_bans(st: State, before: Sequence[tuple[list[Mark], int]]) -> list[dict[str, Any]]:
    """The ``banned`` lines of the marks `st` holds now and did not hold `before` (each
    seat's mark list and its length then).  The machine only appends marks, except that
    a reclaim rebuilds the list without the marks of the pass it undoes: a removed ban
    has no line.  Marks made on the side to test a claim (`State._strands`) are never
    stored, so they have no line either."""
    out: list[dict[str, Any]] = []
    for s, (old, n) in enumerate(before):
        ms = st.marks[s]
        if ms is old and len(ms) >= n:
            added: Sequence[Mark] = ms[n:]
        else:  # rebuilt: the marks that were not there before, in order
            left = Counter(old[:n])
            added = []
            for m in ms:
                if left[m]:
                    left[m] -= 1
                else:
                    added.append(m)
        out += [{"type": "banned", "seat": s, "ban": m.ban,
                 "face": None if m.face is None else cards.code(m.face), "rule": m.rule}
                for m in added if m.ban != "win"]
    return out


def record(rules: table_mod.Rules, deal: Deal, actions: Iterable[Action], *,
           seed: int | None = None, consequences: bool = True,
           extra: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The lines of a log for these actions (which must all be legal in turn).

    With a `seed` whose random deal equals `deal`, the header carries the seed instead
    of the deal; with ``consequences=False`` only the header and actions are written.
    """
    if seed is not None and _seed_deal(rules, seed, deal.opener, deal.drawer,
                                       deal.thong) != deal:
        raise ValueError(f"seed {seed} does not deal this deal")
    st = State(rules, deal)
    lines = [header(rules, None if seed is not None else deal, seed, deal.opener, extra,
                    deal.drawer, deal.thong)]
    for a in actions:
        lines.append(a.as_json())
        cons = step(st, a)
        if consequences:
            lines.extend(cons)
    return lines


def _seed_deal(rules: table_mod.Rules, seed: int, opener: int, drawer: int | None,
               thong: tuple[int, ...] = ()) -> Deal:
    """The random deal of `seed`: from the opener, or from the drawer of the cái card;
    in a session, with the seats whose win is thông."""
    deal = (deal_random(rules, seed, drawer=drawer) if drawer is not None
            else deal_random(rules, seed, opener))
    return dataclasses.replace(deal, thong=tuple(thong)) if thong else deal


def dumps(lines: Iterable[Mapping[str, Any]]) -> str:
    """NDJSON text: one compact JSON object per line, UTF-8, a final newline."""
    return "".join(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for obj in lines)


# --------------------------------------------------------------------------- reading


class LineCheck:
    """Field checks for one line, raising LogError with the line and field."""

    def __init__(self, source: str, line: int, obj: dict[str, Any], players: int | None):
        self.source, self.line, self.obj, self.players = source, line, obj, players

    def fail(self, fld: str, message: str, hint: str = "") -> LogError:
        return LogError(self.source, self.line, fld, message, hint)

    def check(self, fld: str, kind: str, value: Any) -> None:
        if kind == "seat":
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.fail(fld, f"expected a seat number, found {value!r}",
                                "seats are integers 0..players-1")
            if self.players is not None and not 0 <= value < self.players:
                raise self.fail(fld, f"seat {value} does not exist at a table of "
                                f"{self.players}", f"use 0..{self.players - 1}")
        elif kind in ("card", "card-or-null"):
            if value is None and kind == "card-or-null":
                return
            self.card(fld, value)
        elif kind == "group":
            self.group(fld, value)
        elif kind == "groups":
            if not isinstance(value, list):
                raise self.fail(fld, f"expected a list of groups, found {value!r}")
            for i, g in enumerate(value):
                self.group(f"{fld}[{i}]", g)
        elif kind == "action":
            if not isinstance(value, dict):
                raise self.fail(fld, f"expected an action object, found {value!r}")
            t = value.get("type")
            if t not in ACTION_TYPES:
                raise self.fail(f"{fld}.type", f"expected one of {', '.join(ACTION_TYPES)}, "
                                f"found {t!r}")
            self.action_fields(value, prefix=f"{fld}.")
        elif kind == "result":
            if value == "stuck":
                raise self.fail(fld, "a stuck hand is not over, so it has no end line",
                                "leave the line out: the log stops after the last action, "
                                "and chanspec replay reports the position as stuck")
            if value not in END_RESULTS:
                raise self.fail(fld, f"expected one of {', '.join(END_RESULTS)}, found {value!r}")
        elif kind == "judgement":
            if value not in declare_mod.JUDGEMENTS:
                raise self.fail(fld, f"expected one of {', '.join(declare_mod.JUDGEMENTS)}, "
                                f"found {value!r}")
        elif kind == "consequence":
            if value not in CONSEQUENCES:
                raise self.fail(fld, f"expected one of {', '.join(CONSEQUENCES)}, found "
                                f"{value!r}")
        elif kind == "cuoc":
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                raise self.fail(fld, f"expected a list of cước row ids, found {value!r}",
                                "e.g. [\"cuoc-chi\", \"cuoc-tom\"]: the rows named, sorted "
                                "(an empty list declares nothing)")
        elif kind == "win-kind":
            if value not in WIN_KINDS:
                raise self.fail(fld, f"expected one of {', '.join(WIN_KINDS)}, found {value!r}")
        elif kind == "ban-kind":
            if value not in BAN_KINDS:
                hint = ("a declined win is a 'declined' line" if value == "win" else "")
                raise self.fail(fld, f"expected one of {', '.join(BAN_KINDS)}, found {value!r}",
                                hint)
        elif kind == "rule":
            if not isinstance(value, str) or not value:
                raise self.fail(fld, f"expected a rule id such as 'pass-chan-ban', found "
                                f"{value!r}", "the id of the table row that creates the ban")
        elif kind == "rules":
            if (not isinstance(value, list) or not value
                    or not all(isinstance(v, str) and v for v in value)):
                raise self.fail(fld, f"expected a non-empty list of rule ids, found {value!r}",
                                "the rows of the rules of play the act broke")
        else:  # pragma: no cover - the tables above use only these kinds
            raise AssertionError(kind)

    def card(self, fld: str, value: Any) -> int:
        if not isinstance(value, str):
            raise self.fail(fld, f"expected a card code, found {value!r}",
                            "codes are 1v..9v, 1n..9n, 1s..9s, chi, lao, thang")
        if value not in cards.CODES:
            try:
                f = cards.parse(value)
            except cards.CardError as exc:
                raise self.fail(fld, str(exc)) from None
            raise self.fail(fld, f"{value!r} is a card name, not a compact code",
                            f"write {cards.code(f)!r}")
        return cards.CODES.index(value)

    def group(self, fld: str, value: Any) -> None:
        if not isinstance(value, list) or len(value) not in (2, 4):
            raise self.fail(fld, f"expected a group of 2 or 4 card codes, found {value!r}")
        for i, c in enumerate(value):
            self.card(f"{fld}[{i}]", c)

    def fields(self, obj: dict[str, Any], required: Mapping[str, str],
               optional: Mapping[str, str], prefix: str = "") -> None:
        for k in obj:
            if k == "type" or k.startswith(EXTENSION_PREFIX):
                continue
            if k not in required and k not in optional:
                allowed = ", ".join(["type", *required, *optional]) or "type"
                line = with_article(f"{obj['type']!r} line")
                raise self.fail(prefix + k, f"unknown field for {line}",
                                f"allowed: {allowed}; extensions must start with "
                                f"{EXTENSION_PREFIX!r}")
        for k, kind in required.items():
            if k not in obj:
                line = with_article(f"{obj['type']!r} line")
                raise self.fail(prefix + k, f"missing required field of {line}")
            self.check(prefix + k, kind, obj[k])
        for k, kind in optional.items():
            if k in obj:
                self.check(prefix + k, kind, obj[k])

    def action_fields(self, obj: dict[str, Any], prefix: str = "") -> Action:
        t = obj["type"]
        req = {"seat": "seat"}
        if t in CARD_ACTIONS:
            req["card"] = "card"
        if t == "declare":
            req["cuoc"] = "cuoc"
        self.fields(obj, req, {}, prefix)
        card = obj.get("card")
        return Action(t, obj["seat"], None if card is None else cards.CODES.index(card),
                      tuple(obj["cuoc"]) if t == "declare" else ())


NESTED_TOO_DEEPLY = ("JSON nested too deeply to read", "a log line is one flat JSON object "
                     "such as {\"type\": \"discard\", \"seat\": 0, \"card\": \"3n\"}")


class DuplicateKey(ValueError):
    """A JSON object that names one key twice (which value counts is not said: refused)."""

    def __init__(self, key: str):
        self.key = key
        super().__init__(key)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise DuplicateKey(k)
            seen.add(k)
    return obj


def strict_loads(text: str) -> Any:
    """`json.loads`, refusing an object with a key given twice (raises DuplicateKey)."""
    return json.loads(text, object_pairs_hook=_no_duplicates)


def duplicate_key_error(source: str, lineno: int, key: str) -> LogError:
    return LogError(source, lineno, key, f"the key {key!r} is given twice in one object",
                    "give each field once (which of the two values was meant is not said)")


def _json_line(source: str, lineno: int, text: str) -> dict[str, Any]:
    try:
        obj = strict_loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(source, lineno, "", f"not valid JSON: {exc.msg} at column {exc.colno}",
                       "each line must be one JSON object") from None
    except DuplicateKey as exc:
        raise duplicate_key_error(source, lineno, exc.key) from None
    except RecursionError:
        raise LogError(source, lineno, "", *NESTED_TOO_DEEPLY) from None
    if not isinstance(obj, dict):
        raise LogError(source, lineno, "", f"expected a JSON object, found {type(obj).__name__}",
                       "each line must be one JSON object with a 'type' field")
    return obj


def header_table(ln: LineCheck, obj: dict[str, Any],
                 table: table_mod.Table | None) -> table_mod.Table:
    """The table a header plays under.  A log names a built-in ruleset (``family``); it
    never makes chanspec open a file: another table is given by the reader (``--ruleset
    PATH`` on the command line, `table` here), and must then be the one the log names,
    by id and, when the log carries one, by ``table_digest``."""
    name, digest = obj["ruleset"], obj.get("table_digest")
    if not isinstance(name, str):
        raise ln.fail("ruleset", f"expected a ruleset name such as 'family', found {name!r}")
    if digest is not None and not (isinstance(digest, str)
                                   and re.fullmatch(r"[0-9a-f]{64}", digest)):
        raise ln.fail("table_digest", f"expected 64 hexadecimal digits (SHA-256), found "
                      f"{digest!r}")
    if table is None:
        builtin = shared_table.builtin_names()
        if name not in builtin:
            raise ln.fail("ruleset", f"{name!r} is not a built-in ruleset "
                          f"({', '.join(builtin)}); chanspec does not open a table file named "
                          "inside a log", "give the table on the command line: --ruleset "
                          "PATH/TO/TABLE.toml")
        kind = kinds.kind_of_file(name)
        if not kind.has_machine:
            raise ln.fail("ruleset", f"{name!r} is a table of kind {kind.name!r} "
                          f"({kind.title_en}), whose machine is not written yet: no log can "
                          "be played under it", "give a ruleset of a kind with a machine, "
                          "e.g. family")
        table = table_mod.load(name)
        if digest is not None and digest != table.digest():
            raise ln.fail("table_digest", f"the log was written under another table than the "
                          f"built-in {name!r} of this chanspec (digest {digest[:12]}…, "
                          f"built-in {table.digest()[:12]}…)", "give the table it was "
                          "written under with --ruleset PATH/TO/TABLE.toml")
        return table
    if name not in (table.id, table.path):
        raise ln.fail("ruleset", f"the log is for ruleset {name!r}, but the table given "
                      f"({table.path}) is {table.id!r}", "give the table the log was "
                      "written under with --ruleset")
    if digest is not None and digest != table.digest():
        raise ln.fail("table_digest", f"the table given ({table.path}) is not the one the log "
                      f"was written under (digest {table.digest()[:12]}…, the log says "
                      f"{digest[:12]}…)", "give the very table the log was written under")
    if digest is None and name in shared_table.builtin_names() and not table.is_builtin():
        # a log without a digest was played under the built-in table of its name
        raise ln.fail("ruleset", f"the log was played under the built-in {name!r} table (it "
                      f"carries no table_digest), and the table given ({table.path}) differs "
                      f"from it (digest {table.digest()[:12]}…, built-in "
                      f"{table_mod.load(name).digest()[:12]}…)", "replay it without --ruleset, "
                      "or give the table it was played under")
    return table


def parse_header(source: str, lineno: int, obj: dict[str, Any],
                 table: table_mod.Table | None = None) -> tuple[table_mod.Rules, Deal, int | None]:
    """Check a header object; the rules and the deal it describes."""
    ln = LineCheck(source, lineno, obj, None)
    if obj.get("type") != "header":
        raise ln.fail("type", f"the first line must be the header, found type "
                      f"{obj.get('type')!r}", 'start the log with {"type": "header", ...}')
    allowed = {"type", "format", "version", "ruleset", "table_digest", "players", "options",
               "deal", "seed", "opener", "drawer", "thong", "kind"}
    for k in obj:
        if k not in allowed and not k.startswith(EXTENSION_PREFIX):
            raise ln.fail(k, "unknown header field", f"allowed: {', '.join(sorted(allowed))}")
    _check_format(ln, obj)
    t = header_table(ln, obj, table)
    gap = t.machine_gap()
    if gap is not None:
        raise ln.fail("ruleset", gap[1], "the machine cannot replay a hand of this table yet")
    players = obj["players"]
    if isinstance(players, bool) or not isinstance(players, int) or players not in t.variants:
        raise ln.fail("players", f"expected one of {sorted(t.variants)}, found {players!r}")
    opts = obj.get("options", {})
    if not isinstance(opts, dict):
        raise ln.fail("options", f"expected an object of option names to values, found {opts!r}")
    for k, v in opts.items():
        if not isinstance(v, str):
            raise ln.fail(f"options.{k}", f"expected a string value, found {v!r}")
    try:
        rules = t.resolve(players, opts)
    except shared_table.OptionError as exc:
        bad = next((k for k in opts if k not in dict(t.option_space()) or
                    opts[k] not in dict(t.option_space())[k]), "")
        raise ln.fail(f"options.{bad}" if bad else "options", str(exc)) from None
    has_deal, has_seed = "deal" in obj, "seed" in obj
    if has_deal == has_seed:
        raise ln.fail("deal", "give exactly one of 'deal' and 'seed'",
                      "other engines should always write the deal")
    ritual = cai.has_ritual(rules)
    if has_seed:
        seed, opener = obj["seed"], obj.get("opener", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ln.fail("seed", f"expected a non-negative integer, found {seed!r}")
        ln.players = players
        if ritual and "opener" in obj:
            raise ln.fail("opener", f"table {rules.table.id!r} counts the opener from the "
                          f"cái card (row {rules.rid('cai.rule')})",
                          "give the seat that drew it as 'drawer'")
        if not ritual and "drawer" in obj:
            raise ln.fail("drawer", f"table {rules.table.id!r} has no dealing ritual: "
                          "nobody draws a cái card", "give the 'opener' instead")
        ln.check("opener", "seat", opener)
        drawer = obj.get("drawer")
        if drawer is not None:
            ln.check("drawer", "seat", drawer)
        thong = _thong(ln, "thong", obj.get("thong", []))
        deal = _seed_deal(rules, seed, opener, drawer, thong)
        try:
            check_deal(rules, deal)
        except ActionError as exc:
            raise ln.fail("thong", str(exc), f"rule {', '.join(exc.rules)}") from None
        return rules, deal, seed
    for k in ("opener", "drawer", "thong"):
        if k in obj:
            raise ln.fail(k, f"with a 'deal', the {k} goes inside it (deal.{k})")
    d = obj["deal"]
    if not isinstance(d, dict):
        raise ln.fail("deal", f"expected an object with hands, noc, opener; found {d!r}")
    for k in d:
        if k not in DEAL_FIELDS:
            raise ln.fail(f"deal.{k}", "unknown field", f"allowed: {', '.join(DEAL_FIELDS)}")
    for k in ("hands", "noc"):
        if k not in d:
            raise ln.fail(f"deal.{k}", "missing required field")
    ln.players = players
    if not isinstance(d["hands"], list):
        raise ln.fail("deal.hands", "expected a list with one list of card codes per seat")
    hands = []
    for i, h in enumerate(d["hands"]):
        if not isinstance(h, list):
            raise ln.fail(f"deal.hands[{i}]", f"expected a list of card codes, found {h!r}")
        hands.append(tuple(ln.card(f"deal.hands[{i}][{j}]", c) for j, c in enumerate(h)))
    if not isinstance(d["noc"], list):
        raise ln.fail("deal.noc", "expected a list of card codes, first drawn first")
    noc = tuple(ln.card(f"deal.noc[{j}]", c) for j, c in enumerate(d["noc"]))
    opener = d.get("opener", 0)
    ln.check("deal.opener", "seat", opener)
    cai_card = None if d.get("cai") is None else ln.card("deal.cai", d["cai"])
    drawer = d.get("drawer")
    if drawer is not None:
        ln.check("deal.drawer", "seat", drawer)
    deal = Deal(tuple(hands), noc, opener, cai_card, drawer,
                _thong(ln, "deal.thong", d.get("thong", [])))
    try:
        check_cai(rules, deal)  # check_deal, and a cái card that fits these rules
    except ActionError as exc:
        raise ln.fail("deal", str(exc), f"rule {', '.join(exc.rules)}") from None
    return rules, deal, None


def _thong(ln: LineCheck, fld: str, v: Any) -> tuple[int, ...]:
    """The seats whose win is thông (a hand of a session): a list of seats."""
    if not isinstance(v, list):
        raise ln.fail(fld, f"expected a list of seats whose win is thông, found {v!r}")
    for i, s in enumerate(v):
        ln.check(f"{fld}[{i}]", "seat", s)
    return tuple(v)


def parse_entry(source: str, lineno: int, obj: dict[str, Any], players: int) -> Entry:
    """Check one line after the header."""
    ln = LineCheck(source, lineno, obj, players)
    if "type" not in obj:
        raise ln.fail("type", "missing the 'type' tag",
                      f"actions: {', '.join(ACTION_TYPES)}; consequences: "
                      f"{', '.join(CONSEQUENCE_TYPES)}")
    t = obj["type"]
    if t in ACTION_TYPES:
        return Entry(lineno, "action", obj, ln.action_fields(obj))
    if t in _CONSEQUENCE_FIELDS:
        req, opt = _CONSEQUENCE_FIELDS[t]
        ln.fields(obj, req, opt)
        if t == "end" and obj["result"] == "win":
            for k in ("seat", "kind", "card"):
                if k not in obj:
                    raise ln.fail(k, "a win's end line needs seat, kind and card "
                                  "(card null for an opening win)")
        return Entry(lineno, "consequence", obj)
    if t == "header":
        raise ln.fail("type", "a second header", "one log holds one hand; start a new file")
    raise ln.fail("type", f"unknown type {t!r}",
                  f"actions: {', '.join(ACTION_TYPES)}; consequences: "
                  f"{', '.join(CONSEQUENCE_TYPES)}")


# lines after the header already found well-formed, by (text, players): the same
# lines come back in every log of a campaign or a conformance suite (checking a line
# depends on nothing else; its line number is the Entry's, not the check's)
_CHECKED: dict[tuple[str, int], tuple[str, dict[str, Any], Action | None]] = {}
_CHECKED_MAX = 50_000


def forget_checked() -> None:
    """Forget the lines found well-formed (a benchmark measures reading from cold)."""
    _CHECKED.clear()


def parse(text: str, source: str = "<log>", table: table_mod.Table | None = None) -> GameLog:
    """Read an NDJSON log; raises LogError at the first malformed line."""
    lines = text.removeprefix("\ufeff").split("\n")
    hdr: tuple[int, dict[str, Any]] | None = None
    entries: list[Entry] = []
    rules: table_mod.Rules | None = None
    deal: Deal | None = None
    for i, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        if rules is not None:  # a line seen before (in this log or another) was checked
            seen = _CHECKED.get((raw, rules.players))
            if seen is not None:
                entries.append(Entry(i, *seen))
                continue
        obj = _json_line(source, i, raw)
        if hdr is None:
            kind = header_kind(source, i, obj, table)
            if kind is not None:  # a kind with its own log lines
                return parse_kind(kind, lines, i, obj, source, table)
            rules, deal, _ = parse_header(source, i, obj, table)
            hdr = (i, obj)
            continue
        assert rules is not None
        entries.append(parse_entry(source, i, obj, rules.players))
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.clear()
        e = entries[-1]
        _CHECKED[(raw, rules.players)] = (e.kind, e.data, e.action)
    if hdr is None or rules is None or deal is None:
        raise LogError(source, 1, "", "the log is empty", 'the first line must be '
                       '{"type": "header", "format": "chanspec-log", ...}')
    return GameLog(source, "ndjson", hdr[1], rules, deal, entries)


_BUILTIN_KINDS: dict[str, Any] = {}


def _builtin_kind(name: str) -> Any:
    """The kind of built-in ruleset `name` (None for no built-in), read once."""
    if name not in _BUILTIN_KINDS:
        _BUILTIN_KINDS[name] = (kinds.kind_of_file(name) if name in kinds.builtin_names()
                                else None)
    return _BUILTIN_KINDS[name]


def header_kind(source: str, lineno: int, obj: dict[str, Any],
                table: table_mod.Table | None) -> Any:
    """The kind whose own log format a header opens (`Kind.log`), or None for the
    default format.  The header's ``kind`` (absent: the default kind) must be the kind
    of the ruleset it names; raises LogError otherwise."""
    ln = LineCheck(source, lineno, obj, None)
    if obj.get("type") != "header":
        return None  # parse_header says what is wrong
    name = obj.get("ruleset")
    if table is not None:
        of_table = kinds.of(table)
    elif isinstance(name, str):
        of_table = _builtin_kind(name)
    else:
        of_table = None  # parse_header refuses the ruleset
    said = obj.get("kind", kinds.DEFAULT)
    if not isinstance(said, str):
        raise ln.fail("kind", f"expected a kind name such as {kinds.DEFAULT!r}, found {said!r}",
                      f"kinds: {', '.join(kinds.names())}")
    try:
        claimed = kinds.get(said)
    except kinds.KindError:
        raise ln.fail("kind", f"unknown kind {said!r}",
                      f"kinds: {', '.join(kinds.names())}") from None
    if of_table is not None and of_table is not claimed:
        absent = "kind" not in obj
        raise ln.fail("kind", (f"the header gives no kind (so {claimed.name!r})" if absent
                               else f"the header says kind {claimed.name!r}")
                      + f", but ruleset {name!r} is a table of kind {of_table.name!r} "
                      f"({of_table.title_en})",
                      f"write \"kind\": \"{of_table.name}\" in the header, or name a "
                      f"ruleset of kind {claimed.name!r}")
    return claimed if claimed.log is not None else None


def _check_format(ln: LineCheck, obj: dict[str, Any]) -> None:
    """The header fields every kind's log shares: present, this format and version."""
    for k in ("format", "version", "ruleset", "players"):
        if k not in obj:
            raise ln.fail(k, "missing required header field")
    if obj["format"] != FORMAT:
        raise ln.fail("format", f"expected {FORMAT!r}, found {obj['format']!r}")
    if obj["version"] != VERSION or isinstance(obj["version"], bool):
        raise ln.fail("version", f"this chanspec reads version {VERSION}, found "
                      f"{obj['version']!r}", "upgrade chanspec or write a version 1 log")


def parse_kind(kind: Any, lines: Sequence[str], first: int, obj: dict[str, Any], source: str,
               table: table_mod.Table | None) -> GameLog:
    """Read a log in a kind's own format (`Kind.log`), whose header `obj` is on line
    `first` of `lines`; raises LogError at the first malformed line."""
    fmt = kind.log
    ln = LineCheck(source, first, obj, None)
    _check_format(ln, obj)
    table = _kind_table(ln, kind, obj, table)
    try:
        rules, deal = fmt.read_header(obj, table)
    except fmt.LineProblem as exc:
        raise LogError(source, first, exc.field, exc.message, exc.hint) from None
    entries: list[Entry] = []
    for i, raw in enumerate(lines[first:], start=first + 1):
        if not raw.strip():
            continue
        line = _json_line(source, i, raw)
        try:
            action = fmt.read_line(rules, line)
        except fmt.LineProblem as exc:
            raise LogError(source, i, exc.field, exc.message, exc.hint) from None
        entries.append(Entry(i, "consequence" if action is None else "action", line, action))
    return GameLog(source, "ndjson", obj, rules, deal, entries, kind=kind)


def _kind_table(ln: LineCheck, kind: Any, obj: dict[str, Any],
                table: table_mod.Table | None) -> Any:
    """The table of a log in a kind's own format: the built-in ruleset it names, or the
    one given (`table`), which must be the one it names."""
    name, digest = obj.get("ruleset"), obj.get("table_digest")
    if not isinstance(name, str):
        raise ln.fail("ruleset", f"expected a ruleset name such as 'tan', found {name!r}")
    if table is None:
        if name not in kinds.builtin_names():
            raise ln.fail("ruleset", f"{name!r} is not a built-in ruleset "
                          f"({', '.join(kinds.builtin_names())}); chanspec does not open a "
                          "table file named inside a log", "give the table on the command "
                          "line: --ruleset PATH/TO/TABLE.toml")
        table = kind.load(name)
    elif name not in (table.id, table.path):
        raise ln.fail("ruleset", f"the log is for ruleset {name!r}, but the table given "
                      f"({table.path}) is {table.id!r}", "give the table the log was "
                      "written under with --ruleset")
    if digest is not None and digest != table.digest():
        raise ln.fail("table_digest", f"the log was written under another table than "
                      f"{table.path} (digest {str(digest)[:12]}…, this one "
                      f"{table.digest()[:12]}…)", "give the table it was written under "
                      "with --ruleset PATH/TO/TABLE.toml")
    return table


def from_state_json(d: dict[str, Any], source: str = "<state>",
                    table: table_mod.Table | None = None) -> GameLog:
    """A `State.to_json()` document as a log of actions (no consequence lines)."""
    if "kind" in d:  # a kind's own machine wrote it (its to_json names the kind)
        probe = {"type": "header", "ruleset": d.get("ruleset"), "kind": d["kind"]}
        kind = header_kind(source, 1, probe, table)
        if kind is not None:
            ln = LineCheck(source, 1, d, None)
            t = _kind_table(ln, kind, probe, table)
            try:
                rules, deal, actions = kind.log.read_state(d, t)
            except kind.log.LineProblem as exc:
                raise LogError(source, 1, exc.field, exc.message, exc.hint) from None
            return GameLog(source, "state", probe, rules, deal,
                           [Entry(1, "action", a.as_json(), a) for a in actions], kind=kind)
    for k in ("players", "deal", "actions"):
        if k not in d:
            raise LogError(source, 1, k, "missing field of a chanspec state file",
                           "state files come from State.to_json(): ruleset, players, "
                           "options, deal, actions")
    hdr = {"type": "header", "format": FORMAT, "version": VERSION,
           "ruleset": d.get("ruleset", "family"), "players": d["players"],
           "options": d.get("options") or {}, "deal": d["deal"]}
    if d["deal"] is None:
        raise LogError(source, 1, "deal", "the state was never dealt")
    rules, deal, _ = parse_header(source, 1, hdr, table)
    if not isinstance(d["actions"], list):
        raise LogError(source, 1, "actions", "expected a list of action objects")
    entries = []
    for i, a in enumerate(d["actions"]):
        ln = LineCheck(source, 1, {}, rules.players)
        if not isinstance(a, dict) or a.get("type") not in ACTION_TYPES:
            raise ln.fail(f"actions[{i}]", f"expected an action object, found {a!r}")
        act = ln.action_fields(a, prefix=f"actions[{i}].")
        entries.append(Entry(1, "action", a, act))
    return GameLog(source, "state", hdr, rules, deal, entries)


# --------------------------------------------------------------------------- narration
_KIND_VI = {"u": "ù", "chiu-u": "Chíu-Ù", "chiu": "Chíu", "eat": "ăn", "reclaim": "nhận lại",
            "pass": "bỏ qua", "discard": "đánh", "return": "trả cửa", "timeout": "hết giờ",
            "declare": "xướng"}
_KIND_EN = {"u": "wins (ù)", "chiu-u": "wins by chíu (Chíu-Ù)", "chiu": "takes a chíu",
            "eat": "eats", "reclaim": "takes back", "pass": "passes", "discard": "discards",
            "return": "returns", "timeout": "times out", "declare": "declares"}
# a judged declaration (a ``declared`` line): (vi, en)
_JUDGED = {"correct": ("xướng đúng", "a correct declaration"),
           "over": ("xướng sai", "a wrong declaration (xướng sai)"),
           "under": ("xướng thiếu", "an under-declaration"),
           "must-missing": ("bỏ sót cước buộc phải xướng", "a cước that must be named is "
                            "left out")}
_CONSEQUENCE = {"paid": ("được trả đủ", "paid in full"),
                "paid-named": ("chỉ được trả các cước đã xướng", "paid for the cước named only"),
                "den": ("người ù phải đền", "the winner pays")}


# What a ``banned`` line forbids its seat for the rest of the hand ({f}: the card's name).
_BAN_VI = {"eat-chan": "ăn {f} thành chắn", "eat-ca": "ăn {f} thành cạ", "chiu": "chíu {f}",
           "discard": "đánh {f}",
           "discard-ca-pair": "đánh quân thành cạ với một quân mình đã đánh",
           "discard-ca-eaten": "đánh {f} khi quân cùng cạ đã ăn với nó đã bị mình đánh",
           "eat-ca-with": "dùng {f} để ăn cạ"}
_BAN_EN = {"eat-chan": "eat {f} as a chắn", "eat-ca": "eat {f} as a cạ", "chiu": "chíu {f}",
           "discard": "discard {f}",
           "discard-ca-pair": "discard a card that makes a cạ with one they discarded",
           "discard-ca-eaten": "discard {f} once they discarded the other card of the cạ "
                               "they ate with it",
           "eat-ca-with": "eat a cạ with {f}"}


def say_action(a: Action, window_card: int | None = None) -> tuple[str, str]:
    """(vi, en) for one action; with the window's card when there is one."""
    if a.kind == "declare":
        named = ", ".join(r.removeprefix("cuoc-") for r in a.cuoc) or "—"
        return f"người {a.seat} xướng: {named}", f"seat {a.seat} declares: {named}"
    on_vi = f" {cards.name(window_card)}" if window_card is not None else ""
    on_en = f" {cards.name(window_card)}" if window_card is not None else ""
    if a.kind in ("eat", "reclaim") and a.card is not None:
        return (f"người {a.seat} {_KIND_VI[a.kind]}{on_vi} bằng {cards.name(a.card)}",
                f"seat {a.seat} {_KIND_EN[a.kind]}{on_en} with {cards.name(a.card)}")
    if a.card is not None:
        return (f"người {a.seat} {_KIND_VI[a.kind]} {cards.name(a.card)}",
                f"seat {a.seat} {_KIND_EN[a.kind]} {cards.name(a.card)}")
    if a.kind in ("u", "chiu-u", "chiu", "pass") and window_card is not None:
        return (f"người {a.seat} {_KIND_VI[a.kind]}{on_vi}", f"seat {a.seat} {_KIND_EN[a.kind]}"
                f"{' on' if a.kind != 'pass' else ''}{on_en}")
    return f"người {a.seat} {_KIND_VI[a.kind]}", f"seat {a.seat} {_KIND_EN[a.kind]}"


def say_line(d: Mapping[str, Any]) -> tuple[str, str]:
    """(vi, en) for one log line (action or consequence)."""
    t = d.get("type")

    def nm(code: Any) -> str:
        return cards.name(cards.parse(code)) if isinstance(code, str) else "?"

    if t in ACTION_TYPES:
        card = d.get("card")
        return say_action(Action(str(t), int(d["seat"]),
                                 None if card is None else cards.parse(card),
                                 tuple(d.get("cuoc", ()))))
    if t == "draw":
        return (f"người {d['seat']} bốc {nm(d['card'])} (lật ở cửa mình)",
                f"seat {d['seat']} draws {nm(d['card'])} (face up at their gate)")
    if t == "laid":
        g = " + ".join(nm(c) for c in d["group"])
        return f"người {d['seat']} hạ {g}", f"seat {d['seat']} lays down {g}"
    if t == "returned":
        return (f"{nm(d['card'])} được trả về cửa người {d['gate']}",
                f"{nm(d['card'])} goes back to seat {d['gate']}'s gate")
    if t == "passed-on":
        return (f"{nm(d['card'])} được chuyển cho người {d['to']}",
                f"{nm(d['card'])} is passed on to seat {d['to']}")
    if t == "dead":
        return (f"{nm(d['card'])} không ai lấy, nằm lại cửa người {d['gate']}",
                f"nobody takes {nm(d['card'])}; it stays dead at seat {d['gate']}'s gate")
    if t == "timeout-as":
        vi, en = say_action(Action.from_json(d["action"]))
        return f"coi như {vi}", f"taken as: {en}"
    if t == "declined":
        on = "" if d.get("card") is None else f" {nm(d['card'])}"
        return (f"người {d['seat']} bỏ ù{on}: mất quyền ù về sau trong ván",
                f"seat {d['seat']} declined ù{' on' + on if on else ''}: no more wins this hand")
    if t == "banned":
        f = nm(d["face"]) if d.get("face") is not None else "?"
        ban = str(d.get("ban"))
        vi = _BAN_VI.get(ban, ban).format(f=f)
        en = _BAN_EN.get(ban, ban).format(f=f)
        return (f"người {d['seat']} từ nay không được {vi} ({d.get('rule')})",
                f"seat {d['seat']} may no longer {en} ({d.get('rule')})")
    if t == "fault":
        rows = ", ".join(str(r) for r in d.get("rules", []))
        return (f"người {d['seat']} phạm luật đánh bài ({rows})",
                f"seat {d['seat']} breaks a rule of play ({rows})")
    if t == "declared":
        jv, je = _JUDGED.get(str(d.get("judgement")), (str(d.get("judgement")),) * 2)
        cv, ce = _CONSEQUENCE.get(str(d.get("consequence")), (str(d.get("consequence")),) * 2)
        rows = ", ".join(str(r) for r in d.get("rules", []))
        return (f"người {d['seat']}: {jv}, {cv} ({rows})",
                f"seat {d['seat']}: {je}, {ce} ({rows})")
    if t == "end":
        if d.get("result") == "win":
            on = "" if d.get("card") is None else f" {nm(d['card'])}"
            return (f"người {d['seat']} ù ({d['kind']}){on}; hết ván",
                    f"seat {d['seat']} wins ({d['kind']}){' on' + on if on else ''}; hand over")
        if d.get("result") == "draw":
            return "hết nọc, ván hòa", "the nọc is empty: the hand is drawn"
        return "không ai đi được nữa: ván bị kẹt", "nobody has a legal move: the hand is stuck"
    return f"dòng lạ {t!r}", f"unknown line {t!r}"


def codes_of(actions: Sequence[Action]) -> list[str]:
    """Compact strings such as ``eat 3n`` (``declare cuoc-chi,cuoc-tom``) for a list of
    actions of one seat."""
    return [a.code().partition(":")[2] if a.kind == "declare" else
            a.kind if a.card is None else f"{a.kind} {cards.code(a.card)}" for a in actions]
