"""Mathur, Baldwin & Cohn (2020)'s outlier lesson as a demonstration (the C11 card of the Gaming lab): WMT19's
systems of one language pair, their human scores against BLEU or chrF, and Pearson's r recomputed with every
system and without the ones left out (by default the outliers the paper's rule flags)."""
from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from explainer.attacks import outliers as ol
from explainer.ui import charts
from explainer.ui import highlight as hl
from explainer.ui.display import data_table, large_text

__all__ = ["render", "scatter_figure"]


def scatter_figure(c: ol.Correlation) -> go.Figure:
    """Human score against the metric, one marker per system; the systems left out as open red diamonds."""
    label = ol.METRICS[c.metric][0]
    gone = set(c.left_out)
    fig = go.Figure()
    for name, keep, style in (("systems kept", True, dict(symbol="circle", size=11, color="#0072B2")),
                              ("left out", False, dict(symbol="diamond-open", size=15, color="#D55E00",
                                                       line=dict(width=3)))):
        pts = [s for s in c.systems if (s.name not in gone) == keep]
        fig.add_trace(go.Scatter(x=[s.scores[c.metric] for s in pts], y=[s.human for s in pts], mode="markers",
                                 name=name, marker=style, customdata=[charts.plotly_escape(s.name) for s in pts],
                                 hovertemplate="%{customdata}: " + label + " %{x:.2f}, human %{y:.3f}<extra></extra>"))
    fig.update_layout(title=dict(text=f"WMT19 {c.lp}: human score against {label}", font=dict(size=18)),
                      template="plotly_white", height=460, margin=dict(l=70, r=30, t=70, b=60),
                      legend=dict(orientation="v", x=1.02, xanchor="left", y=1, yanchor="top"),
                      xaxis_title=label, yaxis_title="human score (DA, z)")
    return fig


LINK = "lab_wmt_out_v"     # the systems left out as the link carries them ("" = the rule's outliers, "-" = none)


def encode_left_out(left: list[str], rule: list[str]) -> str:
    if list(left) == list(rule):
        return ""
    return ",".join(left) if left else "-"


def decode_left_out(raw: str, names: list[str], rule: list[str]) -> list[str]:
    if not raw:
        return list(rule)
    known = set(names)
    return list(dict.fromkeys(n for n in raw.split(",") if n in known))     # the link's order: the widget's


def _restore_left_out(lp: str, names: list[str], rule: list[str]) -> None:
    """The systems left out: from a link (its ``wmt_out``), else kept while the pair stays, else (another pair
    picked) the outliers the paper's rule flags."""
    ss = st.session_state
    raw = ss.get(LINK) or ""
    last = ss.get("_lab_wmt_for")
    if last == (lp, raw) and isinstance(ss.get("lab_wmt_out"), list):
        return
    if last is not None and last[0] != lp and last[1] == raw:      # the user picked another pair
        raw = ""
    ss["lab_wmt_out"] = decode_left_out(raw, names, rule)


def render() -> None:
    ss = st.session_state
    c1, c2 = st.columns(2)
    with c1:
        if ss.get("lab_wmt_lp") not in ol.pairs():
            ss["lab_wmt_lp"] = ol.DEFAULT_PAIR
        lp = st.selectbox("WMT19 language pair", ol.pairs(), key="lab_wmt_lp")
    with c2:
        if ss.get("lab_wmt_metric") not in ol.METRICS:
            ss["lab_wmt_metric"] = ol.DEFAULT_METRIC
        metric = st.selectbox("Metric", list(ol.METRICS), key="lab_wmt_metric", format_func=lambda k: ol.METRICS[k][0])
    flagged = ol.correlation(lp, metric)
    names = [s.name for s in flagged.systems]
    _restore_left_out(lp, names, list(flagged.outliers))
    left = st.multiselect("Systems left out", names, key="lab_wmt_out",
                          help="By default the outliers by Mathur et al.'s rule: a human score more than 2.5 robust "
                               "standard deviations (1.4826 × the median absolute deviation) from the median.")
    ss[LINK] = encode_left_out(left, list(flagged.outliers))
    ss["_lab_wmt_for"] = (lp, ss[LINK])
    c = ol.correlation(lp, metric, left)
    a, b = st.columns(2)
    a.metric(f"Pearson's r, all {len(c.systems)} systems", f"{c.r_all:.3f}")
    kept = len(c.systems) - len(c.left_out)
    b.metric(f"Pearson's r, {kept} systems", "—" if c.r_kept != c.r_kept else f"{c.r_kept:.3f}",
             None if c.r_kept != c.r_kept else f"{c.r_kept - c.r_all:+.3f}")
    gone = ", ".join(hl.md_escape(n) for n in c.left_out) or "none"
    st.markdown(f"Left out: {gone}. The rule flags: {', '.join(hl.md_escape(n) for n in c.outliers) or 'none'}. "
                "One system far from the others decides much of the correlation: a metric's r over WMT's systems "
                "says little about how well it tells apart the systems people actually compare.")
    st.plotly_chart(charts.readable(scatter_figure(c), large=large_text()), key="lab_wmt_fig", theme=None)
    rows = [{"system": s.name, "human (z)": s.human, ol.METRICS[metric][0]: round(s.scores[metric], 4),
             "outlier (rule)": s.name in c.outliers, "r without it alone": round(c.leave_one_out[s.name], 4)}
            for s in c.systems]
    with st.expander("The systems and Pearson's r without each one"):
        data_table(pd.DataFrame(rows), hide_index=True)
    st.caption("Data: " + ol.SOURCE + ". BLEU shown ×100 (the metrics task gives 0–1). Licence and provenance: "
               "explainer/attacks/data/README.md.")
