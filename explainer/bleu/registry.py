"""The BLEU dialect registry: name -> dialect class, imported on first use (see ``explainer/registry.py``).

The built-in dialects, in the order a UI lists them, by the path of their class. Naming them imports nothing;
``get_dialect("sacrebleu")`` imports only the sacreBLEU dialect's module (not NLTK, not the Moses ports).
"""
from __future__ import annotations

from typing import Any

from explainer.bleu.dialects import BleuDialect
from explainer.registry import DialectRegistry

__all__ = ["DIALECTS", "register_dialect", "get_dialect", "dialect_options", "dialect_names"]

#: name -> BleuDialect subclass, in display order
DIALECTS = DialectRegistry("BLEU", {
    "sacrebleu": "explainer.bleu.dialect_sacrebleu:SacreBleuDialect",
    "nltk": "explainer.bleu.dialect_nltk:NltkDialect",
    "hf-evaluate": "explainer.bleu.dialect_hf:HfEvaluateDialect",
    "multi-bleu": "explainer.bleu.moses.dialects:MultiBleuDialect",
    "mteval": "explainer.bleu.moses.dialects:MtevalDialect",
    "textbook": "explainer.bleu.dialect_textbook:TextbookDialect",
    "torchmetrics": "explainer.bleu.dialect_torchmetrics:TorchmetricsBleuDialect",
    "torchmetrics-sacrebleu": "explainer.bleu.dialect_torchmetrics:TorchmetricsSacreBleuDialect",
    "google-bleu": "explainer.bleu.dialect_gleu:GoogleBleuDialect",
})

#: add a dialect class (usable as a class decorator): ``register_dialect(MyDialect)``
register_dialect = DIALECTS.register


def dialect_names() -> list[str]:
    return DIALECTS.names()


def get_dialect(name: str | BleuDialect, **options: Any) -> BleuDialect:
    """A dialect bound to ``options`` (validated; ValueError with a clear message otherwise). A dialect
    instance is returned as it is (it is already bound)."""
    if isinstance(name, BleuDialect):
        if options:
            raise ValueError("options cannot be given together with a dialect instance")
        return name
    return DIALECTS.create(name, **options)


def dialect_options(name: str) -> list[dict]:
    """The options of a dialect for a UI: name, type, default, help text, choices, min/max, label, scope."""
    return DIALECTS.options(name)
