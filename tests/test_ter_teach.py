"""The TER lesson (explainer/teach/ter_steps.py): steps from the trace, each question's answer a trace number that
equals sacreBLEU's own (its TER, its edit distance, its shift loop, computed here), and the handouts render it."""
from __future__ import annotations

import pytest
from sacrebleu.metrics import TER
from sacrebleu.metrics import lib_ter as L

from explainer.teach.family_lessons import ter_lesson
from explainer.teach.lesson import MAX_LESSON_CHARS
from explainer.teach.ter_steps import NOTES

H = "It is a guide to action which ensures that the military always obeys the commands of the party."
R = ["It is a guide to action that ensures that the military will forever heed Party commands.",
     "It is the guiding principle which guarantees the military forces always being under the command of the Party."]


def _library_shifts(words_h, words_r) -> int:
    ed = L.BeamEditDistance(words_r)
    cur, n, checked = list(words_h), 0, 0
    while True:
        delta, new, checked = L._shift(cur, words_r, ed, checked)
        if checked >= L._MAX_SHIFT_CANDIDATES or delta <= 0:
            return n
        n, cur = n + 1, new


@pytest.mark.parametrize("opts", [{}, {"normalized": True}, {"no_punct": True, "case_sensitive": True}])
def test_lesson_questions_are_the_librarys_numbers(opts):
    lesson = ter_lesson(H, R, options=opts, title="TER")
    assert lesson.step_ids() == ["ter-tokens", "ter-distance", "ter-shifts", "ter-alignment", "ter-refs",
                                 "ter-score"]
    assert all(s.family == "TER" for s in lesson.steps)
    q = {s.question.id: s.question for s in lesson.steps}
    m = TER(**opts)
    want = m.sentence_score(H, R)
    edits, length = m._extract_corpus_statistics([H], [[r] for r in R])[0]
    assert q["ter-score"].answer == pytest.approx(want.score, abs=1e-9) and q["ter-score"].scale == 100
    ref_words = m._cache_references([[r] for r in R])[0]["ref_words"]
    hyp_words = m._preprocess_segment(H).split()
    per_ref = [L.translation_edit_rate(hyp_words, w)[0] for w in ref_words]
    k = per_ref.index(min(per_ref))
    assert q["ter-kept"].answer == k + 1 and min(per_ref) == edits
    assert q["ter-ref-words"].answer == len(ref_words[k])
    assert q["ter-initial-distance"].answer == L.BeamEditDistance(ref_words[k])(hyp_words)[0]
    n_shifts = _library_shifts(hyp_words, ref_words[k])
    assert q["ter-shifts"].answer == n_shifts
    assert q["ter-edits-left"].answer + n_shifts == edits


def test_one_reference_no_refs_step_and_the_notes_say_lower_is_better():
    lesson = ter_lesson("a b c d e f", ["b c x"], title="TER")
    assert "ter-refs" not in lesson.step_ids()
    score = lesson.steps[-1]
    assert "lower is better" in score.say and "above 100" in score.say
    assert "Higher TER is better" in score.misconception
    assert score.question.answer == TER().sentence_score("a b c d e f", ["b c x"]).score > 100
    assert any("Above 100" in getattr(b, "text", "") for b in score.blocks)
    assert set(NOTES) == set(lesson.step_ids()) | {"ter-refs"}


def test_alignment_chips_carry_letters():
    lesson = ter_lesson("the cat sat on the mat", ["on the mat the cat sat"], title="TER")
    align = next(s for s in lesson.steps if s.id == "ter-alignment")
    rows = [b for b in align.blocks if hasattr(b, "chips")]
    assert all(c.label in "=SDI" for r in rows for c in r.chips)
    dist = next(s for s in lesson.steps if s.id == "ter-distance")
    assert {c.label for b in dist.blocks if hasattr(b, "chips") for c in b.chips} == {"S"}
    shifts = next(s for s in lesson.steps if s.id == "ter-shifts")
    assert shifts.question.answer == 1 and "gain 6" in shifts.question.explanation


def test_handouts_render_the_lesson():
    from explainer.ui.teach.teach_html import handout_html
    from explainer.ui.teach.teach_markdown import handout_markdown

    lesson = ter_lesson(H, R, title="TER")
    md, html = handout_markdown(lesson), handout_html(lesson)
    final = lesson.steps[-1].question
    assert final.shown in md and final.shown in html


def test_lesson_limit():
    with pytest.raises(ValueError, match="a lesson takes at most"):
        ter_lesson("a" * MAX_LESSON_CHARS, ["b"])
