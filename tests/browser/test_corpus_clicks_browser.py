"""The Corpus page's clickable charts in a real browser (Debian Chromium via Playwright): a bar of "Segments that
pull corpus and mean apart most", a point of the "Segment scores" scatter and a bar of the other analyses open (or
list) the segments behind them with no error; the "Charts (HTML)" download holds this run's charts; the address bar
keeps the view. Screenshots in artifacts/screenshots/corpus-click-*.png (looked at: see docs/corpus.md)."""
from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlencode, urlparse

from explainer.corpus import load_sample
from explainer.corpus.report import bleu_report
from tests.browser.conftest import shot, wait_idle

SEG_LINE = re.compile(r"^Segment (\d+): sentence score")


def open_sample(page, app_url, query: str = "sample=news-en") -> None:
    page.goto(app_url + "/corpus?" + query)
    page.wait_for_selector(".st-key-cp_headline [data-testid='stMetric']", timeout=180_000)
    wait_idle(page, 120)


def open_section(page, title: str) -> None:
    """Open a section drawn only while open (an expander titled ``title``) and wait for its run."""
    page.locator('[data-testid="stExpander"] summary').filter(has_text=title).first.click()
    wait_idle(page, 120)
    time.sleep(0.5)
    wait_idle(page, 120)


def no_error(page) -> None:
    exc = page.locator('[data-testid="stException"]')
    assert exc.count() == 0, exc.all_inner_texts()


def steady_box(target) -> dict:
    """The element's box once the page stopped moving (charts above it finish their layout)."""
    box = target.bounding_box()
    for _ in range(40):
        time.sleep(0.25)
        now = target.bounding_box()
        if now == box:
            return now
        box = now
    return box


def hover_segment(page, target) -> tuple[int, tuple[float, float]]:
    """Move the mouse onto a bar or point; (the segment id its hover label names, where the mouse is)."""
    bb = steady_box(target)
    assert bb is not None
    x, y = bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2
    page.mouse.move(x, y)
    label = page.locator(".hoverlayer .hovertext").first
    label.wait_for(timeout=10_000)
    text = label.text_content() or ""
    m = re.search(r"segment (\d+)", text)
    assert m, text
    return int(m.group(1)), (x, y)


def click_at(page, xy: tuple[float, float]) -> None:
    page.mouse.click(*xy)
    wait_idle(page, 120)
    time.sleep(0.5)
    wait_idle(page, 120)


def opened_segment(page) -> int:
    line = page.locator("text=/^Segment \\d+: sentence score/").first
    line.wait_for(timeout=30_000)
    return int(SEG_LINE.match(line.inner_text().strip()).group(1))


def opened_segment_rouge(page) -> int:
    """The segment open in the segment view (its number box)."""
    box = page.get_by_label("Segment", exact=True)
    for _ in range(40):
        if box.input_value().isdigit():
            break
        time.sleep(0.25)
    return int(box.input_value())


