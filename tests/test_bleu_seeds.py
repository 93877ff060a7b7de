"""The worked examples of the course material with each dialect's true value.

True values come from the course examples' vectors (tests/data/seeds/bleu.jsonl.gz: records of the real
sacrebleu / NLTK / HF evaluate runs, checked with the same per-record checks as the golden files), from the real
packages run here, and for the textbook dialect from the chapter's own code (its recorded outputs,
tests/chapter.py)."""
from __future__ import annotations

import math
from collections import Counter

import pytest
from sacrebleu.metrics import BLEU

from explainer.bleu import explain_bleu, score_bleu
from tests.chapter import chapter_functions
from tests.conftest import seed_vectors
from tests.test_bleu_golden import check_hf_record, check_nltk_record, check_sacrebleu_record


@pytest.fixture(scope="module")
def records():
    return seed_vectors("bleu.jsonl")


@pytest.fixture(scope="module")
def chapter():
    return chapter_functions()


def _case(records, case_id):
    r = next(r for r in records if r["case_id"] == case_id)
    return r["candidate"], r["references"]


def test_seed_vectors_all_records(records):
    checked = {"sacrebleu": Counter(), "nltk": Counter(), "hf": Counter()}
    for rec in records:
        impl = rec["implementation"]
        if impl == "sacrebleu":
            check_sacrebleu_record(rec, checked["sacrebleu"])
        elif impl == "nltk":
            check_nltk_record(rec, checked["nltk"])
        elif impl == "hf_evaluate_bleu":
            check_hf_record(rec, checked["hf"])
    assert sum(checked["sacrebleu"].values()) - checked["sacrebleu"]["tokenized"] == 14 * 17
    assert sum(checked["nltk"].values()) == 14 * 10 and checked["nltk"]["error"] == 7
    assert checked["hf"]["segment"] + checked["hf"]["error"] == 14 * 4


def test_textbook_dialect_equals_the_chapters_code_on_every_seed_case(records, chapter):
    cases = {r["case_id"]: (r["candidate"], r["references"]) for r in records if r["level"] == "segment"}
    assert len(cases) == 14
    for cid, (cand, refs) in cases.items():
        want = chapter["bleu_score"](cand, refs)
        got = explain_bleu(cand, refs, dialect="textbook")
        assert math.isclose(got.score, want["bleu"], rel_tol=1e-12, abs_tol=1e-15), cid
        assert got.bp == want["brevity_penalty"] and got.precisions == pytest.approx(want["precisions"], abs=1e-15)
        assert math.isclose(got.combination.geo_mean, want["geometric_mean"], rel_tol=1e-12)


def test_s000_a_modified_precision_2_of_7_needs_lowercasing(records, chapter):
    cand, refs = _case(records, "s000_the_x7")
    lc = explain_bleu(cand, refs, lowercase=True)
    mixed = explain_bleu(cand, refs)
    want_lc = BLEU(lowercase=True).corpus_score([cand], [[r] for r in refs])
    want = BLEU().corpus_score([cand], [[r] for r in refs])
    assert (lc.counts[0], lc.totals[0]) == (want_lc.counts[0], want_lc.totals[0]) == (2, 7)
    assert (mixed.counts[0], mixed.totals[0]) == (want.counts[0], want.totals[0]) == (1, 7)
    # the chapter's own modified_precision lowercases: 2/7, and the textbook dialect agrees
    assert explain_bleu(cand, refs, dialect="textbook").precisions[0] == chapter["modified_precision"](cand, refs, 1)
    # the entry for "the" records the reference attaining the max and the clipped count
    the = next(e for e in lc.ngrams[0].entries if e.ngram == ("the",))
    per_ref = [BLEU(lowercase=True)._preprocess_segment(r).split().count("the") for r in refs]
    assert list(the.ref_counts) == per_ref and the.max_ref_count == max(per_ref) == 2
    assert the.max_refs == [k for k, x in enumerate(per_ref) if x == 2] and the.cand_count == 7 and the.clipped == 2


def test_s000_i_exercise_party_brevity_penalty(records, chapter):
    cand, refs = _case(records, "s000_exercise1_party")
    want = chapter["brevity_penalty"](1, 5)
    for dialect in ("sacrebleu", "nltk", "hf-evaluate", "textbook"):
        tr = explain_bleu(cand, refs, dialect=dialect)
        assert (tr.sys_len, tr.ref_len) == (1, 5)
        assert math.isclose(tr.bp, want, rel_tol=1e-15), dialect
        assert tr.combination.bp_branch in ("c < r", "c ≤ r", "ratio ≤ 1"), tr.combination.bp_branch


def test_s004_e_bleu1(records):
    cand, refs = _case(records, "s004_cat_is_on")
    want = BLEU(max_ngram_order=1).corpus_score([cand], [[r] for r in refs])
    got = explain_bleu(cand, refs, max_ngram_order=1)
    assert math.isclose(got.score, want.score, abs_tol=1e-9) and got.counts == want.counts
    from nltk.translate.bleu_score import sentence_bleu
    n = sentence_bleu([r.split() for r in refs], cand.split(), weights=(1,))
    assert math.isclose(explain_bleu(cand, refs, dialect="nltk", weights=[1]).score, n, abs_tol=1e-12)


def test_s001_d_identical_texts_score_the_maximum(records):
    cand, refs = _case(records, "s001_identical")
    assert explain_bleu(cand, refs).score == BLEU().corpus_score([cand], [refs]).score
    for dialect in ("nltk", "hf-evaluate", "textbook"):
        assert math.isclose(score_bleu(cand, refs, dialect=dialect).bleu, 1.0, abs_tol=1e-12)


def test_s003_a_reference_length_choice_is_explained(records):
    cand, refs = _case(records, "s003_abandon_4refs")
    tr = explain_bleu(cand, refs)
    want = BLEU().corpus_score([cand], [[r] for r in refs])
    assert tr.ref_len == want.ref_len
    assert tr.ref_length.rule == "closest" and tr.ref_length.chosen
    hf = explain_bleu(cand, refs, dialect="hf-evaluate")
    assert hf.ref_length.rule == "shortest" and hf.ref_len == min(len(r.tokens) for r in hf.references)
