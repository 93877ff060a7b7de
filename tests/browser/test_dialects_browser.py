"""The Dialects page in a real browser (Debian Chromium via Playwright): the side-by-side view with the first
divergence highlighted in both traces, the reproduce view finding a claim and its "explain →" link opening that
configuration on the Explain page with the same number; full-page screenshots in artifacts/screenshots/."""
from __future__ import annotations

import urllib.parse

from explainer.dialectcmp.reproduction import reproduce
from explainer.examples import get_example
from explainer.ui.bleu_view import headline
from tests.browser.conftest import shot, wait_idle


def dialects_url(app_url: str, candidate: str, refs: list[str], **extra) -> str:
    q = [("candidate", candidate)] + [("ref", r) for r in refs] + list(extra.items())
    return app_url + "/dialects?" + urllib.parse.urlencode(q, quote_via=urllib.parse.quote)


def shown_metrics(page) -> dict[str, str]:
    out = {}
    for m in page.locator('[data-testid="stMetric"]').all():
        out[m.locator('[data-testid="stMetricLabel"]').inner_text().strip()] = \
            m.locator('[data-testid="stMetricValue"]').inner_text().strip()
    return out


def test_side_by_side_first_divergence_highlighted(page, app_url):
    refs = ["The cat is on the mat.", "There is a cat on the mat."]
    page.goto(dialects_url(app_url, "The cat sat on the mat.", refs, a="sacrebleu", b="nltk:method1"))
    page.wait_for_selector(".dl-why")
    wait_idle(page)
    why = page.locator(".dl-why").inner_text()
    assert "First divergence: tokens" in why
    assert "sacreBLEU (13a) splits `mat.` into `mat .` in the candidate; NLTK method1 keeps `mat.`" in why
    # the differing tokens are marked in both traces: `mat` `.` on the left, `mat.` on the right
    sides = page.locator(".dl-side")
    assert sides.count() == 2
    # the candidate, then each reference (all three are tokenized differently)
    assert [t.inner_text() for t in sides.nth(0).locator(".dl-hit").all()] == ["mat", "."] * 3
    assert [t.inner_text() for t in sides.nth(1).locator(".dl-hit").all()] == ["mat."] * 3
    assert sides.nth(0).locator(".dl-toks").count() == 3
    assert page.locator('[data-testid="stDataFrame"]').count() >= 1
    shot(page, "dialects-side-by-side")


def test_rouge_side_by_side_dark(new_page, app_url):
    page = new_page(dark=True)
    ex = get_example("abandon_hope")
    page.goto(dialects_url(app_url, ex.candidate, list(ex.references), metric="rouge", a="rouge-score",
                           b="rouge155:A"))
    page.wait_for_selector(".dl-why")
    wait_idle(page)
    assert "First divergence: several references" in page.locator(".dl-why").inner_text()
    assert page.locator(".dl-cell-hit").count() >= 3
    shot(page, "dialects-rouge-dark")


def test_reproduce_finds_the_claim_and_its_link_explains_it(page, app_url):
    ex = get_example("abandon_hope")
    refs = list(ex.references)
    page.goto(dialects_url(app_url, ex.candidate, refs, claim="BLEU: 0.541"))
    wait_idle(page)
    page.get_by_role("tab", name="Reproduce a number").click()
    page.wait_for_selector("a.dl-explain")
    assert "is reproduced by" in page.locator('[data-testid="stAlert"]').first.inner_text()
    items = page.locator("ol.dl-matches li")
    want = reproduce(ex.candidate, refs, "BLEU: 0.541")
    assert items.count() == len(want.matches)
    assert "the first reference only" in items.first.inner_text()
    shot(page, "dialects-reproduce")
    # one click: the Explain page with that configuration shows the same number
    page.locator("a.dl-explain").first.click()
    page.wait_for_selector('[data-testid="stMetric"]')
    wait_idle(page)
    m = want.matches[0]
    assert shown_metrics(page)["BLEU"] == headline(m.value, 100.0 if m.config.dialect in ("sacrebleu", "multi-bleu")
                                                   else 1.0)
    assert page.get_by_role("textbox", name="Reference 1", exact=True).input_value() == refs[0]
    assert page.get_by_role("textbox", name="Reference 2", exact=True).count() == 0     # the first reference only
    shot(page, "dialects-reproduce-explain")


