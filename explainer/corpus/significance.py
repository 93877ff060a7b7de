"""Bootstrap confidence intervals and paired significance tests, as sacreBLEU 2.6 computes them.

Reproduces ``sacrebleu/significance.py`` (and ``Metric.corpus_score(..., n_bootstrap=N)``) number for number:

* the seed: ``SACREBLEU_SEED`` (default ``"12345"``; ``"none"``: entropy from the OS). ``PairedTest`` seeds every
  comparison with ``default_rng(seed if seed else None)``: a seed of 0 leaves the comparisons unseeded (its
  line 407) while the baseline's own interval is drawn with ``default_rng(0)``;
* **paired bootstrap** (``_paired_bs_test``, Koehn 2004): one matrix ``rng.choice(S, size=(n, S))`` of segment
  indices, shared by the baseline and the system; segment statistics as float32; per resample the rows are
  summed and scored; ``p = (#{d - mean(d) > |BL - SYS|} + 1) / (n + 1)`` with ``d = |sys - bl|`` per resample;
  the system's mean and 95 % half-width from ``estimate_ci`` (the sorted scores at ``n//40`` and
  ``n - n//40 - 1``, NumPy's mean of the sorted array);
* **paired approximate randomization** (``_paired_ar_test``, Riezler & Maxwell 2005): a boolean matrix
  ``rng.integers(2, size=(n, S), dtype=bool)`` swaps each segment's statistics between the two systems;
  ``p = (#{|A - B| > |BL - SYS|} + 1) / (n + 1)``; no interval unless ``n_ar_confidence > 0`` (then bootstrap
  indices are drawn from the same generator after the swap matrix);
* the baseline's interval (``_bootstrap_resample``) and ``--confidence`` (``Score.estimate_ci``: the mean is
  ``statistics.mean`` there, NumPy's mean in ``PairedTest``).

How it differs from sacreBLEU, on purpose, without changing a number: the random draws are generated and used in
blocks of rows (NumPy's generators produce the same stream in blocks: for the swap matrix the blocks are a
multiple of 32 booleans, see tests/test_corpus_significance.py), the resampled sums come from a matrix product of
exact integer counts (equal to sacreBLEU's float32 sums while every sum is below 2^24, checked; otherwise its
own float32 summation is used), the statistics of every system are resampled in one pass when the comparisons
share their draws, and ``explainer.bleu.rowscore`` scores the rows with sacreBLEU's arithmetic. Memory stays
bounded by the block size, not by ``n x S``.

Other BLEU dialects and ROUGE get the same procedures on their own statistics: that is the project's own
extension (``faithful`` is False), not any implementation's feature.
"""
from __future__ import annotations

import os
import statistics
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from explainer.bleu.bootstrap import MAX_BOOTSTRAP, MAX_BOOTSTRAP_DRAWS
from explainer.errors import ExplainerInputError
from explainer.statistic import Statistic

__all__ = ["MAX_RESAMPLES", "MAX_TEST_CELLS", "DEFAULT_BS_N", "DEFAULT_AR_N", "Statistic", "SystemResult",
           "PairedResult", "Confidence", "TestTimeout", "PairMatrix", "pair_matrix", "clusters",
           "seed_from_env", "check_test_size", "bootstrap_confidence",
           "paired_test", "estimate_ci", "paired_signature", "confidence_signature"]

#: most bootstrap resamples (the core's bootstrap limit) and AR trials of one test (sacreBLEU's defaults: 1,000 and
#: 10,000; AR is cheaper per trial, and its p-values resolve 1/(n+1))
MAX_RESAMPLES = {"bs": MAX_BOOTSTRAP, "ar": 100_000}
#: most resamples x segments of one test: sacreBLEU's default AR (10,000 trials) on 20,000 segments. The random
#: draws and the sums grow with it (AR at the limit with 10 systems: about 6 s on a quiet 2-core machine, see
#: docs/benchmarks.md); memory does not (blocks of _BLOCK_CELLS). Each test is also bounded by time
#: (``time_limit``, checked between blocks). It used to be the single-system bootstrap's limit (100M draws), and
#: the page's own 20M, sized when the statistics were resampled per trial rather than as one matrix product.
MAX_TEST_CELLS = 200_000_000
assert MAX_TEST_CELLS >= MAX_BOOTSTRAP_DRAWS
DEFAULT_BS_N = 1000
DEFAULT_AR_N = 10000
_BLOCK_CELLS = 2_000_000         # random draws generated and used per block (16 MB of int64 indices)
_F32_EXACT = 2 ** 24             # every integer below it is exact in float32


