"""How often each cước comes up in seeded random play of classic Chắn, and each fault of
the rules of play under ``restriction-mode=penalise``.  Benchmark-free: only counts.

Each hand is dealt and played by the reference machine (`model.game.State`) from its own
seed (``seed * 1_000_000 + i`` for hand ``i``), by one of two random players: ``greedy``
takes a claim (a win first) six times in ten when it has one, ``uniform`` picks any legal
action.  A won hand is read back from its history (`cuoc.won_hand`) and judged by
`cuoc.judge` and `score.score`; nothing here knows what any cước means.  Faults are the
machine's own records (`State.faults`): each one names the rows the act broke.

`frequency()` returns a `Frequency`; ``as_json()`` gives the counts and the rates per
10,000 (cước among wins, faults among hands).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from chanspec.model.chan import cuoc, declare, score
from chanspec.model.chan.game import Action, State
from chanspec.model.chan.table import Rules

POLICIES = {"greedy": 0.6, "uniform": 0.0}  # how often a claim is taken when there is one
WIN_CLAIMS = ("u", "chiu-u")
CLAIMS = ("u", "chiu-u", "chiu", "reclaim", "eat")
PER = 10_000
MAX_STEPS = 5000


def hand_seed(seed: int, i: int) -> int:
    """The seed of hand `i` of a run seeded `seed` (its deal and its players' choices)."""
    return seed * 1_000_000 + i


def _choose(acts: Sequence[Action], rng: random.Random, eager: float) -> Action:
    if eager and rng.random() < eager:
        for kinds in (WIN_CLAIMS, CLAIMS):
            claims = [a for a in acts if a.kind in kinds]
            if claims:
                return rng.choice(claims)
    return rng.choice(acts)


def play(rules: Rules, seed: int, policy: str = "greedy") -> State:
    """One seeded hand played to its end (or until no seat has a legal action)."""
    eager = POLICIES[policy]
    st = State.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        acts = st.legal_actions()
        if st.is_terminal() or not acts:
            return st
        st.apply(_choose(acts, rng, eager), check=False)  # legal: just listed
    raise RuntimeError(f"hand {seed} did not end in {MAX_STEPS} steps")


def judge(rules: Rules, won: cuoc.WonHand) -> tuple[cuoc.Judgement, score.Score | None]:
    """The cước and score of a win read from a hand's history."""
    _, j = declare.hand_judgement(rules, won.hand, won.laid, won.ctx)
    if j is None:
        j = cuoc.Judgement((), ())  # (not a win: the history is inconsistent)
    return j, score.score(rules, j)


@dataclass
class Frequency:
    """Counts over `hands` seeded hands: how they ended, the cước declared (and held,
    replaced ones included) among the wins, the faults by row, and the scores."""

    seed: int
    policy: str
    hands: int = 0
    ended: Counter[str] = field(default_factory=Counter)  # win:KIND, draw, stuck
    declared: Counter[str] = field(default_factory=Counter)  # wins that declare the cước
    held: Counter[str] = field(default_factory=Counter)  # wins that hold it (replaced too)
    times: Counter[str] = field(default_factory=Counter)  # the cước counted with its times
    faults: Counter[str] = field(default_factory=Counter)  # fault records naming the row
    fault_hands: Counter[str] = field(default_factory=Counter)  # hands with such a record
    fault_records: int = 0  # every fault recorded (one act may break several rows)
    hands_with_faults: int = 0
    wins_with_faults: int = 0  # wins whose winner broke a rule of play
    totals: Counter[int] = field(default_factory=Counter)  # score total -> wins
    refused: int = 0  # wins below the house minimum (score-min)
    best: tuple[int, int] | None = None  # (total, hand seed) of the highest-scoring win

    @property
    def wins(self) -> int:
        return sum(n for k, n in self.ended.items() if k.startswith("win"))

    def as_json(self) -> dict[str, Any]:
        wins = self.wins

        def rate(n: int, of: int) -> float | None:
            return None if of == 0 else round(n * PER / of, 1)

        return {
            "seed": self.seed, "policy": self.policy, "hands": self.hands,
            "hand_seeds": f"{hand_seed(self.seed, 0)}..{hand_seed(self.seed, self.hands - 1)}"
            if self.hands else None,
            "ended": dict(sorted(self.ended.items())), "wins": wins,
            "cuoc": {r: {"declared": n, "held": self.held[r], "times": self.times[r],
                         "per_10000_wins": rate(n, wins)}
                     for r, n in sorted(self.held.items(), key=lambda kv: -kv[1])
                     for n in [self.declared[r]]},
            "faults": {r: {"count": n, "hands": self.fault_hands[r],
                           "hands_per_10000": rate(self.fault_hands[r], self.hands)}
                       for r, n in self.faults.most_common()},
            "fault_records": self.fault_records,
            "hands_with_faults": self.hands_with_faults,
            "wins_with_faults": self.wins_with_faults,
            "totals": {str(k): v for k, v in sorted(self.totals.items())},
            "refused": self.refused,
            "best": None if self.best is None else {"total": self.best[0],
                                                    "hand_seed": self.best[1]},
        }


def frequency(rules: Rules, hands: int, seed: int = 0, policy: str = "greedy",
              progress: Callable[[int], None] | None = None) -> Frequency:
    """Play `hands` seeded hands under `rules` and count what they show."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; known: {', '.join(POLICIES)}")
    out = Frequency(seed, policy)
    for i in range(hands):
        hs = hand_seed(seed, i)
        st = play(rules, hs, policy)
        out.hands += 1
        for f in st.faults:
            out.fault_records += 1
            for r in f["rules"]:
                out.faults[r] += 1
        out.hands_with_faults += bool(st.faults)
        for r in {r for f in st.faults for r in f["rules"]}:
            out.fault_hands[r] += 1
        res = st.result
        if res is None:
            out.ended["stuck"] += 1
        elif res["result"] == "draw":
            out.ended["draw"] += 1
        else:
            out.ended[f"win:{res['kind']}"] += 1
            won = cuoc.won_hand(st)
            out.wins_with_faults += bool(won.faults)
            j, sc = judge(rules, won)
            for h in j.held:
                out.held[h.row] += 1
                if h.replaced_by is None:
                    out.declared[h.row] += 1
                    out.times[h.row] += h.times
            if sc is not None:
                out.totals[sc.total] += 1
                out.refused += not sc.allowed
                if out.best is None or sc.total > out.best[0]:
                    out.best = (sc.total, hs)
        if progress is not None:
            progress(i + 1)
    return out
