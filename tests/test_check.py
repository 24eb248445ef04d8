"""chanspec check: scaled exploration, deadlocks, ITF traces, vacuity, pictures, findings."""

from __future__ import annotations

import json
import re
from array import array
from pathlib import Path

import pytest
from chanspec.checks.chan import hands, scale
from chanspec.checks.cli import app as cli
from chanspec.checks.conform import itf
from chanspec.checks.explore import search as explore
from chanspec.checks.findings import compute as findings
from chanspec.checks.findings import scenario, witness
from chanspec.checks.report import diagrams
from chanspec.model.chan import cards, table
from chanspec.model.chan.game import Action, Deal, State

BASE = table.load("family")


def five(options: dict[str, str] | None = None) -> tuple[table.Rules, list[Deal]]:
    r = scale.scaled_rules(BASE, scale.SCALES["five"], options)
    return r, scale.deals(r, 2, 1)


def test_scales_keep_the_table_and_get_their_own_id() -> None:
    for sc in scale.SCALES.values():
        t = scale.scaled_table(BASE, sc)
        assert t.id == f"family@{sc.name}"
        r = t.resolve(sc.players)
        assert len(r.faces) == len(sc.faces) and r.copies == sc.copies
        assert r.pairs * 2 == sc.other_cards + 1
        # every rule row, restriction and claim row is the family's own
        assert set(t.rows) == set(BASE.rows)
        assert t.data["restriction"] == BASE.data["restriction"]
        assert t.data["claim"] == BASE.data["claim"]
        for d in scale.deals(r, 3, 7):
            assert len(d.noc) == sc.noc_size


def test_scale_that_cannot_deal_is_refused() -> None:
    bad = scale.Scale("tiny", ("1v", "1n"), 2, 4, 3, 1, "", "")
    with pytest.raises(scale.ScaleError, match="cannot deal"):
        scale.scaled_table(BASE, bad)


def test_as_written_deadlocks_and_lift_bans_does_not() -> None:
    """§3 gives bans but no way out when every card is banned: stuck-discard=as-written."""
    r, deals = five({"stuck-discard": "as-written"})
    res = explore.explore(r, deals)
    v = {x.what: x for x in res.violations()}
    assert "stuck-all-banned" in v and res.exit_code() == 11
    st = State.replay(r, deals[v["stuck-all-banned"].deal], v["stuck-all-banned"].path)
    assert st.is_stuck() and st.phase == "discard"
    actor = st.actor
    assert actor is not None
    held = [f for f in r.faces if st.hands[actor][f]]
    assert held and all(st._discard_bans(actor, f) for f in held)
    r2, deals2 = five()
    assert deals2 == deals
    res2 = explore.explore(r2, deals2)
    assert "stuck-all-banned" not in {x.what for x in res2.violations()}
    assert res.complete and res2.complete and res2.distinct > 1000


def test_itf_trace_replays_to_the_violating_state(tmp_path: Path) -> None:
    r, deals = five({"stuck-discard": "as-written"})
    res = explore.explore(r, deals)
    v = next(x for x in res.violations() if x.what == "stuck-all-banned")
    doc = itf.trace(r, deals[v.deal], v.path, meta={"violation": v.as_json()})
    itf.write(tmp_path / "t.itf.json", doc)
    back = json.loads((tmp_path / "t.itf.json").read_text(encoding="utf-8"))
    assert back["#meta"]["format"] == "ITF" and back["vars"]
    assert [s["#meta"]["index"] for s in back["states"]] == list(range(len(v.path) + 1))
    assert all(set(back["vars"]) <= set(s) for s in back["states"])
    deal = Deal.from_json(back["#meta"]["chanspec"]["deal"])
    acts = [Action.from_json({k: v for k, v in s["action"].items() if v != ""})
            for s in back["states"][1:]]
    st = State.replay(r, deal, acts)
    assert st.is_stuck() and acts == list(v.path)


def test_scenario_names_cards_in_vietnamese() -> None:
    r, deals = five({"stuck-discard": "as-written"})
    res = explore.explore(r, deals)
    v = res.violations()[0]
    steps = scenario.narrate(r, deals[v.deal], v.path)
    assert len(steps) == len(v.path) + 1
    text = "\n".join(scenario.lines(steps))
    assert "Ghế 0 đánh" in text and "(en) Seat 0 discards" in text
    assert any(name in text for name in cards.NAMES[:9])


