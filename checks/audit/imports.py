"""Which chanspec modules a source file imports, read from its text with `ast` (imports
inside functions count too): the one walk behind the audit's worlds (`play`: every
module that imports an audited one is rebuilt with it) and the layout test
(``tests/test_layout.py``: data flows one way, no cycles)."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Mapping
from pathlib import Path

PACKAGES = ("chanspec.model", "chanspec.checks")  # the sub-packages that hold modules


def installed_folders() -> dict[str, Path]:
    """The folder each of `PACKAGES` is imported from."""
    out = {}
    for pkg in PACKAGES:
        m = importlib.import_module(pkg)
        out[pkg] = Path(list(m.__path__)[0])
    return out


def module_files(folders: Mapping[str, Path]) -> dict[str, Path]:
    """Every module under `folders` (package name -> its folder), by full dotted name
    (a package by its own name, from its ``__init__.py``)."""
    names: dict[str, Path] = {}
    for pkg, folder in folders.items():
        for p in folder.rglob("*.py"):
            rel = p.relative_to(folder).with_suffix("")
            parts = [x for x in rel.parts if x != "__init__"]
            names[".".join([pkg, *parts])] = p
    return names


def imports_of(path: Path, module: str, known: set[str]) -> set[str]:
    """The modules of `known` that the file `path` (module `module`) imports, relative
    imports resolved to their full dotted names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base if is_pkg else base[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            named = [f"{target}.{a.name}" for a in node.names]
            # `from pkg import mod` depends on mod (and pkg's __init__ runs first for any
            # import of a submodule, as for `import pkg.mod`, so it is no edge of its own)
            found.update(m for m in named if m in known)
            if not all(m in known for m in named):
                found.add(target)
    return {m for m in found if m in known}
