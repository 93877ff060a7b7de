"""The Corpus page's segment table and segment view (the Explain page's own components for one segment).

The table holds every segment's score of the measure looked at, per system (the family's named definition,
``CorpusScores.segment_score_name``; a family's part may give its own columns, e.g. BLEU's lengths and brevity
penalty), and its difference to the baseline's; "system better" / "worse" in the measure's direction."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from explainer.corpus.testset import TestSet
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import settings as metric_settings
from explainer.ui.corpus import warmup
from explainer.ui.corpus.common import (
    SCROLL_TO_SEGMENT,
    SEGMENT_VIEW_FRAGMENT,
    SEGMENTS_FRAGMENT,
    TABLE_SEARCH_MAX,
    apply_open_request,
    explain_url,
    open_segment,
    selected_rows,
)
from explainer.ui.corpus.part import CorpusFocus
from explainer.ui.corpus.state import share_box, sync_url

__all__ = ["segments_fragment", "segment_columns", "scroll_to_segment_view", "side_by_side", "segment_navigation"]

SCROLLED = "_cp_scrolled"


def scroll_to_segment_view() -> None:
    """Scroll the page to the segment view once after a click opened a segment (it opens two screens below the
    gain / loss buttons and chart bars, out of sight). A zero-height component's script, same origin. An instant
    jump, not a smooth scroll: the animation repaints the long page (its grids and charts) for half a second, and
    a click in that time (next segment) took 1.3 s instead of 0.4 s (issue 18)."""
    ss = st.session_state
    n = ss.get(SCROLL_TO_SEGMENT, 0)
    if not n or ss.get(SCROLLED) == n:
        return
    ss[SCROLLED] = n
    import streamlit.components.v1 as components

    components.html(f"<script>/* {int(n)} */ const el = window.parent.document.getElementById('segment-view');"
                    "if (el) { el.scrollIntoView({behavior: 'instant', block: 'start'}); }</script>", height=0)


def segment_columns(part, focus: CorpusFocus) -> dict[str, list]:
    """The per-segment table as columns: the family's own (its part's), else each system's segment score of the
    measure looked at and its difference to the baseline's."""
    own = part.segment_columns(focus)
    if own is not None:
        return own
    cols: dict[str, list] = {"segment": list(range(1, focus.n_segments + 1))}
    base = focus.segment_scores(focus.b)
    for j, name in enumerate(focus.names):
        v = focus.segment_scores(j)
        cols[f"{name} | score"] = v.tolist()
        if j != focus.b:
            cols[f"{name} | Δ"] = (v - base).tolist()
    return cols


def _filter_mask(df: pd.DataFrame, ts: TestSet, focus: CorpusFocus, c2, c3) -> np.ndarray:
    """The rows the filters keep: a bar's or a row's segments, better / worse / equal, the search."""
    ss = st.session_state
    others = [n for j, n in enumerate(focus.names) if j != focus.b]
    cmp_name = ss.get("cp_system") if ss.get("cp_system") in others else (others[0] if others else None)
    show = c2.selectbox("Show", ["all segments", "system better", "system worse", "equal"], key="cp_show",
                        disabled=cmp_name is None, on_change=_first_page,
                        help="Compared: the system picked above against the baseline, in the measure's direction.")
    mask = np.ones(len(df), dtype=bool)
    flt = ss.get("cp_filter_ids")
    if flt:
        label, ids = flt
        keep = np.zeros(len(df), dtype=bool)
        keep[[x - 1 for x in ids if 1 <= x <= len(df)]] = True
        mask &= keep
        c3.button(hl.md_escape(f"✕ only: {label[:40]} ({len(ids):,})"), key="cp_clear_filter",
                  on_click=lambda: ss.pop("cp_filter_ids", None), help="Show all segments again")
    if cmp_name is not None and show != "all segments" and f"{cmp_name} | Δ" in df:
        gain = df[f"{cmp_name} | Δ"].to_numpy() * (1 if focus.measure.higher_is_better else -1)
        mask &= {"system better": gain > 0, "system worse": gain < 0, "equal": gain == 0}[show]
    query = ss.get("cp_search")
    if query:
        q = query.lower()
        hit = np.zeros(len(df), dtype=bool)
        for k in range(len(df)):
            if any(q in r.lower() for r in ts.references[k]) or any(q in lines[k].lower() for _, lines in ts.systems):
                hit[k] = True
        mask &= hit
    return mask


