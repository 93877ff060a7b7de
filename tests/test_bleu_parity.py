"""Parity against the real packages, run here: sacreBLEU 2.6.0 and NLTK 3.10.4 (plus the course chapter's own
code for the textbook dialect) on 2,000 generated cases (tests/bleu_cases.py) and 100 corpora built from them.

Every sacreBLEU option combination (5 tokenizers x lowercase x 6 smoothing settings x effective order x
max order 2/4 x corpus_bleu/sentence_bleu = 480) and every NLTK combination (8 methods x auto_reweigh x 4
weight vectors = 64) is exercised on at least a few cases, round-robin, and every case is also checked with
each library's defaults. Exact: counts, totals, lengths, signature; floats 1e-9 (NLTK's tiny method0 scores
relative 1e-9)."""
from __future__ import annotations

import itertools
import math
import warnings
from functools import lru_cache

import pytest
import sacrebleu
from nltk.translate import bleu_score as nb
from sacrebleu.metrics import BLEU

from explainer.bleu import explain_bleu, explain_bleu_corpus, score_bleu, score_bleu_corpus
from tests.bleu_cases import make_cases
from tests.chapter import chapter_functions

N_CASES = 2000
CASES = make_cases(N_CASES)
CORPORA = [CASES[i:i + 20] for i in range(0, N_CASES, 20)]
# the textbook dialect against the chapter's own bleu_score (recorded: tests/chapter.py), max_n 4/1/2/3
TEXTBOOK_CALLS = [(hyp, refs, (4, 1, 2, 3)[i % 4]) for i, (hyp, refs) in enumerate(CASES)]

SMOOTHS = [("exp", None), ("floor", None), ("floor", 0.5), ("add-k", None), ("add-k", 0.5), ("none", None)]
SACRE_COMBOS = list(itertools.product(["13a", "intl", "zh", "char", "none"], [False, True], SMOOTHS, [False, True],
                                      [4, 2], ["corpus_bleu", "sentence_bleu"]))
WEIGHTS = [(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.1, 0.2, 0.3, 0.4)]
NLTK_COMBOS = list(itertools.product(range(8), [False, True], WEIGHTS))


def close(a, b, tol=1e-9):
    return math.isclose(a, b, rel_tol=0, abs_tol=tol)


@lru_cache(maxsize=None)
def _bleu(tok, lc, sm, sv, eff, order):
    return BLEU(tokenize=tok, lowercase=lc, smooth_method=sm, smooth_value=sv, effective_order=eff,
                max_ngram_order=order)


def _sacre_opts(combo):
    tok, lc, (sm, sv), eff, order, api = combo
    return dict(tokenize=tok, lowercase=lc, smooth_method=sm, smooth_value=sv, effective_order=eff,
                max_ngram_order=order, api=api)


def _check_sacre(got, ref, sig, key):
    assert close(got.score, ref.score), (key, got.score, ref.score)
    assert list(got.counts) == list(ref.counts), key
    assert list(got.totals) == list(ref.totals), key
    assert all(close(a * 100, b) for a, b in zip(got.precisions, ref.precisions)), key
    assert close(got.bp, ref.bp), key
    assert (got.sys_len, got.ref_len) == (ref.sys_len, ref.ref_len), key
    assert got.signature == sig, key


def test_sacrebleu_segments_every_option_combination():
    assert len(SACRE_COMBOS) == 480
    for i, (hyp, refs) in enumerate(CASES):
        for combo in ((("13a", False, ("exp", None), False, 4, "corpus_bleu")), SACRE_COMBOS[i % len(SACRE_COMBOS)]):
            tok, lc, (sm, sv), eff, order, api = combo
            m = _bleu(tok, lc, sm, sv, eff, order)
            if api == "sentence_bleu":
                ref = m.sentence_score(hyp, refs)
            else:
                ref = m.corpus_score([hyp], [[r] for r in refs])
            sig = str(m.get_signature())
            opts = _sacre_opts(combo)
            key = (i, hyp, refs, combo)
            st = score_bleu(hyp, refs, dialect="sacrebleu", **opts)
            _check_sacre(st, ref, sig, key)
            if i % 4 == 0 or combo[0] == "13a" and not lc:
                tr = explain_bleu(hyp, refs, dialect="sacrebleu", **opts)
                _check_sacre(tr, ref, sig, key)
                assert tr.candidate.preprocessed == m._preprocess_segment(hyp), key
                assert [r.preprocessed for r in tr.references] == [m._preprocess_segment(r) for r in refs], key


