"""The registered metric families, in display order: the one list every feature, command and page loops over.

Like the dialect registries (``explainer/registry.py``), the list names each family by the path of its object and
imports a family's package only when it is first used: naming the families imports no metric.

Adding a family: its core package with ``family.py`` (a :class:`explainer.family.MetricFamily`), one line here,
and one line in each layer that shows it (``explainer/ui/families/__init__.py``, the CLI's
command table): docs/architecture.md, "How to add a metric family".
"""
from __future__ import annotations

import importlib
import threading
from typing import TYPE_CHECKING, Iterator, Mapping

if TYPE_CHECKING:       # the contract is imported with the first family (it imports NumPy): naming them needs none
    from explainer.family import MetricFamily

__all__ = ["FAMILIES", "FamilyRegistry", "get_family", "family_names", "claim_value"]


class FamilyRegistry(Mapping):
    """name -> :class:`MetricFamily`, imported on first access, in display order."""

    def __init__(self, builtin: Mapping[str, str]) -> None:
        self._paths = dict(builtin)
        self._objects: dict[str, MetricFamily] = {}
        self._lock = threading.Lock()

    def __getitem__(self, name: str) -> MetricFamily:
        fam = self._objects.get(name)
        if fam is not None:
            return fam
        path = self._paths.get(name) if isinstance(name, str) else None
        if path is None:
            raise KeyError(name)
        module, _, attr = path.partition(":")
        fam = getattr(importlib.import_module(module), attr)
        from explainer.family import MetricFamily

        if not isinstance(fam, MetricFamily) or fam.name != name:
            raise AssertionError(f"{path} is not the metric family {name!r}")
        with self._lock:
            self._objects[name] = fam
        return fam

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._paths))

    def __len__(self) -> int:
        return len(self._paths)

    def __contains__(self, name: object) -> bool:
        return name in self._paths

    def names(self) -> list[str]:
        return list(self._paths)

    def get_family(self, name: str) -> MetricFamily:
        """The family ``name`` (ValueError naming the choices when unknown)."""
        if name not in self._paths:
            raise ValueError(f"unknown metric {name!r}; choose one of: {', '.join(self._paths)}")
        return self[name]

    def by_label(self) -> dict[str, str]:
        """label -> name ("chrF" -> "chrf"), for reading a name as people write it."""
        return {self[n].label: n for n in self._paths}


#: every metric family, in display order
FAMILIES = FamilyRegistry({
    "bleu": "explainer.bleu.family:BLEU",
    "rouge": "explainer.rouge.family:ROUGE",
    "chrf": "explainer.chrf.family:CHRF",
    "ter": "explainer.ter.family:TER",
    "semantic": "explainer.semantic.family:SEMANTIC",
})


def get_family(name: str) -> MetricFamily:
    return FAMILIES.get_family(name)


def family_names() -> list[str]:
    return FAMILIES.names()


def claim_value(metric: str, traces: Mapping[str, object]) -> float | None:
    """The true value of a worked example's claim ``metric`` (``explainer.examples.CLAIM_METRICS``), read by the
    family whose trace says it (``traces``: family name -> trace object or its ``to_dict()``, or None); None when
    no computed trace says it."""
    for name, trace in traces.items():
        if trace is not None and name in FAMILIES:
            v = FAMILIES[name].claim_value(metric, trace)
            if v is not None:
                return v
    return None

