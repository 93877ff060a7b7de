"""ROUGE-W: weighted LCS as ROUGE-1.5.5 computes it (docs/dialects-rouge155.md), f(k) = k^w.

DP rows are reference tokens. On equal tokens the move is always diagonal, adding f(k+1) - f(k) where k is
the run length ending at (i-1, j-1); otherwise up (drop a reference token) when c[i-1][j] >= c[i][j-1],
else left. The backtrace marks reference positions. Summary level: per reference sentence, union the
marked positions over candidate sentences, walk them with the ROUGE-L unigram budgets, and add f(run) for
every maximal run of consecutive counted reference positions (a position refused by the budget neither
extends nor closes a run — ROUGE-1.5.5's behaviour, replicated by py-rouge). A run still open at the end of
the sentence (its last counted position is followed only by marked positions the budget refused) is never
closed, so it is not scored either: the script's quirk, recorded as ``dropped_open_run``.
Scores (ROUGE-1.5.5, double weighting of the reference): P = f^-1(hits / f(|C|)),
R = f^-1(hits / f(sum_i f(|r_i|))). Several references pooled (-f A): P = f^-1(sum hits / sum_i f(|C|)),
R = f^-1(sum hits / sum_i f(ref_weight_i)) (``wlcs_pooled_scores``).

Weights: ROUGE-1.5.5 accepts any w > 0 (``-w``; "typically 1.2 or other number greater than 1"), and so does
the explainer. Below 1, f is concave and scores can exceed 1 (the dialects add a note to the trace). Weights in
[1, ``SAFE_WEIGHT``] never overflow a double for texts within the explainer's input limit (scores stay <= 1); a
weight outside that range on texts where f or f^-1 overflows raises ``WeightOverflowError`` (a ValueError) instead
of carrying infinities into the scores as the script would (Perl's pow returns inf; Python raises OverflowError).
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Sequence

from explainer.errors import ExplainerInputError

__all__ = ["wlcs", "summary_wlcs", "f_weight", "f_inverse", "wlcs_scores", "wlcs_pooled_scores",
           "WLCS_MAX_CELLS", "SAFE_WEIGHT", "WeightOverflowError", "weight_note"]

# The weighted DP has no bit-parallel shortcut (each cell depends on the run length), so it is plain Python:
# refuse sentence pairs above this size with a clear message instead of running for minutes.
WLCS_MAX_CELLS = 6_000_000
#: traces keep the weighted-LCS table of a sentence pair up to this many cells (both the core and rouge155)
WLCS_TABLE_MAX_CELLS = 40_000


# (2e5 tokens)^(7^2) ~ 1e260: with at most 200,000 characters per text (so at most 200,000 tokens), f(k),
# f(sum_i f(|r_i|)) and their pooled sums stay finite for every weight from 1 to 7, and for w >= 1 the ratios
# given to f^-1 are <= 1. Below 1, f^-1(x) = x^(1/w) can overflow (P can reach |C|^((1-w)/w)).
SAFE_WEIGHT = 7.0


class WeightOverflowError(ExplainerInputError):
    """A ROUGE-W weight so large that k^w (or its inverse) is beyond the largest double for this text."""


def _overflow(w: float, what: str) -> WeightOverflowError:
    return WeightOverflowError(
        f"ROUGE-W weight {w:g} is too {'large' if w > 1 else 'small'} for these texts: {what} is beyond the largest "
        f"floating-point number (about 1.8e308). ROUGE-1.5.5 accepts any weight > 0 but would carry on with "
        f"infinity and print inf, 0 or nan here. Weights from 1 to {SAFE_WEIGHT:g} never overflow (ROUGE-W is "
        f"normally run with 1.2).")


def f_weight(k: float, w: float) -> float:
    """f(k) = k^w (Perl's ``**``); a clear WeightOverflowError instead of OverflowError or inf."""
    try:
        v = k ** w
    except OverflowError:
        raise _overflow(w, f"f({k:.6g}) = {k:.6g}^{w:g}") from None
    if v == math.inf:
        raise _overflow(w, f"f({k:.6g}) = {k:.6g}^{w:g}")
    return v


def f_inverse(x: float, w: float) -> float:
    """f^-1(x) = x^(1/w)."""
    try:
        v = x ** (1.0 / w)
    except OverflowError:
        raise _overflow(w, f"f^-1({x:.6g}) = {x:.6g}^(1/{w:g})") from None
    if v == math.inf:
        raise _overflow(w, f"f^-1({x:.6g}) = {x:.6g}^(1/{w:g})")
    return v


def _finite_sum(values, w: float, what: str) -> float:
    total = 0.0
    for v in values:
        total += v
    if total == math.inf:
        raise _overflow(w, what)
    return total


def weight_note(name: str, w: float) -> str | None:
    """The loud note for weights below 1 (ROUGE-1.5.5 computes them; the numbers are not what ROUGE-W means)."""
    if w >= 1:
        return None
    return (f"{name}: the weight {w:g} is below 1. ROUGE-1.5.5 accepts any weight > 0 and computes these numbers, "
            f"but f(k) = k^{w:g} grows slower than k, so a run of consecutive matches is worth less than its "
            f"tokens counted apart and precision/recall can exceed 1 (a text of n tokens against itself gets "
            f"R = n^(1-w)). The script's usage says the weight is 'typically 1.2 or other number greater than 1'.")


def wlcs(ref: Sequence[str], can: Sequence[str], w: float, *, keep_table: bool = False) -> dict:
    """Weighted LCS of one sentence pair: value, marked (ref, cand) pairs, and optionally the table."""
    m, n = len(ref), len(can)
    if m * n > WLCS_MAX_CELLS:
        raise ExplainerInputError(
            f"ROUGE-W needs a {m:,} x {n:,} weighted-LCS table for one sentence pair ({m * n:,} cells); the "
            f"explainer's limit is {WLCS_MAX_CELLS:,}. Split the text into sentences (one per line) or leave "
            "ROUGE-W out.")
    try:
        return _wlcs(ref, can, w, keep_table)
    except OverflowError:
        raise _overflow(w, f"f(k) = k^{w:g} for a run of up to {min(m, n):,} tokens") from None


def _wlcs(ref: Sequence[str], can: Sequence[str], w: float, keep_table: bool) -> dict:
    m, n = len(ref), len(can)
    prev_v = [0.0] * (n + 1)
    prev_k = [0] * (n + 1)
    dirs: list[bytearray] = [bytearray(n + 1)]
    table = [prev_v[:]] if keep_table else None
    run_table = [prev_k[:]] if keep_table else None
    for i in range(1, m + 1):
        cur_v = [0.0] * (n + 1)
        cur_k = [0] * (n + 1)
        d = bytearray(n + 1)
        x = ref[i - 1]
        for j in range(1, n + 1):
            if x == can[j - 1]:
                k = prev_k[j - 1]
                cur_v[j] = prev_v[j - 1] + (k + 1) ** w - k ** w
                cur_k[j] = k + 1
                d[j] = 1
            elif prev_v[j] >= cur_v[j - 1]:
                cur_v[j] = prev_v[j]
                d[j] = 2
            else:
                cur_v[j] = cur_v[j - 1]
                d[j] = 3
        dirs.append(d)
        if keep_table:
            table.append(cur_v[:])
            run_table.append(cur_k[:])
        prev_v, prev_k = cur_v, cur_k
    pairs = []
    i, j = m, n
    while i > 0 and j > 0:
        d = dirs[i][j]
        if d == 1:
            i -= 1
            j -= 1
            pairs.append((i, j))
        elif d == 2:
            i -= 1
        else:
            j -= 1
    pairs.reverse()
    value = prev_v[n] if m and n else 0.0
    if value == math.inf:
        raise OverflowError
    out = {"value": value, "pairs": pairs}
    if keep_table:
        out["table"] = table
        out["run_table"] = run_table
    return out


def summary_wlcs(ref_sents: Sequence[Sequence[str]], cand_sents: Sequence[Sequence[str]], w: float, *,
                 record: bool = False) -> dict:
    """Weighted hits over reference sentences with the unigram budgets; ``ref_weight`` = sum_i f(|r_i|)."""
    br: Counter = Counter()
    bc: Counter = Counter()
    for s in ref_sents:
        br.update(s)
    for s in cand_sents:
        bc.update(s)
    total = 0.0
    per = []
    for ri, r in enumerate(ref_sents):
        marked = set()
        per_c = []
        for ci, c in enumerate(cand_sents):
            res = wlcs(r, c, w, keep_table=record and len(r) * len(c) <= WLCS_TABLE_MAX_CELLS)
            marked.update(p[0] for p in res["pairs"])
            if record:
                rec = {"cand_sentence": ci, "wlcs": res["value"], "pairs": res["pairs"]}
                if "table" in res:
                    rec["table"] = res["table"]
                    rec["run_table"] = res["run_table"]
                per_c.append(rec)
        run = 0
        runs = []
        counted = []
        for k in range(len(r)):
            if k not in marked:
                continue
            t = r[k]
            if bc[t] > 0 and br[t] > 0:
                bc[t] -= 1
                br[t] -= 1
                counted.append(k)
                run += 1
                if k + 1 == len(r) or (k + 1) not in marked:
                    total += f_weight(run, w)
                    runs.append(run)
                    run = 0
        if record:
            # run > 0 here: the last counted positions were followed only by marked positions the budget refused,
            # so the run never closed and ROUGE-1.5.5 never adds f(run) (len(counted) == sum(runs) + this)
            per.append({"ref_sentence": ri, "marked": sorted(marked), "counted": counted, "runs": runs,
                        "run_weights": [f_weight(x, w) for x in runs], "dropped_open_run": run,
                        "lcs_per_cand_sentence": per_c})
    if total == math.inf:
        raise _overflow(w, "the sum of the weighted runs")
    ref_weight = _finite_sum((f_weight(len(r), w) for r in ref_sents), w, "the weighted reference length")
    cand_tokens = sum(map(len, cand_sents))
    out = {"hits": total, "ref_weight": ref_weight, "cand_tokens": cand_tokens, "weight": w}
    if record:
        out["per_ref_sentence"] = per
    return out


def wlcs_scores(hits: float, ref_weight: float, cand_tokens: int, w: float) -> tuple[float, float]:
    """(P, R) with ROUGE-1.5.5's formulas; 0 when a denominator is 0."""
    p = f_inverse(hits / f_weight(cand_tokens, w), w) if cand_tokens else 0.0
    r = f_inverse(hits / f_weight(ref_weight, w), w) if ref_weight else 0.0
    return p, r


def wlcs_pooled_scores(hits: Sequence[float], ref_weights: Sequence[float], cand_tokens: Sequence[int],
                       w: float) -> dict:
    """Several references pooled as ROUGE-1.5.5 -f A pools ROUGE-W: each reference adds its hits, f(ref_weight_i)
    (so the reference length is weighted twice, per reference) and f(|C|); then
    P = f^-1(sum hits / sum_i f(|C|)), R = f^-1(sum hits / sum_i f(ref_weight_i)) (0 when a denominator is 0).
    Returns {precision, recall, hits, ref_total, cand_total} with the pooled (weighted) denominators."""
    h = 0.0
    rden = 0.0
    cden = 0.0
    for hi, rw, ct in zip(hits, ref_weights, cand_tokens):  # in reference order, as the script sums
        h += hi
        rden += f_weight(rw, w)
        cden += f_weight(ct, w)
    if math.inf in (h, rden, cden):
        raise _overflow(w, "a pooled ROUGE-W sum")
    p = f_inverse(h / cden, w) if cden else 0.0
    r = f_inverse(h / rden, w) if rden else 0.0
    return {"precision": p, "recall": r, "hits": h, "ref_total": rden, "cand_total": cden}
