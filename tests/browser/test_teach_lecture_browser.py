"""A lecture with the Teach page, in Chromium: the handout's headers (the textbook-claims table's column heads,
the settings table, the headings) wrap between words — the claims table broke "implementatio|n" — also in the
student's handout and in print."""
from __future__ import annotations

import pytest

from explainer.examples import get_example
from explainer.teach import build_lesson
from explainer.ui import settings as ms

EID = "abandon_hope"   # a worked example with four printed numbers: the handout has the claims table

BROKEN_WORDS = """() => { const out = [];
  document.querySelectorAll('table.meta td, th, h1, h2').forEach(td => {
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const tokens = /\\S+/g; let t;
      while ((t = tokens.exec(n.data))) {
        if (t[0].length > 30) continue;   // a signature or a long user string may break anywhere
        // a word: between spaces, hyphens, dashes, bars and slashes (where a line may break)
        const parts = /[^\\-\u2013\u2014|\\/]+/g; let m;
        while ((m = parts.exec(t[0]))) {
          const r = document.createRange();
          r.setStart(n, t.index + m.index); r.setEnd(n, t.index + m.index + m[0].length);
          if ([...r.getClientRects()].filter(x => x.width > 0).length > 1) out.push(m[0]);
        }
      }
    }
  });
  return out; }"""


@pytest.mark.parametrize("media,width", [("screen", 1024), ("screen", 560), ("print", 688)])
@pytest.mark.parametrize("student", [False, True])
def test_handout_header_does_not_break_words(browser, tmp_path, media, width, student):
    from explainer.ui.teach.teach_html import handout_html
    from explainer.ui.teach.walkthrough import _settings_lines

    ex = get_example(EID)
    lesson = build_lesson(ex.candidate, list(ex.references), title=ex.title)
    settings = _settings_lines(lesson) + [("Dialects", ms.default_settings()["bleu"].dialect + " — the reference "
                                           "implementation, as the implementation reports it")]
    path = tmp_path / "handout.html"
    path.write_text(handout_html(lesson, settings=settings, **({"student": True} if student else {})), encoding="utf-8")
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = ctx.new_page()
        page.emulate_media(media=media)
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        assert page.evaluate(BROKEN_WORDS) == []
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") == 0
    finally:
        ctx.close()


# ------------------------------------------------------------------------------------------- presenting
def _step_of(page) -> int:
    import re

    try:   # during a rerun the title may be replaced: ask again
        text = page.locator(".tc-title").first.inner_text(timeout=2000)
    except Exception:  # noqa: BLE001 - Playwright's timeout
        return -1
    m = re.search(r"step (\d+) of (\d+)", text)
    return int(m.group(1)) if m else -1


