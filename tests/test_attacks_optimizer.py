"""The metric optimizer: its result really scores what it reports (re-scored by sacreBLEU / rouge-score),
it respects its time budget to within one measured unit of work, and it is deterministic for a seed."""
from __future__ import annotations

import time

import pytest
import sacrebleu
from rouge_score import rouge_scorer

from explainer.attacks.optimizer import TARGETS, optimize, unreadability

REFS = ["the minister said that the government will increase the budget for schools in the next year",
        "the government plans to spend more on schools next year, the minister said"]
START = "minister promises more money for schools next year"


def _real(text, refs):
    b = sacrebleu.sentence_bleu(text, refs)
    r = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"]).score_multi(refs, text)
    return {"bleu": b.score, "rouge1_f": r["rouge1"].fmeasure, "rouge2_f": r["rouge2"].fmeasure,
            "rougeL_f": r["rougeL"].fmeasure, "rouge1_p": r["rouge1"].precision, "rouge1_r": r["rouge1"].recall}


@pytest.mark.parametrize("target", list(TARGETS))
def test_result_rescored_by_real_packages(target):
    res = optimize(START, REFS, target, budget_seconds=30, seed=7, max_steps=25)
    assert res.final_score > res.start_score
    for entry in (res.trajectory[0], res.trajectory[-1]):
        real = _real(entry["text"], REFS)
        for m, v in real.items():
            assert entry[m] == pytest.approx(v, abs=1e-9), (m, entry["text"])
    scores = [e[target] for e in res.trajectory]
    assert all(b > a for a, b in zip(scores, scores[1:]))  # hill climbing only accepts improvements


def test_never_exceeds_budget_by_more_than_one_unit():
    long_start = " ".join([START] * 6)
    for budget in (0.05, 0.3):
        t0 = time.perf_counter()
        res = optimize(long_start, REFS, "rougeL_f", budget_seconds=budget, seed=1, max_steps=10_000,
                       neighbours=60, patience=10_000)
        elapsed = time.perf_counter() - t0
        assert res.stopped == "budget"
        assert res.elapsed <= budget + res.max_unit_seconds
        assert elapsed <= budget + res.max_unit_seconds
        assert res.evaluations > 0


def test_deterministic_for_a_seed_and_time_limited_runs_are_prefixes():
    a = optimize(START, REFS, "bleu", budget_seconds=60, seed=3, max_steps=20)
    b = optimize(START, REFS, "bleu", budget_seconds=60, seed=3, max_steps=20)
    strip = lambda r: [{k: v for k, v in e.items() if k != "elapsed"} for e in r.trajectory]
    assert strip(a) == strip(b) and a.evaluations == b.evaluations
    short = optimize(START, REFS, "bleu", budget_seconds=0.02, seed=3, max_steps=20)
    assert strip(short) == strip(a)[:len(short.trajectory)]
    c = optimize(START, REFS, "bleu", budget_seconds=60, seed=4, max_steps=20)
    assert strip(c) != strip(a)


def test_callback_can_stop_and_sees_progress():
    seen = []

    def cb(res):
        seen.append(res.steps)
        return len(seen) < 3

    res = optimize(START, REFS, "rouge1_f", budget_seconds=30, seed=0, callback=cb)
    assert res.stopped == "callback" and seen == [0, 1, 2]  # once with the start state, then per step


def test_bad_input_and_unreadability():
    with pytest.raises(ValueError):
        optimize(START, ["", "  "], "bleu")
    with pytest.raises(ValueError):
        optimize(START, REFS, "meteor")
    u = unreadability("a b c".split(), "a a b c".split(), ["a b c"])
    assert u["immediate_repeats"] == 1 and u["word_edits_from_start"] == 1
    assert u["unseen_bigram_share"] == pytest.approx(1 / 3, abs=1e-9)
    res = optimize("", REFS, "bleu", budget_seconds=5, seed=0, max_steps=5)  # empty start: builds from scratch
    assert res.final_score >= res.start_score


@pytest.mark.parametrize("cand,moves", [("", ["delete"]), ("", ["swap", "delete"]), ("cat", ["swap"]),
                                        (" ".join(["the"] * 200), ["insert"])])
def test_no_applicable_move_stops_cleanly(cand, moves):
    """delete / replace need a word, swap two words, insert fewer than MAX_WORDS words: when no chosen move
    can apply the search stops (it used to call rng.choice([]) and raise IndexError)."""
    res = optimize(cand, REFS, "bleu", budget_seconds=5, seed=0, moves=moves)
    assert res.stopped == "no applicable move"
    assert res.final == " ".join(cand.split()) and res.steps == 0
    assert res.trajectory[0]["bleu"] == pytest.approx(sacrebleu.sentence_bleu(res.final, REFS).score, abs=1e-9)


def test_same_set_of_moves_in_any_order_gives_the_same_search():
    strip = lambda r: [{k: v for k, v in e.items() if k != "elapsed"} for e in r.trajectory]
    a = optimize(START, REFS, "rouge1_f", budget_seconds=60, seed=5, max_steps=15, moves=["swap", "insert", "delete"])
    b = optimize(START, REFS, "rouge1_f", budget_seconds=60, seed=5, max_steps=15, moves=["delete", "swap", "insert"])
    assert strip(a) == strip(b) and a.evaluations == b.evaluations
    assert a.moves == b.moves == ("insert", "delete", "swap")


def test_long_input_is_cut_and_everything_reported_is_about_the_cut_text():
    from explainer.attacks.optimizer import MAX_WORDS

    long_cand = " ".join((REFS[0] + " and more words about it").split() * 15)
    n = len(long_cand.split())
    assert n > MAX_WORDS
    res = optimize(long_cand, REFS, "bleu", budget_seconds=30, seed=0, callback=lambda r: False)
    assert res.truncated and res.input_words == n and res.source == long_cand
    assert res.start.split() == long_cand.split()[:MAX_WORDS]
    assert res.trajectory[0]["text"] == res.start
    # the start state is what the real packages say about the optimised (cut) text
    assert res.start_score == pytest.approx(sacrebleu.sentence_bleu(res.start, REFS).score, abs=1e-9)
    # the dropped words are not counted as edits
    assert res.unreadable["word_edits_from_start"] == 0 and res.unreadable["words"] == MAX_WORDS
    short = optimize(START, REFS, "bleu", budget_seconds=30, seed=0, callback=lambda r: False)
    assert not short.truncated and short.input_words == len(START.split())
