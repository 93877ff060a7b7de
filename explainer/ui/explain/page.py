"""The Explain page: widgets, state <-> URL, and the rendering of BLEU and ROUGE traces.

The page computes nothing: it calls ``explain_bleu`` / ``explain_rouge`` and shows their traces through the
pure helpers (highlight, charts, bleu_view, rouge_view, diagnosis). User text reaches HTML only through
``highlight.escape_text`` / ``render_marked_text`` and markdown only through ``md_escape``.

Public for the other pages (the Corpus page's segment view shows a segment with the same components):
:func:`headline` (the five numbers and the signatures), :func:`bleu_section` and :func:`rouge_section` (every
step of one trace).
"""
from __future__ import annotations

import contextlib
import contextvars
import io
import json
import time

import pandas as pd
import streamlit as st

from explainer.analysis import counterfactuals, diagnosis
from explainer.bleu.algorithm import MAX_TRACE_CHARS
from explainer.examples import EXAMPLES, get_example
from explainer.text import MAX_INPUT_CHARS
from explainer.ui import bleu_view as bv
from explainer.ui import charts, traps_view
from explainer.ui import chrf_settings as cs
from explainer.ui import compute as shared_compute
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import rouge_view as rv
from explainer.ui.display import data_table, large_text, render_display_toggle
from explainer.ui.explain import example_view, first_view
from explainer.ui.explain import link as xl
from explainer.ui.explain.chrf_section import chrf_metric, chrf_section
from explainer.ui.page_links import LINK_LIMITS_TEXT
from explainer.ui.pagestate import MAX_REFS, MAX_URL_TEXT, texts_fit
from explainer.ui.settings import (
    MetricSettings,
    apply_example_settings,
    current_settings,
    put_settings,
    read_settings,
    render_settings_sidebar,
    undo_example_settings,
)

DEFAULT_EXAMPLE = xl.DEFAULT_EXAMPLE
HIGHLIGHT_MAX_CHARS = 20_000     # highlight at most this much of each text
TABLE_MAX_ROWS = bv.NGRAM_TABLE_MAX_ROWS   # rows of a ROUGE table shown (the n-gram table: its view model)
# Tables without row selection are lazy (lazy=True): beyond 1,000 rows Streamlit sends the rows in view and
# fetches more on scroll, instead of the whole table (the n-gram table needs its rows for row selection).
HEADLINE = ("BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-Lsum", "chrF")


# ---------------------------------------------------------------------------------------------- state
def _current() -> tuple[str, list[str], MetricSettings, dict, list[str]]:
    """(candidate, references, settings, view, warnings about the settings' widgets) as the widgets hold them."""
    cand, refs = xl.texts()
    settings, warns = read_settings()
    return cand, refs, settings, xl.view_values(len(refs)), warns


# ------------------------------------------------------------------------------------------- callbacks
def _on_example() -> None:
    ss = st.session_state
    ex_id = ss.get("example")
    if not ex_id:
        return
    ex = get_example(ex_id)
    settings, _ = current_settings()
    prev = (ss.get(xl.LAST) or {}).get("view", {}).get("example", "")
    if prev and prev != ex.id and prev in {e.id for e in EXAMPLES}:
        # undo what the previous example set (stemming on for "stem_took"), so the picker gives the same
        # numbers as the example's link; the user's own choices stay
        settings = undo_example_settings(settings, sorted(set(get_example(prev).settings) - set(ex.settings)))
    settings, _ = apply_example_settings(settings, ex.settings)  # link-style overrides, e.g. stem=1
    xl.put_texts(ex.candidate, list(ex.references))
    put_settings(settings)
    ss["ngram"] = ""
    ps.reset("rouge_ref")


def _add_ref() -> None:
    n = st.session_state.get("n_refs", 1)
    if n < MAX_REFS:
        st.session_state[f"ref_{n}"] = ""
        st.session_state["n_refs"] = n + 1


