"""`python -m explainer compare`: the contract of issue "Corpus mode" — every number equals sacreBLEU's
PairedTest / corpus_score(n_bootstrap) on WMT-sized data; bad input is one line and a non-zero exit."""
from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from explainer.cli import main
from explainer.corpus.significance import paired_signature
from explainer.rouge import explain_rouge_corpus
from tests.conftest import ROOT
from tests.corpus_data import make_testset, write_files


def run(argv, capsys):
    try:
        rc = main(["compare"] + argv)
    except SystemExit as e:     # argparse's own errors (one line too, see explainer.cli._Parser)
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


def _args(ref_paths, sys_paths):
    a = []
    for p in ref_paths:
        a += ["--ref", p]
    for n, p in sys_paths:
        a += ["--system", f"{n}={p}"]
    return a


@pytest.fixture(scope="module")
def wmt(tmp_path_factory):
    """2,000 segments x 2 references x 4 systems, an empty line in every system."""
    refs, systems = make_testset(2000, 2, 4, seed=11)
    tmp = tmp_path_factory.mktemp("wmt")
    ref_paths, sys_paths = write_files(tmp, refs, systems)
    return refs, systems, ref_paths, sys_paths


def _assert_result_equal(got, sacre_results, names):
    assert [s["name"] for s in got["systems"]] == names
    for s, r in zip(got["systems"], sacre_results):
        assert set(s) == {"name", "score", "p_value", "mean", "ci"}
        assert s["score"] == pytest.approx(r.score, abs=1e-9) and s["score"] == r.score
        for k in ("p_value", "mean", "ci"):
            want = getattr(r, k)
            if want is None:
                assert s[k] is None, k
            else:
                assert s[k] == pytest.approx(float(want), abs=1e-9) and s[k] == float(want), k


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_wmt_sized_paired_tests_equal_pairedtest(wmt, test, capsys):
    refs, systems, ref_paths, sys_paths = wmt
    rc, out, err = run(_args(ref_paths, sys_paths) + [f"--paired-{test}"], capsys)
    assert rc == 0, err
    got = json.loads(out)
    sigs, scores = PairedTest(systems, {"BLEU": BLEU(references=refs)}, None, test_type=test)()
    _assert_result_equal(got, scores["BLEU"], [n for n, _ in systems])
    assert got["signature"] == sigs["BLEU"].format()
    assert got["test"]["type"] == test and got["test"]["n_samples"] == (1000 if test == "bs" else 10000)
    assert got["test"]["seed"] == "12345" and got["test"]["faithful"] is True
    assert got["systems"][0]["p_value"] is None
    assert any(0.002 < s["p_value"] < 1 for s in got["systems"][1:])
    for c, (_, lines) in zip(got["corpus"], systems):
        want = BLEU().corpus_score(lines, refs)
        assert c["counts"] == want.counts and c["totals"] == want.totals and c["score"] == want.score


def test_confidence_one_system_equals_corpus_score_n_bootstrap(wmt, capsys):
    refs, systems, ref_paths, sys_paths = wmt
    rc, out, err = run(_args(ref_paths, sys_paths[:1]) + ["--confidence"], capsys)
    assert rc == 0, err
    got = json.loads(out)
    m = BLEU()
    want = m.corpus_score(systems[0][1], refs, n_bootstrap=1000)
    s = got["systems"][0]
    assert (s["score"], s["mean"], s["ci"], s["p_value"]) == (want.score, want._mean, want._ci, None)
    assert got["signature"] == m.get_signature().format()


@pytest.mark.parametrize("K,tok", [(1, "13a"), (3, "zh"), (4, "13a")])
def test_references_and_tokenizers(K, tok, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "99")
    refs, systems = make_testset(300, K, 3, lang="zh" if tok == "zh" else "en", seed=K)
    ref_paths, sys_paths = write_files(tmp_path, refs, systems)
    for test, n in (("bs", 500), ("ar", 1500)):
        rc, out, err = run(_args(ref_paths, sys_paths) + ["--tokenize", tok, f"--paired-{test}",
                                                          f"--paired-{test}-n", str(n)], capsys)
        assert rc == 0, err
        got = json.loads(out)
        sigs, scores = PairedTest(systems, {"BLEU": BLEU(references=refs, tokenize=tok)}, None, test_type=test,
                                  n_samples=n)()
        _assert_result_equal(got, scores["BLEU"], [n_ for n_, _ in systems])
        assert got["signature"] == sigs["BLEU"].format()


