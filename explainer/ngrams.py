"""N-gram counting, with positions when a trace needs them.

Two speeds on purpose:

* ``count_all_ngrams`` is the statistics fast path: one ``Counter`` over orders 1..N keyed by token tuples,
  exactly as sacreBLEU's ``extract_all_word_ngrams`` builds it (same keys, same counts), so counting costs
  what sacreBLEU's own counting costs.
* ``ngram_positions`` is for traces: every distinct n-gram of one order with the token indices where it
  starts, in order of first occurrence.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

__all__ = ["count_all_ngrams", "ngram_positions", "ngram_total"]


def count_all_ngrams(tokens: Sequence[str], max_order: int, min_order: int = 1) -> Counter:
    """Counts of every n-gram with min_order <= n <= max_order, keyed by the tuple of its tokens."""
    ngrams = []
    ln = len(tokens)
    for n in range(min_order, max_order + 1):
        for i in range(0, ln - n + 1):
            ngrams.append(tuple(tokens[i: i + n]))
    return Counter(ngrams)


def ngram_positions(tokens: Sequence[str], n: int) -> dict[tuple, list[int]]:
    """{n-gram tuple: [start token index, ...]} in order of first occurrence (overlapping occurrences
    are all listed, as every BLEU implementation counts them)."""
    out: dict[tuple, list[int]] = {}
    for i in range(0, len(tokens) - n + 1):
        key = tuple(tokens[i: i + n])
        lst = out.get(key)
        if lst is None:
            out[key] = [i]
        else:
            lst.append(i)
    return out


def ngram_total(length: int, n: int) -> int:
    """Number of n-grams in a sequence of ``length`` tokens (0 when it is shorter than n)."""
    return max(0, length - n + 1)
