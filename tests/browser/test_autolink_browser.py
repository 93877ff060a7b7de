"""Issue 17 item 7, in the real app: a bare URL or e-mail address in a link's parameter is shown in the page's
warning as text, never as a clickable link (Streamlit's Markdown autolinks bare URLs even when their
punctuation is backslash-escaped; ``md_escape`` breaks them)."""
from __future__ import annotations

import pytest

from tests.browser.conftest import wait_idle

URL = "http://evil.example/x"
LINKS = [f"/gaming_lab?preset={URL}", f"/?tokenize={URL}", f"/?rouge_types={URL}", f"/teach?mode={URL}",
         f"/corpus?metric={URL}", "/?tokenize=www.evil.example", "/?tokenize=bob@evil.example",
         f"/dialects?claim=see%20{URL}"]


@pytest.mark.parametrize("path", LINKS)
def test_a_url_in_a_parameter_is_not_a_link(path, new_page, app_url):
    page = new_page(width=1200, height=900)
    page.goto(app_url + path)
    shown = "evil.example"
    page.wait_for_selector(f'[data-testid="stAlert"]:has-text("{shown}"), '
                           f'[data-testid="stMarkdownContainer"]:has-text("{shown}")', timeout=60_000)
    wait_idle(page)
    hrefs = page.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href') || '')")
    assert not [h for h in hrefs if "evil" in h], hrefs


def test_a_claim_with_a_huge_exponent_is_a_message_not_an_error(new_page, app_url):
    """Issue 17 item 5 on the page: ``/dialects?claim=0e1000000`` said "This app has encountered an error"."""
    page = new_page(width=1200, height=900)
    page.goto(app_url + "/dialects?claim=0e1000000")
    page.wait_for_selector('[data-testid="stAlert"]:has-text("exponent")', timeout=60_000)
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
