"""The shape of a hand told in words, shared by the kinds whose ``chanspec play`` is a
story (Tấn, Chiha): a seeded random hand played out, then told from its deal, each
action followed by the consequences it caused, as (Vietnamese, English) lines.  What the
lines say is the kind's own (its ``words`` module); no game rule lives here."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

Line = tuple[str, str]  # (vi, en)


class _Hand(Protocol):
    history: list[Any]
    events: list[dict[str, Any]]

    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> list[Any]: ...

    def apply(self, action: Any, *, check: bool = True) -> None: ...


_S = TypeVar("_S", bound=_Hand)


def play_random(st: _S, seed: int, cap: int, *, check: bool = True) -> _S:
    """`st` played on with a uniform choice among the legal actions from
    ``Random(seed)`` at every step, until it ends or `cap` moves are in its history."""
    rng = random.Random(seed)
    while not st.is_terminal() and len(st.history) < cap:
        la = st.legal_actions()
        st.apply(la[rng.randrange(len(la))], check=check)
    return st


def tell(st: _Hand, actions: Iterable[Any], head: Iterable[Line],
         say_action: Callable[[Any, Any], Line],
         say_event: Callable[[dict[str, Any]], Line | None]) -> list[Line]:
    """The lines of `actions` played from the start position `st` (which is left at
    the end): `head`, the consequences already in `st`'s events, then each action's line
    (told in the position it is played from) followed by its consequences; `say_event`
    returns None for those the story leaves out."""
    out: list[Line] = list(head)
    seen = 0

    def flush() -> None:
        nonlocal seen
        for e in st.events[seen:]:
            line = say_event(e)
            if line:
                out.append(line)
        seen = len(st.events)

    flush()
    for a in actions:
        line = say_action(st, a)
        st.apply(a)
        out.append(line)
        flush()
    return out
