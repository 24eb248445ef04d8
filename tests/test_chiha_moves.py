"""The Chiha machine's move sequences pinned down: for 40 seeded random hands under three
sets of option values, the digest of every legal-action list, every chosen move, every
event and the outcome (`python tests/test_chiha_moves.py --record` writes
tests/golden/chiha/moves.json, recorded when the machine was first written), so a change
of behaviour fails here even when every other test still passes."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest
from chanspec.model import kinds
from chanspec.model.chiha.game import State

GOLDEN = Path(__file__).parent / "golden" / "chiha" / "moves.json"
HANDS = 40
OPTION_SETS: dict[str, dict[str, str]] = {
    "as-written": {},
    "other-readings": {
        "lenh_partition": "all-cards-best", "turn_direction": "clockwise",
        "xep_optional": "optional", "after_xep": "draw-again",
        "eat_single_tuong": "alone", "claim_priority": "order-only",
        "force_others_optional": "any-meld", "xep_area": "face-down-only",
        "eat_onto_face_down": "stays-down", "after_keo_them": "draw-again",
        "discard_chot_scope": "holds-set", "u_threshold": "more-than",
        "u_toi": "bust-plays-on", "empty_hand_meaning": "no-legal-discard",
        "quan_threshold": "more-than", "quan_claim": "must-claim",
        "bust_penalty": "loses-only", "end_noc_payment": "replay",
        "end_noc_moment": "after-draw"},
    "keeps-set": {"discard_chot_scope": "keeps-set", "empty_hand_meaning": "no-card",
                  "after_xep": "turn-ends", "claim_priority": "drawer-then-order"},
}


def digest(options: dict[str, str], hands: int = HANDS) -> str:
    rules = kinds.rules("chiha", 3, **options)
    h = hashlib.sha256()
    for seed in range(hands):
        st = State.new(rules, seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            la = st.legal_actions()
            h.update(" ".join(a.code() for a in la).encode())
            a = rng.choice(la)
            h.update(a.code().encode())
            st.apply(a)
        h.update(json.dumps(st.events, sort_keys=True, ensure_ascii=False).encode())
        h.update(json.dumps(st.outcome(), sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.parametrize("name", sorted(OPTION_SETS))
def test_the_moves_are_those_recorded(name: str) -> None:
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert digest(OPTION_SETS[name]) == want[name]


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    GOLDEN.write_text(json.dumps({n: digest(o) for n, o in sorted(OPTION_SETS.items())},
                                 indent=1) + "\n", encoding="utf-8")
