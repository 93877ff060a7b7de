"""ROUGE trace -> what the Explain page shows. Pure: no Streamlit. Reads a RougeTrace; computes nothing new."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from explainer.ui.highlight import TokenMark

__all__ = ["RougeView", "ReferenceDetails", "WlcsHeatmap", "rouge_view", "wlcs_heatmaps",
           "reference_details", "prf_latex", "fmt_score",
           "kept_note", "type_label", "prf_rows", "overlap_rows", "ngram_marks", "lcs_marks", "lcs_alignment_rows",
           "lsum_rows", "winner_rows", "pooled_rows", "wlcs_rows", "wlcs_tables", "headline_types", "token_spans"]

HEADLINE = (("ROUGE-1", "rouge1"), ("ROUGE-2", "rouge2"), ("ROUGE-L", "rougeL"), ("ROUGE-Lsum", "rougeLsum"))


def headline_types():
    return HEADLINE


def type_label(name: str) -> str:
    from explainer.rouge.types import parse_type

    try:
        return parse_type(name).label
    except ValueError:
        return name


def prf_rows(trace) -> list[dict]:
    return [{"label": type_label(t), "type": t, "precision": s.precision, "recall": s.recall,
             "fmeasure": s.fmeasure, "scale": 1} for t, s in trace.scores.items()]


def result(trace, t: str, k: int):
    """TypeResult of type t against reference k (None when the dialect pooled without per-ref results)."""
    if k < len(trace.per_reference):
        return trace.per_reference[k].get(t)
    return None


def token_spans(view) -> list:
    """Surface tokens with spans of a TextView (candidate or reference)."""
    return view.tokenized.spans


def overlap_rows(trace, t: str, k: int) -> list[dict]:
    """ROUGE-N overlap table for type t against reference k (one row per distinct n-gram of either side)."""
    r = result(trace, t, k)
    if r is None or not r.detail or "ngrams" not in r.detail:
        return []
    rows = []
    for g in r.detail["ngrams"]:
        rows.append({"n-gram": " ".join(g["ngram"]), "candidate count": g["cand_count"],
                     f"ref {k + 1} count": g["ref_count"], "overlap (min)": g["overlap"],
                     "unmatched in candidate": g["cand_count"] - g["overlap"]})
    return rows


def ngram_marks(trace, t: str, k: int, *, side: str = "candidate") -> list[TokenMark]:
    """Marks for ROUGE-N: tokens in overlapping n-grams (the first ``overlap`` occurrences count), and
    candidate occurrences beyond the reference count marked as clipped."""
    r = result(trace, t, k)
    view = trace.candidate if side == "candidate" else trace.references[k]
    spans = token_spans(view)
    if r is None or not r.detail or "ngrams" not in r.detail:
        return [TokenMark(s.start, s.end, title=f"token {i + 1} ‘{s.text}’") for i, s in enumerate(spans)
                if s.start is not None]
    n = r.detail.get("n", 1)
    order = [0] * len(spans)
    clipped: dict[int, str] = {}
    for g in r.detail["ngrams"]:
        pos = g["cand_positions"] if side == "candidate" else g["ref_positions"]
        for idx, p in enumerate(pos):
            if idx < g["overlap"]:
                for i in range(p, min(p + n, len(spans))):
                    order[i] = max(order[i], n)
            elif side == "candidate" and g["ref_count"] > 0 and n == 1:
                clipped[p] = (f"occurrence {idx + 1} of {g['cand_count']} of ‘{' '.join(g['ngram'])}’ is beyond "
                              f"its {g['ref_count']} occurrence(s) in reference {k + 1}: not counted")
    marks = []
    for i, s in enumerate(spans):
        if s.start is None:
            continue
        title = (f"token {i + 1} ‘{s.text}’: in an overlapping {n}-gram" if order[i]
                 else f"token {i + 1} ‘{s.text}’: no overlap")
        if i in clipped:
            title += "; " + clipped[i]
        marks.append(TokenMark(s.start, s.end, order=order[i], clipped=i in clipped, title=title))
    return marks


def lcs_marks(trace, k: int, t: str = "rougeL", *, side: str = "candidate") -> list[TokenMark]:
    r = result(trace, t, k)
    view = trace.candidate if side == "candidate" else trace.references[k]
    spans = token_spans(view)
    picked: dict[int, int] = {}
    if r is not None and r.detail and "pairs" in r.detail:
        for rank, (ri, ci) in enumerate(r.detail["pairs"]):
            picked[ci if side == "candidate" else ri] = rank + 1
    marks = []
    for i, s in enumerate(spans):
        if s.start is None:
            continue
        if i in picked:
            # labelled with its rank in the LCS ("L3" = third LCS token), not "1", which reads as "1-gram"
            title = f"token {i + 1} ‘{s.text}’: LCS token {picked[i]} of {len(picked)}"
            marks.append(TokenMark(s.start, s.end, order=1, title=title, label=f"L{picked[i]}"))
        else:
            marks.append(TokenMark(s.start, s.end, title=f"token {i + 1} ‘{s.text}’: not in the LCS"))
    return marks


def lcs_alignment_rows(trace, k: int, t: str = "rougeL") -> list[dict]:
    r = result(trace, t, k)
    if r is None or not r.detail or "pairs" not in r.detail:
        return []
    cs, rs = trace.candidate.tokenized, trace.references[k].tokenized
    rows = []
    for rank, (ri, ci) in enumerate(r.detail["pairs"]):
        rows.append({"#": rank + 1, "candidate token": f"{ci + 1}: {cs.surface[ci]}",
                     "reference token": f"{ri + 1}: {rs.surface[ri]}", "compared as": cs.tokens[ci]})
    return rows


def lsum_rows(trace, k: int, t: str = "rougeLsum") -> list[dict]:
    """ROUGE-Lsum: per reference sentence, the LCS with each candidate sentence, their union, and the hits
    counted after the unigram budgets."""
    r = result(trace, t, k)
    if r is None or not r.detail or "per_ref_sentence" not in r.detail:
        return []
    rows = []
    for n, ps in enumerate(r.detail["per_ref_sentence"]):
        toks = ps.get("tokens", [])
        per = "; ".join(f"cand sent {x.get('cand_sentence', j) + 1}: "
                        f"{x.get('lcs_length', len(x.get('ref_indices', [])))} "
                        f"[{', '.join(_token_at(toks, i) for i in x.get('ref_indices', []))}]"
                        for j, x in enumerate(ps.get("lcs_per_cand_sentence", [])))
        union = ps.get("union", [])
        # clipped: [{ref_index, token}] (docs/trace-schema-rouge.md); a bare position is read as the index
        clipped = [str(c.get("token", c.get("ref_index", "?"))) if isinstance(c, dict) else _token_at(toks, c)
                   for c in ps.get("clipped", [])]
        rows.append({"reference sentence": ps.get("ref_sentence", n) + 1, "tokens": " ".join(toks),
                     "LCS with each candidate sentence": per,
                     "union of hits": ", ".join(_token_at(toks, i) for i in union),
                     "hits counted": ps.get("hits", len(union)),
                     "clipped by budget": ", ".join(clipped) or "—"})
    return rows


def _token_at(toks: list[str], i) -> str:
    """The token at position i of a reference sentence; anything that is not a position there, as text."""
    return toks[i] if isinstance(i, int) and 0 <= i < len(toks) else str(i)


def winner_rows(trace) -> list[dict]:
    """With several references: which one each type kept (or that counts were pooled)."""
    rows = []
    for t, s in trace.scores.items():
        k = trace.chosen_reference.get(t)
        per = []
        for pr in trace.per_reference:
            res = pr.get(t)
            per.append(fmt_score(res.score.fmeasure) if res is not None else "—")
        rows.append({"type": type_label(t), "kept": "pooled (all references)" if k is None else f"ref {k + 1}",
                     "F per reference (1 · 2 · …)": " · ".join(per), "final F": fmt_score(s.fmeasure)})
    return rows


def kept_note(trace, k: int) -> str:
    """What the headline does with reference k, in the words of the 'Which reference won' table ('kept',
    'pooled')."""
    kept, pooled, elsewhere = [], [], {}
    for t, c in trace.chosen_reference.items():
        if c is None:
            pooled.append(type_label(t))
        elif c == k:
            kept.append(type_label(t))
        else:
            elsewhere.setdefault(c, []).append(type_label(t))
    parts = []
    if kept:
        parts.append(f"reference {k + 1} is the one kept for {', '.join(kept)}")
    for c, labels in sorted(elsewhere.items()):
        parts.append(f"reference {c + 1} is kept for {', '.join(labels)}")
    if pooled:
        parts.append(f"{', '.join(pooled)}: pooled (all references)")
    return "In the headline: " + "; ".join(parts) + "." if parts else ""


def detail(trace, t: str, k: int) -> dict[str, Any]:
    r = result(trace, t, k)
    return (r.detail or {}) if r is not None else {}


def pooled_rows(trace) -> list[dict]:
    """With counts pooled over the references (ROUGE-1.5.5 -f A): the sums that give the headline numbers, so
    the per-reference details below add up to them. Empty when no type was pooled."""
    rows = []
    for t, pool in (trace.pooled or {}).items():
        s = trace.scores.get(t)
        if s is None:
            continue
        if "hits" not in pool:  # the script died on this type: no sums, say why
            rows.append({"type": type_label(t), "references": len(trace.references), "Σ hits": None,
                         "Σ reference size": None, "Σ candidate size": None, "P": None, "R": None, "F": None,
                         "how": pool.get("died_why") or pool.get("died") or "not pooled", "rule": pool.get("rule", "")})
            continue
        w = t.startswith("rougeW")
        rows.append({"type": type_label(t), "references": pool.get("references"),
                     "Σ hits": pool["hits"], "Σ reference size": pool["ref_total"],
                     "Σ candidate size": pool["cand_total"],
                     "P": s.precision, "R": s.recall, "F": s.fmeasure,
                     "how": ("P = f⁻¹(Σ hits / Σ candidate size), R = f⁻¹(Σ hits / Σ reference size)" if w else
                             "P = Σ hits / Σ candidate size, R = Σ hits / Σ reference size"),
                     "rule": pool.get("rule", "")})
    return rows


def wlcs_rows(trace, t: str, k: int) -> list[dict]:
    """ROUGE-W against reference k: per reference sentence, the runs of consecutive hits on the chosen path,
    their weights f(k) and the open run the scripts drop at a sentence end (so the runs add up to the hits)."""
    d = detail(trace, t, k)
    rows = []
    for n, p in enumerate(d.get("per_ref_sentence", [])):
        runs, weights = p.get("runs", []), p.get("run_weights", [])
        rows.append({"reference sentence": p.get("ref_sentence", n) + 1,
                     "runs k of consecutive hits": ", ".join(map(str, runs)) or "—",
                     "f(k)": ", ".join(f"{x:.4f}" for x in weights) or "—",
                     "Σ f(k)": sum(weights),
                     _OPEN_RUN_COLUMN: p.get("dropped_open_run", 0)})
    return rows


def wlcs_tables(trace, t: str, k: int) -> list[dict]:
    """The weighted-LCS tables against reference k: [{ref_sentence, cand_sentence, table, run_table, pairs,
    wlcs}] as recorded in the trace, for the sentence pairs that share a token."""
    d = detail(trace, t, k)
    out = []
    for n, p in enumerate(d.get("per_ref_sentence", [])):
        for j, x in enumerate(p.get("lcs_per_cand_sentence", [])):
            if x.get("table") and x.get("pairs"):   # a pair without a common token has an all-zero table
                out.append({"ref_sentence": p.get("ref_sentence", n), "cand_sentence": x.get("cand_sentence", j),
                            "table": x["table"], "run_table": x.get("run_table"), "pairs": x.get("pairs", []),
                            "wlcs": x.get("wlcs")})
    return out


WLCS_TABLES_SHOWN = 3   # weighted-LCS tables drawn per ROUGE-W type (the trace has them all)
_OPEN_RUN_COLUMN = "open run dropped at the sentence end"


@dataclass(frozen=True)
class WlcsHeatmap:
    """One weighted-LCS table (a reference sentence × a candidate sentence) as ``charts.lcs_heatmap_figure``
    draws it."""

    key: str                 # a stable widget key
    table: dict              # the chart's table argument: row_index, col_index, values, rows, cols
    ref_tokens: list[str]
    cand_tokens: list[str]
    pairs: list
    title: str
    alt: str                 # the chart in words


def _sentence(sentence_tokens, i: int) -> list[str]:
    return sentence_tokens[i] if sentence_tokens and i < len(sentence_tokens) else []


def wlcs_heatmaps(trace, t: str, k: int, limit: int = WLCS_TABLES_SHOWN) -> list[WlcsHeatmap]:
    """The first ``limit`` of :func:`wlcs_tables` with the tokens of their sentences, ready to draw."""
    cand_sents, ref_sents = trace.candidate.sentence_tokens, trace.references[k].sentence_tokens
    out = []
    for x in wlcs_tables(trace, t, k)[:limit]:
        tab, rs, cs = x["table"], x["ref_sentence"], x["cand_sentence"]
        out.append(WlcsHeatmap(
            key=f"wlcs_{t}_{rs}_{cs}",
            table={"row_index": list(range(len(tab))), "col_index": list(range(len(tab[0]))), "values": tab,
                   "rows": len(tab) - 1, "cols": len(tab[0]) - 1},
            ref_tokens=_sentence(ref_sents, rs), cand_tokens=_sentence(cand_sents, cs), pairs=x["pairs"],
            title=f"Weighted LCS: reference sentence {rs + 1} × candidate sentence {cs + 1}",
            alt=f"weighted LCS table, reference sentence {rs + 1} and candidate sentence {cs + 1}: "
                f"weighted LCS {x['wlcs']:.4f}"))
    return out


def _wlcs_more_note(n_tables: int) -> str:
    if n_tables <= WLCS_TABLES_SHOWN:
        return ""
    return (f"{n_tables - WLCS_TABLES_SHOWN} more sentence pairs have a table; the trace (JSON download) holds "
            "them all.")


_OPEN_RUN_NOTE = ("A run of consecutive hits still open at the end of a sentence is not added by the weighted-LCS "
                  "code (rouge-score and ROUGE-1.5.5 alike), so it does not count towards the hits.")


# ------------------------------------------------------------------------------------------- view model
def fmt_score(x: float) -> str:
    """A ROUGE value as every part of the page shows it: 5 decimals (ROUGE-1.5.5 prints 5; the chart, the tables
    and the headline round the same value the same way)."""
    return f"{x:.5f}"


def _tex(x: float) -> str:
    from explainer.ui.bleu_view import tex_num

    return tex_num(x, 6) if not float(x).is_integer() else str(int(x))


def _tex_power(x: float) -> str:
    """1e-08 as 10^{-8} (an exact power of ten), anything else as ``_tex``."""
    e = round(math.log10(x))
    return rf"10^{{{e}}}" if 10.0 ** e == x else _tex(x)


def _dialect_class(trace) -> type:
    from explainer.rouge import DIALECTS

    return DIALECTS[trace.dialect]


def _f_note(trace) -> str:
    cls = _dialect_class(trace)
    if cls.weighted_f:
        return (f"F = P·R / ((1 − α)·P + α·R) with α = {cls.f_alpha(trace.options):g}; ROUGE-1.5.5 prints P and R "
                "rounded to 5 decimals and computes F from the rounded values.")
    if cls.f_epsilon:
        eps = f"{cls.f_epsilon:g}".replace("e-0", "e-")
        return (f"F = 2·P·R / (P + R + {eps}): {cls.label} adds {eps} to the denominator, so "
                "F is never exactly the harmonic mean of P and R (0 when both are 0).")
    return "F = 2·P·R / (P + R), the harmonic mean of P and R (0 when both are 0)."


def _f_latex(trace, p: float, r: float, f: float) -> str:
    """F from P and R as the dialect computes it, with the numbers shown."""
    ps, rs = fmt_score(p), fmt_score(r)
    cls = _dialect_class(trace)
    if cls.weighted_f:
        a = cls.f_alpha(trace.options)
        if p == 0 or r == 0:
            return r"F = 0\quad\text{(P or R is 0)}"
        value = p * r / ((1 - a) * p + a * r)
        if math.isclose(round(value, 5), f, abs_tol=1.5e-5):
            return (rf"\begin{{aligned}}F &= \frac{{P\cdot R}}{{(1-\alpha)P + \alpha R}}\\ &= \frac{{{ps}\cdot {rs}}}"
                    rf"{{{_tex(1 - a)}\cdot {ps} + {_tex(a)}\cdot {rs}}} = {fmt_score(f)}\end{{aligned}}")
    else:
        if p + r == 0:
            return r"F = 0\quad\text{(P + R = 0)}"
        eps = cls.f_epsilon
        plus = rf" + {_tex_power(eps)}" if eps else ""
        if math.isclose(2 * p * r / (p + r + eps), f, rel_tol=1e-9, abs_tol=1e-12):
            return (rf"\begin{{aligned}}F &= \frac{{2PR}}{{P + R{plus}}}\\ "
                    rf"&= \frac{{2\cdot {ps}\cdot {rs}}}{{{ps} + {rs}{plus}}} = {fmt_score(f)}\end{{aligned}}")
    return rf"F = {fmt_score(f)}"


def _frac_latex(sym: str, num_label: str, den_label: str, hits: float, total: float, value: float) -> str:
    if not total:
        return rf"{sym} = {fmt_score(value)}\quad\text{{(there are no {den_label}: 0/0 counts as 0)}}"
    return (rf"{sym} = \frac{{\text{{{num_label}}}}}{{\text{{{den_label}}}}} = \frac{{{_tex(hits)}}}{{{_tex(total)}}}"
            rf" = {fmt_score(value)}")


_LABELS = {  # what hits / candidate total / reference total count, per kind of type
    "N": ("overlap", "candidate n-grams", "reference n-grams"),
    "L": ("LCS", "candidate tokens", "reference tokens"),
    "Lsum": ("union LCS hits", "candidate tokens", "reference tokens"),
    "S": ("skip-bigram hits", "candidate skip-bigrams", "reference skip-bigrams"),
}


def prf_latex(trace, t: str, k: int) -> list[str]:
    """P, R (as fractions of the counts) and F (with the numbers) of type t against reference k: three LaTeX
    lines. ROUGE-W: P = f⁻¹(weighted hits / f(candidate tokens)), R likewise over the weighted reference length."""
    res = result(trace, t, k)
    if res is None:
        return []
    s = res.score
    from explainer.rouge.types import parse_type

    kind = parse_type(t).kind
    if kind == "W":
        out = _wlcs_latex(res)
        if out is None:
            return [rf"P = {fmt_score(s.precision)},\quad R = {fmt_score(s.recall)}", _f_latex(trace, s.precision,
                                                                                             s.recall, s.fmeasure)]
        return out + [_f_latex(trace, s.precision, s.recall, s.fmeasure)]
    key = "Lsum" if t == "rougeLsum" else ("S" if kind in ("S", "SU") else ("L" if kind == "L" else "N"))
    hit, cand, ref = _LABELS[key]
    out = []
    if math.isclose(res.hits / res.cand_total if res.cand_total else 0.0, s.precision, abs_tol=6e-6):
        out.append(_frac_latex("P", hit, cand, res.hits, res.cand_total, s.precision))
    else:
        out.append(rf"P = {fmt_score(s.precision)}")
    if math.isclose(res.hits / res.ref_total if res.ref_total else 0.0, s.recall, abs_tol=6e-6):
        out.append(_frac_latex("R", hit, ref, res.hits, res.ref_total, s.recall))
    else:
        out.append(rf"R = {fmt_score(s.recall)}")
    return out + [_f_latex(trace, s.precision, s.recall, s.fmeasure)]


def _wlcs_latex(res) -> list[str] | None:
    d = res.detail or {}
    w, hits, cand, refw = d.get("weight"), d.get("hits"), d.get("cand_tokens"), d.get("ref_weight")
    if None in (w, hits, cand, refw) or not cand or not refw:
        return None
    p = (hits / cand ** w) ** (1 / w)
    r = (hits / refw ** w) ** (1 / w)
    if not (math.isclose(p, res.score.precision, abs_tol=6e-6) and math.isclose(r, res.score.recall, abs_tol=6e-6)):
        return None
    return [rf"\begin{{aligned}}P &= f^{{-1}}\!\left(\frac{{\text{{weighted hits}}}}"
            rf"{{f(\text{{candidate tokens}})}}\right)"
            rf"\\ &= \left(\frac{{{_tex(hits)}}}{{{_tex(cand)}^{{{w:g}}}}}\right)^{{1/{w:g}}} = "
            rf"{fmt_score(res.score.precision)}\end{{aligned}}",
            rf"\begin{{aligned}}R &= f^{{-1}}\!\left(\frac{{\text{{weighted hits}}}}"
            rf"{{f(\textstyle\sum_s f(|r_s|))}}\right)"
            rf"\\ &= \left(\frac{{{_tex(hits)}}}{{{_tex(refw)}^{{{w:g}}}}}\right)^{{1/{w:g}}} = "
            rf"{fmt_score(res.score.recall)}\end{{aligned}}"]


@dataclass(frozen=True)
class NgramDetail:
    label: str
    heading: str
    cand_marks: list
    ref_marks: list
    rows: list[dict]
    formulas: list[str]


@dataclass(frozen=True)
class LcsDetail:
    heading: str
    table: dict
    ref_tokens: list[str]
    cand_tokens: list[str]
    pairs: list
    cand_marks: list
    ref_marks: list
    rows: list[dict]
    tie_note: str
    formulas: list[str]
    alt: str


@dataclass(frozen=True)
class LsumDetail:
    heading: str
    rows: list[dict]
    union_note: str
    formulas: list[str]


@dataclass(frozen=True)
class OtherDetail:
    type: str
    label: str
    summary: str
    formula_note: str
    formulas: list[str]
    skip_rows: list[dict]
    wlcs_note: str
    wlcs_rows: list[dict]
    wlcs_open_run_note: str          # said when a row drops an open run ("" otherwise)
    wlcs_heatmaps: list[WlcsHeatmap]  # the first WLCS_TABLES_SHOWN tables
    wlcs_more_note: str              # how many tables are not drawn ("" when none)


@dataclass(frozen=True)
class ReferenceDetails:
    """Everything the ROUGE section shows against one reference (``reference_details``)."""

    k: int
    cand_text: str
    ref_text: str
    ngrams: list[NgramDetail]
    lcs: LcsDetail | None
    lsum: LsumDetail | None
    others: list[OtherDetail]


@dataclass(frozen=True)
class RougeView:
    """The ROUGE section's summary (``rouge_view``); the per-reference parts come from ``reference_details``."""

    title: str
    caption: str
    prf_rows: list[dict]            # for the chart (numbers) ...
    table_rows: list[dict]          # ... and the table (the same values, as the chart labels them)
    chart_alt: str
    several: bool
    winner_rows: list[dict]
    pooled_rows: list[dict]
    pooled_caption: str
    default_reference: int
    f_note: str                     # how F is made from P and R (rounding), said once