def test_exit_codes_follow_the_worst_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    # §2 Ăn as written: eating with the last concealed card leaves nothing to discard
    r, deals = five({"empty-hand": "as-written"})
    assert explore.explore(r, deals[:1]).exit_code() == 11  # stuck-empty-hand at this scale
    # the table's default (empty-hand=forbid) removes that deadlock
    r0, _ = five()
    assert explore.explore(r0, deals[:1]).exit_code() == 0
    real = State.census

    def broken(self: State) -> list[int]:
        c = real(self)
        if self.noc_left() == 0:
            c[0] += 1
        return c

    monkeypatch.setattr(State, "census", broken)
    res = explore.explore(r, deals[:1])
    assert "census" in {v.what for v in res.violations()} and res.exit_code() == 12


def test_cycle_detection() -> None:
    assert explore._cycle(array("i", [0, 1]), array("i", [1, 2]), 3) is None
    cyc = explore._cycle(array("i", [0, 1, 2, 3]), array("i", [1, 2, 1, 0]), 4)
    assert cyc is not None and cyc[0] == cyc[-1] and set(cyc) <= {0, 1, 2, 3}


def test_vacuity_names_unreachable_rows_and_not_acting_ones() -> None:
    r = scale.scaled_rules(BASE, scale.SCALES["ranks2"])
    res = explore.explore(r, scale.deals(r, 2, 1))
    never = set(res.never_cited())
    # two copies of each face: no chíu, so no return and no chíu counting
    assert {"returned-card-chiu", "chiu-counts-two", "chiu-return"} <= never
    assert not never & {"eat", "pass-chan-ban", "win-shape", "discard-only-chiu-u",
                        "opener-no-draw", "wall-card-any"}
    assert res.option_changes().get("timeout=auto-pass", 0) > 0


def test_flow_diagram_cites_existing_rule_ids() -> None:
    dot = diagrams.flow_dot(BASE)
    labels = re.findall(r'label="((?:[^"\\]|\\.)*)"', dot)
    groups = [g for lab in labels for g in re.findall(r"\[([^\[\]]+)\]", lab) if g != ".."]
    ids = {i.strip("()") for g in groups for i in re.split(r"[,\s]+", g)} - {""}
    assert ids, dot
    known = set(BASE.rows)
    unknown = {i for i in ids if i not in known}
    assert not unknown, unknown
    for c in BASE.data["claim"]:
        assert f"[{c['rule']}]" in dot
    for rid in BASE.data["claims"]["priority_rules"]:
        assert rid in dot


def test_state_graph_and_witness_pictures(tmp_path: Path) -> None:
    r, deals = five()
    g = explore.explore_deal(r, deals[1], 1, graph_limit=200, alts=[])
    assert g.graph is not None and g.graph["edges"]
    dot = diagrams.state_graph_dot(g.graph, "five")
    assert "legend" in dot and "doublecircle" in dot
    written = diagrams.write(dot, tmp_path / "g.dot")
    assert written[0].read_text(encoding="utf-8").startswith("digraph")
    if diagrams.have_dot():
        assert written[1].suffix == ".svg" and "<svg" in written[1].read_text(encoding="utf-8")


def test_witness_search_finds_the_stuck_discard_divergence() -> None:
    a, deals = five()
    b = a.with_options(stuck_discard="as-written")
    res = witness.search(a, b, deals)
    d = res.found
    assert d is not None and not d.only_b and all(x.kind == "discard" for x in d.only_a)
    st = State.replay(b, d.deal, d.path)
    assert st.is_stuck()


def test_claim_seat_order_witness_changes_the_winner() -> None:
    r = scale.scaled_rules(BASE, scale.SCALES["ranks2"])
    deals = scale.deals(r, 30, 1)
    res = witness.search(r, r.with_options(claim_seat_order="receiver-first"), deals)
    d = res.found
    assert d is not None and d.result_a[0] == d.result_b[0] == "win"
    assert d.result_a[1] != d.result_b[1]


def test_winning_hand_counts_match_the_engine_on_a_small_deck() -> None:
    from itertools import combinations_with_replacement

    r = scale.scaled_rules(BASE, scale.SCALES["ranks2"])
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
    got = hands.count_wins(r)
    assert (got["complete"], got["u_wins"]) == (complete, u_wins)
    assert complete > 0 and u_wins > 0


