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
from explainer.corpus.tables import latex_document, latex_signature, latex_table, markdown_table
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


@pytest.fixture(scope="module")
def small_files(tmp_path_factory):
    """A test set for the comparisons with TER: sacreBLEU's TER (shifts over a beam) took 55 of the 67 s of one
    `compare --metric bleu,chrf,ter` on the 400-segment set; 150 segments still separate the systems."""
    refs, systems = make_testset(150, 2, 3, seed=29)
    tmp = tmp_path_factory.mktemp("tablester")
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
    assert latex_signature(got["signature"]) in tex
    assert all(part.replace("_", "\\_") in tex for part in got["signature"].split("|"))
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
    from explainer.corpus.scoreboard import columns_of
    from explainer.corpus.significance import paired_test
    from explainer.corpus.testset import build_testset
    from explainer.families import FAMILIES
    from explainer.ui.corpus.downloads import paper_table_input
    from explainer.ui.corpus.reports import FamilyScores

    refs, systems, ref_paths, sys_paths = files
    rep = bleu_report(build_testset(systems, [(p, r) for p, r in zip(ref_paths, refs)]))
    res = paired_test([(s.name, rep.statistic(j)) for j, s in enumerate(rep.systems)], test="bs", n_samples=300)
    d = rep.d
    scores = rep.corpus_scores()
    fs = FamilyScores(None, rep, d, ("report",), columns_of(FAMILIES["bleu"], d, scores), scores)
    comp = paper_table_input([fs], {fs.test_key(fs.columns[0], rep.systems[0].name): {"result": res}}, 0)
    rc, out, err = run(_argv(ref_paths, [(n, p) for (n, _), (_, p) in zip(systems, sys_paths)], named=False)
                       + ["--paired-bs", "--paired-bs-n", "300"], capsys)
    cli = json.loads(out)
    for render in (latex_table, markdown_table):
        assert render(comp) == render({**cli, "systems": [{**s, "name": n} for s, (n, _) in
                                                          zip(cli["systems"], systems)]})
    _compile(latex_document(latex_table(comp)))
    plain_comp = paper_table_input([fs], {}, 0)
    assert [s["score"] for s in plain_comp["metrics"][0]["systems"]] == [s["score"] for s in cli["systems"]]


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


# ------------------------------------------------------------------- several metrics (issue 29, item 3)
THREE = ["--metric", "bleu,chrf,ter"]


@pytest.mark.parametrize("test", ["--paired-bs", "--paired-ar"])
def test_several_metrics_text_table_is_sacrebleus_own(small_files, capsys, test):
    """`compare --metric bleu,chrf,ter`: sacreBLEU's own table of `-m bleu chrf ter`, a column per metric."""
    refs, systems, ref_paths, sys_paths = small_files
    rc, out, err = run(_argv(ref_paths, sys_paths) + THREE + [test, f"{test}-n", "300", "--format", "text"], capsys)
    assert rc == 0, err
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu", *ref_paths, "-i", *[p for _, p in sys_paths], "-m",
                             "bleu", "chrf", "ter", test, f"{test}-n", "300", "-f", "text", "--no-color"],
                            capture_output=True, text=True, env={**os.environ, "SACREBLEU_SEED": "12345"},
                            check=True).stdout
    assert out.split("\n\n")[0] == theirs.split("\n\n")[0]
    sigs = [ln.split(None, 2)[2] for ln in theirs.splitlines() if ln.startswith(" - ") and "|" in ln]
    assert len(sigs) == 3 and all(f": {sig}" in out for sig in sigs)
    assert "TER: lower is better" in out


