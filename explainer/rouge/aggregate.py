"""Corpus aggregation: rouge-score's BootstrapAggregator (as HF evaluate seeds it) and plain means.

``bootstrap`` reproduces ``rouge_score.scoring.BootstrapAggregator`` draw for draw with a private
``numpy.random.RandomState(seed)`` in place of NumPy's global legacy RNG: HF evaluate calls ``np.random.seed``
with its load-time seed and then aggregates the types in order, each with 1,000 ``np.random.choice`` draws of
the item indices. low / mid / high are the 2.5th / 50th / 97.5th percentiles (linear interpolation) of the
resample means: "mid" is a bootstrap **median**, not the mean of the scores.
"""
from __future__ import annotations

from typing import Sequence

from explainer.rouge.scoring import Score

__all__ = ["bootstrap", "mean_scores"]


def bootstrap(per_type: dict[str, Sequence[Score]], *, seed: int | None = 42, n_samples: int = 1000,
              confidence_interval: float = 0.95) -> dict[str, dict]:
    """{type: {"low": Score, "mid": Score, "high": Score}}; types are processed in the dict's order."""
    import numpy as np

    rng = np.random.RandomState(seed) if seed is not None else np.random.RandomState()
    out = {}
    for t, scores in per_type.items():
        matrix = np.vstack([tuple(s) for s in scores])
        n = matrix.shape[0]
        sample_mean = np.zeros((n_samples, matrix.shape[1]))
        for i in range(n_samples):
            idx = rng.choice(np.arange(n), size=n)
            sample_mean[i, :] = np.mean(matrix[idx, :], axis=0)
        delta = (1 - confidence_interval) / 2
        q = 100 * np.array([delta, 0.5, 1 - delta])
        pct = np.percentile(sample_mean, q, axis=0)
        out[t] = {name: Score(*map(float, pct[k, :])) for k, name in enumerate(("low", "mid", "high"))}
    return out


def mean_scores(per_type: dict[str, Sequence[Score]]) -> dict[str, Score]:
    out = {}
    for t, scores in per_type.items():
        k = len(scores)
        out[t] = Score(*(sum(s[i] for s in scores) / k if k else 0.0 for i in range(3)))
    return out
