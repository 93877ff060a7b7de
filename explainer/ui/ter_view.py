"""The TER section's view model for the pages: pure data, escaped HTML and figures from a TER trace (no Streamlit).
Every number is the trace's; user text reaches HTML only through :mod:`explainer.ui.highlight` (escaped) and Plotly
only through :func:`explainer.ui.charts.label_text`.

* :func:`ter_view` — :class:`TerPageView`: the headline, the texts as TER tokenized them (tokens with their spans),
  the shifts as rows, the alignment of the shifted hypothesis with the kept reference (rows, marks in both texts, a
  figure), every reference's edits, and TER = edits / mean reference length with the numbers filled in;
* :func:`alignment_figure` — the alignment drawn as ROUGE-L's is (one column per text, a line per aligned pair):
  matches, substitutions, deletions and insertions differ in colour *and* in line dash, marker and letter;
* :func:`alignment_html` — the same as an escaped table.

TER is an error rate: lower is better, 0 is a perfect match, and it exceeds 100 when there are more edits than
reference words; the view says so next to the number.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Sequence

import plotly.graph_objects as go

from explainer.ui import charts
from explainer.ui.highlight import TokenMark, escape_attr, escape_text

__all__ = ["TerPageView", "ter_view", "token_rows", "shift_rows", "alignment_rows", "original_positions",
           "candidate_marks", "reference_marks", "reference_rows", "formula_latex", "formula_text",
           "alignment_figure", "alignment_html", "legend_html", "fmt_score", "OPS", "DIRECTION"]

#: how each operation is shown: a letter (never colour alone), the mark style (``TokenMark.order``: colour and
#: underline style), the line dash and marker in the figure, and the words of a tooltip
OPS = {
    "match": {"mark": "=", "style": 2, "dash": "solid", "symbol": "circle", "colour": charts.GREEN,
              "words": "matches the reference word"},
    "substitution": {"mark": "S", "style": 3, "dash": "dash", "symbol": "x", "colour": charts.ORANGE,
                     "words": "substituted by the reference word"},
    "deletion": {"mark": "D", "style": 4, "dash": "dot", "symbol": "triangle-down", "colour": charts.PURPLE,
                 "words": "not in the reference: deleted"},
    "insertion": {"mark": "I", "style": 4, "dash": "dot", "symbol": "triangle-up", "colour": charts.PURPLE,
                  "words": "missing from the hypothesis: inserted"},
}
SHIFTED = "↷"
DIRECTION = ("TER is an error rate: lower is better, 0 means no edit at all, and it goes above 100 when the "
             "hypothesis needs more edits than the reference has words.")


def _num(x: float) -> str:
    return f"{x:.6g}"


def fmt_score(trace) -> str:
    """The headline value on sacreBLEU's scale, 4 decimals (its own output prints 2)."""
    return f"{trace.score:.4f}"


def _kept(trace, k: int | None):
    k = trace.chosen_reference if k is None else k
    if not 0 <= k < len(trace.per_reference):
        raise ValueError(f"reference index {k} is out of range: the trace has {len(trace.per_reference)}")
    return k, trace.per_reference[k]


# ------------------------------------------------------------------------------------------------ rows
def token_rows(text) -> list[dict]:
    """A ``TerText``'s words: position, the word TER compares, where it is in the text and what changed it."""
    return [{"position": i, "word": t.text, "start": t.start, "end": t.end,
             "as typed": "" if t.start is None else text.text[t.start:t.end], "exact": t.exact, "note": t.note}
            for i, t in enumerate(text.tokens)]


def shift_rows(ref) -> list[dict]:
    """The shifts of one reference's search, in the order they were taken."""
    return [{"shift": j + 1, "words": " ".join(s.words), "length": s.length, "from": s.start, "to": s.new_start,
             "reference position": s.ref_start, "gain": s.gain,
             "edit distance": f"{s.distance_before} → {s.distance_after}", "candidates": s.candidates,
             "why": s.reason} for j, s in enumerate(ref.shifts)]


