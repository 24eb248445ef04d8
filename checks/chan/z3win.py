"""An independent Z3 oracle for the winning-hand question, and questions over all hands.

The encoding shares no code with ``model/chan/win.py``.  It reads only the resolved `Rules`
(pairs, min_chan, copies, faces, is_ca, is_special, never_complete,
never_complete_applies, rid) and the card helpers.

For a concrete hand the unknowns are integers:

* ``chan[f]``   concealed chắn of face f,
* ``ca[a,b]``   cạ made of faces a and b (one variable per unordered pair the rules allow);

every concealed card is used exactly once (``2 chan[f] + sum_b ca[f,b] == count[f]``),
laid-down groups are fixed and only add their chắn (under ``[win] laid_rule`` pooled, the
cards of laid chắn and cạ are counted with the concealed ones instead, and only a chíu
stays fixed), and for an ordinary ù the candidate
must sit in a pair that may be the final one (a chắn of its face, or a cạ with it that is
not special).  The chắn total is maximised with ``z3.Optimize``.

The functions at the end ask questions about *every* hand at once; each returns a witness
or None when Z3 proves there is none.  Their hands have nothing laid down, so
the reading of laid groups does not change them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import z3
from chanspec.checks.chan.oracle_input import request
from chanspec.model.chan import cards
from chanspec.model.chan.table import Rules


class Z3InputError(ValueError):
    """Input that is not a hand (`oracle_input.request` says which)."""


class Z3Unknown(RuntimeError):
    """Z3 gave up (time limit); neither a witness nor a proof."""


@dataclass(frozen=True)
class Z3Result:
    win: bool
    chan: int | None  # largest admissible chắn count, None when nothing decomposes
    refused: tuple[str, ...]  # rule ids that alone turned a decomposable hand down


@dataclass(frozen=True)
class Witness:
    hand: tuple[int, ...]  # the cards held before the candidate, in face order
    candidate: int | None  # the completing card (None for questions without one)
    note: str = ""

    def codes(self) -> tuple[list[str], str | None]:
        return cards.codes(self.hand), None if self.candidate is None else cards.code(
            self.candidate)


def _ca_pairs(rules: Rules) -> list[tuple[int, int]]:
    fs = sorted(rules.faces)
    return [(a, b) for i, a in enumerate(fs) for b in fs[i + 1:] if rules.is_ca(a, b)]


def inputs(rules: Rules) -> tuple[object, ...]:
    """Everything the questions of this module read from the rules: two rule sets with
    the same inputs get the same answers."""
    pairs = _ca_pairs(rules)
    return (tuple(sorted(rules.faces)), rules.copies, rules.pairs, rules.min_chan,
            tuple(pairs), tuple(p for p in pairs if rules.is_special(*p)),
            tuple(sorted(rules.never_complete)), tuple(sorted(rules.never_complete_applies)),
            tuple(sorted(rules.exact_min)), tuple(sorted(rules.exact_min_applies)))


class _Decomp:
    """Fresh pairing variables for one count vector, with the constraints that bind them."""

    def __init__(self, rules: Rules, tag: str, pairs: list[tuple[int, int]]):
        self.rules = rules
        self.chan = {f: z3.Int(f"{tag}_chan_{f}") for f in rules.faces}
        self.ca = {(a, b): z3.Int(f"{tag}_ca_{a}_{b}") for a, b in pairs}
        self.touch: dict[int, list[tuple[tuple[int, int], z3.ArithRef]]] = {
            f: [] for f in rules.faces}
        for (a, b), v in self.ca.items():
            self.touch[a].append(((a, b), v))
            self.touch[b].append(((a, b), v))

    def variables(self) -> list[z3.ArithRef]:
        return list(self.chan.values()) + list(self.ca.values())

    def total_chan(self) -> z3.ArithRef:
        return z3.Sum(list(self.chan.values())) if self.chan else z3.IntVal(0)

    def uses(self, count: dict[int, Any]) -> list[z3.BoolRef]:
        """Every card of `count` (ints or Z3 terms, per face) sits in exactly one pair."""
        out: list[z3.BoolRef] = [v >= 0 for v in self.variables()]
        for f in self.rules.faces:
            used = 2 * self.chan[f] + z3.Sum([v for _, v in self.touch[f]] + [z3.IntVal(0)])
            out.append(used == count.get(f, 0))
        return out

    def final_with(self, cand: int, allow_special: bool) -> z3.BoolRef:
        """Some pair holding the candidate may be the last one."""
        opts: list[z3.BoolRef] = [self.chan[cand] >= 1]
        for (a, b), v in self.ca.items():
            if cand in (a, b) and (allow_special or not self.rules.is_special(a, b)):
                opts.append(v >= 1)
        return z3.Or(opts)

    def uses_special(self) -> z3.BoolRef:
        sp = [v >= 1 for (a, b), v in self.ca.items() if self.rules.is_special(a, b)]
        return z3.Or(sp) if sp else z3.BoolVal(False)

    def no_special(self) -> list[z3.BoolRef]:
        return [v == 0 for (a, b), v in self.ca.items() if self.rules.is_special(a, b)]


class Z3Win:
    """The oracle for one resolved rule set."""

    def __init__(self, rules: Rules, timeout_ms: int = 20000):
        self.rules = rules
        self.pairs = _ca_pairs(rules)
        self.timeout_ms = timeout_ms

    def _max(self, count: Sequence[int], final: int | None, allow_special: bool) -> int | None:
        d = _Decomp(self.rules, "h", self.pairs)
        opt = z3.Optimize()
        opt.set("timeout", self.timeout_ms)
        opt.add(*d.uses({f: count[f] for f in self.rules.faces}))
        if final is not None:
            opt.add(d.final_with(final, allow_special))
        obj = opt.maximize(d.total_chan())
        res = opt.check()
        if res == z3.unsat:
            return None
        if res != z3.sat:
            raise Z3Unknown(f"z3 returned {res}")
        return int(str(obj.value()))

    def judge(
        self,
        hand: Iterable[int],
        laid: Sequence[tuple[str, tuple[int, ...]]] = (),
        candidate: int | None = None,
        kind: str = "u",
    ) -> Z3Result:
        """Same question as the engine's judge(); `laid` holds (kind, faces) pairs."""
        r = self.rules
        req = request(r, hand, laid, candidate, kind, Z3InputError)
        if req is None:
            return Z3Result(False, None, ())
        never = (candidate is not None and candidate in r.never_complete
                 and kind in r.never_complete_applies)
        refused: list[str] = []
        if req.final is None:  # an opening hand, or the rest of a chíu-ù
            sub = self._max(req.counts, None, True)
            chan = None if sub is None else sub + req.fixed
        else:
            sub = self._max(req.counts, req.final, allow_special=False)
            chan = None if sub is None else sub + req.fixed
            if chan is None or chan < r.min_chan:
                loose = self._max(req.counts, req.final, allow_special=True)
                if loose is not None and loose + req.fixed >= r.min_chan:
                    refused.append(r.rid("win.special_ca_final_rule"))
        if never:
            refused.insert(0, r.rid("win.never_complete_rule"))
        # a face that completes only a hand of exactly the minimum chắn ([win] exact_min)
        exact = (candidate is not None and candidate in r.exact_min
                 and kind in r.exact_min_applies)
        if exact and chan is not None and chan > r.min_chan:
            refused.append(r.rid("win.exact_min_rule"))
        win = (chan is not None and not never
               and (chan == r.min_chan if exact else chan >= r.min_chan))
        return Z3Result(win, chan, tuple(refused))


