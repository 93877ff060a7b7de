"""The chrF section's view model for the pages: pure data and figures from a chrF trace (no Streamlit), on top
of :mod:`explainer.chrf.view`. Every number is the trace's; user text reaches HTML only through
:func:`explainer.ui.highlight.render_marked_text` (escaped) and Plotly not at all.

* :func:`chrf_view` — :class:`ChrfPageView`: the headline, the per-order table, the focus order's marked texts,
  n-gram table and formulas (P, R and F-beta with the numbers filled in), the averaging as formulas, the
  references and which one is kept, the signature and the library's warnings;
* :func:`text_marks` — where an order's n-grams lie in a text, as non-overlapping marks: a character is marked
  when a matched (clipped-in) occurrence covers it;
* :func:`prf_figure` — P, R and F per order (grouped bars), greyed orders left out of the average.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Sequence

import plotly.graph_objects as go

from explainer.chrf import view as cv
from explainer.ui import charts
from explainer.ui.highlight import TokenMark

__all__ = ["ChrfPageView", "chrf_view", "text_marks", "prf_figure", "legend_html", "table_rows", "fmt_score",
           "order_choices"]


def fmt_score(trace) -> str:
    """The headline value: 4 decimals on sacreBLEU's 0-100 scale, 6 on NLTK's 0-1."""
    c = trace.combination
    return f"{c.score:.4f}" if c.scale == 100 else f"{c.score:.6f}"


def _num(x: float) -> str:
    return f"{x:.6g}"


def text_marks(marks: Sequence[dict] | None, n: int, what: str) -> list[TokenMark]:
    """Non-overlapping marks from an order's occurrences (``explainer.chrf.view.highlights``): each run of
    characters covered by a matched occurrence is marked with the order's style; a run covered only by occurrences
    that were not matched (absent from the other text, or clipped) gets a tooltip and no colour."""
    if not marks:
        return []
    end = max(m["end"] for m in marks)
    state = [0] * end
    for m in marks:
        v = 2 if m["matched"] else 1
        for p in range(m["start"], m["end"]):
            state[p] = max(state[p], v)
    out: list[TokenMark] = []
    p = 0
    while p < end:
        if state[p] == 0:
            p += 1
            continue
        q = p
        while q < end and state[q] == state[p]:
            q += 1
        if state[p] == 2:
            out.append(TokenMark(p, q, order=n, title=f"in a matched {what}", label=""))
        else:
            out.append(TokenMark(p, q, title=f"in no matched {what} (absent from the other text, or clipped)"))
        p = q
    return out


def legend_html(n: int, what: str) -> str:
    cls = f"xp-o{min(max(n, 1), 6)}"
    what = html.escape(what)
    return ('<div class="xp-legend">'
            f'<span class="xp-tok {cls}">in a matched {what}</span> '
            f'<span class="xp-tok">in no matched {what}</span>'
            '<br><span class="xp-note">A character is marked when an occurrence of a matched n-gram covers it; '
            "the first occurrences of an n-gram count as matched, up to its clipped count. Hover for the details."
            "</span></div>")


def _frac(match: float, total: float, value: float) -> str:
    return rf"\frac{{{_num(match)}}}{{{_num(total)}}} = {_num(value)}"


def order_formulas(row: dict) -> tuple[list[str], list[str]]:
    """(LaTeX lines, notes in words) of one order: P, R and F-beta with its numbers, or the library's words where
    it falls back to eps."""
    n, b2 = row["n"], row["beta"] ** 2
    sub = ("c" if row["kind"] == "char" else "w") + str(n)
    latex, notes = [], []
    if row["candidate"] > 0 and row["reference"] > 0:
        latex.append(rf"P_{{{sub}}} = {_frac(row['matched'], row['candidate'], row['precision'])}"
                     rf"\qquad R_{{{sub}}} = {_frac(row['matched'], row['reference'], row['recall'])}")
    else:
        notes += [f"P: {row['precision_formula']}", f"R: {row['recall_formula']}"]
    p, r = row["precision"], row["recall"]
    if p + r > 0 and row["candidate"] > 0 and row["reference"] > 0:
        latex.append(rf"F_{{{sub}}} = \frac{{(1 + \beta^2)\,P\,R}}{{\beta^2 P + R}} = "
                     rf"\frac{{(1 + {_num(b2)}) \cdot {_num(p)} \cdot {_num(r)}}}{{{_num(b2)} \cdot {_num(p)} + "
                     rf"{_num(r)}}} = {_num(row['f'])}")
    else:
        notes.append(f"F: {row['f_formula']}")
    return latex, notes


def _terms(values: Sequence[float], per_line: int = 4) -> str:
    """``a + b + c + …`` with a line break every ``per_line`` terms (long sums stay on the page)."""
    parts = [_num(v) for v in values]
    lines = [" + ".join(parts[i:i + per_line]) for i in range(0, len(parts), per_line)]
    return r" \\ &\quad + ".join(lines)


def _name(trace) -> str:
    return r"\text{" + trace.name.replace("+", "{+}") + "}"


def average_formulas(trace) -> list[str]:
    """The averaging as LaTeX, the numbers filled in from the trace."""
    c = trace.combination
    rows = [o for o in c.orders if o.included]
    k = len(rows)
    scale = "100 \\cdot " if c.scale == 100 else ""
    b2 = c.beta ** 2
    if c.averaging == "effective-order" and k:
        return [rf"\begin{{aligned}}\bar P &= \tfrac{{1}}{{{k}}}\,\big({_terms([o.precision for o in rows])}\big) "
                rf"\\ &= {_num(c.avg_precision)}\end{{aligned}}",
                rf"\begin{{aligned}}\bar R &= \tfrac{{1}}{{{k}}}\,\big({_terms([o.recall for o in rows])}\big) "
                rf"\\ &= {_num(c.avg_recall)}\end{{aligned}}",
                rf"{_name(trace)} = {scale}\frac{{(1 + {_num(b2)})\,\bar P\,\bar R}}{{{_num(b2)}\,\bar P + "
                rf"\bar R}} = {_num(c.score)}"]
    if c.f_sum is not None and k:
        return [rf"\begin{{aligned}}\textstyle\sum F &= {_terms([o.f for o in rows])} \\ &= {_num(c.f_sum)}"
                r"\end{aligned}",
                rf"{_name(trace)} = {scale}\frac{{\sum F}}{{{k}}} = {_num(c.score)}"]
    return []


def table_rows(rows: Sequence[dict]) -> list[dict]:
    """The per-order table as the page shows it (the trace's numbers and formulas)."""
    return [{"order": r["order"], "candidate n-grams": r["candidate"], "reference n-grams": r["reference"],
             "matched": r["matched"], "P": r["precision"], "R": r["recall"], "F": r["f"],
             "in the average": "yes" if r["in_average"] else "no (no n-grams of this order)",
             "P =": r["precision_formula"], "R =": r["recall_formula"], "F =": r["f_formula"]} for r in rows]


def ngram_table(rows: Sequence[dict], n_refs: int, kept: int) -> list[dict]:
    out = []
    for r in rows:
        d = {"n-gram": r["ngram"], "in the candidate": r["count"]}
        for k in range(n_refs):
            d[f"in reference {k + 1}" + (" (kept)" if k == kept and n_refs > 1 else "")] = r[f"reference {k + 1}"]
        d["matched (clipped)"] = r["matched"]
        out.append(d)
    return out


def order_choices(trace) -> list[str]:
    return [cv.order_label(o.kind, o.n) for o in trace.orders]


@dataclass(frozen=True)
class ChrfPageView:
    headline: str
    value: str
    name: str
    signature: str
    title: str
    table: tuple
    chart: dict
    focus: int
    focus_label: str
    focus_n: int
    candidate_text: str
    candidate_marks: tuple
    reference_marks: tuple
    kept: int
    n_refs: int
    reference_texts: tuple
    ngrams: tuple
    formulas: tuple
    notes: tuple
    averaging_text: str
    averaging: tuple
    final: str
    references: tuple
    warnings: tuple
    library_error: str


def chrf_view(trace, focus: int | None = None) -> ChrfPageView:
    """The page's view of one chrF trace; ``focus``: the order shown in detail (clamped into the orders)."""
    n_orders = len(trace.orders)
    focus = None if focus is None else min(max(int(focus), 0), n_orders - 1)
    v = cv.explain_view(trace, focus)
    o = trace.orders[v.focus]
    what = cv.order_label(o.kind, o.n)[:-1]      # "character 2-gram"
    row = v.orders[v.focus]
    latex, notes = order_formulas(row)
    c = trace.combination
    err = trace.library_error
    return ChrfPageView(
        headline=v.headline, value=fmt_score(trace), name=trace.name, signature=trace.signature,
        title=f"{trace.name} step by step ({trace.dialect}, β = {_num(c.beta)})", table=tuple(table_rows(v.orders)),
        chart=v.chart, focus=v.focus, focus_label=v.focus_label, focus_n=o.n, candidate_text=trace.candidate.text,
        candidate_marks=tuple(text_marks(v.candidate_marks, o.n, what)),
        reference_marks=tuple(text_marks(v.reference_marks, o.n, what)), kept=trace.chosen_reference,
        n_refs=len(trace.references), reference_texts=tuple(r.text for r in trace.references),
        ngrams=tuple(ngram_table(v.ngrams, len(trace.references), trace.chosen_reference)),
        formulas=tuple(latex), notes=tuple(notes), averaging_text=c.explanation,
        averaging=tuple(average_formulas(trace)), final=c.formula, references=tuple(v.references),
        warnings=v.warnings, library_error="" if err is None else f"{err.type}: {err.explanation}")


def prf_figure(chart: dict, name: str = "chrF") -> go.Figure:
    """Grouped P / R / F bars per order (``explainer.chrf.view.prf_chart``); an order left out of the average is
    drawn faded and says so in its hover text."""
    labels = chart["orders"]
    inc = chart["in_average"]
    data = []
    for key, label, colour, pattern in (("precision", "precision", charts.BLUE, ""),
                                        ("recall", "recall", charts.ORANGE, "/"), ("f", "F", charts.GREEN, "x")):
        vals = chart[key]
        data.append(dict(type="bar", x=labels, y=vals, name=label,
                         marker=dict(color=colour, opacity=[1.0 if i else 0.35 for i in inc],
                                     pattern=dict(shape=pattern, fillmode="overlay") if pattern else dict(shape="")),
                         text=[f"{v:.4f}" for v in vals], textposition="outside", textangle=-90, cliponaxis=False,
                         customdata=["" if i else " (not in the average)" for i in inc],
                         hovertemplate="%{x} " + label + ": %{y:.6f}%{customdata}<extra></extra>"))
    return go.Figure({"data": data, "layout": charts._layout(
        f"{charts.plotly_escape(name)}: precision, recall and F per order", height=420, barmode="group",
        xaxis=dict(tickangle=0 if len(labels) <= 4 else -35), yaxis=dict(title=dict(text="0–1"), range=[0, 1.35]))})
