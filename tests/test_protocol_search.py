"""The kind-neutral explorer (checks/explore/protocol_search.py): it counts what an
independent enumeration counts on a small Tấn scale, and it finds the deadlocks,
invariant breaks, contradictions, non-commuting answers and endless play planted in a
deliberately broken toy game, each at its shortest depth."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from chanspec.checks.explore import protocol_search as ps
from chanspec.model import kinds
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent


def scale(name: str) -> Any:
    t = kinds.load("tan")
    return next(s for s in kinds.of(t).scales(t) if s.name == name)


def enumerate_all(start: Any) -> tuple[int, int, int]:
    """(distinct states, moves tried, terminal states) by a plain depth-first recursion
    over legal_actions/child, sharing nothing with the explorer."""
    seen: dict[Any, bool] = {}
    moves = 0

    def visit(s: Any) -> None:
        nonlocal moves
        fp = s.fingerprint()
        if fp in seen:
            return
        seen[fp] = s.is_terminal()
        for a in s.legal_actions():
            moves += 1
            visit(s.child(a))

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    try:
        visit(start)
    finally:
        sys.setrecursionlimit(old)
    return len(seen), moves, sum(seen.values())


@pytest.mark.parametrize("name,opts", [("trio", {"take-when-able": "must-beat"}),
                                       ("duo", {"after-take": "after-taker"}),
                                       ("trio", {})])
def test_the_explorer_counts_what_a_recursive_enumeration_counts(name: str,
                                                                 opts: dict[str, str]) -> None:
    sc = scale(name)
    rules = sc.rules(opts)
    for i, d in enumerate(sc.deals(rules, 1)):
        r = ps.explore_one(sc.start(rules, d), i, sc.table.rows)
        distinct, moves, terminal = enumerate_all(sc.start(rules, d))
        assert r.complete
        assert (r.distinct, r.generated, sum(r.outcomes.get(k, 0) for k in ("order",))) == (
            distinct, moves, terminal)
        assert r.outcomes.get("stuck", 0) == 0


def test_the_shortest_witness_replays_and_is_deterministic() -> None:
    sc = scale("duo")
    rules = sc.rules()
    d = sc.deals(rules, 1)[0]
    a = ps.explore_one(sc.start(rules, d), 0, sc.table.rows)
    b = ps.explore_one(sc.start(rules, d), 0, sc.table.rows)
    assert [v.as_json() for v in a.violations.values()] == \
        [v.as_json() for v in b.violations.values()]
    cyc = a.violations[("endless", "cycle")]
    s = sc.start(rules, d)
    fps = []
    for code in cyc.codes():
        fps.append(s.fingerprint())
        s = s.child(next(x for x in s.legal_actions() if x.code() == code))
    assert s.fingerprint() in fps  # the told play comes back to a state it passed


def test_tan_nodes_have_one_seat_so_answers_commute_trivially() -> None:
    """The commutation contract per kind: Tấn asks one seat at a time, so no state of a
    scale has several pending seats (and the explorer checked none)."""
    sc = scale("trio")
    rules = sc.rules()
    r = ps.explore_one(sc.start(rules, sc.deals(rules, 1)[0]), 0, sc.table.rows)
    assert r.simultaneous == 0
    assert not any(v.what == "commute" for v in r.violations.values())


def test_the_explorer_imports_no_kind() -> None:
    path = ROOT / "checks" / "explore" / "protocol_search.py"
    names = {n.module or "" for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(n, ast.ImportFrom)}
    names |= {a.name for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(n, ast.Import) for a in n.names}
    assert not any("chan" in n.split(".") or "tan" in n.split(".") for n in names), names


# --------------------------------------------------------------------------- a toy


@dataclass(frozen=True)
class Act:
    kind: str
    seat: int

    def code(self) -> str:
        return f"{self.seat} {self.kind}"


@dataclass(frozen=True)
class Why:
    legal: bool
    rules: tuple[str, ...]
    vi: str = ""
    en: str = ""


@dataclass
class Toy:
    """A counter from 0 to `top`: seat 0 adds one (``inc``) or, below `top`, may ``wait``
    (progress unchanged, so waiting for ever is endless play).  `broken` plants faults:
    ``stuck`` at `at` (no move), ``census`` (an invariant fails at `at`), ``lie``
    (explain refuses the legal ``inc`` at `at`), ``back`` (``inc`` at `at` lowers the
    progress), ``simul`` (at `at` both seats answer; ``simul-bad``: the order counts)."""

    top: int = 5
    broken: str = ""
    at: int = 2
    x: int = 0
    answers: tuple[str, ...] = ()
    events: list[dict[str, Any]] = field(default_factory=list)
    history: list[Act] = field(default_factory=list)

    def pending(self) -> tuple[int, ...]:
        if self.x >= self.top or (self.broken == "stuck" and self.x == self.at):
            return ()
        if self.broken.startswith("simul") and self.x == self.at:
            return tuple(s for s in (0, 1) if len(self.answers) <= 1 and
                         not any(a.startswith(str(s)) for a in self.answers))
        return (0,)

    def legal_actions(self, seat: int | None = None) -> list[Act]:
        out = [Act(k, s) for s in self.pending() for k in ("inc", "wait")
               if seat is None or seat == s]
        return [a for a in out if a.kind == "inc" or self.x < self.top - 1 or
                self.broken.startswith("simul")]

    def candidate_actions(self, seat: int) -> list[Act]:
        return [Act("inc", seat), Act("wait", seat), Act("jump", seat)]

    def explain(self, a: Act) -> Why:
        legal = a in self.legal_actions()
        if self.broken == "lie" and self.x == self.at and a.kind == "inc":
            legal = False
        return Why(legal, ("count",))

    def child(self, a: Act) -> Toy:
        c = Toy(self.top, self.broken, self.at, self.x, self.answers, list(self.events),
                [*self.history, a])
        if self.broken.startswith("simul") and self.x == self.at:
            c.answers = (*self.answers, f"{a.seat}{a.kind}")
            if len(c.answers) == 2:
                first = c.answers[0]
                c.x += 1 if self.broken == "simul" or first.startswith("0") else 2
                c.x = min(c.x, c.top)
                c.answers = ()
            return c
        if a.kind == "inc":
            c.x += 1
        return c

    def is_chance(self) -> bool:
        return False

    def is_terminal(self) -> bool:
        return self.x >= self.top

    def is_stuck(self) -> bool:
        return not self.is_terminal() and not self.legal_actions()

    def outcome(self) -> dict[str, Any] | None:
        return {"result": "done"} if self.is_terminal() else None

    def fingerprint(self) -> tuple[Any, ...]:
        return (self.x, self.answers)

    def progress(self) -> int:
        if self.broken == "back" and self.x == self.at + 1:
            return 0
        return self.x

    def invariants(self) -> list[tuple[str, str]]:
        if self.broken == "census" and self.x == self.at:
            return [("census", f"x is {self.x}")]
        return []

    def decision_point(self) -> tuple[str, str, str]:
        return ("stuck", "kẹt", "stuck") if self.is_stuck() else ("count", "đếm", "count")


def kinds_found(r: ps.StartResult) -> dict[tuple[str, str], int]:
    return {k: v.depth for k, v in r.violations.items()}


def test_a_sound_toy_has_only_its_endless_waiting() -> None:
    r = ps.explore_one(Toy(), 0, {"count"})
    assert kinds_found(r) == {("endless", "cycle"): 1}
    assert r.distinct == 6 and r.outcomes == {"done": 1}
    assert ps.exit_code(list(r.violations.values())) == 13


@settings(max_examples=25, deadline=None)
@given(top=st.integers(3, 9), data=st.data())
def test_each_planted_fault_is_found_at_its_shortest_depth(top: int, data: Any) -> None:
    at = data.draw(st.integers(1, top - 2))
    for broken, key, depth, code in [
            ("stuck", ("deadlock", "stuck"), at, 11),
            ("census", ("invariant", "census"), at, 12),
            ("lie", ("contradiction", "explain-disagrees"), at, 12),
            ("back", ("invariant", "progress"), at + 1, 12)]:
        r = ps.explore_one(Toy(top, broken, at), 0, {"count"})
        assert key in r.violations, (broken, r.violations)
        assert r.violations[key].depth == depth
        assert ps.exit_code(list(r.violations.values())) == code


def test_simultaneous_answers_that_commute_pass_and_ones_that_do_not_are_caught() -> None:
    good = ps.explore_one(Toy(5, "simul", 2), 0, {"count"})
    assert good.simultaneous >= 1
    assert ("contradiction", "commute") not in good.violations
    bad = ps.explore_one(Toy(5, "simul-bad", 2), 0, {"count"})
    assert bad.violations[("contradiction", "commute")].depth == 2


def test_unknown_rules_and_chance_without_outcomes_are_contradictions() -> None:
    r = ps.explore_one(Toy(), 0, {"other"})
    assert ("contradiction", "unknown-rule") in r.violations

    class Chance(Toy):
        def is_chance(self) -> bool:
            return self.x == 0

    r = ps.explore_one(Chance(), 0, {"count"})
    assert r.violations[("contradiction", "chance")].depth == 0


def test_part_ways_finds_the_shortest_common_play() -> None:
    part, complete, _ = ps.part_ways(Toy(5), Toy(5, "stuck", 3))
    assert complete and part is not None and part.what == "legal"
    assert part.path == ("0 inc",) * 3 and set(part.only_a) == {"0 inc", "0 wait"}
    same, complete, _ = ps.part_ways(Toy(5), Toy(5))
    assert same is None and complete
    longer, _, _ = ps.part_ways(Toy(5), Toy(6))
    assert longer is not None and len(longer.path) == 4  # wait stops being legal at 4 vs 5


def test_part_ways_on_tan_after_take() -> None:
    """Row after-take (seed 003 ¶12 s3): with three players, after one take the
    attacker differs, so the very next lead parts the readings."""
    sc = scale("trio")
    a, b = sc.rules(), sc.rules({"after-take": "after-taker"})
    d = sc.deals(a, 1)[0]
    part, complete, _ = ps.part_ways(sc.start(a, d), sc.start(b, d))
    assert part is not None and part.what == "legal"
    assert [c.split()[1] for c in part.path][-1] == "take"
