"""Plotly figures from trace data. Pure functions: numbers in, ``go.Figure`` out; no Streamlit here.

Colours are Okabe–Ito (colour-blind safe) and every series also differs by something that is not colour
(bar pattern, marker symbol, line dash) and carries its name in the legend and in hover text. User tokens
used as labels go through :func:`label_text`, because Plotly interprets a subset of HTML (``<a href>``,
``<b>``…) and ``$…$`` LaTeX in text. Bars are filled with their series colour and patterns are drawn over it
(``fillmode="overlay"``), so the colour shows in light and dark mode alike; figures leave the background to
the Streamlit theme.
"""
from __future__ import annotations

import math
from typing import Sequence

import plotly.graph_objects as go

from explainer.ui.highlight import is_suspicious_char

__all__ = ["bleu_counts_figure", "bp_curve_figure", "rouge_prf_figure", "lcs_heatmap_figure", "alignment_figure",
           "label_text", "plotly_escape", "downsample_indices", "readable", "HEATMAP_MAX", "MIN_FONT"]

BLUE, ORANGE, GREEN, PURPLE, VERMILLION, SKY = "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"
FONT = dict(size=15)
HEATMAP_MAX = 60  # at most this many rows / columns drawn; longer texts are downsampled (and say so)


# Plotly's text renderer (svg_text_utils.convertToTspans) reads ``<...>`` as tags and then decodes, once,
# numeric entities and only eight named ones (&amp; &lt; &gt; &nbsp; &mu; &times; &plusmn; &deg;): &quot; would
# show as "&quot;". A text with two ``$`` may be typeset as LaTeX. So: & < > as the named entities Plotly knows,
# $ as a numeric one; everything else (quotes, apostrophes) literally, which is inert once no tag can form.
_PLOTLY_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "$": "&#36;"}


def plotly_escape(s: str) -> str:
    """Escape text for a Plotly label / hover text so it shows literally and inert."""
    return "".join(_PLOTLY_ESCAPES.get(c, c) for c in s)


def label_text(tok: str, limit: int = 18) -> str:
    """A user token as a Plotly label: invisible characters spelled out, shortened, escaped for Plotly."""
    s = "".join(f"<U+{ord(c):04X}>" if is_suspicious_char(c) else c for c in tok)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return plotly_escape(s)


def _layout(title: str, height: int = 420, **extra) -> dict:
    lay = dict(title=dict(text=title, font=dict(size=18)), font=FONT, height=height + 60,
               margin=dict(l=60, r=30, t=80, b=120),
               legend=dict(orientation="h", yanchor="top", y=-0.22, xanchor="left", x=0))
    lay.update(extra)
    return lay


def _fig(data: list[dict], layout: dict) -> go.Figure:
    # One constructor call validates everything once; many update_* calls cost several times more.
    return go.Figure({"data": data, "layout": layout})


