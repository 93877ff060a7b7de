"""The Gaming lab's chrF verdicts (issue 23): every variant's chrF2 / chrF2++ on the page is sacreBLEU's CHRF and
NLTK's chrF is NLTK's (computed here), with the lab's verdicts; every preset can be scored."""
from __future__ import annotations

import pytest
from nltk.translate.chrf_score import sentence_chrf
from sacrebleu.metrics import CHRF

from explainer.attacks.presets import PRESETS, get_preset
from tests.ui_driver import BrowserLikeApp


def _table(app):
    return next(d.value for d in app.at.dataframe if "chrF2 (sacreBLEU)" in d.value.columns)


@pytest.mark.parametrize("pid", ["repetition", next(p for p in PRESETS if get_preset(p).kind == "config")])
def test_variant_scores_are_the_libraries(pid):
    app = BrowserLikeApp({"lab": "presets", "preset": pid}, page="lab")
    assert not app.exceptions, app.exceptions
    rows = _table(app).to_dict("records")
    p = get_preset(pid)
    assert [r["variant"] for r in rows] == [v.label for v in p.variants]
    for v, r in zip(p.variants, rows):
        if v.is_corpus:
            continue
        refs = list(v.references)
        assert r["chrF2 (sacreBLEU)"] == round(CHRF().sentence_score(v.candidate, refs).score, 4)
        assert r["chrF2++ (sacreBLEU)"] == round(CHRF(word_order=2).sentence_score(v.candidate, refs).score, 4)
        if len(refs) == 1:
            assert r["chrF (NLTK, β = 3)"] == round(100 * sentence_chrf(refs[0], v.candidate), 4)
    if p.kind == "attack":
        honest, attacked = rows[0], rows[1]
        want = "resisted" if attacked["chrF2 (sacreBLEU)"] < honest["chrF2 (sacreBLEU)"] else "fooled"
        assert attacked["chrF2 (sacreBLEU): verdict"].startswith(want)


def test_every_preset_can_be_scored():
    app = BrowserLikeApp({"lab": "presets", "preset": "repetition"}, page="lab")
    app.click("lab_chrf_all")
    assert not app.exceptions
    table = next(d.value for d in app.at.dataframe if "preset" in d.value.columns and "kind" in d.value.columns)
    assert list(table["preset"]) == list(PRESETS)
