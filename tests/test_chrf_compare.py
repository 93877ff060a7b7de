"""`compare --metric chrf` and chrF's resampling statistic against sacreBLEU's PairedTest / corpus_score(n_bootstrap)
with CHRF, computed here (p-values, means and intervals equal, float32 arithmetic included)."""
from __future__ import annotations

import json

import pytest
from sacrebleu.metrics import CHRF
from sacrebleu.significance import PairedTest

from explainer.chrf import get_dialect
from explainer.chrf.algorithm import score_corpus
from explainer.chrf.statistic import chrf_statistic
from explainer.cli import main
from explainer.corpus.samples import HERE, SAMPLES
from explainer.corpus.significance import bootstrap_confidence, paired_test

SAMPLE = HERE / "news-en"


def _read(f):
    return (SAMPLE / f).read_text(encoding="utf-8").rstrip("\n").split("\n")


REFS = [_read(f) for f in SAMPLES["news-en"].references]
SYSTEMS = [(f.rsplit(".", 1)[0], _read(f)) for f in SAMPLES["news-en"].systems]
PER_SEG = [list(x) for x in zip(*REFS)]


def _named(opts):
    d = get_dialect("sacrebleu", **opts)
    out = []
    for name, hyps in SYSTEMS:
        st = score_corpus(d, hyps, PER_SEG)
        out.append((name, chrf_statistic(d, st.segment_stats, st.score)))
    return out


def _sacre(test, n, opts, **kw):
    sigs, res = PairedTest(SYSTEMS, {"chrf": CHRF(**opts)}, REFS, test_type=test, n_samples=n, **kw)()
    (key,) = [k for k in res if k != "System"]
    return sigs[key].format(), res[key]


