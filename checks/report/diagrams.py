"""Pictures: the turn and claim flow read from the rule table, explored state graphs,
and witness scenarios.  DOT is always written; SVG (and PNG) when a renderer is found:
the ``graphviz-pure`` program (a wheel chanspec depends on, so ``pip install`` brings it:
a port of ``dot`` that writes the same bytes on every platform), else Graphviz's ``dot``.

`flow_dot(table)` builds the flow only from the table's data: the phases of a hand, the
sources of a card in a claim window (``[[claim]]`` rows: which claims each source allows,
conditional ones labelled with their option), the priority tiers of ``[claims]`` with
their rule ids and the tie-break row, and the ``[turn]`` roles on the edges between
phases.  Every edge label names the rule id it comes from, so the picture cannot drift
from the rules.

`quotient(graph)` groups the states of an explored graph (checks/explore/search.py
``explore_deal(..., graph_limit=N)``) by what a reader follows -- phase, source of the card
on the table, the awaited seats' roles, a ban in force -- coarsening until at most
`MAX_QUOTIENT_NODES` groups remain; `quotient_dot` draws it and `quotient_text` says it
in words.  `divergence_dot` draws an open question's divergence picture
(checks/findings/divergence.py); `flow_mermaid`/`graph_mermaid` give any diagram here as
Mermaid (checks/findings/mermaid.py), and `graph_text` a text alternative for screen
readers.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx
from chanspec.checks.findings import mermaid
from chanspec.checks.output import (
    OutputPathError,
    current_umask,
    writable_target,
    write_atomic,
)
from chanspec.model.chan.table import Table

PURE = "graphviz-pure"
HOW_TO_GET_DOT = ("Không có chương trình vẽ sơ đồ: chỉ ghi tệp .dot. Cài: pip install "
                  "graphviz-pure (hoặc apt-get install graphviz), rồi chanspec report sẽ tự vẽ "
                  "từ các tệp .dot.",
                  "No diagram renderer: only .dot files were written. Install one: pip install "
                  "graphviz-pure (or apt-get install graphviz); chanspec report then draws the "
                  "pictures from the .dot files.")


class RenderError(RuntimeError):
    """The renderer failed on a DOT file (its message is in the exception)."""


def renderer() -> str | None:
    """The program that draws DOT files: ``graphviz-pure`` (beside this Python's scripts
    when the venv is not on PATH, or on PATH), else Graphviz's ``dot``; None without
    either.  ``CHANSPEC_DOT=PROGRAM`` chooses another (``CHANSPEC_DOT=none``: none)."""
    forced = os.environ.get("CHANSPEC_DOT")
    if forced:
        return None if forced == "none" else shutil.which(forced)
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        exe = shutil.which(PURE, path=folder)
        if exe:
            return exe
    return shutil.which(PURE) or shutil.which("dot")


def render(dot_path: Path, target: Path, fmt: str = "svg",
           exe: str | None = None) -> Path:
    """Draw `dot_path` into `target` (format `fmt`) atomically; raises RenderError."""
    exe = exe or renderer()
    if exe is None:
        raise RenderError(f"no renderer for {dot_path}: install graphviz-pure or graphviz")
    try:
        writable_target(target, target)
    except OutputPathError as exc:
        raise RenderError(exc.line()) from None
    # a temporary name of this process's own (three runs into one folder at once must
    # not take each other's pictures), with the mode a plain file would get
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                    dir=target.parent)
    except OSError as exc:
        raise RenderError(f"cannot create a temporary file beside {target}: "
                          f"{exc.strerror}") from None
    tmp = Path(name)
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
        os.close(fd)
        subprocess.run([exe, f"-T{fmt}", str(dot_path), "-o", str(tmp)], check=True,
                       capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        writable_target(target, target)
        tmp.replace(target)
    except OutputPathError as exc:
        tmp.unlink(missing_ok=True)
        raise RenderError(exc.line()) from None
    except (OSError, subprocess.SubprocessError) as exc:
        tmp.unlink(missing_ok=True)
        why = exc.stderr.decode("utf-8", "replace").strip()[-300:] if isinstance(
            exc, subprocess.CalledProcessError) and exc.stderr else str(exc)
        raise RenderError(f"{Path(exe).name} could not draw {dot_path} as {fmt}: "
                          f"{why}") from None
    return target


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
    for a, b, lab, *_ in graph["edges"]:
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
    """Write `path` (.dot) and, with a renderer, the other formats beside it (raises
    RenderError, after writing the .dot, when the renderer fails)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, dot_text)
    out = [path]
    exe = renderer()
    if exe is None:
        return out
    for fmt in formats:
        out.append(render(path, path.with_suffix(f".{fmt}"), fmt, exe))
    return out


