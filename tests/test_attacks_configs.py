"""The gaming lab takes its options in the registry's vocabulary (the dialects' own OptionSpecs, as the CLI,
permalinks and widgets do): unknown or inapplicable values are errors, never a silent switch of dialect."""
from __future__ import annotations

import pytest

from explainer.attacks import verify
from explainer.attacks.configs import CORPUS_BLEU, ROUGE_SCORE, SENTENCE_BLEU, BleuConfig, RougeConfig
from explainer.attacks.scoring import bleu_tokens, sacrebleu_metric, score, score_corpus
from explainer.bleu import dialect_names as bleu_dialects
from explainer.bleu import get_dialect as bleu_dialect
from explainer.bleu import score_bleu
from explainer.rouge import dialect_names as rouge_dialects
from explainer.rouge import get_dialect as rouge_dialect
from explainer.rouge import score_rouge

TOL = 1e-9
CAND = "the cat sat on the mat today"
REFS = ["the cat sat on the mat", "a cat was sitting on the mat all day long"]


def _message(call) -> str:
    with pytest.raises(ValueError) as exc:
        call()
    return str(exc.value)


@pytest.mark.parametrize("call", [
    lambda: BleuConfig("sacrebleu", ref_length="shortest"),     # the old lab's own word: no such option
    lambda: BleuConfig("sacrebleu", api="sentence"),            # the old lab's value: the dialect says sentence_bleu
    lambda: BleuConfig("sacrebleu", tokenize="moses"),
    lambda: BleuConfig("nltk", tokenize="13a"),                 # an option of another dialect
    lambda: BleuConfig("bleurt"),
    lambda: RougeConfig("rouge155", multi_ref="best-f"),        # rouge-score's rule, not ROUGE-1.5.5's
    lambda: RougeConfig("rouge-score", dialect="rouge155"),
])
def test_unknown_or_inapplicable_values_are_errors_with_the_registrys_message(call):
    msg = _message(call)
    assert msg  # and the same words the CLI prints (the registry's):
    if "ref_length" in msg:
        assert msg == _message(lambda: bleu_dialect("sacrebleu", ref_length="shortest"))
        assert "tokenize" in msg   # lists the options the dialect has


def test_nltk_input_applies_to_nltk_only():
    assert "nltk dialect only" in _message(lambda: BleuConfig("sacrebleu", nltk_input="string"))
    assert "nltk_input" in _message(lambda: BleuConfig("nltk", nltk_input="chars"))
    assert BleuConfig("nltk", nltk_input="string").nltk_input == "string"
    assert BleuConfig("nltk", nltk_input="tokens") == BleuConfig("nltk")


def test_values_as_strings_are_coerced_by_the_option_specs():
    a = BleuConfig("sacrebleu", lowercase="true", smooth_method="floor", smooth_value="0.5", max_ngram_order="3")
    b = BleuConfig("sacrebleu", lowercase=True, smooth_method="floor", smooth_value=0.5, max_ngram_order=3)
    assert a == b and hash(a) == hash(b)
    assert RougeConfig("rouge-score", use_stemmer="yes") == RougeConfig("rouge-score", use_stemmer=True)
    assert BleuConfig("nltk", weights="0.5,0.5").get("weights") == (0.5, 0.5)


def test_defaults_are_canonical_and_configs_immutable():
    assert BleuConfig("sacrebleu", tokenize="13a", api="corpus_bleu") == CORPUS_BLEU == BleuConfig()
    assert CORPUS_BLEU.given == {} and SENTENCE_BLEU.given == {"api": "sentence_bleu"}
    assert SENTENCE_BLEU.get("effective_order") is True and CORPUS_BLEU.get("effective_order") is False
    assert RougeConfig() == ROUGE_SCORE
    with pytest.raises(AttributeError):
        SENTENCE_BLEU.dialect = "nltk"
    assert SENTENCE_BLEU.with_options(tokenize="intl").given == {"api": "sentence_bleu", "tokenize": "intl"}
    assert SENTENCE_BLEU.describe() == "sacrebleu api=sentence_bleu"


@pytest.mark.parametrize("name", bleu_dialects())
def test_every_bleu_dialect_of_the_registry_scores_as_the_core(name):
    config = BleuConfig(name)
    got = score(CAND, REFS, config)
    st = score_bleu(CAND, REFS, dialect=name)
    assert got["bleu"] == pytest.approx(float(st.score) * 100 / config.scale, abs=TOL)
    assert got.bleu_counts == list(st.counts) and got.bleu_totals == list(st.totals)
    assert bleu_tokens(CAND, config) == bleu_dialect(name).tokenize(CAND)


@pytest.mark.parametrize("name", rouge_dialects())
def test_every_rouge_dialect_of_the_registry_scores_as_the_core(name):
    if not {"N", "L", "Lsum"} <= rouge_dialect(name).supported_kinds:
        assert _message(lambda: RougeConfig(name))    # the lab's types are not all the dialect's
        return
    got = score(CAND, REFS, SENTENCE_BLEU, RougeConfig(name))
    ref = score_rouge(CAND, REFS, dialect=name, types=["rouge1", "rouge2", "rougeL", "rougeLsum"])
    for t, s in ref.items():
        assert got[f"{t}_f"] == pytest.approx(s.fmeasure, abs=TOL)


def test_options_through_the_config_change_the_number_as_on_the_cli():
    cfg = RougeConfig("rouge155", multi_ref="best-recall", use_stemmer=True)
    ref = score_rouge(CAND, REFS, dialect="rouge155", types=["rouge1", "rouge2", "rougeL", "rougeLsum"],
                      multi_ref="best-recall", use_stemmer=True)
    assert score(CAND, REFS, rouge=cfg)["rouge1_r"] == pytest.approx(ref["rouge1"].recall, abs=TOL)
    nl = BleuConfig("nltk", smoothing="method1", weights=(0.5, 0.5))
    st = score_bleu(CAND, REFS, dialect="nltk", smoothing="method1", weights=(0.5, 0.5))
    assert score(CAND, REFS, nl)["bleu"] == pytest.approx(100 * st.score, abs=TOL)


def test_sacrebleu_only_paths_refuse_other_dialects():
    assert "no sacreBLEU" in _message(lambda: sacrebleu_metric(BleuConfig("hf-evaluate")))
    assert _message(lambda: score_corpus([CAND], [REFS], BleuConfig("nltk")))
    assert _message(lambda: score_corpus([CAND], [REFS], SENTENCE_BLEU))   # corpus BLEU needs corpus_bleu
    assert _message(lambda: verify.real_scores(CAND, REFS, BleuConfig("hf-evaluate")))
    m = sacrebleu_metric(SENTENCE_BLEU.with_options(tokenize="char", lowercase=True))
    assert (m.tokenizer.signature(), m.lowercase, m.effective_order) == ("char", True, True)
