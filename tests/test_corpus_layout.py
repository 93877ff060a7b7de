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
