"""Plotly figures of the Corpus page. Pure functions: report data in (the dicts and arrays of
``explainer.corpus.report`` / ``significance``), ``go.Figure`` out; no Streamlit here.

Same conventions as ``explainer.ui.charts``: Okabe–Ito colours, every series also told apart by pattern, marker or
dash, system names and n-grams (user text) through ``label_text`` / ``plotly_escape``. Points and bars carry the
segment ids they stand for in ``customdata`` so the page can open the segments behind a click; bars that stand for
a group of segments carry indices into the report's records, and the ``*_segments`` / ``*_pick`` functions here
turn a clicked point (as Streamlit reports it: a dict with its ``customdata``) back into those segments.
"""
from __future__ import annotations

import html
import math
from typing import Sequence

import numpy as np
import plotly.graph_objects as go

from explainer.ui.charts import label_text, plotly_escape

__all__ = ["SYSTEM_COLOURS", "corpus_scores_figure", "precision_by_order_figure", "corpus_vs_mean_figure",
           "influence_figure", "bootstrap_figure", "null_distribution_figure", "length_buckets_figure",
           "segment_scatter_figure", "delta_histogram_figure", "length_ratio_figure", "ngram_diff_figure",
           "charts_html", "histogram_bins", "precision_bar_pick", "bucket_bar_segments", "ratio_bar_segments",
           "ngram_bar_segments", "delta_bar_segments", "DELTA_BINS"]

SYSTEM_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000",
                  "#999999", "#882255"]
PATTERNS = ["", "/", "x", ".", "\\", "+", "-", "|", "", "/"]
SYMBOLS = ["circle", "diamond", "square", "triangle-up", "x", "star", "cross", "hexagon", "pentagon", "bowtie"]
DASHES = ["solid", "dash", "dot", "dashdot", "longdash", "longdashdot", "solid", "dash", "dot", "dashdot"]
FONT = dict(size=15)


def _colour(i: int) -> str:
    return SYSTEM_COLOURS[i % len(SYSTEM_COLOURS)]


