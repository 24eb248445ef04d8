"""How a hand moves between decision points, as seeded random hands play it: a diagram
of any game kind, read through the protocol (`chanspec.model.kind.GameState`) only.

`observe(rules, hands, seed)` plays `hands` hands of the kind that plays `rules`, hand
``i`` from the deal of seed ``seed + i`` with choices drawn uniformly from
``Random(seed + i)`` among every pending seat's legal actions.  Before and after each
action it reads the state's `decision_point()` (what is pending: a phase of Tấn, a claim
window of Chắn, ...); each distinct (point before, action kind, point after) is an edge,
counted, with the rows `explain` cites for the actions along it and the first place it
was seen (hand and step), so that `witness` can play it again.  A hand still going after
`cap` actions is cut there and counted apart.

Unlike `chanspec.checks.report.diagrams.flow_graph` (Chắn's flow drawn from the table's
data alone), this picture is what the machine does: an arrow is there because a hand
took it, and only then.  `graph` turns it into a networkx graph that the diagrams module
draws as DOT or Mermaid, or says in words.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
from chanspec.model import kinds

CAP = 3000  # actions per hand before it is cut (Tấn's hands can go round for ever)
START = "start"  # the node before the first decision point


@dataclass
class Edge:
    before: str
    kind: str
    after: str
    count: int = 0
    rules: Counter[str] = field(default_factory=Counter)
    first: tuple[int, int] = (0, 0)  # (hand, step) where it was first taken


@dataclass
class Flow:
    """What `observe` saw."""

    ruleset: str
    players: int
    seed: int
    hands: int
    words: dict[str, tuple[str, str]]  # decision point -> (vi, en)
    edges: dict[tuple[str, str, str], Edge]
    ended: int = 0  # hands that reached their end
    cut: int = 0  # hands cut at CAP
    actions: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset, "players": self.players, "seed": self.seed,
            "hands": self.hands, "ended": self.ended, "cut": self.cut, "cap": CAP,
            "actions": self.actions,
            "points": {k: {"vi": v[0], "en": v[1]} for k, v in sorted(self.words.items())},
            "edges": [{"from": e.before, "action": e.kind, "to": e.after, "count": e.count,
                       "rules": dict(sorted(e.rules.items(), key=lambda kv: (-kv[1], kv[0]))),
                       "first": {"hand": e.first[0], "step": e.first[1]}}
                      for e in sorted(self.edges.values(),
                                      key=lambda e: (e.before, e.kind, e.after))],
        }


def observe(rules: Any, hands: int, seed: int, cap: int = CAP) -> Flow:
    kind = kinds.of(rules.table)
    flow = Flow(rules.table.id, rules.players, seed, hands,
                {START: ("chia bài", "the deal")}, {})
    for i in range(hands):
        st = kind.State.new(rules, seed=seed + i)
        rng = random.Random(seed + i)
        key, vi, en = st.decision_point()
        flow.words.setdefault(key, (vi, en))
        _edge(flow, START, "deal", key, (), (i, -1))
        step = 0
        while not (st.is_terminal() or st.is_chance() or st.is_stuck()):
            if step >= cap:
                flow.cut += 1
                break
            legal = st.legal_actions()
            a = legal[rng.randrange(len(legal))]
            why = st.explain(a).rules
            st.apply(a, check=False)
            after, vi, en = st.decision_point()
            flow.words.setdefault(after, (vi, en))
            _edge(flow, key, a.kind, after, why, (i, step))
            flow.actions += 1
            key = after
            step += 1
        flow.ended += st.is_terminal()
    return flow


def _edge(flow: Flow, a: str, kind: str, b: str, why: tuple[str, ...],
          where: tuple[int, int]) -> None:
    e = flow.edges.get((a, kind, b))
    if e is None:
        e = flow.edges[(a, kind, b)] = Edge(a, kind, b, first=where)
    e.count += 1
    e.rules.update(why)


def witness(rules: Any, flow: Flow, edge: Edge, cap: int = CAP) -> list[Any]:
    """The actions of hand ``edge.first[0]`` up to and including the one that first took
    `edge` (played again from its seed: the same deal, the same draws)."""
    kind = kinds.of(rules.table)
    hand, step = edge.first
    st = kind.State.new(rules, seed=flow.seed + hand)
    rng = random.Random(flow.seed + hand)
    done: list[Any] = []
    while len(done) <= step:
        legal = st.legal_actions()
        a = legal[rng.randrange(len(legal))]
        st.apply(a, check=False)
        done.append(a)
    return done


def graph(flow: Flow, most_rules: int = 3) -> nx.MultiDiGraph:
    """The flow as a graph for `diagrams.to_dot` / `graph_mermaid` / `graph_text`: a box
    per decision point (its words in both languages), an arrow per edge labelled with the
    action's kind, how many times it was taken, and the rows cited most along it."""
    g = nx.MultiDiGraph()
    for key, (vi, en) in sorted(flow.words.items()):
        shape = {START: "ellipse"}.get(key, "box")
        g.add_node(key, label=f"{vi}\n({en})\n[{key}]", shape=shape,
                   style="rounded,filled", fillcolor="#eef5ff" if key != START else "#ffffff")
    for e in sorted(flow.edges.values(), key=lambda e: (e.before, e.kind, e.after)):
        top = [r for r, _ in sorted(e.rules.items(), key=lambda kv: (-kv[1], kv[0]))]
        rows = ", ".join(top[:most_rules]) + (", …" if len(top) > most_rules else "")
        g.add_edge(e.before, e.after, label=f"{e.kind} ×{e.count:,}" +
                   (f"\n[{rows}]" if rows else ""))
    return g


def title(flow: Flow, table: Any) -> str:
    return (f"{table.title_vi} — {table.title_en}: {flow.players} người / players; "
            f"{flow.hands:,} ván ngẫu nhiên / random hands, hạt giống / seed {flow.seed}")
