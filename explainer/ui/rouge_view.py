"""ROUGE trace -> what the Explain page shows. Pure: no Streamlit. Reads a RougeTrace; computes nothing new."""
from __future__ import annotations

from typing import Any

from explainer.ui.highlight import TokenMark

__all__ = ["type_label", "prf_rows", "overlap_rows", "ngram_marks", "lcs_marks", "lcs_alignment_rows",
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


def _tok_texts(view) -> list[str]:
    return list(view.tokenized.tokens)


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

        def tok(i) -> str:
            return toks[i] if isinstance(i, int) and 0 <= i < len(toks) else str(i)

        per = "; ".join(f"cand sent {x.get('cand_sentence', j) + 1}: "
                        f"{x.get('lcs_length', len(x.get('ref_indices', [])))} "
                        f"[{', '.join(tok(i) for i in x.get('ref_indices', []))}]"
                        for j, x in enumerate(ps.get("lcs_per_cand_sentence", [])))
        union = ps.get("union", [])
        # clipped: [{ref_index, token}] (docs/trace-schema-rouge.md); a bare position is read as the index
        clipped = [str(c.get("token", c.get("ref_index", "?"))) if isinstance(c, dict) else tok(c)
                   for c in ps.get("clipped", [])]
        rows.append({"reference sentence": ps.get("ref_sentence", n) + 1, "tokens": " ".join(toks),
                     "LCS with each candidate sentence": per,
                     "union of hits": ", ".join(tok(i) for i in union),
                     "hits counted": ps.get("hits", len(union)),
                     "clipped by budget": ", ".join(clipped) or "—"})
    return rows


def winner_rows(trace) -> list[dict]:
    """With several references: which one each type kept (or that counts were pooled)."""
    rows = []
    for t, s in trace.scores.items():
        k = trace.chosen_reference.get(t)
        per = []
        for j, pr in enumerate(trace.per_reference):
            res = pr.get(t)
            if res is not None:
                per.append(f"ref {j + 1}: F {res.score.fmeasure:.4f}")
        rows.append({"type": type_label(t), "kept": "pooled (all references)" if k is None else f"ref {k + 1}",
                     "F per reference": "; ".join(per), "final F": s.fmeasure})
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
                     "open run dropped at the sentence end": p.get("dropped_open_run", 0)})
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
