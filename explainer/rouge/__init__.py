"""ROUGE explainer core (pure Python; no Streamlit).

* ``explain_rouge(candidate, references, *, dialect="rouge-score", types=..., **options) -> RougeTrace``
* ``score_rouge(...) -> {type: Score}``: the same numbers without tables or alignments (fast path)
* ``explain_rouge_corpus(candidates, references, ...) -> RougeCorpusTrace`` with the dialect's aggregation
* ``DIALECTS``, ``register_dialect``, ``get_dialect``, ``dialect_options(name)``
* shared algorithms for dialect authors: ``explainer.rouge.{ngrams,lcs,union,wlcs,skipgram}``

Types: rouge1..rouge9, rougeL, rougeLsum, rougeW-<w>, rougeS<k>, rougeSU<k>, rougeS*, rougeSU*.
Schema: docs/trace-schema-rouge.md. Dialect notes: docs/dialects-rouge.md.
"""
from explainer.rouge.dialects import (DIALECTS, MULTI_REF_POLICIES, Dialect, Option, Prepared, dialect_options,
                                      get_dialect, register_dialect)
from explainer.rouge.engine import explain_rouge, explain_rouge_corpus, score_rouge
from explainer.rouge.scoring import Score
from explainer.rouge.trace import RougeCorpusTrace, RougeTrace, TextView, TypeResult
from explainer.rouge.types import DEFAULT_TYPES, RougeType, parse_type, parse_types
from explainer.rouge.dialects import _load_plugins

_load_plugins()  # so DIALECTS also lists dialects defined in their own modules (rouge155)

__all__ = [
    "explain_rouge", "explain_rouge_corpus", "score_rouge", "RougeTrace", "RougeCorpusTrace", "TypeResult",
    "TextView", "Score", "DIALECTS", "Dialect", "Option", "Prepared", "register_dialect", "get_dialect",
    "dialect_options", "MULTI_REF_POLICIES", "DEFAULT_TYPES", "RougeType", "parse_type", "parse_types",
]
