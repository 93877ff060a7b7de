"""The records of a semantic trace (docs/semantic.md "Trace schema").

* ``StsTrace``: STS of one candidate against its references: the word pieces, the pooling of each text (how many
  piece vectors were averaged, the norm it was divided by), each reference's cosine and the one kept.
* ``BertScoreTrace``: BERTScore of one candidate: per reference the similarity matrix of the pieces, each
  candidate piece's best reference piece and each reference piece's best candidate piece (the greedy alignment),
  the weights (idf when used), P, R and F with their numbers; the kept P, R and F (each its own maximum over the
  references) and which reference gave each.
Both carry the model (name, package, revision), the signature, what the library warned about or would fail on,
and what the measure does not check (``blind_spots``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from explainer.semantic.dialects import LibraryError, LibraryWarning, g
from explainer.semantic.greedy import Greedy
from explainer.semantic.model import ModelInfo
from explainer.semantic.pieces import PieceText

__all__ = ["StsPooling", "StsTrace", "BertScorePair", "BertScoreTrace", "IdfRow"]

#: terms written out in a P / R formula before "…"
FORMULA_TERMS = 12


def _floats(a) -> list:
    return [float(x) for x in np.asarray(a, dtype=np.float64).ravel()]


def _common(t) -> dict:
    return {"dialect": t.dialect, "options": dict(t.options), "model": t.model.to_dict(), "signature": t.signature,
            "candidate": t.candidate.to_dict(), "references": [r.to_dict() for r in t.references],
            "warnings": [w.to_dict() for w in t.warnings],
            "library_error": t.library_error.to_dict() if t.library_error else None,
            "blind_spots": [dict(b) for b in t.blind_spots]}


@dataclass
class StsPooling:
    """One text's sentence embedding: the mean of its ``n_pieces`` piece vectors (``[CLS]`` and ``[SEP]``
    included, as sentence-transformers' mean pooling over the attention mask), divided by its ``norm``."""

    n_pieces: int
    norm: float
    embedding: np.ndarray        # unit length, float32 (384)

    @property
    def formula(self) -> str:
        return (f"mean of {self.n_pieces} piece vectors ([CLS] and [SEP] included) → length {g(self.norm)} → "
                "divided by it: a vector of length 1")

    def to_dict(self) -> dict:
        return {"n_pieces": self.n_pieces, "norm": self.norm, "embedding": _floats(self.embedding),
                "formula": self.formula}


@dataclass
class StsTrace:
    dialect: str
    options: dict
    model: ModelInfo
    signature: str
    candidate: PieceText
    references: list[PieceText]
    candidate_pooling: StsPooling
    reference_pooling: list[StsPooling]
    cosines: list[float]         # per reference: the dot product of the unit embeddings
    chosen_reference: int
    score: float
    multi_reference_rule: str
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None
    blind_spots: list[dict] = field(default_factory=list)

    @property
    def values(self) -> dict:
        return {"sts": self.score}

    @property
    def chosen(self) -> dict:
        return {"sts": self.chosen_reference}

    def cosine_formula(self, k: int) -> str:
        return f"cos(candidate, reference {k + 1}) = ê_c · ê_r = Σ_d ê_c[d]·ê_r[d] = {g(self.cosines[k])}"

    @property
    def formula(self) -> str:
        if len(self.cosines) == 1:
            return f"STS = {g(self.score)}"
        shown = ", ".join(g(c) for c in self.cosines)
        return f"STS = max({shown}) = {g(self.score)} (reference {self.chosen_reference + 1})"

    def to_dict(self) -> dict:
        return {**_common(self), "measure": "sts", "score": self.score, "sts": self.score,
                "cosines": list(self.cosines), "cosine_formulas": [self.cosine_formula(k)
                                                                   for k in range(len(self.cosines))],
                "chosen_reference": self.chosen_reference, "formula": self.formula,
                "multi_reference_rule": self.multi_reference_rule,
                "candidate_pooling": self.candidate_pooling.to_dict(),
                "reference_pooling": [p.to_dict() for p in self.reference_pooling]}


@dataclass
class IdfRow:
    """One piece id's idf: in how many of the call's references it occurs."""

    piece: str
    id: int
    count: int
    idf: float
    formula: str

    def to_dict(self) -> dict:
        return {"piece": self.piece, "id": self.id, "count": self.count, "idf": self.idf, "formula": self.formula}


def _weighted_sum(label: str, best: np.ndarray, weights: np.ndarray, value: float, pieces) -> str:
    terms = [f"{g(float(w))}·{g(float(b))}" for b, w, p in zip(best, weights, pieces) if float(w) != 0.0]
    shown = " + ".join(terms[:FORMULA_TERMS]) + (f" + … ({len(terms)} terms)" if len(terms) > FORMULA_TERMS else "")
    return f"{label} = Σ weight · best cosine = {shown or '0 terms'} = {g(value)}"


