"""Several metrics on one test set (issue 29, item 3): a column per measure of every registered family, each with
its paired tests against the baseline; the matrix of every pair and WMT-style clusters in the measure's own
direction (TER is an error rate: the lowest first). Expected numbers come from sacreBLEU's own PairedTest."""
from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

from explainer.corpus import significance as sig
from explainer.corpus.samples import load_sample
from explainer.corpus.scoreboard import column_dict, column_tests, comparison_dict, score_families
from explainer.families import FAMILIES
from tests.corpus_data import make_testset

SACRE = {"bleu": lambda: BLEU(), "chrf": lambda: CHRF(), "ter": lambda: TER()}


@pytest.fixture(scope="module")
def news():
    return load_sample("news-en")


@pytest.fixture(scope="module")
def board(news):
    chosen = [(FAMILIES[n], FAMILIES[n].bind()) for n in ("bleu", "chrf", "ter")]
    return score_families(news, chosen)


def _streams(ts):
    return [list(s) for s in zip(*ts.references)]


def test_a_column_per_measure_of_every_registered_family():
    """Every registered family can be chosen: the board has each of its measures as a column, whatever it is."""
    ts = load_sample("news-en")
    small = type(ts)(ts.references[:40], [(n, lines[:40]) for n, lines in ts.systems], ts.ref_names)
    chosen = [(FAMILIES[n], FAMILIES[n].bind()) for n in FAMILIES]
    b = score_families(small, chosen)
    want = [(n, m.key) for n in FAMILIES for m in FAMILIES[n].measures(FAMILIES[n].bind())]
    assert [(c.family, c.measure.key) for c in b.columns] == want
    for c in b.columns:
        assert len(c.scores) == 3 and all(len(s.segment_scores) == 40 for s in c.scores)
        assert c.segment_score_name


