"""chanspec check on classic Chắn: its own scales, faults as acts (vacuity), its hand counts
and Z3 questions (Chi Chi's exact minimum), and where its open questions are written."""

from __future__ import annotations

import argparse
import random
from itertools import combinations_with_replacement
from pathlib import Path

import pytest
from chanspec.checks.chan import class_search, hands, scale, z3win
from chanspec.checks.cli import cmd_check
from chanspec.checks.explore import search as explore
from chanspec.checks.findings import compute as findings
from chanspec.checks.findings import questions
from chanspec.model import table as shared_table
from chanspec.model.chan import cards, table
from chanspec.model.chan.game import State

CLASSIC = table.load("classic")
FAMILY = table.load("family")
CHI = cards.parse("chi")


def test_each_table_gets_its_own_scales() -> None:
    assert scale.scales_for(FAMILY) is scale.SCALES
    assert scale.scales_for(CLASSIC) is scale.CLASSIC_SCALES
    # a table given by path is matched by its deck
    data = dict(CLASSIC.data)
    data["ruleset"] = {**data["ruleset"], "id": "my-classic"}
    assert scale.scales_for(table.from_data(data)) is scale.CLASSIC_SCALES
    assert not set(scale.SCALES) & set(scale.CLASSIC_SCALES)


@pytest.mark.parametrize("name", list(scale.CLASSIC_SCALES))
def test_classic_scales_keep_classic_structure(name: str) -> None:
    sc = scale.CLASSIC_SCALES[name]
    t = scale.scaled_table(CLASSIC, sc)
    assert t.id == f"classic@{name}"
    assert set(sc.faces) <= {cards.code(f) for f in CLASSIC.deck_faces()}
    assert sc.players in CLASSIC.variants
    r = t.resolve(sc.players)
    assert r.copies == sc.copies and r.pairs == sc.pairs and r.min_chan == sc.min_chan
    # every row, restriction and claim is classic's own
    assert set(t.rows) == set(CLASSIC.rows)
    assert t.data["restriction"] == CLASSIC.data["restriction"]
    assert t.data["claim"] == CLASSIC.data["claim"]
    # Chi Chi pairs only as a chắn; it still completes only a hand of exactly min_chan
    assert CHI in r.faces and not any(r.is_ca(CHI, f) for f in r.faces if f != CHI)
    assert CHI in r.exact_min and 1 <= r.min_chan < r.pairs
    # thiên ù: the reading asking for the real minimum asks for the scale's
    for value, need in (("six-chan", sc.min_chan), ("any-pairs", 0)):
        assert t.resolve(sc.players, {"thien-u": value}).opening_min_chan == need
    for d in scale.deals(r, 3, 7):
        assert len(d.noc) == sc.noc_size


def test_classic_scales_cover_what_classic_needs() -> None:
    scs = scale.CLASSIC_SCALES.values()
    assert sum(sc.exhaustive for sc in scs) >= 2
    assert any(sc.copies == 4 for sc in scs)  # chíu reachable
    assert {sc.players for sc in scs} == {2, 3, 4}


def test_family_scales_are_unchanged_by_the_classic_ones() -> None:
    for sc in scale.SCALES.values():
        data = scale.scaled_data(FAMILY, sc)
        assert data["win"] == FAMILY.data["win"]
        assert [v["players"] for v in data["variant"]] == [sc.players]


def test_chiu_is_reachable_at_a_classic_scale() -> None:
    r = scale.scaled_rules(CLASSIC, scale.CLASSIC_SCALES["c-chiu3"])
    kinds = set()
    for d in scale.deals(r, 1, 1):  # the first deal already reaches it (3 deals: 2x the time)
        res = explore.explore_deal(r, d, 0, alts=[], sample_every=10**9)
        assert res.complete and not res.violations
        kinds |= res.cited_allow
    assert CLASSIC.rows["chiu"].id in kinds


def _fault_step(r: table.Rules) -> tuple[State, State, object]:
    """A state and the child in which some seat breaks a rule of play (random play; a
    declined win, bỏ ù, is a fault of another kind and is passed over)."""
    for seed in range(200):
        rng = random.Random(seed)
        st = State(r, scale.deals(r, 1, seed)[0])
        while not st.is_terminal():
            legal = st.legal_actions()
            if not legal:
                break
            a = rng.choice(legal)
            c = st.child(a)
            if len(c.faults) > len(st.faults) and c.faults[-1]["rules"] != ["bo-u"]:
                return st, c, a
            st = c
    raise AssertionError("no fault in 200 random hands")