@dataclass
class SystemResult:
    """sacreBLEU's ``Result`` (score, p_value, mean, ci) plus what the charts show."""

    name: str
    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None
    resampled: np.ndarray | None = field(default=None, repr=False)       # this system's resampled scores
    baseline_resampled: np.ndarray | None = field(default=None, repr=False)  # the baseline's, same draws (bs)
    null_stats: np.ndarray | None = field(default=None, repr=False)      # bs: d - mean(d); ar: |A - B|
    observed_diff: float | None = None                                   # |BL - SYS|
    seeded: bool = True

    def to_dict(self, *, with_samples: bool = False) -> dict:
        d = {"name": self.name, "score": float(self.score),
             "p_value": None if self.p_value is None else float(self.p_value),
             "mean": None if self.mean is None else float(self.mean),
             "ci": None if self.ci is None else float(self.ci)}
        if with_samples:
            for k in ("resampled", "baseline_resampled", "null_stats"):
                v = getattr(self, k)
                d[k] = None if v is None else [float(x) for x in v]
            d["observed_diff"] = self.observed_diff
        return d


@dataclass
class PairedResult:
    test: str                    # "bs" or "ar"
    n_samples: int
    seed: str                    # as sacreBLEU records it: "12345", "none", "0"
    n_ar_confidence: int
    systems: list[SystemResult]  # baseline first
    faithful: bool
    note: str = ""

    @classmethod
    def from_dict(cls, d: dict) -> "PairedResult":
        """Back from ``to_dict(with_samples=True)`` (a saved comparison): the same numbers and series."""
        def arr(v):
            return None if v is None else np.asarray(v, dtype=np.float64)

        systems = [SystemResult(s["name"], float(s["score"]), s.get("p_value"), s.get("mean"), s.get("ci"),
                                arr(s.get("resampled")), arr(s.get("baseline_resampled")), arr(s.get("null_stats")),
                                s.get("observed_diff")) for s in d["systems"]]
        return cls(test=d["test"], n_samples=int(d["n_samples"]), seed=str(d["seed"]),
                   n_ar_confidence=int(d.get("n_ar_confidence", -1)), systems=systems,
                   faithful=bool(d.get("faithful", True)), note=str(d.get("note", "")))

    def to_dict(self, *, with_samples: bool = False) -> dict:
        return {"test": self.test, "n_samples": self.n_samples, "seed": self.seed,
                "n_ar_confidence": self.n_ar_confidence, "faithful": self.faithful, "note": self.note,
                "systems": [s.to_dict(with_samples=with_samples) for s in self.systems]}


@dataclass
class Confidence:
    """``corpus_score(..., n_bootstrap=N)``: mean and 95 % half-width of N resampled scores."""

    score: float
    mean: float
    ci: float
    low: float
    high: float
    n_bootstrap: int
    seed: str
    resampled: np.ndarray = field(repr=False)
    faithful: bool = True
    #: the exception the real library raises here (its numbers are still given, computed in float64)
    library_error: str | None = None

    def to_dict(self, *, with_samples: bool = False) -> dict:
        d = {"score": float(self.score), "mean": float(self.mean), "ci": float(self.ci), "low": float(self.low),
             "high": float(self.high), "n_bootstrap": self.n_bootstrap, "seed": self.seed,
             "faithful": self.faithful}
        if self.library_error:
            d["library_error"] = self.library_error
        if with_samples:
            d["resampled"] = [float(x) for x in self.resampled]
        return d


# --------------------------------------------------------------------------------------------- helpers
def seed_from_env(seed: Any = None) -> tuple[str, int | None]:
    """(the seed as sacreBLEU records it, the value given to default_rng) from ``seed`` or ``SACREBLEU_SEED``."""
    if seed is None:
        seed = os.environ.get("SACREBLEU_SEED", "12345")
    s = str(seed)
    if s.lower() == "none":
        return "none", None
    try:
        return s.lower(), int(s)
    except ValueError:
        raise ExplainerInputError(f"SACREBLEU_SEED must be an integer or 'none', got {s!r}") from None


