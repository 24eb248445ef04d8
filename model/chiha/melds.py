"""The meld engine of Chiha: the most lệnh a hand is worth over every split into melds,
whether it splits into melds with nothing left over, which cards may be discarded, and a
best split as evidence.  The analogue of `chanspec.model.chan.win` for Chiha, sharing no code
with it.

Exact and fast, by precomputed tables over the *components* of the meld data.

The melds come from the table's ``[[meld]]`` shapes (`expand`: every concrete meld the
deck allows, with its lệnh shown and concealed).  Two faces interact only when some meld
holds both, so the faces fall into components (union-find over the melds' faces): in
seed 004 one per colour for Tướng–Sĩ–Tượng, one per colour for Xe–Pháo–Mã, and one for
the four Chốt; no code here names them.  A split of a hand is a split of each component,
so the best lệnh is the sum of per-component maxima.  For each component and every count
vector of its faces the tables hold the most lệnh with cards left over allowed (``best``,
the left-over cards being rác, trash) and with none left over (``exact``, None when no
such split exists), both for concealed cards (in hand or face down: the shapes marked
``concealed`` earn ``[concealed] bonus`` more) and for shown ones.  The tables are filled
by a memoised recursion: the first face of the vector that still has a card either gives
that card up as trash (``best`` only) or puts it into one of the melds that hold it.

A hand is packed into an integer, a few bits per face with each component's faces side
by side (`MeldEngine.pack`), and one evaluation is a lookup per component: each table
entry holds ``best + (exact << 16)`` so one sum gives both figures.

Which split counts, and who chooses it, is the open row ``lenh-partition`` (the table's
``[win] count_rule``): `MeldEngine.player_lenh` reads it, so no reading is settled here.
Under ``laid-fixed-hand-best`` the laid melds count as laid (face-down ones concealed)
and the hand at its best split; under ``all-cards-best`` every card of the player is
split again (a second set of tables over the faces tagged concealed or shown: a meld
earns the bonus only when all its cards are concealed); under ``player-chooses`` the
player's own arrangement of the hand is counted, and is required.  Discards follow
``[[discard_ban]]`` (`MeldEngine.discard_bans`), the Chốt ban read by its open row.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from .deck import ChihaHandError, Deck
from .table import ChihaRules
from .vocab import MeldShape

SHIFT = 16  # exact lệnh sit above this bit in a table entry
LOW = (1 << SHIFT) - 1
NO_SPLIT = -(1 << 30)  # "no split without trash" in the exact half of an entry
FULL_TABLE_MAX = 1 << 16  # components with more count vectors are memoised lazily


@dataclass(frozen=True)
class Meld:
    """One concrete meld: its row, its faces (sorted, repeats for identical cards) and
    its lệnh when shown and when concealed."""

    rule: str
    faces: tuple[int, ...]
    shown: int
    concealed: int

    def lenh(self, concealed: bool = True) -> int:
        return self.concealed if concealed else self.shown


def expand(shapes: Sequence[MeldShape], deck: Deck, bonus: int) -> list[Meld]:
    """Every meld the table's shapes allow with this deck, in table order."""
    out: list[Meld] = []
    ranks = [r.id for r in deck.ranks]
    for s in shapes:
        extra = bonus if s.concealed else 0
        found: list[tuple[tuple[int, ...], str]] = []
        if s.shape == "same-face":
            if s.size <= deck.copies:
                for f in deck.faces:
                    if not s.ranks or deck.rank_id(f) in s.ranks:
                        found.append(((f,) * s.size, deck.rank_id(f)))
        elif s.shape == "named-ranks-one-colour":
            for c in range(len(deck.colours)):
                fs = tuple(sorted(deck.face(c, ranks.index(r)) for r in s.ranks))
                found.append((fs, ""))
        else:  # distinct-colours-one-rank
            r = ranks.index(s.rank)
            for cs in itertools.combinations(range(len(deck.colours)), s.size):
                found.append((tuple(deck.face(c, r) for c in cs), s.rank))
        for fs, rank in found:
            v = s.lenh_by_rank.get(rank, s.lenh) if rank else s.lenh
            out.append(Meld(s.rule, fs, v, v + extra))
    return out


