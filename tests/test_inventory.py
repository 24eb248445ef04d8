"""The decision inventory: every decision the reference machine makes is attributed to
rows of the table.

* every action a pending seat could take, allowed or refused, is explained (`State.explain`)
  by at least one row id the table defines, and the explanation agrees with
  `legal_actions()` (an "allowed" explanation for a refused action is a refusal no row
  states);
* every consequence the machine adds to the event log (a draw, a card laid down, passed
  on, dead or returned, the end of the hand) is attributed to rows by
  `checks/conform/replay.consequence_rules`, all defined in the table.

Played over seeded games under the defaults and under every single non-default option
value.  The last test plants a hard-coded refusal, with no row behind it, in a copy of the
machine and shows the inventory catches it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from chanspec.checks.conform.replay import consequence_rules
from chanspec.checks.explore.search import ALLOW_PREFIXES
from chanspec.model.chan import cards, table
from chanspec.model.chan.game import Action, State, deal_random

TABLE = table.load("family")
ACTION_EVENTS = {"start", "u", "chiu-u", "chiu", "eat", "reclaim", "pass", "discard",
                 "return", "timeout"}


def worlds() -> list[dict[str, str]]:
    out: list[dict[str, str]] = [{}]
    for name, values in TABLE.option_space():
        out += [{name: v} for v in values if v != TABLE.rows[name].default]
    return out


def inventory(make: Callable[..., State], games_per_world: int = 2,
              seed: int = 12) -> list[str]:
    """Every unattributed decision met in seeded games (empty when all are attributed)."""
    problems: list[str] = []
    rows = TABLE.rows
    for wi, opts in enumerate(worlds()):
        for g in range(games_per_world):
            rng = random.Random(f"{seed}:{wi}:{g}")
            players = (4, 5)[g % 2]
            rules = TABLE.resolve(players, opts)
            st = make(rules, deal_random(rules, rng.getrandbits(32), opener=g % players))
            seen_events = 0
            while True:
                for e in st.events[seen_events:]:
                    if e["type"] in ACTION_EVENTS:
                        continue
                    ids = consequence_rules(rules, e)
                    if not ids or any(i not in rows for i in ids):
                        problems.append(f"{opts} event {e} cites {ids}")
                seen_events = len(st.events)
                legal = st.legal_actions()
                if st.is_terminal() or not legal:
                    break
                legal_set = set(legal)
                cands = dict.fromkeys(legal)
                asked = set(st.pending())
                if st.phase == "window" and st.window is not None:
                    # every seat's claims, asked or not: a claim refused by leaving the
                    # seat out of the window must be explained as refused too
                    asked |= set(range(st.n)) - set(st.window.responses)
                for s in sorted(asked):
                    cands.update(dict.fromkeys(a for a in st.candidate_actions(s)
                                               if s in st.pending() or a.kind != "pass"))
                for a in cands:
                    ex = st.explain(a)
                    if not ex.rules or any(i not in rows for i in ex.rules):
                        problems.append(f"{opts} {a.code()} explained by {ex.rules}")
                    if ex.legal != (a in legal_set) or ex.en.startswith(ALLOW_PREFIXES) != ex.legal:
                        problems.append(f"{opts} {a.code()}: legal={a in legal_set}, "
                                        f"explained {ex.en!r} {ex.rules}")
                claims = [a for a in legal if a.kind in ("eat", "chiu", "reclaim")]
                st.apply(rng.choice(claims) if claims and rng.random() < 0.6
                         else rng.choice(legal))
    return problems


def test_every_decision_cites_rows_of_the_table() -> None:
    problems = inventory(State)
    assert not problems, f"{len(problems)} unattributed decisions, e.g.:\n" + "\n".join(
        problems[:10])


CHI = cards.parse("chi")


class _NoEatWithChi(State):
    """The machine with one refusal no row states: Chi Chi may never be the card from the
    hand that eats."""

    def _eat_partners(self, s: int, x: int, ignore: int = -2) -> list[int]:
        return [y for y in super()._eat_partners(s, x, ignore) if y != CHI]


class _NoDiscardChi(State):
    """The machine with one refusal no row states: Chi Chi may never be discarded."""

    def _discardable(self, seat: int) -> list[int]:
        return [f for f in super()._discardable(seat) if f != CHI]


@pytest.mark.parametrize("machine,kind", [(_NoEatWithChi, "eat"), (_NoDiscardChi, "discard")])
def test_a_hard_coded_refusal_is_caught_by_the_inventory(machine: type[State],
                                                        kind: str) -> None:
    problems = inventory(machine, games_per_world=1)
    assert any(f":{kind} chi" in p and "legal=False" in p and "allowed" in p
               for p in problems), problems[:5]


def test_the_same_games_are_clean_on_the_machine_itself() -> None:
    assert not inventory(State, games_per_world=1)


def test_an_event_no_row_decides_is_caught() -> None:
    class Unruled(State):
        def _draw(self, s: int) -> None:
            super()._draw(s)
            self.events.append({"type": "shuffled", "seat": s})  # a consequence of no row

    problems = inventory(Unruled, games_per_world=1)
    assert any("shuffled" in p for p in problems)


def test_explain_of_an_unknown_kind_still_cites_a_row() -> None:
    st = State(TABLE.resolve(4), deal_random(TABLE.resolve(4), 1))
    assert st.explain(Action("fold", 0)).rules
