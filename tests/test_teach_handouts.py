"""The two handouts: the teacher's (as before, with each step's formula in LaTeX) and the student's — blanks
instead of the worked numbers under each question, the answers at the end, no speaker notes; file names that name
the lesson."""
from __future__ import annotations

import re

import pytest

from explainer.examples import EXAMPLES, get_example
from explainer.teach import build_lesson
from explainer.teach.handout import STEP_TEX, handout_name
from explainer.teach.model import Formula, Result, Table
from explainer.ui.teach.teach_html import handout_html
from explainer.ui.teach.teach_markdown import block_markdown, handout_markdown
from tests.latex_eval import chains


def _lesson(eid="papineni_the"):
    ex = get_example(eid)
    return build_lesson(ex.candidate, list(ex.references), title=ex.title)


def _sections(md: str) -> dict[str, str]:
    """Step heading -> its text (up to the next step or the answers)."""
    parts = re.split(r"\n(?=## )", md)
    return {p.split("\n", 1)[0]: p for p in parts if p.startswith("## ")}


def _worked(step):
    """The step's blocks that carry its worked numbers (not what the question gives)."""
    return [b for b in step.blocks if isinstance(b, (Formula, Result, Table)) and b not in step.question.given]


@pytest.mark.parametrize("eid", ["papineni_the", "cat_mat", "abandon_hope"])
def test_the_students_handout_has_blanks_answers_at_the_end_and_no_notes(eid):
    lesson = _lesson(eid)
    md = handout_markdown(lesson, student=True)
    assert "**Say:**" not in md and "Common misconception" not in md and "student's handout" in md
    body, answers = md.split("## Answers", 1)
    secs = _sections(body)
    for i, s in enumerate(lesson.steps):
        sec = next(v for k, v in secs.items() if k.startswith(f"## Step {i + 1} ·"))
        if s.question is None:
            continue
        assert "**Your answer:** \\_\\_\\_" in sec
        for b in _worked(s):
            assert block_markdown(b) not in sec, (s.id, b)
        assert f"{s.question.shown} — " in answers or f"** {s.question.shown} — " in answers
    teacher = handout_markdown(lesson)
    assert "**Say:**" in teacher and "Your answer:" not in teacher
    # the same in HTML
    html = handout_html(lesson, student=True)
    assert "Say:</b>" not in html and "Common misconception" not in html and html.count('class="blank"') == len(
        lesson.questions())
    assert html.index('id="answers"') > html.rindex('class="blank"')
    assert "Say:</b>" in handout_html(lesson)


def test_latex_formulas_in_the_markdown():
    lesson = _lesson()
    md = handout_markdown(lesson)
    ids = [s.id for s in lesson.steps]
    for sid, tex in STEP_TEX.items():
        if sid in ids:
            assert f"$$\n{tex}\n$$" in md
        assert tex.count("{") == tex.count("}") and tex.count("\\begin") == tex.count("\\end")
        chains(tex)   # the formulas' reader takes them (symbols only: nothing to evaluate)
    assert md.count("$$") >= 2 * 6


def test_file_names_name_the_lesson():
    names = set()
    for ex in EXAMPLES[:6]:
        lesson = build_lesson(ex.candidate, list(ex.references), title=ex.title)
        t, s = handout_name(lesson, student=False, ext="html"), handout_name(lesson, student=True, ext="md")
        assert t.startswith("bleu-rouge-") and t.endswith("-teacher.html") and s.endswith("-student.md")
        assert re.fullmatch(r"[a-z0-9.-]+", t) and t != "bleu-rouge-lesson.html"
        assert re.sub(r"[^a-z0-9]+", "-", ex.title.lower()).strip("-")[:20] in t
        names.add(t)
    assert len(names) == 6
    own = build_lesson("Ünïcode cat sat", ["the cat sat"], title="Your own text")
    assert handout_name(own, student=True, ext="html") == "bleu-rouge-own-text-unicode-cat-sat-student.html"
