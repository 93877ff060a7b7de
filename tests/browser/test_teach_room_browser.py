"""A lecture as one room, in Chromium (issue 31): run from the presenter window only — PageDown / PageUp, a lesson
switch, lowercase, the LCS slider, the demo, the blank screen — the projector shows each change within 1.5 s and
never an answer or a note; the first PageDown after opening the presenter is never lost; the presenter's notes are
large at 1366x768."""
from __future__ import annotations

import re
import time

from tests.browser.conftest import SCREENSHOTS, wait_idle

MAX_LAG = 1.5   # seconds from the presenter showing a change to the projector showing it


def present_links(page, app_url: str, query: str) -> tuple[str, str]:
    """The projector and presenter links of a fresh room, as the page's "Present" menu gives them (the presenter's
    carries the room's control key, which only the server makes)."""
    page.goto(f"{app_url}/teach?{query}")
    page.wait_for_selector(".tc-title")
    wait_idle(page)
    page.get_by_role("button", name="Present").click()
    proj = page.get_by_role("link", name="Open the projector window").get_attribute("href")
    pres = page.get_by_role("link", name="Open the presenter window").get_attribute("href")
    page.keyboard.press("Escape")
    assert "key=" in pres and "key=" not in proj
    return proj, pres


def step_of(page) -> int:
    try:   # during a rerun the title may be replaced: ask again
        text = page.locator(".tc-title").first.inner_text(timeout=2000)
    except Exception:  # noqa: BLE001 - Playwright's timeout
        return -1
    m = re.search(r"step (\d+) of (\d+)", text)
    return int(m.group(1)) if m else -1