def paired_signature(plain: str, test: str, n: int, seed: str, n_ar_confidence: int = -1) -> str:
    """sacreBLEU's PairedTest signature from the plain one: ``bs:N`` / ``ar:N`` and ``seed:S`` after ``nrefs``
    (``Signature.format`` order: nrefs, bs, ar, seed, ...)."""
    extra = []
    if test == "bs":
        extra.append(f"bs:{n}")
    else:
        if n_ar_confidence > 0:
            extra.append(f"bs:{n_ar_confidence}")
        extra.append(f"ar:{n}")
    extra.append(f"seed:{seed}")
    return _insert_after_nrefs(plain, extra)


def confidence_signature(plain: str, n: int, seed: str) -> str:
    """sacreBLEU's signature of ``corpus_score(..., n_bootstrap=N)`` (``--confidence``): ``bs:N|seed:S`` after
    ``nrefs``."""
    return _insert_after_nrefs(plain, [f"bs:{n}", f"seed:{seed}"])


def _insert_after_nrefs(plain: str, extra: list[str]) -> str:
    parts = plain.split("|")
    return "|".join(parts[:1] + extra + parts[1:])


def check_test_size(n: int, n_segments: int, what: str, kind: str = "bs") -> None:
    """The stated limits, checked before any work (``kind``: "bs" for bootstrap resamples, "ar" for AR trials)."""
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise ExplainerInputError(f"{what}: the number of resamples must be a positive integer, got {n!r}")
    if n > MAX_RESAMPLES[kind]:
        raise ExplainerInputError(f"{what}: {n:,} {'resamples' if kind == 'bs' else 'trials'} is over the limit of "
                                  f"{MAX_RESAMPLES[kind]:,}")
    if n_segments < 1:
        raise ExplainerInputError(f"{what} needs at least one segment")
    if n * n_segments > MAX_TEST_CELLS:
        raise ExplainerInputError(
            f"{what}: {n:,} resamples x {n_segments:,} segments = {n * n_segments:,} draws, over the limit of "
            f"{MAX_TEST_CELLS:,} per test; use fewer resamples (at most {MAX_TEST_CELLS // n_segments:,} for this "
            "corpus)")


def estimate_ci(scores: np.ndarray) -> tuple[float, float, float, float]:
    """sacreBLEU's ``significance.estimate_ci``: (mean of the sorted scores, half-width, low, high)."""
    s = np.asarray(scores)
    if s.dtype.kind != "f":
        s = s.astype(np.float64)
    s = np.sort(s)                      # float32 scores (chrF) stay float32, as in sacreBLEU
    n = len(s)
    lo_i = n // 40
    hi_i = n - lo_i - 1
    lo, hi = s[lo_i], s[hi_i]
    return float(s.mean()), float(0.5 * (hi - lo)), float(lo), float(hi)


class TestTimeout(ExplainerInputError):
    """A test stopped at its time limit (the message says the limit and what to do instead)."""

    __test__ = False


class _Deadline:
    """``check()`` between blocks raises :class:`TestTimeout` once ``limit`` seconds have passed (None: never)."""

    def __init__(self, limit: float | None, what: str):
        import time

        self._now = time.perf_counter
        self.limit, self.what = limit, what
        self.t0 = self._now()

    def check(self) -> None:
        if self.limit is not None and self._now() - self.t0 > self.limit:
            raise TestTimeout(f"{self.what} stopped after {self.limit:g} s, the time limit of one test here; use "
                              "fewer resamples or trials, or the command line (`python -m explainer compare`), "
                              "which has no time limit")


_NO_DEADLINE = _Deadline(None, "")


