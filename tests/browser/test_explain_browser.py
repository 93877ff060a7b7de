"""The Explain page in a real browser (Debian Chromium via Playwright): permalinks show the real libraries'
numbers, XSS payloads stay inert and visible, the URL follows edits, and full-page screenshots are saved
to artifacts/screenshots/ (light, dark, projector size)."""
from __future__ import annotations

import time
import urllib.parse

import pytest

from explainer.examples import get_example
from tests.browser.conftest import shot, wait_idle

ROUGE = {"ROUGE-1": "rouge1", "ROUGE-2": "rouge2", "ROUGE-L": "rougeL", "ROUGE-Lsum": "rougeLsum"}


def link(candidate: str, refs: list[str], **extra) -> str:
    q = [("candidate", candidate)] + [("ref", r) for r in refs] + list(extra.items())
    return urllib.parse.urlencode(q, quote_via=urllib.parse.quote)


def shown_metrics(page) -> dict[str, str]:
    out = {}
    for m in page.locator('[data-testid="stMetric"]').all():
        label = m.locator('[data-testid="stMetricLabel"]').inner_text().strip()
        value = m.locator('[data-testid="stMetricValue"]').inner_text().strip()
        out[label] = value
    return out


def text_without_labels(locator) -> str:
    """The text a reader sees in a highlighted box, without the small order/clip labels (<sub>)."""
    return locator.evaluate("""el => { const c = el.cloneNode(true);
        c.querySelectorAll('sub').forEach(s => s.remove()); return c.textContent; }""")


def real_values(candidate: str, refs: list[str], *, stem: bool = False) -> dict[str, str]:
    """The headline as the real libraries compute it; the semantic scores from our MiniLM port, which
    tests/test_semantic*.py holds to sentence-transformers' and bert-score's golden vectors."""
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import BLEU, CHRF, TER

    from explainer.semantic import score_semantic

    out = {"BLEU": f"{BLEU().corpus_score([candidate], [[r] for r in refs]).score:.4f}"}
    sc = rouge_scorer.RougeScorer(list(ROUGE.values()), use_stemmer=stem).score_multi(refs, candidate)
    for label, t in ROUGE.items():
        out[label] = f"{sc[t].fmeasure:.5f}"
    out["chrF"] = f"{CHRF().sentence_score(candidate, refs).score:.4f}"
    out["TER"] = f"{TER().sentence_score(candidate, refs).score:.4f}"
    out["STS"] = f"{score_semantic(candidate, refs, dialect='sts').score:.4f}"
    out["BERTScore F"] = f"{score_semantic(candidate, refs, dialect='bertscore').score:.4f}"
    return out


@pytest.mark.parametrize("example_id", ["cat_mat", "abandon_hope", "union_lcs"])
def test_permalink_shows_real_library_values(page, open_app, example_id):
    ex = get_example(example_id)
    refs = list(ex.references)
    open_app(page, link(ex.candidate, refs), wait_for='[data-testid="stMetric"]')
    got = shown_metrics(page)
    assert got == real_values(ex.candidate, refs)
    # the texts are restored into the boxes
    candidate_box = page.get_by_role("textbox", name="Candidate (the text being scored)", exact=True)
    assert candidate_box.input_value() == ex.candidate
    assert page.get_by_role("textbox", name=f"Reference {len(refs)}", exact=True).input_value() == refs[-1]
    shot(page, f"explain-{example_id}")


XSS_CANDIDATE = ('<img src=x onerror="window.__xss=1"> <script>window.__xss=2</script> '
                 '[click](javascript:window.__xss=3) <a href="javascript:window.__xss=4">a</a> '
                 'abc\u202eRTL\u200bZW')
XSS_REF = '<svg onload="window.__xss=5"></svg> the <b>bold</b> ref'


