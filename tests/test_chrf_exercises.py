"""chrF exercise sets (issue 23): with "Lesson of" chrF / chrF++ the Teach page's exercise set (``mode=practice``)
asks chrF's questions about the generated pairs — clipped character / word n-gram matches of an order, P, R or F-β
of an order, the score — each answer the core's, equal to sacreBLEU's CHRF computed here; checked with the same
formative checking (a retry with a hint, the scale mix-ups)."""
from __future__ import annotations

import pytest
from sacrebleu.metrics import CHRF

from explainer.teach.answers import check_answer
from explainer.teach.chrf_steps import LESSON as CHRF_LESSON
from explainer.teach.exercises import LEVELS, AttackItem, generate_set
from tests.test_teach_app import widget
from tests.ui_driver import BrowserLikeApp

CHRF_KINDS = CHRF_LESSON.exercise_kinds

WORDS = {"chrf": 0, "chrf++": 2}


def _sacrebleu_numbers(item, metric: str) -> dict:
    """sacreBLEU's statistics of the pair (the best reference's), per order: hyp, ref, match, P, R, F-β."""
    m = CHRF(word_order=WORDS[metric])
    (stats,) = m._extract_corpus_statistics([item.candidate], [[r] for r in item.references])
    out = {}
    for i in range(len(stats) // 3):
        hyp, ref, match = stats[3 * i: 3 * i + 3]
        one = CHRF(char_order=1, word_order=0, eps_smoothing=True)     # sacreBLEU's F-β of one order's counts
        out[i] = {"match": match, "precision": match / hyp if hyp else None, "recall": match / ref if ref else None,
                  "f": one._compute_f_score([hyp, ref, match]) / 100}
    out["score"] = m.sentence_score(item.candidate, list(item.references)).score
    return out


@pytest.mark.parametrize("metric", list(WORDS))
@pytest.mark.parametrize("level", LEVELS)
def test_every_chrf_answer_is_sacrebleus(metric, level):
    seen = set()
    for seed in range(4):
        for item in generate_set(seed, level, 8, metric=metric).items:
            if isinstance(item, AttackItem):
                continue
            assert item.kind in CHRF_KINDS and item.family == "chrF"
            got, q = _sacrebleu_numbers(item, metric), item.question
            words = CHRF(word_order=WORDS[metric]).char_order     # the character orders come first
            if q.id == "chrf-score":
                want = got["score"]
            elif q.id == "chrf-word-match":
                want = got[words]["match"]
            elif q.id.startswith("chrf-match-"):
                want = got[item.focus_order - 1]["match"]
            else:
                measure = q.id.split("-")[1]            # chrf-precision-char2, chrf-recall-…, chrf-f-…
                want = got[item.focus_order - 1][{"precision": "precision", "recall": "recall", "f": "f"}[measure]]
            assert q.answer == pytest.approx(want, abs=1e-9), (item, q.id)
            seen.add(q.id.split("-")[1])
    assert "score" in seen and seen & {"match", "word"} and seen & {"precision", "recall", "f"}


def test_a_set_is_a_function_of_its_link_and_the_bleu_sets_are_unchanged():
    a, b = generate_set(5, "medium", 6, metric="chrf"), generate_set(5, "medium", 6, metric="chrf")
    assert [(i.kind, getattr(i, "candidate", None)) for i in a.items] == \
           [(i.kind, getattr(i, "candidate", None)) for i in b.items]
    plain = generate_set(5, "medium", 6)
    assert all(not i.kind.startswith("chrf") for i in plain.items)
    assert [getattr(i, "candidate", None) for i in plain.items] == \
           [getattr(i, "candidate", None) for i in generate_set(5, "medium", 6, metric="bleu-rouge").items]
    with pytest.raises(ValueError, match="metric"):
        generate_set(5, "medium", 6, metric="meteor")


def test_formative_checking_of_a_chrf_score():
    item = next(i for i in generate_set(1, "easy", 6, metric="chrf").items
                if not isinstance(i, AttackItem) and i.question.id == "chrf-score")
    q = item.question
    first = check_answer(q, repr(q.answer / 100), attempt=1)     # the 0–1 scale: a retry, with the scale hint
    assert first.status == "retry" and "0–100 scale" in first.message and f"{q.answer:.4f}" not in first.message
    assert check_answer(q, f"{q.answer:.2f}", attempt=2).right


def test_the_practice_page_asks_chrf_and_checks_it():
    s = generate_set(7, "easy", 6, metric="chrf")
    app = BrowserLikeApp({"mode": "practice", "seed": "7", "level": "easy", "n": "6", "item": "1", "metric": "chrf"},
                         page="teach")
    assert not app.exceptions, app.exceptions
    k, item = next((k, i) for k, i in enumerate(s.items) if not isinstance(i, AttackItem))
    app.select("tch_item", k)
    body = "".join(h.proto.body for h in app.at.get("html"))
    assert "sacreBLEU&#x27;s CHRF" in body or "sacreBLEU's CHRF" in body
    assert item.question.prompt.replace("'", "&#x27;") in body or item.question.prompt in body
    q = item.question
    wrong = "0" if q.answer else "1"
    widget(app.at, "text_input", "tch_set_answer_", k).set_value(wrong)
    app.at.button[[b.label for b in app.at.button].index("Check")].click().run()
    assert not app.exceptions and any("Try again" in w.value for w in app.at.warning)
    widget(app.at, "text_input", "tch_set_answer_", k).set_value(repr(q.answer))
    app.at.button[[b.label for b in app.at.button].index("Check")].click().run()
    assert app.at.success and "Right" in app.at.success[0].value
    assert app.query["metric"] == ["chrf"] and app.query["mode"] == ["practice"]
    link = next(b for b in app.at.get("link_button"))
    assert "metric=chrf" in link.proto.url and "step=" in link.proto.url