def rouge_view(trace) -> RougeView:
    prf = prf_rows(trace)
    several = len(trace.references) > 1
    pooled = pooled_rows(trace) if several else []
    first = trace.types[0] if trace.types else None
    kept = trace.chosen_reference.get(first)
    return RougeView(
        title=f"ROUGE step by step — {trace.dialect_label}",
        caption=f"Tokenizer: {trace.tokenizer}. Stemmer: {trace.stemmer or 'off'}. Several references: "
                f"{trace.multi_ref_note}",
        prf_rows=prf,
        table_rows=[{"type": r["label"], "precision": fmt_score(r["precision"]), "recall": fmt_score(r["recall"]),
                     "F-measure": fmt_score(r["fmeasure"])} for r in prf],
        chart_alt="ROUGE precision, recall and F-measure: " + "; ".join(
            f"{r['label']} P {fmt_score(r['precision'])} R {fmt_score(r['recall'])} F {fmt_score(r['fmeasure'])}"
            for r in prf),
        several=several, winner_rows=winner_rows(trace) if several else [],
        pooled_rows=[{k: v for k, v in r.items() if k != "rule"} for r in pooled] if several else [],
        pooled_caption=(next((r["rule"] for r in pooled if r["rule"]), "") + ". The details below are against one "
                        "reference at a time; their hits and "
                        "sizes, summed over the references, give this table.") if several and pooled else "",
        default_reference=kept if type(kept) is int and 0 <= kept < len(trace.references) else 0,
        f_note=_f_note(trace))