# --------------------------------------------------------------------------- all hands


def _classes(rules: Rules) -> dict[int, int]:
    """Face -> index of its connected class in the cạ graph (own search, from is_ca)."""
    out: dict[int, int] = {}
    for f in sorted(rules.faces):
        if f in out:
            continue
        k = len(set(out.values()))
        stack = [f]
        out[f] = k
        while stack:
            x = stack.pop()
            for y in rules.faces:
                if y not in out and rules.is_ca(x, y):
                    out[y] = k
                    stack.append(y)
    return out


def _hand_vars(rules: Rules, size: int) -> tuple[dict[int, z3.ArithRef], list[z3.BoolRef]]:
    h = {f: z3.Int(f"hand_{f}") for f in rules.faces}
    cons: list[z3.BoolRef] = [z3.And(v >= 0, v <= rules.copies) for v in h.values()]
    cons.append(z3.Sum(list(h.values())) == size)
    return h, cons


def _plus(h: dict[int, z3.ArithRef], face: int, k: int) -> dict[int, Any]:
    out: dict[int, Any] = dict(h)
    out[face] = h[face] + k
    return out


def _wins_by_u(rules: Rules, pairs: list[tuple[int, int]], h: dict[int, z3.ArithRef],
               g: int, tag: str) -> tuple[_Decomp, z3.BoolRef]:
    """`hand + g` splits into pairs with an allowed final pair and enough chắn."""
    d = _Decomp(rules, tag, pairs)
    body = z3.And(*d.uses(_plus(h, g, 1)), d.final_with(g, allow_special=False),
                  d.total_chan() >= rules.min_chan)
    return d, body