def _block_rows(n_segments: int, multiple: int = 1) -> int:
    rows = max(1, _BLOCK_CELLS // max(1, n_segments))
    if multiple > 1:
        rows = max(multiple, rows - rows % multiple)
    return rows


def _f32_sums_exact(stats_list: Sequence[Statistic]) -> bool:
    """Every resampled sum of every column is an integer below 2^24, so float32 sums (sacreBLEU) are exact."""
    for st in stats_list:
        if not st.integer:
            return False
        a = np.abs(st.stats)
        if a.size and float(a.max()) * a.shape[0] >= _F32_EXACT:
            return False
    return True


def _mixed_types(values: list) -> bool:
    """Python floats among NumPy float32 scores (sacreBLEU's chrF returns the Python 0.0 for a row without any
    match): ``np.array`` makes them float64, ``statistics.mean`` refuses them (TypeError)."""
    return any(type(v) is float for v in values) and any(isinstance(v, np.float32) for v in values)


def _bootstrap_pass(rng: np.random.Generator, n: int, stats_list: Sequence[Statistic],
                    deadline: _Deadline = _NO_DEADLINE, tick: Callable[[float], None] | None = None,
                    mixed: list | None = None) -> list[np.ndarray]:
    """Resampled scores of every statistic under the same index matrix ``rng.choice(S, size=(n, S))``, drawn in
    blocks of rows (the same stream as one call). Rows are summed as sacreBLEU sums them and scored in mode f32
    (float32 statistics) or py (float64 statistics, the project's own extension)."""
    S = stats_list[0].stats.shape[0]
    exact = _f32_sums_exact(stats_list)
    block = _block_rows(S)
    out: list[list[float]] = [[] for _ in stats_list]
    if exact:
        big = np.hstack([st.stats.astype(np.float64) for st in stats_list])
        widths = np.cumsum([0] + [st.stats.shape[1] for st in stats_list])
    done = 0
    while done < n:
        m = min(block, n - done)
        idx = rng.choice(S, size=(m, S), replace=True)
        done += m
        if exact:
            counts = np.bincount((idx + (np.arange(m) * S)[:, None]).ravel(), minlength=m * S).reshape(m, S)
            sums = counts.astype(np.float64) @ big
            del counts
            for j, st in enumerate(stats_list):
                rows = sums[:, widths[j]:widths[j + 1]]
                if st.resample_dtype == np.float32:
                    out[j].extend(st.score_rows(rows.astype(np.float32), "f32"))
                else:
                    out[j].extend(st.score_rows(rows, "py"))
        else:
            for j, st in enumerate(stats_list):
                arr = st.stats.astype(st.resample_dtype)
                # sacreBLEU's own summation: ``stats_np[idxs]`` then ``_s.sum(0)`` per resample
                rows = np.stack([arr[r].sum(0) for r in idx])
                out[j].extend(st.score_rows(rows, "f32" if st.resample_dtype == np.float32 else "py"))
        del idx
        if tick is not None:
            tick(done / n)
        deadline.check()
    if mixed is not None:
        mixed.extend(j for j, (x, st) in enumerate(zip(out, stats_list)) if st.native_scores and _mixed_types(x))
    return [np.array(x) if st.native_scores else np.asarray(x, dtype=np.float64) for x, st in zip(out, stats_list)]


# ------------------------------------------------------------------------------------- --confidence
def bootstrap_confidence(st: Statistic, n: int = DEFAULT_BS_N, *, seed: Any = None, faithful: bool = True,
                         time_limit: float | None = None) -> Confidence:
    """``Metric.corpus_score(..., n_bootstrap=n)``: ``_bootstrap_resample`` + ``Score.estimate_ci``.
    ``time_limit``: seconds (None: none); over it :class:`TestTimeout` is raised."""
    S = st.stats.shape[0]
    check_test_size(n, S, "the bootstrap confidence interval")
    seed_str, seed_val = seed_from_env(seed)
    mixed: list = []
    scores = _bootstrap_pass(np.random.default_rng(seed_val), n, [st],
                             _Deadline(time_limit, "the bootstrap confidence interval"), mixed=mixed)[0]
    # Score.estimate_ci sorts the scores as they are: Python floats, or NumPy float32 for chrF (then its
    # statistics.mean and half-width are float32 too)
    srt = sorted(scores) if st.native_scores and scores.dtype == np.float32 else sorted(scores.tolist())
    lo_i = n // 40
    lo, hi = srt[lo_i], srt[n - lo_i - 1]
    err = None
    if mixed:
        err = ("TypeError: don't know how to coerce float and float32 (sacreBLEU's Score.estimate_ci: a resample "
               "without any match scores the Python 0.0 among float32 scores; the mean shown is computed in float64)")
    return Confidence(score=st.score, mean=float(statistics.mean(srt)), ci=float(0.5 * (hi - lo)), low=float(lo),
                      high=float(hi), n_bootstrap=n, seed=seed_str, resampled=scores, faithful=faithful,
                      library_error=err)


# ------------------------------------------------------------------------------------------ PairedTest
def paired_test(named: Sequence[tuple[str, Statistic]], *, test: str = "bs", n_samples: int = 0,
                n_ar_confidence: int = -1, seed: Any = None, faithful: bool = True,
                progress: Callable[[float], None] | None = None, time_limit: float | None = None) -> PairedResult:
    """``PairedTest(named_systems, ..., test_type=test, n_samples=n_samples, n_ar_confidence=...)()``.
    The first system is the baseline. ``n_samples=0``: sacreBLEU's default (bs 1,000, ar 10,000).
    ``time_limit``: seconds for the whole test (None: none), checked between blocks of draws; over it
    :class:`TestTimeout` says so."""
    if test not in ("bs", "ar"):
        raise ExplainerInputError(f"unknown paired test {test!r}: choose bs (bootstrap) or ar (approximate "
                                  "randomization)")
    if len(named) < 2:
        raise ExplainerInputError("a paired test needs at least two systems (the first one is the baseline)")
    S = named[0][1].stats.shape[0]
    if any(st.stats.shape[0] != S for _, st in named):
        raise ExplainerInputError("paired tests need the same segments for every system")
    n = n_samples if n_samples > 0 else (DEFAULT_BS_N if test == "bs" else DEFAULT_AR_N)
    n_conf = n_ar_confidence if n_ar_confidence != 0 else DEFAULT_BS_N
    what = "paired bootstrap" if test == "bs" else "paired approximate randomization"
    check_test_size(n, S, what, test)
    if test == "ar" and n_conf > 0:
        check_test_size(n_conf, S, "the bootstrap interval of the AR test")
    seed_str, bl_seed = seed_from_env(seed)
    cmp_seed = bl_seed if bl_seed else None          # PairedTest line 407: 0 and None leave it unseeded
    bl_name, bl = named[0]
    base = SystemResult(bl_name, bl.score, seeded=bl_seed is not None)
    others = [SystemResult(nm, st.score, observed_diff=abs(bl.score - st.score), seeded=cmp_seed is not None)
              for nm, st in named[1:]]
    tick = progress or (lambda f: None)
    dl = _Deadline(time_limit, what)
    if test == "bs":
        _run_bs(named, n, bl_seed, cmp_seed, base, others, tick, dl)
    else:
        _run_ar(named, n, n_conf, bl_seed, cmp_seed, base, others, tick, dl)
    tick(1.0)
    note = ("" if faithful else "the project's own extension: sacreBLEU's procedure applied to this metric's "
            "statistics (no implementation has this test)")
    return PairedResult(test=test, n_samples=n, seed=seed_str, n_ar_confidence=n_conf if test == "ar" else -1,
                        systems=[base] + others, faithful=faithful, note=note)


def _paired_bs_finish(res: SystemResult, bl_scores: np.ndarray, sys_scores: np.ndarray) -> None:
    res.mean, res.ci, _, _ = estimate_ci(sys_scores)
    sample_diffs = np.abs(sys_scores - bl_scores)
    stats = sample_diffs - sample_diffs.mean()
    c = np.sum(stats > res.observed_diff).item()
    res.p_value = (c + 1) / (len(stats) + 1)
    res.resampled, res.baseline_resampled, res.null_stats = sys_scores, bl_scores, stats


def _run_bs(named, n, bl_seed, cmp_seed, base, others, tick, dl=_NO_DEADLINE) -> None:
    stats = [st for _, st in named]
    if cmp_seed is not None:
        # seeded: the baseline's interval and every comparison draw the same index matrix; resample all at once
        scores = _bootstrap_pass(np.random.default_rng(bl_seed), n, stats, dl, tick)
        base.mean, base.ci, _, _ = estimate_ci(scores[0])
        base.resampled = scores[0]
        for res, sc in zip(others, scores[1:]):
            _paired_bs_finish(res, scores[0], sc)
        return
    bl_scores = _bootstrap_pass(np.random.default_rng(bl_seed), n, stats[:1], dl)[0]
    base.mean, base.ci, _, _ = estimate_ci(bl_scores)
    base.resampled = bl_scores
    for k, (res, st) in enumerate(zip(others, stats[1:])):
        b, s = _bootstrap_pass(np.random.default_rng(cmp_seed), n, [stats[0], st], dl)
        _paired_bs_finish(res, b, s)
        tick((k + 1) / len(others))


def _ar_pass(rng, n: int, bl: Statistic, systems: Sequence[Statistic], tick, share: float,
             dl: _Deadline = _NO_DEADLINE) -> list[tuple[np.ndarray, np.ndarray]]:
    """|A - B| ingredients for every system under the same swap matrix, drawn in blocks of rows (a multiple of
    32 booleans per block keeps NumPy's stream identical to one call)."""
    S = bl.stats.shape[0]
    block = _block_rows(S, multiple=32)
    blf = bl.stats.astype(np.float64)
    sum_bl = blf.sum(0)
    diffs = [blf - st.stats.astype(np.float64) for st in systems]
    sums_sys = [st.stats.astype(np.float64).sum(0) for st in systems]
    D = np.hstack(diffs)
    k = bl.stats.shape[1]
    out_a: list[list[float]] = [[] for _ in systems]
    out_b: list[list[float]] = [[] for _ in systems]
    done = 0
    while done < n:
        m = min(block, n - done)
        pos = rng.integers(2, size=(m, S), dtype=bool)
        done += m
        swapped = pos.astype(np.float64) @ D           # pos @ (bl - sys), exact integers for BLEU
        del pos
        for j, st in enumerate(systems):
            sw = swapped[:, j * k:(j + 1) * k]
            a = sums_sys[j] + sw                       # pos @ bl + neg @ sys
            b = sum_bl - sw                            # neg @ bl + pos @ sys
            if st.integer:
                a = np.rint(a).astype(np.int64)
                b = np.rint(b).astype(np.int64)
            out_a[j].extend(st.score_rows(a, "i64"))
            out_b[j].extend(st.score_rows(b, "i64"))
        tick(share * done / n)
        dl.check()
    return [(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)) for a, b in zip(out_a, out_b)]