def bleu_counts_figure(orders: Sequence[dict], *, scale_label: str = "0–1") -> go.Figure:
    """Left: clipped matches vs candidate n-grams (totals) per order. Right: modified precision per order,
    before (matches/totals) and after smoothing (the value that enters the geometric mean).

    ``orders``: dicts with ``n``, ``matches``, ``totals``, ``precision_raw`` (0..1 or None when there are no
    candidate n-grams), ``precision`` (0..1, after smoothing), ``included`` (enters the mean), ``smoothing``.
    """
    ns = [f"{o['n']}-gram" for o in orders]
    raw = [o.get("precision_raw") for o in orders]
    sm = [o.get("precision") for o in orders]
    data = [
        dict(type="bar", x=ns, y=[o["totals"] for o in orders], name="candidate n-grams (totals)",
             marker=dict(color=SKY, pattern=_overlay("/")),
             text=[_num(o["totals"]) for o in orders], textposition="outside",
             hovertemplate="%{x}: %{y} candidate n-grams<extra></extra>", xaxis="x", yaxis="y"),
        dict(type="bar", x=ns, y=[o["matches"] for o in orders], name="clipped matches",
             marker=dict(color=ORANGE), text=[_num(o["matches"]) for o in orders], textposition="outside",
             hovertemplate="%{x}: %{y} clipped matches<extra></extra>", xaxis="x", yaxis="y"),
        dict(type="scatter", x=ns, y=raw, name="precision before smoothing", mode="lines+markers+text",
             line=dict(color=BLUE, dash="dash", width=3),
             marker=dict(symbol="circle-open", size=14, line=dict(width=3)),
             text=["n/a" if p is None else f"{p:.3f}" for p in raw], textposition="bottom center", cliponaxis=False,
             hovertemplate="%{x}: %{y:.4f} before smoothing<extra></extra>", xaxis="x2", yaxis="y2"),
        dict(type="scatter", x=ns, y=sm, name="after smoothing (used)", mode="lines+markers+text",
             line=dict(color=VERMILLION, width=3),
             marker=dict(symbol=["diamond" if o.get("included", True) else "x" for o in orders], size=13),
             text=[f"{p:.3f}" if p is not None and (r is None or abs(p - r) > 1e-12) else ""
                   for p, r in zip(sm, raw)], textposition="top center",
             customdata=[[o.get("smoothing", ""), "yes" if o.get("included", True) else "no"] for o in orders],
             hovertemplate="%{x}: %{y:.4f} after smoothing (%{customdata[0]}); in the mean: %{customdata[1]}"
                           "<extra></extra>", xaxis="x2", yaxis="y2"),
    ]
    top = max([p for p in raw + sm if p is not None] + [1.0])
    ymax = max([o["totals"] for o in orders] + [1])
    layout = _layout(
        "BLEU step 2: clipped n-gram counts and modified precisions", height=440, barmode="group",
        xaxis=dict(domain=[0, 0.44]), xaxis2=dict(domain=[0.56, 1], anchor="y2"),
        yaxis=dict(title=dict(text="count"), range=[0, ymax * 1.18]),
        yaxis2=dict(title=dict(text="precision (0–1)"), range=[-0.14 * top, top * 1.15], anchor="x2"),
        annotations=[dict(text="Matches vs candidate n-grams", x=0.22, y=1.0, xref="paper", yref="paper",
                          xanchor="center", yanchor="bottom", showarrow=False, font=dict(size=15)),
                     dict(text="Modified precision per order", x=0.78, y=1.0, xref="paper", yref="paper",
                          xanchor="center", yanchor="bottom", showarrow=False, font=dict(size=15))])
    return _fig(data, layout)


def _overlay(shape: str) -> dict:
    """A bar pattern drawn *over* the series colour (Plotly's default fillmode "replace" would paint only the
    pattern's lines on a transparent bar, so the series colour would never show)."""
    return dict(shape=shape, fillmode="overlay", fgcolor="#000000", fgopacity=0.45, size=9, solidity=0.25)


def _num(x) -> str:
    return f"{x:g}" if isinstance(x, (int, float)) else str(x)


def bp_curve_figure(c: int, r: int, bp: float, *, rule: str = "") -> go.Figure:
    """BP = exp(1 − r/c) for c < r, else 1, as a curve over candidate length, with this candidate marked."""
    if r <= 0:
        xs = list(range(0, max(c, 1) * 2 + 2))
        ys = [1.0 if x > 0 else 0.0 for x in xs]
    else:
        hi = max(2 * r, c + 2, 6)
        step = max(hi / 200, 0.05)
        xs = [step * k for k in range(1, int(hi / step) + 1)]
        ys = [math.exp(1 - r / x) if x < r else 1.0 for x in xs]
    data = [dict(type="scatter", x=xs, y=ys, mode="lines", name="BP = exp(1 − r/c) if c < r, else 1",
                 line=dict(color=BLUE, width=3), hovertemplate="c = %{x:.1f}: BP = %{y:.4f}<extra></extra>"),
            dict(type="scatter", x=[c], y=[bp], mode="markers+text", name=f"this candidate (c = {c})",
                 marker=dict(symbol="star", size=20, color=VERMILLION, line=dict(width=1, color="black")),
                 text=[f"  c = {c}, BP = {bp:.4f}"], textposition="bottom right" if bp > 0.85 else "middle right",
                 hovertemplate="c = %{x}: BP = %{y:.6f}<extra></extra>")]
    shapes, ann = [], []
    if r > 0:
        shapes.append(dict(type="line", x0=r, x1=r, y0=0, y1=1, yref="paper",
                           line=dict(color=GREEN, dash="dash", width=2)))
        ann.append(dict(x=r, y=1, yref="paper", text=f"r = {r}" + (f" ({rule})" if rule else ""), showarrow=False,
                        xanchor="right", yanchor="bottom"))
    layout = _layout("BLEU step 3: brevity penalty", height=380, shapes=shapes, annotations=ann,
                     xaxis=dict(title=dict(text="candidate length c (tokens)"), rangemode="tozero"),
                     yaxis=dict(title=dict(text="brevity penalty"), range=[-0.03, 1.08]))
    return _fig(data, layout)


