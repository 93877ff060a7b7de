"""The pieces the Dialects page's tables and divergence panels share, as pure functions (no Streamlit): the style
sheet, number formatting, a table's column order, a chart of every row's score, one side of a divergence (the
text involved with the differing tokens highlighted, then the family's step table), and the Explain links. Each
family's view (``explainer.ui.dialects.views``) fills them with its own records, steps and tokens; every user
string is escaped here.
"""
from __future__ import annotations

import html
import urllib.parse
from typing import Any, Callable, Mapping, Sequence

import plotly.graph_objects as go

from explainer.ui.highlight import TokenMark, escape_attr, escape_text, render_marked_text

__all__ = ["STEP_WORDS", "STYLE", "num", "td", "cells_of", "token_block", "side_html", "ordered_table", "bars_figure",
           "explain_query", "explain_link", "explain_link_for_row", "MAX_TOKEN_CHIPS", "MAX_TOKEN_TEXTS",
           "step_words", "divergence_block", "TextParts"]

STEP_WORDS = {
    "tokens": "tokens", "counts": "clipped counts", "totals": "totals (candidate n-grams)",
    "ref_length": "reference length", "smoothing": "smoothing", "brevity_penalty": "brevity penalty",
    "combination": "combination (weights, orders)", "scale": "scale / rounding", "stemming": "stemming",
    "overlap": "n-gram overlap", "lcs": "LCS", "multi_ref": "several references", "f_measure": "F-measure",
    "aggregation": "aggregation", "implementation": "another implementation", "options": "other options",
    None: "— (identical)",
}
STYLE = """
<style>
.dl-side h4{margin:.2rem 0 .4rem 0;font-size:1.05rem}
.dl-toks{line-height:2.1;font-size:.95rem;margin:.2rem 0 .6rem 0;word-break:break-word}
.dl-tok{border:1px solid rgba(128,128,128,.45);border-radius:.25rem;padding:.05rem .3rem;margin:0 .15rem;
  white-space:pre-wrap}
.dl-hit{outline:3px solid #D55E00;outline-offset:0;background:rgba(213,94,0,.18);font-weight:700}
.dl-also{outline:2px dashed #D55E00;outline-offset:0}
.dl-scroll{overflow-x:auto}
.dl-from{opacity:.7;font-weight:400}
.dl-side .xp-tok{margin:0 .1rem}
.dl-error{border-left:4px solid #D55E00;padding:.2rem .5rem;margin:.3rem 0 .6rem 0}
table.dl-steps{border-collapse:collapse;font-size:.88rem;margin-bottom:.6rem;width:100%}
table.dl-steps th,table.dl-steps td{border:1px solid rgba(128,128,128,.35);padding:.12rem .35rem;text-align:right}
table.dl-steps th{text-align:center}
table.dl-steps td.dl-label{text-align:left;white-space:nowrap}
td.dl-cell-hit{outline:3px solid #D55E00;outline-offset:-3px;background:rgba(213,94,0,.18);font-weight:700}
.dl-why{font-size:1.02rem;line-height:1.5}
ol.dl-matches{line-height:1.6;padding-left:1.6rem}
ol.dl-matches li{margin-bottom:.25rem}
.dl-unusual{font-size:.8rem;border:1px solid #E69F00;border-radius:.25rem;padding:0 .25rem;margin-left:.2rem}
a.dl-explain{white-space:nowrap;font-weight:600}
</style>
"""
def num(x, digits: int = 4) -> str:
    if x is None:
        return "—"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) < 1e9):
        return str(int(x))
    if abs(x) < 1e-4 and x != 0:
        return f"{x:.3g}"
    return f"{x:.{digits}f}".rstrip("0").rstrip(".")


def cells_of(div, side: str, kind: str) -> list[dict]:
    return [c for c in div.cells if c.get("kind") == kind and c.get("side", side) == side]



#: ``text_parts(trace, ref)`` -> (text, the tokens compared, the same tokens as located in the text, starts, ends)
TextParts = Callable[[Any, int | None], tuple]

MAX_TOKEN_CHIPS = 400