@pytest.mark.parametrize("opts", [{}, {"word_order": 2, "eps_smoothing": True, "lowercase": True}])
@pytest.mark.parametrize("test,kw", [("bs", {}), ("ar", {"n_ar_confidence": 200})])
def test_paired_tests_equal_sacrebleu(opts, test, kw, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    n = 300 if test == "bs" else 1000
    ours = paired_test(_named(opts), test=test, n_samples=n, **kw)
    _, want = _sacre(test, n, opts, **kw)
    for o, r in zip(ours.systems, want):
        assert o.score == r.score
        assert o.p_value == r.p_value
        # sacreBLEU's bootstrap scores chrF in float32: the mean and the interval are float32 numbers
        assert o.mean == r.mean and o.ci == r.ci, (o.mean, r.mean, o.ci, r.ci)


def test_confidence_equals_corpus_score_n_bootstrap(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    for (_name, st), (_, hyps) in zip(_named({"word_order": 2}), SYSTEMS):
        c = bootstrap_confidence(st, 250)
        want = CHRF(word_order=2).corpus_score(hyps, REFS, n_bootstrap=250)
        assert c.mean == want._mean and c.ci == want._ci


def _compare(capsys, *extra):
    args = ["compare", "--metric", "chrf"] + [x for r in SAMPLES["news-en"].references for x in ("--ref",
                                                                                               str(SAMPLE / r))]
    args += [x for f in SAMPLES["news-en"].systems for x in ("--system", str(SAMPLE / f))]
    rc = main(args + list(extra))
    out = capsys.readouterr()
    return rc, out


def test_cli_compare_paired_bs_equals_paired_test(capsys, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    rc, out = _compare(capsys, "--word-order", "2", "--paired-bs", "--paired-bs-n", "200")
    assert rc == 0, out.err
    d = json.loads(out.out)
    sig, want = _sacre("bs", 200, {"word_order": 2})
    assert d["signature"] == sig
    assert d["name"] == "chrF2++"
    for row, r in zip(d["systems"], want):
        assert row["score"] == r.score and row["p_value"] == r.p_value and row["mean"] == r.mean and row["ci"] == r.ci
    assert d["test"]["faithful"] is True


def test_cli_compare_paired_ar_and_segments(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    seg = tmp_path / "seg.csv"
    rc, out = _compare(capsys, "--paired-ar", "--paired-ar-n", "500", "--segments", str(seg))
    assert rc == 0, out.err
    d = json.loads(out.out)
    sig, want = _sacre("ar", 500, {})
    assert d["signature"] == sig
    for row, r in zip(d["systems"], want):
        assert row["score"] == r.score and row["p_value"] == r.p_value
    lines = seg.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(PER_SEG) + 1
    # the per-segment scores are sacreBLEU's sentence scores against both references
    m = CHRF()
    first = lines[1].split(",")
    assert float(first[1]) == m.sentence_score(SYSTEMS[0][1][0], PER_SEG[0]).score


@pytest.mark.parametrize("flags,msg", [
    (["--tokenize", "13a"], "is not a chrF option"),
    (["--char-order", "0"], "char_order must be between"),
    (["--dialect", "nltk", "--lowercase"], "does not apply to the nltk dialect"),
    (["--dialect", "comet"], "unknown chrF dialect 'comet'"),
])
def test_cli_compare_refusals(capsys, flags, msg):
    rc, out = _compare(capsys, *flags)
    assert rc == 2 and msg in out.err and out.out == ""


def test_chrf_flags_need_metric_chrf(capsys):
    rc = main(["compare", "--ref", str(SAMPLE / "ref.1.txt"), "--system", str(SAMPLE / "baseline.txt"),
               "--word-order", "2"])
    err = capsys.readouterr().err
    assert rc == 2 and "--word-order is a chrF option" in err


def test_nltk_compare_is_the_mean_of_segments(capsys):
    from nltk.translate.chrf_score import corpus_chrf

    rc, out = _compare(capsys, "--dialect", "nltk", "--paired-bs", "--paired-bs-n", "100")
    assert rc == 0, out.err
    d = json.loads(out.out)
    joined = [" ".join(r) for r in PER_SEG]      # NLTK joins several references into one text
    for row, (_, hyps) in zip(d["systems"], SYSTEMS):
        assert abs(row["score"] - corpus_chrf(joined, hyps)) <= 1e-9
    assert d["test"]["faithful"] is False


def test_cli_compare_report(capsys, monkeypatch, tmp_path):
    """--report: the whole chrF report; its numbers are sacreBLEU's, the tests PairedTest's."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    rep = tmp_path / "rep.json"
    seg = tmp_path / "seg.csv"
    rc, out = _compare(capsys, "--word-order", "2", "--paired-bs", "--paired-bs-n", "150", "--report", str(rep),
                       "--segments", str(seg))
    assert rc == 0, out.err
    d = json.loads(out.out)
    _, want = _sacre("bs", 150, {"word_order": 2})
    for row, r in zip(d["systems"], want):
        assert row["score"] == r.score and row["p_value"] == r.p_value and row["ci"] == r.ci
    report = json.loads(rep.read_text(encoding="utf-8"))
    assert report["kind"] == "chrf-corpus-report" and report["name"] == "chrF2++"
    assert report["n_segments"] == len(PER_SEG) and len(report["segments"]) == len(PER_SEG)
    m = CHRF(word_order=2)
    first = report["segments"][0]["systems"][SYSTEMS[0][0]]
    assert first["score"] == m.sentence_score(SYSTEMS[0][1][0], PER_SEG[0]).score
    assert report["tests"]["type"] == "bs"
    assert [s["corpus"]["score"] for s in report["systems"]] == [r.score for r in want]
    assert len(seg.read_text(encoding="utf-8").splitlines()) == len(PER_SEG) + 1


def test_report_api_drill_down():
    from explainer.corpus.chrf_report import chrf_report
    from explainer.corpus.samples import load_sample

    rep = chrf_report(load_sample("news-en"), word_order=2)
    s0 = rep.systems[0]
    tr = s0.trace.segment(3)
    assert tr.stats == s0.trace.segment_stats[3] and tr.score == s0.sentence[3]
    assert rep.order_rows(0)[0]["kind"] == "char"
    ld = rep.largest_deltas(1)
    assert ld["n_better"] + ld["n_worse"] + ld["n_equal"] == rep.n_segments
    assert sum(b["n_segments"] for b in rep.length_buckets()) == rep.n_segments


def test_confidence_where_sacrebleu_fails_is_recorded(monkeypatch):
    """A resample without any match: sacreBLEU's chrF returns the Python 0.0 among float32 scores and
    corpus_score(n_bootstrap) raises TypeError; the explainer records that error (and still gives the numbers)."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    hyps, refs = ["abc def", "xyz"], [["abc def", "qqq"]]
    with pytest.raises(TypeError, match="coerce float and float32"):
        CHRF().corpus_score(hyps, refs, n_bootstrap=50)
    d = get_dialect("sacrebleu")
    st = score_corpus(d, hyps, [[r] for r in refs[0]])
    c = bootstrap_confidence(chrf_statistic(d, st.segment_stats, st.score), 50)
    assert c.library_error and "TypeError" in c.library_error
    # on the news corpus nothing is mixed: no error, the numbers are sacreBLEU's (test above)
    name, stat = _named({})[0]
    assert bootstrap_confidence(stat, 100).library_error is None


def test_report_ngram_differences_add_up_to_the_corpus_matches():
    from explainer.corpus.chrf_report import chrf_report
    from explainer.corpus.samples import load_sample

    rep = chrf_report(load_sample("news-en"), word_order=2)
    for order in (None, 0, 5):
        d = rep.ngram_differences(1, order=order, k=5)
        j = 6 if order is None else order          # default: chrF++'s word unigrams
        assert d["matched"]["system"] == rep.systems[1].trace.combination.orders[j].match
        assert d["matched"]["baseline"] == rep.systems[0].trace.combination.orders[j].match
        assert all(x["difference"] > 0 and x["n_segments"] > 0 for x in d["better"])
        assert all(x["difference"] < 0 for x in d["worse"])


def test_paired_tests_random_configurations(monkeypatch):
    """Random options and seeds on a 60-segment slice: every p-value, mean and interval is PairedTest's."""
    import random

    rng = random.Random(4)
    systems = [(n, h[:60]) for n, h in SYSTEMS]
    refs = [r[:60] for r in REFS]
    per_seg = [list(x) for x in zip(*refs)]
    for _ in range(4):
        opts = {"word_order": rng.choice([0, 2]), "beta": rng.choice([1, 2, 3]), "lowercase": rng.random() < 0.5,
                "whitespace": rng.random() < 0.5, "eps_smoothing": rng.random() < 0.5}
        seed = str(rng.randint(1, 99999))
        monkeypatch.setenv("SACREBLEU_SEED", seed)
        d = get_dialect("sacrebleu", **opts)
        named = []
        for name, hyps in systems:
            st = score_corpus(d, hyps, per_seg)
            named.append((name, chrf_statistic(d, st.segment_stats, st.score)))
        for test, n, kw in (("bs", 200, {}), ("ar", 300, {"n_ar_confidence": 100})):
            ours = paired_test(named, test=test, n_samples=n, **kw)
            _, res = PairedTest(systems, {"chrf": CHRF(**opts)}, refs, test_type=test, n_samples=n, **kw)()
            (key,) = [k for k in res if k != "System"]
            for o, r in zip(ours.systems, res[key]):
                assert (o.score, o.p_value, o.mean, o.ci) == (r.score, r.p_value, r.mean, r.ci), (opts, test)


@pytest.mark.parametrize("dialect,opts", [("sacrebleu", {}), ("sacrebleu", {"word_order": 2, "lowercase": True}),
                                          ("sacrebleu", {"whitespace": True, "char_order": 4}),
                                          ("nltk", {}), ("nltk", {"min_len": 2, "max_len": 4})])
def test_report_ngram_matches_are_the_segment_traces(dialect, opts):
    """The N-grams analysis counts one order from the systems' and kept references' n-grams (the dialect's own
    ``prepare`` and ``extract``), not from every segment's whole trace: each n-gram's count in each segment is the
    segment trace's clipped match against the reference kept, for every order, both systems and the three kept
    together or one at a time."""
    from explainer.chrf.algorithm import build_segment_trace
    from explainer.corpus.chrf_report import _matched, chrf_report
    from explainer.corpus.samples import load_sample

    ts = load_sample("news-en")
    rep = chrf_report(ts, dialect=dialect, **opts)
    for order in range(len(rep.d.orders)):
        got = _matched(rep, (1, 0), order)
        for j in (0, 1, 2):
            want_total: dict = {}
            want_seg: dict = {}
            for s, (h, refs) in enumerate(zip(ts.systems[j][1], ts.references)):
                t = build_segment_trace(rep.d, h, refs)
                assert t.chosen_reference == rep.systems[j].trace.chosen_references[s]
                o = t.orders[order]
                for g, m in zip(o.ngrams, o.matched[t.chosen_reference]):
                    if m:
                        want_total[g] = want_total.get(g, 0) + m
                        want_seg.setdefault(g, {})[s] = m
            assert _matched(rep, (j,), order)[j] == (want_total, want_seg)
            if j < 2:
                assert got[j] == (want_total, want_seg)