def test_sacrebleu_sentence_bleu_function():
    """``sacrebleu.sentence_bleu`` (compat: effective order on by default) for every case."""
    for i, (hyp, refs) in enumerate(CASES[:500]):
        ref = sacrebleu.sentence_bleu(hyp, refs)
        got = score_bleu(hyp, refs, dialect="sacrebleu", api="sentence_bleu")
        assert close(got.score, ref.score), (i, hyp, refs)
        assert list(got.counts) == list(ref.counts)


def test_sacrebleu_corpora():
    for i, corpus in enumerate(CORPORA):
        hyps = [h for h, _ in corpus]
        refs = [r for _, r in corpus]
        k = max(len(r) for r in refs)
        streams = [[r[j] if j < len(r) else None for r in refs] for j in range(k)]
        combo = SACRE_COMBOS[(7 * i) % len(SACRE_COMBOS)][:5] + ("corpus_bleu",)
        for c in (("13a", False, ("exp", None), False, 4, "corpus_bleu"), combo):
            m = _bleu(*c[:2], *c[2], *c[3:5])
            ref = m.corpus_score(hyps, streams)
            sig = str(m.get_signature())
            opts = _sacre_opts(c)
            _check_sacre(score_bleu_corpus(hyps, refs, dialect="sacrebleu", **opts), ref, sig, (i, c))
            tr = explain_bleu_corpus(hyps, refs, dialect="sacrebleu", **opts)
            _check_sacre(tr, ref, sig, (i, c))
            assert tr.segment_stats == m._extract_corpus_statistics(hyps, streams)


