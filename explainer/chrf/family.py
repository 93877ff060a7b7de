"""chrF / chrF++ as a metric family (``explainer.family``): one number, the dialect's chrF on its own scale."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from explainer.family import CorpusScores, Measure, MeasureScores, MetricFamily

__all__ = ["CHRF", "ChrfFamily"]


class ChrfFamily(MetricFamily):
    name = "chrf"
    label = "chrF"
    description = "character n-gram F-score (Popović, 2015); chrF++ adds word n-grams"
    reads = "n-gram"
    registry_path = "explainer.chrf.registry:DIALECTS"
    default_dialect = "sacrebleu"

    def measures(self, d) -> tuple[Measure, ...]:
        # the library's own name for the configuration: chrF2, chrF2++, NLTK's chrF
        return (Measure("score", d.metric_name, float(d.scale), True, 1 if d.scale == 100 else 3),)

    def explain(self, d, candidate, references):
        from explainer.chrf.algorithm import explain_segment

        return explain_segment(d, candidate, list(references))

    def trace_scores(self, trace) -> dict[str, float]:
        return {"score": float(trace.score)}

    def scores(self, d, candidate, references) -> dict[str, float]:
        from explainer.chrf.algorithm import score_segment

        return {"score": float(score_segment(d, candidate, list(references)).score)}

    def traps(self, d, candidates, references, *, corpus: bool = True) -> list:
        from explainer.chrf.traps import chrf_traps

        return chrf_traps(candidates, references, d, corpus=corpus)

    def signature(self, d, n_refs: int = 1) -> str:
        return d.signature(n_refs)

    def max_trace_chars(self, d) -> int:
        from explainer.chrf.algorithm import MAX_TRACE_CHARS

        return MAX_TRACE_CHARS

    def segment_score_name(self, d) -> str:
        return f"the segment's own {self.main_measure(d).label} ({d.short_label or d.name})"

    def corpus(self, d, candidates: Sequence[str], references: Sequence[Sequence[str]], *,
               progress: Callable[[float, str], None] | None = None) -> CorpusScores:
        from explainer.chrf.algorithm import explain_corpus, prepare_references
        from explainer.chrf.statistic import chrf_statistic
        from explainer.gcpause import gc_paused

        tick = progress or (lambda f, msg: None)
        with gc_paused():
            prepared = [prepare_references(d, rs)[0] for rs in references]
        tick(0.5, "references prepared")
        tr = explain_corpus(d, candidates, references, prepared=prepared)
        m = self.main_measure(d)
        sent = np.asarray(tr.segment_scores(d), dtype=np.float64)
        return CorpusScores(self.name, tr.signature,
                            {m.key: MeasureScores(m, float(tr.score), sent, chrf_statistic(d, tr.segment_stats,
                                                                                         tr.score))},
                            self.segment_score_name(d))


CHRF = ChrfFamily()
