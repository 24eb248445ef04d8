"""What the benchmarks share: the best of a few timed runs, and seeded random hands of a
kind with a plain-fields machine (Tấn, Chiha) played out unchecked.

The benches import it as ``timing`` (``python bench/NAME.py`` puts this folder first on
the import path)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from chanspec.model.story import play_random


def best(fn: Callable[[], Any], repeat: int = 3,
         clock: Callable[[], float] = time.process_time) -> float:
    """The shortest of `repeat` runs of `fn`, in seconds of `clock` (CPU time of this
    process unless told otherwise)."""
    times = []
    for _ in range(repeat):
        t = clock()
        fn()
        times.append(clock() - t)
    return min(times)


def random_hands(state: Any, rules: Any, seed: int, games: int, cap: int) -> int:
    """Play the hands of seeds ``seed .. seed + games - 1``: each dealt by
    ``state.new(rules, s)`` and played with uniformly random legal actions from
    ``Random(s)``, applied unchecked, until it ends or has `cap` moves.  Returns how
    many were stopped at the cap."""
    stopped = 0
    for s in range(seed, seed + games):
        st = play_random(state.new(rules, s), s, cap, check=False)
        stopped += not st.is_terminal()
    return stopped
