"""The Teach page's chrF lesson (issue 23): ``metric=chrf`` / ``chrf++`` in the link (a "Lesson of" choice in the
sidebar) teaches the chrF walkthrough of the same worked examples; its last step shows sacreBLEU's score (computed
here), and the choice travels in the link."""
from __future__ import annotations

import pytest
from sacrebleu.metrics import CHRF

from explainer.examples import get_example
from explainer.teach.model import num
from tests.ui_driver import BrowserLikeApp


def _html(app) -> str:
    return "".join(h.proto.body for h in app.at.get("html")) + " ".join(m.value for m in app.at.markdown)


@pytest.mark.parametrize("metric,opts", [("chrf", {}), ("chrf++", {"word_order": 2})])
def test_the_chrf_lesson_ends_on_sacrebleus_score(metric, opts):
    ex = get_example("cat_mat")
    app = BrowserLikeApp({"metric": metric, "example": ex.id}, page="teach")
    assert not app.exceptions, app.exceptions
    steps = app.at.selectbox(key="tch_step").options
    assert all("chrF" in s for s in steps) and ("word n-grams" in " ".join(steps)) == bool(opts)
    app.select("tch_step", len(steps) - 1)
    assert not app.exceptions and app.query["step"] == [str(len(steps))] and app.query["metric"] == ["chrf"]
    # chrF++ is chrF with word n-grams: an earlier version's metric=chrf++ opens as chrF with word_order 2
    assert app.query.get("chrf_sacrebleu_word_order") == (["2"] if opts else None)
    want = CHRF(**opts).sentence_score(ex.candidate, list(ex.references)).score
    assert num(want) in _html(app)
    again = app.reopen()
    assert not again.exceptions and again.at.selectbox(key="tch_step").value == len(steps) - 1


def test_switching_back_to_bleu_and_rouge():
    app = BrowserLikeApp({"metric": "chrf", "example": "cat_mat"}, page="teach")
    app.select("tch_lecture", ["bleu", "rouge"], kind="multiselect")
    assert not app.exceptions and "metric" not in app.query
    assert any("BLEU" in s for s in app.at.selectbox(key="tch_step").options)
