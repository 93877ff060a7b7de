"""Token embeddings of texts: the model's last layer, computed in batches, each distinct word-piece sequence once.

STS (truncation 256) and BERTScore (512) read the same text the same way when it is shorter than both limits, so
their sequences are equal and the model runs once for both. A small process-wide cache (bounded in entries and
word pieces; it empties itself when full) keeps the last texts' embeddings, so that explaining both measures of
one segment, or a page that asks again, does not run the model twice. A corpus goes through ``embed_stream`` in
blocks of segments instead, with its own de-duplication; its references can be kept for the next call
(``explainer.semantic.refstore``).

The cores (``explainer.semantic.cores``): the matrix products run on one BLAS thread; a run of at least
``SMALL_RUN_PIECES`` pieces is cut into chunks of about ``CHUNK_PIECES`` pieces (texts sorted by length, so that
texts of the same length, whose attention runs together, share a chunk), each chunk a forward pass on one of the
worker threads. A corpus keeps the workers busy while the calling thread scores: the next block is handed to them
before the current one is read.
"""
from __future__ import annotations

import threading
from collections import deque
from concurrent.futures import Future
from typing import Callable, Collection, Iterator, Sequence

import numpy as np

from explainer.semantic.cores import WORKERS, one_blas_thread, pool
from explainer.semantic.model import SemanticModel
from explainer.semantic.refstore import ReferenceStore, store_key

__all__ = ["embed", "embed_stream", "BLOCK_PIECES", "CHUNK_PIECES", "SMALL_RUN_PIECES", "clear_cache", "run_cost",
           "COST_PER_SECOND"]

#: word pieces of a corpus's block of segments (read in order, each distinct text once)
BLOCK_PIECES = 8_192
#: word pieces of a chunk: one forward pass on one worker thread (the largest array is pieces × 1,536 float32)
CHUNK_PIECES = 2_048
#: runs with fewer pieces stay on the calling thread
SMALL_RUN_PIECES = 1_024


def _chunks(lengths: Sequence[int]) -> list[list[int]]:
    """The indices of the sequences, sorted by length, cut into chunks of about ``CHUNK_PIECES`` pieces."""
    out: list[list[int]] = []
    chunk: list[int] = []
    size = 0
    for i in sorted(range(len(lengths)), key=lengths.__getitem__):
        if chunk and size + lengths[i] > CHUNK_PIECES:
            out.append(chunk)
            chunk, size = [], 0
        chunk.append(i)
        size += lengths[i]
    if chunk:
        out.append(chunk)
    return out


class _Run:
    """One run of the model over some sequences: on the calling thread when small, else its chunks handed to the
    worker threads (``result()`` waits for them)."""

    def __init__(self, model: SemanticModel, sequences: Sequence[Sequence[int]]) -> None:
        self.n = len(sequences)
        lengths = [len(s) for s in sequences]
        self.parts: list[tuple[list[int], Future | list]] = []
        if sum(lengths) < SMALL_RUN_PIECES or WORKERS == 1:
            self.parts.append((list(range(self.n)), model.encoder.encode(sequences)))
            return
        for idx in _chunks(lengths):
            self.parts.append((idx, pool().submit(model.encoder.encode, [sequences[i] for i in idx])))

    def result(self) -> list[np.ndarray]:
        out: list = [None] * self.n
        for idx, part in self.parts:
            for i, h in zip(idx, part if isinstance(part, list) else part.result()):
                out[i] = _frozen(h)
        return out

    def cancel(self) -> None:
        for _, part in self.parts:
            if isinstance(part, Future):
                part.cancel()


def _encode(model: SemanticModel, sequences: Sequence[Sequence[int]]) -> list[np.ndarray]:
    with one_blas_thread():
        return _Run(model, sequences).result()


class _Cache:
    """Sequence of ids -> embeddings; emptied when it would hold more than ``max_entries`` sequences or
    ``max_pieces`` pieces (30,000 pieces are 46 MB). Thread-safe; a race at worst computes a text twice."""

    def __init__(self, max_entries: int, max_pieces: int) -> None:
        self.max_entries, self.max_pieces = max_entries, max_pieces
        self._data: dict[tuple, np.ndarray] = {}
        self._pieces = 0
        self._lock = threading.Lock()

    def get(self, key: tuple) -> np.ndarray | None:
        return self._data.get(key)

    def put(self, key: tuple, value: np.ndarray) -> None:
        if len(key) > self.max_pieces:
            return
        with self._lock:
            if len(self._data) >= self.max_entries or self._pieces + len(key) > self.max_pieces:
                self._data.clear()
                self._pieces = 0
            if key not in self._data:
                self._data[key] = value
                self._pieces += len(key)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._pieces = 0


_CACHE = _Cache(max_entries=512, max_pieces=30_000)


