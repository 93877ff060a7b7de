"""The chrF lesson (explainer/teach/chrf_steps.py): steps from the trace, each question's answer a trace number
that equals sacreBLEU's own statistics (computed here), and the handouts render it."""
from __future__ import annotations

import pytest
from sacrebleu.metrics import CHRF

from explainer.teach.family_lessons import chrf_lesson
from explainer.teach.lesson import MAX_LESSON_CHARS
from explainer.teach.paging import part_of

H = "It is a guide to action which ensures that the military always obeys the commands of the party."
R = ["It is a guide to action that ensures that the military will forever heed Party commands.",
     "It is the guiding principle which guarantees the military forces always being under the command of the Party."]


@pytest.mark.parametrize("opts", [{}, {"word_order": 2}, {"eps_smoothing": True, "lowercase": True}])
def test_lesson_questions_are_the_libraries_numbers(opts):
    lesson = chrf_lesson(H, R, options=opts, title="chrF")
    ids = [i for i in lesson.step_ids() if part_of(i)[1] == 1]     # a long table's later parts aside
    assert ids[:3] == ["chrf-text", "chrf-ngrams", "chrf-prf"] and ids[-1] == "chrf-average"
    assert ("chrf-words" in ids) == bool(opts.get("word_order")) and "chrf-refs" in ids
    m = CHRF(**opts)
    want = m.sentence_score(H, R)
    q = {s.id: s.question for s in lesson.steps}
    assert q["chrf-average"].answer == pytest.approx(want.score, abs=1e-9)
    # the kept reference's statistics are sacreBLEU's segment statistics
    stats = m._extract_corpus_statistics([H], [[r] for r in R])[0]
    assert q["chrf-ngrams"].answer in stats[2::3]
    assert q["chrf-text"].answer == len("".join(m._preprocess_segment(H).split()))
    assert 0 < q["chrf-prf"].answer <= 1


def test_nltk_lesson_and_handouts():
    from explainer.ui.teach.teach_html import handout_html
    from explainer.ui.teach.teach_markdown import handout_markdown

    lesson = chrf_lesson(H, R[:1], dialect="nltk", title="chrF (NLTK)")
    assert "chrf-refs" not in lesson.step_ids()
    md = handout_markdown(lesson)
    html = handout_html(lesson)
    final = lesson.steps[-1].question
    assert final.shown in md and final.shown in html


def test_lesson_limit():
    with pytest.raises(ValueError, match="a lesson takes at most"):
        chrf_lesson("a" * MAX_LESSON_CHARS, ["b"])