def have_dot() -> bool:
    """Is there a renderer (graphviz-pure or Graphviz's dot)?"""
    return renderer() is not None


# --------------------------------------------------------------------------- quotient graph

MAX_QUOTIENT_NODES = 40
EVERYWHERE = 0.5
PHASE_TEXT = {"opening": "mở đầu / opening", "window": "cửa sổ nhận quân / claim window",
              "discard": "phải đánh / discard due", "return": "phải trả cửa / return due",
              "over": "hết ván / over", "stuck": "kẹt / stuck"}
SOURCE_TEXT = {"draw": "quân bốc / drawn card", "discard": "quân đánh / discarded card",
               "return": "quân trả / returned card"}
ROLE_TEXT = {"gate": "chủ cửa / gate owner", "turn": "người đến lượt / seat to play",
             "other": "người khác / other seats", "actor": "một ghế / one seat",
             "one": "một ghế / one seat", "several": "nhiều ghế / several seats"}


@dataclass
class QNode:
    """One group of concrete states."""

    key: tuple[Any, ...]
    label: str
    states: int = 0
    start: bool = False
    terminal: bool = False
    stuck: bool = False
    cut: int = 0  # states whose successors the budget left out
    loops: int = 0  # states on a cycle of the concrete graph (play that can go on for ever)
    diverge: Counter[str] = field(default_factory=Counter)  # option=value -> states


@dataclass
class QEdge:
    kind: str
    count: int = 0
    rules: set[str] = field(default_factory=set)


@dataclass
class Quotient:
    """The explored state graph with states grouped by what a reader cares about."""

    nodes: dict[str, QNode]
    edges: dict[tuple[str, str, str], QEdge]
    level: int  # how coarse the grouping had to be to fit (0 finest)
    concrete_states: int
    concrete_edges: int
    seconds: float
    # options whose readings part in at least `EVERYWHERE` of the sampled states: said
    # once in the legend rather than on every group
    everywhere: tuple[str, ...] = ()


def _qkey(n: Mapping[str, Any], level: int) -> tuple[Any, ...]:
    if n["terminal"]:
        res = n.get("result") or ("draw", None)
        kind = res[0] if res[0] != "win" or level >= 4 else f"win-{n.get('win_kind') or 'u'}"
        return ("over", kind)
    if n["stuck"]:
        return ("stuck", n.get("stuck_what") or "stuck-other")
    roles = tuple(n.get("roles") or ())
    pend = ("several",) if len(n.get("pending", ())) > 1 else ("one",)
    src = n.get("source")
    ban = bool(n.get("ban"))
    return [(n["phase"], src, roles, ban), (n["phase"], src, pend, ban),
            (n["phase"], src, ban), (n["phase"], src), (n["phase"],)][level]


