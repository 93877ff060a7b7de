"""The Corpus page's "Every implementation on this corpus" section: the Dialects page's side-by-side table at
corpus level (issue 12 §1) for one system's output — every BLEU (or ROUGE) implementation's corpus score, and the
first step at which two of them part.

The work is the core's (``explainer.dialectcmp.compare_corpus``: BLEU from the summed statistics as each
implementation sums them, ROUGE as each aggregates) and the tables, chart and divergence panels are the Dialects
page's pure helpers (``explainer.ui.dialects.view``). Bounded: at most :data:`PAGE_MAX_SEGMENTS` segments and the
core's :data:`~explainer.dialectcmp.limits.MAX_CORPUS_CHARS` characters, checked before any work; computed only when
asked for (a full corpus trace per implementation), with a progress bar, and kept for this browser session.
"""
from __future__ import annotations

import json
from typing import Callable

import pandas as pd
import streamlit as st

from explainer.dialectcmp.limits import MAX_CORPUS_CHARS, MAX_CORPUS_SEGMENTS
from explainer.dialectcmp.rows import DEFAULT_ROUGE_TYPES
from explainer.ui import highlight as hl
from explainer.ui.dialects import view as dv
from explainer.ui.progress import Progress

__all__ = ["render", "PAGE_MAX_SEGMENTS", "STORE_KEY"]

#: segments of the comparison on the page (measured on the 2-core machine: 300 news segments with 2 references
#: take ~0.3 s for the 8 BLEU rows and ~2.4 s for the 6 ROUGE rows; docs/corpus.md). The command line
#: ``python -m explainer dialects --jsonl FILE --corpus`` takes up to 2,000.
PAGE_MAX_SEGMENTS = MAX_CORPUS_SEGMENTS     # the core's: one full WMT test set (a progress bar shows the work)
STORE_KEY = "cp_impl_results"   # {(test set, system, metric, types): Comparison}, the last two
_KEPT = 2


def _types(rouge_type: str | None) -> tuple[str, ...]:
    """The ROUGE types of the rows: the page's chosen type first (it is the rows' headline), then the usual ones."""
    head = rouge_type or DEFAULT_ROUGE_TYPES[0]
    return (head,) + tuple(t for t in DEFAULT_ROUGE_TYPES if t != head)


def result_key(ts_key: str, i: int, metric: str, rouge_type: str | None = None) -> tuple:
    return (ts_key, i, metric, _types(rouge_type) if rouge_type is not None else ())


def _html(body: str) -> None:
    st.html(hl.STYLE + dv.STYLE + body)


def _compute(lines: list[str], refs: list[list[str]], metric: str, types: tuple[str, ...]):
    from explainer.dialectcmp.comparison import compare_corpus

    bar = Progress("Scoring the corpus with every implementation…")

    def progress(done: int, total: int, what: str) -> None:
        bar(done / max(total, 1), f"Every implementation: {what} ({done} of {total})")

    try:
        return compare_corpus(lines, refs, metric=metric, types=types, progress=progress)
    finally:
        bar.done()


