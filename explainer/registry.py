"""Dialect registries: name -> dialect class, lazily.

A registry knows its built-in dialects by the path of their class (``"explainer.bleu.dialect_nltk:NltkDialect"``)
and imports a module only when that dialect is asked for, so naming the dialects, or running sacreBLEU's dialect,
never imports NLTK or the Perl ports. Nothing registers itself as a side effect of an import: other dialects are
added with :meth:`DialectRegistry.register`.

The registry is a read-only ``Mapping`` (``list(DIALECTS)``, ``"nltk" in DIALECTS`` and ``DIALECTS.get(name)`` work
as on a dict of classes). :meth:`DialectRegistry.create` returns a bound dialect; bound dialects are immutable,
so the registry keeps the last few it made (keyed by name and options, by value) and hands the same instance to
identical requests: its per-instance caches then serve repeated calls (``score_rouge`` in a loop, a corpus).
"""
from __future__ import annotations

import importlib
import threading
from collections import OrderedDict
from typing import Any, Iterator, Mapping

from explainer.options import freeze

__all__ = ["DialectRegistry"]


class DialectRegistry(Mapping):
    """The dialects of one metric family (``family`` = "BLEU" or "ROUGE"), in display order."""

    def __init__(self, family: str, builtin: Mapping[str, str], *, keep_instances: int = 32) -> None:
        self.family = family
        self._paths: dict[str, str | None] = dict(builtin)
        self._classes: dict[str, type] = {}
        self._instances: OrderedDict = OrderedDict()
        self._keep = keep_instances
        self._lock = threading.Lock()

    # ---- Mapping: name -> class (imports the dialect's module on first access)
    def __getitem__(self, name: str) -> type:
        cls = self._classes.get(name)
        if cls is not None:
            return cls
        path = self._paths.get(name) if isinstance(name, str) else None
        if path is None:
            raise KeyError(name)
        module, _, attr = path.partition(":")
        cls = getattr(importlib.import_module(module), attr)
        if cls.name != name:
            raise AssertionError(f"{path} is named {cls.name!r}, registered as {name!r}")
        self._classes[name] = cls
        return cls

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._paths))

    def __len__(self) -> int:
        return len(self._paths)

    def __contains__(self, name: object) -> bool:
        return name in self._paths

    def names(self) -> list[str]:
        return list(self._paths)

    def register(self, cls: type, *, replace: bool = False) -> type:
        """Add a dialect class (usable as a class decorator). Built-in names are taken unless ``replace``."""
        if not getattr(cls, "name", ""):
            raise ValueError("a dialect needs a name")
        if cls.name in self._paths and self._classes.get(cls.name) is not cls and not replace:
            raise ValueError(f"{self.family} dialect {cls.name!r} is already registered")
        self._paths.setdefault(cls.name, None)
        self._classes[cls.name] = cls
        self.forget_instances()
        return cls

    # ---- lookup with a message for the user
    def dialect_class(self, name: str) -> type:
        if name not in self._paths:
            raise ValueError(f"unknown {self.family} dialect {name!r}; choose one of: {', '.join(self._paths)}")
        return self[name]

    def create(self, name: str, **options: Any) -> Any:
        """A dialect bound to ``options`` (validated by its constructor). Identical requests share an instance."""
        cls = self.dialect_class(name)
        try:
            key = (name, freeze(options))
        except TypeError:           # a value without a key (unhashable): not shared
            return cls(**options)
        with self._lock:
            d = self._instances.get(key)
            if d is not None:
                self._instances.move_to_end(key)
                return d
        d = cls(**options)
        with self._lock:
            self._instances[key] = d
            while len(self._instances) > self._keep:
                self._instances.popitem(last=False)
        return d

    def forget_instances(self) -> None:
        """Drop the kept bound dialects (and with them their caches)."""
        with self._lock:
            self._instances.clear()

    def options(self, name: str, *, corpus: bool = True) -> list[dict]:
        """A dialect's options as JSON for a UI (``corpus=False``: without corpus-only options)."""
        return self.dialect_class(name).describe_options(corpus=corpus)
