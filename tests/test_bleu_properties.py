"""Property tests (hypothesis) for the BLEU core, every built-in dialect."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from explainer.bleu import explain_bleu, explain_bleu_corpus, score_bleu

WORDS = ["the", "The", "cat", "sat", "on", "mat", "a", ",", ".", "mat.", "über", "ÄRGER", "猫", "&amp;", "e-mail",
         "2023", "'s", "!"]
text = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12).map(" ".join)
refs_st = st.lists(text, min_size=1, max_size=5)
DIALECTS = ["sacrebleu", "nltk", "hf-evaluate", "textbook"]
dialect_st = st.sampled_from(DIALECTS)


@settings(max_examples=150)
@given(text, refs_st, dialect_st)
def test_clipped_precision_bp_bounds(cand, refs, dialect):
    tr = explain_bleu(cand, refs, dialect=dialect)
    for order in tr.ngrams:
        for e in order.entries:
            assert 0 <= e.clipped <= e.cand_count
            assert e.clipped <= e.max_ref_count
    for o in tr.combination.orders:
        if o.precision_raw is not None:
            assert 0.0 <= o.precision_raw <= 1.0
        if dialect != "nltk":   # NLTK method5 can push a smoothed precision above 1 (not used by default)
            assert 0.0 <= o.precision <= 1.0
    assert 0.0 <= tr.bp <= 1.0
    assert 0.0 <= tr.bleu <= 1.0 + 1e-12


@settings(max_examples=150)
@given(text, refs_st, st.randoms(use_true_random=False),
       st.sampled_from([{}, {"lowercase": True}, {"tokenize": "intl"}, {"smooth_method": "add-k"},
                        {"effective_order": True}]))
def test_reference_order_does_not_change_sacrebleu(cand, refs, rnd, opts):
    shuffled = list(refs)
    rnd.shuffle(shuffled)
    a = score_bleu(cand, refs, **opts)
    b = score_bleu(cand, shuffled, **opts)
    assert a.score == b.score and a.ref_len == b.ref_len and a.counts == b.counts


@settings(max_examples=100)
@given(st.lists(st.sampled_from(WORDS), min_size=4, max_size=12).map(" ".join), dialect_st)
def test_identical_texts_score_the_maximum(t, dialect):
    tr = explain_bleu(t, [t], dialect=dialect)
    assert math.isclose(tr.bleu, 1.0, abs_tol=1e-9), (t, tr.bleu)
    assert all(o.precision_raw == 1.0 for o in tr.combination.orders)


@settings(max_examples=100)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join))
def test_identical_texts_with_effective_order(t):
    tr = explain_bleu(t, [t], effective_order=True)
    if tr.sys_len:   # a text of punctuation-free tokens always has >= 1 token here
        assert math.isclose(tr.score, 100.0, abs_tol=1e-9)


@settings(max_examples=150)
@given(text, refs_st, dialect_st)
def test_corpus_of_one_segment_equals_the_segment(cand, refs, dialect):
    seg = explain_bleu(cand, refs, dialect=dialect)
    cor = explain_bleu_corpus([cand], [refs], dialect=dialect)
    assert cor.score == seg.score and cor.counts == seg.counts and cor.totals == seg.totals
    assert cor.bp == seg.bp and cor.signature == seg.signature
    assert (cor.library_error is None) == (seg.library_error is None)
    assert cor.segment(0).stats == seg.stats