def test_influence_bar_and_scatter_point_open_their_segment(page, app_url):
    open_sample(page, app_url)
    open_section(page, "Corpus BLEU ≠ mean of sentence BLEUs")
    chart = page.locator(".st-key-cp_influence")
    chart.scroll_into_view_if_needed()
    time.sleep(1.0)
    bars = chart.locator("g.point path")
    assert bars.count() >= 3
    bar = bars.nth(1)
    seg, xy = hover_segment(page, bar)
    click_at(page, xy)
    no_error(page)
    assert opened_segment(page) == seg
    assert page.get_by_text(f"opened from the chart: segment {seg}").count() == 1
    page.get_by_role("heading", name="Segment view").scroll_into_view_if_needed()
    time.sleep(0.5)
    shot(page, "corpus-click-influence")

    page.locator(".st-key-cp_differ_view").get_by_text("Segment scores").click()
    wait_idle(page, 120)
    chart = page.locator(".st-key-cp_scatter")
    chart.scroll_into_view_if_needed()
    time.sleep(1.0)
    point = chart.locator("g.trace.scatter").first.locator("path.point").nth(7)
    seg2, xy = hover_segment(page, point)
    assert seg2 != seg
    click_at(page, xy)
    no_error(page)
    assert opened_segment(page) == seg2
    assert page.get_by_text(f"opened from the chart: segment {seg2}").count() == 1
    shot(page, "corpus-click-scatter")

    # a box drawn over several points lists them in the table
    chart = page.locator(".st-key-cp_scatter")
    chart.scroll_into_view_if_needed()
    chart.hover()
    chart.locator('[data-title="Box Select"]').click()
    plot = steady_box(chart.locator(".nsewdrag").first)
    x0, y0 = plot["x"] + plot["width"] * 0.05, plot["y"] + plot["height"] * 0.05
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + plot["width"] * 0.3, y0 + plot["height"] * 0.3, steps=8)
    page.mouse.up()
    wait_idle(page, 120)
    no_error(page)
    chip = page.locator(".st-key-cp_clear_filter")
    chip.wait_for(timeout=30_000)
    n = int(re.search(r"\((\d+)\)", chip.inner_text()).group(1))
    assert n > 1 and "selected in the chart" in chip.inner_text()
    assert page.get_by_text(re.compile(rf"^{n} of 300 segments")).count() == 1

    # the ROUGE scatter: the same
    page.locator(".st-key-cp_metric").get_by_text("ROUGE", exact=True).click()
    wait_idle(page, 120)
    page.locator(".st-key-cp_differ_view").get_by_text("Segment scores").click()
    wait_idle(page, 120)
    chart = page.locator(".st-key-cp_scatter")
    chart.scroll_into_view_if_needed()
    point = chart.locator("g.trace.scatter").first.locator("path.point").nth(3)
    seg3, xy = hover_segment(page, point)
    click_at(page, xy)
    no_error(page)
    assert opened_segment_rouge(page) == seg3
    assert page.get_by_text(f"opened from the chart: segment {seg3}").count() == 1
    shot(page, "corpus-click-rouge-scatter")


def test_charts_download_holds_the_pages_charts(page, app_url, tmp_path):
    open_sample(page, app_url)
    open_section(page, "Corpus BLEU worked out")
    open_section(page, "Corpus BLEU ≠ mean of sentence BLEUs")
    button = page.get_by_role("button", name="Charts (HTML, interactive)")
    button.scroll_into_view_if_needed()
    with page.expect_download(timeout=120_000) as info:
        button.click()
    path = tmp_path / "charts.html"
    info.value.save_as(path)
    html = path.read_text(encoding="utf-8")
    assert len(html) > 1_000_000      # Plotly's script is included: the file works offline
    for title in ("Corpus BLEU per system", "Segments that pull corpus and mean apart most",
                  "BLEU by reference length"):
        assert title in html, title
    assert html.count("Plotly.newPlot") >= 5


def show_view(page, view: str):
    page.locator(".st-key-cp_differ_view").get_by_text(view, exact=True).click()
    wait_idle(page, 120)


def hover_text(page, target) -> tuple[str, tuple[float, float]]:
    bb = steady_box(target)
    xy = (bb["x"] + bb["width"] / 2, bb["y"] + bb["height"] / 2)
    page.mouse.move(*xy)
    label = page.locator(".hoverlayer .hovertext").first
    label.wait_for(timeout=10_000)
    return label.text_content() or "", xy


def filter_chip(page) -> tuple[str, int]:
    chip = page.locator(".st-key-cp_clear_filter")
    chip.wait_for(timeout=30_000)
    text = chip.inner_text()
    return text, int(re.search(r"\((\d+)\)\s*$", text.strip()).group(1))


def tallest(bars):
    boxes = [(b.bounding_box() or {"height": 0})["height"] for b in bars.all()]
    return bars.nth(max(range(len(boxes)), key=boxes.__getitem__))


def click_bar_and_read_chip(page, view: str, key: str, pick, pattern: str):
    """Show ``view``, click the bar ``pick(bars)`` of the chart ``key``: (its hover text matched by ``pattern``,
    the table's filter chip, the number of segments it lists)."""
    show_view(page, view)
    chart = page.locator(f".st-key-{key}")
    chart.scroll_into_view_if_needed()
    text, xy = hover_text(page, pick(chart.locator("g.point path")))
    m = re.search(pattern, text)
    assert m, text
    click_at(page, xy)
    no_error(page)
    return (m, *filter_chip(page))


