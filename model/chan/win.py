"""The winning-hand engine: is a hand complete (ù), and with how many chắn?

Exact and fast, by precomputed tables over the *classes* of the cạ graph.

Two faces can only be paired (as chắn or cạ) when they lie in the same connected class
of the cạ graph the rule table defines: each rank's three suits, and, in the family's
rules, the group of six (three Nhất, Chi Chi, Lão, Thang).  A hand therefore decomposes
class by class, and the largest number of chắn in a complete decomposition is the sum of
the per-class maxima.  For each class we precompute, for every count vector, that
maximum (``best``) and the maximum when one given card must end up in an allowed final
pair (``final``).  A win decision is then a handful of table lookups.

Restrictions come from the table, never from this code: which pairs are cạ and which of
those are special, the faces that may never complete ù, the faces that complete only a
hand of exactly the minimum chắn (``[win] exact_min``: classic Chắn's Chi Chi under one
reading), and whether a special cạ may be the final pair.

Laid-down groups follow the reading of ``[win] laid_rule`` (row ``laid-groups``): *as
laid* (the default, and the engine's only behaviour for a table without the row), the
laid chắn and cạ stay as they were laid and only add their chắn, so the concealed cards
must split on their own; *pooled*, the cards of laid chắn and cạ go back with the
concealed ones and everything is split again for the most chắn.  Under both a chíu stays
two chắn of its face.  The tables are the same either way: only the counts handed to
them change (`WinJudge.win_counts`), so both readings are equally fast, except that
`judge` also asks the other reading (one more fast check) to cite the row when it
decides, and the game machine adds the laid cards to a copy of the concealed counts at
each check under *pooled* (a few dozen additions, `HandIndex` keeps them incrementally).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from . import cards
from .table import Rules

NONE = -1  # "no complete decomposition" in the tables
WinKind = Literal["u", "chiu-u", "opening"]


class HandError(ValueError):
    """Input that is not a possible hand (too many copies, a laid group not held...)."""


@dataclass(frozen=True)
class Group:
    """A laid-down group: a chắn, a cạ, or a chíu of four identical cards."""

    kind: Literal["chan", "ca", "chiu"]
    faces: tuple[int, ...]

    @property
    def chan(self) -> int:
        return {"chan": 1, "ca": 0, "chiu": 2}[self.kind]


def group_of(faces: Sequence[int], rules: Rules) -> Group:
    """Classify cards laid down together; a clear error if they are no group."""
    fs = tuple(sorted(faces))
    if len(fs) == 4 and len(set(fs)) == 1:
        return Group("chiu", fs)
    if len(fs) == 2 and fs[0] == fs[1]:
        return Group("chan", fs)
    if len(fs) == 2 and rules.is_ca(fs[0], fs[1]):
        return Group("ca", fs)
    shown = " + ".join(cards.name(f) for f in fs)
    raise HandError(
        f"{shown} is not a group that can be laid down: expected a chắn (two identical cards), "
        "a cạ allowed by the table, or a chíu (four identical cards)"
    )


@dataclass(frozen=True)
class Verdict:
    win: bool
    chan: int | None  # largest chắn count over admissible complete decompositions
    groups: tuple[tuple[int, ...], ...] | None  # one decomposition reaching it
    rules: tuple[str, ...]  # rule ids that decided (refused, or allowed) it
    reason_en: str
    reason_vi: str

    def as_json(self) -> dict[str, object]:
        return {
            "win": self.win,
            "chan": self.chan,
            "pairs": None if self.groups is None else [cards.codes(g) for g in self.groups],
            "rules": list(self.rules),
        }


class _ClassTable:
    """Precomputed maxima for one class of faces."""

    __slots__ = ("faces", "index", "weights", "best", "final", "ca", "special")

    def __init__(self, faces: tuple[int, ...], rules: Rules):
        k = len(faces)
        self.faces = faces
        self.index = {f: i for i, f in enumerate(faces)}
        base = rules.copies + 1
        self.weights = tuple(base**i for i in range(k))
        self.ca = tuple(tuple(rules.is_ca(a, b) for b in faces) for a in faces)
        self.special = tuple(tuple(rules.is_special(a, b) for b in faces) for a in faces)
        self.best, self.final = _tables(k, rules.copies, self.ca, self.special)

    def key(self, counts: Sequence[int]) -> int:
        return sum(counts[f] * w for f, w in zip(self.faces, self.weights, strict=True))


@lru_cache(maxsize=64)
def _tables(
    k: int,
    copies: int,
    ca: tuple[tuple[bool, ...], ...],
    special: tuple[tuple[bool, ...], ...],
) -> tuple[list[int], list[list[int]]]:
    base = copies + 1
    size = base**k
    w = [base**i for i in range(k)]
    best = [NONE] * size
    best[0] = 0
    # Keys in increasing order: every key we subtract to is smaller, so already done.
    for key in range(1, size):
        v = [(key // w[i]) % base for i in range(k)]
        i = next(j for j in range(k) if v[j])
        top = NONE
        if v[i] >= 2 and best[key - 2 * w[i]] != NONE:
            top = best[key - 2 * w[i]] + 1
        for j in range(k):
            if j != i and v[j] and ca[i][j]:
                b = best[key - w[i] - w[j]]
                if b > top:
                    top = b
        best[key] = top
    final = [[NONE] * size for _ in range(k)]
    for key in range(1, size):
        v = [(key // w[i]) % base for i in range(k)]
        for i in range(k):
            if not v[i]:
                continue
            top = NONE
            if v[i] >= 2 and best[key - 2 * w[i]] != NONE:
                top = best[key - 2 * w[i]] + 1
            for j in range(k):
                if j != i and v[j] and ca[i][j] and not special[i][j]:
                    b = best[key - w[i] - w[j]]
                    if b > top:
                        top = b
            final[i][key] = top
    return best, final


# (largest chắn per count vector, the same with face i in a pair that may be final) for
# one class of `k` faces: what the questions over all hands (checks/oracles) build on
class_tables = _tables


class WinJudge:
    """Decides ù for one resolved rule set (the winning-hand judge; "engine" is kept for
    the external engines of the conformance kit)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.classes = tuple(_ClassTable(c, rules) for c in rules.components)
        self.class_of: dict[int, _ClassTable] = {f: t for t in self.classes for f in t.faces}
        self.need_cards = 2 * rules.pairs
        self.min_chan = rules.min_chan
        # a win on the dealt hand may need fewer chắn ([win] opening_min_chan)
        self.opening_min = rules.opening_min_chan
        self.r_opening = rules.rule_ids.get("win.opening_rule", "")
        self.never = rules.never_complete
        self.never_applies = rules.never_complete_applies
        r = rules.rule_ids
        self.r_shape = r["win.rule"]
        self.r_counts = r["win.counts_rule"]
        self.r_never = r.get("win.never_complete_rule", "")
        self.r_final = r.get("win.special_ca_final_rule", "")
        # a table whose turn the machine does not play may leave the chíu row to [win]
        self.r_chiu = r.get("turn.chiu_counts_rule", self.r_counts)
        self.r_exact = r.get("win.exact_min_rule", "")
        self.exact = rules.exact_min
        self.exact_applies = rules.exact_min_applies
        # [win] laid_rule: laid chắn and cạ split again with the concealed cards (pooled)
        self.pooled = rules.laid_pooled
        self.r_laid = r.get("win.laid_rule", "")
        # face -> (class number, weight, final row, best table, kinds it never completes)
        self._slot: dict[int, tuple[object, ...]] = {}
        for ci, t in enumerate(self.classes):
            for i, f in enumerate(t.faces):
                self._slot[f] = (ci, t.weights[i], t.final[i], t.best,
                                 self.never_applies if f in self.never else frozenset(),
                                 self.exact_applies if f in self.exact else frozenset())
        # Flat plans for the fast path.  A class of at most three faces is a 7-tuple
        # (best, f0, w0, f1, w1, f2, w2), padded with weight 0; larger classes go through
        # the general (best, ((face, weight), ...)) form.
        small: list[tuple[_ClassTable, tuple[object, ...]]] = []
        large: list[tuple[_ClassTable, tuple[object, ...]]] = []
        for t in self.classes:
            fw = tuple(zip(t.faces, t.weights, strict=True))
            if len(fw) <= 3:
                pad = fw + ((0, 0),) * (3 - len(fw))
                small.append((t, (t.best, *(x for pair in pad for x in pair))))
            else:
                large.append((t, (t.best, fw)))
        self._keys_spec = tuple((t.best, tuple(zip(t.faces, t.weights, strict=True)))
                                for t in self.classes)
        # per candidate face: the other classes, split by shape, and the candidate's
        # class table (faces, weights, final row for the candidate, best, weight)
        self._plan: dict[int, tuple[object, ...]] = {}
        for f, t in self.class_of.items():
            i = t.index[f]
            self._plan[f] = (
                tuple(spec for u, spec in small if u is not t),
                tuple(spec for u, spec in large if u is not t),
                tuple(zip(t.faces, t.weights, strict=True)),
                t.final[i],
                t.best,
                t.weights[i],
                self.never_applies if f in self.never else frozenset(),
                self.exact_applies if f in self.exact else frozenset(),
            )

    # ------------------------------------------------------------------ fast path
    def win_counts(self, concealed: Sequence[int], laid: Iterable[Group],
                   pooled: bool | None = None) -> tuple[list[int], int]:
        """(the counts a win check splits into pairs, the chắn laid outside them) for a
        player's concealed counts and laid groups, under the reading of ``[win]
        laid_rule`` (or `pooled`, to ask the other reading).  As laid: the concealed
        counts and every laid group's chắn.  Pooled: the concealed counts plus the cards
        of laid chắn and cạ, and the chắn of laid chíu only (a chíu stays two chắn)."""
        pool = self.pooled if pooled is None else pooled
        counts = list(concealed)
        fixed = 0
        for g in laid:
            if pool and g.kind != "chiu":
                for f in g.faces:
                    counts[f] += 1
            else:
                fixed += g.chan
        return counts, fixed

    def concealed_best(self, counts: Sequence[int]) -> int:
        """Largest chắn count over complete decompositions of concealed counts (NONE if none)."""
        total = 0
        for best, fw in self._keys_spec:
            key = 0
            for f, w in fw:
                key += counts[f] * w
            b = best[key]
            if b < 0:
                return NONE
            total += b
        return total

    def is_win(self, concealed: Sequence[int], laid_chan: int, candidate: int | None,
               kind: WinKind = "u") -> bool:
        """Fast decision. `concealed` holds the counts per face to split into pairs,
        *without* the candidate; `laid_chan` is the chắn laid outside them (a chíu counts
        2).  As laid (``[win] laid_rule``) these are the concealed cards and every laid
        group's chắn; pooled, what `win_counts` gives (the laid chắn and cạ among the
        counts).  A chíu-ù needs three of the candidate among the counts; under pooled
        the caller makes sure they are concealed ones (the machine offers chíu-ù only
        then).  Card totals are the caller's to keep right (the machine does)."""
        if candidate is None:
            b = self.concealed_best(concealed)
            return b >= 0 and b + laid_chan >= self.opening_min
        small, large, fw, final, best_t, wi, never_kinds, exact_kinds = \
            self._plan[candidate]  # type: ignore[misc]
        if kind in never_kinds:
            return False
        total = laid_chan
        for best, a, wa, b, wb, c, wc in small:
            x = best[concealed[a] * wa + concealed[b] * wb + concealed[c] * wc]
            if x < 0:
                return False
            total += x
        for best, ofw in large:
            key = 0
            for f, w in ofw:
                key += concealed[f] * w
            x = best[key]
            if x < 0:
                return False
            total += x
        key = 0
        for f, w in fw:
            key += concealed[f] * w
        if kind == "chiu-u":
            if concealed[candidate] < 3:
                return False
            x = best_t[key - 3 * wi]
            if x < 0:
                return False
            total += x + 2
        else:
            x = final[key + wi]
            if x < 0:
                return False
            total += x
        if exact_kinds and kind in exact_kinds:  # type: ignore[operator]
            return total == self.min_chan  # [win] exact_min: exactly the minimum
        return total >= self.min_chan

    # ------------------------------------------------------------------ full verdict
    def judge(
        self,
        hand: Iterable[int],
        laid: Sequence[Group] = (),
        candidate: int | None = None,
        kind: WinKind = "u",
    ) -> Verdict:
        """Full verdict with a decomposition and the deciding rule ids.

        `hand` is every card held before the candidate, laid-down ones included; `laid`
        lists the laid-down groups among them.  `kind` is ``u`` (take the candidate),
        ``chiu-u`` (the candidate is the fourth of three concealed copies) or
        ``opening`` (the dealt hand itself, no candidate).
        """
        held = cards.counts(hand)
        concealed = list(held)
        for g in laid:
            for f in g.faces:
                concealed[f] -= 1
        for f in range(cards.NUM_FACES):
            if concealed[f] < 0:
                raise HandError(f"a laid-down group uses {cards.name(f)} more often than the "
                                "hand holds it; list laid cards in the hand too")
        if candidate is not None:
            held[candidate] += 1
        for f in range(cards.NUM_FACES):
            if held[f] > self.rules.copies:
                raise HandError(f"{cards.name(f)} appears {held[f]} times; the deck has only "
                                f"{self.rules.copies}")
            if held[f] and f not in self.rules.faces:
                raise HandError(f"{cards.name(f)} is not in this ruleset's deck")
        if kind == "opening" and candidate is not None:
            raise HandError("an opening win has no completing card")
        if kind != "opening" and candidate is None:
            raise HandError("a win needs the card that would complete the hand (--with)")
        n = sum(held)
        if n != self.need_cards:
            return self._no(
                None, None, (self.r_shape,),
                f"{n} cards cannot make {self.rules.pairs} pairs: a complete hand has "
                f"exactly {self.need_cards}",
                f"{n} quân không thể thành {self.rules.pairs} đôi: bài ù có đúng "
                f"{self.need_cards} quân",
            )
        if kind == "chiu-u":
            assert candidate is not None
            if concealed[candidate] < 3:
                raise HandError(f"chíu-ù on {cards.name(candidate)} needs three concealed copies")
        v = self._judge_split(concealed, laid, candidate, kind, self.pooled)
        if self.r_laid and any(g.kind != "chiu" for g in laid):
            # [win] laid_rule decides when the other reading would give the other answer
            other = self.is_win(*self.win_counts(concealed, laid, not self.pooled),
                                candidate, kind)
            if other != v.win:
                en, vi = ((" (laid chắn and cạ split again with the concealed cards)",
                           " (Chắn, Cạ đã hạ được ghép lại cùng bài kín)") if self.pooled else
                          (" (laid groups stay as laid)", " (nhóm đã hạ giữ nguyên)"))
                v = Verdict(v.win, v.chan, v.groups, tuple(dict.fromkeys(
                    v.rules + (self.r_laid,))), v.reason_en + en, v.reason_vi + vi)
        return v

    def _judge_split(self, concealed: Sequence[int], laid: Sequence[Group],
                     candidate: int | None, kind: WinKind, pooled: bool) -> Verdict:
        """`judge` on checked input of the right size, under one reading of laid groups."""
        free, laid_chan = self.win_counts(concealed, laid, pooled)
        fixed = [g.faces for g in laid if not pooled or g.kind == "chiu"]
        refused_card = (candidate is not None and candidate in self.never
                        and kind in self.never_applies)
        exact = (candidate is not None and candidate in self.exact
                 and kind in self.exact_applies)
        if kind == "chiu-u":
            assert candidate is not None
            rest = list(free)
            rest[candidate] -= 3
            b = self.concealed_best(rest)
            chan = None if b < 0 else b + laid_chan + 2
            groups = None if b < 0 else tuple(fixed) + ((candidate,) * 4,) + self._decompose(rest)
            rules_used: tuple[str, ...] = (self.r_shape, self.r_counts, self.r_chiu)
            final_blocked = False
        elif kind == "opening":
            b = self.concealed_best(free)
            chan = None if b < 0 else b + laid_chan
            groups = None if b < 0 else tuple(fixed) + self._decompose(free)
            rules_used = (self.r_shape, self.r_counts)
            final_blocked = False
        else:
            assert candidate is not None
            full = list(free)
            full[candidate] += 1
            t = self.class_of[candidate]
            i = t.index[candidate]
            rest_best = 0
            for other in self.classes:
                if other is not t:
                    ob = other.best[other.key(full)]
                    rest_best = NONE if ob < 0 or rest_best < 0 else rest_best + ob
            fb = t.final[i][t.key(full)]
            ub = t.best[t.key(full)]
            # The final-pair ban *decides* a refusal when, without it, the hand would
            # reach the minimum and, with it, does not.
            loose = rest_best + ub + laid_chan if rest_best >= 0 and ub >= 0 else NONE
            strict = rest_best + fb + laid_chan if rest_best >= 0 and fb >= 0 else NONE
            final_blocked = loose >= self.min_chan > strict
            if rest_best < 0 or fb < 0:
                chan, groups = None, None
            else:
                chan = rest_best + fb + laid_chan
                groups = tuple(fixed) + self._decompose_with_final(full, candidate)
            rules_used = (self.r_shape, self.r_counts)
            if any(g.kind == "chiu" for g in laid):
                rules_used += (self.r_chiu,)
        if refused_card:
            # the final-pair restriction is named too when it also stood in the way
            return self._no(
                chan, groups, (self.r_never,) + ((self.r_final,) if final_blocked else ()),
                f"{cards.name(candidate)} may never be the card that completes ù",  # type: ignore[arg-type]
                f"{cards.name(candidate)} không bao giờ được là quân hoàn thành Ù",  # type: ignore[arg-type]
            )
        if chan is None:
            why = (self.r_shape, self.r_final) if final_blocked else (self.r_shape,)
            return self._no(
                None, None, why,
                "the cards do not split into pairs"
                + (" with an allowed final pair (a special cạ may not be the last)"
                   if final_blocked else ""),
                "bài không chia hết thành đôi"
                + (" với đôi cuối hợp lệ (Cạ đặc biệt không được làm đôi cuối)"
                   if final_blocked else ""),
            )
        if exact and chan > self.min_chan:
            return self._no(
                chan, groups, (self.r_shape, self.r_counts, self.r_exact),
                f"{chan} chắn: {cards.name(candidate)} completes only a hand of exactly "  # type: ignore[arg-type]
                f"{self.min_chan} chắn",
                f"{chan} Chắn: {cards.name(candidate)} chỉ được ù bài có đúng "  # type: ignore[arg-type]
                f"{self.min_chan} Chắn",
            )
        need = self.opening_min if kind == "opening" else self.min_chan
        if kind == "opening" and self.r_opening:
            rules_used += (self.r_opening,)
        if chan < need:
            why = (self.r_shape, self.r_counts)
            if final_blocked:
                why += (self.r_final,)
            if kind == "opening" and self.r_opening:
                why += (self.r_opening,)
            return self._no(
                chan, groups, why,
                f"only {chan} chắn; at least {need} are needed"
                + (" (more would need a special cạ as the final pair)" if final_blocked else ""),
                f"chỉ có {chan} Chắn; cần ít nhất {need}"
                + (" (muốn nhiều hơn phải dùng Cạ đặc biệt làm đôi cuối)" if final_blocked else ""),
            )
        if exact:
            rules_used += (self.r_exact,)
        # one row may play two roles (classic: chíu-counts-two is also counts_rule)
        return Verdict(True, chan, groups, tuple(dict.fromkeys(rules_used)),
                       f"complete: {self.rules.pairs} pairs, {chan} chắn",
                       f"ù: {self.rules.pairs} đôi, {chan} Chắn")

    @staticmethod
    def _no(chan: int | None, groups: tuple[tuple[int, ...], ...] | None,
            rules: tuple[str, ...], en: str, vi: str) -> Verdict:
        return Verdict(False, chan, groups, tuple(dict.fromkeys(rules)), en, vi)

    # ------------------------------------------------------------------ decompositions
    def _decompose(self, counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        out: list[tuple[int, ...]] = []
        for t in self.classes:
            out.extend(self._class_pairs(t, [counts[f] for f in t.faces]))
        return tuple(out)

    def _class_pairs(self, t: _ClassTable, v: list[int]) -> list[tuple[int, ...]]:
        """Pairs reaching t.best for local counts v (which must be decomposable)."""
        pairs: list[tuple[int, ...]] = []
        w = t.weights
        key = sum(c * x for c, x in zip(v, w, strict=True))
        while key:
            target = t.best[key]
            i = next(j for j in range(len(v)) if v[j])
            sub = t.best[key - 2 * w[i]] if v[i] >= 2 else NONE
            if sub != NONE and sub + 1 == target:
                pairs.append((t.faces[i], t.faces[i]))
                v[i] -= 2
                key -= 2 * w[i]
                continue
            for j in range(len(v)):
                if j != i and v[j] and t.ca[i][j] and t.best[key - w[i] - w[j]] == target:
                    pairs.append((t.faces[i], t.faces[j]))
                    v[i] -= 1
                    v[j] -= 1
                    key -= w[i] + w[j]
                    break
            else:  # pragma: no cover - tables guarantee a step exists
                raise AssertionError("decomposition table inconsistent")
        return pairs

    def _decompose_with_final(self, full: Sequence[int], cand: int) -> tuple[tuple[int, ...], ...]:
        t = self.class_of[cand]
        i = t.index[cand]
        v = [full[f] for f in t.faces]
        key = t.key(full)
        target = t.final[i][key]
        w = t.weights
        final: tuple[int, ...] | None = None
        if v[i] >= 2 and t.best[key - 2 * w[i]] != NONE and t.best[key - 2 * w[i]] + 1 == target:
            final = (cand, cand)
            v[i] -= 2
        else:
            for j in range(len(v)):
                if (j != i and v[j] and t.ca[i][j] and not t.special[i][j]
                        and t.best[key - w[i] - w[j]] == target):
                    final = (cand, t.faces[j])
                    v[i] -= 1
                    v[j] -= 1
                    break
        assert final is not None
        out: list[tuple[int, ...]] = []
        for other in self.classes:
            if other is t:
                out.extend(self._class_pairs(t, v))
            else:
                out.extend(self._class_pairs(other, [full[f] for f in other.faces]))
        return tuple(out) + (final,)


class HandIndex:
    """One player's cards, kept ready for O(1) win decisions.

    `add` / `remove` move one concealed card in O(1) (one table lookup each);
    `wins_with(candidate, kind)` answers `WinJudge.is_win` for the current counts in
    O(1) as well: the per-class maxima are kept summed, with a count of the classes that
    do not split into pairs.  `laid_chan` follows the chắn laid outside the counts.

    Laid-down groups follow ``[win] laid_rule``: `eat` and `lay_chiu` lay a group down.
    As laid, an eaten group leaves the counts and adds its chắn; pooled, its cards stay
    among the counts split (`pool`; the taken card joins them) while `counts` keeps the
    concealed cards only (a chíu-ù needs three concealed copies).  A chíu always leaves
    them and adds two chắn.  `wins_with` is the same code under both readings.
    """

    __slots__ = ("engine", "counts", "pool", "laid_chan", "_keys", "_vals", "_total",
                 "_broken", "_slot", "_best", "_min", "_min_open", "_copies")

    def __init__(self, engine: WinJudge, counts: Sequence[int] = (), laid_chan: int = 0,
                 laid: Sequence[Group] = ()):
        """`counts`: the concealed cards; `laid_chan`: chắn laid outside them; `laid`:
        groups already laid down, taken in under the table's reading of laid groups."""
        self.engine = engine
        self.counts = [0] * cards.NUM_FACES
        # the counts the tables split: the concealed ones themselves as laid, a list of
        # their own (concealed + laid chắn and cạ) pooled
        self.pool = [0] * cards.NUM_FACES if engine.pooled else self.counts
        self.laid_chan = laid_chan
        self._slot = engine._slot
        self._best = tuple(t.best for t in engine.classes)
        self._keys = [0] * len(engine.classes)
        self._vals = [t.best[0] for t in engine.classes]
        self._total = sum(self._vals)
        self._broken = 0
        self._min = engine.min_chan
        self._min_open = engine.opening_min
        self._copies = engine.rules.copies
        for f, n in enumerate(counts):
            for _ in range(n):
                self.add(f)
        for g in laid:
            if engine.pooled and g.kind != "chiu":
                for f in g.faces:
                    self._join(f)
            else:
                self.laid_chan += g.chan

    def _move(self, face: int, step: int) -> None:
        slot = self._slot.get(face)
        if slot is None:
            raise HandError(f"{cards.name(face)} is not in this ruleset's deck")
        ci, w = slot[0], slot[1]
        key = self._keys[ci] + step * w
        self._keys[ci] = key
        old = self._vals[ci]
        new = self._best[ci][key]
        self._vals[ci] = new
        if old < 0:
            self._broken -= 1
        else:
            self._total -= old
        if new < 0:
            self._broken += 1
        else:
            self._total += new

    def _join(self, face: int) -> None:
        """One more card among the counts split (pooled: a laid card)."""
        if self.pool[face] >= self._copies:
            raise HandError(f"{cards.name(face)} would be held {self.pool[face] + 1} times; "
                            f"the deck has only {self._copies}")
        self._move(face, 1)
        self.pool[face] += 1

    def add(self, face: int) -> None:
        """One more concealed card."""
        self._join(face)
        if self.pool is not self.counts:
            self.counts[face] += 1

    def remove(self, face: int) -> None:
        """One concealed card less."""
        if self.counts[face] <= 0:
            raise HandError(f"{cards.name(face)} is not in the concealed hand")
        self._move(face, -1)
        self.counts[face] -= 1
        if self.pool is not self.counts:
            self.pool[face] -= 1

    def eat(self, card: int, partner: int) -> None:
        """Lay the taken `card` down with the concealed `partner`, as a chắn or a cạ.

        Raises HandError when `partner` is not concealed or the two make no group."""
        if self.counts[partner] <= 0:
            raise HandError(f"{cards.name(partner)} is not in the concealed hand")
        g = group_of((card, partner), self.engine.rules)
        if self.pool is self.counts:  # as laid: the group leaves the counts split
            self.remove(partner)
            self.laid_chan += g.chan
        else:  # pooled: the partner stays among them, the card joins them
            self._join(card)
            self.counts[partner] -= 1

    def lay_chiu(self, face: int) -> None:
        """Lay three concealed copies of `face` down with the fourth as a chíu (two chắn,
        under either reading).  Raises HandError without three concealed copies."""
        if self.counts[face] < 3:
            raise HandError(f"a chíu of {cards.name(face)} needs three concealed copies")
        for _ in range(3):
            self.remove(face)
        self.laid_chan += 2

    def best(self) -> int:
        """Largest chắn count of the counts split (NONE when they do not split): the
        concealed cards as laid, with the laid chắn and cạ pooled."""
        return NONE if self._broken else self._total

    def wins_with(self, candidate: int | None, kind: WinKind = "u") -> bool:
        """The same answer as ``engine.is_win(self.pool, self.laid_chan, candidate,
        kind)`` (`pool` is `counts` as laid); a chíu-ù needs three *concealed* copies."""
        if candidate is None:
            return not self._broken and self._total + self.laid_chan >= self._min_open
        ci, w, final, best_t, never_kinds, exact_kinds = self._slot[candidate]
        if kind in never_kinds:
            return False
        v = self._vals[ci]
        if v < 0:
            if self._broken > 1:
                return False
            other = self._total
        else:
            if self._broken:
                return False
            other = self._total - v
        key = self._keys[ci]
        if kind == "chiu-u":
            if self.counts[candidate] < 3:
                return False
            x = best_t[key - 3 * w]
            if x < 0:
                return False
            got = other + x + 2 + self.laid_chan
        else:
            x = final[key + w]
            if x < 0:
                return False
            got = other + x + self.laid_chan
        if exact_kinds and kind in exact_kinds:  # type: ignore[operator]
            return got == self._min  # [win] exact_min: exactly the minimum
        return got >= self._min


WinEngine = WinJudge  # the old name, kept for engines' scripts and tests


_ENGINES: dict[tuple[object, ...], WinJudge] = {}


def judge_for(rules: Rules) -> WinJudge:
    """The (cached) winning-hand judge for a resolved rule set (also `engine`, its old
    name).

    The key includes the table object's identity: two tables may share an id (a
    scaled-down copy of the family's table, say) and must not share an engine.  The
    cached engine keeps its table alive, so that identity is never reused meanwhile."""
    k = (id(rules.table), *rules.key())
    e = _ENGINES.get(k)
    if e is None:
        e = _ENGINES[k] = WinJudge(rules)
    return e


engine = judge_for  # the old name
