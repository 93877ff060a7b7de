"""Two Teach-page clicks that crashed ("This app has encountered an error"): a widget's stored value outliving the
options it was drawn with. Streamlit's selectbox sends back its *display string*; when the labels change (another
lesson; an exercise checked: "✓"), the old string is no longer an option and arrived as the stored value."""
from __future__ import annotations

import urllib.parse

import pytest

from explainer.examples import get_example
from explainer.teach import build_lesson
from explainer.teach.exercises import generate_set
from tests.browser.conftest import wait_idle
from tests.browser.test_teach_browser import teach, wait_for_step


def no_error(page) -> None:
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0, \
        page.locator('[data-testid="stException"]').first.inner_text()


def pick(page, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox ``label`` (the sidebar may still be sliding in: a click that opened
    nothing is tried again)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    box = page.locator('[data-testid="stSelectbox"]').filter(has_text=label).first
    box.wait_for(state="visible")
    for attempt in range(3):
        box.click()
        try:
            page.get_by_role("option", name=option, exact=True).click(timeout=10_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")
    wait_idle(page)



def _lesson(ex):
    """A worked example's lesson as its link shows it (with the example's printed numbers compared)."""
    return build_lesson(ex.candidate, list(ex.references), claims=ex.claims)

@pytest.mark.parametrize("example_id", ["papineni_the", "military_c2"])
def test_walkthrough_next_after_switching_example(new_page, app_url, example_id):
    ex = get_example(example_id)
    n = len(_lesson(ex).steps)
    assert n != len(_lesson(get_example("cat_mat")).steps)
    page = new_page(width=1400, height=900)
    teach(page, app_url, "example=cat_mat")
    page.locator('[data-testid="stExpandSidebarButton"]').first.click()
    pick(page, "Worked example", ex.title)
    wait_for_step(page, 1, n)
    page.get_by_role("button", name="Next").click()
    no_error(page)
    wait_for_step(page, 2, n)
    page.get_by_role("button", name="Previous").click()
    no_error(page)
    wait_for_step(page, 1, n)
    assert "step=1" in page.url and f"example={example_id}" in page.url


def test_walkthrough_next_after_own_text(new_page, app_url):
    page = new_page(width=1400, height=900)
    teach(page, app_url, "example=cat_mat")
    page.locator('[data-testid="stExpandSidebarButton"]').first.click()
    page.get_by_text("Your own text", exact=True).click()
    wait_idle(page)
    box = page.locator('[data-testid="stSidebar"]').get_by_label("Candidate", exact=True)
    ex = get_example("cat_mat")
    text = ex.references[0]   # the candidate equal to the reference: a lesson of another number of steps
    n = len(build_lesson(text, list(ex.references)).steps)
    assert n != len(_lesson(ex).steps)
    box.fill(text)
    box.press("Control+Enter")
    wait_for_step(page, 1, n)
    page.get_by_role("button", name="Next").click()
    no_error(page)
    wait_for_step(page, 2, n)


def test_exercise_set_next_and_previous_after_check(new_page, app_url):
    s = generate_set(1, "easy", 6)
    page = new_page(width=1400, height=900)
    page.goto(f"{app_url}/teach?mode=practice&seed=1&level=easy&n=6&item=1")
    page.get_by_text(f"Exercise 1 · {s.items[0].title}").first.wait_for()
    wait_idle(page)
    box = page.get_by_role("textbox", name="Your answer")
    box.fill("3")
    page.get_by_role("button", name="Check").click()
    settled = '[data-testid="stAlertContentError"], [data-testid="stAlertContentSuccess"]'
    page.locator(settled + ', [data-testid="stAlertContentWarning"]').first.wait_for()
    if not page.locator(settled).count():   # a wrong first answer gets a retry: the second try settles it
        wait_idle(page)
        box.fill("4")     # another answer: the same one checked again is the same try (Check is idempotent)
        page.get_by_role("button", name="Check").click()
    page.locator(settled).first.wait_for()
    wait_idle(page)
    page.get_by_role("button", name="Next").click()
    no_error(page)
    page.get_by_text(f"Exercise 2 · {s.items[1].title}").first.wait_for()
    assert "item=2" in page.url
    page.get_by_role("button", name="Previous").click()
    no_error(page)
    page.get_by_text(f"Exercise 1 · {s.items[0].title}").first.wait_for()
    assert "item=1" in page.url


@pytest.mark.parametrize("view,keys,moved", [
    ("", ["PageDown"] * 5, 5),
    ("presenter", ["PageDown"] * 5, 5),
    ("", ["ArrowRight", "PageDown", "Space", "ArrowDown", "PageDown", "PageUp", "ArrowLeft"], 3)])
def test_every_quick_key_press_moves_one_step(new_page, app_url, view, keys, moved):
    """Issue 21: presses faster than the page's reruns were merged (five quick presses of a clicker moved one to
    four steps). Every press of PageDown / Space / ↓ / → moves one step forward, PageUp / ↑ / ← one back, however
    fast they come (50 ms apart here), on the walkthrough and on the presenter window (the clicker's window in a
    lecture: the projector has no control, it follows the room); the address bar ends on the step shown (a run
    saw the address its rerun was sent with, older than the page's last write, and kept the link's step of a
    previous press)."""
    import time

    from tests.browser.test_teach_room_browser import present_links

    n = len(_lesson(get_example("cat_mat")).steps)
    page = new_page(width=1024, height=768)
    if view == "presenter":
        _, presenter = present_links(page, app_url, "example=cat_mat&step=1")
        page.goto(presenter)
        page.wait_for_selector(".tc-title")
        wait_idle(page)
    else:
        teach(page, app_url, "example=cat_mat&step=1" + view)
    # the key counter is mounted (on a busy machine it may come after the page is idle: a press before it is
    # Streamlit's shortcut's, which merges quick presses)
    page.wait_for_function("() => window.__tchClicker && window.__tchClicker.set")
    page.mouse.click(5, 300)
    for k in keys:
        page.keyboard.press(k)
        time.sleep(0.05)
    wait_for_step(page, 1 + moved, n)
    time.sleep(2)   # no later run takes a press back
    wait_idle(page)
    assert f"step {1 + moved} of {n}" in page.locator(".tc-title").first.inner_text()
    assert urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["step"] == [str(1 + moved)]
    no_error(page)
    if view:
        return
    # after the keys, a pick in the step list is the user's (a step shown during the presses, here the second)
    page.locator(".st-key-tch_step").click()
    page.get_by_role("option").nth(1).click()
    wait_for_step(page, 2, n)
    time.sleep(1)
    wait_idle(page)
    assert "step 2 of" in page.locator(".tc-title").first.inner_text()
    assert urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)["step"] == ["2"]
