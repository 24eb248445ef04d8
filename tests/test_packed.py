"""The packed machine (model/chan/packed.py) against the reference (model/chan/game.py), and the
packed search (checks/chan/packed_search.py) against the reference explorer
(checks/explore/search.py).

The reference is the oracle: over every reachable position of small configurations under
every option value, and along random full-size hands, the packed machine must list the
same legal actions in the same order and step to the packing of the reference's child.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest
from chanspec.checks.chan import packed_search, scale
from chanspec.checks.cli import app as cli
from chanspec.checks.explore import search as explore
from chanspec.model.chan import cards, table
from chanspec.model.chan.game import Action, Deal, State, deal_random
from chanspec.model.chan.packed import Packed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BASE = table.load("family")


def option_worlds(rules: table.Rules) -> list[dict[str, str]]:
    """The defaults and every single non-default option value."""
    out: list[dict[str, str]] = [{}]
    for opt, values in rules.table.option_space():
        out += [{opt: v} for v in values if v != rules.options[opt]]
    return out


def compare(pk: Packed, s: State, index: int) -> bytes:
    """Assert that the packed machine agrees with the reference on `s`; its packing."""
    p = pk.encode(s, index)
    legal = s.legal_actions()
    assert pk.legal(p) == legal, [a.code() for a in s.history]
    assert pk.pending(p) == s.pending()
    assert pk.census(p) == s.census()
    assert pk.is_terminal(p) == s.is_terminal()
    for seat in range(s.n):
        assert pk.hand_size(p, seat) == s.hand_size(seat)
        assert pk.expected_hand_size(p, seat) == s.expected_hand_size(seat)
        assert pk.legal(p, seat) == s.legal_actions(seat)
    if s.is_terminal():
        out = s.outcome() or {}
        kind, winner = pk.outcome(p)  # type: ignore[misc]
        assert winner == out.get("winner")
        assert kind == ("draw" if out.get("result") == "draw" else out.get("kind"))
    return p


@pytest.mark.parametrize("name", list(scale.SCALES))
def test_every_reachable_position_agrees_under_every_option(name: str) -> None:
    base = scale.scaled_rules(BASE, scale.SCALES[name])
    checked = 0
    for opts in option_worlds(base):
        rules = base.with_options(**opts) if opts else base
        deals = scale.deals(rules, 2, 3)
        pk = Packed(rules, deals)
        for i, d in enumerate(deals):
            start = State(rules, d)
            assert pk.initial(i) == pk.encode(start, i)
            seen = {start.fingerprint()}
            q = deque([start])
            budget = 400  # positions per deal and option world, breadth first
            while q and budget:
                s = q.popleft()
                budget -= 1
                p = compare(pk, s, i)
                for a in s.legal_actions():
                    c = s.child(a)
                    assert pk.step(p, a) == pk.encode(c, i), (opts, [x.code() for x in
                                                                      c.history])
                    k = c.fingerprint()
                    if k not in seen:
                        seen.add(k)
                        q.append(c)
                checked += 1
    assert checked > 1000


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from((4, 5)), world=st.integers(0, 40), seed=st.integers(0, 10**6),
       data=st.data())
def test_full_size_hands_agree_step_by_step(players: int, world: int, seed: int,
                                            data: st.DataObject) -> None:
    base = BASE.resolve(players, {})
    worlds = option_worlds(base)
    opts = worlds[world % len(worlds)]
    rules = base.with_options(**opts) if opts else base
    deal = deal_random(rules, seed, opener=seed % players)
    pk = Packed(rules, [deal])
    s = State(rules, deal)
    p = pk.encode(s)
    while not s.is_terminal():
        legal = s.legal_actions()
        assert pk.legal(p) == legal
        if not legal:
            break
        a = data.draw(st.sampled_from(legal))
        s.apply(a)
        p = pk.step(p, a)
        assert p == pk.encode(s), (opts, [x.code() for x in s.history])
    compare(pk, s, 0)


def test_pooled_laid_groups_agree_where_the_readings_differ() -> None:
    """Seeded full-size hands played claim-eagerly under laid-groups=pooled (laid chắn
    and cạ split again for a win; the packed machine then keeps the faces laid as chíu
    and keys claims by the whole seat block): the packed machine agrees with the
    reference at every step, and the hands pass windows where a seat with laid groups
    may win under pooled and not as laid (or the other way), so the reading is covered."""
    import random

    from chanspec.checks.explore.invariants import choose
    from chanspec.model.chan import win

    rules = BASE.resolve(4, {"laid-groups": "pooled"})
    as_laid = win.engine(BASE.resolve(4, {}))
    pooled = win.engine(rules)
    differ = 0
    for seed in range(12):
        deal = deal_random(rules, seed, opener=seed % 4)
        pk = Packed(rules, [deal])
        s = State(rules, deal)
        p = pk.encode(s)
        rng = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            assert pk.legal(p) == legal, [a.code() for a in s.history]
            if not legal:
                break
            if s.window is not None:
                x = s.window.card
                for seat in range(s.n):
                    h = s.hands[seat]
                    if (s.laid[seat] and seat != s.window.giver
                            and sum(h) + sum(len(g.faces) for g in s.laid[seat]) + 1
                            == 2 * rules.pairs):
                        differ += (as_laid.is_win(h, s.laid_chan[seat], x, "u")
                                   != pooled.is_win(*pooled.win_counts(h, s.laid[seat]),
                                                    x, "u"))
            a = choose(legal, rng, 0.8)
            s.apply(a)
            p = pk.step(p, a)
            assert p == pk.encode(s), [x.code() for x in s.history]
        compare(pk, s, 0)
    assert differ > 0


def test_packing_is_fixed_size_and_leaves_out_the_history() -> None:
    rules = BASE.resolve(4, {})
    a, b = deal_random(rules, 1), deal_random(rules, 2)
    pk = Packed(rules, [a, b])
    assert len(pk.initial(0)) == len(pk.initial(1)) == pk.size
    assert pk.deal_index(pk.initial(1)) == 1
    s = State(rules, a)
    s.apply(s.legal_actions()[-1])
    assert len(pk.encode(s)) == pk.size


def test_a_search_reaches_what_the_reference_explorer_reaches() -> None:
    rules = scale.scaled_rules(BASE, scale.SCALES["ranks2"])
    deals = scale.deals(rules, 3, 1)
    ref = explore.explore(rules, deals, workers=1)
    res = packed_search.search(rules, deals, check_every=50)
    # different deals never share a position (the deal number is in it), and the packing
    # keeps exactly what the reference fingerprint keeps at this scale
    assert res.distinct == ref.distinct
    assert res.outcomes() == ref.outcomes()
    assert res.ties()[0] == ref.ties()[0]
    assert res.depth == ref.depth
    assert res.violations() == [] == ref.violations()
    assert res.option_samples() > 0 and res.cited()[0]


@pytest.mark.parametrize("option,what", [("stuck-discard", "stuck-all-banned"),
                                         ("empty-hand", "stuck-empty-hand")])
def test_as_written_deadlocks_are_found_with_the_same_shortest_path(option: str,
                                                                    what: str) -> None:
    rules = scale.scaled_rules(BASE, scale.SCALES["five"], {option: "as-written"})
    deals = scale.deals(rules, 2, 1)
    ref = {v.what: v for v in explore.explore(rules, deals, workers=1).violations()}
    got = {v.what: v for v in packed_search.search(rules, deals).violations()}
    assert what in ref and what in got
    assert got[what].depth == ref[what].depth
    assert packed_search.search(rules, deals).exit_code() == 11
    st_ = State.replay(rules, deals[got[what].deal], got[what].path)
    assert st_.is_stuck()


def test_one_search_holds_many_deals() -> None:
    rules = scale.scaled_rules(BASE, scale.SCALES["ranks2"])
    deals = scale.deals(rules, 6, 5)
    each = sum(packed_search.search(rules, [d]).distinct for d in deals)
    together = packed_search.search(rules, deals)
    assert together.distinct == each  # the deal number keeps them apart
    assert together.complete and together.per_deal[0].max_queue > 0


def test_cap_stops_the_search_and_says_so() -> None:
    rules = scale.scaled_rules(BASE, scale.SCALES["chiu3"])
    res = packed_search.search(rules, scale.deals(rules, 1, 1), cap=5000)
    assert res.distinct == 5000 and not res.complete


def test_a_packed_machine_that_loses_a_card_breaks_the_census(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = scale.scaled_rules(BASE, scale.SCALES["ranks2"])
    deals = scale.deals(rules, 1, 1)
    real = Packed._discard

    def lossy(self: Packed, m: bytearray, s: int, f: int) -> None:
        real(self, m, s, f)
        m[self.DEAD + f] += 1 if m[2] == len(self.nocs[0]) else 0  # a phantom dead card

    monkeypatch.setattr(Packed, "_discard", lossy)
    res = packed_search.search(rules, deals)
    whats = {v.what for v in res.violations()}
    assert "census" in whats and res.exit_code() == 12


# states searched by the tests of a planted packed-machine bug that replay every state
CAP = 1000


def test_a_packed_machine_that_hides_a_move_disagrees_with_the_reference(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = scale.scaled_rules(BASE, scale.SCALES["ranks2"])
    deals = scale.deals(rules, 1, 1)
    real = Packed._discardable

    def fewer(self: Packed, p: bytes | bytearray, s: int) -> list[int]:
        ok = real(self, p, s)
        return ok[1:] if len(ok) > 2 else ok  # forgets a card it may discard

    monkeypatch.setattr(Packed, "_discardable", fewer)
    # every state replayed on the reference (check_every=1); the first state already
    # differs, so the first 1,000 of the deal's 14,102 are plenty (and cheap)
    res = packed_search.search(rules, deals, check_every=1, cap=CAP)
    v = {x.what: x for x in res.violations()}
    assert "engines-disagree" in v and res.exit_code() == 12
    assert v["engines-disagree"].kind == "contradiction"


def test_a_step_the_reference_forbids_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = scale.scaled_rules(BASE, scale.SCALES["ranks2"])
    deals = scale.deals(rules, 1, 1)
    real = Packed._discardable
    yeu = {cards.parse("chi"), cards.parse("lao"), cards.parse("thang")}

    def banned_too(self: Packed, p: bytes | bytearray, s: int) -> list[int]:
        ok = real(self, p, s)
        held = [f for f in self.faces if p[self.hand_at[s] + f]]
        return sorted(set(ok) | {f for f in held if f in yeu})  # ignores discard bans

    monkeypatch.setattr(Packed, "_discardable", banned_too)
    res = packed_search.search(rules, deals, check_every=1, cap=CAP)  # as above
    assert "engines-disagree" in {x.what for x in res.violations()}


def test_check_command_with_the_packed_engine(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = cli.main(["check", "--quick", "--scales", "five=2", "--engine", "packed",
                     "--check-every", "50", "--no-write", "--quiet", "--out", str(out),
                     "--lang", "en", "--option", "stuck-discard=as-written"])
    text = capsys.readouterr().out
    assert code == 11
    assert "Packed machine (model/chan/packed.py): one search for all deals" in text
    assert "Error: deadlock (stuck-all-banned)" in text
    rep = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    ex = rep["explorations"][0]
    assert ex["engine"] == "packed" and ex["label"] == "five-packed" and ex["check_every"] == 50
    trace = out / "five-packed-deadlock-stuck-all-banned.itf.json"
    rules = scale.scaled_rules(BASE, scale.SCALES["five"], {"stuck-discard": "as-written"})
    back = json.loads(trace.read_text(encoding="utf-8"))
    deal = Deal.from_json(back["#meta"]["chanspec"]["deal"])
    acts = [Action.from_json({k: v for k, v in s["action"].items() if v != ""})
            for s in back["states"][1:]]
    assert State.replay(rules, deal, acts).is_stuck()


def test_check_command_caps_a_packed_search(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["check", "--quick", "--scales", "chiu3=1", "--engine", "packed",
                     "--cap", "3000", "--no-write", "--quiet", "--out", str(tmp_path),
                     "--lang", "en"])
    text = capsys.readouterr().out
    assert code == 0 and "STOPPED at the 3,000 states cap" in text
    assert "3,000 distinct states found" in text


def test_endless_play_needs_a_back_edge_whose_target_reaches_its_source() -> None:
    from array import array

    # BFS tree 0 -> 1 -> 2 -> 3, all at one nọc position; 0 -> 4 at another
    parent = array("i", [-1, 0, 1, 2, 0])
    nocp = array("B", [0, 0, 0, 0, 1])
    # a cross edge 3 -> 1 back to an ancestor closes 1 -> 2 -> 3 -> 1
    cyc = packed_search._endless(parent, nocp, array("i", [3]), array("i", [1]), [0])
    assert cyc is not None and cyc[0] == cyc[-1] and set(cyc) == {1, 2, 3}
    # an edge 4 -> 1 into another branch closes nothing (and 4 keeps no nọc with 0)
    assert packed_search._endless(parent, nocp, array("i", [4]), array("i", [1]),
                                  [0]) is None
    # no back edge: no cycle, nothing built
    assert packed_search._endless(parent, nocp, array("i", [1]), array("i", [3]),
                                  []) is None
    # a cycle through two recorded edges: 3 -> 4' ... use a second branch at nọc 0
    parent2 = array("i", [-1, 0, 0, 1, 2])
    nocp2 = array("B", [0, 0, 0, 0, 0])
    # 3 -> 2 (cross, back) and 4 -> 1 (cross, back): 1 -> 3 -> 2 -> 4 -> 1
    cyc2 = packed_search._endless(parent2, nocp2, array("i", [3, 4]), array("i", [2, 1]),
                                  [0, 1])
    assert cyc2 is not None and set(cyc2) == {1, 2, 3, 4}


def test_check_command_refuses_bad_packed_settings(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for flag in ("--cap", "--check-every"):
        assert cli.main(["check", "--quick", flag, "0", "--out", str(tmp_path)]) == 2
        assert "expected a whole number of at least 1" in capsys.readouterr().err
    code = cli.main(["check", "--quick", "--no-write", "--engine", "packed", "--scales",
                     "ranks2=70000", "--out", str(tmp_path)])
    assert code == 2 and "at most 65,535 deals" in capsys.readouterr().err
