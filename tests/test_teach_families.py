"""Lessons per metric family through one registry (issue 29, "Teach steps"; issue 31, one lecture): every
registered family with a lesson is offered on the Teach page, one lecture runs BLEU → ROUGE → chrF → TER as one
sequence of steps with a section per family, each section ends on the real library's number, earlier versions'
links still open, and each family's exercise items are its own lesson's questions."""
from __future__ import annotations

import re

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

from explainer.examples import CLAIM_METRICS, get_example
from explainer.families import FAMILIES
from explainer.teach import LessonPart, build_lecture
from explainer.teach.families import LESSONS, lesson_families, lesson_names, read_lecture
from explainer.teach.lesson import claim_step
from explainer.teach.model import Result
from tests.test_teach_app import new_page, page_html, qp, title

EX = get_example("cat_mat")


def test_every_lesson_is_a_registered_family_and_every_claim_has_its_step():
    assert set(LESSONS) <= set(FAMILIES)
    assert [f.name for f in lesson_families()] == [n for n in FAMILIES if n in LESSONS]
    assert {"bleu", "rouge", "chrf", "ter"} <= set(lesson_names())
    for metric in CLAIM_METRICS:
        assert claim_step(metric) is not None, metric


def test_one_lecture_runs_every_family_in_sections():
    names = lesson_names()
    lesson = build_lecture(EX.candidate, list(EX.references), [LessonPart(n) for n in names])
    assert [label for label, _ in lesson.sections] == [FAMILIES[n].label for n in names]
    starts = [start for _, start in lesson.sections]
    assert starts == sorted(starts) and starts[0] == 0 and not lesson.notes
    for k, (label, start) in enumerate(lesson.sections):
        end = starts[k + 1] if k + 1 < len(starts) else len(lesson.steps)
        fams = {s.family for s in lesson.steps[start:end]}
        assert label in fams and fams <= {label, "Summary"}, (label, fams)   # BLEU vs ROUGE closes ROUGE's part
        assert lesson.section_of(start)[:3] == (k, label, 0)
    results = {b.metric: b.value for s in lesson.steps for b in s.blocks if isinstance(b, Result)}
    cand, refs = EX.candidate, list(EX.references)
    assert results["bleu"] == pytest.approx(BLEU().sentence_score(cand, refs).score, abs=1e-9)
    assert results["chrf"] == pytest.approx(CHRF().sentence_score(cand, refs).score, abs=1e-9)
    assert results["ter"] == pytest.approx(TER().sentence_score(cand, refs).score, abs=1e-9)


def test_the_order_asked_is_the_order_taught_and_a_bad_family_is_a_note():
    lesson = build_lecture(EX.candidate, list(EX.references), [LessonPart("ter"), LessonPart("bleu")])
    assert [label for label, _ in lesson.sections] == ["TER", "BLEU"]
    bad = build_lecture(EX.candidate, list(EX.references),
                        [LessonPart("bleu", "sacrebleu", {"tokenize": "nope"}), LessonPart("ter")])
    assert [label for label, _ in bad.sections] == ["TER"] and bad.notes and bad.notes[0].startswith("BLEU: ")


def test_link_values_of_earlier_versions_still_read():
    assert read_lecture(None)[0] == ("bleu", "rouge") and read_lecture("bleu-rouge")[0] == ("bleu", "rouge")
    assert read_lecture("chrf") == (("chrf",), {}, [])
    assert read_lecture("chrf++") == (("chrf",), {"chrf": {"word_order": 2}}, [])
    names, _, bad = read_lecture("ter,bleu,meteor")
    assert names == ("bleu", "ter") and bad == ["meteor"]


def test_the_page_offers_every_lesson_and_teaches_ter():
    at = new_page({"example": "cat_mat", "metric": "ter"})
    assert at.multiselect(key="tch_lecture").options == [FAMILIES[n].label for n in lesson_names()]
    assert at.multiselect(key="tch_lecture").value == ["ter"]
    n = len(at.selectbox(key="tch_step").options)
    at.selectbox(key="tch_step").set_value(n - 1).run()
    assert title(at).startswith("TER|") and qp(at)["metric"] == "ter"
    m = re.search(r'data-metric="ter" data-value="([^"]+)"', page_html(at))
    assert float(m.group(1)) == pytest.approx(TER().sentence_score(EX.candidate, list(EX.references)).score,
                                              abs=1e-9)


def test_a_lecture_of_four_families_from_one_link_with_section_headings():
    at = new_page({"example": "cat_mat", "metric": "bleu,rouge,chrf,ter"})
    steps = at.selectbox(key="tch_step").options
    lesson = build_lecture(EX.candidate, list(EX.references), [LessonPart(n) for n in ("bleu", "rouge", "chrf",
                                                                                          "ter")], claims=EX.claims)
    assert len(steps) == len(lesson.steps)
    first_chrf = dict(lesson.sections)["chrF"]
    at.selectbox(key="tch_step").set_value(first_chrf).run()
    assert 'data-testid="teach-section">Part 3 of 4 · <b>chrF</b> · step 1 of' in page_html(at)
    assert title(at).startswith("chrF|") and qp(at)["metric"] == "bleu,rouge,chrf,ter"
    # switching the lecture in the sidebar: the link follows
    at.multiselect(key="tch_lecture").set_value(["chrf"]).run()
    assert qp(at)["metric"] == "chrf" and "teach-section" not in page_html(at)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_ter_exercise_answers_are_sacrebleus(level):
    from sacrebleu.metrics import lib_ter as L

    from explainer.teach.exercises import generate_set

    seen = set()
    for seed in range(6):
        for it in generate_set(seed, level, 6, metric="ter", attacks=False).items:
            m = TER()
            if it.step_id == "ter-score":
                assert it.question.answer == pytest.approx(m.sentence_score(it.candidate, list(it.references)).score,
                                                           abs=1e-9)
            else:
                assert it.step_id == "ter-distance" and len(it.references) == 1
                hyp = m._preprocess_segment(it.candidate).split()
                ref = m._preprocess_segment(it.references[0]).split()
                assert it.question.answer == L.BeamEditDistance(ref)(hyp)[0]
            seen.add(it.step_id)
    assert seen == {"ter-score", "ter-distance"}
