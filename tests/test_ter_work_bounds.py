"""TER past a request's work (issue 34: one request never stalls the server): sacreBLEU's own TER of 114 words
drawn from a 60-word vocabulary takes 2.5 s, and the Dialects page scored five rows of a 6,000-character link in
113-125 s of CPU. The dialect comparison and the reproduce search score each configuration within
SEGMENT_SCORE_MS of TER's recorded shift search (the same numbers as sacreBLEU), a lecture's trace within
LECTURE_TER_WORK; past them a message names the limit. Texts that fit still give sacreBLEU's numbers."""
from __future__ import annotations

import random

import pytest
from sacrebleu.metrics import TER

from explainer.dialectcmp import limits as dl
from explainer.dialectcmp.comparison import compare
from explainer.dialectcmp.reproduction import reproduce
from explainer.errors import ExplainerInputError
from explainer.teach.lesson import LessonPart, build_lecture
from explainer.teach.ter_steps import LECTURE_TER_WORK
from explainer.ter.limits import WORK_PER_SECOND
from tests.test_ui_view_more import ter_work, words


def _texts(low: int, high: int, seed: int = 1) -> tuple[str, list[str]]:
    """Texts whose recorded TER search needs between ``low`` and ``high`` units (counted by the core)."""
    rng = random.Random(seed)
    for n in range(10, 200):
        cand, ref = words(rng, n), words(rng, n)
        if low < ter_work(cand, [ref]) < high:
            return cand, [ref]
    raise AssertionError((low, high))


ROW_WORK = int(dl.SEGMENT_SCORE_MS / 1000 * WORK_PER_SECOND)


def test_a_comparison_refuses_texts_past_one_rows_work_with_the_reason():
    cand, refs = _texts(ROW_WORK * 3, ROW_WORK * 20)
    with pytest.raises(ExplainerInputError, match="SEGMENT_SCORE_MS"):
        compare(cand, refs, metric="ter")


def test_a_comparison_within_the_work_gives_sacrebleus_numbers():
    cand, refs = _texts(ROW_WORK // 4, ROW_WORK)
    rows = compare(cand, refs, metric="ter").rows
    assert rows
    for row in rows:
        o = row.data["options"]
        want = TER(normalized=o["normalized"], no_punct=o["no_punct"], asian_support=o["asian_support"],
                   case_sensitive=o["case_sensitive"]).sentence_score(cand, refs).score
        assert row.data["score"] == pytest.approx(want, abs=1e-9), row.data["label"]


def test_the_reproduce_search_is_bounded_too():
    cand, refs = _texts(ROW_WORK * 3, ROW_WORK * 20, seed=2)
    with pytest.raises(ExplainerInputError, match="SEGMENT_SCORE_MS"):   # the page and the CLI say it
        reproduce(cand, refs, "TER = 95.1", metric="ter")


def test_a_lecture_leaves_ter_out_past_its_work_and_says_why():
    cand, refs = _texts(LECTURE_TER_WORK, LECTURE_TER_WORK * 3)
    lesson = build_lecture(cand, refs, [LessonPart("bleu"), LessonPart("ter")])
    assert not any(s.family == "TER" for s in lesson.steps)
    assert any("LECTURE_TER_WORK" in n for n in lesson.notes)
    short = build_lecture("the cat sat on the mat", ["on the mat the cat sat"], [LessonPart("ter")])
    score = next(b for s in short.steps for b in s.blocks if type(b).__name__ == "Result")
    want = TER().sentence_score("the cat sat on the mat", ["on the mat the cat sat"]).score
    assert score.label == "TER" and score.value == pytest.approx(want, abs=1e-9)
