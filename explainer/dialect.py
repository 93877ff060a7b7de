"""The dialect contract shared by both metric families.

A *dialect* reproduces one real implementation (sacreBLEU, NLTK, rouge-score, ROUGE-1.5.5, ...). Like
sacreBLEU's ``BLEU(tokenize=..., smooth_method=...)`` and rouge-score's ``RougeScorer(types, use_stemmer)``,
a dialect object is constructed with its options bound:

* ``OPTIONS`` (class attribute) lists its :class:`~explainer.options.OptionSpec` s;
* the constructor validates the options once (:func:`~explainer.options.bind_options`; unknown names and bad
  values raise ValueError with a message for the user), lets the subclass derive what it needs
  (``_setup``) and then freezes ``options`` (a read-only mapping): a bound dialect never changes, so one
  instance can serve many calls and threads;
* ``signature`` describes every option that changes a number;
* :meth:`Dialect.cached` keeps per-instance caches (tokenized references, signatures), bounded in entries
  and in size;
* a bound dialect *is* the value "dialect + bound options": equal and hashable by :attr:`Dialect.key` (family,
  name, options as bound, and what else it binds, e.g. ROUGE's types), so the registry, the shared caches, the
  Corpus and Dialects features, reproduce and the CLI all key their work on it and no other shape is needed.

What differs between implementations is a hook or a capability of the dialect (class attributes and methods
here and in the families' base classes), never a comparison of ``name`` elsewhere
(``tests/test_architecture.py`` fails on one).

The families add their hooks on top: :class:`explainer.bleu.dialects.BleuDialect` and
:class:`explainer.rouge.dialects.RougeDialect`. Dialects are found by name through a
:class:`explainer.registry.DialectRegistry`, which imports a dialect's module only when it is asked for.
"""
from __future__ import annotations

import threading
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping, Sequence

from explainer.options import OptionSpec, bind_options, freeze

if TYPE_CHECKING:
    from explainer.search_space import SearchContext, SearchPoint

__all__ = ["Dialect", "BoundedCache"]

_MISSING = object()


class BoundedCache:
    """A small dict cache that empties itself when it holds more than ``max_entries`` entries or more than
    ``max_cost`` units (e.g. characters of the cached texts). Safe to share between threads: the worst case
    of a race is computing a value twice."""

    __slots__ = ("max_entries", "max_cost", "_data", "_cost", "_lock")

    def __init__(self, max_entries: int = 256, max_cost: int = 2_000_000) -> None:
        self.max_entries = max_entries
        self.max_cost = max_cost
        self._data: dict = {}
        self._cost = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    def get_or_build(self, key: Any, build: Callable[[], Any], cost: int = 1) -> Any:
        value = self._data.get(key, _MISSING)
        if value is not _MISSING:
            return value
        value = build()
        if cost > self.max_cost:
            return value            # too large to keep
        with self._lock:
            if len(self._data) >= self.max_entries or self._cost + cost > self.max_cost:
                self._data.clear()
                self._cost = 0
            self._data[key] = value
            self._cost += cost
        return value

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._cost = 0


class Dialect:
    """Base class of every dialect: options bound at construction, validated once, then read-only."""

    #: "BLEU" or "ROUGE" (messages and the registry)
    family: ClassVar[str] = ""
    name: ClassVar[str] = ""
    label: ClassVar[str] = ""
    implementation: ClassVar[str] = ""
    description: ClassVar[str] = ""
    #: the implementation's short name in a sentence ("sacreBLEU", "ROUGE-1.5.5")
    short_label: ClassVar[str] = ""
    #: how standard the implementation is (0 = the reference implementation of its family): the order of the
    #: side-by-side rows and of equally good reproduce matches
    rank: ClassVar[int] = 9
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    #: the metric's original implementation (its authors' or the evaluation campaign's script: ROUGE-1.5.5,
    #: mteval-v13a.pl): named first when several implementations give a claimed number
    original: ClassVar[bool] = False
    #: why the reproduce search does not try this dialect ("" when it does: ``search_configs`` says how)
    search_excluded: ClassVar[str] = ""
    #: other names accepted for options (e.g. ``stem`` for ``use_stemmer``)
    ALIASES: ClassVar[Mapping[str, str]] = {}

    def __init__(self, **options: Any) -> None:
        opts = bind_options(f"the {self.name} dialect", self.option_specs(), options, aliases=self.ALIASES)
        self._caches: dict[str, BoundedCache] = {}
        self.options: Mapping[str, Any] = opts
        self._setup()
        self.options = MappingProxyType(opts)
        self._key: tuple | None = None

    def _bound_extra(self) -> tuple:
        """Hook: what the dialect binds besides its options (ROUGE: its types), hashable."""
        return ()

    # ---- value semantics: a bound dialect is its family, name and bound options
    @property
    def key(self) -> tuple:
        """The hashable value "this dialect with these options" (what every cache keys on)."""
        if self._key is None:    # first use: a family's constructor may bind more after the options
            self._key = (self.family, self.name, freeze(self.options)) + self._bound_extra()
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dialect) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    @classmethod
    def option_specs(cls, scope: str | None = None) -> tuple[OptionSpec, ...]:
        """The dialect's options (``scope="segment"`` / ``"corpus"``: only those)."""
        return tuple(o for o in cls.OPTIONS if scope is None or o.scope == scope)

    @classmethod
    def describe_options(cls, *, corpus: bool = True) -> list[dict]:
        """The options as JSON for a UI (``corpus=False`` leaves out corpus-only options)."""
        return [o.to_dict() for o in cls.OPTIONS if corpus or not o.corpus_only]

    @classmethod
    def search_configs(cls, context: "SearchContext") -> list["SearchPoint"] | None:
        """Hook: this dialect's place in the reproduce search space (``explainer/search_space.py``): the option
        combinations tried in ``context``, each with its cost and words, simplest first ([] when none applies
        there). None: not declared (a dialect that is not searched says why in ``search_excluded``)."""
        return None

    @classmethod
    def comparison_rows(cls, texts: Sequence[str] = ()) -> list[dict]:
        """Hook: the rows this dialect adds to the side-by-side comparison of ``texts`` (candidate(s) and
        references), the notable option combinations of the dialect: ``{"options", "id", "label", "note"}`` each,
        in display order. The default: the dialect with its defaults."""
        return [{"options": {}, "id": cls.name, "label": cls.short_label or cls.label, "note": cls.description}]

    def _setup(self) -> None:
        """Hook: derive tokenizers, flags etc. from ``self.options`` (still writable here) and check
        combinations of options (raise ValueError)."""

    def describe(self) -> dict:
        return {"name": self.name, "label": self.label, "implementation": self.implementation,
                "description": self.description}

    def cached(self, table: str, key: Any, build: Callable[[], Any], *, cost: int = 1,
               max_entries: int = 256, max_cost: int = 2_000_000) -> Any:
        """``build()``, remembered per instance in cache ``table`` under ``key``."""
        cache = self._caches.get(table)
        if cache is None:
            cache = self._caches.setdefault(table, BoundedCache(max_entries, max_cost))
        return cache.get_or_build(key, build, cost)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"
