"""The audited modules and their mutants: one changed condition each.

`AUDITED` is the one list of the modules whose conditions decide legality, claims, bans,
wins and consequences (by short name, so that it survives a move of the files: a name is
looked up under each of `HOMES`).  Three operators, on the AST:

* ``cmp`` -- negate one comparison operator: ``==`` ↔ ``!=``, ``<`` ↔ ``>=``, ``>`` ↔
  ``<=``, ``in`` ↔ ``not in``, ``is`` ↔ ``is not`` (each operator of a chain on its own);
* ``drop`` -- drop one operand of an ``and`` / ``or``;
* ``if`` -- negate the test of an ``if`` statement (the same as swapping its branches), a
  conditional expression or a comprehension's ``if``; left out when the test is a single
  negatable comparison, whose ``cmp`` mutant is the same program.

A mutant's id is stable across unrelated edits and a move of the file: the module's short
name, the qualified name of the function it sits in, the operator and a short hash of the
normalised source of the condition (`ast.unparse`, so layout and comments do not count)
and of the change, with ``#2``, ``#3`` … for identical conditions in one function.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The modules whose conditions the audit mutates (short names: see HOMES).  Not
# `packed` (the fast second machine: its equality with the reference is checked instead).
AUDITED: tuple[str, ...] = ("game", "win", "cuoc", "pay", "declare", "session", "score",
                            "cai")
# where a short name is looked for, in order (the Chắn modules are moving to model/chan/)
HOMES: tuple[str, ...] = ("chanspec.model.chan", "chanspec.model")

NEGATE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt,
    ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is}
OP_TEXT: dict[type[ast.cmpop], str] = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.GtE: ">=", ast.Gt: ">", ast.LtE: "<=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}


def module_name(short: str) -> str:
    """The full dotted name of audited module `short` (``game`` →
    ``chanspec.model.chan.game``, the first of `HOMES` that has it); raises LookupError
    when none exists."""
    for home in HOMES:
        name = f"{home}.{short}"
        try:
            if name in sys.modules or importlib.util.find_spec(name) is not None:
                return name
        except ModuleNotFoundError:  # the home package itself does not exist (yet)
            continue
    raise LookupError(f"audited module {short!r} is in none of {', '.join(HOMES)}")


# scratch copies that stand for audited modules (tests plant conditions in them):
# short name → file; every world, the real machine's too, is built from them
OVERRIDE: dict[str, Path] = {}


def module_path(short: str) -> Path:
    """The source file of audited module `short`."""
    if short in OVERRIDE:
        return OVERRIDE[short]
    spec = importlib.util.find_spec(module_name(short))
    assert spec is not None and spec.origin is not None
    return Path(spec.origin)


@dataclass(frozen=True)
class Mutant:
    """One changed condition of one module."""

    id: str
    module: str  # the short name (AUDITED)
    qualname: str  # the function it sits in ("<module>" at the top level)
    op: str  # cmp, drop or if
    detail: str  # what changed, e.g. "== → !="
    line: int
    end_line: int
    original: str  # the condition, normalised
    mutated: str  # the condition after the change
    site: int  # its number among the module's sites (this version of the file only)
    top_level: bool  # not inside a function: runs when the module is imported

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "module": self.module, "qualname": self.qualname,
                "op": self.op, "detail": self.detail, "line": self.line,
                "original": self.original, "mutated": self.mutated}


def _negated(test: ast.expr) -> ast.expr:
    return ast.copy_location(ast.UnaryOp(op=ast.Not(), operand=test), test)


def _is_plain_cmp(test: ast.expr) -> bool:
    return (isinstance(test, ast.Compare) and len(test.ops) == 1
            and type(test.ops[0]) in NEGATE)


class _Sites(ast.NodeTransformer):
    """Numbers every mutation site in a fixed (pre-order) walk; with `target`, applies
    that one mutation and leaves the rest of the tree alone."""

    def __init__(self, target: int | None = None):
        self.target = target
        self.n = 0
        self.stack: list[str] = []
        self.found: list[dict[str, Any]] = []  # when collecting
        # when applying: the place of the changed condition and what replaces it
        self.where: tuple[int, int, int, int] | None = None
        self.replacement: ast.AST | None = None

    # -- scopes
    def _scope(self, node: Any) -> Any:
        self.stack.append(node.name)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self.stack.append("<locals>")
        self.generic_visit(node)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self.stack.pop()
        self.stack.pop()
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scope

    def _qualname(self) -> str:
        parts = list(self.stack)
        while parts and parts[-1] == "<locals>":
            parts.pop()
        return ".".join(parts) or "<module>"

    def _in_function(self) -> bool:
        return "<locals>" in self.stack

    def _site(self, node: Any, op: str, variants: list[tuple[str, str]],
              mutate: Any, at: ast.AST | None = None, children: bool = True) -> Any:
        """Numbers this node's variants ((detail, key) each), visits its children, and
        returns the node with `mutate(node, k)` applied when the target is variant k."""
        first = self.n
        self.n += len(variants)
        last = self.n  # the children's sites come after
        shown = at if at is not None else node
        if self.target is None:
            for k, (detail, key) in enumerate(variants):
                changed = mutate(copy.deepcopy(node), k)
                self.found.append({"qualname": self._qualname(), "op": op, "detail": detail,
                                   "key": key, "line": getattr(shown, "lineno", 0),
                                   "end_line": getattr(shown, "end_lineno", 0),
                                   "original": ast.unparse(shown),
                                   "mutated": ast.unparse(changed if at is None
                                                          else changed.test),
                                   "top_level": not self._in_function()})
        if children:
            self.generic_visit(node)
        if self.target is not None and first <= self.target < last:
            self.where = (shown.lineno, shown.col_offset, shown.end_lineno,  # type: ignore[attr-defined]
                          shown.end_col_offset)  # type: ignore[attr-defined]
            out = mutate(node, self.target - first)
            self.replacement = out.test if at is not None else out
            return out
        return node

    # -- operators
    def visit_Compare(self, node: ast.Compare) -> Any:
        js = [j for j, o in enumerate(node.ops) if type(o) in NEGATE]
        chained = len(node.ops) > 1
        variants = [(f"{OP_TEXT[type(node.ops[j])]} → {OP_TEXT[NEGATE[type(node.ops[j])]]}"
                     + (f" (operator {j + 1})" if chained else ""), str(j)) for j in js]

        def mutate(n: ast.Compare, k: int) -> ast.AST:
            n.ops[js[k]] = NEGATE[type(n.ops[js[k]])]()
            return n

        return self._site(node, "cmp", variants, mutate)

    def visit_BoolOp(self, node: ast.BoolOp) -> Any:
        word = "and" if isinstance(node.op, ast.And) else "or"
        variants = [(f"drop `{ast.unparse(v)}` from {word}", ast.unparse(v))
                    for v in node.values]

        def mutate(n: ast.BoolOp, k: int) -> ast.AST:
            rest = n.values[:k] + n.values[k + 1:]
            if len(rest) == 1:
                return rest[0]
            n.values = rest
            return n

        return self._site(node, "drop", variants, mutate)

    def _test(self, node: Any) -> Any:
        if _is_plain_cmp(node.test):
            self.generic_visit(node)
            return node

        def mutate(n: Any, k: int) -> ast.AST:
            n.test = _negated(n.test)
            return n

        return self._site(node, "if", [("negate the test", "")], mutate, at=node.test)

    visit_If = visit_IfExp = _test

    def visit_comprehension(self, node: ast.comprehension) -> Any:
        for k, test in enumerate(list(node.ifs)):
            plain = _is_plain_cmp(test)
            test = node.ifs[k] = self.visit(test)  # its own comparisons and operands first
            if plain:
                continue

            def mutate(n: ast.expr, _k: int) -> ast.AST:
                return _negated(n)

            node.ifs[k] = self._site(test, "if", [("negate the test", "")], mutate,
                                     children=False)
        node.target = self.visit(node.target)
        node.iter = self.visit(node.iter)
        return node


def _tree(short: str) -> tuple[ast.Module, str]:
    path = module_path(short)
    text = path.read_text(encoding="utf-8")
    return ast.parse(text, filename=str(path)), str(path)


def mutants_of_source(short: str, text: str) -> list[Mutant]:
    """Every mutant of module `short` whose source is `text`."""
    sites = _Sites()
    sites.visit(ast.parse(text))
    out: list[Mutant] = []
    seen: dict[str, int] = {}
    for i, s in enumerate(sites.found):
        h = hashlib.sha1(f"{s['original']}|{s['op']}|{s['key']}".encode()).hexdigest()[:8]
        base = f"{short}.{s['qualname']}/{s['op']}/{h}"
        seen[base] = seen.get(base, 0) + 1
        mid = base if seen[base] == 1 else f"{base}#{seen[base]}"
        out.append(Mutant(mid, short, s["qualname"], s["op"], s["detail"], s["line"],
                          s["end_line"], s["original"], s["mutated"], i, s["top_level"]))
    return out


def mutated_tree(text: str, site: int) -> ast.Module:
    """The module `text` with mutation `site` applied."""
    tree = ast.parse(text)
    t = _Sites(site)
    tree = t.visit(tree)
    if not site < t.n:
        raise IndexError(f"site {site} of {t.n}")
    return ast.fix_missing_locations(tree)


def mutated_source(text: str, site: int) -> str:
    """The module `text` with mutation `site` applied, as source: the condition's text
    replaced by the changed one in parentheses, padded so that every line keeps its
    number (tracebacks and the audit's line numbers stay those of the file)."""
    t = _Sites(site)
    t.visit(ast.parse(text))
    if t.where is None or t.replacement is None:
        raise IndexError(f"site {site} of {t.n}")
    l0, c0, l1, c1 = t.where
    lines = text.encode("utf-8").splitlines(keepends=True)  # offsets are UTF-8 bytes
    new = "(" + ast.unparse(t.replacement) + "\n" * (l1 - l0) + ")"
    head = b"".join(lines[: l0 - 1]) + lines[l0 - 1][:c0]
    tail = lines[l1 - 1][c1:] + b"".join(lines[l1:])
    return (head + new.encode("utf-8") + tail).decode("utf-8")


def mutants(modules: tuple[str, ...] = AUDITED) -> list[Mutant]:
    """Every mutant of every audited module, in a fixed order."""
    out: list[Mutant] = []
    for short in modules:
        out.extend(mutants_of_source(short, module_path(short).read_text(encoding="utf-8")))
    return out
