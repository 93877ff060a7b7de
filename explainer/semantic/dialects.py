"""The semantic family's dialect contract: what a dialect decides, and the records every dialect returns.

The family holds two measures, each a dialect of its own because each reproduces a different library:
``sts`` (sentence-transformers: the cosine of two sentence embeddings) and ``bertscore`` (bert-score 0.3.13: greedy
matching of word-piece embeddings). Both read the texts with the same model (all-MiniLM-L6-v2) and the same
forward pass (``explainer.semantic.embed``); ``explainer/semantic/algorithm.py`` runs the model and hands each
dialect the embeddings:

==================================  ===========================================================================
hook                                decides
==================================  ===========================================================================
``max_pieces(model)``               the library's truncation (sentence-transformers 256, bert-score 512 pieces)
``strip_text``                      the library strips the text first (bert-score's ``sent.strip()``)
``measures``, ``headline``          the numbers it reports (``sts``; ``precision``, ``recall``, ``f1``) and the
                                    one a page shows first
``context(candidates, references)`` what depends on the whole call (bert-score: the idf dict from every
                                    reference of the call, and its batches' padding)
``segment_values(...)``             one segment's numbers from the embeddings (the fast path)
``build_trace(...)``                the same numbers step by step
``signature(model_info)``           every setting that changes a number (bert-score: its own hash string)
``check_inputs(...)``               warnings and errors of the real library (recorded, never raised)
==================================  ===========================================================================
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Sequence

import numpy as np

from explainer.dialect import Dialect
from explainer.semantic.model import ModelInfo, SemanticModel
from explainer.semantic.pieces import PieceText

__all__ = ["SemanticDialect", "SegmentValues", "LibraryError", "LibraryWarning", "first_max", "g"]


@dataclass
class LibraryError:
    """An exception the real library raises on this input (recorded, never raised)."""

    type: str
    message: str
    explanation: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class LibraryWarning:
    """A warning the real library prints on this input, or a note about what it did (truncation)."""

    category: str
    message: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class SegmentValues:
    """One segment's numbers: ``values`` per measure (the kept value over the references), ``chosen`` the index of
    the reference each kept value comes from, ``per_reference`` each reference's values."""

    values: dict[str, float]
    chosen: dict[str, int]
    per_reference: list[dict[str, float]] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"values": dict(self.values), "chosen": dict(self.chosen),
                "per_reference": [dict(r) for r in self.per_reference]}


def g(x: float) -> str:
    """A number as the formulas show it."""
    return "NaN" if x != x else f"{x:.6g}"


def first_max(values: Sequence[float]) -> tuple[float, int]:
    """The maximum as ``torch.max`` takes it (a NaN anywhere makes it NaN) and the first reference that has it."""
    arr = np.asarray(values, dtype=np.float32)
    if np.isnan(arr).any():
        return float("nan"), int(np.flatnonzero(np.isnan(arr))[0])
    k = int(np.argmax(arr))
    return float(arr[k]), k


class SemanticDialect(Dialect):
    """Base class of a semantic dialect: options bound at construction (``explainer.dialect.Dialect``)."""

    family: ClassVar[str] = "semantic"
    scale: ClassVar[float] = 1.0
    #: the library and version whose numbers the dialect reproduces
    library: ClassVar[str] = ""
    library_version: ClassVar[str] = ""
    measures: ClassVar[tuple[str, ...]] = ()
    headline: ClassVar[str] = ""
    strip_text: ClassVar[bool] = False
    #: the rule for several references, in words
    multi_reference_rule: ClassVar[str] = ""

    @classmethod
    def cli_argv(cls, given, types=()) -> list[str]:
        """The ``explainer semantic`` arguments (input: one JSON line on stdin) that print this dialect's numbers
        (under its name in the output, beside the other dialect's): its options are the command's flags."""
        return ["semantic", "--jsonl", "-"] + [f"--{k.replace('_', '-')}" for k, v in sorted(given.items()) if v]

    @classmethod
    def search_configs(cls, context):
        """The reproduce search (``explainer/search_space.py``): one segment only — a corpus claim is not
        searched, each configuration and reference subset would run the model over the whole test set again
        (about a minute for 2,000 segments); the dialect's option combinations, its defaults first."""
        from explainer.search_space import point

        if context.corpus:
            return []
        return [point({}, 0.0)] + [point({o.name: True}, 1.5, f"{o.name}=True") for o in cls.OPTIONS
                                   if o.type == "bool" and o.default is False]

    def describe(self) -> dict:
        return dict(super().describe(), scale=self.scale, measures=list(self.measures), headline=self.headline,
                    library=self.library, library_version=self.library_version,
                    multi_reference_rule=self.multi_reference_rule)

    def options_dict(self) -> dict:
        return dict(self.options)

    def max_pieces(self, model: SemanticModel) -> int:
        raise NotImplementedError

    def read(self, model: SemanticModel, texts: Sequence[str], *, spans: bool = True) -> list[PieceText]:
        """The texts as this library reads them: word pieces, stripped and truncated as it does (``spans=False``:
        the ids only)."""
        return model.tokenizer.encode_texts(list(texts), self.max_pieces(model), strip=self.strip_text,
                                            spans=spans)

    def context(self, model: SemanticModel, candidates: Sequence[PieceText],
                references: Sequence[Sequence[PieceText]]) -> Any:
        """What the numbers of one call depend on beyond each segment (None: nothing)."""
        return None

    def segment_values(self, index: int, candidate: PieceText, references: Sequence[PieceText],
                       cand_emb: np.ndarray, ref_embs: Sequence[np.ndarray], context: Any) -> SegmentValues:
        raise NotImplementedError

    def build_trace(self, model: SemanticModel, candidate: PieceText, references: Sequence[PieceText],
                    cand_emb: np.ndarray, ref_embs: Sequence[np.ndarray], context: Any) -> Any:
        raise NotImplementedError

    def signature(self, info: ModelInfo) -> str:
        return f"{self.name}|model:{info.name}@{info.revision}"

    def check_inputs(self, candidates: Sequence[PieceText], references: Sequence[Sequence[PieceText]]
                     ) -> tuple[list[LibraryWarning], LibraryError | None]:
        return truncation_warnings(self, candidates, references), None


def truncation_warnings(d: SemanticDialect, candidates: Sequence[PieceText],
                        references: Sequence[Sequence[PieceText]]) -> list[LibraryWarning]:
    """One note per truncated text: the library reads only its first ``max_pieces − 2`` pieces."""
    out = []
    for i, (c, refs) in enumerate(zip(candidates, references)):
        where = f"segment {i + 1}: " if len(candidates) > 1 else ""
        for what, t in [("the candidate", c)] + [(f"reference {k + 1}", r) for k, r in enumerate(refs)]:
            if t.truncated:
                out.append(LibraryWarning("truncation", f"{where}{what} has {t.total_pieces:,} word pieces; "
                                          f"{d.library} reads only the first {t.max_pieces - 2} (with [CLS] and "
                                          f"[SEP]: {t.max_pieces}), up to character {t.kept_chars:,}"))
    return out