def _remove_ref(i: int) -> None:
    n = st.session_state.get("n_refs", 1)
    if n <= 1:
        st.session_state["ref_0"] = ""
        return
    vals = [st.session_state.get(f"ref_{j}", "") for j in range(n)]
    del vals[i]
    for j in range(MAX_REFS):
        st.session_state[f"ref_{j}"] = vals[j] if j < len(vals) else ""
    st.session_state["n_refs"] = n - 1


def _on_ngram_row() -> None:
    """A row clicked in the n-gram table selects that n-gram (same effect as the picker)."""
    sel = st.session_state.get("ngram_table")
    rows = getattr(getattr(sel, "selection", None), "rows", None) if sel is not None else None
    if rows is None and isinstance(sel, dict):
        rows = sel.get("selection", {}).get("rows")
    table = st.session_state.get("_ngram_texts") or []
    if rows and 0 <= rows[0] < len(table):
        st.session_state["ngram"] = table[rows[0]]


def _on_text_change() -> None:
    st.session_state["example"] = ""
    st.session_state["ngram"] = ""
    ps.reset("rouge_ref")


# --------------------------------------------------------------------------------------------- widgets
def _sidebar() -> None:
    """The example picker, then the shared metric settings (explainer.ui.settings)."""
    with st.sidebar:
        st.header("Example")
        ids = [""] + [e.id for e in EXAMPLES]
        titles = {e.id: e.title for e in EXAMPLES}
        if st.session_state.get("example") not in titles:
            st.session_state["example"] = ""
        st.selectbox("Load a worked example", ids, key="example", on_change=_on_example,
                     format_func=lambda i: titles.get(i, "— your own text —"),
                     help="Worked examples of the textbook and gaming presets. Loading one replaces "
                          "the texts.")
    render_settings_sidebar()  # its values are read back with the texts in _current_state
    cs.sidebar()
    render_display_toggle()


def _inputs() -> None:
    st.text_area("Candidate (the text being scored)", key="candidate", height=90, on_change=_on_text_change,
                 help="ROUGE-Lsum reads one sentence per line.")
    n = st.session_state.get("n_refs", 1)
    # Horizontal containers: the buttons keep their natural width (ratio columns squeezed "✕" to "›" and
    # "Add reference" to "Add …" at 1024 px), the text boxes take the rest.
    for i in range(n):
        with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
            st.text_area(f"Reference {i + 1}", key=f"ref_{i}", height=80, on_change=_on_text_change)
            st.button("✕", key=f"rm_ref_{i}", on_click=_remove_ref, args=(i,), help=f"Remove reference {i + 1}",
                      disabled=n <= 1, width="content")
    st.button("Add reference", icon=":material/add:", key="add_ref", on_click=_add_ref, disabled=n >= MAX_REFS,
              width="content")
    st.caption(f"1–{MAX_REFS} references, multi-line allowed. Limits: {MAX_INPUT_CHARS:,} characters per text, "
               f"{MAX_TRACE_CHARS:,} in all for the BLEU steps; highlighting shows the first "
               f"{HIGHLIGHT_MAX_CHARS:,} characters; the LCS table is drawn at most "
               f"{charts.HEATMAP_MAX}×{charts.HEATMAP_MAX} (downsampled beyond). Your text is not stored on the "
               f"server; it lives in this page's link (texts over {MAX_URL_TEXT:,} characters in all are left out "
               f"of it). {LINK_LIMITS_TEXT}.")


# ------------------------------------------------------------------------------------------ rendering
TABS_KEY = "xp_tab"  # the open tab: "BLEU", "ROUGE" or "chrF"


def _lazy_expander(label: str, key: str):
    """An expander whose content the caller builds only while it is open (``.open``; opening it reruns the
    page): a closed expander's tables and charts are neither computed nor sent to the browser."""
    return st.expander(label, key=key, on_change="rerun")


def _html(body: str) -> None:
    st.html(hl.STYLE + body)


def _fmt_bleu(trace) -> str:
    return bv.headline(trace.score, trace.scale)


