"""The two questions over all hands, answered by exhaustive search class by class.

* `needs_special_ca`: a concealed hand of ``2 * pairs - 1`` cards and a completing face
  such that the hand wins by ordinary ù, yet would not win if no special cạ could be made
  anywhere in it.
* `dead_wait`: a concealed hand of ``2 * pairs - 1`` cards that one face would complete,
  but only a face that may never complete ù (``[win] never_complete``) or that completes
  only a hand of exactly the minimum chắn (``[win] exact_min``) where this one has more;
  and no face completes it by ù or chíu-ù: a wait that can never win.

Pairs never cross a class of the cạ graph, so a hand is a choice of one count vector per
class, and its largest chắn count is the sum of the classes' largest counts (model/chan/win.py
builds those tables; here each class also gets them with the special cạ taken out).  A
class contributes a *signature* (cards, largest chắn, and what the question needs
besides), and a dynamic programme over the classes visits every signature some hand
reaches: a witness, or a proof by exhaustion that none exists.  The search is
deterministic: the first witness in the order of the faces and of the count vectors.

Every witness is confirmed by the Z3 oracle on the concrete hand (checks/oracles/
z3win.py, a quantifier-free ``Optimize`` over its pairings), so two independent
encodings agree on each hand reported.  The quantified Z3 forms of both questions
(``z3win.needs_special_ca``, ``z3win.dead_wait``) are a second oracle on small decks; on
the full deck their memory grows past what this machine has.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from chanspec.checks.chan import z3win
from chanspec.model.chan import cards
from chanspec.model.chan.table import Rules
from chanspec.model.chan.win import NONE, class_tables, engine

# Z3's limit for one concrete hand: such a question takes milliseconds
CONFIRM_TIMEOUT_MS = 120_000


class OracleDisagreement(AssertionError):
    """The search and the Z3 oracle disagree on a concrete hand: a bug in one of them."""


@dataclass(frozen=True)
class _Class:
    faces: tuple[int, ...]
    base: int
    # per count vector (its key): largest chắn count, NONE when it cannot split
    best: list[int]
    # per face of the class and key: the same with the face in a pair that may be the
    # last one (its chắn, or a cạ with it that is not special)
    final: list[list[int]]
    # the same two tables with the special cạ taken out of the class
    plain: list[int]
    plain_final: list[list[int]]

    def vectors(self, need: int) -> Iterator[tuple[int, list[int]]]:
        """(key, counts) of every count vector of at most `need` cards, keys ascending."""
        k = len(self.faces)
        for key in range(self.base ** k):
            v = [(key // self.base ** i) % self.base for i in range(k)]
            if sum(v) <= need:
                yield key, v

    def key(self, v: list[int]) -> int:
        return sum(n * self.base ** i for i, n in enumerate(v))


def _classes(rules: Rules) -> list[_Class]:
    out = []
    for t in engine(rules).classes:
        plain_ca = tuple(tuple(c and not s for c, s in zip(row, srow, strict=True))
                         for row, srow in zip(t.ca, t.special, strict=True))
        plain, plain_final = class_tables(len(t.faces), rules.copies, plain_ca, t.special)
        out.append(_Class(t.faces, rules.copies + 1, t.best, t.final, plain, plain_final))
    return out


def _combine(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Add two signatures field by field; in the chắn fields NONE (cannot split) absorbs."""
    return tuple(NONE if i and NONE in (x, y) else x + y
                 for i, (x, y) in enumerate(zip(a, b, strict=True)))


def _reach(sigs: list[dict[tuple[int, ...], int]], width: int,
           need: int) -> dict[tuple[int, ...], tuple[int, ...]]:
    """Dynamic programme over classes: every sum of one signature per class (at most
    `need` cards), each with the keys of the first choice that reaches it."""
    states: dict[tuple[int, ...], tuple[int, ...]] = {(0,) * width: ()}
    for by_sig in sigs:
        nxt: dict[tuple[int, ...], tuple[int, ...]] = {}
        for s, keys in states.items():
            for t, key in by_sig.items():
                u = _combine(s, t)
                if u[0] <= need:
                    nxt.setdefault(u, (*keys, key))
        states = nxt
    return states


