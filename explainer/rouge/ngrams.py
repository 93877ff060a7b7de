"""ROUGE-N: n-gram counts (multisets), clipped overlap min(cand, ref), with positions for a trace."""
from __future__ import annotations

from collections import Counter
from typing import Sequence

__all__ = ["ngram_counts", "ngram_overlap", "ngram_table"]


def ngram_counts(tokens: Sequence[str], n: int) -> Counter:
    """Same n-grams as rouge-score's ``_create_ngrams`` (tuples, across sentence boundaries)."""
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def ngram_overlap(ref: Sequence[str], cand: Sequence[str], n: int) -> tuple[int, int, int]:
    """(hits, reference n-grams, candidate n-grams); hits = sum over reference n-grams of min(counts)."""
    if n == 1:
        rc, cc = Counter(ref), Counter(cand)
    else:
        rc, cc = ngram_counts(ref, n), ngram_counts(cand, n)
    hits = 0
    for g, c in rc.items():
        o = cc.get(g)
        if o:
            hits += c if c < o else o
    return hits, max(len(ref) - n + 1, 0), max(len(cand) - n + 1, 0)


def ngram_table(ref: Sequence[str], cand: Sequence[str], n: int) -> list[dict]:
    """One row per distinct n-gram of either side, in order of first appearance (candidate first):
    candidate count, reference count, overlap and the start positions on each side."""
    pos_c: dict[tuple, list[int]] = {}
    pos_r: dict[tuple, list[int]] = {}
    grams_c = zip(*(cand[k:] for k in range(n))) if n > 0 else ()
    for i, g in enumerate(grams_c):
        lst = pos_c.get(g)
        if lst is None:
            pos_c[g] = [i]
        else:
            lst.append(i)
    for i, g in enumerate(zip(*(ref[k:] for k in range(n)))):
        lst = pos_r.get(g)
        if lst is None:
            pos_r[g] = [i]
        else:
            lst.append(i)
    rows = []
    empty: list[int] = []
    for g, pc in pos_c.items():
        pr = pos_r.get(g, empty)
        c, r = len(pc), len(pr)
        rows.append({"ngram": list(g), "cand_count": c, "ref_count": r, "overlap": c if c < r else r,
                     "cand_positions": pc, "ref_positions": pr})
    for g, pr in pos_r.items():
        if g not in pos_c:
            rows.append({"ngram": list(g), "cand_count": 0, "ref_count": len(pr), "overlap": 0,
                         "cand_positions": [], "ref_positions": pr})
    return rows
