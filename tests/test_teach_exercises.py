"""Generated exercise sets: the seed fixes the set, every kind appears, the answers are the real libraries'
numbers, the pairs have the property their kind promises, and "spot the attack" items agree with the lab."""
from __future__ import annotations

import random

import pytest

from explainer.attacks.presets import evaluate
from explainer.teach import check_answer
from explainer.teach.exercises import (
    KINDS,
    LEVELS,
    MAX_SEED,
    MAX_SET,
    AttackItem,
    Exercise,
    attack_preset_ids,
    check_attack,
    generate_set,
    make_pair,
)


def test_same_seed_same_set_other_seed_other_set():
    a, b = generate_set(123, "medium", 8), generate_set(123, "medium", 8)
    assert [(getattr(i, "candidate", None), getattr(i, "texts", None)) for i in a.items] == \
           [(getattr(i, "candidate", None), getattr(i, "texts", None)) for i in b.items]
    c = generate_set(124, "medium", 8)
    assert [getattr(i, "candidate", None) for i in a.items] != [getattr(i, "candidate", None) for i in c.items]


@pytest.mark.parametrize("level", LEVELS)
def test_every_kind_and_an_attack_in_a_set(level):
    s = generate_set(5, level, 8)
    kinds = [i.kind for i in s.items]
    assert set(KINDS) <= set(kinds) and kinds.count("attack") == 2 and len(kinds) == 8
    assert s.points == 6 + 2 * 2
    assert all(i.index == k for k, i in enumerate(s.items))
    small = generate_set(5, level, 2)
    assert all(i.kind != "attack" for i in small.items)
    assert all(i.kind != "attack" for i in generate_set(5, level, 8, attacks=False).items)


def test_limits_are_checked():
    for bad in (dict(seed=-1), dict(seed=MAX_SEED + 1), dict(n=0), dict(n=MAX_SET + 1), dict(level="expert")):
        kw = dict(seed=1, level="easy", n=3) | bad
        with pytest.raises(ValueError):
            generate_set(kw["seed"], kw["level"], kw["n"])


def _bleu(cand, refs):
    from sacrebleu.metrics import BLEU

    return BLEU().corpus_score([cand], [[r] for r in refs])


def _rouge(cand, refs, t):
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer([t]).score_multi(refs, cand)[t]


@pytest.mark.parametrize("seed", [0, 1, 99, 4242])
@pytest.mark.parametrize("level", LEVELS)
def test_answers_are_the_real_libraries_numbers(seed, level):
    for it in generate_set(seed, level, 8).items:
        if not isinstance(it, Exercise):
            continue
        cand, refs, q = it.candidate, list(it.references), it.question
        real = _bleu(cand, refs)
        if it.step_id == "bleu-bp":
            assert q.answer == pytest.approx(real.bp, abs=1e-12)
        elif it.step_id == "bleu-score":
            assert q.answer == pytest.approx(real.score, abs=1e-9)
        elif it.step_id == "bleu-precision":
            n = it.focus_order
            assert q.answer == pytest.approx(real.counts[n - 1] / real.totals[n - 1], abs=1e-12)
        elif it.step_id == "bleu-clipping":
            n = it.focus_order
            if "‘" not in q.prompt:   # no n-gram clipped: the clipped count of the order
                assert q.answer == real.counts[n - 1]
            else:   # the repeated word counts as often as in one reference
                word = q.prompt.split("‘")[1].split("’")[0]
                assert q.answer == max(r.split().count(word) for r in refs) < cand.split().count(word)
        elif it.step_id == "bleu-smoothing":
            assert q.answer == pytest.approx(real.precisions[3] / 100, abs=1e-12)   # exp smoothing, in percent
        elif it.step_id == "rouge-lcs-table":
            sc = _rouge(cand, refs, "rougeL")
            assert q.answer == round(sc.recall * len(refs[0].split()))
        elif it.step_id == "rouge-l":
            assert q.answer == pytest.approx(_rouge(cand, refs, "rougeL").fmeasure, abs=1e-9)
        else:
            raise AssertionError(it.step_id)
        assert check_answer(q, repr(q.answer)).right


@pytest.mark.parametrize("seed", range(12))
def test_pairs_have_the_property_their_kind_promises(seed):
    for level in LEVELS:
        rng = random.Random(seed)
        cand, refs = make_pair("clip", level, rng)
        assert any(cand.split().count(w) > max(r.split().count(w) for r in refs) for w in set(cand.split()))
        cand, refs = make_pair("missing4", level, rng)
        real = _bleu(cand, refs)
        assert real.counts[3] == 0 and real.counts[2] > 0
        cand, refs = make_pair("short", level, rng)
        assert _bleu(cand, refs).bp < 1
        cand, refs = make_pair("reorder", level, rng)
        assert sorted(cand.split()) == sorted(refs[0].split())       # same words, other order
        assert _rouge(cand, refs, "rouge1").fmeasure == 1 > _rouge(cand, refs, "rougeL").fmeasure


def test_attack_items_agree_with_the_gaming_lab():
    ids = attack_preset_ids()
    assert {"repetition", "word-salad", "permutation", "negation"} <= set(ids)
    s = generate_set(3, "easy", 12)
    items = [i for i in s.items if isinstance(i, AttackItem)]
    assert len(items) == 3 and len({i.preset_id for i in items}) == 3
    for it in items:
        res = evaluate(it.preset_id)
        j = res.judged[0]
        assert it.texts[it.attack] == res.preset.variants[j].candidate
        assert it.texts[1 - it.attack] == res.preset.variants[0].candidate
        assert it.fooled == {m for m in res.preset.headline if res.shown_verdict(j, m) in ("fooled", "fooled_tie")}
        assert it.fooled   # every catalogued attack fools something
        assert check_attack(it, it.attack, it.fooled) == (True, True)
        assert check_attack(it, 1 - it.attack, set()) == (False, False)
        assert check_attack(it, None, it.fooled) == (False, True)


def test_word_salad_item_spells_out_the_lesson():
    it = next(i for s in range(40) for i in generate_set(s, "easy", 4).items
              if isinstance(i, AttackItem) and i.preset_id == "word-salad")
    assert it.fooled == {"rouge1_f"}
    assert it.values["rouge1_f"][it.attack] == "1.00"
