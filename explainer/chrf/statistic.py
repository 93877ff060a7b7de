"""chrF's statistics for the bootstrap and paired tests (``explainer.corpus.significance``).

sacreBLEU resamples chrF's per-segment vectors ``[hyp, ref, match] * orders`` like BLEU's, and scores each row with
``CHRF._compute_f_score``; what arithmetic that is depends on the caller (as for BLEU, ``explainer.bleu.rowscore``):

=======  ===========================================  ==========================================================
mode     where sacreBLEU uses it                      arithmetic
=======  ===========================================  ==========================================================
``py``   ``corpus_score``                             Python numbers: float64
``i64``  ``_paired_ar_test``                          rows of an int64 array: float64, the same floats as ``py``
``f32``  ``_bootstrap_resample``, ``_paired_bs_test``  rows of a float32 array: every step in float32 (NumPy 2
                                                     keeps a Python float weak), so the *scores* are float32
                                                     (a row without any match returns the Python float 0.0)
=======  ===========================================  ==========================================================

The f32 scores are produced by sacreBLEU's own ``CHRF._compute_f_score`` on the float32 rows, and kept as NumPy makes
them (``np.array`` of the returned values: float32, or float64 when one is the Python 0.0), so that the mean, the
interval and the p-value that follow are computed in the same dtype as sacreBLEU computes them
(``Statistic.native_scores``).

NLTK's corpus chrF is a mean of per-segment, per-order F-scores: its statistic is that (one value per order per
segment), resampled and averaged (the project's own extension, as for ROUGE).
"""
from __future__ import annotations

import numpy as np

from explainer.chrf.dialect_sacrebleu import sacrebleu_f_score
from explainer.chrf.dialects import ChrfDialect
from explainer.statistic import Statistic

__all__ = ["chrf_statistic", "segment_matrix"]


def segment_matrix(d: ChrfDialect, segment_stats) -> np.ndarray:
    """The per-segment rows the tests resample: sacreBLEU's integer vectors; for NLTK each segment's per-order F."""
    if d.corpus_rule == "sum":
        return np.asarray(segment_stats, dtype=np.int64)
    n = len(d.orders)
    rows = []
    for st in segment_stats:
        comb = d.combine(st)
        rows.append([o.f for o in comb.orders][:n])
    return np.asarray(rows, dtype=np.float64)


def chrf_statistic(d: ChrfDialect, segment_stats, score: float) -> Statistic:
    """The ``Statistic`` of one system: its per-segment rows and how a summed row is scored."""
    stats = segment_matrix(d, segment_stats)
    if d.corpus_rule == "sum":
        factor = d.beta ** 2
        order = len(d.orders)
        eps = bool(d.options.get("eps_smoothing", False))
        metric = d.library_metric

        def score_rows(rows, mode):
            if mode == "f32":
                f = metric._compute_f_score
                return [f(row) for row in np.asarray(rows, dtype=np.float32)]
            return [sacrebleu_f_score(row, factor, order, eps) for row in np.asarray(rows).tolist()]

        return Statistic(stats, score_rows, score, resample_dtype=np.float32, integer=True, native_scores=True)
    # a count column: a summed row of any segments scores as the mean over those segments
    n = stats.shape[1]
    stats = np.column_stack([stats, np.ones(stats.shape[0])])

    def mean_rows(rows, mode):
        return [(sum(row[:n]) / n) / row[n] for row in np.asarray(rows, dtype=np.float64).tolist()]

    return Statistic(stats, mean_rows, score, resample_dtype=np.float64, integer=False)
