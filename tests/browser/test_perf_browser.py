"""What the first-view speed work relies on, in a real browser: no request leaves the machine, sessions opened at
the same moment each show their own numbers, and the traces shared between sessions (explainer.ui.compute) never
carry one session's settings into another's page."""
from __future__ import annotations

import time
import urllib.parse

from tests.browser.conftest import wait_idle
from tests.browser.test_explain_browser import link, real_values, shown_metrics

LOCAL_HOSTS = {"127.0.0.1", "localhost"}
HEADLINE = ("BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-Lsum", "chrF", "TER", "STS", "BERTScore F")   # real_values


def foreign(urls: list[str]) -> list[str]:
    out = []
    for u in urls:
        parts = urllib.parse.urlsplit(u)
        if parts.scheme in ("data", "blob", "about"):
            continue
        if parts.hostname not in LOCAL_HOSTS:
            out.append(u)
    return out


def wait_headline(page, want: dict[str, str], timeout: float = 60.0) -> dict[str, str]:
    """The headline numbers (every family's) once they read ``want`` (or whatever they read at the timeout)."""
    deadline = time.time() + timeout
    got: dict[str, str] = {}
    while time.time() < deadline:
        got = {k: v for k, v in shown_metrics(page).items() if k in HEADLINE}
        if got == want:
            return got
        time.sleep(0.2)
    return got


def test_no_request_leaves_the_machine(browser, app_url):
    """Every request of the Explain page (a link, the ROUGE tab, an example, an expander) and the Gaming lab goes
    to the app's own server, and so do the Dialects and Teach pages': the Material icon font and the page icon
    are served locally."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.set_default_timeout(60_000)
    urls: list[str] = []
    ctx.on("request", lambda r: urls.append(r.url))
    try:
        page = ctx.new_page()
        page.on("websocket", lambda ws: urls.append(ws.url))
        page.goto(app_url + "/?" + link("the cat sat on the mat", ["the cat is on the mat", "a cat sat there"]))
        wait_idle(page)
        page.get_by_role("tab", name="ROUGE").click()
        wait_idle(page)
        page.get_by_text("Why is this score zero / low?").first.click()
        wait_idle(page)
        page.goto(app_url + "/?example=abandon_hope")
        wait_idle(page)
        page.goto(app_url + "/gaming_lab")
        wait_idle(page)
        page.goto(app_url + "/dialects")
        wait_idle(page)
        page.goto(app_url + "/teach")
        wait_idle(page)
        time.sleep(1.0)  # late requests (fonts, icons) after the last run
        assert any("127.0.0.1" in u and "/_stcore/stream" in u for u in urls), "the websocket was not seen"
        assert any(u.endswith(".woff2") for u in urls), "no font request was seen (the recording missed them)"
        assert foreign(urls) == [], f"requests to other hosts: {foreign(urls)[:5]}"
    finally:
        ctx.close()


def test_sessions_opened_at_once_show_their_own_numbers(new_page, app_url):
    """Four sessions on four different links, opened without waiting for each other: each shows the real
    libraries' numbers for its own texts."""
    texts = [("the cat sat on the mat", ["the cat is on the mat"]),
             ("a dog ran in the park today", ["the dog ran in a park", "a dog runs in the park"]),
             ("the plan raises spending on schools", ["the council plan raises school spending"]),
             ("we approved the budget yesterday", ["the budget was approved yesterday", "we passed the budget"])]
    pages = [new_page() for _ in texts]
    for page, (cand, refs) in zip(pages, texts):
        page.goto(app_url + "/?" + link(cand, refs), wait_until="commit")
    for page, (cand, refs) in zip(pages, texts):
        want = real_values(cand, refs)
        assert wait_headline(page, want) == want


def test_shared_traces_do_not_carry_settings_between_sessions(new_page, app_url):
    """Sessions A and B open the same link (one shared computation). B turns BLEU's lowercase option on: B's BLEU
    changes, A's does not, and a session C opened afterwards on the link gets the link's own numbers."""
    from sacrebleu.metrics import BLEU

    cand, refs = "The Cat sat on The Mat", ["the cat sat on the mat", "The cat is on a mat"]
    url = app_url + "/?" + link(cand, refs)
    want = real_values(cand, refs)
    lower = dict(want, BLEU=f"{BLEU(lowercase=True).corpus_score([cand], [[r] for r in refs]).score:.4f}")
    assert lower["BLEU"] != want["BLEU"]
    a, b = new_page(), new_page()
    a.goto(url, wait_until="commit")
    b.goto(url, wait_until="commit")
    assert wait_headline(a, want) == want
    assert wait_headline(b, want) == want
    wait_idle(b)
    b.locator('[data-testid="stSidebar"]').get_by_text("lowercase", exact=True).click()
    assert wait_headline(b, lower) == lower
    # A reruns (a widget of its own) and still shows the link's numbers
    a.get_by_role("tab", name="ROUGE").click()
    wait_idle(a)
    assert wait_headline(a, want) == want
    c = new_page()
    c.goto(url)
    assert wait_headline(c, want) == want
    assert "lowercase=0" in urllib.parse.urlsplit(c.url).query


def test_first_view_reports_the_painted_headline_then_shows_the_page(page, app_url):
    """The first run ends after the headline; the browser reports (through the page's component, not the backstop
    timer) that the numbers are painted, and the whole page follows with the same numbers."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    sent: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(
        payload if isinstance(payload, bytes) else payload.encode())))
    cand, refs = "a dog ran in the park today", ["the dog ran in a park", "a dog runs in the park"]
    want = real_values(cand, refs)
    page.goto(app_url + "/?" + link(cand, refs))
    assert wait_headline(page, want) == want
    wait_idle(page)
    assert page.locator('[data-testid="stPlotlyChart"]').count() >= 2  # the BLEU tab's charts
    assert page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').count() > 0
    assert wait_headline(page, want) == want
    reports = []
    for raw in sent:
        msg = BackMsg()
        msg.ParseFromString(raw)
        if msg.WhichOneof("type") == "rerun_script":
            reports += [w.json_trigger_value for w in msg.rerun_script.widget_states.widgets
                        if "_first_view_painted" in w.id and w.json_trigger_value]
    assert reports and '"painted"' in reports[0], "the browser never reported the painted headline"
