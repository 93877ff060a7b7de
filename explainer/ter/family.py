"""TER as a metric family (``explainer.family``): one number, sacreBLEU's TER (0-100 and more), lower is better."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from explainer.family import CorpusScores, Measure, MeasureScores, MetricFamily

__all__ = ["TER", "TerFamily"]


class TerFamily(MetricFamily):
    name = "ter"
    label = "TER"
    description = ("translation edit rate (Snover et al., 2006): word edits and block shifts per reference word; "
                   "an error rate, lower is better")
    reads = "edit"
    registry_path = "explainer.ter.registry:DIALECTS"
    default_dialect = "sacrebleu"
    claim_names = r"\b(?:h?ter|translation edit rate)\b"

    def measures(self, d) -> tuple[Measure, ...]:
        return (Measure("score", d.metric_name, float(d.scale), not d.lower_is_better, 1),)

    def explain(self, d, candidate, references):
        from explainer.ter.algorithm import explain_segment

        return explain_segment(d, candidate, list(references))

    def trace_scores(self, trace) -> dict[str, float]:
        return {"score": float(trace.score)}

    def scores(self, d, candidate, references) -> dict[str, float]:
        from explainer.ter.algorithm import score_segment

        return {"score": float(score_segment(d, candidate, list(references)).score)}

    def bounded_scores(self, d, candidate, references, *, seconds: float) -> dict[str, float] | None:
        # the recorded shift search counts its work (explainer.ter.limits.WORK_PER_SECOND units ~ 1 s of CPU)
        from explainer.ter.algorithm import bounded_segment_stats
        from explainer.ter.limits import WORK_PER_SECOND

        stats = bounded_segment_stats(d, candidate, list(references), max(1, int(seconds * WORK_PER_SECOND)))
        return None if stats is None else {"score": float(d.combine(stats).score)}

    def signature(self, d, n_refs: int = 1) -> str:
        return d.signature(n_refs)

    def max_trace_chars(self, d) -> int:
        from explainer.ter.limits import MAX_TRACE_CHARS

        return MAX_TRACE_CHARS

    def segment_score_name(self, d) -> str:
        return f"the segment's own TER ({d.short_label or d.name} sentence_score)"

    def corpus(self, d, candidates: Sequence[str], references: Sequence[Sequence[str]], *,
               progress: Callable[[float, str], None] | None = None) -> CorpusScores:
        from explainer.ter.algorithm import score_corpus
        from explainer.ter.stats import ter_statistic

        tick = progress or (lambda f, msg: None)
        st = score_corpus(d, candidates, references)
        tick(1.0, f"{len(st.segment_stats):,} segments")
        m = self.main_measure(d)
        sent = np.asarray([d.combine(s).score for s in st.segment_stats], dtype=np.float64)
        return CorpusScores(self.name, st.signature,
                            {m.key: MeasureScores(m, float(st.score), sent, ter_statistic(st.segment_stats,
                                                                                          st.score))},
                            self.segment_score_name(d))


TER = TerFamily()
