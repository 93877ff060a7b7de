"""The design as tests: the layer table of docs/architecture.md, function and module length, and the dialect
contract (no comparison of a dialect's name outside the dialects). Import cycles: tests/test_import_cycles.py."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from tests import import_graph as G

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"

MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 800
#: functions still over the limit: a shrinking list (never add to it; an entry goes when its function is split)
LONG_FUNCTIONS: set[tuple[str, str]] = set()
#: modules still over the limit (the pages the ui/ rewrite splits); a shrinking list as well
LONG_MODULES: set[str] = set()


# ------------------------------------------------------------------------------------------------ layers
def _layer_table() -> list[tuple[str, list[str], set[str]]]:
    """(layer, module prefixes, layers it may import) from the table under "## Layers" in the doc."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("layer", "") or set(cells[0]) <= set("-: "):
            continue
        layer, mods, may = cells
        rows.append((layer, re.findall(r"`([\w.]+)`", mods), {m.strip() for m in may.split(",") if m.strip()}))
    return rows


def _group_of(module: str, table) -> tuple[str, str] | None:
    """(layer, the table entry the module belongs to: the longest prefix that names it)."""
    best = None
    for layer, prefixes, _ in table:
        for p in prefixes:
            # the top package ``explainer`` (the Python API facade) is an entry of its own, not a prefix
            names_it = module == p or (p != "explainer" and module.startswith(p + "."))
            if names_it and (best is None or len(p) > len(best[1])):
                best = (layer, p)
    return best


def test_the_layer_table_is_read():
    table = _layer_table()
    layers = {t[0] for t in table}
    assert {"ui", "cli", "features", "cores", "shared"} <= layers, layers
    for _, _, may in table:
        assert may <= layers | {"-"}, may


def test_every_module_has_a_layer():
    table = _layer_table()
    missing = sorted(m for m in G.modules() if _group_of(m, table) is None)
    assert not missing, f"modules in no layer of docs/architecture.md: {missing}"


def test_every_import_follows_the_layer_table():
    """A module imports its own package (table entry), or a layer its row lists: nothing runs back up, and two
    packages of one layer stay apart unless the table says otherwise. Lazy imports and imports by name count."""
    table = _layer_table()
    allowed = {layer: may for layer, _, may in table}
    bad = []
    for a, targets in G.graph().items():
        la, ga = _group_of(a, table)
        for b in targets:
            lb, gb = _group_of(b, table)
            if ga == gb or lb in allowed[la]:
                continue
            bad.append(f"{a} ({la}) -> {b} ({lb})")
    assert not bad, "imports against docs/architecture.md's layer table:\n" + "\n".join(sorted(bad))


def test_the_layer_check_catches_an_upward_import():
    table = [("cores", ["explainer.bleu"], {"shared"}), ("shared", ["explainer.text"], {"shared"}),
             ("cli", ["explainer.cli"], {"cores", "shared"})]
    assert _group_of("explainer.bleu.algorithm", table) == ("cores", "explainer.bleu")
    allowed = {layer: may for layer, _, may in table}
    assert "cli" not in allowed[_group_of("explainer.bleu.algorithm", table)[0]]


# ------------------------------------------------------------------------------------------------ length
def _py_files():
    return sorted((ROOT / "explainer").rglob("*.py"))


def _long_functions() -> set[tuple[str, str]]:
    out = set()
    for p in _py_files():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                    out.add((p.relative_to(ROOT).as_posix(), node.name))
    return out


def test_no_function_over_60_lines():
    new = _long_functions() - LONG_FUNCTIONS
    assert not new, f"functions over {MAX_FUNCTION_LINES} lines (split them): {sorted(new)}"


def test_no_module_over_800_lines():
    long = {p.relative_to(ROOT).as_posix() for p in _py_files()
            if len(p.read_text(encoding="utf-8").splitlines()) > MAX_MODULE_LINES}
    new = long - LONG_MODULES
    assert not new, f"modules over {MAX_MODULE_LINES} lines (split them): {sorted(new)}"


# ------------------------------------------------------------------------------------------------ dialects
def _dialect_names_and_modules() -> tuple[set[str], set[str]]:
    """Every registered dialect's name, and the dialect modules: the families' contract and registry modules,
    each dialect's own module and the package it lives in when that is its own (``bleu/moses/``,
    ``rouge/rouge155/``)."""
    from explainer.bleu import DIALECTS as BLEU
    from explainer.chrf import DIALECTS as CHRF
    from explainer.rouge import DIALECTS as ROUGE
    from explainer.semantic import DIALECTS as SEMANTIC
    from explainer.ter import DIALECTS as TER

    names, mods = set(), {"explainer.dialect", "explainer.registry", "explainer.bleu.dialects",
                          "explainer.rouge.dialects", "explainer.bleu.registry", "explainer.rouge.registry",
                          "explainer.chrf.dialects", "explainer.chrf.registry", "explainer.ter.dialects",
                          "explainer.ter.registry", "explainer.semantic.dialects", "explainer.semantic.registry"}
    for reg, family in ((BLEU, "explainer.bleu"), (ROUGE, "explainer.rouge"), (CHRF, "explainer.chrf"),
                        (TER, "explainer.ter"), (SEMANTIC, "explainer.semantic")):
        for name in reg:
            names.add(name)
            m = reg[name].__module__
            mods.add(m)
            pkg = m.rsplit(".", 1)[0]
            if pkg != family:
                mods.add(pkg)
    return names, mods