@dataclass
class BertScorePair:
    """The candidate against one reference (``greedy``: the arrays, float32)."""

    greedy: Greedy
    cand_raw_weights: np.ndarray
    ref_raw_weights: np.ndarray

    @property
    def precision(self) -> float:
        return self.greedy.precision

    @property
    def recall(self) -> float:
        return self.greedy.recall

    @property
    def f1(self) -> float:
        return self.greedy.f1

    def formulas(self, candidate: PieceText, reference: PieceText) -> dict:
        gr = self.greedy
        p = _weighted_sum("P", gr.cand_best_sim, gr.cand_weights, gr.precision, candidate.pieces)
        r = _weighted_sum("R", gr.ref_best_sim, gr.ref_weights, gr.recall, reference.pieces)
        f = f"F = 2·P·R / (P + R) = 2·{g(gr.precision)}·{g(gr.recall)} / ({g(gr.precision)} + {g(gr.recall)})"
        f += f" = {g(gr.f1_raw)}" + (" → 0 (bert-score sets a NaN F to 0)" if gr.f1_raw != gr.f1 else "")
        notes = []
        if gr.zeroed:
            notes.append(f"the {gr.zeroed} is empty (only [CLS] and [SEP]): bert-score sets P and R to 0")
        for side, total in (("candidate", gr.cand_weight_sum), ("reference", gr.ref_weight_sum)):
            if total == 0.0 and not gr.zeroed:
                notes.append(f"every weight of the {side} is 0 (each of its pieces is in every reference): the "
                             f"weights are 0/0 = NaN, so is {'P' if side == 'candidate' else 'R'}")
        if gr.floor_used:
            notes.append(f"{gr.floor_used} piece(s) had only negative cosines; bert-score's padding in its batch "
                         "of pairs counts a padded cell as 0, so their best is 0")
        return {"precision": p, "recall": r, "f1": f, "notes": notes}

    def to_dict(self, candidate: PieceText, reference: PieceText) -> dict:
        gr = self.greedy
        return {"similarity": [_floats(row) for row in gr.similarity],
                "candidate_best": [int(x) for x in gr.cand_best], "candidate_best_cosine": _floats(gr.cand_best_sim),
                "reference_best": [int(x) for x in gr.ref_best], "reference_best_cosine": _floats(gr.ref_best_sim),
                "candidate_raw_weights": _floats(self.cand_raw_weights),
                "reference_raw_weights": _floats(self.ref_raw_weights),
                "candidate_weights": _floats(gr.cand_weights), "reference_weights": _floats(gr.ref_weights),
                "precision": gr.precision, "recall": gr.recall, "f1": gr.f1, "zeroed": gr.zeroed,
                "padding_floor": {"rows": gr.floor_rows, "columns": gr.floor_cols, "pieces_raised": gr.floor_used},
                "formulas": self.formulas(candidate, reference)}


@dataclass
class BertScoreTrace:
    dialect: str
    options: dict
    model: ModelInfo
    signature: str
    layer: int
    candidate: PieceText
    references: list[PieceText]
    pairs: list[BertScorePair]
    precision: float
    recall: float
    f1: float
    chosen: dict                 # "precision" / "recall" / "f1" -> the reference index that gave it
    idf: list[IdfRow] | None     # idf=True: every piece id of these texts
    idf_documents: int | None
    multi_reference_rule: str
    published: dict
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None
    blind_spots: list[dict] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def score(self) -> float:
        return self.f1

    @property
    def values(self) -> dict:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1}

    def kept_formula(self, measure: str) -> str:
        vals = [getattr(p, measure) for p in self.pairs]
        name = {"precision": "P", "recall": "R", "f1": "F"}[measure]
        if len(vals) == 1:
            return f"{name} = {g(vals[0])}"
        return (f"{name} = max({', '.join(g(v) for v in vals)}) = {g(getattr(self, measure))} "
                f"(reference {self.chosen[measure] + 1})")

    def to_dict(self) -> dict:
        return {**_common(self), "measure": "bertscore", "score": self.f1, "layer": self.layer,
                "precision": self.precision, "recall": self.recall, "f1": self.f1, "chosen": dict(self.chosen),
                "kept_formulas": {m: self.kept_formula(m) for m in ("precision", "recall", "f1")},
                "multi_reference_rule": self.multi_reference_rule,
                "pairs": [p.to_dict(self.candidate, r) for p, r in zip(self.pairs, self.references)],
                "idf": None if self.idf is None else {"n_documents": self.idf_documents,
                                                      "pieces": [row.to_dict() for row in self.idf]},
                "published": dict(self.published)}
