"""Input plumbing shared by the two independent win oracles (checks/chan/brute.py and
checks/chan/z3win.py): a request (hand, laid groups, candidate, kind of win) checked
and turned into the counts an oracle splits into pairs (`request`).

Only counting lives here; each oracle keeps its own way of splitting and of judging what
the split is worth, and neither uses model/chan/win.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from chanspec.model.chan import cards
from chanspec.model.chan.table import Rules

# chắn a laid group counts: a chíu is four identical cards, two chắn (§2 Chíu)
GROUP_CHAN = {"chan": 1, "ca": 0, "chiu": 2}


def split_hand(
    hand: Iterable[int], laid: Sequence[tuple[str, tuple[int, ...]]]
) -> tuple[list[int], list[int], int]:
    """(held counts, concealed counts, chắn already laid down).  Concealed counts go
    negative when a laid group uses a card the hand does not hold: the caller reports it."""
    held = cards.counts(hand)
    concealed = list(held)
    laid_chan = 0
    for gkind, faces in laid:
        laid_chan += GROUP_CHAN[gkind]
        for f in faces:
            concealed[f] -= 1
    return held, concealed, laid_chan


def free_cards(concealed: Sequence[int], laid: Sequence[tuple[str, tuple[int, ...]]],
               pooled: bool) -> tuple[list[int], int]:
    """(the counts an oracle splits into pairs, the chắn laid outside them), under one
    reading of ``[win] laid_rule`` (`Rules.laid_pooled`): as laid, the concealed counts
    and every laid group's chắn; pooled, the cards of laid chắn and cạ go back with the
    concealed ones and only a chíu stays outside, as two chắn."""
    free = list(concealed)
    fixed = 0
    for gkind, faces in laid:
        if pooled and gkind != "chiu":
            for f in faces:
                free[f] += 1
        else:
            fixed += GROUP_CHAN[gkind]
    return free, fixed


@dataclass(frozen=True)
class Request:
    """What an oracle splits into pairs for one request, and what it adds to the split."""

    counts: tuple[int, ...]  # by face: the cards to split into pairs
    final: int | None  # ordinary ù: the candidate, which must sit in a pair that may be last
    fixed: int  # chắn outside `counts` (laid groups kept as laid; a chíu-ù's chíu)


def request(rules: Rules, hand: Iterable[int], laid: Sequence[tuple[str, tuple[int, ...]]],
            candidate: int | None, kind: str, error: type[ValueError]) -> Request | None:
    """The judge's input for `hand` with `laid` groups (kind, faces) and the completing
    `candidate`, for a win of `kind` (``opening``, ``chiu-u``, or an ordinary ù) under
    the resolved `rules`; None when the cards are not the size of a complete hand.
    Raises `error` (the oracle's own) on input that is not a hand: a laid card not held,
    more copies of a face than the deck has, a face outside the deck, a chíu-ù without
    three concealed copies of the candidate."""
    held, concealed, _ = split_hand(hand, laid)
    if any(n < 0 for n in concealed):
        raise error("a laid group uses a card the hand does not hold")
    if candidate is not None:
        held[candidate] += 1
    if any(n > rules.copies for n in held):
        raise error("more copies of a face than the deck has")
    if any(held[f] for f in range(cards.NUM_FACES) if f not in rules.faces):
        raise error("a face outside this deck")
    if sum(held) != 2 * rules.pairs:
        return None
    # [win] laid_rule: laid chắn and cạ kept as laid, or split again (pooled)
    free, fixed = free_cards(concealed, laid, rules.laid_pooled)
    if kind == "opening":
        return Request(tuple(free), None, fixed)
    assert candidate is not None
    if kind == "chiu-u":
        if concealed[candidate] < 3:
            raise error("chíu-ù needs three concealed copies of the candidate")
        free[candidate] -= 3
        return Request(tuple(free), None, fixed + 2)
    free[candidate] += 1
    return Request(tuple(free), candidate, fixed)
