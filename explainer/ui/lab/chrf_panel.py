"""The Gaming lab's chrF verdicts (issue 23): for the preset shown, every variant scored with sacreBLEU's chrF2 and
chrF2++ and NLTK's chrF, with the lab's verdict rule (fooled / resisted for an attack, changed / unchanged for a
configuration trap), from :mod:`explainer.attacks.chrf_presets`; and, on request, the same verdicts for every
preset (which attacks fool chrF and which do not). Variant labels and preset titles are the catalogue's; tables
show them as data (no HTML).
"""
from __future__ import annotations

from functools import lru_cache

import pandas as pd
import streamlit as st

from explainer.attacks.chrf_presets import CHRF_METRICS, ChrfPresetResult, evaluate_chrf, verdict_table
from explainer.ui.display import data_table

__all__ = ["variant_rows", "summary_text", "render", "all_presets"]

_WORDS = {"fooled": "fooled", "fooled_tie": "fooled (same score)", "resisted": "resisted", "tie": "tie",
          "changed": "changed", "unchanged": "unchanged", "n/a": "n/a"}


def variant_rows(res: ChrfPresetResult) -> list[dict]:
    """One row per variant: its label, each chrF score (0–100) and, for a judged variant, the verdicts."""
    out = []
    for label, scores, verdicts in zip(res.labels, res.scores, res.verdicts):
        row = {"variant": label}
        for m, (name, _, _) in CHRF_METRICS.items():
            row[name] = round(scores[m], 4)
            row[f"{name}: verdict"] = _WORDS.get(verdicts.get(m, ""), verdicts.get(m, "")) if verdicts else ""
        out.append(row)
    return out


def summary_text(res: ChrfPresetResult) -> str:
    parts = [f"{name}: {_WORDS.get(res.summary(m), res.summary(m))}" for m, (name, _, _) in CHRF_METRICS.items()]
    return "chrF — " + " · ".join(parts)


@lru_cache(maxsize=1)
def all_presets() -> tuple:
    """Every preset's chrF verdicts (a few seconds; computed once per server: no user input enters)."""
    return tuple(verdict_table())


def render(pid: str) -> None:
    """The chrF panel of preset ``pid``."""
    res = evaluate_chrf(pid)
    st.markdown("**And chrF?**")
    data_table(pd.DataFrame(variant_rows(res)), hide_index=True, width="stretch", key="lab_chrf_table")
    st.caption(summary_text(res) + ". Scores on 0–100 (NLTK's 0–1 times 100). chrF counts character n-grams "
               "(chrF++ also words) and weighs recall twice as much as precision: the verdict rule is the lab's, the "
               "numbers sacreBLEU's and NLTK's.")
    with st.expander("Which attacks fool chrF? Every preset"):
        if st.button("Score every preset with chrF (a few seconds)", key="lab_chrf_all"):
            data_table(pd.DataFrame(list(all_presets())), hide_index=True, width="stretch")
