"""The Dialects feature's part of every registered metric family: the registration table of the families that
have their own (one line each), and the generic part for every other family (``family_part.FamilyPart``).

Adding a family needs no line here: its claims are read by its name, its dialects searched at the places they
declare and compared by option. A family whose implementations differ in steps worth naming (BLEU's tokens and
brevity penalty, ROUGE's stemming and multi-reference rule, chrF's character n-grams) adds its own part, a module
named after it, and one line below.
"""
from __future__ import annotations

import importlib
from functools import lru_cache

from explainer.dialectcmp.family_part import FamilyPart

__all__ = ["OWN_PARTS", "family_part", "family_parts", "claim_readers", "families_with_types", "part_for_choice"]

#: family name -> its own part ("module:object"); a family not listed gets the generic FamilyPart
OWN_PARTS = {
    "bleu": "explainer.dialectcmp.bleu_part:PART",
    "rouge": "explainer.dialectcmp.rouge_part:PART",
    "chrf": "explainer.dialectcmp.chrf_part:PART",
}


@lru_cache(maxsize=None)
def family_part(name: str) -> FamilyPart:
    """The part of the registered family ``name`` (ValueError naming the choices when unknown)."""
    from explainer.families import get_family

    fam = get_family(name)
    path = OWN_PARTS.get(name)
    if path is None:
        return FamilyPart(fam)
    module, _, attr = path.partition(":")
    part = getattr(importlib.import_module(module), attr)
    if part.name != name:
        raise AssertionError(f"{path} is the part of {part.name!r}, registered as {name!r}")
    return part


def family_parts() -> list[FamilyPart]:
    """Every registered family's part, in the registry's display order."""
    from explainer.families import FAMILIES

    return [family_part(n) for n in FAMILIES]


def claim_readers() -> list[FamilyPart]:
    """The parts in the order they read a claim's names."""
    return sorted(family_parts(), key=lambda p: p.claim_order)


def families_with_types() -> list[str]:
    """The families whose comparison takes ``--types``."""
    return [p.name for p in family_parts() if p.has_types]


def part_for_choice(choice: str) -> FamilyPart:
    """The part whose ``metric_choices`` hold ``choice`` (a ``--metric`` value: "bleu", "rougeL", "ter", ...)."""
    for p in family_parts():
        if choice in p.metric_choices():
            return p
    raise ValueError(f"no metric family is called {choice!r}")
