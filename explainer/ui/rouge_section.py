"""Every step of one ROUGE trace (Streamlit), laid out from :mod:`explainer.ui.rouge_view`: per type P, R and F,
which reference won, then against one chosen reference the n-gram overlaps, the LCS table and alignment,
ROUGE-Lsum's union hits and the W / S / SU details. Drawn by the Explain page's ROUGE tab and the Corpus page's
segment view. User text reaches HTML only through :mod:`explainer.ui.highlight`."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from explainer.ui import charts
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import rouge_view as rv
from explainer.ui import sections as sx
from explainer.ui.display import data_table

__all__ = ["rouge_section"]


def _reference_picker(rouge_trace, ref_count: int, default: int) -> int:
    """Which reference the ROUGE details are shown against (0-based). The picker's labels never change with
    the dialect: a browser sends the label it last showed back, and a label that no longer exists reaches the
    page as a bare string instead of a reference number (rouge155 -> another dialect crashed the page)."""
    if ref_count <= 1:
        return 0
    # the reference the first type kept (the first one when counts were pooled) when the stored one is no option
    ps.choice("rouge_ref", range(ref_count), default)
    k = st.selectbox("Show the details against reference", list(range(ref_count)), key="rouge_ref",
                     format_func=lambda i: f"reference {i + 1}" if type(i) is int else str(i))
    k = k if type(k) is int and 0 <= k < ref_count else 0
    st.caption(hl.md_escape(rv.kept_note(rouge_trace, k)))
    return k


def rouge_section(rouge_trace, ref_count: int) -> None:
    """Every step of one ROUGE trace against ``ref_count`` references (per type, the chosen reference's
    details). Shared with the Corpus page's segment view."""
    view = rv.rouge_view(rouge_trace)
    st.subheader(view.title)
    st.caption(hl.md_escape(view.caption.rstrip(".") + ". " + view.f_note))
    sx.plot(charts.rouge_prf_figure(view.prf_rows), "rouge_prf", view.chart_alt)
    data_table(pd.DataFrame(view.table_rows), hide_index=True)
    if view.several:
        st.markdown("##### Which reference won")
        data_table(pd.DataFrame(view.winner_rows), hide_index=True, width="stretch")
        if view.pooled_rows:
            st.markdown("##### Pooled over the references: how the headline numbers are made")
            five = st.column_config.NumberColumn(format="%.5f")  # as ROUGE-1.5.5 prints them, as everywhere else
            data_table(pd.DataFrame(view.pooled_rows), hide_index=True, width="stretch",
                       column_config={"P": five, "R": five, "F": five})
            st.caption(hl.md_escape(view.pooled_caption))
    k = _reference_picker(rouge_trace, ref_count, view.default_reference)
    det = rv.reference_details(rouge_trace, k)
    for g in det.ngrams:
        _rouge_ngram(g, det)
    if det.lcs is not None:
        _rouge_lcs(det.lcs, det)
    if det.lsum is not None:
        _rouge_lsum(det.lsum)
    for o in det.others:
        _rouge_other(o)


def _pair_html(det, cand_marks, ref_marks, what: str, cand_title: str = "Candidate") -> str:
    return (f"<p><b>{hl.escape_text(cand_title)}</b></p>" +
            hl.render_marked_text(det.cand_text, cand_marks, max_chars=sx.HIGHLIGHT_MAX_CHARS,
                                  aria_label=f"candidate {what}") +
            f"<p><b>Reference {det.k + 1}</b></p>" +
            hl.render_marked_text(det.ref_text, ref_marks, max_chars=sx.HIGHLIGHT_MAX_CHARS,
                                  aria_label=f"reference {det.k + 1} {what}"))


def _rouge_ngram(g, det) -> None:
    st.markdown(f"##### {g.heading}")  # our own words and numbers, no user text
    sx.html(_pair_html(det, g.cand_marks, g.ref_marks, g.label))
    if g.rows:
        data_table(pd.DataFrame(g.rows).head(sx.TABLE_MAX_ROWS), hide_index=True, width="stretch",
                   height=min(38 * (len(g.rows) + 1), 320), lazy=True)
    sx.latex_lines(g.formulas)


def _rouge_lcs(lcs, det) -> None:
    st.markdown(f"##### {lcs.heading}")
    fig, note = charts.lcs_heatmap_figure(lcs.table, lcs.ref_tokens, lcs.cand_tokens, lcs.pairs)
    sx.plot(fig, "lcs_heatmap", lcs.alt)
    if note:
        st.caption(note)
    afig, anote = charts.alignment_figure(lcs.cand_tokens, lcs.ref_tokens, lcs.pairs)
    sx.plot(afig, "lcs_alignment", "Alignment of candidate and reference tokens along the LCS")
    if anote:
        st.caption(anote)
    if lcs.tie_note:
        st.caption(hl.md_escape(lcs.tie_note))
    sx.html(_pair_html(det, lcs.cand_marks, lcs.ref_marks, "LCS", "Candidate — tokens in the LCS are marked"))
    if lcs.rows:
        data_table(pd.DataFrame(lcs.rows), hide_index=True, height=min(38 * (len(lcs.rows) + 1), 320), lazy=True)
    sx.latex_lines(lcs.formulas)


def _rouge_lsum(lsum) -> None:
    st.markdown(f"##### {lsum.heading}")
    sx.html(rv.LSUM_CSS + rv.lsum_html(lsum.rows))
    st.caption(hl.md_escape(lsum.union_note))
    sx.latex_lines(lsum.formulas)


def _rouge_other(o) -> None:
    more = sx.lazy_expander(f"{o.label} details", f"xp_more_{o.type}")
    with more:
        if not more.open:
            return
        st.markdown(hl.md_escape(o.summary))
        if o.formula_note:
            st.caption(hl.md_escape(o.formula_note))
        sx.latex_lines(o.formulas)
        if o.skip_rows:
            data_table(pd.DataFrame(o.skip_rows).head(sx.TABLE_MAX_ROWS), hide_index=True, lazy=True)
        _wlcs_details(o)


def _wlcs_details(o) -> None:
    """ROUGE-W: f(k) and its inverse, the runs of consecutive hits per reference sentence, and the weighted-LCS
    tables of the sentence pairs (the first few)."""
    if o.wlcs_note:
        st.caption(hl.md_escape(o.wlcs_note))
    if o.wlcs_rows:
        data_table(pd.DataFrame(o.wlcs_rows), hide_index=True, width="stretch")
    if o.wlcs_open_run_note:
        st.caption(o.wlcs_open_run_note)
    for h in o.wlcs_heatmaps:
        fig, note = charts.lcs_heatmap_figure(h.table, h.ref_tokens, h.cand_tokens, h.pairs, title=h.title,
                                              value_name="weighted LCS so far", value_format=".2f")
        sx.plot(fig, h.key, h.alt)
        if note:
            st.caption(note)
    if o.wlcs_more_note:
        st.caption(o.wlcs_more_note)