def test_xss_payloads_are_inert_and_visible(page, open_app):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_app(page, link(XSS_CANDIDATE, [XSS_REF], example=""), wait_for='[data-testid="stMetric"]')
    page.wait_for_selector(".xp-text")
    assert page.evaluate("() => window.__xss === undefined"), "a payload ran"
    assert dialogs == []
    assert page.locator("img[src='x']").count() == 0
    assert page.locator("svg[onload]").count() == 0
    assert page.locator("a[href^='javascript']").count() == 0
    assert page.locator(".xp-text b").count() == 0
    cand_box = page.locator('.xp-text[aria-label="candidate"]').first
    shown = text_without_labels(cand_box)
    for literal in ('<img src=x onerror="window.__xss=1">', "<script>window.__xss=2</script>",
                    "[click](javascript:window.__xss=3)", '<a href="javascript:window.__xss=4">a</a>'):
        assert literal in shown, literal
    # bidi override and zero-width space are shown as visible badges, not applied
    assert "U+202E" in shown and "U+200B" in shown
    assert "\u202e" not in shown
    ref_box = page.locator('.xp-text[aria-label="reference 1"]').first
    assert "<b>bold</b>" in text_without_labels(ref_box)
    assert '<svg onload="window.__xss=5"></svg>' in text_without_labels(ref_box)
    shot(page, "explain-xss")


def test_editing_updates_scores_and_url(page, open_app):
    open_app(page, link("the cat", ["the cat sat on the mat"]), wait_for='[data-testid="stMetric"]')
    box = page.get_by_role("textbox", name="Candidate (the text being scored)", exact=True)
    box.fill("the cat sat on the mat")
    box.press("Control+Enter")
    page.wait_for_function("() => decodeURIComponent(location.search.replace(/\\+/g, ' '))"
                           ".includes('candidate=the cat sat on the mat')")
    wait_idle(page)
    assert shown_metrics(page) == real_values("the cat sat on the mat", ["the cat sat on the mat"])
    # the URL now restores the edited view in a fresh page
    url = page.url
    page2 = page.context.new_page()
    page2.goto(url)
    page2.wait_for_selector('[data-testid="stMetric"]')
    wait_idle(page2)
    candidate_box = page2.get_by_role("textbox", name="Candidate (the text being scored)", exact=True)
    assert candidate_box.input_value() == "the cat sat on the mat"
    assert shown_metrics(page2) == shown_metrics(page)


def test_bad_link_warns_in_browser(page, open_app):
    open_app(page, link("the cat", ["the cat"], bleu_dialect="nope", lowercase="7"),
             wait_for='[data-testid="stMetric"]')
    alerts = " ".join(a.inner_text() for a in page.locator('[data-testid="stAlert"]').all())
    assert "nope" in alerts and "lowercase" in alerts
    assert shown_metrics(page)["BLEU"] == real_values("the cat", ["the cat"])["BLEU"]


def test_empty_candidate_message_in_browser(page, open_app):
    open_app(page, link("", ["the cat"]))
    page.wait_for_selector('[data-testid="stAlert"]')
    assert "candidate is empty" in page.locator('[data-testid="stAlert"]').first.inner_text()
    from playwright.sync_api import expect

    # waits for the box to be filled (under load the page can be idle a moment before the widget has its value)
    expect(page.get_by_role("textbox", name="Reference 1", exact=True)).to_have_value("the cat", timeout=30_000)


@pytest.mark.parametrize("dark,width,height,name", [(False, 1400, 1000, "light"), (True, 1400, 1000, "dark"),
                                                    (False, 1920, 1080, "projector")])
def test_screenshots_themes_and_projector(new_page, open_app, dark, width, height, name):
    page = new_page(width=width, height=height, dark=dark)
    ex = get_example("abandon_hope")
    open_app(page, link(ex.candidate, list(ex.references)), wait_for='[data-testid="stMetric"]')
    page.wait_for_selector(".js-plotly-plot")
    assert shown_metrics(page) == real_values(ex.candidate, list(ex.references))
    # the app follows the viewer's light/dark setting (a lone [theme] section in config.toml would pin one)
    rgb = page.evaluate("""() => getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor""")
    r, g, b = (int(x) for x in rgb[rgb.index("(") + 1: rgb.index(")")].split(",")[:3])
    luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
    assert (luminance < 0.3) if dark else (luminance > 0.7), (name, rgb)
    shot(page, f"explain-{name}")
    if name == "light":
        page.get_by_role("tab", name="ROUGE").click()
        page.get_by_text("ROUGE step by step").first.wait_for()
        wait_idle(page)
        shot(page, f"explain-{name}-rouge")


