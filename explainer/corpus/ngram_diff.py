"""N-grams one system matches in the references that the other does not (compare-mt's n-gram analysis, with
BLEU's own clipped counts).

For every segment and every n-gram of order 1..N the clipped match count is the one BLEU uses:
``min(count in the candidate, maximum count in any reference)``, under the report's dialect (its tokenizer,
lowercasing, order). Summed over the corpus, each n-gram gets a matched count per system. They are ranked as
compare-mt ranks them (``stat_utils.extract_salient_features``, its n-gram analysis with ``compare_type=match``):
by the smoothed match ratio ``(m_sys + alpha) / (m_sys + m_base + 2 alpha)`` (alpha = 1: Laplace), highest first
for the n-grams the system matches more, lowest first for those the baseline matches more. A raw count difference
would put ``,`` ``.`` and ``der`` on top (they are frequent, so their counts differ most by chance); the ratio
ranks n-grams one system gets consistently. Each record lists the segments where the difference occurs. The
counts add up to the ``counts`` of the corpus traces (tests check it).
"""
from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple, Sequence

from explainer.ngrams import count_all_ngrams

__all__ = ["ngram_differences", "clipped_matches", "match_ratio", "ALPHA"]


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


ALPHA = 1.0     # compare-mt's default smoothing (--ngram_alpha / alpha=1.0)


def match_ratio(a: float, b: float, alpha: float = ALPHA) -> float:
    """compare-mt's salience score of an n-gram matched ``a`` times by the system and ``b`` times by the
    baseline."""
    return (a + alpha) / (a + b + 2 * alpha)


def ngram_differences(report, i: int, baseline: int = 0, *, k: int = 15, orders: Sequence[int] | None = None,
                      alpha: float = ALPHA) -> dict:
    """Top-k n-grams system ``i`` matches more often than the baseline (``better``) and less often (``worse``),
    ranked by compare-mt's smoothed match ratio (:func:`match_ratio`)."""
    d = report.d
    N = d.max_order
    keep = set(orders) if orders else set(range(1, N + 1))
    m = _corpus_matches(d, _prepared_references(report), report.testset.systems[i][1],
                        report.testset.systems[baseline][1])
    diffs = []
    # an n-gram matched a different number of times in the corpus is matched so in some segment: only those
    for ng in m.segments_better.keys() | m.segments_worse.keys():
        if len(ng) not in keep:
            continue
        a, b = m.system.get(ng, 0), m.baseline.get(ng, 0)
        if a != b:
            diffs.append((a - b, ng, a, b))

    def rec(delta, ng, a, b, segs):
        return {"ngram": " ".join(ng), "n": len(ng), "system": a, "baseline": b, "difference": delta,
                "ratio": match_ratio(a, b, alpha), "segments": segs, "n_segments": len(segs)}

    better = sorted((x for x in diffs if x[0] > 0), key=lambda x: (-match_ratio(x[2], x[3], alpha), -x[0], x[1]))[:k]
    worse = sorted((x for x in diffs if x[0] < 0), key=lambda x: (match_ratio(x[2], x[3], alpha), x[0], x[1]))[:k]
    return {"system": report.systems[i].name, "baseline": report.systems[baseline].name,
            "ranking": f"compare-mt's smoothed match ratio (m_sys + {alpha:g}) / (m_sys + m_base + {2 * alpha:g})",
            "orders": sorted(keep),
            "better": [rec(*x, m.segments_better[x[1]]) for x in better],
            "worse": [rec(*x, m.segments_worse[x[1]]) for x in worse],
            "matched_per_order": {"system": _per_order(m.system, N), "baseline": _per_order(m.baseline, N)}}


def _prepared_references(report):
    """Each segment's prepared references: the report's, or (the page does not keep them, to save memory) the
    references tokenized again."""
    if report.prepared_refs is not None:
        return report.prepared_refs
    from explainer.bleu.algorithm import prepare_references

    return (prepare_references(report.d, refs) for refs in report.testset.references)


class _Matches(NamedTuple):
    system: dict            # n-gram -> clipped matches summed over the corpus
    baseline: dict
    segments_better: dict   # n-gram -> the segments (1-based) where the system matches it more often
    segments_worse: dict


def _corpus_matches(d, prepared, sys_lines: Sequence[str], base_lines: Sequence[str]) -> _Matches:
    """Both systems' clipped matches per n-gram, summed over the corpus, and where they differ."""
    N = d.max_order
    m = _Matches(defaultdict(int), defaultdict(int), defaultdict(list), defaultdict(list))
    for seg, (prep, hs, hb) in enumerate(zip(prepared, sys_lines, base_lines)):
        ref_ngrams = prep[0]
        if not ref_ngrams:
            continue
        mb = clipped_matches(d.tokenize(hb), ref_ngrams, N)
        ms = clipped_matches(d.tokenize(hs), ref_ngrams, N) if hs != hb else mb   # identical: the same matches
        for ng, c in ms.items():
            m.system[ng] += c
        for ng, c in mb.items():
            m.baseline[ng] += c
        if ms is mb:
            continue
        # the n-grams whose counts differ in this segment (a set operation on the (n-gram, count) pairs)
        for ng in {ng for ng, _ in ms.items() ^ mb.items()}:
            (m.segments_better if ms.get(ng, 0) > mb.get(ng, 0) else m.segments_worse)[ng].append(seg + 1)
    return m


def _per_order(matched: dict, max_order: int) -> list[int]:
    totals = [0] * max_order
    for ng, c in matched.items():
        totals[len(ng) - 1] += c
    return totals
