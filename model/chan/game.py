"""The reference state machine of a hand of Bài Chắn, driven by a resolved rule table.

In the spirit of OpenSpiel and python-chess: a `State` knows whose decision is pending
(`pending()`: one seat, several seats in a claim window, ``chance`` before the deal, or
nobody once terminal), its `legal_actions()`, how to `apply()` one, whether it
`is_terminal()`, and its `outcome()`.  Every refusal is explained by rule ids of the
table (`explain()`), and every legal action names the rules that allow it.

How a hand flows (each step cites the table's rows; the ids are in spec/family.toml):

* deal (chance): the opener gets one card more; the rest is the nọc, in order.  Under a
  table with the dealing ritual ([cai], model/chan/cai.py) chance also turns up the cái card,
  whose count from the seat that drew it names the opener (the start event cites why).
* opening: the opener wins at once if the dealt hand is complete, or discards.
* a *window* opens whenever a card appears at a gate: drawn from the nọc (``draw``),
  discarded (``discard``) or given back after an out-of-turn chíu (``return``).  Every
  seat that may claim it is pending; each answers once (a claim, or ``pass``).  When all
  have answered, the highest claim wins: ù before chíu before eating, ties in seat order
  from the gate (``claim-seat-order``).
* a drawn card is offered to the drawer, then (if passed on) to the next seat; a
  discarded or returned card to the seat whose turn it is.  A card nobody takes is dead
  at its gate and the seat whose turn it is draws.
* eating and in-turn chíu are followed by a discard; out-of-turn chíu by a return.
* an empty nọc when a draw is due ends the hand drawn.
* a win ends the hand, unless the table has a declaration phase (``[turn] declare_rule``
  reads ``declare``, classic Chắn): then the winner is pending in phase ``declare`` and
  names their cước (a ``declare`` action, xướng); the machine judges it against the
  cước the hand holds and settles it as ``[declaration]`` says (model/chan/declare.py), and
  the hand ends.

The state is plain data (lists and ints); `copy()` is cheap and `to_json()` /
`State.replay()` rebuild it from the deal and the action list.
"""

from __future__ import annotations

import copy as _copy
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from . import cai, cards
from . import declare as declare_mod
from . import pay as pay_mod
from .cuoc import Judgement, won_hand
from .table import Rules
from .vocab import SCOPED_BANS
from .win import Group, WinJudge, engine

CHANCE = "chance"
CLAIM_KINDS = ("u", "chiu-u", "chiu", "eat", "reclaim")
# words for explanations (the family reads Vietnamese: no raw identifiers in messages)
SOURCE_VI = {"draw": "quân bốc", "discard": "quân đánh ra", "return": "quân trả cửa"}
SOURCE_EN = {"draw": "drawn card", "discard": "discarded card", "return": "returned card"}
WIN_VI = {"u": "Ù thường", "chiu-u": "Chíu-Ù"}
WIN_EN = {"u": "an ordinary ù", "chiu-u": "chíu-ù"}
# what a declaration judged so means (vi, en), for explanations
DECLARE_WORDS = {
    "correct": ("xướng đúng và đủ", "a correct and complete declaration"),
    "over": ("xướng sai: gọi cước bài không có, hoặc cước đã bị cước khác thay",
             "a wrong declaration (xướng sai): it names a cước the hand lacks, or one that "
             "another cước named replaces"),
    "under": ("xướng thiếu: cước bỏ sót không được trả", "an under-declaration: the cước left "
              "out are not paid"),
    "must-missing": ("bỏ sót cước buộc phải xướng", "a cước that must be declared is left out"),
}


# What a decision point is called (`State.decision_point`), outside claim windows
PHASE_WORDS = {
    "opening": ("người mở đầu ù ngay hoặc đánh một quân",
                "the opener wins on the dealt hand or discards"),
    "discard": ("phải đánh một quân", "a discard is due"),
    "return": ("phải trả cửa một quân sau khi Chíu", "a card is due back after a chíu"),
    "declare": ("người ù xướng cước", "the winner declares the cước (xướng)"),
}
# Why nobody may act (the explorer's deadlock classes), and how to say it
STUCK_WORDS = {
    "stuck-all-banned": (
        "Bế tắc: người chơi phải đánh nhưng mọi quân trên tay đều bị cấm đánh",
        "Deadlock: the player must discard but every card in hand is banned"),
    "stuck-empty-hand": (
        "Bế tắc: người chơi phải đánh (hoặc trả cửa) nhưng không còn quân kín nào trên tay",
        "Deadlock: the player must discard (or return) but has no concealed card left"),
    "stuck-other": ("Bế tắc: không ai có nước đi hợp lệ", "Deadlock: nobody has a legal move"),
}


class ActionError(ValueError):
    """An action that is not legal here; `.rules` names the rule ids that forbid it."""

    def __init__(self, message: str, rules: Sequence[str] = ()):
        super().__init__(message)
        self.rules = tuple(rules)


@dataclass(frozen=True, order=True)
class Action:
    """One decision.  ``kind`` is one of:

    ``u``        win on the card in the window (or, in the opening, on the dealt hand)
    ``chiu-u``   win by chíu on the card in the window
    ``chiu``     lay down four identical cards with the card in the window
    ``eat``      eat the card in the window with ``card`` from the hand
    ``reclaim``  take back one's own just-passed card and eat it with ``card``
    ``pass``     no claim on the card in the window (for the seat whose turn it is: let
                 it go)
    ``discard``  discard ``card`` to one's own gate
    ``return``   give ``card`` back to the interrupted gate after an out-of-turn chíu
    ``timeout``  (environment) the pending ``seat`` stayed silent too long
    ``declare``  (after a win, under a table with a declaration phase) the winner names
                 the cước rows ``cuoc`` (xướng), sorted
    """

    kind: str
    seat: int
    card: int | None = None
    cuoc: tuple[str, ...] = ()

    def code(self) -> str:
        if self.kind == "declare":
            return f"{self.seat}:declare {','.join(self.cuoc)}".rstrip()
        c = "" if self.card is None else f" {cards.code(self.card)}"
        return f"{self.seat}:{self.kind}{c}"

    def as_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.kind, "seat": self.seat}
        if self.card is not None:
            d["card"] = cards.CODES[self.card]
        if self.kind == "declare":
            d["cuoc"] = list(self.cuoc)
        return d

    @staticmethod
    def from_json(d: dict[str, Any]) -> Action:
        card = d.get("card")
        return Action(str(d["type"]), int(d["seat"]), None if card is None else cards.parse(card),
                      tuple(str(r) for r in d.get("cuoc", ())))

    @staticmethod
    def parse(text: str) -> Action:
        """``"2:eat 3n"`` -> Action("eat", 2, 3n); ``"0:declare cuoc-chi,cuoc-tom"`` ->
        Action("declare", 0, cuoc=("cuoc-chi", "cuoc-tom"))."""
        seat, _, rest = text.partition(":")
        kind, _, card = rest.strip().partition(" ")
        if kind == "declare":
            return Action(kind, int(seat), None,
                          tuple(r for r in card.replace(",", " ").split() if r))
        return Action(kind, int(seat), cards.parse(card) if card.strip() else None)


@dataclass(frozen=True)
class Deal:
    """The chance step: every seat's hand, the nọc in order, and the opener.

    Under a table with the dealing ritual (``[cai]``, model/chan/cai.py) a random deal also
    carries the cái card, turned face up for all to see, and the seat that drew it
    (`drawer`); the opener is the seat its count names.  A deal without them is taken
    as given (a position set up by hand); their keys are left out of `as_json` then, so
    the deals of a table without the ritual read and write exactly as before.

    A hand played in a session (model/chan/session.py) starts from the last one: `thong`
    lists the seats whose win of this hand is thông (``[session]``; empty for a hand on
    its own, and then left out of `as_json`)."""

    hands: tuple[tuple[int, ...], ...]
    noc: tuple[int, ...]  # drawn from the front
    opener: int = 0
    cai: int | None = None  # the cái card, public
    drawer: int | None = None  # the seat that drew the cái card
    thong: tuple[int, ...] = ()  # seats whose win is thông (the session's last hand)

    def as_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "hands": [cards.codes(h) for h in self.hands],
            "noc": cards.codes(self.noc),
            "opener": self.opener,
        }
        if self.cai is not None:
            d["cai"] = cards.code(self.cai)
        if self.drawer is not None:
            d["drawer"] = self.drawer
        if self.thong:
            d["thong"] = list(self.thong)
        return d

    @staticmethod
    def from_json(d: dict[str, Any]) -> Deal:
        card, drawer = d.get("cai"), d.get("drawer")
        return Deal(
            tuple(tuple(cards.parse(c) for c in h) for h in d["hands"]),
            tuple(cards.parse(c) for c in d["noc"]),
            int(d.get("opener", 0)),
            None if card is None else cards.parse(card),
            None if drawer is None else int(drawer),
            tuple(int(s) for s in d.get("thong", ())),
        )


def deal_random(rules: Rules, seed: int, opener: int = 0, *, drawer: int | None = None
                ) -> Deal:
    """A shuffled deal (chance step) reproducible from its seed.

    Under a table with the dealing ritual (``[cai]``) the opener is not given but counted
    from the cái card (`_deal_cai`): give the seat that draws it as `drawer` (the last
    hand's winner; None for a first hand, which row ``cai.first_drawer_rule`` decides)."""
    deck = [f for f in rules.faces for _ in range(rules.copies)]
    rng = random.Random(seed)
    rng.shuffle(deck)
    if cai.has_ritual(rules):
        if opener != 0:
            raise ValueError(f"table {rules.table.id!r} counts the opener from the cái card "
                             f"(row {rules.rid('cai.rule')}); give the seat that draws it "
                             "(drawer), not an opener")
        return _deal_cai(rules, deck, rng, drawer)
    if drawer is not None:
        raise ValueError(f"table {rules.table.id!r} has no dealing ritual ([cai]): nobody "
                         "draws a cái card; give the opener")
    v = rules.variant
    hands: list[tuple[int, ...]] = []
    pos = 0
    for seat in range(v.players):
        k = v.opener_cards if seat == opener else v.other_cards
        hands.append(tuple(sorted(deck[pos:pos + k])))
        pos += k
    return Deal(tuple(hands), tuple(deck[pos:]), opener)


def start_seat(rules: Rules, seat: int) -> dict[str, int]:
    """The keyword of `deal_random` / `State.new` that starts a hand from `seat` (e.g. the
    last winner): it opens, or under the dealing ritual it draws the cái card.

    >>> from chanspec.model.chan import table
    >>> start_seat(table.rules("classic", 4), 2), start_seat(table.rules("family", 4), 2)
    ({'drawer': 2}, {'opener': 2})
    """
    return {"drawer": seat} if cai.has_ritual(rules) else {"opener": seat}


def _deal_cai(rules: Rules, deck: list[int], rng: random.Random, drawer: int | None) -> Deal:
    """The ritual's deal from a shuffled deck: its first card is the cái card (so any card
    of the deck, by chance); the count names the opener; the opener's hand holds the cái
    card, or it goes back into the nọc at a place chance picks (``cai.card_rule``)."""
    v = rules.variant
    # drawn whether used or not, so that a deal is the same whether its drawer is left to
    # chance or given back (a log's header names the drawer)
    chance_seat = rng.randrange(v.players)
    if drawer is None:  # nobody won a hand before
        by_chance = rules.machine_value("cai.first_drawer_rule") == "by-chance"
        drawer = chance_seat if by_chance else 0
    card, rest = deck[0], deck[1:]
    opener = cai.cai_opener(rules, card, drawer).opener
    in_hand = rules.machine_value("cai.card_rule") == "opener-hand"
    hands: list[tuple[int, ...]] = []
    pos = 0
    for seat in range(v.players):
        k = v.opener_cards if seat == opener else v.other_cards
        if seat == opener and in_hand:
            hands.append(tuple(sorted([card] + rest[pos:pos + k - 1])))
            pos += k - 1
        else:
            hands.append(tuple(sorted(rest[pos:pos + k])))
            pos += k
    noc = rest[pos:]
    if not in_hand:
        noc.insert(rng.randrange(len(noc) + 1), card)
    return Deal(tuple(hands), tuple(noc), opener, card, drawer)


