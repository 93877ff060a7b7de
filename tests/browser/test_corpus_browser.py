"""The Corpus page in a real browser (Debian Chromium via Playwright): upload two systems and two references,
the displayed corpus BLEU equals sacreBLEU's, a segment opens step by step and its BLEU equals sacreBLEU's
sentence score; full-page screenshots in artifacts/screenshots/ (looked at: see docs/ui.md)."""
from __future__ import annotations

import re
import time

from sacrebleu.metrics import BLEU

from tests.browser.conftest import shot, wait_idle
from tests.corpus_data import make_testset, write_files


def open_corpus(page, open_app) -> None:
    open_app(page, wait_for='[data-testid="stSidebarNav"]')
    page.get_by_role("link", name="Corpus").click()
    page.wait_for_selector(".st-key-cp_source", timeout=120_000)
    wait_idle(page)


def metrics_in(page, container: str) -> dict[str, str]:
    out = {}
    for m in page.locator(f".st-key-{container} [data-testid='stMetric']").all():
        label = m.locator('[data-testid="stMetricLabel"]').inner_text().strip()
        out[label] = m.locator('[data-testid="stMetricValue"]').inner_text().strip()
    return out


def test_upload_two_systems_two_references_and_open_a_segment(page, open_app, tmp_path):
    refs, systems = make_testset(150, 2, 2, seed=13)
    ref_paths, sys_paths = write_files(tmp_path, refs, systems)
    open_corpus(page, open_app)
    page.locator(".st-key-cp_source").get_by_text("Upload files").click()
    wait_idle(page)
    page.locator(".st-key-cp_up_sys input[type=file]").set_input_files([p for _, p in sys_paths])
    page.locator(".st-key-cp_up_ref input[type=file]").set_input_files(ref_paths)
    wait_idle(page)
    page.get_by_role("button", name="Use these files").click()
    page.wait_for_selector(".st-key-cp_headline [data-testid='stMetric']", timeout=120_000)
    wait_idle(page, 120)
    shown = metrics_in(page, "cp_headline")
    want = {f"BLEU — {n}": f"{BLEU().corpus_score(lines, refs).score:.4f}" for n, lines in systems}
    assert shown == want
    shot(page, "corpus-uploaded")

    # open segment 12 of sys2 (the system looked at by default: the first one that is not the baseline) through the
    # segment number, then step to the next one; the BLEU shown must be sys2's segment 13 (sys1's output differs)
    assert systems[0][1][12] != systems[1][1][12]
    box = page.get_by_label("Segment", exact=True)
    box.fill("12")
    box.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="next →").click()
    wait_idle(page)
    seg = page.locator("text=/^Segment 13: sentence score/").first
    seg.wait_for()
    k = 12
    want_seg = BLEU().corpus_score([systems[1][1][k]], [[r[k]] for r in refs]).score
    headline = page.locator('[data-testid="stMetric"]').filter(has=page.locator('[data-testid="stMetricLabel"]',
                                                                                 has_text=re.compile(r"^BLEU$")))
    assert headline.first.locator('[data-testid="stMetricValue"]').inner_text().strip() == f"{want_seg:.4f}"
    page.get_by_role("heading", name="Segment view").scroll_into_view_if_needed()
    time.sleep(0.5)
    shot(page, "corpus-segment-view")
    # the link to the Explain page carries the segment and the settings
    href = page.get_by_role("link", name=re.compile("Open segment 13 in the Explain page")).get_attribute("href")
    assert "candidate=" in href and "bleu_dialect=sacrebleu" in href


def test_sample_corpus_paired_test_in_the_browser(page, open_app):
    open_corpus(page, open_app)
    page.get_by_role("button", name="Load the sample").click()
    page.wait_for_selector(".st-key-cp_headline [data-testid='stMetric']", timeout=120_000)
    wait_idle(page, 120)
    page.get_by_role("button", name="Run the test").click()
    page.get_by_text(re.compile(r"Paired bootstrap, 1,000 resamples, seed 12345")).wait_for(timeout=120_000)
    wait_idle(page, 120)
    assert page.get_by_text("What the p-value says.").count() == 1
    # the same run drew the scores table above with the test's p-values (no second run for it)
    table = page.locator(".st-key-cp_headline").locator("xpath=following::*[@data-testid='stDataFrame'][1]")
    assert "— (baseline)" in (table.text_content() or "")
    shot(page, "corpus-sample-paired-test")