def test_ar_with_confidence_is_pairedtests_n_ar_confidence(tmp_path, capsys):
    refs, systems = make_testset(200, 2, 3, seed=5)
    ref_paths, sys_paths = write_files(tmp_path, refs, systems)
    rc, out, err = run(_args(ref_paths, sys_paths) + ["--paired-ar", "--paired-ar-n", "800", "--confidence",
                                                      "--confidence-n", "300"], capsys)
    assert rc == 0, err
    got = json.loads(out)
    sigs, scores = PairedTest(systems, {"BLEU": BLEU(references=refs)}, None, test_type="ar", n_samples=800,
                              n_ar_confidence=300)()
    _assert_result_equal(got, scores["BLEU"], [n for n, _ in systems])
    assert got["signature"] == sigs["BLEU"].format()
    assert paired_signature("nrefs:2|case:mixed", "ar", 800, "12345", 300) == \
        "nrefs:2|bs:300|ar:800|seed:12345|case:mixed"


def test_segments_csv_and_report_json(tmp_path, capsys):
    refs, systems = make_testset(120, 2, 2, seed=8)
    ref_paths, sys_paths = write_files(tmp_path, refs, systems)
    csv_path, rep_path = tmp_path / "seg.csv", tmp_path / "report.json"
    rc, out, err = run(_args(ref_paths, sys_paths) + ["--segments", str(csv_path)], capsys)
    assert rc == 0, err
    rows = list(csv.DictReader(csv_path.open(encoding="utf-8")))
    assert len(rows) == 120
    m = BLEU()
    for k in (0, 7, 50):
        assert float(rows[k]["sys2 | score"]) == m.sentence_score(systems[1][1][k], [r[k] for r in refs]).score
    csv_report = tmp_path / "seg-report.csv"
    rc, out2, err = run(_args(ref_paths, sys_paths) + ["--report", str(rep_path), "--paired-bs",
                                                       "--paired-bs-n", "200", "--segments", str(csv_report)], capsys)
    assert rc == 0, err
    # the streamed statistics and the whole report (the page's download) write the same table
    assert csv_report.read_bytes() == csv_path.read_bytes()
    rep = json.loads(rep_path.read_text(encoding="utf-8"))
    assert rep["kind"] == "bleu-corpus-report" and len(rep["segments"]) == 120
    assert rep["tests"]["type"] == "bs" and rep["systems"][1]["score"] == json.loads(out2)["systems"][1]["score"]
    assert json.loads(out)["systems"][1]["score"] == json.loads(out2)["systems"][1]["score"]


def test_rouge_compare(tmp_path, capsys):
    refs, systems = make_testset(60, 2, 2, seed=2)
    ref_paths, sys_paths = write_files(tmp_path, refs, systems)
    rc, out, err = run(_args(ref_paths, sys_paths) + ["--metric", "rouge", "--types", "rouge1,rougeL",
                                                      "--rouge-type", "rougeL", "--paired-bs", "--paired-bs-n",
                                                      "300"], capsys)
    assert rc == 0, err
    got = json.loads(out)
    per_seg = [list(x) for x in zip(*refs)]
    for s, c, (_, lines) in zip(got["systems"], got["corpus"], systems):
        want = explain_rouge_corpus(lines, per_seg, types=["rouge1", "rougeL"])
        assert c["reported"] == json.loads(json.dumps(want.reported))
        mean_f = sum(x["rougeL"].fmeasure for x in want.item_scores) / len(lines)
        assert s["score"] == pytest.approx(mean_f, abs=1e-12)
    assert got["test"]["faithful"] is False and "own extension" in got["test"]["note"]
    assert got["test"]["statistic"] == "mean per-item fmeasure of rougeL"


# ------------------------------------------------------------------------------------------ bad input
@pytest.fixture()
def small(tmp_path):
    refs, systems = make_testset(20, 1, 2, seed=3)
    ref_paths, sys_paths = write_files(tmp_path, refs, systems)
    return tmp_path, ref_paths, sys_paths


def _one_line_error(rc, out, err, needle):
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert needle in err, err