def check_deal(rules: Rules, deal: Deal) -> None:
    """A clear error for a deal that does not fit the rules."""
    v = rules.variant
    if len(deal.hands) != v.players:
        raise ActionError(f"the deal has {len(deal.hands)} hands; {v.players} players play",
                          (v.rule,))
    if not 0 <= deal.opener < v.players:
        raise ActionError(f"opener {deal.opener} is not a seat 0..{v.players - 1}", (v.rule,))
    for seat, h in enumerate(deal.hands):
        want = v.opener_cards if seat == deal.opener else v.other_cards
        if len(h) != want:
            raise ActionError(f"seat {seat} is dealt {len(h)} cards; the rules deal {want}",
                              (v.rule,))
    _check_cai_shape(rules, deal)
    if deal.thong:
        if "session" not in rules.table.data:
            raise ActionError(f"table {rules.table.id!r} plays no sessions ([session]): no "
                              "win of a hand is thông", ())
        bad = [s for s in deal.thong if not 0 <= s < v.players]
        if bad or list(deal.thong) != sorted(set(deal.thong)):
            raise ActionError(f"thong lists the seats whose win is thông, each once, in "
                              f"order, seats 0..{v.players - 1}; found {list(deal.thong)}",
                              (rules.rid("session.thong_rule"),))
    cnt = cards.counts([f for h in deal.hands for f in h] + list(deal.noc))
    for f in range(cards.NUM_FACES):
        want = rules.copies if f in rules.faces else 0
        if cnt[f] != want:
            raise ActionError(f"{cards.name(f)} appears {cnt[f]} times in the deal and nọc; "
                              f"the deck has {want}", (rules.rid("deck.rule"),))


def _check_cai_shape(rules: Rules, deal: Deal) -> None:
    """A deal's cái card and drawer, if it has them, are a card of the deck and a seat of
    a table with the dealing ritual (a deal without a cái card is taken as given)."""
    if deal.cai is None:
        if deal.drawer is not None:
            raise ActionError("the deal names a drawer of the cái card but no cái card")
        return
    if not cai.has_ritual(rules):
        raise ActionError(f"the deal carries a cái card, but table {rules.table.id!r} has "
                          "no dealing ritual ([cai]); leave out cai and drawer")
    if deal.drawer is None:
        raise ActionError("the deal carries a cái card but not the seat that drew it "
                          "(drawer)", (rules.rid("cai.rule"),))
    try:
        cai.cai_opener(rules, deal.cai, deal.drawer)
    except cai.CaiError as exc:
        raise ActionError(str(exc), exc.rules) from None


def check_cai(rules: Rules, deal: Deal) -> None:
    """A clear error for a deal whose cái card does not fit these rules: its count from
    the drawer must name the deal's opener, and the card must be where the reading puts
    it (the opener's hand, or the nọc).

    For a deal that comes from outside (a log, an engine); the machine itself plays any
    deal `check_deal` accepts, so that a deal made under one reading of the cái rows can
    be played on under another (the checker's shadows: those readings act at the chance
    step only, never on the play)."""
    check_deal(rules, deal)
    if deal.cai is None or deal.drawer is None:
        return
    cc = cai.cai_opener(rules, deal.cai, deal.drawer)
    if cc.opener != deal.opener:
        raise ActionError(f"the cái card {cards.label(cc.card)} drawn by seat {cc.drawer} "
                          f"counts {cc.count} and names seat {cc.opener} as the opener; the "
                          f"deal says seat {deal.opener}", cc.rules)
    in_hand = rules.machine_value("cai.card_rule") == "opener-hand"
    where = deal.hands[deal.opener] if in_hand else deal.noc
    if deal.cai not in where:
        place = f"the opener's (seat {deal.opener}) hand" if in_hand else "the nọc"
        raise ActionError(f"the cái card {cards.label(deal.cai)} must be in {place}",
                          cai.card_rules(rules))


@dataclass
class Window:
    """A card face up at a gate, and the claims on it."""

    card: int
    gate: int  # the gate's owner: the seat whose own gate (cửa chì) holds the card
    source: str  # draw | discard | return
    turn: int  # the seat whose turn it is for this card (may eat it)
    giver: int | None  # who put it there by discard/return (may not claim it)
    second: bool = False  # a drawn card passed on by the drawer to the next seat
    reclaimer: int | None = None  # the drawer who passed it, when reclaiming is allowed
    reclaim_origin: int = -1  # history index of that pass (its bans are undone by reclaim)
    options: dict[int, list[Action]] = field(default_factory=dict)  # seat -> claims
    responses: dict[int, Action] = field(default_factory=dict)

    def copy(self) -> Window:
        """A copy whose answers can change independently (the claim lists, which are
        never changed once made, are shared)."""
        w = Window.__new__(Window)
        w.__dict__.update(self.__dict__)
        w.responses = dict(self.responses)
        return w


class Mark(NamedTuple):
    """A ban a player's own past created (a named tuple: hands create thousands)."""

    rule: str
    ban: str
    face: int | None
    origin: int  # index in the history of the action that created it
    # the option row whose scope carried the ban from the triggering face to this one
    # (`scope_option` of the restriction); empty on the triggering face itself
    via: str = ""


@dataclass(frozen=True)
class Explanation:
    legal: bool
    rules: tuple[str, ...]
    en: str
    vi: str


class _Plan:
    """What a State reads from its rules again and again, worked out once per rule set:
    option values, claim permissions, priority tiers, restrictions by trigger, and the cạ
    partners of every face.  Pure derived data: it never changes what the rules say."""

    def __init__(self, rules: Rules):
        mv = rules.machine_value
        self.auto_timeout = mv("turn.timeout_rule") == "auto-pass"
        stuck = mv("turn.stuck_rule")
        # bans are lifted only under lift-bans; forbid-claim refuses the claims that would
        # leave the claimer with every card banned, so a stuck discard can never be due
        self.stuck_as_written = stuck != "lift-bans"
        self.forbid_stranding = stuck == "forbid-claim"
        # a returned card the interrupted player lets go passes on to the next seat
        self.return_on = mv("turn.return_resume_rule") == "to-next-seat"
        # the nọc is empty once its last card is drawn: that card may only be won on
        self.end_when_empty = mv("turn.exhausted_rule") == "noc-empty"
        # only a pass declines a win (not an eat or chíu instead)
        self.decline_pass_only = mv("turn.decline_rule") == "pass-only"
        # letting a win on a card from the nọc go is recorded as a fault (bỏ ù)
        self.decline_fault = mv("turn.decline_fault_rule") == "fault"
        # after a win the winner declares their cước (xướng) before the hand ends
        self.declares = mv("turn.declare_rule") == "declare"
        # letting one's own drawn card go creates the bans of letting a card go
        self.own_draw_bans = mv("turn.own_draw_pass_rule") == "counts"
        # giving a card back after an out-of-turn chíu is not a discard
        self.return_free = mv("turn.return_discard_rule") == "not-a-discard"
        # a card of a concealed chắn may be used to eat a cạ
        self.split_chan_ok = mv("eating.split_chan_rule") == "allowed"
        # the ban on splitting a cạ held applies only after eating a cạ
        self.split_after_ca = mv("eating.no_split_scope_rule") == "after-eating-ca"
        # eating as a cạ a card one could eat as a chắn counts as letting the chắn go
        self.ca_over_chan = mv("eating.ca_over_chan_rule") == "counts-as-pass"
        # an eat or chíu must leave a card to discard/return (unless the table says not)
        self.keep_one = mv("turn.empty_hand_rule") == "forbid"
        self.next_only = mv("turn.drawn_offer_rule") == "next-only"
        self.owner_first = rules.option(rules.rid("claims.tie_break_option")) == "owner-first"
        self.reclaim = mv("turn.reclaim_rule") == "before-next-acts"
        self.claim_ok = {k: c.allowed for k, c in rules.claims.items()}
        self.tier = {kind: i for i, t in enumerate(rules.priority) for kind in t}
        # the row that puts one claim kind ahead of another: [claims] priority_rules[i]
        # with what it says (priority_says[i], [higher, lower]); see State.claim_verdict
        prs = [v for _, v in sorted((int(k.rsplit(".", 1)[1]), v)
                                    for k, v in rules.rule_ids.items()
                                    if k.startswith("claims.priority_rules."))]
        says = rules.table.data["claims"].get("priority_says", [])
        self.priority_rows: list[tuple[str, str, str]] = [
            (str(hi), str(lo), r) for (hi, lo), r in zip(says, prs, strict=False)]
        faces = rules.faces
        # by trigger: (row, bans, reach, scope row) for each restriction; reach[f] lists
        # the faces other than f that a ban triggered by f also covers (the restriction's
        # scope, see model/chan/vocab.py SCOPES), None under scope "face"
        self.by_trigger: dict[str, list[tuple[str, tuple[str, ...],
                                              dict[int, tuple[int, ...]] | None, str]]] = {}
        for r in rules.restrictions:
            if r.when:
                continue
            reach = (None if r.scope == "face" else
                     {f: rules.scope_faces(r.scope, f)[1:] for f in faces})
            self.by_trigger.setdefault(r.trigger, []).append(
                (r.rule, r.bans, reach, r.scope_rule))
        # eat partners of x, in face order: x itself and every face making a cạ with it
        self.eat_cands = {x: tuple(y for y in faces if y == x or rules.is_ca(x, y))
                          for x in faces}
        self.ca_partners = {x: frozenset(y for y in faces if y != x and rules.is_ca(x, y))
                            for x in faces}
        self.comp_of = {f: c for c in rules.components for f in c}
        self.no_split_rule = rules.rule_ids.get("eating.no_split_rule", "")
        self.odd_rule = rules.rule_ids.get("eating.odd_group_exception_rule", "")
        # restriction-mode=penalise: the bans of the rules of play refuse nothing; an act
        # that breaks one is made and recorded as a fault (`State.faults`), found by the
        # same checks run in forbid mode (`strict`, this plan's forbid twin)
        self.enforce = mv("turn.restriction_mode_rule") != "penalise"
        self.strict: _Plan = self
        # báo ([turn] fault_play_rule): the first seat to commit a fault may from then on
        # only draw, pass and win
        self.bao = mv("turn.fault_play_rule") == "draw-and-pass"
        # ... or the first offender whose fault is of class báo, with the classes read by
        # rule of play ([turn] fault_class_rule reads by-rule; `pay.fault_class`)
        self.by_rule = mv("turn.fault_class_rule") == "by-rule"
        # the fine for keeping the Chi Chi wait ([payment] chi_rong_fine_rule reads fined):
        # the machine records who let a card it could eat or chíu go by while its hand
        # waited on Chi Chi alone (`State.kept_chi`)
        self.kept_wait = mv("payment.chi_rong_fine_rule") == "fined"
        # restrictions on the hand at the moment of an eat: ban -> [(row, condition)]
        self.when: dict[str, list[tuple[str, str]]] = {}
        for r in rules.restrictions:
            if r.when:
                for ban in r.bans:
                    self.when.setdefault(ban, []).append((r.rule, r.when))
        self.fault_rows = frozenset(
            [r.rule for r in rules.restrictions] + [r.scope_rule for r in rules.restrictions
                                                    if r.scope_rule]
            + [x for x in (self.no_split_rule, rules.rule_ids.get("eating.split_chan_rule"))
               if x])
        # Actions are immutable: one shared instance per (kind, seat, card) saves building
        # thousands of them per hand.  act[kind][seat] is the card-less action,
        # card_act[kind][seat][face] the one with a card.
        n = rules.players
        self.act = {k: [Action(k, s) for s in range(n)]
                    for k in ("u", "chiu-u", "chiu", "pass", "timeout")}
        self.card_act = {k: [[Action(k, s, f) for f in range(cards.NUM_FACES)]
                             for s in range(n)]
                         for k in ("eat", "reclaim", "discard", "return")}


