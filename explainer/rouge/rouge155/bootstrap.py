"""ROUGE-1.5.5's corpus "Average": a bootstrap mean with Perl's own drand48, reproduced exactly.

``computeAverages`` / ``bootstrapResampling`` (ROUGE-1.5.5.pl):

* the per-evaluation values (already rounded to 5 decimals, ``-t 0``; raw counts with ``-t 1``) are keyed
  by ``"<evalID>.<peerID>"`` and the keys are sorted **as strings** (``"1.X" < "10.X" < "2.X"``);
* resample ``i`` (``i = 0 .. r-1``) calls ``srand(i)`` and draws ``int(rand(N))`` N times;
* ``-t 0``: the resample's value is the mean of the drawn values; ``-t 1``: the drawn counts are summed
  and R = H/M, P = H/P, F = R·P/((1-α)·P + α·R);
* the resample values are sorted, summed in that order and divided by r: ``Average_X`` (``%7.5f``);
* the CI bounds are order statistics with linear interpolation between neighbours.

Perl >= 5.20 ships its own drand48 (``X <- (0x5DEECE66D·X + 0xB) mod 2^48``, ``srand(s)`` sets
``X = s·2^16 + 0x330E``, ``rand(n) = n · X / 2^48``), so the numbers are platform independent and this
module reproduces the printed averages and intervals digit for digit.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Drand48", "perl_round5", "bootstrap_average", "BootstrapResult", "sort_eval_keys"]

_MULT = 0x5DEECE66D
_ADD = 0xB
_MASK = (1 << 48) - 1
_TWO48 = float(1 << 48)


class Drand48:
    """Perl's ``srand``/``rand`` (perl >= 5.20, util.c ``Perl_drand48_r``)."""

    __slots__ = ("x",)

    def __init__(self, seed: int = 0):
        self.srand(seed)

    def srand(self, seed: int) -> None:
        self.x = (((seed & 0xFFFFFFFF) << 16) + 0x330E) & _MASK

    def drand(self) -> float:
        self.x = (self.x * _MULT + _ADD) & _MASK
        return self.x / _TWO48  # exact: x < 2^48 fits a double's mantissa

    def rand(self, n: float) -> float:
        return float(n) * self.drand()


def perl_round5(x: float) -> float:
    """``sprintf("%7.5f", x)`` read back as a number (C's correctly rounded conversion, like Python's)."""
    return float("%.5f" % x)


def sort_eval_keys(keys) -> list[str]:
    """Perl ``sort keys %h``: plain string order (code points = bytes for these ASCII ids)."""
    return sorted(keys)


@dataclass(frozen=True)
class BootstrapResult:
    average: tuple[float, float, float]  # Average_R, Average_P, Average_F (printed, 5 decimals)
    ci_low: tuple[float, float, float]
    ci_high: tuple[float, float, float]
    plain_mean: tuple[float, float, float]  # -t 0: mean of the per-item values; -t 1: pooled H/M, H/P, F (not printed)
    n_resamples: int
    confidence: float
    ci_indices: tuple[int, int, int, int, float]  # ciLa, ciLb, ciUa, ciUb, ratio

    def to_dict(self) -> dict:
        names = ("R", "P", "F")
        return {
            n: {"value": self.average[k], "ci_low": self.ci_low[k], "ci_high": self.ci_high[k],
                "plain_mean": self.plain_mean[k]}
            for k, n in enumerate(names)
        } | {"n_resamples": self.n_resamples, "confidence": self.confidence}


