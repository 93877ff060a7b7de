"""Defined behaviour for degenerate input, per dialect. The explainer never raises for what the real library
fails on: it records ``library_error`` ("the real library fails here because ..."). Expected exception classes
come from running sacreBLEU / NLTK here, from the chapter's code's recorded outputs (tests/chapter.py) and from
the golden HF records."""
from __future__ import annotations

import warnings

import pytest
from nltk.translate import bleu_score as nb
from sacrebleu.metrics import BLEU

from explainer.bleu import explain_bleu, explain_bleu_corpus, score_bleu, score_bleu_corpus
from explainer.errors import ExplainerInputError
from tests.chapter import chapter_functions
from tests.conftest import golden

INPUTS = {
    "empty_candidate": ("", ["the cat sat"]),
    "whitespace_candidate": (" \t ", ["the cat sat"]),
    "empty_reference": ("the cat", [""]),
    "whitespace_reference": ("the cat", ["   "]),
    "no_references": ("the cat sat", []),
    "empty_everything": ("", [""]),
    "shorter_than_n": ("cat sat", ["the cat sat on the mat"]),
    "one_token": ("cat", ["cat"]),
}


def _real(dialect, cand, refs):
    """Exception class name the real implementation raises, or None."""
    e = _real_exc(dialect, cand, refs)
    return None if e is None else type(e).__name__


def _real_exc(dialect, cand, refs):
    """The exception the real implementation raises, or None."""
    try:
        if dialect == "sacrebleu":
            BLEU().corpus_score([cand], [[r] for r in refs])
        elif dialect == "nltk":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                nb.sentence_bleu([r.split() for r in refs], cand.split())
        elif dialect == "textbook":
            chapter_functions()["bleu_score"](cand, refs)
    except Exception as e:  # noqa: BLE001
        return e
    return None


@pytest.mark.parametrize("name", list(INPUTS))
@pytest.mark.parametrize("dialect", ["sacrebleu", "nltk", "textbook"])
def test_degenerate_inputs_match_the_real_library(dialect, name):
    cand, refs = INPUTS[name]
    want = _real(dialect, cand, refs)
    for got in (explain_bleu(cand, refs, dialect=dialect), score_bleu(cand, refs, dialect=dialect)):
        if want is None:
            assert got.library_error is None, (dialect, name, got.library_error)
        else:
            assert got.library_error is not None and got.library_error.type == want, (dialect, name)
            assert got.library_error.message == str(_real_exc(dialect, cand, refs)), (dialect, name)
            assert got.library_error.explanation.startswith("the real library fails here because")
        assert 0.0 <= got.bleu <= 1.0


def test_hf_degenerate_inputs_match_golden_records():
    recs = {(r["case_id"], r["options"]["max_order"], r["options"]["smooth"]): r
            for r in golden("bleu/hf_evaluate.jsonl") if r["level"] == "segment"}
    seen = 0
    for cid in ("empty_cand", "empty_ref", "no_refs"):
        for mo in (2, 4):
            for sm in (False, True):
                rec = recs[(cid, mo, sm)]
                got = explain_bleu(rec["candidate"], rec["references"], dialect="hf-evaluate", max_order=mo, smooth=sm)
                assert rec["status"] == "error"
                assert got.library_error.type == rec["error"].split(":")[0]
                assert f"{got.library_error.type}: {got.library_error.message}" == rec["error"], (cid, mo, sm)
                assert got.library_error.explanation.startswith("the real library fails here because")
                seen += 1
    assert seen == 12


def test_sentence_bleu_warning_is_recorded():
    tr = explain_bleu("a b c d e", ["a b c d e"], api="sentence_bleu", effective_order=False)
    assert any("effective_order" in w.message for w in tr.warnings)
    assert not explain_bleu("a b c d e", ["a b c d e"], api="sentence_bleu").warnings


def test_nltk_zero_count_warnings_are_recorded():
    tr = explain_bleu("the cat", ["the dog"], dialect="nltk")
    assert [w.category for w in tr.warnings] == ["UserWarning"] * 3
    assert tr.score > 0 and tr.score < 1e-100   # tiny, not 0, as NLTK returns it