def _ngram_details(trace, k: int) -> list[NgramDetail]:
    out = []
    for t in trace.types:
        if not (t.startswith("rouge") and t[5:].isdigit()):
            continue
        res = result(trace, t, k)
        if res is None:
            continue
        out.append(NgramDetail(
            type_label(t), f"{type_label(t)} — overlap {res.hits:g} of {res.ref_total:g} reference and "
                           f"{res.cand_total:g} candidate n-grams",
            ngram_marks(trace, t, k), ngram_marks(trace, t, k, side="reference"), overlap_rows(trace, t, k),
            prf_latex(trace, t, k)))
    return out


def _lcs_detail(trace, k: int) -> LcsDetail | None:
    if "rougeL" not in trace.types:
        return None
    res, d = result(trace, "rougeL", k), detail(trace, "rougeL", k)
    if res is None or not d.get("table"):
        return None
    n = d.get("lcs_length", res.hits)
    return LcsDetail(
        heading=f"ROUGE-L — longest common subsequence {n:g} tokens", table=d["table"],
        ref_tokens=list(trace.references[k].tokenized.tokens), cand_tokens=list(trace.candidate.tokenized.tokens),
        pairs=list(d.get("pairs", [])), cand_marks=lcs_marks(trace, k), ref_marks=lcs_marks(trace, k, side="reference"),
        rows=lcs_alignment_rows(trace, k),
        tie_note=(f"Another LCS of the same length exists; the backtrace picks this one ({d.get('tie_rule', '')})."
                  if d.get("alternative_lcs_exists") else ""),
        formulas=prf_latex(trace, "rougeL", k),
        alt=f"LCS dynamic-programming table; the longest common subsequence has {n:g} tokens")