def rouge_prf_figure(rows: Sequence[dict]) -> go.Figure:
    """Grouped P / R / F bars per ROUGE type, each labelled with its value (5 decimals, as everywhere else).
    ``rows``: dicts with ``label``, ``precision``, ``recall``,
    ``fmeasure`` (native scale) and optionally ``scale`` (1 or 100)."""
    labels = [r["label"] for r in rows]
    data = []
    spec = (("precision", "precision", BLUE, ""), ("recall", "recall", ORANGE, "/"),
            ("fmeasure", "F-measure", GREEN, "x"))
    for key, name, colour, pattern in spec:
        vals = [r.get(key) for r in rows]
        data.append(dict(type="bar", x=labels, y=vals, name=name,
                         marker=dict(color=colour, pattern=_overlay(pattern) if pattern else dict(shape="")),
                         # upright labels above each bar: side by side they would run into each other
                         text=[("" if v is None else f"{v:.5f}") for v in vals], textposition="outside",
                         textangle=-90, cliponaxis=False,
                         hovertemplate="%{x} " + name + ": %{y:.6f}<extra></extra>"))
    top = max([r.get("scale", 1) for r in rows] + [1])
    return _fig(data, _layout("ROUGE: precision, recall and F-measure per type", height=420, barmode="group",
                              # an explicit angle: with "auto", Plotly shrinks the labels below 14 px instead
                              xaxis=dict(tickangle=0 if len(rows) <= 4 else -35),
                              yaxis=dict(title=dict(text="score"), range=[0, top * 1.35])))


def downsample_indices(idx: Sequence[int], limit: int) -> list[int]:
    """At most ``limit`` evenly spaced entries of ``idx`` (first and last kept)."""
    idx = list(idx)
    if len(idx) <= limit:
        return idx
    step = (len(idx) - 1) / (limit - 1)
    return sorted({idx[round(k * step)] for k in range(limit)})


