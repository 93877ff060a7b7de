"""BLEU sufficient statistics of several systems against the same references (each reference tokenized once).

The statistics are the core's own (``explainer.bleu.algorithm.prepare_references`` / ``candidate_stats``, the two
halves of ``segment_stats``), so they are the numbers ``score_bleu_corpus`` and every trace use; only the
references' n-gram table is shared between the systems, as sacreBLEU's reference cache shares it.

``StatsStream`` takes segments block by block (the ``compare`` CLI reads its files that way) and keeps only
the statistics: 4 bytes per number, ``2 + 2N`` numbers per segment and system, never the texts.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from explainer.bleu.algorithm import candidate_stats, prepare_references
from explainer.bleu.dialects import BleuDialect

__all__ = ["system_stats", "StatsStream", "clear_tokenizer_caches"]


def clear_tokenizer_caches() -> None:
    """Empty the lru_cache sacreBLEU puts on its tokenizers' ``__call__`` (up to 2^16 lines each). A stream of
    100,000 distinct lines would otherwise fill them (tens of MB) although no line is seen twice; clearing them
    per block keeps the memory of ``compare`` flat."""
    try:
        from sacrebleu.tokenizers.tokenizer_base import BaseTokenizer
    except ImportError:   # pragma: no cover
        return
    stack = [BaseTokenizer]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        fn = cls.__dict__.get("__call__")
        if hasattr(fn, "cache_clear"):
            fn.cache_clear()


def system_stats(d: BleuDialect, systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]], *,
                 keep_refs: bool = False, progress: Callable[[int, int], None] | None = None
                 ) -> tuple[list[np.ndarray], list[list[int]], list | None, list[list] | None]:
    """(per system an (S, 2+2N) int64 array, per segment the reference lengths, the prepared references when
    ``keep_refs``, per system the last-segment contexts of every segment when the dialect needs them)."""
    S = len(references)
    need_ctx = d.needs_last_segment
    rows: list[list[list[int]]] = [[] for _ in systems]
    ctxs: list[list] | None = [[] for _ in systems] if need_ctx else None
    ref_lens: list[list[int]] = []
    kept: list | None = [] if keep_refs else None
    step = max(1, S // 50)
    for i in range(S):
        refs = references[i]
        prep = prepare_references(d, refs)
        ref_lens.append(prep[1])
        if kept is not None:
            kept.append(prep)
        ref_toks = [d.tokenize(r) for r in refs] if need_ctx else None
        for j, hyps in enumerate(systems):
            h = hyps[i]
            rows[j].append(candidate_stats(d, h, prep))
            if need_ctx:
                ctxs[j].append(d.last_segment_context(d.tokenize(h), ref_toks))
        if progress and (i % step == 0 or i == S - 1):
            progress(i + 1, S)
    width = 2 + 2 * d.max_order
    arrays = [np.array(r, dtype=np.int64).reshape(-1, width) for r in rows]
    return arrays, ref_lens, kept, ctxs


class StatsStream:
    """Statistics of ``n_systems`` systems, fed segment by segment; memory grows by the statistics only."""

    def __init__(self, d: BleuDialect, n_systems: int) -> None:
        self.d = d
        #: per system, every segment's own context (NLTK scores each segment alone with it), else None
        self.ctxs: list[list] | None = [[] for _ in range(n_systems)] if d.needs_last_segment else None
        self.width = 2 + 2 * d.max_order
        self.n_systems = n_systems
        self._blocks: list[list[np.ndarray]] = [[] for _ in range(n_systems)]
        self._pending: list[list[list[int]]] = [[] for _ in range(n_systems)]
        self._ref_first_len: list[int] = []
        self._pending_ref: list[int] = []
        self.n = 0
        self.ends_with_period = [0] * n_systems
        self.segments_without_reference: list[int] = []

    def add(self, hyps: Sequence[str], refs: Sequence[str]) -> None:
        d = self.d
        prep = prepare_references(d, refs)
        if not refs:
            self.segments_without_reference.append(self.n)
        self._pending_ref.append(prep[1][0] if prep[1] else 0)
        ref_toks = [d.tokenize(r) for r in refs] if self.ctxs is not None else None
        for j, h in enumerate(hyps):
            self._pending[j].append(candidate_stats(d, h, prep))
            if h.endswith(" ."):
                self.ends_with_period[j] += 1
            if self.ctxs is not None:
                self.ctxs[j].append(d.last_segment_context(d.tokenize(h), ref_toks))
        self.n += 1
        if len(self._pending_ref) >= 4096:
            self._flush()

    def _flush(self) -> None:
        for j in range(self.n_systems):
            if self._pending[j]:
                self._blocks[j].append(np.array(self._pending[j], dtype=np.int32).reshape(-1, self.width))
                self._pending[j] = []
        self._ref_first_len.extend(self._pending_ref)
        self._pending_ref = []

    def arrays(self) -> list[np.ndarray]:
        """Per system the (S, 2+2N) statistics (int32: 4 bytes a number; sums of them are int64)."""
        self._flush()
        out = []
        for j, b in enumerate(self._blocks):
            a = np.vstack(b) if b else np.zeros((0, self.width), dtype=np.int32)
            self._blocks[j] = [a]          # one block from now on: the pieces are not kept twice
            out.append(a)
        return out

    def first_reference_lengths(self) -> list[int]:
        self._flush()
        return list(self._ref_first_len)

    def last_contexts(self) -> list:
        """The last segment's context per system (NLTK's smoothing reads it), None for other dialects."""
        if self.ctxs is None or not self.n:
            return [None] * self.n_systems
        return [c[-1] for c in self.ctxs]
