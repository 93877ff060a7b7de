"""The families' settings as the tests walk them: per family its dialects and each dialect's options with their
link names (``explainer.ui.families``), the way the tests of the old per-family schema did."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explainer.ui.families import ui_family
from explainer.ui.families.rouge import TYPE_CHOICES as ROUGE_TYPE_CHOICES

__all__ = ["schema", "supported_types", "ROUGE_TYPE_CHOICES", "DEFAULT_ROUGE_TYPES"]

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


@dataclass(frozen=True)
class Spec:
    """An option as a page offers it: the core's name, the link's ``param``, the widget's ``key``, and the
    field's type, default (the page's: an int default of a float option is a float), choices and bounds."""

    name: str
    param: str
    key: str
    type: str
    kind: str
    default: Any
    choices: tuple | None
    min: float | None
    max: float | None


@dataclass(frozen=True)
class Schema:
    family: str

    @property
    def fam(self):
        return ui_family(self.family)

    @property
    def dialects(self) -> tuple[str, ...]:
        return self.fam.dialects()

    @property
    def default_dialect(self) -> str:
        return self.fam.default_dialect

    @property
    def dialect_param(self) -> str:
        return self.fam.dialect_param

    def specs(self, dialect: str) -> tuple[Spec, ...]:
        out = []
        for core, f in zip(self.fam.option_specs(dialect), self.fam.option_fields(dialect)):
            s = f.spec
            out.append(Spec(core.name, f.param, f.key, s.type, s.kind, s.default, s.choices, s.min, s.max))
        return tuple(out)

    def defaults(self, dialect: str) -> dict[str, Any]:
        return {s.name: s.default for s in self.specs(dialect)}


def schema(family: str) -> Schema:
    return Schema(family)


def supported_types(dialect: str, types) -> tuple[tuple[str, ...], list[str]]:
    from explainer.ui.settings import choice_for

    return ui_family("rouge").supported(choice_for("rouge", dialect, types=tuple(types)))
