"""The Gaming lab's chrF verdicts (issue 23, then issue 32): chrF is a column of every preset's one table on the page
(no separate grid under it), with sacreBLEU's chrF2 (computed here) and the lab's verdicts; every preset can be
scored with every family at once."""
from __future__ import annotations

import re

import pytest
from sacrebleu.metrics import CHRF

from explainer.attacks.preset_table import preset_table
from explainer.attacks.presets import PRESETS, get_preset
from tests.ui_driver import BrowserLikeApp


def _html(app) -> str:
    return "".join(h.proto.body for h in app.at.get("html"))


@pytest.mark.parametrize("pid", ["repetition", next(p for p in PRESETS if get_preset(p).kind == "config")])
def test_variant_scores_are_the_librarys(pid):
    app = BrowserLikeApp({"lab": "presets", "preset": pid}, page="lab")
    assert not app.exceptions, app.exceptions
    body = _html(app)
    assert "chrF2 (sacreBLEU)" not in [c for d in app.at.dataframe for c in d.value.columns]   # no separate grid
    p, t = get_preset(pid), preset_table(pid)
    col = next(c for c in t.columns if c.family == "chrf")
    for i, v in enumerate(p.variants):
        if v.is_corpus:
            continue
        shown = re.search(rf'data-col="chrf:score" data-row="{i}"[^>]*>(?:<b>)?([^<]*)<', body).group(1)
        assert shown == col.fmt(CHRF().sentence_score(v.candidate, list(v.references)).score)
    if p.kind == "attack":
        badge = re.search(r'data-verdict="chrf:score">(.*?)</td>', body).group(1)
        assert ("resisted" in badge) == (t.verdicts[col.key] == "resisted")


def test_every_preset_can_be_scored():
    app = BrowserLikeApp({"lab": "presets", "preset": "repetition"}, page="lab")
    app.click("lab_all_presets")
    assert not app.exceptions
    table = next(d.value for d in app.at.dataframe if "preset" in d.value.columns and "kind" in d.value.columns)
    assert list(table["preset"]) == list(PRESETS)
    assert {"BLEU", "chrF2", "TER"} <= set(table.columns)
