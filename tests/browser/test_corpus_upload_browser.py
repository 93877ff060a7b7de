"""Uploads on the Corpus page in a real browser (issue 34, items 5 and 6): the server refuses a file that takes a
session's uploads over the page's limit as it arrives (before storing it), and the page says so; a test set's
scoring says its time before the work and stops on Stop. streamlit.testing cannot show either: it has no upload
route and runs one script at a time."""
from __future__ import annotations

import random

from tests.browser.conftest import shot, wait_idle


def _open_uploads(page, app_url: str) -> None:
    page.goto(f"{app_url}/corpus")
    page.get_by_text("Upload files").click()
    page.wait_for_selector('[data-testid="stFileUploaderDropzoneInput"]', state="attached")
    wait_idle(page)


def _alerts(page) -> str:
    return " ".join(a.inner_text() for a in page.locator('[data-testid="stAlert"]').all() if a.is_visible())


def test_a_file_over_the_sessions_limit_is_refused_as_it_arrives(new_page, app_url, tmp_path):
    from explainer.ui.corpus.common import PAGE_MAX_BYTES

    line = ("word " * 60 + "\n").encode()
    data = line * (int(PAGE_MAX_BYTES * 0.4) // len(line))     # 40 % of the limit each: the third goes over it
    paths = []
    for k in range(3):
        p = tmp_path / f"sys{k}.txt"
        p.write_bytes(data)
        paths.append(str(p))
    page = new_page(width=1280, height=900)
    _open_uploads(page, app_url)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(paths)
    page.wait_for_selector('[data-testid="stAlert"]:has-text("was refused")', timeout=120_000)
    wait_idle(page)
    said = _alerts(page)
    assert f"A file of {len(data) / 1e6:.1f} MB was refused" in said
    assert f"limit of {PAGE_MAX_BYTES / 1e6:.0f} MB" in said
    shot(page, "corpus-upload-refused")


def test_scoring_says_its_time_and_stops_on_stop(new_page, app_url, tmp_path):
    rng = random.Random(3)
    words = [f"w{i}" for i in range(4000)]

    def lines(n: int) -> str:
        return "".join(" ".join(rng.choice(words) for _ in range(60)) + "\n" for _ in range(n))

    n = 12_000                                           # ~13 million characters of work: many seconds of BLEU
    (tmp_path / "sys.a.txt").write_text(lines(n))
    (tmp_path / "ref.txt").write_text(lines(n))
    page = new_page(width=1280, height=900)
    _open_uploads(page, app_url)
    inputs = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
    inputs.nth(0).set_input_files(str(tmp_path / "sys.a.txt"))
    wait_idle(page, timeout=120)
    inputs.nth(1).set_input_files(str(tmp_path / "ref.txt"))
    wait_idle(page, timeout=120)
    page.get_by_role("button", name="Use these files").click()
    page.wait_for_selector("text=of the server's time", timeout=120_000)
    assert page.get_by_text(f"Scoring 1 system(s) × {n:,} segments").first.is_visible()
    page.locator(".st-key-cp_stop_scoring_bleu button").first.click()     # the page's (the header has Streamlit's own)
    page.wait_for_selector('[data-testid="stAlert"]:has-text("Scoring stopped.")', timeout=60_000)
    wait_idle(page, timeout=120)
    assert page.get_by_role("button", name="Score again").is_visible()
    assert page.locator('[data-testid="stDataFrame"]').count() == 0       # no scores table: nothing computed
    shot(page, "corpus-scoring-stopped")
