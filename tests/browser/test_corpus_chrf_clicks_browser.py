"""The Corpus page's chrF view reruns only the part a click changes (issue 18), as the BLEU view: an analysis picked
redraws the analyses, a bar that lists segments redraws the segment table, "next" the segment view, a paired test
its section and the scores chart above, and nothing else is sent again. Read from what the server sends (the
page's websocket): the headings of the elements each click's runs drew. Before, each click ran the whole view again
(0.6-0.9 s a click on a WMT test set; see docs/benchmarks.md)."""
from __future__ import annotations

import re
import time

from tests.browser.conftest import forward_msg, shot, wait_idle
from tests.browser.test_corpus_clicks_browser import hover_segment, hover_text


class Sent:
    """The headings and markdown of every element the server sends to the page (what a run drew)."""

    def __init__(self, page) -> None:
        self.texts: list[str] = []

        def got(payload) -> None:
            msg = forward_msg(payload)
            if msg is None:
                return
            if msg.WhichOneof("type") == "delta" and msg.delta.WhichOneof("type") == "new_element":
                el = msg.delta.new_element
                kind = el.WhichOneof("type")
                if kind in ("heading", "markdown"):
                    self.texts.append(getattr(el, kind).body)

        page.on("websocket", lambda ws: ws.on("framereceived", got))

    def during(self, page, action) -> list[str]:
        """The texts sent for ``action``'s runs."""
        self.texts.clear()
        action()
        wait_idle(page, 120)
        time.sleep(0.8)     # a st.rerun of another part follows the click's callback
        wait_idle(page, 120)
        return list(self.texts)


def has(texts: list[str], start: str) -> bool:
    return any(t.startswith(start) for t in texts)


def test_chrf_clicks_redraw_only_their_part(page, app_url):
    sent = Sent(page)
    page.goto(app_url + "/corpus?sample=news-en&metric=chrf")
    page.get_by_text("The corpus chrF2 worked out").first.wait_for(timeout=180_000)
    wait_idle(page, 120)
    above = ("Corpus scores", "Confidence and significance")

    # an analysis picked: the analyses only
    got = sent.during(page, lambda: page.locator(".st-key-cp_differ_view").get_by_text("Largest deltas", exact=True)
                      .click())
    assert has(got, "Where the systems differ") and not any(has(got, h) for h in above + ("Segments",)), got
    assert page.locator('[data-testid="stException"]').count() == 0

    # a bar of the length buckets lists its segments: the segment table and view only
    page.locator(".st-key-cp_differ_view").get_by_text("Length buckets", exact=True).click()
    wait_idle(page, 120)
    chart = page.locator(".st-key-cp_buckets")
    chart.scroll_into_view_if_needed()
    time.sleep(1.0)
    bar = chart.locator("g.point path").first
    bb = bar.bounding_box()
    assert bb is not None
    got = sent.during(page, lambda: page.mouse.click(bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2))
    assert has(got, "Segments") and not any(has(got, h) for h in above + ("Where the systems differ",)), got
    chip = page.locator(".st-key-cp_clear_filter")
    chip.wait_for(timeout=30_000)
    assert "reference length" in chip.inner_text()
    n = int(re.search(r"\((\d+)\)\s*$", chip.inner_text().strip()).group(1))
    rows = page.locator(".st-key-cp_table [role='row']")
    assert 1 < rows.count() <= n + 1      # the grid draws the rows in view (and its header)

    # a band of segment scores is said as one (it said "reference length 0–20"); the first band with segments
    # (no segment of this sample scores below 10: that band's bars have no height to click)
    page.locator(".st-key-cp_differ_view").get_by_text("Sentence buckets", exact=True).click()
    wait_idle(page, 120)
    bands = page.locator(".st-key-cp_sentbuckets")
    bands.scroll_into_view_if_needed()
    time.sleep(1.0)
    bar = next(b for b in bands.locator("g.point path").all() if (b.bounding_box() or {"height": 0})["height"] > 2)
    text, xy = hover_text(page, bar)
    m = re.search(r"segment score (\S+) \((\d+) segments\)", text)
    assert m, text
    page.mouse.click(*xy)
    wait_idle(page, 120)
    chip = page.locator(".st-key-cp_clear_filter").filter(has_text=f"segment score {m.group(1)}")
    chip.wait_for(timeout=30_000)
    assert int(re.search(r"\((\d+)\)\s*$", chip.inner_text().strip()).group(1)) == int(m.group(2))

    # a point of the segment scores opens its segment, as the chart's title says
    page.locator(".st-key-cp_differ_view").get_by_text("Segment scores", exact=True).click()
    wait_idle(page, 120)
    chart = page.locator(".st-key-cp_scatter")
    chart.scroll_into_view_if_needed()
    time.sleep(1.0)
    point = chart.locator("g.trace.scatter").first.locator("path.point").nth(5)
    seg, xy = hover_segment(page, point)
    page.mouse.click(*xy)
    wait_idle(page, 120)
    page.wait_for_function(f"() => document.querySelector('.st-key-cp_seg_input input').value == '{seg}'")
    page.get_by_text(f"opened from the chart: segment {seg}").first.wait_for(timeout=30_000)

    # next: the segment view only, and the link follows the segment
    seg = int(page.locator(".st-key-cp_seg_input input").input_value())
    got = sent.during(page, lambda: page.get_by_role("button", name="next →").click())
    assert has(got, "Segment view") and not any(has(got, h) for h in above + ("Segments",)), got
    page.wait_for_function(f"() => document.querySelector('.st-key-cp_seg_input input').value != '{seg}'")
    new = int(page.locator(".st-key-cp_seg_input input").input_value())
    assert new != seg
    page.wait_for_function(f"() => new URLSearchParams(location.search).get('seg') === '{new}'")
    assert page.locator('[data-testid="stException"]').count() == 0
    shot(page, "corpus-chrf-clicks")

    # a paired test: its section and the scores chart above (drawn by the test's part: whiskers of its intervals)
    chart = page.locator(".js-plotly-plot").filter(has_text="Corpus chrF2 per system")
    assert chart.count() == 1 and chart.locator("g.errorbar").count() == 0
    page.locator(".st-key-cp_test_n_bs input").fill("200")
    page.locator(".st-key-cp_test_n_bs input").press("Enter")
    wait_idle(page, 120)
    got = sent.during(page, lambda: page.get_by_role("button", name="Run the test").click())
    assert has(got, "Confidence and significance") and not any(
        has(got, h) for h in ("Corpus scores", "Where the systems differ", "Segments", "Segment view")), got
    table = page.locator('[data-testid="stDataFrame"]').filter(has_text="p-value")
    table.first.wait_for(timeout=60_000)
    assert "— (baseline)" in (table.first.text_content() or "")
    whiskers = page.locator(".js-plotly-plot").filter(has_text="Corpus chrF2 per system (whiskers: 95 % CI)")
    whiskers.wait_for(timeout=30_000)
    assert whiskers.locator("g.errorbar").count() == 3
    assert page.locator('[data-testid="stException"]').count() == 0
    whiskers.scroll_into_view_if_needed()
    shot(page, "corpus-chrf-paired-test")
