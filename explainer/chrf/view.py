"""View models for chrF pages: plain data (lists of dicts, numbers, strings) computed from a trace, for tables and
charts. No Streamlit here; every number is the trace's.

* ``order_rows(trace)``: the per-order table (counts, P, R, F with the formulas filled in, in the average or not);
* ``ngram_rows(trace, i)``: order ``i``'s n-grams with their counts per reference and the clipped matches;
* ``highlights(trace, i)``: where order ``i``'s n-grams are in the candidate, each occurrence matched or not (the
  first ``matched`` occurrences of an n-gram count as matched, as clipping does);
* ``prf_chart(trace)``: P, R and F per order (chart data);
* ``averaging_steps(trace)``: the final step in words and numbers;
* ``reference_rows(trace)``: each reference's score and which one is kept;
* ``side_by_side(candidate, references)``: every chrF dialect's comparison rows on the same texts (Dialects page).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from explainer.chrf.trace import ChrfTrace

__all__ = ["order_rows", "ngram_rows", "highlights", "prf_chart", "averaging_steps", "reference_rows",
           "side_by_side", "order_label", "ChrfExplainView", "explain_view", "headline"]


def order_label(kind: str, n: int) -> str:
    return f"{'character' if kind == 'char' else 'word'} {n}-grams"


def order_rows(trace: ChrfTrace) -> list[dict]:
    c = trace.combination
    return [{"order": order_label(o.kind, o.n), "kind": o.kind, "n": o.n, "candidate": o.hyp, "reference": o.ref,
             "matched": o.match, "precision": o.precision, "recall": o.recall, "f": o.f,
             "precision_formula": o.precision_note, "recall_formula": o.recall_note, "f_formula": o.f_note,
             "in_average": o.included, "beta": c.beta} for o in c.orders]


def ngram_rows(trace: ChrfTrace, i: int) -> list[dict]:
    o = trace.orders[i]
    k = trace.chosen_reference
    rows = []
    for j, (g, cnt) in enumerate(zip(o.ngrams, o.counts)):
        row = {"ngram": g, "count": cnt, "matched": o.matched[k][j], "kept_reference": k}
        for r in range(len(o.ref_counts)):
            row[f"reference {r + 1}"] = o.ref_counts[r][j]
        rows.append(row)
    return rows


def highlights(trace: ChrfTrace, i: int, which: int = -1) -> list[dict] | None:
    """``[{"start", "end", "ngram", "matched"}]`` for every occurrence of order ``i``'s n-grams in the candidate
    (``which=-1``) or in reference ``which``, as typed, in text order (None when the spans cannot be mapped back to
    the text). The first ``matched`` occurrences of an n-gram count as matched, as clipping does: in the candidate
    min(count, count in the kept reference), in a reference min(its count, the candidate's count)."""
    spans = trace.spans(i, which)
    if spans is None:
        return None
    o = trace.orders[i]
    k = trace.chosen_reference if which < 0 else which
    if which < 0:
        matched = dict(zip(o.ngrams, o.matched[k]))
    else:
        cand = dict(zip(o.ngrams, o.counts))
        matched = {g: min(len(sp), cand.get(g, 0)) for g, sp in spans.items()}
    out = []
    for g, sp in spans.items():
        m = matched.get(g, 0)
        for j, (a, b) in enumerate(sp):
            out.append({"start": a, "end": b, "ngram": g, "matched": j < m})
    out.sort(key=lambda x: (x["start"], x["end"]))
    return out


def prf_chart(trace: ChrfTrace) -> dict:
    c = trace.combination
    return {"orders": [order_label(o.kind, o.n) for o in c.orders], "precision": [o.precision for o in c.orders],
            "recall": [o.recall for o in c.orders], "f": [o.f for o in c.orders],
            "in_average": [o.included for o in c.orders]}


def averaging_steps(trace: ChrfTrace) -> list[dict]:
    c = trace.combination
    steps = [{"step": "averaging", "text": c.explanation}]
    if c.averaging == "effective-order":
        steps.append({"step": "mean precision", "value": c.avg_precision,
                      "text": f"mean of P over the {c.effective_order} orders in the average"})
        steps.append({"step": "mean recall", "value": c.avg_recall,
                      "text": f"mean of R over the {c.effective_order} orders in the average"})
    else:
        steps.append({"step": "sum of F", "value": c.f_sum, "text": f"the F of the {c.effective_order} orders added"})
    steps.append({"step": "score", "value": c.score, "text": c.formula})
    return steps


def reference_rows(trace: ChrfTrace) -> list[dict]:
    return [{"reference": k + 1, "text": r.text, "score": trace.reference_scores[k],
             "kept": k == trace.chosen_reference} for k, r in enumerate(trace.references)]


def side_by_side(candidate: str, references: Sequence[str]) -> list[dict]:
    """Every chrF dialect's comparison rows (sacreBLEU chrF2, chrF2++, eps smoothing; NLTK β = 3 and 2) on the same
    segment: score (0-100 and native), per-order F, signature."""
    from explainer.chrf import DIALECTS, explain_chrf

    out = []
    for name in DIALECTS:
        for row in DIALECTS[name].comparison_rows([candidate, *references]):
            tr = explain_chrf(candidate, references, dialect=name, **row["options"])
            c = tr.combination
            out.append({"id": row["id"], "label": row["label"], "dialect": name, "options": row["options"],
                        "name": tr.name, "score": c.score100, "native_score": c.score, "scale": c.scale,
                        "averaging": c.averaging, "f": {order_label(o.kind, o.n): o.f for o in c.orders},
                        "signature": tr.signature, "warnings": [w.message for w in tr.warnings]})
    return out


def headline(trace: ChrfTrace) -> str:
    """The score as a page shows it: 4 decimals on 0-100 (sacreBLEU), 6 on 0-1 (NLTK), with the library's name."""
    c = trace.combination
    value = f"{c.score:.4f}" if c.scale == 100 else f"{c.score:.6f}"
    return f"{trace.name} = {value}"


@dataclass(frozen=True)
class ChrfExplainView:
    """Everything an Explain section for chrF shows, from one trace: the headline, the per-order table with the
    formulas, the chart, the n-gram table and the highlights of the focus order (candidate and kept reference),
    the references and their scores, the averaging, the signature and the library's warnings."""

    headline: str
    score: float
    scale: float
    name: str
    signature: str
    orders: tuple
    chart: dict
    focus: int
    focus_label: str
    ngrams: tuple
    candidate_marks: tuple | None
    reference_marks: tuple | None
    references: tuple
    averaging: tuple
    warnings: tuple


def explain_view(trace: ChrfTrace, focus: int | None = None) -> ChrfExplainView:
    """The view model of one trace; ``focus``: the order index shown in detail (default: character bigrams, or the
    only order)."""
    n_orders = len(trace.orders)
    i = focus if focus is not None else (1 if n_orders > 1 else 0)
    if not 0 <= i < n_orders:
        raise ValueError(f"order index {i} is out of range: the trace has {n_orders} orders")
    o = trace.orders[i]
    cm = highlights(trace, i)
    rm = highlights(trace, i, trace.chosen_reference)
    return ChrfExplainView(
        headline=headline(trace), score=trace.combination.score, scale=trace.combination.scale, name=trace.name,
        signature=trace.signature, orders=tuple(order_rows(trace)), chart=prf_chart(trace), focus=i,
        focus_label=order_label(o.kind, o.n), ngrams=tuple(ngram_rows(trace, i)),
        candidate_marks=None if cm is None else tuple(cm), reference_marks=None if rm is None else tuple(rm),
        references=tuple(reference_rows(trace)), averaging=tuple(averaging_steps(trace)),
        warnings=tuple(w.message for w in trace.warnings))
