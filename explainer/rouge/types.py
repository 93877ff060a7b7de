"""ROUGE type names: `rouge1`..`rouge9`, `rougeL`, `rougeLsum`, `rougeW-<w>`, `rougeS<k>`, `rougeSU<k>`, `rougeS*`."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["RougeType", "parse_type", "parse_types", "DEFAULT_TYPES"]

DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")

_N_RE = re.compile(r"rouge([1-9])$")
_W_RE = re.compile(r"rougeW-([0-9]+(?:\.[0-9]+)?)$")
_S_RE = re.compile(r"rouge(SU|S)(\*|[0-9]+)$")


@dataclass(frozen=True)
class RougeType:
    """A parsed ROUGE type. ``kind`` is one of "N", "L", "Lsum", "W", "S", "SU"."""

    name: str
    kind: str
    n: int = 0                  # ROUGE-N order
    weight: float = 0.0         # ROUGE-W weight
    skip: int | None = None     # ROUGE-S/SU maximum gap (None = unlimited, "*")

    @property
    def label(self) -> str:
        if self.kind == "N":
            return f"ROUGE-{self.n}"
        if self.kind in ("L", "Lsum"):
            return "ROUGE-L" if self.kind == "L" else "ROUGE-Lsum"
        if self.kind == "W":
            return f"ROUGE-W-{_fmt_w(self.weight)}"
        return f"ROUGE-{self.kind}{'*' if self.skip is None else self.skip}"


def _fmt_w(w: float) -> str:
    return repr(w).rstrip("0").rstrip(".") if "." in repr(w) else repr(w)


@lru_cache(maxsize=256)
def parse_type(name: str) -> RougeType:
    """Parse one type name; raises ValueError with the list of valid forms."""
    s = str(name).strip()
    if s == "rougeL":
        return RougeType(s, "L")
    if s == "rougeLsum":
        return RougeType(s, "Lsum")
    m = _N_RE.match(s)
    if m:
        return RougeType(s, "N", n=int(m.group(1)))
    m = _W_RE.match(s)
    if m:
        w = float(m.group(1))
        if not w > 0:
            raise ValueError(f"invalid ROUGE type {name!r}: the ROUGE-W weight must be > 0")
        return RougeType(s, "W", weight=w)
    m = _S_RE.match(s)
    if m:
        skip = None if m.group(2) == "*" else int(m.group(2))
        return RougeType(s, m.group(1), skip=skip)
    raise ValueError(
        f"invalid ROUGE type {name!r}: use rouge1..rouge9, rougeL, rougeLsum, rougeW-<weight> (e.g. rougeW-1.2), "
        "rougeS<k>, rougeSU<k> (e.g. rougeS4, rougeSU4) or rougeS*, rougeSU*"
    )


def parse_types(types) -> tuple[RougeType, ...]:
    if isinstance(types, str):
        types = [t for t in types.split(",") if t.strip()]
    out: list[RougeType] = []
    seen = set()
    for t in types:
        rtype = t if isinstance(t, RougeType) else parse_type(str(t))
        if rtype.name not in seen:
            seen.add(rtype.name)
            out.append(rtype)
    if not out:
        raise ValueError("no ROUGE type given")
    return tuple(out)
