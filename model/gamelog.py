"""Game logs of a kind with its own log lines (`Kind.log`): the frame those kinds share,
and nothing of any kind's vocabulary.

A log is one hand as NDJSON lines (``vectors/README.md``, "Tấn game logs" and "Chiha game
logs"; ``vectors/log.schema.json``), in the frame of the Chắn log
(`chanspec.checks.conform.logs`) with the kind named in the header:

* the **header**: ``type``, ``format``, ``version``, ``kind``, ``ruleset``, ``players``,
  ``options``, ``table_digest`` (only under a table other than the built-in one), and
  either the ``deal`` written out or the ``seed`` chanspec dealt it from;
* **action** lines, exactly the machine's ``Action.as_json()``;
* **consequence** lines: the machine's events (`GameState.events`), some under another
  name so that no line type is both an action and a consequence (`LogFormat.LOG_NAME`),
  and the lines a kind adds of its own (`LogFormat.more_lines`).

Fields whose names start with ``x-`` are extensions, ignored by the reader.

A kind's log module subclasses `LogFormat` with its own words (its action and
consequence fields, its deal, its sentences) and exposes the bound methods as module
functions: the interface `Kind.log` names.  Errors are `LineProblem` (the field, what is
wrong, a hint); the reader (`chanspec.checks.conform.logs`) adds the line number.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

FORMAT = "chanspec-log"
VERSION = 1
EXTENSION_PREFIX = "x-"


class LineProblem(ValueError):
    """A malformed log line: the field, what is wrong, and what to write instead."""

    def __init__(self, fld: str, message: str, hint: str = ""):
        self.field, self.message, self.hint = fld, message, hint
        super().__init__(message)


def table_digest(data: Any) -> str:
    """SHA-256 of a table's data (comments and layout do not count): a log written under
    another table than the built-in one names it by this digest."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- field checks


def seat(fld: str, v: Any, n: int) -> int:
    """`v` as a seat of a table of `n`; raises LineProblem."""
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n:
        raise LineProblem(fld, f"expected a seat 0..{n - 1}, found {v!r}")
    return v


def count(fld: str, v: Any) -> int:
    """`v` as a non-negative integer; raises LineProblem."""
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise LineProblem(fld, f"expected a non-negative integer, found {v!r}")
    return v


def check_fields(obj: Mapping[str, Any], required: set[str], allowed: set[str]) -> None:
    """No field outside `allowed` (extensions aside), none of `required` missing."""
    for k in obj:
        if k not in allowed and not k.startswith(EXTENSION_PREFIX):
            raise LineProblem(k, f"unknown field for a {obj['type']!r} line",
                              f"allowed: {', '.join(sorted(allowed))}; extensions start "
                              f"with {EXTENSION_PREFIX!r}")
    for k in sorted(required):
        if k not in obj:
            raise LineProblem(k, f"missing required field of a {obj['type']!r} line")


# the empty value of each field kind where a record must keep every field (ITF traces)
BLANKS: dict[str, Any] = {"seat": -1, "seat-or-null": -1, "card": "", "card-or-null": "",
                          "cards": [], "seats": [], "index": -1, "count": -1,
                          "count-or-null": -1, "flag": False, "ints": [], "word": "",
                          "rules": []}


