"""The Gaming lab's sweeps as figures to publish (issue 32, defects 2 and 3), in a real browser: a sweep of a
5,000-character text shows its progress and stops on Stop; each sweep's PNG (2×) and SVG at 1280×720 have their
legend clear of the title, the subplot titles and the plots, and nothing clipped (read from the SVG's element boxes
in Chromium; the PNG is the same drawing, compared pixel by pixel); and the exported figure looks like the one on
screen (the browser's own figure, redrawn at 1280×720 with plotly.js, against the downloaded PNG)."""
from __future__ import annotations

import io
import re
import time
import urllib.parse
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from explainer.attacks.sweeps import SWEEPS
from tests.browser.conftest import SCREENSHOTS, shot, wait_idle

CAND = "a fire destroyed a port warehouse on sunday"
REFS = ["a fire destroyed a warehouse in the port on sunday night",
        "fire crews fought a blaze at a dockside warehouse overnight"]
W, H = 1280, 720


def _sweep_url(app_url: str, knob: str, **extra) -> str:
    q = urllib.parse.urlencode({"lab": "sweeps", "knob": knob, "candidate": CAND, "ref": REFS, **extra}, doseq=True)
    return f"{app_url}/gaming_lab?{q}"


def _download(page, label: str) -> bytes:
    with page.expect_download(timeout=240_000) as d:
        page.get_by_role("button", name=label).click()
    return Path(d.value.path()).read_bytes()


def _boxes(browser, svg: bytes, tmp_path: Path) -> tuple[dict, np.ndarray]:
    """The SVG drawn by Chromium at 2×: the boxes of its parts (CSS pixels) and the picture."""
    path = tmp_path / "figure.svg"
    path.write_bytes(svg)
    ctx = browser.new_context(viewport={"width": W, "height": H}, device_scale_factor=2)
    try:
        page = ctx.new_page()
        page.goto(path.as_uri())
        boxes = page.evaluate("""() => {
          const r = s => [...document.querySelectorAll(s)].map(e => {
            const b = e.getBoundingClientRect(); return {x: b.x, y: b.y, w: b.width, h: b.height,
                                                        text: e.textContent.slice(0, 40)};});
          return {legend: r('g.legend'), legend_bg: r('g.legend rect.bg'), items: r('g.legend text.legendtext'),
                  title: r('.g-gtitle'), notes: r('g.annotation'), plots: r('.bglayer rect.bg'),
                  xtitle: r('.g-xtitle text'), ytitle: r('.g-ytitle text')};
        }""")
        picture = np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB"), dtype=np.int16)
    finally:
        ctx.close()
    return boxes, picture


def _overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and \
        b["y"] < a["y"] + a["h"]


def _inside(a: dict, x0=0.0, y0=0.0, x1=float(W), y1=float(H), tol=0.5) -> bool:
    return a["x"] >= x0 - tol and a["y"] >= y0 - tol and a["x"] + a["w"] <= x1 + tol and a["y"] + a["h"] <= y1 + tol


def _check_layout(boxes: dict, knob: str) -> None:
    (legend,), (title,) = boxes["legend"], boxes["title"]
    assert _inside(legend), (knob, "legend outside the image", legend)
    assert _inside(title) and title["w"] > 0, (knob, "title clipped", title)
    assert not _overlap(legend, title), (knob, "legend over the title", legend, title)
    for note in boxes["notes"]:
        assert not _overlap(legend, note), (knob, "legend over an annotation", note)
    for plot in boxes["plots"]:
        assert not _overlap(legend, plot), (knob, "legend over a plot", plot)
    (bg,) = boxes["legend_bg"]
    assert boxes["items"], knob
    for item in boxes["items"]:      # every entry whole ("ROUGE-1 I" was cut in the old PNG)
        assert _inside(item, bg["x"], bg["y"], bg["x"] + bg["w"], bg["y"] + bg["h"]), (knob, item, bg)


@pytest.mark.parametrize("knob", list(SWEEPS))
def test_exported_svg_and_png_have_no_overlapping_legend(new_page, browser, app_url, knob, tmp_path):
    page = new_page(width=W, height=H)
    page.goto(_sweep_url(app_url, knob, title="A long title for the blog post: every metric against the knob"))
    page.wait_for_selector(".js-plotly-plot")
    wait_idle(page, 240)
    svg = _download(page, f"Figure (SVG, {W}×{H})")
    png = Image.open(io.BytesIO(_download(page, f"Figure (PNG, 2×, {W}×{H})"))).convert("RGB")
    assert png.size == (2 * W, 2 * H)
    assert svg.lstrip().startswith(b"<svg") and f'width="{W}" height="{H}"'.encode() in svg
    boxes, drawn = _boxes(browser, svg, tmp_path)
    _check_layout(boxes, knob)
    assert any("A long title for the blog post" in t["text"] for t in boxes["title"])
    # the PNG is the same drawing as the SVG whose boxes were read
    diff = np.abs(drawn - np.asarray(png, dtype=np.int16))
    assert diff.mean() < 2.0 and (diff.max(axis=2) > 48).mean() < 0.01, (knob, diff.mean())
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    png.save(SCREENSHOTS / f"lab-export-{knob}.png")


