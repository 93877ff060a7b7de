"""explainer.analysis: the diagnosis's wording (issue 10, defect 7), the BLEU formula terms and the counterfactual
scores, against the real libraries where they run here."""
from __future__ import annotations

import math
import re

import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

from explainer.analysis import counterfactuals as cf
from explainer.analysis.bleu_terms import geometric_mean, log_terms, smoothing_in_use, weighted_sum
from explainer.analysis.diagnosis import diagnose_bleu, diagnose_rouge
from explainer.bleu import dialect_names, explain_bleu, get_dialect
from explainer.examples import EXAMPLES, get_example
from explainer.rouge import explain_rouge

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
# option variations that change what the diagnosis says (smoothing, entry point, effective order)
VARIANTS = [("sacrebleu", {}), ("sacrebleu", {"smooth_method": "none"}), ("sacrebleu", {"smooth_method": "add-k"}),
            ("sacrebleu", {"smooth_method": "floor", "smooth_value": 0.0}), ("sacrebleu", {"api": "sentence_bleu"}),
            ("sacrebleu", {"effective_order": True}), ("nltk", {}), ("nltk", {"smoothing": "method1"}),
            ("hf-evaluate", {}), ("hf-evaluate", {"smooth": True}), ("multi-bleu", {}), ("mteval", {}),
            ("mteval", {"smoothing": False}), ("textbook", {}), ("torchmetrics", {}),
            ("torchmetrics", {"smooth": True}), ("torchmetrics-sacrebleu", {}), ("google-bleu", {}),
            ("google-bleu", {"tokenize": "split", "min_len": 2})]
assert {d for d, _ in VARIANTS} == set(dialect_names())

# words of the libraries' code, issue numbers, internal names: not for the page's reader
JARGON = re.compile(r"compute_bleu|#\d|my_log|geo_mean|float_info|score_bleu|score_multi|--full|\bCLI\b|_backtrack|"
                    r"markLCS|sentence_bleu\(|corpus_score|sys\.|\bnp\.|unicodedata")

TEXTS = [(e.candidate, list(e.references)) for e in EXAMPLES] + [
    ("The bill passed with five votes", ["The bill was approved with 5 votes"]),
    ("party", ["party"]), ("a", ["b"]), ("the cat", ["dog"])]


def _all_findings():
    for cand, refs in TEXTS:
        for dialect, opts in VARIANTS:
            bleu_trace = explain_bleu(cand, refs, dialect=dialect, **opts)
            yield bleu_trace, diagnose_bleu(bleu_trace, alternatives=cf.bleu_other_entry_point(bleu_trace))


def test_no_library_jargon_in_any_finding():
    bad = [(bleu_trace.dialect, bleu_trace.options, f.title, f.text) for bleu_trace, fs in _all_findings() for f in fs
           if JARGON.search(f.title + " " + f.text)]
    assert not bad, bad[:5]
    for cand, refs in TEXTS:
        rouge_trace = explain_rouge(cand, refs, types=TYPES)
        for f in diagnose_rouge(rouge_trace, stemmed=cf.rouge_with_stemming(rouge_trace)):
            assert not JARGON.search(f.title + " " + f.text), f


def test_what_a_finding_says_about_smoothing_and_zero_is_true():
    """No 'without smoothing' while smoothing is on; 'BLEU is 0' only when it is 0 (the textbook dialect floors
    a 0 precision at 1e-10 and scores 0.0014 on cat/mat, not 0)."""
    checked = 0
    for bleu_trace, fs in _all_findings():
        for f in fs:
            if smoothing_in_use(bleu_trace):
                assert "without smoothing" not in f.text.lower() and "no smoothing is set" not in f.text.lower(), \
                    (bleu_trace.dialect, bleu_trace.options, f.text)
            if re.search(r"BLEU( —)? is 0\b(?![.,]\d)", f.text):
                assert bleu_trace.score == 0, (bleu_trace.dialect, bleu_trace.score, f.text)
                checked += 1
    assert checked > 10
    ex = get_example("cat_mat")
    bleu_trace = explain_bleu(ex.candidate, list(ex.references), dialect="textbook")
    z = next(f for f in diagnose_bleu(bleu_trace) if f.code == "zero_matches")
    assert "1e-10" in z.text and "is 0" not in z.text.replace("is 0.", "")


