"""The Gaming lab in a real browser (Debian Chromium via Playwright): a preset loaded by its permalink shows
the deltas the real packages give, its "open in Explain" link opens the Explain page with that text, and
full-page screenshots are saved (artifacts/screenshots/lab-*.png)."""
from __future__ import annotations

import re

import pytest
import sacrebleu
from rouge_score import rouge_scorer

from explainer.attacks.presets import get_preset
from explainer.attacks.scoring import format_metric
from explainer.ui.lab.view import delta_text
from tests.browser.conftest import shot, wait_idle


def _real(cand: str, refs: list[str]) -> dict[str, float]:
    r = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"]).score_multi(refs, cand)
    return {"bleu": sacrebleu.sentence_bleu(cand, refs).score, "rouge1_f": r["rouge1"].fmeasure,
            "rouge2_f": r["rouge2"].fmeasure, "rougeL_f": r["rougeL"].fmeasure}


@pytest.mark.parametrize("pid", ["permutation", "negation"])
def test_preset_permalink_shows_real_deltas(page, app_url, pid):
    page.goto(f"{app_url}/gaming_lab?preset={pid}")
    page.wait_for_selector("table.lab-table")
    wait_idle(page)
    p = get_preset(pid)
    honest, attack = p.variants[0], p.variants[1]
    a, b = _real(honest.candidate, list(honest.references)), _real(attack.candidate, list(attack.references))
    for m in ("bleu", "rouge1_f", "rouge2_f", "rougeL_f"):
        shown_value = page.locator(f'td[data-metric="{m}"][data-variant="1"]').inner_text().strip()
        shown_delta = page.locator(f'td[data-delta="{m}"][data-variant="1"]').inner_text().strip()
        assert shown_value == format_metric(m, b[m])
        assert shown_delta == delta_text(m, b[m] - a[m])
    # the verdict shown for each headline metric is the lesson's, and visible as a word, not only a colour
    for m, verdict in p.story.items():
        shown = "fooled (same score)" if verdict == "tie" and p.kind == "attack" else verdict  # a headline tie
        assert shown in page.locator(f'td[data-verdict="{m}"]').first.inner_text()
    assert "preset=" + pid in page.url
    shot(page, f"lab-preset-{pid}")


def test_open_in_explain_link_carries_the_attack(page, app_url, new_page):
    page.goto(f"{app_url}/gaming_lab?preset=permutation")
    page.wait_for_selector("table.lab-table")
    wait_idle(page)
    attack = get_preset("permutation").variants[1]
    link = page.get_by_role("link", name="Open in Explain ↗").nth(1)
    href = link.get_attribute("href")
    assert href and "candidate=" in href
    other = new_page()
    other.goto(href)
    other.wait_for_selector('[data-testid="stMetric"]')
    wait_idle(other)
    box = other.get_by_role("textbox", name="Candidate (the text being scored)", exact=True)
    assert box.input_value() == attack.candidate
    bleu = other.locator('[data-testid="stMetric"]').first.locator('[data-testid="stMetricValue"]').inner_text()
    assert bleu.strip() == f"{sacrebleu.sentence_bleu(attack.candidate, list(attack.references)).score:.4f}"
    shot(other, "lab-open-in-explain")


def test_sections_render_and_screenshot(page, app_url):
    q = ("candidate=minister+promises+more+money+for+schools+next+year&ref=the+minister+said+that+the+government"
         "+will+increase+the+budget+for+schools+in+the+next+year")
    page.goto(f"{app_url}/gaming_lab?lab=sweeps&{q}")
    page.wait_for_selector(".js-plotly-plot")
    wait_idle(page)
    shot(page, "lab-sweep-length")
    page.goto(f"{app_url}/gaming_lab?lab=optimizer&{q}")
    page.get_by_role("button", name="Run optimizer").click()
    page.wait_for_selector(".js-plotly-plot")
    wait_idle(page)
    assert page.get_by_text("Re-scored by sacreBLEU 2.6.0 / rouge-score 0.1.2: identical").count() == 1
    assert "seed=0" in page.url and "budget=3" in page.url and "moves=insert%2Cdelete%2Cswap%2Creplace" in page.url
    shot(page, "lab-optimizer")
    page.goto(f"{app_url}/gaming_lab?lab=generators")
    page.wait_for_selector("table.lab-table")
    wait_idle(page)
    assert page.get_by_text("counts are identical").count() >= 1
    shot(page, "lab-generator-permute")


