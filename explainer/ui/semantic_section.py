"""Every step of the semantic scores of one candidate (Streamlit), laid out from :mod:`explainer.ui.semantic_view`:
STS (the word pieces, the mean pooling, each reference's cosine and the one kept) and BERTScore (P, R and F per
reference and where each kept value comes from; against one reference, the similarity matrix as a heatmap, the
greedy matches both ways drawn as an alignment, idf weights when used, the formulas), then what neither checks,
with the course's examples. Drawn by the Explain page's tab and the Corpus page's segment view. User text reaches
HTML only through :mod:`explainer.ui.highlight`."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import sections as sx
from explainer.ui import semantic_view as sv
from explainer.ui.display import data_table

__all__ = ["sts_section", "bertscore_section", "blind_spots", "REFERENCE_KEY"]

REFERENCE_KEY = "sem_ref"     # the reference whose BERTScore matrix is shown (0-based; 1-based in a link)


def _pieces(trace) -> None:
    sx.html(sv.pieces_html(trace.candidate, "candidate") + "".join(
        sv.pieces_html(r, f"reference {k + 1}") for k, r in enumerate(trace.references)))
    more = sx.lazy_expander("Word pieces exactly as the model reads them", f"sem_more_pieces_{trace.dialect}")
    with more:
        if more.open:
            data_table(pd.DataFrame(sv.piece_rows(trace.candidate)), hide_index=True, width="stretch")


def sts_section(trace) -> None:
    """STS: pieces, pooling, cosines, the kept one."""
    view = sv.sts_view(trace)
    st.subheader(view.title)
    st.caption(hl.md_escape(view.caption))
    for n in view.notes:
        st.warning(hl.md_escape(n), icon=":material/warning:")
    st.markdown("#### STS · Step 1 · Word pieces")
    _pieces(trace)
    st.markdown("#### STS · Step 2 · One vector per text: the mean of its pieces' vectors, made unit length")
    data_table(pd.DataFrame(view.pooling_rows), hide_index=True, width="stretch")
    for f in view.pooling_formulas:
        st.caption(hl.md_escape(f))
    st.markdown("#### STS · Step 3 · The cosine with each reference")
    data_table(pd.DataFrame(view.cosine_rows), hide_index=True, width="stretch")
    sx.latex_lines(view.cosine_formulas)
    st.caption(hl.md_escape(view.multi_reference_rule))
    st.code(view.formula, language=None, wrap_lines=True)


def _reference(trace) -> int:
    n = len(trace.references)
    if n <= 1:
        return 0
    kept = trace.chosen["f1"]
    ps.choice(REFERENCE_KEY, range(n), kept)
    k = st.selectbox("Show the matches against", list(range(n)), key=REFERENCE_KEY,
                     format_func=lambda i: (f"reference {i + 1}" + (" (F kept)" if i == kept else ""))
                     if type(i) is int else str(i))
    return k if type(k) is int and 0 <= k < n else kept


def bertscore_section(trace) -> None:
    """BERTScore: pieces, per reference P/R/F, the matrix and greedy matches of one reference, idf, formulas."""
    view = sv.bertscore_view(trace)
    st.subheader(view.title)
    st.caption(hl.md_escape(view.caption))
    if view.library_error:
        st.error(hl.md_escape(view.library_error))
    for n in view.notes:
        st.warning(hl.md_escape(n), icon=":material/warning:")
    st.markdown("#### BERTScore · Step 1 · Word pieces")
    _pieces(trace)
    st.markdown("#### BERTScore · Step 2 · Every piece against every piece: cosine similarity")
    k = _reference(trace)
    pair = sv.bertscore_pair_view(trace, k)
    sx.plot(sv.similarity_figure(pair), "sem_similarity", f"Similarity of every candidate piece with every piece of "
                                                          f"reference {k + 1}")
    if pair.sample_note:
        st.caption(pair.sample_note)
    st.markdown("#### BERTScore · Step 3 · Greedy matching: each piece's best partner")
    fig, note = sv.greedy_alignment_figure(pair)
    sx.plot(fig, "sem_alignment", "Each candidate piece's best reference piece and each reference piece's best "
                                  "candidate piece")
    if note:
        st.caption(note)
    c1, c2 = st.columns(2)
    with c1:
        st.caption("Candidate pieces → their best reference piece (precision)")
        data_table(pd.DataFrame(pair.cand_rows), hide_index=True, width="stretch")
    with c2:
        st.caption("Reference pieces → their best candidate piece (recall)")
        data_table(pd.DataFrame(pair.ref_rows), hide_index=True, width="stretch")
    if view.idf_rows:
        st.markdown("##### idf weights")
        st.caption(hl.md_escape(view.idf_caption))
        data_table(pd.DataFrame(view.idf_rows), hide_index=True, width="stretch")
    st.markdown("#### BERTScore · Step 4 · Precision, recall, F")
    for key in ("precision", "recall", "f1"):
        f = pair.formulas.get(key)
        if f:
            st.caption(hl.md_escape(str(f)))
    data_table(pd.DataFrame(view.rows), hide_index=True, width="stretch")
    sx.latex_lines(view.kept_formulas)
    data_table(pd.DataFrame(view.kept_rows), hide_index=True, width="stretch")
    st.info(hl.md_escape(view.published), icon=":material/info:")


def blind_spots(items) -> None:
    """What meaning scores do not check (word order beyond context, negation, numbers), with the course's
    examples and their numbers."""
    if not items:
        return
    st.markdown("#### What these scores do not check")
    data_table(pd.DataFrame(items), hide_index=True, width="stretch")
