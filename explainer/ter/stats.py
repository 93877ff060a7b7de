"""TER's statistics for the bootstrap and paired tests, as sacreBLEU 2.6's ``significance`` module uses them.

sacreBLEU resamples the per-segment vectors ``[num_edits, ref_length]`` (``ref_length``: the mean of the
segment's reference lengths, so a multiple of 1/number of references) and scores each summed row with
``TER._compute_score_from_stats``. As for BLEU and chrF, the arithmetic depends on the caller:

=======  ===========================================  ==========================================================
mode     where sacreBLEU uses it                      arithmetic
=======  ===========================================  ==========================================================
``py``   ``corpus_score``                             Python numbers: float64
``i64``  ``_paired_ar_test``                          rows of the swapped sums (float64 in sacreBLEU, as its
                                                     statistics hold float lengths): float64
``f32``  ``_bootstrap_resample``, ``_paired_bs_test``  rows of a float32 array: ``edits / length`` and ``100 *``
                                                     in float32 (NumPy 2 keeps a Python float weak), so the
                                                     *scores* are float32 (a row of length 0 returns the Python
                                                     100.0 or 0.0)
=======  ===========================================  ==========================================================

The f32 scores are sacreBLEU's own ``_compute_score_from_stats`` on the float32 rows, kept as NumPy makes them, so
the mean, the interval and the p-value that follow are in sacreBLEU's dtype (``Statistic.native_scores``).

``ter_statistic(segment_stats, score)`` is the :class:`explainer.statistic.Statistic` the tests of
``explainer.corpus.significance`` take: ``Statistic(segment_matrix(stats), score_rows, score, **statistic_options)``.

The tests compare absolute differences of scores (``|BL - SYS|``), so nothing there depends on the direction of the
metric; TER is lower-is-better only where systems are ranked (``TerDialect.lower_is_better``).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
from sacrebleu.metrics.ter import TER

from explainer.statistic import Statistic

__all__ = ["segment_matrix", "score_rows", "statistic_options", "ter_statistic", "MODES"]

MODES = ("py", "f32", "i64")
#: ``_compute_score_from_stats`` does not depend on TER's options
_METRIC = TER()


def segment_matrix(segment_stats: Sequence[Sequence[float]]) -> np.ndarray:
    """The per-segment rows ``[num_edits, ref_length]`` the tests resample, shape (S, 2), float64 (the values as
    sacreBLEU holds them: every one is exact in float64)."""
    m = np.asarray(segment_stats, dtype=np.float64)
    if m.ndim != 2 or m.shape[1] != 2:
        raise ValueError(f"TER's segment statistics are rows [num_edits, ref_length]; got shape {m.shape}")
    return m


def _score(edits: float, length: float) -> float:
    """``TER._compute_score_from_stats(...).score`` on Python numbers."""
    if length > 0:
        score = edits / length
    elif edits > 0:
        score = 1.0
    else:
        score = 0.0
    return 100 * score


def score_rows(rows, mode: str) -> list:
    """The score of every summed row, with the arithmetic of the sacreBLEU caller ``mode`` names."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    if mode == "f32":
        f = _METRIC._compute_score_from_stats
        return [f(row).score for row in np.asarray(rows, dtype=np.float32)]
    return [_score(e, n) for e, n in np.asarray(rows).tolist()]


def statistic_options(matrix: np.ndarray) -> dict:
    """The ``Statistic`` settings that reproduce sacreBLEU: float32 resampling with float32 scores; the rows count
    as integers (exact sums, the AR test rounding its swapped sums) only when every value is a whole number (one
    reference per segment) — a mean of several lengths is not."""
    integral = bool(np.all(matrix == np.floor(matrix)))
    return {"resample_dtype": np.float32, "integer": integral, "native_scores": True}


def ter_statistic(segment_stats: Sequence[Sequence[float]], score: float) -> Statistic:
    """The ``Statistic`` of one system: its rows ``[num_edits, ref_length]`` and how a summed row is scored."""
    m = segment_matrix(segment_stats)
    return Statistic(m, score_rows, score, **statistic_options(m))