def test_findings_file_matches_the_table_and_open_questions() -> None:
    doc = findings.load()
    assert doc is not None, "run: chanspec check"
    assert doc["table_digest"] == findings.table_digest(BASE), (
        "OPEN_QUESTIONS.json is stale; run: chanspec check")
    assert set(doc["questions"]) == {r.id for r in BASE.rows.values()
                                     if r.status in ("open", "provisional")}
    q = doc["questions"]["stuck-discard"]
    w = q["witness"]
    assert w is not None and w["value_a"] == "lift-bans"
    # the saved witness parts where it says: replayed under each of its two values, the
    # legal actions differ by exactly the recorded only_a / only_b
    sc = scale.SCALES[w["scale"]]
    legal = {}
    for v in (w["value_a"], w["value_b"]):
        r = scale.scaled_rules(BASE, sc, {"stuck-discard": v})
        st = State.replay(r, Deal.from_json(w["deal"]), [Action.parse(a) for a in w["path"]])
        legal[v] = {a.code() for a in st.legal_actions()}
    a, b = legal[w["value_a"]], legal[w["value_b"]]
    assert sorted(a - b) == sorted(w["only_a"]) and sorted(b - a) == sorted(w["only_b"])
    # and the reading as written was searched and found to part from the default too (its
    # deadlock is replayed by test_witness_search_finds_the_stuck_discard_divergence)
    assert any(s["value"] == "as-written" and s["found"] for s in q["searches"])


