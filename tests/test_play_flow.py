"""``chanspec flow``: the picture of how hands move between decision points, for every
built-in ruleset.  Every arrow is played again from its first witness with legality
checked, the counts add up, the same seed draws the same picture, and for Tấn two arrows
are what seed 003 says they must be."""

from __future__ import annotations

import json

import pytest
from chanspec.checks.cli import app as cli
from chanspec.checks.report import diagrams, play_flow
from chanspec.model import kinds

SMALLEST = {name: min(kinds.load(name).variants) for name in kinds.builtin_names()}


def rules_of(name: str, players: int | None = None):
    return kinds.rules(name, players or SMALLEST[name])


@pytest.mark.parametrize("name", sorted(SMALLEST))
def test_every_arrow_replays_from_its_witness_and_the_counts_add_up(name: str) -> None:
    rules = rules_of(name)
    flow = play_flow.observe(rules, 12, seed=5)
    kind = kinds.of(rules.table)
    assert sum(e.count for e in flow.edges.values() if e.before == play_flow.START) == 12
    assert sum(e.count for e in flow.edges.values()
               if e.before != play_flow.START) == flow.actions
    assert flow.ended + flow.cut <= 12
    for e in flow.edges.values():
        if e.before == play_flow.START:
            continue
        actions = play_flow.witness(rules, flow, e)
        st = kind.State.new(rules, seed=flow.seed + e.first[0])
        for a in actions[:-1]:
            st.apply(a)  # checked: every action of the witness is legal where it is played
        last = actions[-1]
        assert st.decision_point()[0] == e.before
        assert last.kind == e.kind
        assert set(st.explain(last).rules) <= set(e.rules)
        st.apply(last)
        assert st.decision_point()[0] == e.after


def test_the_same_seed_draws_the_same_picture_and_another_seed_counts_anew() -> None:
    rules = rules_of("tan", 3)
    a = play_flow.observe(rules, 8, seed=1).as_json()
    assert a == play_flow.observe(rules, 8, seed=1).as_json()
    assert a != play_flow.observe(rules, 8, seed=2).as_json()
    assert json.loads(json.dumps(a)) == a


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tan_leads_are_defended_and_a_take_ends_the_round(players: int) -> None:
    # seed 003 ¶10 s2: the attacked seat must answer the card led; ¶13 s1-2: a round ends
    # when the defender cannot beat any more and takes the cards
    flow = play_flow.observe(rules_of("tan", players), 30, seed=0)
    kinds_seen = {e.kind for e in flow.edges.values()}
    assert {"lead", "beat", "take"} <= kinds_seen
    for e in flow.edges.values():
        if e.kind == "lead":
            assert e.after == "defend", e
        if e.kind == "take":
            assert e.after in ("lead", "over"), e


def test_the_drawings_name_every_point_and_arrow() -> None:
    rules = rules_of("chiha")
    flow = play_flow.observe(rules, 6, seed=0)
    g = play_flow.graph(flow)
    assert set(g.nodes) == set(flow.words)
    assert g.number_of_edges() == len(flow.edges)
    dot = diagrams.to_dot(g, "x")
    mer = diagrams.graph_mermaid(g)
    for key, (vi, _en) in flow.words.items():
        assert vi in dot and f"[{key}]" in dot
        assert vi in mer
    for e in flow.edges.values():
        assert f"{e.kind} ×{e.count:,}" in dot


def test_the_command_prints_the_seed_and_writes_any_format(capsys, tmp_path) -> None:
    assert cli.main(["flow", "--ruleset", "tan", "--players", "2", "--hands", "5",
                     "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "--hands 5 --seed 4" in out and "(en)" in out
    for fmt, mark in (("dot", "digraph"), ("mermaid", "flowchart TD")):
        path = tmp_path / f"f.{fmt}"
        assert cli.main(["flow", "--ruleset", "chiha", "--hands", "3", "--format", fmt,
                         "--out", str(path)]) == 0
        assert path.read_text().startswith(mark) or mark in path.read_text()
    assert cli.main(["flow", "--hands", "3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ruleset"] == "family" and doc["hands"] == 3 and doc["edges"]


def test_bad_input_is_one_line(capsys) -> None:
    assert cli.main(["flow", "--hands", "0"]) == 2
    assert cli.main(["flow", "--format", "dot", "--out", "/dev/full"]) == 2
    err = capsys.readouterr().err
    assert "character device" in err and "Traceback" not in err
