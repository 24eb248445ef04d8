"""The layout of the package: data flows one way, and no two modules import each other.

table → model → explorers and each kind's own checks → findings → report; the conformance
kit depends on the model only; the command line may use everything and nothing uses it.  The rule is
checked on the source with `ast` (imports inside functions count too), so a violation
fails here before it can become a cycle at import time.

Kinds: only the registry `chanspec.model.kinds` names game kinds.  It alone imports a
kind's record module (one that sets ``KIND = Kind(...)``), only a kind's record module
builds a `Kind`, and no other module looks a kind up by its name or compares a table's
kind with one (``kinds.get("chan")``, ``KINDS["chan"]``, ``table.kind_name == "chan"``):
generic code asks the kind, through `GameState` and the `Kind` record, instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest
from chanspec.checks.audit.imports import imports_of as shared_imports_of
from chanspec.checks.audit.imports import module_files

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"chanspec.model": ROOT / "model", "chanspec.checks": ROOT / "checks"}

# part -> the parts it may import (itself always allowed)
ALLOWED: dict[str, set[str]] = {
    "model": set(),
    "checks": set(),  # the package docstring only
    "output": set(),
    "explore": {"model", "output"},
    # a kind's own checks (Chắn's win judges, scaled-down games and packed search;
    # Chiha's meld judges): they build on the generic explorer, never the other way
    "chan": {"model", "output", "explore"},
    "chiha": {"model", "output"},
    "conform": {"model", "output"},
    "findings": {"model", "output", "explore", "chan"},
    "report": {"model", "output", "explore", "chan", "findings"},
    # the inventory of the machine's own decisions, by mutation (`chanspec audit`)
    "audit": {"model", "output", "explore", "findings"},
    "cli": {"model", "output", "explore", "chan", "chiha", "findings", "report", "conform",
            "audit"},
}


def part_of(module: str) -> str:
    """model, checks (the package itself), output, explore, …, cli."""
    bits = module.split(".")
    if bits[1] == "model":
        return "model"
    return bits[2] if len(bits) > 2 else "checks"


SOURCES = module_files(FOLDERS)
ALL_MODULES = set(SOURCES)


def imports_of(path: Path, module: str) -> set[str]:
    """Every chanspec module this file imports, resolved to its full dotted name."""
    return shared_imports_of(path, module, ALL_MODULES)


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


# ------------------------------------------------------------------ kinds

REGISTRY = "chanspec.model.kinds"
KIND_CLASS_HOME = "chanspec.model.kind"  # defines Kind; names no kind
LOOKUPS = {"get", "of_name"}  # the registry's look-ups by name (kinds.get)
KIND_ATTRS = {"kind_name"}  # attributes that hold a table's kind name


def kind_names() -> set[str]:
    from chanspec.model import kinds

    return set(kinds.names())


def _defines_kind(tree: ast.Module) -> bool:
    """Does this module set ``KIND = Kind(...)`` at its top level (a kind's record)?"""
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and any(isinstance(t, ast.Name) and t.id == "KIND" for t in node.targets)):
            return True
    return False


TREES = {m: ast.parse(p.read_text(encoding="utf-8")) for m, p in SOURCES.items()}
KIND_MODULES = {m for m, t in TREES.items() if _defines_kind(t)}


def _is_kind_attr(node: ast.AST) -> bool:
    """`x.kind_name`, `kind_name`, or `<anything>.kind.name`."""
    if isinstance(node, ast.Attribute):
        if node.attr in KIND_ATTRS:
            return True
        return node.attr == "name" and (
            (isinstance(node.value, ast.Attribute) and node.value.attr == "kind")
            or (isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
                and node.value.func.attr == "of"))
    return isinstance(node, ast.Name) and node.id in KIND_ATTRS


