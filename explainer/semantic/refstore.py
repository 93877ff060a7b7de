"""References' embeddings kept between corpus calls, so that the next system scored against the same references
runs only its own texts through the model.

The Corpus page scores each system with its own call (``SemanticFamily.corpus``), and every call reads the same
references: without this store each system would run them again (on WMT22 en-de two references are two thirds
of a system's word pieces). A reference is kept under its word-piece ids and the model's weights hash (what its
embeddings are computed from); STS and BERTScore share an entry when they read a text the same way.

Bounded by word pieces (``MAX_STORE_PIECES``, 384 float32 numbers each: 1,536 bytes): an entry that does not fit
first pushes out the entries least recently used by other calls; the texts of the running call are never pushed
out by the same call (when they do not all fit, the first ones read are kept, so the next system still finds those
instead of a store emptied as it goes). Thread-safe; a race at worst computes a text twice.

The numbers: an embedding is what the model gives the text; computed in another batch it would differ in the last
float32 digits (the matrix products' order of additions depends on the batch), about 1e-7 in a score, as the
libraries' own numbers differ from one batch to another.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Iterable

import numpy as np

__all__ = ["ReferenceStore", "REFERENCE_STORE", "MAX_STORE_PIECES", "store_key"]

#: word pieces kept (200,000 × 1,536 bytes: 307 MB; WMT22 en-de's two references are 169,417 pieces)
MAX_STORE_PIECES = 200_000


def store_key(revision: str, ids: Iterable[int]) -> tuple[str, bytes]:
    """What an entry is kept under: the model's weights hash and the ids as bytes (compact: 4 bytes a piece)."""
    return revision, np.asarray(tuple(ids), dtype=np.int32).tobytes()


class ReferenceStore:
    """Key -> read-only (pieces, hidden) float32 embeddings, at most ``max_pieces`` pieces in all."""

    def __init__(self, max_pieces: int) -> None:
        self.max_pieces = max_pieces
        self._data: OrderedDict[tuple, np.ndarray] = OrderedDict()      # least recently used first
        self._pieces = 0
        self._lock = threading.Lock()

    @property
    def pieces(self) -> int:
        return self._pieces

    def __len__(self) -> int:
        return len(self._data)

    def get(self, key: tuple) -> np.ndarray | None:
        return self._data.get(key)

    def claim(self, keys: Iterable[tuple]) -> None:
        """A call's start: the entries it will read become the most recently used, so that what the call adds
        pushes out other calls' entries first."""
        with self._lock:
            for k in keys:
                if k in self._data:
                    self._data.move_to_end(k)

    def put(self, key: tuple, value: np.ndarray, keep: frozenset | set) -> None:
        """Keep a copy of ``value`` unless it fits only by pushing out an entry of ``keep`` (the call's keys)."""
        n = len(value)
        if n > self.max_pieces:
            return
        with self._lock:
            if key in self._data:
                return
            while self._pieces + n > self.max_pieces:
                oldest = next(iter(self._data))
                if oldest in keep:
                    return
                self._pieces -= len(self._data.pop(oldest))
            a = np.array(value, dtype=np.float32)      # its own memory, not a view of the batch's array
            a.setflags(write=False)
            self._data[key] = a
            self._pieces += n

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._pieces = 0


REFERENCE_STORE = ReferenceStore(MAX_STORE_PIECES)