def lcs_heatmap_figure(table: dict, ref_tokens: Sequence[str], cand_tokens: Sequence[str],
                       pairs: Sequence[Sequence[int]], *, limit: int = HEATMAP_MAX,
                       title: str = "ROUGE-L: LCS table and backtrace", value_name: str = "LCS so far",
                       value_format: str = "") -> tuple[go.Figure, str | None]:
    """The DP table ``c[i][j] = LCS(ref[:i], cand[:j])`` as a heatmap (rows: reference prefixes, columns:
    candidate prefixes) with the matched cells of the alignment the backtrace picks.

    ``table`` is the trace's table form: ``row_index``, ``col_index``, ``values`` (possibly already
    sampled). Returns (figure, note) where note says how the table was downsampled, or None."""
    ri_all, ci_all, values = table["row_index"], table["col_index"], table["values"]
    ri = downsample_indices(ri_all, limit)
    ci = downsample_indices(ci_all, limit)
    rpos = {v: k for k, v in enumerate(ri_all)}
    cpos = {v: k for k, v in enumerate(ci_all)}
    z = [[values[rpos[i]][cpos[j]] for j in ci] for i in ri]
    note = None
    m, n = table.get("rows", len(ref_tokens)), table.get("cols", len(cand_tokens))
    if len(ri) < m + 1 or len(ci) < n + 1:
        note = (f"The table has {m + 1} × {n + 1} cells; showing {len(ri)} × {len(ci)} evenly spaced rows and "
                f"columns (exact values). The alignment markers are exact.")
    show_labels = len(ri) <= 40 and len(ci) <= 40 and len(ri) == m + 1 and len(ci) == n + 1

    def tick(tokens, idx):
        return ["∅" if k == 0 else (label_text(tokens[k - 1]) if show_labels else str(k)) for k in idx]

    hover_c = [[f"cand[:{j}] × ref[:{i}]" for j in ci] for i in ri]
    z_text = "%{z" + (":" + value_format if value_format else "") + "}"
    data = [dict(type="heatmap", x=ci, y=ri, z=z, zmin=0, colorscale=[[0, "#F4F4F4"], [1, SKY]], customdata=hover_c,
                 colorbar=dict(title=dict(text=value_name)),
                 hovertemplate="%{customdata}: " + value_name + " = " + z_text + "<extra></extra>",
                 texttemplate=z_text if len(ri) * len(ci) <= 900 else "",
                 textfont=dict(size=14, color="#111111"), showlegend=False),
            dict(type="scatter", x=[p[1] + 1 for p in pairs], y=[p[0] + 1 for p in pairs], mode="lines+markers",
                 name="LCS alignment (matched cells the backtrace picks)",
                 line=dict(color=VERMILLION, width=3, dash="dot"),
                 marker=dict(symbol="square-open", size=22 if show_labels else 9, color=VERMILLION, line=dict(width=3)),
                 customdata=[[label_text(cand_tokens[p[1]]), p[1] + 1, p[0] + 1] for p in pairs],
                 hovertemplate="match: %{customdata[0]} (candidate token %{customdata[1]}, reference token "
                               "%{customdata[2]})<extra></extra>", showlegend=True)]
    size = 30 * max(len(ri), 8) + 200
    layout = _layout(title, height=min(max(size, 380), 900), showlegend=True,
                     # above the table: below it the legend ran into the rotated ticks and the axis title
                     legend=dict(orientation="h", yanchor="bottom", y=1.01, xanchor="left", x=0),
                     xaxis=dict(title=dict(text="candidate prefix (tokens) →"), tickmode="array", tickvals=ci,
                                ticktext=tick(cand_tokens, ci), tickangle=-40),
                     yaxis=dict(title=dict(text="reference prefix (tokens) ↓"), tickmode="array", tickvals=ri,
                                ticktext=tick(ref_tokens, ri), autorange="reversed"))
    return _fig(data, layout), note


ALIGN_ROW_PX = 26  # vertical space per token in the alignment chart: labels never share a row, at any width


def alignment_figure(cand_tokens: Sequence[str], ref_tokens: Sequence[str], pairs: Sequence[Sequence[int]],
                     *, limit: int = 40) -> tuple[go.Figure, str | None]:
    """Candidate tokens in one column, reference tokens in another, a line between each aligned pair.

    Drawn top to bottom (one row per token) so that the labels cannot overlap however many tokens there are
    and however narrow the page is (side by side, they ran into each other from about 25 tokens)."""
    nc, nr = min(len(cand_tokens), limit), min(len(ref_tokens), limit)
    note = None
    if nc < len(cand_tokens) or nr < len(ref_tokens):
        note = f"Drawing the first {limit} tokens of each text; the table below lists every aligned pair."
    in_c = {p[1] for p in pairs}
    in_r = {p[0] for p in pairs}
    lx, ly = [], []
    for (ri, ci) in pairs:  # one trace for all links: None breaks the line between pairs
        if ci < nc and ri < nr:
            lx += [0, 1, None]
            ly += [ci, ri, None]
    data = [dict(type="scatter", x=lx, y=ly, mode="lines", line=dict(color=VERMILLION, width=2), hoverinfo="skip",
                 name="aligned pair (LCS)"),
            dict(type="scatter", x=[0] * nc, y=list(range(nc)), mode="markers+text", name="candidate",
                 text=[label_text(t) for t in cand_tokens[:nc]],
                 textposition="middle left", cliponaxis=False,
                 marker=dict(symbol=["square" if j in in_c else "square-open" for j in range(nc)], size=12, color=BLUE),
                 hovertemplate="candidate token %{y}<extra></extra>"),
            dict(type="scatter", x=[1] * nr, y=list(range(nr)), mode="markers+text", name="reference",
                 text=[label_text(t) for t in ref_tokens[:nr]],
                 textposition="middle right", cliponaxis=False,
                 marker=dict(symbol=["diamond" if i in in_r else "diamond-open" for i in range(nr)], size=12,
                             color=GREEN),
                 hovertemplate="reference token %{y}<extra></extra>")]
    rows = max(nc, nr, 1)
    top, bottom = 80, 90  # margins: the title above, the legend below
    area = ALIGN_ROW_PX * (rows + 1.6)  # one row per token, and the column headings
    layout = _layout("ROUGE-L: the alignment (filled markers are in the LCS)", height=area + top + bottom - 60,
                     margin=dict(l=20, r=20, t=top, b=bottom),
                     annotations=[dict(text="<b>candidate</b>", x=0, y=-1.3, xref="x", yref="y", showarrow=False,
                                       xanchor="right", font=dict(size=15)),
                                  dict(text="<b>reference</b>", x=1, y=-1.3, xref="x", yref="y", showarrow=False,
                                       xanchor="left", font=dict(size=15))],
                     yaxis=dict(visible=False, range=[rows - 0.4, -1.9], fixedrange=True),
                     xaxis=dict(visible=False, range=[-1.6, 2.6], fixedrange=True))
    return _fig(data, layout), note


