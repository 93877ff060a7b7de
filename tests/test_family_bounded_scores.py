"""``MetricFamily.bounded_scores``: the scores of one segment, or None when they would take more than about the
given CPU time — what lets the Gaming lab's sweeps and optimizer score every family and stop between two scores.
Every registered family returns its ``scores`` on ordinary texts; TER (whose shift search grows steeply with the
words out of order) gives up on a long shuffled text within the bound, and equals sacreBLEU's TER otherwise."""
from __future__ import annotations

import random
import time

import pytest
from sacrebleu.metrics import TER

from explainer.families import FAMILIES

WORDS = "the storm cut power to thousands of homes , and closed several major roads in the north of the country".split()


@pytest.mark.parametrize("name", list(FAMILIES))
def test_bounded_scores_equal_scores_on_ordinary_texts(name):
    fam = FAMILIES[name]
    d = fam.bind()
    cand, refs = "the storm cut power to many homes", [" ".join(WORDS), "power was cut to homes by the storm"]
    assert fam.bounded_scores(d, cand, refs, seconds=5.0) == fam.scores(d, cand, refs)


def test_ter_bounded_scores_are_sacrebleus_ter():
    """Random shuffles and cuts of a sentence, with several TER options: the recorded search gives sacreBLEU's
    numbers (the real package, computed here)."""
    ter = FAMILIES["ter"]
    rng = random.Random(1)
    for opts, kw in (({}, {}), ({"normalized": True}, {"normalized": True}),
                     ({"case_sensitive": True}, {"case_sensitive": True}), ({"no_punct": True}, {"no_punct": True})):
        d = ter.bind(**opts)
        real = TER(**kw)
        for _ in range(25):
            w = WORDS[:rng.randint(0, len(WORDS))]
            rng.shuffle(w)
            cand, refs = " ".join(w), [" ".join(WORDS), " ".join(WORDS[::-1][:10])]
            got = ter.bounded_scores(d, cand, refs, seconds=10.0)
            assert got is not None and got["score"] == pytest.approx(real.sentence_score(cand, refs).score,
                                                                      abs=1e-9), (opts, cand)


def test_ter_gives_up_on_a_long_shuffled_text_within_the_bound():
    """sacreBLEU's own TER takes many seconds on 60 shuffled words; the bounded score returns None after about the
    CPU time it was given (a busy machine: the bound is in work units calibrated on CPU time, checked here on the
    process's CPU time with room for the tokenizing around the search)."""
    ter = FAMILIES["ter"]
    w = WORDS * 3
    random.Random(0).shuffle(w)
    t0 = time.process_time()
    assert ter.bounded_scores(ter.bind(), " ".join(w), [" ".join(WORDS * 3)], seconds=0.1) is None
    assert time.process_time() - t0 < 0.5


def test_semantic_counts_its_word_pieces_before_the_model_runs():
    """The semantic family's model costs by its word pieces (attention grows with the length): a long text over the
    bound is refused before the model runs; a short one is scored (and its scores are ``scores``)."""
    if "semantic" not in FAMILIES:
        pytest.skip("the semantic family is not registered")
    sem = FAMILIES["semantic"]
    d = sem.bind()
    long = " ".join(f"word{i} of a long paragraph about the storm" for i in range(120))
    t0 = time.process_time()
    assert sem.bounded_scores(d, long, ["the storm cut power"], seconds=0.1) is None
    assert time.process_time() - t0 < 0.5
    short = ("the storm cut power", ["power was cut by the storm"])
    assert sem.bounded_scores(d, *short, seconds=0.1) == sem.scores(d, *short)
