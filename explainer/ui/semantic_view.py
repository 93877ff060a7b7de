"""The semantic family's view model for the pages: pure data and figures from an ``StsTrace`` / ``BertScoreTrace``
(no Streamlit). Every number is the trace's; user text reaches HTML only through
:func:`explainer.ui.highlight.render_marked_text` (escaped) and Plotly only through :func:`charts.label_text`.

* :func:`piece_marks`, :func:`piece_rows`, :func:`pieces_html` — a text's word pieces: each piece marked in the
  user's own text (a word split into pieces shows each piece, ``##`` for a continuation), and as table rows;
* :func:`sts_view` — :class:`StsView`: the pooling of each text, each reference's cosine and the kept one, the
  formulas with their numbers, truncation and what STS does not check;
* :func:`bertscore_view` — :class:`BertScoreView`: P, R and F per reference, the kept values and where each comes
  from, idf weights, the published-numbers note; :func:`bertscore_pair_view` — :class:`PairView`: one reference's
  similarity matrix (bounded), the greedy alignment both ways, the weights and the formulas;
* :func:`similarity_figure` (heatmap with each candidate piece's best reference piece marked) and
  :func:`greedy_alignment_figure` (two columns of pieces, a line to each piece's best match: drawn as the LCS
  alignment is drawn).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import plotly.graph_objects as go

from explainer.ui import charts
from explainer.ui.highlight import TokenMark, escape_text, render_marked_text

__all__ = ["StsView", "BertScoreView", "PairView", "sts_view", "bertscore_view", "bertscore_pair_view", "piece_marks",
           "piece_rows", "pieces_html", "similarity_figure", "greedy_alignment_figure", "fmt", "HEATMAP_MAX",
           "ALIGN_MAX"]

HEATMAP_MAX = charts.HEATMAP_MAX      # rows / columns of the similarity heatmap drawn; longer texts are sampled
ALIGN_MAX = 40                        # pieces per column of the alignment chart


def fmt(x: float) -> str:
    """A score as the pages show it (4 decimals; NaN as bert-score returns it)."""
    return "NaN" if x != x else f"{x:.4f}"


def _g(x: float) -> str:
    return "NaN" if x != x else f"{x:.6g}"


# ------------------------------------------------------------------------------------------------ word pieces
def piece_marks(text) -> list[TokenMark]:
    """One mark per piece of ``text`` (a ``PieceText``), labelled with its number; a continuation piece says so."""
    out = []
    for i, p in enumerate(text.pieces):
        if p.special or p.start is None or p.end is None or p.end <= p.start:
            continue
        cont = " (continues the word)" if p.continues_word else ""
        out.append(TokenMark(p.start, p.end, order=1 if not p.continues_word else 2, label=str(i),
                             title=f"piece {i}: {p.piece}{cont}"))
    return out


def piece_rows(text) -> list[dict]:
    """Each piece as a table row: its number, the piece, its id, its characters and the word it belongs to."""
    words = {ix: w for w, idx in text.words() for ix in idx}
    rows = []
    for i, p in enumerate(text.pieces):
        rows.append({"#": i, "piece": p.piece, "id": p.id,
                     "characters": "—" if p.start is None else f"{p.start}–{p.end}",
                     "word": "(added)" if p.special else words.get(i, ""),
                     "continues a word": "yes" if p.continues_word else ""})
    return rows


def truncation_note(text, what: str) -> str:
    if not text.truncated:
        return ""
    return (f"{what} has {text.total_pieces:,} word pieces; the library reads the first {text.max_pieces - 2} "
            f"(up to character {text.kept_chars:,}) and drops the rest.")


def pieces_html(text, what: str, *, max_chars: int = 20_000) -> str:
    """The text with its pieces marked (escaped HTML), and a note when it was truncated."""
    html = render_marked_text(text.text, piece_marks(text), max_chars=max_chars,
                              aria_label=f"{what}: {len(text.pieces) - 2} word pieces")
    note = truncation_note(text, what)
    return html + (f'<div class="xp-note">{escape_text(note)}</div>' if note else "")


# ------------------------------------------------------------------------------------------------------ STS
@dataclass(frozen=True)
class StsView:
    headline: str                     # the score, formatted
    title: str
    caption: str
    pooling_rows: list[dict]          # per text: pieces averaged, length before normalising
    pooling_formulas: list[str]
    cosine_rows: list[dict]           # per reference: cosine, kept
    cosine_formulas: list[str]
    formula: str                      # the kept value
    multi_reference_rule: str
    notes: list[str]                  # truncation, library warnings
    blind_spots: list[dict]


def sts_view(trace) -> StsView:
    texts = [("candidate", trace.candidate, trace.candidate_pooling)] + [
        (f"reference {k + 1}", r, p) for k, (r, p) in enumerate(zip(trace.references, trace.reference_pooling))]
    return StsView(
        headline=fmt(trace.score),
        title=f"STS — {trace.model.name} (sentence-transformers)",
        caption=f"Signature: {trace.signature}. Model revision {trace.model.revision} "
                f"({trace.model.package} {trace.model.package_version}).",
        pooling_rows=[{"text": what, "pieces averaged": p.n_pieces, "length before normalising": _g(p.norm)}
                      for what, _, p in texts],
        pooling_formulas=[f"{what}: {p.formula}" for what, _, p in texts],
        cosine_rows=[{"reference": k + 1, "cosine": fmt(c), "kept": "✓" if k == trace.chosen_reference else ""}
                     for k, c in enumerate(trace.cosines)],
        cosine_formulas=[trace.cosine_formula(k) for k in range(len(trace.cosines))],
        formula=trace.formula, multi_reference_rule=trace.multi_reference_rule,
        notes=[n for n in (truncation_note(t, what) for what, t, _ in texts) if n],
        blind_spots=[dict(b) for b in trace.blind_spots])


# ------------------------------------------------------------------------------------------------ BERTScore
@dataclass(frozen=True)
class BertScoreView:
    headline: str                     # F, formatted
    title: str
    caption: str
    rows: list[dict]                  # per reference: P, R, F (the kept ones marked)
    kept_formulas: list[str]          # P, R and F each the max over the references
    kept_rows: list[dict]             # measure, value, reference
    idf_rows: list[dict]              # idf on: piece, in how many references, idf
    idf_caption: str
    published: str
    evaluate_default: dict
    notes: list[str]
    library_error: str
    blind_spots: list[dict]


def bertscore_view(trace) -> BertScoreView:
    names = {"precision": "P", "recall": "R", "f1": "F"}
    rows = []
    for k, p in enumerate(trace.pairs):
        row = {"reference": k + 1}
        for m, short in names.items():
            row[short] = fmt(getattr(p, m)) + (" ✓" if trace.chosen[m] == k else "")
        rows.append(row)
    idf_rows = [{"piece": r.piece, "id": r.id, "references containing it": r.count, "idf": _g(r.idf),
                 "formula": r.formula} for r in (trace.idf or [])]
    notes = [n for n in [truncation_note(trace.candidate, "the candidate")] +
             [truncation_note(r, f"reference {k + 1}") for k, r in enumerate(trace.references)] if n]
    notes += [w.message for w in trace.warnings if w.category != "truncation"]
    err = trace.library_error
    return BertScoreView(
        headline=fmt(trace.f1), title=f"BERTScore — {trace.model.name}, layer {trace.layer} (bert-score)",
        caption=f"Signature (bert-score's hash): {trace.signature}. idf weights: "
                f"{'on' if trace.options.get('idf') else 'off'}.",
        rows=rows, kept_formulas=[trace.kept_formula(m) for m in names],
        kept_rows=[{"measure": short, "value": fmt(getattr(trace, m)), "from reference": trace.chosen[m] + 1}
                   for m, short in names.items()],
        idf_rows=idf_rows,
        idf_caption=(f"idf = log((N + 1) / (c + 1)) over the N = {trace.idf_documents} reference(s) of the call, "
                     "c = how many contain the piece" if trace.idf is not None else ""),
        published=trace.published["note"], evaluate_default=dict(trace.published["evaluate_load_bertscore"]),
        notes=notes, library_error=f"{err.type}: {err.message} — {err.explanation}" if err else "",
        blind_spots=[dict(b) for b in trace.blind_spots])


@dataclass(frozen=True)
class PairView:
    """The candidate against reference ``k``: labels and the (bounded) similarity matrix, the greedy matches."""

    k: int
    cand_labels: list[str]            # pieces as shown (user text: escape before HTML; figures use label_text)
    ref_labels: list[str]
    rows: list[int]                   # candidate piece indices drawn (sampled when over HEATMAP_MAX)
    cols: list[int]
    z: list[list[float]]              # similarity[rows][cols]
    cand_best: list[int]              # per candidate piece: its best reference piece
    ref_best: list[int]
    cand_rows: list[dict]             # per candidate piece: best match, cosine, weight
    ref_rows: list[dict]
    formulas: dict                    # precision / recall / f1 / notes
    sample_note: str


def _side_rows(pieces, best, best_sim, weights, other_pieces) -> list[dict]:
    return [{"#": i, "piece": p.piece, "best match": f"{int(b)}: {other_pieces[int(b)].piece}", "cosine": _g(float(s)),
             "weight": _g(float(w))} for i, (p, b, s, w) in enumerate(zip(pieces, best, best_sim, weights))]


def bertscore_pair_view(trace, k: int, *, limit: int = HEATMAP_MAX) -> PairView:
    pair, ref = trace.pairs[k], trace.references[k]
    gr = pair.greedy
    cand_p, ref_p = trace.candidate.pieces, ref.pieces
    rows = charts.downsample_indices(range(len(cand_p)), limit)
    cols = charts.downsample_indices(range(len(ref_p)), limit)
    note = ""
    if len(rows) < len(cand_p) or len(cols) < len(ref_p):
        note = (f"The matrix has {len(cand_p)} × {len(ref_p)} cells; showing {len(rows)} × {len(cols)} evenly "
                "spaced rows and columns (exact values). The tables list every piece.")
    return PairView(
        k=k, cand_labels=[p.piece for p in cand_p], ref_labels=[p.piece for p in ref_p], rows=rows, cols=cols,
        z=[[float(gr.similarity[i, j]) for j in cols] for i in rows],
        cand_best=[int(x) for x in gr.cand_best], ref_best=[int(x) for x in gr.ref_best],
        cand_rows=_side_rows(cand_p, gr.cand_best, gr.cand_best_sim, gr.cand_weights, ref_p),
        ref_rows=_side_rows(ref_p, gr.ref_best, gr.ref_best_sim, gr.ref_weights, cand_p),
        formulas=pair.formulas(trace.candidate, ref), sample_note=note)


# --------------------------------------------------------------------------------------------------- figures
def similarity_figure(view: PairView) -> go.Figure:
    """The similarity matrix (rows: candidate pieces, columns: reference pieces) with each drawn candidate piece's
    best reference piece marked (squares: the precision side) and each reference piece's best candidate piece
    (circles: the recall side)."""
    rows, cols = view.rows, view.cols
    rpos, cpos = {i: n for n, i in enumerate(rows)}, {j: n for n, j in enumerate(cols)}
    labels = len(rows) == len(view.cand_labels) and len(cols) == len(view.ref_labels)
    yt = [charts.label_text(view.cand_labels[i]) if labels else str(i) for i in rows]
    xt = [charts.label_text(view.ref_labels[j]) if labels else str(j) for j in cols]
    pm = [(cpos[view.cand_best[i]], rpos[i]) for i in rows if view.cand_best[i] in cpos]
    rm = [(cpos[j], rpos[view.ref_best[j]]) for j in cols if view.ref_best[j] in rpos]
    zmin = min([0.0] + [v for row in view.z for v in row])
    data = [dict(type="heatmap", z=view.z, x=list(range(len(cols))), y=list(range(len(rows))), zmin=zmin, zmax=1,
                 colorscale=[[0, "#F4F4F4"], [1, charts.SKY]], colorbar=dict(title=dict(text="cosine")),
                 hovertemplate="cosine %{z:.4f}<extra></extra>",
                 texttemplate="%{z:.2f}" if len(rows) * len(cols) <= 400 else "",
                 textfont=dict(size=14, color="#111111"), showlegend=False),
            dict(type="scatter", x=[p[0] for p in pm], y=[p[1] for p in pm], mode="markers",
                 name="candidate piece's best reference piece (precision)",
                 marker=dict(symbol="square-open", size=22 if labels else 9, color=charts.VERMILLION,
                             line=dict(width=3))),
            dict(type="scatter", x=[p[0] for p in rm], y=[p[1] for p in rm], mode="markers",
                 name="reference piece's best candidate piece (recall)",
                 marker=dict(symbol="circle-open", size=14 if labels else 7, color=charts.BLUE, line=dict(width=3)))]
    size = 30 * max(len(rows), 8) + 200
    layout = dict(title=dict(text=f"BERTScore: cosine of every piece pair (reference {view.k + 1})",
                             font=dict(size=18)), font=charts.FONT, height=min(max(size, 380), 900) + 60,
                  margin=dict(l=60, r=30, t=80, b=120), showlegend=True,
                  legend=dict(orientation="h", yanchor="bottom", y=1.01, xanchor="left", x=0),
                  xaxis=dict(title=dict(text="reference pieces →"), tickmode="array",
                             tickvals=list(range(len(cols))), ticktext=xt, tickangle=-40),
                  yaxis=dict(title=dict(text="candidate pieces ↓"), tickmode="array",
                             tickvals=list(range(len(rows))), ticktext=yt, autorange="reversed"))
    return go.Figure({"data": data, "layout": layout})


def _links(best: Sequence[int], n_from: int, n_to: int, from_x: int) -> tuple[list, list]:
    xs: list = []
    ys: list = []
    for i in range(n_from):
        j = best[i]
        if j < n_to:
            xs += [from_x, 1 - from_x, None]
            ys += [i, j, None]
    return xs, ys


def greedy_alignment_figure(view: PairView, *, limit: int = ALIGN_MAX) -> tuple[go.Figure, str]:
    """Candidate pieces in one column, reference pieces in the other; a solid line from each candidate piece to its
    best reference piece (precision), a dotted one from each reference piece to its best candidate piece (recall).
    Drawn top to bottom, one row per piece, as the LCS alignment is."""
    nc, nr = min(len(view.cand_labels), limit), min(len(view.ref_labels), limit)
    note = ""
    if nc < len(view.cand_labels) or nr < len(view.ref_labels):
        note = f"Drawing the first {limit} pieces of each text; the tables list every piece and its best match."
    px, py = _links(view.cand_best, nc, nr, 0)
    rx, ry = _links(view.ref_best, nr, nc, 1)
    data = [dict(type="scatter", x=px, y=py, mode="lines", line=dict(color=charts.VERMILLION, width=2),
                 hoverinfo="skip", name="candidate piece → its best reference piece (precision)"),
            dict(type="scatter", x=rx, y=ry, mode="lines", line=dict(color=charts.BLUE, width=2, dash="dot"),
                 hoverinfo="skip", name="reference piece → its best candidate piece (recall)"),
            dict(type="scatter", x=[0] * nc, y=list(range(nc)), mode="markers+text", name="candidate",
                 text=[charts.label_text(t) for t in view.cand_labels[:nc]], textposition="middle left",
                 cliponaxis=False, marker=dict(symbol="square", size=12, color=charts.BLUE),
                 hovertemplate="candidate piece %{y}<extra></extra>"),
            dict(type="scatter", x=[1] * nr, y=list(range(nr)), mode="markers+text", name="reference",
                 text=[charts.label_text(t) for t in view.ref_labels[:nr]], textposition="middle right",
                 cliponaxis=False, marker=dict(symbol="diamond", size=12, color=charts.GREEN),
                 hovertemplate="reference piece %{y}<extra></extra>")]
    rows = max(nc, nr, 1)
    area = charts.ALIGN_ROW_PX * (rows + 1.6)
    layout = dict(title=dict(text=f"BERTScore: the greedy matches (reference {view.k + 1})", font=dict(size=18)),
                  font=charts.FONT, height=area + 110, margin=dict(l=20, r=20, t=80, b=90),
                  legend=dict(orientation="h", yanchor="top", y=-0.02, xanchor="left", x=0),
                  annotations=[dict(text="<b>candidate</b>", x=0, y=-1.3, xref="x", yref="y", showarrow=False,
                                    xanchor="right", font=dict(size=15)),
                               dict(text="<b>reference</b>", x=1, y=-1.3, xref="x", yref="y", showarrow=False,
                                    xanchor="left", font=dict(size=15))],
                  yaxis=dict(visible=False, range=[rows - 0.4, -1.9], fixedrange=True),
                  xaxis=dict(visible=False, range=[-1.6, 2.6], fixedrange=True))
    return go.Figure({"data": data, "layout": layout}), note