#: units of :func:`run_cost` the model gets through in a second of CPU (measured: 32- and 128-piece texts at about
#: 1,700 pieces a second on a busy 2-core machine; a 512-piece text costs four times more per piece)
COST_PER_SECOND = 1_700
_LINEAR_PIECES = 128


def run_cost(sequences: Sequence[Sequence[int]]) -> int:
    """What running the model over these sequences costs, in units of about a piece of a short text (attention
    grows with the length: a sequence of n pieces costs n · max(1, n / 128)); sequences already in the process
    cache cost nothing."""
    return sum(len(s) * max(1, len(s) // _LINEAR_PIECES) for s in sequences if _CACHE.get(tuple(s)) is None)


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


def embed(model: SemanticModel, sequences: Sequence[Sequence[int]]) -> list[np.ndarray]:
    """The (pieces, 384) last-layer embeddings of each sequence, read-only, through the process cache."""
    keys = [tuple(s) for s in sequences]
    found = {k: _CACHE.get(k) for k in keys}
    missing = [k for k, v in found.items() if v is None]
    if missing:
        for k, h in zip(missing, _run(model, missing)):
            found[k] = h
            _CACHE.put(k, h)
    return [found[k] for k in keys]


def _run(model: SemanticModel, sequences: list[tuple]) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    block: list[tuple] = []
    size = 0
    for s in sequences:
        if block and size + len(s) > BLOCK_PIECES:
            out += _encode(model, block)
            block, size = [], 0
        block.append(s)
        size += len(s)
    if block:
        out += _encode(model, block)
    return out


def _blocks(groups: Sequence[Sequence[Sequence[int]]]) -> Iterator[tuple[int, int, int]]:
    """(first segment, end, pieces) of each block of about ``BLOCK_PIECES`` pieces, in order."""
    start = 0
    while start < len(groups):
        end, size = start, 0
        while end < len(groups) and (end == start or size + sum(map(len, groups[end])) <= BLOCK_PIECES):
            size += sum(map(len, groups[end]))
            end += 1
        yield start, end, size
        start = end


class _Block:
    """A block of segments on its way through the model: its distinct sequences, those found in the store, and
    the run of the others."""

    def __init__(self, model, groups, span: tuple[int, int, int], store: ReferenceStore | None) -> None:
        self.start, self.end, self.size = span
        distinct = list(dict.fromkeys(tuple(s) for g in groups[self.start:self.end] for s in g))
        self.keys = {s: store_key(model.info.weights_sha256, s) for s in distinct} if store is not None else {}
        self.table = {}
        for s, k in self.keys.items():
            h = store.get(k)
            if h is not None:
                self.table[s] = h
        self.todo = [s for s in distinct if s not in self.table]
        self.run = _Run(model, self.todo)

    def finish(self, store: ReferenceStore | None, keep: Collection[tuple]) -> dict[tuple, np.ndarray]:
        for s, h in zip(self.todo, self.run.result()):
            self.table[s] = h
            if store is not None and self.keys[s] in keep:
                store.put(self.keys[s], h, keep)
        return self.table


def embed_stream(model: SemanticModel, groups: Sequence[Sequence[Sequence[int]]],
                 progress: Callable[[float], None] | None = None, *, store: ReferenceStore | None = None,
                 kept: Collection[Sequence[int]] = ()) -> Iterator[list[np.ndarray]]:
    """For each group of sequences (a segment's candidate and references), their embeddings, in order. The model
    runs over blocks of about ``BLOCK_PIECES`` pieces; a sequence repeated within a block runs once; the next
    block runs on the worker threads while the caller reads this one. ``store``: where the sequences of
    ``kept`` (the references) are looked up first and kept for the next call. ``progress(fraction of pieces
    done)`` after each block."""
    total = sum(len(s) for g in groups for s in g) or 1
    keep = frozenset(store_key(model.info.weights_sha256, s) for s in kept) if store is not None else frozenset()
    if store is not None:
        store.claim(keep)
    done = 0
    pending: deque[_Block] = deque()
    with one_blas_thread():
        try:
            for span in _blocks(groups):
                pending.append(_Block(model, groups, span, store))
                if len(pending) > 1:
                    done = yield from _emit(pending.popleft(), groups, store, keep, done, total, progress)
            while pending:
                done = yield from _emit(pending.popleft(), groups, store, keep, done, total, progress)
        finally:
            for b in pending:
                b.run.cancel()


def _emit(b: _Block, groups, store, keep, done: int, total: int, progress) -> Iterator[list[np.ndarray]]:
    table = b.finish(store, keep)
    for g in groups[b.start:b.end]:
        yield [table[tuple(s)] for s in g]
    done += b.size
    if progress is not None:
        progress(min(1.0, done / total))
    return done


def clear_cache() -> None:
    _CACHE.clear()
