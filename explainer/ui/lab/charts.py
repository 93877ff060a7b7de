"""Gaming lab figures: pure functions from sweep / optimizer results to Plotly figures (no Streamlit).

Every series the user picked (a family's measure, or a lesson's part of a metric such as BLEU's brevity penalty)
is drawn in a panel per scale (0–100: BLEU, chrF, TER; 0–1: ROUGE, the brevity penalty, precision and recall),
sharing the x axis. The y range is each panel's data ("auto") or the whole scale ("fixed"). The legend sits at
the right of the plot, never over the title, on screen and in the exported images alike (the same figure is
drawn in both: Plotly's white template, no Streamlit theme). Colours are Okabe-Ito and every series also has its
own dash and marker symbol, named in the legend and the hover text."""
from __future__ import annotations

from typing import Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from explainer.attacks.measures import columns, lab_dialects
from explainer.attacks.optimizer import TARGETS, OptimizerResult
from explainer.attacks.scoring import METRICS
from explainer.attacks.sweeps import COMPONENTS, SweepResult, series_labels
from explainer.ui.charts import plotly_escape

__all__ = ["sweep_figure", "trajectory_figure", "pr_crossing", "SERIES_KEYS", "Y_RANGES", "EXPORT_SIZE",
           "series_style", "series_scale", "TEMPLATE"]

# Okabe-Ito without its yellow (too pale on white) plus grey: 8 colours; 6 dashes and 10 symbols, so that no two
# of the first 24 series share colour, dash and symbol
_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#7F7F7F")
_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star", "triangle-down", "cross", "hexagon",
            "pentagon")
FONT = dict(size=15)
TEMPLATE = "plotly_white"
Y_RANGES = ("auto", "fixed")
#: the size a figure is exported at (a 16:9 slide)
EXPORT_SIZE = (1280, 720)
#: every series a sweep can draw: each family's measures (as the lab scores them), then the lessons' parts
SERIES_KEYS: tuple[str, ...] = tuple(c.key for c in columns(lab_dialects())) + COMPONENTS
CROSSING = "ROUGE-1 P = R"


def series_style(key: str) -> tuple[str, str, str]:
    """(colour, dash, marker symbol) of a series: fixed by its place in :data:`SERIES_KEYS`."""
    i = SERIES_KEYS.index(key) if key in SERIES_KEYS else len(SERIES_KEYS)
    return _COLOURS[i % len(_COLOURS)], _DASHES[i % len(_DASHES)], _SYMBOLS[i % len(_SYMBOLS)]


def series_scale(key: str, cols) -> float:
    col = next((c for c in cols if c.key == key), None)
    if col is not None:
        return col.measure.scale
    return METRICS[key].scale if key in METRICS else 1.0


def _panels(keys: Sequence[str], cols) -> list[float]:
    return sorted({series_scale(k, cols) for k in keys}, reverse=True)


def _add(fig, row, x, y, name, key, hover, width=3):
    colour, dash, symbol = series_style(key)
    fig.add_trace(go.Scatter(x=list(x), y=list(y), name=plotly_escape(name), mode="lines+markers",
                             line=dict(color=colour, dash=dash, width=width),
                             marker=dict(symbol=symbol, size=7, color=colour), customdata=hover,
                             hovertemplate=(plotly_escape(name) + " = %{y:.4f}" +
                                            ("<br>%{customdata}" if hover is not None else "") +
                                            "<extra>x = %{x}</extra>")),
                  row=row, col=1)


def _short(t: str, limit: int = 90) -> str:
    t = t if len(t) <= limit else t[:limit - 1] + "…"
    return plotly_escape(t)  # as the Explain page's charts: literal quotes, inert tags, no $…$ LaTeX


def _by_scale(keys, cols, values) -> dict[float, list]:
    out: dict[float, list] = {}
    for k in keys:
        out.setdefault(series_scale(k, cols), []).append(values[k])
    return out


def _frame(keys, cols, values) -> tuple[go.Figure, dict[float, int]]:
    scales = _panels(keys, cols) or [1.0]
    fig = make_subplots(rows=len(scales), cols=1, shared_xaxes=True, vertical_spacing=0.1,
                        subplot_titles=[f"scale 0–{s:g}" for s in scales])
    return fig, {s: i + 1 for i, s in enumerate(scales)}