class _Lazy(dict[int, int]):
    """A component table filled on first use (for components too large to fill)."""

    def __init__(self, fill: object) -> None:
        super().__init__()
        self._fill = fill

    def __missing__(self, key: int) -> int:
        v = self._fill(key)  # type: ignore[operator]
        self[key] = v
        return v


class Component:
    """Faces that share melds, the melds among them, and their tables."""

    def __init__(self, faces: tuple[int, ...], melds: list[Meld], bits: int, shift: int):
        self.faces = faces
        self.melds = melds
        self.bits = bits
        self.shift = shift  # where its faces start in a packed hand
        self.mask = (1 << (bits * len(faces))) - 1
        self.vectors = [tuple(sum(1 for x in m.faces if x == f) for f in faces) for m in melds]
        self.by_first: list[list[int]] = [
            [j for j, v in enumerate(self.vectors) if v[i]] for i in range(len(faces))]
        self.tables: dict[bool, list[int] | _Lazy] = {}
        for concealed in (True, False):
            size = 1 << (bits * len(faces))
            if size <= FULL_TABLE_MAX:
                self.tables[concealed] = [self._entry(self._unpack(k), concealed)
                                          for k in range(size)]
            else:
                self.tables[concealed] = _Lazy(
                    lambda k, c=concealed: self._entry(self._unpack(k), c))

    def _unpack(self, key: int) -> tuple[int, ...]:
        m = (1 << self.bits) - 1
        return tuple((key >> (self.bits * i)) & m for i in range(len(self.faces)))

    def _entry(self, v: tuple[int, ...], concealed: bool) -> int:
        b = self.best(v, concealed)
        e = self.exact(v, concealed)
        return b + ((NO_SPLIT if e is None else e) << SHIFT)

    def _first(self, v: tuple[int, ...]) -> int:
        for i, n in enumerate(v):
            if n:
                return i
        return -1

    def _minus(self, v: tuple[int, ...], w: tuple[int, ...]) -> tuple[int, ...] | None:
        out = tuple(a - b for a, b in zip(v, w, strict=True))
        return out if min(out) >= 0 else None

    @cache  # noqa: B019 - one component per engine, kept for its life
    def best(self, v: tuple[int, ...], concealed: bool) -> int:
        """The most lệnh of count vector `v`, cards left over allowed."""
        i = self._first(v)
        if i < 0:
            return 0
        rest = list(v)
        rest[i] -= 1
        top = self.best(tuple(rest), concealed)  # that card is trash
        for j in self.by_first[i]:
            w = self._minus(v, self.vectors[j])
            if w is not None:
                top = max(top, self.melds[j].lenh(concealed) + self.best(w, concealed))
        return top

    @cache  # noqa: B019
    def exact(self, v: tuple[int, ...], concealed: bool) -> int | None:
        """The most lệnh of a split of `v` into melds with nothing left over; None when
        there is none."""
        i = self._first(v)
        if i < 0:
            return 0
        top: int | None = None
        for j in self.by_first[i]:
            w = self._minus(v, self.vectors[j])
            if w is None:
                continue
            sub = self.exact(w, concealed)
            if sub is not None:
                cand = self.melds[j].lenh(concealed) + sub
                top = cand if top is None else max(top, cand)
        return top

    def split(self, v: tuple[int, ...], concealed: bool, exact: bool
              ) -> tuple[list[Meld], list[int]]:
        """A split reaching `best` (or `exact`): its melds and the trash faces."""
        melds: list[Meld] = []
        trash: list[int] = []
        value = self.exact if exact else self.best
        while True:
            i = self._first(v)
            if i < 0:
                return melds, trash
            goal = value(v, concealed)
            assert goal is not None
            for j in self.by_first[i]:
                w = self._minus(v, self.vectors[j])
                if w is None:
                    continue
                sub = value(w, concealed)
                if sub is not None and self.melds[j].lenh(concealed) + sub == goal:
                    melds.append(self.melds[j])
                    v = w
                    break
            else:
                rest = list(v)
                rest[i] -= 1
                trash.append(self.faces[i])
                v = tuple(rest)


@dataclass(frozen=True)
class Evaluation:
    """What the engine says about one set of cards."""

    best: int  # the most lệnh, trash allowed
    melds: tuple[Meld, ...]  # a split reaching it
    trash: tuple[int, ...]  # the cards it leaves in no meld
    exact: int | None  # the most lệnh with no trash; None: the cards never split wholly
    exact_melds: tuple[Meld, ...] | None  # a split reaching it
    concealed: bool


