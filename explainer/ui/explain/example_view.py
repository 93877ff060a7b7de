"""A worked example on the Explain page: what to look at, and the numbers the textbook prints beside what the
implementations give with the page's settings. Pure: no Streamlit; reads the example and the traces."""
from __future__ import annotations

from typing import Any, Mapping

from explainer import examples, families
from explainer.examples import CLAIM_METRICS, Example

__all__ = ["claim_value", "claim_rows", "CLAIMS_CAPTION"]

CLAIMS_CAPTION = ("What the textbook prints for this example, beside what the implementations give with the "
                  "settings on this page (switch the dialect or an option to see under which one a number holds).")


def claim_value(metric: str, traces: Mapping[str, Any]) -> float | None:
    """The true value of a claim's metric under the page's settings (``traces``: family name -> trace or None;
    None when not computed here)."""
    return families.claim_value(metric, traces)


def claim_rows(example: Example, traces: Mapping[str, Any]) -> list[dict]:
    """One row per printed claim: what, printed, the true value under these settings, and whether they agree."""
    rows = []
    for c in example.claims:
        v = claim_value(c.metric, traces)
        agrees = "—" if v is None else ("yes" if c.agrees(v) else "no")
        shown = "not computed" if v is None else examples.format_claim_value(c.metric, v)
        rows.append({"number": CLAIM_METRICS[c.metric], "the textbook prints": c.printed,
                     "these settings give": shown, "agrees": agrees,
                     "verdict": _three_way(example, c, None if v is None else c.agrees(v))})
    return rows


def _three_way(example: Example, c, agrees: bool | None) -> str:
    """Holds with these settings / holds with other settings (which) / holds under no configuration searched (the
    nearest): ``explainer.dialectcmp.printed.judge_printed`` (cached per example and number)."""
    if agrees is None:
        return "not computed with these settings"
    from explainer.dialectcmp.printed import judge_printed

    try:
        return judge_printed(example.candidate, example.references, c, agrees).sentence
    except ValueError:
        return "holds with these settings" if agrees else "wrong with these settings"
