"""The import graph of explainer/, read from the source (no module is imported), for the architecture tests.

An edge a -> b for every ``import`` statement of a (also inside functions: a lazy import hides a cycle from
Python, not from a reader) and for every import *by name*: ``importlib.import_module("explainer.x")``,
``__import__``, a registry's ``"explainer.x.y:Class"`` path, a command table's module name, a lazy package
facade's ``{"name": "submodule"}`` map read through ``f"explainer.pkg.{module}"``. Any string constant that names
a module of the package counts. ``from package import name`` counts as an import of ``package.name`` when that
is a module, else of the package. A package's own ``__init__`` running before its submodules is not counted."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "explainer"


def modules() -> dict[str, Path]:
    out = {}
    for p in PKG.rglob("*.py"):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _statement_imports(name: str, path: Path, tree: ast.AST, mods: dict[str, Path]) -> set[str]:
    is_pkg = path.name == "__init__.py"
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in mods)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                mod = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for a in node.names:
                sub = f"{mod}.{a.name}"
                if sub in mods:
                    out.add(sub)
                elif mod in mods:
                    out.add(mod)
    return out


def _string_imports(tree: ast.AST, mods: dict[str, Path]) -> set[str]:
    """Modules named in string constants (``"explainer.x"``, ``"explainer.x:Attr"``), and, where an f-string
    builds a module name from a literal prefix (``f"explainer.rouge.{module}"``), the prefix plus any string
    constant of the module that completes it."""
    consts, prefixes = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            consts.append(node.value)
        elif isinstance(node, ast.JoinedStr) and node.values:
            first = node.values[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.endswith("."):
                if first.value[:-1] in mods:
                    prefixes.append(first.value)
    out = set()
    for s in consts:
        head = s.split(":", 1)[0]
        if head in mods and head.startswith("explainer."):
            out.add(head)
        for p in prefixes:
            if p + s in mods:
                out.add(p + s)
    return out


def graph(*, strings: bool = True) -> dict[str, set[str]]:
    mods = modules()
    out = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges = _statement_imports(name, path, tree, mods)
        if strings:
            edges |= _string_imports(tree, mods)
        edges.discard(name)
        out[name] = edges
    return out


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out
