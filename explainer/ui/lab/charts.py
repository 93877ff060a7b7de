"""Gaming lab figures: pure functions from sweep / optimizer results to Plotly figures (no Streamlit).

Two stacked panels share the x axis: BLEU on its native 0-100 scale on top, the 0-1 quantities (brevity
penalty, ROUGE precision / recall / F) below. Colours are Okabe-Ito and every series also has its own
dash and marker symbol, named in the legend and the hover text."""
from __future__ import annotations

from typing import Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from explainer.attacks.optimizer import TARGETS, OptimizerResult
from explainer.attacks.scoring import metric_label
from explainer.attacks.sweeps import SweepResult
from explainer.ui.charts import plotly_escape

__all__ = ["sweep_figure", "trajectory_figure", "pr_crossing", "SERIES"]

# metric -> (colour, dash, marker symbol)
SERIES = {
    "bleu": ("#0072B2", "solid", "circle"),
    "bleu_bp": ("#000000", "dot", "diamond"),
    "rouge1_p": ("#56B4E9", "dash", "triangle-up"),
    "rouge1_r": ("#E69F00", "dashdot", "triangle-down"),
    "rouge1_f": ("#009E73", "solid", "square"),
    "rouge2_f": ("#CC79A7", "longdash", "x"),
    "rougeL_f": ("#D55E00", "solid", "star"),
}
FONT = dict(size=15)


def _add(fig, row, x, y, m, hover_text=None, width=3):
    colour, dash, symbol = SERIES.get(m, ("#666666", "solid", "circle"))
    fig.add_trace(go.Scatter(x=list(x), y=list(y), name=metric_label(m), mode="lines+markers",
                             line=dict(color=colour, dash=dash, width=width),
                             marker=dict(symbol=symbol, size=7, color=colour),
                             customdata=hover_text,
                             hovertemplate=(metric_label(m) + " = %{y:.4f}" +
                                            ("<br>%{customdata}" if hover_text is not None else "") +
                                            "<extra>x = %{x}</extra>")),
                  row=row, col=1)


def _short(t: str, limit: int = 90) -> str:
    t = t if len(t) <= limit else t[:limit - 1] + "…"
    return plotly_escape(t)  # as the Explain page's charts: literal quotes, inert tags, no $…$ LaTeX


def _layout(fig, title, x_title, height=620):
    fig.update_layout(title=dict(text=title, font=dict(size=18)), font=FONT, height=height,
                      margin=dict(l=70, r=30, t=110, b=60), hovermode="x unified",
                      legend=dict(orientation="h", yanchor="bottom", y=1.04, xanchor="right", x=1))
    fig.update_xaxes(title_text=x_title, row=2, col=1)
    fig.update_yaxes(title_text="BLEU (0–100)", range=[-3, 103], row=1, col=1)
    fig.update_yaxes(title_text="score (0–1)", range=[-0.03, 1.05], row=2, col=1)
    return fig


def sweep_figure(sw: SweepResult, metrics: Sequence[str] = tuple(SERIES)) -> go.Figure:
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08, row_heights=[0.4, 0.6],
                        subplot_titles=("BLEU", "brevity penalty and ROUGE"))
    hover = [_short(t) for t in sw.texts]
    for m in metrics:
        if m not in sw.values:
            continue
        _add(fig, 1 if m == "bleu" else 2, sw.x, sw.values[m], m, hover)
    if sw.marker is not None:
        for row in (1, 2):
            fig.add_vline(x=sw.marker, line=dict(color="#888888", dash="dot", width=2), row=row, col=1)
        fig.add_annotation(x=sw.marker, y=0.04, yref="y domain", text=" your candidate", showarrow=False,
                           xanchor="left", yanchor="bottom", font=dict(size=14))
    cross = pr_crossing(sw)
    if cross is not None:
        fig.add_annotation(x=cross[0], y=cross[1], xref="x2", yref="y2", text="ROUGE-1 P = R", showarrow=True,
                           arrowhead=2, ax=60, ay=55, font=dict(size=14))
    return _layout(fig, f"Every metric against {plotly_escape(sw.knob_label)}", plotly_escape(sw.knob_label))


def pr_crossing(sw: SweepResult) -> tuple[float, float] | None:
    """Where ROUGE-1 precision and recall cross (linear interpolation between the first two points at which
    P - R changes sign), or None."""
    p, r = sw.values.get("rouge1_p"), sw.values.get("rouge1_r")
    if not p or not r:
        return None
    d = [a - b for a, b in zip(p, r)]
    for i in range(1, len(d)):
        if d[i - 1] == 0:
            return sw.x[i - 1], p[i - 1]
        if d[i - 1] * d[i] < 0:
            t = d[i - 1] / (d[i - 1] - d[i])
            x = sw.x[i - 1] + t * (sw.x[i] - sw.x[i - 1])
            return x, p[i - 1] + t * (p[i] - p[i - 1])
    return None


def trajectory_figure(res: OptimizerResult) -> go.Figure:
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08, row_heights=[0.4, 0.6],
                        subplot_titles=("BLEU", "ROUGE"))
    steps = [e["step"] for e in res.trajectory]
    hover = [_short(f"{e['move']}: {e['text']}") for e in res.trajectory]
    for m in ("bleu", "rouge1_f", "rouge2_f", "rougeL_f", "rouge1_p", "rouge1_r"):
        _add(fig, 1 if m == "bleu" else 2, steps, [e[m] for e in res.trajectory], m, hover,
             width=5 if m == res.target else 2)
    fig = _layout(fig, f"Optimizer trajectory: maximising {plotly_escape(TARGETS[res.target])} (thick line)",
                  "search step", height=600)
    span = max(steps) if steps else 1
    fig.update_xaxes(tick0=0, dtick=max(1, -(-span // 10)))  # whole steps only
    return fig