def test_line_counts_differ(small, capsys):
    tmp, ref_paths, sys_paths = small
    short = tmp / "short.txt"
    short.write_text("\n".join(["x"] * 19) + "\n", encoding="utf-8")
    rc, out, err = run(["--ref", ref_paths[0], "--system", sys_paths[0][1], "--system", f"S={short}"], capsys)
    _one_line_error(rc, out, err, f"{sys_paths[0][1]} has 20 lines but {short} has 19: the files must be "
                                  "line-aligned (the explainer never truncates)")


def test_not_utf8_names_file_and_line(small, capsys):
    tmp, ref_paths, sys_paths = small
    bad = tmp / "latin1.txt"
    bad.write_bytes(("ok\n" * 4 + "caf\xe9\n" + "ok\n" * 15).encode("latin-1"))
    rc, out, err = run(["--ref", ref_paths[0], "--system", f"L={bad}"], capsys)
    _one_line_error(rc, out, err, f"{bad}: line 5 is not valid UTF-8 (byte 0xE9 at column 4); save it as UTF-8")


@pytest.mark.parametrize("extra,needle", [
    (["--paired-bs"], "give at least two --system"),
    (["--paired-ar", "--paired-ar-n", "0"], "give at least two --system"),
])
def test_paired_test_with_one_system(small, extra, needle, capsys):
    tmp, ref_paths, sys_paths = small
    rc, out, err = run(["--ref", ref_paths[0], "--system", sys_paths[0][1]] + extra, capsys)
    _one_line_error(rc, out, err, needle)


def test_name_given_twice(small, capsys):
    tmp, ref_paths, sys_paths = small
    rc, out, err = run(["--ref", ref_paths[0], "--system", f"A={sys_paths[0][1]}", "--system",
                        f"A={sys_paths[1][1]}"], capsys)
    _one_line_error(rc, out, err, "'A' is given twice")


@pytest.mark.parametrize("extra,needle", [
    (["--paired-bs", "--paired-bs-n", "0"], "--paired-bs-n must be between 1 and 10,000"),
    (["--paired-bs", "--paired-bs-n", "10001"], "--paired-bs-n must be between 1 and 10,000"),
    (["--paired-ar", "--paired-ar-n", "1000001"], "--paired-ar-n must be between"),
    (["--paired-bs-n", "10"], "--paired-bs-n needs --paired-bs"),
    (["--paired-bs", "--confidence", "--confidence-n", "10"], "would contradict"),
    (["--paired-bs", "--paired-ar"], "not allowed with argument"),
    (["--dialect", "bogus"], "unknown dialect 'bogus'"),
    (["--stem"], "--stem is a ROUGE option"),
    (["--metric", "rouge", "--tokenize", "zh"], "--tokenize is a BLEU option"),
    (["--dialect", "nltk", "--paired-bs"], "not defined for the nltk dialect"),
    (["--metric", "rouge", "--rouge-type", "rouge3"], "is not among the computed types"),
    (["--segments", "/nonexistent-dir/x.csv"], "cannot write /nonexistent-dir/x.csv"),
])
def test_bad_settings_are_one_line(small, extra, needle, capsys):
    tmp, ref_paths, sys_paths = small
    rc, out, err = run(_args(ref_paths, sys_paths) + extra, capsys)
    assert rc == 2, (out, err)
    assert "Traceback" not in err and needle in err, err
    assert err.count("\n") == 1


def test_missing_file_and_empty_file(small, capsys):
    tmp, ref_paths, sys_paths = small
    rc, out, err = run(["--ref", str(tmp / "nope.txt"), "--system", sys_paths[0][1]], capsys)
    _one_line_error(rc, out, err, f"cannot read {tmp / 'nope.txt'}: No such file or directory")
    empty = tmp / "empty.txt"
    empty.write_text("", encoding="utf-8")
    rc, out, err = run(["--ref", str(empty), "--system", str(empty)], capsys)
    _one_line_error(rc, out, err, "is empty")


def test_real_subprocess_exit_codes(small):
    tmp, ref_paths, sys_paths = small
    p = subprocess.run([sys.executable, "-m", "explainer", "compare", "--ref", ref_paths[0], "--system",
                        sys_paths[0][1], "--paired-ar"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stdout == ""
    p = subprocess.run([sys.executable, "-m", "explainer", "compare", "--ref", ref_paths[0], "--system",
                        sys_paths[0][1], "--system", sys_paths[1][1], "--paired-bs", "--paired-bs-n", "100"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert [s["name"] for s in json.loads(p.stdout)["systems"]] == ["sys1", "sys2"]