@pytest.mark.parametrize("family", ["bleu", "chrf", "ter"])
def test_corpus_scores_are_sacrebleus(board, news, family):
    col = board.column(family)
    for (_, lines), got in zip(news.systems, col.values):
        assert got == SACRE[family]().corpus_score(lines, _streams(news)).score


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_each_columns_paired_test_is_pairedtests_with_that_metric(board, news, test, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    n = 300 if test == "bs" else 1000
    for family in ("bleu", "chrf", "ter"):
        res = column_tests(board.column(family), board.names, 0, test=test, n_samples=n)
        _, want = PairedTest(news.systems, {family: SACRE[family]()}, _streams(news), test_type=test,
                             n_samples=n)()
        (key,) = [k for k in want if k != "System"]
        for o, r in zip(res.systems, want[key]):
            assert (o.score, o.p_value, o.mean, o.ci) == (r.score, r.p_value, r.mean, r.ci), (family, o.name)


def test_the_comparison_holds_every_metric_with_its_direction(board):
    res = {c.key: column_tests(c, board.names, 1, test="bs", n_samples=200) for c in board.columns}
    out = comparison_dict(board, res, baseline=1)
    assert [m["metric"] for m in out["metrics"]] == ["bleu", "chrf", "ter"]
    assert out["systems"][0] == board.names[1]
    ter = out["metrics"][2]
    assert ter["higher_is_better"] is False and ter["label"] == "TER"
    assert [s["name"] for s in ter["systems"]] == out["systems"]
    assert "bs:200" in out["metrics"][0]["signature"] and "bs:200" in ter["signature"]
    plain = column_dict(board.column("ter"), board.names)
    assert plain["test"]["type"] is None and [s["p_value"] for s in plain["systems"]] == [None] * 3


def test_a_subset_scores_as_its_own_corpus(board, news):
    """Statistic.subset_score: the corpus score of some segments alone, for a sum of statistics (BLEU, chrF, TER)
    and for a mean of per-item values (ROUGE: the mean over the subset, not over the whole test set)."""
    idx = np.arange(0, 300, 3)
    refs = [[r[k] for k in idx] for r in _streams(news)]
    for family in ("bleu", "chrf", "ter"):
        for (_, lines), ms in zip(news.systems, board.column(family).scores):
            want = SACRE[family]().corpus_score([lines[k] for k in idx], refs).score
            assert ms.statistic.subset_score(idx) == want
    rouge = FAMILIES["rouge"]
    d = rouge.bind(types=["rouge1"])
    ms = rouge.corpus(d, news.systems[0][1], news.references).measures["rouge1"]
    assert ms.statistic.subset_score(idx) == pytest.approx(float(np.mean(ms.segment_scores[idx])), abs=1e-12)
    assert ms.statistic.subset_score([]) != ms.statistic.subset_score([])       # NaN: no segment


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_ter_matrix_is_pairedtest_with_each_baseline_and_clusters_lowest_first(board, news, test, monkeypatch):
    """TER with two references: its statistics are not integers (a mean of reference lengths); every cell is
    PairedTest's p-value with that baseline, and the clusters rank the lowest TER first."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    col = board.column("ter")
    named = list(zip(board.names, col.statistics()))
    m = sig.pair_matrix(named, test=test, n_samples=300, higher_is_better=False)
    for i in range(3):
        order = [news.systems[i]] + [s for k, s in enumerate(news.systems) if k != i]
        _, want = PairedTest(order, {"ter": TER()}, _streams(news), test_type=test, n_samples=300)()
        others = [k for k in range(3) if k != i]
        (key,) = [k for k in want if k != "System"]
        for k, r in zip(others, want[key][1:]):
            assert m.p[i][k] == r.p_value, (i, k)
    best = min(range(3), key=lambda j: col.values[j])
    assert m.clusters[0][0] == board.names[best]
    assert m.to_dict()["higher_is_better"] is False


def test_clusters_follow_the_measures_direction():
    names = ["a", "b", "c"]
    p = [[None, 0.001, 0.001], [0.001, None, 0.001], [0.001, 0.001, None]]
    assert sig.clusters(names, [10.0, 20.0, 30.0], p) == [["c"], ["b"], ["a"]]
    assert sig.clusters(names, [10.0, 20.0, 30.0], p, higher_is_better=False) == [["a"], ["b"], ["c"]]


@pytest.mark.parametrize("seed", ["none", "0"])
def test_an_unseeded_matrix_runs_a_test_per_baseline(seed, monkeypatch):
    """Unseeded comparisons (PairedTest's line 407) draw anew per test: the matrix runs one test per baseline."""
    refs, systems = make_testset(120, 1, 3, seed=8)
    d = FAMILIES["bleu"].bind()
    scores = FAMILIES["bleu"].corpus_systems(d, [lines for _, lines in systems], [list(x) for x in zip(*refs)])
    named = [(n, s.measures["score"].statistic) for (n, _), s in zip(systems, scores)]
    calls = []
    real = sig.paired_test
    monkeypatch.setattr(sig, "paired_test", lambda *a, **k: calls.append(1) or real(*a, **k))
    m = sig.pair_matrix(named, test="bs", n_samples=100, seed=seed)
    assert len(calls) == 2 and all(m.p[i][j] is not None for i in range(3) for j in range(3) if i != j)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_familys_statistic_scores_a_subset_as_its_own_corpus(family):
    """``Statistic.subset_score`` (the length buckets' score) is the statistic of the subset scored alone, for every
    registered family: a statistic whose rows are not summed in full (a mean over all segments baked in) gives half
    the score here and fails. (The semantic scores of a text depend on its batch by ~1e-8: the model runs in
    float32; the tolerance is a millionth of the scale.)"""
    ts = load_sample("news-en")
    cands, refs = list(ts.systems[1][1][:30]), ts.references[:30]
    fam = FAMILIES[family]
    d = fam.bind()
    whole = fam.corpus(d, cands, refs)
    idx = list(range(0, 30, 2))
    alone = fam.corpus(d, [cands[k] for k in idx], [refs[k] for k in idx])
    for key, ms in whole.measures.items():
        if ms.statistic is None:
            continue
        assert ms.statistic.subset_score(idx) == pytest.approx(alone.measures[key].statistic.score,
                                                               abs=1e-6 * ms.measure.scale), key
