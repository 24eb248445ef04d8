"""The Tấn machine: one hand of Tấn (seed 003) under a table's rules, behind the
`chanspec.model.kind.GameState` protocol.

A position is plain data: each hand a bit mask of cards (`cards`), the stock a list whose
last element is its top and whose first is the turned trump card (row
``trump-drawn-last``: drawn last), the round's attack cards and beating cards in order,
the discard (rác).  One seat decides at a time (`pending` is never two seats: the others'
adding is asked seat by seat in the order row ``add-order`` reads), so the contract of
simultaneous nodes holds trivially.

Each decision is read from the table: `_Plan` turns the values of the rows the fields of
``[play]``, ``[end]``, ``[deal]`` and ``[variants]`` name into flags once per rules, and
every legal or refused action is explained by `explain` citing those rows.  Two paths
decide legality on purpose: `legal_actions` works on bit masks, `explain` on the words of
the rules card by card; the tests hold them equal.

Phases: ``xa`` (xả chủ: a seat without trumps may show its hand and ask for new cards),
``cung`` (cúng chủ: the receiver may check the giver's hand), ``doi`` (đổi 2 chủ: the
holder of the trump 2 may swap it for the turned card), then rounds of ``lead`` (the
attacker plays any card), ``defend`` (the defender beats the open card or takes) and
``add`` (a seat may add a card of a rank on the table, or pass), until ``over``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chanspec.model.kind import PlainState

from .cards import Deck, cards_of
from .table import KIND_NAME, TanRules

LEAD, DEFEND, ADD, XA, CUNG, DOI, OVER = "lead", "defend", "add", "xa", "cung", "doi", "over"
KINDS = ("lead", "beat", "take", "add", "pass", "xa", "no-xa", "check", "no-check", "swap",
         "no-swap")
CARD_KINDS = frozenset({"lead", "beat", "add"})
PHASE_OF = {"lead": LEAD, "beat": DEFEND, "take": DEFEND, "add": ADD, "pass": ADD, "xa": XA,
            "no-xa": XA, "check": CUNG, "no-check": CUNG, "swap": DOI, "no-swap": DOI}
PHASE_WORDS = {
    LEAD: ("người tấn ra lá đầu của lượt", "the attacker leads the round's first card"),
    DEFEND: ("người bị tấn đỡ hoặc ôm", "the defender beats or takes"),
    ADD: ("một người được hỏi có tấn thêm không", "a seat is asked whether it adds a card"),
    XA: ("người không có chủ được xả bài", "a seat without trumps may ask for new cards"),
    CUNG: ("người được cúng có thể xét bài người cúng",
           "the receiver may check the giver's hand"),
    DOI: ("người có lá 2 chủ có thể đổi lấy lá lật", "the holder of the trump 2 may swap it"),
    OVER: ("ván đã xong", "the hand is over"),
}


class ActionError(ValueError):
    """An action the rules refuse here (`vi`, `en`: why, with the rule ids)."""

    def __init__(self, vi: str, en: str, rules: tuple[str, ...] = ()):
        self.vi, self.en, self.rules = vi, en, rules
        super().__init__(en)


class Action:
    """One decision of one seat: `kind` (one of `KINDS`), `seat`, and for a card move the
    card (an index of the table's deck; -1 otherwise).  `code()` is ``"2 beat QS"``."""

    __slots__ = ("kind", "seat", "card", "_code", "_key")

    def __init__(self, kind: str, seat: int, card: int, code: str):
        self.kind, self.seat, self.card, self._code = kind, seat, card, code
        self._key = (KINDS.index(kind), seat, card)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"Action({self._code!r})"

    def code(self) -> str:
        return self._code

    def as_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.kind, "seat": self.seat}
        if self.card >= 0:
            d["card"] = self._code.rsplit(" ", 1)[1]
        return d

    @staticmethod
    def make(deck: Deck, kind: str, seat: int, card: int = -1) -> Action:
        if kind not in KINDS:
            raise ActionError(f"không có loại nước {kind!r}", f"no action kind {kind!r}; kinds: "
                              f"{', '.join(KINDS)}")
        if (kind in CARD_KINDS) != (card >= 0):
            raise ActionError(f"nước {kind!r} {'cần' if kind in CARD_KINDS else 'không có'} lá",
                              f"action {kind!r} {'needs' if kind in CARD_KINDS else 'takes no'} "
                              "card")
        code = f"{seat} {kind}" + (f" {deck.code(card)}" if card >= 0 else "")
        return Action(kind, seat, card, code)

    @staticmethod
    def parse(text: str, deck: Deck) -> Action:
        """``"2 beat QS"``, ``"0 take"`` (ActionError or CardError otherwise)."""
        parts = text.split()
        if len(parts) not in (2, 3) or not parts[0].isdigit():
            raise ActionError(f"{text!r} không phải một nước như '2 beat QS' hay '0 take'",
                              f"{text!r} is not an action like '2 beat QS' or '0 take'")
        card = deck.parse(parts[2]) if len(parts) == 3 else -1
        return Action.make(deck, parts[1], int(parts[0]), card)

    @staticmethod
    def from_json(d: dict[str, Any], deck: Deck) -> Action:
        card = d.get("card")
        return Action.make(deck, str(d["type"]), int(d["seat"]),
                           -1 if card is None else deck.parse(str(card)))


@dataclass(frozen=True)
class Explanation:
    legal: bool
    rules: tuple[str, ...]
    en: str
    vi: str


def _perm(rng: random.Random, n: int) -> tuple[int, ...]:
    """`rng.shuffle(list(range(n)))`, the very same permutation and draws of `rng`
    (CPython's shuffle, spelt out so that a deal costs no method call per card)."""
    p = list(range(n))
    getrandbits = rng.getrandbits
    for i in range(n - 1, 0, -1):
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        p[i], p[j] = p[j], p[i]
    return tuple(p)