def _segment_table(part, focus: CorpusFocus) -> None:
    ss = st.session_state
    st.header("Segments", anchor="segments")
    ts = focus.testset
    df = _table_frame(segment_columns(part, focus), ts, focus.names)
    c1, c2, c3 = st.columns([3, 2, 2])
    c1.text_input("Search the texts (candidates and references)", key="cp_search", max_chars=TABLE_SEARCH_MAX,
                  on_change=_first_page)
    mask = _filter_mask(df, ts, focus, c2, c3)
    view = _sorted_rows(df[mask], df)
    shown, start = _table_page(view)
    st.caption(hl.md_escape(
        f"{int(mask.sum()):,} of {len(df):,} segments"
        + (f", rows {start + 1:,}–{start + len(shown):,} shown" if len(shown) < len(view) else "")
        + f". Click a row to open the segment below (a column header sorts the rows shown). Scores: "
          f"{focus.segment_score_name}; Δ = the system's minus the baseline's"
        + ("" if focus.measure.higher_is_better else " (lower is better)") + "."))
    digits = "%.2f" if focus.measure.scale >= 100 else "%.4f"
    fmt = {c: st.column_config.NumberColumn(format=digits)
           for c in df.columns if c.endswith(("| score", "| Δ", f"| {focus.measure.key}"))}
    fmt["reference 1"] = st.column_config.TextColumn("reference 1", width="medium")
    st.dataframe(shown, hide_index=True, width="stretch", height=360, on_select=_on_table_row,
                 selection_mode="single-row", key="cp_table", column_config=fmt)
    # the rows in their order (every page): previous / next walk them; a row picked is looked up from the page's
    # first row
    ss["cp_visible_ids"] = view["segment"].tolist()
    ss[TABLE_START] = start


TABLE_ROWS = 100        # rows sent to the browser at a time (a WMT test set's 2,037 rows made every click slow)
TABLE_START = "_cp_table_start"


def _sorted_rows(view: pd.DataFrame, df: pd.DataFrame) -> pd.DataFrame:
    """The filtered rows sorted by the column picked (every row, before they are cut into pages)."""
    cols = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])]
    ps.choice("cp_sort", cols, "segment")
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    col = c1.selectbox("Sort the segments by", cols, key="cp_sort", on_change=_first_page)
    desc = c2.toggle("largest first", key="cp_sort_desc", on_change=_first_page)
    if col == "segment" and not desc:
        return view
    return view.sort_values(col, ascending=not desc, kind="stable", na_position="last") if col in view else view


def _first_page() -> None:
    """Another order or other rows: the table starts again at its first page."""
    st.session_state["cp_table_page"] = 1