def test_unreproducible_claim(page, app_url):
    ex = get_example("cat_sat")
    page.goto(dialects_url(app_url, ex.candidate, list(ex.references), claim="BLEU = 0.576", claim_metric="bleu"))
    wait_idle(page)
    page.get_by_role("tab", name="Reproduce a number").click()
    page.wait_for_selector("ol.dl-matches")
    alert = page.locator('[data-testid="stAlert"]').first.inner_text()
    assert "cannot be reproduced by any of the" in alert
    assert page.locator("ol.dl-matches li").count() == 5            # the nearest ones
    shot(page, "dialects-unreproducible")


def test_picking_a_builtin_claim_stays_on_the_reproduce_tab(page, app_url):
    ex = get_example("cat_sat")
    page.goto(dialects_url(app_url, ex.candidate, list(ex.references)))
    wait_idle(page)
    tab = page.get_by_role("tab", name="Reproduce a number")
    tab.click()
    wait_idle(page)
    assert tab.get_attribute("aria-selected") == "true"
    page.locator('[data-testid="stSelectbox"]').filter(has_text="Or check a number printed").click()
    page.get_by_role("option").filter(has_text="ROUGE-2 0.571").click()   # four references: the page grows
    wait_idle(page)
    page.wait_for_selector("ol.dl-matches")
    assert page.get_by_role("tab", name="Reproduce a number").get_attribute("aria-selected") == "true"
    assert page.get_by_role("tab", name="Side by side").get_attribute("aria-selected") == "false"
    # the verdict and the first match as the search itself gives them (rouge-metric and the rouge package, added
    # as dialects, reproduce this claim with ordinary settings: it is no longer "only an unusual setting")
    ab = get_example("abandon_hope")
    want = reproduce(ab.candidate, list(ab.references), "ROUGE-2 0.571", metric="rouge2")
    assert want.verdict == "reproduced" and want.matches
    assert "is reproduced by" in page.locator('[data-testid="stAlert"]').first.inner_text()
    assert want.matches[0].description in page.locator("ol.dl-matches li").first.inner_text()
    shot(page, "dialects-builtin-claim-stays-on-reproduce")


def test_divergence_panels_fit_and_marks_do_not_overlap(page, app_url):
    """At 1400 px: the ROUGE step tables fit their half of the page (not cut off), the marks of two adjacent
    tokens (`mat` `.`) do not overlap, and the stemmer side shows the stems it compared."""
    refs = ["The cat is on the mat.", "There is a cat on the mat."]
    page.goto(dialects_url(app_url, "The cat sat on the mat.", refs, a="sacrebleu", b="textbook"))
    page.wait_for_selector(".dl-why")
    wait_idle(page)
    why = page.locator(".dl-why").inner_text()
    assert "splits `mat.` into `mat .` in the candidate; Textbook keeps `mat.`; also Textbook lowercases" in why
    left = page.locator(".dl-side").nth(0)
    assert left.locator(".xp-text").count() == 3            # the candidate and both references
    marks = left.locator(".xp-text").first.locator(".xp-tok")
    boxes = [marks.nth(i).bounding_box() for i in range(marks.count())]
    mat, dot = boxes[-2], boxes[-1]                          # `mat` then `.`
    assert mat["x"] + mat["width"] <= dot["x"] + 0.5, (mat, dot)
    shot(page, "dialects-bleu-textbook-tokens")

    ex = get_example("abandon_hope")
    page.goto(dialects_url(app_url, ex.candidate, list(ex.references), metric="rouge", a="rouge-score",
                           b="rouge155:A"))
    page.wait_for_selector(".dl-why")
    wait_idle(page)
    widths = page.evaluate("""() => [...document.querySelectorAll('.dl-side table')].map(
        t => [t.scrollWidth, t.closest('.dl-scroll').clientWidth])""")
    assert widths and all(sw <= cw for sw, cw in widths), widths
    shot(page, "dialects-rouge-tables-fit")

    page.goto(dialects_url(app_url, "cats taking took taken", ["cat take take take"], metric="rouge",
                           a="rouge-score", b="rouge-score:stem"))
    page.wait_for_selector(".dl-why")
    wait_idle(page)
    right = page.locator(".dl-side").nth(1).locator(".dl-toks").first.inner_text()
    assert "cats → cat" in right and "taking → take" in right
    shot(page, "dialects-stemmer-side")