# ---------------------------------------------------------------------------------------------- NLTK
def _nltk_ref(refs_tok, hyp_tok, mi, ar, w, corpus=False):
    fn = getattr(nb.SmoothingFunction(), f"method{mi}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if corpus:
                v = nb.corpus_bleu(refs_tok, hyp_tok, weights=w, smoothing_function=fn, auto_reweigh=ar)
            else:
                v = nb.sentence_bleu(refs_tok, hyp_tok, weights=w, smoothing_function=fn, auto_reweigh=ar)
            err = None
        except Exception as e:  # noqa: BLE001 - we compare the exception class
            v, err = None, type(e).__name__
    return v, err, [str(c.message) for c in caught]


def _check_nltk(got, v, err, msgs, key):
    if err is not None:
        assert got.library_error is not None and got.library_error.type == err, (key, err, got.library_error)
        return
    assert got.library_error is None, (key, got.library_error)
    assert type(got.score) is type(v), (key, got.score, v)
    if v > 1e-300:
        assert math.isclose(got.score, v, rel_tol=1e-9, abs_tol=0), (key, got.score, v)
    else:
        assert got.score == v or abs(got.score - v) < 1e-300, key
    assert [w.message for w in got.warnings] == msgs, key


def test_nltk_segments_every_option_combination():
    assert len(NLTK_COMBOS) == 64
    for i, (hyp, refs) in enumerate(CASES):
        ht, ref_toks = hyp.split(), [r.split() for r in refs]
        for mi, ar, w in ((0, False, WEIGHTS[0]), NLTK_COMBOS[i % len(NLTK_COMBOS)]):
            v, err, msgs = _nltk_ref(ref_toks, ht, mi, ar, w)
            opts = dict(smoothing=f"method{mi}", auto_reweigh=ar, weights=w)
            key = (i, hyp, refs, mi, ar, w)
            _check_nltk(score_bleu(hyp, refs, dialect="nltk", **opts), v, err, msgs, key)
            if i % 4 == 0:
                tr = explain_bleu(hyp, refs, dialect="nltk", **opts)
                _check_nltk(tr, v, err, msgs, key)
                if err is None:
                    for o in tr.combination.orders:
                        p = nb.modified_precision(ref_toks, ht, o.n)
                        assert (o.matches, o.totals) == (p.numerator, p.denominator), key


def test_nltk_corpora():
    for i, corpus in enumerate(CORPORA):
        hyps = [h for h, _ in corpus]
        refs = [r for _, r in corpus]
        ht, ref_toks = [h.split() for h in hyps], [[r.split() for r in rs] for rs in refs]
        for mi, ar, w in ((0, False, WEIGHTS[0]), NLTK_COMBOS[(5 * i) % len(NLTK_COMBOS)]):
            v, err, msgs = _nltk_ref(ref_toks, ht, mi, ar, w, corpus=True)
            opts = dict(smoothing=f"method{mi}", auto_reweigh=ar, weights=w)
            _check_nltk(score_bleu_corpus(hyps, refs, dialect="nltk", **opts), v, err, msgs, (i, mi, ar, w))
            _check_nltk(explain_bleu_corpus(hyps, refs, dialect="nltk", **opts), v, err, msgs, (i, mi, ar, w))


# ------------------------------------------------------------------------------------------ textbook
@pytest.fixture(scope="module")
def chapter():
    return chapter_functions()


def test_textbook_matches_the_chapters_own_code(chapter):
    errors = 0
    for i, (hyp, refs, max_n) in enumerate(TEXTBOOK_CALLS):
        try:
            want = chapter["bleu_score"](hyp, refs, max_n=max_n)
            err = None
        except Exception as e:  # noqa: BLE001
            want, err = None, type(e).__name__
        got = score_bleu(hyp, refs, dialect="textbook", max_n=max_n)
        if err:
            errors += 1
            assert got.library_error is not None and got.library_error.type == err, (i, hyp, refs)
            continue
        assert got.library_error is None
        assert close(got.score, want["bleu"]), (i, hyp, refs, got.score, want)
        assert close(got.bp, want["brevity_penalty"])
        assert got.precisions == pytest.approx(want["precisions"], abs=1e-12)
        if i % 3 == 0:
            tr = explain_bleu(hyp, refs, dialect="textbook", max_n=max_n)
            assert close(tr.score, want["bleu"]) and close(tr.combination.geo_mean, want["geometric_mean"])
    assert errors > 0   # empty candidates do occur in the generated cases and fail in the chapter's code


def test_nltk_smoothing_parameters_and_long_weights():
    """Non-default SmoothingFunction(epsilon, alpha, k) and weight vectors of length 1, 5 and 6."""
    params = [dict(epsilon=0.3, alpha=3, k=2), dict(epsilon=0.01, alpha=7.5, k=1.5)]
    weights = [(1.0,), (0.2,) * 5, (0.1, 0.1, 0.2, 0.2, 0.2, 0.2), (0.25,) * 4]
    n = 0
    for i, (hyp, refs) in enumerate(CASES[:400]):
        p = params[i % 2]
        w = weights[i % len(weights)]
        ht, ref_toks = hyp.split(), [r.split() for r in refs]
        for mi in (1, 4, 5, 6, 7):
            fn = getattr(nb.SmoothingFunction(**p), f"method{mi}")
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    v, err = nb.sentence_bleu(ref_toks, ht, weights=w, smoothing_function=fn), None
                except Exception as e:  # noqa: BLE001
                    v, err = None, type(e).__name__
            got = score_bleu(hyp, refs, dialect="nltk", smoothing=f"method{mi}", weights=w, **p)
            _check_nltk(got, v, err, [str(c.message) for c in caught], (i, hyp, refs, mi, p, w))
            n += 1
    assert n == 2000


def test_sacrebleu_bootstrap_ci(monkeypatch):
    """corpus_score(n_bootstrap=N): mean and CI half-width, against the real sacreBLEU, for a few corpora,
    seeds and options (constant number of references, as sacreBLEU's bootstrap needs)."""
    from explainer.bleu import bootstrap_bleu_corpus

    for i, corpus in enumerate(CORPORA[:6]):
        hyps = [h for h, _ in corpus]
        refs = [[r[0]] for _, r in corpus]
        seed = ["12345", "7", "none"][i % 3]
        opts = [{}, {"smooth_method": "floor"}, {"tokenize": "intl", "lowercase": True}][i % 3]
        monkeypatch.setenv("SACREBLEU_SEED", seed)
        ref = BLEU(**opts).corpus_score(hyps, [[r[0] for r in refs]], n_bootstrap=200)
        got = bootstrap_bleu_corpus(hyps, refs, n_bootstrap=200, **opts)
        assert got.score == ref.score
        if seed != "none":   # OS entropy: only the shape can be compared
            assert close(got.mean, ref._mean) and close(got.ci, ref._ci), (i, seed)
        assert got.seed == seed and len(got.scores) == 200