def _until(cond, timeout: float) -> float:
    """Seconds until ``cond()`` holds (AssertionError after ``timeout``)."""
    import time

    t0 = time.time()
    while time.time() - t0 < timeout:
        if cond():
            return time.time() - t0
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_a_lecture_with_pagedown_only_and_the_projector_following(browser, app_url):
    """The whole lecture driven from the presenter window (its link holds the room's control key) with PageDown
    only: every press moves one step, the projector window follows within a second (plus the server's own
    rendering on this busy machine), and the projector never shows an answer or the notes."""
    import time

    from tests.browser.conftest import SCREENSHOTS, wait_idle
    from tests.browser.test_teach_room_browser import present_links

    ex = get_example("cat_mat")
    lesson = build_lesson(ex.candidate, list(ex.references), title=ex.title)
    n = len(lesson.steps)
    ctx = browser.new_context(viewport={"width": 1024, "height": 768})
    ctx.set_default_timeout(60_000)
    try:
        # the links as the page's Present menu gives them (only the server makes the room's control key)
        proj_url, pres_url = present_links(ctx.new_page(), app_url, "example=cat_mat&step=1")
        proj, pres = ctx.new_page(), ctx.new_page()
        pres.goto(pres_url)
        pres.wait_for_selector(".tc-title")
        proj.goto(proj_url)
        proj.wait_for_selector(".tc-title")
        wait_idle(proj)
        lags = []
        for k in range(2, n + 1):
            pres.bring_to_front()
            pres.mouse.click(5, 300)
            pres.keyboard.press("PageDown")
            try:
                _until(lambda k=k: _step_of(pres) == k, 20)
                t0 = time.time()
                _until(lambda k=k: _step_of(proj) == k, 20)
            except AssertionError as err:
                proj.screenshot(path=str(SCREENSHOTS / "teach-lecture-failed-projector.png"))
                pres.screenshot(path=str(SCREENSHOTS / "teach-lecture-failed-presenter.png"))
                raise AssertionError(f"step {k}: projector {_step_of(proj)}, presenter {_step_of(pres)}") from err
            lags.append(time.time() - t0)
            body = proj.locator("body").inner_text()
            assert "Answer:" not in body and "Common misconception" not in body, k
        assert _step_of(proj) == n and _step_of(pres) == n
        # no frame around the step: the main area's focus ring (an inset shadow on its ::before) appeared on the
        # projector after the click that focuses the window and a clicker key
        ring = proj.evaluate("""() => { const b = getComputedStyle(document.querySelector('[data-testid="stMain"]'),
                                '::before'); return [b.boxShadow, b.borderTopStyle, b.outlineStyle]; }""")
        assert ring == ["none", "none", "none"], ring
        assert sorted(lags)[len(lags) // 2] < 1.5, lags     # median lag: one poll (0.5 s) plus a rerun
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pres.screenshot(path=str(SCREENSHOTS / "teach-presenter-1024.png"))
        proj.screenshot(path=str(SCREENSHOTS / "teach-projector-1024.png"))
    finally:
        ctx.close()


DOCS = __import__("pathlib").Path(__file__).resolve().parents[2] / "docs"


def _docs_shot(page, name: str) -> None:
    """A screenshot for docs/, kept small: 256 colours (a page of text and flat colours loses nothing visible).
    Written to artifacts/screenshots/; to docs/ only with EXPLAINER_DOCS_SHOTS=1 (every run rewrote the committed
    pictures, a few bytes apart, leaving the tree changed after each test run)."""
    import os

    from PIL import Image

    from tests.browser.conftest import SCREENSHOTS

    folder = DOCS if os.environ.get("EXPLAINER_DOCS_SHOTS") == "1" else SCREENSHOTS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    page.screenshot(path=str(path))
    with Image.open(path) as img:
        small = img.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


@pytest.mark.parametrize("width,height", [(1024, 768), (1920, 1080)])
def test_screenshots_for_the_docs(browser, app_url, width, height):
    """docs/teach.md's pictures: the projector and presenter windows on the LCS step of a 15-token own text, and
    the demo's last step; at a 1024×768 and a 1920×1080 projector."""
    import urllib.parse

    from explainer.teach import build_lesson as build
    from tests.browser.conftest import wait_idle
    from tests.browser.test_teach_room_browser import present_links

    cand = "the police arrested two men on friday after a robbery at a bank in the city"
    refs = ["police arrested two men after a robbery at a bank in the city centre on friday"]
    lesson = build(cand, refs)
    k = next(i for i, s in enumerate(lesson.steps) if s.id == "rouge-lcs-table") + 1
    q = urllib.parse.urlencode({"candidate": cand, "ref": refs}, doseq=True)
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.set_default_timeout(60_000)
    try:
        page = ctx.new_page()
        proj_url, pres_url = present_links(page, app_url, q)
        # the presenter opens the room at the LCS step (its link's step; the control key is the room's)
        page.goto(pres_url.replace("step=1", f"step={k}"))
        page.wait_for_selector('[data-testid="teach-presenter"]')
        wait_idle(page)
        proj = ctx.new_page()
        proj.goto(proj_url)          # the projector joins the room where it is
        proj.wait_for_selector(".tc-title")
        wait_idle(proj)
        assert f"step {k} of" in proj.locator(".tc-title").inner_text()
        _docs_shot(proj, f"teach-projector-{width}x{height}.png")
        _docs_shot(page, f"teach-presenter-{width}x{height}.png")
        page.goto(f"{app_url}/teach?example=cat_mat&demo=3")
        page.wait_for_selector('[data-testid="demo-lesson"]')
        wait_idle(page)
        _docs_shot(page, f"teach-demo-{width}x{height}.png")
    finally:
        ctx.close()