def _chip(i: int, token: str, surface: str, cls: str) -> str:
    if token == surface:
        return f'<span class="{cls}" title="token {i + 1}">{escape_text(token)}</span>'
    # stemmed (or otherwise changed) before the comparison: the word as found, then what was compared
    title = escape_attr(f"token {i + 1}: {surface!r} compared as {token!r}")
    return (f'<span class="{cls}" title="{title}"><span class="dl-from">{escape_text(surface)} → </span>'
            f"{escape_text(token)}</span>")


def token_block(trace, text_parts: TextParts, ref: int | None, hits: set[int], first: set[int], name: str) -> str:
    """The text as typed with every differing token marked (the stretch the sentence above describes in bold
    outline, the others dashed; no inline label, which would cover a neighbouring token such as the `.` of
    `mat .`), and the tokens the dialect compared, marked the same way (a stem shows the word it came from)."""
    text, toks, surface, starts, ends = text_parts(trace, ref)
    marks = [TokenMark(a, b, selected=i in first, also=0 if i in first else 1,
                       title=f"token {i + 1}: tokenized differently", label="")
             for i, (a, b) in enumerate(zip(starts, ends)) if i in hits and a is not None and b is not None]
    chips = []
    for i, (t, sf) in enumerate(zip(toks[:MAX_TOKEN_CHIPS], surface)):
        cls = "dl-tok dl-hit" if i in first else ("dl-tok dl-also" if i in hits else "dl-tok")
        chips.append(_chip(i, t, sf, cls))
    more = (f' <span class="xp-note">… {len(toks) - MAX_TOKEN_CHIPS} more</span>'
            if len(toks) > MAX_TOKEN_CHIPS else "")
    return (f"<div><b>{html.escape(name)}</b> — as typed, the differing tokens marked:</div>"
            + render_marked_text(text, marks, max_chars=5_000, aria_label=name)
            + f'<div class="dl-toks" aria-label="{html.escape(name)} tokens">tokens compared ({len(toks)}): '
            + "".join(chips) + more + "</div>")


def td(value, hit: bool, label: bool = False) -> str:
    cls = " ".join(x for x in ("dl-label" if label else "", "dl-cell-hit" if hit else "") if x)
    attr = f' class="{cls}"' if cls else ""
    return f"<td{attr}>{html.escape(str(value))}</td>"


MAX_TOKEN_TEXTS = 4


# -------------------------------------------------------------------------------------------------- links
def explain_query(family: str, dialect: str, options: Mapping[str, Any], candidate: str,
                  references: Sequence[str], types: Sequence[str] = (), *, base=None) -> dict:
    """The Explain page's URL parameters for one configuration (:func:`explainer.ui.settings.configuration_link`)."""
    from explainer.ui.settings import configuration_link

    return configuration_link(family, dialect, options, candidate, references, types, base=base)


def explain_link(family: str, dialect: str, options: Mapping[str, Any], candidate: str,
                 references: Sequence[str], types: Sequence[str] = (), *, base=None) -> str | None:
    """A relative link to the Explain page (the app's default page) with these settings (None for a family the
    Explain page does not show: its command is shown instead)."""
    from explainer.ui.families import UI_FAMILIES

    if family not in UI_FAMILIES:
        return None
    q = explain_query(family, dialect, options, candidate, references, types, base=base)
    return "./?" + urllib.parse.urlencode(q, doseq=True, quote_via=urllib.parse.quote)


def explain_link_for_row(cmp, row, *, base=None) -> str | None:
    c = row.config
    return explain_link(c.family, c.dialect, c.opts, cmp.candidate, cmp.references, c.types, base=base)




# ------------------------------------------------------------------------------------------------ table
def step_words(cmp) -> dict[str, str]:
    """Row id -> the first step at which the row diverges from the first row, in words ("(reference row)" for the
    first; "" where no pair was computed)."""
    first = {d.b: d for d in cmp.pairs if d.a == cmp.rows[0].id}
    out = {cmp.rows[0].id: "(reference row)"}
    for row in cmp.rows[1:]:
        out[row.id] = STEP_WORDS.get(first[row.id].first_step, "") if row.id in first else ""
    return out