def test_a_fault_counts_as_its_rows_acting() -> None:
    r = scale.scaled_rules(CLASSIC, scale.CLASSIC_SCALES["c-ranks2"])
    assert r.options["restriction-mode"] == "penalise"
    st, c, a = _fault_step(r)
    rows = c.faults[-1]["rules"]
    # the rules of play broken, then the row that makes them a fault (penalise)
    assert rows[-1] == "restriction-mode"
    assert rows[:-1] and all(x.startswith("loi-") for x in rows[:-1])
    cited: set[str] = set()
    explore._cite_events(st, c, a, cited)  # type: ignore[arg-type]
    assert set(rows) <= cited
    # and the vacuity report no longer calls every restriction unused (one deal: nine
    # rules of play act in its 23,853 states; the second deal doubled the time)
    res = explore.explore(r, scale.deals(r, 1, 1))
    vac = cmd_check._vacuity(CLASSIC, [res])
    acted = {x for x in CLASSIC.rows if x.startswith("loi-")} - set(vac["never_cited"])
    assert acted, vac["never_cited"]
    # rows only the cước and scoring cite are told apart: no hand is scored here
    assert "cuoc-thap-thanh" in vac["scoring"] and "score-min" in vac["scoring"]
    assert not set(vac["scoring"]) & set(vac["never_cited"])
    assert "scoring" not in cmd_check._vacuity(FAMILY, [])


def test_classic_hand_counts_match_the_engine_on_a_small_deck() -> None:
    """Chi Chi completes a hand only with exactly min_chan chắn (exactly-six) or any
    (chi-rong): the counts follow, and match the engine hand by hand."""
    got = {}
    for value in ("exactly-six", "chi-rong"):
        r = scale.scaled_rules(CLASSIC, scale.CLASSIC_SCALES["c-duo"],
                               {"chi-completes": value})
        eng = State(r).engine
        n = 2 * r.pairs
        complete = u_wins = 0
        for combo in combinations_with_replacement(r.faces, n):
            c = cards.counts(combo)
            if max(c) > r.copies:
                continue
            if eng.is_win(c, 0, None, "opening"):
                complete += 1
            for g in set(combo):
                pre = list(c)
                pre[g] -= 1
                if eng.is_win(pre, 0, g, "u"):
                    u_wins += 1
        counted = hands.count_wins(r)
        assert (counted["complete"], counted["u_wins"]) == (complete, u_wins)
        got[value] = u_wins
    assert got["exactly-six"] < got["chi-rong"]


def test_z3_finds_a_chi_chi_wait_that_can_never_win() -> None:
    for value, dead in (("exactly-six", True), ("bach-thu-chi", True), ("chi-rong", False)):
        r = scale.scaled_rules(CLASSIC, scale.CLASSIC_SCALES["c-duo"], {"chi-completes": value})
        ans = hands.z3_questions(r)
        assert ans["needs_special_ca"]["answer"] == "not-asked"
        if not dead:
            assert ans["dead_wait"]["answer"] == "not-asked"
            continue
        w = z3win.dead_wait(r, timeout_ms=60_000)
        assert w is not None and w.candidate == CHI
        eng = State(r).engine
        c = cards.counts(w.hand)
        # no card of the deck wins this hand, by ù or chíu-ù; yet it is complete with Chi Chi
        assert not any(eng.is_win(c, 0, g, k) for g in r.faces for k in ("u", "chiu-u")
                       if c[g] < r.copies)
        full = list(c)
        full[CHI] += 1
        assert eng.is_win(full, 0, None, "opening")


def _args(ruleset: str, **kw: object) -> argparse.Namespace:
    return argparse.Namespace(ruleset=ruleset, questions=None, **kw)


