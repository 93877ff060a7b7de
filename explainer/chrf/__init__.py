"""chrF and chrF++, explained step by step, reproducing sacreBLEU's ``CHRF`` and NLTK's ``chrf_score`` exactly
(see docs/chrf.md).

>>> from explainer.chrf import explain_chrf
>>> t = explain_chrf("the cat sat on the mat", ["the cat is on the mat"], word_order=2)
>>> t.name, round(t.score, 4)  # doctest: +SKIP

* ``explain_chrf`` / ``explain_chrf_corpus``: traces (corpus: per-segment traces on demand).
* ``score_chrf`` / ``score_chrf_corpus``: statistics only (``ChrfStats``), the fast path.
* ``DIALECTS``, ``dialect_names()``, ``dialect_options(name)``, ``get_dialect(name, **options)``.
"""
from __future__ import annotations

from typing import Any, Sequence

from explainer.chrf import algorithm as _alg
from explainer.chrf.algorithm import MAX_CORPUS_TRACE_CHARS, MAX_TRACE_CHARS
from explainer.chrf.dialects import ChrfDialect
from explainer.chrf.registry import DIALECTS, dialect_names, dialect_options, get_dialect, register_dialect
from explainer.chrf.spans import candidate_spans
from explainer.chrf.trace import ChrfCorpusTrace, ChrfStats, ChrfTrace

__all__ = ["explain_chrf", "explain_chrf_corpus", "score_chrf", "score_chrf_corpus", "ChrfTrace", "ChrfCorpusTrace",
           "ChrfStats", "ChrfDialect", "DIALECTS", "dialect_names", "dialect_options", "get_dialect",
           "register_dialect", "DEFAULT_DIALECT", "MAX_TRACE_CHARS", "MAX_CORPUS_TRACE_CHARS", "candidate_spans"]

DEFAULT_DIALECT = "sacrebleu"


def explain_chrf(candidate: str, references: Sequence[str], *, dialect: str = DEFAULT_DIALECT,
                 **options: Any) -> ChrfTrace:
    """The trace of one candidate against its references (``options``: ``dialect_options(dialect)``)."""
    return _alg.explain_segment(get_dialect(dialect, **options), candidate, references)


def explain_chrf_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
                        dialect: str = DEFAULT_DIALECT, full: bool = False, **options: Any) -> ChrfCorpusTrace:
    """Corpus trace; ``references[i]`` is the list of references of ``candidates[i]``."""
    return _alg.explain_corpus(get_dialect(dialect, **options), candidates, references, full=full)


def score_chrf(candidate: str, references: Sequence[str], *, dialect: str = DEFAULT_DIALECT,
               **options: Any) -> ChrfStats:
    return _alg.score_segment(get_dialect(dialect, **options), candidate, references)


def score_chrf_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
                      dialect: str = DEFAULT_DIALECT, **options: Any) -> ChrfStats:
    return _alg.score_corpus(get_dialect(dialect, **options), candidates, references)
