"""The Teach side of a metric family: how its lesson is built from its trace, which of the textbook's printed
numbers it answers, and which exercise items it asks. Pure (no Streamlit).

A :class:`LessonFamily` is registered once (:data:`explainer.teach.families.LESSONS`, one line per family) beside
the core's :class:`explainer.family.MetricFamily`; the lesson builder (:mod:`explainer.teach.lesson`), the exercise
sets (:mod:`explainer.teach.exercises`) and the Teach page loop over the registered lessons and call these hooks,
so none of them names a family. Each family's object lives in its own steps module (``bleu_steps.LESSON`` …).
"""
from __future__ import annotations

import random
from typing import Any, ClassVar, Mapping, Sequence

from explainer.teach.model import Step, num

__all__ = ["LessonFamily"]


class LessonFamily:
    """Base class of a family's lesson. Subclasses set :attr:`name` (the core family's) and implement
    :meth:`steps`; the other hooks have defaults that fit a family without them."""

    #: the core family's name (``explainer.families.FAMILIES``)
    name: ClassVar[str] = ""
    #: what the lesson's "order followed" means for this family ("" = it follows none): the sidebar's help
    focus_what: ClassVar[str] = ""
    #: a worked example's printed numbers this family's trace answers: claim metric -> the step it appears at
    claim_steps: ClassVar[Mapping[str, str]] = {}
    #: the exercise kinds this family asks (``exercise``), in a set's order before it is shuffled
    exercise_kinds: ClassVar[tuple[str, ...]] = ()
    #: a kind's title in the exercise list
    kind_titles: ClassVar[Mapping[str, str]] = {}

    # ------------------------------------------------------------------ the core family
    @property
    def core(self):
        from explainer.families import FAMILIES

        return FAMILIES[self.name]

    @property
    def label(self) -> str:
        return self.core.label

    @property
    def description(self) -> str:
        return self.core.description

    def trace_options(self, dialect: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options the lesson's trace is computed with (hook: ROUGE fixes its types)."""
        return dict(options)

    def trace(self, dialect: str | None, options: Mapping[str, Any], candidate: str,
              references: Sequence[str]) -> dict:
        """The family's trace of the texts as a dict (``to_dict()``); ValueError with a message for input the
        family refuses (bad options, texts it cannot score)."""
        core = self.core
        d = core.bind(dialect or core.default_dialect, **self.trace_options(dialect or core.default_dialect,
                                                                             options))
        return core.explain(d, candidate, list(references)).to_dict()

    # ------------------------------------------------------------------ the lesson
    def steps(self, trace: dict, focus: int | None = None) -> list[Step]:
        """Hook: the walkthrough of one trace dict; ``focus``: the order followed (1-based; None: the lesson's
        own choice)."""
        raise NotImplementedError

    def max_focus(self, dialect: str | None, options: Mapping[str, Any]) -> int:
        """The highest order the lesson can follow with these settings (0: it follows none)."""
        return 0

    def summary(self, trace: dict) -> dict:
        """The lesson's header line for this family: ``label``, ``implementation``, ``signature`` and what the
        tests and handouts read (the score, the dialect)."""
        return {"label": self.label, "implementation": self.implementation(trace),
                "signature": trace.get("signature", ""), "dialect": trace.get("dialect", "")}

    def warnings(self, trace: dict) -> list[str]:
        """What the trace warns about that no step shows (the lesson lists it under its title)."""
        return []

    def implementation(self, trace: dict) -> str:
        """Which implementation the trace reproduces, as a sentence names it."""
        return trace.get("implementation") or trace.get("dialect_label") or trace.get("dialect", "")

    def claim_shown(self, metric: str, value: float, trace: dict) -> str:
        """A claim's true value as the lesson's steps show it."""
        return num(value)

    def case_variant(self, dialect: str | None, options: Mapping[str, Any]) -> dict[str, Any] | None:
        """The options under which the same lesson compares tokens without case, when these settings are
        case-sensitive and the dialect has such a switch (None otherwise): a student's number that holds there
        is named as the case mix-up. Default: the dialect's ``lowercase`` option, when it is off."""
        core = self.core
        cls = core.dialects.get(dialect or core.default_dialect)
        if cls is None or "lowercase" not in {o.name for o in cls.option_specs(scope="segment")}:
            return None
        if options.get("lowercase"):
            return None
        return {**dict(options), "lowercase": True}

    def case_setting(self) -> str:
        """The case switch in words (a hint names it)."""
        return "lowercase"

    # ------------------------------------------------------------------ exercises
    def exercise(self, index: int, kind: str, level: str, rng: random.Random, options: Mapping[str, Any]):
        """Hook: an :class:`explainer.teach.exercises.Exercise` of ``kind`` at ``level`` (texts from ``rng``),
        asked under the family's default dialect with ``options``."""
        raise NotImplementedError

    def exercise_options(self, dialect: str | None, options: Mapping[str, Any]) -> dict[str, Any]:
        """Which of the lecture's settings its exercises keep (default: none: the library's defaults)."""
        return {}

    def exercise_source(self, options: Mapping[str, Any]) -> str:
        """Whose numbers an exercise asks for, in words."""
        return f"{self.implementation({'dialect': self.core.default_dialect}) or self.label} with its defaults"
