"""ROUGE explainer core (pure Python; no Streamlit).

* ``explain_rouge(candidate, references, *, dialect="rouge-score", types=..., **options) -> RougeTrace``
* ``score_rouge(...) -> {type: Score}``: the same numbers without tables or alignments (fast path)
* ``explain_rouge_corpus(candidates, references, ...) -> RougeCorpusTrace`` with the dialect's aggregation
* ``DIALECTS``, ``dialect_names()``, ``dialect_options(name, corpus=...)``, ``get_dialect(name, types, **options)``,
  ``register_dialect``: the dialect registry (a dialect's module is imported when it is first used)
* shared algorithms for dialect authors: ``explainer.rouge.{ngrams,lcs,union,wlcs,skipgram}``

Types: rouge1..rouge9, rougeL, rougeLsum, rougeW-<w>, rougeS<k>, rougeSU<k>, rougeS*, rougeSU*.
Schema: docs/trace-schema-rouge.md. Dialect notes: docs/dialects-rouge.md.

The names are imported on first use, so that importing the CLI's argument parser or a
single algorithm module stays cheap.
"""
from __future__ import annotations

import importlib

_LAZY = {
    "explain_rouge": "engine", "explain_rouge_corpus": "engine", "score_rouge": "engine",
    "RougeTrace": "trace", "RougeCorpusTrace": "trace", "TypeResult": "trace", "RougeTextView": "trace",
    "TokenizedText": "tokenize", "Score": "scoring",
    "DIALECTS": "registry", "register_dialect": "registry", "get_dialect": "registry", "dialect_names": "registry",
    "dialect_options": "registry", "RougeDialect": "dialects", "MULTI_REF_POLICIES": "dialects",
    "DEFAULT_TYPES": "types", "RougeType": "types", "parse_type": "types", "parse_types": "types",
}

__all__ = list(_LAZY)


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'explainer.rouge' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"explainer.rouge.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
