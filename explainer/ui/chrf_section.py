"""The Explain page's chrF tab: every step of one chrF / chrF++ trace (sacreBLEU's ``CHRF`` or NLTK's
``chrf_score``), laid out from :func:`explainer.ui.chrf_view.chrf_view`:

1. the n-grams of one order (picked: ``chrf_order``) highlighted in the candidate and the kept reference, and
   their clipped counts;
2. precision, recall and F-beta of every order, the focus order's formulas with the numbers filled in, the chart;
3. the reference kept when there are several;
4. the averaging into the score, as formulas with the trace's numbers.

User text reaches HTML only through :func:`explainer.ui.highlight.render_marked_text` and markdown only through
``md_escape``; n-grams are shown in tables (never as HTML).
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from explainer.ui import charts
from explainer.ui import chrf_view as cview
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui.display import data_table, large_text

__all__ = ["chrf_section", "chrf_metric", "HIGHLIGHT_MAX_CHARS", "ORDER_KEY"]

HIGHLIGHT_MAX_CHARS = 20_000
ORDER_KEY = "chrf_order"        # the order shown in detail (0-based; 1-based in a link)
TABLE_MAX_ROWS = 1_000


def chrf_metric(trace, error: str | None) -> None:
    """The chrF number of the headline (the library's name: chrF2, chrF2++, NLTK's chrF)."""
    if trace is None:
        st.metric("chrF", "—", help=error and ("not computed: " + error))
    elif trace.library_error is not None:
        e = trace.library_error
        st.metric("chrF", "fails", help=f"The real library raises {e.type} on this input: {e.explanation}.")
    else:
        c = trace.combination
        st.metric("chrF", cview.fmt_score(trace),
                  help=f"{trace.name} ({trace.dialect}, native scale 0–{int(c.scale)}); exact value {c.score!r}")


def _focus(trace) -> int:
    labels = cview.order_choices(trace)
    default = 1 if len(labels) > 1 else 0
    ps.choice(ORDER_KEY, range(len(labels)), default)
    k = st.selectbox("Show the n-grams of", list(range(len(labels))), key=ORDER_KEY,
                     format_func=lambda i: labels[i] if type(i) is int and 0 <= i < len(labels) else str(i),
                     help="Each order's n-grams are counted and clipped separately; pick one to see where they "
                          "are in the texts.")
    return k if type(k) is int and 0 <= k < len(labels) else default


def _texts(view) -> None:
    what = view.focus_label[:-1]
    st.html(hl.STYLE + cview.legend_html(view.focus_n, what) +
            "<p><b>Candidate</b></p>" +
            hl.render_marked_text(view.candidate_text, view.candidate_marks, max_chars=HIGHLIGHT_MAX_CHARS,
                                  aria_label=f"candidate, {view.focus_label}") +
            f"<p><b>Reference {view.kept + 1}</b>" + (" — the one kept" if view.n_refs > 1 else "") + "</p>" +
            hl.render_marked_text(view.reference_texts[view.kept], view.reference_marks,
                                  max_chars=HIGHLIGHT_MAX_CHARS, aria_label=f"reference {view.kept + 1}, "
                                                                            f"{view.focus_label}"))


def chrf_section(trace) -> None:
    """Every step of one chrF trace."""
    focus_now = st.session_state.get(ORDER_KEY)
    view = cview.chrf_view(trace, focus_now if type(focus_now) is int else None)
    st.subheader(view.title)
    if view.library_error:
        st.error(hl.md_escape(view.library_error))
    for w in view.warnings:
        st.warning(hl.md_escape(w), icon=":material/warning:")
    st.markdown("#### Step 1 · n-grams, highlighted in your text")
    st.caption("chrF needs no tokenizer: it counts the character n-grams of each text (sacreBLEU removes the "
               "whitespace first unless told not to); chrF++ adds word n-grams.")
    focus = _focus(trace)
    if focus != view.focus:
        view = cview.chrf_view(trace, focus)
    _texts(view)
    st.markdown(f"##### Clipped counts of the {hl.md_escape(view.focus_label)}")
    data_table(pd.DataFrame(list(view.ngrams[:TABLE_MAX_ROWS])), hide_index=True, width="stretch",
               height=min(38 * (len(view.ngrams) + 1), 320), key="chrf_ngrams")
    if len(view.ngrams) > TABLE_MAX_ROWS:
        st.caption(f"The first {TABLE_MAX_ROWS:,} of {len(view.ngrams):,} n-grams; the trace download has all.")
    st.markdown("#### Step 2 · Precision, recall and F per order")
    for f in view.formulas:
        st.latex(f)
    for n in view.notes:
        st.caption(hl.md_escape(n))
    st.plotly_chart(charts.readable(cview.prf_figure(view.chart, view.name), large=large_text()), key="chrf_prf",
                    config={"displaylogo": False}, alt=f"{view.name}: precision, recall and F of each order")
    data_table(pd.DataFrame(list(view.table)), hide_index=True, width="stretch", key="chrf_orders")
    if view.n_refs > 1:
        st.markdown("#### Step 3 · The reference kept")
        st.caption("sacreBLEU scores the candidate against each reference and keeps the statistics of the best "
                   "one (the first on a tie).")
        data_table(pd.DataFrame(list(view.references)), hide_index=True, width="stretch", key="chrf_refs")
    st.markdown(f"#### Step {4 if view.n_refs > 1 else 3} · The score")
    st.markdown(hl.md_escape(view.averaging_text[:1].upper() + view.averaging_text[1:]) + ".")
    for f in view.averaging:
        st.latex(f)
    st.code(f"{view.final}\n{view.name} signature: {view.signature}", language=None, wrap_lines=True)
