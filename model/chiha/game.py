"""The machine of a Chiha hand (bài Xệp, seed 004): the `GameState` of `chanspec.model.kind`.

One hand, from the deal to its end, every parameter and every open point read from the
table (`chanspec.model.chiha.table`): the cái holds one card more and opens with a
discard (row cai-discards); then each turn the next seat draws from the nọc (row draw).
A drawn card that fits the xệp (row xep) goes face down, by itself or at the drawer's
choice (row xep-optional), and what follows reads row after-xep.  Otherwise it is shown,
and the seats are asked one at a time, in the order row claim-priority gives, whether
they eat it: the drawer may (row drawer-may-eat), the seats the ``[[forced_claim]]``
entries name must, the others only as row force-others-optional allows.  A card eaten by
another seat is killed (row giet): that seat discards and play goes on from it.  A card
nobody eats is added by the drawer to their laid melds when a ``[[keo_them]]`` entry
applies (row keo-them; what follows reads row after-keo-them), and is otherwise passed
to the next seat, who may eat it or draw (row pass-on).  Discards are never eaten (row
discard-dead) and follow the ``[[discard_ban]]`` entries through the meld engine.  A
seat whose hand is empty as row empty-hand-meaning reads it, with lệnh at the threshold
of ``[win]`` (rows u-threshold, quan-threshold, quan-claim), wins; one with no legal
discard and too few lệnh busts (row bust, read by rows u-toi and bust-penalty).  The
hand also ends when the nọc runs low (``[end]``, rows end-noc, end-noc-moment,
end-noc-payment).

Every decision presents a single pending seat (the claims are asked one seat at a
time), so this kind has no simultaneous node.  `explain` judges an action on its own
path (`_judge`) from the rows, and the tests hold it equal to the fast `legal_actions`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chanspec.model.kind import PlainState

from .deck import Deck
from .melds import Laid, MeldEngine, NotAMeld, engine
from .table import KIND_NAME, ChihaRules, WinBar

KINDS = ("discard", "eat", "add", "pass", "draw", "xep", "show", "quan", "toi")
CARD_KINDS = frozenset({"discard", "eat"})  # actions naming cards (eat: the own cards shown)

DISCARD, CHOOSE, CLAIM, KEO, OFFER, QUAN, OVER = (
    "discard", "choose", "claim", "keo", "offer", "quan", "over")
PHASE_WORDS = {
    DISCARD: ("vứt một quân rác", "discard one trash card"),
    CHOOSE: ("xệp hay lật quân vừa bốc", "put the drawn card in the xệp or show it"),
    CLAIM: ("ăn hay không ăn quân vừa lật", "eat the shown card or not"),
    KEO: ("kéo thêm quân vừa bốc vào bài đã hạ", "add the drawn card to a laid meld"),
    OFFER: ("ăn quân được đưa qua hay bốc nọc", "eat the card passed on or draw"),
    QUAN: ("xin tới quan hay tới thường", "claim tới quan or a plain win"),
    OVER: ("ván đã xong", "the hand is over"),
}


class ActionError(ValueError):
    """An action the rules refuse here, or a deal that does not fit them (`vi`, `en`)."""

    def __init__(self, vi: str, en: str, rules: tuple[str, ...] = ()):
        self.vi, self.en, self.rules = vi, en, rules
        super().__init__(en)


class Action:
    """One decision of one seat: `kind` (one of `KINDS`), `seat`, `cards` (the own cards
    shown to eat, or the one discarded) and `index` (the laid meld an ``add`` extends;
    -1 otherwise).  `code()` is ``"1 eat tgd tgd"``, ``"0 discard mad"``, ``"2 add 0"``."""

    __slots__ = ("kind", "seat", "cards", "index", "_code", "_key")

    def __init__(self, kind: str, seat: int, cards: tuple[int, ...], index: int, code: str):
        self.kind, self.seat, self.cards, self.index, self._code = kind, seat, cards, index, code
        self._key = (KINDS.index(kind), seat, cards, index)

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
        if self.kind in CARD_KINDS:
            d["cards"] = self._code.split()[2:]
        if self.kind == "add":
            d["index"] = self.index
        return d

    @staticmethod
    def make(deck: Deck, kind: str, seat: int, cards: Sequence[int] = (),
             index: int = -1) -> Action:
        if kind not in KINDS:
            raise ActionError(f"không có loại nước {kind!r}", f"no action kind {kind!r}; "
                              f"kinds: {', '.join(KINDS)}")
        cs = tuple(sorted(cards))
        if kind == "discard" and len(cs) != 1:
            raise ActionError("nước vứt cần đúng một quân", "a discard names exactly one card")
        if kind not in CARD_KINDS and cs:
            raise ActionError(f"nước {kind!r} không có quân", f"action {kind!r} takes no card")
        if (kind == "add") != (index >= 0):
            raise ActionError("nước add cần số thứ tự của nhóm đã hạ",
                              "action 'add' needs the index of a laid meld (and only it does)")
        code = " ".join([str(seat), kind, *(deck.code(f) for f in cs)]
                        + ([str(index)] if kind == "add" else []))
        return Action(kind, seat, cs, index, code)

    @staticmethod
    def parse(text: str, deck: Deck) -> Action:
        """``"1 eat tgd tgd"``, ``"0 discard mad"``, ``"2 add 0"``, ``"1 pass"``."""
        parts = text.split()
        if len(parts) < 2 or not parts[0].isdigit():
            raise ActionError(f"{text!r} không phải một nước như '1 eat tgd tgd' hay '0 pass'",
                              f"{text!r} is not an action like '1 eat tgd tgd' or '0 pass'")
        kind = parts[1]
        if kind == "add":
            if len(parts) != 3 or not parts[2].isdigit():
                raise ActionError(f"{text!r}: add cần một số", f"{text!r}: add takes one index")
            return Action.make(deck, kind, int(parts[0]), (), int(parts[2]))
        return Action.make(deck, kind, int(parts[0]), [deck.parse(w) for w in parts[2:]])

    @staticmethod
    def from_json(d: dict[str, Any], deck: Deck) -> Action:
        return Action.make(deck, str(d["type"]), int(d["seat"]),
                           [deck.parse(str(w)) for w in d.get("cards", [])],
                           int(d.get("index", -1)))


@dataclass(frozen=True)
class Explanation:
    legal: bool
    rules: tuple[str, ...]
    en: str
    vi: str


@dataclass(frozen=True)
class Deal:
    """The chance of one hand: `order` is the shuffled deck as faces (each face as often
    as the deck has copies); the cái takes the first cards, then each seat in turn order
    its share, and the rest is the nọc, drawn from its front.  `cai` is the seat of the
    cái (row cai-who: chosen by chance for a first hand under either reading)."""

    order: tuple[int, ...]
    cai: int = 0

    def as_json(self) -> dict[str, Any]:
        return {"order": list(self.order), "cai": self.cai}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Deal:
        return Deal(tuple(int(x) for x in d["order"]), int(d.get("cai", 0)))

    def check(self, rules: ChihaRules) -> None:
        deck = rules.deck
        n = rules.players
        if not 0 <= self.cai < n:
            raise ActionError(f"bài chia: cái {self.cai} không phải một ghế 0..{n - 1}",
                              f"deal: cái {self.cai} is not a seat 0..{n - 1}")
        want = [deck.copies] * len(deck.faces)
        have = [0] * len(deck.faces)
        for f in self.order:
            if not 0 <= f < len(have):
                raise ActionError(f"bài chia: {f} không phải một mặt quân",
                                  f"deal: {f} is not a face of the deck")
            have[f] += 1
        if have != want:
            raise ActionError(f"bài chia không phải cả bộ {len(deck.faces)}×{deck.copies} quân",
                              f"deal: order is not the whole deck of {len(deck.faces)} faces "
                              f"× {deck.copies} (row deck-size)")
        v = rules.variant
        need = v.opener_cards + v.other_cards * (n - 1)
        if need > len(self.order):
            raise ActionError(
                f"bài chia: cần {need} quân để chia mà bộ chỉ có {len(self.order)} "
                f"(dòng {rules.table.copies_rule} = {rules.value(rules.table.copies_rule)})",
                f"deal: the deal needs {need} cards and the deck has {len(self.order)} (row "
                f"{rules.table.copies_rule} = {rules.value(rules.table.copies_rule)})")

    @staticmethod
    def build(rules: ChihaRules, hands: dict[int, Sequence[int]], noc: Sequence[int] = (),
              cai: int = 0) -> Deal:
        """A hand-made deal: the hands named (the cái's holds the opener's count, the
        others the others'), the nọc starting with `noc`; every other card fills the gaps
        in face order (for golden games)."""
        deck = rules.deck
        v = rules.variant
        left = [deck.copies] * len(deck.faces)
        for cards in (*hands.values(), noc):
            for f in cards:
                left[f] -= 1
        if min(left) < 0:
            raise ActionError("bài chia tay: quá số bản của một mặt quân",
                              "hand-made deal: more copies of a face than the deck has")
        # the filler deals the faces the caller named last, and spreads the others (one
        # copy of each face before a second), so that it makes few melds by itself
        named = {f for cards in (*hands.values(), noc) for f in cards}
        spare = [f for k in range(deck.copies) for f in deck.faces
                 if left[f] > k and f not in named]
        spare += [f for k in range(deck.copies) for f in sorted(named) if left[f] > k]
        spare.reverse()  # popped from the end: the spread faces first
        order: list[int] = []
        for i in range(rules.players):
            s = _seat_at(rules, cai, i)
            size = v.opener_cards if i == 0 else v.other_cards
            mine = list(hands.get(s, ()))
            if len(mine) > size:
                raise ActionError("bài chia tay: tay quá nhiều quân",
                                  f"hand-made deal: seat {s} is given more than {size} cards")
            while len(mine) < size:
                mine.append(spare.pop())
            order += mine
        order += list(noc) + spare[::-1]
        return Deal(tuple(order), cai)


def _seat_at(rules: ChihaRules, cai: int, i: int) -> int:
    step = -1 if rules.value("turn-direction") == "clockwise" else 1
    return (cai + step * i) % rules.players


def deal_random(rules: ChihaRules, seed: int) -> Deal:
    """The seeded chance of a hand (the same seed, the same deal)."""
    rng = random.Random(seed)
    deck = rules.deck
    order = [f for f in deck.faces for _ in range(deck.copies)]
    rng.shuffle(order)
    return Deal(tuple(order), rng.randrange(rules.players))


class _Plan:
    """What a State reads again and again, worked out once per rules."""

    def __init__(self, rules: ChihaRules):
        t = rules.table
        self.rules = rules
        self.deck = rules.deck
        self.n = rules.players
        self.eng: MeldEngine = engine(rules)
        if rules.value(rules.rid("win.count_rule")) == "player-chooses":
            raise ActionError(
                "dòng lenh-partition = player-chooses: máy chưa cho người chơi tự xếp bài",
                "row lenh-partition = player-chooses: the machine does not let players "
                "arrange their hands yet; choose another reading")
        self.step = -1 if rules.value("turn-direction") == "clockwise" else 1
        self.meld_faces = {m.faces for m in self.eng.melds}
        self.alone = rules.value("eat-single-tuong") == "alone"
        # per face: the own cards that make a meld with it (rest of each meld holding it)
        # with what each needs of a hand, as (face, count) pairs
        self.rests: list[list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]] = [
            [] for _ in self.deck.faces]
        for faces in sorted(self.meld_faces):
            for f in set(faces):
                rest = list(faces)
                rest.remove(f)
                r = tuple(rest)
                if (r or self.alone) and all(r != x for x, _ in self.rests[f]):
                    need = tuple((g, r.count(g)) for g in sorted(set(r)))
                    self.rests[f].append((r, need))
        self._acts: dict[tuple[str, int, tuple[int, ...], int], Action] = {}
        w = t.data["win"]
        self.bar = WinBar.of(rules)
        self.must_claim = rules.value(w["quan_claim_rule"]) == "must-claim"
        self.whole = rules.value(w["empty_rule"]) == "all-in-melds"
        self.win_rows = (w["rule"], w["threshold_rule"], w["empty_rule"], w["count_rule"])
        e = t.data["end"]
        self.noc_below = int(e["noc_below"])
        self.end_rule, self.end_pay_rule = e["rule"], e["payment_rule"]
        self.end_at_once = rules.value("end-noc-moment") == "after-draw"
        p = t.data["payment"]
        self.pay = p
        self.claims = list(t.data["forced_claim"])
        self.keos = list(t.data["keo_them"])
        self.xep_compulsory = rules.value("xep-optional") == "compulsory"
        self.after_xep = rules.value("after-xep")
        self.after_keo = rules.value("after-keo-them")
        self.priority = rules.value("claim-priority")
        self.others_any = rules.value("force-others-optional") == "any-meld"
        self.bust_ends = rules.value("u-toi") == "bust-ends"
        self.onto_down_stays = rules.value("eat-onto-face-down") == "stays-down"
        self.win_by_discard = rules.value("win-moment") == "after-discard"
        self.passed_under = rules.value("passed-card-declined") == "under-noc"

    def act(self, kind: str, seat: int, cards: tuple[int, ...] = (), index: int = -1) -> Action:
        """The action object, made once (`Action.make`)."""
        key = (kind, seat, cards, index)
        a = self._acts.get(key)
        if a is None:
            a = self._acts[key] = Action.make(self.deck, kind, seat, cards, index)
        return a

    def area(self, rule: str) -> bool:
        """Does the area row `rule` name take in shown melds too (else face-down only)?"""
        return self.rules.value(rule) == "all-laid"


_PLANS: dict[tuple[Any, ...], _Plan] = {}


def plan_of(rules: ChihaRules) -> _Plan:
    key = rules.key()
    if key not in _PLANS:
        _PLANS[key] = _Plan(rules)
    return _PLANS[key]


class State(PlainState):
    """One hand of Chiha in progress (see the module docstring)."""

    KIND_NAME = KIND_NAME
    COPY_LISTS = ("history", "events", "dead", "queue", "out", "tail")
    COPY_NESTED = ("hands", "laid")

    def __init__(self, rules: ChihaRules, deal: Deal):
        deal.check(rules)
        self.rules = rules
        self.deal = deal
        p = self.p = plan_of(rules)
        self.n = p.n
        nf = len(p.deck.faces)
        self.history: list[Action] = []
        self.events: list[dict[str, Any]] = []
        self.hands = [[0] * nf for _ in range(self.n)]
        self.laid: list[list[tuple[tuple[int, ...], bool]]] = [[] for _ in range(self.n)]
        self.dead: list[int] = []  # discards and cards passed by
        self.card = -1  # the drawn card in play (shown, or offered to the next seat)
        self.drawer = -1
        self.turn = deal.cai
        self.phase = DISCARD
        self.queue: list[int] = []  # CLAIM: the seats asked, the first being asked now
        self.out: list[int] = []  # busted seats (row u-toi = bust-plays-on)
        self.result: dict[str, Any] | None = None
        self.pending_win: tuple[int, int] | None = None  # QUAN: (seat, lệnh)
        v = rules.variant
        i = 0
        for k in range(self.n):
            s = _seat_at(rules, deal.cai, k)
            size = v.opener_cards if k == 0 else v.other_cards
            for f in deal.order[i:i + size]:
                self.hands[s][f] += 1
            i += size
        self.noc_at = i  # the nọc is deal.order[noc_at:]
        self.since_draw = 0  # moves since the last draw (`progress`)
        self.drawn = 0  # cards drawn (`progress`)
        self.tail: list[int] = []  # cards put back under the nọc (row passed-card-declined)
        self._cw: dict[tuple[int, int], bool] = {}  # `_can_win` of this position
        self.events.append({"type": "deal", "cai": deal.cai, "noc": len(deal.order) - i,
                            "rules": [v.rule, rules.rid("deck.rule"), "cai-who"]})
        self._enter_discard(deal.cai, "cai-discards")

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, rules: ChihaRules, seed: int | None = None, deal: Deal | None = None) -> State:
        return cls(rules, deal if deal is not None else deal_random(rules, seed or 0))

    @staticmethod
    def from_json(d: dict[str, Any], table: Any = None) -> State:
        from . import table as table_mod

        t = table or table_mod.load(str(d.get("ruleset", table_mod.BUILTIN)))
        rules = t.resolve(int(d["players"]), d.get("options") or {})
        return State.replay(rules, Deal.from_json(d["deal"]),
                            (Action.from_json(a, rules.deck) for a in d.get("actions", [])))

    def copy(self) -> State:
        c = super().copy()
        c._cw = {}  # `_can_win` of the copy's own position, filled on use
        return c

    def under(self, rules: ChihaRules) -> State:
        return State.replay(rules, self.deal, [Action.make(rules.deck, a.kind, a.seat,
                                                           a.cards, a.index)
                                               for a in self.history])

    # ------------------------------------------------------------------ helpers

    def _next(self, seat: int) -> int:
        s = seat
        for _ in range(self.n):
            s = (s + self.p.step) % self.n
            if s not in self.out:
                return s
        return seat

    def _round(self, seat: int) -> list[int]:
        """The seats in play round from `seat` (itself first)."""
        out = [seat]
        s = seat
        for _ in range(self.n - 1):
            s = (s + self.p.step) % self.n
            if s not in self.out:
                out.append(s)
        return out

    def _a(self, kind: str, seat: int, cards: Sequence[int] = (), index: int = -1) -> Action:
        return self.p.act(kind, seat, tuple(sorted(cards)), index)

    def _laid_objs(self, s: int) -> list[Laid]:
        return [Laid(f, d) for f, d in self.laid[s]]

    def lenh(self, s: int, whole: bool = False) -> int | None:
        """The lệnh of seat `s` as row lenh-partition reads them (None: its hand does not
        split wholly when `whole`)."""
        c = self.p.eng.player_lenh(self.hands[s], self._laid_objs(s), whole=whole)
        return None if c is None else c.lenh

    def _won(self, s: int) -> int | None:
        """The lệnh of seat `s` when its hand wins now (empty as row empty-hand-meaning
        reads it, at the threshold of row u-threshold); None otherwise."""
        p = self.p
        if not p.eng.is_empty(self.hands[s]):
            return None
        v = self.lenh(s, whole=p.whole)
        if v is None:
            return None
        return v if p.bar.wins(v) else None

    def _is_quan(self, lenh: int) -> bool:
        return self.p.bar.is_quan(lenh)

    def eats(self, s: int, c: int) -> list[Action]:
        """Every way seat `s` may eat card `c`: a new meld with own cards from the hand
        (row show-and-eat; alone, row eat-single-tuong) or onto a laid meld."""
        hand = self.hands[s]
        out = []
        act = self.p.act
        for rest, need in self.p.rests[c]:
            for f, k in need:
                if hand[f] < k:
                    break
            else:
                out.append(act("eat", s, rest))
        for i, (faces, _) in enumerate(self.laid[s]):
            if tuple(sorted(faces + (c,))) in self.p.meld_faces:
                out.append(self._a("add", s, (), i))
        return out

    def _apply_eat(self, a: Action, c: int) -> None:
        s = a.seat
        if a.kind == "eat":
            for f in a.cards:
                self.hands[s][f] -= 1
            self.laid[s].append((tuple(sorted(a.cards + (c,))), False))
        else:
            faces, down = self.laid[s][a.index]
            stays = down and self.p.onto_down_stays
            self.laid[s][a.index] = (tuple(sorted(faces + (c,))), stays)

    def _area_count(self, s: int, c: int, rule: str) -> int:
        shown_too = self.p.area(rule)
        return sum(faces.count(c) for faces, down in self.laid[s] if down or shown_too)

    def forced(self, s: int, c: int) -> list[str]:
        """The ``[[forced_claim]]`` rows that make seat `s` eat shown card `c`."""
        p = self.p
        deck = p.deck
        rows = []
        for fc in p.claims:
            w = fc["when"]
            if w == "same-face-in-hand":
                if self.hands[s][c] in fc["counts"]:
                    rows.append(fc["rule"])
            elif w == "same-face-in-area":
                if "ranks" in fc and deck.rank_id(c) not in fc["ranks"]:
                    continue
                if self._area_count(s, c, fc["area_rule"]) >= fc["count"]:
                    rows.append(fc["rule"])
            elif w == "can-win" and self._can_win(s, c):
                rows.append(fc["rule"])
        return rows

    def _can_win(self, s: int, c: int) -> bool:
        """Would seat `s` win with card `c` (row force-win): by an eat, then (row
        win-moment = after-discard) the discard that follows?  Cached until the next
        move (`apply` clears it)."""
        key = (s, c)
        hit = self._cw.get(key)
        if hit is not None:
            return hit
        won = False
        for a in self.eats(s, c):
            t = self.copy()
            t._apply_eat(a, c)
            if t._won_after(s):
                won = True
                break
        self._cw[key] = won
        return won

    def _won_after(self, s: int) -> bool:
        if not self.p.win_by_discard or not self.p.eng.discards(self.hands[s]):
            return self._won(s) is not None
        for f in self.p.eng.discards(self.hands[s]):
            self.hands[s][f] -= 1
            won = self._won(s) is not None
            self.hands[s][f] += 1
            if won:
                return True
        return False

    def keos(self, s: int, c: int) -> tuple[list[Action], list[str]]:
        """The kéo thêm moves of drawer `s` with card `c`, and the rows giving them."""
        p = self.p
        deck = p.deck
        acts: list[Action] = []
        rows: list[str] = []
        for k in p.keos:
            shown_too = p.area(k["area_rule"])
            found = []
            for i, (faces, down) in enumerate(self.laid[s]):
                if not (down or shown_too):
                    continue
                if k["when"] == "same-face-in-area":
                    if deck.rank_id(c) in k.get("ranks", [deck.rank_id(c)]) and c in faces \
                            and tuple(sorted(faces + (c,))) in p.meld_faces:
                        found.append(i)
                elif k["when"] == "completes-distinct-colours":
                    r = deck.rank_by_id(k["rank"])
                    if deck.rank_index(c) == r and len(faces) == k["from"] and all(
                            deck.rank_index(f) == r for f in faces) and c not in faces \
                            and len(set(faces)) == len(faces) \
                            and tuple(sorted(faces + (c,))) in p.meld_faces:
                        found.append(i)
            if found:
                rows.append(k["rule"])
                acts += [self._a("add", s, (), i) for i in found
                         if self._a("add", s, (), i) not in acts]
        return acts, rows

    # ------------------------------------------------------------------ the flow

    def _event(self, kind: str, **kw: Any) -> None:
        self.events.append({"type": kind, **kw})

    def _enter_discard(self, s: int, why: str) -> None:
        """Seat `s` is to discard: it may have won, or busted."""
        self.turn = s
        self.card = -1
        self.phase = DISCARD
        stuck = not self.p.eng.discards(self.hands[s])
        # row win-moment: a hand wins as soon as it counts as empty, or only by a discard
        # (and, with nothing left to discard, as it stands)
        if (stuck or not self.p.win_by_discard) and self._settle_win(s):
            return
        if stuck:
            self._bust(s)
            return
        self._event("to-discard", seat=s, rules=[why])

    def _settle_win(self, s: int) -> bool:
        v = self._won(s)
        if v is None:
            return False
        p = self.p
        if p.must_claim and self._is_quan(v):
            self.phase = QUAN
            self.turn = s
            self.pending_win = (s, v)
            return True
        self._finish_win(s, v, self._is_quan(v) and not p.must_claim)
        return True

    def _finish_win(self, s: int, lenh: int, quan: bool) -> None:
        p = self.p
        pay = p.pay
        per = pay["quan_per_lenh"] if quan else pay["per_lenh"]
        each = pay["base"] + per * lenh
        losers = [x for x in range(self.n) if x != s]
        rows = [*p.win_rows, "toi", pay["quan_rule"] if quan else pay["rule"]]
        if quan:
            rows += [p.rules.rid("win.quan_rule"), "phong-quan", p.rules.rid("win.quan_claim_rule")]
        self._event("win", seat=s, lenh=lenh, quan=quan, rules=rows)
        self._over({"result": "quan" if quan else "win", "winner": s, "lenh": lenh,
                    "losers": losers, "each": each, "busted": list(self.out),
                    "payments": self._net({x: -each for x in losers}, s, each * len(losers)),
                    "rules": rows})

    def _net(self, debits: dict[int, int], winner: int | None = None,
             credit: int = 0) -> list[int]:
        pays = [0] * self.n
        for s, v in debits.items():
            pays[s] += v
        if winner is not None:
            pays[winner] += credit
        for s, v in self.fines:
            pays[s] -= v * (self.n - 1)
            for o in range(self.n):
                if o != s:
                    pays[o] += v
        return pays

    @property
    def fines(self) -> list[tuple[int, int]]:
        p = self.p
        fine = p.pay["base"] if p.rules.value(p.pay["bust_rule"]) == "base-to-each" else 0
        return [(s, fine) for s in self.out] if fine else []

    def _bust(self, s: int) -> None:
        p = self.p
        rows = ["bust", p.pay["bust_rule"], "u-toi", p.rules.rid("win.empty_rule"),
                p.rules.rid("win.threshold_rule")]
        self.out.append(s)
        self._event("bust", seat=s, lenh=self.lenh(s), rules=rows)
        left = [x for x in range(self.n) if x not in self.out]
        if p.bust_ends or len(left) < 2:
            self._over({"result": "bust", "winner": None, "busted": list(self.out),
                        "payments": self._net({}), "rules": rows})
            return
        self._turn_to(self._next(s))

    def _over(self, result: dict[str, Any]) -> None:
        self.phase = OVER
        self.queue = []
        self.result = result

    def _turn_to(self, s: int) -> None:
        """Seat `s` draws from the nọc (row draw), unless the nọc is low (row end-noc)."""
        p = self.p
        left = self.noc_left()
        if left < p.noc_below or left == 0:
            self._end_noc()
            return
        if self.noc_at < len(self.deal.order):
            c = self.deal.order[self.noc_at]
            self.noc_at += 1
            self.since_draw = 0
        else:  # a card put back under the nọc (row passed-card-declined = under-noc)
            c = self.tail.pop(0)
        self.drawn += 1
        self.drawer = self.turn = s
        self.card = c
        self._event("draw", seat=s, card=p.deck.code(c), rules=["draw"])
        if p.end_at_once and self.noc_left() < p.noc_below:
            self.dead.append(c)
            self.card = -1
            self._end_noc()
            return
        if self._xep_rows(s, c):
            if p.xep_compulsory:
                self._xep(s, c)
            else:
                self.phase = CHOOSE
            return
        self._show(s, c)

    def _end_noc(self) -> None:
        p = self.p
        rows = [p.end_rule, "end-noc-moment", p.end_pay_rule]
        self._event("end-noc", noc=self.noc_left(), rules=rows)
        self._over({"result": p.rules.value(p.end_pay_rule), "winner": None,
                    "busted": list(self.out), "payments": self._net({}), "rules": rows})

    def noc_left(self) -> int:
        return len(self.deal.order) - self.noc_at + len(self.tail)

    def _decline(self, c: int) -> None:
        """A passed card nobody took (row passed-card-declined): out of play, or under
        the nọc."""
        if self.p.passed_under:
            self.tail.append(c)
        else:
            self.dead.append(c)
        self.card = -1

    def _xep_rows(self, s: int, c: int) -> list[str]:
        """Row xep when seat `s` may put `c` face down: 2 or 3 alike in hand, or 3 alike
        face down."""
        if self.hands[s][c] in (2, 3):
            return ["xep"]
        if any(down and faces.count(c) == 3 and len(faces) == 3 for faces, down in self.laid[s]):
            return ["xep"]
        return []

    def _xep(self, s: int, c: int) -> None:
        k = self.hands[s][c]
        if k in (2, 3):
            self.hands[s][c] = 0
            self.laid[s].append(((c,) * (k + 1), True))
        else:
            i = next(i for i, (f, d) in enumerate(self.laid[s])
                     if d and f.count(c) == 3 and len(f) == 3)
            self.laid[s][i] = ((c,) * 4, True)
        self.card = -1
        self._event("xep", seat=s, rules=["xep", "xep-optional", "face-down"])
        if self.p.after_xep == "discard":
            self._enter_discard(s, "after-xep")
        elif self.p.after_xep == "draw-again":
            self._turn_to(s)
        else:
            self._turn_to(self._next(s))

    def _show(self, s: int, c: int) -> None:
        self._event("show", seat=s, card=self.p.deck.code(c), rules=["show-and-eat"])
        self.phase = CLAIM
        self.queue = self._claim_queue(s, c)
        self._ask_next()

    def _claim_queue(self, d: int, c: int) -> list[int]:
        order = self._round(d)
        eats = {s: bool(self.eats(s, c)) for s in order}
        forced: dict[int, list[str]] = {}

        def must_eat(s: int) -> list[str]:
            if s not in forced:
                forced[s] = self.forced(s, c)
            return forced[s]

        may = [s for s in order if eats[s] and (s == d or self.p.others_any or must_eat(s))]
        for s in order:  # a forced claim no eat can honour: told, never asked (a finding)
            if not eats[s]:
                rows = must_eat(s)
                if rows:
                    self._event("forced-impossible", seat=s, card=self.p.deck.code(c),
                                rules=["forced-claims", *rows])
        pr = self.p.priority
        if pr == "order-only":
            return may
        head: list[int] = []
        if pr == "win-then-drawer-then-order":
            head = [s for s in may if self._can_win(s, c)]
        must = [s for s in may if s != d and must_eat(s)]
        q = head + [d] * (d in may) + must + may  # those who must before those who may
        return list(dict.fromkeys(q))

    def _ask_next(self) -> None:
        """The next seat of the queue is asked; with none left, kéo thêm or pass-on."""
        if self.queue:
            return
        d, c = self.drawer, self.card
        acts, _ = self.keos(d, c)
        if acts:
            self.phase = KEO
            self.turn = d
            return
        self._pass_on()

    def _pass_on(self) -> None:
        t = self._next(self.drawer)
        c = self.card
        self._event("pass-on", seat=t, card=self.p.deck.code(c), rules=["pass-on"])
        # under passed-card-declined = under-noc the offer is always asked, even with
        # nothing to eat: the card can come round again, and a hand where nobody ever
        # eats goes on for ever, a cycle of moves (`progress`) rather than a silent loop
        if t != self.drawer and (self.p.passed_under or self.eats(t, c)):
            self.phase = OFFER
            self.turn = t
            return
        self._decline(c)
        self._turn_to(t)

    # ------------------------------------------------------------------ the protocol

    def pending(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        if self.phase == CLAIM:
            return (self.queue[0],)
        if self.phase == QUAN:
            assert self.pending_win is not None
            return (self.pending_win[0],)
        return (self.turn,)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        pend = self.pending()
        if not pend or (seat is not None and seat not in pend):
            return []
        s = pend[0]
        ph = self.phase
        c = self.card
        if ph == DISCARD:
            return [self._a("discard", s, (f,)) for f in self.p.eng.discards(self.hands[s])]
        if ph == CHOOSE:
            return [self._a("xep", s), self._a("show", s)]
        if ph == CLAIM:
            acts = self.eats(s, c)
            return acts if self.forced(s, c) else acts + [self._a("pass", s)]
        if ph == KEO:
            return self.keos(s, c)[0]
        if ph == OFFER:
            return self.eats(s, c) + [self._a("draw", s)]
        return [self._a("quan", s), self._a("toi", s)]

    def candidate_actions(self, seat: int) -> list[Action]:
        """The legal actions and some refused ones: every card of the hand as a discard,
        every pair of its cards as an eat, and the plain answers."""
        out = list(self.legal_actions(seat))
        held = [f for f in self.p.deck.faces if self.hands[seat][f]]
        out += [self._a("discard", seat, (f,)) for f in held]
        out += [self._a(k, seat) for k in ("pass", "draw", "xep", "show", "quan", "toi")]
        out += [self._a("eat", seat, (f,)) for f in held[:6]]
        out += [self._a("add", seat, (), i) for i in range(len(self.laid[seat]) + 1)]
        return list(dict.fromkeys(out))

    def apply(self, action: Action, *, check: bool = True) -> None:
        if check:
            legal, rules, vi, en = self._judge(action)
            if not legal:
                raise ActionError(vi, en, tuple(rules))
        s = action.seat
        k = action.kind
        self.history.append(action)
        self.since_draw += 1
        self._cw = {}
        ph = self.phase
        if ph == DISCARD:
            f = action.cards[0]
            self.hands[s][f] -= 1
            self.dead.append(f)
            self._event("discard", seat=s, card=self.p.deck.code(f), rules=["discard-dead"])
            if self._settle_win(s):
                return
            self._turn_to(self._next(s))
        elif ph == CHOOSE:
            if k == "xep":
                self._xep(s, self.card)
            else:
                self._show(s, self.card)
        elif ph == CLAIM:
            if k == "pass":
                self.queue.pop(0)
                self._ask_next()
                return
            self.queue = []
            self._apply_eat(action, self.card)
            self.card = -1
            if s != self.drawer:
                self._event("giet", seat=s, drawer=self.drawer, rules=["giet"])
            self._enter_discard(s, "discard-after-eat")
        elif ph == KEO:
            self._apply_eat(action, self.card)
            self.card = -1
            self._event("keo", seat=s, rules=["keo-them"])
            if self.p.after_keo == "discard":
                self._enter_discard(s, "after-keo-them")
            elif self.p.win_by_discard or not self._settle_win(s):
                self._turn_to(s)
        elif ph == OFFER:
            if k == "draw":
                self._decline(self.card)
                self._turn_to(s)
                return
            self._apply_eat(action, self.card)
            self.card = -1
            self._enter_discard(s, "discard-after-eat")
        elif ph == QUAN:
            assert self.pending_win is not None
            w, v = self.pending_win
            self.pending_win = None
            self._finish_win(w, v, k == "quan")

    def is_chance(self) -> bool:
        return False

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_stuck(self) -> bool:
        return self.phase != OVER and not self.legal_actions()

    def outcome(self) -> dict[str, Any] | None:
        return None if self.result is None else dict(self.result)

    def fingerprint(self) -> tuple[Any, ...]:
        return (self.phase, tuple(tuple(h) for h in self.hands),
                tuple(tuple(sorted(x)) for x in self.laid), self.noc_at, self.card,
                self.drawer, self.turn, tuple(self.queue), tuple(self.out), self.pending_win,
                tuple(sorted(self.dead)), tuple(self.tail))

    def progress(self) -> int:
        """Cards drawn from the dealt nọc, then the moves since (at most a choice, one
        answer per seat, an eat or kéo, a discard and a claim of tới quan: n + 4, the
        count capped there).  Cards drawn again from under the nọc (row
        passed-card-declined = under-noc) make no progress: a hand that only goes round
        them is endless play."""
        return (self.n + 5) * self.noc_at + min(self.since_draw, self.n + 4)

    def census(self) -> list[int]:
        count = [0] * len(self.p.deck.faces)
        for h in self.hands:
            for f, k in enumerate(h):
                count[f] += k
        for x in self.laid:
            for faces, _ in x:
                for f in faces:
                    count[f] += 1
        for f in (*self.dead, *self.deal.order[self.noc_at:], *self.tail):
            count[f] += 1
        if self.card >= 0:
            count[self.card] += 1
        return count

    def invariants(self) -> list[tuple[str, str]]:
        p = self.p
        bad: list[tuple[str, str]] = []
        cen = self.census()
        if any(x != p.deck.copies for x in cen):
            wrong = [f"{p.deck.code(f)}×{x}" for f, x in enumerate(cen) if x != p.deck.copies]
            bad.append(("census", f"every face {p.deck.copies} times: {', '.join(wrong[:6])}"))
        for s in range(self.n):
            if min(self.hands[s]) < 0:
                bad.append(("hand", f"seat {s} holds a negative count"))
            for faces, down in self.laid[s]:
                if faces not in p.meld_faces:
                    bad.append(("meld", f"seat {s} lays {faces}, no meld"))
                if down and len(set(faces)) != 1:
                    bad.append(("xep", f"seat {s} has a face-down group of several faces"))
        if self.phase in (CLAIM, KEO, OFFER, CHOOSE) and self.card < 0:
            bad.append(("card", f"phase {self.phase} with no card in play"))
        if self.phase == DISCARD and self.card >= 0:
            bad.append(("card", "a card in play at a discard"))
        if self.phase != OVER and self.turn in self.out:
            bad.append(("out", f"busted seat {self.turn} has the turn"))
        return bad

    def decision_point(self) -> tuple[str, str, str]:
        if self.is_stuck():
            return ("stuck", "không ai đi được", "nobody can move")
        vi, en = PHASE_WORDS[self.phase]
        return (self.phase, vi, en)

    def ask_order(self) -> list[tuple[int, list[Action]]]:
        return [(s, self.legal_actions(s)) for s in self.pending()]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The position as `seat` may know it (None: what everyone may know): the hands
        only as sizes, face-down groups only as sizes (row face-down) except the seat's
        own, shown melds, the dead cards, the card in play."""
        d = self.p.deck
        v: dict[str, Any] = {
            "kind": "chiha", "phase": self.phase, "pending": list(self.pending()),
            "turn": self.turn, "drawer": self.drawer,
            # the drawn card while the drawer may still xệp it is the drawer's alone
            "card": d.code(self.card) if self.card >= 0 and (
                self.phase != CHOOSE or seat == self.drawer) else None,
            "noc": self.noc_left(),
            "dead": [d.code(f) for f in self.dead],
            "hand_sizes": [sum(h) for h in self.hands],
            "laid": [[[d.code(f) for f in faces] if not down or s == seat
                      else {"face_down": len(faces)} for faces, down in self.laid[s]]
                     for s in range(self.n)],
            "out": list(self.out),
        }
        if seat is not None:
            v["seat"] = seat
            v["hand"] = [d.code(f) for f in d.faces for _ in range(self.hands[seat][f])]
        if self.result is not None:
            v["result"] = self.result["result"]
        return v

    # ------------------------------------------------------------------ explain

    def explain(self, action: Action) -> Explanation:
        """Legal or not, the rows deciding it, in Vietnamese and English."""
        legal, rules, vi, en = self._judge(action)
        return Explanation(legal, tuple(dict.fromkeys(rules)), en, vi)

    def _judge(self, a: Action) -> tuple[bool, list[str], str, str]:
        """`a` judged from the rows, apart from `legal_actions`."""
        d = self.p.deck
        s, k = a.seat, a.kind
        if self.phase == OVER:
            return (False, [self.p.end_rule], "ván đã xong", "the hand is over")
        who = self.pending()[0]
        if s != who:
            return (False, ["play-on"], f"chưa đến lượt ghế {s}: đang chờ ghế {who}",
                    f"not seat {s}'s turn: seat {who} is to answer")
        ph = self.phase
        ok_kinds = {DISCARD: ("discard",), CHOOSE: ("xep", "show"), CLAIM: ("eat", "add", "pass"),
                    KEO: ("add",), OFFER: ("eat", "add", "draw"), QUAN: ("quan", "toi")}[ph]
        if k not in ok_kinds:
            vi, en = PHASE_WORDS[ph]
            why = {DISCARD: "discard-after-eat", CHOOSE: "xep-optional", CLAIM: "forced-claims",
                   KEO: "keo-them", OFFER: "pass-on", QUAN: "quan-claim"}[ph]
            return (False, [why], f"bây giờ ghế {s} phải {vi}", f"seat {s} must now {en}")
        if ph == DISCARD:
            f = a.cards[0]
            if not self.hands[s][f]:
                return (False, ["discard-after-eat"], f"ghế {s} không có {d.name(f)}",
                        f"seat {s} holds no {d.name(f, 'en')}")
            bans = self.p.eng.discard_bans(self.hands[s])[f]
            if bans:
                return (False, list(bans), f"không được vứt {d.name(f)}",
                        f"the {d.name(f, 'en')} may not be discarded")
            return (True, ["discard-after-eat", "discard-dead", "discard-break-melds",
                           "win-moment"],
                    f"ghế {s} vứt {d.name(f)}", f"seat {s} discards the {d.name(f, 'en')}")
        if ph == CHOOSE:
            return (True, ["xep", "xep-optional"], f"ghế {s} chọn {k}", f"seat {s} chooses {k}")
        if ph == QUAN:
            return (True, ["phong-quan", "quan-claim"], f"ghế {s} chọn {k}",
                    f"seat {s} chooses {k}")
        c = self.card
        if k == "pass":
            forced = self.forced(s, c)
            if forced and self.eats(s, c):
                return (False, ["forced-claims", *forced], f"ghế {s} bắt buộc phải ăn {d.name(c)}",
                        f"seat {s} must eat the {d.name(c, 'en')}")
            return (True, ["drawer-may-eat" if s == self.drawer else "force-others-optional"],
                    f"ghế {s} không ăn", f"seat {s} does not eat")
        if k == "draw":
            return (True, ["pass-on", "draw", "passed-card-declined"], f"ghế {s} bốc nọc",
                    f"seat {s} draws")
        # an eat: with own cards, or onto a laid meld
        if k == "add":
            if a.index >= len(self.laid[s]):
                return (False, ["show-and-eat"], f"ghế {s} không có nhóm số {a.index}",
                        f"seat {s} has no laid meld {a.index}")
            faces = self.laid[s][a.index][0]
            if tuple(sorted(faces + (c,))) not in self.p.meld_faces:
                return (False, ["goal", *self.p.eng.rule_ids],
                        "nhóm ấy thêm quân này không thành nhóm hợp lệ",
                        "that laid meld and this card make no meld")
            if ph == KEO:
                acts, rows = self.keos(s, c)
                if a not in acts:
                    return (False, ["keo-them", *[x["rule"] for x in self.p.keos]],
                            "không kéo thêm vào nhóm ấy được", "no kéo thêm onto that meld")
                return (True, ["keo-them", *rows, "xep-area"], f"ghế {s} kéo thêm {d.name(c)}",
                        f"seat {s} adds the {d.name(c, 'en')} (kéo thêm)")
        else:
            if not a.cards and not self.p.alone:
                return (False, ["eat-single-tuong", "show-and-eat"],
                        "ăn phải lật ít nhất một quân của mình", "an eat shows an own card")
            for f in set(a.cards):
                if self.hands[s][f] < a.cards.count(f):
                    return (False, ["show-and-eat"], f"ghế {s} không đủ {d.name(f)}",
                            f"seat {s} does not hold enough {d.name(f, 'en')}")
            try:
                m = self.p.eng.meld_of(a.cards + (c,))
            except NotAMeld:
                return (False, ["goal", *self.p.eng.rule_ids],
                        "các quân ấy với quân này không thành nhóm hợp lệ",
                        "those cards and this one make no meld")
            if len(a.cards) > 3:
                return (False, ["show-and-eat"], "chỉ lật một đến ba quân",
                        "one to three own cards")
            del m
        if ph == OFFER:
            return (True, ["pass-on", "show-and-eat", "discard-after-eat"],
                    f"ghế {s} ăn quân được đưa qua", f"seat {s} eats the card passed on")
        # CLAIM: asked in the order of row claim-priority
        forced = self.forced(s, c)
        if s == self.drawer:
            rows = ["drawer-may-eat", "show-and-eat", "claim-priority", *forced]
        else:
            if not forced and not self.p.others_any:
                return (False, ["force-others-optional"], "ghế khác chỉ ăn khi bị buộc",
                        "another seat eats only when forced")
            rows = ["giet", "claim-priority", "force-others-optional", "forced-claims", *forced]
        return (True, rows, f"ghế {s} ăn {d.name(c)}", f"seat {s} eats the {d.name(c, 'en')}")
