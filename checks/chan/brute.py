"""A brute-force oracle for the winning-hand question.

It enumerates pairings directly: repeatedly take the lowest face still unpaired and try
every partner for it (itself, as a chắn, or any face the rules accept as a cạ).  There
are no precomputed tables; the only cache is a memo keyed by the multiset of cards left,
which keeps the search polynomial on real hands without changing what it explores.

It shares no code with ``model/chan/win.py``: it reads the resolved `Rules` (``pairs``,
``min_chan``, ``is_ca``, ``is_special``, ``never_complete``, ``laid_pooled``...) and the
card helpers only.  Used by the tests to cross-check the engine and the Z3 oracle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from chanspec.checks.chan.oracle_input import request
from chanspec.model.chan.table import Rules

Counts = tuple[int, ...]


@dataclass(frozen=True)
class BruteResult:
    win: bool
    chan: int | None  # largest admissible chắn count, None when nothing decomposes
    refused: tuple[str, ...]  # rule ids that alone turned a decomposable hand down


class BruteError(ValueError):
    """Input that is not a hand (`oracle_input.request` says which)."""


class Brute:
    """Exhaustive pairing search for one resolved rule set."""

    def __init__(self, rules: Rules):
        self.rules = rules
        fs = sorted(rules.faces)
        self.partners: dict[int, tuple[int, ...]] = {
            a: tuple(b for b in fs if b > a and rules.is_ca(a, b)) for a in fs
        }
        self._memo: dict[Counts, int | None] = {}

    def max_chan(self, counts: Sequence[int]) -> int | None:
        """Largest chắn count over all ways to split `counts` into pairs (None: no way)."""
        return self._best(tuple(counts))

    def _best(self, c: Counts) -> int | None:
        if c in self._memo:
            return self._memo[c]
        low = next((f for f, n in enumerate(c) if n), None)
        if low is None:
            return 0
        top: int | None = None
        if c[low] >= 2:
            rest = list(c)
            rest[low] -= 2
            sub = self._best(tuple(rest))
            if sub is not None:
                top = sub + 1
        for p in self.partners.get(low, ()):
            if c[p]:
                rest = list(c)
                rest[low] -= 1
                rest[p] -= 1
                sub = self._best(tuple(rest))
                if sub is not None and (top is None or sub > top):
                    top = sub
        self._memo[c] = top
        return top

    def _best_final(self, full: Sequence[int], cand: int, allow_special: bool) -> int | None:
        """Largest chắn count when the candidate must sit in the last pair."""
        top: int | None = None
        if full[cand] >= 2:
            rest = list(full)
            rest[cand] -= 2
            sub = self._best(tuple(rest))
            if sub is not None:
                top = sub + 1
        for p in self.rules.faces:
            if p == cand or not full[p] or not self.rules.is_ca(cand, p):
                continue
            if not allow_special and self.rules.is_special(cand, p):
                continue
            rest = list(full)
            rest[cand] -= 1
            rest[p] -= 1
            sub = self._best(tuple(rest))
            if sub is not None and (top is None or sub > top):
                top = sub
        return top

    def judge(
        self,
        hand: Iterable[int],
        laid: Sequence[tuple[str, tuple[int, ...]]] = (),
        candidate: int | None = None,
        kind: str = "u",
    ) -> BruteResult:
        """Same question as the engine's judge(); `laid` holds (kind, faces) pairs."""
        r = self.rules
        req = request(r, hand, laid, candidate, kind, BruteError)
        if req is None:
            return BruteResult(False, None, ())
        never = (candidate is not None and candidate in r.never_complete
                 and kind in r.never_complete_applies)
        refused: list[str] = []
        if req.final is None:  # an opening hand, or the rest of a chíu-ù
            sub = self._best(req.counts)
            chan = None if sub is None else sub + req.fixed
        else:
            sub = self._best_final(req.counts, req.final, allow_special=False)
            chan = None if sub is None else sub + req.fixed
            loose = self._best_final(req.counts, req.final, allow_special=True)
            if loose is not None and loose + req.fixed >= r.min_chan and (
                    chan is None or chan < r.min_chan):
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
        return BruteResult(win, chan, tuple(refused))


def reduced_table_text(
    faces: Sequence[str],
    copies: int,
    variants: Sequence[tuple[int, int, int]],
    table_id: str = "reduced",
) -> str:
    """The family's table text with a smaller deck and smaller hands, for exhaustive checks.

    `faces` are card codes kept in the deck, `copies` the copies of each, and each
    variant is ``(players, pairs, min_chan)`` (deal sizes follow from ``pairs``).  Every
    other row (cạ classes, options, restrictions) is the family's own.  The ruleset gets
    its own id so caches keyed by the id never mix it up with the full table.
    """
    from chanspec.model.table import builtin_path

    text = builtin_path("family").read_text(encoding="utf-8")
    text = text.replace('\nid = "family"\n', f'\nid = "{table_id}"\n', 1)
    listed = ", ".join(f'"{f}"' for f in faces)
    text = text.replace('faces = "all"', f"faces = [{listed}]", 1)
    text = text.replace("\ncopies = 4\n", f"\ncopies = {copies}\n", 1)
    head, sep, tail = text.partition("\n[[variant]]\n")
    tail = tail[tail.index("\n[pairing]\n") + 1:]
    blocks = "".join(
        f'[[variant]]\nrule = "deal-4"\nplayers = {p}\nopener_cards = {2 * n}\n'
        f"other_cards = {2 * n - 1}\npairs = {n}\nmin_chan = {m}\n\n"
        for p, n, m in variants
    )
    assert sep, "the family table has no [[variant]]"
    return head + "\n" + blocks + tail


def reduced_rules(
    faces: Sequence[str],
    copies: int,
    variants: Sequence[tuple[int, int, int]],
    players: int,
    options: dict[str, str] | None = None,
    table_id: str = "reduced",
) -> Rules:
    from chanspec.model.chan.table import load_text

    text = reduced_table_text(faces, copies, variants, table_id)
    # a deck to judge hands with, never dealt: it may be smaller than a deal
    return load_text(text, f"<{table_id}>", dealt=False).resolve(players, options)