def _wins_by_chiu(rules: Rules, pairs: list[tuple[int, int]], h: dict[int, z3.ArithRef],
                  g: int, tag: str) -> tuple[_Decomp, z3.BoolRef]:
    """Three concealed g plus a fourth make a chíu and the rest splits into pairs."""
    d = _Decomp(rules, tag, pairs)
    body = z3.And(h[g] >= 3, *d.uses(_plus(h, g, -3)), d.total_chan() + 2 >= rules.min_chan)
    return d, body


def _solve(s: z3.Solver) -> z3.ModelRef | None:
    res = s.check()
    if res == z3.unsat:
        return None
    if res != z3.sat:
        raise Z3Unknown(f"z3 returned {res}: {s.reason_unknown()}")
    return s.model()


def _hand_from(model: z3.ModelRef, h: dict[int, z3.ArithRef]) -> tuple[int, ...]:
    out: list[int] = []
    for f in sorted(h):
        out.extend([f] * model.eval(h[f], model_completion=True).as_long())
    return tuple(out)


def wait_faces(rules: Rules) -> tuple[list[int], list[int]]:
    """The faces a wait can be dead on: (faces that may never complete ù, faces that
    complete ù only for a hand of exactly the minimum chắn, ``[win] exact_min``)."""
    never = ([y for y in sorted(rules.never_complete) if y in rules.faces]
             if "u" in rules.never_complete_applies else [])
    exact = ([y for y in sorted(rules.exact_min) if y in rules.faces and y not in never]
             if "u" in rules.exact_min_applies else [])
    return never, exact


def _exact_no_win(rules: Rules, pairs: list[tuple[int, int]], h: dict[int, z3.ArithRef],
                  g: int, tag: str, chiu: bool) -> z3.BoolRef:
    """Taking `g`, a face of ``exact_min``, does not win (by ù, or by chíu-ù if `chiu`):
    no split reaches the minimum, or one goes above it (the largest count decides)."""
    mk = _wins_by_chiu if chiu else _wins_by_u
    extra = 2 if chiu else 0
    d, _ = mk(rules, pairs, h, g, f"{tag}a")
    d2, _ = mk(rules, pairs, h, g, f"{tag}b")
    rest = _plus(h, g, -3) if chiu else _plus(h, g, 1)
    base = [h[g] + 1 <= rules.copies] + ([h[g] >= 3] if chiu else [])
    final = [] if chiu else [d.final_with(g, allow_special=False)]
    final2 = [] if chiu else [d2.final_with(g, allow_special=False)]
    reach = z3.And(*base, *d.uses(rest), *final, d.total_chan() + extra >= rules.min_chan)
    above = z3.And(*base, *d2.uses(rest), *final2, d2.total_chan() + extra > rules.min_chan)
    return z3.Or(z3.ForAll(d.variables(), z3.Not(reach)), above)


