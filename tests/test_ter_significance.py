"""TER's statistics in the project's bootstrap and paired tests (explainer.corpus.significance) against sacreBLEU's own
PairedTest and corpus_score(n_bootstrap=N) with TER, computed here on a real-sized test set (the bundled news-en
corpus: 300 segments, 2 references, 3 systems): scores, p-values, means and intervals identical, float32 included.

With two references a segment's reference length is a mean (a half-integer): the statistics are not integers, so the
bootstrap sums them as sacreBLEU does (float32) and the AR test keeps its float64 sums; with one reference they are
whole numbers (the exact-sum path). TER is lower-is-better: sacreBLEU's tests compare absolute differences, and so do
the project's."""
from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import TER
from sacrebleu.significance import PairedTest

from explainer.corpus.samples import HERE, SAMPLES
from explainer.corpus.significance import bootstrap_confidence, paired_test
from explainer.statistic import Statistic
from explainer.ter import get_dialect, score_rows, score_ter_corpus, segment_matrix
from explainer.ter.stats import statistic_options, ter_statistic

SAMPLE = HERE / "news-en"


def _read(f):
    return (SAMPLE / f).read_text(encoding="utf-8").rstrip("\n").split("\n")


REFS = [_read(f) for f in SAMPLES["news-en"].references]
SYSTEMS = [(f.rsplit(".", 1)[0], _read(f)) for f in SAMPLES["news-en"].systems]


def _named(opts, refs):
    per_seg = [list(x) for x in zip(*refs)]
    d = get_dialect("sacrebleu", **opts)
    out = []
    for name, hyps in SYSTEMS:
        st = score_ter_corpus(hyps, per_seg, dialect=d)
        m = segment_matrix(st.segment_stats)
        statistic = ter_statistic(st.segment_stats, st.score)
        assert isinstance(statistic, Statistic) and (statistic.stats == m).all() and statistic.score == st.score
        assert statistic.score_rows is score_rows and {k: getattr(statistic, k) for k in statistic_options(m)} == \
            statistic_options(m)
        out.append((name, statistic))
    return out


def _sacre(test, n, opts, refs, **kw):
    sigs, res = PairedTest(SYSTEMS, {"ter": TER(**opts)}, refs, test_type=test, n_samples=n, **kw)()
    (key,) = [k for k in res if k != "System"]
    return sigs[key].format(), res[key]


def test_the_test_set_is_real_sized_and_the_lengths_are_means():
    assert len(SYSTEMS) == 3 and len(REFS) == 2 and len(REFS[0]) == 300
    named = _named({}, REFS)
    assert not named[0][1].integer and named[0][1].stats.shape == (300, 2)
    assert any(x % 1 == 0.5 for x in named[0][1].stats[:, 1])
    assert _named({}, REFS[:1])[0][1].integer


@pytest.mark.parametrize("nref", [2, 1])
@pytest.mark.parametrize("opts", [{}, {"normalized": True, "case_sensitive": True}])
@pytest.mark.parametrize("test,n,kw", [("bs", 300, {}), ("ar", 1000, {"n_ar_confidence": 200})])
def test_paired_tests_equal_sacrebleu(nref, opts, test, n, kw, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    refs = REFS[:nref]
    ours = paired_test(_named(opts, refs), test=test, n_samples=n, **kw)
    _, want = _sacre(test, n, opts, refs, **kw)
    assert len(ours.systems) == len(want) == 3
    for o, r in zip(ours.systems, want):
        assert o.score == r.score
        assert o.p_value == r.p_value, (o.name, o.p_value, r.p_value)
        # sacreBLEU's bootstrap scores TER in float32: the mean and the interval are float32 numbers
        assert o.mean == r.mean and o.ci == r.ci, (o.name, o.mean, r.mean, o.ci, r.ci)
    # the systems differ: the p-values are not all 1 (a test that could not tell them apart would pass trivially)
    assert min(o.p_value for o in ours.systems[1:]) < 0.5


def test_confidence_equals_corpus_score_n_bootstrap(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    for (_name, st), (_, hyps) in zip(_named({}, REFS), SYSTEMS):
        c = bootstrap_confidence(st, 250)
        want = TER().corpus_score(hyps, REFS, n_bootstrap=250)
        assert c.score == want.score and c.mean == want._mean and c.ci == want._ci


def test_score_rows_is_compute_score_from_stats_in_every_mode():
    m = TER()
    rows = np.array([[3, 7.5], [0, 0.0], [2, 0.0], [14510, 33631.0], [1, 3.0]])
    f32 = score_rows(rows.astype(np.float32), "f32")
    assert f32 == [m._compute_score_from_stats(r).score for r in rows.astype(np.float32)]
    assert type(f32[0]) is np.float32 and type(f32[1]) is float    # a length-0 row: the Python 100.0 / 0.0
    assert score_rows(rows, "py") == [m._compute_score_from_stats(list(r)).score for r in rows.tolist()]
    assert score_rows(rows, "i64") == score_rows(rows, "py")
    with pytest.raises(ValueError, match="mode"):
        score_rows(rows, "f16")
    with pytest.raises(ValueError, match="num_edits, ref_length"):
        segment_matrix([[1, 2, 3]])
