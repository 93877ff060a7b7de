"""Confidence intervals and paired tests equal sacreBLEU 2.6's own numbers (PairedTest, corpus_score with
n_bootstrap), and the row scorer equals compute_bleu bit for bit in the arithmetic of every caller."""
from __future__ import annotations

import random

import numpy as np
import pytest
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest, _bootstrap_resample

from explainer.bleu import get_dialect
from explainer.bleu.rowscore import sacrebleu_scores, score_rows
from explainer.bleu.system_stats import system_stats
from explainer.corpus import significance as sig
from explainer.corpus.significance import Statistic, bootstrap_confidence, paired_test
from explainer.errors import ExplainerInputError
from tests.corpus_data import make_testset


# ------------------------------------------------------------------------------------------ row scores
def _random_rows(rng, N, m=40):
    rows = []
    for _ in range(m):
        c, r = rng.randint(0, 60), rng.randint(0, 60)
        tot = [max(0, c - n) for n in range(N)]
        if rng.random() < 0.3:
            tot = [rng.randint(0, 3) for _ in range(N)]
        cor = [rng.randint(0, t) if rng.random() < 0.7 else 0 for t in tot]
        rows.append([c, r] + cor + tot)
    return rows


SMOOTHINGS = [("exp", None), ("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 0.5),
              ("add-k", 2)]


@pytest.mark.parametrize("mode", ["py", "f32", "i64"])
@pytest.mark.parametrize("smooth,value", SMOOTHINGS)
def test_row_scores_are_compute_bleu_bit_for_bit(mode, smooth, value):
    """py = corpus_score's Python ints, f32 = the bootstrap's float32 rows, i64 = the AR test's int64 rows
    (where add-k's non-integer k is truncated away, as sacreBLEU's in-place add does)."""
    rng = random.Random(hash((mode, smooth, value)) & 0xFFFF)
    for N in (1, 2, 4, 5):
        for eff in (False, True):
            rows = _random_rows(rng, N)
            m = BLEU(smooth_method=smooth, smooth_value=value, effective_order=eff, max_ngram_order=N)
            if mode == "py":
                want = [m._compute_score_from_stats(list(r)).score for r in rows]
            elif mode == "f32":
                a = np.array(rows, dtype="float32")
                want = [m._compute_score_from_stats(a[i:i + 1].sum(0)).score for i in range(len(rows))]
            else:
                a = np.array(rows, dtype=np.int64)
                want = [m._aggregate_and_compute(x).score for x in a[:, None]]
            got = sacrebleu_scores(rows, max_order=N, smooth_method=smooth, smooth_value=value,
                                   effective_order=eff, mode=mode)
            assert got == want, (N, eff)


def test_row_scores_equal_the_dialects_combine():
    rng = random.Random(5)
    for opts in ({}, {"smooth_method": "floor", "smooth_value": 0.2}, {"smooth_method": "add-k"},
                 {"effective_order": True, "max_ngram_order": 3}, {"smooth_method": "none"}):
        d = get_dialect("sacrebleu", **opts)
        rows = _random_rows(rng, d.max_order)
        N = d.max_order
        want = [d.combine(r[0], r[1], r[2:2 + N], r[2 + N:], None).score for r in rows]
        assert score_rows(d, rows) == want


def test_blocked_random_draws_are_numpys_own_stream():
    """The tests draw their random matrices in blocks of rows (memory stays bounded); NumPy's generators give the
    same numbers as one call: any block size for choice, multiples of 32 booleans for the swap matrix."""
    for S in (7, 33, 2000):
        n = 1000
        whole = np.random.default_rng(12345).choice(S, size=(n, S), replace=True)
        rng = np.random.default_rng(12345)
        parts = [rng.choice(S, size=(m, S), replace=True) for m in (13, 500, 487)]
        assert (np.vstack(parts) == whole).all()
        r1 = np.random.default_rng(5)
        pos = r1.integers(2, size=(n, S), dtype=bool)
        after = r1.choice(S, size=(3, S))
        r2 = np.random.default_rng(5)
        parts, done = [], 0
        while done < n:
            m = min(64, n - done)
            parts.append(r2.integers(2, size=(m, S), dtype=bool))
            done += m
        assert (np.vstack(parts) == pos).all()
        assert (r2.choice(S, size=(3, S)) == after).all()


# ------------------------------------------------------------------------------------------ PairedTest
def _named(d, systems, refs_per_seg):
    arrays, _, _, _ = system_stats(d, [lines for _, lines in systems], refs_per_seg)
    out = []
    for (name, _), a in zip(systems, arrays):
        out.append((name, Statistic(a, lambda rows, mode: score_rows(d, rows, mode=mode),
                                    score_rows(d, a.sum(0)[None, :])[0])))
    return out


def _same(mine, scores):
    assert len(mine.systems) == len(scores)
    for m, r in zip(mine.systems, scores):
        assert m.score == r.score, m.name
        assert m.p_value == r.p_value, m.name
        assert m.mean == r.mean, m.name
        assert m.ci == r.ci, m.name


CASES = [(1, "13a", {}), (2, "13a", {}), (3, "zh", {}), (4, "13a", {"smooth_method": "floor"}),
         (2, "zh", {"smooth_method": "add-k", "smooth_value": 0.5}), (1, "13a", {"lowercase": True})]


@pytest.mark.parametrize("K,tok,opts", CASES)
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_tests_equal_sacrebleu(K, tok, opts, test):
    refs, systems = make_testset(300, K, 3, lang="zh" if tok == "zh" else "en", seed=K * 7 + len(opts))
    d = get_dialect("sacrebleu", tokenize=tok, **opts)
    refs_per_seg = [list(x) for x in zip(*refs)]
    n = 1000 if test == "bs" else 2000
    mine = paired_test(_named(d, systems, refs_per_seg), test=test, n_samples=n)
    _, scores = PairedTest(systems, {"BLEU": BLEU(references=refs, tokenize=tok, **opts)}, None,
                           test_type=test, n_samples=n)()
    _same(mine, scores["BLEU"])
    ps = [s.p_value for s in mine.systems[1:]]
    assert any(0.002 < p < 1 for p in ps), ps     # the data has a close pair: a p-value that tests something


def test_ar_with_confidence_and_another_seed(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    refs, systems = make_testset(200, 2, 3, seed=3)
    d = get_dialect("sacrebleu")
    mine = paired_test(_named(d, systems, [list(x) for x in zip(*refs)]), test="ar", n_samples=1000,
                       n_ar_confidence=300)
    sigs, scores = PairedTest(systems, {"BLEU": BLEU(references=refs)}, None, test_type="ar", n_samples=1000,
                              n_ar_confidence=300)()
    _same(mine, scores["BLEU"])
    assert mine.seed == "7" and all(s.mean is not None for s in mine.systems)


def test_seed_zero_and_none_follow_sacrebleu(monkeypatch):
    """SACREBLEU_SEED=0: the baseline interval is drawn with default_rng(0), the comparisons unseeded
    (PairedTest line 407); 'none': everything unseeded. The deterministic parts must still agree."""
    refs, systems = make_testset(150, 1, 2, seed=9)
    d = get_dialect("sacrebleu")
    named = _named(d, systems, [list(x) for x in zip(*refs)])
    monkeypatch.setenv("SACREBLEU_SEED", "0")
    mine = paired_test(named, test="bs", n_samples=500)
    _, scores = PairedTest(systems, {"BLEU": BLEU(references=refs)}, None, test_type="bs", n_samples=500)()
    base, want = mine.systems[0], scores["BLEU"][0]
    assert (base.score, base.mean, base.ci) == (want.score, want.mean, want.ci)
    assert mine.systems[1].score == scores["BLEU"][1].score and not mine.systems[1].seeded
    assert 0 < mine.systems[1].p_value <= 1
    monkeypatch.setenv("SACREBLEU_SEED", "none")
    mine = paired_test(named, test="ar", n_samples=200)
    assert mine.seed == "none" and 0 < mine.systems[1].p_value <= 1


@pytest.mark.parametrize("seed", ["12345", "42"])
def test_confidence_equals_corpus_score_n_bootstrap(seed, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    refs, systems = make_testset(250, 2, 1, seed=4)
    d = get_dialect("sacrebleu")
    (_, st), = _named(d, systems, [list(x) for x in zip(*refs)])
    c = bootstrap_confidence(st, 1000)
    want = BLEU().corpus_score(systems[0][1], refs, n_bootstrap=1000)
    assert (c.score, c.mean, c.ci) == (want.score, want._mean, want._ci)


def test_float32_sums_beyond_2_24_use_sacrebleus_own_summation():
    """Above 2^24 float32 sums are no longer exact integers; the resampling then sums as sacreBLEU does."""
    stats = [[9_000_000, 9_000_100, 7_000_001, 5_000_003, 3_000_007, 1_000_009,
              9_000_000, 8_999_999, 8_999_998, 8_999_997],
             [6_000_013, 6_000_000, 4_000_001, 2_000_003, 1_000_007, 500_009,
              6_000_013, 6_000_012, 6_000_011, 6_000_010],
             [12, 11, 9, 6, 4, 2, 12, 11, 10, 9]]
    d = get_dialect("sacrebleu")
    a = np.array(stats, dtype=np.int64)
    st = Statistic(a, lambda rows, mode: score_rows(d, rows, mode=mode), score_rows(d, a.sum(0)[None, :])[0])
    assert not sig._f32_sums_exact([st])
    mine = sig._bootstrap_pass(np.random.default_rng(12345), 200, [st])[0]
    _, want = _bootstrap_resample(stats, BLEU(), 200)
    assert mine.tolist() == [x.score for x in want]


def test_limits_are_checked_before_any_work():
    d = get_dialect("sacrebleu")
    a = np.zeros((10, 10), dtype=np.int64)
    st = Statistic(a, lambda rows, mode: score_rows(d, rows, mode=mode), 0.0)
    with pytest.raises(ExplainerInputError, match="over the limit"):
        paired_test([("a", st), ("b", st)], test="bs", n_samples=sig.MAX_RESAMPLES["bs"] + 1)
    with pytest.raises(ExplainerInputError, match="trials is over the limit"):
        paired_test([("a", st), ("b", st)], test="ar", n_samples=sig.MAX_RESAMPLES["ar"] + 1)
    big = Statistic(np.zeros((sig.MAX_TEST_CELLS // 1000 + 1, 10), dtype=np.int64), st.score_rows, 0.0)
    with pytest.raises(ExplainerInputError, match="draws, over the limit"):
        paired_test([("a", big), ("b", big)], test="bs", n_samples=1000)
    with pytest.raises(ExplainerInputError, match="at least two systems"):
        paired_test([("a", st)], test="ar")
    with pytest.raises(ExplainerInputError, match="positive integer"):
        bootstrap_confidence(st, 0)


# ------------------------------------------------------------------ sacreBLEU's defaults at WMT sizes (issue 19)
def test_sacrebleus_default_ar_runs_on_20000_segments():
    """--paired-ar's 10,000 trials on 20,000 segments (2e8 draws) pass the stated limits (they were refused at
    1e8 before); the work is bounded by time instead."""
    sig.check_test_size(sig.DEFAULT_AR_N, 20_000, "AR", "ar")
    sig.check_test_size(sig.DEFAULT_BS_N, 20_000, "BS", "bs")
    with pytest.raises(ExplainerInputError, match="draws, over the limit"):
        sig.check_test_size(sig.DEFAULT_AR_N, 20_001, "AR", "ar")


def test_a_test_over_its_time_limit_stops_with_what_to_do():
    d = get_dialect("sacrebleu")
    rng = np.random.default_rng(3)
    a = rng.integers(0, 5, size=(3000, 10)).astype(np.int64)
    st = Statistic(a, lambda rows, mode: score_rows(d, rows, mode=mode), 0.0)
    for test in ("ar", "bs"):
        with pytest.raises(sig.TestTimeout, match=r"stopped after 0 s.*command line"):
            paired_test([("a", st), ("b", st)], test=test, time_limit=0.0)
    with pytest.raises(sig.TestTimeout):
        bootstrap_confidence(st, 1000, time_limit=0.0)


def test_default_ar_on_more_segments_than_the_old_page_cap_equals_sacrebleu():
    """10,000 AR trials on 2,100 segments (over the 20M draws the page used to allow) equal PairedTest's."""
    refs, systems = make_testset(2100, 2, 3, seed=19)
    d = get_dialect("sacrebleu")
    mine = paired_test(_named(d, systems, [list(x) for x in zip(*refs)]), test="ar", n_samples=10_000,
                       time_limit=600)
    _, scores = PairedTest(systems, {"BLEU": BLEU(references=refs)}, None, test_type="ar", n_samples=10_000)()
    _same(mine, scores["BLEU"])


# ------------------------------------------------------------------------------ every pair and clusters
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_pair_matrix_is_sacrebleus_paired_test_with_each_baseline(test):
    refs, systems = make_testset(250, 1, 4, seed=53)
    d = get_dialect("sacrebleu")
    named = _named(d, systems, [list(x) for x in zip(*refs)])
    m = sig.pair_matrix(named, test=test, n_samples=300)
    for i in range(len(systems)):
        order = [systems[i]] + [s for k, s in enumerate(systems) if k != i]
        _, scores = PairedTest(order, {"BLEU": BLEU(references=refs)}, None, test_type=test, n_samples=300)()
        others = [k for k in range(len(systems)) if k != i]
        for k, r in zip(others, scores["BLEU"][1:]):
            assert m.p[i][k] == r.p_value, (i, k)
        assert m.p[i][i] is None
    flat = [n for c in m.clusters for n in c]
    assert sorted(flat) == sorted(n for n, _ in systems)


def test_clusters_split_only_where_everything_above_beats_everything_below():
    names = ["a", "b", "c", "d"]
    scores = [40.0, 39.0, 30.0, 29.5]
    p = [[None, 0.3, 0.001, 0.001], [0.3, None, 0.001, 0.001], [0.001, 0.001, None, 0.2],
         [0.001, 0.001, 0.2, None]]
    assert sig.clusters(names, scores, p) == [["a", "b"], ["c", "d"]]
    p[1][2] = p[2][1] = 0.2           # b is not better than c, c not better than d: nothing splits
    assert sig.clusters(names, scores, p) == [["a", "b", "c", "d"]]
