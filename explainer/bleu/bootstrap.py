"""Bootstrap confidence intervals over the per-segment sufficient statistics.

For the ``sacrebleu`` dialect this reproduces ``BLEU().corpus_score(..., n_bootstrap=N)`` exactly
(``sacrebleu/significance.py`` ``_bootstrap_resample`` and ``Score.estimate_ci``; bleu-dialects.md §2.5): the seed
comes from ``SACREBLEU_SEED`` (default ``"12345"``, ``"none"`` = OS entropy), ``numpy.random.default_rng(seed)``
draws ``choice(S, size=(N, S))``, the segment statistics are converted to **float32**, every resample's rows are
summed and combined by the dialect, and the CI half-width is half the distance between the sorted scores at
``N//40`` and ``N - N//40 - 1``; the mean is ``statistics.mean``. Other dialects use the same resampling on
their own statistics (not an implementation's feature; labelled as such).
"""
from __future__ import annotations

import os
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from explainer.bleu.algorithm import _nrefs, normalize_corpus_input, score_corpus
from explainer.bleu.registry import get_dialect
from explainer.errors import ExplainerInputError

__all__ = ["BleuBootstrap", "bootstrap_bleu_corpus", "bootstrap_from_stats"]


@dataclass
class BleuBootstrap:
    score: float                 # the corpus score (native scale)
    mean: float                  # mean of the resampled scores
    ci: float                    # 95 % CI half-width (sacreBLEU's ``confidence_var``)
    low: float                   # sorted score at N//40
    high: float                  # sorted score at N - N//40 - 1
    n_bootstrap: int
    seed: str                    # as sacreBLEU records it ("12345", "none", ...)
    signature: str
    faithful: bool               # True when this is the real library's own procedure (sacreBLEU)
    scores: list[float] = field(default_factory=list, repr=False)

    def to_dict(self, *, with_scores: bool = False) -> dict:
        d = asdict(self)
        if not with_scores:
            d.pop("scores")
        return d


def _seed_from_env(seed: Any) -> tuple[str, int | None]:
    if seed is None:
        seed = os.environ.get("SACREBLEU_SEED", "12345")
    s = str(seed)
    return s.lower(), (None if s.lower() == "none" else int(s))


def bootstrap_from_stats(d, segment_stats: Sequence[Sequence], *, n_bootstrap: int = 1000,
                         seed: Any = None) -> tuple[list[float], str]:
    """Resampled scores from per-segment statistics, exactly as sacreBLEU draws and sums them."""
    import numpy as np

    if n_bootstrap < 1:
        raise ValueError("n_bootstrap must be at least 1")
    if not segment_stats:
        raise ValueError("bootstrap needs at least one segment")
    seed_str, seed_val = _seed_from_env(seed)
    rng = np.random.default_rng(seed_val)
    S = len(segment_stats)
    idxs = rng.choice(S, size=(n_bootstrap, S), replace=True)
    stats_np = np.array(segment_stats, dtype="float32")
    N = d.max_order
    scores = []
    for s in stats_np[idxs]:
        row = s.sum(0)
        # as BLEU._compute_score_from_stats: int lengths, float32 counts and totals
        comb = d.combine(int(row[0]), int(row[1]), list(row[2:2 + N]), list(row[2 + N:2 + 2 * N]), None)
        scores.append(float(comb.score))
    return scores, seed_str


def bootstrap_bleu_corpus(candidates, references, *, dialect: str = "sacrebleu", n_bootstrap: int = 1000,
                          seed: Any = None, **options) -> BleuBootstrap:
    """Corpus score plus a bootstrap mean and 95 % CI. ``seed=None`` reads ``SACREBLEU_SEED`` like sacreBLEU."""
    d = get_dialect(dialect, **options)
    if d.needs_last_segment:
        raise ValueError(f"bootstrap is not defined for the {dialect} dialect (its smoothing depends on the "
                         "last segment)")
    candidates, references = normalize_corpus_input(candidates, references)
    if not candidates:
        raise ExplainerInputError("bootstrap needs at least one segment and the corpus is empty (score_bleu_corpus "
                                  "records what the library does with an empty corpus)")
    st = score_corpus(d, candidates, references)
    scores, seed_str = bootstrap_from_stats(d, st.segment_stats, n_bootstrap=n_bootstrap, seed=seed)
    srt = sorted(scores)
    n = len(srt)
    lo, hi = srt[n // 40], srt[n - n // 40 - 1]
    if dialect == "sacrebleu":
        sig = d.signature(_nrefs(references), n_bootstrap=n_bootstrap, seed=seed_str)
    else:
        sig = f"{st.signature}|bs:{n_bootstrap}|seed:{seed_str}"
    return BleuBootstrap(score=st.score, mean=statistics.mean(scores), ci=0.5 * (hi - lo), low=lo, high=hi,
                         n_bootstrap=n_bootstrap, seed=seed_str, signature=sig, faithful=dialect == "sacrebleu",
                         scores=scores)