def original_positions(n: int, shifts: Sequence) -> list[int]:
    """For each position of the shifted hypothesis, the candidate position its word came from."""
    perm = list(range(n))
    for s in shifts:
        block = perm[s.start:s.start + s.length]
        rest = perm[:s.start] + perm[s.start + s.length:]
        perm = rest[:s.new_start] + block + rest[s.new_start:]
    return perm


def alignment_rows(trace, k: int | None = None) -> list[dict]:
    """The alignment of the shifted hypothesis with reference ``k`` (default: the kept one), one row per step."""
    k, ref = _kept(trace, k)
    words_r = trace.references[k].words
    orig = original_positions(len(trace.candidate.words), ref.shifts)
    moved = _moved_positions(ref)
    return [{"op": e.op, "mark": OPS[e.op]["mark"], "hypothesis": "" if e.hyp is None else ref.shifted[e.hyp],
             "shifted position": e.hyp, "candidate position": None if e.hyp is None else orig[e.hyp],
             "moved": e.hyp in moved, "reference": "" if e.ref is None else words_r[e.ref],
             "reference position": e.ref} for e in ref.alignment]


def _moved_positions(ref) -> set:
    """Positions of the shifted hypothesis whose word a shift moved (followed through the later shifts)."""
    n = len(ref.shifted)
    flag = [False] * n
    for s in ref.shifts:
        block = flag[s.start:s.start + s.length]
        rest = flag[:s.start] + flag[s.start + s.length:]
        flag = rest[:s.new_start] + [True] * len(block) + rest[s.new_start:]
    return {i for i, f in enumerate(flag) if f}


def reference_rows(trace) -> list[dict]:
    """Every reference's edits (shifts + edit distance), length and whether it is the one kept."""
    return [{"reference": p.index + 1, "text": r.text, "words": p.ref_length, "shifts": p.num_shifts,
             "edit distance": p.edit_distance, "edits": p.num_edits, "kept": p.index == trace.chosen_reference,
             "search stopped": p.stop_reason} for p, r in zip(trace.per_reference, trace.references)]


# ------------------------------------------------------------------------------------------------ marks
def _mark(t, op: str, title: str, moved: bool = False) -> TokenMark:
    label = OPS[op]["mark"] + (SHIFTED if moved else "")
    return TokenMark(t.start, t.end, order=OPS[op]["style"], title=title, label=label)


def candidate_marks(trace, k: int | None = None) -> list[TokenMark]:
    """Each candidate word found in the text, marked with what the alignment did with it (and ↷ if moved)."""
    k, ref = _kept(trace, k)
    rows = alignment_rows(trace, k)
    out = []
    for r in rows:
        if r["candidate position"] is None:
            continue
        t = trace.candidate.tokens[r["candidate position"]]
        if t.start is None:
            continue
        title = f"{OPS[r['op']]['words']}" + (f" '{r['reference']}'" if r["op"] != "deletion" else "")
        if r["moved"]:
            title += "; moved by a shift"
        out.append(_mark(t, r["op"], title, r["moved"]))
    return out


def reference_marks(trace, k: int | None = None) -> list[TokenMark]:
    k, ref = _kept(trace, k)
    out = []
    for r in alignment_rows(trace, k):
        if r["reference position"] is None:
            continue
        t = trace.references[k].tokens[r["reference position"]]
        if t.start is None:
            continue
        words = {"match": "matched by the hypothesis", "substitution": f"the hypothesis has '{r['hypothesis']}'",
                 "insertion": OPS["insertion"]["words"]}[r["op"]]
        out.append(_mark(t, r["op"], words))
    return out


def legend_html() -> str:
    items = "".join(f'<span class="xp-tok xp-o{OPS[op]["style"]}">{html.escape(op)}<sub>{OPS[op]["mark"]}</sub>'
                    "</span> " for op in ("match", "substitution", "deletion", "insertion"))
    return ('<div class="xp-legend">' + items
            + f'<span class="xp-tok">moved by a shift<sub>{SHIFTED}</sub></span>'
            '<br><span class="xp-note">Each word carries its letter: = match, S substitution, D deletion (a '
            "hypothesis word the reference does not have), I insertion (a reference word the hypothesis lacks); "
            f"{SHIFTED} marks a word a shift moved. Hover for the details.</span></div>")


