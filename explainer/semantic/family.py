"""The semantic scores as a metric family (``explainer.family``): what the bound dialect reports, on 0-1.

``sts`` reports one number, STS (the highest cosine over the references); ``bertscore`` reports F (its headline),
precision and recall, each its own maximum over the references. A corpus's score is the mean of the segment
scores, and the statistic the paired tests resample is the segment scores (``SemanticCorpusScores.statistic``).
``corpus`` keeps the references' embeddings for the next call (``explainer.semantic.refstore``): the Corpus page
calls it once per system against the same references, and each system after the first runs only its own texts
through the model.
"""
from __future__ import annotations

from typing import Callable, Sequence

from explainer.family import CorpusScores, Measure, MeasureScores, MetricFamily

__all__ = ["SEMANTIC", "SemanticFamily", "MEASURE_LABELS"]

#: a measure's name in a column header
#: a difference below this (on a 0-1 scale) is float32 rounding, not the texts: a few units of float32's 1.2e-7
FLOAT32_NOISE = 1e-6
MEASURE_LABELS = {"sts": "STS", "f1": "BERTScore F", "precision": "BERTScore P", "recall": "BERTScore R"}


class SemanticFamily(MetricFamily):
    name = "semantic"
    label = "STS / BERTScore"
    description = ("meaning: STS (sentence-transformers) and BERTScore (bert-score 0.3.13) with all-MiniLM-L6-v2, "
                   "run offline")
    reads = "meaning"
    registry_path = "explainer.semantic.registry:DIALECTS"
    default_dialect = "sts"
    claim_names = r"\b(?:sts|bert[\s_-]?score)\b"

    def measures(self, d) -> tuple[Measure, ...]:
        keys = [d.headline] + [m for m in d.measures if m != d.headline]
        # float32 model: a text embedded alone or in a padded batch differs in the last float32 digits
        res = FLOAT32_NOISE * float(d.scale)
        return tuple(Measure(k, MEASURE_LABELS.get(k, k), float(d.scale), True, 4, res) for k in keys)

    def bounded_scores(self, d, candidate, references, *, seconds: float) -> dict[str, float] | None:
        # the model's cost is its word pieces, counted (fast) before it runs; texts already embedded are free
        from explainer.semantic.algorithm import segment_cost
        from explainer.semantic.embed import COST_PER_SECOND

        if segment_cost(d, candidate, list(references)) > seconds * COST_PER_SECOND:
            return None
        return self.scores(d, candidate, references)

    def explain(self, d, candidate, references):
        from explainer.semantic.algorithm import explain_segment

        return explain_segment(d, candidate, list(references))

    def trace_scores(self, trace) -> dict[str, float]:
        return {k: float(v) for k, v in trace.values.items()}

    def scores(self, d, candidate, references) -> dict[str, float]:
        from explainer.semantic.algorithm import score_segment

        return {k: float(v) for k, v in score_segment(d, candidate, list(references)).values.items()}

    def signature(self, d, n_refs: int = 1) -> str:
        from explainer.semantic.model import model_info

        return d.signature(model_info())

    def segment_score_name(self, d) -> str:
        return f"the segment's own {self.main_measure(d).label} (the best over its references)"

    def corpus(self, d, candidates: Sequence[str], references: Sequence[Sequence[str]], *,
               progress: Callable[[float, str], None] | None = None) -> CorpusScores:
        from explainer.semantic.algorithm import score_systems

        tick = progress or (lambda f, msg: None)
        res = score_systems([d], {"": candidates}, references, keep_references=True,
                            progress=lambda f: tick(f, f"{f:.0%} of the word pieces through the model"))[""][d.name]
        out = {m.key: MeasureScores(m, res.corpus_score(m.key), res.segment_scores(m.key), res.statistic(m.key))
               for m in self.measures(d)}
        return CorpusScores(self.name, res.signature, out, self.segment_score_name(d))


SEMANTIC = SemanticFamily()