def test_optimizer_stop_button_keeps_the_partial_result(page, app_url):
    import urllib.parse

    # a long start text makes the search run for many seconds (its neighbourhood has ~10^4 moves)
    words = ("officials said the storm knocked out power for thousands of homes on friday night and shut many "
             "major roads across the north of the country while rescue teams worked through the weekend").split()
    cand = " ".join(words * 5)
    ref = ("the storm cut power to thousands of homes on friday and closed several major roads in the north of "
           "the country , officials said on saturday")
    q = urllib.parse.urlencode({"lab": "optimizer", "candidate": cand, "ref": ref})
    page.goto(f"{app_url}/gaming_lab?{q}")
    page.get_by_role("button", name="Run optimizer").wait_for()
    wait_idle(page)
    page.get_by_role("slider").focus()
    for _ in range(30):
        page.keyboard.press("ArrowRight")  # budget 15 s
    wait_idle(page)
    page.get_by_role("button", name="Run optimizer").click()
    # the progress bar's own text ("step 3: BLEU = …"); a bare "step " also matched the caption ("each step
    # tries …"), so Stop could be clicked before the search had begun (the run then never started)
    page.get_by_text(re.compile(r"^step \d+: ")).first.wait_for()
    page.get_by_role("button", name="Stop search").click()
    try:
        page.get_by_text("Stopped by you").wait_for()
    except Exception:
        shot(page, "lab-optimizer-stop-FAILED")
        raise
    wait_idle(page)
    # wait for the elements rather than count them at once: on a loaded machine the rerun may still be drawing
    try:
        page.get_by_text("Re-scored by sacreBLEU 2.6.0 / rouge-score 0.1.2: identical").wait_for()
    except Exception:
        shot(page, "lab-optimizer-stop-rescore-FAILED")
        print("PAGE TEXT AT FAILURE:\n" + page.inner_text('[data-testid="stMain"]')[:6000])
        raise
    assert page.get_by_text("Re-scored by sacreBLEU 2.6.0 / rouge-score 0.1.2: identical").count() == 1
    page.get_by_text("stopped: by you").wait_for()
    assert page.get_by_text("stopped: by you").count() == 1
    shot(page, "lab-optimizer-stopped")


def test_comparison_column_tie_badge_and_material_lesson_icon(page, app_url):
    """G10: the comparison column has no verdict, BP 1.00 -> 1.00 is a worded tie; the lesson's icon is a
    Material icon (an emoji is a missing glyph in Debian's Chromium)."""
    page.goto(f"{app_url}/gaming_lab?preset=stitched-refs")
    page.wait_for_selector("table.lab-table")
    wait_idle(page)
    assert page.locator('td[data-verdict][data-variant="2"]').count() == 0
    assert "tie / n/a" in page.locator('td[data-verdict="bleu_bp"][data-variant="1"]').inner_text()
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="Lesson.")
    icon = alert.locator('[data-testid="stAlertDynamicIcon"]')  # Streamlit's icon element inside an alert
    assert icon.count() == 1 and icon.inner_text().strip() == "lightbulb"  # a Material ligature, not "💡"
    shot(page, "lab-preset-stitched-refs")


@pytest.mark.parametrize("pid", ["reference-style", "rouge-implementations", "nltk-strings", "non-latin"])
def test_new_presets_render(page, app_url, pid):
    page.goto(f"{app_url}/gaming_lab?preset={pid}")
    page.wait_for_selector("table.lab-table")
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
    shot(page, f"lab-preset-{pid}")


def test_lesson_card_renders_without_numbers(page, app_url):
    page.goto(f"{app_url}/gaming_lab?preset=small-differences")
    page.get_by_text("Lesson card — no numbers").wait_for()
    wait_idle(page)
    assert page.locator("table.lab-table").count() == 0
    assert page.locator('[data-testid="stException"]').count() == 0
    shot(page, "lab-card-small-differences")


def test_optimizer_no_applicable_move_message(page, app_url):
    page.goto(f"{app_url}/gaming_lab?lab=optimizer&candidate=cat&ref=the+cat+sat&moves=swap")
    page.get_by_role("button", name="Run optimizer").click()
    page.get_by_text("None of the chosen moves can change this text").wait_for()
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
    shot(page, "lab-optimizer-no-move")