def _name_checks(tree: ast.AST, names: set[str]) -> list[tuple[int, str]]:
    """Comparisons with a dialect's name (``==``, ``!=``, ``in``, ``not in``, with a literal or a literal tuple,
    list or set) and tables keyed by dialect names (a dict literal with two or more of them as keys)."""
    def literal_names(node) -> set[str]:
        if isinstance(node, ast.Constant) and node.value in names:
            return {node.value}
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return {e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in names}
        return set()

    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            found = set().union(*(literal_names(x) for x in [node.left, *node.comparators]))
            if found:
                out.append((node.lineno, f"compares with {sorted(found)}"))
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and k.value in names}
            if len(keys) >= 2:
                out.append((node.lineno, f"a table keyed by dialect names {sorted(keys)}"))
    return out


def test_the_name_check_finds_what_it_should():
    names = {"sacrebleu", "nltk", "rouge155"}
    src = ('if d.name == "sacrebleu": pass\nif x in ("nltk", "y"): pass\nT = {"sacrebleu": 1, "nltk": 2}\n'
           'if "rouge155" != trace.dialect: pass\nok = {"nltk": 1, "other": 2}\nf("sacrebleu")\n')
    assert [ln for ln, _ in _name_checks(ast.parse(src), names)] == [1, 2, 3, 4]


def test_no_dialect_name_checks_outside_the_dialects():
    """What differs between implementations is a hook or a capability of the dialect (explainer/dialect.py,
    bleu/dialects.py, rouge/dialects.py), never a comparison of its name elsewhere."""
    names, mods = _dialect_names_and_modules()
    assert {"sacrebleu", "nltk", "rouge-score", "rouge155"} <= names
    bad = []
    for module, path in G.modules().items():
        if module in mods or any(module.startswith(m + ".") for m in mods if m not in (
                "explainer.dialect", "explainer.registry")):
            continue
        for line, what in _name_checks(ast.parse(path.read_text(encoding="utf-8")), names):
            bad.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert not bad, "dialect-name checks outside the dialect modules:\n" + "\n".join(bad)


# ------------------------------------------------------------------------------------------------ families
def _family_names() -> set[str]:
    """Every registered family's name and label as code may spell them (``"bleu"``, ``"BLEU"``, ``"chrF"`` …)."""
    from explainer.families import FAMILIES

    out = set()
    for name in FAMILIES:
        label = FAMILIES[name].label
        out |= {name, name.upper(), label, label.lower(), label.upper()}
    return out


#: the registration tables: one line per family in each layer (``name -> where its part lives``)
FAMILY_REGISTRIES = {"explainer.families", "explainer.ui.families", "explainer.teach.families", "explainer.cli",
                     "explainer.dialectcmp.families", "explainer.ui.dialects.views"}


def _is_family_module(module: str, families: set[str]) -> bool:
    """A family's own module: in its core package (``explainer.chrf.*``), or named after it (``chrf_view``,
    ``bleu_section``, ``ui.families.rouge``, ``teach.chrf_steps``), or a registration table."""
    if module in FAMILY_REGISTRIES:
        return True
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in families:
        return True
    return any(tok in families for tok in parts[-1].split("_"))


#: modules that still compare a family's name (the pages and features the metric-family seam is reaching): a
#: shrinking list — never add to it; an entry goes when its module loops over the registered families instead
FAMILY_NAME_CHECKS_LEFT: set[str] = set()


def test_the_family_check_finds_what_it_should():
    fams = {"bleu", "rouge", "BLEU"}
    src = ('if metric == "bleu": pass\nif m in ("rouge", "x"): pass\nT = {"bleu": 1, "rouge": 2}\n'
           'if "BLEU" != label: pass\nok = {"bleu": 1, "other": 2}\nf("bleu")\nx = d["rouge"]\n')
    assert [ln for ln, _ in _name_checks(ast.parse(src), fams)] == [1, 2, 3, 4]
    assert _is_family_module("explainer.chrf.algorithm", {"chrf"})
    assert _is_family_module("explainer.ui.corpus.chrf_section", {"chrf"})
    assert not _is_family_module("explainer.ui.corpus.page", {"chrf", "bleu"})


def test_no_family_name_checks_outside_the_families():
    """Pages, commands and features loop over the registered families (explainer.families.FAMILIES,
    explainer.ui.families) and ask the family; only a family's own modules name it."""
    fams = _family_names()
    assert {"bleu", "rouge", "chrf"} <= fams
    bad, left = [], set()
    for module, path in G.modules().items():
        if _is_family_module(module, {f.lower() for f in fams}):
            continue
        found = _name_checks(ast.parse(path.read_text(encoding="utf-8")), fams)
        rel = path.relative_to(ROOT).as_posix()
        if found:
            left.add(rel)
        if found and rel not in FAMILY_NAME_CHECKS_LEFT:
            bad += [f"{rel}:{line}: {what}" for line, what in found]
    assert not bad, "family-name checks outside the families' modules:\n" + "\n".join(bad)
    done = FAMILY_NAME_CHECKS_LEFT - left
    assert not done, f"no family-name check left in {sorted(done)}: remove them from FAMILY_NAME_CHECKS_LEFT"