def kind_problems(module: str, tree: ast.Module, imports: set[str],
                  kind_modules: set[str], names: set[str]) -> list[str]:
    """Where `module` names a kind outside the registry and the kinds' own modules."""
    if module == REGISTRY or module in kind_modules:
        return []
    out = [f"{module} imports the kind record {k}: only {REGISTRY} may"
           for k in sorted(imports & kind_modules)]

    def named(node: ast.AST) -> bool:
        return isinstance(node, ast.Constant) and node.value in names

    for node in ast.walk(tree):
        line = getattr(node, "lineno", "?")
        if isinstance(node, ast.Call):
            f = node.func
            fname = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if fname == "Kind" and module != KIND_CLASS_HOME:
                out.append(f"{module}:{line} builds a Kind: only a kind's own module may")
            if fname in LOOKUPS and isinstance(f, ast.Attribute) and any(
                    named(a) for a in node.args):
                out.append(f"{module}:{line} looks a kind up by name")
        elif isinstance(node, ast.Subscript):
            v = node.value
            if (isinstance(v, ast.Name) and v.id == "KINDS") or (
                    isinstance(v, ast.Attribute) and v.attr == "KINDS"):
                out.append(f"{module}:{line} reads the registry's KINDS")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_kind_attr(x) for x in sides) and any(
                    named(x) or (isinstance(x, (ast.Tuple, ast.List, ast.Set))
                                 and any(named(e) for e in x.elts)) for x in sides):
                out.append(f"{module}:{line} compares a table's kind with a kind's name")
    return out


def all_kind_problems() -> list[str]:
    names = kind_names()
    out: list[str] = []
    for mod, tree in TREES.items():
        out += kind_problems(mod, tree, imports_of(SOURCES[mod], mod), KIND_MODULES, names)
    return out


def test_only_the_registry_names_kinds() -> None:
    assert KIND_MODULES, "no kind record module found (KIND = Kind(...))"
    assert all_kind_problems() == []


def test_every_kind_record_is_registered() -> None:
    """Each module that sets KIND is imported by the registry, and the registry's kinds
    are exactly those records."""
    from chanspec.model import kinds

    reg = imports_of(SOURCES[REGISTRY], REGISTRY)
    assert KIND_MODULES <= reg, KIND_MODULES - reg
    assert {k.name for k in kinds.KINDS.values()} == set(kinds.names())


PLANTED = """
from chanspec.model.chan import kind as chan_kind
from chanspec.model import kinds
from chanspec.model.kind import Kind

def f(table):
    if table.kind_name == "chan":
        pass
    if kinds.of(table).name in ("chan", "x"):
        pass
    k = kinds.get("chan")
    j = kinds.KINDS["chan"]
    return Kind("tan", "", "", (), None, None, None, None, None, None)
"""


def test_the_check_catches_a_module_that_names_a_kind() -> None:
    """A generic module planting each kind of violation is caught, once for each."""
    module = "chanspec.checks.explore.planted"
    tree = ast.parse(PLANTED)
    imports = {"chanspec.model.chan.kind", "chanspec.model.kinds", "chanspec.model.kind"}
    problems = kind_problems(module, tree, imports, KIND_MODULES, kind_names())
    for what in ("imports the kind record chanspec.model.chan.kind", "compares a table's kind",
                 "looks a kind up by name", "reads the registry's KINDS", "builds a Kind"):
        assert any(what in p for p in problems), (what, problems)
    assert sum("compares" in p for p in problems) == 2
    # the registry itself and the kind's own module may do all of it
    assert kind_problems(REGISTRY, tree, imports, KIND_MODULES, kind_names()) == []


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
        ("chanspec.model.chan.game", "chanspec.checks.output"),
    ]:
        h = g.copy()
        h.add_edge(a, b)
        assert any(p.startswith(f"{a} imports {b}") for p in direction_problems(h)), (a, b)


def test_the_check_catches_a_cycle() -> None:
    g = import_graph()
    g.add_edge("chanspec.checks.conform.logs", "chanspec.checks.conform.itf")
    g.add_edge("chanspec.checks.conform.itf", "chanspec.checks.conform.logs")
    assert any(len(c) > 1 for c in nx.strongly_connected_components(g))


@pytest.mark.parametrize("part", sorted(set(ALLOWED) - {"model", "checks", "output"}))
def test_each_part_says_what_it_is_for(part: str) -> None:
    init = ROOT / "checks" / part / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert doc and len(doc.splitlines()) <= 4, f"{init}: a docstring of up to three lines"


def test_the_import_walk_resolves_every_form(tmp_path: Path) -> None:
    """Relative imports, `from pkg import module`, imports inside functions and
    non-chanspec imports, as the audit's worlds and this file's graph both read them."""
    src = tmp_path / "planted.py"
    src.write_text("import json\nimport chanspec.model.kind\nfrom . import logs\n"
                   "from ..findings import questions as q\n"
                   "def f():\n    from chanspec.model.chan import cards, nosuch\n",
                   encoding="utf-8")
    got = imports_of(src, "chanspec.checks.conform.planted")
    assert got == {"chanspec.model.kind", "chanspec.checks.conform.logs",
                   "chanspec.checks.findings.questions", "chanspec.model.chan.cards",
                   "chanspec.model.chan"}
