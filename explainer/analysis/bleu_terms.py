"""The terms of BLEU's final formula as the library adds them. Pure: reads a BleuTrace, computes nothing new.

Dialects record ``OrderResult.log_term`` differently — sacreBLEU the log of the percentage, NLTK the weighted
``w·log p``, the Moses scripts and sacreBLEU ``-9999999999`` instead of log 0, the textbook's
``log(max(p, 1e-10))`` while its ``precision`` stays 0 — and :func:`log_terms` turns them into one form: the
value that enters the log (on 0..1), its weight, and whether the library weights each term or divides the sum.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["LogTerm", "log_terms", "weighted_sum", "percent_logs", "value_in_log", "LOG0_SENTINEL_BELOW",
           "smoothing_in_use", "geometric_mean"]

#: a log term this low is not a log but a library's stand-in for log 0 (sacreBLEU's and Moses' -9999999999)
LOG0_SENTINEL_BELOW = -1e9


@dataclass(frozen=True)
class LogTerm:
    n: int
    value: float             # the precision as it enters the log, on 0..1 (after smoothing, floors, substitutions)
    weight: float            # the order's weight w_n
    sentinel: float | None   # the number the library adds instead of log 0, when it does (else None)


def weighted_sum(trace) -> bool:
    """True when the library adds w_n·log p_n (NLTK); False when it adds log p_n and divides by the number of
    orders (sacreBLEU, the Moses scripts, HF, the textbook)."""
    comb = trace.combination
    if comb.log_sum is None or comb.log_mean is None:
        return False
    return comb.effective_order > 1 and math.isclose(comb.log_mean, comb.log_sum, rel_tol=1e-12, abs_tol=1e-12)


def percent_logs(trace) -> bool:
    """True when the library takes the log of precisions in percent (sacreBLEU)."""
    if trace.scale != 100:
        return False
    for o in trace.combination.orders:
        t = o.log_term
        if o.included and t is not None and t > LOG0_SENTINEL_BELOW and o.precision and math.isfinite(o.precision) \
                and o.precision > 0:
            raw = t / o.weight if weighted_sum(trace) and o.weight else t
            return abs(raw - math.log(100 * o.precision)) < abs(raw - math.log(o.precision))
    return False


def log_terms(trace) -> list[LogTerm]:
    """The included orders' terms, in order; [] when the library takes no logs (an early return)."""
    comb = trace.combination
    if comb.log_sum is None:
        return []
    weighted, percent = weighted_sum(trace), percent_logs(trace)
    out = []
    for o in comb.orders:
        if not o.included or o.log_term is None:
            continue
        t = o.log_term
        if t <= LOG0_SENTINEL_BELOW:
            out.append(LogTerm(o.n, 0.0, o.weight, t))
            continue
        raw = t / o.weight if weighted and o.weight else t
        x = math.exp(raw) if raw < 710 else math.inf
        out.append(LogTerm(o.n, x / 100 if percent else x, o.weight, None))
    return out


def value_in_log(trace, n: int) -> float | None:
    """The value order n enters the log with (0..1), None when it does not enter it."""
    for term in log_terms(trace):
        if term.n == n:
            return term.value
    return None


def geometric_mean(trace) -> float:
    """exp(the mean the library takes) on 0..1 (sacreBLEU's is in percent: divided by 100)."""
    comb = trace.combination
    if comb.log_mean is None:
        return comb.geo_mean / (100 if percent_logs(trace) else 1)
    try:
        g = math.exp(comb.log_mean)
    except OverflowError:
        g = math.inf
    return g / 100 if percent_logs(trace) else g


_OFF = (None, False, "none", "method0")


def smoothing_in_use(trace) -> str | None:
    """The smoothing the dialect's options turn on, in words (None when it is off or the dialect has none)."""
    opts = trace.options or {}
    for key in ("smooth_method", "smoothing", "smooth"):
        if key in opts:
            v = opts[key]
            if v in _OFF:
                return None
            if v is True:
                return "add-one" if key == "smooth" else "NIST geometric"
            return str(v)
    return None
