"""How corpus mode's code is laid out: what its modules cite exists, the page and the core import no CLI, and no
module reaches into another's private names."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import ROOT

CORPUS = ROOT / "explainer" / "corpus"
CORPUS_UI = sorted((ROOT / "explainer" / "ui").glob("corpus_*.py"))
CORPUS_FILES = sorted(CORPUS.rglob("*.py")) + CORPUS_UI
DOCS = [ROOT / "docs" / "corpus.md"]
CITED = re.compile(r"\b(?:tests|explainer|docs|bench|scripts)/[A-Za-z0-9_/.-]+\.(?:py|md|jsonl|json|txt|csv)\b")


def test_every_file_a_corpus_module_or_its_doc_cites_exists():
    """rowscore.py cited tests/test_corpus_rowscore.py, which does not exist (its test is in
    test_corpus_significance.py)."""
    missing = []
    for p in CORPUS_FILES + DOCS:
        for m in CITED.finditer(p.read_text(encoding="utf-8")):
            if not (ROOT / m.group()).exists():
                missing.append(f"{p.relative_to(ROOT)} cites {m.group()}")
    assert not missing, missing


def _imports(p: Path) -> list[tuple[int, str, list[str]]]:
    """(line, module, imported names) of every import statement of a file, also those inside functions."""
    out = []
    for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"), str(p))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append((node.lineno, node.module, [a.name for a in node.names]))
    return out


def test_the_page_and_the_core_import_no_command_line_module():
    """The page imported ``explainer.corpus.cli.paired_signature`` (a UI reaching into a CLI): the signature is
    the core's (``explainer.corpus.significance``), and the CLI and the page both take it from there."""
    bad = []
    core = sorted(CORPUS.rglob("*.py")) + [ROOT / "explainer" / "inputs.py"]      # the readers of every command
    for p in sorted((ROOT / "explainer" / "ui").rglob("*.py")) + core:
        for line, mod, names in _imports(p):
            targets = [mod] + [f"{mod}.{n}" for n in names]
            if any(t == "explainer.cli" or t.startswith("explainer.cli.") or t == "explainer.corpus.cli"
                   for t in targets):
                bad.append(f"{p.relative_to(ROOT)}:{line} imports {mod} {names}")
    assert not bad, bad


def test_no_private_name_is_imported_across_modules():
    """``compare`` imported ``testset._lines`` and ``report._per_segment``: what another module needs is public."""
    bad = []
    for p in CORPUS_FILES:
        for line, mod, names in _imports(p):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if mod.startswith("explainer") and private:
                bad.append(f"{p.relative_to(ROOT)}:{line} imports {private} from {mod}")
        src = p.read_text(encoding="utf-8")
        # the project's own modules (a library's internals, e.g. sacreBLEU's tokenizer table read on purpose so
        # as not to copy it, are another matter: the parity tests guard those)
        aliases = {a.asname or a.name.rsplit(".", 1)[-1] for node in ast.walk(ast.parse(src))
                   if isinstance(node, (ast.Import, ast.ImportFrom)) for a in node.names
                   if ((node.module or "") if isinstance(node, ast.ImportFrom) else a.name).startswith("explainer")}
        for node in ast.walk(ast.parse(src)):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Name) and node.value.id in aliases):
                bad.append(f"{p.relative_to(ROOT)}:{node.lineno} uses {node.value.id}.{node.attr}")
    assert not bad, bad
