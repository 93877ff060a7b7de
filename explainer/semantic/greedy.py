"""BERTScore's greedy matching of one candidate against one reference, as bert-score 0.3.13 computes it
(``bert_score.utils.greedy_cos_idf``), in float32.

1. Every piece's embedding is divided by its norm, so a dot product is a cosine; ``similarity[i, j]`` is the cosine
   of candidate piece ``i`` and reference piece ``j``. ``[CLS]`` and ``[SEP]`` are rows and columns like any piece:
   a candidate piece's best match may be the reference's ``[SEP]``.
2. Each candidate piece keeps its best cosine over the reference's pieces (``sim.max(dim=2)``: precision side),
   each reference piece its best over the candidate's (``sim.max(dim=1)``: recall side).
3. Weights: each text's idf weights divided by their sum (idf off: 1 per piece and 0 for the ``[CLS]`` and
   ``[SEP]`` ids, so the specials never count). ``P = Σ best_i · w_i`` over the candidate, ``R`` the same over the
   reference, ``F = 2·P·R / (P + R)``.
4. bert-score's fixes: a weight sum of 0 makes ``0/0 = NaN`` (idf on, when every piece of a text is in every
   reference); ``F`` of a NaN, or of ``P + R = 0``, is set to 0; an empty candidate or reference (only ``[CLS]`` and
   ``[SEP]``) sets ``P`` and ``R`` to 0, with a warning on stderr.
5. Padding: bert-score matches 64 pairs at a time, each text padded to the longest of its side in that batch, and a
   padded cell's similarity is 0 (``sim * masks``). A piece whose best real cosine is negative then gets 0 instead:
   ``floor_rows`` / ``floor_cols`` say whether this pair's reference / candidate was padded.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Greedy", "unit_rows", "greedy_match"]

_F32 = np.float32


def unit_rows(h: np.ndarray) -> np.ndarray:
    """Each row divided by its norm (``emb.div_(torch.norm(emb, dim=-1).unsqueeze(-1))``)."""
    return h / np.sqrt(np.square(h).sum(axis=-1, dtype=_F32, keepdims=True))


@dataclass
class Greedy:
    """One candidate against one reference. Arrays are float32 as bert-score computes them."""

    similarity: np.ndarray       # (candidate pieces, reference pieces)
    cand_best: np.ndarray        # per candidate piece: the index of its best reference piece
    cand_best_sim: np.ndarray    # its best cosine (after the padding floor)
    ref_best: np.ndarray         # per reference piece: the index of its best candidate piece
    ref_best_sim: np.ndarray
    cand_weights: np.ndarray     # normalized (sum 1, or NaN when the raw weights sum to 0)
    ref_weights: np.ndarray
    cand_weight_sum: float       # the raw weights' sums
    ref_weight_sum: float
    precision: float
    recall: float
    f1: float
    f1_raw: float                # 2PR/(P+R) before NaN became 0 (NaN or the same as f1)
    zeroed: str | None           # "candidate" / "reference": bert-score set P and R to 0 for an empty text
    floor_rows: bool
    floor_cols: bool
    floor_used: int              # pieces whose best cosine the padding floor raised to 0


def greedy_match(cand_unit: np.ndarray, ref_unit: np.ndarray, cand_raw_w: np.ndarray, ref_raw_w: np.ndarray, *,
                 floor_rows: bool = False, floor_cols: bool = False, similarity: np.ndarray | None = None
                 ) -> Greedy:
    """``greedy_cos_idf`` for one pair: unit-norm embeddings, raw (idf) weights as float32."""
    sim = cand_unit @ ref_unit.T if similarity is None else similarity
    cand_best, ref_best = sim.argmax(axis=1), sim.argmax(axis=0)
    row = sim.max(axis=1)
    col = sim.max(axis=0)
    used = 0
    if floor_rows:
        used += int((row < 0).sum())
        row = np.maximum(row, _F32(0))
    if floor_cols:
        used += int((col < 0).sum())
        col = np.maximum(col, _F32(0))
    with np.errstate(invalid="ignore", divide="ignore"):
        cs, rs = cand_raw_w.sum(dtype=_F32), ref_raw_w.sum(dtype=_F32)
        cw, rw = cand_raw_w / cs, ref_raw_w / rs
        p = (row * cw).sum(dtype=_F32)
        r = (col * rw).sum(dtype=_F32)
        f = _F32(2) * p * r / (p + r)
    zeroed = "candidate" if len(cand_raw_w) == 2 else ("reference" if len(ref_raw_w) == 2 else None)
    if zeroed:
        p = r = _F32(0)
    f_raw = float(f)
    if np.isnan(f):
        f = _F32(0)
    return Greedy(sim, cand_best, row, ref_best, col, cw, rw, float(cs), float(rs), float(p), float(r), float(f),
                  f_raw, zeroed, floor_rows, floor_cols, used)