# The five headline numbers wrap onto a second row when the page is narrow (a 1024 px projector with the
# sidebar open leaves ~540 px), instead of five squeezed columns cutting them to "78.…"; below 1100 px the
# numbers are also set a little smaller.
HEADLINE_CSS = """<style>
.st-key-xp_headline [data-testid="stMetric"]{min-width:7.6rem}
.st-key-xp_headline [data-testid="stMetricValue"]{white-space:nowrap}
@media (max-width:1100px){.st-key-xp_headline [data-testid="stMetricValue"]{font-size:1.8rem}}
</style>"""


def headline(bleu_trace, rouge_trace, rtypes, *, signatures: bool | None = None, chrf=None) -> None:
    """The five headline numbers (BLEU and the ROUGE types' F) and the signatures, from the two traces (either
    may be None). Shared with the Corpus page's segment view. ``signatures``: show the signatures' code box
    (default: not in a browser's first view of the Explain page, see :mod:`explainer.ui.explain.first_view`).
    ``chrf``: (chrF trace or None, message or None): a sixth number, chrF, and its signature."""
    st.html(HEADLINE_CSS)
    row = st.container(horizontal=True, gap="medium", key="xp_headline")
    cols = [row] * 5
    with cols[0]:
        if bleu_trace is not None and bleu_trace.library_error is not None:
            e = bleu_trace.library_error
            st.metric("BLEU", "fails", help=f"The real {bleu_trace.implementation} raises {e.type} on this input: "
                                            f"{e.explanation}. (The trace continues with {bleu_trace.score!r}.)")
        elif bleu_trace is not None:
            st.metric("BLEU", _fmt_bleu(bleu_trace),
                      help=f"{bleu_trace.dialect}, native scale 0–{int(bleu_trace.scale)}; exact value "
                           f"{bleu_trace.score!r}")
        else:
            st.metric("BLEU", "—")
    for col, (label, t) in zip(cols[1:], rv.headline_types()):
        with col:
            if rouge_trace is not None and t in rouge_trace.scores:
                s = rouge_trace.scores[t]
                st.metric(label, rv.fmt_score(s.fmeasure),
                          help=f"F-measure ({rouge_trace.dialect}, 0–1). "
                               f"P {s.precision!r}, R {s.recall!r}, F {s.fmeasure!r}")
            else:
                # selected, but over a work limit (the note above says why)
                left_out = rouge_trace is not None and t in (rtypes or ())
                st.metric(label, "—", help=("left out for these texts: see the note above" if left_out else
                                            "not selected in the ROUGE types (sidebar)" if rouge_trace is not None
                                            else None))
    if chrf is not None:
        with row:
            chrf_metric(*chrf)
    sig = []
    if bleu_trace is not None:
        sig.append(f"BLEU signature: {bleu_trace.signature}")
    if rouge_trace is not None:
        sig.append(f"ROUGE signature: {rouge_trace.signature}")
    if chrf is not None and chrf[0] is not None:
        sig.append(f"chrF signature: {chrf[0].signature}")
    if signatures is None:
        signatures = not first_view.pending()  # not in a browser's first run: the code box's script is 1.5 MB
    if sig and signatures:
        st.code("\n".join(sig), language=None, wrap_lines=True)


def _example_panel(example: str, cand: str, refs: list[str], bleu_trace, rouge_trace) -> None:
    """The worked example's note (what to look at) and the numbers the textbook prints beside the true ones."""
    ex = next((e for e in EXAMPLES if e.id == example), None)
    if ex is None or cand != ex.candidate or [r for r in refs if r] != list(ex.references):
        return
    st.info(f"**{hl.md_escape(ex.title)}.** {hl.md_escape(ex.note)}", icon=":material/lightbulb:")
    rows = example_view.claim_rows(ex, bleu_trace, rouge_trace)
    if rows:
        data_table(pd.DataFrame(rows), hide_index=True, key="claims_table")
        st.caption(example_view.CLAIMS_CAPTION)


