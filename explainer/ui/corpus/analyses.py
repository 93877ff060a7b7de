""""Where the systems differ": the analyses every family has (scores by reference length, the largest deltas,
segment scores, segments per band of the segment score), declared once each as an
:class:`explainer.ui.corpus.part.Analysis`, then the family's own (``CorpusPart.analyses``); one analysis drawn at a
time, picked in one control (``cp_differ_view``, in the saved view).

Every number is the measure's: the segment score is the family's named definition, said on every chart and
caption (``CorpusScores.segment_score_name``: one definition everywhere, issue 33, item 5), and "better" is the
measure's direction (TER: lower). A bar or a row lists its segments in the segment table; a point opens its segment.
"""
from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from explainer.corpus import segment_analyses as sa
from explainer.ui import highlight as hl
from explainer.ui.corpus import charts as cc
from explainer.ui.corpus.common import FIRST_ANALYSIS, on_chart_open, on_group_row, on_pick, open_segment, plot
from explainer.ui.corpus.part import Analysis, CorpusFocus

__all__ = ["GENERIC", "VIEW_KEY", "differ_section", "draw_analysis", "analyses_of", "chart_key"]

VIEW_KEY = "cp_differ_view"     # the analysis shown (a saved comparison restores it)
_SHOWN_KEY = "_cp_differ_view_shown"     # the analysis the last run showed
#: the charts' keys of the generic analyses (the browser tests and the page's links to them know them)
_KEYS = {"Length buckets": "cp_buckets", "Largest deltas": "cp_delta_hist", "Segment scores": "cp_scatter",
         "Sentence buckets": "cp_sentbuckets"}


def chart_key(name: str) -> str:
    return _KEYS.get(name) or "cp_an_" + "".join(c if c.isalnum() else "_" for c in name.lower())


# --------------------------------------------------------------------------------------------- length buckets
def _buckets_figure(buckets, focus: CorpusFocus):
    return cc.length_buckets_figure(buckets, focus.names, metric=focus.label,
                                    title=f"{focus.label} by reference length (buckets of about equal size)")


def _buckets_table(buckets, focus: CorpusFocus):
    rows = [{"reference length": bk["bucket"], "segments": bk["n_segments"],
             **{n: bk["scores"].get(n) for n in focus.names}} for bk in buckets]
    return pd.DataFrame(rows), [(bk["segments"], f"reference length {bk['bucket']}") for bk in buckets]


def _buckets_caption(buckets, focus: CorpusFocus) -> str:
    how = ("the corpus score of the bucket's segments alone (their statistics summed)"
           if all(m.statistic is not None for m in focus.measure_scores()) else
           "the mean of the bucket's segment scores")
    return (f"{focus.label} per bucket: {how}. Buckets of about equal size by {focus.extra.get('length_unit')}. "
            "Click a bar or a row to list its segments in the table below.")


# ---------------------------------------------------------------------------------------------- largest deltas
def _deltas(focus: CorpusFocus) -> dict:
    a, b = focus.segment_scores(focus.i), focus.segment_scores(focus.b)
    return sa.largest_deltas(a, b, higher_is_better=focus.measure.higher_is_better, system=focus.names[focus.i],
                             baseline=focus.names[focus.b])


def _draw_deltas(focus: CorpusFocus) -> None:
    dl = focus.cached(f"deltas:{focus.i}:{focus.b}", lambda: _deltas(focus))
    digits = 2 if focus.measure.scale >= 100 else 4
    lower = "" if focus.measure.higher_is_better else " (lower is better)"
    st.markdown(hl.md_escape(f"{dl['system']} is better than {dl['baseline']} on {dl['n_better']:,} segments, "
                             f"worse on {dl['n_worse']:,}, equal on {dl['n_equal']:,}{lower}."))
    c1, c2 = st.columns(2)
    for col, label, recs in ((c1, "Largest gains", dl["better"]), (c2, "Largest losses", dl["worse"])):
        with col:
            st.markdown(f"**{label}**")
            for r in recs:
                st.button(f"segment {r['segment']}: {r['delta']:+.{digits}f}  ({r['baseline']:.{digits}f} → "
                          f"{r['system']:.{digits}f})", key=f"cp_delta_{label}_{r['segment']}",
                          on_click=open_segment, args=(r["segment"], dl["system"], ""))
    delta = focus.segment_scores(focus.i) - focus.segment_scores(focus.b)
    plot(cc.delta_histogram_figure(delta, name=focus.names[focus.i], base_name=focus.names[focus.b],
                                   metric=focus.segment_score_name,
                                   higher_is_better=focus.measure.higher_is_better), "cp_delta_hist",
         selection_mode="points", on_select=partial(on_pick, "cp_delta_hist", partial(cc.delta_bar_segments, delta)))
    st.caption(hl.md_escape(f"Segment scores: {focus.segment_score_name} — the same scores as “Segment scores” "
                            "and the segment table. Click a bar to list its segments in the table below."))


