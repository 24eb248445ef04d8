"""Input plumbing shared by the two independent win oracles (checks/chan/brute.py and
checks/z3win.py): count a hand and take its laid-down groups out of it.

Only counting lives here; each oracle keeps its own checks and its own way of answering,
and neither uses model/chan/win.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from chanspec.model.chan import cards

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