def test_check_quick_command_output_and_exit_code(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code = cli.main(["check", "--quick", "--scales", "five=2", "--no-write", "--quiet",
                     "--out", str(out), "--lang", "en", "--option", "empty-hand=as-written"])
    text = capsys.readouterr().out
    assert code == 11  # the empty-hand deadlock of §2 Ăn, as written, at this scale
    assert re.search(r"[\d,]+ states generated, [\d,]+ distinct states found, 0 states left "
                     r"on queue\.", text)
    assert "The depth of the complete state graph search is" in text
    assert "distinct states/s" in text and "Error: Deadlock reached." in text
    rep = json.loads((out / "findings.json").read_text(encoding="utf-8"))
    assert rep["exit_code"] == 11 and rep["explorations"][0]["scale"] == "five"
    assert (out / "flow.dot").is_file() and list(out.glob("*.itf.json"))
    if diagrams.have_dot():  # with a renderer: SVG and PNG beside every DOT
        assert (out / "flow.svg").is_file() and (out / "flow.png").is_file()
        assert (out / "flow.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert "flow.png" in rep["pngs"]


def test_check_with_a_broken_table_exits_150(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("schema = 1\n[ruleset]\nid = 'x'\n", encoding="utf-8")
    assert cli.main(["check", "--ruleset", str(bad), "--quick", "--quiet",
                     "--out", str(tmp_path / "o")]) == 150


# --------------------------------------------------------------------------- quotient graph


@pytest.mark.parametrize("name", list(scale.SCALES))
def test_quotient_diagram_fits_on_a_page_at_every_scale(name: str) -> None:
    """Every scale, a small budget: at most 40 groups, every state and transition counted
    once, edges labelled with the table's rule ids, terminal and start groups marked."""
    sc = scale.SCALES[name]
    r = scale.scaled_rules(BASE, sc, {"stuck-discard": "as-written"})
    d = scale.deals(r, 1, 1)[0]
    g = explore.explore_deal(r, d, 0, cap=800, graph_limit=800, sample_every=2,
                             explain_every=10**9)
    assert g.graph is not None
    q = diagrams.quotient(g.graph)
    assert 1 < len(q.nodes) <= diagrams.MAX_QUOTIENT_NODES
    assert sum(n.states for n in q.nodes.values()) == len(g.graph["nodes"]) == q.concrete_states
    assert sum(e.count for e in q.edges.values()) == q.concrete_edges == len(
        [e for e in g.graph["edges"] if e[0] in g.graph["nodes"] and e[1] in g.graph["nodes"]])
    assert sum(n.start for n in q.nodes.values()) == 1
    rules = set().union(*(e.rules for e in q.edges.values()))
    assert rules and rules <= set(BASE.rows)
    kinds = {e.kind for e in q.edges.values()}
    assert {"discard", "pass"} <= kinds
    assert g.complete or any(n.cut for n in q.nodes.values())
    dot = diagrams.quotient_dot(q, name)
    assert dot.startswith("digraph") and "×" in dot
    text = diagrams.quotient_text(q, name)
    assert f"{len(q.nodes)} nhóm" in text


def test_quotient_marks_stuck_terminal_and_diverging_groups() -> None:
    r, deals = five({"stuck-discard": "as-written"})
    g = explore.explore_deal(r, deals[0], 0, graph_limit=10**6, sample_every=1)
    assert g.graph is not None and g.complete
    q = diagrams.quotient(g.graph)
    stuck = [n for n in q.nodes.values() if n.stuck]
    assert stuck and all(n.key[0] == "stuck" for n in stuck)
    assert sum(n.states for n in stuck) == g.outcomes["stuck"]
    over = [n for n in q.nodes.values() if n.terminal]
    assert sum(n.states for n in over) == g.outcomes["win"] + g.outcomes["draw"]
    # where an open option's readings part (stuck-discard itself, here) is marked
    assert any("stuck-discard=lift-bans" in n.diverge for n in q.nodes.values())
    # an option whose readings part nearly everywhere (a timeout is possible wherever a
    # seat is awaited) is said once, not on every group
    assert q.everywhere == ("timeout",)
    assert not any(k.startswith("timeout=") for n in q.nodes.values() for k in n.diverge)
    assert "everywhere: timeout" in diagrams.quotient_dot(q, "five")
    assert "#d000d0" in diagrams.quotient_dot(q, "five") and "#ff9090" in diagrams.quotient_dot(
        q, "five")


def test_quotient_coarsens_until_it_fits() -> None:
    r, deals = five()
    g = explore.explore_deal(r, deals[0], 0, graph_limit=3000, cap=3000, alts=[])
    assert g.graph is not None
    fine = diagrams.quotient(g.graph)
    tight = diagrams.quotient(g.graph, max_nodes=6)
    assert len(tight.nodes) <= 6 < len(fine.nodes) and tight.level > fine.level
    assert sum(n.states for n in tight.nodes.values()) == fine.concrete_states


def test_check_draws_a_quotient_for_every_scale(tmp_path: Path) -> None:
    rc = cli.main(["check", "--quick", "--scales", "five=1,chiu4=1", "--no-write", "--quiet",
                   "--out", str(tmp_path), "--json"])
    assert rc == 0
    rep = json.loads((tmp_path / "findings.json").read_text(encoding="utf-8"))
    assert {q["scale"] for q in rep["quotients"]} == {"five", "chiu4"}
    for q in rep["quotients"]:
        assert 1 < q["groups"] <= 40 and q["states"] > 0 and q["text"]
        assert (tmp_path / f"quotient-{q['scale']}.dot").is_file()
    witnessed = [rid for rid, q in rep["questions"].items() if q.get("witness")]
    assert witnessed and all((tmp_path / f"diverge-{rid}.dot").is_file() for rid in witnessed)
    if diagrams.have_dot():  # the report describes each quotient graph with its own text
        site = tmp_path / "site"
        assert cli.main(["report", "--out", str(site), "--from", str(tmp_path)]) == 0
        page = (site / "diagrams.html").read_text(encoding="utf-8")
        assert 'quotient-five.svg' in page and "nhóm / groups" in page
        assert f"diverge-{witnessed[0]}.svg" in page


def test_check_says_when_it_stopped_at_its_cap(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from chanspec.checks.findings import compute as findings

    doc = dict(findings.load() or {})
    doc["table_digest"] = findings.table_digest(BASE)
    monkeypatch.setattr(findings, "compute", lambda *a, **k: doc)  # not what this is about
    code = cli.main(["check", "--quick", "--scales", "five=1", "--cap", "50", "--engine",
                     "reference", "--no-write", "--quiet", "--out", str(tmp_path / "o"),
                     "--lang", "en"])
    text = capsys.readouterr().out
    assert code == 0
    assert "0 states left on queue" not in text and "complete state graph" not in text
    assert "stopped at the 50-state cap/deal" in text and "--cap N" in text
    assert "; 1 deal (seed" in text