def _pattern_of(i: int) -> str:
    """The pattern of system i: past the colours' count the patterns shift, so that systems i and i + 10 (a
    whole WMT language pair has 13 or more) share a colour, never a colour and a pattern."""
    return PATTERNS[(i + i // len(SYSTEM_COLOURS)) % len(PATTERNS)]


def _pattern(i: int) -> dict:
    p = _pattern_of(i)
    if not p:
        return dict(shape="")
    return dict(shape=p, fillmode="overlay", fgcolor="#000000", fgopacity=0.4, size=8, solidity=0.25)


NAME_LIMIT = 28


def _name(s: str) -> str:
    """A system's name as a chart label: a long one keeps its start and its end (``generaltest…Online-B.de``),
    where names of one test set usually differ."""
    if len(s) <= NAME_LIMIT:
        return label_text(s, limit=NAME_LIMIT)
    head = NAME_LIMIT // 2 - 1
    return label_text(s[:head], limit=head + 1) + "…" + label_text(s[-(NAME_LIMIT - head - 1):], limit=NAME_LIMIT)


def chart_names(names: Sequence[str]) -> list[str]:
    """Chart labels of several systems, never two alike (a category axis would merge their bars): shortened by
    :func:`_name`, or the whole names where shortening makes two equal."""
    out = [_name(n) for n in names]
    if len(set(out)) < len(out):
        out = [label_text(n, limit=10_000) for n in names]
    return out


def _layout(title: str, height: int = 400, **extra) -> dict:
    lay = dict(title=dict(text=plotly_escape(title), font=dict(size=17)), font=FONT, height=height,
               margin=dict(l=60, r=30, t=70, b=90),
               legend=dict(orientation="h", yanchor="top", y=-0.18, xanchor="left", x=0))
    lay.update(extra)
    return lay


def _fig(data: list[dict], layout: dict) -> go.Figure:
    return go.Figure({"data": data, "layout": layout})


# ---------------------------------------------------------------------------------------------- scores
def corpus_scores_figure(names: Sequence[str], scores: Sequence[float], *, ci: Sequence[float | None] | None = None,
                         metric: str = "BLEU", scale: float = 100.0) -> go.Figure:
    """One bar per system; whiskers = the 95 % half-width when an interval was computed."""
    err = None
    if ci is not None and any(c is not None for c in ci):
        err = dict(type="data", array=[c if c is not None else 0 for c in ci], visible=True, thickness=2, width=8)
    data = [dict(type="bar", x=chart_names(names), y=list(scores), name=metric,
                 marker=dict(color=[_colour(i) for i in range(len(names))],
                             pattern=dict(shape=[_pattern_of(i) for i in range(len(names))],
                                          fillmode="overlay", fgcolor="#000000", fgopacity=0.4, size=8,
                                          solidity=0.25)),
                 error_y=err, text=[f"{s:.2f}" if scale >= 100 else f"{s:.4f}" for s in scores],
                 textposition="inside" if err else "outside", insidetextanchor="start", cliponaxis=False,
                 hovertemplate="%{x}: %{y:.4f}<extra></extra>")]
    top = max(list(scores) + [0]) + (max([c or 0 for c in ci]) if ci else 0)
    return _fig(data, _layout(f"Corpus {metric} per system" + (" (whiskers: 95 % CI)" if err else ""),
                              height=380, showlegend=False,
                              yaxis=dict(title=dict(text=f"{metric} (0–{scale:g})"), range=[0, top * 1.18 or 1])))


def precision_by_order_figure(rows: Sequence[dict]) -> go.Figure:
    """``rows``: per system ``{"system", "precisions" (0..1), "counts", "totals"}`` (report.precision_by_order)."""
    data = []
    for i, r in enumerate(rows):
        ns = [f"{n + 1}-gram" for n in range(len(r["precisions"]))]
        data.append(dict(type="bar", x=ns, y=r["precisions"], name=_name(r["system"]),
                         marker=dict(color=_colour(i), pattern=_pattern(i)),
                         customdata=[[c, t, i, n + 1] for n, (c, t) in enumerate(zip(r["counts"], r["totals"]))],
                         hovertemplate="%{fullData.name} %{x}: %{y:.4f} = %{customdata[0]} / "
                                       "%{customdata[1]} (click: its segments)<extra></extra>"))
    return _fig(data, _layout("Corpus n-gram precision by order (summed matches / summed totals)", height=380,
                              barmode="group", yaxis=dict(title=dict(text="precision (0–1)"), range=[0, 1.05])))


def corpus_vs_mean_figure(rows: Sequence[dict], *, scale: float = 100.0) -> go.Figure:
    """Per system: the corpus score, the mean of sentence scores and, for sacreBLEU, the means of
    ``sentence_bleu`` and ``BLEU().sentence_score``. ``rows``: report.corpus_vs_mean dicts."""
    series = [("corpus", "corpus score (summed statistics)", "#0072B2", ""),
              ("mean_of_sentences", "mean of sentence scores", "#E69F00", "/"),
              ("mean_sentence_bleu", "mean of sacrebleu.sentence_bleu", "#009E73", "x"),
              ("mean_sentence_score", "mean of BLEU().sentence_score", "#CC79A7", ".")]
    names = chart_names([r["system"] for r in rows])
    data = []
    for key, label, colour, pat in series:
        vals = [r.get(key) for r in rows]
        if all(v is None for v in vals):
            continue
        if key == "mean_sentence_score" and vals == [r.get("mean_of_sentences") for r in rows]:
            continue     # the page's options are BLEU()'s own: the same numbers as the mean of sentence scores
        data.append(dict(type="bar", x=names, y=vals, name=label,
                         marker=dict(color=colour, pattern=dict(shape=pat, fillmode="overlay", fgcolor="#000000",
                                                                fgopacity=0.4, size=8, solidity=0.25)
                                     if pat else dict(shape="")),
                         text=[("" if v is None else f"{v:.2f}" if scale >= 100 else f"{v:.4f}") for v in vals],
                         textposition="outside", cliponaxis=False,
                         hovertemplate="%{x}: %{y:.4f} (" + label + ")<extra></extra>"))
    top = max([v for d in data for v in d["y"] if v is not None] + [0])
    return _fig(data, _layout("Corpus score ≠ mean of sentence scores", height=400, barmode="group",
                              yaxis=dict(title=dict(text=f"score (0–{scale:g})"), range=[0, top * 1.2 or 1])))


def influence_figure(cvm: dict) -> go.Figure:
    """The segments that pull the corpus score and the mean apart most (leave-one-out influence on the gap)."""
    rows = cvm.get("pulling_apart") or []
    ys = [f"segment {r['segment']}" for r in rows][::-1]
    xs = [r["influence"] for r in rows][::-1]
    data = [dict(type="bar", orientation="h", x=xs, y=ys, name="influence on (corpus − mean)",
                 marker=dict(color=["#0072B2" if x >= 0 else "#D55E00" for x in xs],
                             pattern=dict(shape=["" if x >= 0 else "/" for x in xs], fillmode="overlay",
                                          fgcolor="#000000", fgopacity=0.4, size=8, solidity=0.25)),
                 customdata=[[r["segment"], r["sentence_score"], r["length"], r["corpus_without"], r["mean_without"]]
                             for r in rows][::-1],
                 hovertemplate="segment %{customdata[0]}: the gap is %{x:+.4f} larger with it<br>"
                               "its sentence score %{customdata[1]:.2f}, length %{customdata[2]}<br>"
                               "without it: corpus %{customdata[3]:.4f}, mean %{customdata[4]:.4f}<extra></extra>")]
    return _fig(data, _layout(f"Segments that pull corpus and mean apart most — {cvm.get('system', '')}",
                              height=max(260, 40 + 28 * len(rows)), showlegend=False,
                              margin=dict(l=110, r=30, t=70, b=60),
                              xaxis=dict(title=dict(text="change of (corpus − mean) caused by the segment"),
                                         zeroline=True)))


# ---------------------------------------------------------------------------------------- significance
def _hist(values: np.ndarray, nbins: int = 40) -> tuple[list[float], list[int], float]:
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if not len(v):
        return [], [], 1.0
    lo, hi = float(v.min()), float(v.max())
    if hi == lo:
        hi = lo + 1e-9
    counts, edges = np.histogram(v, bins=nbins, range=(lo, hi))
    centres = ((edges[:-1] + edges[1:]) / 2).tolist()
    return centres, counts.tolist(), float(edges[1] - edges[0])


def bootstrap_figure(series: Sequence[tuple[str, np.ndarray, float, float | None]], *, metric: str = "BLEU"
                     ) -> go.Figure:
    """Resampled score distributions. ``series``: (system name, resampled scores, observed score, 95 % half-width
    or None). The observed score is a vertical line in the system's colour and dash, named with its value in the
    legend (labels written on the chart overlapped when scores were close: six systems within a point of each
    other); the CI a shaded band around the bootstrap mean."""
    data, shapes = [], []
    for i, (name, vals, observed, ci) in enumerate(series):
        x, y, w = _hist(vals)
        data.append(dict(type="bar", x=x, y=y, width=w, name=f"{_name(name)}: observed {observed:.2f}",
                         opacity=0.6, marker=dict(color=_colour(i), pattern=_pattern(i)),
                         hovertemplate=plotly_escape(_name(name)) + ": %{y} resamples near %{x:.3f}<extra></extra>"))
        shapes.append(dict(type="line", x0=observed, x1=observed, y0=0, y1=1, yref="paper",
                           line=dict(color=_colour(i), width=3, dash=DASHES[i % len(DASHES)])))
        if ci is not None and len(vals):
            m = float(np.mean(vals))
            shapes.append(dict(type="rect", x0=m - ci, x1=m + ci, y0=0, y1=0.04, yref="paper",
                               fillcolor=_colour(i), opacity=0.5, line=dict(width=0)))
    rows = -(-len(series) // 3)
    return _fig(data, _layout(f"Bootstrap resamples of the corpus {metric} (lines: the observed scores; "
                              "bands: 95 % CI)", height=420 + 24 * rows, barmode="overlay", shapes=shapes,
                              margin=dict(l=60, r=30, t=70, b=100 + 24 * rows),
                              legend=dict(orientation="h", yanchor="top", y=-0.2, xanchor="left", x=0),
                              xaxis=dict(title=dict(text=f"corpus {metric} of a resampled test set")),
                              yaxis=dict(title=dict(text="resamples"))))


def null_distribution_figure(stats: np.ndarray, observed: float, p_value: float, *, test: str, name: str,
                             baseline: str) -> go.Figure:
    """What the test compares the observed difference with: bs — the centred |difference| of the resamples;
    ar — |A − B| of the shuffled pseudo-systems. Bars beyond the observed difference are the p-value's count."""
    x, y, w = _hist(stats, nbins=50)
    beyond = [xi > observed for xi in x]
    what = ("centred |Δ| of paired bootstrap resamples" if test == "bs" else
            "|Δ| when each segment's outputs are randomly swapped")
    data = [dict(type="bar", x=[a for a, b in zip(x, beyond) if not b], y=[c for c, b in zip(y, beyond) if not b],
                 width=w, name="as large as chance makes it", marker=dict(color="#56B4E9"),
                 hovertemplate="%{y} trials near %{x:.3f}<extra></extra>"),
            dict(type="bar", x=[a for a, b in zip(x, beyond) if b], y=[c for c, b in zip(y, beyond) if b],
                 width=w, name="larger than the observed difference (counted in p)",
                 marker=dict(color="#D55E00", pattern=dict(shape="/", fillmode="overlay", fgcolor="#000000",
                                                           fgopacity=0.4, size=8, solidity=0.25)),
                 hovertemplate="%{y} trials near %{x:.3f}<extra></extra>")]
    shapes = [dict(type="line", x0=observed, x1=observed, y0=0, y1=1, yref="paper",
                   line=dict(color="#000000", width=3, dash="dash"))]
    ann = [dict(x=observed, y=1, yref="paper", showarrow=False, xanchor="left", yanchor="top",
                text=f" observed |Δ| = {observed:.3f}<br> p = {p_value:.4g}", font=dict(size=14))]
    xlabel = ("|Δ| of a resample minus the mean |Δ| (the test's statistic)" if test == "bs" else
              "|Δ| in corpus score between the two shuffled pseudo-systems")
    return _fig(data, _layout(f"{name} vs {baseline}: {what}", height=400, barmode="overlay",
                              shapes=shapes, annotations=ann, margin=dict(l=60, r=30, t=70, b=110),
                              legend=dict(orientation="h", yanchor="top", y=-0.25, xanchor="left", x=0),
                              xaxis=dict(title=dict(text=xlabel)),
                              yaxis=dict(title=dict(text="trials"))))


# --------------------------------------------------------------------------------------- where they differ
def length_buckets_figure(buckets: Sequence[dict], names: Sequence[str], *, metric: str = "BLEU",
                          title: str | None = None, what: str = "reference length") -> go.Figure:
    """Corpus score per reference-length bucket and system; the bucket's segment count on the axis labels
    (``title`` / ``what``: the same chart for other buckets — source length, word frequency, score bands)."""
    xs = [f"{b['bucket']}<br>({b['n_segments']} seg.)" for b in buckets]
    data = []
    for i, n in enumerate(names):
        ys = [b["scores"].get(n) for b in buckets]
        data.append(dict(type="bar", x=xs, y=ys, name=_name(n), marker=dict(color=_colour(i), pattern=_pattern(i)),
                         customdata=[[b["bucket"], b["n_segments"], k] for k, b in enumerate(buckets)],
                         hovertemplate="%{fullData.name}, " + plotly_escape(what) + " %{customdata[0]} "
                                       "(%{customdata[1]} segments): %{y:.3f}<extra></extra>"))
    return _fig(data, _layout(title or f"{metric} by reference length (tokens of reference 1; buckets of about "
                                       "equal size)",
                              height=420, barmode="group", margin=dict(l=60, r=30, t=70, b=120),
                              legend=dict(orientation="h", yanchor="top", y=-0.28, xanchor="left", x=0),
                              yaxis=dict(title=dict(text=metric))))


def segment_scatter_figure(base: np.ndarray, other: np.ndarray, *, base_name: str, name: str,
                           metric: str = "sentence BLEU", higher_is_better: bool = True) -> go.Figure:
    """Each segment's score: baseline (x) vs system (y); above the diagonal = the system scores higher there
    (better, or worse for an error rate: ``higher_is_better``). ``customdata`` holds the 1-based segment id
    (selecting points opens them); ``metric`` names the segment score (the family's definition)."""
    ids = np.arange(1, len(base) + 1)
    delta = np.asarray(other) - np.asarray(base)
    if not higher_is_better:
        delta = -delta
    groups = [("better", delta > 0, "#009E73", "triangle-up"), ("worse", delta < 0, "#D55E00", "triangle-down"),
              ("equal", delta == 0, "#999999", "circle")]
    data = []
    for label, mask, colour, sym in groups:
        data.append(dict(type="scattergl" if len(base) > 3000 else "scatter", mode="markers",
                         x=np.asarray(base)[mask].tolist(), y=np.asarray(other)[mask].tolist(),
                         customdata=ids[mask].tolist(), name=f"{label} ({int(mask.sum())})",
                         marker=dict(color=colour, symbol=sym, size=7, opacity=0.7),
                         meta=[_name(base_name), _name(name)],
                         hovertemplate="segment %{customdata}: %{meta[0]} %{x:.2f}, %{meta[1]} %{y:.2f}"
                                       "<extra></extra>"))
    top = float(max(np.max(base, initial=0), np.max(other, initial=0), 1e-9))
    shapes = [dict(type="line", x0=0, y0=0, x1=top, y1=top, line=dict(color="#000000", dash="dot", width=1))]
    # no dragmode here: Streamlit then makes a click select the point (with dragmode "select" a click only
    # emits an event and selects nothing); box and lasso stay in the chart's toolbar
    return _fig(data, _layout(f"Segment scores: {name} vs {base_name} (click a point to open it)<br>"
                              f"<sup>{plotly_escape(metric)}</sup>", height=480, shapes=shapes,
                              xaxis=dict(title=dict(text=plotly_escape(base_name))),
                              yaxis=dict(title=dict(text=plotly_escape(name)))))


DELTA_BINS = 41


def histogram_bins(values, nbins: int) -> tuple[list[float], list[int], float, list[np.ndarray]]:
    """(bin centres, counts, bin width, each bin's members as 0-based indices into ``values``): equal bins from the
    smallest to the largest finite value, each [low, high) but the last [low, high]; NaN in no bin. The counts
    are the members' numbers, so a bar's height and the segments its click lists are the same set."""
    v = np.asarray(values, dtype=float)
    keep = np.flatnonzero(np.isfinite(v))
    if not len(keep):
        return [], [], 1.0, []
    x = v[keep]
    lo, hi = float(x.min()), float(x.max())
    if hi == lo:
        hi = lo + 1e-9
    edges = np.linspace(lo, hi, nbins + 1)
    which = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, nbins - 1)
    members = [keep[which == k] for k in range(nbins)]
    centres = ((edges[:-1] + edges[1:]) / 2).tolist()
    return centres, [int(len(m)) for m in members], float(edges[1] - edges[0]), members


def delta_histogram_figure(delta: np.ndarray, *, name: str, base_name: str, metric: str = "sentence score",
                           higher_is_better: bool = True) -> go.Figure:
    """Segments by Δ of the segment score (``metric``: its definition); ``customdata`` = the bin's index
    (:func:`delta_bar_segments`); green where the system is better (a lower error rate: ``higher_is_better``)."""
    x, y, w, _ = histogram_bins(delta, DELTA_BINS)
    sign = 1 if higher_is_better else -1
    data = [dict(type="bar", x=x, y=y, width=w, name="segments", customdata=list(range(len(x))),
                 marker=dict(color=["#009E73" if sign * v > 0 else "#D55E00" if sign * v < 0 else "#999999"
                                    for v in x]),
                 hovertemplate="%{y} segments with Δ near %{x:+.2f} (click: list them)<extra></extra>")]
    return _fig(data, _layout(f"Δ segment score per segment ({name} − {base_name})<br>"
                              f"<sup>{plotly_escape(metric)}</sup>", height=360,
                              showlegend=False, xaxis=dict(title=dict(text="Δ")),
                              yaxis=dict(title=dict(text="segments"))))


def length_ratio_figure(rows: Sequence[dict]) -> go.Figure:
    """Per system the number of segments per bin of the length ratio c / r (``rows``: report.length_ratio, whose
    ``bins`` list each bin's segments), total ratio in the legend; ``customdata`` = [system index, bin index]."""
    data = []
    for i, r in enumerate(rows):
        bins = r["bins"]
        ratio = r["ratio"]
        data.append(dict(type="bar", x=[b["range"] for b in bins], y=[len(b["segments"]) for b in bins],
                         customdata=[[i, k] for k in range(len(bins))],
                         name=f"{_name(r['system'])} (total c/r = {ratio:.3f})" if ratio is not None else
                         _name(r["system"]), marker=dict(color=_colour(i), pattern=_pattern(i)),
                         hovertemplate="%{fullData.name}: %{y} segments with c/r in %{x} (click: list them)"
                                       "<extra></extra>"))
    return _fig(data, _layout("Length ratio c / r per segment (candidate tokens / chosen reference length)",
                              height=400, barmode="group", xaxis=dict(title=dict(text="c / r")),
                              margin=dict(l=60, r=30, t=70, b=110),
                              legend=dict(orientation="h", yanchor="top", y=-0.27, xanchor="left", x=0),
                              yaxis=dict(title=dict(text="segments"))))


def ngram_diff_figure(nd: dict) -> go.Figure:
    """The n-grams one system matches more often than the other (clipped matches summed over the corpus)."""
    better, worse = nd.get("better", []), nd.get("worse", [])
    keyed = ([("worse", k, r) for k, r in reversed(list(enumerate(worse)))] +
             [("better", k, r) for k, r in reversed(list(enumerate(better)))])
    rows = [r for _, _, r in keyed]
    ys = [f"{label_text(r['ngram'], 30)}  ({r['n']})" for r in rows]
    xs = [r["difference"] for r in rows]
    data = [dict(type="bar", orientation="h", x=xs, y=ys, name="matched more by " + _name(nd["system"]),
                 marker=dict(color=["#009E73" if x > 0 else "#D55E00" for x in xs],
                             pattern=dict(shape=["" if x > 0 else "/" for x in xs], fillmode="overlay",
                                          fgcolor="#000000", fgopacity=0.4, size=8, solidity=0.25)),
                 customdata=[[r["system"], r["baseline"], r["n_segments"], kind, k] for kind, k, r in keyed],
                 meta=[_name(nd["system"]), _name(nd["baseline"])],
                 hovertemplate="%{y}: %{meta[0]} %{customdata[0]}×, %{meta[1]} %{customdata[1]}× "
                               "(in %{customdata[2]} segments; click: list them)<extra></extra>")]
    return _fig(data, _layout(f"N-grams matched in the references: {nd['system']} − {nd['baseline']}",
                              height=max(300, 60 + 24 * len(rows)), showlegend=False,
                              margin=dict(l=200, r=30, t=70, b=60),
                              xaxis=dict(title=dict(text="difference in clipped matches (summed over the corpus)"),
                                         zeroline=True)))


# ------------------------------------------------------------------------------- a click -> its segments
def _custom(point: dict) -> list:
    cd = point.get("customdata") if isinstance(point, dict) else None
    return cd if isinstance(cd, list) else [cd]


def _index(x, n: int) -> int | None:
    """``x`` as an index below ``n`` (a click's customdata comes from the browser: checked, never trusted)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x != int(x) \
            or not 0 <= int(x) < n:
        return None
    return int(x)


def precision_bar_pick(rows: Sequence[dict], point: dict) -> tuple[int, int] | None:
    """A bar of :func:`precision_by_order_figure` -> (system index, n-gram order), or None."""
    cd = _custom(point)
    if len(cd) < 4:
        return None
    i = _index(cd[2], len(rows))
    n = _index(cd[3], len(rows[i]["precisions"]) + 1) if i is not None else None
    return (i, n) if i is not None and n else None


def bucket_bar_segments(buckets: Sequence[dict], point: dict, *, what: str = "reference length",
                        unit: str = "") -> tuple[list[int], str]:
    """A bar of :func:`length_buckets_figure` -> (its bucket's segments, a label: ``what`` the buckets are of, the
    bucket, ``unit``; e.g. "sentence score 20–40")."""
    cd = _custom(point)
    k = _index(cd[2], len(buckets)) if len(cd) > 2 else None
    if k is None:
        return [], ""
    return list(buckets[k]["segments"]), f"{what} {buckets[k]['bucket']}{unit}"


def ratio_bar_segments(rows: Sequence[dict], point: dict) -> tuple[list[int], str, str | None]:
    """A bar of :func:`length_ratio_figure` -> (the segments of that system in that bin, a label, the system)."""
    cd = _custom(point)
    i = _index(cd[0], len(rows)) if len(cd) > 1 else None
    k = _index(cd[1], len(rows[i]["bins"])) if i is not None else None
    if k is None:
        return [], "", None
    b = rows[i]["bins"][k]
    return list(b["segments"]), f"{rows[i]['system']}: c/r in {b['range']}", rows[i]["system"]


def ngram_bar_segments(nd: dict, point: dict) -> tuple[list[int], str]:
    """A bar of :func:`ngram_diff_figure` -> (the segments where the two systems match that n-gram a different
    number of times, a label)."""
    cd = _custom(point)
    if len(cd) < 5 or cd[3] not in ("better", "worse"):
        return [], ""
    k = _index(cd[4], len(nd.get(cd[3], [])))
    if k is None:
        return [], ""
    r = nd[cd[3]][k]
    return list(r["segments"]), f"n-gram “{r['ngram']}”"


def delta_bar_segments(delta, point: dict) -> tuple[list[int], str]:
    """A bar of :func:`delta_histogram_figure` (same ``delta``) -> (the segments in that bin, a label)."""
    x, _, w, members = histogram_bins(delta, DELTA_BINS)
    cd = _custom(point)
    k = _index(cd[0], len(members)) if cd else None
    if k is None:
        return [], ""
    return [int(j) + 1 for j in members[k]], f"Δ {x[k] - w / 2:+.2f} to {x[k] + w / 2:+.2f}"


# ------------------------------------------------------------------------------------------------ export
def charts_html(figures: Sequence[go.Figure], *, title: str = "Corpus charts", subtitle: str = "") -> str:
    """One self-contained HTML page with ``figures``, interactive (Plotly's script included once: works
    offline). ``title`` and ``subtitle`` are user text (a test set's label): escaped."""
    parts = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'>", f"<title>{html.escape(title)}</title>",
             "</head><body style='font-family: sans-serif'>", f"<h1>{html.escape(title)}</h1>"]
    if subtitle:
        parts.append(f"<p>{html.escape(subtitle)}</p>")
    for k, fig in enumerate(figures):
        parts.append(fig.to_html(full_html=False, include_plotlyjs=k == 0))
    parts.append("</body></html>")
    return "\n".join(parts)