def _findings(findings) -> None:
    # Material icons: Debian's Chromium has no colour-emoji font, so emoji icons render as empty boxes.
    icon = {"error": ":material/error:", "warning": ":material/warning:", "info": ":material/info:"}
    for f in findings:
        body = f"**{hl.md_escape(f.title)}** — {hl.md_escape(f.text)}"
        {"error": st.error, "warning": st.warning}.get(f.level, st.info)(body, icon=icon[f.level])


def _column_config(columns) -> dict:
    """A view model's TableColumn list as Streamlit column settings."""
    cc = st.column_config
    return {c.name: (cc.TextColumn if c.text else cc.NumberColumn)(c.label, help=c.help, width=c.width,
                                                                    pinned=c.pinned) for c in columns}


def _texts_html(texts) -> str:
    """Marked texts (a view model's MarkedText list) as escaped HTML: a heading line, then the text."""
    parts = []
    for m in texts:
        head, _, rest = m.heading.partition(" — ")
        parts.append(f"<p><b>{hl.escape_text(head)}</b>" + (f" — {hl.escape_text(rest)}" if rest else "") + "</p>")
        parts.append(hl.render_marked_text(m.text, m.marks, max_chars=HIGHLIGHT_MAX_CHARS, aria_label=m.aria_label))
    return "".join(parts)


def _latex_lines(formulas) -> None:
    for f in formulas:
        st.latex(f)


_INLINE = object()
_CHARTS_INTO: contextvars.ContextVar = contextvars.ContextVar("xp_charts_into", default=_INLINE)


@contextlib.contextmanager
def charts_into(box):
    """Draw the sections' charts into ``box`` (a container, e.g. an expander) instead of in place, or not at all
    (``box`` None): the Corpus page's segment view keeps them behind an expander, since a Plotly chart costs the
    browser far more to draw than the tables and formulas that hold the same numbers (issue 18: each click on
    the Corpus page redraws the segment view)."""
    tok = _CHARTS_INTO.set(box)
    try:
        yield
    finally:
        _CHARTS_INTO.reset(tok)


def _plot(fig, key: str, alt: str) -> None:
    box = _CHARTS_INTO.get()
    if box is None:
        return
    with box if box is not _INLINE else contextlib.nullcontext():
        st.plotly_chart(charts.readable(fig, large=large_text()), key=key,
                        config={"displaylogo": False}, alt=alt)


# ------------------------------------------------------------------------------------------------- BLEU
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
    _html(hl.legend_html(view.n_orders) if view.colour_by == "order" else hl.legend_refs_html(view.n_references))
    _html(_texts_html(view.texts))
    more = _lazy_expander("Tokens exactly as the dialect scores them", "xp_more_tokens")
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
               selection_mode="single-row", column_config=_column_config(table.columns))
    st.caption("Pick an n-gram in the list to outline it in the texts above; the table scrolls sideways on a "
               "narrow page." if large_text() else "Click a row to outline that n-gram in the texts above (or pick "
               "it in the list). Hover a column header for its meaning; the table scrolls sideways on a narrow page.")
    _plot(charts.bleu_counts_figure(view.orders), "bleu_counts", view.orders_alt)
    _latex_lines(view.precision_formulas)
    more = _lazy_expander("Smoothing and zero handling, order by order", "xp_more_smoothing")
    with more:
        if more.open:
            data_table(pd.DataFrame(view.smoothing_rows), hide_index=True, width="stretch")


def _bleu_length(view) -> None:
    st.markdown(f"#### {view.length_title}")
    st.markdown(hl.md_escape(view.ref_length_text))
    data_table(pd.DataFrame(view.ref_length_rows), hide_index=True)
    st.latex(view.bp_formula)
    if view.bp_curve is not None:
        _plot(charts.bp_curve_figure(**view.bp_curve), "bp_curve", view.bp_alt)
    st.caption(hl.md_escape(view.bp_caption))


