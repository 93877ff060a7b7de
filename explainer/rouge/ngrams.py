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
    for i in range(len(cand) - n + 1):
        pos_c.setdefault(tuple(cand[i:i + n]), []).append(i)
    for i in range(len(ref) - n + 1):
        pos_r.setdefault(tuple(ref[i:i + n]), []).append(i)
    rows = []
    for g in list(pos_c) + [g for g in pos_r if g not in pos_c]:
        c = len(pos_c.get(g, ()))
        r = len(pos_r.get(g, ()))
        rows.append({"ngram": list(g), "cand_count": c, "ref_count": r, "overlap": min(c, r),
                     "cand_positions": pos_c.get(g, []), "ref_positions": pos_r.get(g, [])})
    return rows