def test_sacrebleu_corpus_segment_without_reference():
    """sacreBLEU fails (TypeError) on a segment whose reference streams all hold None, unless its candidate
    is empty, where it silently adds r = -1; the explainer reproduces both and says so."""
    hyps, refs = ["a b", "c"], [["a b"], []]
    with pytest.raises(TypeError):
        BLEU().corpus_score(hyps, [["a b", None]])
    assert score_bleu_corpus(hyps, refs).library_error.type == "TypeError"
    # the library reports no number, so neither does the explainer, although these statistics would combine
    # into a non-zero one (kept in extra, labelled)
    hyps4, refs4 = ["a b c d", "a b c d e"], [["a b c d"], []]
    with pytest.raises(TypeError):
        BLEU().corpus_score(hyps4, [["a b c d", None]])
    st = score_bleu_corpus(hyps4, refs4)
    assert (st.score, st.bleu, st.library_error.type) == (0.0, 0.0, "TypeError")
    for got in (explain_bleu_corpus(hyps4, refs4), explain_bleu_corpus(hyps4, refs4, full=True)):
        assert (got.score, got.bleu, got.library_error.type) == (0.0, 0.0, "TypeError")
        assert got.combination.extra["score_had_it_not_failed"] > 0
    hyps = ["a b", ""]
    want = BLEU().corpus_score(hyps, [["a b c", None]])
    got = score_bleu_corpus(hyps, [["a b c"], []])
    assert got.library_error is None and got.ref_len == want.ref_len and got.score == want.score
    assert any("-1" in w.message for w in got.warnings)


def test_many_tokenized_periods_warning():
    hyps = [f"sentence number {i} ." for i in range(100)]
    refs = [[h] for h in hyps]
    assert len(score_bleu_corpus(hyps, refs).warnings) == 3
    assert not score_bleu_corpus(hyps, refs, force=True).warnings
    assert not score_bleu_corpus(hyps[:99], refs[:99]).warnings


def test_corpus_streams_of_different_lengths_are_an_error_not_truncated():
    with pytest.raises(ExplainerInputError, match="3 candidate"):
        explain_bleu_corpus(["a", "b", "c"], [["a"], ["b"]])
    with pytest.raises(ExplainerInputError):
        score_bleu_corpus(["a"], [["a"], ["b"]])
    # sacreBLEU itself silently truncates to the shortest
    assert BLEU().corpus_score(["a", "b", "c"], [["a", "b"]]).sys_len == 2


def test_odd_unicode_is_fine():
    tr = explain_bleu("ＡＢＣ\u200b İstanbul ﬁ e\u0301", ["abc İstanbul fi é"], lowercase=True)
    assert tr.sys_len == len(BLEU(lowercase=True)._preprocess_segment("ＡＢＣ\u200b İstanbul ﬁ e\u0301").split())


@pytest.mark.parametrize("dialect", ["sacrebleu", "nltk", "hf-evaluate", "multi-bleu", "mteval", "textbook"])
def test_empty_corpus_is_recorded_in_every_dialect(dialect):
    """An empty corpus is never scored silently: every dialect records what its library does with it (NLTK's
    corpus_bleu([], []) raises ZeroDivisionError: Fraction(0, 0); the explainer used to return 0 without a
    library_error). sacreBLEU and NLTK are compared with the real packages."""
    real = None
    if dialect == "sacrebleu":
        with pytest.raises(Exception) as e:
            BLEU().corpus_score([], [[]])
        real = e.value
    elif dialect == "nltk":
        with pytest.raises(Exception) as e:
            nb.corpus_bleu([], [])
        real = e.value
    want = {"hf-evaluate": ("IndexError", "list index out of range"), "multi-bleu": ("NotExpressible", None),
            "mteval": ("NotExpressible", None), "textbook": ("NotExpressible", None)}.get(dialect)
    if real is not None:
        want = (type(real).__name__, str(real))
    for got in (explain_bleu_corpus([], [], dialect=dialect), explain_bleu_corpus([], [], dialect=dialect, full=True),
                score_bleu_corpus([], [], dialect=dialect)):
        e = got.library_error
        assert e is not None, dialect
        assert e.type == want[0] and (want[1] is None or e.message == want[1]), (dialect, e)
        assert e.explanation
        assert got.score == 0 and got.bleu == 0
    d = explain_bleu_corpus([], [], dialect=dialect).to_dict(full=True)
    assert d["segments"] == [] and d["library_error"]["type"] == want[0]


def test_bootstrap_of_an_empty_corpus_is_an_input_error():
    from explainer.bleu import bootstrap_bleu_corpus

    with pytest.raises(ExplainerInputError, match="corpus is empty"):
        bootstrap_bleu_corpus([], [])