# ------------------------------------------------------------------------------------------------ ROUGE
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
    _plot(charts.rouge_prf_figure(view.prf_rows), "rouge_prf", view.chart_alt)
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
            hl.render_marked_text(det.cand_text, cand_marks, max_chars=HIGHLIGHT_MAX_CHARS,
                                  aria_label=f"candidate {what}") +
            f"<p><b>Reference {det.k + 1}</b></p>" +
            hl.render_marked_text(det.ref_text, ref_marks, max_chars=HIGHLIGHT_MAX_CHARS,
                                  aria_label=f"reference {det.k + 1} {what}"))


def _rouge_ngram(g, det) -> None:
    st.markdown(f"##### {g.heading}")  # our own words and numbers, no user text
    _html(_pair_html(det, g.cand_marks, g.ref_marks, g.label))
    if g.rows:
        data_table(pd.DataFrame(g.rows).head(TABLE_MAX_ROWS), hide_index=True, width="stretch",
                   height=min(38 * (len(g.rows) + 1), 320), lazy=True)
    _latex_lines(g.formulas)


def _rouge_lcs(lcs, det) -> None:
    st.markdown(f"##### {lcs.heading}")
    fig, note = charts.lcs_heatmap_figure(lcs.table, lcs.ref_tokens, lcs.cand_tokens, lcs.pairs)
    _plot(fig, "lcs_heatmap", lcs.alt)
    if note:
        st.caption(note)
    afig, anote = charts.alignment_figure(lcs.cand_tokens, lcs.ref_tokens, lcs.pairs)
    _plot(afig, "lcs_alignment", "Alignment of candidate and reference tokens along the LCS")
    if anote:
        st.caption(anote)
    if lcs.tie_note:
        st.caption(hl.md_escape(lcs.tie_note))
    _html(_pair_html(det, lcs.cand_marks, lcs.ref_marks, "LCS", "Candidate — tokens in the LCS are marked"))
    if lcs.rows:
        data_table(pd.DataFrame(lcs.rows), hide_index=True, height=min(38 * (len(lcs.rows) + 1), 320), lazy=True)
    _latex_lines(lcs.formulas)


def _rouge_lsum(lsum) -> None:
    st.markdown(f"##### {lsum.heading}")
    _html(rv.LSUM_CSS + rv.lsum_html(lsum.rows))
    st.caption(hl.md_escape(lsum.union_note))
    _latex_lines(lsum.formulas)


def _rouge_other(o) -> None:
    more = _lazy_expander(f"{o.label} details", f"xp_more_{o.type}")
    with more:
        if not more.open:
            return
        st.markdown(hl.md_escape(o.summary))
        if o.formula_note:
            st.caption(hl.md_escape(o.formula_note))
        _latex_lines(o.formulas)
        if o.skip_rows:
            data_table(pd.DataFrame(o.skip_rows).head(TABLE_MAX_ROWS), hide_index=True, lazy=True)
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
        _plot(fig, h.key, h.alt)
        if note:
            st.caption(note)
    if o.wlcs_more_note:
        st.caption(o.wlcs_more_note)


def trace_json(bleu_trace, rouge_trace, chrf_trace=None) -> str:
    """The "Trace (JSON)" download: the traces' ``to_dict()``."""
    payload = {"bleu": bleu_trace.to_dict() if bleu_trace is not None else None,
               "rouge": rouge_trace.to_dict() if rouge_trace is not None else None,
               "chrf": chrf_trace.to_dict() if chrf_trace is not None else None}
    return json.dumps(payload, ensure_ascii=False, indent=1)


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


def _downloads(bleu_trace, rouge_trace, chrf_trace=None) -> None:
    st.markdown("#### Downloads")
    # Deferred: the files are built only when a button is clicked, so a rerun does not serialise traces. In a
    # wrapping row the buttons keep their full labels on a narrow page (columns cut them to "BLEU n-gram table (…").
    with st.container(horizontal=True, gap="small"):
        st.download_button("Trace (JSON)", lambda: trace_json(bleu_trace, rouge_trace, chrf_trace),
                           file_name="trace.json", mime="application/json", key="dl_json", on_click="ignore",
                           width="content")
        if bleu_trace is not None:
            st.download_button("BLEU n-gram table (CSV)", lambda: ngram_csv(bleu_trace), file_name="bleu_ngrams.csv",
                               mime="text/csv", key="dl_csv", on_click="ignore", width="content")