def bootstrap_average(scores: dict[str, tuple[float, float, float]], *, n_resamples: int = 1000,
                      confidence: float = 95.0, mode: int = 0, alpha: float = 0.5) -> BootstrapResult:
    """``computeAverages`` for ``-t 0`` (mode 0: ``scores`` are per-eval (R, P, F), 5-decimal values) or
    ``-t 1`` (mode 1: ``scores`` are per-eval (model count, peer count, hit count))."""
    if mode not in (0, 1):
        raise ValueError("bootstrap averages exist for -t 0 and -t 1 only (-t 2 prints raw counts)")
    rows = [scores[k] for k in sort_eval_keys(scores)]
    plain = _plain_mean(rows, mode, alpha)
    samples = _resample(rows, n_resamples, mode, alpha)
    avg = []
    for k in range(3):
        samples[k].sort()
        acc = 0.0
        for v in samples[k]:
            acc += v
        avg.append(perl_round5(acc / len(samples[k])) if samples[k] else 0.0)
    delta = n_resamples * ((100 - confidence) / 2.0) / 100.0
    ci_ua = int(n_resamples - delta - 1)
    ci_ub = ci_ua + 1
    ci_la = int(delta)
    ci_lb = ci_la + 1
    ci_r = n_resamples - delta - 1 - ci_ua
    low, high = [], []
    for k in range(3):
        arr = samples[k]
        low.append(perl_round5(_at(arr, ci_la) + (_at(arr, ci_lb) - _at(arr, ci_la)) * ci_r))
        high.append(perl_round5(_at(arr, ci_ua) + (_at(arr, ci_ub) - _at(arr, ci_ua)) * ci_r))
    return BootstrapResult(tuple(avg), tuple(low), tuple(high), plain, n_resamples, confidence,
                           (ci_la, ci_lb, ci_ua, ci_ub, ci_r))


def _plain_mean(rows: list, mode: int, alpha: float) -> tuple[float, float, float]:
    """The values without resampling: -t 0 the mean of the items, -t 1 the pooled ratios (not printed)."""
    n = len(rows)
    tot = [0.0, 0.0, 0.0]
    for r in rows:
        tot[0] += r[0]
        tot[1] += r[1]
        tot[2] += r[2]
    if mode == 0:
        return tuple(perl_round5(t / n) if n else 0.0 for t in tot)
    pr = tot[2] / tot[0] if tot[0] > 0 else 0.0
    pp = tot[2] / tot[1] if tot[1] > 0 else 0.0
    # The pooled ratios without resampling. (The script also computes an F here with (R+P) in the
    # numerator, a bug, but never prints it; the printed Average_F comes from the resamples.)
    den = (1 - alpha) * pp + alpha * pr
    pf = (pr * pp) / den if den > 0 else 0.0
    return perl_round5(pr), perl_round5(pp), perl_round5(pf)


def _resample(rows: list, n_resamples: int, mode: int, alpha: float) -> list[list[float]]:
    """``bootstrapResampling``: resample i draws N rows with ``int(rand(N))`` after ``srand(i)``; its value is the
    mean of the drawn values (-t 0) or R, P, F of the summed counts (-t 1). Returns the R, P, F sample lists."""
    n = len(rows)
    rng = Drand48()
    samples: list[list[float]] = [[], [], []]
    for i in range(n_resamples):
        rng.srand(i)
        s0 = s1 = s2 = None
        for _ in range(n):
            r = rows[int(rng.rand(n))]
            if s0 is None:
                s0, s1, s2 = float(r[0]), float(r[1]), float(r[2])
            else:
                s0 += r[0]
                s1 += r[1]
                s2 += r[2]
        if mode == 0:
            if n > 0:
                s0, s1, s2 = s0 / n, s1 / n, s2 / n
            else:
                s0 = s1 = s2 = 0.0
        else:
            if n == 0:
                s0 = s1 = s2 = 0.0
            tr = s2 / s0 if s0 > 0 else 0.0
            tp = s2 / s1 if s1 > 0 else 0.0
            den = (1 - alpha) * tp + alpha * tr
            tf = (tr * tp) / den if den > 0 else 0.0
            s0, s1, s2 = tr, tp, tf
        samples[0].append(s0)
        samples[1].append(s1)
        samples[2].append(s2)
    return samples


def _at(arr: list[float], i: int) -> float:
    """Perl array access: an index past the end is undef, i.e. 0 in arithmetic."""
    if -len(arr) <= i < len(arr):
        return arr[i]
    return 0.0
