"""ROUGE-S / ROUGE-SU skip-bigrams as ROUGE-1.5.5 defines them (docs/dialects-rouge155.md).

Pairs (t_i, t_j) with i < j and j - i <= skip + 1 (skip None = unlimited, "S*"), over the whole token list.
SU adds unigrams; ROUGE-1.5.5 counts every token **except the last** (``su_last_token=False``), a quirk that
rouge-metric replicates; ``su_last_token=True`` counts all unigrams (the textbook definition).
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from explainer.errors import ExplainerInputError

__all__ = ["skip_bigrams", "su_unigrams", "skip_overlap", "skip_table", "SKIP_BIGRAMS_MAX", "skip_bigram_count",
           "check_skip_bigrams"]

SKIP_BIGRAMS_MAX = 20_000_000   # refuse (clearly) to enumerate more skip-bigrams than this for one text


def skip_bigram_count(n: int, skip: int | None) -> int:
    """How many skip-bigrams ``n`` tokens have (pairs i < j with j - i <= skip + 1; skip None: every pair)."""
    if skip is None or skip + 1 >= n - 1:
        return n * (n - 1) // 2 if n > 1 else 0
    k = skip + 1               # the first n - k tokens have k partners each, the last k: k-1, ..., 0
    return (n - k) * k + k * (k - 1) // 2


def check_skip_bigrams(n: int, skip: int | None) -> int:
    """Refuse a text of ``n`` tokens with more than ``SKIP_BIGRAMS_MAX`` skip-bigrams; returns their number."""
    total = skip_bigram_count(n, skip)
    if total > SKIP_BIGRAMS_MAX:
        raise ExplainerInputError(
            f"ROUGE-S{'*' if skip is None else skip} on {n:,} tokens means {total:,} skip-bigrams; the explainer's "
            f"limit is {SKIP_BIGRAMS_MAX:,}. Use a maximum gap (e.g. rougeS4) or a shorter text.")
    return total


def skip_bigrams(tokens: Sequence[str], skip: int | None) -> Counter:
    out: Counter = Counter()
    n = len(tokens)
    check_skip_bigrams(n, skip)
    for i in range(n):
        hi = n if skip is None else min(n, i + skip + 2)
        a = tokens[i]
        for j in range(i + 1, hi):
            out[(a, tokens[j])] += 1
    return out


def su_unigrams(tokens: Sequence[str], su_last_token: bool = False) -> Counter:
    return Counter((t,) for t in (tokens if su_last_token else tokens[:-1]))


def _clip(rc: Counter, cc: Counter) -> int:
    return sum(min(c, cc[g]) for g, c in rc.items() if g in cc)


def skip_overlap(ref, cand, skip, *, su: bool, su_last_token: bool = False) -> tuple[int, int, int]:
    rb, cb = skip_bigrams(ref, skip), skip_bigrams(cand, skip)
    hits, ref_total, cand_total = _clip(rb, cb), sum(rb.values()), sum(cb.values())
    if su:
        ru, cu = su_unigrams(ref, su_last_token), su_unigrams(cand, su_last_token)
        hits += _clip(ru, cu)
        ref_total += sum(ru.values())
        cand_total += sum(cu.values())
    return hits, ref_total, cand_total


def skip_table(ref, cand, skip, *, su: bool, su_last_token: bool = False, limit: int = 5000) -> dict:
    rb, cb = skip_bigrams(ref, skip), skip_bigrams(cand, skip)
    rows = [{"gram": list(g), "cand_count": cb.get(g, 0), "ref_count": rb.get(g, 0),
             "overlap": min(cb.get(g, 0), rb.get(g, 0))} for g in list(cb) + [g for g in rb if g not in cb]]
    rows.sort(key=lambda r: -r["overlap"])
    out = {"skip_bigrams": rows[:limit], "skip_bigrams_truncated": len(rows) > limit,
           "bigram_hits": _clip(rb, cb), "ref_bigrams": sum(rb.values()), "cand_bigrams": sum(cb.values())}
    if su:
        ru, cu = su_unigrams(ref, su_last_token), su_unigrams(cand, su_last_token)
        out["unigrams"] = [{"gram": list(g), "cand_count": cu.get(g, 0), "ref_count": ru.get(g, 0),
                            "overlap": min(cu.get(g, 0), ru.get(g, 0))}
                           for g in list(cu) + [g for g in ru if g not in cu]]
        out["unigram_hits"] = _clip(ru, cu)
        out["ref_unigrams"] = sum(ru.values())
        out["cand_unigrams"] = sum(cu.values())
        out["su_last_token_counted"] = su_last_token
    return out
