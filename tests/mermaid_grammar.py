"""A parser for the subset of Mermaid flowchart syntax chanspec writes
(checks/findings/mermaid.py), written from Mermaid's documented grammar independently
of the writer: `problems(text)` lists every line that the subset does not allow, and
the graph-level mistakes (an edge to an undefined node, an unclosed subgraph, a class
that is never defined, a node defined twice)."""

from __future__ import annotations

import re

ID = r"[A-Za-z][A-Za-z0-9_]*"
# a label: any character but the ones Mermaid reads as syntax; entity codes (#quot;,
# #35;, ...) and the <br/> line break are the only escapes allowed
LABEL_CHAR = r'(?:[^"#<>|`\[\]{}]|#[a-z]+;|#\d+;|<br/>)'
LABEL = rf'"{LABEL_CHAR}*"'
SHAPES = [(r"\(\[", r"\]\)"), (r"\{\{", r"\}\}"), (r"\(\(", r"\)\)"), (r"\[", r"\]"),
          (r"\(", r"\)"), (r"\{", r"\}")]
NODE_RE = [re.compile(rf"^(?P<id>{ID})\s*{o}(?P<label>{LABEL}){c}$") for o, c in SHAPES]
EDGE_RE = re.compile(rf"^(?P<a>{ID})\s+(?:-->|-\.->)(?:\|(?P<label>{LABEL})\|)?\s+(?P<b>{ID})$")
SUB_RE = re.compile(rf"^subgraph\s+(?P<id>{ID})\s*\[(?P<label>{LABEL})\]$")
CLASSDEF_RE = re.compile(rf"^classDef\s+(?P<name>{ID})\s+[a-z-]+:[#\w.]+(?:,[a-z-]+:[#\w.]+)*$")
CLASS_RE = re.compile(rf"^class\s+(?P<ids>{ID}(?:,{ID})*)\s+(?P<name>{ID})$")
HEAD_RE = re.compile(r"^flowchart\s+(TD|TB|LR|RL|BT)$")
RESERVED = {"end", "graph", "flowchart", "subgraph", "class", "classDef", "style", "click",
            "linkStyle", "direction"}


def problems(text: str) -> list[str]:
    lines = [ln.strip() for ln in text.split("\n")]
    lines = [ln for ln in lines if ln]
    out: list[str] = []
    if not lines or not HEAD_RE.match(lines[0]):
        return [f"line 1: expected 'flowchart TD|LR|...', found {lines[:1]!r}"]
    defined: dict[str, int] = {}
    used: list[tuple[int, str]] = []
    classes_defined: set[str] = set()
    classes_used: list[tuple[int, str]] = []
    depth = 0
    for no, ln in enumerate(lines[1:], 2):
        if ln == "end":
            depth -= 1
            if depth < 0:
                out.append(f"line {no}: 'end' without a subgraph")
                depth = 0
            continue
        if m := SUB_RE.match(ln):
            depth += 1
            defined.setdefault(m["id"], no)
            continue
        if m := EDGE_RE.match(ln):
            used += [(no, m["a"]), (no, m["b"])]
            continue
        if m := CLASSDEF_RE.match(ln):
            classes_defined.add(m["name"])
            continue
        if m := CLASS_RE.match(ln):
            used += [(no, i) for i in m["ids"].split(",")]
            classes_used.append((no, m["name"]))
            continue
        for rx in NODE_RE:
            if m := rx.match(ln):
                if m["id"] in RESERVED:
                    out.append(f"line {no}: node id {m['id']!r} is a Mermaid keyword")
                elif m["id"] in defined:
                    out.append(f"line {no}: node {m['id']!r} defined twice")
                defined[m["id"]] = no
                break
        else:
            out.append(f"line {no}: not a statement of the flowchart subset: {ln!r}")
    if depth:
        out.append(f"{depth} subgraph(s) never closed with 'end'")
    for no, i in used:
        if i not in defined:
            out.append(f"line {no}: {i!r} is not a defined node")
    for no, c in classes_used:
        if c not in classes_defined:
            out.append(f"line {no}: class {c!r} has no classDef")
    return out


def unescape(label: str) -> str:
    """The text of a quoted label (the inverse of the writer's escape)."""
    named = {"quot": '"', "lt": "<", "gt": ">", "amp": "&"}
    body = label[1:-1].replace("<br/>", "\n")
    return re.sub(r"#(\w+);", lambda m: named.get(m[1]) or chr(int(m[1])), body)


def blocks(markdown: str) -> list[str]:
    """Every ```mermaid block of a Markdown text."""
    return re.findall(r"^```mermaid\n(.*?)^```$", markdown, flags=re.S | re.M)