def _counts(classes: list[_Class], keys: list[int]) -> list[int]:
    counts = [0] * cards.NUM_FACES
    for c, key in zip(classes, keys, strict=True):
        for i, f in enumerate(c.faces):
            counts[f] = (key // c.base ** i) % c.base
    return counts


def _hand(counts: list[int]) -> tuple[int, ...]:
    return tuple(f for f in range(len(counts)) for _ in range(counts[f]))


def _wins(chan: int, exact: bool, min_chan: int) -> bool:
    """A largest chắn count wins: at least the minimum, or exactly it ([win] exact_min)."""
    return chan != NONE and (chan == min_chan if exact else chan >= min_chan)


# ------------------------------------------------------------------ needs a special cạ


def _special_sigs(c: _Class, need: int, face: int | None) -> dict[tuple[int, ...], int]:
    """(cards, chắn with every cạ, chắn without the special cạ) -> smallest key; with
    `face`, the class holds the completing card and the final-pair tables are used."""
    out: dict[tuple[int, ...], int] = {}
    i = None if face is None else c.faces.index(face)
    for key, v in c.vectors(need):
        if i is not None and not v[i]:
            continue
        a, p = (c.best[key], c.plain[key]) if i is None else (c.final[i][key],
                                                                c.plain_final[i][key])
        if a != NONE:
            out.setdefault((sum(v), a, p), key)
    return out


def search_special_ca(rules: Rules) -> tuple[tuple[int, ...], int] | None:
    """The first (hand, completing face) that wins by ù only with a special cạ."""
    need = 2 * rules.pairs
    classes = _classes(rules)
    whole = [_special_sigs(c, need, None) for c in classes]
    exact = rules.exact_min if "u" in rules.exact_min_applies else frozenset()
    for g in sorted(rules.faces):
        if g in rules.never_complete and "u" in rules.never_complete_applies:
            continue
        j = next(n for n, c in enumerate(classes) if g in c.faces)
        others = _reach([s for n, s in enumerate(whole) if n != j], 3, need)
        for t, key in _special_sigs(classes[j], need, g).items():
            for s, keys in others.items():
                size, a, p = _combine(s, t)
                if size == need and _wins(a, g in exact, rules.min_chan) and not _wins(
                        p, g in exact, rules.min_chan):
                    ks = list(keys)
                    ks.insert(j, key)
                    counts = _counts(classes, ks)
                    counts[g] -= 1  # the completing card is not held
                    return _hand(counts), g
    return None


def confirm_special_ca(rules: Rules, hand: tuple[int, ...], g: int) -> None:
    """Z3 on this one hand: it wins by ù, and not with the special cạ taken out."""
    oracle = z3win.Z3Win(rules, timeout_ms=CONFIRM_TIMEOUT_MS)
    if not oracle.judge(hand, [], g, "u").win:
        raise OracleDisagreement(f"Z3: {cards.codes(hand)} + {cards.code(g)} does not win")
    plain = z3win.Z3Win(rules, timeout_ms=CONFIRM_TIMEOUT_MS)
    plain.pairs = [(a, b) for a, b in plain.pairs if not rules.is_special(a, b)]
    full = cards.counts((*hand, g))
    best = plain._max(full, g, allow_special=False)
    exact = g in rules.exact_min and "u" in rules.exact_min_applies
    if _wins(NONE if best is None else best, exact, rules.min_chan):
        raise OracleDisagreement(f"Z3: {cards.codes(hand)} + {cards.code(g)} wins without "
                                 "a special cạ")


def needs_special_ca(rules: Rules) -> z3win.Witness | None:
    """The search's witness, confirmed by Z3; None when the search proves there is none."""
    found = search_special_ca(rules)
    if found is None:
        return None
    hand, g = found
    confirm_special_ca(rules, hand, g)
    return z3win.Witness(hand, g, "wins only with a special cạ in the hand")


# ------------------------------------------------------------------------- dead waits


def _skips(rules: Rules, g: int, kind: str) -> bool:
    """Face g may never complete a win of this kind ([win] never_complete)."""
    return g in rules.never_complete and kind in rules.never_complete_applies


def _exact(rules: Rules, g: int, kind: str) -> bool:
    return g in rules.exact_min and kind in rules.exact_min_applies


def _dead_in_class(rules: Rules, c: _Class, v: list[int], other: int,
                   waits: list[int]) -> int | None:
    """The wait face of a dead wait whose odd class holds `v` and whose other classes
    add `other` chắn at most, or None."""
    m, top = rules.min_chan, rules.copies
    wait = None
    for y in waits:
        i = c.faces.index(y) if y in c.faces else None
        if i is None or v[i] >= top:
            continue
        v[i] += 1
        f = c.final[i][c.key(v)]
        v[i] -= 1
        # complete with y: it may never complete ù, or only at exactly the minimum
        if f != NONE and (f + other > m if y not in rules.never_complete else f + other >= m):
            wait = y
            break
    if wait is None:
        return None
    for i, g in enumerate(c.faces):
        if not _skips(rules, g, "u") and v[i] < top:
            v[i] += 1
            f = c.final[i][c.key(v)]
            v[i] -= 1
            if f != NONE and _wins(f + other, _exact(rules, g, "u"), m):
                return None
        if not _skips(rules, g, "chiu-u") and 3 <= v[i] < top:
            v[i] -= 3
            b = c.best[c.key(v)]
            v[i] += 3
            if b != NONE and _wins(b + 2 + other, _exact(rules, g, "chiu-u"), m):
                return None
    return wait


def search_dead_wait(rules: Rules) -> tuple[tuple[int, ...], int] | None:
    """The first (hand, wait face) of a wait that can never win.

    Every class but the odd one splits on its own and adds its largest chắn count; a
    face outside the odd class leaves it odd (taken, or three of it laid as a chíu), so
    only the odd class's faces can complete the hand, and each is checked."""
    never, exact = z3win.wait_faces(rules)
    waits = never + exact
    if not waits:
        return None
    need = 2 * rules.pairs - 1
    classes = _classes(rules)
    whole: list[dict[tuple[int, ...], int]] = []
    for c in classes:
        sigs: dict[tuple[int, ...], int] = {}
        for key, v in c.vectors(need):
            if c.best[key] != NONE:
                sigs.setdefault((sum(v), c.best[key]), key)
        whole.append(sigs)
    for j, c in enumerate(classes):
        if not any(y in c.faces for y in waits):
            continue
        by_size: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        for (size, other), keys in sorted(_reach(
                [s for n, s in enumerate(whole) if n != j], 2, need).items()):
            by_size.setdefault(size, []).append((other, keys))
        for key, v in c.vectors(need):
            if sum(v) % 2 == 0:
                continue
            for other, keys in by_size.get(need - sum(v), []):
                y = _dead_in_class(rules, c, v, other, waits)
                if y is not None:
                    ks = list(keys)
                    ks.insert(j, key)
                    return _hand(_counts(classes, ks)), y
    return None


def confirm_dead_wait(rules: Rules, hand: tuple[int, ...], y: int) -> None:
    """Z3 on this one hand, face by face over the whole deck: y completes it (but may not
    win it), and no face wins it by ù or by chíu-ù."""
    oracle = z3win.Z3Win(rules, timeout_ms=CONFIRM_TIMEOUT_MS)
    held = cards.counts(hand)
    full = cards.counts((*hand, y))
    best = oracle._max(full, y, allow_special=False)
    limit = rules.min_chan + (1 if y not in rules.never_complete else 0)
    if held[y] >= rules.copies or best is None or best < limit:
        raise OracleDisagreement(f"Z3: {cards.codes(hand)} is not completed by "
                                 f"{cards.code(y)} as the wait needs")
    for g in sorted(rules.faces):
        for kind, ok in (("u", held[g] < rules.copies),
                         ("chiu-u", 3 <= held[g] < rules.copies)):
            if ok and oracle.judge(hand, [], g, kind).win:
                raise OracleDisagreement(f"Z3: {cards.codes(hand)} wins with "
                                         f"{cards.code(g)} ({kind})")


def dead_wait(rules: Rules) -> z3win.Witness | None:
    """The search's witness, confirmed by Z3; None when the search proves there is none."""
    found = search_dead_wait(rules)
    if found is None:
        return None
    hand, y = found
    confirm_dead_wait(rules, hand, y)
    if y in rules.never_complete:
        return z3win.Witness(hand, y, "completes only with a face that may never complete ù")
    return z3win.Witness(hand, y, "completes only with a face that completes only a hand "
                                  "of exactly the minimum chắn, here above it")