# ------------------------------------------------------------------------------------------------ formula
def formula_latex(trace) -> list[str]:
    """TER = 100 · (shifts + edit distance) / mean reference length, with the trace's numbers."""
    c = trace.combination
    kept = trace.kept
    lengths = [p.ref_length for p in trace.per_reference]
    lines = []
    if len(lengths) > 1:
        lines.append(rf"\bar{{L}}_{{\text{{ref}}}} = \frac{{{' + '.join(_num(x) for x in lengths)}}}{{{len(lengths)}}}"
                     rf" = {_num(trace.ref_length)}")
    edits = rf"{kept.num_shifts} + {kept.edit_distance}"
    if c.rule == "ratio":
        lines.append(rf"\text{{TER}} = 100 \cdot \frac{{\text{{shifts}} + \text{{edit distance}}}}"
                     rf"{{\text{{mean reference length}}}} = 100 \cdot \frac{{{edits}}}{{{_num(trace.ref_length)}}}"
                     rf" = {_num(c.score)}")
    else:
        lines.append(rf"\text{{TER}} = {_num(c.score)} \quad (\text{{reference length }} 0,\ {_num(c.num_edits)}"
                     r"\text{ edits})")
    return lines


def formula_text(trace) -> str:
    """The same in words and numbers (screen readers, the handout)."""
    kept = trace.kept
    if trace.combination.rule != "ratio":
        return trace.combination.formula
    shifts = f"{kept.num_shifts} shift{'' if kept.num_shifts == 1 else 's'}"
    edits = f"{kept.edit_distance} edit{'' if kept.edit_distance == 1 else 's'}"
    return (f"TER = 100 × ({shifts} + {edits}) / {_num(trace.ref_length)} (mean reference length) = "
            f"{_num(trace.score)}")


# ------------------------------------------------------------------------------------------------ figure, html
def _column(x: float, n: int, words: Sequence[str], ops: Sequence[str], name: str, side: str) -> dict:
    return dict(type="scatter", x=[x] * n, y=list(range(n)), mode="markers+text", name=name,
                text=[charts.label_text(w) + f" {OPS[o]['mark']}" for w, o in zip(words, ops)],
                textposition=f"middle {side}", cliponaxis=False, showlegend=False,
                marker=dict(symbol=[OPS[o]["symbol"] for o in ops], size=12, color=[OPS[o]["colour"] for o in ops]),
                customdata=[OPS[o]["words"] for o in ops],
                hovertemplate=f"{name} word %{{y}}: %{{customdata}}<extra></extra>")


def _links(rows: Sequence[dict], nh: int, nr: int) -> list[dict]:
    data = []
    for op in ("match", "substitution"):
        lx, ly = [], []
        for r in rows:
            if r["op"] == op and r["shifted position"] < nh and r["reference position"] < nr:
                lx += [0, 1, None]
                ly += [r["shifted position"], r["reference position"], None]
        data.append(dict(type="scatter", x=lx or [None], y=ly or [None], mode="lines", hoverinfo="skip",
                         name=f"{op} ({OPS[op]['mark']})",
                         line=dict(color=OPS[op]["colour"], width=2, dash=OPS[op]["dash"])))
    for op in ("deletion", "insertion"):
        data.append(dict(type="scatter", x=[None], y=[None], mode="markers", name=f"{op} ({OPS[op]['mark']})",
                         marker=dict(symbol=OPS[op]["symbol"], size=12, color=OPS[op]["colour"])))
    return data


