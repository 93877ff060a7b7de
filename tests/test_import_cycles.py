"""No import cycles in explainer/: no module imports a module that (directly or through others) imports it back.

Every ``import`` statement of every module counts, also those inside functions (a lazy import hides a cycle from
Python, not from a reader), and so does every import *by name* (``importlib.import_module``, a registry's
``"module:Class"`` path, a command table, a lazy facade's map): see ``tests/import_graph.py``. A package's own
``__init__`` running before its submodules is not counted."""
from __future__ import annotations

from tests import import_graph as G


def test_the_checker_finds_a_cycle():
    assert G.cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert G.cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_statement_and_string_imports():
    g = G.graph()
    assert "explainer.bleu.moses.dialects" in g and "explainer.rouge.rouge155.dialect" in g
    assert "explainer.bleu.trace" in g["explainer.bleu.algorithm"]                 # a statement
    assert "explainer.bleu.dialect_nltk" in g["explainer.bleu.registry"]           # "module:Class" in the registry
    assert "explainer.rouge.engine" in g["explainer.rouge"]                        # f"explainer.rouge.{module}"
    assert "explainer.corpus.report" in g["explainer.corpus"]                      # a lazy facade's map
    statements_only = G.graph(strings=False)
    assert "explainer.bleu.dialect_nltk" not in statements_only["explainer.bleu.registry"]


def test_a_string_import_closes_a_cycle():
    """The case that hid a cycle from the statement-only check: a table names a module that imports back."""
    import ast

    tree = ast.parse('COMMANDS = {"x": ("explainer.cli.bleu", "help")}\n')
    assert G._string_imports(tree, {"explainer.cli.bleu": None}) == {"explainer.cli.bleu"}
    tree = ast.parse('M = {"f": "engine"}\ndef g(m):\n    return f"explainer.rouge.{m}"\n')
    assert G._string_imports(tree, {"explainer.rouge": None, "explainer.rouge.engine": None}) == {
        "explainer.rouge.engine"}


def test_no_import_cycles_in_explainer():
    cycles = G.cycles(G.graph())
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_every_import_of_the_package_names_one_of_its_modules():
    """A moved module leaves no import of its old name behind (a lazy one would fail only when it runs)."""
    import ast

    mods = G.modules()
    bad = []
    for path in mods.values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("explainer"):
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.startswith("explainer")]
            else:
                continue
            bad += [f"{path.relative_to(G.ROOT)}:{node.lineno}: {n}" for n in names if n not in mods]
    assert not bad, "imports of modules that do not exist: " + "; ".join(bad)
