"""The opt-in ``whitespace`` ROUGE tokenizer (``text.split()``, case and punctuation kept) equals rouge-score's own
``RougeScorer`` given a tokenizer object that splits on whitespace (``RougeScorer(tokenizer=...)``), with and
without NLTK's Porter stemmer applied as rouge-score applies it; and it explains the Colab tutorial's ROUGE numbers
for the "Abandon all hope" example."""
from __future__ import annotations

import math
import random

import pytest
from nltk.stem import porter
from rouge_score import rouge_scorer

from explainer.examples import get_example
from explainer.rouge import explain_rouge, score_rouge

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
VOCAB = ["the", "The", "cat", "Cats", "sat", "on", "mat.", ",", ".", "running", "Running", "café", "e-mail",
         "abandon", "Abandon", "hope", "!", "Party", "party", "x"]


class SplitTokenizer:
    """What a user hands rouge-score: an object with ``tokenize``."""

    def __init__(self, stem: bool = False):
        self.stemmer = porter.PorterStemmer() if stem else None

    def tokenize(self, text):
        toks = text.split()
        if self.stemmer is not None:      # rouge-score's rule: stem tokens longer than 3 characters
            toks = [self.stemmer.stem(t) if len(t) > 3 else t for t in toks]
        return toks


def _text(rng):
    words = [rng.choice(VOCAB) for _ in range(rng.randint(0, 9))]
    out = ""
    for w in words:
        out += w + rng.choice([" ", " ", "  ", "\n", "\t"])
    return out


@pytest.mark.parametrize("stem", [False, True])
def test_equals_rouge_score_with_a_whitespace_tokenizer_object(stem):
    scorer = rouge_scorer.RougeScorer(TYPES, tokenizer=SplitTokenizer(stem))
    rng = random.Random(7 + stem)
    n = 0
    for _ in range(150):
        cand, refs = _text(rng), [_text(rng) for _ in range(rng.randint(1, 3))]
        want = scorer.score_multi(refs, cand)
        for fn in (explain_rouge, score_rouge):
            got = fn(cand, refs, tokenizer="whitespace", use_stemmer=stem, types=TYPES)
            scores = got.scores if hasattr(got, "scores") else got
            for t in TYPES:
                for m in ("precision", "recall", "fmeasure"):
                    assert math.isclose(getattr(scores[t], m), getattr(want[t], m), rel_tol=1e-9, abs_tol=1e-12), \
                        (cand, refs, t, m)
        n += 1
    assert n == 150


def test_tokens_keep_case_and_punctuation_and_are_located():
    tr = explain_rouge("Abandon all hope , ye\nwho", ["all hope"], tokenizer="whitespace")
    tt = tr.candidate.tokenized
    assert tt.surface == ["Abandon", "all", "hope", ",", "ye", "who"]
    assert [(s.start, s.end) for s in tt.spans][:4] == [(0, 7), (8, 11), (12, 16), (17, 18)]
    assert tt.dropped == [] and tt.message is None
    assert "case and punctuation kept" in tr.tokenizer


def test_the_colab_rouge_numbers_come_from_case_keeping_whitespace_tokens_and_the_first_reference():
    e = get_example("abandon_hope")
    tr = explain_rouge(e.candidate, list(e.references), tokenizer="whitespace")
    real = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=SplitTokenizer()).score(
        e.references[0], e.candidate)
    for t, shown in (("rouge1", "0.750"), ("rouge2", "0.571"), ("rougeL", "0.750")):
        s = tr.scores[t]
        assert f"{s.fmeasure:.3f}" == f"{s.precision:.3f}" == f"{s.recall:.3f}" == shown, t
        assert tr.chosen_reference[t] == 0 and s.fmeasure == real[t].fmeasure
    # the library default (lowercase, punctuation dropped) gives other numbers
    d = explain_rouge(e.candidate, list(e.references))
    assert [f"{d.scores[t].fmeasure:.3f}" for t in ("rouge1", "rouge2", "rougeL")] == ["1.000", "0.667", "0.857"]
