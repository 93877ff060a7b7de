"""Tables for the paper (`compare --format text|latex|markdown`, issue 19): the text table is sacreBLEU's own
(run here), the LaTeX compiles with pdflatex (mandatory under CI=1), the numbers are the comparison's."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from explainer.cli import main
from explainer.corpus.tables import latex_document, latex_table, markdown_table
from tests.corpus_data import make_testset, write_files


def run(argv, capsys):
    try:
        rc = main(["compare"] + argv)
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    refs, systems = make_testset(400, 2, 3, seed=29)
    tmp = tmp_path_factory.mktemp("tables")
    ref_paths, sys_paths = write_files(tmp, refs, systems)
    return refs, systems, ref_paths, sys_paths


def _argv(ref_paths, sys_paths, named=True):
    a = sum((["--ref", p] for p in ref_paths), [])
    return a + sum((["--system", f"{p}={p}" if named else p] for _, p in sys_paths), [])


@pytest.mark.parametrize("test", ["--paired-bs", "--paired-ar"])
def test_text_table_is_sacrebleus_own(files, capsys, test):
    refs, systems, ref_paths, sys_paths = files
    rc, out, err = run(_argv(ref_paths, sys_paths) + [test, f"{test}-n", "500", "--format", "text"], capsys)
    assert rc == 0, err
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu", *ref_paths, "-i", *[p for _, p in sys_paths], test,
                             f"{test}-n", "500", "-f", "text", "--no-color"], capture_output=True, text=True,
                            env={**os.environ, "SACREBLEU_SEED": "12345"}, check=True).stdout
    table = theirs.split("\n\n")[0]
    assert out.split("\n\n")[0] == table
    assert "Signature: nrefs:2|" in out


def test_latex_and_markdown_carry_the_numbers_of_the_comparison(files, capsys):
    refs, systems, ref_paths, sys_paths = files
    rc, out, err = run(_argv(ref_paths, sys_paths, named=False) + ["--paired-bs"], capsys)
    got = json.loads(out)
    tex = latex_table(got)
    md = markdown_table(got)
    for s in got["systems"]:
        assert f"{s['score']:.2f}" in tex and f"{s['score']:.2f}" in md
        assert f"{s['mean']:.2f} $\\pm$ {s['ci']:.2f}" in tex and f"{s['mean']:.2f} ± {s['ci']:.2f}" in md
        if s["p_value"] is not None:
            assert f"{s['p_value']:.4f}" in tex and f"{s['p_value']:.4f}" in md
            marked = s["p_value"] <= 0.05
            assert (f"{s['score']:.2f}$^{{*}}$" in tex) == marked
            assert (f"{s['score']:.2f}\\*" in md) == marked
    assert "(baseline)" in tex and "\\toprule" in tex and "\\bottomrule" in tex
    assert got["signature"].replace("|", "\\textbar{}") in tex
    assert f"Signature: `{got['signature']}`" in md
    rc, out2, _ = run(_argv(ref_paths, sys_paths, named=False) + ["--paired-bs", "--format", "latex"], capsys)
    assert out2 == tex


def test_names_with_latex_and_markdown_specials_are_escaped():
    out = {"systems": [{"name": "base_1 & 50% {x}", "score": 30.0, "p_value": None, "mean": 30.1, "ci": 1.0},
                       {"name": "new|sys #2 ~ü", "score": 31.0, "p_value": 0.01, "mean": 31.0, "ci": 0.9}],
           "signature": "nrefs:1|bs:1000|seed:12345|tok:13a", "test": {"type": "bs", "n_samples": 1000},
           "n_segments": 10, "metric": "bleu"}
    tex = latex_table(out)
    assert r"base\_1 \& 50\% \{x\}" in tex and r"new\textbar{}sys \#2 \textasciitilde{}ü" in tex
    md = markdown_table(out)
    assert r"new\|sys \#2 ~ü" in md
    _compile(latex_document(tex))


def _compile(doc: str) -> None:
    if shutil.which("pdflatex") is None:
        if os.environ.get("CI") == "1":
            pytest.fail("pdflatex is missing: .ci/run installs texlive-latex-recommended")
        pytest.skip("pdflatex is not installed (apt-get install -y texlive-latex-recommended)")
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "t.tex"), "w", encoding="utf-8") as fh:
            fh.write(doc)
        r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "t.tex"],
                           cwd=d, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout[-2000:]
        assert os.path.getsize(os.path.join(d, "t.pdf")) > 0


def test_latex_table_compiles_with_pdflatex(files, capsys):
    refs, systems, ref_paths, sys_paths = files
    for extra in (["--paired-bs"], ["--paired-ar", "--confidence"], ["--confidence"], []):
        rc, out, err = run(_argv(ref_paths, sys_paths, named=False) + extra + ["--format", "latex"], capsys)
        assert rc == 0, err
        _compile(latex_document(out))


def test_all_pairs_matrix_in_every_format_and_the_latex_compiles(files, capsys):
    refs, systems, ref_paths, sys_paths = files
    rc, out, err = run(_argv(ref_paths, sys_paths, named=False) + ["--paired-bs", "--paired-bs-n", "300",
                                                                   "--all-pairs"], capsys)
    assert rc == 0, err
    m = json.loads(out)["matrix"]
    assert m["names"] == [n for n, _ in systems] and len(m["p_values"]) == 3
    for fmt in ("text", "markdown", "latex"):
        rc, text, err = run(_argv(ref_paths, sys_paths, named=False) + ["--paired-bs", "--paired-bs-n", "300",
                                                                        "--all-pairs", "--format", fmt], capsys)
        assert rc == 0 and "Clusters (best first" in text and f"{m['p_values'][0][1]:.4f}" in text
        if fmt == "latex":
            _compile(latex_document(text))
    rc, out, err = run(_argv(ref_paths, sys_paths, named=False) + ["--all-pairs"], capsys)
    assert rc != 0 and "--all-pairs needs --paired-bs or --paired-ar" in err


def test_the_pages_table_download_is_compares_table(files, capsys):
    """The page's LaTeX / Markdown downloads: the same table as `compare --format` for the same test."""
    from explainer.corpus.report import bleu_report
    from explainer.corpus.significance import paired_test
    from explainer.corpus.testset import build_testset
    from explainer.ui.corpus.page import paper_table_input

    refs, systems, ref_paths, sys_paths = files
    rep = bleu_report(build_testset(systems, [(p, r) for p, r in zip(ref_paths, refs)]))
    res = paired_test([(s.name, rep.statistic(j)) for j, s in enumerate(rep.systems)], test="bs", n_samples=300)
    comp = paper_table_input(rep, "bleu", res, None)
    rc, out, err = run(_argv(ref_paths, [(n, p) for (n, _), (_, p) in zip(systems, sys_paths)], named=False)
                       + ["--paired-bs", "--paired-bs-n", "300"], capsys)
    cli = json.loads(out)
    for render in (latex_table, markdown_table):
        assert render(comp) == render({**cli, "systems": [{**s, "name": n} for s, (n, _) in
                                                          zip(cli["systems"], systems)]})
    _compile(latex_document(latex_table(comp)))
    plain_comp = paper_table_input(rep, "bleu", None, None)
    assert [s["score"] for s in plain_comp["systems"]] == [s["score"] for s in cli["systems"]]


def test_rouge_tables_have_the_decimals_of_a_0_to_1_score(files, capsys):
    refs, systems, ref_paths, sys_paths = files
    base = _argv(ref_paths, sys_paths, named=False) + ["--metric", "rouge", "--types", "rouge1", "--paired-bs",
                                                       "--paired-bs-n", "200"]
    rc, out, err = run(base, capsys)
    got = json.loads(out)
    rc, tex, err = run(base + ["--format", "latex"], capsys)
    assert rc == 0, err
    for s in got["systems"]:
        assert f"{s['score']:.4f}" in tex
    assert "rouge1 F" in tex
    _compile(latex_document(tex))
