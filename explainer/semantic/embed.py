"""Token embeddings of texts: the model's last layer, computed in batches, each distinct word-piece sequence once.

STS (truncation 256) and BERTScore (512) read the same text the same way when it is shorter than both limits, so
their sequences are equal and the model runs once for both. A small process-wide cache (bounded in entries and
word pieces; it empties itself when full) keeps the last texts' embeddings, so that explaining both measures of
one segment, or a page that asks again, does not run the model twice; a corpus goes through ``embed_stream`` in
blocks instead, with its own de-duplication, and leaves the cache alone.

BLAS threads: OpenBLAS splits even a sentence's small matrix products over every core, and on a busy machine its
threads wait for each other (a sentence pair took 2-5 s of wall time and 0.36 s of CPU on 2 threads, 0.2 s and
0.02 s on one). Runs of fewer than ``SMALL_RUN_PIECES`` pieces use one thread (threadpoolctl); a corpus block keeps
the library's default, and its activation function runs on as many threads as there are cores (at most 4).
"""
from __future__ import annotations

import contextlib
import os
import threading
from typing import Callable, Iterator, Sequence

import numpy as np

from explainer.semantic.model import SemanticModel

__all__ = ["embed", "embed_stream", "BLOCK_PIECES", "SMALL_RUN_PIECES", "clear_cache"]

#: word pieces per run of the model (the largest array is pieces × 1,536 float32: 50 MB)
BLOCK_PIECES = 8_192
#: runs with fewer pieces use one BLAS thread
SMALL_RUN_PIECES = 1_024
_CONTROLLER = None
_CORES = max(1, min(4, os.cpu_count() or 1))


def _threads_for(n_pieces: int):
    """One BLAS thread for a small run, the default for a large one."""
    global _CONTROLLER
    if n_pieces >= SMALL_RUN_PIECES:
        return contextlib.nullcontext()
    if _CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER = ThreadpoolController()
    return _CONTROLLER.limit(limits=1, user_api="blas")


def _encode(model: SemanticModel, sequences: list) -> list[np.ndarray]:
    n = sum(map(len, sequences))
    with _threads_for(n):
        return model.encoder.encode(sequences, threads=1 if n < SMALL_RUN_PIECES else _CORES)


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
            out += [_frozen(h) for h in _encode(model, block)]
            block, size = [], 0
        block.append(s)
        size += len(s)
    if block:
        out += [_frozen(h) for h in _encode(model, block)]
    return out


def embed_stream(model: SemanticModel, groups: Sequence[Sequence[Sequence[int]]],
                 progress: Callable[[float], None] | None = None) -> Iterator[list[np.ndarray]]:
    """For each group of sequences (a segment's candidate and references), their embeddings, in order. The model
    runs over blocks of about ``BLOCK_PIECES`` pieces (a block's texts grouped by length inside the encoder); a
    sequence repeated within a block runs once. ``progress(fraction of pieces done)`` after each block."""
    total = sum(len(s) for g in groups for s in g) or 1
    done = 0
    start = 0
    while start < len(groups):
        end, size = start, 0
        while end < len(groups) and (end == start or size + sum(map(len, groups[end])) <= BLOCK_PIECES):
            size += sum(map(len, groups[end]))
            end += 1
        distinct = list(dict.fromkeys(tuple(s) for g in groups[start:end] for s in g))
        table = dict(zip(distinct, _encode(model, distinct)))
        for g in groups[start:end]:
            yield [table[tuple(s)] for s in g]
        done += size
        if progress is not None:
            progress(min(1.0, done / total))
        start = end


def clear_cache() -> None:
    _CACHE.clear()