def alignment_figure(rows: Sequence[dict], *, limit: int = 40) -> tuple[go.Figure, str | None]:
    """The shifted hypothesis (left) and the reference (right), one word per row, a line per aligned pair: a solid
    line for a match, a dashed one for a substitution; a deletion or insertion has no line and its own marker."""
    hyp = sorted((r["shifted position"], r["hypothesis"], r["op"]) for r in rows if r["shifted position"] is not None)
    ref = sorted((r["reference position"], r["reference"], r["op"]) for r in rows
                 if r["reference position"] is not None)
    nh, nr = min(len(hyp), limit), min(len(ref), limit)
    note = None
    if nh < len(hyp) or nr < len(ref):
        note = f"Drawing the first {limit} words of each text; the table lists every step of the alignment."
    data = _links(rows, nh, nr)
    data.append(_column(0, nh, [w for _, w, _ in hyp[:nh]], [o for _, _, o in hyp[:nh]], "hypothesis", "left"))
    data.append(_column(1, nr, [w for _, w, _ in ref[:nr]], [o for _, _, o in ref[:nr]], "reference", "right"))
    n = max(nh, nr, 1)
    top, bottom = 80, 110
    area = charts.ALIGN_ROW_PX * (n + 1.6)
    layout = charts._layout(
        "TER: the shifted hypothesis aligned with the reference", height=area + top + bottom - 60,
        margin=dict(l=20, r=20, t=top, b=bottom),
        annotations=[dict(text="<b>shifted hypothesis</b>", x=0, y=-1.3, xref="x", yref="y", showarrow=False,
                          xanchor="right", font=dict(size=15)),
                     dict(text="<b>reference</b>", x=1, y=-1.3, xref="x", yref="y", showarrow=False,
                          xanchor="left", font=dict(size=15))],
        yaxis=dict(visible=False, range=[n - 0.4, -1.9], fixedrange=True),
        xaxis=dict(visible=False, range=[-1.6, 2.6], fixedrange=True))
    return go.Figure({"data": data, "layout": layout}), note


def alignment_html(rows: Sequence[dict]) -> str:
    """The alignment as an escaped table: the letter, the operation, both words and positions."""
    body = []
    for r in rows:
        hyp = escape_text(r["hypothesis"]) + (f" <sub>{SHIFTED}</sub>" if r["moved"] else "")
        body.append(f'<tr title="{escape_attr(OPS[r["op"]]["words"])}"><td><b>{html.escape(r["mark"])}</b></td>'
                    f"<td>{html.escape(r['op'])}</td><td>{_pos(r['shifted position'])}</td><td>{hyp}</td>"
                    f"<td>{escape_text(r['reference'])}</td><td>{_pos(r['reference position'])}</td></tr>")
    return ('<table class="xp-ter-align"><thead><tr><th></th><th>operation</th><th>#</th><th>shifted hypothesis'
            "</th><th>reference</th><th>#</th></tr></thead><tbody>" + "".join(body) + "</tbody></table>")


def _pos(p) -> str:
    return "" if p is None else str(p)


# ------------------------------------------------------------------------------------------------ the view
@dataclass(frozen=True)
class TerPageView:
    headline: str
    value: str
    direction: str
    signature: str
    title: str
    candidate_text: str
    candidate_tokens: tuple
    candidate_marks: tuple
    kept: int
    n_refs: int
    reference_texts: tuple
    reference_tokens: tuple
    reference_marks: tuple        # the kept reference's
    shifts: tuple
    stop_reason: str
    alignment: tuple
    counts: dict
    references: tuple
    formula: tuple
    formula_text: str
    warnings: tuple
    notes: tuple
    library_error: str


def ter_view(trace, k: int | None = None) -> TerPageView:
    """The page's view of one TER trace; ``k``: the reference shown in detail (default: the kept one)."""
    k, ref = _kept(trace, k)
    err = trace.library_error
    return TerPageView(
        headline=f"{trace.name} = {fmt_score(trace)}", value=fmt_score(trace), direction=DIRECTION,
        signature=trace.signature, title=f"TER step by step ({trace.dialect})", candidate_text=trace.candidate.text,
        candidate_tokens=tuple(token_rows(trace.candidate)), candidate_marks=tuple(candidate_marks(trace, k)),
        kept=k, n_refs=len(trace.references), reference_texts=tuple(r.text for r in trace.references),
        reference_tokens=tuple(token_rows(trace.references[k])), reference_marks=tuple(reference_marks(trace, k)),
        shifts=tuple(shift_rows(ref)), stop_reason=ref.stop_reason, alignment=tuple(alignment_rows(trace, k)),
        counts=ref.counts(), references=tuple(reference_rows(trace)), formula=tuple(formula_latex(trace)),
        formula_text=formula_text(trace), warnings=tuple(w.message for w in trace.warnings),
        notes=tuple(ref.notes), library_error="" if err is None else f"{err.type}: {err.explanation}")
