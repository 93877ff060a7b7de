"""Teach: a step-through lesson over the BLEU and ROUGE traces, questions that check a student, generated
exercise sets and "spot the gaming attack" items. Pure Python (no Streamlit); the Teach page and the
handouts (explainer/ui/teach_*.py) render what this package builds."""
from explainer.teach.answers import Check, check_answer, parse_number
from explainer.teach.lesson import LESSON_TYPES, MAX_LESSON_CHARS, build_lesson, lesson_from_traces
from explainer.teach.model import Chart, Chip, Formula, LcsGrid, Lesson, Para, Question, Result, Step, Table, TokenRow

__all__ = ["build_lesson", "lesson_from_traces", "LESSON_TYPES", "MAX_LESSON_CHARS", "check_answer",
           "parse_number", "Check", "Lesson", "Step", "Question", "Para", "TokenRow", "Chip", "Table", "Formula",
           "Chart", "LcsGrid", "Result"]
