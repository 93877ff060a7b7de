"""A worked example on the Explain page: what to look at, and the numbers its course text prints beside what the
implementations give with the page's settings. Pure: no Streamlit; reads the example and the traces."""
from __future__ import annotations

import math

from explainer.examples import CLAIM_METRICS, Example

__all__ = ["claim_value", "claim_rows", "CLAIMS_CAPTION"]

CLAIMS_CAPTION = ("What the course text prints for this example, beside what the implementations give with the "
                  "settings on this page (switch the dialect or an option to see under which one a number holds).")


def _rouge(rt, t: str, field: str) -> float | None:
    if rt is None or t not in rt.scores:
        return None
    return getattr(rt.scores[t], field)


def _kept(rt, t: str):
    if rt is None or t not in rt.types:
        return None
    k = rt.chosen_reference.get(t)
    k = k if type(k) is int else 0
    return rt.per_reference[k].get(t) if k < len(rt.per_reference) else None


def claim_value(metric: str, bt, rt) -> float | None:
    """The true value of a claim's metric under the page's settings (None when not computed here)."""
    if metric.startswith("bleu"):
        if bt is None or bt.library_error is not None:
            return None
        if metric == "bleu":
            return bt.score / bt.scale
        if metric == "bleu_bp":
            return bt.combination.bp
        return bt.combination.orders[0].precision_raw if bt.combination.orders else None
    if metric in ("lcs", "lsum_hits"):
        res = _kept(rt, "rougeL" if metric == "lcs" else "rougeLsum")
        return float(res.hits) if res is not None else None
    t, _, which = metric.partition("_")
    return _rouge(rt, t, {"p": "precision", "r": "recall", "f": "fmeasure"}[which])


def _fmt(metric: str, x: float) -> str:
    if metric in ("lcs", "lsum_hits"):
        return f"{x:g}"
    return f"{x:.5f}" if abs(x) >= 1e-4 or x == 0 else f"{x:.3g}"


def claim_rows(example: Example, bt, rt) -> list[dict]:
    """One row per printed claim: what, printed, the true value under these settings, and whether they agree."""
    rows = []
    for c in example.claims:
        v = claim_value(c.metric, bt, rt)
        agrees = "—" if v is None else ("yes" if math.isclose(v, c.value, abs_tol=c.tol + 1e-12) else "no")
        rows.append({"number": CLAIM_METRICS[c.metric], "the course text prints": c.printed,
                     "these settings give": "not computed" if v is None else _fmt(c.metric, v), "agrees": agrees})
    return rows
