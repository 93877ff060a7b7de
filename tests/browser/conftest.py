"""Real-browser fixtures: the app under `streamlit run` on a free localhost port, driven by Playwright with
Debian's Chromium (/usr/bin/chromium; never a downloaded browser).

Reusable by any browser test:

* ``app_url``: base URL of a running app (session-scoped; started once, stopped at the end);
* ``browser``: a Playwright Chromium browser (session-scoped);
* ``page``: a fresh page (1400x1000) per test; ``new_page(width=, height=, dark=)`` for other viewports;
* ``open_app(page, query="")``: navigate to ``app_url + "/?" + query`` and wait until the script finished;
* ``wait_idle(page)``: wait until Streamlit is not running a script any more;
* ``shot(page, name)``: save a full-page screenshot as ``artifacts/screenshots/<name>.png``.

Without Chromium or Playwright the tests SKIP with a loud reason, unless EXPLAINER_REQUIRE_BROWSER=1
(set by .ci/run), in which case they FAIL.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

# Both this file and tests/conftest.py are imported under the bare module name "conftest" (tests/ is not a
# package), so whichever is loaded last answers `from conftest import ...`. Re-export the shared helpers so
# that such imports work whatever the collection order.
from tests.conftest import BROWSER_NOT_RUN, DATA, GOLDEN, golden, load_jsonl, seed_vectors  # noqa: F401,E402

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("EXPLAINER_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
REQUIRE = os.environ.get("EXPLAINER_REQUIRE_BROWSER") == "1"


def pytest_collection_modifyitems(config, items):
    # (under `make test`'s pytest-xdist workers all these tests run on one worker: tests/conftest.py)
    here = str(Path(__file__).parent)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.browser)


def _unavailable(reason: str):
    # the end-of-run banner is printed by tests/conftest.py (it sees the skip reports, also under pytest-xdist)
    msg = f"{BROWSER_NOT_RUN}: {reason}"
    if REQUIRE:
        pytest.fail(msg + " (EXPLAINER_REQUIRE_BROWSER=1)", pytrace=False)
    # Loud: also on stderr, so a skipped browser suite is noticed in a local run.
    print("\n" + "!" * 78 + f"\n{msg}\n" + "!" * 78, file=sys.stderr)
    pytest.skip(msg)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def app_url(tmp_path_factory):
    streamlit = Path(sys.executable).with_name("streamlit")
    if not streamlit.exists():
        streamlit = shutil.which("streamlit")
    if not streamlit:
        _unavailable("the `streamlit` executable was not found next to the Python interpreter")
    # EXPLAINER_APP_PORT: a fixed port (machines shared by several runs give each its own range)
    # (under pytest-xdist each worker runs its own server: worker gwN adds N to that port)
    fixed = os.environ.get("EXPLAINER_APP_PORT")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    port = int(fixed) + int(worker.removeprefix("gw") or 0) if fixed else _free_port()
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", PYTHONUNBUFFERED="1")
    cmd = [str(streamlit), "run", str(ROOT / "serve.py"), "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1",
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
           "--server.runOnSave", "false"]
    with open(log, "wb") as logf:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=logf, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}"
        deadline = time.time() + 60
        ok = False
        while time.time() < deadline:
            if proc.poll() is not None:
                break
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        ok = True
                        break
            except OSError:
                time.sleep(0.3)
        if not ok:
            proc.kill()
            proc.wait(timeout=10)
            pytest.fail(f"streamlit did not start on {url}; log:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        _unavailable(f"Chromium not found at {CHROMIUM} (Debian: apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the `playwright` Python package is not installed (pip install -r requirements-test.txt)")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        except Exception as exc:  # a broken Chromium install is an environment problem, say which
            _unavailable(f"Chromium at {CHROMIUM} did not start: {exc}")
        yield b
        b.close()


@pytest.fixture
def new_page(browser):
    contexts = []

    def make(width: int = 1400, height: int = 1000, dark: bool = False):
        ctx = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme="dark" if dark else "light")
        contexts.append(ctx)
        ctx.set_default_timeout(60_000)  # generous: a loaded 2-core CI machine, cold imports on first load
        return ctx.new_page()

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def page(new_page):
    return new_page()


def wait_idle(page, timeout: float = 60.0) -> None:
    """Wait until the app has rendered, no script run is in progress, no element is still loading its script,
    and the Explain page's first view is complete (it shows the headline first and the sections in a second
    run, explainer/ui/explain/first_view.py)."""
    page.wait_for_selector('[data-testid="stApp"]', timeout=timeout * 1000)
    deadline = time.time() + timeout
    stable = 0
    while time.time() < deadline:
        running = page.locator('[data-testid="stStatusWidget"]').count() > 0 and \
            page.locator('[data-testid="stStatusWidget"]').first.is_visible()
        has_body = page.locator('[data-testid="stMainBlockContainer"], [data-testid="block-container"]').count() > 0
        pending = page.locator(".st-key-first_view_pending").count() > 0
        # an element whose script is still loading shows a skeleton (Streamlit's Suspense fallback)
        loading = page.locator('[data-testid="stSkeleton"]').count() > 0
        if not running and has_body and not pending and not loading:
            stable += 1
            if stable >= 3:
                return
        else:
            stable = 0
        time.sleep(0.25)
    raise TimeoutError("the Streamlit app did not become idle")


@pytest.fixture
def open_app(app_url):
    def go(page, query: str = "", wait_for: str | None = None):
        page.goto(app_url + "/" + (("?" + query) if query else ""))
        if wait_for:
            page.wait_for_selector(wait_for)
        wait_idle(page)
        return page

    return go


def content_height(page) -> int:
    """Height of the whole app. Streamlit scrolls inside its main container, not the document, so a plain
    full-page screenshot would stop at the viewport."""
    return int(page.evaluate("""() => {
        let h = document.documentElement.scrollHeight;
        for (const sel of ['[data-testid="stMain"]', '[data-testid="stAppViewContainer"]', 'section.main',
                           '[data-testid="stSidebarContent"]']) {
            const el = document.querySelector(sel);
            if (el) h = Math.max(h, el.scrollHeight);
        }
        return h;
    }"""))


def shot(page, name: str, *, max_height: int = 16000) -> Path:
    """Full-page screenshot: the viewport is stretched to the app's content height first, then restored."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    vp = page.viewport_size
    h = min(max(content_height(page), vp["height"]), max_height)
    page.set_viewport_size({"width": vp["width"], "height": h})
    time.sleep(0.8)  # charts re-layout on resize
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(vp)
    return path


@pytest.fixture
def screenshot():
    return shot


def forward_msg(payload):
    """The Streamlit ForwardMsg a websocket frame carries (what the server sent to the page), or None."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    if not isinstance(payload, (bytes, bytearray)):
        return None
    try:
        return ForwardMsg.FromString(bytes(payload))
    except Exception:  # noqa: BLE001 - not a ForwardMsg
        return None