def _ar_finish(res: SystemResult, a: np.ndarray, b: np.ndarray) -> None:
    stats = np.abs(a - b)
    c = np.sum(stats > res.observed_diff).item()
    res.p_value = (c + 1) / (len(stats) + 1)
    res.null_stats = stats


def _run_ar(named, n, n_conf, bl_seed, cmp_seed, base, others, tick, dl=_NO_DEADLINE) -> None:
    bl = named[0][1]
    systems = [st for _, st in named[1:]]
    if n_conf > 0:
        bl_scores = _bootstrap_pass(np.random.default_rng(bl_seed), n_conf, [bl], dl)[0]
        base.mean, base.ci, _, _ = estimate_ci(bl_scores)
        base.resampled = bl_scores
    if cmp_seed is not None:
        rng = np.random.default_rng(cmp_seed)
        pairs = _ar_pass(rng, n, bl, systems, tick, 0.9, dl)
        for res, (a, b) in zip(others, pairs):
            _ar_finish(res, a, b)
        if n_conf > 0:
            # drawn after the swap matrix, from the same generator (the same for every comparison)
            sc = _bootstrap_pass(rng, n_conf, systems, dl)
            for res, s in zip(others, sc):
                res.mean, res.ci, _, _ = estimate_ci(s)
                res.resampled = s
        return
    for k, (res, st) in enumerate(zip(others, systems)):
        rng = np.random.default_rng(None)
        (a, b), = _ar_pass(rng, n, bl, [st], lambda f: None, 1.0, dl)
        _ar_finish(res, a, b)
        if n_conf > 0:
            s = _bootstrap_pass(rng, n_conf, [st], dl)[0]
            res.mean, res.ci, _, _ = estimate_ci(s)
            res.resampled = s
        tick((k + 1) / len(others))


