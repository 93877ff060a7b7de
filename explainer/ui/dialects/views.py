"""Each registered family's view on the Dialects page: the registration table of the families that have their own
(one line each), and the generic view (``part.DialectsView``) for every other family, so that a family added to
``explainer.families.FAMILIES`` is on the page without an edit here.

``table_rows``, ``scores_figure`` and ``side_html`` dispatch a comparison to its family's view (the Corpus page's
implementations table uses them too).
"""
from __future__ import annotations

import importlib
from functools import lru_cache

from explainer.ui.dialects.part import DialectsView

__all__ = ["OWN_VIEWS", "dialects_view", "table_rows", "scores_figure", "side_html", "views_fields"]

#: family name -> its own view ("module:object"); a family not listed gets the generic DialectsView
OWN_VIEWS = {
    "bleu": "explainer.ui.dialects.bleu_part:VIEW",
    "rouge": "explainer.ui.dialects.rouge_part:VIEW",
    "chrf": "explainer.ui.dialects.chrf_part:VIEW",
}


@lru_cache(maxsize=None)
def dialects_view(name: str) -> DialectsView:
    """The view of family ``name`` on the Dialects page."""
    path = OWN_VIEWS.get(name)
    if path is None:
        return DialectsView(name)
    module, _, attr = path.partition(":")
    view = getattr(importlib.import_module(module), attr)
    if view.name != name:
        raise AssertionError(f"{path} is the view of {view.name!r}, registered as {name!r}")
    return view


def table_rows(cmp, *, base=None) -> list[dict]:
    """The side-by-side table of a comparison, one record per row (its family's view)."""
    return dialects_view(cmp.metric).table(cmp, cmp.candidate, cmp.references, base=base)


def scores_figure(cmp):
    """Every row's score as a bar (its family's view)."""
    return dialects_view(cmp.metric).figure(cmp)


def side_html(cmp, div, side: str) -> str:
    """One side of a divergence, escaped HTML (the families with step tables: BLEU, ROUGE)."""
    return dialects_view(cmp.metric).side_html(cmp, div, side)


def views_fields() -> tuple:
    """Every registered family's view's own page-state fields (the page declares them with its own)."""
    from explainer.families import FAMILIES

    return tuple(f for name in FAMILIES for f in dialects_view(name).own_fields())