def _qlabel(key: tuple[Any, ...]) -> str:
    if key[0] == "over":
        kind = key[1]
        text = {"draw": "hòa / draw", "win": "ù / win", "win-u": "ù / win (u)",
                "win-chiu-u": "chíu ù / chíu-ù", "win-opening": "ù ngay khi chia / "
                "win on the dealt hand"}.get(kind, str(kind))
        return f"{PHASE_TEXT['over']}\n{text}"
    if key[0] == "stuck":
        return f"{PHASE_TEXT['stuck']}\n{key[1]}"
    lines = [PHASE_TEXT.get(key[0], key[0])]
    for part in key[1:]:
        if isinstance(part, bool):
            lines.append("có lệnh cấm / a ban in force" if part else "không cấm / no ban")
        elif isinstance(part, tuple):
            lines.append("chờ / awaiting: " + ", ".join(ROLE_TEXT.get(p, p) for p in part))
        elif part is not None:
            lines.append(SOURCE_TEXT.get(part, str(part)))
    return "\n".join(lines)


def _qid(key: tuple[Any, ...]) -> str:
    parts: list[str] = []
    for p in key:
        if isinstance(p, tuple):
            parts.append("+".join(p) or "none")
        elif isinstance(p, bool):
            parts.append("ban" if p else "free")
        elif p is not None:
            parts.append(str(p))
    return "q_" + "_".join(x.replace("-", "") for x in parts)


def quotient(graph: Mapping[str, Any], max_nodes: int = MAX_QUOTIENT_NODES) -> Quotient:
    """Group the states of an explored graph (checks/explore/search.py ``graph``) so that
    at most `max_nodes` groups remain: by phase, source of the card on the table, the
    awaited seats' roles and whether a ban binds them; coarser (roles → how many seats →
    no ban → phase and source → phase) until the groups fit.  Edges are grouped by
    (group, group, action kind) with the rule ids behind them and how many concrete
    transitions each stands for."""
    t0 = time.perf_counter()
    nodes = graph["nodes"]
    edges = [e for e in graph["edges"] if e[0] in nodes and e[1] in nodes]
    level = 0
    for level in range(5):
        if len({_qkey(n, level) for n in nodes.values()}) <= max_nodes:
            break
    conc = nx.DiGraph()
    conc.add_nodes_from(nodes)
    conc.add_edges_from((e[0], e[1]) for e in edges)
    looping: set[Any] = set()
    for comp in nx.strongly_connected_components(conc):
        if len(comp) > 1:
            looping |= comp
    looping |= {a for a, b in conc.edges if a == b}
    groups: dict[str, QNode] = {}
    of: dict[Any, str] = {}
    start = min(nodes) if nodes else None
    for i, n in nodes.items():
        key = _qkey(n, level)
        gid = _qid(key)
        q = groups.get(gid)
        if q is None:
            q = groups[gid] = QNode(key, _qlabel(key))
        q.states += 1
        q.start |= i == start
        q.terminal |= bool(n["terminal"])
        q.stuck |= bool(n["stuck"])
        q.cut += bool(n.get("cut"))
        q.loops += i in looping
        q.diverge.update(n.get("diverge", ()))
        of[i] = gid
    sampled = sum(bool(n.get("sampled") or n.get("stuck")) for n in nodes.values())
    counts: Counter[str] = Counter(o.split("=")[0] for n in nodes.values()
                                   for o in set(n.get("diverge", ())))
    everywhere = tuple(sorted(o for o, c in counts.items() if sampled and c >= EVERYWHERE
                              * sampled))
    for q in groups.values():
        for k in [k for k in q.diverge if k.split("=")[0] in everywhere]:
            del q.diverge[k]
    qedges: dict[tuple[str, str, str], QEdge] = {}
    for e in edges:
        code = str(e[2])
        kind = code.split(":", 1)[1].split()[0] if ":" in code else code
        k = (of[e[0]], of[e[1]], kind)
        qe = qedges.get(k)
        if qe is None:
            qe = qedges[k] = QEdge(kind)
        qe.count += 1
        if len(e) > 3:
            qe.rules.update(e[3])
    return Quotient(groups, qedges, level, len(nodes), len(edges),
                    time.perf_counter() - t0, everywhere)


