"""The traps a page or a command shows for one family's settings, as data (each family's own checks:
``MetricFamily.traps``; the checks themselves: ``explainer.trapchecks``)."""
from __future__ import annotations

from typing import Any, Sequence

from explainer.families import FAMILIES

__all__ = ["page_traps"]


def page_traps(family: str, candidates: Sequence[str], references: Sequence[Sequence[str]], dialect: str,
               *, corpus: bool = True, **options: Any) -> list[dict]:
    """The traps of ``candidates`` / ``references`` (``references[i]``: segment i's references) under family
    ``family``'s named dialect and options (ROUGE: ``types=`` among them), each ``{"code", "message", "detail"}``.
    Options the dialect refuses give no traps (the page reports the option error itself)."""
    fam = FAMILIES[family]
    try:
        d = fam.bind(dialect, **options)
    except ValueError:
        return []
    return [t.to_dict() for t in fam.traps(d, candidates, references, corpus=corpus)]
