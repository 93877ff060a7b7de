"""Dialect options: one spec type and one value rule for every dialect of both metric families.

An :class:`OptionSpec` describes one option for the cores (validation), the CLI (``-o KEY=VALUE``), URL
parameters and widgets (type, bounds, choices, label, help) and the attack generators' parameters. Values
arrive typed (Python API) or as strings (CLI, URL parameters); :meth:`OptionSpec.coerce` converts them to the
option's type and checks them, raising ValueError with a message meant for the user. :func:`bind_options`
applies the specs of a dialect to the options it is constructed with, once.

Types:

==================  ===================================================================================
``bool``            true/false; with ``default=None`` a *tristate* (None = "the library's default",
                    resolved by the dialect), shown by :attr:`OptionSpec.kind` as ``"tristate"``
``choice``          one of ``choices``
``int``, ``float``  a number in [``min``, ``max``]; floats must be finite
``optional_float``  a float or None (= the library's default, resolved by the dialect)
``float_list``      a tuple of finite floats (a string: comma- or space-separated); ``max`` = most items
``text``            a string of at most ``max`` characters
==================  ===================================================================================

``scope`` is ``"segment"`` (changes every score) or ``"corpus"`` (only how a corpus is aggregated; the
single-segment functions refuse it).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

__all__ = ["OptionSpec", "OPTION_TYPES", "coerce_value", "bind_options", "format_value", "freeze"]

OPTION_TYPES = ("bool", "choice", "int", "float", "optional_float", "float_list", "text")
SCOPES = ("segment", "corpus")

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _range_text(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"between {lo:g} and {hi:g}"
    return f"at least {lo:g}" if lo is not None else f"at most {hi:g}"


def coerce_value(name: str, type_: str, value: Any, *, choices: Sequence | None = None,
                 lo: float | None = None, hi: float | None = None) -> Any:
    """``value`` as an option of scalar type ``type_`` ("bool", "choice", "int", "float"), within [lo, hi]."""
    if type_ == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE + _FALSE:
            return value.lower() in _TRUE
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise ValueError(f"option {name} expects true/false, got {value!r}")
    if type_ == "choice":
        if value not in (choices or ()):
            raise ValueError(f"option {name} must be one of {', '.join(map(str, choices or ()))}, got {value!r}")
        return value
    if type_ == "int":
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise ValueError(f"option {name} expects an integer, got {value!r}")
        if isinstance(value, str) and len(value.strip()) > 30:   # int() of thousands of digits is slow
            raise ValueError(f"option {name} expects an integer, got a {len(value):,}-character string")
        try:
            x: float = int(value)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"option {name} expects an integer, got {value!r}") from None
    elif type_ == "float":
        if isinstance(value, str) and len(value.strip()) > 100:
            raise ValueError(f"option {name} expects a number, got a {len(value):,}-character string")
        try:
            x = float(value)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"option {name} expects a number, got {value!r}") from None
        if not math.isfinite(x):
            raise ValueError(f"option {name} expects a finite number, got {value!r}")
    else:
        raise AssertionError(f"unknown option type {type_}")
    if (lo is not None and x < lo) or (hi is not None and x > hi):
        raise ValueError(f"option {name} must be {_range_text(lo, hi)}, got {value!r}")
    return x


def _coerce_float_list(name: str, value: Any, max_items: float | None) -> tuple[float, ...]:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    try:
        v = tuple(float(x) for x in value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"option {name}: expected a list of numbers, got {value!r}") from None
    if not v:
        raise ValueError(f"option {name}: needs at least one number")
    if not all(math.isfinite(x) for x in v):
        raise ValueError(f"option {name}: numbers must be finite")
    if max_items is not None and len(v) > max_items:
        raise ValueError(f"option {name}: at most {int(max_items)} numbers")
    return v


@dataclass(frozen=True)
class OptionSpec:
    """One option of a dialect (or of an attack generator), described for validation, the CLI, links and
    widgets. ``default`` is the library's default; ``None`` means "resolved by the dialect" (e.g. sacreBLEU's
    ``effective_order`` follows ``api``). ``min``/``max`` bound a number (``float_list``: the number of
    items; ``text``: its length). ``label`` is a short name for a widget (default: the name in words)."""

    name: str
    type: str
    default: Any
    help: str = ""
    choices: tuple | None = None
    min: float | None = None
    max: float | None = None
    scope: str = "segment"
    label: str = ""

    def __post_init__(self) -> None:
        if self.type not in OPTION_TYPES:
            raise ValueError(f"option {self.name}: unknown type {self.type!r}")
        if self.scope not in SCOPES:
            raise ValueError(f"option {self.name}: unknown scope {self.scope!r}")
        if isinstance(self.default, list):
            object.__setattr__(self, "default", tuple(self.default))
        if self.choices is not None and not isinstance(self.choices, tuple):
            object.__setattr__(self, "choices", tuple(self.choices))

    @property
    def kind(self) -> str:
        """The widget kind: the type, except a ``bool`` with default None, which is ``"tristate"``."""
        return "tristate" if self.type == "bool" and self.default is None else self.type

    @property
    def corpus_only(self) -> bool:
        return self.scope == "corpus"

    @property
    def display_label(self) -> str:
        return self.label or self.name.replace("_", " ")

    def coerce(self, value: Any) -> Any:
        """Validate and normalise a user value (None stays None: "the default"); ValueError otherwise."""
        if value is None:
            return None
        t = self.type
        if t == "float_list":
            return _coerce_float_list(self.name, value, self.max)
        if t == "text":
            if not isinstance(value, str):
                raise ValueError(f"option {self.name} expects text, got {type(value).__name__}")
            if self.max is not None and len(value) > self.max:
                raise ValueError(f"option {self.name}: at most {int(self.max)} characters")
            return value
        kind = "float" if t == "optional_float" else t
        return coerce_value(self.name, kind, value, choices=self.choices, lo=self.min, hi=self.max)

    def to_dict(self) -> dict:
        """JSON description (the format of ``dialect_options``)."""
        d = {"name": self.name, "type": self.type,
             "default": list(self.default) if isinstance(self.default, tuple) else self.default,
             "help": self.help, "choices": list(self.choices) if self.choices is not None else None,
             "min": self.min, "max": self.max, "label": self.display_label, "scope": self.scope}
        if self.corpus_only:
            d["corpus_only"] = True
        return d


def bind_options(owner: str, specs: Iterable[OptionSpec], given: Mapping[str, Any], *,
                 aliases: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Every option of ``specs``: the given value (coerced) or the default. ``None`` means "the default".
    An unknown name raises ValueError naming ``owner`` (e.g. "the nltk dialect") and its options."""
    by_name = {s.name: s for s in specs}
    out = {name: s.default for name, s in by_name.items()}
    unknown = []
    for key, value in given.items():
        name = aliases.get(key, key) if aliases else key
        spec = by_name.get(name)
        if spec is None:
            unknown.append(key)
            continue
        if value is not None:
            out[name] = spec.coerce(value)
    if unknown:
        raise ValueError(f"{owner} has no option {', '.join(map(repr, sorted(unknown)))}; "
                         f"its options are: {', '.join(by_name) or '(none)'}")
    return out


def format_value(v: Any) -> str:
    """An option value as text that :meth:`OptionSpec.coerce` reads back to the same value (the command line's
    ``-o NAME=VALUE``): bools as true/false, floats by ``repr``, lists comma-separated."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (tuple, list)):
        return ",".join(format_value(float(x)) for x in v)
    return str(v)


def freeze(value: Any) -> Any:
    """The one hashable key of an option value (or a mapping of them), used by the registry, the bound dialect's
    identity and every cache. It tells apart what Python's ``==`` does not and an implementation may: ``True`` /
    ``1`` / ``1.0`` (NLTK tells ``alpha=5`` from ``alpha=5.0``), ``0.0`` / ``-0.0``, a list from a tuple (NLTK
    again); mappings compare as sorted items. A value of another type must be hashable (TypeError otherwise)."""
    if isinstance(value, Mapping):
        return ("dict", tuple(sorted((str(k), freeze(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(freeze(v) for v in value))
    if isinstance(value, float):
        return ("float", repr(value))
    if value is None or isinstance(value, (str, bool, int)):
        return (type(value).__name__, value)
    hash(value)         # TypeError for an unhashable value: it has no key
    return (type(value).__name__, value)