# ---------------------------------------------------------------------------------- every pair, clusters
@dataclass
class PairMatrix:
    """Every pair of systems under one paired test: ``p[i][j]`` is the p-value of system j against baseline i
    (sacreBLEU's PairedTest with that baseline: its statistic is symmetric, so ``p[i][j] == p[j][i]`` when the
    comparisons are seeded); the diagonal is None. ``clusters``: WMT-style groups (:func:`clusters`), ranked in
    the measure's direction (``higher_is_better`` False: an error rate such as TER, the lowest first)."""

    test: str
    n_samples: int
    seed: str
    names: list[str]
    scores: list[float]
    p: list[list[float | None]]
    alpha: float
    clusters: list[list[str]]
    faithful: bool
    higher_is_better: bool = True

    def to_dict(self) -> dict:
        better = "better" if self.higher_is_better else "better (lower)"
        return {"test": self.test, "n_samples": self.n_samples, "seed": self.seed, "names": self.names,
                "scores": [float(x) for x in self.scores], "p_values": self.p, "alpha": self.alpha,
                "clusters": self.clusters, "faithful": self.faithful, "higher_is_better": self.higher_is_better,
                "clustering": (f"systems ordered by score, best first; a cluster ends where every system above is "
                               f"significantly {better} (p < {self.alpha:g}) than every system below")}


