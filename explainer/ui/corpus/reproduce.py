"""The Corpus page's "Which settings give …?" section: a corpus score printed in a paper, searched for the selected
system against the test set's references (issue 20) — which implementation, settings and reference subset give
it, or the nearest values, each with the command that prints it.

The work is the core's (``explainer.dialectcmp.corpus_reproduction.reproduce_corpus``, bounded by
``check_reproduce_corpus`` before any work); run only when asked, with a progress bar, and kept for this browser
session (the last two searches).
"""
from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from explainer.ui import highlight as hl
from explainer.ui.progress import Progress

__all__ = ["render", "STORE_KEY"]

STORE_KEY = "cp_rep_results"    # {(test set, system, claim, metric): [Reproduction]}, the last two
_KEPT = 2
_METRICS = ("any", "bleu", "rouge1", "rouge2", "rougeL", "rougeLsum", "chrf")
_BOX = {"reproduced": st.success, "unusual": st.warning, "truncated": st.warning, "unreproducible": st.error,
        "refused": st.error}


def _search(lines: list[str], refs: list[list[str]], claim: str, metric: str, paths: tuple) -> list:
    from explainer.dialectcmp.corpus_reproduction import reproduce_corpus
    from explainer.dialectcmp.reproduction import claim_parts

    bar = Progress("Searching every configuration…")

    def progress(done: int, total: int) -> None:
        bar(done / max(total, 1), f"Searching: {done} of {total} configurations")

    try:
        return [reproduce_corpus(lines, refs, c, metric=metric, paths=paths, progress=progress)
                for c in claim_parts(claim)]
    finally:
        bar.done()


def _rows(matches, ref_names: list[str]) -> pd.DataFrame:
    return pd.DataFrame([{"value": m.shown, "configuration": m.description,
                          "references": ", ".join(ref_names[k] for k in m.references),
                          "as printed by": m.value, "command": m.to_dict()["command"]} for m in matches])


def _show(res, ref_names: list[str]) -> None:
    _BOX[res.verdict](hl.md_escape(res.message))
    st.caption(hl.md_escape(res.judgement().sentence)
               + (f" · {res.n_configurations:,} configurations scored in {res.seconds:.1f} s" if not res.refused
                  else ""))
    if res.matches:
        st.dataframe(_rows(res.matches, ref_names), hide_index=True)
    if res.truncated:
        st.markdown(f"**Only when the value is cut (not rounded) to {hl.md_escape(res.claim.precision_words)}**")
        st.dataframe(_rows(res.truncated, ref_names), hide_index=True)
    if res.verdict != "reproduced" and res.nearest:
        st.markdown("**The nearest configurations**")
        st.dataframe(_rows(res.nearest, ref_names), hide_index=True)


def render(ts, i: int, ts_key: str) -> None:
    """The section for system ``i`` of the test set ``ts``."""
    name, lines = ts.systems[i]
    ref_names = list(ts.ref_names) or [f"reference {k + 1}" for k in range(len(ts.references[0]))]
    st.subheader(f"Which settings give a number printed for {name}?")
    st.caption("Type the corpus score a paper prints (“BLEU 27.3”, “R-1/R-2/R-L 44.2/21.3/41.0”, “chrF 55.2”): "
               "every BLEU, ROUGE and chrF implementation, tokenizer, case, smoothing, order, β, aggregation and "
               "reference subset is searched on this test set; each match comes with the command that prints it. "
               "Other metrics (TER, COMET, METEOR) are named and not searched.")
    with st.form("cp_rep_form"):
        claim = st.text_input("Claimed number", key="cp_rep_claim", max_chars=200)
        metric = st.selectbox("It is", _METRICS, key="cp_rep_metric")
        asked = st.form_submit_button("Search", icon=":material/search:")
    ss = st.session_state
    store = ss.setdefault(STORE_KEY, {})
    key = (ts_key, i, claim.strip(), metric)
    if asked:
        if not claim.strip():
            st.warning("Type the number you want to reproduce, e.g. “BLEU 27.3”.")
            return
        try:
            refs = [list(r) for r in ts.references]
            store[key] = _search(lines, refs, claim.strip(), metric, (f"{name}.txt", ref_names))
        except ValueError as e:
            st.error(hl.md_escape(str(e)), icon=":material/error:")
            return
        while len(store) > _KEPT:
            store.pop(next(iter(store)))
    results = store.get(key)
    if not results:
        return
    for res in results:
        _show(res, ref_names)
    st.download_button("Download the search (JSON)",
                       json.dumps([r.to_dict() for r in results], ensure_ascii=False, indent=1),
                       file_name="corpus_reproduce.json", mime="application/json", key="cp_rep_dl",
                       on_click="ignore", icon=":material/download:")
