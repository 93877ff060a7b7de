"""The dialect-comparison package's shape: its public names are the functions and classes they say (never a
submodule of the same name), and it does not import the CLI (its commands are ``explainer/cli/dialects.py`` and
``explainer/cli/reproduce.py``)."""
from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import explainer.dialectcmp as pkg

ROOT = Path(__file__).resolve().parents[1]
PKG_DIR = ROOT / "explainer" / "dialectcmp"


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
def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_the_core_does_not_import_the_cli():
    bad = {}
    for path in sorted(PKG_DIR.glob("*.py")):
        cli = sorted(m for m in _imports(path) if m == "explainer.cli" or m.startswith("explainer.cli.")
                     or m.startswith("explainer.dialectcmp.cli_"))
        if cli:
            bad[path.name] = cli
    assert not bad, bad


# ------------------------------------------------------------------------------------------ one flag table
_SAMPLES = {"tokenize": "intl", "lowercase": True, "smooth_method": "floor", "smoothing": "method3",
            "smooth": True, "smooth_value": 0.25, "max_ngram_order": 2, "max_order": 3, "max_n": 2,
            "effective_order": False, "api": "sentence_bleu", "weights": (0.5, 0.5), "auto_reweigh": True,
            "n_gram": 3, "max_len": 3}


def _sample(dialect: str, option: str):
    """A non-default value of the option that the dialect accepts (a choice outside its own list, e.g. sacreBLEU's
    'intl' for Google BLEU's 13a/split tokenize, would only test the refusal)."""
    from explainer.bleu import DIALECTS

    v = _SAMPLES[option]
    spec = next(o for o in DIALECTS[dialect].option_specs() if o.name == option)
    if spec.choices and v not in spec.choices:
        v = next(c for c in spec.choices if c != spec.default)
    return v


def _cli_options(argv: list[str]) -> dict:
    from explainer.cli import build_parser
    from explainer.cli.bleu import build_options

    return build_options(build_parser().parse_args(argv))


def test_one_flag_table_read_both_ways():
    """Every (flag, dialect, option) of the core's table: the comparison writes the flag, and the command line
    reads it back to the same option value (mteval's smoothing both ways, lowercase off as -o)."""
    from explainer.bleu import DIALECTS, get_dialect
    from explainer.bleu.flags import flag_table
    from explainer.dialectcmp.configs import bleu_argv

    n = 0
    for flag, table in flag_table(DIALECTS.values()).items():
        for dialect, option in table.items():
            values = [True if (dialect, option) == ("mteval", "smoothing") else _sample(dialect, option)]
            if isinstance(values[0], bool):
                values.append(not values[0])
            for v in values:
                argv = bleu_argv(dialect, {option: v})
                want = get_dialect(dialect, **{option: v}).options
                assert get_dialect(dialect, **_cli_options(argv)).options == want, (dialect, option, v, argv)
                if option not in ("lowercase", "auto_reweigh") or v:
                    assert "--" + flag.replace("_", "-") in argv or (flag == "effective_order" and not v), argv
                n += 1
    assert n >= 20


def test_the_cli_and_the_comparison_have_no_copies_of_the_table():
    import explainer.cli.bleu as cli_bleu
    import explainer.dialectcmp.configs as configs

    assert not hasattr(cli_bleu, "_FLAG_TO_OPTION") and not hasattr(cli_bleu, "_BOOL_SMOOTH")
    assert not hasattr(configs, "_BLEU_FLAGS")
    src = (PKG_DIR / "configs.py").read_text(encoding="utf-8")
    assert "--smooth-value" not in src and "--max-order" not in src    # the flags are the core table's


def test_a_new_flag_in_a_dialects_table_is_used_by_the_comparison(monkeypatch):
    from explainer.bleu import DIALECTS
    from explainer.dialectcmp.configs import bleu_argv

    assert bleu_argv("nltk", {"epsilon": 0.2})[-2:] == ["-o", "epsilon=0.2"]
    monkeypatch.setattr(DIALECTS["nltk"], "cli_flags", {**DIALECTS["nltk"].cli_flags, "epsilon": "epsilon"})
    assert bleu_argv("nltk", {"epsilon": 0.2})[-2:] == ["--epsilon", "0.2"]


# ------------------------------------------------------------------------------------------ one ROUGE contract
def test_rouge_engine_drives_the_bound_dialects_only():
    """The search's ROUGE engine gives score_rouge's numbers for every multi-reference rule and subset, through
    the bound-dialect contract alone (the old 'options at every hook' branch called a resolve_options that no
    dialect has: it was unreachable, and is gone)."""
    import inspect

    from explainer.dialectcmp import engines
    from explainer.rouge import score_rouge

    src = inspect.getsource(engines.RougeEngine)
    assert "resolve_options" not in src and "ImportError" not in src
    cand = "The cat sat on the mat.\nIt purred."
    refs = ["the cat is on the mat", "a cat sat on a mat\nit slept", "cats sit"]
    eng = engines.RougeEngine(cand, refs)
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    for dialect, opts in (("rouge-score", {}), ("rouge-score", {"use_stemmer": True}), ("rouge155", {}),
                          ("textbook", {})):
        tys = types[:3] if dialect == "textbook" else types
        prepared = eng.per_reference(dialect, opts, tys)
        rules = ("pool", "best-recall") if dialect == "rouge155" else ("best-f", "pool", "best-recall")
        for rule in rules:
            for subset in ((0, 1, 2), (1,), (0, 2)):
                got = eng.combine(prepared, rule, subset)
                want = score_rouge(cand, [refs[k] for k in subset], dialect=dialect, types=tys,
                                   **dict(opts, multi_ref=rule))
                for t in tys:
                    w = want.scores[t] if hasattr(want, "scores") else want[t]
                    for m in ("precision", "recall", "fmeasure"):
                        assert getattr(got[t], m) == getattr(w, m), (dialect, opts, rule, subset, t, m)


def test_functions_a_reader_can_hold_in_their_head():
    """No function of the dialect comparison (core and page) is over 60 lines: longer ones are split into named
    steps."""
    files = sorted(PKG_DIR.glob("*.py")) + [ROOT / "explainer" / "ui" / "dialects" / "page.py",
                                            ROOT / "explainer" / "ui" / "dialects" / "view.py"]
    long = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > 60:
                    long.append(f"{path.name}:{node.name} ({n} lines)")
    assert not long, long