def render(rep, metric: str, i: int, ts_key: str, *, label: str, how: str = "", rouge_type: str | None = None,
           plot: Callable[..., object] | None = None, open_segment: Callable[..., None] | None = None) -> None:
    """The section for system ``i`` of the report ``rep`` (its test set and names) and the family ``metric``
    (its name, as ``compare_corpus`` takes it; ``label``: its name in a sentence; ``how``: how its
    implementations score a corpus); ``plot(fig, key)`` draws a chart as the page does,
    ``open_segment(seg, system, note)`` opens a segment in the page's segment view."""
    ss = st.session_state
    name = rep.names[i]
    st.caption(hl.md_escape(
        f"{name}'s output scored by every {label} implementation people use, at corpus level as each computes it"
        + (f" ({how})" if how else "") + ", and the first step at which each differs from the first row — the "
        "Dialects page's table for a whole test set. The system is the one picked above (“System to look at”)."))
    lines = list(rep.testset.systems[i][1])
    refs = [list(r) for r in rep.testset.references]
    n_chars = sum(map(len, lines)) + sum(len(r) for rs in refs for r in rs)
    if len(lines) > PAGE_MAX_SEGMENTS or n_chars > MAX_CORPUS_CHARS:
        st.info(f"This test set has {len(lines):,} segments and {n_chars:,} characters; the side-by-side of every "
                f"implementation takes at most {PAGE_MAX_SEGMENTS:,} segments and {MAX_CORPUS_CHARS:,} characters "
                "(one full WMT test set with two references; it builds a full corpus trace per implementation). "
                "Upload a part of the test set (e.g. its first 3,000 segments) to compare the implementations on "
                "it; the scores and tests above take the whole set.", icon=":material/info:")
        return
    types = _types(rouge_type)
    key = result_key(ts_key, i, metric, rouge_type)
    store = ss.setdefault(STORE_KEY, {})
    if key not in store:
        if not st.button(f"Compare every implementation on {len(lines):,} segments", key="cp_impl_run",
                         icon=":material/compare:", type="primary"):
            return
        try:
            cmp = _compute(lines, refs, metric, types)
        except ValueError as e:   # the core's limits and input errors, in its words
            st.error(hl.md_escape(str(e)))
            return
        store[key] = cmp
        while len(store) > _KEPT:
            store.pop(next(iter(store)))
    cmp = store[key]
    st.dataframe(pd.DataFrame(dv.table_rows(cmp)), hide_index=True, width="stretch")
    fig = dv.scores_figure(cmp)
    if plot is not None:
        plot(fig, "cp_impl_scores")
    else:
        st.plotly_chart(fig, key="cp_impl_scores")
    _divergence(cmp, name, open_segment)
    st.download_button("Download the comparison (JSON)", json.dumps(cmp.to_dict(), ensure_ascii=False, indent=1),
                       file_name=f"implementations-{metric}.json", mime="application/json", key="cp_impl_dl",
                       icon=":material/download:")


def pick_two_rows(ids: list[str], labels: dict[str, str], key_a: str, key_b: str) -> tuple[str, str] | None:
    """"Where do two of them first disagree?": two row pickers whose stored values are reconciled with the rows
    drawn (a row no longer there falls back to the first two different ones); None when both pick one row."""
    ss = st.session_state
    st.markdown("**Where do two of them first disagree on this corpus?**")
    a0 = ss.get(key_a) if ss.get(key_a) in ids else ids[0]
    b0 = ss.get(key_b) if ss.get(key_b) in ids and ss.get(key_b) != a0 else next(x for x in ids if x != a0)
    ss[key_a], ss[key_b] = a0, b0
    c1, c2 = st.columns(2)
    a = c1.selectbox("Row A", ids, key=key_a, format_func=labels.get)
    b = c2.selectbox("Row B", ids, key=key_b, format_func=labels.get)
    if a == b:
        st.info("Pick two different rows.")
        return None
    return a, b


def _divergence(cmp, name: str, open_segment) -> None:
    labels = {r.id: r.label for r in cmp.rows}
    picked = pick_two_rows([r.id for r in cmp.rows], labels, "cp_impl_a", "cp_impl_b")
    if picked is None:
        return
    a, b = picked
    div = cmp.pair(a, b)    # this session's comparison: computed on demand and kept
    step = dv.STEP_WORDS.get(div.first_step, div.first_step)
    word = div.first_step or "none"
    _html(f'<div class="dl-why" data-testid="cp-impl-divergence"><b>First divergence: {hl.escape_text(step)}</b> '
          f'<span class="xp-note">(step {hl.escape_text(word)})</span><br>{hl.escape_text(div.why)}</div>')
    if div.segment is not None and open_segment is not None:
        st.button(f"Open segment {div.segment + 1} in the segment view", key="cp_impl_open", on_click=open_segment,
                  args=(div.segment + 1, name, f"opened from the implementations: the first segment where "
                                               f"{labels[a]} and {labels[b]} differ"))
    ca, cb = st.columns(2)
    with ca:
        _html(dv.side_html(cmp, div, "a"))
    with cb:
        _html(dv.side_html(cmp, div, "b"))