class MeldEngine:
    """The meld engine of one resolved Chiha table (`engine(rules)` caches it)."""

    def __init__(self, rules: ChihaRules):
        self.rules = rules
        self.deck = rules.deck
        t = rules.table
        self.melds = expand(t.melds, self.deck, t.bonus)
        self.rule_ids = tuple(dict.fromkeys(m.rule for m in self.melds))
        parent = list(self.deck.faces)

        def root(f: int) -> int:
            while parent[f] != f:
                parent[f] = parent[parent[f]]
                f = parent[f]
            return f

        for m in self.melds:
            for f in m.faces[1:]:
                parent[root(f)] = root(m.faces[0])
        groups: dict[int, list[int]] = {}
        for f in self.deck.faces:
            groups.setdefault(root(f), []).append(f)
        self.bits = max(1, self.deck.copies.bit_length())
        self.components: list[Component] = []
        self.position: dict[int, int] = {}  # face -> its bit offset in a packed hand
        shift = 0
        for faces in sorted(groups.values()):
            inside = set(faces)
            ms = [m for m in self.melds if m.faces[0] in inside]
            comp = Component(tuple(faces), ms, self.bits, shift)
            for i, f in enumerate(faces):
                self.position[f] = shift + self.bits * i
            self.components.append(comp)
            shift += self.bits * len(faces)
        self._fast = {c: tuple((k.shift, k.mask, k.tables[c]) for k in self.components)
                      for c in (True, False)}
        self._tagged: list[Component] | None = None  # built on first use (`player_lenh`)
        self._untag: dict[Meld, tuple[Meld, bool]] = {}

    # ------------------------------------------------------------------ inputs

    def counts(self, cards: Iterable[int] | Sequence[int]) -> list[int]:
        """The count vector of a list of faces (`ChihaHandError` past the copies)."""
        return self.deck.counts(list(cards))

    def pack(self, counts: Sequence[int]) -> int:
        """A count vector as one integer (`bits` per face, components side by side)."""
        h = 0
        for f, n in enumerate(counts):
            if n:
                h |= n << self.position[f]
        return h

    # ------------------------------------------------------------------ the fast path

    def lenh_packed(self, h: int, concealed: bool = True) -> tuple[int, int | None]:
        """``(best, exact)`` of a packed hand: a lookup per component."""
        t = 0
        for shift, mask, table in self._fast[concealed]:
            t += table[(h >> shift) & mask]
        e = t >> SHIFT
        return t & LOW, (e if e >= 0 else None)

    def best(self, counts: Sequence[int], concealed: bool = True) -> int:
        """The most lệnh of these cards over every split, trash allowed."""
        return self.lenh_packed(self.pack(counts), concealed)[0]

    def exact(self, counts: Sequence[int], concealed: bool = True) -> int | None:
        """The most lệnh of a split with no trash; None when there is none."""
        return self.lenh_packed(self.pack(counts), concealed)[1]

    def can_empty(self, counts: Sequence[int]) -> bool:
        """Do these cards split wholly into melds (no trash)?"""
        return self.exact(counts) is not None

    # ------------------------------------------------------------------ evidence

    def evaluate(self, counts: Sequence[int], concealed: bool = True) -> Evaluation:
        """The figures and a split reaching each (the first found in table order)."""
        melds: list[Meld] = []
        trash: list[int] = []
        ex_melds: list[Meld] | None = []
        for comp in self.components:
            v = tuple(counts[f] for f in comp.faces)
            ms, tr = comp.split(v, concealed, exact=False)
            melds += ms
            trash += tr
            if ex_melds is not None and comp.exact(v, concealed) is not None:
                ex_melds += comp.split(v, concealed, exact=True)[0]
            else:
                ex_melds = None
        best, exact = self.lenh_packed(self.pack(counts), concealed)
        return Evaluation(best, tuple(melds), tuple(sorted(trash)), exact,
                          None if ex_melds is None else tuple(ex_melds), concealed)

    # ------------------------------------------------------------------ discards

    def discard_bans(self, counts: Sequence[int]) -> dict[int, tuple[str, ...]]:
        """For each face held, the ``[[discard_ban]]`` rows that forbid discarding it
        (empty: it may go).  The Chốt ban reads its scope row (``discard-chot-scope``)."""
        deck = self.deck
        out: dict[int, tuple[str, ...]] = {}
        for f in deck.faces:
            if not counts[f]:
                continue
            why: list[str] = []
            for b in self.rules.table.bans:
                if b.kind == "rank" and deck.rank_id(f) in b.ranks:
                    why.append(b.rule)
                elif b.kind == "same-face-at-least" and counts[f] >= b.count:
                    why.append(b.rule)
                elif b.kind == "distinct-colours-set" and deck.rank_id(f) == b.rank:
                    if self._set_ban(counts, f, b.rank, b.size, self.rules.value(b.scope_rule)):
                        why += [b.rule, b.scope_rule]
            out[f] = tuple(why)
        return out

    def _set_ban(self, counts: Sequence[int], f: int, rank: str, size: int, scope: str) -> bool:
        r = self.deck.rank_by_id(rank)
        held = [counts[self.deck.face(c, r)] for c in range(len(self.deck.colours))]
        colours = sum(1 for n in held if n)
        if scope == "exactly-four":
            return colours == size and sum(held) == size
        if scope == "holds-set":
            return colours >= size
        # keeps-set: banned unless the set of `size` colours survives the discard
        return colours >= size and (colours - (1 if counts[f] == 1 else 0)) < size

    def discards(self, counts: Sequence[int]) -> list[int]:
        """The faces that may be discarded from these cards, in face order."""
        return [f for f, why in self.discard_bans(counts).items() if not why]

    def is_empty(self, counts: Sequence[int]) -> bool:
        """Is the hand empty as row ``empty-hand-meaning`` reads it (no trash: every
        card in a meld; nothing may be discarded; or no card at all)?"""
        reading = self.rules.reading("win.empty_rule")
        if reading == "no-card":
            return not any(counts)
        if reading == "no-legal-discard":
            return not self.discards(counts)
        return self.can_empty(counts)


    # ------------------------------------------------------------------ a player's lệnh

    def meld_of(self, faces: Sequence[int]) -> Meld:
        """The meld these cards make (the worthiest when several shapes fit); raises
        NotAMeld naming the cards otherwise."""
        key = tuple(sorted(faces))
        found = [m for m in self.melds if m.faces == key]
        if not found:
            names = ", ".join(self.deck.name(f) for f in key) or "no card"
            raise NotAMeld(f"{names}: not a meld of this table (rows "
                           f"{', '.join(self.rule_ids)})")
        return max(found, key=lambda m: m.concealed)

    def player_lenh(self, hand: Sequence[int], laid: Sequence[Laid] = (),
                    arrangement: Sequence[Sequence[int]] | None = None,
                    whole: bool = False) -> Count | None:
        """The lệnh of a player holding the count vector `hand` with `laid` on the table,
        as row ``lenh-partition`` reads it (module docstring).  `whole`: the hand must
        split with no trash (for a win); None when it cannot.  `arrangement` is the
        player's split of the hand (melds as lists of faces), needed by
        ``player-chooses`` and ignored otherwise."""
        row = self.rules.rid("win.count_rule")
        reading = self.rules.value(row)
        bonus = self.rules.table.data["concealed"]["rule"]
        if reading == "all-cards-best":
            return self._all_cards(hand, laid, whole, (row, bonus))
        counted: list[tuple[Meld, bool]] = [(self.meld_of(x.faces), x.face_down) for x in laid]
        trash: list[int] = []
        if reading == "player-chooses":
            if arrangement is None:
                raise ValueError(f"row {row} = player-chooses: the lệnh are those of the "
                                 "player's own arrangement of the hand, and none was given")
            left = list(hand)
            for group in arrangement:
                m = self.meld_of(group)
                for f in m.faces:
                    if left[f] == 0:
                        raise NotAMeld(f"the arrangement uses {self.deck.name(f)} more often "
                                       "than the hand holds it")
                    left[f] -= 1
                counted.append((m, True))
            trash = [f for f in self.deck.faces for _ in range(left[f])]
            if whole and trash:
                return None
        else:  # laid-fixed-hand-best
            ev = self.evaluate(hand)
            if whole:
                if ev.exact_melds is None:
                    return None
                counted += [(m, True) for m in ev.exact_melds]
            else:
                counted += [(m, True) for m in ev.melds]
                trash = list(ev.trash)
        return _count(counted, trash, (row, bonus))

    def _all_cards(self, hand: Sequence[int], laid: Sequence[Laid], whole: bool,
                   why: tuple[str, str]) -> Count | None:
        n = len(self.deck.faces)
        tagged = list(hand) + [0] * n
        for x in laid:
            for f in x.faces:
                tagged[f if x.face_down else f + n] += 1
        over = [f for f in range(n) if tagged[f] + tagged[f + n] > self.deck.copies]
        if over:
            raise ChihaHandError(f"{self.deck.name(over[0])}: more cards than the deck's "
                                 f"{self.deck.copies} copies (row deck-size)")
        counted: list[tuple[Meld, bool]] = []
        trash: list[int] = []
        for comp in self._tagged_components():
            v = tuple(tagged[f] for f in comp.faces)
            if whole and comp.exact(v, True) is None:
                return None
            ms, tr = comp.split(v, True, exact=whole)
            counted += [self._untag[m] for m in ms]
            trash += [f % n for f in tr]
        return _count(counted, sorted(trash), why)

    def _tagged_components(self) -> list[Component]:
        """Components over the faces tagged concealed (``f``) or shown (``f + n``): every
        meld in every mix of tags, worth its concealed figure only when all its cards
        are concealed."""
        if self._tagged is not None:
            return self._tagged
        n = len(self.deck.faces)
        tmelds: list[Meld] = []
        for m in self.melds:
            distinct = sorted(set(m.faces))
            mult = [m.faces.count(f) for f in distinct]
            for split in itertools.product(*[range(k + 1) for k in mult]):
                faces: list[int] = []
                for f, j, k in zip(distinct, split, mult, strict=True):
                    faces += [f] * j + [f + n] * (k - j)
                hidden = list(split) == mult
                v = m.concealed if hidden else m.shown
                t = Meld(m.rule, tuple(sorted(faces)), v, v)
                tmelds.append(t)
                self._untag[t] = (m, hidden)
        parent = list(range(2 * n))

        def root(f: int) -> int:
            while parent[f] != f:
                parent[f] = parent[parent[f]]
                f = parent[f]
            return f

        for t in tmelds:
            for f in t.faces[1:]:
                parent[root(f)] = root(t.faces[0])
        groups: dict[int, list[int]] = {}
        for f in range(2 * n):
            groups.setdefault(root(f), []).append(f)
        comps = []
        for faces in sorted(groups.values()):
            inside = set(faces)
            comps.append(Component(tuple(faces), [t for t in tmelds if t.faces[0] in inside],
                                   self.bits, 0))
        self._tagged = comps
        return comps