class LogFormat:
    """The log lines of one kind: subclass it with the kind's vocabulary (the class
    attributes and the methods that raise NotImplementedError)."""

    KIND: ClassVar[str]
    # each action type and its fields besides type and seat (all required)
    ACTION_FIELDS: ClassVar[Mapping[str, tuple[str, ...]]]
    # each consequence line's fields: (required, optional), `type` aside
    CONSEQUENCE_FIELDS: ClassVar[Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]]
    # the kind of value of each field a line may have, checked in this order (a field
    # not named here is compared with the machine's line only): seat, seat-or-null,
    # seats, card, card-or-null, cards, index, count, count-or-null, flag, ints, word,
    # rules
    FIELD_KINDS: ClassVar[Mapping[str, str]]
    # (line type, field) whose kind differs from FIELD_KINDS
    TYPED_FIELDS: ClassVar[Mapping[tuple[str, str], str]] = {}
    # the machine's event types that a log writes under another name
    LOG_NAME: ClassVar[Mapping[str, str]] = {}
    HEADER_FIELDS: ClassVar[tuple[str, ...]] = (
        "type", "format", "version", "kind", "ruleset", "table_digest", "players",
        "options", "deal", "seed")
    STEP_CAP: ClassVar[int] = 3000  # a random hand stops after this many moves
    State: ClassVar[Any]  # the kind's machine (`GameState`)
    Deal: ClassVar[Any]  # its dataclass of a hand's chance (.from_json, .check)

    def __init__(self) -> None:
        self.ACTION_TYPES = tuple(self.ACTION_FIELDS)
        self._builtin: list[str] = []
        self._event_of = {v: k for k, v in self.LOG_NAME.items()}

    # ------------------------------------------------------------ the kind's own part

    def builtin_table(self) -> Any:
        """The built-in table of the kind (a log under it carries no digest)."""
        raise NotImplementedError

    def card_hint(self, deck: Any) -> str:
        """What a card code looks like (the hint of a field that is no code)."""
        raise NotImplementedError

    def deal_json(self, rules: Any, deal: Any) -> dict[str, Any]:
        """The header's ``deal``: every card as its code."""
        raise NotImplementedError

    def read_deal(self, rules: Any, v: Any) -> Any:
        """The Deal a header's ``deal`` describes; raises LineProblem."""
        raise NotImplementedError

    def seed_deal(self, rules: Any, seed: int, obj: Mapping[str, Any]) -> Any:
        """The Deal of a header with a `seed` (and the header's other chance fields)."""
        raise NotImplementedError

    def make_action(self, rules: Any, t: str, seat: int, values: Mapping[str, Any]) -> Any:
        """The action of a well-formed action line (`values`: its fields, read)."""
        raise NotImplementedError

    def say_action(self, st: Any, action: Any) -> tuple[str, str]:
        raise NotImplementedError

    def say_event(self, st: Any, event: dict[str, Any]) -> tuple[str, str] | None:
        """(vi, en) of a machine event (its type as the machine names it), None when
        the kind has no words for it."""
        raise NotImplementedError

    def say_end(self, st: Any) -> tuple[str, str]:
        """How the hand of terminal state `st` ended, (vi, en), for ``chanspec replay``."""
        raise NotImplementedError

    def header_deal(self, rules: Any, obj: Mapping[str, Any]) -> Any:
        """The Deal of a header with a ``deal``."""
        return self.read_deal(rules, obj["deal"])

    def playable(self, rules: Any) -> None:
        """Raises LineProblem (field ``options``) when the kind's machine plays no hand
        under `rules`; every table the kind loads is playable unless it says so."""

    def more_lines(self, st: Any, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The consequence lines of a step, with those the kind adds to the machine's
        events (`st` is the state after the step)."""
        return lines

    # ------------------------------------------------------------ checking values

    def card(self, deck: Any, fld: str, v: Any) -> int:
        if not isinstance(v, str):
            raise LineProblem(fld, f"expected a card code, found {v!r}", self.card_hint(deck))
        try:
            return int(deck.parse(v))
        except ValueError as exc:
            raise LineProblem(fld, str(exc)) from None

    def cards(self, deck: Any, fld: str, v: Any) -> list[int]:
        if not isinstance(v, list):
            raise LineProblem(fld, f"expected a list of card codes, found {v!r}")
        return [self.card(deck, f"{fld}[{i}]", c) for i, c in enumerate(v)]

    def value(self, rules: Any, kind: str, fld: str, v: Any) -> Any:
        """`v` checked as a value of field kind `kind`; raises LineProblem."""
        n = rules.players
        if v is None and kind.endswith("-or-null"):
            return None
        if kind in ("seat", "seat-or-null"):
            return seat(fld, v, n)
        if kind == "seats":
            if not isinstance(v, list):
                raise LineProblem(fld, f"expected a list of seats, found {v!r}")
            return [seat(f"{fld}[{i}]", s, n) for i, s in enumerate(v)]
        if kind in ("card", "card-or-null"):
            return self.card(rules.deck, fld, v)
        if kind == "cards":
            return self.cards(rules.deck, fld, v)
        if kind in ("index", "count", "count-or-null"):
            return count(fld, v)
        if kind == "flag":
            if not isinstance(v, bool):
                raise LineProblem(fld, f"expected true or false, found {v!r}")
            return v
        if kind == "ints":
            if not isinstance(v, list) or not all(
                    isinstance(x, int) and not isinstance(x, bool) for x in v):
                raise LineProblem(fld, f"expected a list of integers, found {v!r}")
            return v
        if kind == "word":
            if not isinstance(v, str) or not v:
                raise LineProblem(fld, f"expected a word, found {v!r}")
            return v
        if kind == "rules":
            if not (isinstance(v, list) and all(isinstance(r, str) for r in v)):
                raise LineProblem(fld, f"expected a list of rule ids, found {v!r}")
            return v
        raise AssertionError(kind)  # pragma: no cover - the tables use only these kinds

    def deal_object(self, v: Any, fields: Sequence[str], required: Sequence[str]) -> None:
        """Raises LineProblem unless the header's ``deal`` `v` is an object of `fields`
        holding the `required` ones."""
        if not isinstance(v, dict):
            raise LineProblem("deal", f"expected an object with {', '.join(required)}; "
                              f"found {v!r}")
        for key in v:
            if key not in fields:
                raise LineProblem(f"deal.{key}", "unknown field",
                                  f"allowed: {', '.join(fields)}")
        for key in required:
            if key not in v:
                raise LineProblem(f"deal.{key}", "missing required field")

    def hands(self, rules: Any, v: Any) -> list[list[int]]:
        """The deal's ``hands``: one list of card codes per seat, read."""
        n = rules.players
        if not isinstance(v, list) or len(v) != n:
            raise LineProblem("deal.hands", f"expected {n} lists of card codes, one per seat")
        return [self.cards(rules.deck, f"deal.hands[{s}]", h) for s, h in enumerate(v)]

    def pack(self, deck: Any, fld: str, cards: Sequence[int], size: int,
             copies: int = 1) -> None:
        """Raises LineProblem unless `cards` holds each of the deck's `size` cards
        (0..size-1) `copies` times."""
        seen: dict[int, int] = {}
        for c in cards:
            seen[c] = seen.get(c, 0) + 1
        extra = [deck.code(c) for c, x in seen.items() if x > copies]
        missing = [deck.code(c) for c in range(size) if seen.get(c, 0) < copies]
        if not extra and not missing:
            return
        if copies == 1:
            what = "; ".join(([f"given twice: {', '.join(extra[:6])}"] if extra else []) + (
                [f"missing: {', '.join(missing[:6])}"] if missing else []))
            raise LineProblem(fld, f"not a permutation of the {size}-card pack ({what})",
                              "every card of the pack exactly once")
        what = "; ".join(
            ([f"more than {copies} of: {', '.join(extra[:6])}"] if extra else [])
            + ([f"fewer than {copies} of: {', '.join(missing[:6])}"] if missing else []))
        raise LineProblem(fld, f"not the whole deck of {size * copies} cards ({what})",
                          f"each of the {size} faces exactly {copies} times")

    # ------------------------------------------------------------ writing

    def builtin_digest(self) -> str:
        if not self._builtin:
            self._builtin.append(self.builtin_table().digest())
        return self._builtin[0]

    def header(self, rules: Any, deal: Any = None, seed: int | None = None,
               extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The header line: the deal, or the seed chanspec dealt it from."""
        h: dict[str, Any] = {"type": "header", "format": FORMAT, "version": VERSION,
                             "kind": self.KIND, "ruleset": rules.table.id,
                             "players": rules.players,
                             "options": dict(sorted(rules.options.items()))}
        if rules.table.digest() != self.builtin_digest():
            h["table_digest"] = rules.table.digest()
        if deal is not None:
            h["deal"] = self.deal_json(rules, deal)
        elif seed is not None:
            h["seed"] = seed
        else:
            raise ValueError("a header needs a deal or a seed")
        for k, v in (extra or {}).items():
            if not k.startswith(EXTENSION_PREFIX):
                raise ValueError(f"extra header fields must start with {EXTENSION_PREFIX!r}")
            h[k] = v
        return h

    def events_as_lines(self, events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """The machine's events as consequence lines (copies, renamed by LOG_NAME)."""
        out = []
        for e in events:
            line = dict(e)
            line["type"] = self.LOG_NAME.get(str(e["type"]), e["type"])
            out.append(line)
        return out

    def first_lines(self, st: Any) -> list[dict[str, Any]]:
        """The consequences of the deal, before any action."""
        return self.more_lines(st, self.events_as_lines(st.events))

    def step(self, st: Any, action: Any) -> list[dict[str, Any]]:
        """Apply `action` to `st` (the kind's ActionError when it is refused) and return
        its consequence lines."""
        first = len(st.events)
        st.apply(action)
        return self.more_lines(st, self.events_as_lines(st.events[first:]))

    def record(self, rules: Any, deal: Any, actions: Iterable[Any], *,
               seed: int | None = None, extra: Mapping[str, Any] | None = None
               ) -> list[dict[str, Any]]:
        """The lines of a log of these actions (each must be legal in turn): the header
        with the deal written out (and `seed` as ``x-seed`` when given), then each
        action and its consequences."""
        st = self.State(rules, deal)
        more = dict(extra or {})
        if seed is not None:
            more["x-seed"] = seed
        lines = [self.header(rules, deal, extra=more), *self.first_lines(st)]
        for a in actions:
            lines.append(a.as_json())
            lines.extend(self.step(st, a))
        return lines

    def random_hand(self, rules: Any, seed: int) -> Any:
        """The seeded random hand `chanspec play --ruleset KIND --seed N` tells: the deal
        of `seed`, then a uniform choice from ``Random(seed)`` at every step."""
        st = self.State.new(rules, seed)
        rng = random.Random(seed)
        while not st.is_terminal() and len(st.history) < self.STEP_CAP:
            la = st.legal_actions()
            st.apply(la[rng.randrange(len(la))], check=False)
        return st

    def random_log(self, rules: Any, seed: int) -> list[dict[str, Any]]:
        """The log of `random_hand(rules, seed)`."""
        st = self.random_hand(rules, seed)
        return self.record(rules, st.deal, st.history, seed=seed)

    # ------------------------------------------------------------ reading

    def read_rules(self, obj: Mapping[str, Any], table: Any) -> Any:
        """The rules a header names (fields, players, options); raises LineProblem."""
        for k in obj:
            if k not in self.HEADER_FIELDS and not k.startswith(EXTENSION_PREFIX):
                raise LineProblem(k, "unknown header field",
                                  f"allowed: {', '.join(self.HEADER_FIELDS)}")
        players = obj.get("players")
        if isinstance(players, bool) or not isinstance(players, int) or \
                players not in table.variants:
            raise LineProblem("players", f"expected one of {sorted(table.variants)}, found "
                              f"{players!r}")
        opts = obj.get("options", {})
        if not isinstance(opts, dict) or not all(isinstance(x, str) for x in opts.values()):
            raise LineProblem("options", f"expected an object of option names to string "
                              f"values, found {opts!r}")
        try:
            rules = table.resolve(players, opts)
        except ValueError as exc:
            raise LineProblem("options", str(exc)) from None
        self.playable(rules)
        return rules

    def read_header(self, obj: Mapping[str, Any], table: Any) -> tuple[Any, Any]:
        """The rules and the deal of a header whose ruleset is `table` (the reader has
        already picked the table by the header's ruleset and checked format, version and
        kind); raises LineProblem."""
        rules = self.read_rules(obj, table)
        if ("deal" in obj) == ("seed" in obj):
            raise LineProblem("deal", "give exactly one of 'deal' and 'seed'",
                              "other engines should always write the deal")
        if "deal" in obj:
            return rules, self.header_deal(rules, obj)
        seed = obj["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise LineProblem("seed", f"expected a non-negative integer, found {seed!r}")
        return rules, self.seed_deal(rules, seed, obj)

    def read_state(self, d: Mapping[str, Any], table: Any) -> tuple[Any, Any, list[Any]]:
        """The rules, deal and actions of a `State.to_json()` document; raises
        LineProblem."""
        for k in ("players", "deal", "actions"):
            if k not in d:
                raise LineProblem(k, "missing field of a chanspec state file",
                                  "state files come from State.to_json(): kind, ruleset, "
                                  "players, options, deal, actions")
        rules = self.read_rules({"type": "header", "players": d["players"],
                                 "options": d.get("options") or {}}, table)
        v = d["deal"]
        try:
            if not isinstance(v, dict):
                raise TypeError(v)
            deal = self.Deal.from_json(v)
            deal.check(rules)
        except (KeyError, TypeError, ValueError) as exc:
            fields = ", ".join(f.name for f in dataclasses.fields(self.Deal))
            why = getattr(exc, "en", None) or f"expected the object of Deal.as_json(): {fields}"
            raise LineProblem("deal", why) from None
        if not isinstance(d["actions"], list):
            raise LineProblem("actions", "expected a list of action objects")
        actions = []
        for i, a in enumerate(d["actions"]):
            if not isinstance(a, dict) or a.get("type") not in self.ACTION_TYPES:
                raise LineProblem(f"actions[{i}]", f"expected an action object, found {a!r}")
            try:
                act = self.read_line(rules, a)
            except LineProblem as exc:
                raise LineProblem(f"actions[{i}].{exc.field}", exc.message, exc.hint) from None
            assert act is not None
            actions.append(act)
        return rules, deal, actions

    def read_line(self, rules: Any, obj: Mapping[str, Any]) -> Any:
        """The action of an action line, None for a well-formed consequence line; raises
        LineProblem."""
        t = obj.get("type")
        every = (f"actions: {', '.join(self.ACTION_TYPES)}; consequences: "
                 f"{', '.join(self.CONSEQUENCE_FIELDS)}")
        if "type" not in obj:
            raise LineProblem("type", "missing the 'type' tag", every)
        if t == "header":
            raise LineProblem("type", "a second header",
                              "one log holds one hand; start a new file")
        if isinstance(t, str) and t in self.ACTION_FIELDS:
            own = self.ACTION_FIELDS[t]
            allowed = {"type", "seat", *own}
            check_fields(obj, allowed, allowed)
            s = seat("seat", obj["seat"], rules.players)
            values = {k: self.value(rules, self._kind_of(t, k), k, obj[k]) for k in own}
            return self.make_action(rules, t, s, values)
        if isinstance(t, str) and t in self.CONSEQUENCE_FIELDS:
            req, opt = self.CONSEQUENCE_FIELDS[t]
            check_fields(obj, {"type", *req}, {"type", *req, *opt})
            for k, kind in self.FIELD_KINDS.items():
                if k in obj:
                    self.value(rules, self.TYPED_FIELDS.get((t, k), kind), k, obj[k])
            return None
        raise LineProblem("type", f"unknown type {t!r}", every)

    def _kind_of(self, t: str, fld: str) -> str:
        return self.TYPED_FIELDS.get((t, fld), self.FIELD_KINDS[fld])

    # ------------------------------------------------------------ words

    def say(self, st: Any, obj: Mapping[str, Any], action: Any) -> tuple[str, str]:
        """(vi, en) for one line, told in the position `st` it comes at."""
        if action is not None:
            try:
                return self.say_action(st, action)
            except (IndexError, KeyError, TypeError, ValueError):  # e.g. nothing to beat
                return (f"ghế {action.seat}: {action.code()}",
                        f"seat {action.seat}: {action.code()}")
        t = obj.get("type")
        e = dict(obj)
        e["type"] = self._event_of.get(str(t), t)
        try:
            told = self.say_event(st, e)
        except (KeyError, TypeError, ValueError):
            told = None
        if told is None:
            return (f"dòng {t}", f"a {t} line")
        return told[0].strip(), told[1].strip()

    def blank_action(self) -> dict[str, Any]:
        """Every field an action of the kind may have, empty (``type`` and ``seat`` too),
        for records that keep the same fields in every state (ITF)."""
        out: dict[str, Any] = {"type": "", "seat": -1}
        for fields in self.ACTION_FIELDS.values():
            for k in fields:
                out.setdefault(k, BLANKS[self.FIELD_KINDS[k]])
        return out

    def action_line(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The action line of a record `blank_action` filled: only the fields of its
        type (an unknown type keeps all, for `read_line` to refuse)."""
        t = record.get("type")
        own = self.ACTION_FIELDS.get(t, tuple(record)) if isinstance(t, str) else tuple(record)
        return {k: v for k, v in record.items() if k in ("type", "seat", *own)}