def _lsum_detail(trace, k: int) -> LsumDetail | None:
    if "rougeLsum" not in trace.types:
        return None
    rows = lsum_rows(trace, k)
    res = result(trace, "rougeLsum", k)
    if not rows or res is None:
        return None
    hits = [r["hits counted"] for r in rows]
    return LsumDetail(
        heading="ROUGE-Lsum — union LCS per reference sentence (one sentence per line)", rows=rows,
        union_note=(f"Union hits over the reference's {res.ref_total:g} tokens: "
                    + " + ".join(f"{h:g}" for h in hits) + f" = {res.hits:g} (one term per reference sentence); "
                    f"the candidate has {res.cand_total:g} tokens."),
        formulas=prf_latex(trace, "rougeLsum", k))


def _other_details(trace, k: int) -> list[OtherDetail]:
    out = []
    for t in trace.types:
        if not (t.startswith("rougeW") or t.startswith("rougeS")):
            continue
        res = result(trace, t, k)
        if res is None:
            continue
        d = res.detail or {}
        grams = d.get("skip_bigrams") or []
        out.append(OtherDetail(
            type=t, label=type_label(t),
            summary=(f"hits {res.hits:g}, reference total {res.ref_total:g}, candidate total {res.cand_total:g}: "
                     f"P {fmt_score(res.score.precision)}, R {fmt_score(res.score.recall)}, "
                     f"F {fmt_score(res.score.fmeasure)}"),
            formula_note=d.get("formula", ""), formulas=prf_latex(trace, t, k),
            skip_rows=[{"skip-bigram": " … ".join(g["gram"]), "candidate": g["cand_count"],
                        "reference": g["ref_count"], "overlap": g["overlap"]} for g in grams],
            **(_wlcs_parts(trace, t, k, d) if t.startswith("rougeW") else _NO_WLCS)))
    return out


