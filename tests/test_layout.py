"""The layout of the package: data flows one way, and no two modules import each other.

table → model → explorers and oracles → findings → report; the conformance kit depends on
the model only; the command line may use everything and nothing uses it.  The rule is
checked on the source with `ast` (imports inside functions count too), so a violation
fails here before it can become a cycle at import time.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"chanspec.model": ROOT / "model", "chanspec.checks": ROOT / "checks"}

# part -> the parts it may import (itself always allowed)
ALLOWED: dict[str, set[str]] = {
    "model": set(),
    "checks": set(),  # the package docstring only
    "output": set(),
    "explore": {"model", "output"},
    "oracles": {"model", "output"},
    "conform": {"model", "output"},
    "findings": {"model", "output", "explore", "oracles"},
    "report": {"model", "output", "explore", "oracles", "findings"},
    "refengine": {"conform"},  # the old module name, kept working
    "cli": {"model", "output", "explore", "oracles", "findings", "report", "conform"},
}


def module_name(path: Path) -> str:
    for pkg, folder in FOLDERS.items():
        if folder in path.parents:
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            return ".".join([pkg, *parts])
    raise AssertionError(path)


def part_of(module: str) -> str:
    """model, checks (the package itself), output, explore, …, cli."""
    bits = module.split(".")
    if bits[1] == "model":
        return "model"
    return bits[2] if len(bits) > 2 else "checks"


def imports_of(path: Path, module: str) -> set[str]:
    """Every chanspec module this file imports, resolved to its full dotted name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("chanspec."))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base if is_pkg else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("chanspec."):
                continue
            found.add(target)
            for a in node.names:  # `from chanspec.checks.conform import logs` names a module
                candidate = f"{target}.{a.name}"
                if candidate in ALL_MODULES:
                    found.add(candidate)
    return found


SOURCES = {module_name(p): p for folder in FOLDERS.values() for p in folder.rglob("*.py")}
ALL_MODULES = set(SOURCES)


def import_graph() -> nx.DiGraph:
    g = nx.DiGraph()
    for mod, path in SOURCES.items():
        g.add_node(mod)
        for target in imports_of(path, mod):
            if target in ALL_MODULES and target != mod:
                g.add_edge(mod, target)
    return g


def direction_problems(g: nx.DiGraph) -> list[str]:
    problems = []
    for a, b in g.edges:
        pa, pb = part_of(a), part_of(b)
        if pb == pa or pb in ALLOWED[pa]:
            continue
        if pb == "checks":  # a package __init__ on the way to a submodule
            continue
        problems.append(f"{a} imports {b}: {pa} may import only {sorted(ALLOWED[pa]) or 'itself'}")
    return problems


def test_every_module_belongs_to_a_known_part() -> None:
    unknown = sorted({part_of(m) for m in ALL_MODULES} - set(ALLOWED))
    assert not unknown, f"parts with no import rule in tests/test_layout.py: {unknown}"


def test_imports_go_one_way() -> None:
    assert direction_problems(import_graph()) == []


def test_no_import_cycles() -> None:
    g = import_graph()
    cycles = [sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1]
    assert cycles == []


def test_the_check_catches_a_backward_import() -> None:
    """The rule can fail: an explorer importing the report, or findings importing the
    command line, or the conformance kit importing findings, is caught."""
    g = import_graph()
    for a, b in [
        ("chanspec.checks.explore.search", "chanspec.checks.report.diagrams"),
        ("chanspec.checks.findings.compute", "chanspec.checks.cli.app"),
        ("chanspec.checks.conform.logs", "chanspec.checks.findings.questions"),
        ("chanspec.model.game", "chanspec.checks.output"),
    ]:
        h = g.copy()
        h.add_edge(a, b)
        assert any(p.startswith(f"{a} imports {b}") for p in direction_problems(h)), (a, b)


def test_the_check_catches_a_cycle() -> None:
    g = import_graph()
    g.add_edge("chanspec.checks.conform.logs", "chanspec.checks.conform.itf")
    g.add_edge("chanspec.checks.conform.itf", "chanspec.checks.conform.logs")
    assert any(len(c) > 1 for c in nx.strongly_connected_components(g))


@pytest.mark.parametrize("part", sorted(set(ALLOWED) - {"model", "checks", "output", "refengine"}))
def test_each_part_says_what_it_is_for(part: str) -> None:
    init = ROOT / "checks" / part / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert doc and len(doc.splitlines()) <= 4, f"{init}: a docstring of up to three lines"
