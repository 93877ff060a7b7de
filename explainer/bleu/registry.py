"""The dialect registry: name -> policy class.

Built-in dialects register themselves when their module is imported; ``_load_builtin`` imports them.
Other modules add dialects with :func:`register_dialect` (see ``explainer/bleu/dialects.py``).
"""
from __future__ import annotations

from typing import Any

from explainer.bleu.dialects import BleuDialect

__all__ = ["DIALECTS", "register_dialect", "get_dialect", "dialect_options", "dialect_names"]

#: name -> BleuDialect subclass, in display order
DIALECTS: dict[str, type[BleuDialect]] = {}


def register_dialect(cls: type[BleuDialect], *, replace: bool = False) -> type[BleuDialect]:
    """Register a dialect class under ``cls.name``. Usable as a class decorator."""
    if not cls.name:
        raise ValueError("a dialect needs a name")
    if cls.name in DIALECTS and DIALECTS[cls.name] is not cls and not replace:
        raise ValueError(f"dialect {cls.name!r} is already registered")
    DIALECTS[cls.name] = cls
    return cls


def dialect_names() -> list[str]:
    _load_builtin()
    return list(DIALECTS)


def get_dialect(name: str | BleuDialect, **options: Any) -> BleuDialect:
    """A policy instance bound to ``options`` (validated; ValueError with a clear message otherwise)."""
    if isinstance(name, BleuDialect):
        if options:
            raise ValueError("options cannot be given together with a dialect instance")
        return name
    _load_builtin()
    cls = DIALECTS.get(name)
    if cls is None:
        raise ValueError(f"unknown BLEU dialect {name!r}; choose one of: {', '.join(DIALECTS)}")
    return cls(**options)


def dialect_options(name: str) -> list[dict]:
    """The options of a dialect for a UI: name, type, choices, default, help text (and min/max)."""
    _load_builtin()
    cls = DIALECTS.get(name)
    if cls is None:
        raise ValueError(f"unknown BLEU dialect {name!r}; choose one of: {', '.join(DIALECTS)}")
    return [o.to_dict() for o in cls.OPTIONS]


_LOADED = False


def _load_builtin() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    # Built-in dialects, in the order a UI should list them. Each module calls register_dialect.
    from explainer.bleu import dialect_sacrebleu  # noqa: F401
    from explainer.bleu import dialect_nltk  # noqa: F401
    from explainer.bleu import dialect_hf  # noqa: F401
    # ---- Moses dialects (multi-bleu, mteval) register themselves here: -------------------------------
    try:
        from explainer.bleu import moses  # noqa: F401
    except ImportError as e:  # not written yet; any other error inside moses.py must surface
        if e.name != "explainer.bleu.moses":
            raise
    # -----------------------------------------------------------------------------------------------------
    from explainer.bleu import dialect_textbook  # noqa: F401