def test_clicking_an_ngram_row_outlines_it_everywhere(page, open_app):
    from explainer.bleu import explain_bleu
    from explainer.ui import bleu_view as bv

    ex = get_example("military_c1")
    open_app(page, link(ex.candidate, list(ex.references)), wait_for='[data-testid="stMetric"]')
    grids = page.locator('[data-testid="stDataFrame"]')
    grid = next(grids.nth(i) for i in range(grids.count()) if grids.nth(i).is_visible())
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    row = 3  # the 4th data row; rows are 35 px high under a 35 px header
    page.mouse.click(box["x"] + 14, box["y"] + 35 + 35 * row + 17)  # its row-selection marker
    expected = bv.ngram_rows(explain_bleu(ex.candidate, list(ex.references)))[row]["n-gram"]
    page.wait_for_function("g => new URLSearchParams(location.search).get('ngram') === g", arg=expected)
    wait_idle(page)
    occ = bv.ngram_occurrences(explain_bleu(ex.candidate, list(ex.references)), expected)
    n_tokens = occ["n"] * (len(occ["cand_positions"]) + sum(len(p) for p in occ["ref_positions"]))
    # every occurrence in the candidate and in each reference is outlined (plus the legend's sample)
    assert page.locator(".xp-text .xp-sel").count() == n_tokens


def test_url_special_characters_round_trip(page, open_app):
    cand = "a+b & c#d %20 e?x=1\nline two 😀 İstanbul \u200b end"
    refs = ["a+b & c#d e?x=1", "line two İstanbul end"]
    open_app(page, link(cand, refs), wait_for='[data-testid="stMetric"]')
    box = page.get_by_role("textbox", name="Candidate (the text being scored)", exact=True)
    assert box.input_value() == cand
    assert page.get_by_role("textbox", name="Reference 2", exact=True).input_value() == refs[1]
    assert shown_metrics(page) == real_values(cand, refs)
    # the URL the page writes back restores the same texts
    page2 = page.context.new_page()
    page2.goto(page.url)
    page2.wait_for_selector('[data-testid="stMetric"]')
    wait_idle(page2)
    assert page2.get_by_role("textbox", name="Candidate (the text being scored)", exact=True).input_value() == cand
    assert shown_metrics(page2) == shown_metrics(page)


# --- layout on a 1024 x 768 projector --------------------------------------------------------------------
_CLIPPED_JS = """sel => [...document.querySelectorAll(sel)].map(el => {
    // an element is cut off when its content is wider than its box, or its text runs outside the box
    // (or outside the main column)
    const main = document.querySelector('[data-testid="stMainBlockContainer"]').getBoundingClientRect();
    const box = el.getBoundingClientRect();
    const r = document.createRange(); r.selectNodeContents(el); const t = r.getBoundingClientRect();
    const over = [el, ...el.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1);
    return {text: el.innerText.trim(), over,
            outside: t.left < box.left - 1 || t.right > box.right + 1 || box.right > main.right + 1};
})"""


def test_headline_and_buttons_readable_at_1024(new_page, open_app):
    page = new_page(width=1024, height=768)
    ex = get_example("abandon_hope")
    open_app(page, link(ex.candidate, list(ex.references)), wait_for='[data-testid="stMetric"]')
    want = real_values(ex.candidate, list(ex.references))
    assert shown_metrics(page) == want
    for sel in ('[data-testid="stMetricValue"]', '[data-testid="stMetricLabel"]'):
        got = page.evaluate(_CLIPPED_JS, sel)
        assert len(got) == len(want)   # every headline number
        for g in got:
            assert not g["over"] and not g["outside"], (sel, g)
    # the value text is the whole number (no ellipsis) and at least as wide as its glyphs need
    assert all("…" not in v for v in shown_metrics(page).values())
    buttons = page.evaluate(_CLIPPED_JS, '[data-testid="stButton"] button')
    assert {b["text"] for b in buttons} >= {"Add reference", "✕"} or any("Add reference" in b["text"] for b in buttons)
    for b in buttons:
        assert not b["over"] and not b["outside"], b
    shot(page, "explain-1024")


@pytest.mark.parametrize("example_id", ["military_c1", "abandon_hope"])
def test_ngram_table_fits_at_1400(page, open_app, example_id):
    ex = get_example(example_id)
    open_app(page, link(ex.candidate, list(ex.references)), wait_for='[data-testid="stMetric"]')
    grid = page.locator('.st-key-ngram_table [data-testid="stDataFrame"]')
    grid.scroll_into_view_if_needed()
    page.wait_for_selector(".st-key-ngram_table .dvn-scroller")
    sw, cw = page.evaluate("() => { const e = document.querySelector('.st-key-ngram_table .dvn-scroller');"
                           " return [e.scrollWidth, e.clientWidth]; }")
    assert sw <= cw, f"the last columns of the n-gram table are cut off ({sw} > {cw} px)"