def pair_matrix(named: Sequence[tuple[str, Statistic]], *, test: str = "bs", n_samples: int = 0, seed: Any = None,
                alpha: float = 0.05, faithful: bool = True, progress: Callable[[float], None] | None = None,
                time_limit: float | None = None, higher_is_better: bool = True) -> PairMatrix:
    """Every pair of systems: for each system i, ``paired_test`` with i as the baseline against the systems after
    it. Seeded, every comparison draws the same resamples or swaps whatever the baseline, so one pass over the
    draws gives every cell (the bootstrap's resampled scores of every system; AR's swapped sums of every pair),
    number for number what ``paired_test`` gives cell by cell; unseeded (seed ``none`` or 0), a test per baseline.
    The time limit covers the whole matrix."""
    K = len(named)
    if K < 2:
        raise ExplainerInputError("the significance matrix needs at least two systems")
    if test not in ("bs", "ar"):
        raise ExplainerInputError(f"unknown paired test {test!r}: choose bs (bootstrap) or ar (approximate "
                                  "randomization)")
    S = named[0][1].stats.shape[0]
    if any(st.stats.shape[0] != S for _, st in named):
        raise ExplainerInputError("paired tests need the same segments for every system")
    n = n_samples if n_samples > 0 else (DEFAULT_BS_N if test == "bs" else DEFAULT_AR_N)
    what = "the matrix of every pair"
    check_test_size(n, S, what, test)
    seed_str, bl_seed = seed_from_env(seed)
    tick = progress or (lambda f: None)
    dl = _Deadline(time_limit, what)
    if not bl_seed:      # unseeded comparisons (PairedTest's line 407): a test of its own per baseline
        p = _matrix_by_baseline(named, test, n, seed, faithful, tick, time_limit)
    elif test == "bs":
        p = _matrix_bs(named, n, bl_seed, tick, dl)
    else:
        p = _matrix_ar(named, n, bl_seed, tick, dl)
    tick(1.0)
    names = [nm for nm, _ in named]
    scores = [float(st.score) for _, st in named]
    return PairMatrix(test=test, n_samples=n, seed=seed_str, names=names, scores=scores, p=p, alpha=alpha,
                      clusters=clusters(names, scores, p, alpha, higher_is_better=higher_is_better),
                      faithful=faithful, higher_is_better=higher_is_better)


def _empty(K: int) -> list[list[float | None]]:
    return [[None] * K for _ in range(K)]


def _matrix_by_baseline(named, test, n, seed, faithful, tick, time_limit) -> list[list[float | None]]:
    import time

    K = len(named)
    p = _empty(K)
    t0 = time.perf_counter()
    total, done = K * (K - 1) / 2, 0
    for i in range(K - 1):
        left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - t0))
        n_pairs = K - 1 - i
        res = paired_test([named[i]] + list(named[i + 1:]), test=test, n_samples=n, seed=seed, faithful=faithful,
                          time_limit=left, progress=lambda f, _d=done, _n=n_pairs: tick((_d + f * _n) / total))
        for k, s in enumerate(res.systems[1:]):
            p[i][i + 1 + k] = p[i + 1 + k][i] = float(s.p_value)
        done += n_pairs
    return p