def test_analysis_bars_lead_to_their_segments(page, app_url):
    open_sample(page, app_url)
    # a row of the length-bucket table lists its segments; a row of the segment table then opens one of them
    rep = bleu_report(load_sample("news-en"))
    first = rep.length_buckets()[0]
    table = page.locator(".st-key-cp_buckets_table")
    table.scroll_into_view_if_needed()
    box = steady_box(table)
    click_at(page, (box["x"] + 15, box["y"] + 35 + 17))
    no_error(page)
    chip, n = filter_chip(page)
    assert n == first["n_segments"] and f"reference length {first['bucket']}" in chip
    table = page.locator(".st-key-cp_table")
    table.scroll_into_view_if_needed()
    box = steady_box(table)
    click_at(page, (box["x"] + 15, box["y"] + 35 + 35 + 17))       # the second row
    no_error(page)
    assert opened_segment(page) == first["segments"][1]

    # Length ratio: a bar lists that system's segments in that bin
    m, chip, n = click_bar_and_read_chip(page, "Length ratio", "cp_an_length_ratio", tallest,
                                         r"(\d+) segments with c/r in (\S+)")
    assert n == int(m.group(1)) and f"c/r in {m.group(2)}" in chip
    assert page.get_by_text(re.compile(rf"^{n} of 300 segments")).count() == 1
    shot(page, "corpus-click-length-ratio")
    # N-grams: a bar lists the segments where the systems match its n-gram a different number of times
    m, chip, n = click_bar_and_read_chip(page, "N-grams", "cp_ngrams", lambda bars: bars.nth(2), r"in (\d+) segments")
    assert n == int(m.group(1)) and "n-gram “" in chip

    # Precision by order: a bar lists the segments it sums; a row of that list opens the segment
    show_view(page, "Precision by order")
    chart = page.locator(".st-key-cp_prec")
    chart.scroll_into_view_if_needed()
    text, xy = hover_text(page, chart.locator("g.point path").nth(5))
    m = re.search(r"(\S+) (\d)-gram: ([\d.]+) = (\d+) / (\d+)", text)
    assert m, text
    click_at(page, xy)
    no_error(page)
    line = page.get_by_text(re.compile(rf"^p{m.group(2)} of {re.escape(m.group(1))} = "))
    line.wait_for(timeout=30_000)
    assert f"= {int(m.group(4)):,} / {int(m.group(5)):,} =" in line.inner_text()
    table = page.locator(".st-key-cp_prec_table")
    table.scroll_into_view_if_needed()
    box = steady_box(table)
    click_at(page, (box["x"] + 15, box["y"] + 35 + 17))      # the first row's selection cell
    no_error(page)
    seg = opened_segment(page)
    assert page.get_by_text(f"opened from the table: segment {seg}").count() == 1
    first = rep.precision_segments(rep.names.index(m.group(1)), int(m.group(2)))["segments"][0]
    assert seg == first["segment"]          # the row listed first: the most unmatched n-grams
    shot(page, "corpus-click-precision")


def query(page) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


def headline(page) -> dict[str, str]:
    out = {}
    for m in page.locator(".st-key-cp_headline [data-testid='stMetric']").all():
        out[m.locator('[data-testid="stMetricLabel"]').inner_text().strip()] = \
            m.locator('[data-testid="stMetricValue"]').inner_text().strip()
    return out


def wait_query(page, **want) -> dict[str, str]:
    for _ in range(80):
        q = query(page)
        if all(q.get(k) == v for k, v in want.items()):
            return q
        time.sleep(0.25)
    raise AssertionError((want, query(page)))


