"""Scores of many summed-statistics rows at once, with the real library's arithmetic bit for bit.

Resampling tests score thousands of rows ``[c, r, m_1..m_N, t_1..t_N]``. sacreBLEU does it with one
``BLEU.compute_bleu`` call per row; the values it works on differ by the caller, and so does the arithmetic:

=======  ===========================================  ===============================================
mode     where sacreBLEU uses it                      arithmetic of the precisions
=======  ===========================================  ===============================================
``py``   ``corpus_score``, ``sentence_score``         Python ints, so ``100. * m / t`` in float64
``f32``  ``_bootstrap_resample``, ``_paired_bs_test``  rows of a float32 array: ``100. * m / t`` is float32
                                                     (NumPy 2 keeps a Python float weak), add-k adds in float32
``i64``  ``_paired_ar_test``                          rows of an int64 array: float64 precisions, but add-k
                                                     assigns ``m + k`` back into the int64 row, which
                                                     truncates (k = 0.5 adds nothing there)
=======  ===========================================  ===============================================

``sacrebleu_scores`` computes the precisions of all rows with NumPy in the same dtype (IEEE multiply and divide
are exactly rounded, so a vectorised float32 division equals the scalar one), and the logs, their sum, the
exponential and the brevity penalty with Python's ``math`` in the order ``compute_bleu`` uses, so every score
is the very float sacreBLEU returns (``test_row_scores_are_compute_bleu_bit_for_bit`` in
tests/test_corpus_significance.py compares them for every mode and smoothing).

``dialect_scores`` is the general path for every other dialect: its own ``combine`` per row.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

__all__ = ["sacrebleu_scores", "dialect_scores", "score_rows", "segment_scores", "MODES"]

MODES = ("py", "f32", "i64")
_MYLOG_FLOOR = -9999999999   # sacrebleu.utils.my_log(0)


def sacrebleu_scores(rows, *, max_order: int = 4, smooth_method: str = "exp", smooth_value: float | None = None,
                     effective_order: bool = False, mode: str = "py") -> list[float]:
    """``BLEU.compute_bleu(...).score`` for every row (0-100). ``rows``: array-like (m, 2 + 2N) of the summed
    statistics (exact integers); ``mode`` says which sacreBLEU caller's arithmetic to reproduce."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}")
    N = max_order
    R = np.asarray(rows)
    if R.ndim != 2 or R.shape[1] != 2 + 2 * N:
        raise ValueError(f"rows must have shape (m, {2 + 2 * N})")
    if R.shape[0] == 0:
        return []
    if smooth_value is None:
        smooth_value = {"floor": 0.1, "add-k": 1}.get(smooth_method)
    dt = np.float32 if mode == "f32" else np.float64
    C = np.array(R[:, 2:2 + N], dtype=dt)
    T = np.array(R[:, 2 + N:2 + 2 * N], dtype=dt)
    has_match = (C != 0).any(axis=1).tolist()      # `if not any(correct)`: checked before add-k
    if smooth_method == "add-k" and N > 1:
        _add_k(C, T, smooth_value, mode)
    P, eff = _precisions(C, T, smooth_method, smooth_value, effective_order, dt)
    return _geometric_means(R[:, :2].astype(np.int64).tolist(), has_match, P.astype(np.float64).tolist(),
                            eff.tolist())


def _add_k(C: np.ndarray, T: np.ndarray, k: float, mode: str) -> None:
    """add-k smoothing on orders 2..N, in place, as each caller's array does it: float32 adds in float32, the int64
    rows of AR truncate ``m + k`` when it is assigned back (k = 0.5 adds nothing)."""
    if mode == "f32":
        k32 = np.float32(k)
        C[:, 1:] += k32
        T[:, 1:] += k32
    elif mode == "i64":
        C[:, 1:] = np.trunc(C[:, 1:] + k)
        T[:, 1:] = np.trunc(T[:, 1:] + k)
    else:
        C[:, 1:] += k
        T[:, 1:] += k


