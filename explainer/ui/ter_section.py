"""Every step of one TER trace (Streamlit), laid out from :func:`explainer.ui.ter_view.ter_view`: the words as TER
tokenized them, highlighted in the user's text; the block shifts the search took, in order, with why; the
alignment of the shifted hypothesis with the kept reference (matches, substitutions, deletions, insertions); every
reference's edits; TER = edits / mean reference length with the numbers filled in. Drawn by the Explain page's TER
tab and the Corpus page's segment view. User text reaches HTML only through :mod:`explainer.ui.highlight`."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import sections as sx
from explainer.ui import ter_view as tv
from explainer.ui.display import data_table

__all__ = ["ter_section", "REFERENCE_KEY"]

REFERENCE_KEY = "ter_ref"     # the reference whose alignment is shown (0-based; 1-based in a link)


def _reference(trace) -> int | None:
    """The reference shown in detail (default: the one TER kept)."""
    n = len(trace.references)
    if n <= 1:
        return None
    ps.choice(REFERENCE_KEY, range(n), trace.chosen_reference)
    kept = trace.chosen_reference
    k = st.selectbox("Show the alignment against", list(range(n)), key=REFERENCE_KEY,
                     format_func=lambda i: (f"reference {i + 1}" + (" (the one kept)" if i == kept else ""))
                     if type(i) is int else str(i))
    return k if type(k) is int and 0 <= k < n else trace.chosen_reference


def ter_section(trace) -> None:
    """Every step of one TER trace."""
    k = _reference(trace)
    view = tv.ter_view(trace, k)
    st.subheader(view.title)
    st.caption(hl.md_escape(view.direction))
    if view.library_error:
        st.error(hl.md_escape(view.library_error))
    for w in view.warnings:
        st.warning(hl.md_escape(w), icon=":material/warning:")
    st.markdown("#### Step 1 · Words, as TER reads them")
    sx.html(tv.legend_html() + "<p><b>Candidate</b></p>" +
            hl.render_marked_text(view.candidate_text, view.candidate_marks, max_chars=sx.HIGHLIGHT_MAX_CHARS,
                                  aria_label="candidate, TER edits") +
            f"<p><b>Reference {view.kept + 1}</b>" + (" — the one kept" if view.kept == trace.chosen_reference and
                                                        view.n_refs > 1 else "") + "</p>" +
            hl.render_marked_text(view.reference_texts[view.kept], view.reference_marks,
                                  max_chars=sx.HIGHLIGHT_MAX_CHARS, aria_label=f"reference {view.kept + 1}"))
    more = sx.lazy_expander("Words exactly as TER scores them", "ter_more_tokens")
    with more:
        if more.open:
            data_table(pd.DataFrame(list(view.candidate_tokens)), hide_index=True, width="stretch")
            data_table(pd.DataFrame(list(view.reference_tokens)), hide_index=True, width="stretch")
    st.markdown("#### Step 2 · Block shifts")
    if view.shifts:
        data_table(pd.DataFrame(list(view.shifts)), hide_index=True, width="stretch", key="ter_shifts")
    else:
        st.caption("No shift lowers the edit distance: the search stopped at once.")
    if view.stop_reason:
        st.caption(hl.md_escape(view.stop_reason))
    st.markdown("#### Step 3 · The alignment after the shifts")
    fig, note = tv.alignment_figure(view.alignment)
    sx.plot(fig, "ter_alignment", "Alignment of the shifted candidate with the reference: matches, substitutions, "
                                  "deletions and insertions")
    if note:
        st.caption(hl.md_escape(note))
    st.caption(hl.md_escape(", ".join(f"{k}: {v}" for k, v in view.counts.items())))
    for n in view.notes:
        st.caption(hl.md_escape(n))
    if view.n_refs > 1:
        st.markdown("#### Step 4 · The reference kept")
        st.caption("sacreBLEU aligns the candidate with each reference and keeps the fewest edits; the length it "
                   "divides by is the mean of the references' lengths.")
        data_table(pd.DataFrame(list(view.references)), hide_index=True, width="stretch", key="ter_refs")
    st.markdown(f"#### Step {5 if view.n_refs > 1 else 4} · The score")
    sx.latex_lines(view.formula)
    st.code(f"{view.headline}\n{trace.name} signature: {view.signature}", language=None, wrap_lines=True)
