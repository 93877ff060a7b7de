"""Teach: a step-through lesson over the metric families' traces (one section per family of a lecture), questions
that check a student, generated exercise sets and "spot the gaming attack" items. Pure Python (no Streamlit); the
Teach page and the handouts (explainer/ui/teach/) render what this package builds."""
from explainer.teach.answers import Check, check_answer, parse_number
from explainer.teach.family_lessons import build_lesson, lesson_from_traces
from explainer.teach.lesson import MAX_LESSON_CHARS, LessonPart, build_lecture
from explainer.teach.model import Chart, Chip, Formula, LcsGrid, Lesson, Para, Question, Result, Step, Table, TokenRow
from explainer.teach.rouge_steps import LESSON_TYPES

__all__ = ["build_lesson", "lesson_from_traces", "build_lecture", "LessonPart", "LESSON_TYPES", "MAX_LESSON_CHARS",
           "check_answer", "parse_number", "Check", "Lesson", "Step", "Question", "Para", "TokenRow", "Chip",
           "Table", "Formula", "Chart", "LcsGrid", "Result"]
