"""Helpers shared by the conformance-kit tests (logs, replay, ITF, conform, vectors)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from chanspec.model.chan import cards
from chanspec.model.chan import table as table_mod
from chanspec.model.chan.game import Action, Deal, State, random_playout

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "vectors"
CLASSIC_VECTORS = VECTORS / "classic"  # the vectors of spec/classic.toml
ENGINES = Path(__file__).resolve().parent / "engines"


def played(seed: int, players: int = 4, options: dict[str, str] | None = None) -> State:
    """A whole random hand, reproducible from its seed."""
    rules = table_mod.rules("family", players, options)
    st = State.new(rules, seed=seed)
    random_playout(st, random.Random(seed))
    return st


def build_deal(rules: table_mod.Rules, hands: dict[int, str], noc_prefix: str = "",
               opener: int = 0, seed: int = 0) -> Deal:
    """A deal with the given hands (codes, space separated) and the nọc starting with
    `noc_prefix`; the other seats and the rest of the nọc are filled from what is left,
    shuffled by `seed`."""
    pool: Counter[int] = Counter({f: rules.copies for f in rules.faces})
    fixed = {s: [cards.parse(c) for c in h.split()] for s, h in hands.items()}
    prefix = [cards.parse(c) for c in noc_prefix.split()]
    for f in [f for h in fixed.values() for f in h] + prefix:
        pool[f] -= 1
        assert pool[f] >= 0, cards.name(f)
    rest = [f for f in rules.faces for _ in range(pool[f])]
    random.Random(seed).shuffle(rest)
    v = rules.variant
    out = []
    for s in range(v.players):
        k = v.opener_cards if s == opener else v.other_cards
        if s in fixed:
            assert len(fixed[s]) == k, (s, len(fixed[s]), k)
            out.append(tuple(sorted(fixed[s])))
        else:
            out.append(tuple(sorted(rest[:k])))
            rest = rest[k:]
    return Deal(tuple(out), tuple(prefix + rest), opener)


def vector_docs(root: Path = VECTORS) -> list[dict[str, Any]]:
    """The committed cases of a vectors folder (the family's by default)."""
    return [json.loads(p.read_text(encoding="utf-8"))
            for p in sorted((root / "cases").glob("*.json"))]


def case_prefix(doc: dict[str, Any], index: int) -> list[Action]:
    """The valid actions of a case before step `index`."""
    return [Action.from_json(s["action"]) for s in doc["steps"][:index] if s["valid"]]