# ------------------------------------------------------------------------------------------------ page
def compute(cand: str, refs: list[str], settings: MetricSettings):
    """Both traces (or an error message per family). The only place the page calls the cores; computed once
    per (texts, settings) and shared by every session (explainer.ui.compute)."""
    return shared_compute.traces(cand, refs, settings)


def _diagnosis(bleu_trace, rouge_trace) -> list:
    """The findings of both traces, with the counterfactual scores they compare with (computed only when a
    finding can use them)."""
    out = []
    if bleu_trace is not None:
        out += diagnosis.diagnose_bleu(
            bleu_trace, alternatives=counterfactuals.bleu_other_entry_point(bleu_trace),
            tokenizer_scores=(counterfactuals.bleu_with_tokenizers(bleu_trace)
                              if diagnosis.has_spaceless_text(bleu_trace) else None))
    if rouge_trace is not None:
        out += diagnosis.diagnose_rouge(rouge_trace, stemmed=counterfactuals.rouge_with_stemming(rouge_trace))
    return out


def _usable_references(cand: str, all_refs: list[str]) -> list[str] | None:
    """Messages about the texts (invisible characters, too long, empty); the references to score, or None when
    there is nothing to compute. The user's text always stays in its box."""
    if not texts_fit(cand, all_refs):
        st.info("The texts are too long for a link; the link keeps only the settings.", icon=":material/link:")
    suspicious = hl.suspicious_chars([cand] + all_refs)
    if suspicious:
        st.info("Invisible or direction-changing characters in the texts (shown as U+XXXX badges below): "
                + hl.md_escape(", ".join(suspicious[:8])), icon=":material/visibility:")
    too_long = [n for n, t in [("the candidate", cand)] + [(f"reference {i + 1}", r)
                for i, r in enumerate(all_refs)] if len(t) > MAX_INPUT_CHARS]
    if too_long:
        st.error(f"{', '.join(too_long).capitalize()} {'is' if len(too_long) == 1 else 'are'} longer than the limit of "
                 f"{MAX_INPUT_CHARS:,} characters. Shorten the text to see the explanation; your text stays in "
                 "the box.")
        return None
    # An empty box is "no reference"; a reference of only spaces or control characters is real input (some
    # libraries fail on it, e.g. HF evaluate on a form feed), so it is scored as given.
    refs = [r for r in all_refs if r != ""]
    blank = [i + 1 for i, r in enumerate(all_refs) if r == ""]
    spaces = [i + 1 for i, r in enumerate(all_refs) if r != "" and not r.strip()]
    if not cand.strip():
        st.warning("The candidate is empty. Type the text you want to score in the candidate box.")
        return None
    if not refs:
        st.warning("There is no reference yet. Type at least one reference text (what the candidate is compared "
                   "with).")
        return None
    if blank:
        st.caption(f"Empty reference box(es) {', '.join(map(str, blank))} are ignored.")
    if spaces and len(spaces) == len(refs):
        st.warning("No reference has any visible text, so nothing can match: every score is 0, or the real "
                   "library fails (see below). Type a reference text to compare with.")
    elif spaces:
        st.info(f"Reference(s) {', '.join(map(str, spaces))} contain only spaces or invisible characters; they are "
                "scored as given (they have no tokens).", icon=":material/space_bar:")
    return refs


def _explanation(bleu_trace, rouge_trace, cand: str, refs: list[str], settings: MetricSettings, chrf) -> None:
    """Below the headline (after a browser's first view, whose first run computes the headline only): the
    diagnosis, then the BLEU, ROUGE and chrF steps in three tabs, only the open one built."""
    if first_view.details_later():  # a browser's first view: the headline now, the rest right after
        return
    first_view.after_first_views()  # a class opening a link at once: everyone's headline first
    with first_view.second_run_turn():
        _details(bleu_trace, rouge_trace, cand, refs, settings, chrf)


