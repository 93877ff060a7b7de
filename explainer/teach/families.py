"""The registered lessons: one line per metric family (the module holding its
:class:`explainer.teach.family.LessonFamily`, imported on first use), in the core registry's order. The lesson
builder, the exercise sets and the Teach page loop over :func:`lesson_families` and never name a family.

Adding a family's lesson: its steps module with a ``LESSON`` object, one line in :data:`LESSONS`
(docs/architecture.md, "How to add a metric family")."""
from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any, Mapping

from explainer.teach.family import LessonFamily

__all__ = ["LESSONS", "PAIR_STEPS", "DEFAULT_LECTURE", "OLD_LECTURES", "lesson_family", "lesson_families",
           "lesson_names", "pair_steps", "read_lecture"]

#: family name -> ``module:attribute`` of its lesson
LESSONS = {
    "bleu": "explainer.teach.bleu_steps:LESSON",
    "rouge": "explainer.teach.rouge_steps:LESSON",
    "chrf": "explainer.teach.chrf_steps:LESSON",
    "ter": "explainer.teach.ter_steps:LESSON",
    "semantic": "explainer.teach.semantic_steps:LESSON",
}

#: steps about two families together, placed after the later family's section: (first, second) -> function of
#: their two trace dicts returning a step
PAIR_STEPS = {("bleu", "rouge"): "explainer.teach.bleu_rouge:compare_step"}

#: the lecture a link without a lesson opens (and every earlier version's default)
DEFAULT_LECTURE = ("bleu", "rouge")

#: the lesson values earlier versions wrote (``metric=``): the families, and options they imply per family
OLD_LECTURES: Mapping[str, tuple[tuple[str, ...], Mapping[str, Mapping[str, Any]]]] = {
    "bleu-rouge": (("bleu", "rouge"), {}),
    "chrf++": (("chrf",), {"chrf": {"word_order": 2}}),
}


def _load(path: str):
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


@lru_cache(maxsize=None)
def lesson_family(name: str) -> LessonFamily:
    """The lesson of family ``name`` (KeyError when it has none)."""
    obj = _load(LESSONS[name])
    if not isinstance(obj, LessonFamily) or obj.name != name:
        raise AssertionError(f"{LESSONS[name]} is not the lesson of {name!r}")
    return obj


def lesson_names() -> tuple[str, ...]:
    """Every family with a lesson, in the core registry's display order."""
    from explainer.families import FAMILIES

    return tuple(n for n in FAMILIES if n in LESSONS)


def lesson_families() -> tuple[LessonFamily, ...]:
    return tuple(lesson_family(n) for n in lesson_names())


def pair_steps(done: tuple[str, ...], name: str) -> list:
    """The functions of the pair steps that go after ``name``'s section, given the families already taught
    (``done``, in order)."""
    return [_load(path) for (a, b), path in PAIR_STEPS.items() if b == name and a in done]


def read_lecture(raw: str | None) -> tuple[tuple[str, ...], dict[str, dict[str, Any]], list[str]]:
    """The families of a lesson value (``bleu,rouge,chrf``; an earlier version's ``bleu-rouge``, ``chrf++``; None:
    the default), the options it implies per family, and the values no family has."""
    if raw is None or raw == "":
        return DEFAULT_LECTURE, {}, []
    if raw in OLD_LECTURES:
        names, options = OLD_LECTURES[raw]
        return tuple(names), {k: dict(v) for k, v in options.items()}, []
    known = set(lesson_names())
    parts = [p.strip() for p in raw.split(",") if p.strip()]
    bad = [p for p in parts if p not in known]
    names = tuple(n for n in lesson_names() if n in parts)
    return (names or DEFAULT_LECTURE), {}, bad