_NO_WLCS = {"wlcs_note": "", "wlcs_rows": [], "wlcs_open_run_note": "", "wlcs_heatmaps": [], "wlcs_more_note": ""}


def _wlcs_parts(trace, t: str, k: int, d: dict) -> dict:
    """ROUGE-W's parts of an OtherDetail: f(k) and its inverse, the runs per reference sentence, the tables."""
    rows = wlcs_rows(trace, t, k)
    return {"wlcs_note": f"{d['f']}; {d.get('f_inverse', '')}" if d.get("f") else "",
            "wlcs_rows": rows,
            "wlcs_open_run_note": _OPEN_RUN_NOTE if any(r[_OPEN_RUN_COLUMN] for r in rows) else "",
            "wlcs_heatmaps": wlcs_heatmaps(trace, t, k),
            "wlcs_more_note": _wlcs_more_note(len(wlcs_tables(trace, t, k)))}


def reference_details(trace, k: int) -> ReferenceDetails:
    return ReferenceDetails(k=k, cand_text=trace.candidate.tokenized.text, ref_text=trace.references[k].tokenized.text,
                            ngrams=_ngram_details(trace, k), lcs=_lcs_detail(trace, k), lsum=_lsum_detail(trace, k),
                            others=_other_details(trace, k))


LSUM_CSS = """<style>
table.xp-lsum{border-collapse:collapse;width:100%;font-size:.95rem;margin:.3rem 0 .6rem 0}
table.xp-lsum th,table.xp-lsum td{border-bottom:1px solid rgba(128,128,128,.35);padding:.35em .5em;text-align:left;
  vertical-align:top;overflow-wrap:anywhere}
table.xp-lsum th{font-weight:600;font-size:max(14px,.875rem)}
table.xp-lsum td.num{text-align:right;white-space:nowrap}
</style>"""

_LSUM_HEAD = (("reference sentence", "ref. sentence", False), ("tokens", "its tokens", False),
              ("LCS with each candidate sentence", "LCS with each candidate sentence", False),
              ("union of hits", "union of hits", False), ("hits counted", "hits", True),
              ("clipped by budget", "clipped by budget", False))


def lsum_html(rows: list[dict]) -> str:
    """The ROUGE-Lsum table as escaped HTML whose cells wrap, so that every column fits a narrow page (a data
    grid cut off its key columns at 1024 px)."""
    from explainer.ui.highlight import escape_text

    head = "".join(f"<th>{escape_text(label)}</th>" for _, label, _ in _LSUM_HEAD)
    body = "".join("<tr>" + "".join(f'<td class="{"num" if num else ""}">{escape_text(str(r.get(key, "")))}</td>'
                                    for key, _, num in _LSUM_HEAD) + "</tr>" for r in rows)
    return f'<table class="xp-lsum" aria-label="ROUGE-Lsum per reference sentence"><tr>{head}</tr>{body}</table>'
