"""OpenSpiel-style random simulation: many seeded games, every invariant at every step.

Game ``i`` of a campaign with seed ``S`` draws its player count, its options (every
option row, each from all its values, unless fixed) and its deal seed from
``random.Random(f"{S}:{i}")``, so any game is replayable from ``(S, i)`` alone, and the
finding it raises also prints its action list.  Odd games play *eagerly* (claims and wins
preferred), even games uniformly at random: uniform play rarely ends in ù.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.checks.explore.invariants import Finding, Stats, play_random, stuck_kind
from chanspec.model.chan import table as table_mod
from chanspec.model.chan.game import State, start_seat

EAGER = 0.7


@dataclass
class GameSpec:
    index: int
    players: int
    options: dict[str, str]
    deal_seed: int
    eager: float

    @property
    def label(self) -> str:
        return (f"campaign game {self.index} (deal seed {self.deal_seed}, "
                f"{'eager' if self.eager else 'uniform'} play)")


@dataclass
class Campaign:
    seed: int
    stats: Stats = field(default_factory=Stats)
    findings: list[Finding] = field(default_factory=list)
    # rules findings: the shortest replayable example of each allowed deadlock kind
    rules_findings: dict[str, dict[str, Any]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "stats": self.stats.as_json(),
                "findings": [f.as_json() for f in self.findings],
                "rules_findings": self.rules_findings}


def game_spec(table: table_mod.Table, seed: int, index: int,
              players: Sequence[int] = (4, 5),
              options: Mapping[str, str] | None = None) -> GameSpec:
    rng = random.Random(f"{seed}:{index}")
    p = rng.choice(list(players))
    opts = {name: rng.choice(values) for name, values in table.option_space()}
    if options:
        opts.update(options)
    return GameSpec(index, p, opts, rng.getrandbits(32), EAGER if index % 2 else 0.0)


def play_spec(table: table_mod.Table, spec: GameSpec, stats: Stats | None = None,
              explain_checks: bool = True) -> State:
    """Play one game of a campaign under watch (raises Finding on a violation)."""
    rules = table.resolve(spec.players, spec.options)
    st = State.new(rules, seed=spec.deal_seed,
                   **start_seat(rules, spec.deal_seed % spec.players))
    rng = random.Random(spec.deal_seed)
    play_random(st, rng, spec.label, stats=stats, explain_checks=explain_checks,
                eager=spec.eager)
    return st


def campaign(seed: int, games: int, *, table: table_mod.Table | None = None,
             players: Sequence[int] = (4, 5), options: Mapping[str, str] | None = None,
             explain_checks: bool = True, max_findings: int = 5) -> Campaign:
    t = table or table_mod.load("family")
    out = Campaign(seed)
    for i in range(games):
        spec = game_spec(t, seed, i, players, options)
        try:
            st = play_spec(t, spec, out.stats, explain_checks)
        except Finding as f:
            out.findings.append(f)
            if len(out.findings) >= max_findings:
                break
            continue
        kind = stuck_kind(st) if not st.is_terminal() else None
        if kind is not None:
            known = out.rules_findings.get(kind)
            if known is None or len(st.history) < len(known["actions"]):
                out.rules_findings[kind] = {
                    "game": spec.label, "players": spec.players,
                    "actions": [a.code() for a in st.history], "state": st.to_json(),
                    "seat": st.actor,
                }
    return out
