"""The Corpus page keeps what it shows (issue 33, items 1, 2 and 8), in a real browser: a saved comparison holds
and restores the segment, the analysis and the test shown when "Save" was pressed (it held segment 1 and the first
analysis: the button was drawn before a segment view's own run moved on); "All systems against each other" stays
open after "Run the test on every pair" (its result was hidden until reopened, 2 of 3 runs); the segment number
follows "next" as soon as the segment shown does (it lagged 1–2 s)."""
from __future__ import annotations

import json
import re
import time

from tests.browser.conftest import shot, wait_idle
from tests.browser.test_corpus_clicks_browser import no_error, open_sample, opened_segment


def _seg_box(page):
    return page.locator(".st-key-cp_seg_input input")


def test_a_saved_comparison_restores_the_segment_the_analysis_and_the_test(page, app_url, tmp_path):
    open_sample(page, app_url)
    page.locator(".st-key-cp_differ_view").get_by_text("Largest deltas", exact=True).click()
    wait_idle(page, 120)
    btn = page.get_by_role("button", name=re.compile(r"^segment \d+: \+")).nth(2)
    seg = int(re.match(r"segment (\d+)", btn.inner_text()).group(1))
    btn.click()
    wait_idle(page, 120)
    for _ in range(3):                  # the segment view's own runs: the page above them is not drawn again
        page.get_by_role("button", name="next →").click()
        wait_idle(page, 120)
    shown = opened_segment(page)
    assert shown == seg + 3
    page.locator(".st-key-cp_test").get_by_text("approximate randomization").click()
    wait_idle(page, 120)
    page.locator(".st-key-cp_test_n_ar input").fill("500")
    page.locator(".st-key-cp_test_n_ar input").press("Enter")
    wait_idle(page, 120)
    page.get_by_role("button", name="Run the test").click()
    page.get_by_text(re.compile(r"Approximate randomization, 500 trials")).first.wait_for(timeout=120_000)
    wait_idle(page, 120)
    save = page.get_by_role("button", name=re.compile("^Save this comparison"))
    save.scroll_into_view_if_needed()
    with page.expect_download(timeout=120_000) as info:
        save.click()
    path = tmp_path / "comparison.json"
    info.value.save_as(path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    view = saved["view"]
    assert (view["cp_seg"], view["cp_differ_view"], view["cp_test"], view["cp_test_n_ar"]) == \
        (shown, "Largest deltas", "ar", 500)
    assert [t["test"] for t in saved["tests"]] == ["ar"] and saved["tests"][0]["n_samples"] == 500

    # restored in a fresh page: the same segment, analysis and test result, without running the test again
    page.goto(app_url + "/corpus")
    page.wait_for_selector(".st-key-cp_source", timeout=120_000)
    wait_idle(page, 120)
    page.locator(".st-key-cp_source").get_by_text("Saved comparison").click()
    wait_idle(page, 120)
    page.locator(".st-key-cp_up_saved input[type=file]").set_input_files(str(path))
    wait_idle(page, 120)
    page.get_by_role("button", name="Restore it").click()
    page.wait_for_selector(".st-key-cp_headline [data-testid='stMetric']", timeout=180_000)
    wait_idle(page, 120)
    no_error(page)
    assert opened_segment(page) == shown and _seg_box(page).input_value() == str(shown)
    picked = page.locator(".st-key-cp_differ_view [aria-pressed='true'], .st-key-cp_differ_view [aria-checked='true']")
    assert "Largest deltas" in " ".join(picked.all_inner_texts())
    assert page.get_by_text(re.compile(r"Approximate randomization, 500 trials")).count() >= 1
    shot(page, "corpus-saved-restored")


def test_every_pair_stays_open_after_its_run(page, app_url):
    open_sample(page, app_url)
    summary = page.locator('[data-testid="stExpander"] summary').filter(has_text="All systems against each other")
    summary.click()
    wait_idle(page, 120)
    page.locator(".st-key-cp_test_n_bs input").fill("300")
    page.locator(".st-key-cp_test_n_bs input").press("Enter")
    wait_idle(page, 120)
    for _ in range(3):
        page.get_by_role("button", name=re.compile(r"^Run the test on every pair")).click()
        wait_idle(page, 120)
        time.sleep(0.5)
        wait_idle(page, 120)
        clusters = page.get_by_text(re.compile(r"^Clusters, best first: "))
        clusters.wait_for(timeout=60_000)
        assert clusters.is_visible()
        # (a table without selections gets no st-key class: the p-value table in the section)
        matrix = page.locator('[data-testid="stExpander"]').filter(
            has_text="All systems against each other").locator('[data-testid="stDataFrame"]')
        assert matrix.count() == 1 and matrix.is_visible()
        assert page.locator('[data-testid="stExpander"] details[open]').filter(
            has_text="All systems against each other").count() == 1
    no_error(page)
    shot(page, "corpus-every-pair")


def test_the_segment_number_follows_next_at_once(page, app_url):
    """From the click on "next", the number box shows the new segment no later than the segment's own line does
    (it lagged 1–2 s behind it)."""
    open_sample(page, app_url)
    lags = []
    for _ in range(5):
        cur = opened_segment(page)
        t0 = time.perf_counter()
        page.get_by_role("button", name="next →").click()
        page.wait_for_function(f"() => document.querySelector('.st-key-cp_seg_input input') && "
                               f"document.querySelector('.st-key-cp_seg_input input').value == '{cur + 1}'",
                               timeout=60_000, polling=20)
        box = time.perf_counter() - t0
        page.locator(f"text=/^Segment {cur + 1}: sentence score/").first.wait_for(timeout=60_000)
        line = time.perf_counter() - t0
        lags.append(box - line)
        wait_idle(page, 120)
    assert max(lags) < 0.3, lags