# --- chart colours in dark mode -----------------------------------------------------------------------------
def _colour_pixels(png: bytes, rgb: tuple[int, int, int], tol: int = 28) -> int:
    import io

    from PIL import Image

    im = Image.open(io.BytesIO(png)).convert("RGB")
    pixels = im.get_flattened_data() if hasattr(im, "get_flattened_data") else im.getdata()
    return sum(1 for p in pixels if all(abs(a - b) <= tol for a, b in zip(p, rgb)))


def test_chart_series_colours_show_in_dark_mode(new_page, open_app):
    from explainer.ui import charts

    page = new_page(width=1400, height=1000, dark=True)
    ex = get_example("abandon_hope")
    open_app(page, link(ex.candidate, list(ex.references)), wait_for='[data-testid="stMetric"]')
    hexrgb = lambda h: tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))  # noqa: E731
    counts = page.locator(".st-key-bleu_counts")
    counts.scroll_into_view_if_needed()
    page.wait_for_selector(".st-key-bleu_counts .js-plotly-plot")
    time.sleep(0.8)
    png = counts.screenshot()
    # totals: sky-blue bars with a hatch over them; matches: orange bars
    assert _colour_pixels(png, hexrgb(charts.SKY)) > 1500
    assert _colour_pixels(png, hexrgb(charts.ORANGE)) > 1500
    page.get_by_role("tab", name="ROUGE").click()
    page.get_by_text("ROUGE step by step").first.wait_for()
    wait_idle(page)
    prf = page.locator(".st-key-rouge_prf")
    prf.scroll_into_view_if_needed()
    time.sleep(0.8)
    png = prf.screenshot()
    bg = page.evaluate("""() => getComputedStyle(document.querySelector('[data-testid="stApp"]')).backgroundColor""")
    assert sum(int(x) for x in bg[bg.index("(") + 1:bg.index(")")].split(",")[:3]) < 150, bg
    for colour in (charts.BLUE, charts.ORANGE, charts.GREEN):
        assert _colour_pixels(png, hexrgb(colour)) > 1500, colour
    shot(page, "explain-dark-rouge")


# --- user text in charts: literal, inert -------------------------------------------------------------------
def test_chart_labels_and_hover_show_user_text_literally(page, open_app):
    toks = ['"hello"', "it's", "<b>x</b>", "&amp;lt;", "$x$"]
    cand = " ".join(toks)
    open_app(page, link(cand, [cand], rouge_dialect="textbook"), wait_for='[data-testid="stMetric"]')
    page.get_by_role("tab", name="ROUGE").click()
    page.wait_for_selector(".st-key-lcs_heatmap .xtick text")
    wait_idle(page)
    ticks = page.evaluate("() => [...document.querySelectorAll('.st-key-lcs_heatmap .xtick text')]"
                          ".map(e => e.textContent)")
    assert ticks[1:] == toks
    yticks = page.evaluate("() => [...document.querySelectorAll('.st-key-lcs_heatmap .ytick text')]"
                           ".map(e => e.textContent)")
    assert yticks[1:] == toks
    labels = page.evaluate("() => [...document.querySelectorAll('.st-key-lcs_alignment .textpoint text')]"
                           ".map(e => e.textContent)")
    assert labels == toks + toks
    assert page.locator(".st-key-lcs_heatmap svg b, .st-key-lcs_alignment svg b").count() == 0
    heat = page.locator(".st-key-lcs_heatmap")
    heat.scroll_into_view_if_needed()
    pts = page.locator(".st-key-lcs_heatmap .scatterlayer .trace .points path")
    for k in (0, 2):
        bb = pts.nth(k).bounding_box()
        page.mouse.move(bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2)
        page.wait_for_function("() => document.querySelector('.st-key-lcs_heatmap .hoverlayer .hovertext')")
        hover = page.evaluate("() => document.querySelector('.st-key-lcs_heatmap .hoverlayer .hovertext').textContent")
        assert hover.startswith(f"match: {toks[k]} (candidate token {k + 1}"), hover
        page.mouse.move(0, 0)
        time.sleep(0.3)