@dataclass(frozen=True)
class Deal:
    """The chance of one hand, fixed in advance: `order` is the shuffled pack the deal
    is made from; `count_pick` picks the stock card drawn to count out the first attacker
    and `reshuffle` orders the stock after it goes back (row ``first-attacker``);
    `redeal` is the pack of a new deal (row ``xa-redeal``); `dealer` the seat that deals;
    `previous` the (first, last) of the previous hand, for cúng chủ and for the previous
    winner's lead (``None``: this is the first hand)."""

    order: tuple[int, ...]
    count_pick: int
    reshuffle: tuple[int, ...]
    redeal: tuple[int, ...]
    dealer: int = 0
    previous: tuple[int, int] | None = None

    def as_json(self) -> dict[str, Any]:
        return {"order": list(self.order), "count_pick": self.count_pick,
                "reshuffle": list(self.reshuffle), "redeal": list(self.redeal),
                "dealer": self.dealer,
                "previous": None if self.previous is None else list(self.previous)}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Deal:
        prev = d.get("previous")
        return Deal(tuple(int(x) for x in d["order"]), int(d["count_pick"]),
                    tuple(int(x) for x in d["reshuffle"]), tuple(int(x) for x in d["redeal"]),
                    int(d.get("dealer", 0)),
                    None if prev is None else (int(prev[0]), int(prev[1])))

    def check(self, rules: TanRules, *, shuffled: bool = True) -> None:
        """Raises ActionError when the deal does not fit the rules (`shuffled`: check
        that its packs are permutations too; `deal_random`'s are by construction)."""
        size = rules.deck.size
        for name in ("order", "reshuffle", "redeal") if shuffled else ():
            if sorted(getattr(self, name)) != list(range(size)):
                raise ActionError(f"bài chia: {name} không phải một hoán vị của {size} lá",
                                  f"deal: {name} is not a permutation of the {size} cards")
        n = rules.players
        if not 0 <= self.dealer < n:
            raise ActionError(f"bài chia: người chia {self.dealer} không phải một ghế 0..{n - 1}",
                              f"deal: dealer {self.dealer} is not a seat 0..{n - 1}")
        if self.previous is not None and not (
                all(0 <= s < n for s in self.previous) and self.previous[0] != self.previous[1]):
            raise ActionError(f"bài chia: ván trước {self.previous} không phải hai ghế khác nhau",
                              f"deal: previous {self.previous} is not two distinct seats "
                              f"0..{n - 1}")


def deal_random(rules: TanRules, seed: int, dealer: int = 0,
                previous: tuple[int, int] | None = None) -> Deal:
    """The seeded chance of a hand (the same seed, the same deal)."""
    rng = random.Random(seed)
    size = rules.deck.size
    return Deal(_perm(rng, size), rng.randrange(1 << 30), _perm(rng, size), _perm(rng, size),
                dealer, previous)


class _Plan:
    """What a State reads again and again, worked out once per rules: the option values
    as flags, the beat masks under each trump suit, the action objects."""

    def __init__(self, rules: TanRules):
        v = rules.value
        self.rules = rules
        self.deck = d = rules.deck
        self.n = n = rules.players
        self.hand = rules.hand
        self.size = d.size
        self.per = per = d.per_suit
        self.deal_opposite = v("deal.direction") == "deal-opposite"
        self.count_first = v("deal.first_attacker") == "count-card"
        self.lowest_first = v("deal.first_attacker") == "lowest-trump"
        self.next_is_one = v("deal.count_from") == "next-is-one"
        self.setup = ("cung", "xa", "doi") if v("deal.setup_order") == "cung-xa-doi" else (
            "xa", "cung", "doi")
        self.must_beat = v("play.take_when_able") == "must-beat"
        self.take_all = v("play.take_what") == "all-table"
        self.others_only = v("play.add_who") == "others-only"
        self.add_attack_only = v("play.add_ranks") == "attack-only"
        self.round_from_defender = v("play.add_order") == "round-from-defender"
        self.limit = 6 if v("play.add_limit") == "six" else self.size
        # the first round's limit (row first-round-limit) and adding to a taker (row
        # add-after-take); either reading puts the round's limit and the take in the
        # fingerprint (`State.cap`, `State.taking`), which the others leave out
        self.first_five = v("play.first_limit") == "five"
        self.first_limit = min(5, self.limit) if self.first_five else self.limit
        self.add_to_taker = v("play.add_after_take") == "add-to-taker"
        self.extra_fp = self.first_five or self.add_to_taker
        self.pass_whole_round = v("play.pass_scope") == "whole-round"
        self.defender_draws = v("play.defender_out") == "defender-draws"
        self.after_taker = v("play.after_take") == "after-taker"
        self.previous_attacker = v("play.out_turn") == "previous-attacker"
        self.defender_last = v("play.refill") == "defender-last"
        self.first_out = v("end.end") == "first-out"
        self.shared = v("end.same_round") == "shared-place"
        self.doi = rules.on("variants.doi_hai_chu")
        self.cung = rules.on("variants.cung_chu")
        self.cung_highest = v("variants.cung_no_trump") == "gives-highest"
        self.xa = rules.on("variants.xa_chu")
        self.xa_own = v("variants.xa_redeal") == "own-hand"
        self.rid = {role: rules.rid(role) for sec in ("deal", "play", "end", "variants")
                    for role in _roles(rules, sec)}
        self.rid["deck.order"] = str(rules.table.data["deck"]["order_rule"])
        # the rows of a take (row add-after-take too when the others may add to it)
        self.took_rules = (self.rid["play.take"], self.rid["play.take_what"], *(
            [self.rid["play.add_after_take"]] if self.add_to_taker else []))
        self.suit_mask = [((1 << per) - 1) << (s * per) for s in range(len(d.suits))]
        self.rank_mask = [sum(1 << (s * per + r) for s in range(len(d.suits)))
                          for r in range(per)]
        # beat[t][a]: the cards that beat card a when suit t is trump (rows beat-suit,
        # trump-beats, trump-on-trump)
        self.beat = []
        for t in range(len(d.suits)):
            row = []
            for a in range(self.size):
                s, r = divmod(a, per)
                m = sum(1 << (s * per + x) for x in range(r + 1, per))
                if s != t:
                    m |= self.suit_mask[t]
                row.append(m)
            self.beat.append(row)
        self.act: dict[str, list[list[Action]]] = {}
        for kind in KINDS:
            cards = range(self.size) if kind in CARD_KINDS else (-1,)
            self.act[kind] = [[Action.make(d, kind, s, c) for c in cards] for s in range(n)]
        # for the hot paths (a random hand is a few hundred of these): each card's code,
        # the mask of the cards of its rank, the seats round the circle from each seat,
        # and the seats asked to add, in row add-order's order, for each (attacker,
        # defender)
        self.codes = [d.code(c) for c in range(self.size)]
        self.lead_row, self.beat_row, self.add_row = (self.act[k] for k in ("lead", "beat", "add"))
        self.take_act = [row[0] for row in self.act["take"]]
        self.pass_act = [row[0] for row in self.act["pass"]]
        self.rank_of = [self.rank_mask[c % per] for c in range(self.size)]
        self.circle = [tuple((s + j) % n for j in range(n)) for s in range(n)]
        self.after = [c[1:] for c in self.circle]
        self.add_seats: dict[tuple[int, int], tuple[int, ...]] = {}
        # who draws in which order after a round (row refill-order), by (attacker, defender)
        self.refill: dict[tuple[int, int], tuple[int, ...]] = {}
        for att in range(n):
            for dfd in range(n):
                ring = self.circle[att]
                self.refill[att, dfd] = tuple(
                    [*(s for s in ring if s != dfd), dfd] if self.defender_last else ring)
                others = [(dfd + j) % n for j in range(1, n) if (dfd + j) % n != att]
                self.add_seats[att, dfd] = tuple(
                    others if self.others_only else [*others, att] if self.round_from_defender
                    else [att, *others])

    def a(self, kind: str, seat: int, card: int = -1) -> Action:
        return self.act[kind][seat][card if card >= 0 else 0]


