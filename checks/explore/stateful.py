"""Hypothesis stateful exploration of the reference machine.

`GameMachine` is a `RuleBasedStateMachine`: it deals a hand (both player counts, every
value of every option row of the table, a random opener), then plays legal actions
chosen by Hypothesis, checking every invariant of `chanspec.checks.explore.invariants` after each
step.  When a hand ends (or reaches one of the deadlocks the rules allow, see
`invariants.stuck_kind`) the winner opens the next hand, as the family's text says.

Settings profiles (``settings.load_profile`` or ``CHANSPEC_PROFILE``):

* ``chanspec-ci``   small and fixed (seeded, no example database): what pytest runs;
* ``chanspec-deep`` long campaigns for ``chanspec explore --profile deep``.

``TestGame`` is the unittest/pytest entry point.  Its Hypothesis seed is
``CHANSPEC_SEED`` (default `DEFAULT_SEED`) and is printed with any failure, together
with the replayable action list of the shrunk game.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from typing import Any

from chanspec.checks.explore.invariants import CLAIM_KINDS, Finding, Stats, Watch, stuck_kind
from chanspec.model.chan import table as table_mod
from chanspec.model.chan.game import State, start_seat
from hypothesis import HealthCheck, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

PLAYERS = (4, 5)
DEFAULT_SEED = 20240607
RULESET = "family"

PROFILES: dict[str, dict[str, Any]] = {
    "chanspec-ci": dict(max_examples=25, stateful_step_count=150),
    "chanspec-deep": dict(max_examples=400, stateful_step_count=400),
}
_COMMON: dict[str, Any] = dict(
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much, HealthCheck.large_base_example],
)
for _name, _kw in PROFILES.items():
    settings.register_profile(_name, **_kw, **_COMMON)


def profile(name: str, **overrides: Any) -> settings:
    """The settings of a profile (``ci``/``deep`` or the full name), with overrides."""
    full = name if name.startswith("chanspec-") else f"chanspec-{name}"
    if full not in PROFILES:
        raise ValueError(f"unknown profile {name!r}; use ci or deep")
    return settings(**{**PROFILES[full], **_COMMON, **overrides})


def options_strategy(table: table_mod.Table) -> st.SearchStrategy[dict[str, str]]:
    """Every option row of the table, each drawn from all of its values."""
    return st.fixed_dictionaries({name: st.sampled_from(values)
                                  for name, values in table.option_space()})


class GameMachine(RuleBasedStateMachine):
    """Random legal games of the family's rules, every invariant after every step."""

    table: table_mod.Table = table_mod.load(RULESET)
    players: tuple[int, ...] = PLAYERS
    fixed_options: Mapping[str, str] | None = None
    stats: Stats = Stats()
    rules_findings: dict[str, list[str]] = {}
    # deadlock kinds (invariants.stuck_kind) to report as failures (Hypothesis then shrinks
    # them; slow: minutes, because every shrink step replays the invariants)
    fail_on_stuck: frozenset[str] = frozenset()

    def __init__(self) -> None:
        super().__init__()
        self.watch: Watch | None = None
        self.deal_seed = 0
        self.hands = 0

    # ------------------------------------------------------------------ setup
    @initialize(players=st.sampled_from(PLAYERS), options=options_strategy(table),
                deal_seed=st.integers(0, 2**32 - 1), opener=st.integers(0, 4))
    def deal(self, players: int, options: dict[str, str], deal_seed: int, opener: int) -> None:
        if players not in self.players:
            players = self.players[deal_seed % len(self.players)]
        if self.fixed_options is not None:
            options = {**options, **self.fixed_options}
        self.rules = self.table.resolve(players, options)
        self._start(deal_seed, opener % players)

    def _start(self, deal_seed: int, opener: int) -> None:
        self.deal_seed = deal_seed
        seat = start_seat(self.rules, opener)  # the opener, or who draws the cái
        game = State.new(self.rules, seed=deal_seed, **seat)
        kw = ", ".join(f"{k}={v}" for k, v in seat.items())
        label = f"deal_random(seed={deal_seed}, {kw}) hand {self.hands + 1}"
        self.watch = Watch(game, label, rng=random.Random(deal_seed), stats=self.stats)
        self.hands += 1

    def _live(self) -> bool:
        return self.watch is not None and bool(self.watch.st.legal_actions())

    def _over(self) -> bool:
        return self.watch is not None and not self.watch.st.legal_actions()

    # ------------------------------------------------------------------ rules
    @precondition(_live)
    @rule(pick=st.integers(0, 255), eager=st.booleans())
    def act(self, pick: int, eager: bool) -> None:
        """Play one legal action; `eager` prefers claims (wins first) when there are any."""
        assert self.watch is not None
        acts = self.watch.st.legal_actions()
        if eager:
            wins = [a for a in acts if a.kind in ("u", "chiu-u")]
            claims = wins or [a for a in acts if a.kind in CLAIM_KINDS]
            acts = claims or acts
        self.watch.step(acts[pick % len(acts)])

    @precondition(_over)
    @rule(deal_seed=st.integers(0, 2**32 - 1))
    def next_hand(self, deal_seed: int) -> None:
        """The hand is over (or deadlocked): the winner opens the next one (§2), or under
        the dealing ritual draws its cái card (classic 000)."""
        assert self.watch is not None
        game = self.watch.st
        self.stats.games += 1
        if game.is_terminal():
            out = game.outcome() or {}
            key = out.get("result", "?") + (f":{out['kind']}" if out.get("kind") else "")
            opener = out["winner"] if out.get("winner") is not None else game.opener
        else:
            key = stuck_kind(game) or "stuck"
            if key in self.fail_on_stuck:
                raise Finding(key, "the rules leave the pending seat no legal action", game,
                              self.watch.label)
            self.stats.stuck += 1
            acts = [a.code() for a in game.history]
            known = self.rules_findings.get(key)
            if known is None or len(acts) < len(known):
                self.rules_findings[key] = acts
            opener = game.opener
        self.stats.outcomes[key] = self.stats.outcomes.get(key, 0) + 1
        self._start(deal_seed, opener)

    @invariant()
    def opener_rule(self) -> None:
        """The next hand's opener is the previous winner (checked when a hand starts)."""
        if self.watch is not None and not self.watch.st.history:
            assert self.watch.st.pending() == (self.watch.st.opener,)


