"""The TER dialect registry: name -> dialect class, imported on first use (see ``explainer/registry.py``)."""
from __future__ import annotations

from typing import Any

from explainer.registry import DialectRegistry
from explainer.ter.dialects import TerDialect

__all__ = ["DIALECTS", "register_dialect", "get_dialect", "dialect_options", "dialect_names"]

#: name -> TerDialect subclass, in display order
DIALECTS = DialectRegistry("TER", {
    "sacrebleu": "explainer.ter.dialect_sacrebleu:SacreTerDialect",
})

register_dialect = DIALECTS.register


def dialect_names() -> list[str]:
    return DIALECTS.names()


def get_dialect(name: str | TerDialect, **options: Any) -> TerDialect:
    """A dialect bound to ``options`` (validated; ValueError with a clear message otherwise); an instance is
    returned as it is."""
    if isinstance(name, TerDialect):
        if options:
            raise ValueError("options cannot be given together with a dialect instance")
        return name
    return DIALECTS.create(name, **options)


def dialect_options(name: str) -> list[dict]:
    return DIALECTS.options(name)
