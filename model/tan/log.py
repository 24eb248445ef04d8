"""Tấn game logs: one hand as NDJSON lines, in the machine's own words.

The format (``vectors/README.md``, "Tấn game logs"; ``vectors/log.schema.json``) is the
Chắn log's frame with ``"kind": "tan"`` in the header:

* the header: format, version, kind, ruleset, players, options, and the deal (the hands
  as dealt, the stock top first, the turned trump card, and the rest of the hand's
  chance: `count_pick`, `reshuffle`, `redeal`, `dealer`, `previous`) or the `seed`
  chanspec dealt it from;
* *action* lines, exactly `Action.as_json()`: ``lead``, ``beat``, ``add`` (with a
  ``card``), ``take``, ``pass``, ``xa``, ``no-xa``, ``check``, ``no-check``, ``swap``,
  ``no-swap``;
* *consequence* lines, exactly the machine's events (`State.events`): ``deal``,
  ``count``, ``lowest-trump``, ``gift``, ``no-gift``, ``swapped``, ``xa-shown`` (the
  machine's ``xa`` event, renamed so that no line type is both an action and a
  consequence), ``draw``, ``turned-drawn``, ``took``, ``discarded``, ``out``, ``next``
  and ``end`` (the finishing order).

This module only shapes and checks lines; `chanspec.checks.conform` reads and replays
them.  Errors are `LineProblem` (the field, what is wrong, a hint), which the reader
turns into its own error with the line number.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .cards import CardError, Deck
from .game import KINDS, Action, ActionError, Deal, State, deal_random
from .table import KIND_NAME, TanRules

FORMAT = "chanspec-log"
VERSION = 1
ACTION_TYPES = KINDS
CARD_ACTIONS = frozenset({"lead", "beat", "add"})
# the machine's event types that a log writes under another name
LOG_NAME = {"xa": "xa-shown"}
# each consequence line's fields: required, optional (card fields are checked as codes)
CONSEQUENCE_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "deal": (("dealer", "turned", "rules"), ()),
    "count": (("card", "count", "seat", "rules"), ()),
    "lowest-trump": (("seat", "card", "rules"), ()),
    "gift": (("seat", "to", "card", "rules"), ()),
    "no-gift": (("seat", "to", "rules"), ()),
    "swapped": (("seat", "card", "rules"), ()),
    "xa-shown": (("seat", "rules"), ("cards",)),
    "draw": (("seat", "n"), ("cards",)),
    "turned-drawn": (("seat", "card", "rules"), ()),
    "took": (("seat", "cards", "rules"), ()),
    "discarded": (("n", "rules"), ()),
    "out": (("seat", "place", "rules"), ()),
    "next": (("seat", "rules"), ()),
    "end": (("order", "rules"), ()),
}
DEAL_FIELDS = ("hands", "stock", "turned", "count_pick", "reshuffle", "redeal", "dealer",
               "previous")
HEADER_FIELDS = ("type", "format", "version", "kind", "ruleset", "table_digest", "players",
                 "options", "deal", "seed", "dealer", "previous")
EXTENSION_PREFIX = "x-"
STEP_CAP = 3000  # a random hand stops after this many moves (as `words.random_hand`)


class LineProblem(ValueError):
    """A malformed Tấn log line: the field, what is wrong, and what to write instead."""

    def __init__(self, fld: str, message: str, hint: str = ""):
        self.field, self.message, self.hint = fld, message, hint
        super().__init__(message)


# --------------------------------------------------------------------------- the deal


def layout(rules: TanRules, deal: Deal) -> tuple[list[list[int]], list[int], int]:
    """(the hands as dealt, the stock top first, the turned card) of `deal`, before
    anything of the hand is played (the dealing of `State._deal_from`)."""
    n, k = rules.players, rules.hand
    step = -1 if rules.value("deal.direction") == "deal-opposite" else 1
    hands: list[list[int]] = [[] for _ in range(n)]
    i = 0
    for _ in range(k):
        for j in range(1, n + 1):
            hands[(deal.dealer + step * j) % n].append(deal.order[i])
            i += 1
    return hands, list(deal.order[i + 1:]), deal.order[i]


def deal_json(rules: TanRules, deal: Deal) -> dict[str, Any]:
    """The header's ``deal``: every card as its code."""
    d = rules.deck
    hands, stock, turned = layout(rules, deal)
    return {"hands": [d.codes(h) for h in hands], "stock": d.codes(stock),
            "turned": d.code(turned), "count_pick": deal.count_pick,
            "reshuffle": d.codes(deal.reshuffle), "redeal": d.codes(deal.redeal),
            "dealer": deal.dealer,
            "previous": None if deal.previous is None else list(deal.previous)}