def _matrix_bs(named, n, seed, tick, dl) -> list[list[float | None]]:
    """Seeded bootstrap: ``paired_test`` with baseline i draws ``default_rng(seed).choice(S, (n, S))`` whatever
    i is, so every system's resampled scores come from one pass; each cell is ``_paired_bs_finish``'s p."""
    K = len(named)
    scores = _bootstrap_pass(np.random.default_rng(seed), n, [st for _, st in named], dl, tick)
    p = _empty(K)
    for i in range(K - 1):
        for j in range(i + 1, K):
            res = SystemResult(named[j][0], named[j][1].score,
                               observed_diff=abs(named[i][1].score - named[j][1].score))
            _paired_bs_finish(res, scores[i], scores[j])
            p[i][j] = p[j][i] = float(res.p_value)
    return p


def _matrix_ar(named, n, seed, tick, dl) -> list[list[float | None]]:
    """Seeded AR: every baseline's test draws the same swap matrix (``default_rng(seed)``), so one pass over its
    blocks serves every pair. Integer statistics: each pair's swapped sums from the products of the swap matrix
    with every system's statistics (exact integers, the same numbers whatever the order of the sums); other
    statistics: the product with the differences of the pair, as ``paired_test`` computes it."""
    K = len(named)
    stats = [st for _, st in named]
    S = stats[0].stats.shape[0]
    rng = np.random.default_rng(seed)
    block = _block_rows(S, multiple=32)
    integer = all(st.integer for st in stats)
    f64 = [st.stats.astype(np.float64) for st in stats]
    totals = [a.sum(0) for a in f64]
    both = np.hstack(f64) if integer else None
    width = stats[0].stats.shape[1]
    out = {(i, j): ([], []) for i in range(K - 1) for j in range(i + 1, K)}
    done = 0
    while done < n:
        m = min(block, n - done)
        pos = rng.integers(2, size=(m, S), dtype=bool)
        done += m
        per = (pos.astype(np.float64) @ both) if integer else None
        for i in range(K - 1):
            if integer:
                pi = per[:, i * width:(i + 1) * width]
                swapped = [pi - per[:, j * width:(j + 1) * width] for j in range(i + 1, K)]
            else:
                D = np.hstack([f64[i] - f64[j] for j in range(i + 1, K)])
                sw = pos.astype(np.float64) @ D
                swapped = [sw[:, k * width:(k + 1) * width] for k in range(K - 1 - i)]
            for k, sw in enumerate(swapped):
                j = i + 1 + k
                a, b = totals[j] + sw, totals[i] - sw
                if stats[j].integer:
                    a, b = np.rint(a).astype(np.int64), np.rint(b).astype(np.int64)
                out[(i, j)][0].extend(stats[j].score_rows(a, "i64"))
                out[(i, j)][1].extend(stats[j].score_rows(b, "i64"))
        del pos
        tick(done / n)
        dl.check()
    p = _empty(K)
    for (i, j), (a, b) in out.items():
        res = SystemResult(named[j][0], named[j][1].score, observed_diff=abs(named[i][1].score - named[j][1].score))
        _ar_finish(res, np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
        p[i][j] = p[j][i] = float(res.p_value)
    return p


def clusters(names: Sequence[str], scores: Sequence[float], p: Sequence[Sequence[float | None]],
             alpha: float = 0.05, *, higher_is_better: bool = True) -> list[list[str]]:
    """WMT-style clusters: the systems ordered by score, best first (the highest; for an error rate such as TER,
    ``higher_is_better=False``, the lowest); a boundary between ranks k and k+1 where every system ranked 1..k is
    significantly better (p < alpha) than every system ranked k+1..K. Systems in one cluster are not told apart;
    each system of a cluster beats every system of the clusters below."""
    sign = 1.0 if higher_is_better else -1.0
    order = sorted(range(len(names)), key=lambda j: (-sign * scores[j], j))
    out: list[list[str]] = [[]]
    for pos, j in enumerate(order):
        out[-1].append(names[j])
        above, below = order[:pos + 1], order[pos + 1:]
        if below and all(p[a][b] is not None and p[a][b] < alpha and sign * scores[a] > sign * scores[b]
                         for a in above for b in below):
            out.append([])
    return out
