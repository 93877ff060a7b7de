"""Meaning beside n-grams: STS (sentence-transformers) and BERTScore (bert-score 0.3.13) with all-MiniLM-L6-v2, the
model the course uses, run offline in NumPy and explained step by step (see docs/semantic.md).

>>> from explainer.semantic import explain_semantic
>>> t = explain_semantic("The feline rested on the rug", ["The cat sat on the mat"], dialect="sts")
>>> round(t.score, 3)  # doctest: +SKIP

* ``explain_semantic`` (``dialect="sts"`` / ``"bertscore"``): the trace (``StsTrace`` / ``BertScoreTrace``).
* ``score_semantic``: one segment's numbers only; ``score_semantic_corpus`` / ``score_semantic_systems``: per
  segment scores and their mean, for one or several systems (each text runs through the model once).
* ``model_info()``: the model's name, package and revision; ``DIALECTS``, ``dialect_names()``,
  ``dialect_options(name)``, ``get_dialect(name, **options)``.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from explainer.semantic import algorithm as _alg
from explainer.semantic.dialects import SemanticDialect
from explainer.semantic.limits import (
    MAX_CORPUS_CHARS,
    MAX_CORPUS_PIECES,
    MAX_INPUT_CHARS,
    MAX_REFERENCES,
    MAX_TRACE_CELLS,
)
from explainer.semantic.model import ModelMissing, load_model, model_info
from explainer.semantic.registry import DIALECTS, dialect_names, dialect_options, get_dialect, register_dialect
from explainer.semantic.scores import SemanticCorpusScores, SemanticScores

__all__ = ["explain_semantic", "score_semantic", "score_semantic_corpus", "score_semantic_systems", "model_info",
           "load_model", "ModelMissing", "SemanticDialect", "SemanticScores", "SemanticCorpusScores", "DIALECTS",
           "dialect_names", "dialect_options", "get_dialect", "register_dialect", "DEFAULT_DIALECT",
           "MAX_INPUT_CHARS", "MAX_REFERENCES", "MAX_TRACE_CELLS", "MAX_CORPUS_CHARS", "MAX_CORPUS_PIECES"]

DEFAULT_DIALECT = "sts"


def explain_semantic(candidate: str, references: Sequence[str], *, dialect: str | SemanticDialect = DEFAULT_DIALECT,
                     **options: Any):
    """The trace of one candidate against its references (``options``: ``dialect_options(dialect)``)."""
    return _alg.explain_segment(get_dialect(dialect, **options), candidate, references)


def score_semantic(candidate: str, references: Sequence[str], *, dialect: str | SemanticDialect = DEFAULT_DIALECT,
                   **options: Any) -> SemanticScores:
    return _alg.score_segment(get_dialect(dialect, **options), candidate, references)


def score_semantic_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
                          dialect: str | SemanticDialect = DEFAULT_DIALECT,
                          progress: Callable[[float], None] | None = None, **options: Any) -> SemanticCorpusScores:
    """Per-segment scores and their mean; ``references[i]`` is the list of references of ``candidates[i]``."""
    d = get_dialect(dialect, **options)
    return _alg.score_systems([d], {"": candidates}, references, progress=progress)[""][d.name]


def score_semantic_systems(systems: Mapping[str, Sequence[str]], references: Sequence[Sequence[str]], *,
                           dialects: Sequence[str | SemanticDialect] = ("sts", "bertscore"),
                           progress: Callable[[float], None] | None = None
                           ) -> dict[str, dict[str, SemanticCorpusScores]]:
    """Several systems against the same references under several dialects (bound dialects or names with default
    options): ``result[system][dialect name]``. Each distinct text runs through the model once."""
    ds = [get_dialect(d) for d in dialects]
    if len({d.name for d in ds}) != len(ds):
        raise ValueError("each dialect may be given once")
    return _alg.score_systems(ds, systems, references, progress=progress)
