"""One validation rule for dialect option values, shared by the BLEU and ROUGE cores.

Values arrive typed (Python API) or as strings (CLI ``-o KEY=VALUE``, URL parameters); ``coerce_value``
converts them to the option's type and checks them, raising ValueError with a message meant for the user.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

__all__ = ["coerce_value"]

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _range_text(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"between {lo:g} and {hi:g}"
    return f"at least {lo:g}" if lo is not None else f"at most {hi:g}"


def coerce_value(name: str, type_: str, value: Any, *, choices: Sequence | None = None,
                 lo: float | None = None, hi: float | None = None) -> Any:
    """``value`` as an option of type ``type_`` ("bool", "choice", "int", "float"), within [lo, hi]."""
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
        try:
            x: float = int(value)
        except (TypeError, ValueError):
            raise ValueError(f"option {name} expects an integer, got {value!r}") from None
    elif type_ == "float":
        try:
            x = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"option {name} expects a number, got {value!r}") from None
        if not math.isfinite(x):
            raise ValueError(f"option {name} expects a finite number, got {value!r}")
    else:
        raise AssertionError(f"unknown option type {type_}")
    if (lo is not None and x < lo) or (hi is not None and x > hi):
        raise ValueError(f"option {name} must be {_range_text(lo, hi)}, got {value!r}")
    return x