# ---------------------------------------------------------------------------------------------- segment scores
def _draw_scatter(focus: CorpusFocus) -> None:
    plot(cc.segment_scatter_figure(focus.segment_scores(focus.b), focus.segment_scores(focus.i),
                                   base_name=focus.names[focus.b], name=focus.names[focus.i],
                                   metric=focus.segment_score_name, higher_is_better=focus.measure.higher_is_better),
         "cp_scatter", selection_mode=("points", "box", "lasso"),
         on_select=partial(on_chart_open, "cp_scatter", focus.names[focus.i]))
    st.caption(hl.md_escape(f"Each point is a segment, scored as {focus.segment_score_name}. Click one to open it; "
                            "to list several in the table, pick the box or lasso tool (the chart's toolbar, top "
                            "right) and draw around them."))


# -------------------------------------------------------------------------------------------- sentence buckets
def _bands(focus: CorpusFocus) -> list[dict]:
    return sa.score_bands(focus.measure_scores(), focus.names, focus.measure.scale)


def _bands_figure(bands, focus: CorpusFocus):
    return cc.length_buckets_figure(bands, focus.names, metric="segments", what="segment score",
                                    title=f"Segments per band of the segment score ({focus.segment_score_name})")


def _bands_caption(bands, focus: CorpusFocus) -> str:
    return (f"compare-mt's sentence buckets for {focus.label}: how many segments of each system score in each band "
            f"of 0–{focus.measure.scale:g}; segment scores: {focus.segment_score_name}. Click a bar to list the "
            "band's segments (of every system) below.")


def generic(part) -> tuple[Analysis, ...]:
    """The analyses of every family (``part``: the family's corpus part, for its reference lengths)."""
    return (
        Analysis("Length buckets", compute=partial(_buckets_for, part), figure=_buckets_figure,
                 lists=cc.bucket_bar_segments, table=_buckets_table, caption=_buckets_caption),
        Analysis("Largest deltas", draw=_draw_deltas, pair=True),
        Analysis("Segment scores", draw=_draw_scatter, pair=True),
        Analysis("Sentence buckets", compute=_bands, figure=_bands_figure,
                 lists=partial(cc.bucket_bar_segments, what="segment score"), caption=_bands_caption),
    )


def _buckets_for(part, focus: CorpusFocus) -> list[dict]:
    lengths, unit = part.reference_lengths(focus)
    focus.extra["length_unit"] = unit
    return sa.length_buckets(focus.measure_scores(), focus.names, lengths)


GENERIC = ("Length buckets", "Largest deltas", "Segment scores", "Sentence buckets")


def analyses_of(part, focus: CorpusFocus) -> dict[str, Analysis]:
    """name -> analysis: the generic ones, then the family's own that apply to this test set."""
    out = {a.name: a for a in generic(part)}
    for a in part.analyses(focus):
        if a.applies is None or a.applies(focus):
            out[a.name] = a
    return out


def draw_analysis(a: Analysis, focus: CorpusFocus) -> None:
    """One analysis: its own drawing, or its figure (a click lists or opens segments), table and caption."""
    if a.pair and focus.i == focus.b:
        st.info("Pick a system other than the baseline above.")
        return
    if a.draw is not None:
        a.draw(focus)
        return
    data = focus.cached(f"{a.name}:{focus.i}:{focus.b}", lambda: a.compute(focus))
    key = chart_key(a.name)
    if a.figure is not None:
        on_select = partial(on_pick, key, partial(a.lists, data)) if a.lists is not None else "ignore"
        plot(a.figure(data, focus), key, selection_mode=a.selection, on_select=on_select)
    if a.table is not None:
        frame, groups = a.table(data, focus)
        tkey = key + "_table"
        st.dataframe(frame, hide_index=True, width="stretch", selection_mode="single-row", key=tkey,
                     on_select=partial(on_group_row, tkey, groups) if groups else "ignore")
    text = a.caption(data, focus) if callable(a.caption) else a.caption
    if text:
        st.caption(hl.md_escape(text))


def differ_section(part, focus: CorpusFocus) -> None:
    """One analysis at a time (tabs would compute and draw all of them on every rerun)."""
    st.header("Where the systems differ", anchor="differ")
    views = analyses_of(part, focus)
    names = list(views)
    ss = st.session_state
    ss[FIRST_ANALYSIS] = names[0]
    if ss.get(VIEW_KEY) not in names:
        # a click on the analysis shown deselects it (None): it stays shown, as it would for a tab
        shown = ss.get(_SHOWN_KEY)
        ss[VIEW_KEY] = shown if ss.get(VIEW_KEY) is None and shown in names else names[0]
    view = st.segmented_control("Analysis", names, key=VIEW_KEY) or names[0]
    ss[_SHOWN_KEY] = view
    st.caption(hl.md_escape(f"{focus.label}; segment scores: {focus.segment_score_name}."))
    draw_analysis(views[view], focus)