def machine_for(players: tuple[int, ...] = PLAYERS,
                options: Mapping[str, str] | None = None,
                seed: int = DEFAULT_SEED,
                fail_on_stuck: frozenset[str] = frozenset()) -> type[GameMachine]:
    """A fresh machine class (own stats) for given player counts / fixed options / seed."""
    cls = type("GameMachineRun", (GameMachine,), {
        "players": tuple(players),
        "fixed_options": dict(options) if options else None,
        "stats": Stats(),
        "rules_findings": {},
        "fail_on_stuck": fail_on_stuck,
    })
    return hypothesis_seed(seed)(cls)


def run(profile_name: str = "ci", seed: int = DEFAULT_SEED,
        players: tuple[int, ...] = PLAYERS, options: Mapping[str, str] | None = None,
        **overrides: Any) -> tuple[type[GameMachine], Finding | None]:
    """Run the exploration; returns the machine class (stats, rules findings) and the
    finding of the shrunk failing example, if any."""
    cls = machine_for(players, options, seed)
    try:
        run_state_machine_as_test(cls, settings=profile(profile_name, **overrides))
    except Finding as f:
        return cls, f
    return cls, None


_SEED = int(os.environ.get("CHANSPEC_SEED", DEFAULT_SEED))
_PROFILE = os.environ.get("CHANSPEC_PROFILE", "ci")


class _Seeded(GameMachine):
    """The machine pytest runs (seed from CHANSPEC_SEED, profile from CHANSPEC_PROFILE)."""


hypothesis_seed(_SEED)(_Seeded)


class TestGame(_Seeded.TestCase):  # type: ignore[name-defined,misc]
    """Hypothesis stateful exploration; CHANSPEC_SEED / CHANSPEC_PROFILE change the run."""

    settings = profile(_PROFILE)

    def runTest(self) -> None:  # noqa: N802 - unittest's name
        try:
            run_state_machine_as_test(_Seeded, settings=self.settings)
        except BaseException as exc:
            exc.add_note(f"chanspec: Hypothesis seed {_SEED}, profile {_PROFILE} "
                         f"(rerun with CHANSPEC_SEED={_SEED} CHANSPEC_PROFILE={_PROFILE})")
            raise

    runTest.is_hypothesis_test = True  # type: ignore[attr-defined]
