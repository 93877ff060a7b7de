"""The Corpus page in Chromium: what a person waits for with a 2,000 x 4 test set (2 references).

* open: from the click on "Use these files" (2,000 segments x 4 systems + 2 references uploaded) to the corpus
  scores on screen and the page idle (target < 2 s);
* reruns: a step to the next segment (the table + segment view fragment), a jump to another segment by number,
  a switch of the analysis shown, a switch of the baseline (a full rerun from the cached report) — each from
  the click to the page idle again (target < 300 ms for sorting and picking a segment; sorting the table is done
  in the browser and reruns nothing);
* a paired bootstrap (1,000) and an AR test (10,000) from the click to the result on screen.

Wall-clock times in the browser (websocket round trip and drawing included), median of --repeat runs.
Needs Debian's Chromium and Playwright (as the browser tests). Usage: ``python bench/bench_corpus_page.py``
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.corpus_data import make_testset, write_files  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server() -> tuple[subprocess.Popen, str]:
    port = free_port()
    streamlit = Path(sys.executable).with_name("streamlit")
    proc = subprocess.Popen([str(streamlit), "run", str(ROOT / "app.py"), "--server.headless", "true",
                             "--server.port", str(port), "--server.address", "127.0.0.1",
                             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("streamlit did not start")


def idle(page, timeout: float = 120.0) -> None:
    """The script run is over: the status widget ("Running…"/"Stop") is gone twice in a row, 50 ms apart."""
    deadline = time.time() + timeout
    quiet = 0
    while time.time() < deadline:
        w = page.locator('[data-testid="stStatusWidget"]')
        if w.count() == 0 or not w.first.is_visible():
            quiet += 1
            if quiet >= 2:
                return
        else:
            quiet = 0
        time.sleep(0.05)
    raise TimeoutError("the page did not become idle")


SERVER_PID = 0
CPU: list[float] = []   # server CPU seconds of each timed action (robust to other load on a shared machine)


def server_cpu() -> float:
    """user + system CPU seconds of the Streamlit server process so far (/proc/<pid>/stat)."""
    with open(f"/proc/{SERVER_PID}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def timed(page, action, until) -> float:
    c0 = server_cpu()
    t0 = time.perf_counter()
    action()
    until()
    idle(page)
    CPU.append(server_cpu() - c0)
    return time.perf_counter() - t0


def _t(res, cpu, key, wall) -> None:
    res[key].append(wall)
    cpu[key].append(CPU[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright

    global SERVER_PID
    proc, url = start_server()
    SERVER_PID = proc.pid
    try:
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
            refs, systems = make_testset(2000, 2, 4, seed=11)
            ref_paths, sys_paths = write_files(Path(tmp), refs, systems)
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = b.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(120_000)
            page.goto(url + "/corpus")
            page.wait_for_selector(".st-key-cp_source")
            idle(page)
            page.locator(".st-key-cp_source").get_by_text("Upload files").click()
            idle(page)
            page.locator(".st-key-cp_up_sys input[type=file]").set_input_files([x for _, x in sys_paths])
            page.locator(".st-key-cp_up_ref input[type=file]").set_input_files(ref_paths)
            idle(page)
            time.sleep(1)
            t_open = timed(page, lambda: page.get_by_role("button", name="Use these files").click(),
                           lambda: page.wait_for_selector(".st-key-cp_headline [data-testid='stMetric']"))
            print(f"open a loaded 2,000 x 4 test set (2 references): {t_open:.2f} s wall from the click to the scores "
                  f"on screen and the page idle, server CPU {CPU[-1]:.2f} s (target < 2 s) "
                  f"{'OK' if t_open < 2 else 'MISSED'}")
            res: dict[str, list[float]] = {"next segment": [], "segment by number": [], "analysis switch": [],
                                           "baseline switch": []}
            cpu: dict[str, list[float]] = {k: [] for k in res}
            views = ["Precision by order", "Length buckets"]
            for k in range(a.repeat):
                seg = page.locator(".st-key-cp_seg_input input")
                cur = int(seg.input_value())
                nxt = f"() => document.querySelector('.st-key-cp_seg_input input').value == '{cur + 1}'"
                _t(res, cpu, "next segment", timed(
                    page, lambda: page.get_by_role("button", name="next →").click(),
                    lambda nxt=nxt: page.wait_for_function(nxt)))
                target = 100 + 37 * k

                def jump(seg=seg, target=target):
                    seg.fill(str(target))
                    seg.press("Enter")

                _t(res, cpu, "segment by number", timed(
                    page, jump, lambda target=target: page.get_by_text(f"Segment {target}: sentence score").first
                    .wait_for()))
                v = views[k % 2]
                _t(res, cpu, "analysis switch", timed(
                    page, lambda v=v: page.locator(".st-key-cp_differ_view").get_by_text(v, exact=True).click(),
                    lambda: None))
                name = systems[1 + k % 2][0]

                def pick(name=name):
                    page.locator(".st-key-cp_baseline").click()
                    page.get_by_role("option", name=name, exact=True).click()

                _t(res, cpu, "baseline switch", timed(page, pick, lambda: None))
            for k, v in res.items():
                med = statistics.median(v)
                print(f"{k}: median {med * 1000:.0f} ms wall of {len(v)} (min {min(v) * 1000:.0f}, max "
                      f"{max(v) * 1000:.0f}), server CPU median {statistics.median(cpu[k]) * 1000:.0f} ms"
                      + (f" (target < 300 ms) {'OK' if med < 0.3 else 'MISSED'}"
                         if k in ("next segment", "segment by number") else ""))
            for test, label in (("bs", "paired bootstrap (1,000)"), ("ar", "approximate randomization (10,000)")):
                page.locator(".st-key-cp_test").get_by_text(
                    "paired bootstrap" if test == "bs" else "approximate randomization").click()
                idle(page)
                t = timed(page, lambda: page.get_by_role("button", name="Run the test").click(),
                          lambda: page.get_by_text("What the p-value says.").first.wait_for())
                print(f"{label}, 3 comparisons over 2,000 segments: {t:.2f} s wall from the click to the result, "
                      f"server CPU {CPU[-1]:.2f} s")
            b.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
