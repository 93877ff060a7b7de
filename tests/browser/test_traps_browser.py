"""The classic traps on the Explain page in a real browser: Chinese text under a whitespace tokenizer and the
rouge-score tokenizer is named before the numbers, and the quoted token's markup stays text (no link, no bold)."""
from __future__ import annotations

import urllib.parse

from tests.browser.conftest import shot
from tests.dialects_samples import ZH_NEWS

EVIL = "新[点](javascript:x)北京三月五日电**粗**<b>体</b> "


def test_traps_are_named_and_inert(page, open_app):
    c, r = EVIL + ZH_NEWS[0][0], ZH_NEWS[0][1]
    q = urllib.parse.urlencode([("candidate", c), ("ref", r), ("tokenize", "none")], quote_via=urllib.parse.quote)
    open_app(page, q, wait_for='[data-testid="stMetric"]')
    alerts = page.locator('[data-testid="stAlert"]').filter(has_text="Before you read the numbers")
    texts = [a.inner_text() for a in alerts.all()]
    assert any("Chinese text is not split into words" in t for t in texts), texts
    assert any("rouge-score tokenizer" in t and "removed" in t for t in texts), texts
    # the quoted token as the user typed it (its first 20 characters), as plain text
    assert any("新[点](javascript:x)北京" in t for t in texts), texts
    for a in alerts.all():
        assert a.locator("a[href^='javascript']").count() == 0
        assert a.locator("b, strong").count() == 0
    shot(page, "explain-traps")
