"""N-gram counting for the BLEU statistics fast path.

``count_all_ngrams`` builds one ``Counter`` over orders 1..N keyed by token tuples, exactly as sacreBLEU's
``extract_all_word_ngrams`` builds it (same keys, same counts), so counting costs what sacreBLEU's own counting
costs. Traces find n-gram positions themselves (``explainer.bleu.algorithm.build_segment_trace``).
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

__all__ = ["count_all_ngrams"]


def count_all_ngrams(tokens: Sequence[str], max_order: int, min_order: int = 1) -> Counter:
    """Counts of every n-gram with min_order <= n <= max_order, keyed by the tuple of its tokens."""
    ngrams = []
    ln = len(tokens)
    for n in range(min_order, max_order + 1):
        for i in range(0, ln - n + 1):
            ngrams.append(tuple(tokens[i: i + n]))
    return Counter(ngrams)
