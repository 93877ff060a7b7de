"""bert-score's piece weights: its idf dict (``bert_score.utils.get_idf_dict``) or the plain weights of ``idf=False``.

* ``idf=False``: every piece weighs 1, except the ``[SEP]`` and ``[CLS]`` ids, which weigh 0 (``idf_dict[sep] =
  idf_dict[cls] = 0``; the ids, so a ``[SEP]`` typed in the text weighs 0 too).
* ``idf=True``: the documents are the call's references, every reference of every segment, as ``score`` flattens
  them (a segment with two references counts two). A piece id's idf is ``log((N + 1) / (c + 1))`` with ``N`` the
  number of references and ``c`` the number that contain it (once per reference); an id in no reference gets
  ``log(N + 1)``. ``[CLS]`` and ``[SEP]`` are in every reference: ``log(1) = 0``. With a single reference every one
  of its pieces is in every reference, so all its weights are 0 and its recall is ``0/0`` (NaN; F then 0).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

__all__ = ["IdfTable", "idf_table", "plain_weights"]


@dataclass(frozen=True)
class IdfTable:
    """The idf dict of a call: ``n_documents`` references, ``counts`` per piece id, ``default`` for other ids."""

    n_documents: int
    counts: dict
    default: float

    def idf(self, piece_id: int) -> float:
        c = self.counts.get(piece_id)
        return self.default if c is None else math.log((self.n_documents + 1) / (c + 1))

    def weights(self, ids: Sequence[int]) -> np.ndarray:
        """The raw weights of a text's pieces, as bert-score pads them into a float32 tensor."""
        return np.array([self.idf(i) for i in ids], dtype=np.float32)

    def formula(self, piece_id: int) -> str:
        c = self.counts.get(piece_id, 0)
        return f"log(({self.n_documents} + 1) / ({c} + 1)) = {self.idf(piece_id):.6g}"


def idf_table(references: Iterable[Sequence[int]]) -> IdfTable:
    """``get_idf_dict``: document frequencies of the piece ids of every reference (as truncated for bert-score)."""
    counts: Counter = Counter()
    n = 0
    for ids in references:
        counts.update(set(ids))
        n += 1
    return IdfTable(n, dict(counts), math.log((n + 1) / 1))


def plain_weights(ids: Sequence[int], cls_id: int, sep_id: int) -> np.ndarray:
    """``idf=False``: 1 per piece, 0 for the ``[CLS]`` and ``[SEP]`` ids."""
    return np.array([0.0 if i in (cls_id, sep_id) else 1.0 for i in ids], dtype=np.float32)