def _qflags(q: QNode) -> list[str]:
    out = []
    if q.start:
        out.append("bắt đầu / start")
    if q.stuck:
        out.append("BẾ TẮC / DEADLOCK")
    if q.loops:
        out.append(f"vòng lặp / on a cycle: {q.loops:,}")
    if q.diverge:
        opts = sorted({k.split("=")[0] for k in q.diverge})
        out.append("các cách hiểu tách ở đây / readings part here: " + ", ".join(opts))
    if q.cut:
        out.append(f"chưa duyệt hết / not fully explored: {q.cut:,}")
    return out


def _rules_text(rules: set[str], most: int = 4) -> str:
    r = sorted(rules)
    return ", ".join(r[:most]) + (f", +{len(r) - most}" if len(r) > most else "")


def quotient_dot(q: Quotient, title: str) -> str:
    g = nx.MultiDiGraph()
    for gid, n in sorted(q.nodes.items()):
        label = f"{n.label}\n{n.states:,} trạng thái / states"
        flags = _qflags(n)
        if flags:
            label += "\n" + "\n".join(flags)
        attrs: dict[str, Any] = {"label": label, "shape": "box", "style": "rounded,filled",
                                 "fillcolor": "#f4f8ff"}
        if n.terminal:
            attrs.update(shape="doubleoctagon", fillcolor="#c8f0c8"
                         if n.key[1] != "draw" else "#e0e0e0")
        if n.stuck:
            attrs.update(shape="octagon", fillcolor="#ff9090")
        if n.diverge:
            attrs.update(penwidth=3, color="#d000d0")
        if n.loops:
            attrs.update(peripheries=2)
        if n.start:
            attrs.update(fillcolor="#fff6c0")
        g.add_node(gid, **attrs)
    pairs: dict[tuple[str, str], list[QEdge]] = {}
    for (a, b, _), e in sorted(q.edges.items()):
        pairs.setdefault((a, b), []).append(e)
    for (a, b), es in pairs.items():  # one arrow per pair of groups, a line per kind
        g.add_edge(a, b, label="\n".join(f"{e.kind} ×{e.count:,} [{_rules_text(e.rules, 3)}]"
                                          for e in es))
    every = ("\nở mọi nơi / everywhere: " + ", ".join(q.everywhere)) if q.everywhere else ""
    g.add_node("legend", shape="note", label=(
        "chú giải / legend\nmỗi ô: một nhóm trạng thái / each box: a group of states\n"
        "nhãn cạnh: hành động ×số bước cụ thể [mã luật] / edge: action ×concrete steps "
        "[rule ids]\nbát giác đôi: hết ván / double octagon: the hand is over\n"
        "bát giác đỏ: kẹt / red octagon: deadlock\nviền tím: các cách hiểu tách / purple: "
        "an open option's readings part\nviền đôi: có vòng lặp / double border: a cycle"
        + every))
    return to_dot(g, title, {"label": title, "labelloc": "t", "rankdir": "TB"})


def quotient_text(q: Quotient, title: str) -> str:
    """A text alternative of the quotient graph for screen readers."""
    parts = [f"{title}: {len(q.nodes)} nhóm / groups of {q.concrete_states:,} states, "
             f"{len(q.edges)} cạnh / edges for {q.concrete_edges:,} transitions."]
    if q.everywhere:
        parts.append("Các cách hiểu tách ở hầu hết mọi trạng thái / readings part almost "
                     "everywhere: " + ", ".join(q.everywhere))
    for gid, n in sorted(q.nodes.items()):
        outs = [f"{e.kind} ×{e.count} → {q.nodes[b].label.splitlines()[0]}"
                for (a, b, _), e in sorted(q.edges.items()) if a == gid]
        flags = "; ".join(_qflags(n))
        parts.append(f"{n.label.replace(chr(10), ', ')} ({n.states} states"
                     + (f"; {flags}" if flags else "") + ")"
                     + (": " + "; ".join(outs) if outs else ""))
    return "\n".join(parts)


# --------------------------------------------------------------------------- Mermaid and text


