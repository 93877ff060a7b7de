"""N-grams one system matches in the references that the other does not (compare-mt's n-gram analysis, with
BLEU's own clipped counts).

For every segment and every n-gram of order 1..N the clipped match count is the one BLEU uses:
``min(count in the candidate, maximum count in any reference)``, under the report's dialect (its tokenizer,
lowercasing, order). Summed over the corpus, each n-gram gets a matched count per system; the records with the
largest difference, in each direction, list the segments where the difference occurs. The counts add up to the
``counts`` of the corpus traces (tests check it).
"""
from __future__ import annotations

from collections import defaultdict
from typing import Sequence

from explainer.ngrams import count_all_ngrams

__all__ = ["ngram_differences", "clipped_matches"]



def clipped_matches(tokens: Sequence[str], ref_ngrams, max_order: int) -> dict:
    """{n-gram: clipped count} of one candidate against the per-n-gram maximum over its references."""
    out = {}
    if not ref_ngrams:
        return out
    for ng, k in count_all_ngrams(tokens, max_order).items():
        rk = ref_ngrams.get(ng)
        if rk:
            out[ng] = k if k < rk else rk
    return out


def ngram_differences(report, i: int, baseline: int = 0, *, k: int = 15, orders: Sequence[int] | None = None) -> dict:
    """Top-k n-grams system ``i`` matches more often than the baseline (``better``) and less often (``worse``)."""
    d = report.d
    N = d.max_order
    keep = set(orders) if orders else set(range(1, N + 1))
    sys_lines = report.testset.systems[i][1]
    base_lines = report.testset.systems[baseline][1]
    matched_s: dict = defaultdict(int)
    matched_b: dict = defaultdict(int)
    segs_better: dict = defaultdict(list)
    segs_worse: dict = defaultdict(list)
    prepared = report.prepared_refs
    if prepared is None:   # the report did not keep them (the page saves the memory): tokenize the references again
        from explainer.bleu.algorithm import prepare_references

        prepared = (prepare_references(d, refs) for refs in report.testset.references)
    for seg, (prep, hs, hb) in enumerate(zip(prepared, sys_lines, base_lines)):
        ref_ngrams = prep[0]
        if not ref_ngrams:
            continue
        ms = clipped_matches(d.tokenize(hs), ref_ngrams, N) if hs != hb else None
        mb = clipped_matches(d.tokenize(hb), ref_ngrams, N)
        if ms is None:              # identical outputs: same matches, no difference in this segment
            ms = mb
        for ng, c in ms.items():
            matched_s[ng] += c
        for ng, c in mb.items():
            matched_b[ng] += c
        if ms is mb:
            continue
        for ng in set(ms) | set(mb):
            a, b = ms.get(ng, 0), mb.get(ng, 0)
            if a > b:
                segs_better[ng].append(seg + 1)
            elif a < b:
                segs_worse[ng].append(seg + 1)
    diffs = []
    for ng in set(matched_s) | set(matched_b):
        if len(ng) not in keep:
            continue
        a, b = matched_s.get(ng, 0), matched_b.get(ng, 0)
        if a != b:
            diffs.append((a - b, ng, a, b))

    def rec(delta, ng, a, b, segs):
        return {"ngram": " ".join(ng), "n": len(ng), "system": a, "baseline": b, "difference": delta,
                "segments": segs, "n_segments": len(segs)}

    better = sorted((x for x in diffs if x[0] > 0), key=lambda x: (-x[0], -x[2], x[1]))[:k]
    worse = sorted((x for x in diffs if x[0] < 0), key=lambda x: (x[0], -x[3], x[1]))[:k]
    totals_s = [0] * N
    totals_b = [0] * N
    for ng, c in matched_s.items():
        totals_s[len(ng) - 1] += c
    for ng, c in matched_b.items():
        totals_b[len(ng) - 1] += c
    return {"system": report.systems[i].name, "baseline": report.systems[baseline].name,
            "orders": sorted(keep),
            "better": [rec(*x, segs_better[x[1]]) for x in better],
            "worse": [rec(*x, segs_worse[x[1]]) for x in worse],
            "matched_per_order": {"system": totals_s, "baseline": totals_b}}
