"""The student's sheet (HTML and Markdown), for every worked example: a blank under every question with what the
question gives, no worked answer before the answers, the LCS table empty (full in the teacher's handout), the
answers last. The printed page count is tested in Chromium (tests/browser/test_student_sheet_browser.py)."""
from __future__ import annotations

import html as htmllib
import re
from functools import lru_cache

import pytest

from explainer.examples import example_ids, get_example
from explainer.teach import build_lesson
from explainer.teach.model import LcsGrid
from explainer.ui.highlight import escape_text
from explainer.ui.teach.teach_html import blocks_html, handout_html
from explainer.ui.teach.teach_markdown import block_markdown, handout_markdown

IDS = example_ids()
LINK = "https://metrics.example.org/?page=teach&example=x"


@lru_cache(maxsize=None)
def _lesson(eid):
    ex = get_example(eid)
    return build_lesson(ex.candidate, list(ex.references), title=ex.title)


def _text(markup: str) -> str:
    """What a reader sees of some HTML: the tags removed, entities decoded, white space folded."""
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def _occurs(number: str, text: str) -> bool:
    """``number`` as a whole number in ``text`` ("0.3077" is not in "0.30771", "7" not in "17" or "0.7")."""
    return re.search(r"(?<![\w.])" + re.escape(number) + r"(?![\w]|\.\d)", text) is not None


def _given_text(lesson) -> str:
    """Everything the sheet gives on purpose: every question's prompt, hint and given blocks."""
    return " ".join(f"{q.prompt} {q.hint} {_text(blocks_html(q.given))}" for _, q in lesson.questions())


def _split(doc: str) -> tuple[str, str]:
    """(the steps, the answers) of an HTML handout."""
    head, rest = doc.split('<section class="step"', 1)
    steps, answers = rest.split('<section class="answers"', 1)
    return steps, answers


@pytest.mark.parametrize("eid", IDS)
def test_every_question_has_a_blank_with_what_it_gives(eid):
    lesson = _lesson(eid)
    steps, _ = _split(handout_html(lesson, student=True))
    sections = steps.split('<section class="step"')
    assert len(sections) == len(lesson.steps)
    for sec, s in zip(sections, lesson.steps):
        q = s.question
        assert sec.count('class="blank"') == (q is not None), s.id
        if q is not None:
            assert escape_text(q.prompt) in sec and blocks_html(q.given) in sec, s.id
    md = handout_markdown(lesson, student=True)
    body = md.split("\n## Answers\n", 1)[0]
    md_sections = re.split(r"\n(?=## Step )", body)[1:]
    assert len(md_sections) == len(lesson.steps)
    for sec, s in zip(md_sections, lesson.steps):
        q = s.question
        assert sec.count("**Your answer:** \\_\\_\\_") == (q is not None), s.id
        for b in (q.given if q else ()):
            assert block_markdown(b) in sec, (s.id, b)


@pytest.mark.parametrize("eid", IDS)
def test_no_worked_answer_before_the_answers(eid):
    """Each answer not given on purpose (a later question may give an earlier result: "LCS = 2; …") appears
    nowhere before the answers — and the same check finds it in the teacher's handout, so it is not vacuous."""
    lesson = _lesson(eid)
    given = _given_text(lesson)
    student_html, _ = _split(handout_html(lesson, student=True, link=LINK))
    teacher_html, _ = _split(handout_html(lesson, link=LINK))
    student, teacher = _text(student_html), _text(teacher_html)
    student_md = handout_markdown(lesson, student=True, link=LINK).split("\n## Answers\n", 1)[0]
    checked = found_in_teacher = 0
    for i, q in lesson.questions():
        if _occurs(q.shown, given):
            continue
        checked += 1
        assert not _occurs(q.shown, student), (lesson.steps[i].id, q.shown)
        assert not _occurs(q.shown, student_md.replace("\\", "")), (lesson.steps[i].id, q.shown)
        found_in_teacher += _occurs(q.shown, teacher)
    # every lesson checks at least its precision fraction and its BLEU score, which the teacher's handout shows
    # as written (a brevity penalty is written there with fewer digits)
    assert checked >= 2 and found_in_teacher >= 2, (checked, found_in_teacher)


def _html_grids(markup: str) -> list[list[list[str]]]:
    """Each LCS table's rows of inner-table cells (``<td>`` contents, the first column of zeros included)."""
    grids = re.findall(r'<div class="tgrid[^"]*"[^>]*>(.*?)</table>', markup, re.S)
    return [[re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", g, re.S)[1:]]
            for g in grids]


def _expected(g: LcsGrid, *, blank: bool) -> list[list[str]]:
    return [[str(v) if not blank or ri == 0 or ci == 0 else "" for ci, v in zip(g.col_index, g.values[a])]
            for a, ri in enumerate(g.row_index)]


@pytest.mark.parametrize("eid", IDS)
def test_the_lcs_table_is_empty_on_the_sheet_and_full_in_the_teachers(eid):
    lesson = _lesson(eid)
    grids = [b for s in lesson.steps for b in s.blocks if isinstance(b, LcsGrid)]
    assert grids
    student, student_answers = _split(handout_html(lesson, student=True))
    teacher, _ = _split(handout_html(lesson))
    assert _html_grids(student) == [_expected(g, blank=True) for g in grids]
    assert _html_grids(teacher) == [_expected(g, blank=False) for g in grids]
    # the inner cells to compute really are there, empty, and the answers page has them filled
    assert sum(row.count("") for g in _html_grids(student) for row in g) >= min(
        (len(g.row_index) - 1) * (len(g.col_index) - 1) for g in grids)
    assert _html_grids(student_answers) == [_expected(g, blank=False) for g in grids]


def _md_grids(md: str) -> list[list[list[str]]]:
    """Each Markdown LCS table (its head starts with "| | ∅ |") as rows of cells after the token column."""
    out = []
    for table in re.findall(r"^ *\| +\| ∅ \|.*?(?=\n\n)", md, re.M | re.S):
        rows = [r.strip().strip("|").split(" | ") for r in table.split("\n")[2:]]
        out.append([[c.strip().strip("*") for c in r[1:]] for r in rows])
    return out


@pytest.mark.parametrize("eid", IDS)
def test_the_markdown_sheet_has_the_empty_table_and_the_answers_last(eid):
    lesson = _lesson(eid)
    grids = [b for s in lesson.steps for b in s.blocks if isinstance(b, LcsGrid)]
    md = handout_markdown(lesson, student=True)
    body, answers = md.split("\n## Answers\n", 1)
    assert "\n## " not in answers   # the answers are the last section
    assert _md_grids(body) == [_expected(g, blank=True) for g in grids]
    assert _md_grids(answers) == [_expected(g, blank=False) for g in grids]
    assert _md_grids(handout_markdown(lesson)) == [_expected(g, blank=False) for g in grids]
    for i, q in lesson.questions():
        assert f"**Step {i + 1} · " in answers and q.shown.replace("/", "/") in answers.replace("\\", "")


def test_a_split_lcs_table_leaves_its_carried_row_empty():
    """The second part of a long LCS table starts at a row of numbers (the first part's last): empty too."""
    lesson = _lesson("military_c1")
    parts = [b for s in lesson.steps for b in s.blocks if isinstance(b, LcsGrid)]
    assert len(parts) == 2 and parts[1].row_index[0] != 0 and any(parts[1].values[0][1:])
    student, _ = _split(handout_html(lesson, student=True))
    carried = _html_grids(student)[1][0]
    assert carried[1:] == [""] * (len(carried) - 1)
