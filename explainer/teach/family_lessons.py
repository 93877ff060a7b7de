"""A whole lesson in one call, for a family or the BLEU-and-ROUGE lecture every earlier version taught: the
shortcuts over the generic lecture builder (:mod:`explainer.teach.lesson`) that the API, the tests and the
handouts use. The families' step modules only turn a trace into steps; the shortcuts live here so those modules
do not import the lesson builder, which reads the registry that names them."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from explainer.examples import Claim
from explainer.teach.chrf_steps import LESSON as CHRF
from explainer.teach.lesson import LessonPart, build_lecture, lesson_of_traces
from explainer.teach.lesson_size import check_size
from explainer.teach.model import Lesson
from explainer.teach.ter_steps import LESSON as TER

__all__ = ["build_lesson", "lesson_from_traces", "chrf_lesson", "ter_lesson"]


def lesson_from_traces(bleu_trace, rouge_trace, *, title: str = "", focus_order: int | None = None,
                       notes: Sequence[str] = (), claims: Sequence[Claim] = ()) -> Lesson:
    """The BLEU and ROUGE lesson of existing traces (objects or their ``to_dict()``); either may be None (that
    family is left out and ``notes`` says why)."""
    return lesson_of_traces([("bleu", bleu_trace), ("rouge", rouge_trace)], title=title, focus=focus_order,
                            notes=notes, claims=claims)


def build_lesson(candidate: str, references: Sequence[str], *, bleu_dialect: str = "sacrebleu",
                 bleu_options: Mapping[str, Any] | None = None, rouge_dialect: str = "rouge-score",
                 rouge_options: Mapping[str, Any] | None = None, focus_order: int | None = None,
                 title: str = "", claims: Sequence[Claim] = ()) -> Lesson:
    """The BLEU and ROUGE lesson of the texts (the lecture of :func:`explainer.teach.lesson.build_lecture` with
    those two parts). Input the cores refuse becomes a note and that family is left out; a lesson over
    ``MAX_LESSON_CHARS`` raises ``ValueError``."""
    parts = (LessonPart("bleu", bleu_dialect, dict(bleu_options or {})),
             LessonPart("rouge", rouge_dialect, dict(rouge_options or {})))
    return build_lecture(candidate, references, parts, focus=focus_order, title=title, claims=claims)


def chrf_lesson(candidate: str, references: Sequence[str], *, dialect: str = "sacrebleu",
                options: Mapping[str, Any] | None = None, title: str = "", focus: int | None = None) -> Lesson:
    """A chrF lesson for one candidate and its references (the texts limited as every lesson's:
    ``explainer.teach.lesson_size.MAX_LESSON_CHARS``); ValueError with a message for bad input. ``focus``: the
    index of the character order followed (None: where clipping matters)."""
    check_size(candidate, references)
    t = CHRF.trace(dialect, dict(options or {}), candidate, references)
    return lesson_of_traces([("chrf", t)], title=title, focus=None if focus is None else focus + 1,
                            notes=CHRF.warnings(t), candidate=candidate, references=list(references))


def ter_lesson(candidate: str, references: Sequence[str], *, dialect: str = "sacrebleu",
               options: Mapping[str, Any] | None = None, title: str = "") -> Lesson:
    """A TER lesson for one candidate and its references (the texts limited as every lesson's:
    ``explainer.teach.lesson_size.MAX_LESSON_CHARS``); ValueError with a message for bad input."""
    check_size(candidate, references)
    t = TER.trace(dialect, dict(options or {}), candidate, references)
    return lesson_of_traces([("ter", t)], title=title, notes=TER.warnings(t), candidate=candidate,
                            references=list(references))