def test_the_address_bar_keeps_the_view(page, new_page, app_url):
    open_sample(page, app_url)
    page.locator('[data-testid="stSidebar"]').get_by_text("lowercase", exact=True).click()
    wait_idle(page, 120)
    page.get_by_label("Baseline (paired tests and deltas are against it)").click()
    page.get_by_role("option", name="new-model").click()
    wait_idle(page, 120)
    box = page.get_by_label("Segment", exact=True)
    box.fill("42")
    box.press("Enter")
    wait_idle(page, 120)
    page.get_by_role("button", name="next →").click()        # a fragment's run: the link follows it
    wait_idle(page, 120)
    assert opened_segment(page) == 43
    q = wait_query(page, sample="news-en", lowercase="1", baseline="new-model", seg="43")
    shown = headline(page)
    page.get_by_role("heading", name="Segment view").scroll_into_view_if_needed()
    shot(page, "corpus-link-view")

    # the same address in a new browser: the same numbers and the same segment
    other = new_page()
    other.goto(page.url)
    other.wait_for_selector(".st-key-cp_headline [data-testid='stMetric']", timeout=180_000)
    wait_idle(other, 120)
    no_error(other)
    assert headline(other) == shown
    assert opened_segment(other) == 43
    assert query(other) == q
    assert other.locator('[data-testid="stAlert"]').filter(has_text="link").count() == 0

    # to another page and back: the view is as it was left
    page.get_by_test_id("stSidebarNavItems").get_by_role("link", name="Explain").click()
    wait_idle(page, 120)
    page.get_by_test_id("stSidebarNavItems").get_by_role("link", name="Corpus").click()
    page.wait_for_selector(".st-key-cp_headline [data-testid='stMetric']", timeout=120_000)
    wait_idle(page, 120)
    assert opened_segment(page) == 43
    back = wait_query(page, sample="news-en", baseline="new-model", seg="43")
    # (the Explain page's first visit puts its own settings in force: the shared settings model) what is shown
    # is what the address says
    other.goto(app_url + "/corpus?" + urlencode(back))
    other.wait_for_selector(".st-key-cp_headline [data-testid='stMetric']", timeout=180_000)
    wait_idle(other, 120)
    assert headline(other) == headline(page) and opened_segment(other) == 43


def test_junk_in_the_link_is_said_and_dropped(page, app_url):
    junk = "&".join(f"j{k}=1" for k in range(300))
    open_sample(page, app_url, f"sample=news-en&seg=5000&{junk}&sample2={'9' * 5000}")
    alerts = " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())
    assert "“seg=5000” is not a segment of this sample" in alerts and "and 296 more mean nothing" in alerts
    q = wait_query(page, sample="news-en", seg="1")
    assert not any(k.startswith("j") or k == "sample2" for k in q)
    shot(page, "corpus-link-junk")


def test_a_link_the_server_dropped_whole_is_said(page, app_url):
    """Over 1,000 parameters Streamlit gives the page none at all: the Corpus page says so (page_links)."""
    page.goto(app_url + "/corpus?sample=news-en&" + "&".join(f"p{i}=1" for i in range(1001)))
    page.wait_for_selector('[data-testid="stAlert"]:has-text("1,002 parameters")', timeout=60_000)
    wait_idle(page, 120)
    alerts = " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())
    assert "at most 1,000" in alerts and "opened without it" in alerts and "default example" not in alerts
    no_error(page)
    shot(page, "corpus-link-dropped-whole")


def test_quick_presses_of_next_and_previous_each_move_one_segment(page, app_url):
    """A press sent before the browser had the segment number the press before set carries the box's old number,
    which Streamlit reports as a change of the box; taken as typed, it undid a press (5 quick presses of next moved
    4 segments about once in 15 here). Five quick nexts, then three quick previouses, twice."""
    open_sample(page, app_url)
    start = opened_segment(page)
    at = start
    for presses, button, step in ((5, "next →", 1), (3, "← previous", -1), (5, "next →", 1), (3, "← previous", -1)):
        for _ in range(presses):
            page.get_by_role("button", name=button).click()
            time.sleep(0.05)
        wait_idle(page, 120)
        time.sleep(0.5)
        wait_idle(page, 120)
        at += presses * step
        page.locator(f"text=/^Segment {at}: sentence score/").first.wait_for(timeout=30_000)
        assert opened_segment(page) == at and page.get_by_label("Segment", exact=True).input_value() == str(at)
    no_error(page)
    assert at == start + 4