_PLANS: dict[tuple[Any, ...], _Plan] = {}
_NO_BANS: dict[str, Any] = {"no-discard": frozenset()}  # a ban index that bans nothing


def _plan(rules: Rules) -> _Plan:
    k = (id(rules.table),) + rules.key()
    p = _PLANS.get(k)
    if p is None:
        p = _PLANS[k] = _plan_uncached(rules)
    return p


def _plan_uncached(rules: Rules) -> _Plan:
    """The plan of `rules` built afresh: for rules edited in memory (a restriction row
    left out by `chanspec conform`), whose `key()` is that of the table's own."""
    p = _Plan(rules)
    if not p.enforce:
        p.strict = _copy.copy(p)
        p.strict.enforce = True
        p.strict.strict = p.strict
    return p


class State:
    """One position of one hand."""

    def __init__(self, rules: Rules, deal: Deal | None = None):
        rules.table.require_playable()  # never the family's turn on another table's cards
        self.rules = rules
        self.engine: WinJudge = engine(rules)
        self.n = rules.players
        self.deal: Deal | None = None
        self.history: list[Action] = []
        self.events: list[dict[str, Any]] = []
        self.hands: list[list[int]] = [[0] * cards.NUM_FACES for _ in range(self.n)]
        self.laid: list[list[Group]] = [[] for _ in range(self.n)]
        self.laid_chan = [0] * self.n
        self.dead: list[list[int]] = [[] for _ in range(self.n)]
        self.noc: tuple[int, ...] = ()
        self.noc_pos = 0
        self.opener = 0
        self.phase = CHANCE  # chance | opening | window | discard | return | declare | over
        self.actor: int | None = None  # for opening/discard/return
        self.window: Window | None = None
        self.interrupted: Window | None = None  # the window an out-of-turn chíu broke
        self.marks: list[list[Mark]] = [[] for _ in range(self.n)]
        self.discarded: list[set[int]] = [set() for _ in range(self.n)]
        self.result: dict[str, Any] | None = None
        # restriction-mode=penalise: every act that broke a rule of play, in order:
        # {"seat", "action", "rules"}
        self.faults: list[dict[str, Any]] = []
        # per seat: kept waiting on Chi Chi alone when it could eat or chíu (000 cước 20;
        # recorded only when the table fines it, `_Plan.kept_wait`)
        self.kept_chi: list[bool] = [False] * self.n
        self._plan = _plan(rules)
        # per seat, an index of its marks (None: to rebuild); see _ban_index
        self._bans: list[dict[str, Any] | None] = [None] * self.n
        # per seat, whether that index is shared with a copy (then read only: the first
        # change drops it, to be rebuilt on next use)
        self._bans_shared: list[bool] = [False] * self.n
        # the cước the winner truly holds (phase declare), worked out once
        self._truth: Judgement | None = None
        if deal is not None:
            self.apply_deal(deal)

    # ------------------------------------------------------------------ setup
    def apply_deal(self, deal: Deal) -> None:
        if self.phase != CHANCE:
            raise ActionError("the hand is already dealt")
        check_deal(self.rules, deal)
        self.deal = deal
        self.opener = deal.opener
        for seat, h in enumerate(deal.hands):
            for f in h:
                self.hands[seat][f] += 1
        self.noc = deal.noc
        self.phase = "opening"
        self.actor = deal.opener
        start: dict[str, Any] = {"type": "start", "opener": deal.opener}
        if deal.cai is not None and deal.drawer is not None:  # why this seat opens
            cc = cai.cai_opener(self.rules, deal.cai, deal.drawer)
            start.update({"cai": cards.code(cc.card), "drawer": cc.drawer, "count": cc.count,
                          "rules": list(cc.rules + cai.card_rules(self.rules))})
        self._event(start)

    @classmethod
    def new(cls, rules: Rules, seed: int | None = None, deal: Deal | None = None,
            opener: int = 0, drawer: int | None = None) -> State:
        """A hand from `deal`, or from the random deal of `seed` (`deal_random`: the
        opener given, or under the dealing ritual the seat that draws the cái)."""
        if deal is None and seed is not None:
            deal = deal_random(rules, seed, opener, drawer=drawer)
        return cls(rules, deal)

    def cai_card(self) -> int | None:
        """The cái card of this hand's deal, seen by every seat (None without one)."""
        return None if self.deal is None else self.deal.cai

    # ------------------------------------------------------------------ queries
    def is_chance(self) -> bool:
        return self.phase == CHANCE

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> dict[str, Any] | None:
        return self.result

    def pending(self) -> tuple[int, ...]:
        """Seats whose decision is awaited, in seat order."""
        if self.phase in ("opening", "discard", "return", "declare"):
            assert self.actor is not None
            return (self.actor,)
        if self.phase == "window":
            assert self.window is not None
            w = self.window
            return tuple(sorted(s for s in w.options if s not in w.responses))
        return ()

    def is_stuck(self) -> bool:
        """Non-terminal, not chance, and nobody may act: a deadlock of the rules."""
        return self.phase not in ("over", CHANCE) and not self.legal_actions()

    def noc_left(self) -> int:
        return len(self.noc) - self.noc_pos

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat]) + sum(len(g.faces) for g in self.laid[seat])

    def held_faces(self, seat: int) -> list[int]:
        """Every card the seat holds, laid-down ones included."""
        return cards.expand(self.hands[seat]) + [f for g in self.laid[seat] for f in g.faces]

    # ------------------------------------------------------------------ legality
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        if self.phase in ("over", CHANCE):
            return []
        acts: list[Action] = []
        if self.phase == "window":
            assert self.window is not None
            for s, opts in sorted(self.window.options.items()):
                if s in self.window.responses or (seat is not None and s != seat):
                    continue
                acts.extend(opts)
                acts.append(self._plan.act["pass"][s])
        elif self.phase == "declare":
            assert self.actor is not None
            if seat is not None and seat != self.actor:
                return []
            return self._declarations()
        else:
            assert self.actor is not None
            if seat is not None and seat != self.actor:
                return []
            if self.phase == "opening":
                if self._can_win_opening(self.actor):
                    acts.append(self._plan.act["u"][self.actor])
                mine = self._plan.card_act["discard"][self.actor]
                acts.extend(mine[f] for f in self._discardable(self.actor))
            else:
                mine = self._plan.card_act[self.phase][self.actor]
                acts.extend(mine[f] for f in self._discardable(self.actor))
        if self._plan.auto_timeout:
            for s in self.pending():
                if seat is None or s == seat:
                    if self._timeout_action(s) is not None:
                        acts.append(self._plan.act["timeout"][s])
        return acts

    def _discardable(self, seat: int) -> list[int]:
        h = self.hands[seat]
        faces = [f for f in self.rules.faces if h[f]]
        if self.phase == "return" and self._plan.return_free:
            return faces  # giving a card back is not a discard (return-is-discard)
        banned = self._ban_index(seat)["no-discard"]
        ok = [f for f in faces if f not in banned]
        if ok or self._plan.stuck_as_written:
            return ok
        return faces  # lift-bans: every card is banned, so any may go

    def _no_discard(self, marks: Iterable[Mark], discarded: set[int]) -> set[int]:
        """The faces these marks ban from discard, for a seat that discarded `discarded`."""
        no: set[int] = set()
        pair = False
        eaten: set[int] = set()
        for m in marks:
            if m.ban == "discard" and m.face is not None:
                no.add(m.face)
            elif m.ban == "discard-ca-pair":
                pair = True
            elif m.ban == "discard-ca-eaten" and m.face is not None:
                eaten.add(m.face)
        ca = self._plan.ca_partners
        if pair:
            for e in discarded:
                no |= ca[e]
        for f in eaten:  # both faces in an eaten cạ, one of them discarded
            if ca[f] & discarded & eaten:
                no.add(f)
        return no

    def _strands(self, s: int, y: int, used: int, x_ca: int | None, ignore: int = -2,
                 returning: bool = False, could_chan: bool = False) -> bool:
        """`stuck-discard=forbid-claim`: whether laying down `used` concealed cards of face
        y (eating x_ca as a cạ with y, when given) would leave seat s nothing it may
        discard (or return, when `returning`).  Marks made at history index `ignore` do
        not count (a reclaim undoes them); the bans the claim itself creates do."""
        h = self.hands[s]
        held = [f for f in self.rules.faces if h[f] - (used if f == y else 0) > 0]
        if not held:
            return True
        if returning and self._plan.return_free:
            return False
        marks = [m for m in self.marks[s] if m.origin != ignore or m.ban == "win"]
        if x_ca is not None:
            new: list[tuple[str, int, int | None]] = [("eat-ca", x_ca, y)]
            if could_chan and self._plan.ca_over_chan:
                new.append(("pass-could-chan", x_ca, None))
            for trig, face, partner in new:
                for rule, ban, f, via in self._trigger_marks(trig, face, partner):
                    marks.append(Mark(rule, ban, f, -1, via))
        no = self._no_discard(marks, self.discarded[s])
        return all(f in no for f in held)

    def _ban_index(self, seat: int) -> dict[str, Any]:
        """The seat's marks by ban: ``ban -> {face or None: [rule ids in mark order]}``,
        and ``"no-discard"``: the faces some mark bans from discard.  Built on first use,
        then kept up to date by `_mark` and `_discarded` (and dropped when a reclaim
        removes marks)."""
        if not self._plan.enforce:
            return _NO_BANS  # restriction-mode=penalise: bans refuse nothing
        idx = self._bans[seat]
        if idx is None:
            idx = {}
            for m in self.marks[seat]:
                ids = idx.setdefault(m.ban, {}).setdefault(m.face, [])
                ids.append(m.rule)
                if m.via:
                    ids.append(m.via)
            idx["no-discard"] = self._no_discard(self.marks[seat], self.discarded[seat])
            self._bans[seat] = idx
            self._bans_shared[seat] = False
        return idx

    def _discarded(self, seat: int, face: int) -> None:
        self.discarded[seat].add(face)
        idx = self._bans[seat]
        if idx is not None and (self._bans_shared[seat] or "discard-ca-eaten" in idx):
            self._bans[seat] = None  # rebuilt on next use
        elif idx is not None and "discard-ca-pair" in idx:
            idx["no-discard"] |= self._plan.ca_partners[face]

    def _discard_bans(self, seat: int, face: int) -> list[str]:
        out = []
        for m in self.marks[seat]:
            if m.ban == "discard" and m.face == face:
                out.append(m.rule)
                if m.via:
                    out.append(m.via)
            elif m.ban == "discard-ca-pair":
                if any(self.rules.is_ca(face, e) for e in self.discarded[seat]):
                    out.append(m.rule)
            elif m.ban == "discard-ca-eaten" and m.face == face:
                eaten = {k.face for k in self.marks[seat] if k.ban == "discard-ca-eaten"}
                if self._plan.ca_partners[face] & self.discarded[seat] & eaten:
                    out.append(m.rule)
        return out

    def _banned(self, seat: int, ban: str, face: int | None, ignore: int = -2) -> list[str]:
        """Rule ids of the seat's marks that ban this (each followed by the scope row that
        carried it to this face, if any); marks created at history index `ignore` are left
        out (a reclaim undoes the pass that created them)."""
        by_face = self._ban_index(seat).get(ban)
        if not by_face:
            return []  # (always so under restriction-mode=penalise)
        anyface = by_face.get(None)
        this = by_face.get(face) if face is not None else None
        if ignore == -2 and not (anyface and this):
            return list(anyface or this or ())
        out: list[str] = []
        for m in self.marks[seat]:
            if m.ban == ban and (m.face is None or m.face == face) and m.origin != ignore:
                out.append(m.rule)
                if m.via:
                    out.append(m.via)
        return out

    def _can_win_opening(self, seat: int) -> bool:
        return (not self._banned(seat, "win", None)
                and self.engine.is_win(*self._win_counts(seat), None, "opening"))

    def _win_counts(self, seat: int) -> tuple[list[int], int]:
        """(the counts the fast win check splits, the chắn laid outside them) for `seat`,
        under ``[win] laid_rule``: the concealed hand and the laid chắn as laid; pooled,
        a fresh list with the laid chắn and cạ added (the slower path)."""
        if self.engine.pooled:
            return self.engine.win_counts(self.hands[seat], self.laid[seat])
        return self.hands[seat], self.laid_chan[seat]

    def _split_rules(self, seat: int, x: int, y: int) -> tuple[list[str], list[str]]:
        """(forbidding, allowing) rule ids for eating x with y as a cạ."""
        h = self.hands[seat]
        r = self.rules
        if h[y] % 2 == 0 or not (self._plan.no_split_rule and self._plan.enforce):
            return [], []
        partners = self._plan.ca_partners[y]
        holds_ca = any(h[z] % 2 == 1 for z in partners)
        if not holds_ca:
            return [], []
        scope = r.rid("eating.no_split_scope_rule")
        if self._plan.split_after_ca and not any(g.kind == "ca" for g in self.laid[seat]):
            return [], [scope]
        group = r.odd_group
        if y in group and sum(h[f] for f in group) % 2 == 1:
            return [], [self._plan.odd_rule]
        return [self._plan.no_split_rule, scope], []

    def _claim_allowed(self, source: str, claim: str) -> tuple[bool, str]:
        c = self.rules.claims[(source, claim)]
        return c.allowed, c.rule

    def _window_options(self, w: Window) -> dict[int, list[Action]]:
        """Every claim each seat may make on the window's card (pass is implicit)."""
        x = w.card
        opts: dict[int, list[Action]] = {}
        ok = self._plan.claim_ok
        final = self._final()  # empty-noc-draw=noc-empty: the last card only completes ù
        u_ok = ok[(w.source, "u")] and not w.second
        chiu_ok = ok[(w.source, "chiu")] and not final
        chiu_u_ok = ok[(w.source, "chiu-u")] and not w.second
        eat_ok = ok[(w.source, "eat")] and not final
        strand = self._plan.forbid_stranding
        second, turn, reclaimer = w.second, w.turn, w.reclaimer
        is_win = self.engine.is_win
        pooled = self.engine.pooled
        act = self._plan.act
        may_eat = eat_ok and not (w.source == "draw" and not second and self._plan.next_only)
        bao = self.bao_seat()
        for s in range(self.n):
            if s == w.giver:
                continue
            if s == bao:  # báo: no eat, no chíu; a win on the card stays open
                if u_ok and not self._ban_index(s).get("win"):
                    wh, wc = (self.engine.win_counts(self.hands[s], self.laid[s]) if pooled
                              else (self.hands[s], self.laid_chan[s]))
                    if is_win(wh, wc, x, "u"):
                        opts[s] = [act["u"][s]]
                continue
            in_turn = s == turn
            if second and not in_turn and s != reclaimer:
                continue
            h = self.hands[s]
            hx = h[x]
            if s == reclaimer:
                # the drawer who passed the card may only take it back (it is no longer
                # their turn: no ù, chíu-ù or chíu on a passed-on card, no plain eating)
                mine = self._plan.card_act["reclaim"][s]
                acts = [mine[y] for y in self._eat_partners(s, x, w.reclaim_origin)]
                if acts:
                    opts[s] = acts
                continue
            if not in_turn and not u_ok and hx < 3:
                continue  # no ù here, no three copies for a chíu, not this seat's turn
            acts = []
            bans = self._ban_index(s)
            if (u_ok or (chiu_u_ok and hx >= 3)) and not bans.get("win"):
                # [win] laid_rule pooled: the laid chắn and cạ go with the concealed cards
                wh, wc = (self.engine.win_counts(h, self.laid[s]) if pooled
                          else (h, self.laid_chan[s]))
                if u_ok and is_win(wh, wc, x, "u"):
                    acts.append(act["u"][s])
                # chíu-ù: three *concealed* copies (hx), which pooled counts could not tell
                if (chiu_u_ok and hx >= 3 and not self._banned(s, "chiu", x)
                        and is_win(wh, wc, x, "chiu-u")):
                    acts.append(act["chiu-u"][s])
            if chiu_ok and hx >= 3 and not self._banned(s, "chiu", x):
                if (not second or in_turn) and not self._empties(h, 3) and not (
                        strand and self._strands(s, x, 3, None, returning=not in_turn)):
                    acts.append(act["chiu"][s])
            if may_eat and in_turn:
                mine = self._plan.card_act["eat"][s]
                acts.extend(mine[y] for y in self._eat_partners(s, x))
            if acts:
                opts[s] = acts
        return opts

    def records_faults(self) -> bool:
        """Whether an act may stand and be recorded as a fault under these rules
        (restriction-mode=penalise, or bỏ ù read as a fault)."""
        return not self._plan.enforce or self._plan.decline_fault

    def bao_seat(self) -> int | None:
        """The seat that is báo, who may from then on only draw, pass and win: the first
        to commit a fault when ``[turn] fault_play_rule`` reads ``draw-and-pass``, or,
        with the classes read by rule of play (``fault_class_rule`` = ``by-rule``), the
        first to commit a fault of class báo; None before any such fault, or when a
        fault changes nothing in the play."""
        f = self._bao_fault()
        return None if f is None else int(f[0]["seat"])

    def _bao_fault(self) -> tuple[dict[str, Any], list[str]] | None:
        """The fault that made a seat báo and the rows beyond its own that make it so."""
        if not self.faults:
            return None
        if self._plan.by_rule:
            for f in self.faults:
                cls, more = pay_mod.fault_class(self.rules, f)
                if cls == "bao":
                    return f, more
            return None
        if not self._plan.bao:
            return None
        return self.faults[0], [self.rules.rid("turn.fault_play_rule")]

    def _drawer_may_not_eat(self) -> bool:
        return self._plan.next_only

    def _final(self) -> bool:
        """Whether the open window's card is the nọc's last and the table ends the hand
        when the nọc becomes empty (`empty-noc-draw=noc-empty`)."""
        return self._plan.end_when_empty and self.noc_pos >= len(self.noc)

    def _passes_on(self, w: Window) -> bool:
        """Whether a card nobody took goes on to the next seat rather than die: a card at
        its drawer's own gate (drawn, or returned there), and with
        `return-resume=to-next-seat` any returned card, once."""
        return not w.second and (w.gate == w.turn
                                 or (w.source == "return" and self._plan.return_on))

    def _chan_eat_ok(self, s: int, x: int, ignore: int = -2) -> bool:
        """Whether seat s may eat x as a chắn (x in hand, no ban, not left stranded)."""
        h = self.hands[s]
        return bool(h[x]) and not self._banned(s, "eat-chan", x, ignore) and not (
            self._plan.forbid_stranding and self._strands(s, x, 1, None, ignore)) and not (
            self._plan.when and self._when_banned(s, "eat-chan", x, x))

    def _when_banned(self, s: int, ban: str, x: int, y: int) -> list[str]:
        """The rows of the restrictions on the hand (``when``) that ban eating x with y
        (`ban`: eat-chan or eat-ca) for seat s now; see `HAND_CONDITIONS`."""
        if not self._plan.enforce:
            return []
        return [rule for rule, cond in self._plan.when.get(ban, ())
                if self._hand_meets(s, cond, x, y)]

    def _hand_meets(self, s: int, cond: str, x: int, y: int) -> bool:
        h = self.hands[s]
        ca = self._plan.ca_partners
        if cond == "holds-taken-face":
            return h[x] >= 1
        if cond == "holds-three-taken":
            return h[x] >= 3
        if cond == "used-from-chan":
            return h[y] >= 2 and h[y] % 2 == 0
        if cond == "used-from-ca":
            # y stands in a cạ of the hand set out as 000 sets it out (`_que`: its spare
            # copy and exactly one other single of its rank), a cạ without the taken
            # face x: holding x and y and eating x with y is 000's own example of rule 1
            # (ăn treo tranh, [Luật đánh bài] #1 s2), and three singles are a ba đầu,
            # whose wait #4 s4 also reads as rule 1
            if h[y] % 2 == 0:
                return False
            mates = [z for z in ca[y] if h[z] % 2]
            return len(mates) == 1 and mates[0] != x
        if cond == "holds-ca-of-rank":
            odd = [f for f in self.rules.scope_faces("rank", x) if h[f] % 2]
            return any(b in ca[a] for a in odd for b in odd)
        if cond == "one-loose-card":
            return self._loose_card(s) is not None
        if cond == "waiting-card-used":
            return self._waiting_card(s) == y
        raise ValueError(f"unknown hand condition {cond!r}")

    def _que(self, s: int) -> int | None:
        """The one què of seat s's concealed hand set out as 000 [Chắn, Cạ, ba đầu, què]
        •4 sets it out (every chắn first, then cạ and ba đầu; a card left over is a
        què), when it has exactly one què and no ba đầu; None otherwise.  A face's
        spare copy (an odd count) is single; singles that form cạ with one another make
        a cạ (two) or a ba đầu (three or more)."""
        h = self.hands[s]
        ca = self._plan.ca_partners
        single = [f for f in self.rules.faces if h[f] % 2]
        que: int | None = None
        for f in single:
            k = sum(1 for z in ca[f] if h[z] % 2)
            if k >= 2:
                return None  # a ba đầu: 000 #4 s4 reads its wait as another fault
            if k == 0:
                if que is not None:
                    return None  # two què
                que = f
        return que

    def _waiting_card(self, s: int) -> int | None:
        """The card seat s waits on to win (quân chờ ù, 000 [Luật đánh bài] #4 s1-2): its
        one què (`_que`), when some card would complete the hand as it stands (the
        laid groups counted as ``[win] laid_rule`` says).  None when the hand is not
        waiting, has no què or several, or waits on a ba đầu (#4 s4: eating with a card
        of the ba đầu is then rule 1, not rule 4)."""
        que = self._que(s)
        if que is None:
            return None
        h = self.hands[s]
        wh, wc = (self.engine.win_counts(h, self.laid[s]) if self.engine.pooled
                  else (h, self.laid_chan[s]))
        held = [h[f] for f in range(len(h))]
        for g in self.laid[s]:
            for f in g.faces:
                held[f] += 1
        for f in self.rules.faces:  # a face the seat holds four times cannot come
            if held[f] < self.rules.copies and self.engine.is_win(wh, wc, f, "u"):
                return que
        return None

    def _waits_on_chi(self, s: int) -> bool:
        """Whether seat s's hand waits on Chi Chi alone as ù chi rộng does (000 cước 20):
        its one loose card is Chi Chi and the rest makes 6 chắn or more (laid ones
        counted), cạ for the others."""
        if self._loose_card(s) != cards.CHI:
            return False
        h = self.hands[s]
        h[cards.CHI] -= 1
        best = self.engine.concealed_best(h)
        h[cards.CHI] += 1
        return best >= 0 and best + self.laid_chan[s] >= 6

    def _loose_card(self, s: int) -> int | None:
        """The one card of seat s's concealed hand outside a split of the rest into pairs
        (chắn or cạ), if the hand is all pairs but one card."""
        h = self.hands[s]
        if sum(h) % 2 == 0:
            return None
        best = self.engine.concealed_best
        for f in self.rules.faces:
            if h[f]:
                h[f] -= 1
                whole = best(h) >= 0
                h[f] += 1
                if whole:
                    return f
        return None

    def _empties(self, h: list[int], used: int) -> bool:
        """Whether laying down `used` concealed cards would leave none to discard or
        return, when the table forbids that (`empty-hand`)."""
        return self._plan.keep_one and sum(h) <= used

    def _eat_partners(self, s: int, x: int, ignore: int = -2) -> list[int]:
        h = self.hands[s]
        if self._empties(h, 1):
            return []
        plan = self._plan
        out = []
        ca_ok: bool | None = None
        chan = self._chan_eat_ok(s, x, ignore)
        for y in plan.eat_cands[x]:
            if not h[y]:
                continue
            if y == x:
                if chan:
                    out.append(y)
            else:
                if ca_ok is None:
                    ca_ok = not self._banned(s, "eat-ca", x, ignore)
                if (ca_ok and not self._splits_ca(s, h, y)
                        and (plan.split_chan_ok or not plan.enforce or h[y] % 2)
                        and not (plan.forbid_stranding and self._strands(
                            s, y, 1, x, ignore, could_chan=chan and ignore == -2))
                        and not self._banned(s, "eat-ca-with", y, ignore)
                        and not (plan.when and self._when_banned(s, "eat-ca", x, y))):
                    out.append(y)
        return out

    def _splits_ca(self, s: int, h: list[int], y: int) -> bool:
        """Whether eating a cạ with y would split a cạ held (`_split_rules` forbids it)."""
        if not (self._plan.no_split_rule and self._plan.enforce):
            return False  # the table has no such limit, or restriction-mode=penalise
        if h[y] % 2 == 0 or not any(h[z] % 2 for z in self._plan.ca_partners[y]):
            return False
        if self._plan.split_after_ca and not any(g.kind == "ca" for g in self.laid[s]):
            return False  # no-split-scope=after-eating-ca: this player has eaten no cạ
        group = self.rules.odd_group
        return not (y in group and sum(h[f] for f in group) % 2 == 1)

    # ------------------------------------------------------------------ explanations
    def explain(self, action: Action) -> Explanation:
        """Why an action is legal (the rules that allow it) or not (those that forbid it)."""
        legal = self._is_legal(action)
        rules, en, vi = self._reasons(action, legal)
        return Explanation(legal, tuple(dict.fromkeys(rules)), en, vi)

    def candidate_actions(self, seat: int) -> list[Action]:
        """Every action of a form the seat could conceivably take now, legal or not."""
        out: list[Action] = []
        held = [f for f in self.rules.faces if self.hands[seat][f]]
        if self.phase == "window":
            assert self.window is not None
            out += [Action("u", seat), Action("chiu-u", seat), Action("chiu", seat)]
            out += [Action("eat", seat, y) for y in held]
            out.append(Action("pass", seat))
        elif self.phase == "declare":
            out += self._declarations() if seat == self.actor else [Action("declare", seat)]
        elif self.phase in ("opening", "discard", "return"):
            if self.phase == "opening":
                out.append(Action("u", seat))
            kind = "return" if self.phase == "return" else "discard"
            out += [Action(kind, seat, f) for f in held]
        return out

    def _react(self, s: int, w: Window) -> list[str]:
        """A drawn card claimed by a seat other than the drawer: eligible players may react
        to a wall card (`react-to-draw`)."""
        return [self.rules.rid("turn.react_rule")] if w.source == "draw" and s != w.gate else []

    def _reasons(self, a: Action, legal: bool) -> tuple[list[str], str, str]:
        r = self.rules
        rid = r.rid
        s = a.seat
        if self.phase == "over":
            return ([rid("turn.reveal_rule")], "the hand is over", "ván đã kết thúc")
        if self.phase == CHANCE:
            return ([rid("deck.rule")], "the cards are not dealt yet", "chưa chia bài")
        if self.phase == "declare" and a.kind != "timeout":
            return self._declare_reasons(a, legal)
        if a.kind == "declare":
            return ([rid("turn.declare_rule") if self._plan.declares else
                     rid("turn.reveal_rule")],
                    "a declaration comes only after a win, under a table with a declaration "
                    "phase", "chỉ xướng sau khi ù, khi bảng luật có bước xướng")
        pending = self.pending()
        if s not in pending and a.kind != "timeout":
            if self.phase == "window" and self.window is not None and s in self.window.responses:
                return ([rid("claims.tie_break_rule")], "this seat has already answered",
                        "người này đã trả lời")
            # A seat with no claim on the window's card is not asked; for a claim, say
            # which rule takes it away (e.g. a declined ù), not just "not your turn".
            if not (self.phase == "window" and a.kind in CLAIM_KINDS):
                return ([rid("turn.direction_rule")], "it is not this seat's decision now",
                        "chưa đến lượt người này")
        h = self.hands[s]
        if a.kind == "timeout":
            if legal:
                return ([rid("turn.timeout_rule")], "the silent seat is taken to pass",
                        "người im lặng bị coi như bỏ qua")
            return ([rid("turn.timeout_rule")], "the table sets no deadline for silent players",
                    "luật bàn chưa có thời hạn cho người im lặng")
        if self.phase in ("opening", "discard", "return"):
            if a.kind == "u" and self.phase == "opening":
                if legal:
                    return ([rid("turn.opening_win_rule"), rid("win.rule")],
                            "the dealt hand is complete", "bài chia đã ù")
                v = self.engine.judge(self.held_faces(s), self.laid[s], None, "opening")
                return (list(v.rules), v.reason_en, v.reason_vi)
            if a.kind not in ("discard", "return") or a.kind != (
                    "return" if self.phase == "return" else "discard"):
                # the row that makes this move due: the opener's first move, a discard
                # after an eat (or a draw), a card given back after a chíu
                return ([rid({"opening": "turn.opener_rule", "discard": "eating.rule",
                              "return": "turn.chiu_return_rule"}[self.phase])],
                        f"a {'return' if self.phase == 'return' else 'discard'} is due now",
                        "bây giờ phải "
                        + ("trả cửa" if self.phase == "return" else "đánh một quân"))
            if a.card is None or not h[a.card]:
                return ([rid("eating.rule")], "that card is not in the concealed hand",
                        "quân đó không có trên tay")
            if self.phase == "return" and self._plan.return_free:
                return ([rid("turn.chiu_return_rule"), rid("turn.return_discard_rule")],
                        "allowed: giving a card back is not a discard",
                        "được phép: trả cửa không phải là đánh")
            bans = self._discard_bans(s, a.card)
            if legal or not bans:  # no ban refuses this card: the explanation allows it
                why = [rid("turn.opener_rule") if self.phase == "opening" else
                       rid("turn.chiu_return_rule") if self.phase == "return" else
                       rid("turn.discard_rule")]
                if bans:
                    why += [rid("turn.stuck_rule")]
                if self.phase == "opening" and self._can_win_opening(s):
                    why += [x.rule for x in self.rules.restrictions
                            if x.trigger == "decline-opening"]
                return (why, "allowed", "được phép")
            return (bans,
                    f"{cards.name(a.card)} may not be discarded by this player now",
                    f"người này không được đánh {cards.name(a.card)} lúc này")
        assert self.window is not None
        w = self.window
        x = w.card
        mine = w.options.get(s, [])
        # rows that decide what this answer leads to: whether a claim other than ù declines
        # a win (decline-by-claim), whether letting one's own draw go creates bans
        # (own-draw-pass)
        declines = ([rid("turn.decline_rule")]
                    if a.kind not in ("u", "chiu-u") and any(o.kind in ("u", "chiu-u")
                                                             for o in mine) else [])
        bao = self._bao_fault()
        if a.kind in ("chiu-u", "chiu", "eat", "reclaim") and bao and s == bao[0]["seat"]:
            return (bao[1] + list(bao[0]["rules"]),
                    "this player is báo since their fault: they may only draw, pass and win",
                    "người này bị báo từ khi phạm lỗi: chỉ còn được bốc, bỏ qua và ù")
        if a.kind == "pass":
            own = (s == w.turn and w.source == "draw" and w.gate == s and not w.second
                   and any(o.kind == "eat" for o in mine))
            return ([rid("turn.chiu_optional_rule")] + declines
                    + ([rid("turn.own_draw_pass_rule")] if own else []),
                    "a claim is never compulsory", "không bắt buộc phải nhận quân")
        if a.kind in ("u", "chiu-u"):
            ok, why = self._claim_allowed(w.source, a.kind)
            if not ok:
                return ([why], f"a {SOURCE_EN[w.source]} does not allow {WIN_EN[a.kind]} here",
                        f"{SOURCE_VI[w.source]} không cho phép {WIN_VI[a.kind]} ở đây")
            if w.second:
                return ([self._passed_rule(w)],
                        "the card has been passed on to the next seat; wins on it were claimed "
                        "or declined when it was turned up",
                        "quân đã được chuyển cho người kế tiếp; quyền ù với quân này đã được xét "
                        "lúc quân được lật")
            if s == w.giver:
                return ([rid("turn.discard_rule")], "nobody claims the card they gave",
                        "không ai nhận lại quân chính mình vừa đưa ra")
            b = self._banned(s, "win", None)
            if b:
                return (b + [rid("turn.decline_rule")],
                        "this player declined ù earlier in the hand",
                        "người này đã bỏ ù trước đó trong ván")
            if a.kind == "chiu-u" and h[x] < 3:
                return ([rid("turn.chiu_rule")], "chíu needs three identical cards in the hand",
                        "Chíu cần giữ ba quân giống hệt")
            if a.kind == "chiu-u" and self._banned(s, "chiu", x):
                return (self._banned(s, "chiu", x), "this face is banned for chíu",
                        "mặt này bị cấm Chíu")
            v = self.engine.judge(self.held_faces(s), self.laid[s], x, a.kind)  # type: ignore[arg-type]
            return ([why] + self._react(s, w) + list(v.rules), v.reason_en, v.reason_vi)
        if a.kind == "chiu":
            ok, why = self._claim_allowed(w.source, "chiu")
            if not ok:
                return ([why], "this card does not allow chíu", "quân này không cho Chíu")
            if s == w.giver:
                return ([rid("turn.discard_rule")], "nobody claims the card they gave",
                        "không ai nhận lại quân chính mình vừa đưa ra")
            if h[x] < 3:
                return ([rid("turn.chiu_rule")], "chíu needs three identical cards in the hand",
                        "Chíu cần giữ ba quân giống hệt")
            b = self._banned(s, "chiu", x)
            if b:
                return (b, f"chíu of {cards.name(x)} is banned for this player",
                        f"người này bị cấm Chíu {cards.name(x)}")
            if w.second and s != w.turn:
                return ([self._passed_rule(w)], "the card has passed on to the next seat",
                        "quân đã chuyển cho người kế tiếp")
            if self._final():
                return self._final_reason()
            if self._empties(h, 3):
                return ([rid("turn.empty_hand_rule")], "no card would be left to discard or "
                        "return", "sẽ không còn quân nào để đánh hoặc trả cửa")
            if self._plan.forbid_stranding and self._strands(s, x, 3, None,
                                                             returning=s != w.turn):
                return self._stranded_reason()
            extra = [] if s == w.turn else [rid("turn.chiu_return_rule")]
            if x in r.never_complete and "turn.chiu_yeu_rule" in r.rule_ids:
                extra.append(rid("turn.chiu_yeu_rule"))  # a face that never completes ù
            return ([why, rid("turn.chiu_optional_rule")] + self._react(s, w) + extra + declines,
                    "allowed", "được phép")
        if a.kind in ("eat", "reclaim"):
            y = a.card
            if a.kind == "reclaim" and s != w.reclaimer:
                return ([rid("turn.reclaim_rule")], "only the seat that just passed the card "
                        "may take it back, and only when the table allows it",
                        "chỉ người vừa chuyển quân mới được nhận lại, khi luật cho phép")
            if a.kind == "eat" and s != w.turn:
                return ([rid("eating.rule")], "only the seat whose turn it is may eat this card",
                        "chỉ người đến lượt mới được ăn quân này")
            ok, why = self._claim_allowed(w.source, "eat")
            if not ok:
                return ([why], "this card cannot be eaten", "quân này không ăn được")
            if self._final():
                return self._final_reason()
            if a.kind == "reclaim":  # allowed by the deadline row, then as an eat
                why = rid("turn.reclaim_rule")
            if w.source == "draw" and not w.second and self._drawer_may_not_eat():
                return ([rid("turn.drawn_offer_rule")], "the drawer may not eat their own draw",
                        "người bốc không được ăn quân mình bốc")
            if y is None or not h[y]:
                return ([rid("eating.rule")], "the partner card is not in the concealed hand",
                        "quân ghép không có trên tay")
            if self._empties(h, 1):
                return ([rid("turn.empty_hand_rule")], "no card would be left to discard",
                        "sẽ không còn quân nào để đánh")
            ignore = w.reclaim_origin if a.kind == "reclaim" else -2
            if y == x:
                b = self._banned(s, "eat-chan", x, ignore)
                if b:
                    return (b, f"eating {cards.name(x)} is banned for this player",
                            f"người này bị cấm ăn {cards.name(x)}")
                if self._plan.forbid_stranding and self._strands(s, x, 1, None, ignore):
                    return self._stranded_reason()
                b = self._when_banned(s, "eat-chan", x, x)
                if b:
                    return (b, f"eating {cards.name(x)} as a chắn breaks a rule of play in "
                            "this hand", f"ăn {cards.name(x)} thành Chắn lúc này là phạm luật")
                return ([why, r.rid("pairing.chan_rule")] + declines, "allowed as a chắn",
                        "ăn thành Chắn")
            if not r.is_ca(x, y):
                return ([rid("pairing.chan_rule")] + list(r.ca_class_rules),
                        f"{cards.name(x)} and {cards.name(y)} form neither chắn nor cạ",
                        f"{cards.name(x)} và {cards.name(y)} không thành Chắn hay Cạ")
            b = self._banned(s, "eat-ca", x, ignore)
            if b:
                return (b, f"eating {cards.name(x)} as a cạ is banned for this player",
                        f"người này bị cấm ăn {cards.name(x)} thành Cạ")
            b = self._banned(s, "eat-ca-with", y, ignore)
            if b:
                return (b, f"eating a cạ with {cards.name(y)} is banned for this player",
                        f"người này bị cấm dùng {cards.name(y)} để ăn Cạ")
            b = self._when_banned(s, "eat-ca", x, y)
            if b:
                return (b, f"eating {cards.name(x)} with {cards.name(y)} as a cạ breaks a rule "
                        "of play in this hand", f"ăn {cards.name(x)} với {cards.name(y)} "
                        "thành Cạ lúc này là phạm luật")
            forbid, allow = self._split_rules(s, x, y)
            if forbid:
                return (forbid, f"{cards.name(y)} sits in a cạ in the hand; it may not be split",
                        f"{cards.name(y)} đang nằm trong một Cạ trên tay, không được tách")
            if h[y] % 2 == 0 and "eating.split_chan_rule" in r.rule_ids:
                if not self._plan.split_chan_ok and self._plan.enforce:
                    return ([rid("eating.split_chan_rule")],
                            f"{cards.name(y)} belongs to a concealed chắn, which may not be "
                            "broken to eat a cạ",
                            f"{cards.name(y)} thuộc một Chắn kín, không được làm vỡ để ăn Cạ")
                allow = allow + [rid("eating.split_chan_rule")]
            if self._plan.forbid_stranding and self._strands(
                    s, y, 1, x, ignore, could_chan=a.kind == "eat" and self._chan_eat_ok(s, x)):
                return self._stranded_reason()
            if a.kind == "eat" and self._plan.card_act["eat"][s][x] in mine:
                allow = allow + [rid("eating.ca_over_chan_rule")]  # it could eat a chắn
            return ([why] + list(r.ca_rules[x][y]) + [rid("eating.ca_before_min_chan_rule")] +
                    allow + declines, "allowed as a cạ", "ăn thành Cạ")
        return ([rid("eating.rule")], f"unknown action {a.kind!r}", f"hành động lạ {a.kind!r}")

    def _passed_rule(self, w: Window) -> str:
        """The row that passed this window's card on to the next seat."""
        return self.rules.rid("turn.drawn_offer_rule" if w.source == "draw"
                              else "turn.return_resume_rule")

    def _final_reason(self) -> tuple[list[str], str, str]:
        return ([self.rules.rid("turn.exhausted_rule")],
                "the nọc is empty: its last card may only complete ù",
                "nọc đã hết: quân cuối cùng chỉ còn dùng để ù")

    def _stranded_reason(self) -> tuple[list[str], str, str]:
        return ([self.rules.rid("turn.stuck_rule")],
                "afterwards every card left would be banned from discard",
                "sau đó mọi quân còn lại đều bị cấm đánh")

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action, *, check: bool = True) -> None:
        """Apply a legal action (raises ActionError with the forbidding rule ids if not).

        ``check=False`` skips the legality check, for an action just taken from
        `legal_actions()` of this very state (random playouts); anything else must be
        checked."""
        if check and not self._is_legal(action):
            e = self.explain(action)
            raise ActionError(f"illegal action {action.code()}: {e.en}", e.rules)
        self.history.append(action)
        self._event(action.as_json())
        if action.kind == "timeout":
            t = self._timeout_action(action.seat)
            assert t is not None
            action = t
            # the taken-as action nests under "action": spreading it would overwrite "type"
            self._event({"type": "timeout-as", "seat": action.seat, "action": action.as_json()})
        k = action.kind
        s = action.seat
        if self.phase == "declare":
            self._declare(s, action.cuoc)
            return
        if not self._plan.enforce and self.phase in ("opening", "discard", "return"):
            self._record_faults(action)
        if self.phase == "opening":
            if k == "u":
                self._win(s, "opening", None)
                return
            if self._can_win_opening(s):
                self._trigger(s, "decline-opening", None)
            self._discard(s, action.card)  # type: ignore[arg-type]
            return
        if self.phase == "discard":
            self._discard(s, action.card)  # type: ignore[arg-type]
            return
        if self.phase == "return":
            self._return(s, action.card)  # type: ignore[arg-type]
            return
        w = self.window
        assert w is not None
        w.responses[s] = action
        if len(w.responses) >= len(w.options):  # every seat asked has answered
            self._resolve()

    def _is_legal(self, a: Action) -> bool:
        """``a in self.legal_actions()``, without building the whole list."""
        s = a.seat
        if self.phase in ("over", CHANCE) or (a.cuoc and self.phase != "declare"):
            return False  # (only a declaration names cước)
        if a.kind == "timeout":
            return (a.card is None and self._plan.auto_timeout and s in self.pending()
                    and self._timeout_action(s) is not None)
        if self.phase == "window":
            w = self.window
            assert w is not None
            opts = w.options.get(s)
            if opts is None or s in w.responses:
                return False
            return (a.kind == "pass" and a.card is None) or a in opts
        if self.phase == "declare":
            return (s == self.actor and a.kind == "declare" and a.card is None
                    and declare_mod.check_named(self.rules, a.cuoc) is None)
        if s != self.actor:
            return False
        if self.phase == "opening" and a.kind == "u":
            return a.card is None and self._can_win_opening(s)
        kind = "return" if self.phase == "return" else "discard"
        return a.kind == kind and a.card is not None and a.card in self._discardable(s)

    def is_legal(self, a: Action) -> bool:
        """Whether `a` may be applied here.  The same as ``a in legal_actions()`` except
        in the declaration phase, where every declaration naming cước of the table (each
        once, sorted) is legal and `legal_actions` lists a representative few."""
        return self._is_legal(a)

    def child(self, action: Action) -> State:
        c = self.copy()
        c.apply(action)
        return c

    def _timeout_action(self, seat: int) -> Action | None:
        """What a silent seat is taken to do when the table allows timeouts."""
        if self.phase == "window":
            return self._plan.act["pass"][seat]
        if self.phase in ("opening", "discard", "return") and seat == self.actor:
            kind = "return" if self.phase == "return" else "discard"
            faces = self._discardable(seat)
            return self._plan.card_act[kind][seat][faces[0]] if faces else None
        return None

    def _event(self, e: dict[str, Any]) -> None:
        self.events.append(e)

    def _record_faults(self, a: Action) -> None:
        """restriction-mode=penalise: record the rows `a` breaks, i.e. those that would
        refuse it under forbid (the same checks, run on a twin with this plan's `strict`
        twin), as a fault of its seat.  Called before `a` takes effect."""
        twin = self.copy()
        twin._plan = self._plan.strict
        if twin.phase == "window" and twin.window is not None:
            twin.window.responses = {}
            twin.window.options = twin._window_options(twin.window)
        if twin._is_legal(a):
            return
        why, _, _ = twin._reasons(a, False)
        rows = [r for r in dict.fromkeys(why) if r in self._plan.fault_rows] or list(why)
        # the act stands and is recorded because the mode row says penalise
        mode = self.rules.rule_ids.get("turn.restriction_mode_rule")
        self._fault(a.seat, a.code(), rows + [mode] if mode and mode not in rows else rows)

    def _fault(self, seat: int, action: str, rows: list[str]) -> None:
        """Record a fault of `seat` (what it did, the rows that make it one)."""
        self.faults.append({"seat": seat, "action": action, "rules": rows})
        self._event({"type": "fault", "seat": seat, "rules": rows})

    def _mark(self, seat: int, rule: str, ban: str, face: int | None, via: str = "") -> None:
        self.marks[seat].append(Mark(rule, ban, face, len(self.history) - 1, via))
        idx = self._bans[seat]
        if ban == "discard-ca-eaten" or (idx is not None and self._bans_shared[seat]):
            self._bans[seat] = None  # rebuilt on next use
        elif idx is not None:  # keep the index up to date rather than rebuild it
            ids = idx.setdefault(ban, {}).setdefault(face, [])
            ids.append(rule)
            if via:
                ids.append(via)
            if ban == "discard" and face is not None:
                idx["no-discard"].add(face)
            elif ban == "discard-ca-pair":
                ca = self._plan.ca_partners
                for e in self.discarded[seat]:
                    idx["no-discard"] |= ca[e]

    @staticmethod
    def _mark_faces(ban: str, face: int | None, partner: int | None) -> tuple[int | None, ...]:
        """The faces a ban is recorded on: none for a ban on any face, the eaten card and
        its partner for discard-ca-eaten, else the trigger's face."""
        if ban in ("win", "discard-ca-pair"):
            return (None,)
        if ban == "discard-ca-eaten" and partner is not None and partner != face:
            return (face, partner)
        return (face,)

    def _trigger_marks(self, trigger: str, face: int | None, partner: int | None = None
                       ) -> list[tuple[str, str, int | None, str]]:
        """(row, ban, face, scope row) of every mark `trigger` on `face` creates, in the
        order they are recorded: for each restriction and ban, the face(s) of
        `_mark_faces`, then the other faces its scope reaches (cited with the scope row)."""
        out: list[tuple[str, str, int | None, str]] = []
        for rule, bans, reach, via in self._plan.by_trigger.get(trigger, ()):
            for ban in bans:
                for f in self._mark_faces(ban, face, partner):
                    out.append((rule, ban, f, ""))
                if reach is not None and face is not None and ban in SCOPED_BANS:
                    out += [(rule, ban, f, via) for f in reach[face]]
        return out

    def _trigger(self, seat: int, trigger: str, face: int | None,
                 partner: int | None = None) -> None:
        for rule, ban, f, via in self._trigger_marks(trigger, face, partner):
            self._mark(seat, rule, ban, f, via)

    def _discard(self, s: int, f: int) -> None:
        self.hands[s][f] -= 1
        self._trigger(s, "discard", f)
        self._discard_triggers(s, f)
        self._discarded(s, f)
        self._open(Window(f, s, "discard", (s + 1) % self.n, s))

    def _discard_triggers(self, s: int, f: int) -> None:
        """The triggers of a discard beyond ``discard`` itself (called after the card left
        the hand, before it joins the seat's discards): ``discard-from-chan`` when the hand
        held the face at least twice, ``discard-ca`` when it forms a cạ with an earlier
        discard of the seat."""
        by = self._plan.by_trigger
        if "discard-from-chan" in by and self.hands[s][f] >= 1:
            self._trigger(s, "discard-from-chan", f)
        if "discard-ca" in by and self._plan.ca_partners[f] & self.discarded[s]:
            self._trigger(s, "discard-ca", f)

    def _return(self, s: int, f: int) -> None:
        self.hands[s][f] -= 1
        if not self._plan.return_free:  # return-is-discard=a-discard
            self._trigger(s, "discard", f)
            self._discard_triggers(s, f)
            self._discarded(s, f)
        old = self.interrupted
        assert old is not None
        self.interrupted = None
        self._event({"type": "returned", "seat": s, "card": cards.code(f), "gate": old.gate})
        self._open(Window(f, old.gate, "return", old.turn, s, second=old.second))

    def _open(self, w: Window) -> None:
        self.phase = "window"
        self.actor = None
        self.window = w
        w.options = self._window_options(w)
        if not w.options:
            self._resolve()

    def _tier(self, kind: str) -> int:
        return self._plan.tier[kind]

    def _seat_order(self, w: Window) -> list[int]:
        start = w.gate if self._plan.owner_first else (w.gate + 1) % self.n
        return [(start + i) % self.n for i in range(self.n)]

    def claim_winner(self, answers: Mapping[int, Action]) -> Action | None:
        """The claim that takes the window's card, given every asked seat's answer (None:
        all passed): the highest tier of ``[claims] priority``, ties by the seat order of
        ``claims.tie_break_option``."""
        w = self.window
        assert w is not None
        claims = [a for a in answers.values() if a.kind not in ("pass", "timeout")]
        if len(claims) <= 1:
            return claims[0] if claims else None
        order = self._seat_order(w)
        tier = self._plan.tier
        return min(claims, key=lambda a: (tier[a.kind], order.index(a.seat)))

    def claim_verdict(self, answers: Mapping[int, Action]) -> tuple[
            Action | None, list[tuple[Action, str]]]:
        """The winning claim among `answers` (see `claim_winner`) and, for each claim it
        beats, the row that decides between the two: the seat-order row within a tier,
        else the ``[claims] priority_rules`` row that orders those two kinds (or, when no
        row names both, the one that puts the winner's kind first)."""
        best = self.claim_winner(answers)
        if best is None:
            return None, []
        tier = self._plan.tier

        def kind(k: str) -> str:
            return "u" if k == "chiu-u" else k

        out: list[tuple[Action, str]] = []
        for a in answers.values():
            if a == best or a.kind in ("pass", "timeout"):
                continue
            if tier[a.kind] == tier[best.kind]:
                out.append((a, self.rules.rid("claims.tie_break_rule")))
                continue
            hi, lo = kind(best.kind), kind(a.kind)
            rows = self._plan.priority_rows
            row = (next((r for x, y, r in rows if {x, y} == {hi, lo}), None)
                   or next((r for x, _, r in rows if x == hi), None)
                   or next((r for _, y, r in rows if y == lo), None)
                   or (rows[0][2] if rows else self.rules.rid("claims.tie_break_rule")))
            out.append((a, row))
        return best, out

    def _resolve(self) -> None:
        w = self.window
        assert w is not None
        if not w.options:  # nobody may claim the card: no answers, no bans, let it go
            self._let_go(w)
            return
        x = w.card
        # declining: anyone who could win on this card and did not claim it
        declined = []
        for s, opts in w.options.items():
            resp = w.responses.get(s)
            if resp is not None and resp.kind in ("u", "chiu-u"):
                continue
            if self._plan.decline_pass_only and resp is not None and resp.kind != "pass":
                continue  # decline-by-claim=pass-only: eating or chíu instead keeps the right
            if any(a.kind in ("u", "chiu-u") for a in opts):
                self._trigger(s, "decline-u", None)
                declined.append(s)
        best = self.claim_winner(w.responses)
        if (declined and self._plan.decline_fault and w.source == "draw"
                and (best is None or best.kind not in ("u", "chiu-u"))):
            # bỏ ù: a win on a card from the nọc let go, the hand going on
            for s in declined:
                resp = w.responses.get(s)
                self._fault(s, (resp or Action("pass", s)).code(),
                            [self.rules.rid("turn.decline_fault_rule")])
        # passing a card one could eat creates bans (for the seat whose turn it was)
        t = w.turn
        resp = w.responses.get(t)
        took = best is not None and best.seat == t
        own_draw = w.source == "draw" and w.gate == t and not w.second
        if (t in w.options and not took and (resp is None or resp.kind == "pass")
                and (self._plan.own_draw_bans or not own_draw)):
            could_chan = could_ca = False
            for a in w.options[t]:
                if a.kind == "eat":
                    if a.card == x:
                        could_chan = True
                    else:
                        could_ca = True
            if could_chan:
                self._trigger(t, "pass-could-chan", x)
            if could_ca:
                self._trigger(t, "pass-could-ca", x)
        if self._plan.kept_wait:
            for s, opts in w.options.items():
                if (not self.kept_chi[s] and not (best is not None and best.seat == s)
                        and any(a.kind in ("eat", "chiu") for a in opts)
                        and self._waits_on_chi(s)):
                    self.kept_chi[s] = True
        if (took and self._plan.ca_over_chan and best is not None and best.kind == "eat"
                and best.card != x and self._plan.card_act["eat"][t][x] in w.options[t]):
            # ca-over-chan=counts-as-pass: eating as a cạ what one could eat as a chắn
            self._trigger(t, "pass-could-chan", x)
        if best is None:
            self._let_go(w)
            return
        if not self._plan.enforce:
            self._record_faults(best)
        k, s = best.kind, best.seat
        if k in ("u", "chiu-u"):
            self._win(s, k, x)
            return
        if k == "chiu":
            self.hands[s][x] -= 3
            self.laid[s].append(Group("chiu", (x, x, x, x)))
            self.laid_chan[s] += 2
            self._event({"type": "laid", "seat": s, "group": cards.codes((x,) * 4)})
            if s == w.turn:
                self.window = None
                self.phase, self.actor = "discard", s
            else:
                self.interrupted = w
                self.window = None
                self.phase, self.actor = "return", s
            return
        # eat or reclaim
        y = best.card
        assert y is not None
        if k == "reclaim":
            # taking the card back undoes the bans its pass created (not a declined win)
            self.marks[s] = [m for m in self.marks[s]
                             if m.origin != w.reclaim_origin or m.ban == "win"]
            self._bans[s] = None
        self.hands[s][y] -= 1
        g = Group("chan", (x, x)) if y == x else Group("ca", tuple(sorted((x, y))))
        self.laid[s].append(g)
        self.laid_chan[s] += g.chan
        self._event({"type": "laid", "seat": s, "group": cards.codes(g.faces)})
        self._trigger(s, "eat", x)
        if g.kind == "ca":
            self._trigger(s, "eat-ca", x, y)
        self.window = None
        self.phase, self.actor = "discard", s

    def _let_go(self, w: Window) -> None:
        """Nobody took the card: pass it on, or let it die and draw."""
        if not self._final() and self._passes_on(w):
            # the drawer (or the interrupted drawer, or with return-resume=to-next-seat the
            # interrupted player) passes it on to the next seat
            nxt = Window(w.card, w.gate, w.source, (w.turn + 1) % self.n, w.giver, second=True)
            if self._plan.reclaim:
                nxt.reclaimer = w.turn
                # a reclaim undoes the bans the drawer's pass created: those made when
                # the answers were settled, i.e. by the last action -- unless nobody was
                # asked (then the last action is an older one whose bans must stay)
                nxt.reclaim_origin = len(self.history) - 1 if w.responses else -1
            self._event({"type": "passed-on", "card": cards.CODES[w.card], "to": nxt.turn})
            self._open(nxt)
            return
        self.dead[w.gate].append(w.card)
        self._event({"type": "dead", "card": cards.CODES[w.card], "gate": w.gate})
        self.window = None
        self._draw(w.turn)

    def _draw(self, s: int) -> None:
        if self.noc_pos >= len(self.noc):
            self.phase, self.actor, self.window = "over", None, None
            self.result = {"result": "draw", "winner": None,
                           "rules": [self.rules.rid("turn.exhausted_rule"),
                                     self.rules.rid("turn.recycle_rule")]}
            if self.faults:
                self.result["faults"] = [dict(f) for f in self.faults]
            self._event({"type": "end", "result": "draw"})
            return
        f = self.noc[self.noc_pos]
        self.noc_pos += 1
        self._event({"type": "draw", "seat": s, "card": cards.CODES[f]})
        self._open(Window(f, s, "draw", s, None))

    def _win(self, s: int, kind: str, card: int | None) -> None:
        held = self.held_faces(s)
        v = self.engine.judge(held, self.laid[s], card, kind)  # type: ignore[arg-type]
        assert v.win, (s, kind, card, v)
        if card is not None:  # the winner takes the card
            self.hands[s][card] += 1
        self.phase, self.actor, self.window = "over", None, None
        self.result = {
            "result": "win",
            "winner": s,
            "kind": kind,
            "card": None if card is None else cards.code(card),
            "chan": v.chan,
            "hand": [cards.codes(g) for g in (v.groups or ())],
            # the winner opens the next hand, or under the dealing ritual draws its cái
            ("next_drawer" if cai.has_ritual(self.rules) else "next_opener"): s,
            "rules": list(v.rules) + [self.rules.rid("turn.reveal_rule"),
                                      self.rules.rid("turn.next_opener_rule")],
        }
        if self.faults:
            self.result["faults"] = [dict(f) for f in self.faults]
        if self.kept_chi[s]:
            self.result["kept_chi_wait"] = [self.rules.rid("payment.chi_rong_fine_rule")]
        if self._plan.declares:
            # xướng: the winner names their cước before the hand ends (see `_declare`)
            self.phase, self.actor = "declare", s
            return
        self._end_win()

    def _end_win(self) -> None:
        r = self.result
        assert r is not None
        self._event({"type": "end", "result": "win", "seat": r["winner"], "kind": r["kind"],
                     "card": r["card"], "hand": r["hand"]})

    # ------------------------------------------------------------------ declaring
    def truth(self) -> Judgement:
        """The cước the winner truly holds (phase declare or a declared win): read from
        the hand's history (`cuoc.won_hand`) and judged by `cuoc.judge`; thông comes
        from the deal (`Deal.thong`, which a session sets from the last hand)."""
        if self._truth is None:
            won = won_hand(self)
            _, j = declare_mod.hand_judgement(self.rules, won.hand, won.laid, won.ctx)
            assert j is not None, "a win the engine judged a win"
            self._truth = j
        return self._truth

    def _declarations(self) -> list[Action]:
        """`legal_actions` in phase declare: a representative set (`declare.representative`:
        the correct declaration, each single under- and over-declaration)."""
        s = self.actor
        assert s is not None
        return [Action("declare", s, None, d) for d in declare_mod.representative(
            self.truth(), declare_mod.cuoc_ids(self.rules))]

    def _declare(self, s: int, named: tuple[str, ...]) -> None:
        """Judge the winner's declaration, settle it, and end the hand."""
        judged = declare_mod.judge_declaration(self.rules, self.truth(), named)
        assert self.result is not None
        self.result["declaration"] = judged.as_json()
        self.phase, self.actor = "over", None
        self._event({"type": "declared", "seat": s, "judgement": judged.judgement,
                     "consequence": judged.consequence, "rules": list(judged.rules)})
        self._end_win()

    def _declare_reasons(self, a: Action, legal: bool) -> tuple[list[str], str, str]:
        """Why a decision in phase declare is allowed or not, with the rows that decide."""
        rid = self.rules.rid
        base = [rid("turn.declare_rule"), rid("declaration.rule")]
        if a.seat != self.actor:
            return (base, f"seat {self.actor} won and declares now",
                    f"người {self.actor} ù và đang xướng")
        if a.kind != "declare" or a.card is not None:
            return (base, "the winner declares their cước now (a declare action)",
                    "người ù phải xướng cước bây giờ")
        bad = declare_mod.check_named(self.rules, a.cuoc)
        if bad is not None:
            return (base, bad, "xướng phải gọi tên các cước của bảng, mỗi cước một lần, "
                    "theo thứ tự")
        judged = declare_mod.judge_declaration(self.rules, self.truth(), a.cuoc)
        vi, en = DECLARE_WORDS[judged.judgement]
        return (base + list(judged.rules), f"allowed: {en}", f"được phép: {vi}")

    # ------------------------------------------------------------------ identity
    def copy(self) -> State:
        c = State.__new__(State)
        c.rules, c.engine, c.n, c.deal = self.rules, self.engine, self.n, self.deal
        c.history = list(self.history)
        c.events = list(self.events)
        c.hands = [list(h) for h in self.hands]
        c.laid = [list(g) for g in self.laid]
        c.laid_chan = list(self.laid_chan)
        c.dead = [list(d) for d in self.dead]
        c.noc, c.noc_pos, c.opener = self.noc, self.noc_pos, self.opener
        c.phase, c.actor = self.phase, self.actor
        c.window = None if self.window is None else self.window.copy()
        c.interrupted = None if self.interrupted is None else self.interrupted.copy()
        c.marks = [list(m) for m in self.marks]
        c.discarded = [set(d) for d in self.discarded]
        c.result = None if self.result is None else dict(self.result)
        c.faults = list(self.faults)
        c._truth = self._truth
        c._plan = self._plan
        c.kept_chi = list(self.kept_chi)
        # the ban indexes are shared until one side changes a seat's marks (`_mark`,
        # `_discarded`): that side drops its index, rebuilt on next use
        c._bans = list(self._bans)
        c._bans_shared = [True] * self.n
        self._bans_shared = [True] * self.n
        return c

    def under(self, rules: Rules) -> State:
        """This position read under other rules (same table and players, other options):
        the same cards, bans and answers, with the legality of everything still to decide
        (the open claim window's claims included) worked out by `rules`.  For checkers
        that ask what another option value would allow here; the past is not replayed."""
        c = self.copy()
        c.rules, c.engine, c._plan = rules, engine(rules), _plan(rules)
        c._truth = None  # the cước held are judged under `rules`
        if c.window is not None:
            c.window.options = c._window_options(c.window)
        return c

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything that decides the future of the hand (not the dead cards' order nor
        the history): equal fingerprints have equal futures."""
        w = self.window
        wkey = None if w is None else (
            w.card, w.gate, w.source, w.turn, w.giver, w.second, w.reclaimer,
            tuple(sorted((s, a) for s, a in w.responses.items())))
        if w is not None and w.reclaimer is not None:  # the bans a reclaim would undo
            wkey += (frozenset((m.rule, m.ban, m.face) for m in self.marks[w.reclaimer]
                               if m.origin == w.reclaim_origin and m.ban != "win"),)
        ikey = None if self.interrupted is None else (
            self.interrupted.gate, self.interrupted.turn, self.interrupted.second)
        return (
            self.phase, self.actor, wkey, ikey, self.noc_pos,
            tuple(tuple(h) for h in self.hands),
            tuple(tuple(sorted(g.faces for g in gs)) for gs in self.laid),
            tuple(frozenset((m.rule, m.ban, m.face) for m in ms) for ms in self.marks),
            tuple(frozenset(d) for d in self.discarded),
            None if self.result is None else (self.result.get("winner"),
                                              self.result.get("kind"))
            + ((tuple(self.result["declaration"]["named"]),)
               if "declaration" in self.result else ()),
            tuple((f["seat"], tuple(f["rules"])) for f in self.faults),
        ) + ((tuple(self.kept_chi),) if self._plan.kept_wait else ())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.fingerprint())

    def to_json(self) -> dict[str, Any]:
        """Deal + options + actions: enough to rebuild the state exactly."""
        return {
            "ruleset": self.rules.table.id,
            "players": self.n,
            "options": dict(sorted(self.rules.options.items())),
            "deal": None if self.deal is None else self.deal.as_json(),
            "actions": [a.as_json() for a in self.history],
        }

    @staticmethod
    def replay(rules: Rules, deal: Deal, actions: Iterable[Action]) -> State:
        st = State(rules, deal)
        for a in actions:
            st.apply(a)
        return st

    @staticmethod
    def from_json(d: dict[str, Any], table: Any = None) -> State:
        from . import table as table_mod

        t = table or table_mod.load(d.get("ruleset", "family"))
        rules = t.resolve(int(d["players"]), d.get("options") or {})
        return State.replay(rules, Deal.from_json(d["deal"]),
                            (Action.from_json(a) for a in d.get("actions", [])))

    # ------------------------------------------------------------------ census
    def census(self) -> list[int]:
        """How many copies of each face are anywhere: hands, laid, gates, window, nọc."""
        c = [0] * cards.NUM_FACES
        for s in range(self.n):
            for f in range(cards.NUM_FACES):
                c[f] += self.hands[s][f]
            for g in self.laid[s]:
                for f in g.faces:
                    c[f] += 1
            for f in self.dead[s]:
                c[f] += 1
        for f in self.noc[self.noc_pos:]:
            c[f] += 1
        if self.window is not None:
            c[self.window.card] += 1
        return c

    # ------------------------------------------------------------------ GameState
    # What the generic checks read of a position (chanspec.model.kind.GameState), in
    # place of the fields above.

    def view(self) -> dict[str, Any]:
        """The position as plain JSON: phase, pending seats, every seat's concealed
        cards, laid groups and dead cards, the card in the window (None without one),
        the nọc left, every seat's bans as [row, ban, card or None], and whether the
        hand is over (ITF traces and the vectors' positions are written from it)."""
        w = self.window
        return {
            "phase": self.phase,
            "pending": list(self.pending()),
            "hands": [cards.codes(cards.expand(h)) for h in self.hands],
            "laid": [[cards.codes(g.faces) for g in gs] for gs in self.laid],
            "window": None if w is None else {"card": cards.code(w.card), "gate": w.gate,
                                              "source": w.source, "turn": w.turn},
            "noc_left": self.noc_left(),
            "dead": [cards.codes(d) for d in self.dead],
            "bans": [[[m.rule, m.ban, None if m.face is None else cards.code(m.face)]
                      for m in ms] for ms in self.marks],
            "terminal": self.is_terminal(),
        }

    def decision_point(self) -> tuple[str, str, str]:
        """What is pending, as (key, Vietnamese, English): ``chance``, ``opening``,
        ``discard``, ``return``, ``declare``, ``over``, or a claim window
        ``window-<source>`` (``window-draw-passed`` for a drawn card the drawer passed
        on).  When nobody may act, which deadlock it is (`STUCK_WORDS`): a discard or
        return due from an empty hand, every card banned (only under the ``as-written``
        value of the ``[turn] stuck_rule`` row), or another."""
        if self.phase == CHANCE:
            return ("chance", "chia bài", "the deal")
        if self.phase == "over":
            return ("over", "hết ván", "the hand is over")
        if not self.legal_actions():
            key = "stuck-other"
            if self.phase in ("opening", "discard", "return") and self.actor is not None:
                if not any(self.hands[self.actor]):
                    key = "stuck-empty-hand"
                elif self.rules.machine_value("turn.stuck_rule") == "as-written":
                    key = "stuck-all-banned"
            return (key, *STUCK_WORDS[key])
        if self.phase == "window":
            w = self.window
            assert w is not None
            if w.second:
                return ("window-draw-passed", "cửa trên quân bốc được chuyển cho người sau",
                        "a window on a drawn card passed on to the next seat")
            return (f"window-{w.source}", f"cửa trên {SOURCE_VI[w.source]}",
                    f"a window on a {SOURCE_EN[w.source]}")
        return (self.phase, *PHASE_WORDS[self.phase])

    def seat_order(self) -> list[int]:
        """The seats of the open claim window in the order equal claims go (the
        ``claims.tie_break_option`` row: the gate's owner first, or the seat after it)."""
        assert self.window is not None, "no claim window is open"
        return self._seat_order(self.window)

    def ask_order(self) -> list[tuple[int, list[Action]]]:
        """How an engine that asks one seat at a time settles this node: the questions,
        in order, as (seat, what it is offered).  Outside a claim window each pending
        seat with its legal actions.  In a window, the tiers of ``[claims] priority``
        and within a tier the seats in `seat_order`; a seat is asked about a tier only
        when it has a claim of that tier, and is offered those claims plus its ways of
        saying no (``pass``, and ``timeout`` where the table allows it)."""
        legal = {s: self.legal_actions(s) for s in self.pending()}
        if self.phase != "window" or self.window is None:
            return list(legal.items())
        nos = {s: [a for a in acts if a.kind not in CLAIM_KINDS] for s, acts in legal.items()}
        out = []
        for tier in self.rules.priority:
            for s in self._seat_order(self.window):
                claims = [a for a in legal.get(s, ()) if a.kind in tier]
                if claims:
                    out.append((s, claims + nos[s]))
        return out

    def progress(self) -> int:
        """Cards drawn from the nọc so far: it never decreases, and a cycle of moves
        that draws nothing is endless play (``[turn] exhausted_rule``)."""
        return self.noc_pos

    def invariants(self) -> list[tuple[str, str]]:
        """The Chắn invariants that fail here, as (check, detail); empty when all hold.

        * ``census``: each face of the deck is somewhere exactly ``copies`` times, as
          `census()` counts it (hands, laid groups, dead cards, the nọc, the window's
          card);
        * ``hand-size``: every seat holds the cards the table's variant row gives for the
          phase, and `expected_hand_size` agrees."""
        out: list[tuple[str, str]] = []
        rules = self.rules
        c = self.census()
        want = [rules.copies if f in rules.faces else 0 for f in range(cards.NUM_FACES)]
        if c != want:
            bad = [cards.name(f) for f in range(cards.NUM_FACES) if c[f] != want[f]]
            out.append(("census", f"faces not present exactly {rules.copies} times: {bad}"))
        v = rules.variant
        winner = (self.result or {}).get("winner")
        for s in range(self.n):
            if self.phase == "opening":
                size = v.opener_cards if s == self.opener else v.other_cards
            elif self.phase in ("discard", "return") and s == self.actor:
                size = v.other_cards + 1
            elif self.phase in ("over", "declare") and winner == s:
                size = 2 * v.pairs
            else:
                size = v.other_cards
            have = self.hand_size(s)
            if have != size or self.expected_hand_size(s) != size:
                out.append(("hand-size", f"seat {s} holds {have} cards in phase {self.phase}; "
                            f"the variant row {v.rule} says {size} "
                            f"(machine expects {self.expected_hand_size(s)})"))
                break
        return out

    def expected_hand_size(self, seat: int) -> int:
        v = self.rules.variant
        if self.phase == CHANCE:
            return 0
        if self.phase == "opening":
            return v.opener_cards if seat == self.opener else v.other_cards
        if self.phase in ("discard", "return") and seat == self.actor:
            return v.other_cards + 1
        if (self.phase in ("over", "declare") and self.result
                and self.result.get("winner") == seat):
            return self.hand_size(seat)  # the winner took the card
        return v.other_cards


def random_playout(state: State, rng: random.Random, max_steps: int = 10_000) -> State:
    """Play uniformly random legal actions until the hand ends or is stuck."""
    for _ in range(max_steps):
        if state.is_terminal():
            return state
        acts = state.legal_actions()
        if not acts:
            return state
        state.apply(rng.choice(acts), check=False)  # legal: just listed
    raise RuntimeError(f"no end after {max_steps} steps: {state.to_json()}")
