"""The semantic dialect registry: name -> dialect class, imported on first use (see ``explainer/registry.py``)."""
from __future__ import annotations

from typing import Any

from explainer.registry import DialectRegistry
from explainer.semantic.dialects import SemanticDialect

__all__ = ["DIALECTS", "register_dialect", "get_dialect", "dialect_options", "dialect_names"]

#: name -> SemanticDialect subclass, in display order
DIALECTS = DialectRegistry("semantic", {
    "sts": "explainer.semantic.dialect_sts:StsDialect",
    "bertscore": "explainer.semantic.dialect_bertscore:BertScoreDialect",
})

register_dialect = DIALECTS.register


def dialect_names() -> list[str]:
    return DIALECTS.names()


def get_dialect(name: str | SemanticDialect, **options: Any) -> SemanticDialect:
    """A dialect bound to ``options`` (validated; ValueError with a clear message otherwise); an instance is
    returned as it is."""
    if isinstance(name, SemanticDialect):
        if options:
            raise ValueError("options cannot be given together with a dialect instance")
        return name
    return DIALECTS.create(name, **options)


def dialect_options(name: str) -> list[dict]:
    return DIALECTS.options(name)