def _layout(fig, title: str, x_title: str, rows: dict[float, int], yrange: str, values: dict, height: int):
    """Title at the top left, legend at the right, one y axis per scale (``values``: scale -> its series)."""
    fig.update_layout(title=dict(text=title, font=dict(size=18), x=0, xanchor="left", xref="container",
                                 pad=dict(l=12)),
                      template=TEMPLATE, font=FONT, height=height, hovermode="x unified",
                      margin=dict(l=80, r=20, t=80, b=70),
                      legend=dict(orientation="v", x=1.02, xanchor="left", y=1, yanchor="top",
                                  bgcolor="rgba(255,255,255,0.9)"))
    last = max(rows.values())
    fig.update_xaxes(title_text=x_title, row=last, col=1)
    for scale, row in rows.items():
        fig.update_yaxes(title_text=f"score (0–{scale:g})", row=row, col=1)
        if yrange == "fixed":   # the whole scale (an error rate may pass its top: then up to its largest value)
            top = max([scale] + [v for vs in values.get(scale, []) for v in vs if v is not None])
            fig.update_yaxes(range=[-0.03 * top, top * 1.03], row=row, col=1)
    return fig


def sweep_figure(sw: SweepResult, series: Sequence[str] | None = None, yrange: str = "auto", title: str = "",
                 *, height: int = 620) -> go.Figure:
    """The sweep's curves (``series``: the keys drawn, default all), ``yrange`` "auto" or "fixed" (each panel's
    whole scale), the user's ``title`` (default: the knob)."""
    labels = series_labels(sw.columns)
    keys = [k for k in (series if series is not None else SERIES_KEYS) if k in sw.values]
    fig, rows = _frame(keys, sw.columns, sw.values)
    hover = [_short(t) for t in sw.texts]
    for k in keys:
        _add(fig, rows[series_scale(k, sw.columns)], sw.x, sw.values[k], labels.get(k, k), k, hover)
    if sw.marker is not None and sw.x and min(sw.x) <= sw.marker <= max(sw.x):
        for row in rows.values():
            fig.add_vline(x=sw.marker, line=dict(color="#888888", dash="dot", width=2), row=row, col=1)
        fig.add_annotation(x=sw.marker, y=0.04, yref="y domain", text=" your candidate", showarrow=False,
                           xanchor="left", yanchor="bottom", font=dict(size=14))
    cross = pr_crossing(sw) if {"rouge1_p", "rouge1_r"} <= set(keys) else None
    if cross is not None:
        row = rows[series_scale("rouge1_p", sw.columns)]
        fig.add_annotation(x=cross[0], y=cross[1], xref=f"x{row if row > 1 else ''}",
                           yref=f"y{row if row > 1 else ''}", text=CROSSING, showarrow=True, arrowhead=2, ax=60,
                           ay=55, font=dict(size=14))
    text = plotly_escape(title) if title.strip() else f"Every metric against {plotly_escape(sw.knob_label)}"
    return _layout(fig, text, plotly_escape(sw.knob_label), rows, yrange, _by_scale(keys, sw.columns, sw.values),
                   height)


def pr_crossing(sw: SweepResult) -> tuple[float, float] | None:
    """Where ROUGE-1 precision and recall cross (linear interpolation between the first two points at which
    P - R changes sign), or None."""
    p, r = sw.values.get("rouge1_p"), sw.values.get("rouge1_r")
    if not p or not r or any(v is None for v in p + r):
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


def trajectory_figure(res: OptimizerResult, series: Sequence[str] | None = None, yrange: str = "auto",
                      title: str = "", *, height: int = 600) -> go.Figure:
    """Every metric along the optimizer's accepted steps; the objective drawn thick."""
    cols = columns(lab_dialects())
    labels = {**series_labels(cols), **TARGETS}
    keys = [k for k in (series if series is not None else SERIES_KEYS)
            if res.trajectory and k in res.trajectory[0]]
    values = {k: [e.get(k) for e in res.trajectory] for k in keys}
    fig, rows = _frame(keys, cols, values)
    steps = [e["step"] for e in res.trajectory]
    hover = [_short(f"{e['move']}: {e['text']}") for e in res.trajectory]
    for k in keys:
        _add(fig, rows[series_scale(k, cols)], steps, values[k], labels.get(k, k), k, hover,
             width=5 if k == res.target else 2)
    text = plotly_escape(title) if title.strip() else \
        f"Optimizer trajectory: {plotly_escape(TARGETS.get(res.target, res.target))} (thick line)"
    fig = _layout(fig, text, "search step", rows, yrange, _by_scale(keys, cols, values), height)
    span = max(steps) if steps else 1
    fig.update_xaxes(tick0=0, dtick=max(1, -(-span // 10)))  # whole steps only
    return fig
