"""Formative checking (issue: a lecture with the Teach page): a retry before the reveal, hints for the usual
mix-ups (the other scale of a score, a percentage typed as a plain number, a count off by one). Questions are the
lessons' own, their answers the real libraries' numbers."""
from __future__ import annotations

import re

import pytest

from explainer.examples import get_example
from explainer.teach import build_lesson, check_answer
from explainer.teach.answers import ATTEMPTS, mixup_hint
from explainer.teach.model import num


def _questions(eid="papineni_the"):
    ex = get_example(eid)
    lesson = build_lesson(ex.candidate, list(ex.references))
    return {s.id: s.question for s in lesson.steps if s.question is not None}


def test_a_wrong_first_answer_gets_a_retry_without_the_answer():
    assert ATTEMPTS >= 2
    for sid, q in _questions().items():
        wrong = q.answer + max(1.0, q.tolerance * 3)
        first = check_answer(q, repr(wrong), attempt=1)
        assert first.status == "retry" and not first.final, sid
        said = first.message.replace(q.hint, "").replace(num(wrong), "")
        said = said.replace("len − n + 1", "").replace("1 try left", "")
        assert q.shown not in said and not re.search(rf"(?<![\d.]){re.escape(num(q.answer))}(?![\d.])", said), sid
        last = check_answer(q, repr(wrong), attempt=ATTEMPTS)
        assert last.status == "wrong" and last.final and q.shown in last.message, sid
        assert check_answer(q, repr(q.answer), attempt=1).right, sid


def test_bleu_on_0_100_typed_on_the_0_1_scale_gets_the_scale_hint():
    from sacrebleu.metrics import BLEU

    ex = get_example("papineni_the")
    q = next(q for q in _questions().values() if q.kind == "score")
    real = BLEU().corpus_score([ex.candidate], [[r] for r in ex.references]).score
    assert q.scale == 100 and q.answer == pytest.approx(real, abs=1e-9)
    typed = f"{real / 100:.4f}"           # e.g. 0.38 for 38.0
    c = check_answer(q, typed, attempt=1)
    assert c.status == "retry" and "0–1 scale" in c.message and "0–100" in c.message
    assert "0–1 scale" in check_answer(q, typed).message     # the last try names it too, with the answer


def test_a_percentage_typed_without_its_sign_gets_did_you_mean():
    q = next(q for q in _questions().values() if q.kind == "ratio" and 0.1 < q.answer < 1)
    typed = f"{q.answer * 100:.2f}"       # 50 for 0.5
    c = check_answer(q, typed, attempt=1)
    assert c.status == "retry" and f"did you mean {num(float(typed))} %?" in c.message
    assert check_answer(q, typed + "%").right


def test_a_count_off_by_one_is_named():
    for eid in ("papineni_the", "military_1"):
        try:
            qs = _questions(eid)
        except KeyError:
            continue
        for sid, q in qs.items():
            if q.kind != "count":
                continue
            mixed: dict = {}
            for v, hint in q.mixups:
                mixed.setdefault(v, hint)     # the first that fits is named
            for off in (q.answer - 1, q.answer + 1):
                if off < 0:
                    continue
                c = check_answer(q, str(int(off)), attempt=1)
                # a number a known misconception gives is named as that one (the unclipped count …)
                want = mixed.get(off, "Off by one")
                assert c.status == "retry" and want in c.message, sid
            if q.answer + 3 not in mixed:
                assert mixup_hint(q, q.answer + 3) == "", sid


def test_an_invalid_entry_does_not_use_a_try():
    q = next(iter(_questions().values()))
    assert check_answer(q, "abc", attempt=1).status == "invalid"


# ------------------------------------------------------------------------------------ spot the gaming attack
def _attack_items():
    from explainer.teach.exercises import AttackItem, generate_set

    return [i for i in generate_set(3, "easy", 12).items if isinstance(i, AttackItem)]


def test_attack_feedback_names_the_metrics_missed_and_gives_no_silent_points():
    from explainer.attacks.presets import evaluate
    from explainer.teach.exercises import attack_feedback

    for it in _attack_items():
        res = evaluate(it.preset_id)
        j = res.judged[0]
        fooled = {m for m in res.preset.headline if res.shown_verdict(j, m) in ("fooled", "fooled_tie")}
        labels = dict(it.metrics)
        # the right output, one fooled metric left out: 1 of 2 points, the missed metric named, no bare "Right"
        missed = sorted(fooled)[0]
        pts, msg = attack_feedback(it, it.attack, fooled - {missed})
        assert pts == 1 and msg.startswith("1 of 2 points") and labels[missed] in msg and "not right" in msg
        assert not msg.startswith("Right")
        # a metric that resisted ticked: named as resisting
        resisted = [m for m in res.preset.headline if m not in fooled]
        if resisted:
            pts, msg = attack_feedback(it, it.attack, fooled | {resisted[0]})
            assert pts == 1 and f"{labels[resisted[0]]} resist" in msg
        # the wrong output with the right metrics: 1 point, says which output it was
        pts, msg = attack_feedback(it, 1 - it.attack, fooled)
        assert pts == 1 and f"not output {'AB'[1 - it.attack]}" in msg
        assert attack_feedback(it, it.attack, fooled)[0] == 2


def test_the_score_line_counts_points_and_exercises():
    from explainer.teach.exercises import generate_set, item_points, score_text

    s = generate_set(1, "easy", 6)
    assert len(s.items) == 6 and s.points == sum(item_points(i) for i in s.items) == 7
    line = score_text(s, {})
    assert "0 of 7 points" in line and "0 of 6 exercises" in line


def test_copy_the_lead_sentence_shows_the_source_it_copies():
    import random

    from explainer.attacks.presets import PRESETS
    from explainer.teach.exercises import _attack_item

    it = _attack_item(0, "copy-lead", random.Random(0))
    attacked = PRESETS["copy-lead"].variants[1].candidate
    assert any(attacked in text for _, text in it.context)
    assert attacked not in " ".join(it.references)   # not solvable from the references alone