def test_xss_payloads_in_charts_and_formulas_are_inert(page, open_app):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    # the textbook ROUGE dialect splits on spaces only, so the payloads reach the chart labels as typed
    open_app(page, link(XSS_CANDIDATE, [XSS_REF], rouge_dialect="textbook", example=""),
             wait_for='[data-testid="stMetric"]')
    page.wait_for_selector(".katex")
    assert page.locator(".katex-error").count() == 0
    latex = " ".join(page.locator(".katex").all_inner_texts())
    assert "xss" not in latex and "script" not in latex
    page.get_by_role("tab", name="ROUGE").click()
    page.wait_for_selector(".st-key-lcs_heatmap .xtick text")
    wait_idle(page)
    assert page.locator(".katex-error").count() == 0
    ticks = page.evaluate("() => [...document.querySelectorAll('.st-key-lcs_heatmap .xtick text, "
                          ".st-key-lcs_heatmap .ytick text')].map(e => e.textContent)")
    labels = page.evaluate("() => [...document.querySelectorAll('.st-key-lcs_alignment .textpoint text')]"
                           ".map(e => e.textContent)")
    assert "<img" in ticks and "<b>bold</b>" in ticks and '<svg' in ticks, ticks
    assert "<img" in labels and "<b>bold</b>" in labels
    # tokens longer than the label limit are cut with an ellipsis, never turned into markup
    assert any(t.startswith("onerror=") and t.endswith("…") for t in ticks)
    for bad in ("b", "a", "img", "script"):
        assert page.locator(f".st-key-lcs_heatmap svg {bad}, .st-key-lcs_alignment svg {bad}").count() == 0, bad
    pts = page.locator(".st-key-lcs_heatmap .scatterlayer .trace .points path")
    page.locator(".st-key-lcs_heatmap").scroll_into_view_if_needed()
    for k in range(pts.count()):
        bb = pts.nth(k).bounding_box()
        page.mouse.move(bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2)
        page.wait_for_function("() => document.querySelector('.st-key-lcs_heatmap .hoverlayer .hovertext')")
        hover = page.evaluate("() => document.querySelector('.st-key-lcs_heatmap .hoverlayer .hovertext').textContent")
        assert hover.startswith("match: "), hover
        page.mouse.move(0, 0)
    assert page.locator(".hoverlayer b, .hoverlayer a, .hoverlayer img").count() == 0
    assert page.evaluate("() => window.__xss === undefined"), "a payload ran"
    assert dialogs == []
    assert page.locator("img[src='x']").count() == 0 and page.locator("svg[onload]").count() == 0
    assert page.locator("a[href^='javascript']").count() == 0


def test_downloads_match_the_real_sacrebleu(page, open_app):
    import csv
    import json
    from collections import defaultdict

    from sacrebleu.metrics import BLEU

    ex = get_example("abandon_hope")
    refs = list(ex.references)
    open_app(page, link(ex.candidate, refs), wait_for='[data-testid="stMetric"]')
    real = BLEU().corpus_score([ex.candidate], [[r] for r in refs])
    with page.expect_download() as dl:
        page.get_by_role("button", name="Trace (JSON)").click()
    assert dl.value.suggested_filename == "trace.json"
    data = json.loads(open(dl.value.path(), encoding="utf-8").read())
    assert data["bleu"]["score"] == pytest.approx(real.score, rel=1e-12)
    assert data["bleu"]["counts"] == real.counts and data["bleu"]["totals"] == real.totals
    from rouge_score import rouge_scorer

    rs = rouge_scorer.RougeScorer(["rouge1"]).score_multi(refs, ex.candidate)["rouge1"]
    assert data["rouge"]["scores"]["rouge1"]["fmeasure"] == pytest.approx(rs.fmeasure, rel=1e-12)
    with page.expect_download() as dl:
        page.get_by_role("button", name="BLEU n-gram table (CSV)").click()
    assert dl.value.suggested_filename == "bleu_ngrams.csv"
    rows = list(csv.DictReader(open(dl.value.path(), encoding="utf-8", newline="")))
    counted, total = defaultdict(int), defaultdict(int)
    for r in rows:
        counted[int(r["order"])] += int(r["counted (clipped)"])
        total[int(r["order"])] += int(r["candidate count"])
    assert [counted[n] for n in range(1, 5)] == real.counts == data["bleu"]["counts"]
    assert [total[n] for n in range(1, 5)] == real.totals
    assert {f"ref {j + 1}" for j in range(len(refs))} <= set(rows[0])
