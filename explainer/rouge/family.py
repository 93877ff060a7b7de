"""ROUGE as a metric family (``explainer.family``): a number per ROUGE type, the dialect's F-measure (0-1).

A bound ROUGE dialect binds its types too (rouge-score's ``RougeScorer(types, ...)``), so the measures are the
bound dialect's types. The corpus score of a type is what the implementation reports (rouge-score's bootstrap
*mid*, ROUGE-1.5.5's average, the textbook's mean); the paired tests resample the per-item F and compare means,
the project's own extension (no ROUGE implementation has them).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from explainer.family import CorpusScores, Measure, MeasureScores, MetricFamily
from explainer.statistic import Statistic

__all__ = ["ROUGE", "RougeFamily", "item_statistic"]


def item_statistic(vals: np.ndarray) -> Statistic:
    """The mean of per-item values as a :class:`Statistic`: rows ``[value, 1]``, a summed row scores
    ``sum / count`` (the mean over the segments summed, whichever they are)."""
    S = len(vals)
    stats = np.column_stack([np.asarray(vals, dtype=np.float64), np.ones(S)])

    def score_rows(rows, mode):
        r = np.asarray(rows, dtype=np.float64)
        return (r[:, 0] / r[:, 1]).tolist()

    return Statistic(stats, score_rows, float(stats[:, 0].sum() / S), resample_dtype=np.float64, integer=False)


def reported_f(aggregate: Any) -> float | None:
    """The F the implementation reports for one type's aggregate: the bootstrap's mid, or the mean."""
    if isinstance(aggregate, dict) and "mid" in aggregate:
        return float(aggregate["mid"].fmeasure)
    f = getattr(aggregate, "fmeasure", None)
    return None if f is None else float(f)


class RougeFamily(MetricFamily):
    name = "rouge"
    label = "ROUGE"
    description = "recall-oriented n-gram and longest-common-subsequence overlap (Lin, 2004)"
    reads = "n-gram"
    registry_path = "explainer.rouge.registry:DIALECTS"
    default_dialect = "rouge-score"

    def bind(self, dialect: Any = None, /, types: Any = None, **options: Any):
        """A bound ROUGE dialect with its ``types`` (None: the dialect's default types) and options."""
        from explainer.dialect import Dialect
        from explainer.rouge.engine import bind_dialect

        if isinstance(dialect, Dialect):
            return super().bind(dialect, **options)
        return bind_dialect(dialect or self.default_dialect, types, corpus=True, **options)

    def measures(self, d) -> tuple[Measure, ...]:
        return tuple(Measure(t.name, t.label, 1.0, True, 4) for t in d.types)

    def explain(self, d, candidate, references):
        from explainer.rouge.engine import explain_rouge

        return explain_rouge(candidate, list(references), dialect=d)

    def claim_value(self, metric, trace):
        """ROUGE claims: ``<type>_<p|r|f>``, or a count (``CLAIM_COUNTS``) against the reference the dialect kept
        (the first when counts are pooled)."""
        from explainer.examples import CLAIM_COUNTS
        from explainer.examples import claim_field as get

        if trace is None:
            return None
        if metric in CLAIM_COUNTS:
            t = CLAIM_COUNTS[metric]
            if t not in get(trace, "types"):
                return None
            k = get(trace, "chosen_reference").get(t)
            k = k if type(k) is int else 0
            per = get(trace, "per_reference")
            res = per[k].get(t) if k < len(per) else None
            return float(get(res, "hits")) if res is not None else None
        t, _, which = metric.partition("_")
        if which not in ("p", "r", "f") or t not in get(trace, "scores"):
            return None
        return get(get(trace, "scores")[t], {"p": "precision", "r": "recall", "f": "fmeasure"}[which])

    def trace_scores(self, trace) -> dict[str, float]:
        return {t: float(s.fmeasure) for t, s in trace.scores.items()}

    def scores(self, d, candidate, references) -> dict[str, float]:
        from explainer.rouge.engine import score_rouge

        return {t: float(s.fmeasure) for t, s in score_rouge(candidate, list(references), dialect=d).items()}

    def traps(self, d, candidates, references, *, corpus: bool = True) -> list:
        from explainer.rouge.traps import rouge_traps

        return rouge_traps(candidates, references, d, corpus=corpus)

    def signature(self, d, n_refs: int = 1) -> str:
        return d.signature()

    def segment_score_name(self, d) -> str:
        return f"the item's F-measure ({d.short_label or d.name})"

    def corpus(self, d, candidates: Sequence[str], references: Sequence[Sequence[str]], *,
               progress: Callable[[float, str], None] | None = None) -> CorpusScores:
        from explainer.rouge.engine import explain_rouge_corpus

        tick = progress or (lambda f, msg: None)
        n = max(1, len(candidates))
        tr = explain_rouge_corpus(candidates, references, dialect=d,
                                  progress=lambda done, total: tick(done / n, f"segment {done:,} of {total:,}"))
        out = {}
        for m in self.measures(d):
            vals = np.array([s[m.key].fmeasure for s in tr.item_scores], dtype=np.float64)
            st = item_statistic(vals)
            rep = reported_f(tr.aggregate.get(m.key)) if isinstance(tr.aggregate, dict) else None
            out[m.key] = MeasureScores(m, st.score if rep is None else rep, vals, st)
        return CorpusScores(self.name, tr.signature, out, self.segment_score_name(d))


ROUGE = RougeFamily()
