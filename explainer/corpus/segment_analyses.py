"""The analyses every metric family has on a test set, from its segment scores and its statistic alone
(``explainer.family.MeasureScores``): scores by reference length, the segments most above and below the baseline,
segments per band of the segment score. Every record lists the segments (1-based ids) behind it; "better" is the
measure's own direction (TER is an error rate: lower is better).

The segment score is the family's named definition (``CorpusScores.segment_score_name``): every view of the Corpus
page counts with the same one and names it (issue 33, item 5).
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from explainer.family import MeasureScores

__all__ = ["reference_lengths", "length_buckets", "largest_deltas", "score_bands", "gains", "quantile_edges",
           "BANDS"]

#: bands of a segment score, as fractions of the measure's scale (compare-mt's sentence buckets: 10 of them); an
#: error rate (TER) can exceed its scale: the last band is open
BANDS = tuple(k / 10 for k in range(11))


def _ids(idx) -> list[int]:
    return [int(x) + 1 for x in np.asarray(idx)]


def reference_lengths(testset) -> np.ndarray:
    """Reference 1's length per segment: its words, or its characters when it is written without spaces (Chinese,
    Japanese: a whole sentence would be one "word")."""
    out = []
    for rs in testset.references:
        r = rs[0] if rs else ""
        words = r.split()
        out.append(len(words) if len(words) > 1 or len(r) < 8 else len("".join(words)))
    return np.asarray(out, dtype=np.int64)


def quantile_edges(lengths, k: int = 5) -> list[int]:
    """Bucket edges at the quantiles of the lengths (k buckets of about equal size, whole units)."""
    L = np.asarray(lengths)
    if not len(L):
        return [10, 20, 30, 40, 50]
    qs = np.percentile(L, [100 * j / k for j in range(1, k)])
    return sorted({int(math.ceil(q)) for q in qs if q > 0})


def _subset(ms: MeasureScores, idx: np.ndarray) -> float:
    """The corpus score of the segments ``idx`` (their statistic summed), or the mean of their segment scores
    when the measure has no statistic (NLTK's corpus BLEU reads its last segment)."""
    if ms.statistic is not None:
        return ms.statistic.subset_score(idx)
    return float(np.mean(ms.segment_scores[idx])) if len(idx) else float("nan")


def length_buckets(scores: Sequence[MeasureScores], names: Sequence[str], lengths, edges=None) -> list[dict]:
    """Per bucket of reference length (``edges=None``: five of about equal size; empty ones left out) each system's
    corpus score over the bucket's segments."""
    L = np.asarray(lengths)
    edges = quantile_edges(L) if edges is None else list(edges)
    bounds = [0] + list(edges) + [None]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        idx = np.flatnonzero((L >= lo) & (L < hi) if hi is not None else (L >= lo))
        if not len(idx):
            continue
        out.append({"bucket": f"{lo}–{hi - 1}" if hi is not None else f"{lo}+", "low": lo, "high": hi,
                    "n_segments": int(len(idx)), "segments": _ids(idx),
                    "scores": {n: _subset(ms, idx) for n, ms in zip(names, scores)}})
    return out


def gains(system: np.ndarray, baseline: np.ndarray, higher_is_better: bool = True) -> np.ndarray:
    """How much better the system is than the baseline on each segment, in the measure's direction."""
    d = np.asarray(system, dtype=np.float64) - np.asarray(baseline, dtype=np.float64)
    return d if higher_is_better else -d


def largest_deltas(sys_scores: np.ndarray, base_scores: np.ndarray, k: int = 10, *, higher_is_better: bool = True,
                   **labels) -> dict:
    """The k segments (1-based ids) where the system is most better and most worse than the baseline (in the
    measure's direction), and how many are better, worse and equal. ``delta`` is system − baseline; ``labels``
    (the system's and the baseline's names) go into the record."""
    a, b = np.asarray(sys_scores, dtype=np.float64), np.asarray(base_scores, dtype=np.float64)
    g = gains(a, b, higher_is_better)
    order = np.argsort(g, kind="stable")
    worse = [int(x) for x in order[:k] if g[x] < 0]
    better = [int(x) for x in order[::-1][:k] if g[x] > 0]

    def rec(x):
        return {"segment": x + 1, "delta": float(a[x] - b[x]), "baseline": float(b[x]), "system": float(a[x])}

    return {**labels, "better": [rec(x) for x in better], "worse": [rec(x) for x in worse],
            "n_better": int((g > 0).sum()), "n_worse": int((g < 0).sum()), "n_equal": int((g == 0).sum())}


def score_bands(scores: Sequence[MeasureScores], names: Sequence[str], scale: float) -> list[dict]:
    """Segments per band of the segment score (:data:`BANDS` of the scale; the last band is open above: an error
    rate can exceed its scale), per system; each band lists the segments of every system in it."""
    out = []
    for k in range(len(BANDS) - 1):
        lo, hi = BANDS[k] * scale, BANDS[k + 1] * scale
        last = k == len(BANDS) - 2
        per = {}
        for n, ms in zip(names, scores):
            v = ms.segment_scores
            per[n] = np.flatnonzero((v >= lo) & ((v < hi) if not last else np.isfinite(v)))
        segs = sorted({int(x) + 1 for v in per.values() for x in v})
        label = f"{lo:g}–{hi:g}" if not last else f"≥ {lo:g}"
        out.append({"bucket": label, "low": lo, "high": None if last else hi, "n_segments": len(segs),
                    "segments": segs, "scores": {n: int(len(v)) for n, v in per.items()}})
    return out