class NotAMeld(ValueError):
    """Cards given as a meld that no ``[[meld]]`` entry of the table makes."""


@dataclass(frozen=True)
class Laid:
    """A meld on the table: its faces, and whether it lies face down (in the xệp)."""

    faces: tuple[int, ...]
    face_down: bool


@dataclass(frozen=True)
class Count:
    """A player's lệnh as row ``lenh-partition`` reads them: the melds counted (each
    with whether it counts as concealed), the cards in none, and the rows deciding it
    (the reading's row, the bonus row, and every meld's row)."""

    lenh: int
    melds: tuple[tuple[Meld, bool], ...]
    trash: tuple[int, ...]
    rules: tuple[str, ...]


def _count(counted: list[tuple[Meld, bool]], trash: list[int], why: tuple[str, str]) -> Count:
    """`why`: the reading's row and the bonus row (cited only when a bonus was earned)."""
    lenh = sum(m.lenh(c) for m, c in counted)
    earned = any(c and m.concealed != m.shown for m, c in counted)
    rows = tuple(dict.fromkeys([why[0], *([why[1]] if earned else []),
                                *(m.rule for m, _ in counted)]))
    return Count(lenh, tuple(counted), tuple(sorted(trash)), rows)


_ENGINES: dict[tuple[object, ...], MeldEngine] = {}


def engine(rules: ChihaRules) -> MeldEngine:
    """The engine of `rules`, built once per table and options."""
    key = rules.key()
    if key not in _ENGINES:
        _ENGINES[key] = MeldEngine(rules)
    return _ENGINES[key]
