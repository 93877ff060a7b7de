"""The semantic lesson, "what n-grams miss" (explainer/teach/semantic_steps.py): steps from the traces, each
question's answer a trace number (the libraries' numbers from the golden vectors, sacreBLEU's BLEU computed here),
speaker notes, and the handouts render it."""
from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU

from explainer.teach.answers import check_answer
from explainer.teach.lesson import MAX_LESSON_CHARS
from explainer.teach.semantic_steps import COURSE_PAIRS, NOTES, semantic_lesson
from tests.conftest import golden

RECORDS = golden("semantic.jsonl")


def _rec(kind: str, case: str) -> dict:
    return next(r for r in RECORDS if r["record"] == kind and r["case"] == case and not r.get("idf", False))


@pytest.fixture(scope="module")
def lesson():
    return semantic_lesson("The feline rested on the rug", ["The cat sat on the mat"])


def test_steps_and_notes(lesson):
    assert lesson.step_ids() == ["semantic-pieces", "semantic-sts", "semantic-matrix", "semantic-prf",
                                 "semantic-ngrams", "semantic-blind"]
    for s in lesson.steps:
        assert s.say == NOTES[s.id][0] and s.misconception == NOTES[s.id][1] and s.question is not None


def test_answers_are_the_libraries_numbers(lesson):
    q = {s.id: s.question for s in lesson.steps}
    sts, bs = _rec("sts", "course_feline"), _rec("bertscore", "course_feline")
    n_pieces = len(sts["input_ids"][0])
    assert q["semantic-pieces"].answer == n_pieces - 2 and q["semantic-sts"].answer == n_pieces
    assert q["semantic-prf"].answer == pytest.approx(bs["f1"][0], abs=1e-5)
    results = {b.metric: b.value for s in lesson.steps for b in s.blocks if type(b).__name__ == "Result"}
    assert results["sts"] == pytest.approx(sts["sts"][0], abs=1e-5)
    assert results["bertscore_f1"] == pytest.approx(bs["f1"][0], abs=1e-5)
    # the best cosine of the asked piece is the maximum of bert-score's own similarity row
    i = int(q["semantic-matrix"].prompt.split()[2])
    assert q["semantic-matrix"].answer == pytest.approx(max(bs["similarity"][0][i]), abs=1e-5)
    assert check_answer(q["semantic-prf"], q["semantic-prf"].shown).right


def test_what_ngrams_miss_table(lesson):
    step = next(s for s in lesson.steps if s.id == "semantic-ngrams")
    table = step.blocks[1]
    for row, (what, cand, ref), case in zip(table.rows, COURSE_PAIRS, ("course_feline", "course_dog_man")):
        assert row[:3] == (what, cand, ref)
        bleu = BLEU(smooth_method="none").corpus_score([cand], [[ref]]).score
        assert float(row[3]) == pytest.approx(bleu, abs=1e-4) and bleu == 0.0
        assert float(row[4]) == pytest.approx(_rec("sts", case)["sts"][0], abs=1e-4)
        assert float(row[5]) == pytest.approx(_rec("bertscore", case)["f1"][0], abs=1e-4)
    # the swapped roles score higher than the paraphrase: the question's answer is pair 2
    assert step.question.answer == 2


def test_blind_spots_step_uses_the_golden_pairs(lesson):
    step = next(s for s in lesson.steps if s.id == "semantic-blind")
    rows = {r[0]: r for r in step.blocks[1].rows}
    assert set(rows) == {"negation", "numbers"}
    assert float(rows["negation"][4]) == pytest.approx(_rec("sts", "negation")["sts"][0], abs=1e-4)
    assert float(rows["numbers"][5]) == pytest.approx(_rec("bertscore", "numbers")["f1"][0], abs=1e-4)


def test_handouts_render_it(lesson):
    from explainer.ui.teach.teach_html import handout_html
    from explainer.ui.teach.teach_markdown import handout_markdown

    md, html = handout_markdown(lesson), handout_html(lesson)
    for s in lesson.steps:
        assert s.question.shown in md and s.question.shown in html


def test_lesson_limit():
    with pytest.raises(ValueError, match="a lesson takes at most"):
        semantic_lesson("a" * MAX_LESSON_CHARS, ["b"])