def test_classic_questions_go_to_their_own_files(tmp_path: Path) -> None:
    md, js = cmd_check.questions_paths(_args("classic"), tmp_path)
    assert md.name == "OPEN_QUESTIONS-classic.md" and js.name == "OPEN_QUESTIONS-classic.json"
    assert md.parent == questions.default_path().parent == js.parent
    md, js = cmd_check.questions_paths(_args("family"), tmp_path)
    assert (md, js) == (questions.default_path(), findings.default_path())
    assert findings.params_for(CLASSIC) == findings.PARAMS_CLASSIC
    assert findings.params_for(FAMILY) == findings.PARAMS


def test_classic_plan_uses_classic_scales_only() -> None:
    args = argparse.Namespace(quick=True, scales=None, players=None, machine="auto", cap=None)
    plan = cmd_check._plan(args, CLASSIC, {})
    assert plan and all(sc.name in scale.CLASSIC_SCALES and engine == "reference"
                        for sc, _n, _cap, engine in plan)
    bad = argparse.Namespace(quick=True, scales="ranks2=2", players=None, machine="auto",
                             cap=None)
    with pytest.raises(shared_table.OptionError, match="c-ranks2"):
        cmd_check._plan(bad, CLASSIC, {})


def _dead_by_enumeration(r: table.Rules) -> bool:
    """Some hand one card short is complete with Chi Chi only above the minimum chắn, and
    no face of the deck wins it (by ù or chíu-ù): every hand enumerated, the engine and
    the brute-force oracle judging."""
    from chanspec.checks.chan.brute import Brute

    eng, brute = State(r).engine, Brute(r)
    faces = sorted(r.faces)
    for combo in combinations_with_replacement(faces, 2 * r.pairs - 1):
        c = cards.counts(combo)
        if max(c) > r.copies or c[CHI] >= r.copies:
            continue
        res = brute.judge(list(combo), [], CHI, "u")
        if res.chan is None or res.chan <= r.min_chan:
            continue
        if not any(eng.is_win(c, 0, g, k) for g in faces for k in ("u", "chiu-u")
                   if c[g] < r.copies):
            return True
    return False


@pytest.mark.parametrize("value", ["exactly-six", "bach-thu-chi"])
@pytest.mark.parametrize("name", ["c-chiu3", "c-duo"])
def test_dead_chi_wait_agrees_with_enumeration(name: str, value: str) -> None:
    """Z3's answer and the search's (a witness, or a proof of none) match enumerating
    every hand."""
    r = scale.scaled_rules(CLASSIC, scale.CLASSIC_SCALES[name], {"chi-completes": value})
    dead = _dead_by_enumeration(r)
    assert (z3win.dead_wait(r, timeout_ms=60_000) is not None) == dead
    assert (class_search.dead_wait(r) is not None) == dead


def test_a_fault_under_one_reading_only_is_a_divergence() -> None:
    """Under restriction-mode=penalise the readings of a rule of play allow the same acts;
    where one records a fault and the other not (or other rows), they part ways."""
    from chanspec.checks.findings import witness

    opt = "loi-16-danh-ca-khi-da-an-ca"
    sc = scale.CLASSIC_SCALES["c-ranks2"]
    ra = scale.scaled_rules(CLASSIC, sc, {opt: "as-named"})
    rb = scale.scaled_rules(CLASSIC, sc, {opt: "as-example"})
    d = witness.search(ra, rb, scale.deals(ra, 20, 1), budget=2000).found
    assert d is not None and not d.only_a and not d.only_b
    assert d.result_a[0] == d.result_b[0] == "fault" and d.result_a != d.result_b
    named = {r for f in d.result_a[1] for r in f[2]}
    assert opt in named and opt not in {r for f in d.result_b[1] for r in f[2]}
    assert witness.classify((), (), d.result_a, d.result_b) == "fault"
    # replayed, the last act is the fault the divergence names
    sa = State.replay(ra, d.deal, d.path)
    assert witness.faults(sa)[-1][1] == d.path[-1].code()
    # under forbid the same act is refused instead: the readings differ in legal acts
    fa = scale.scaled_rules(CLASSIC, sc, {opt: "as-named", "restriction-mode": "forbid"})
    fb = scale.scaled_rules(CLASSIC, sc, {opt: "as-example", "restriction-mode": "forbid"})
    d2 = witness.search(fa, fb, scale.deals(fa, 20, 1), budget=2000).found
    assert d2 is not None and (d2.only_a or d2.only_b)
