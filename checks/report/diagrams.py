"""Pictures: the turn and claim flow read from the rule table, explored state graphs,
and witness scenarios.  DOT is always written; SVG (and PNG) when Graphviz's ``dot`` is
installed (``apt-get install graphviz`` otherwise).

`flow_dot(table)` builds the flow only from the table's data: the phases of a hand, the
sources of a card in a claim window (``[[claim]]`` rows: which claims each source allows,
conditional ones labelled with their option), the priority tiers of ``[claims]`` with
their rule ids and the tie-break row, and the ``[turn]`` roles on the edges between
phases.  Every edge label names the rule id it comes from, so the picture cannot drift
from the rules.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import networkx as nx
from chanspec.checks.output import write_atomic
from chanspec.model.table import Table

# (Vietnamese, English): each language on its own line
HOW_TO_GET_DOT = ("Không có chương trình 'dot' của Graphviz: chỉ ghi tệp .dot. Cài bằng: "
                  "apt-get install graphviz",
                  "Graphviz 'dot' is not installed: only .dot files were written. Install it "
                  "with: apt-get install graphviz")


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _attrs(d: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={_q(str(v))}" for k, v in d.items())


def to_dot(g: nx.MultiDiGraph, name: str, graph_attrs: Mapping[str, Any] | None = None) -> str:
    lines = [f"digraph {_q(name)} {{", '  node [fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=9];']
    for k, v in (graph_attrs or {}).items():
        lines.append(f"  {k}={_q(str(v))};")
    for n, d in g.nodes(data=True):
        lines.append(f"  {_q(str(n))} [{_attrs(d)}];")
    for a, b, d in g.edges(data=True):
        lines.append(f"  {_q(str(a))} -> {_q(str(b))} [{_attrs(d)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _cond(allowed: Any) -> str:
    if allowed is True:
        return "yes"
    if allowed is False:
        return "no"
    return f"if {allowed['option']}={allowed['is']}"


def flow_graph(table: Table) -> nx.MultiDiGraph:
    d = table.data
    turn = d["turn"]
    g = nx.MultiDiGraph()
    box = {"shape": "box", "style": "rounded,filled", "fillcolor": "#eef5ff"}
    g.add_node("deal", label="chia bài / deal", shape="ellipse")
    g.add_node("opening", label="mở đầu / opening\n(người mở đầu / opener)", **box)
    g.add_node("discard", label="đánh / discard", **box)
    g.add_node("return", label="trả cửa / return", **box)
    g.add_node("over", label="hết ván / over\n(ù hoặc hòa / win or draw)", shape="doubleoctagon")
    for src, vi in (("draw", "bốc / draw"), ("discard", "quân đánh / discard"),
                    ("return", "quân trả / return")):
        rows = [c for c in d["claim"] if c["source"] == src]
        allowed = "\n".join(f"{c['claim']}: {_cond(c['allowed'])} [{c['rule']}]" for c in rows)
        g.add_node(f"win-{src}", label=f"cửa sổ nhận quân / claim window: {vi}\n{allowed}",
                   shape="box", style="filled", fillcolor="#fff6e0")
    g.add_edge("deal", "opening", label=f"[{d['deck']['rule']}] [{turn['opener_rule']}]")
    g.add_edge("opening", "over", label=f"u [{turn['opening_win_rule']}]")
    g.add_edge("opening", "win-discard", label=f"discard [{turn['opener_rule']}]")
    g.add_edge("discard", "win-discard", label=f"discard [{turn['discard_rule']}]")
    g.add_edge("return", "win-return", label=f"return [{turn['chiu_return_rule']}]")
    prio = d["claims"]["priority"]
    prules = d["claims"]["priority_rules"]
    order = " > ".join("/".join(t) for t in prio)
    tie = f"{d['claims']['tie_break_rule']} ({d['claims']['tie_break_option']})"
    g.add_node("resolve", label=f"xét quyền / resolve\n{order}\n[{', '.join(prules)}]\n"
               f"hòa nhau / tie: [{tie}]", shape="diamond", style="filled",
               fillcolor="#f0f0f0")
    for src in ("draw", "discard", "return"):
        g.add_edge(f"win-{src}", "resolve", label="mọi người trả lời / all answered")
    g.add_edge("resolve", "over", label=f"u, chiu-u [{d['win']['rule']}]")
    g.add_edge("resolve", "discard", label=f"eat, reclaim, chiu in turn [{turn['discard_rule']}]"
               f" [{turn['reclaim_rule']}]")
    g.add_edge("resolve", "return", label=f"chiu out of turn [{turn['chiu_return_rule']}]")
    g.add_edge("resolve", "win-draw", label=f"no claim, next draws [{turn['draw_rule']}] "
               f"[{turn['direction_rule']}]")
    g.add_edge("win-draw", "win-draw", label=f"drawer passes on [{turn['drawn_offer_rule']}]")
    g.add_edge("resolve", "over", label=f"nọc empty: draw [{turn['exhausted_rule']}]")
    g.add_node("legend", shape="note", label="Nhãn [..] là mã dòng luật trong bảng\n"
               "[..] labels are rule ids of the table\n"
               f"tắc / stuck: [{turn['stuck_rule']}]  hết giờ / timeout: [{turn['timeout_rule']}]")
    return g


def flow_dot(table: Table) -> str:
    return to_dot(flow_graph(table), f"{table.id} flow",
                  {"label": f"{table.title_vi} — {table.title_en}", "labelloc": "t",
                   "rankdir": "TB"})


def state_graph_dot(graph: Mapping[str, Any], title: str,
                    diverge: Sequence[int] = ()) -> str:
    """An explored state graph (checks/explore/search.py `graph`) with a legend."""
    g = nx.MultiDiGraph()
    div = set(diverge)
    for i, n in graph["nodes"].items():
        attrs: dict[str, Any] = {"label": f"{i}\n{n['phase']}\nnọc {n['noc_left']}",
                                 "shape": "circle", "fontsize": 8}
        if n["terminal"]:
            res = n["result"]
            attrs.update(shape="doublecircle", style="filled",
                         fillcolor="#c8f0c8" if res and res[0] == "win" else "#e0e0e0",
                         label=f"{i}\n{'ù ' + str(res[1]) if res and res[0] == 'win' else 'hòa'}")
        if n["stuck"]:
            attrs.update(shape="octagon", style="filled", fillcolor="#ff9090",
                         label=f"{i}\nkẹt/stuck\n{n['stuck_what']}")
        if i in div:
            attrs.update(penwidth=3, color="#d000d0")
        g.add_node(i, **attrs)
    for a, b, lab in graph["edges"]:
        if a in graph["nodes"] and b in graph["nodes"]:
            g.add_edge(a, b, label=lab)
    g.add_node("legend", shape="note", label=(
        "chú giải / legend\nvòng đôi xanh: ù / double green: win\nvòng đôi xám: hòa / grey: draw\n"
        "bát giác đỏ: kẹt / red octagon: deadlock\nviền tím: các giá trị tùy chọn khác nhau ở đây"
        " / purple: an open option's values part ways here\nnhãn cạnh: ghế:hành động quân / "
        "edge: seat:action card"))
    return to_dot(g, title, {"label": title, "labelloc": "t", "rankdir": "LR"})


def scenario_dot(steps: Sequence[Mapping[str, Any]], title: str) -> str:
    g = nx.MultiDiGraph()
    prev = None
    for i, s in enumerate(steps):
        text = str(s.get("action_vi", ""))
        en = str(s.get("action_en", ""))
        wrapped = _wrap(text, 60) + "\n" + _wrap(en, 60)
        last = i == len(steps) - 1
        g.add_node(i, label=f"{i}. {wrapped}", shape="box", style="rounded,filled",
                   fillcolor="#ffe0e0" if last else "#f8f8f8")
        if prev is not None:
            g.add_edge(prev, i)
        prev = i
    return to_dot(g, title, {"label": title, "labelloc": "t"})


def _wrap(text: str, width: int) -> str:
    out, line = [], ""
    for word in text.split():
        if len(line) + len(word) + 1 > width and line:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        out.append(line)
    return "\n".join(out)


def write(dot_text: str, path: Path, formats: Sequence[str] = ("svg",)) -> list[Path]:
    """Write `path` (.dot) and, with Graphviz, the other formats beside it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, dot_text)
    out = [path]
    exe = shutil.which("dot")
    if exe is None:
        return out
    for fmt in formats:
        target = path.with_suffix(f".{fmt}")
        tmp = target.with_name(f".{target.name}.tmp")
        subprocess.run([exe, f"-T{fmt}", str(path), "-o", str(tmp)], check=True,
                       capture_output=True, timeout=120)
        tmp.replace(target)
        out.append(target)
    return out


def have_dot() -> bool:
    return shutil.which("dot") is not None