def test_several_metrics_json_has_every_metric_with_its_tests(small_files, capsys):
    refs, systems, ref_paths, sys_paths = small_files
    rc, out, err = run(_argv(ref_paths, sys_paths) + THREE + ["--paired-bs", "--paired-bs-n", "200",
                                                             "--all-pairs"], capsys)
    assert rc == 0, err
    got = json.loads(out)
    assert [m["label"] for m in got["metrics"]] == ["BLEU", "chrF2", "TER"]
    assert [m["higher_is_better"] for m in got["metrics"]] == [True, True, False]
    for m in got["metrics"]:
        assert [s["name"] for s in m["systems"]] == got["systems"]
        assert m["systems"][0]["p_value"] is None and all(s["p_value"] for s in m["systems"][1:])
        assert "bs:200" in m["signature"] and m["test"]["type"] == "bs"
        scores = m["matrix"]["scores"]
        best = (max if m["higher_is_better"] else min)(range(len(scores)), key=scores.__getitem__)
        assert m["matrix"]["clusters"][0][0] == got["systems"][best]
    # each metric's numbers are its own comparison's
    for metric, m in zip(("bleu", "chrf", "ter"), got["metrics"]):
        rc, one, err = run(_argv(ref_paths, sys_paths) + ["--metric", metric, "--paired-bs", "--paired-bs-n", "200"],
                           capsys)
        assert [s["p_value"] for s in json.loads(one)["systems"]] == [s["p_value"] for s in m["systems"]]


def test_several_metrics_latex_fits_a_column_and_compiles(small_files, capsys):
    """A LaTeX table with BLEU, chrF and TER columns: each score marked where p <= 0.05, each metric's signature
    under a short marker below the table (breakable after every |), compiled with pdflatex in a two-column
    document."""
    refs, systems, ref_paths, sys_paths = small_files
    rc, out, err = run(_argv(ref_paths, sys_paths) + THREE + ["--paired-bs", "--paired-bs-n", "300"], capsys)
    got = json.loads(out)
    tex = latex_table(got)
    assert "System & BLEU$^{a}$ & chrF2$^{b}$ & TER$^{c}$" in tex
    assert f"\\caption{{BLEU, chrF2 and TER on {len(refs[0]):,} segments}}" in tex
    body = [ln[:-3].split(" & ") for ln in tex.splitlines() if ln.endswith(r" \\") and not ln.startswith("System")]
    assert [r[0] for r in body] == [got["systems"][0] + " (baseline)"] + got["systems"][1:]
    for k, m in enumerate(got["metrics"]):
        assert f"$^{{{'abc'[k]}}}$\\,{m['label']}: {latex_signature(m['signature'])}" in tex
        for row, s in zip(body, m["systems"]):
            marked = s["p_value"] is not None and s["p_value"] <= 0.05
            assert row[k + 1] == f"{s['score']:.2f}" + ("$^{*}$" if marked else "")
    assert any("$^{*}$" in c for r in body for c in r) and any(c[-1].isdigit() for r in body[1:] for c in r[1:])
    assert "TER: lower is better" in tex and "\\allowbreak" in tex
    _compile(latex_document(tex))
    md = markdown_table(got)
    assert "| System | BLEU [a] | chrF2 [b] | TER [c] |" in md
    rc, tex2, err = run(_argv(ref_paths, sys_paths) + THREE + ["--paired-bs", "--paired-bs-n", "300", "--all-pairs",
                                                              "--format", "latex"], capsys)
    assert rc == 0 and tex2.startswith(tex) and tex2.count("p$-values of every pair") == 3
    _compile(latex_document(tex2))


def test_several_metrics_options_go_to_their_family(small_files, capsys):
    refs, systems, ref_paths, sys_paths = small_files
    base = _argv(ref_paths, sys_paths) + ["--metric", "bleu,ter"]
    rc, out, err = run(base + ["--tokenize", "char", "-o", "ter.case_sensitive=1"], capsys)
    assert rc == 0, err
    bleu, ter = json.loads(out)["metrics"]
    assert "tok:char" in bleu["signature"] and "case:mixed" in ter["signature"]
    rc, out, err = run(base + ["--dialect", "nltk"], capsys)
    assert rc == 2 and "--dialect bleu=nltk" in err
    rc, out, err = run(base + ["--dialect", "bleu=nltk"], capsys)
    assert rc == 0 and json.loads(out)["metrics"][0]["dialect"] == "nltk"
    rc, out, err = run(base + ["-o", "nosuch=1"], capsys)
    assert rc == 2 and "no metric compared has this option" in err
    rc, out, err = run(_argv(ref_paths, sys_paths) + ["--metric", "bleu,nosuch"], capsys)
    assert rc == 2 and "'nosuch' is not a metric here" in err
