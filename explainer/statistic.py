"""The per-segment statistic of one system: what the bootstrap and the paired tests resample.

Every metric family gives its corpus scores as one (``explainer.family.MetricFamily.statistic``): the tests in
``explainer.corpus.significance`` never name a metric, as sacreBLEU's ``significance.py`` does not.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

__all__ = ["Statistic"]


@dataclass
class Statistic:
    """Per-segment statistics of one system and how a row of summed statistics becomes a score.

    ``stats`` (S, k): BLEU's ``[c, r, m_1..m_N, t_1..t_N]``, TER's ``[edits, ref_length]``, or a mean of
    per-segment values (ROUGE, semantic scores) as ``[value, 1]``: the count column makes the summed row of any
    set of segments score as the mean over that set. ``score_rows(rows, mode)`` scores summed rows (``mode`` as
    in ``explainer.bleu.rowscore``) and depends on nothing but the rows, so :meth:`subset_score` is the corpus
    score of any subset. ``score``: the observed corpus score (what ``score_rows`` gives for the sum of
    all rows in mode "py"). ``resample_dtype``: float32 for sacreBLEU (it converts the statistics before
    resampling), float64 otherwise."""

    stats: np.ndarray
    score_rows: Callable[[np.ndarray, str], Sequence[float]]
    score: float
    resample_dtype: Any = np.float32
    integer: bool = True                # statistics are integers (BLEU); False for per-item values
    #: keep the resampled scores in the dtype NumPy gives the values ``score_rows`` returns (sacreBLEU's chrF scores
    #: float32 rows in float32: its means, intervals and p-values are then float32 too); False: float64
    native_scores: bool = False

    def subset_score(self, idx) -> float:
        """The corpus score of the segments ``idx`` (0-based) alone: their summed rows, scored (NaN when empty)."""
        rows = self.stats[np.asarray(idx, dtype=np.int64)]
        if not len(rows):
            return float("nan")
        return float(self.score_rows(rows.sum(0)[None, :], "py")[0])