def _roles(rules: TanRules, sec: str) -> list[str]:
    from .vocab import FIELDS

    return [f"{sec}.{f}" for f in FIELDS[sec]]


_PLANS: dict[tuple[Any, ...], _Plan] = {}


def plan_of(rules: TanRules) -> _Plan:
    key = (id(rules.table), rules.key())
    p = _PLANS.get(key)
    if p is None:
        p = _PLANS[key] = _Plan(rules)
    return p


class State(PlainState):
    """One hand of Tấn in progress (see the module docstring)."""

    KIND_NAME = KIND_NAME
    COPY_LISTS = ("history", "events", "hands", "stock", "att", "beats", "queue", "emptied",
                  "known", "setup_left", "xa_queue")
    COPY_NESTED = ("places",)
    COPY_DICTS = ("seen",)

    def __init__(self, rules: TanRules, deal: Deal, *, _dealt: bool = False):
        deal.check(rules, shuffled=not _dealt)  # `deal_random` shuffles the whole pack
        self.rules = rules
        self.deal = deal
        p = self.p = plan_of(rules)
        self.n = p.n
        self.history: list[Action] = []
        self.events: list[dict[str, Any]] = []
        self.hands = [0] * p.n
        self.stock: list[int] = []
        self.trump = 0  # the trump suit
        self.att: list[int] = []
        self.beats: list[int] = []
        self.discard = 0  # mask
        self.attacker = self.defender = 0
        self.asked = -1  # the seat asked to add
        self.queue: list[int] = []  # the seats still to ask, after `asked`
        self.passed = 0  # mask of seats that passed this round
        self.emptied = [-1] * p.n  # the step at which each hand last became empty
        self.places: list[list[int]] = []  # seats out, by place (a place may hold several)
        self.known = [0] * p.n  # cards of each seat shown to everyone (xả chủ)
        self.seen: dict[int, int] = {}  # receiver -> giver whose hand it checked (cúng chủ)
        self.setup_left: list[str] = list(p.setup)
        self.xa_queue: list[int] = []
        self.xa_done = False
        self.swapper = -1
        self.gift = -1
        self.steps = 0  # progress: setup decisions, cards drawn, cards discarded
        self.phase = XA
        self.first_why: tuple[str, ...] = ()
        self.cap = p.first_limit  # the most attack cards of this round (the first: row
        # first-round-limit; the others: row attack-limit)
        self.taking = False  # the defender said take, and the others may still add (row
        # add-after-take)
        self._deal_from(deal.order)
        self._advance()

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, rules: TanRules, seed: int | None = None, deal: Deal | None = None,
            dealer: int = 0, previous: tuple[int, int] | None = None) -> State:
        """A hand from `deal`, or from the random deal of `seed`."""
        if deal is None:
            return cls(rules, deal_random(rules, 0 if seed is None else seed, dealer, previous),
                       _dealt=True)
        return cls(rules, deal)

    @staticmethod
    def from_json(d: dict[str, Any], table: Any = None) -> State:
        from . import table as table_mod

        t = table or table_mod.load(str(d.get("ruleset", table_mod.BUILTIN)))
        rules = t.resolve(int(d["players"]), d.get("options") or {})
        return State.replay(rules, Deal.from_json(d["deal"]),
                            (Action.from_json(a, rules.deck) for a in d.get("actions", [])))

    def under(self, rules: TanRules) -> State:
        """This hand replayed under other option values (ActionError if a move is refused
        there)."""
        return State.replay(rules, self.deal, [Action.make(rules.deck, a.kind, a.seat, a.card)
                                               for a in self.history])

    # ------------------------------------------------------------------ dealing

    def _next(self, seat: int) -> int:
        return (seat + 1) % self.n

    def _deal_from(self, order: Sequence[int]) -> None:
        p = self.p
        n, k = self.n, p.hand
        step = -1 if p.deal_opposite else 1
        hands = [0] * n
        i = 0
        for _ in range(k):
            for j in range(1, n + 1):
                hands[(self.deal.dealer + step * j) % n] |= 1 << order[i]
                i += 1
        self.hands = hands
        turned = order[i]
        self.trump = p.deck.suit(turned)
        # the stock: its top last, the turned card at the bottom (row trump-drawn-last)
        self.stock = [turned, *reversed(order[i + 1:])]
        self.events.append({"type": "deal", "dealer": self.deal.dealer,
                            "turned": p.deck.code(turned), "rules": [p.rid["deal.trump"]]})

    def _draw(self, seat: int, upto: int) -> None:
        """`seat` draws from the top of the stock up to `upto` cards, or until the stock
        is gone (its last card is the turned one: row trump-drawn-last)."""
        stock = self.stock
        got = min(upto - self.hands[seat].bit_count(), len(stock))
        if got <= 0:
            return
        last = stock[0]  # the turned card, drawn if this empties the stock
        m = 0
        drawn = []
        for _ in range(got):
            c = stock.pop()
            drawn.append(c)
            m |= 1 << c
        self.hands[seat] |= m
        if not stock:
            p = self.p
            self.events.append({"type": "turned-drawn", "seat": seat, "card": p.codes[last],
                                "rules": [p.rid["end.trump_last"]]})
        self.steps += got
        self.events.append({"type": "draw", "seat": seat, "n": got,
                            "cards": [self.p.codes[c] for c in drawn]})

    # ------------------------------------------------------------------ flow

    def _holders(self) -> list[int]:
        return [s for s in range(self.n) if self.hands[s]]

    def _next_holder(self, seat: int) -> int:
        """The next seat after `seat` holding cards (-1 if none but maybe `seat`)."""
        hands = self.hands
        for s in self.p.after[seat]:
            if hands[s]:
                return s
        return -1

    def _advance(self) -> None:
        """Run what follows by itself until a seat must decide (or the hand is over)."""
        p = self.p
        while self.phase in (XA, CUNG, DOI) and not self._pending_setup():
            if not self.setup_left:
                self._first_round()
                return
            step = self.setup_left.pop(0)
            if step == "xa" and p.xa and not self.xa_done:
                start = self.deal.dealer
                self.xa_queue = [s for s in ((start + j) % self.n for j in range(1, self.n + 1))
                                 if not self.hands[s] & p.suit_mask[self.trump]]
                self.phase = XA
            elif step == "cung" and p.cung and self.deal.previous is not None:
                self._give()
            elif step == "doi" and p.doi:
                two = p.deck.card(self.trump, 0)
                holder = next((s for s in range(self.n) if self.hands[s] >> two & 1), -1)
                if self.stock[0] != two and holder >= 0:
                    self.phase = DOI
                    self.asked = holder

    def _pending_setup(self) -> bool:
        if self.phase == XA:
            return bool(self.xa_queue)
        return self.phase in (CUNG, DOI) and self.asked >= 0

    def _give(self) -> None:
        """Cúng chủ: the previous last gives its highest trump to the previous first,
        then draws one (rows cung-chu, cung-draw, cung-no-trump)."""
        p = self.p
        assert self.deal.previous is not None
        first, last = self.deal.previous
        trumps = self.hands[last] & p.suit_mask[self.trump]
        rids = [p.rid["variants.cung_chu"], p.rid["variants.cung_draw"]]
        if trumps:
            card = trumps.bit_length() - 1
        elif p.cung_highest and self.hands[last]:
            card = max(cards_of(self.hands[last]), key=p.deck.strength)
            rids.append(p.rid["variants.cung_no_trump"])
        else:
            self.events.append({"type": "no-gift", "seat": last, "to": first,
                                "rules": [p.rid["variants.cung_chu"],
                                          p.rid["variants.cung_no_trump"]]})
            return
        self.hands[last] &= ~(1 << card)
        self.hands[first] |= 1 << card
        self.gift = card
        self.events.append({"type": "gift", "seat": last, "to": first,
                            "card": p.deck.code(card), "rules": rids})
        self._draw(last, p.hand)
        top = p.deck.card(self.trump, p.per - 1)
        king = p.deck.card(self.trump, p.per - 2)
        if card == top or (card == king and self.stock and self.stock[0] == top):
            return  # nothing to check (row cung-check)
        self.phase = CUNG
        self.asked = first

    def _first_round(self) -> None:
        p = self.p
        d = self.deal
        if self.swapper >= 0:
            first = self._next(self.swapper)
            why = (p.rid["variants.doi_first"],)
        elif p.count_first:
            face_down = self.stock[1:]
            why = (p.rid["deal.first_attacker"], p.rid["deal.count_from"])
            if face_down:
                card = face_down[d.count_pick % len(face_down)]
                count = p.deck.count(card)
                first = (d.dealer + count - (0 if p.next_is_one else 1)) % self.n
                pos = {c: i for i, c in enumerate(d.reshuffle)}
                self.stock = [self.stock[0], *sorted(face_down, key=pos.__getitem__)]
                self.events.append({"type": "count", "card": p.deck.code(card), "count": count,
                                    "seat": first, "rules": list(why)})
            else:
                first = d.dealer
        elif p.lowest_first:
            first, low = self._lowest_trump()
            why = (p.rid["deal.first_attacker"],)
            self.events.append({"type": "lowest-trump", "seat": first,
                                "card": p.codes[low] if low >= 0 else None,
                                "rules": list(why)})
        else:
            first = d.dealer if d.previous is None else d.previous[0]
            why = (p.rid["deal.first_attacker"],)
        self.first_why = why
        if not self.hands[first]:
            first = self._next_holder(first)
        self._start(first)

    def _lowest_trump(self) -> tuple[int, int]:
        """(seat, card) of the lowest trump held (row first-attacker, value lowest-trump);
        (the dealer, -1) when nobody holds a trump."""
        trumps = self.p.suit_mask[self.trump]
        seat, low = self.deal.dealer, -1
        for s, h in enumerate(self.hands):
            m = h & trumps
            if m:
                c = (m & -m).bit_length() - 1  # a card's index grows with its strength
                if low < 0 or c < low:
                    seat, low = s, c
        return seat, low

    def _start(self, attacker: int) -> None:
        self.attacker = attacker
        self.defender = self._next_holder(attacker)
        self.att, self.beats, self.passed, self.queue, self.asked = [], [], 0, [], -1
        self.phase = LEAD

    def _ask(self) -> None:
        """After a beat: who is asked to add, in the order row add-order reads."""
        hands = self.hands
        if len(self.att) >= self.cap or not hands[self.defender]:
            self.queue = []
            return
        self._queue_adders()  # row pass-scope: a pass answered one offer only

    def _queue_adders(self) -> None:
        """Who is asked to add, in row add-order's order: the seats holding a card of a
        rank on the table that have not passed (under row pass-scope's this-card, a new
        offer forgets the passes)."""
        p = self.p
        if not p.pass_whole_round:
            self.passed = 0
        allowed = self._add_mask()
        passed, hands = self.passed, self.hands
        self.queue = [s for s in p.add_seats[self.attacker, self.defender]
                      if hands[s] & allowed and not passed >> s & 1]

    def _add_mask(self) -> int:
        """The cards of a rank on the table (row add-ranks: the attack cards only, or
        the beating cards too)."""
        rank_of = self.p.rank_of
        m = 0
        for c in self.att:
            m |= rank_of[c]
        if not self.p.add_attack_only:
            for c in self.beats:
                m |= rank_of[c]
        return m

    def _ask_taker(self, seat: int) -> None:
        """Row add-after-take: after the take (`seat` -1) or after `seat` added to the
        taker, who is asked next, in the order row add-order reads (`seat` again first,
        then those still to ask), while the unbeaten cards are fewer than the taker holds
        and the round's limit allows one more; nobody: the taker takes."""
        hands = self.hands
        att = self.att
        if len(att) >= self.cap or len(att) - len(self.beats) >= hands[self.defender].bit_count():
            self.queue = []
        elif seat < 0:
            self._queue_adders()  # row pass-scope: the take is a new offer
        else:
            allowed = self._add_mask()
            self.queue = [s for s in (seat, *self.queue) if hands[s] & allowed]
        self._next_asked()

    def _next_asked(self) -> None:
        if self.queue:
            self.asked = self.queue.pop(0)
            self.phase = ADD
        else:
            self._end_round(taken=self.taking)

    def _end_round(self, taken: bool) -> None:
        p = self.p
        rid = p.rid
        a, d = self.attacker, self.defender
        hands = self.hands
        events = self.events
        if taken:
            self.taking = False  # row add-after-take: the adding is over
            got, gone = (self.att + self.beats, []) if p.take_all else (self.att, self.beats)
            m = 0
            for c in got:
                m |= 1 << c
            hands[d] |= m
            codes = p.codes
            events.append({"type": "took", "seat": d, "cards": [codes[c] for c in got],
                           "rules": list(p.took_rules)})
        else:
            gone = self.att + self.beats
        if gone:
            m = self.discard
            for c in gone:
                m |= 1 << c
            self.discard = m
            self.steps += len(gone)
            events.append({"type": "discarded", "n": len(gone), "rules": [rid["play.discard"]]})
        if self.stock:
            hand = p.hand
            for s in p.refill[a, d]:  # row refill-order
                if hands[s].bit_count() < hand:
                    self._draw(s, hand)
        emptied = hands.count(0)
        if emptied > sum(map(len, self.places)) and not self.stock:
            self._outs()  # a seat out is never dealt to again: only new empty hands
        if (p.first_out and self.places) or emptied >= self.n - 1:
            self.att, self.beats, self.queue, self.passed, self.asked = [], [], [], 0, -1
            if not p.first_out and emptied < self.n:
                self.places.append([s for s in range(self.n) if hands[s]])
            self.phase = OVER
            events.append({"type": "end", "order": [list(x) for x in self.places],
                           "rules": [rid["end.out"], rid["end.end"]]})
            return
        if taken:
            due = self._next_holder(d) if p.after_taker else d
            why = rid["play.after_take"]
        else:
            due = d
            why = rid["play.next_after_beat"]
        if not hands[due]:
            if p.previous_attacker and hands[a]:
                due = a
            else:
                due = self._next_holder(due)
            why = rid["play.out_turn"]
        events.append({"type": "next", "seat": due, "rules": [why]})
        self.cap = p.limit  # the first round is over (row first-round-limit)
        self._start(due)

    def _outs(self) -> None:
        """Seats whose hands are empty once the stock is gone are out (rows finish,
        same-round-out)."""
        done = {s for g in self.places for s in g}
        new = sorted((s for s in range(self.n) if not self.hands[s] and s not in done),
                     key=lambda s: self.emptied[s])
        if not new:
            return
        if self.p.shared:
            self.places.append(new)
        else:
            self.places.extend([s] for s in new)
        for s in new:
            self.events.append({"type": "out", "seat": s, "place": len(self.places),
                                "rules": [self.p.rid["end.out"], self.p.rid["end.same_round"]]})

    # ------------------------------------------------------------------ protocol

    def pending(self) -> tuple[int, ...]:
        ph = self.phase
        if ph == LEAD:
            return (self.attacker,)
        if ph == DEFEND:
            return (self.defender,)
        if ph == XA:
            return (self.xa_queue[0],) if self.xa_queue else ()
        if ph == OVER:
            return ()
        return (self.asked,)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """What the pending seat (or only `seat`) may do now, card moves lowest card
        first; empty once the hand is over.  `explain(a)` names the rows behind each."""
        ph = self.phase
        p = self.p
        if ph == LEAD:
            s = self.attacker
            if seat is not None and seat != s:
                return []
            row = p.lead_row[s]
            m = self.hands[s]
            out = []
            while m:
                low = m & -m
                out.append(row[low.bit_length() - 1])
                m ^= low
            return out
        if ph == DEFEND:
            s = self.defender
            if seat is not None and seat != s:
                return []
            m = self.hands[s] & p.beat[self.trump][self.att[-1]]
            can = m != 0
            row = p.beat_row[s]
            out = []
            while m:
                low = m & -m
                out.append(row[low.bit_length() - 1])
                m ^= low
            if not (can and p.must_beat):
                out.append(p.take_act[s])
            return out
        if ph == OVER:
            return []
        if ph == XA:
            if not self.xa_queue:
                return []
            s = self.xa_queue[0]
        else:
            s = self.asked
        if s < 0 or (seat is not None and seat != s):
            return []
        act = p.act
        if ph == ADD:
            row = p.add_row[s]
            m = self.hands[s] & self._add_mask()
            out = []
            while m:
                low = m & -m
                out.append(row[low.bit_length() - 1])
                m ^= low
            out.append(p.pass_act[s])
            return out
        if ph == XA:
            return [act["xa"][s][0], act["no-xa"][s][0]]
        if ph == CUNG:
            return [act["check"][s][0], act["no-check"][s][0]]
        return [act["swap"][s][0], act["no-swap"][s][0]]

    def candidate_actions(self, seat: int) -> list[Action]:
        """Every action of `seat` worth asking about here: each card move with each card
        of its hand, and every move without a card."""
        p = self.p
        out: list[Action] = []
        for kind in KINDS:
            if kind in CARD_KINDS:
                out += [p.act[kind][seat][c] for c in cards_of(self.hands[seat])]
            else:
                out.append(p.act[kind][seat][0])
        return out

    def apply(self, action: Action, *, check: bool = True) -> None:
        if check:
            e = self.explain(action)
            if not e.legal:
                raise ActionError(e.vi, e.en, e.rules)
        p = self.p
        k, s, c = action.kind, action.seat, action.card
        history = self.history
        history.append(action)
        if c >= 0:  # a card move (lead, beat, add)
            hands = self.hands
            left = hands[s] = hands[s] & ~(1 << c)
            if not left:
                self.emptied[s] = len(history)
        if k == "lead":
            self.att.append(c)
            self.phase = DEFEND
        elif k == "beat":
            self.beats.append(c)
            if not left and p.defender_draws and self.stock:
                self._draw(s, p.hand)
            if not self.hands[s]:
                self._end_round(taken=False)  # row defender-out: nothing more to beat with
            else:
                self._ask()
                self._next_asked()
        elif k == "add":
            self.att.append(c)
            if self.taking:
                self._ask_taker(s)  # row add-after-take: the taker takes this one too
            else:
                self.phase = DEFEND
        elif k == "take":
            if p.add_to_taker:
                self.taking = True
                self._ask_taker(-1)
            else:
                self._end_round(taken=True)
        elif k == "pass":
            self.passed |= 1 << s
            self._next_asked()
        elif k in ("xa", "no-xa"):
            self.steps += 1
            if k == "no-xa":
                self.xa_queue.pop(0)
            else:
                self._xa(s)
            self._advance()
        elif k in ("check", "no-check"):
            self.steps += 1
            if k == "check":
                assert self.deal.previous is not None
                self.seen[s] = self.deal.previous[1]
            self.asked = -1
            self._advance()
        elif k in ("swap", "no-swap"):
            self.steps += 1
            if k == "swap":
                two = p.deck.card(self.trump, 0)
                turned = self.stock[0]
                self.hands[s] = (self.hands[s] & ~(1 << two)) | (1 << turned)
                self.stock[0] = two
                self.swapper = s
                self.events.append({"type": "swapped", "seat": s, "card": p.deck.code(turned),
                                    "rules": [p.rid["variants.doi_hai_chu"]]})
            self.asked = -1
            self._advance()

    def _xa(self, seat: int) -> None:
        p = self.p
        self.known[seat] |= self.hands[seat]
        self.xa_done = True
        self.xa_queue = []
        self.events.append({"type": "xa", "seat": seat, "cards": p.deck.codes(
            cards_of(self.hands[seat])), "rules": [p.rid["variants.xa_chu"],
                                                  p.rid["variants.xa_redeal"]]})
        if p.xa_own:
            back = self.hands[seat]
            self.hands[seat] = 0
            face_down = self.stock[1:] + cards_of(back)
            pos = {c: i for i, c in enumerate(self.deal.redeal)}
            self.stock = [self.stock[0], *sorted(face_down, key=pos.__getitem__)]
            self.known[seat] = 0  # the shown cards are back in the stock
            self._draw(seat, p.hand)
        else:
            self.known = [0] * self.n
            self.events.pop()
            self.events.append({"type": "xa", "seat": seat, "rules": [
                p.rid["variants.xa_chu"], p.rid["variants.xa_redeal"]]})
            self._deal_from(self.deal.redeal)

    def is_chance(self) -> bool:
        return False

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_stuck(self) -> bool:
        return self.phase != OVER and not self.legal_actions()

    def outcome(self) -> dict[str, Any] | None:
        if self.phase != OVER:
            return None
        placed = [s for g in self.places for s in g]
        last = self.places[-1] if len(placed) == self.n and len(self.places[-1]) == 1 else []
        return {"result": "order", "order": [list(g) for g in self.places],
                "winners": list(self.places[0]) if self.places else [],
                "last": list(last),
                "unranked": [s for s in range(self.n) if s not in placed],
                "rules": [self.p.rid["end.out"], self.p.rid["end.end"],
                          self.p.rid["end.same_round"]]}

    def fingerprint(self) -> tuple[Any, ...]:
        fp = (self.phase, tuple(self.hands), tuple(self.stock), self.trump, tuple(self.att),
                tuple(self.beats), self.attacker, self.defender, self.asked, tuple(self.queue),
                self.passed, tuple(tuple(g) for g in self.places), tuple(self.known),
                tuple(sorted(self.seen.items())), tuple(self.setup_left),
                tuple(self.xa_queue), self.xa_done, self.swapper, self.discard,
                self._emptied_order())
        return fp + (self.cap, self.taking) if self.p.extra_fp else fp

    def _emptied_order(self) -> tuple[int, ...]:
        """The seats whose hands are empty and who have no place yet, in the order they
        emptied them: all that `_outs` reads of `emptied` (the steps themselves would
        tell apart positions that differ only in how long the way to them was)."""
        placed = {s for g in self.places for s in g}
        return tuple(sorted((s for s in range(self.n) if not self.hands[s] and s not in placed),
                            key=self.emptied.__getitem__))

    def progress(self) -> int:
        return self.steps + sum(len(g) for g in self.places)

    def census(self) -> list[int]:
        count = [0] * self.p.size
        for m in (*self.hands, self.discard):
            for c in cards_of(m):
                count[c] += 1
        for c in (*self.stock, *self.att, *self.beats):
            count[c] += 1
        return count

    def invariants(self) -> list[tuple[str, str]]:
        p = self.p
        bad: list[tuple[str, str]] = []
        cen = self.census()
        if any(x != 1 for x in cen):
            wrong = [f"{p.deck.code(c)}×{x}" for c, x in enumerate(cen) if x != 1]
            bad.append(("census", f"every card once: {', '.join(wrong[:6])}"))
        if self.phase == LEAD and self.stock:
            short = [s for s in range(self.n) if self.hands[s].bit_count() < p.hand]
            if short:
                bad.append(("hand-size", f"seats {short} hold fewer than {p.hand} cards at the "
                            "start of a round while the stock lasts"))
        if self.taking:  # row add-after-take: never more unbeaten cards than the taker holds
            open_ = len(self.att) - len(self.beats)
            if not 1 <= open_ <= self.hands[self.defender].bit_count():
                bad.append(("table", f"{open_} unbeaten cards at a taker holding "
                            f"{self.hands[self.defender].bit_count()}"))
        elif self.phase in (LEAD, DEFEND, ADD):
            if len(self.beats) != len(self.att) - (self.phase == DEFEND):
                bad.append(("table", f"{len(self.att)} attack cards, {len(self.beats)} beats "
                            f"in phase {self.phase}"))
        if self.phase in (LEAD, DEFEND, ADD):
            for a, b in zip(self.att, self.beats, strict=False):
                if not p.beat[self.trump][a] >> b & 1:
                    bad.append(("beat", f"{p.deck.code(b)} does not beat {p.deck.code(a)}"))
            if len(self.att) > self.cap:
                bad.append(("limit", f"{len(self.att)} attack cards, limit {self.cap}"))
            for i, c in enumerate(self.att[1:], 1):
                ranks = {x % p.per for x in self.att[:i] + (
                    [] if p.add_attack_only else self.beats[:i])}
                if c % p.per not in ranks:
                    bad.append(("add", f"{p.deck.code(c)} added with no card of its rank on "
                                "the table"))
        out = {s for g in self.places for s in g}
        if self.phase == OVER and self.places and len(out) == self.n:
            out -= {s for s in self.places[-1] if self.hands[s]}  # the last, still holding
        if out and self.stock:
            bad.append(("out", "a seat is out while the stock lasts"))
        for s in out:
            if self.hands[s]:
                bad.append(("out", f"seat {s} is out but holds cards"))
        if self.phase == OVER and not self.p.first_out:
            placed = sorted(s for g in self.places for s in g)
            if placed != list(range(self.n)):
                bad.append(("order", f"finishing order {self.places} is not every seat once"))
        return bad

    def decision_point(self) -> tuple[str, str, str]:
        if self.is_stuck():
            return ("stuck", "không ai đi được", "nobody can move")
        vi, en = PHASE_WORDS[self.phase]
        return (self.phase, vi, en)

    def ask_order(self) -> list[tuple[int, list[Action]]]:
        return [(s, self.legal_actions(s)) for s in self.pending()]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The position as `seat` may know it (None: what everyone may know).  The
        others' hand sizes are not in it (row hand-count-private), nor the discard's
        cards (rows discard, no-counting); cards shown by xả chủ are, and a receiver
        who checked the giver's hand at cúng chủ sees it."""
        d = self.p.deck
        v: dict[str, Any] = {
            "kind": "tan", "phase": self.phase, "trump": d.suits[self.trump][0],
            "turned": d.code(self.stock[0]) if self.stock else None,
            "stock": len(self.stock), "discard": bin(self.discard).count("1"),
            "table": [[d.code(a), d.code(self.beats[i]) if i < len(self.beats) else None]
                      for i, a in enumerate(self.att)],
            "attacker": self.attacker, "defender": self.defender,
            "pending": list(self.pending()), "places": [list(g) for g in self.places],
            "known": {str(s): d.codes(cards_of(m)) for s, m in enumerate(self.known) if m},
        }
        if self.p.add_to_taker:
            v["taking"] = self.taking  # row add-after-take: the defender has said take
        if seat is not None:
            v["seat"] = seat
            v["hand"] = d.codes(self.sorted_hand(seat))
            if seat in self.seen:
                g = self.seen[seat]
                v["checked"] = {str(g): d.codes(cards_of(self.hands[g]))}
        return v

    def sorted_hand(self, seat: int) -> list[int]:
        """Trumps apart first, then strongest first (row sort-hand)."""
        p = self.p
        return sorted(cards_of(self.hands[seat]),
                      key=lambda c: (p.deck.suit(c) != self.trump, -p.deck.strength(c),
                                     p.deck.suit(c)))

    # ------------------------------------------------------------------ explain

    def explain(self, action: Action) -> Explanation:
        """Legal or not, the rows deciding it, in Vietnamese and English."""
        legal, rules, vi, en = self._judge(action)
        return Explanation(legal, tuple(dict.fromkeys(rules)), en, vi)

    def _judge(self, a: Action) -> tuple[bool, list[str], str, str]:
        p = self.p
        r = p.rid
        d = p.deck
        k, s, c = a.kind, a.seat, a.card
        if not 0 <= s < self.n or a.kind not in PHASE_OF or (k in CARD_KINDS and not
                                                            0 <= c < p.size):
            return False, [r["deal.players"]], "không có ghế hay lá ấy", "no such seat or card"
        if self.phase == OVER:
            return False, [r["end.out"], r["end.end"]], "ván đã xong", "the hand is over"
        want = PHASE_OF[k]
        phase_rule = {LEAD: r["play.lead"], DEFEND: r["play.take"], ADD: r["play.add_order"],
                      XA: r["variants.xa_chu"], CUNG: r["variants.cung_check"],
                      DOI: r["variants.doi_hai_chu"]}
        if want != self.phase:
            vi, en = PHASE_WORDS[self.phase]
            return False, [phase_rule[self.phase], phase_rule[want]], \
                f"chưa phải lúc '{k}': bây giờ {vi}", f"not the time for '{k}': now {en}"
        who = self.pending()
        if s not in who:
            return False, [phase_rule[self.phase]], \
                f"chưa tới lượt ghế {s} (đang chờ ghế {who[0] if who else '-'})", \
                f"not seat {s}'s turn (waiting for seat {who[0] if who else '-'})"
        name_vi = d.name(c, "vi") if c >= 0 else ""
        name_en = d.name(c, "en") if c >= 0 else ""
        if k in CARD_KINDS and not self.hands[s] >> c & 1:
            return False, [r["play.single"]], f"ghế {s} không có lá {name_vi}", \
                f"seat {s} does not hold the {name_en}"
        if k == "lead":
            # the hand's first lead: also the rows that made this seat the first attacker
            first = [] if any(x.kind in CARD_KINDS for x in self.history) else list(
                self.first_why)
            return True, [r["play.lead"], r["play.single"], *first], \
                f"người tấn được ra bất kỳ lá nào: {name_vi}", \
                f"the attacker may lead any card: the {name_en}"
        if k == "beat":
            return self._judge_beat(c)
        if k == "take":
            can = [x for x in cards_of(self.hands[s]) if self._beats(x, self.att[-1])]
            if can and p.must_beat:
                return False, [r["play.take_when_able"], r["play.take"]], \
                    f"còn đỡ được (bằng {d.name(can[0], 'vi')}) thì phải đỡ", \
                    f"a defender who can beat (with the {d.name(can[0], 'en')}) must"
            rules = [r["play.take"], r["play.take_what"]]
            if can:
                rules.insert(1, r["play.take_when_able"])
            if p.add_to_taker:
                return True, [*rules, r["play.add_after_take"]], \
                    "người bị tấn nhận ôm; người khác còn được tấn thêm vào bài ôm", \
                    "the defender says take; the others may still add to what is taken"
            return True, rules, "người bị tấn ôm bài của lượt", "the defender takes the round"
        if k == "add":
            ranks_from = self.att if p.add_attack_only else self.att + self.beats
            rules = [r["play.add"], r["play.add_ranks"], r["play.add_who"], r["play.add_order"]]
            if self.taking:
                rules.append(r["play.add_after_take"])
            if all(x % p.per != c % p.per for x in ranks_from):
                return False, rules, f"trên bàn không có lá nào cùng số với {name_vi}", \
                    f"no card of the {name_en}'s rank is on the table"
            limits = [r["play.add_limit"]] + ([r["play.first_limit"]] if self.cap != p.limit
                                              else [])
            if self.taking:
                return True, rules + limits, \
                    f"tấn thêm {name_vi} vào người đã nhận ôm: cùng số với một lá trên bàn, " \
                    "và người ôm còn đủ bài", \
                    f"adds the {name_en} to the taker: a card of its rank is on the table, " \
                    "and the taker holds enough cards"
            return True, rules + limits, \
                f"tấn thêm {name_vi}: cùng số với một lá trên bàn", \
                f"adds the {name_en}: a card of its rank is on the table"
        if k == "pass":
            return True, [r["play.pass"], r["play.pass_scope"], *(
                [r["play.add_after_take"]] if self.taking else [])], \
                "bỏ qua, không tấn thêm (không rút lại được)", \
                "passes, adding nothing (it cannot be taken back)"
        if k in ("xa", "no-xa"):
            return True, [r["variants.xa_chu"], r["variants.xa_once"], r["variants.xa_redeal"]], \
                "không có chủ: được xả bài xin chia lại, hoặc giữ bài", \
                "no trump in hand: may show it and ask for new cards, or keep it"
        if k in ("check", "no-check"):
            return True, [r["variants.cung_check"]], \
                "người được cúng có thể xem riêng bài người cúng", \
                "the receiver may look privately at the giver's hand"
        return True, [r["variants.doi_hai_chu"], r["variants.doi_first"]], \
            "có lá 2 chủ: được đổi lấy lá lật, rồi người kế tiếp tấn trước", \
            "holds the trump 2: may swap it for the turned card; the next seat then leads"

    def _beats(self, b: int, a: int) -> bool:
        """Does card b beat card a?  Read from the rules' words, card by card (not from
        the plan's masks)."""
        d = self.p.deck
        if d.suit(b) == d.suit(a):
            return d.strength(b) > d.strength(a)
        return d.suit(b) == self.trump

    def _judge_beat(self, c: int) -> tuple[bool, list[str], str, str]:
        p = self.p
        r = p.rid
        d = p.deck
        a = self.att[-1]
        cv, ce, av, ae = d.name(c, "vi"), d.name(c, "en"), d.name(a, "vi"), d.name(a, "en")
        if d.suit(a) == self.trump:
            if d.suit(c) == self.trump and d.strength(c) > d.strength(a):
                return True, [r["play.trump_on_trump"]], f"{cv} là chủ lớn hơn {av}", \
                    f"the {ce} is a higher trump than the {ae}"
            return False, [r["play.trump_on_trump"]], \
                f"lá tấn {av} là chủ: chỉ chủ lớn hơn mới đỡ được", \
                f"the {ae} is a trump: only a higher trump beats it"
        if d.suit(c) == d.suit(a):
            if d.strength(c) > d.strength(a):
                return True, [r["play.beat_suit"]], f"{cv} cùng chất, lớn hơn {av}", \
                    f"the {ce} is of the same suit and higher than the {ae}"
            return False, [r["play.beat_suit"], r["deck.order"]], \
                f"{cv} cùng chất nhưng không lớn hơn {av}", \
                f"the {ce} is of the same suit but not higher than the {ae}"
        if d.suit(c) == self.trump:
            rules = [r["play.trump_beats"]]
            if any(self._beats(x, a) and d.suit(x) == d.suit(a)
                   for x in cards_of(self.hands[self.defender])):
                rules.append(r["play.trump_choice"])
            return True, rules, f"{cv} là chủ, đỡ được {av} (khác chất, không phải chủ)", \
                f"the {ce} is a trump and beats the {ae}, a non-trump"
        return False, [r["play.beat_suit"], r["play.trump_beats"]], \
            f"{cv} khác chất {av} và không phải chủ", \
            f"the {ce} is neither of the {ae}'s suit nor a trump"
