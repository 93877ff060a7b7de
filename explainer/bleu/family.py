"""BLEU as a metric family (``explainer.family``): one number, the dialect's BLEU on its own scale."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from explainer.family import CorpusScores, Measure, MeasureScores, MetricFamily
from explainer.statistic import Statistic

__all__ = ["BLEU", "BleuFamily"]


class BleuFamily(MetricFamily):
    name = "bleu"
    label = "BLEU"
    description = "n-gram precision with a brevity penalty (Papineni et al., 2002)"
    reads = "n-gram"
    registry_path = "explainer.bleu.registry:DIALECTS"
    default_dialect = "sacrebleu"

    def measures(self, d) -> tuple[Measure, ...]:
        return (Measure("score", "BLEU", float(d.scale), True, 1 if d.scale == 100 else 3),)

    def explain(self, d, candidate, references):
        from explainer.bleu.algorithm import explain_segment

        return explain_segment(d, candidate, list(references))

    def trace_scores(self, trace) -> dict[str, float]:
        return {"score": float(trace.score)}

    def claim_value(self, metric, trace):
        """BLEU on 0–1 whatever the dialect's scale; ``bleu_bp`` the brevity penalty; ``bleu_p1`` p₁."""
        from explainer.examples import claim_field as get

        if not metric.startswith("bleu") or trace is None or get(trace, "library_error") is not None:
            return None
        if metric == "bleu":
            return get(trace, "score") / get(trace, "scale")
        comb = get(trace, "combination")
        if metric == "bleu_bp":
            return get(comb, "bp")
        orders = get(comb, "orders")
        return get(orders[0], "precision_raw") if orders else None

    def scores(self, d, candidate, references) -> dict[str, float]:
        from explainer.bleu.algorithm import score_segment

        return {"score": float(score_segment(d, candidate, list(references)).score)}

    def traps(self, d, candidates, references, *, corpus: bool = True) -> list:
        from explainer.bleu.traps import bleu_traps

        return bleu_traps(candidates, references, d, corpus=corpus)

    def signature(self, d, n_refs: int = 1) -> str:
        return d.signature(n_refs)

    def max_trace_chars(self, d) -> int:
        from explainer.bleu.limits import MAX_TRACE_CHARS

        return MAX_TRACE_CHARS

    def segment_score_name(self, d) -> str:
        return f"the segment scored alone with the corpus settings ({d.short_label or d.name})"

    def corpus(self, d, candidates: Sequence[str], references: Sequence[Sequence[str]], *,
               progress: Callable[[float, str], None] | None = None) -> CorpusScores:
        return self.corpus_systems(d, [candidates], references, progress=progress)[0]

    def corpus_systems(self, d, systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]], *,
                       progress: Callable[[float, str], None] | None = None) -> list[CorpusScores]:
        """Every system's statistics in one pass (each reference tokenized once for all systems)."""
        from explainer.bleu.system_stats import system_stats

        tick = progress or (lambda f, msg: None)
        arrays, _, _, ctxs = system_stats(d, [list(c) for c in systems], references,
                                          progress=lambda a, b: tick(a / b, f"segment {a:,} of {b:,}"))
        return [self.corpus_from_stats(d, systems[j], references, arrays[j], ctxs[j] if ctxs is not None else None)
                for j in range(len(systems))]

    def corpus_from_stats(self, d, candidates: Sequence[str], references: Sequence[Sequence[str]],
                          stats: np.ndarray, ctx) -> CorpusScores:
        """A system's corpus scores from its per-segment statistics ``[c, r, m_1..m_N, t_1..t_N]`` (``ctx``: the
        per-segment contexts NLTK's smoothing reads, else None)."""
        from explainer.bleu.algorithm import explain_corpus
        from explainer.bleu.rowscore import score_rows, segment_scores

        score = float(explain_corpus(d, candidates, references, stats=stats.tolist()).score)
        sent, _ = segment_scores(d, stats, ctx)
        m = self.main_measure(d)
        statistic, why = None, ""
        if d.needs_last_segment:
            why = (f"bootstrap and paired tests are not defined for the {d.name} dialect: its corpus score depends on "
                   "the last segment (NLTK's smoothing reads it), which resampling would change")
        else:
            statistic = Statistic(stats, lambda rows, mode: score_rows(d, rows, mode=mode), score)
        return CorpusScores(self.name, d.signature(len(references[0]) if len(references) else 1),
                            {m.key: MeasureScores(m, score, np.asarray(sent, dtype=np.float64), statistic, why)},
                            self.segment_score_name(d))


BLEU = BleuFamily()