def graph_mermaid(g: nx.MultiDiGraph, direction: str = "TD") -> str:
    """Any diagram of this module as a Mermaid flowchart (labels and edge labels kept;
    shapes mapped to the nearest Mermaid shape)."""
    fc = mermaid.Flowchart(direction)
    ids = {n: mermaid.node_id(f"n_{n}") for n in g.nodes}
    shapes = {"ellipse": "stadium", "diamond": "diamond", "doubleoctagon": "hexagon",
              "octagon": "hexagon", "note": "box", "circle": "circle",
              "doublecircle": "circle"}
    for n, d in g.nodes(data=True):
        fc.node(ids[n], str(d.get("label", n)), shapes.get(str(d.get("shape")), "round"
                                                          if "rounded" in str(d.get("style"))
                                                          else "box"))
    for a, b, d in g.edges(data=True):
        fc.edge(ids[a], ids[b], d.get("label"))
    return fc.text()


def flow_mermaid(table: Table) -> str:
    """The turn and claim flow of `table` (`flow_graph`) as a Mermaid flowchart."""
    return graph_mermaid(flow_graph(table))


def graph_text(g: nx.MultiDiGraph, title: str) -> str:
    """A text alternative of a diagram for screen readers: every box, then every arrow
    with its label."""
    def name(n: Any) -> str:
        return " ".join(str(g.nodes[n].get("label", n)).split("\n")[0].split())
    lines = [f"{title}: {g.number_of_nodes()} ô / boxes, {g.number_of_edges()} mũi tên / "
             "arrows."]
    for n, d in g.nodes(data=True):
        parts = (" ".join(x.split()) for x in str(d.get("label", n)).split("\n"))
        lines.append("- " + " — ".join(parts))
    for a, b, d in g.edges(data=True):
        lab = " ".join(str(d.get("label", "")).split())
        lines.append(f"- {name(a)} → {name(b)}" + (f": {lab}" if lab else ""))
    return "\n".join(lines)


def divergence_dot(pic: Mapping[str, Any], title: str) -> str:
    """The divergence picture of an open question (checks/findings/divergence.py) in DOT:
    the shared path, then one column per reading, side by side."""
    g = nx.MultiDiGraph()
    box = {"shape": "box", "style": "rounded,filled", "fillcolor": "#f8f8f8"}

    def lab(s: Mapping[str, Any]) -> str:
        rules = f"\n[{', '.join(s['rules'])}]" if s.get("rules") else ""
        return f"{s['code']}\n{_wrap(s['vi'], 48)}\n{_wrap(s['en'], 48)}{rules}"

    g.add_node("deal", label=_wrap(pic["deal_vi"], 60) + "\n" + _wrap(pic["deal_en"], 60),
               shape="note")
    prev = "deal"
    for i, s in enumerate(pic["common"]):
        g.add_node(f"c{i}", label=lab(s), **box)
        g.add_edge(prev, f"c{i}")
        prev = f"c{i}"
    g.add_node("part", label=f"{pic['option']}\ncác cách hiểu tách ở đây\nthe readings part "
               "here", shape="diamond", style="filled", fillcolor="#f6e0ff")
    g.add_edge(prev, "part")
    colours = {"win": "#c8f0c8", "draw": "#e0e0e0", "stuck": "#ff9090", "goes-on": "#fff6e0"}
    for k, b in enumerate(pic["branches"]):
        last = "part"
        for i, s in enumerate(b["steps"]):
            nid = f"b{k}s{i}"
            g.add_node(nid, label=lab(s), **box)
            g.add_edge(last, nid, label=f"{pic['option']}={b['value']}" if i == 0 else "")
            last = nid
        e = b["end"]
        g.add_node(f"b{k}end", label=f"{e['vi']}\n{e['en']}"
                   + (f"\n[{', '.join(e['rules'])}]" if e["rules"] else ""),
                   shape="doubleoctagon", style="filled", fillcolor=colours[e["kind"]])
        g.add_edge(last, f"b{k}end", label=f"{pic['option']}={b['value']}"
                   if not b["steps"] else "")
    return to_dot(g, title, {"label": title, "labelloc": "t", "rankdir": "TB"})