def ordered_table(cmp, record: Callable[[Any], dict], n_answer: int, *, base=None) -> list[dict]:
    """One record per row (``record(row)``: "implementation" first, then the answer columns), in row order: the
    implementation and its ``n_answer`` answer columns first (what a reader looks for, visible on a narrow screen),
    then the first difference from row 1 and the Explain link, then the rest."""
    steps = step_words(cmp)
    out = []
    for row in cmp.rows:
        rec = record(row)
        front = {"implementation": rec.pop("implementation")}
        for k in list(rec)[:n_answer]:
            front[k] = rec.pop(k)
        front["first difference from row 1"] = steps[row.id]
        link = explain_link_for_row(cmp, row, base=base) if cmp.level == "segment" else None
        if link is not None:
            front["explain"] = link
        front.update(rec)
        out.append(front)
    return out


def bars_figure(cmp, xs: Sequence[float], texts: Sequence[str], title: str, *, x_range: Sequence[float],
                x_title: str) -> go.Figure:
    """Horizontal bars, one per row (the first row blue, the others orange), each labelled with the number its
    implementation reports."""
    from explainer.ui.charts import FONT, plotly_escape

    rows = list(reversed(cmp.rows))
    xs, texts = list(reversed(list(xs))), list(reversed(list(texts)))
    colours = ["#0072B2" if r is cmp.rows[0] else "#E69F00" for r in rows]
    data = [dict(type="bar", orientation="h", y=[plotly_escape(r.label) for r in rows], x=xs,
                 text=[plotly_escape(t) for t in texts], textposition="outside", cliponaxis=False,
                 marker=dict(color=colours), hovertemplate=f"%{{y}}: %{{x:.6g}} on {x_title}<extra></extra>")]
    layout = dict(title=dict(text=title, font=dict(size=17)), font=FONT, height=90 + 34 * len(rows),
                  margin=dict(l=190, r=140, t=60, b=40), xaxis=dict(range=list(x_range), title=dict(text=x_title)),
                  showlegend=False)
    return go.Figure({"data": data, "layout": layout})


# --------------------------------------------------------------------------------------- divergence view
def side_html(row, trace, div, side: str, *, text_parts: TextParts, steps: Callable[[Any, Any, str], str],
              failure_text: Callable[[Any, dict], str], note: str = "") -> str:
    """One side ("a" or "b") of a divergence: every text tokenized differently with its differing tokens
    highlighted (candidate first), the real library's failure, then the family's step table (``steps``) with the
    differing cells marked. Every user string is escaped."""
    parts = [f'<div class="dl-side"><h4>{html.escape(row.label)}</h4>{note}']
    tok_cells = [c for c in div.cells if c.get("kind") == "token" and c.get("side") == side]
    for c in tok_cells[:MAX_TOKEN_TEXTS]:
        ref = c.get("ref")
        name = "candidate" if ref is None else (f"reference {ref + 1}" if len(trace.references) > 1 else "reference")
        parts.append(token_block(trace, text_parts, ref, set(c.get("all", c["indices"])), set(c["indices"]), name))
    if len(tok_cells) > MAX_TOKEN_TEXTS:
        parts.append(f'<div class="xp-note">… and {len(tok_cells) - MAX_TOKEN_TEXTS} more text(s) tokenized '
                     "differently (download the comparison for every cell)</div>")
    err = cells_of(div, side, "error")
    if err:
        parts.append(f'<div class="dl-error"><b>The real library fails here</b>: {failure_text(trace, err[0])}'
                     "</div>")
    parts.append(steps(trace, div, side))
    parts.append("</div>")
    return "".join(parts)


def divergence_block(div) -> str:
    """The sentence of a divergence: the step in words, its name, and why (escaped)."""
    step = STEP_WORDS.get(div.first_step, div.first_step)
    word = div.first_step or "none"
    return (f'<div class="dl-why" data-testid="dl-divergence"><b>First divergence: {escape_text(step)}</b> '
            f'<span class="xp-note">(step {escape_text(word)})</span><br>{escape_text(div.why)}</div>')
