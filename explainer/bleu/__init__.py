"""BLEU, explained step by step, reproducing real implementations exactly (see docs/trace-schema-bleu.md).

>>> from explainer.bleu import explain_bleu
>>> t = explain_bleu("the cat sat on the mat", ["the cat is on the mat"], dialect="sacrebleu")
>>> t.score, t.signature  # doctest: +SKIP

* ``explain_bleu`` / ``explain_bleu_corpus``: full traces (corpus: per-segment traces on demand).
* ``score_bleu`` / ``score_bleu_corpus``: statistics only (``BleuStats``), the fast path.
* ``bootstrap_bleu_corpus``: sacreBLEU's bootstrap mean and 95 % CI, reproduced exactly.
* ``DIALECTS``, ``dialect_names()``, ``dialect_options(name)``, ``get_dialect(name, **options)``,
  ``register_dialect``: the dialect registry (a dialect's module is imported when it is first used).
"""
from __future__ import annotations

from typing import Any, Sequence

from explainer.bleu import algorithm as _alg
from explainer.bleu.algorithm import streams_to_segments
from explainer.bleu.bootstrap import MAX_BOOTSTRAP, BleuBootstrap, bootstrap_bleu_corpus
from explainer.bleu.dialects import BleuDialect
from explainer.bleu.limits import MAX_CORPUS_TRACE_CHARS, MAX_TRACE_CHARS, TraceTooLarge
from explainer.bleu.registry import DIALECTS, dialect_names, dialect_options, get_dialect, register_dialect
from explainer.bleu.trace import BleuCorpusTrace, BleuStats, BleuTrace
from explainer.options import OptionSpec

__all__ = ["explain_bleu", "explain_bleu_corpus", "score_bleu", "score_bleu_corpus", "BleuTrace",
           "BleuCorpusTrace", "BleuStats", "DIALECTS", "dialect_options", "dialect_names", "register_dialect",
           "get_dialect", "BleuDialect", "OptionSpec", "streams_to_segments", "DEFAULT_DIALECT",
           "bootstrap_bleu_corpus", "BleuBootstrap", "MAX_BOOTSTRAP", "MAX_TRACE_CHARS", "MAX_CORPUS_TRACE_CHARS",
           "TraceTooLarge"]

DEFAULT_DIALECT = "sacrebleu"


def explain_bleu(candidate: str, references: Sequence[str], *, dialect: str = DEFAULT_DIALECT,
                 **options: Any) -> BleuTrace:
    """Full trace of one candidate against its references under ``dialect`` with its ``options``
    (see ``dialect_options(dialect)``). Never raises for what the real library would fail on: that is
    recorded in ``trace.library_error``. Raises ``ExplainerInputError`` / ``ValueError`` for bad input."""
    return _alg.explain_segment(get_dialect(dialect, **options), candidate, references)


def explain_bleu_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
                        dialect: str = DEFAULT_DIALECT, full: bool = False, **options: Any) -> BleuCorpusTrace:
    """Corpus trace. ``references[i]`` is the list of references of ``candidates[i]``. Per-segment full
    traces are built on demand (``trace.segment(i)``), or all at once with ``full=True``."""
    return _alg.explain_corpus(get_dialect(dialect, **options), candidates, references, full=full)


def score_bleu(candidate: str, references: Sequence[str], *, dialect: str = DEFAULT_DIALECT,
               **options: Any) -> BleuStats:
    """Statistics only for one segment (no tokens, positions or assignments)."""
    return _alg.score_segment(get_dialect(dialect, **options), candidate, references)


def score_bleu_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
                      dialect: str = DEFAULT_DIALECT, **options: Any) -> BleuStats:
    """Statistics only for a corpus: per-segment vectors, summed, combined."""
    return _alg.score_corpus(get_dialect(dialect, **options), candidates, references)
