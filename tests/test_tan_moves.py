"""The Tấn machine's move sequences pinned down: for 200 seeded random hands at each
player count and under four sets of option values, the digest of every legal-action
list, every chosen move, every event and the outcome.  The digests were recorded from
the machine before its hot paths were sped up, the durak-two set's when its last
readings were added (`python tests/test_tan_moves.py --record` writes
tests/golden/tan/moves.json), so a change of behaviour fails here even when every other
test still passes."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from chanspec.model import kinds
from chanspec.model.tan.game import State, _perm
from hypothesis import given
from hypothesis import strategies as st_

GOLDEN = Path(__file__).parent / "golden" / "tan" / "moves.json"
HANDS = 200
CAP = 400  # moves: as written, some random hands go round for ever
OPTION_SETS: dict[str, dict[str, str]] = {
    "as-written": {},
    "after-taker": {"after_take": "after-taker", "first_attacker": "dealer-then-winner"},
    "other-readings": {
        "direction": "deal-opposite", "count_from": "next-is-one",
        "setup_order": "cung-xa-doi", "take_when_able": "must-beat",
        "take_what": "all-table", "add_who": "others-only", "add_ranks": "attack-only",
        "add_order": "round-from-defender", "attack_limit": "six",
        "pass_scope": "this-card", "defender_out": "defender-draws",
        "after_take": "after-taker", "out_turn": "previous-attacker",
        "hand_end": "first-out", "same_round_out": "shared-place",
        "doi_hai_chu": "on", "cung_chu": "on", "cung_no_trump": "gives-highest",
        "xa_chu": "on", "xa_redeal": "own-hand"},
    # preset durak-two (podkidnoy Durak, for comparison), recorded when its last three
    # readings were added: the sets above did not change then
    "durak-two": {
        "deck": "short", "hand_size": "short", "first_attacker": "lowest-trump",
        "attack_limit": "six", "first_round_limit": "five", "add_after_take": "add-to-taker",
        "defender_out": "round-beaten", "refill_order": "defender-last",
        "after_take": "after-taker", "take_what": "all-table", "add_ranks": "all-table",
        "take_when_able": "may-take", "pass_scope": "whole-round"},
}


def digest(players: int, options: dict[str, str], hands: int = HANDS) -> str:
    """The digest of `hands` seeded random hands (seed i, `Random(i)` picks the moves)."""
    rules = kinds.rules("tan", players, **options)
    h = hashlib.sha256()
    for seed in range(hands):
        previous = (seed % players, (seed + 1) % players) if seed % 2 else None
        st = State.new(rules, seed, dealer=seed % players, previous=previous)
        rng = random.Random(seed)
        while st.phase != "over" and len(st.history) < CAP:
            la = st.legal_actions()
            a = la[rng.randrange(len(la))]
            h.update((",".join(x.code() for x in la) + "|" + a.code() + "\n").encode())
            st.apply(a, check=seed % 4 == 0)
        h.update(json.dumps([st.events, st.outcome(), st.fingerprint()], default=str,
                            sort_keys=True).encode())
    return h.hexdigest()


def all_digests() -> dict[str, str]:
    return {f"{name}/{n}": digest(n, opts) for name, opts in OPTION_SETS.items()
            for n in (2, 3, 4)}


@pytest.mark.parametrize("key", sorted(json.loads(GOLDEN.read_text())) if GOLDEN.exists()
                         else [])
def test_moves_are_those_recorded(key: str) -> None:
    name, n = key.split("/")
    want: dict[str, Any] = json.loads(GOLDEN.read_text())
    assert digest(int(n), OPTION_SETS[name]) == want[key], (
        f"the Tấn machine's moves changed for {key}; if on purpose, record them again "
        "with: python tests/test_tan_moves.py --record")


def test_the_golden_file_covers_every_set() -> None:
    want = json.loads(GOLDEN.read_text())
    assert sorted(want) == sorted(f"{k}/{n}" for k in OPTION_SETS for n in (2, 3, 4))


@given(seed=st_.integers(0, 2**64), n=st_.integers(1, 64))
def test_a_deal_shuffles_as_random_shuffle_does(seed: int, n: int) -> None:
    """The deal's own shuffle draws exactly what `random.Random.shuffle` draws."""
    a, b = random.Random(seed), random.Random(seed)
    pack = list(range(n))
    a.shuffle(pack)
    assert _perm(b, n) == tuple(pack) and a.random() == b.random()


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    from chanspec.checks.output import write_atomic

    write_atomic(GOLDEN, json.dumps(all_digests(), indent=1, sort_keys=True) + "\n")
