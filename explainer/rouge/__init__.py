"""ROUGE explainer core (pure Python; no Streamlit).

* ``explain_rouge(candidate, references, *, dialect="rouge-score", types=..., **options) -> RougeTrace``
* ``score_rouge(...) -> {type: Score}``: the same numbers without tables or alignments (fast path)
* ``explain_rouge_corpus(candidates, references, ...) -> RougeCorpusTrace`` with the dialect's aggregation
* ``DIALECTS``, ``dialect_names()``, ``dialect_options(name, corpus=...)``, ``get_dialect(name, types, **options)``,
  ``register_dialect``: the dialect registry (a dialect's module is imported when it is first used)
* shared algorithms for dialect authors: ``explainer.rouge.{ngrams,lcs,union,wlcs,skipgram}``

Types: rouge1..rouge9, rougeL, rougeLsum, rougeW-<w>, rougeS<k>, rougeSU<k>, rougeS*, rougeSU*.
Schema: docs/trace-schema-rouge.md. Dialect notes: docs/dialects-rouge.md.
"""
from explainer.rouge.dialects import MULTI_REF_POLICIES, RougeDialect
from explainer.rouge.engine import explain_rouge, explain_rouge_corpus, score_rouge
from explainer.rouge.registry import DIALECTS, dialect_names, dialect_options, get_dialect, register_dialect
from explainer.rouge.scoring import Score
from explainer.rouge.tokenize import TokenizedText
from explainer.rouge.trace import RougeCorpusTrace, RougeTrace, TextTrace, TypeResult
from explainer.rouge.types import DEFAULT_TYPES, RougeType, parse_type, parse_types

__all__ = [
    "explain_rouge", "explain_rouge_corpus", "score_rouge", "RougeTrace", "RougeCorpusTrace", "TypeResult",
    "TextTrace", "TokenizedText", "Score", "DIALECTS", "RougeDialect", "register_dialect", "get_dialect",
    "dialect_names", "dialect_options", "MULTI_REF_POLICIES", "DEFAULT_TYPES", "RougeType", "parse_type",
    "parse_types",
]
