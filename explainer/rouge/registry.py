"""The ROUGE dialect registry: name -> dialect class, imported on first use (see ``explainer/registry.py``)."""
from __future__ import annotations

from typing import Any

from explainer.registry import DialectRegistry
from explainer.rouge.dialects import RougeDialect

__all__ = ["DIALECTS", "register_dialect", "get_dialect", "dialect_options", "dialect_names"]

#: name -> RougeDialect subclass, in display order
DIALECTS = DialectRegistry("ROUGE", {
    "rouge-score": "explainer.rouge.dialect_rouge_score:RougeScoreDialect",
    "hf-evaluate": "explainer.rouge.dialect_hf:HfEvaluateDialect",
    "textbook": "explainer.rouge.dialect_textbook:TextbookDialect",
    "rouge155": "explainer.rouge.rouge155.dialect:Rouge155Dialect",
    "rouge-chinese": "explainer.rouge.dialect_pltrdy:RougeChineseDialect",
    "pltrdy": "explainer.rouge.dialect_pltrdy:PltrdyDialect",
    "rouge-metric": "explainer.rouge.dialect_rouge_metric:RougeMetricDialect",
    "torchmetrics": "explainer.rouge.dialect_torchmetrics:TorchmetricsRougeDialect",
})

#: add a dialect class: ``register_dialect(MyDialect)``
register_dialect = DIALECTS.register


def dialect_names() -> list[str]:
    return DIALECTS.names()


def get_dialect(name: str | RougeDialect, types: Any = None, **options: Any) -> RougeDialect:
    """A dialect bound to ``types`` (None: its default types) and ``options`` (validated; ValueError otherwise).
    A dialect instance is returned as it is (it is already bound)."""
    if isinstance(name, RougeDialect):
        if types is not None or options:
            raise ValueError("types and options cannot be given together with a dialect instance")
        return name
    return DIALECTS.create(name, types=types, **options)


def dialect_options(name: str, *, corpus: bool = False) -> list[dict]:
    """Options of a dialect for a UI: name, type, default, help, choices, min/max, label, scope (the corpus-only
    options too when ``corpus=True``, marked ``corpus_only``)."""
    return DIALECTS.options(name, corpus=corpus)
