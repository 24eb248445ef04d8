"""Tấn game logs: one hand as NDJSON lines, in the machine's own words.

The format (``vectors/README.md``, "Tấn game logs"; ``vectors/log.schema.json``) is the
frame every kind's log shares (`chanspec.model.gamelog`) with ``"kind": "tan"`` in the
header; this module holds only Tấn's words for it:

* the header's deal: the hands as dealt, the stock top first, the turned trump card, and
  the rest of the hand's chance: `count_pick`, `reshuffle`, `redeal`, `dealer`,
  `previous`; or the `seed` chanspec dealt it from, with `dealer` and `previous`;
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

from collections.abc import Mapping
from typing import Any

from chanspec.model import gamelog
from chanspec.model.gamelog import EXTENSION_PREFIX, FORMAT, VERSION, LineProblem

from .cards import Deck
from .game import KINDS, Action, ActionError, Deal, State, deal_random
from .table import KIND_NAME, TanRules

__all__ = ["EXTENSION_PREFIX", "FORMAT", "VERSION", "LineProblem"]

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
STEP_CAP = 3000  # a random hand stops after this many moves (as `words.random_hand`)


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


def _previous(fld: str, prev: Any, n: int, what: str) -> tuple[int, int] | None:
    if prev is not None and not (isinstance(prev, list) and len(prev) == 2):
        raise LineProblem(fld, f"expected null or [first, last]{what}, found {prev!r}")
    return None if prev is None else (gamelog.seat(f"{fld}[0]", prev[0], n),
                                      gamelog.seat(f"{fld}[1]", prev[1], n))


class TanLog(gamelog.LogFormat):
    """Tấn's words in the shared log frame."""

    KIND = KIND_NAME
    ACTION_FIELDS = {t: ("card",) if t in CARD_ACTIONS else () for t in ACTION_TYPES}
    CONSEQUENCE_FIELDS = CONSEQUENCE_FIELDS
    FIELD_KINDS = {"seat": "seat", "to": "seat", "dealer": "seat", "card": "card",
                   "turned": "card", "cards": "cards", "rules": "rules"}
    TYPED_FIELDS = {("lowest-trump", "card"): "card-or-null"}
    LOG_NAME = LOG_NAME
    HEADER_FIELDS = HEADER_FIELDS
    STEP_CAP = STEP_CAP
    State = State
    Deal = Deal

    def builtin_table(self) -> Any:
        from . import table as table_mod

        return table_mod.load(table_mod.BUILTIN)

    def card_hint(self, deck: Deck) -> str:
        return f"codes are a rank and a suit, such as {deck.code(deck.size - 1)}"

    def deal_json(self, rules: TanRules, deal: Deal) -> dict[str, Any]:
        d = rules.deck
        hands, stock, turned = layout(rules, deal)
        return {"hands": [d.codes(h) for h in hands], "stock": d.codes(stock),
                "turned": d.code(turned), "count_pick": deal.count_pick,
                "reshuffle": d.codes(deal.reshuffle), "redeal": d.codes(deal.redeal),
                "dealer": deal.dealer,
                "previous": None if deal.previous is None else list(deal.previous)}

    def header_deal(self, rules: TanRules, obj: Mapping[str, Any]) -> Deal:
        for k in ("dealer", "previous"):
            if k in obj:
                raise LineProblem(k, f"with a 'deal', the {k} goes inside it (deal.{k})")
        return self.read_deal(rules, obj["deal"])

    def read_deal(self, rules: TanRules, v: Any) -> Deal:
        d, n, k = rules.deck, rules.players, rules.hand
        self.deal_object(v, DEAL_FIELDS, DEAL_FIELDS[:3])
        hands = self.hands(rules, v["hands"])
        for s, h in enumerate(hands):
            if len(h) != k:
                raise LineProblem(f"deal.hands[{s}]", f"expected {k} cards (the hand size "
                                  f"of these rules), found {len(h)}")
        stock = self.cards(d, "deal.stock", v["stock"])
        turned = self.card(d, "deal.turned", v["turned"])
        self.pack(d, "deal", [c for h in hands for c in h] + [turned] + stock, d.size)
        dealer = gamelog.seat("deal.dealer", v.get("dealer", 0), n)
        previous = _previous("deal.previous", v.get("previous"), n, " of the previous hand")
        pick = v.get("count_pick", 0)
        if isinstance(pick, bool) or not isinstance(pick, int) or pick < 0:
            raise LineProblem("deal.count_pick", f"expected a non-negative integer, found "
                              f"{pick!r}")
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
                perms[key] = self.cards(d, f"deal.{key}", v[key])
                self.pack(d, f"deal.{key}", perms[key], d.size)
        deal = Deal(pack, pick, tuple(perms.get("reshuffle", pack)),
                    tuple(perms.get("redeal", pack)), dealer, previous)
        try:
            deal.check(rules)
        except ActionError as exc:
            raise LineProblem("deal", exc.en) from None
        return deal

    def seed_deal(self, rules: TanRules, seed: int, obj: Mapping[str, Any]) -> Deal:
        dealer = gamelog.seat("dealer", obj.get("dealer", 0), rules.players)
        previous = _previous("previous", obj.get("previous"), rules.players, "")
        deal = deal_random(rules, seed, dealer, previous)
        try:
            deal.check(rules, shuffled=False)
        except ActionError as exc:
            raise LineProblem("previous", exc.en) from None
        return deal

    def make_action(self, rules: TanRules, t: str, seat: int,
                    values: Mapping[str, Any]) -> Action:
        return Action.make(rules.deck, t, seat, values.get("card", -1))

    def say_action(self, st: State, action: Action) -> tuple[str, str]:
        from . import words

        return words.say_action(st, action)

    def say_event(self, st: State, event: dict[str, Any]) -> tuple[str, str] | None:
        from . import words

        return words.say_event(event)

    def say_end(self, st: State) -> tuple[str, str]:
        o = st.outcome() or {}
        order = " > ".join("=".join(map(str, g)) for g in o.get("order", [])) or "—"
        return f"thứ tự về: {order}", f"finishing order: {order}"


LOG = TanLog()
header = LOG.header
deal_json = LOG.deal_json
read_deal = LOG.read_deal
events_as_lines = LOG.events_as_lines
first_lines = LOG.first_lines
step = LOG.step
record = LOG.record
random_log = LOG.random_log
read_header = LOG.read_header
read_state = LOG.read_state
read_line = LOG.read_line
say = LOG.say
say_end = LOG.say_end
