"""Numbers without the steps: one segment (``SemanticScores``) or a corpus (``SemanticCorpusScores``).

A corpus's score for a measure is the mean of its segments' scores (how bert-score's and sentence-transformers'
users aggregate: ``F.mean()``), in float64. ``statistic(measure)`` is the ``explainer.statistic.Statistic`` the
bootstrap and the paired tests resample: the segment scores, a resampled row scored as its mean (the project's own
extension: neither library has these tests).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from explainer.semantic.dialects import LibraryError, LibraryWarning
from explainer.semantic.model import ModelInfo
from explainer.statistic import Statistic

__all__ = ["SemanticScores", "SemanticCorpusScores"]


def _num(x: float) -> float | None:
    return None if x != x else float(x)


@dataclass
class SemanticScores:
    """One segment: each measure's kept value, the reference it came from, and every reference's values."""

    dialect: str
    options: dict
    model: ModelInfo
    signature: str
    measures: tuple
    values: dict
    chosen: dict
    per_reference: list
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None

    @property
    def score(self) -> float:
        return self.values[self.measures[0] if len(self.measures) == 1 else "f1"]

    def to_dict(self) -> dict:
        return {"dialect": self.dialect, "options": dict(self.options), "model": self.model.to_dict(),
                "signature": self.signature, **{m: self.values[m] for m in self.measures},
                "chosen_references": dict(self.chosen), "per_reference": [dict(r) for r in self.per_reference],
                "warnings": [w.to_dict() for w in self.warnings],
                "library_error": self.library_error.to_dict() if self.library_error else None}


@dataclass
class SemanticCorpusScores:
    """A corpus: per measure the segments' scores (float64 arrays of the float32 values) and kept references."""

    dialect: str
    options: dict
    model: ModelInfo
    signature: str
    measures: tuple
    headline: str
    segment_values: dict          # measure -> np.ndarray (segments,)
    chosen: dict                  # measure -> list[int]
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None

    @property
    def n_segments(self) -> int:
        return len(self.segment_values[self.headline])

    def segment_scores(self, measure: str | None = None) -> np.ndarray:
        return self.segment_values[measure or self.headline]

    def corpus_score(self, measure: str | None = None) -> float:
        """The mean of the segments' scores (NaN if a segment's is NaN, as ``tensor.mean()``)."""
        v = self.segment_scores(measure)
        return float(v.sum() / len(v))

    @property
    def score(self) -> float:
        return self.corpus_score()

    def statistic(self, measure: str | None = None) -> Statistic:
        """What the significance tests resample for one measure: rows ``[segment score, 1]``, a summed row scored
        as its mean (the count column: any set of segments summed scores as its own mean), in float64."""
        vals = self.segment_scores(measure).astype(np.float64)
        S = len(vals)
        stats = np.column_stack([vals, np.ones(S)])

        def score_rows(rows, mode):
            r = np.asarray(rows, dtype=np.float64)
            return (r[:, 0] / r[:, 1]).tolist()

        return Statistic(stats, score_rows, float(vals.sum() / S), resample_dtype=np.float64, integer=False)

    def to_dict(self, *, segments: bool = True) -> dict:
        d = {"dialect": self.dialect, "options": dict(self.options), "model": self.model.to_dict(),
             "signature": self.signature, "n_segments": self.n_segments, "headline": self.headline,
             **{m: _num(self.corpus_score(m)) for m in self.measures},
             "warnings": [w.to_dict() for w in self.warnings],
             "library_error": self.library_error.to_dict() if self.library_error else None}
        if segments:
            d["segments"] = {m: [_num(x) for x in self.segment_values[m]] for m in self.measures}
            d["chosen_references"] = {m: list(self.chosen[m]) for m in self.measures}
        return d
