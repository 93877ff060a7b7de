"""The UI part of every metric family, in the core registry's order (:data:`explainer.families.FAMILIES`).

One line per family (the module of its :class:`explainer.ui.families.base.UiFamily`, imported on first use);
pages loop over :func:`ui_families` and never name a family."""
from __future__ import annotations

import importlib
from functools import lru_cache

from explainer.ui.families.base import Computed, DialectChoice, Download, Number, UiFamily

__all__ = ["UI_FAMILIES", "ui_families", "ui_family", "UiFamily", "DialectChoice", "Computed", "Number",
           "Download"]

#: family name -> the module holding its ``UI`` object
UI_FAMILIES = {
    "bleu": "explainer.ui.families.bleu",
    "rouge": "explainer.ui.families.rouge",
    "chrf": "explainer.ui.families.chrf",
    "ter": "explainer.ui.families.ter",
    "semantic": "explainer.ui.families.semantic",
}


@lru_cache(maxsize=None)
def ui_family(name: str) -> UiFamily:
    """The UI part of family ``name`` (KeyError when the family has none)."""
    ui = importlib.import_module(UI_FAMILIES[name]).UI
    if ui.name != name:
        raise AssertionError(f"{UI_FAMILIES[name]} holds the UI of {ui.name!r}, registered as {name!r}")
    return ui


def ui_families() -> tuple[UiFamily, ...]:
    """Every family with a UI part, in the core registry's display order."""
    from explainer.families import FAMILIES

    return tuple(ui_family(n) for n in FAMILIES if n in UI_FAMILIES)