def _table_page(view: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """(the rows of the page shown, the index of its first row): TABLE_ROWS at a time."""
    ss = st.session_state
    pages = max(1, -(-len(view) // TABLE_ROWS))
    if pages == 1:
        return view, 0
    page = ss.get("cp_table_page")
    if not isinstance(page, int) or not 1 <= page <= pages:
        ss["cp_table_page"] = 1
    page = int(st.number_input(f"Page of the table ({pages:,} pages of {TABLE_ROWS} rows)", min_value=1,
                               max_value=pages, step=1, key="cp_table_page"))
    start = (page - 1) * TABLE_ROWS
    return view.iloc[start:start + TABLE_ROWS], start


def _on_table_row() -> None:
    rows = selected_rows("cp_table")
    visible = st.session_state.get("cp_visible_ids") or []
    k = rows[0] + int(st.session_state.get(TABLE_START, 0)) if rows else None
    if k is not None and k < len(visible):
        open_segment(int(visible[k]))


@st.fragment(key=SEGMENTS_FRAGMENT)
def segments_fragment(part, focus: CorpusFocus) -> None:
    """The table and the segment view rerun on their own: picking a row and the table's filters redraw only this
    part of the page; previous / next and the segment number redraw only the segment view (a fragment inside)."""
    with warmup.page_run():   # the background reports wait while a fragment runs
        apply_open_request()     # a row picked in the table reruns this fragment only
        with st.container():
            _segment_table(part, focus)
        with st.container():
            _segment_view_fragment(part, focus)


@st.fragment(key=SEGMENT_VIEW_FRAGMENT)
def _segment_view_fragment(part, focus: CorpusFocus) -> None:
    with warmup.page_run():   # the background reports wait while a fragment runs
        apply_open_request()     # a segment opened from an analysis or a table row reruns this fragment only
        _segment_view(part, focus)
        share_box()
        sync_url()     # previous / next rerun this fragment only: the link follows the segment


PREVIEW_CHARS = 70


def _table_frame(cols: dict, ts: TestSet, names: list[str]) -> pd.DataFrame:
    """The table as shown: id, the first reference (shortened), its length, then per system its score first
    (the CSV download keeps every column in the report's order)."""
    out = {"segment": cols["segment"]}
    if ts.source is not None:
        out["source"] = [x[:PREVIEW_CHARS] + ("…" if len(x) > PREVIEW_CHARS else "") for x in ts.source]
    out["reference 1"] = [r[0][:PREVIEW_CHARS] + ("…" if len(r[0]) > PREVIEW_CHARS else "") if r else ""
                          for r in ts.references]
    for k in ("ref_len", "ref_words"):
        if k in cols:
            out[k] = cols[k]
    for n in names:
        first = [c for c in cols if c.startswith(f"{n} | ") and not c.endswith(("| len", "| r", "| words", "| BP"))
                 and not c.endswith("-gram")]
        rest = [c for c in cols if c.startswith(f"{n} | ") and c not in first and not c.endswith("| r")]
        for c in first + rest:
            out[c] = cols[c]
    return pd.DataFrame(out)


def _step(delta: int, S: int) -> None:
    ss = st.session_state
    visible = ss.get("cp_visible_ids") or list(range(1, S + 1))
    cur = int(ss.get("cp_seg", 1))
    if cur in visible:
        k = visible.index(cur) + delta
        ss["cp_seg"] = visible[max(0, min(len(visible) - 1, k))]
    else:
        ss["cp_seg"] = max(1, min(S, cur + delta))
    ss["cp_seg_input"] = ss["cp_seg"]


def _seg_input_changed() -> None:
    ss = st.session_state
    # A press of previous / next sent before the browser had the number the last press set carries the box's old
    # value, which Streamlit reports as a change of the box: taken as typed, it undid the last press (5 quick
    # presses of next moved 4 segments, about 1 run in 15; the server saw "18 -> 17" with "next" pressed).
    if ss.get("cp_next") or ss.get("cp_prev"):
        return
    ss["cp_seg"] = int(ss["cp_seg_input"])


def _segment_view(part, focus: CorpusFocus) -> None:
    st.header("Segment view", anchor="segment-view")
    # each part in its own container: a part that draws one element more or fewer this time (the scroll script,
    # the "opened from" note, a warning) leaves the places of the parts below unchanged, so the browser updates
    # them instead of building them anew (issue 18: a click's redraw is most of its time)
    with st.container():
        seg, j = segment_navigation(focus.n_segments, focus.names)
    with st.container():
        scroll_to_segment_view()
    k = seg - 1
    ts = focus.testset
    cand = ts.systems[j][1][k]
    refs = ts.references[k]
    with st.container():
        side_by_side(ts, focus.names, k, j)
    with st.container():
        _segment_summary(part, focus, seg, j, cand, refs)
    _segment_explanation(cand, refs, focus.chosen or [focus.family.name], focus.settings)


def side_by_side(ts: TestSet, names: list[str], k: int, j: int) -> None:
    """The source (when loaded), the baseline's and the shown system's outputs and the references of segment k
    side by side (compare-mt's sentence examples; the explanation below takes one candidate at a time)."""
    ss = st.session_state
    b = names.index(ss["cp_baseline"]) if ss.get("cp_baseline") in names else 0
    shown = [b] if b == j else [b, j]
    if ts.source is not None:
        st.markdown("**Source** " + hl.md_escape(ts.source[k]))
    cols = st.columns(len(shown) + 1)
    for col, idx in zip(cols, shown):
        with col:
            role = "baseline" if idx == b else "system"
            st.markdown(f"**{hl.md_escape(names[idx])}** ({role})")
            st.markdown(hl.md_escape(ts.systems[idx][1][k]) or "_(empty)_")
    with cols[-1]:
        for r_i, r in enumerate(ts.references[k]):
            st.markdown(f"**Reference {r_i + 1}**")
            st.markdown(hl.md_escape(r) or "_(empty)_")


def segment_navigation(S: int, names: list[str]) -> tuple[int, int]:
    """Previous / next, the segment number and the system whose candidate is shown: (segment, system index)."""
    ss = st.session_state
    seg = max(1, min(S, int(ss.get("cp_seg", 1))))
    ss["cp_seg"] = seg
    if ss.get("cp_seg_input") != seg:
        ss["cp_seg_input"] = seg
    ps.choice("cp_view_sys", names, ss.get("cp_system") if ss.get("cp_system") in names else names[0])
    c1, c2, c3, c4 = st.columns([1, 2, 1, 3], vertical_alignment="bottom")
    c1.button("← previous", key="cp_prev", on_click=_step, args=(-1, S), disabled=seg <= 1)
    c2.number_input("Segment", min_value=1, max_value=S, step=1, key="cp_seg_input", on_change=_seg_input_changed)
    c3.button("next →", key="cp_next", on_click=_step, args=(1, S), disabled=seg >= S)
    c4.selectbox("Candidate of", names, key="cp_view_sys")
    note = ss.pop("cp_opened_note", "")
    if note:
        st.caption(hl.md_escape(note))
    return seg, names.index(ss["cp_view_sys"])


def _segment_summary(part, focus: CorpusFocus, seg: int, j: int, cand: str, refs: list[str]) -> None:
    """The link to the Explain page, and how this segment enters the corpus score."""
    params = metric_settings.explain_link_params(cand, refs, focus.settings)
    if "candidate" in params:
        st.markdown(f"[Open segment {seg} in the Explain page]({explain_url(params)}) (same settings; a new tab)")
    else:
        st.caption(f"Segment {seg} is too long for a link to the Explain page; its full explanation is below.")
    note = part.segment_note(focus, seg, j)
    if note:
        st.caption(hl.md_escape(note))
    if not cand.strip():
        st.warning(hl.md_escape(f"{focus.names[j]}'s output for segment {seg} is empty: it scores as an empty "
                                "output does (0 for the n-gram metrics)."))


def _segment_explanation(cand: str, refs: list[str], chosen: list[str], settings) -> None:
    """The Explain page's own headline of the chosen families (``chosen``: their names, the one looked at first)
    and one family's steps for this segment, with the same settings."""
    from explainer.ui import compute as shared_compute
    from explainer.ui import sections as sx
    from explainer.ui import view_more
    from explainer.ui.explain import page as xp
    from explainer.ui.families import ui_families, ui_family

    ss = st.session_state
    # the Explain page's traces for these texts and settings (computed once, shared with that page and with
    # every session looking at the same segment): the chosen families' (a family's model, e.g. the semantic
    # scores', costs each segment a tenth of a second)
    def trace(fam):
        whole = view_more.asked(fam.name, settings[fam.name], cand, refs)   # the reader's click (a view's limit)
        return shared_compute.family_trace(fam, settings[fam.name], cand, list(refs), whole=whole)

    computed = {n: trace(ui_family(n)) for n in chosen}
    with st.container():
        for name, c in computed.items():
            for msg in c.notes + ([c.error] if c.trace is None and c.error else []):
                (st.info if c.view_limited else st.error)(hl.md_escape(f"{ui_family(name).label}: {msg}"))
    xp.headline(computed, signatures=True)
    # One family at a time: every family would build every chart of the Explain view on each step (ROUGE's LCS
    # tables alone take ~0.3 s), and previous / next should be instant.
    labels = {f.tab_label(): f for f in ui_families()}
    first = ui_family(chosen[0]).tab_label()
    if ss.get("cp_view_family") not in labels:
        ss["cp_view_family"] = first
    label = st.segmented_control("Step by step", list(labels), key="cp_view_family") or first
    fam = labels[label]
    c = computed.get(fam.name) or trace(fam)
    # the step-by-step's charts behind an expander, drawn only while it is open: each is a Plotly chart, which
    # costs the browser more than the rest of the segment view, and previous / next redraw it (issue 18)
    box = st.expander(f"Charts of this segment ({label})", key="cp_seg_charts", on_change="rerun")
    with sx.charts_into(box if box.open else None):
        fam.section(c, n_refs=len(refs))
