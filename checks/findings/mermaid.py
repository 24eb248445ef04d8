"""Mermaid flowcharts, so a diagram renders where Markdown is read (no image files).

Only a small subset of Mermaid's flowchart syntax is written, one statement per line::

    flowchart TD
        n0["Ghế 0 đánh Nhì Vạn<br/>Seat 0 discards Nhì Vạn"]
        n0 -->|"lao-thang=on"| n1
        subgraph b0["lao-thang=on"]
        ...
        end
        classDef stuck fill:#ff9090,stroke:#900
        class n1 stuck

Every label is quoted; inside it ``"``, ``#``, ``<``, ``>``, ``|``, `````, ``[``/``]``
and ``{``/``}`` are written as Mermaid entity codes (``#quot;``, ``#35;`` ...), so
Vietnamese text with any punctuation cannot break the diagram; line breaks become
``<br/>`` (the only markup emitted).  ``tests/test_mermaid.py`` parses every emitted
block with a grammar of this subset, and with the Mermaid CLI when it is installed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ENTITIES = {'"': "#quot;", "#": "#35;", "<": "#lt;", ">": "#gt;", "|": "#124;",
            "`": "#96;", "[": "#91;", "]": "#93;", "{": "#123;", "}": "#125;"}
ID_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
RESERVED = {"end", "graph", "flowchart", "subgraph", "class", "classDef", "style",
            "click", "linkStyle", "direction"}


def escape(text: str) -> str:
    """A label's text, safe inside Mermaid's double quotes; newlines become <br/>."""
    lines = str(text).split("\n")
    return "<br/>".join("".join(ENTITIES.get(ch, ch) for ch in " ".join(line.split()))
                        for line in lines)


def node_id(text: str) -> str:
    """A Mermaid node id made of letters, digits and underscores."""
    out = re.sub(r"[^A-Za-z0-9_]", "_", text)
    if not out or not out[0].isalpha():
        out = "n" + out
    return out + "_" if out in RESERVED else out


@dataclass
class Flowchart:
    direction: str = "TD"
    lines: list[str] = field(default_factory=list)
    _depth: int = 0
    classes: dict[str, str] = field(default_factory=dict)

    def _put(self, line: str) -> None:
        self.lines.append("    " * (self._depth + 1) + line)

    def node(self, nid: str, label: str, shape: str = "box") -> None:
        if not ID_RE.match(nid) or nid in RESERVED:
            raise ValueError(f"bad Mermaid node id {nid!r}")
        open_, close = {"box": ("[", "]"), "round": ("(", ")"), "stadium": ("([", "])"),
                        "diamond": ("{", "}"), "hexagon": ("{{", "}}"),
                        "circle": ("((", "))")}[shape]
        self._put(f'{nid}{open_}"{escape(label)}"{close}')

    def edge(self, a: str, b: str, label: str | None = None, dotted: bool = False) -> None:
        arrow = "-.->" if dotted else "-->"
        text = f'|"{escape(label)}"|' if label else ""
        self._put(f"{a} {arrow}{text} {b}")

    def subgraph(self, sid: str, label: str) -> None:
        self._put(f'subgraph {sid}["{escape(label)}"]')
        self._depth += 1

    def end(self) -> None:
        if self._depth == 0:
            raise ValueError("end without subgraph")
        self._depth -= 1
        self._put("end")

    def style(self, name: str, css: str, *nids: str) -> None:
        self.classes[name] = css
        if nids:
            self._put(f"class {','.join(nids)} {name}")

    def text(self) -> str:
        if self._depth:
            raise ValueError("unclosed subgraph")
        head = [f"flowchart {self.direction}"]
        defs = [f"    classDef {k} {v}" for k, v in sorted(self.classes.items())]
        return "\n".join(head + self.lines + defs) + "\n"