def _seat(fld: str, v: Any, n: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n:
        raise LineProblem(fld, f"expected a seat 0..{n - 1}, found {v!r}")
    return v


def _card(deck: Deck, fld: str, v: Any) -> int:
    if not isinstance(v, str):
        raise LineProblem(fld, f"expected a card code, found {v!r}",
                          f"codes are a rank and a suit, such as {deck.code(deck.size - 1)}")
    try:
        return deck.parse(v)
    except CardError as exc:
        raise LineProblem(fld, str(exc)) from None


def _cards(deck: Deck, fld: str, v: Any) -> list[int]:
    if not isinstance(v, list):
        raise LineProblem(fld, f"expected a list of card codes, found {v!r}")
    return [_card(deck, f"{fld}[{i}]", c) for i, c in enumerate(v)]


def _permutation(deck: Deck, fld: str, cards: list[int]) -> None:
    """Raises LineProblem unless `cards` holds every card of the pack once."""
    seen: dict[int, int] = {}
    for c in cards:
        seen[c] = seen.get(c, 0) + 1
    twice = [deck.code(c) for c, x in seen.items() if x > 1]
    missing = [deck.code(c) for c in range(deck.size) if c not in seen]
    if twice or missing:
        what = "; ".join(([f"given twice: {', '.join(twice[:6])}"] if twice else []) + (
            [f"missing: {', '.join(missing[:6])}"] if missing else []))
        raise LineProblem(fld, f"not a permutation of the {deck.size}-card pack ({what})",
                          "every card of the pack exactly once")


def read_deal(rules: TanRules, v: Any) -> Deal:
    """The Deal a header's ``deal`` describes; raises LineProblem."""
    d, n, k = rules.deck, rules.players, rules.hand
    if not isinstance(v, dict):
        raise LineProblem("deal", f"expected an object with hands, stock, turned; found {v!r}")
    for key in v:
        if key not in DEAL_FIELDS:
            raise LineProblem(f"deal.{key}", "unknown field", f"allowed: {', '.join(DEAL_FIELDS)}")
    for key in ("hands", "stock", "turned"):
        if key not in v:
            raise LineProblem(f"deal.{key}", "missing required field")
    if not isinstance(v["hands"], list) or len(v["hands"]) != n:
        raise LineProblem("deal.hands", f"expected {n} lists of card codes, one per seat")
    hands = [_cards(d, f"deal.hands[{s}]", h) for s, h in enumerate(v["hands"])]
    for s, h in enumerate(hands):
        if len(h) != k:
            raise LineProblem(f"deal.hands[{s}]", f"expected {k} cards (the hand size "
                              f"of these rules), found {len(h)}")
    stock = _cards(d, "deal.stock", v["stock"])
    turned = _card(d, "deal.turned", v["turned"])
    _permutation(d, "deal", [c for h in hands for c in h] + [turned] + stock)
    dealer = _seat("deal.dealer", v.get("dealer", 0), n)
    prev = v.get("previous")
    if prev is not None and not (isinstance(prev, list) and len(prev) == 2):
        raise LineProblem("deal.previous", f"expected null or [first, last] of the previous "
                          f"hand, found {prev!r}")
    previous = None if prev is None else (_seat("deal.previous[0]", prev[0], n),
                                          _seat("deal.previous[1]", prev[1], n))
    pick = v.get("count_pick", 0)
    if isinstance(pick, bool) or not isinstance(pick, int) or pick < 0:
        raise LineProblem("deal.count_pick", f"expected a non-negative integer, found {pick!r}")
    # the pack the hands were dealt from, slot by slot (the inverse of `layout`)
    step = -1 if rules.value("deal.direction") == "deal-opposite" else 1
    order = [0] * (n * k)
    for j in range(1, n + 1):
        seat = (dealer + step * j) % n
        for r in range(k):
            order[r * n + j - 1] = hands[seat][r]
    pack = (*order, turned, *stock)
    perms = {}
    for key in ("reshuffle", "redeal"):
        if key in v:
            perms[key] = _cards(d, f"deal.{key}", v[key])
            _permutation(d, f"deal.{key}", perms[key])
    deal = Deal(pack, pick, tuple(perms.get("reshuffle", pack)),
                tuple(perms.get("redeal", pack)), dealer, previous)
    try:
        deal.check(rules)
    except ActionError as exc:
        raise LineProblem("deal", exc.en) from None
    return deal


# --------------------------------------------------------------------------- writing

_BUILTIN: list[str] = []


def _builtin_digest() -> str:
    """The digest of the built-in Tấn table (a log under it carries no digest)."""
    if not _BUILTIN:
        from . import table as table_mod

        _BUILTIN.append(table_mod.load(table_mod.BUILTIN).digest())
    return _BUILTIN[0]



def header(rules: TanRules, deal: Deal | None = None, seed: int | None = None,
           extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The header line: the deal, or the seed chanspec dealt it from."""
    h: dict[str, Any] = {"type": "header", "format": FORMAT, "version": VERSION,
                         "kind": KIND_NAME, "ruleset": rules.table.id,
                         "players": rules.players,
                         "options": dict(sorted(rules.options.items()))}
    if rules.table.digest() != _builtin_digest():
        h["table_digest"] = rules.table.digest()
    if deal is not None:
        h["deal"] = deal_json(rules, deal)
    elif seed is not None:
        h["seed"] = seed
    else:
        raise ValueError("a header needs a deal or a seed")
    for k, v in (extra or {}).items():
        if not k.startswith(EXTENSION_PREFIX):
            raise ValueError(f"extra header fields must start with {EXTENSION_PREFIX!r}")
        h[k] = v
    return h


def events_as_lines(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The machine's events as consequence lines (copies; ``xa`` is ``xa-shown``)."""
    out = []
    for e in events:
        line = dict(e)
        line["type"] = LOG_NAME.get(str(e["type"]), e["type"])
        out.append(line)
    return out


def first_lines(st: State) -> list[dict[str, Any]]:
    """The consequences of the deal, before any action (the turned card, who leads)."""
    return events_as_lines(st.events)


def step(st: State, action: Action) -> list[dict[str, Any]]:
    """Apply `action` to `st` (ActionError when it is refused) and return its
    consequence lines."""
    first = len(st.events)
    st.apply(action)
    return events_as_lines(st.events[first:])


def record(rules: TanRules, deal: Deal, actions: Iterable[Action], *,
           seed: int | None = None, extra: dict[str, Any] | None = None
           ) -> list[dict[str, Any]]:
    """The lines of a log of these actions (each must be legal in turn): the header with
    the deal written out (and `seed` as ``x-seed`` when given), then each action and its
    consequences."""
    st = State(rules, deal)
    more = dict(extra or {})
    if seed is not None:
        more["x-seed"] = seed
    lines = [header(rules, deal, extra=more), *first_lines(st)]
    for a in actions:
        lines.append(a.as_json())
        lines.extend(step(st, a))
    return lines


def random_log(rules: TanRules, seed: int) -> list[dict[str, Any]]:
    """The log of the seeded random hand `chanspec play --ruleset tan --seed N` tells
    (the deal of `seed`, then uniform choices from ``Random(seed)``)."""
    st = State.new(rules, seed)
    rng = random.Random(seed)
    while not st.is_terminal() and len(st.history) < STEP_CAP:
        la = st.legal_actions()
        st.apply(la[rng.randrange(len(la))])
    return record(rules, st.deal, st.history, seed=seed)


# --------------------------------------------------------------------------- reading


def read_header(obj: dict[str, Any], table: Any) -> tuple[TanRules, Deal]:
    """The rules and the deal of a Tấn header whose ruleset is `table` (the reader has
    already picked the table by the header's ruleset and checked format, version and
    kind); raises LineProblem."""
    for k in obj:
        if k not in HEADER_FIELDS and not k.startswith(EXTENSION_PREFIX):
            raise LineProblem(k, "unknown header field", f"allowed: {', '.join(HEADER_FIELDS)}")
    players = obj.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or players not in table.variants:
        raise LineProblem("players", f"expected one of {sorted(table.variants)}, found "
                          f"{players!r}")
    opts = obj.get("options", {})
    if not isinstance(opts, dict) or not all(isinstance(x, str) for x in opts.values()):
        raise LineProblem("options", f"expected an object of option names to string values, "
                          f"found {opts!r}")
    try:
        rules = table.resolve(players, opts)
    except ValueError as exc:
        raise LineProblem("options", str(exc)) from None
    if ("deal" in obj) == ("seed" in obj):
        raise LineProblem("deal", "give exactly one of 'deal' and 'seed'",
                          "other engines should always write the deal")
    if "deal" in obj:
        for k in ("dealer", "previous"):
            if k in obj:
                raise LineProblem(k, f"with a 'deal', the {k} goes inside it (deal.{k})")
        return rules, read_deal(rules, obj["deal"])
    seed = obj["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise LineProblem("seed", f"expected a non-negative integer, found {seed!r}")
    dealer = _seat("dealer", obj.get("dealer", 0), players)
    prev = obj.get("previous")
    if prev is not None and not (isinstance(prev, list) and len(prev) == 2):
        raise LineProblem("previous", f"expected null or [first, last], found {prev!r}")
    previous = None if prev is None else (_seat("previous[0]", prev[0], players),
                                          _seat("previous[1]", prev[1], players))
    deal = deal_random(rules, seed, dealer, previous)
    try:
        deal.check(rules, shuffled=False)
    except ActionError as exc:
        raise LineProblem("previous", exc.en) from None
    return rules, deal


def read_state(d: dict[str, Any], table: Any) -> tuple[TanRules, Deal, list[Action]]:
    """The rules, deal and actions of a `State.to_json()` document; raises LineProblem."""
    for k in ("players", "deal", "actions"):
        if k not in d:
            raise LineProblem(k, "missing field of a chanspec state file",
                              "state files come from State.to_json(): kind, ruleset, players, "
                              "options, deal, actions")
    rules, _ = read_header({"type": "header", "players": d["players"],
                            "options": d.get("options") or {}, "seed": 0}, table)
    v = d["deal"]
    try:
        if not isinstance(v, dict):
            raise TypeError(v)
        deal = Deal.from_json(v)
        deal.check(rules)
    except (KeyError, TypeError, ValueError) as exc:
        why = exc.en if isinstance(exc, ActionError) else (
            "expected the object of Deal.as_json(): order, count_pick, reshuffle, redeal, "
            "dealer, previous")
        raise LineProblem("deal", why) from None
    if not isinstance(d["actions"], list):
        raise LineProblem("actions", "expected a list of action objects")
    actions = []
    for i, a in enumerate(d["actions"]):
        if not isinstance(a, dict) or a.get("type") not in ACTION_TYPES:
            raise LineProblem(f"actions[{i}]", f"expected an action object, found {a!r}")
        try:
            act = read_line(rules, a)
        except LineProblem as exc:
            raise LineProblem(f"actions[{i}].{exc.field}", exc.message, exc.hint) from None
        assert act is not None
        actions.append(act)
    return rules, deal, actions


def read_line(rules: TanRules, obj: dict[str, Any]) -> Action | None:
    """The action of an action line, None for a well-formed consequence line; raises
    LineProblem."""
    t = obj.get("type")
    every = f"actions: {', '.join(ACTION_TYPES)}; consequences: {', '.join(CONSEQUENCE_FIELDS)}"
    if "type" not in obj:
        raise LineProblem("type", "missing the 'type' tag", every)
    if t == "header":
        raise LineProblem("type", "a second header", "one log holds one hand; start a new file")
    n, deck = rules.players, rules.deck
    if t in ACTION_TYPES:
        allowed = {"type", "seat", *(["card"] if t in CARD_ACTIONS else [])}
        _fields(obj, allowed, allowed)
        seat = _seat("seat", obj["seat"], n)
        card = _card(deck, "card", obj["card"]) if t in CARD_ACTIONS else -1
        return Action.make(deck, str(t), seat, card)
    if t in CONSEQUENCE_FIELDS:
        req, opt = CONSEQUENCE_FIELDS[str(t)]
        _fields(obj, {"type", *req}, {"type", *req, *opt})
        for k in ("seat", "to", "dealer"):
            if k in obj:
                _seat(k, obj[k], n)
        for k in ("card", "turned"):
            if k in obj and not (t == "lowest-trump" and obj[k] is None):
                _card(deck, k, obj[k])
        if "cards" in obj:
            _cards(deck, "cards", obj["cards"])
        if "rules" in obj and not (isinstance(obj["rules"], list)
                                   and all(isinstance(r, str) for r in obj["rules"])):
            raise LineProblem("rules", f"expected a list of rule ids, found {obj['rules']!r}")
        return None
    raise LineProblem("type", f"unknown type {t!r}", every)


def _fields(obj: dict[str, Any], required: set[str], allowed: set[str]) -> None:
    for k in obj:
        if k not in allowed and not k.startswith(EXTENSION_PREFIX):
            raise LineProblem(k, f"unknown field for a {obj['type']!r} line",
                              f"allowed: {', '.join(sorted(allowed))}; extensions start "
                              f"with {EXTENSION_PREFIX!r}")
    for k in sorted(required):
        if k not in obj:
            raise LineProblem(k, f"missing required field of a {obj['type']!r} line")


def say(st: State, obj: dict[str, Any], action: Action | None) -> tuple[str, str]:
    """(vi, en) for one line, told in the position `st` it comes at."""
    from . import words

    if action is not None:
        try:
            return words.say_action(st, action)
        except (IndexError, ValueError):  # e.g. a beat with nothing on the table
            return (f"ghế {action.seat}: {action.code()}", f"seat {action.seat}: "
                    f"{action.code()}")
    e = dict(obj)
    e["type"] = {v: k for k, v in LOG_NAME.items()}.get(str(obj.get("type")), obj.get("type"))
    try:
        told = words.say_event(e)
    except (KeyError, TypeError):
        told = None
    t = obj.get("type")
    if told is None:
        return (f"dòng {t}", f"a {t} line")
    return told[0].strip(), told[1].strip()
