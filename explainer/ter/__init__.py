"""TER (Translation Edit Rate), explained step by step, reproducing sacreBLEU 2.6's ``TER`` exactly (see
docs/ter.md).

>>> from explainer.ter import explain_ter
>>> t = explain_ter("the cat sat on the mat", ["on the mat the cat sat"])
>>> t.num_edits, t.ref_length, t.score  # doctest: +SKIP

* ``explain_ter`` / ``explain_ter_corpus``: traces (corpus: per-segment traces on demand).
* ``score_ter`` / ``score_ter_corpus``: statistics only (``TerStats``), the fast path (sacreBLEU's own code).
* ``DIALECTS``, ``dialect_names()``, ``dialect_options(name)``, ``get_dialect(name, **options)``.
* ``segment_matrix`` / ``score_rows`` (``explainer.ter.stats``): the per-segment statistics and the row scorer
  of sacreBLEU's bootstrap and paired tests.

TER is an error rate: lower is better, 0 is a perfect match, and it exceeds 100 when the hypothesis needs more
edits than the reference has words.
"""
from __future__ import annotations

from typing import Any, Sequence

from explainer.ter import algorithm as _alg
from explainer.ter.dialects import TerDialect
from explainer.ter.limits import MAX_CORPUS_TRACE_CHARS, MAX_TEXT_TOKENS, MAX_TRACE_CHARS, MAX_TRACE_WORK, TooManyTokens
from explainer.ter.registry import DIALECTS, dialect_names, dialect_options, get_dialect, register_dialect
from explainer.ter.trace import TerCorpusTrace, TerStats, TerTrace

__all__ = ["explain_ter", "explain_ter_corpus", "score_ter", "score_ter_corpus", "TerTrace", "TerCorpusTrace",
           "TerStats", "TerDialect", "DIALECTS", "dialect_names", "dialect_options", "get_dialect",
           "register_dialect", "DEFAULT_DIALECT", "MAX_TRACE_CHARS", "MAX_CORPUS_TRACE_CHARS", "MAX_TEXT_TOKENS",
           "MAX_TRACE_WORK", "TooManyTokens", "segment_matrix", "score_rows"]

DEFAULT_DIALECT = "sacrebleu"


def explain_ter(candidate: str, references: Sequence[str], *, dialect: str | TerDialect = DEFAULT_DIALECT,
                **options: Any) -> TerTrace:
    """The trace of one candidate against its references (``options``: ``dialect_options(dialect)``)."""
    return _alg.explain_segment(get_dialect(dialect, **options), candidate, references)


def explain_ter_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
                       dialect: str | TerDialect = DEFAULT_DIALECT, full: bool = False,
                       **options: Any) -> TerCorpusTrace:
    """Corpus trace; ``references[i]`` is the list of references of ``candidates[i]``."""
    return _alg.explain_corpus(get_dialect(dialect, **options), candidates, references, full=full)


def score_ter(candidate: str, references: Sequence[str], *, dialect: str | TerDialect = DEFAULT_DIALECT,
              **options: Any) -> TerStats:
    """``TER(**options).sentence_score(candidate, references)``'s statistics and score."""
    return _alg.score_segment(get_dialect(dialect, **options), candidate, references)


def score_ter_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
                     dialect: str | TerDialect = DEFAULT_DIALECT, **options: Any) -> TerStats:
    """``TER(**options).corpus_score(candidates, streams)``'s statistics and score (``references`` per segment)."""
    return _alg.score_corpus(get_dialect(dialect, **options), candidates, references)


def __getattr__(name: str):
    # NumPy is imported only by those who resample (the significance tests)
    if name in ("segment_matrix", "score_rows"):
        from explainer.ter import stats

        return getattr(stats, name)
    raise AttributeError(f"module 'explainer.ter' has no attribute {name!r}")