def until(cond, timeout: float = 30.0) -> float:
    """Seconds until ``cond()`` holds (AssertionError after ``timeout``)."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        try:
            if cond():
                return time.time() - t0
        except Exception:  # noqa: BLE001 - an element replaced by a rerun: ask again
            pass
        time.sleep(0.05)
    raise AssertionError("timed out")


def url(page) -> str:
    """The address bar as the page has it now (``page.url`` changes only when Playwright handles its events)."""
    return page.evaluate("() => location.href")


def _clean(proj) -> None:
    body = proj.locator("body").inner_text()
    assert "Answer:" not in body and "Common misconception" not in body and "Say:" not in body, body[:300]


def test_a_lecture_from_the_presenter_window_only(browser, app_url):
    """Every change the presenter makes reaches the projector within MAX_LAG, measured from when the presenter
    shows it; the projector has no control, never an answer or a note."""
    pctx = browser.new_context(viewport={"width": 1366, "height": 768})
    jctx = browser.new_context(viewport={"width": 1024, "height": 768})
    for c in (pctx, jctx):
        c.set_default_timeout(60_000)
    lags: dict[str, float] = {}
    try:
        proj_url, pres_url = present_links(pctx.new_page(), app_url, "example=papineni_the&step=1")
        pres, proj = pctx.new_page(), jctx.new_page()
        pres.goto(pres_url)
        pres.wait_for_selector(".tc-title")
        wait_idle(pres)
        proj.goto(proj_url)
        proj.wait_for_selector(".tc-title")
        wait_idle(proj)
        assert proj.locator('[data-testid="stButton"], [data-testid="stSlider"], input, select').count() == 0

        def change(name, act, on_presenter, on_projector):
            t0 = time.time()
            act()
            t1 = time.time()
            try:
                until(on_presenter)
                t2 = time.time()
                lags[name] = until(on_projector)
                print(f"{name}: acted in {t1 - t0:.2f} s, presenter {t2 - t1:.2f} s, projector +{lags[name]:.2f} s")
            except AssertionError as err:
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                pres.screenshot(path=str(SCREENSHOTS / "teach-room-failed-presenter.png"))
                proj.screenshot(path=str(SCREENSHOTS / "teach-room-failed-projector.png"))
                raise AssertionError(f"{name}: presenter {url(pres)}, projector {url(proj)}") from err
            _clean(proj)

        for k, key in ((2, "PageDown"), (3, "PageDown"), (4, "PageDown"), (3, "PageUp")):
            pres.bring_to_front()
            change(f"{key} to {k}", lambda key=key: pres.keyboard.press(key), lambda k=k: step_of(pres) == k,
                   lambda k=k: step_of(proj) == k)
        # the lesson: chrF added in the sidebar ("Lesson of")
        pres.locator('[data-testid="stExpandSidebarButton"]').first.click()
        box = pres.locator('[data-testid="stMultiSelect"]').filter(has_text="Lesson of")
        box.wait_for()
        option = pres.get_by_role("option", name="chrF", exact=True)
        # a click while the sidebar still slides open does not open the list: a person clicks again
        for _ in range(10):
            box.locator("input").click()
            try:
                option.wait_for(timeout=3000)
                break
            except Exception:  # noqa: BLE001 - Playwright's timeout
                pres.keyboard.press("Escape")
        option.wait_for()
        change("lesson switch", lambda: option.click(), lambda: "metric=bleu%2Crouge%2Cchrf" in url(pres),
               lambda: "Part 1 of 3" in proj.locator("body").inner_text())
        # lowercase (BLEU's option): Papineni's 2/7 holds on the projector
        pres.keyboard.press("Escape")
        cb = pres.locator('[data-testid="stCheckbox"]').filter(has_text=re.compile(r"^lowercase$")).first
        change("lowercase", lambda: cb.locator("label").first.click(), lambda: "lowercase=1" in url(pres),
               lambda: "lowercase=1" in url(proj))
        pres.locator('[data-testid="stSidebarCollapseButton"] button, [data-testid="stSidebarCollapseButton"]'
                     ).first.click()
        # the LCS slider, moved with the keyboard on the presenter (the projector has none)
        lcs = _go_to(pres, "the LCS table, cell by cell")
        until(lambda: step_of(proj) == lcs)
        slider = pres.get_by_role("slider").first
        slider.focus()
        change("slider", lambda: [pres.keyboard.press("ArrowLeft") for _ in range(3)],
               lambda: "cells=" in url(pres), lambda: proj.locator(".tgrid td.empty").count() >= 3)
        # the demo: started, a step on, ended
        change("demo start", lambda: pres.get_by_role("button", name="Demo").click(),
               lambda: "demo=1" in url(pres), lambda: proj.locator('[data-testid="demo-lesson"]').count() == 1)
        change("demo next", lambda: pres.get_by_role("button", name="Next").click(), lambda: "demo=2" in url(pres),
               lambda: "demo=2" in url(proj))
        change("demo end", lambda: pres.get_by_role("button", name="End the demo").click(),
               lambda: "demo=" not in url(pres), lambda: proj.locator('[data-testid="demo-lesson"]').count() == 0)
        # the blank screen: b, as a clicker sends it
        pres.locator(".tc-title").first.click()    # the window has the keys (not a widget)
        change("blank", lambda: pres.keyboard.press("b"), lambda: "blank=1" in url(pres),
               lambda: proj.locator('[data-testid="teach-blank"]').count() == 1)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        proj.screenshot(path=str(SCREENSHOTS / "teach-room-blank.png"))
        change("unblank", lambda: pres.keyboard.press("b"), lambda: "blank=1" not in url(pres),
               lambda: proj.locator('[data-testid="teach-blank"]').count() == 0)
        print("projector lags (s):", {k: round(v, 2) for k, v in lags.items()})
        slow = {k: v for k, v in lags.items() if v > MAX_LAG}
        assert not slow, (slow, lags)
    finally:
        pctx.close()
        jctx.close()


def _go_to(pres, title_part: str) -> int:
    """Move the presenter with PageDown to the step whose title has ``title_part``; its number."""
    for _ in range(40):
        if title_part.lower() in pres.locator(".tc-title").first.inner_text().lower():
            return step_of(pres)
        k = step_of(pres)
        pres.keyboard.press("PageDown")
        until(lambda k=k: step_of(pres) == k + 1)
    raise AssertionError(title_part)


def test_the_first_pagedown_after_opening_the_presenter_is_never_lost(browser, app_url):
    """Defect: the first PageDown after opening the presenter was lost in 1 of 3 trials."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.set_default_timeout(60_000)
    try:
        for trial, example in enumerate(("cat_mat", "papineni_the", "abandon_hope")):
            _, pres_url = present_links(ctx.new_page(), app_url, f"example={example}")
            pres = ctx.new_page()
            pres.goto(pres_url)                      # a room opens at the lesson's first step
            pres.wait_for_selector(".tc-title")      # as soon as the step is there, not when the page is idle
            assert step_of(pres) == 1
            # the step shows only once the browser counts the keys (before, a press had nothing to take it)
            assert pres.evaluate("() => !!(window.__tchClicker && window.__tchClicker.set)"), (trial, example)
            pres.keyboard.press("PageDown")
            until(lambda pres=pres: step_of(pres) == 2, 20)
            time.sleep(1.5)
            assert step_of(pres) == 2, (trial, example)
            pres.close()
    finally:
        ctx.close()


def test_the_presenters_notes_are_large_at_1366x768(browser, app_url):
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    ctx.set_default_timeout(60_000)
    try:
        _, pres_url = present_links(ctx.new_page(), app_url, "example=cat_mat&step=4")
        pres = ctx.new_page()
        pres.goto(pres_url)
        pres.wait_for_selector('[data-testid="teach-presenter"]')
        wait_idle(pres)
        px = pres.evaluate("""() => ['.tp-notes', '.tp-ask', '.tp-count'].map(s =>
            parseFloat(getComputedStyle(document.querySelector(s)).fontSize))""")
        assert min(px) >= 20 and px[0] >= 22, px
        # the step as the class sees it, the next one smaller, the answer, the clock
        assert pres.locator(".tp-now .tc").count() == 1 and pres.locator(".tp-next-body .tc").count() == 1
        now, nxt = pres.evaluate("""() => ['.tp-now .tc', '.tp-next-body .tc'].map(s =>
            parseFloat(getComputedStyle(document.querySelector(s)).fontSize))""")
        assert nxt < now
        assert "Answer:" in pres.locator(".tp-ask").first.inner_text()
        pres.locator('[role="timer"]').wait_for()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        pres.screenshot(path=str(SCREENSHOTS / "teach-presenter-1366x768.png"))
    finally:
        ctx.close()
