"""chrF's "Every implementation on this corpus" (a part of :mod:`explainer.ui.corpus.chrf_part`): sacreBLEU's
chrF2 / chrF2++ / eps smoothing and NLTK's corpus_chrf (β = 3 and 2) on the selected system's output, computed when
asked for (one corpus pass per row, a progress bar), kept for the session (the last two), and the first step and
segment where two rows part (``explainer.dialectcmp.chrf_compare``)."""
from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from explainer.ui import highlight as hl
from explainer.ui.corpus.common import filter_segments, plot
from explainer.ui.progress import Progress

__all__ = ["implementations", "IMPL_KEY"]

IMPL_KEY = "cp_chrf_impl_results"       # {(test set, system): (rows by id, comparison dict)}, the last two


def _compute(lines, refs):
    from explainer.dialectcmp.chrf_compare import corpus_comparison

    bar = Progress("Scoring the corpus with every chrF implementation…")

    def progress(done: int, total: int, what: str) -> None:
        bar(done / max(total, 1), f"Every implementation: {what} ({done} of {total})")

    try:
        return corpus_comparison(lines, refs, progress=progress)
    finally:
        bar.done()


def implementations(rep, i: int, ts_key: str) -> None:
    """sacreBLEU's chrF2 / chrF2++ / eps smoothing and NLTK's corpus_chrf (β = 3 and 2) on system ``i``'s output,
    computed when asked for (one corpus pass per row), and the first step where two rows part."""
    from explainer.dialectcmp.limits import MAX_CORPUS_CHARS, MAX_CORPUS_SEGMENTS
    from explainer.ui.dialects.chrf_part import STEP_WORDS, scores_figure

    name = rep.names[i]
    st.caption(hl.md_escape(f"{name}'s output scored by sacreBLEU's CHRF (chrF2, chrF2++, eps smoothing: "
                            "corpus_score sums the statistics) and NLTK's corpus_chrf (β = 3 and 2: the mean of the "
                            "per-order F over segments), and the first step where each differs from the first row."))
    lines, refs = list(rep.testset.systems[i][1]), [list(r) for r in rep.testset.references]
    n_chars = sum(map(len, lines)) + sum(len(r) for rs in refs for r in rs)
    if len(lines) > MAX_CORPUS_SEGMENTS or n_chars > MAX_CORPUS_CHARS:
        st.info(f"This test set has {len(lines):,} segments and {n_chars:,} characters; the side-by-side takes at "
                f"most {MAX_CORPUS_SEGMENTS:,} segments and {MAX_CORPUS_CHARS:,} characters.", icon=":material/info:")
        return
    store = st.session_state.setdefault(IMPL_KEY, {})
    key = (ts_key, i)
    if key not in store:
        if not st.button(f"Compare every implementation on {len(lines):,} segments", key="cp_impl_chrf_run",
                         icon=":material/compare:", type="primary"):
            return
        try:
            store[key] = _compute(lines, refs)
        except ValueError as e:
            st.error(hl.md_escape(str(e)))
            return
        while len(store) > 2:
            store.pop(next(iter(store)))
    rows, res = store[key]
    first = {p["b"]: p for p in res["pairs"]}
    st.dataframe(pd.DataFrame([{"implementation": r["label"], "score 0–100": r["score"],
                                "as the library reports it": r["native_score"],
                                "first difference from row 1": "(reference row)" if k == 0 else
                                STEP_WORDS.get(first.get(r["id"], {}).get("first_step"), "same score"),
                                "averaging": r["averaging"], "signature": r["signature"]}
                               for k, r in enumerate(res["rows"])]),
                 hide_index=True, width="stretch", key="cp_impl_chrf_table")
    plot(scores_figure(res), "cp_impl_chrf_scores")
    _pair(rows, res)
    st.download_button("Download the comparison (JSON)", json.dumps(res, ensure_ascii=False, indent=1),
                       file_name="implementations-chrf.json", mime="application/json", key="cp_impl_chrf_dl",
                       icon=":material/download:", on_click="ignore")


def _pair(rows: dict, res: dict) -> None:
    from explainer.dialectcmp.chrf_compare import corpus_pair
    from explainer.ui.corpus.dialects import pick_two_rows
    from explainer.ui.dialects.chrf_part import STEP_WORDS, divergence_rows

    labels = {r["id"]: r["label"] for r in res["rows"]}
    picked = pick_two_rows([r["id"] for r in res["rows"]], labels, "cp_impl_chrf_a", "cp_impl_chrf_b")
    if picked is None:
        return
    a, b = picked
    pair = next((p for p in res["pairs"] if p["a"] == a and p["b"] == b), None)
    if pair is None:
        pair = corpus_pair(rows, a, b)
        res["pairs"].append(pair)
    step = STEP_WORDS.get(pair["first_step"], "none: the same score")
    st.markdown(f"**First divergence: {hl.md_escape(step)}** — {hl.md_escape(pair['why'])}")
    if pair.get("cells"):
        st.dataframe(pd.DataFrame(divergence_rows(pair, labels[a], labels[b])), hide_index=True, width="stretch",
                     key="cp_impl_chrf_cells")
    if pair.get("segment") is not None:
        k = pair["segment"] + 1
        st.button(f"List segment {k} in the table below", key="cp_impl_chrf_open", on_click=filter_segments,
                  args=([k], f"segment {k}: the first where {labels[a]} and {labels[b]} differ"))
