"""Bootstrap confidence intervals over the per-segment sufficient statistics.

For the ``sacrebleu`` dialect this reproduces ``BLEU().corpus_score(..., n_bootstrap=N)`` exactly
(``sacrebleu/significance.py`` ``_bootstrap_resample`` and ``Score.estimate_ci``; docs/dialects-bleu.md): the seed
comes from ``SACREBLEU_SEED`` (default ``"12345"``, ``"none"`` = OS entropy), ``numpy.random.default_rng(seed)``
draws ``choice(S, size=(N, S))``, the segment statistics are converted to **float32**, every resample's rows are
summed and combined by the dialect, and the CI half-width is half the distance between the sorted scores at
``N//40`` and ``N - N//40 - 1``; the mean is ``statistics.mean``. Other dialects use the same resampling on
their own statistics (not an implementation's feature; labelled as such).

Bounded: at most ``MAX_BOOTSTRAP`` resamples and ``MAX_BOOTSTRAP_DRAWS`` segment draws (resamples x segments),
checked before anything is computed. The resamples are drawn and summed in chunks of about
``BOOTSTRAP_CHUNK_DRAWS`` draws, so memory stays flat whatever N is; drawing the same generator in chunks gives
exactly the numbers of sacreBLEU's one ``choice(S, size=(N, S))`` call (tested), and every resample is summed
as sacreBLEU sums it (``stats[idx].sum(0)`` on float32), so the scores are identical.
"""
from __future__ import annotations

import operator
import os
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from explainer.bleu.algorithm import normalize_corpus_input, nrefs_of, score_corpus
from explainer.bleu.registry import get_dialect
from explainer.errors import ExplainerInputError

__all__ = ["BleuBootstrap", "bootstrap_bleu_corpus", "bootstrap_from_stats", "check_bootstrap_size",
           "MAX_BOOTSTRAP", "MAX_BOOTSTRAP_DRAWS"]

#: Most resamples one bootstrap may draw (sacreBLEU's default is 1,000; its docs suggest 1,000-10,000).
MAX_BOOTSTRAP = 10_000
#: Most segment draws (resamples x segments) one bootstrap may make: about 10 s of work on this machine.
MAX_BOOTSTRAP_DRAWS = 100_000_000
#: Segment draws per chunk (memory per chunk: draws x (8 + 4 x statistics) bytes, ~5 MB at max order 4).
BOOTSTRAP_CHUNK_DRAWS = 100_000


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


def check_bootstrap_size(n_bootstrap: Any, n_segments: int) -> int:
    """``n_bootstrap`` as an int within the stated bounds, else a ValueError that states them."""
    if isinstance(n_bootstrap, bool):
        raise ValueError(f"n_bootstrap must be a whole number, got {n_bootstrap!r}")
    try:
        n = operator.index(n_bootstrap)
    except TypeError:
        raise ValueError(f"n_bootstrap must be a whole number, got {type(n_bootstrap).__name__}") from None
    if n < 1:
        raise ValueError("n_bootstrap must be at least 1")
    if n > MAX_BOOTSTRAP:
        raise ValueError(f"n_bootstrap = {n:,} is over the limit of {MAX_BOOTSTRAP:,} resamples "
                         "(explainer.bleu.MAX_BOOTSTRAP); sacreBLEU's default is 1,000")
    if n * n_segments > MAX_BOOTSTRAP_DRAWS:
        raise ValueError(f"a bootstrap of {n:,} resamples over {n_segments:,} segments draws {n * n_segments:,} "
                         f"segments, over the limit of {MAX_BOOTSTRAP_DRAWS:,} "
                         "(explainer.bleu.bootstrap.MAX_BOOTSTRAP_DRAWS); use fewer resamples, e.g. "
                         f"{max(1, MAX_BOOTSTRAP_DRAWS // n_segments):,}")
    return n


def bootstrap_from_stats(d, segment_stats: Sequence[Sequence], *, n_bootstrap: int = 1000,
                         seed: Any = None) -> tuple[list[float], str]:
    """Resampled scores from per-segment statistics, exactly as sacreBLEU draws and sums them, in chunks."""
    import numpy as np

    if not segment_stats:
        raise ValueError("bootstrap needs at least one segment")
    S = len(segment_stats)
    n_bootstrap = check_bootstrap_size(n_bootstrap, S)
    seed_str, seed_val = _seed_from_env(seed)
    rng = np.random.default_rng(seed_val)
    stats_np = np.array(segment_stats, dtype="float32")
    N = d.max_order
    chunk = max(1, BOOTSTRAP_CHUNK_DRAWS // S)
    scores = []
    for start in range(0, n_bootstrap, chunk):
        idxs = rng.choice(S, size=(min(chunk, n_bootstrap - start), S), replace=True)
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
        raise ValueError(f"bootstrap is not defined for the {d.name} dialect (its smoothing depends on the "
                         "last segment)")
    candidates, references = normalize_corpus_input(candidates, references)
    if not candidates:
        raise ExplainerInputError("bootstrap needs at least one segment and the corpus is empty (score_bleu_corpus "
                                  "records what the library does with an empty corpus)")
    n_bootstrap = check_bootstrap_size(n_bootstrap, len(candidates))   # before any scoring
    st = score_corpus(d, candidates, references)
    scores, seed_str = bootstrap_from_stats(d, st.segment_stats, n_bootstrap=n_bootstrap, seed=seed)
    srt = sorted(scores)
    n = len(srt)
    lo, hi = srt[n // 40], srt[n - n // 40 - 1]
    sig = d.bootstrap_signature(nrefs_of(references), n_bootstrap, seed_str)
    return BleuBootstrap(score=st.score, mean=statistics.mean(scores), ci=0.5 * (hi - lo), low=lo, high=hi,
                         n_bootstrap=n_bootstrap, seed=seed_str, signature=sig, faithful=d.sacrebleu_significance,
                         scores=scores)