def dead_wait(rules: Rules, timeout_ms: int = 120000) -> Witness | None:
    """A concealed hand one card short whose only completing cards may never complete it.

    The hand (``2 * pairs - 1`` concealed cards) would be complete with some face y that
    may never complete ù (``never_complete``: pairs, allowed final pair, enough chắn), or
    with a face that completes only a hand of exactly the minimum chắn (``exact_min``,
    classic Chắn's Chi Chi) in a split with more than the minimum (so that ù is refused);
    yet no other face completes it, neither by an ordinary ù nor by chíu-ù (nor y itself
    by chíu-ù): a wait that can never win.  Returns such a hand with y as `candidate`, or
    None when Z3 proves that no hand of the table is like that.
    """
    pairs = _ca_pairs(rules)
    never, exact = wait_faces(rules)
    waits = never + exact
    if not waits:
        return None
    h, cons = _hand_vars(rules, 2 * rules.pairs - 1)
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(*cons)
    y_is = {y: z3.Bool(f"wait_{y}") for y in waits}
    options = []
    for y in waits:
        if y in exact:  # complete with y, but above the minimum: ù refused
            d = _Decomp(rules, f"w{y}", pairs)
            body = z3.And(*d.uses(_plus(h, y, 1)), d.final_with(y, allow_special=False),
                          d.total_chan() > rules.min_chan)
        else:
            _, body = _wins_by_u(rules, pairs, h, y, f"w{y}")
        options.append(z3.And(y_is[y], h[y] + 1 <= rules.copies, body))
    s.add(z3.Or(options))
    # Pairs never cross a class of the cạ graph.  If the hand plus y is complete, every
    # class but y's holds an even number of cards and y's class an odd one; a face g of
    # another class leaves y's class odd (adding g, or removing three g for a chíu), so
    # only the faces of y's class can complete the hand too.  Those are checked for all
    # of their decompositions (a face of exact_min: none reaches the minimum, or one
    # goes above it).
    comp = _classes(rules)
    for g in sorted(rules.faces):
        if g in rules.never_complete:
            continue
        near = [y_is[y] for y in waits if comp[y] == comp[g]]
        if not near:
            continue
        if g in rules.exact_min and "u" in rules.exact_min_applies:
            s.add(z3.Implies(z3.Or(near), _exact_no_win(rules, pairs, h, g, f"u{g}", False)))
        else:
            d, body = _wins_by_u(rules, pairs, h, g, f"u{g}")
            s.add(z3.Implies(z3.Or(near), z3.ForAll(
                d.variables(), z3.Not(z3.And(h[g] + 1 <= rules.copies, body)))))
        if g in rules.exact_min and "chiu-u" in rules.exact_min_applies:
            s.add(z3.Implies(z3.Or(near), _exact_no_win(rules, pairs, h, g, f"c{g}", True)))
        else:
            d2, body2 = _wins_by_chiu(rules, pairs, h, g, f"c{g}")
            s.add(z3.Implies(z3.Or(near), z3.ForAll(
                d2.variables(), z3.Not(z3.And(h[g] + 1 <= rules.copies, body2)))))
    m = _solve(s)
    if m is None:
        return None
    hand = _hand_from(m, h)
    # The model may set several y_is; name a face whose whole option holds.
    oracle = Z3Win(rules)
    y = next(y for y in waits if z3.is_true(m.eval(y_is[y], model_completion=True))
             and _completes(oracle, hand, y))
    if y in exact:
        return Witness(hand, y, "completes only with a face that completes only a hand of "
                                "exactly the minimum chắn, here above it")
    return Witness(hand, y, "completes only with a face that may never complete ù")


def _completes(oracle: Z3Win, hand: Sequence[int], y: int) -> bool:
    full = [0] * cards.NUM_FACES
    for f in hand:
        full[f] += 1
    full[y] += 1
    if full[y] > oracle.rules.copies:
        return False
    best = oracle._max(full, y, allow_special=False)
    return best is not None and best >= oracle.rules.min_chan


def needs_special_ca(rules: Rules, timeout_ms: int = 120000) -> Witness | None:
    """A winning hand (ordinary ù) that cannot win without a special cạ somewhere in it.

    Returns the hand and its completing card such that some admissible winning
    decomposition exists, and every decomposition without a special cạ fails (no split,
    a bad final pair, or too few chắn).  None when Z3 proves there is no such hand.
    """
    pairs = _ca_pairs(rules)
    if not any(rules.is_special(a, b) for a, b in pairs):
        return None
    h, cons = _hand_vars(rules, 2 * rules.pairs - 1)
    cands = [g for g in sorted(rules.faces)
             if not (g in rules.never_complete and "u" in rules.never_complete_applies)]
    if not cands:
        return None
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(*cons)
    pick = {g: z3.Bool(f"cand_{g}") for g in cands}
    s.add(z3.PbEq([(b, 1) for b in pick.values()], 1))
    for g in cands:
        _, body = _wins_by_u(rules, pairs, h, g, f"u{g}")
        # the same question over the cạ that are not special only
        plain_pairs = [(a, b) for a, b in pairs if not rules.is_special(a, b)]
        d2, plain = _wins_by_u(rules, plain_pairs, h, g, f"n{g}")
        s.add(z3.Implies(pick[g], z3.And(h[g] + 1 <= rules.copies, body)))
        s.add(z3.Implies(pick[g], z3.ForAll(d2.variables(), z3.Not(plain))))
    m = _solve(s)
    if m is None:
        return None
    g = next(g for g in cands if z3.is_true(m.eval(pick[g], model_completion=True)))
    return Witness(_hand_from(m, h), g, "wins only with a special cạ in the hand")
