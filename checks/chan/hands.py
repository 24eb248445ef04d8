"""Questions over all hands: how many win, which waits can never win, which need a special cạ.

`count_wins(rules)` counts exactly, by a combinatorial count over the winning-hand
engine's per-class tables (model/chan/win.py): a hand decomposes class by class, so the
number of hands with a given (size, largest chắn count) is a convolution of per-class
counts.  Hands are counted as *face multisets* (how many of each face, at most
``copies``), not as sets of physical cards.  Two numbers:

* ``complete``: multisets of ``2 * pairs`` cards that split into pairs with at least
  ``min_chan`` chắn (an opening win, no completing card);
* ``u_wins``: pairs (multiset of ``2 * pairs - 1`` cards, completing face) such that
  taking that face wins by ordinary ù: the face may complete ù, and the pair it finishes
  may be the final one (not a special cạ); a face of ``[win] exact_min`` (classic Chắn's
  Chi Chi) only with exactly ``min_chan`` chắn (the largest count).

`z3_questions(rules)` asks for a wait that can never win (`dead_wait`) and a winning
hand that needs a special cạ (`needs_special_ca`), each a witness or a proof that there
is none, or ``not-asked`` with the reason when the table has nothing the question is
about (no limited completing face, no special cạ).  The answers come from the exhaustive
search class by class of checks/chan/class_search.py, and Z3 confirms every witness
on its concrete hand; the name stays for the findings' key.
"""

from __future__ import annotations

from collections import Counter
from math import comb
from typing import Any

from chanspec.model.chan import cards
from chanspec.model.chan.table import Rules
from chanspec.model.chan.win import engine


def _digits(key: int, base: int, k: int) -> list[int]:
    out = []
    for _ in range(k):
        out.append(key % base)
        key //= base
    return out


def _convolve(a: Counter[tuple[int, int]], b: Counter[tuple[int, int]],
              cap: int) -> Counter[tuple[int, int]]:
    out: Counter[tuple[int, int]] = Counter()
    for (sa, ca), na in a.items():
        for (sb, cb), nb in b.items():
            if sa + sb <= cap:
                out[(sa + sb, ca + cb)] += na * nb
    return out


def count_wins(rules: Rules) -> dict[str, Any]:
    eng = engine(rules)
    need = 2 * rules.pairs
    base = rules.copies + 1
    # a face of [win] exact_min completes ù only a hand of exactly min_chan chắn
    exact = rules.exact_min if "u" in rules.exact_min_applies else frozenset()
    best: list[Counter[tuple[int, int]]] = []
    final: list[Counter[tuple[int, int]]] = []
    final_exact: list[Counter[tuple[int, int]]] = []
    for t in eng.classes:
        k = len(t.faces)
        b: Counter[tuple[int, int]] = Counter()
        f: Counter[tuple[int, int]] = Counter()
        fx: Counter[tuple[int, int]] = Counter()
        for key in range(base ** k):
            v = _digits(key, base, k)
            size = sum(v)
            if size > need:
                continue
            if t.best[key] >= 0:
                b[(size, t.best[key])] += 1
            for i, face in enumerate(t.faces):
                if v[i] and face not in rules.never_complete or (
                        v[i] and "u" not in rules.never_complete_applies):
                    fc = t.final[i][key]
                    if fc >= 0:
                        (fx if face in exact else f)[(size, fc)] += 1
        best.append(b)
        final.append(f)
        final_exact.append(fx)
    total: Counter[tuple[int, int]] = Counter({(0, 0): 1})
    for b in best:
        total = _convolve(total, b, need)
    complete = sum(n for (s, c), n in total.items() if s == need and c >= rules.min_chan)
    u_wins = 0
    for j in range(len(eng.classes)):
        acc: Counter[tuple[int, int]] = Counter({(0, 0): 1})
        for i, b in enumerate(best):
            acc = _convolve(acc, final[j] if i == j else b, need)
        u_wins += sum(n for (s, c), n in acc.items() if s == need and c >= rules.min_chan)
        if final_exact[j]:
            acc = Counter({(0, 0): 1})
            for i, b in enumerate(best):
                acc = _convolve(acc, final_exact[j] if i == j else b, need)
            u_wins += sum(n for (s, c), n in acc.items() if s == need and c == rules.min_chan)
    all_hands = _count_multisets(len(rules.faces), rules.copies, need)
    return {"players": rules.players, "pairs": rules.pairs, "min_chan": rules.min_chan,
            "complete": complete, "u_wins": u_wins, "all_multisets": all_hands,
            "method": "combinatorial count over the engine's per-class tables (face multisets)"}


def _count_multisets(faces: int, copies: int, size: int) -> int:
    """Multisets of `size` cards from `faces` faces with at most `copies` of each."""
    return sum((-1) ** j * comb(faces, j) * comb(size - j * (copies + 1) + faces - 1, faces - 1)
               for j in range(faces + 1) if size - j * (copies + 1) >= 0)


def z3_questions(rules: Rules) -> dict[str, Any]:
    from chanspec.checks.chan import class_search, z3win

    out: dict[str, Any] = {}
    never, exact = z3win.wait_faces(rules)
    special = any(rules.is_special(a, b) for a, b in z3win._ca_pairs(rules))
    why_not = {"dead_wait": None if never or exact else
               "no face of this table is limited as a completing card (never_complete, "
               "exact_min)",
               "needs_special_ca": None if special else "this table has no special cạ"}
    for name, fn in (("dead_wait", class_search.dead_wait),
                     ("needs_special_ca", class_search.needs_special_ca)):
        if why_not[name] is not None:  # the question does not arise: nothing to prove
            out[name] = {"answer": "not-asked", "why": why_not[name]}
            continue
        try:
            w = fn(rules)
        except z3win.Z3Unknown as exc:  # Z3 could not confirm the witness in time
            out[name] = {"answer": "unknown", "why": str(exc)}
            continue
        # no timings here: this lands in the committed OPEN_QUESTIONS.json, which must not
        # change from one run to the next on an unchanged table
        if w is None:
            out[name] = {"answer": "none",
                         "proof": "exhaustive search over every count vector of each class "
                                  "of the cạ graph"}
        else:
            out[name] = {"answer": "witness", "hand": cards.codes(w.hand),
                         "candidate": None if w.candidate is None else cards.code(w.candidate),
                         "note": w.note}
    return out
