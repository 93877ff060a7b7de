"""TER as a metric family (explainer/ter/family.py, the seam of explainer/family.py): its numbers are sacreBLEU's TER
(computed here), its statistic is the one the paired tests resample, and its measure is lower-is-better."""
from __future__ import annotations

import pytest
from sacrebleu.metrics import TER as SacreTER

from explainer.corpus.samples import HERE, SAMPLES
from explainer.family import MetricFamily, verdict
from explainer.ter.family import TER


def _sample():
    d = HERE / "news-en"
    read = lambda f: (d / f).read_text(encoding="utf-8").rstrip("\n").split("\n")   # noqa: E731
    return [read(f) for f in SAMPLES["news-en"].systems], [read(f) for f in SAMPLES["news-en"].references]


def test_the_family_object():
    assert isinstance(TER, MetricFamily) and TER.name == "ter" and TER.label == "TER" and TER.reads == "edit"
    assert TER.dialect_names() == ["sacrebleu"]
    d = TER.bind(normalized=True)
    (m,) = TER.measures(d)
    assert (m.key, m.label, m.scale, m.higher_is_better) == ("score", "TER", 100.0, False)
    # lower is better: an attack with a lower TER than the honest text fooled the metric
    assert verdict(m, honest=40.0, attack=30.0) == "fooled" and verdict(m, honest=30.0, attack=40.0) == "resisted"
    assert TER.max_trace_chars(d) > 0
    assert TER.signature(d, 2) == d.signature(2)


def test_segment_scores_and_trace():
    h, refs = "the cat sat on the mat", ["on the mat the cat sat", "a cat sat on a mat"]
    d = TER.bind()
    want = SacreTER().sentence_score(h, refs).score
    assert TER.scores(d, h, refs) == {"score": want} == TER.trace_scores(TER.explain(d, h, refs))


@pytest.mark.parametrize("opts", [{}, {"no_punct": True, "case_sensitive": True}])
def test_corpus_scores_are_sacrebleus(opts):
    systems, streams = _sample()
    hyps = systems[0][:120]
    streams = [s[:120] for s in streams]
    per_seg = [list(x) for x in zip(*streams)]
    d = TER.bind(**opts)
    res = TER.corpus(d, hyps, per_seg)
    ms = res.measures["score"]
    m = SacreTER(**opts)
    assert ms.score == m.corpus_score(hyps, streams).score and res.signature == m.get_signature().format()
    assert ms.segment_scores.tolist()[:15] == [SacreTER(**opts).sentence_score(a, b).score
                                              for a, b in zip(hyps[:15], per_seg[:15])]
    assert ms.statistic is not None and ms.statistic.stats.shape == (120, 2) and ms.statistic.score == ms.score
    assert not ms.no_tests
