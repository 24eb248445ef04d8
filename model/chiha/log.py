"""Chiha game logs: one hand as NDJSON lines, in the machine's own words.

The format (``vectors/README.md``, "Chiha game logs"; ``vectors/log.schema.json``) is the
frame every kind's log shares (`chanspec.model.gamelog`) with ``"kind": "chiha"`` in the
header; this module holds only Chiha's words for it:

* the header's deal: ``cai`` (the seat that holds one card more and opens), ``hands``
  (each seat's cards as dealt, the cái's block first in the pack) and ``noc`` (the rest,
  the card drawn first first); or the ``seed`` chanspec dealt it from;
* *action* lines, exactly `Action.as_json()`: ``discard`` and ``eat`` (with ``cards``:
  the card thrown, or the own cards shown to eat), ``add`` (with the ``index`` of the
  laid meld), ``pass``, ``draw``, ``xep``, ``show``, ``quan``, ``toi``;
* *consequence* lines, the machine's events (`State.events`): ``deal``, ``to-discard``,
  ``discarded`` (the machine's ``discard``), ``drawn`` (its ``draw``), ``xep-laid`` (its
  ``xep``: a card went face down, which the others see without the card), ``shown``
  (its ``show``), ``giet``, ``keo``, ``pass-on``, ``forced-impossible``, ``win``,
  ``bust`` and ``end-noc`` (renamed where the machine's name is an action's); and two
  lines of the log's own: ``asked`` after a shown card (the seats asked to eat it, in
  the order row claim-priority gives, and those of them a ``[[forced_claim]]`` row makes
  eat) and ``end`` (the result, winner, lệnh, busted seats and payments of the hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chanspec.model import gamelog
from chanspec.model.gamelog import EXTENSION_PREFIX, FORMAT, VERSION, LineProblem

from .deck import Deck
from .game import (
    CARD_KINDS,
    CLAIM,
    KINDS,
    Action,
    ActionError,
    Deal,
    State,
    _seat_at,
    deal_random,
    plan_of,
)
from .table import KIND_NAME, ChihaRules

__all__ = ["EXTENSION_PREFIX", "FORMAT", "VERSION", "LineProblem"]

ACTION_TYPES = KINDS
# the machine's event types that a log writes under another name (each is an action's)
LOG_NAME = {"discard": "discarded", "draw": "drawn", "xep": "xep-laid", "show": "shown"}
# each consequence line's fields: required, optional
CONSEQUENCE_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "deal": (("cai", "noc", "rules"), ()),
    "to-discard": (("seat", "rules"), ()),
    "discarded": (("seat", "card", "rules"), ()),
    "drawn": (("seat", "rules"), ("card",)),
    "xep-laid": (("seat", "rules"), ()),
    "shown": (("seat", "card", "rules"), ()),
    "asked": (("card", "seats", "forced", "rules"), ()),
    "giet": (("seat", "drawer", "rules"), ()),
    "keo": (("seat", "rules"), ()),
    "pass-on": (("seat", "card", "rules"), ()),
    "forced-impossible": (("seat", "card", "rules"), ()),
    "win": (("seat", "lenh", "quan", "rules"), ()),
    "bust": (("seat", "lenh", "rules"), ()),
    "end-noc": (("noc", "rules"), ()),
    "end": (("result", "winner", "busted", "payments", "rules"), ("lenh",)),
}
DEAL_FIELDS = ("cai", "hands", "noc")


def layout(rules: ChihaRules, deal: Deal) -> list[list[int]]:
    """Each seat's cards as dealt (the cái's block of the pack first, then round the
    table in turn order: the dealing of `State.__init__`)."""
    v = rules.variant
    hands: list[list[int]] = [[] for _ in range(rules.players)]
    i = 0
    for k in range(rules.players):
        size = v.opener_cards if k == 0 else v.other_cards
        hands[_seat_at(rules, deal.cai, k)] = list(deal.order[i:i + size])
        i += size
    return hands


class ChihaLog(gamelog.LogFormat):
    """Chiha's words in the shared log frame."""

    KIND = KIND_NAME
    ACTION_FIELDS = {t: ("cards",) if t in CARD_KINDS else ("index",) if t == "add" else ()
                     for t in ACTION_TYPES}
    CONSEQUENCE_FIELDS = CONSEQUENCE_FIELDS
    FIELD_KINDS = {"seat": "seat", "drawer": "seat", "cai": "seat", "winner": "seat-or-null",
                   "seats": "seats", "forced": "seats", "busted": "seats", "card": "card",
                   "cards": "cards", "index": "index", "noc": "count",
                   "lenh": "count-or-null", "quan": "flag", "payments": "ints",
                   "result": "word", "rules": "rules"}
    LOG_NAME = LOG_NAME
    State = State
    Deal = Deal

    def builtin_table(self) -> Any:
        from . import table as table_mod

        return table_mod.load(table_mod.BUILTIN)

    def card_hint(self, deck: Deck) -> str:
        return (f"codes are a rank code then a colour code, such as {deck.code(0)} "
                f"({deck.name(0)})")

    def deal_json(self, rules: ChihaRules, deal: Deal) -> dict[str, Any]:
        d = rules.deck
        hands = layout(rules, deal)
        return {"cai": deal.cai, "hands": [[d.code(f) for f in h] for h in hands],
                "noc": [d.code(f) for f in deal.order[sum(map(len, hands)):]]}

    def playable(self, rules: ChihaRules) -> None:
        """LineProblem when the machine plays no hand under these readings (a deck too
        small to deal, a reading it does not play)."""
        d = rules.deck
        try:
            plan_of(rules)
            Deal(tuple(f for f in d.faces for _ in range(d.copies)), 0).check(rules)
        except ActionError as exc:
            raise LineProblem("options", exc.en) from None

    def read_deal(self, rules: ChihaRules, v: Any) -> Deal:
        d, n, var = rules.deck, rules.players, rules.variant
        self.deal_object(v, DEAL_FIELDS, DEAL_FIELDS)
        cai = gamelog.seat("deal.cai", v["cai"], n)
        hands = self.hands(rules, v["hands"])
        for s, h in enumerate(hands):
            size = var.opener_cards if s == cai else var.other_cards
            if len(h) != size:
                raise LineProblem(f"deal.hands[{s}]", f"expected {size} cards (the cái holds "
                                  f"{var.opener_cards}, the others {var.other_cards}: row "
                                  f"{var.rule}), found {len(h)}")
        noc = self.cards(d, "deal.noc", v["noc"])
        self.pack(d, "deal", [c for h in hands for c in h] + noc, len(d.faces), d.copies)
        order = [c for k in range(n) for c in hands[_seat_at(rules, cai, k)]] + noc
        deal = Deal(tuple(order), cai)
        try:
            deal.check(rules)
        except ActionError as exc:
            raise LineProblem("deal", exc.en) from None
        return deal

    def seed_deal(self, rules: ChihaRules, seed: int, obj: Mapping[str, Any]) -> Deal:
        return deal_random(rules, seed)

    def make_action(self, rules: ChihaRules, t: str, seat: int,
                    values: Mapping[str, Any]) -> Action:
        try:
            return Action.make(rules.deck, t, seat, values.get("cards", ()),
                               values.get("index", -1))
        except ActionError as exc:
            raise LineProblem(next(iter(values), "type"), exc.en) from None

    def more_lines(self, st: State, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The machine's lines, then ``asked`` when a shown card waits for the seats'
        answers, and ``end`` when the hand is over."""
        if st.phase == CLAIM and any(x["type"] == "shown" for x in lines):
            c = st.card
            forced = {s: st.forced(s, c) for s in st.queue}
            rows = ["claim-priority"] + (["forced-claims"] if any(forced.values()) else [])
            rows += [r for s in st.queue for r in forced[s]]
            lines.append({"type": "asked", "card": st.p.deck.code(c), "seats": list(st.queue),
                          "forced": [s for s in st.queue if forced[s]],
                          "rules": list(dict.fromkeys(rows))})
        o = st.outcome()
        if o is not None:
            end: dict[str, Any] = {"type": "end", "result": o["result"],
                                   "winner": o.get("winner")}
            if "lenh" in o:
                end["lenh"] = o["lenh"]
            end |= {"busted": list(o["busted"]), "payments": list(o["payments"]),
                    "rules": list(o["rules"])}
            lines.append(end)
        return lines

    # ------------------------------------------------------------ words

    def say_action(self, st: State, action: Action) -> tuple[str, str]:
        from . import words

        return words.say_action(st, action)

    def say_event(self, st: State, event: dict[str, Any]) -> tuple[str, str] | None:
        from . import words

        t = event["type"]
        d = st.p.deck
        if t == "to-discard":
            return (f"Ghế {event['seat']} phải vứt một quân.",
                    f"Seat {event['seat']} must discard a card.")
        if t == "discard":
            c = d.parse(event["card"])
            return (f"Ghế {event['seat']} vứt rác {d.name(c, 'vi')}.",
                    f"Seat {event['seat']} discards the {d.name(c, 'en')}.")
        if t == "asked":
            c = d.parse(event["card"])
            seats = ", ".join(map(str, event["seats"]))
            must = ", ".join(map(str, event["forced"]))
            return (f"Hỏi ăn {d.name(c, 'vi')}, lần lượt ghế {seats}; bắt buộc ăn: "
                    f"{must or 'không ai'}.",
                    f"Asked to eat the {d.name(c, 'en')}, in turn: seat(s) {seats}; bound to "
                    f"eat: {must or 'nobody'}.")
        if t == "end":
            return self._end_words(event)
        return words.say_event(st, event)

    def say_end(self, st: State) -> tuple[str, str]:
        return self._end_words(st.outcome() or {})

    @staticmethod
    def _end_words(o: Mapping[str, Any]) -> tuple[str, str]:
        pays = list(o.get("payments", []))
        vi_p = ", ".join(f"ghế {s} {v:+d}" for s, v in enumerate(pays))
        en_p = ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(pays))
        r = o.get("result")
        if r in ("win", "quan"):
            how = "tới quan" if r == "quan" else "ù (tới)"
            return (f"ghế {o['winner']} {how} với {o.get('lenh')} lệnh; tiền: {vi_p}",
                    f"seat {o['winner']} won, {how}, with {o.get('lenh')} lệnh; paid: {en_p}")
        if r == "bust":
            who = ", ".join(map(str, o.get("busted", [])))
            return (f"ghế {who} bị ù, hết ván; tiền: {vi_p}",
                    f"seat(s) {who} busted (bị ù), the hand is over; paid: {en_p}")
        return (f"nọc cạn, hết ván ({r}); tiền: {vi_p}",
                f"the nọc ran low and the hand ended ({r}); paid: {en_p}")


LOG = ChihaLog()
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