def _details(bleu_trace, rouge_trace, cand: str, refs: list[str], settings: MetricSettings, chrf) -> None:
    # a function of the inputs only: shared across sessions like the traces
    findings = shared_compute.cached("findings", cand, refs, settings, lambda: _diagnosis(bleu_trace, rouge_trace),
                                     small=True)
    serious = any(f.level in ("error", "warning") for f in findings)
    with st.expander("Why is this score zero / low?", expanded=serious):
        if findings:
            _findings(findings)
        else:
            st.success("Nothing unusual: every order has matches and no penalty applies.")
    # Only the open tab's content is built and sent (switching tabs reruns the page).
    tab_b, tab_r, tab_c = st.tabs(["BLEU", "ROUGE", "chrF"], key=TABS_KEY, on_change="rerun")
    with tab_b:
        if not tab_b.open:
            pass
        elif bleu_trace is not None:
            bleu_section(bleu_trace)
        else:
            st.info("BLEU could not be computed; see the message above.")
    with tab_r:
        if not tab_r.open:
            pass
        elif rouge_trace is not None:
            rouge_section(rouge_trace, len(refs))
        else:
            st.info("ROUGE could not be computed; see the message above.")
    with tab_c:
        if not tab_c.open:
            pass
        elif chrf[0] is not None:
            chrf_section(chrf[0])
        else:
            st.info("chrF could not be computed: " + hl.md_escape(chrf[1] or ""))
    _downloads(bleu_trace, rouge_trace, chrf[0])


def render() -> None:
    t0 = time.perf_counter()
    xl.load_from_url()
    st.title("BLEU, ROUGE & chrF, step by step")
    st.caption("One candidate, several references: every step of BLEU, ROUGE and chrF, computed as the real "
               "implementations do. Pick a worked example in the sidebar or type your own text.")
    # A browser's first view has two runs: the link's warnings are shown in both (dropped after the second).
    xl.PAGE.warnings(take=first_view.once, watch=False)
    if not first_view.pending():  # a browser's first run: the settings' widgets follow with the sections
        _sidebar()
    _inputs()
    cand, all_refs, settings, view, warns = _current()
    for w in warns:
        st.warning(hl.md_escape(w))
    xl.write(cand, all_refs, settings, view)
    # a link the server dropped whole: only the browser still has it. Mounted after the page's widgets, so the
    # rerun its report causes carries their values (a rerun asked for earlier in the first run blanked the texts)
    xl.PAGE.watch()
    refs = _usable_references(cand, all_refs)
    if refs is None:
        return
    with st.spinner("Computing BLEU, ROUGE and chrF step by step…"):
        bleu_trace, rouge_trace, errors = compute(cand, refs, settings)
        chrf = cs.trace(cand, refs, cs.read())    # (the traps below read the same settings)
    for fam, msg in errors.items():
        st.error(f"{fam}: " + hl.md_escape(msg))
    # the classic traps of these texts under these settings (texts and settings only: shared like the traces)
    chrf_settings = cs.read()
    traps_view.show(traps_view.page_trap_list([
        *shared_compute.cached("traps", cand, refs, settings,
                               lambda: traps_view.settings_traps([cand], [refs], settings, corpus=False), small=True),
        *shared_compute.cached(("traps", chrf_settings), cand, refs, settings,
                               lambda: traps_view.chrf_traps([cand], [refs], chrf_settings, corpus=False),
                               small=True)]))
    headline(bleu_trace, rouge_trace, settings.rouge_types, chrf=chrf)
    _example_panel(view["example"], cand, all_refs, bleu_trace, rouge_trace)
    _explanation(bleu_trace, rouge_trace, cand, refs, settings, chrf)
    st.session_state["_render_seconds"] = time.perf_counter() - t0