def _precisions(C: np.ndarray, T: np.ndarray, smooth_method: str, smooth_value: float | None,
                effective_order: bool, dt) -> tuple[np.ndarray, np.ndarray]:
    """(the precisions of every row and order in ``dt`` after exp / floor smoothing, each row's effective order):
    ``compute_bleu``'s order loop, all rows at once."""
    m, N = C.shape
    hundred = dt(100.0)
    P = np.zeros((m, N), dtype=dt)
    eff = np.full(m, N, dtype=np.int64)
    alive = np.ones(m, dtype=bool)          # the order loop has not hit `total == 0` (break) yet
    smooth = np.ones(m, dtype=np.float64)   # smooth_mteval, doubled per zero-match order
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for n in range(N):
            t = T[:, n]
            alive &= t != 0
            if effective_order:
                eff[alive] = n + 1
            c = C[:, n]
            zero = alive & (c == 0)
            nz = alive & ~zero
            P[nz, n] = (hundred * c[nz]) / t[nz]
            if smooth_method == "exp" and zero.any():
                smooth[zero] *= 2.0
                P[zero, n] = hundred / (smooth[zero].astype(dt) * t[zero])
            elif smooth_method == "floor" and zero.any():
                P[zero, n] = dt(100.0 * smooth_value) / t[zero]
    return P, eff


def _geometric_means(lens: list, has_match: list, precisions: list, effs: list) -> list[float]:
    """BP x exp(mean log precision) per row with Python's ``math`` in ``compute_bleu``'s order (``my_log(0)`` is
    its floor), 0 for a row without a single match."""
    log = math.log
    exp = math.exp
    out = []
    for (c_len, r_len), ok, pr, e in zip(lens, has_match, precisions, effs):
        bp = 1.0
        if c_len < r_len:
            bp = exp(1 - r_len / c_len) if c_len > 0 else 0.0
        if not ok:
            out.append(0.0)
            continue
        s = 0
        for j in range(e):
            p = pr[j]
            s += _MYLOG_FLOOR if p == 0.0 else log(p)
        out.append(bp * exp(s / e))
    return out


def dialect_scores(d, rows, *, mode: str = "py", ctxs: Sequence | None = None) -> list[float]:
    """The dialect's own ``combine`` per row (native scale). ``mode="f32"`` passes float32 counts as sacreBLEU's
    resampling does (``explainer.bleu.bootstrap`` does the same); otherwise exact integers. ``ctxs``: one
    last-segment context per row (NLTK), else None."""
    N = d.max_order
    R = np.asarray(rows)
    out = []
    if mode == "f32":
        R32 = R.astype(np.float32)
        for i, row in enumerate(R32):
            comb = d.combine(int(row[0]), int(row[1]), list(row[2:2 + N]), list(row[2 + N:2 + 2 * N]),
                             ctxs[i] if ctxs is not None else None)
            out.append(float(comb.score))
        return out
    for i, row in enumerate(R.astype(np.int64).tolist()):
        comb = d.combine(row[0], row[1], row[2:2 + N], row[2 + N:2 + 2 * N], ctxs[i] if ctxs is not None else None)
        out.append(float(comb.score))
    return out


def score_rows(d, rows, *, mode: str = "py", ctxs: Sequence | None = None) -> list[float]:
    """Scores of summed-statistics rows under dialect ``d`` (native scale): vectorised when the dialect's
    arithmetic is sacreBLEU's ``compute_bleu`` (``d.compute_bleu_params()``), the dialect's ``combine`` else."""
    params = d.compute_bleu_params()
    if params is not None and ctxs is None:
        return sacrebleu_scores(rows, **params, mode=mode)
    return dialect_scores(d, rows, mode=mode, ctxs=ctxs)


def segment_scores(d, stats: np.ndarray, ctxs: list | None) -> tuple[np.ndarray, np.ndarray]:
    """Each segment scored alone, and its brevity penalty, with the dialect's own arithmetic (``ctxs``: the
    last-segment contexts of a dialect that needs them, else None)."""
    if d.compute_bleu_params() is not None:        # vectorised: sacreBLEU's compute_bleu arithmetic
        scores = np.asarray(score_rows(d, stats, mode="py"))
        bp = [1.0 if c >= r else (math.exp(1 - r / c) if c > 0 else 0.0) for c, r in stats[:, :2].tolist()]
        return scores, np.asarray(bp)
    N = d.max_order
    sc, bp = [], []
    for k, row in enumerate(stats.tolist()):
        comb = d.combine(row[0], row[1], row[2:2 + N], row[2 + N:], ctxs[k] if ctxs is not None else None)
        sc.append(float(comb.score))
        bp.append(float(comb.bp))
    return np.asarray(sc), np.asarray(bp)