MIN_FONT = 14          # px: the smallest text on a chart (a projector at the back of a room)
LARGE_TEXT_SCALE = 1.3


def _font_sizes(node, factor: float, floor: float) -> None:
    """Scale every font ``size`` under ``node`` (a figure's JSON) by ``factor``, at least ``floor``."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("font", "textfont", "tickfont", "insidetextfont", "outsidetextfont", "hoverlabel") and \
                    isinstance(v, dict) and isinstance(v.get("size"), (int, float)):
                v["size"] = max(floor, v["size"] * factor)
            _font_sizes(v, factor, floor)
    elif isinstance(node, list):
        for v in node:
            _font_sizes(v, factor, floor)


def readable(fig: go.Figure, *, large: bool = False) -> go.Figure:
    """The figure with every font at least MIN_FONT px, all scaled by LARGE_TEXT_SCALE for "large text"; the
    axis tick labels and the hover boxes get the layout's base size explicitly (Plotly and the Streamlit theme
    would otherwise draw them smaller)."""
    factor = LARGE_TEXT_SCALE if large else 1.0
    d = fig.to_plotly_json()
    lay = d.setdefault("layout", {})
    lay.setdefault("font", {}).setdefault("size", FONT["size"])
    _font_sizes(d, factor, MIN_FONT)  # every explicit size, the layout's base included, scaled once
    base = lay["font"]["size"]
    for ax in [k for k in lay if k.startswith(("xaxis", "yaxis"))]:
        tick = lay[ax].get("tickfont") or {}
        lay[ax] = {**lay[ax], "tickfont": {**tick, "size": tick.get("size", base)}}
        if isinstance(lay[ax].get("title"), dict):
            tf = lay[ax]["title"].get("font") or {}
            lay[ax]["title"] = {**lay[ax]["title"], "font": {**tf, "size": tf.get("size", base)}}
    hover = lay.get("hoverlabel") or {}
    lay["hoverlabel"] = {**hover, "font": {**(hover.get("font") or {}), "size": (hover.get("font") or {}).get(
        "size", base)}}
    if "uniformtext" in lay:
        lay["uniformtext"] = {**lay["uniformtext"], "minsize": max(MIN_FONT, lay["uniformtext"].get("minsize", 0))}
    legend = lay.get("legend") or {}
    lay["legend"] = {**legend, "font": {**(legend.get("font") or {}), "size": (legend.get("font") or {}).get(
        "size", base)}}
    if large and isinstance(lay.get("height"), (int, float)):
        lay["height"] = lay["height"] * factor
    # Not validated again: the figure was validated when it was built, and only sizes changed here. Validating
    # the whole copy (its template included) took ~20 ms per chart, a quarter of the server's CPU for a view of
    # the Explain page (issue 34); the JSON is the same (tests/test_ui_readability.py).
    return go.Figure(d, _validate=False)