def test_a_paraphrase_names_the_cause_first():
    cand, refs = "The bill passed with five votes", ["The bill was approved with 5 votes"]
    bleu_trace = explain_bleu(cand, refs)
    fs = diagnose_bleu(bleu_trace)
    serious = [f for f in fs if f.level in ("warning", "error")]
    assert serious[0].code == "unmatched_words", [f.code for f in fs]
    text = serious[0].text
    assert "‘passed’" in text and "‘five’" in text and "‘approved’" in text
    assert "synonym" in text and "‘five’ vs ‘5’" in text
    rfs = diagnose_rouge(explain_rouge(cand, refs, types=TYPES))
    assert rfs[0].code == "unmatched_words" and "‘passed’" in rfs[0].text


@pytest.mark.parametrize("dialect", dialect_names())
def test_log_terms_add_up_to_the_libraries_geometric_mean(dialect):
    for e in EXAMPLES:
        bleu_trace = explain_bleu(e.candidate, list(e.references), dialect=dialect)
        terms = log_terms(bleu_trace)
        comb = bleu_trace.combination
        if comb.log_sum is None or not terms or bleu_trace.library_error is not None:
            continue
        if any(t.sentinel is not None for t in terms) or any(t.value == 0 for t in terms):
            assert geometric_mean(bleu_trace) == 0 or geometric_mean(bleu_trace) < 1e-300
            continue
        if weighted_sum(bleu_trace):
            s = sum(t.weight * math.log(t.value) for t in terms)
        else:
            s = sum(math.log(t.value) for t in terms) / comb.effective_order
        # a library that computes in float32 (torchmetrics) adds its terms up to float32 precision (2^-23 per step)
        rel = 1e-6 if getattr(type(get_dialect(dialect)), "arithmetic", "float64") == "float32" else 1e-9
        assert math.exp(s) == pytest.approx(geometric_mean(bleu_trace), rel=rel, abs=1e-300), (dialect, e.id)
        bp = comb.bp
        scale = 100 if bleu_trace.scale == 100 else 1
        assert scale * bp * geometric_mean(bleu_trace) == pytest.approx(bleu_trace.score, rel=rel), e.id


def test_textbook_floor_is_the_value_in_the_log():
    ex = get_example("cat_mat")
    bleu_trace = explain_bleu(ex.candidate, list(ex.references), dialect="textbook")
    assert [t.value for t in log_terms(bleu_trace)][-1] == pytest.approx(1e-10)


# ------------------------------------------------------------------------------------ counterfactuals
def test_other_entry_point_is_real_sacrebleus():
    import sacrebleu

    ex = get_example("cat_sat")
    bleu_trace = explain_bleu(ex.candidate, list(ex.references), dialect="sacrebleu", smooth_method="none")
    alt = cf.bleu_other_entry_point(bleu_trace)
    (label, value), = alt.items()
    assert "sentence_bleu" in label
    real = sacrebleu.sentence_bleu(ex.candidate, list(ex.references), smooth_method="none").score
    assert value == pytest.approx(real, abs=1e-9)
    assert cf.bleu_other_entry_point(explain_bleu(ex.candidate, list(ex.references), dialect="nltk")) == {}


def test_zh_tokenizer_score_is_real_sacrebleus_and_shown():
    cand, refs = "北京是中国的首都", ["北京是中国的首都。"]
    bleu_trace = explain_bleu(cand, refs)
    scores = cf.bleu_with_tokenizers(bleu_trace)
    assert scores["zh"] == pytest.approx(BLEU(tokenize="zh").corpus_score([cand], [refs]).score, abs=1e-9)
    assert scores["char"] == pytest.approx(BLEU(tokenize="char").corpus_score([cand], [refs]).score, abs=1e-9)
    f = next(x for x in diagnose_bleu(bleu_trace, tokenizer_scores=scores) if x.code == "no_spaces")
    assert f"{scores['zh']:.4g} (zh)" in f.text


def test_stemmed_scores_are_real_rouge_scores():
    ex = get_example("stem_took")
    rouge_trace = explain_rouge(ex.candidate, list(ex.references), types=TYPES)
    stemmed = cf.rouge_with_stemming(rouge_trace)
    real = rouge_scorer.RougeScorer(list(TYPES), use_stemmer=True).score_multi(list(ex.references), ex.candidate)
    for t in TYPES:
        assert stemmed[t].fmeasure == pytest.approx(real[t].fmeasure, abs=1e-9)
    assert cf.rouge_with_stemming(explain_rouge(ex.candidate, list(ex.references), use_stemmer=True)) is None
