"""A worked example on the Explain page: what to look at, and the numbers the textbook prints beside what the
implementations give with the page's settings. Pure: no Streamlit; reads the example and the traces."""
from __future__ import annotations

import math

from explainer.examples import CLAIM_METRICS, Example

__all__ = ["claim_value", "claim_rows", "CLAIMS_CAPTION"]

CLAIMS_CAPTION = ("What the textbook prints for this example, beside what the implementations give with the "
                  "settings on this page (switch the dialect or an option to see under which one a number holds).")


def _rouge(rouge_trace, t: str, field: str) -> float | None:
    if rouge_trace is None or t not in rouge_trace.scores:
        return None
    return getattr(rouge_trace.scores[t], field)


def _kept(rouge_trace, t: str):
    if rouge_trace is None or t not in rouge_trace.types:
        return None
    k = rouge_trace.chosen_reference.get(t)
    k = k if type(k) is int else 0
    return rouge_trace.per_reference[k].get(t) if k < len(rouge_trace.per_reference) else None


def claim_value(metric: str, bleu_trace, rouge_trace) -> float | None:
    """The true value of a claim's metric under the page's settings (None when not computed here)."""
    if metric.startswith("bleu"):
        if bleu_trace is None or bleu_trace.library_error is not None:
            return None
        if metric == "bleu":
            return bleu_trace.score / bleu_trace.scale
        if metric == "bleu_bp":
            return bleu_trace.combination.bp
        return bleu_trace.combination.orders[0].precision_raw if bleu_trace.combination.orders else None
    if metric in ("lcs", "lsum_hits"):
        res = _kept(rouge_trace, "rougeL" if metric == "lcs" else "rougeLsum")
        return float(res.hits) if res is not None else None
    t, _, which = metric.partition("_")
    return _rouge(rouge_trace, t, {"p": "precision", "r": "recall", "f": "fmeasure"}[which])


def _fmt(metric: str, x: float) -> str:
    if metric in ("lcs", "lsum_hits"):
        return f"{x:g}"
    return f"{x:.5f}" if abs(x) >= 1e-4 or x == 0 else f"{x:.3g}"


def claim_rows(example: Example, bleu_trace, rouge_trace) -> list[dict]:
    """One row per printed claim: what, printed, the true value under these settings, and whether they agree."""
    rows = []
    for c in example.claims:
        v = claim_value(c.metric, bleu_trace, rouge_trace)
        agrees = "—" if v is None else ("yes" if math.isclose(v, c.value, abs_tol=c.tol + 1e-12) else "no")
        rows.append({"number": CLAIM_METRICS[c.metric], "the textbook prints": c.printed,
                     "these settings give": "not computed" if v is None else _fmt(c.metric, v), "agrees": agrees})
    return rows
