"""Issue 19, item 7, in a real browser at 1280 px: the worked-out precisions are not cut (no formula wider than
its box), and a click on a largest gain brings the opened segment into view."""
from __future__ import annotations

import re

from tests.browser.conftest import wait_idle
from tests.browser.test_corpus_browser import open_corpus
from tests.browser.test_corpus_clicks_browser import open_section


def test_formulas_fit_and_an_opened_segment_is_scrolled_into_view(new_page, open_app):
    page = new_page(width=1280, height=800)
    open_corpus(page, open_app)
    page.get_by_role("button", name="Load the sample").click()
    page.wait_for_selector(".st-key-cp_headline [data-testid='stMetric']", timeout=120_000)
    wait_idle(page, 120)
    open_section(page, "Corpus BLEU worked out")
    # the section's anchor is an empty span (never visible): then its formulas
    page.wait_for_selector("#worked-out", state="attached", timeout=120_000)
    page.locator('[data-testid="stExpander"]').filter(has_text="Corpus BLEU worked out").locator(
        ".katex-display").first.wait_for(timeout=120_000)
    wide = page.evaluate("""() => [...document.querySelectorAll('.katex-display')]
        .filter(e => e.scrollWidth > e.clientWidth + 1)
        .map(e => [e.textContent.slice(0, 40), getComputedStyle(e).overflowX])""")
    # a formula wider than its box scrolls sideways (never cut) ...
    assert all(ov in ("auto", "scroll") for _, ov in wide), wide
    # ... and the worked-out precisions (p1 = 11559/33421 = 0.345...) fit without scrolling
    assert not [t for t, _ in wide if t.startswith("p")], wide
    page.locator(".st-key-cp_differ_view").get_by_text("Largest deltas").click()
    wait_idle(page)
    btn = page.get_by_role("button", name=re.compile(r"^segment \d+: \+")).first
    btn.scroll_into_view_if_needed()
    btn.click()
    wait_idle(page)
    page.wait_for_timeout(1500)          # the smooth scroll
    top = page.evaluate("() => document.getElementById('segment-view').getBoundingClientRect().top")
    assert 0 <= top < 800, top
