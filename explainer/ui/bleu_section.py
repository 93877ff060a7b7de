"""Every step of one BLEU trace (Streamlit), laid out from :func:`explainer.ui.bleu_view.bleu_view`: tokens
highlighted in the user's text, the clipped n-gram table, length and brevity penalty, the score. Drawn by the
Explain page's BLEU tab and the Corpus page's segment view; the n-gram picker and the colouring keep their state
under the keys ``ngram`` and ``colour``. User text reaches HTML only through :mod:`explainer.ui.highlight`."""
from __future__ import annotations

import io

import pandas as pd
import streamlit as st

from explainer.ui import bleu_view as bv
from explainer.ui import charts
from explainer.ui import highlight as hl
from explainer.ui import sections as sx
from explainer.ui.display import data_table, large_text

__all__ = ["bleu_section", "ngram_csv"]


def _on_ngram_row() -> None:
    """A row clicked in the n-gram table selects that n-gram (same effect as the picker)."""
    sel = st.session_state.get("ngram_table")
    rows = getattr(getattr(sel, "selection", None), "rows", None) if sel is not None else None
    if rows is None and isinstance(sel, dict):
        rows = sel.get("selection", {}).get("rows")
    table = st.session_state.get("_ngram_texts") or []
    if rows and 0 <= rows[0] < len(table):
        st.session_state["ngram"] = table[rows[0]]


def bleu_section(bleu_trace) -> None:
    """Every step of one BLEU trace (tokens, clipped counts, length and brevity penalty, the score). Shared with
    the Corpus page's segment view; the n-gram picker and the colouring keep their state under the Explain
    page's keys (``ngram``, ``colour``)."""
    ss = st.session_state
    if ss.get("colour") not in ("order", "reference"):
        ss["colour"] = "order"
    view = bv.bleu_view(bleu_trace, selected=ss.get("ngram") or "", colour_by=ss["colour"])
    st.subheader(view.title)
    _bleu_tokens(view)
    _bleu_ngrams(view)
    _bleu_length(view)
    st.markdown("#### Step 4 · The score")
    st.latex(view.score_formula)
    if view.score_note:
        st.info(hl.md_escape(view.score_note))
    if view.overflow_note:
        st.warning(hl.md_escape(view.overflow_note))


def _bleu_tokens(view) -> None:
    st.markdown("#### Step 1 · Tokens, highlighted in your text")
    st.radio("Colour matched tokens by", ["order", "reference"], key="colour", horizontal=True,
             format_func=lambda v: "n-gram order" if v == "order" else "the reference that justified them")
    sx.html(hl.legend_html(view.n_orders) if view.colour_by == "order" else hl.legend_refs_html(view.n_references))
    sx.html(sx.texts_html(view.texts))
    more = sx.lazy_expander("Tokens exactly as the dialect scores them", "xp_more_tokens")
    with more:
        if more.open:
            data_table(pd.DataFrame(view.token_rows), hide_index=True, width="stretch")


def _bleu_ngrams(view) -> None:
    st.markdown("#### Step 2 · Clipped n-gram counts")
    st.caption(hl.md_escape(view.ngram_caption))
    if view.selected_unknown:
        st.warning(hl.md_escape(view.selected_unknown_note), icon=":material/link:")
        st.session_state["ngram"] = ""
    st.selectbox("Where did this n-gram match? (outlined in the texts above)", [""] + view.ngram_choices, key="ngram",
                 format_func=lambda g: g if g else "— pick an n-gram —")
    if view.selected_where and st.session_state.get("ngram") == view.selected:
        st.markdown(hl.md_escape(view.selected_where))
    table = view.ngram_table
    st.session_state["_ngram_texts"] = table.ngram_texts
    if table.note:
        st.caption(table.note)
    data_table(pd.DataFrame(table.rows), hide_index=True, width="stretch",
               height=min(38 * (len(table.rows) + 1), 420), key="ngram_table", on_select=_on_ngram_row,
               selection_mode="single-row", column_config=sx.column_config(table.columns))
    st.caption("Pick an n-gram in the list to outline it in the texts above; the table scrolls sideways on a "
               "narrow page." if large_text() else "Click a row to outline that n-gram in the texts above (or pick "
               "it in the list). Hover a column header for its meaning; the table scrolls sideways on a narrow page.")
    sx.plot(charts.bleu_counts_figure(view.orders), "bleu_counts", view.orders_alt)
    sx.latex_lines(view.precision_formulas)
    more = sx.lazy_expander("Smoothing and zero handling, order by order", "xp_more_smoothing")
    with more:
        if more.open:
            data_table(pd.DataFrame(view.smoothing_rows), hide_index=True, width="stretch")


def _bleu_length(view) -> None:
    st.markdown(f"#### {view.length_title}")
    st.markdown(hl.md_escape(view.ref_length_text))
    data_table(pd.DataFrame(view.ref_length_rows), hide_index=True)
    st.latex(view.bp_formula)
    if view.bp_curve is not None:
        sx.plot(charts.bp_curve_figure(**view.bp_curve), "bp_curve", view.bp_alt)
    st.caption(hl.md_escape(view.bp_caption))


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(v):
    """A spreadsheet would run a text cell starting with = + - @ (or tab / CR) as a formula (CSV injection):
    such user n-grams get a leading single quote, as OWASP advises. Numbers are written as they are."""
    return "'" + v if isinstance(v, str) and v.startswith(_FORMULA_START) else v


def ngram_csv(bleu_trace) -> str:
    """The "n-gram table (CSV)" download: every row of the BLEU n-gram table (the page may show fewer)."""
    buf = io.StringIO()
    rows = [{k: _csv_cell(v) for k, v in row.items()} for row in bv.ngram_rows(bleu_trace)]
    pd.DataFrame(rows).to_csv(buf, index=False)
    return buf.getvalue()
