"""ROUGE-W: weighted LCS as ROUGE-1.5.5 computes it (rouge-dialects.md §6), f(k) = k^w.

DP rows are reference tokens. On equal tokens the move is always diagonal, adding f(k+1) - f(k) where k is
the run length ending at (i-1, j-1); otherwise up (drop a reference token) when c[i-1][j] >= c[i][j-1],
else left. The backtrace marks reference positions. Summary level: per reference sentence, union the
marked positions over candidate sentences, walk them with the ROUGE-L unigram budgets, and add f(run) for
every maximal run of consecutive counted reference positions (a position refused by the budget neither
extends nor closes a run — ROUGE-1.5.5's behaviour, replicated by py-rouge). A run still open at the end of
the sentence (its last counted position is followed only by marked positions the budget refused) is never
closed, so it is not scored either: the script's quirk, recorded as ``dropped_open_run``.
Scores (ROUGE-1.5.5, double weighting of the reference): P = f^-1(hits / f(|C|)),
R = f^-1(hits / f(sum_i f(|r_i|))).
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from explainer.errors import ExplainerInputError

__all__ = ["wlcs", "summary_wlcs", "f_weight", "f_inverse", "wlcs_scores", "wlcs_pooled_scores", "WLCS_MAX_CELLS"]

# The weighted DP has no bit-parallel shortcut (each cell depends on the run length), so it is plain Python:
# refuse sentence pairs above this size with a clear message instead of running for minutes.
WLCS_MAX_CELLS = 6_000_000


def f_weight(k: float, w: float) -> float:
    return k ** w


def f_inverse(x: float, w: float) -> float:
    return x ** (1.0 / w)


def wlcs(ref: Sequence[str], can: Sequence[str], w: float, *, keep_table: bool = False) -> dict:
    """Weighted LCS of one sentence pair: value, marked (ref, cand) pairs, and optionally the table."""
    m, n = len(ref), len(can)
    if m * n > WLCS_MAX_CELLS:
        raise ExplainerInputError(
            f"ROUGE-W needs a {m:,} x {n:,} weighted-LCS table for one sentence pair ({m * n:,} cells); the explainer's "
            f"limit is {WLCS_MAX_CELLS:,}. Split the text into sentences (one per line) or leave ROUGE-W out.")
    prev_v = [0.0] * (n + 1)
    prev_k = [0] * (n + 1)
    dirs: list[bytearray] = [bytearray(n + 1)]
    table = [prev_v[:]] if keep_table else None
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
    out = {"value": prev_v[n] if m and n else 0.0, "pairs": pairs}
    if keep_table:
        out["table"] = table
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
            res = wlcs(r, c, w, keep_table=record and len(r) * len(c) <= 40_000)
            marked.update(p[0] for p in res["pairs"])
            if record:
                per_c.append({"cand_sentence": ci, "wlcs": res["value"], "pairs": res["pairs"],
                              **({"table": res["table"]} if "table" in res else {})})
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
                    total += run ** w
                    runs.append(run)
                    run = 0
        if record:
            # run > 0 here: the last counted positions were followed only by marked positions the budget refused,
            # so the run never closed and ROUGE-1.5.5 never adds f(run) (len(counted) == sum(runs) + this)
            per.append({"ref_sentence": ri, "marked": sorted(marked), "counted": counted, "runs": runs,
                        "run_weights": [x ** w for x in runs], "dropped_open_run": run,
                        "lcs_per_cand_sentence": per_c})
    ref_weight = sum(len(r) ** w for r in ref_sents)
    cand_tokens = sum(map(len, cand_sents))
    out = {"hits": total, "ref_weight": ref_weight, "cand_tokens": cand_tokens, "weight": w}
    if record:
        out["per_ref_sentence"] = per
    return out


def wlcs_scores(hits: float, ref_weight: float, cand_tokens: int, w: float) -> tuple[float, float]:
    """(P, R) with ROUGE-1.5.5's formulas; 0 when a denominator is 0."""
    p = f_inverse(hits / cand_tokens ** w, w) if cand_tokens else 0.0
    r = f_inverse(hits / ref_weight ** w, w) if ref_weight else 0.0
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
    p = f_inverse(h / cden, w) if cden else 0.0
    r = f_inverse(h / rden, w) if rden else 0.0
    return {"precision": p, "recall": r, "hits": h, "ref_total": rden, "cand_total": cden}