def test_the_exported_figure_looks_like_the_figure_on_screen(new_page, browser, app_url, tmp_path):
    """The figure the browser shows (its data and layout as plotly.js holds them) redrawn at 1280×720 by plotly.js
    equals the exported PNG: the export is the screen's figure, same template, fonts, legend and title (a Streamlit
    theme applied only on screen, or another legend position, would differ)."""
    from plotly.offline import get_plotlyjs

    page = new_page(width=W, height=H)
    page.goto(_sweep_url(app_url, "length", yrange="fixed", series="bleu:score,chrf:score,ter:score,bleu_bp"))
    page.wait_for_selector(".js-plotly-plot")
    wait_idle(page, 240)
    fig = page.evaluate("""() => { const gd = document.querySelector('.js-plotly-plot');
        return JSON.stringify({data: gd.data, layout: gd.layout}); }""")
    png = Image.open(io.BytesIO(_download(page, f"Figure (PNG, 2×, {W}×{H})"))).convert("RGB")
    html = tmp_path / "screen.html"
    html.write_text("<html><body style='margin:0'><div id='g'></div><script>" + get_plotlyjs() + "</script><script>"
                    "const f = " + fig + "; f.layout.width = " + str(W) + "; f.layout.height = " + str(H) + ";"
                    "Plotly.newPlot('g', f.data, f.layout, {staticPlot: true}).then(() => "
                    "document.body.setAttribute('data-drawn', '1'));</script></body></html>", encoding="utf-8")
    ctx = browser.new_context(viewport={"width": W, "height": H}, device_scale_factor=2)
    try:
        other = ctx.new_page()
        other.goto(html.as_uri())
        other.wait_for_selector("body[data-drawn='1']")
        time.sleep(0.5)
        screen = Image.open(io.BytesIO(other.screenshot())).convert("RGB")
    finally:
        ctx.close()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    screen.save(SCREENSHOTS / "lab-figure-screen-1280x720.png")
    png.save(SCREENSHOTS / "lab-figure-export-1280x720.png")
    diff = np.abs(np.asarray(screen, dtype=np.int16) - np.asarray(png, dtype=np.int16))
    assert diff.mean() < 2.0 and (diff.max(axis=2) > 48).mean() < 0.01, diff.mean()
    assert "bleu%3Ascore%2Cchrf%3Ascore%2Cter%3Ascore%2Cbleu_bp" in page.url and "yrange=fixed" in page.url


def test_a_sweep_of_5000_characters_shows_progress_and_stops(new_page, app_url):
    """The page's side of the bound (the 0.5 s is checked on the run itself, tests/test_lab_issue32.py): a
    5,000-character candidate with 50 shuffles per point shows a progress bar at once; Stop ends the run, and the
    points so far stay on screen, with the way to continue."""
    words = ("officials said the storm knocked out power for thousands of homes on friday night and shut many "
             "major roads across the north of the country while rescue teams worked through the weekend").split()
    cand = " ".join(words * 40)[:5000]
    page = new_page(width=W, height=H)
    page.goto(f"{app_url}/gaming_lab?lab=sweeps&knob=shuffle&" + urllib.parse.urlencode(
        {"candidate": cand, "ref": " ".join(words)}))
    page.get_by_role("spinbutton", name="shuffles averaged per point").wait_for()
    wait_idle(page, 240)
    box = page.get_by_role("spinbutton", name="shuffles averaged per point")
    box.fill("50")
    box.press("Enter")
    page.get_by_text(re.compile(r"^scored [\d,]+ of 550 texts")).first.wait_for()
    t0 = time.perf_counter()
    page.get_by_role("button", name="Stop the sweep").click()
    page.get_by_text("Stopped by you").wait_for()
    print(f"Stop → 'Stopped by you' shown after {time.perf_counter() - t0:.2f} s (busy machine)")
    wait_idle(page, 240)
    assert page.locator(".js-plotly-plot").count() == 1
    assert page.get_by_role("button", name="Continue the sweep").is_enabled()
    shot(page, "lab-sweep-stopped")
