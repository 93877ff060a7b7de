"""The lecture's ready-made demo and the optimizer's default start: the default run ends in word salad by a
stated criterion (checked here against rouge-score and sacreBLEU, not against a rebuilt reference), and the demo
sequence's numbers are the gaming lab's."""
from __future__ import annotations

import pytest
import sacrebleu
from rouge_score import rouge_scorer

from explainer.attacks import optimizer as opt
from explainer.attacks.presets import evaluate
from explainer.attacks.scoring import format_metric
from explainer.teach.demo import DEMO_IDS, demo_sequence


def _salad_facts(text: str, refs, start: str):
    r = rouge_scorer.RougeScorer(["rouge1", "rouge2"]).score_multi(list(refs), text)
    seen = set()
    for t in list(refs) + [start]:
        w = t.lower().split()
        seen.update(zip(w, w[1:]))
    w = text.lower().split()
    pairs = list(zip(w, w[1:]))
    unseen = sum(p not in seen for p in pairs) / len(pairs)
    return r["rouge1"].fmeasure, r["rouge2"].fmeasure, unseen


def test_the_default_run_climbs_into_word_salad():
    # a budget far beyond what the run needs: it stops at a local optimum, so the result does not depend on speed
    res = opt.default_run(budget_seconds=60)
    assert res.stopped == "local optimum" and res.target == opt.DEFAULT_TARGET
    r1, r2, unseen = _salad_facts(res.final, res.references, res.start)
    assert r1 >= 0.9 and r2 <= 0.3 and unseen >= 0.5          # the stated criterion, from rouge-score itself
    assert res.final_score > res.start_score + 0.3            # a real climb
    assert res.final not in res.references
    assert sacrebleu.sentence_bleu(res.final, list(res.references)).score < 20   # BLEU is not fooled
    assert opt.is_word_salad(res)


def test_the_criterion_rejects_a_rebuilt_reference():
    # the lab's fluent near-copy: the climb rebuilds reference 1, which is not word salad
    refs = ["the quick brown fox jumped over the lazy dog", "a fast brown fox jumped over a lazy dog"]
    res = opt.optimize("the quick brown fox leaped above the lazy dog", refs, "rouge1_f", budget_seconds=60)
    assert res.final in refs and not opt.is_word_salad(res)


def test_the_demo_sequence_is_data_with_one_line_lessons():
    steps = demo_sequence(30.0)
    assert tuple(s.id for s in steps) == DEMO_IDS == ("repetition", "word-salad", "optimizer")
    for s in steps:
        assert s.lesson and "\n" not in s.lesson and s.candidate and s.references and s.lab_query
    rep, salad, climb = steps
    for step in (rep, salad):
        res = evaluate(step.id)
        j = res.judged[0]
        assert step.candidate == res.preset.variants[j].candidate
    g = evaluate("repetition").scores[1].values
    assert f"precision {format_metric('unclipped_p1', g['unclipped_p1'])}" in rep.lesson
    g = evaluate("word-salad").scores[1].values
    assert f"ROUGE-1 F = {format_metric('rouge1_f', g['rouge1_f'])}" in salad.lesson
    r1, r2, unseen = _salad_facts(climb.candidate, climb.references, climb.honest)
    assert climb.honest == opt.DEFAULT_START and r1 >= 0.9 and r2 <= 0.3 and unseen >= 0.5
    assert climb.lab_query["lab"] == "optimizer" and climb.lab_query["target"] == opt.DEFAULT_TARGET


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_other_seeds_also_end_in_salad(seed):
    assert opt.is_word_salad(opt.default_run(budget_seconds=60, seed=seed))
