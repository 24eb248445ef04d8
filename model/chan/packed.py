"""The hand of `model/chan/game.py` as packed bytes, for exploring millions of positions.

`State` (model/chan/game.py) is the reference: readable, explained rule by rule, with a full
history.  A model checker needs the opposite trade: a position as small as possible,
hashable as it stands, and successors computed without copying lists, dicts and event
logs.  `Packed` is that second implementation of the same machine, for one resolved rule
set and a list of deals.  A position is an immutable ``bytes`` of fixed length:

=========  ======================================================================
offset     contents
=========  ======================================================================
0          phase: 0 opening, 1 window, 2 discard, 3 return, 4 over
1          actor (255: none)
2          nọc position
3, 4       deal number (high, low byte) -- one search may hold many deals
5 .. 11    the window: card, gate, source (0 draw, 1 discard, 2 return), turn,
           giver, passed-on (0/1), reclaimer (255: none)
12 .. 14   the interrupted window of an out-of-turn chíu: gate, turn, passed-on
15, 16     result: winner (255: none), kind (1 ù, 2 chíu-ù, 3 opening ù, 4 drawn)
DEAD       dead cards, count per face (their gates never matter again)
TMP        31 bytes: the bans created by the pass a reclaimer may still undo (empty
           unless the open window has a reclaimer)
SEATS      one block of 93 bytes per seat (`SEAT`), laid out so that the cards the seat
           holds (laid + concealed) and what decides its claims (concealed + bans +
           chắn) are each one slice:
           +0   laid-down count of each of the 30 faces
           +30  concealed count of each face
           +60  bans, 31 bytes: for each face (and a last byte for "any face") the
                bans the seat's past created, one bit per kind (`BAN_BITS`: 128 marks
                a face of a cạ the seat ate, under discard-ca-eaten), and bit 64: the
                seat has discarded that face
           +91  chắn laid down (a chíu counts 2)
           +92  every ban bit its ban row holds (derived: for sampling by kind)
           +93  only when ``[win] laid_rule`` is pooled: 4 bytes, a bit per face laid
                down as a chíu (the only laid cards not split again for a win)
OPTF       per seat, while a window is open: what its claims were (`option_flags`) --
           derived, kept so settling the window needs no second look
RESP       per seat: 0 not asked, 1 awaited, else its answer (2 pass, 3 ù, 4 chíu-ù,
           5 chíu, 32 + face eat, 64 + face reclaim)
=========  ======================================================================

What is deliberately left out, because it never changes what may happen next: the
history, the event log, the order of dead cards and at which gate they lie, how laid-down
cards are grouped (only their counts and the chắn they make), and which rule row created
a ban (only what it bans).  Everything the table decides is read from the same resolved
`Rules` and the same derived `_plan` as the reference; nothing here states a house rule.

`encode(state)` packs a reference `State`; `legal(p)` and `step(p, action)` are the
machine.  tests/test_packed.py checks, over every reachable position of small
configurations under every option value, that ``legal(encode(s)) == s.legal_actions()``
and ``step(encode(s), a) == encode(s.child(a))`` -- the reference is the oracle.  The
explorer (checks/explore/search.py, ``engine="packed"``) replays a sample of the positions it
reaches through the reference and compares again, in every run.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import cards
from .game import Action, ActionError, Deal, State, _plan, check_deal
from .table import Rules
from .vocab import SCOPED_BANS, TRIGGERS
from .win import engine

F = cards.NUM_FACES
ANY = F  # the "any face" slot of a ban row
NONE = 255

PHASES = ("opening", "window", "discard", "return", "over")
P_OPENING, P_WINDOW, P_DISCARD, P_RETURN, P_OVER = range(5)
SOURCES = ("draw", "discard", "return")
S_DRAW, S_DISCARD, S_RETURN = range(3)
RESULT_KINDS = {"u": 1, "chiu-u": 2, "opening": 3, "draw": 4}
RESULT_NAMES = {v: k for k, v in RESULT_KINDS.items()}

BAN_BITS = {"discard": 1, "eat-chan": 2, "eat-ca": 4, "chiu": 8, "win": 16,
            "discard-ca-pair": 32, "discard-ca-eaten": 128}
B_DISCARD, B_EAT_CHAN, B_EAT_CA, B_CHIU, B_WIN, B_DCP = (1, 2, 4, 8, 16, 32)
B_DCE = 128  # on a face: it was in a cạ the seat ate (discard-ca-eaten)
DISCARDED = 64

NO_ACTIONS: list[Action] = []  # shared; never changed
CLOSED = bytes((NONE, NONE, NONE, NONE, NONE, 0, NONE))  # window bytes WC..WR, no window

R_ASKED, R_PASS, R_U, R_CHIU_U, R_CHIU = 1, 2, 3, 4, 5
R_EAT, R_RECLAIM = 32, 64
WINS = (R_U, R_CHIU_U)

# header offsets
PH, AC, NP, DH, DL = 0, 1, 2, 3, 4
WC, WG, WS, WT, WV, W2, WR = 5, 6, 7, 8, 9, 10, 11
IG, IT, I2 = 12, 13, 14
RW, RK = 15, 16
HEADER = 17
# a seat's block
S_LAID, S_HAND, S_BANS, S_CHAN, S_BSUM = 0, 30, 60, 91, 92
SEAT = 93
CLAIM_VIEW = S_BSUM - S_HAND  # concealed + bans + chắn: what a seat's claims depend on
# [win] laid_rule pooled: the faces laid as chíu (a bit each) after the seat's block, and
# a seat's claims then depend on its whole block (laid cards included)
S_CHIUS, CHIU_BYTES = SEAT, 4


OPT_BITS = {"u": 1 | 8, "chiu-u": 1 | 16, "chiu": 32, "reclaim": 64}
# ù, chíu-ù, chíu in the order the reference lists them, each with a bit of its own
WIN_OR_CHIU = (("u", 8), ("chiu-u", 16), ("chiu", 32))


def option_flags(opts: Sequence[Action], card: int) -> int:
    """OPTF bits of a seat's claims: 1 a win (8 ù, 16 chíu-ù), 2 eating a chắn, 4 eating
    a cạ, 32 chíu, 64 reclaiming."""
    f = 0
    for a in opts:
        k = a.kind
        if k == "eat":
            f |= 2 if a.card == card else 4
        else:
            f |= OPT_BITS[k]
    return f


def claim_code(s: int, x: int, src: int, second: int, in_turn: bool, rc: bool) -> int:
    """Index of a claim key's first bytes in `Packed._prefix` (x < 32, src < 8: the source,
    plus 4 when the window's card is the nọc's last under empty-noc-draw=noc-empty)."""
    return ((((s << 5 | x) << 3 | src) << 1 | second) << 1 | in_turn) << 1 | rc


def claim_kind(code: int) -> int:
    """The claim an answer code makes (its card left out)."""
    if code >= R_RECLAIM:
        return R_RECLAIM
    if code >= R_EAT:
        return R_EAT
    return code


def unsupported(rules: Rules) -> str | None:
    """Why the packed machine cannot play these rules (None when it can): it encodes the
    family's restriction vocabulary in a fixed set of ban bits and refuses what is outside
    it, so that a checker falls back to the reference machine instead of a wrong answer."""
    plan = _plan(rules)
    if not plan.enforce:
        return ("restriction-mode=penalise (acts that break a rule are made and recorded as "
                "faults; the packed positions hold no faults)")
    if plan.when:
        return "restrictions on the hand at the moment of an eat ([[restriction]] when)"
    extra = set(plan.by_trigger) - set(PACKED_TRIGGERS)
    if extra:
        return f"the restriction triggers {', '.join(sorted(extra))}"
    bans = {b for rows in plan.by_trigger.values() for _r, bs, _reach, _v in rows for b in bs}
    if bans - set(BAN_BITS):
        return f"the bans {', '.join(sorted(bans - set(BAN_BITS)))}"
    if any(r.scope == "any" for r in rules.restrictions):
        return "restrictions of scope any"
    if rules.opening_min_chan != rules.min_chan:
        return "a win on the dealt hand with fewer chắn than any other win"
    if plan.declares:
        return "a declaration phase after a win ([turn] declare_rule: xướng)"
    if plan.bao or plan.by_rule:
        return ("a seat that is báo after a fault ([turn] fault_play_rule, "
                "fault_class_rule)")
    return None


# the triggers the packed machine records (the family's vocabulary)
PACKED_TRIGGERS = ("pass-could-chan", "pass-could-ca", "discard", "eat-ca", "decline-u",
                   "decline-opening")


class Packed:
    """The machine on packed positions, for one resolved rule set and a list of deals."""

    def __init__(self, rules: Rules, deals: Sequence[Deal]):
        why = unsupported(rules)
        if why is not None:
            raise ValueError(f"the packed machine does not play table {rules.table.id!r}: "
                             f"{why}; use the reference machine (--engine reference)")
        if len(deals) > 65535:
            raise ValueError("one packed search holds at most 65,535 deals")
        self.rules = rules
        self.deals = tuple(deals)
        for d in self.deals:
            check_deal(rules, d)
        self.nocs = tuple(d.noc for d in self.deals)
        self.openers = tuple(d.opener for d in self.deals)
        n = self.n = rules.players
        self.plan = p = _plan(rules)
        self.is_win = engine(rules).is_win
        # [win] laid_rule pooled: laid chắn and cạ are split again with the concealed
        # cards for a win (the slower path: a pool built per check, wider claim keys)
        self.pooled = engine(rules).pooled
        self.seat_size = SEAT + CHIU_BYTES if self.pooled else SEAT
        self.faces = rules.faces
        self.copies = rules.copies
        # offsets of the areas (see the module's table)
        self.DEAD = HEADER
        self.TMP = self.DEAD + F
        self.SEATS = self.TMP + F + 1
        self.OPTF = self.SEATS + n * self.seat_size
        self.RESP = self.OPTF + n  # last: a window's positions share all bytes before
        self.size = self.RESP + n
        self.no_window = bytes(2 * n)  # OPTF and RESP of a closed window
        base = [self.SEATS + s * self.seat_size for s in range(n)]
        self.laid_at = tuple(b + S_LAID for b in base)
        self.hand_at = tuple(b + S_HAND for b in base)
        self.bans_at = tuple(b + S_BANS for b in base)
        self.chan_at = tuple(b + S_CHAN for b in base)
        self.bsum_at = tuple(b + S_BSUM for b in base)
        # what a seat's claims depend on (claims_of): from its concealed counts to its
        # laid chắn as laid; pooled, its whole block
        self.view_at = tuple(b + S_LAID for b in base) if self.pooled else self.hand_at
        self.view_len = self.seat_size if self.pooled else CLAIM_VIEW
        self.seat_hand = tuple((s, self.hand_at[s], self.view_at[s],
                                self.view_at[s] + self.view_len) for s in range(n))
        # the first bytes of a claim key, by claim_code (built once: keys are hot)
        self._prefix = [bytes((s, x, src, second, in_turn, rc))
                        for s in range(n) for x in range(32) for src in range(8)
                        for second in (0, 1) for in_turn in (0, 1) for rc in (0, 1)]
        # a seat's claims on a window, by what decides them (see claims_of)
        self._opts: dict[bytes, tuple[list[Action], int]] = {}
        # by a seat's view: for each source, the faces it could claim out of turn
        self._oot: dict[bytes, tuple[int, int, int]] = {}
        self.cache_max = 200_000
        self._sizes: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
        # what the table decides, read once (the same plan the reference reads)
        ok = p.claim_ok
        self.claim_ok = {s: (ok[(s, "u")], ok[(s, "chiu-u")], ok[(s, "chiu")], ok[(s, "eat")])
                         for s in SOURCES}
        self.tier = {R_U: p.tier["u"], R_CHIU_U: p.tier["chiu-u"], R_CHIU: p.tier["chiu"],
                     R_EAT: p.tier["eat"], R_RECLAIM: p.tier["reclaim"]}
        # the bans each trigger creates: (bits on the face, bits on "any face" other than
        # a declined win, the declined-win bit, bits also on the partner of an eaten cạ)
        self.trig: dict[str, tuple[int, int, int, int]] = dict.fromkeys(TRIGGERS, (0, 0, 0, 0))
        # and, for a restriction whose scope is wider than its face: by triggering face,
        # the other faces reached with the bits on each (empty under scope "face")
        self.trig_wide: dict[str, dict[int, tuple[tuple[int, int], ...]]] = {
            t: {} for t in TRIGGERS}
        for trig, rows in p.by_trigger.items():
            face_bits = any_bits = pair_bits = 0
            wide: dict[int, dict[int, int]] = {}
            for _rule, bans, reach, _via in rows:
                for ban in bans:
                    if ban in ("win", "discard-ca-pair"):
                        any_bits |= BAN_BITS[ban]
                    else:
                        face_bits |= BAN_BITS[ban]
                        if ban == "discard-ca-eaten":
                            pair_bits |= BAN_BITS[ban]
                    if reach is not None and ban in SCOPED_BANS:
                        for x, others in reach.items():
                            for f in others:
                                row = wide.setdefault(x, {})
                                row[f] = row.get(f, 0) | BAN_BITS[ban]
            self.trig[trig] = (face_bits, any_bits & ~B_WIN, any_bits & B_WIN, pair_bits)
            self.trig_wide[trig] = {x: tuple(sorted(row.items())) for x, row in wide.items()}
        self.u_ok = tuple(self.claim_ok[src][0] for src in SOURCES)
        self.eat_cands = {x: tuple(p.eat_cands[x]) for x in rules.faces}
        self.ca_partners = {x: tuple(sorted(p.ca_partners[x])) for x in rules.faces}
        self.odd_group = tuple(sorted(rules.odd_group))
        v = rules.variant
        self.opener_cards, self.other_cards = v.opener_cards, v.other_cards
        self.act: dict[str, list[Action]] = p.act
        self.card_act = p.card_act

    # ------------------------------------------------------------------ packing
    def initial(self, index: int) -> bytes:
        """The position right after deal number `index` (the opener to act)."""
        return self.encode(State(self.rules, self.deals[index]), index)

    def encode(self, st: State, index: int = 0) -> bytes:
        """Pack a reference position (dealt from deal number `index`)."""
        if st.phase == "chance":
            raise ActionError("a position before the deal has nothing to pack")
        n, m = self.n, bytearray(self.size)
        m[PH] = PHASES.index(st.phase)
        m[AC] = NONE if st.actor is None else st.actor
        m[NP] = st.noc_pos
        m[DH], m[DL] = divmod(index, 256)
        w = st.window
        for o in (WC, WG, WS, WT, WV, W2, WR, IG, IT, I2, RW):
            m[o] = NONE
        m[W2] = m[I2] = m[RK] = 0
        if w is not None:
            m[WC], m[WG], m[WS], m[WT] = w.card, w.gate, SOURCES.index(w.source), w.turn
            m[WV] = NONE if w.giver is None else w.giver
            m[W2] = int(w.second)
            m[WR] = NONE if w.reclaimer is None else w.reclaimer
            for s, opts in w.options.items():
                a = w.responses.get(s)
                m[self.RESP + s] = R_ASKED if a is None else self.answer_code(a)
                m[self.OPTF + s] = option_flags(opts, w.card)
        if st.interrupted is not None:
            i = st.interrupted
            m[IG], m[IT], m[I2] = i.gate, i.turn, int(i.second)
        if st.result is not None:
            win = st.result.get("winner")
            m[RW] = NONE if win is None else win
            m[RK] = RESULT_KINDS["draw" if win is None else st.result["kind"]]
        for s in range(n):
            m[self.chan_at[s]] = st.laid_chan[s]
            h, lo = self.hand_at[s], self.laid_at[s]
            for f in range(F):
                m[h + f] = st.hands[s][f]
            for g in st.laid[s]:
                for f in g.faces:
                    m[lo + f] += 1
                if self.pooled and g.kind == "chiu":
                    self._mark_chiu(m, lo, g.faces[0])
            for f in st.dead[s]:
                m[self.DEAD + f] += 1
            b = self.bans_at[s]
            undo = (w.reclaim_origin if w is not None and w.reclaimer == s else None)
            for mk in st.marks[s]:
                bit = BAN_BITS[mk.ban]
                slot = ANY if mk.face is None else mk.face
                if mk.origin == undo and mk.ban != "win":
                    m[self.TMP + slot] |= bit
                else:
                    m[b + slot] |= bit
            for f in st.discarded[s]:
                m[b + f] |= DISCARDED
            for x in m[b:b + F + 1]:
                m[self.bsum_at[s]] |= x
        return bytes(m)

    @staticmethod
    def answer_code(a: Action) -> int:
        k = a.kind
        if k == "pass":
            return R_PASS
        if k == "u":
            return R_U
        if k == "chiu-u":
            return R_CHIU_U
        if k == "chiu":
            return R_CHIU
        if k == "eat":
            return R_EAT + a.card  # type: ignore[operator]
        if k == "reclaim":
            return R_RECLAIM + a.card  # type: ignore[operator]
        raise ActionError(f"{a.code()} is not an answer to a claim window")

    def answer_action(self, s: int, code: int) -> Action:
        if code == R_PASS:
            return self.act["pass"][s]
        if code == R_U:
            return self.act["u"][s]
        if code == R_CHIU_U:
            return self.act["chiu-u"][s]
        if code == R_CHIU:
            return self.act["chiu"][s]
        if code >= R_RECLAIM:
            return self.card_act["reclaim"][s][code - R_RECLAIM]
        return self.card_act["eat"][s][code - R_EAT]

    # ------------------------------------------------------------------ queries
    def deal_index(self, p: bytes) -> int:
        return p[DH] * 256 + p[DL]

    def phase(self, p: bytes) -> str:
        return PHASES[p[PH]]

    def is_terminal(self, p: bytes) -> bool:
        return p[PH] == P_OVER

    def noc_pos(self, p: bytes) -> int:
        return p[NP]

    def outcome(self, p: bytes) -> tuple[str, int | None] | None:
        """("u" | "chiu-u" | "opening" | "draw", winner), once the hand is over."""
        if p[PH] != P_OVER:
            return None
        return RESULT_NAMES[p[RK]], (None if p[RW] == NONE else p[RW])

    def pending(self, p: bytes) -> tuple[int, ...]:
        ph = p[PH]
        if ph == P_WINDOW:
            r = self.RESP
            return tuple(s for s in range(self.n) if p[r + s] == R_ASKED)
        if ph == P_OVER:
            return ()
        return (p[AC],)

    def hand(self, p: bytes, s: int) -> bytes:
        o = self.hand_at[s]
        return p[o:o + F]

    def census(self, p: bytes) -> list[int]:
        """Copies of each face anywhere: hands, laid, dead, nọc, window."""
        c = list(p[self.DEAD:self.DEAD + F])
        for s in range(self.n):
            for o in (self.hand_at[s], self.laid_at[s]):
                for f in self.faces:
                    c[f] += p[o + f]
        for f in self.nocs[self.deal_index(p)][p[NP]:]:
            c[f] += 1
        if p[PH] == P_WINDOW:
            c[p[WC]] += 1
        return c

    def hand_size(self, p: bytes, s: int) -> int:
        h, lo = self.hand_at[s], self.laid_at[s]
        return sum(p[h:h + F]) + sum(p[lo:lo + F])

    def expected_hand_size(self, p: bytes, s: int) -> int:
        size = self.expected_sizes(p)[s]
        return self.hand_size(p, s) if size < 0 else size

    def expected_sizes(self, p: bytes) -> tuple[int, ...]:
        """Every seat's expected hand size (-1 for a winner, who took the card), by
        (phase, actor, opener, winner): remembered, the search asks it of every state."""
        ph, actor, winner = p[PH], p[AC], p[RW]
        opener = self.openers[p[DH] * 256 + p[DL]]
        key = (ph, actor, opener, winner)
        out = self._sizes.get(key)
        if out is None:
            out = self._sizes[key] = tuple(
                self.opener_cards if ph == P_OPENING and s == opener
                else self.other_cards + 1 if ph in (P_DISCARD, P_RETURN) and s == actor
                else -1 if ph == P_OVER and s == winner
                else self.other_cards
                for s in range(self.n))
        return out

    # ------------------------------------------------------------------ legality
    def _discardable(self, p: bytes | bytearray, s: int) -> list[int]:
        h = self.hand_at[s]
        b = self.bans_at[s]
        held = [f for f in self.faces if p[h + f]]
        if p[PH] == P_RETURN and self.plan.return_free:
            return held  # giving a card back is not a discard (return-is-discard)
        if not p[self.bsum_at[s]] & (B_DCP | B_DCE):
            ok = [f for f in held if not p[b + f] & B_DISCARD]
        else:
            ok = self._allowed_discards(p[h:h + F], p[b:b + F + 1])
        if ok or self.plan.stuck_as_written:
            return ok
        return held

    def _allowed_discards(self, hand: bytes | bytearray, row: bytes | bytearray) -> list[int]:
        """The faces held (`hand`) that the ban row `row` leaves free to discard."""
        pair_ban = row[ANY] & B_DCP
        ca = self.ca_partners
        out = []
        for f in self.faces:
            if not hand[f]:
                continue
            b = row[f]
            if b & B_DISCARD:
                continue
            if pair_ban and any(row[e] & DISCARDED for e in ca[f]):
                continue
            if b & B_DCE and any(row[e] & B_DCE and row[e] & DISCARDED for e in ca[f]):
                continue
            out.append(f)
        return out

    def _strands(self, hand: bytes | bytearray, row: bytes | bytearray, y: int, used: int,
                 x_ca: int | None, returning: bool = False, could_chan: bool = False) -> bool:
        """`State._strands` on a seat's concealed counts and ban row."""
        h = bytearray(hand)
        h[y] -= used
        if not any(h):
            return True
        if returning and self.plan.return_free:
            return False
        r = bytearray(row)
        if x_ca is not None:
            fb, ab, _win, pb = self.trig["eat-ca"]
            r[x_ca] |= fb
            r[ANY] |= ab
            r[y] |= pb
            for f, bits in self.trig_wide["eat-ca"].get(x_ca, ()):
                r[f] |= bits
            if could_chan and self.plan.ca_over_chan:
                fb, ab, _win, _pb = self.trig["pass-could-chan"]
                r[x_ca] |= fb
                r[ANY] |= ab
                for f, bits in self.trig_wide["pass-could-chan"].get(x_ca, ()):
                    r[f] |= bits
        return not self._allowed_discards(h, r)

    def _final(self, p: bytes | bytearray) -> bool:
        """`State._final`: the open window's card is the nọc's last under noc-empty."""
        return self.plan.end_when_empty and p[NP] >= len(self.nocs[p[DH] * 256 + p[DL]])

    def _passes_on(self, p: bytes | bytearray) -> bool:
        """`State._passes_on` of the open window."""
        return not p[W2] and (p[WG] == p[WT] or (p[WS] == S_RETURN and self.plan.return_on))

    def _eat_partners(self, p: bytes | bytearray, s: int, x: int,
                      undo: bool = False) -> list[int]:
        """Faces y the seat may eat x with (``undo``: the reclaimer, whose bans from the
        pass being undone do not count)."""
        h = self.hand_at[s]
        hand = p[h:h + F]
        plan = self.plan
        if plan.keep_one and sum(hand) <= 1:
            return []
        b = self.bans_at[s]
        bx, ba = p[b + x], p[b + ANY]
        if not undo and p[WR] == s:
            bx |= p[self.TMP + x]
            ba |= p[self.TMP + ANY]
        strand = plan.forbid_stranding
        row = p[b:b + F + 1]
        chan = bool(hand[x]) and not (bx | ba) & B_EAT_CHAN and not (
            strand and self._strands(hand, row, x, 1, None))
        out = []
        ca_ok: bool | None = None
        for y in self.eat_cands[x]:
            if not hand[y]:
                continue
            if y == x:
                if chan:
                    out.append(y)
            else:
                if ca_ok is None:
                    ca_ok = not (bx | ba) & B_EAT_CA
                if (ca_ok and not self._splits_ca(p, s, hand, y)
                        and (plan.split_chan_ok or hand[y] % 2)
                        and not (strand and self._strands(hand, row, y, 1, x,
                                                          could_chan=chan and not undo))):
                    out.append(y)
        return out

    def _splits_ca(self, p: bytes | bytearray, s: int, hand: bytes, y: int) -> bool:
        if hand[y] % 2 == 0 or not any(hand[z] % 2 for z in self.ca_partners[y]):
            return False
        if self.plan.split_after_ca:
            lo = self.laid_at[s]
            if sum(p[lo:lo + F]) <= 2 * p[self.chan_at[s]]:
                return False  # no cạ laid down: this seat has eaten none
        g = self.odd_group
        return not (y in g and sum(hand[f] for f in g) % 2 == 1)

    def seat_options(self, p: bytes | bytearray, s: int) -> list[Action]:
        """Every claim seat `s` may make on the window's card (pass is implicit);
        `_window_options` of the reference for one seat."""
        x, src = p[WC], p[WS]
        if s == p[WV]:
            return []
        second = p[W2] == 1
        turn, reclaimer = p[WT], p[WR]
        in_turn = s == turn
        if second and not in_turn and s != reclaimer:
            return []
        if s == reclaimer:
            mine = self.card_act["reclaim"][s]
            return [mine[y] for y in self._eat_partners(p, s, x, undo=True)]
        u_ok, chiu_u_ok, chiu_ok, eat_ok = self.claim_ok[SOURCES[src]]
        final = self._final(p)
        u_ok = u_ok and not second
        chiu_u_ok = chiu_u_ok and not second
        chiu_ok = chiu_ok and not final
        eat_ok = eat_ok and not final
        h = self.hand_at[s]
        hx = p[h + x]
        if not in_turn and not u_ok and hx < 3:
            return []
        b = self.bans_at[s]
        pool = None
        if self.pooled:
            lo = self.laid_at[s]
            pool = self._pool(p[lo:lo + self.seat_size])
        won = self._win_or_chiu(p[h:h + F], p[b:b + F + 1], p[self.chan_at[s]], x,
                                u_ok, chiu_u_ok, chiu_ok and (not second or in_turn),
                                0 if in_turn else 1, pool)
        acts = [self.act[k][s] for k, bit in WIN_OR_CHIU if won & bit]
        may_eat = eat_ok and not (src == S_DRAW and not second and self.plan.next_only)
        if may_eat and in_turn:
            mine = self.card_act["eat"][s]
            acts.extend(mine[y] for y in self._eat_partners(p, s, x))
        return acts

    def _win_or_chiu(self, hand: bytes | bytearray, row: bytes | bytearray, chan: int,
                     x: int, u_ok: bool, chiu_u_ok: bool, chiu_ok: bool,
                     follows: int = -1, pool: tuple[list[int], int] | None = None) -> int:
        """Which of ù, chíu-ù and chíu (`OPT_BITS`) a seat with these concealed cards,
        ban row and laid chắn may claim on x, when the window allows them.  `follows`:
        what a chíu leads to, 0 a discard, 1 a return (-1: not known; then a chíu that
        would strand the seat under forbid-claim is still counted, an over-estimate).
        `pool`: under ``[win] laid_rule`` pooled, the counts the win check splits and
        the chắn laid outside them (`_pool`); None as laid."""
        hx = hand[x]
        bits = row[x] | row[ANY]
        chiu_free = hx >= 3 and not bits & B_CHIU
        out = 0
        if (u_ok or (chiu_u_ok and hx >= 3)) and not row[ANY] & B_WIN:
            if pool is None:
                wh, wc = hand, chan
            else:
                wh, wc = pool
            if u_ok and self.is_win(wh, wc, x, "u"):
                out |= OPT_BITS["u"]
            # chíu-ù: three *concealed* copies (chiu_free), then the pooled counts
            if chiu_u_ok and chiu_free and self.is_win(wh, wc, x, "chiu-u"):
                out |= OPT_BITS["chiu-u"]
        if chiu_ok and chiu_free and not (self.plan.keep_one and sum(hand) <= 3) and not (
                follows >= 0 and self.plan.forbid_stranding
                and self._strands(hand, row, x, 3, None, returning=bool(follows))):
            out |= OPT_BITS["chiu"]
        return out

    def claims_of(self, p: bytes | bytearray, s: int) -> list[Action]:
        """Seat `s`'s claims on the open window (`seat_options`).  They depend only on
        the seat's own hand, laid chắn and bans (pooled: its whole block, laid cards
        included) and on the window, so they are remembered by those bytes (`_opts`,
        cleared past `cache_max` entries)."""
        x, turn, reclaimer = p[WC], p[WT], p[WR]
        in_turn = s == turn
        h = self.hand_at[s]
        if s == p[WV] or (s != reclaimer and not in_turn and (
                p[W2] or (not self.u_ok[p[WS]] and p[h + x] < 3))):
            return NO_ACTIONS
        src = p[WS] | (4 if self._final(p) else 0)
        v = self.view_at[s]
        key = self._prefix[claim_code(s, x, src, p[W2], in_turn, s == reclaimer)
                           ] + p[v:v + self.view_len]
        e = self._opts.get(key)
        return (e or self._remember(key, p, s))[0]

    def _remember(self, key: bytes, p: bytes | bytearray, s: int) -> tuple[list[Action], int]:
        if len(self._opts) >= self.cache_max:
            self._opts.clear()
        o = self.seat_options(p, s)
        e = self._opts[key] = (o, option_flags(o, p[WC]))
        return e

    def _out_of_turn_masks(self, view: bytes) -> tuple[int, int, int]:
        """For a seat's view (concealed counts, ban row, laid chắn; pooled, its whole
        block) and each source (draw, discard, return): the faces x it could claim out
        of its turn on a card not passed on -- ù, chíu-ù or chíu, exactly as
        `seat_options` decides them."""
        if len(self._oot) >= self.cache_max:
            self._oot.clear()
        pool = None
        if self.pooled:
            pool = self._pool(view)
            view = view[S_HAND:S_BSUM]
        hand, row, chan = view[:F], view[F:F + F + 1], view[CLAIM_VIEW - 1]
        held = hand if pool is None else pool[0]  # pooled: laid copies are held too
        out = []
        for src in SOURCES:
            u_ok, chiu_u_ok, chiu_ok, _ = self.claim_ok[src]
            mask = 0
            for x in self.faces:
                # (no copy of x is left to appear when the seat holds them all)
                if held[x] < self.copies and self._win_or_chiu(hand, row, chan, x, u_ok,
                                                               chiu_u_ok, chiu_ok, pool=pool):
                    mask |= 1 << x
            out.append(mask)
        masks = self._oot[view] = (out[0], out[1], out[2])
        return masks

    def legal(self, p: bytes, seat: int | None = None) -> list[Action]:
        """`State.legal_actions()` of the position, in the same order."""
        ph = p[PH]
        if ph == P_OVER:
            return []
        acts: list[Action] = []
        pend: Sequence[int]
        if ph == P_WINDOW:
            pend = self.pending(p)
            for s in pend:
                if seat is not None and s != seat:
                    continue
                acts.extend(self.claims_of(p, s))
                acts.append(self.act["pass"][s])
        else:
            s = p[AC]
            pend = (s,)
            if seat is not None and seat != s:
                return []
            if ph == P_OPENING:
                if self._can_win_opening(p, s):
                    acts.append(self.act["u"][s])
                mine = self.card_act["discard"][s]
            else:
                mine = self.card_act["discard" if ph == P_DISCARD else "return"][s]
            acts.extend(mine[f] for f in self._discardable(p, s))
        if self.plan.auto_timeout:
            for s in pend:
                if (seat is None or s == seat) and (ph == P_WINDOW
                                                    or self._discardable(p, s)):
                    acts.append(self.act["timeout"][s])
        return acts

    def _can_win_opening(self, p: bytes | bytearray, s: int) -> bool:
        b = self.bans_at[s]
        if p[b + ANY] & B_WIN:
            return False
        if self.pooled:
            lo = self.laid_at[s]
            return self.is_win(*self._pool(p[lo:lo + self.seat_size]), None, "opening")
        h = self.hand_at[s]
        return self.is_win(p[h:h + F], p[self.chan_at[s]], None, "opening")

    def _pool(self, block: bytes | bytearray) -> tuple[list[int], int]:
        """Under ``[win] laid_rule`` pooled, for a seat's block (from its laid counts):
        (its concealed cards with the cards of its laid chắn and cạ, the chắn of its
        laid chíu), what `WinJudge.win_counts` gives for the reference's groups."""
        pool = [block[S_LAID + f] + block[S_HAND + f] for f in range(F)]
        mask = int.from_bytes(block[S_CHIUS:S_CHIUS + CHIU_BYTES], "little")
        chan = 0
        while mask:
            low = mask & -mask
            pool[low.bit_length() - 1] -= 4  # a chíu: four cards, two chắn, never split
            chan += 2
            mask ^= low
        return pool, chan

    @staticmethod
    def _mark_chiu(m: bytearray, lo: int, face: int) -> None:
        """Pooled: mark `face` as laid down as a chíu in the seat block at `lo`."""
        at = lo + S_CHIUS + face // 8
        m[at] |= 1 << face % 8

    # ------------------------------------------------------------------ transitions
    def step(self, p: bytes, a: Action) -> bytes:
        """The position after a legal action (``State.child``; the caller guarantees
        legality, as the explorer does by taking actions from `legal`)."""
        m = bytearray(p)
        k, s = a.kind, a.seat
        ph = m[PH]
        if k == "timeout":
            if ph == P_WINDOW:
                k = "pass"
            else:
                k = "return" if ph == P_RETURN else "discard"
                a = self.card_act[k][s][self._discardable(m, s)[0]]
        if ph == P_OPENING:
            if k == "u":
                self._win(m, s, "opening", None)
            else:
                if self._can_win_opening(m, s):
                    self._trigger(m, s, "decline-opening", None)
                self._discard(m, s, a.card)  # type: ignore[arg-type]
        elif ph == P_DISCARD:
            self._discard(m, s, a.card)  # type: ignore[arg-type]
        elif ph == P_RETURN:
            self._return(m, s, a.card)  # type: ignore[arg-type]
        else:
            r = self.RESP
            m[r + s] = R_PASS if k == "pass" else self.answer_code(a)
            if R_ASKED not in m[r:]:
                self._resolve(m)
        return bytes(m)

    def _trigger(self, m: bytearray, s: int, trigger: str, face: int | None,
                 tmp: bool = False, partner: int | None = None) -> None:
        """Record the bans a trigger creates; with `tmp`, the ones a reclaim may undo go
        to TMP (a declined win is never undone); `partner`: the card an eaten cạ was
        made with, which bans on eaten faces also mark."""
        fb, ab, win, pb = self.trig[trigger]
        b = self.bans_at[s]
        if win:
            m[b + ANY] |= B_WIN
        m[self.bsum_at[s]] |= win | (0 if tmp else fb | ab)
        to = self.TMP if tmp else b
        if ab:
            m[to + ANY] |= ab
        if fb:
            m[to + (ANY if face is None else face)] |= fb
        if pb and partner is not None:
            m[to + partner] |= pb
        if face is not None:  # the faces the restriction's scope reaches (none: "face")
            for f, bits in self.trig_wide[trigger].get(face, ()):
                m[to + f] |= bits  # `fb` already holds these kinds of bit (sum above)

    def _discard(self, m: bytearray, s: int, f: int) -> None:
        m[self.hand_at[s] + f] -= 1
        self._trigger(m, s, "discard", f)
        m[self.bans_at[s] + f] |= DISCARDED
        m[self.bsum_at[s]] |= DISCARDED
        self._open(m, f, s, S_DISCARD, (s + 1) % self.n, s, 0, NONE)

    def _return(self, m: bytearray, s: int, f: int) -> None:
        m[self.hand_at[s] + f] -= 1
        if not self.plan.return_free:  # return-is-discard=a-discard
            self._trigger(m, s, "discard", f)
            m[self.bans_at[s] + f] |= DISCARDED
            m[self.bsum_at[s]] |= DISCARDED
        gate, turn, second = m[IG], m[IT], m[I2]
        m[IG] = m[IT] = NONE
        m[I2] = 0
        self._open(m, f, gate, S_RETURN, turn, s, second, NONE)

    def _open(self, m: bytearray, card: int, gate: int, src: int, turn: int, giver: int,
              second: int, reclaimer: int) -> None:
        m[PH], m[AC] = P_WINDOW, NONE
        m[WC:WR + 1] = bytes((card, gate, src, turn, giver, second, reclaimer))
        r, fl = self.RESP, self.OPTF
        asked = False
        # claims_of for every seat, inlined: this is the machine's hottest loop
        u_ok = self.u_ok[src] and not second
        memo = self._opts
        prefix = self._prefix
        oot = self._oot
        srck = src | (4 if self._final(m) else 0)  # the claim key's source byte
        for s, h, v0, v1 in self.seat_hand:
            in_turn = s == turn
            if s == giver or (s != reclaimer and not in_turn and (
                    second or (not u_ok and m[h + card] < 3))):
                m[r + s] = m[fl + s] = 0
                continue
            if not in_turn and s != reclaimer:
                # out of turn a seat can only win or chíu: most cannot, and that is
                # known from its view alone (one lookup, no key to build)
                view = bytes(m[v0:v1])
                masks = oot.get(view) or self._out_of_turn_masks(view)
                if not masks[src] >> card & 1:
                    m[r + s] = m[fl + s] = 0
                    continue
            key = prefix[((((s << 5 | card) << 3 | srck) << 1 | second) << 1 | in_turn) << 1
                         | (s == reclaimer)] + m[v0:v1]
            e = memo.get(key) or self._remember(key, m, s)
            if e[0]:
                m[r + s] = R_ASKED
                m[fl + s] = e[1]
                asked = True
            else:
                m[r + s] = m[fl + s] = 0
        if not asked:
            self._let_go(m)

    def _close_window(self, m: bytearray) -> None:
        """The window is settled: clear it (reclaimable bans become ordinary ones)."""
        t = self.TMP
        m[self.OPTF:] = self.no_window
        rc = m[WR]
        if rc != NONE:
            b = self.bans_at[rc]
            for f in range(F + 1):
                if m[t + f]:
                    m[b + f] |= m[t + f]
                    m[self.bsum_at[rc]] |= m[t + f]
                    m[t + f] = 0
        m[WC:WR + 1] = CLOSED

    def _resolve(self, m: bytearray) -> None:
        r, n = self.RESP, self.n
        x, turn = m[WC], m[WT]
        answers = m[r:]
        if not any(answers):
            self._let_go(m)
            return
        # declining: anyone who could win on this card and did not claim the win
        fl = self.OPTF
        pass_only = self.plan.decline_pass_only
        for s, f in enumerate(m[fl:r]):
            if f & 1 and answers[s] not in WINS and (not pass_only or answers[s] == R_PASS):
                self._trigger(m, s, "decline-u", None)
        claims = [s for s, c in enumerate(answers) if c > R_PASS]
        best = -1
        if len(claims) == 1:
            best = claims[0]
        elif claims:
            tier = self.tier
            start = m[WG] if self.plan.owner_first else (m[WG] + 1) % n
            best = min(claims, key=lambda s: (tier[claim_kind(m[r + s])], (s - start) % n))
        # passing a card one could eat creates bans for the seat whose turn it was
        took = best == turn
        plan = self.plan
        own_draw = m[WS] == S_DRAW and m[WG] == turn and not m[W2]
        if m[r + turn] == R_PASS and not took and (plan.own_draw_bans or not own_draw):
            could = m[fl + turn]
            # when the card is then passed on with a reclaim allowed, these bans are the
            # ones a reclaim undoes
            tmp = (plan.reclaim and best < 0 and self._passes_on(m)
                   and not self._final(m))
            if could & 2:
                self._trigger(m, turn, "pass-could-chan", x, tmp)
            if could & 4:
                self._trigger(m, turn, "pass-could-ca", x, tmp)
        if took and plan.ca_over_chan and m[fl + turn] & 2:
            code = m[r + turn]
            if R_EAT <= code < R_RECLAIM and code - R_EAT != x:
                self._trigger(m, turn, "pass-could-chan", x)  # ca-over-chan=counts-as-pass
        if best < 0:
            self._let_go(m)
            return
        code = m[r + best]
        s = best
        if code in WINS:
            self._win(m, s, "u" if code == R_U else "chiu-u", x)
            return
        ho = self.hand_at[s]
        lo = self.laid_at[s]
        if code == R_CHIU:
            m[ho + x] -= 3
            m[lo + x] += 4
            m[self.chan_at[s]] += 2
            if self.pooled:
                self._mark_chiu(m, lo, x)
            gate, second = m[WG], m[W2]
            self._close_window(m)
            if s == turn:
                m[PH], m[AC] = P_DISCARD, s
            else:
                m[IG], m[IT], m[I2] = gate, turn, second
                m[PH], m[AC] = P_RETURN, s
            return
        # eat or reclaim
        if code >= R_RECLAIM:
            y = code - R_RECLAIM
            t = self.TMP
            m[t:t + F + 1] = bytes(F + 1)  # the pass's bans are undone
        else:
            y = code - R_EAT
        m[ho + y] -= 1
        m[lo + x] += 1
        m[lo + y] += 1
        if y == x:
            m[self.chan_at[s]] += 1
        self._close_window(m)
        if y != x:
            self._trigger(m, s, "eat-ca", x, partner=y)
        m[PH], m[AC] = P_DISCARD, s

    def _let_go(self, m: bytearray) -> None:
        card, gate, turn = m[WC], m[WG], m[WT]
        if not self._final(m) and self._passes_on(m):
            src, giver = m[WS], m[WV]
            # the TMP bans (if any) stay: the passed-on window may undo them
            self._open(m, card, gate, src, (turn + 1) % self.n, giver, 1,
                       turn if self.plan.reclaim else NONE)
            return
        self._close_window(m)
        m[self.DEAD + card] += 1
        self._draw(m, turn)

    def _draw(self, m: bytearray, s: int) -> None:
        noc = self.nocs[m[DH] * 256 + m[DL]]
        pos = m[NP]
        if pos >= len(noc):
            m[PH], m[AC] = P_OVER, NONE
            m[RW], m[RK] = NONE, RESULT_KINDS["draw"]
            return
        m[NP] = pos + 1
        self._open(m, noc[pos], s, S_DRAW, s, NONE, 0, NONE)

    def _win(self, m: bytearray, s: int, kind: str, card: int | None) -> None:
        if card is not None:
            self._close_window(m)
            m[self.hand_at[s] + card] += 1
        m[PH], m[AC] = P_OVER, NONE
        m[RW], m[RK] = s, RESULT_KINDS[kind]
