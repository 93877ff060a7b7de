"""The dialect-comparison package's shape: its public names are the functions and classes they say (never a
submodule of the same name), and the core (everything but the two CLI modules) does not import the CLI."""
from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import explainer.dialectcmp as pkg

ROOT = Path(__file__).resolve().parents[1]
PKG_DIR = ROOT / "explainer" / "dialectcmp"
CLI_MODULES = {"cli_dialects", "cli_reproduce"}


def test_public_names_are_the_functions_even_after_every_submodule_is_imported():
    # a fresh interpreter: import every submodule first (as the app and the CLI do), then the public names
    code = (
        "import importlib, pkgutil, types, explainer.dialectcmp as p\n"
        "for m in pkgutil.iter_modules(p.__path__):\n"
        "    importlib.import_module('explainer.dialectcmp.' + m.name)\n"
        "from explainer.dialectcmp import compare, reproduce, compare_corpus, parse_claim\n"
        "bad = [n for n in p.__all__ if isinstance(getattr(p, n), types.ModuleType)]\n"
        "assert not bad, bad\n"
        "assert compare.__name__ == 'compare' and reproduce.__name__ == 'reproduce', (compare, reproduce)\n"
        "r = compare('the cat', ['the cat'], metric='bleu')\n"
        "assert r.rows[0].id == 'sacrebleu'\n"
        "print('ok')\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr[-2000:]


def test_no_public_name_is_also_a_submodule_name():
    subs = {m.name for m in pkgutil.iter_modules(pkg.__path__)}
    assert not subs & set(pkg.__all__), subs & set(pkg.__all__)
