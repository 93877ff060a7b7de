"""chrF on the Explain page in a real browser (issue 23): the headline's chrF is sacreBLEU's, the chrF tab shows
the n-grams highlighted in the texts, the formulas typeset and the P/R/F chart; NLTK's dialect from the sidebar
gives NLTK's number; user text in the highlighted boxes stays inert and literal. Screenshots under
artifacts/screenshots/ (explain-chrf*)."""
from __future__ import annotations

from explainer.ui.families import ui_family
from tests.browser.conftest import shot, wait_idle
from tests.browser.test_explain_browser import XSS_CANDIDATE, XSS_REF, link, shown_metrics, text_without_labels
from tests.browser.test_teach_clicks_browser import pick

H = "It is a guide to action which ensures that the military always obeys the commands of the party."
R = ["It is a guide to action that ensures that the military will forever heed Party commands.",
     "It is the guiding principle which guarantees the military forces always being under the command of the Party."]


def _open_chrf_tab(page) -> None:
    page.get_by_role("tab", name="chrF").click()
    page.get_by_text("step by step (sacrebleu", exact=False).first.wait_for()
    page.wait_for_selector(".katex")
    page.wait_for_selector(".js-plotly-plot")
    wait_idle(page)


def test_chrf_plus_plus_tab_shows_sacrebleus_numbers(page, open_app):
    from sacrebleu.metrics import CHRF

    open_app(page, link(H, R, chrf_sacrebleu_word_order="2"), wait_for='[data-testid="stMetric"]')
    want = CHRF(word_order=2).sentence_score(H, R).score
    assert shown_metrics(page)["chrF"] == f"{want:.4f}"
    _open_chrf_tab(page)
    # the candidate is shown whole, as typed, with the matched character bigrams marked
    cand = page.locator('.xp-text[aria-label="candidate, character 2-grams"]').first
    assert text_without_labels(cand) == H
    assert cand.locator(".xp-o2").count() > 0
    # the final formula's result is the score (KaTeX's annotation keeps the LaTeX source)
    sources = page.locator("annotation").all_text_contents()
    assert any(s.rstrip().endswith(f"= {want:.6g}") for s in sources), sources[-1:]
    assert "chrF2++" in page.locator('[data-testid="stCode"]').last.inner_text()
    shot(page, "explain-chrf")
    # another order: word bigrams (the 8th), the URL follows
    page.get_by_role("tab", name="chrF").scroll_into_view_if_needed()
    pick(page, "Show the n-grams of", "word 2-grams")
    page.wait_for_function("() => location.search.includes('chrf_order=8')")
    wait_idle(page)
    assert page.locator('.xp-text[aria-label="candidate, word 2-grams"]').count() == 1


def test_nltk_dialect_from_the_sidebar(page, open_app):
    from nltk.translate.chrf_score import sentence_chrf

    open_app(page, link(H, R[:1]), wait_for='[data-testid="stMetric"]')
    wait_idle(page)
    pick(page, "chrF dialect", ui_family("chrf").dialect_label("nltk"))
    page.wait_for_function("() => location.search.includes('chrf_dialect=nltk')")
    wait_idle(page)
    assert shown_metrics(page)["chrF"] == f"{sentence_chrf(R[0], H):.6f}"
    _open_chrf_tab_nltk(page)
    shot(page, "explain-chrf-nltk")


def _open_chrf_tab_nltk(page) -> None:
    page.get_by_role("tab", name="chrF").click()
    page.get_by_text("step by step (nltk", exact=False).first.wait_for()
    wait_idle(page)


def test_xss_payloads_stay_inert_in_the_chrf_tab(page, open_app):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_app(page, link(XSS_CANDIDATE, [XSS_REF], example="", chrf_order="1"), wait_for='[data-testid="stMetric"]')
    _open_chrf_tab(page)
    assert page.evaluate("() => window.__xss === undefined"), "a payload ran"
    assert dialogs == []
    assert page.locator("img[src='x']").count() == 0 and page.locator("svg[onload]").count() == 0
    cand = page.locator('.xp-text[aria-label="candidate, character 1-grams"]').first
    shown = text_without_labels(cand)
    assert "<script>window.__xss=2</script>" in shown and "U+202E" in shown
    ref = page.locator('.xp-text[aria-label="reference 1, character 1-grams"]').first
    assert "<b>bold</b>" in text_without_labels(ref)


# ------------------------------------------------------------------------------------- the other pages
def test_dialects_chrf_side_by_side(page, app_url):
    from sacrebleu.metrics import CHRF

    from tests.browser.test_dialects_browser import dialects_url

    page.goto(dialects_url(app_url, H, R[:1], metric="chrf"))
    page.get_by_text("Every implementation side by side").first.wait_for()
    page.wait_for_selector(".js-plotly-plot")
    wait_idle(page)
    grid = page.locator('[data-testid="stDataFrame"]').first
    assert grid.is_visible()
    # the chart's labels are the numbers the libraries report
    labels = page.locator(".js-plotly-plot text.bartext").all_text_contents()
    assert f"{CHRF().sentence_score(H, R[:1]).score:.4f}" in labels
    assert "First divergence" in page.locator('[data-testid="stMarkdown"]').filter(
        has_text="First divergence").first.inner_text()
    shot(page, "dialects-chrf")


def test_corpus_chrf_scores(page, app_url):
    from sacrebleu.metrics import CHRF

    from explainer.corpus.samples import load_sample

    page.goto(app_url + "/corpus?sample=news-en&metric=chrf")
    page.get_by_text("The corpus chrF2 worked out").first.wait_for()     # its section (opened on demand)
    wait_idle(page, 120)
    ts = load_sample("news-en")
    streams = [[refs[j] for refs in ts.references] for j in range(len(ts.references[0]))]
    got = shown_metrics(page)
    for name, lines in ts.systems:
        assert got[f"chrF2 — {name}"] == f"{CHRF().corpus_score(list(lines), streams).score:.4f}"
    shot(page, "corpus-chrf")


def test_lab_and_teach_chrf(page, app_url):
    page.goto(app_url + "/gaming_lab?lab=presets&preset=repetition")
    page.locator('th:has-text("chrF2")').first.wait_for()   # its column in the preset's verdict table
    wait_idle(page)
    shot(page, "lab-chrf")
    page.goto(app_url + "/teach?metric=chrf&example=cat_mat")
    page.get_by_text("The text as chrF reads it").first.wait_for()
    wait_idle(page)
    shot(page, "teach-chrf")
