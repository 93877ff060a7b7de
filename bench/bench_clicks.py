"""Clicks that answer at once on real sizes (issue 18, item 3), in Chromium.

The Corpus page with three WMT22 en-de systems x 2,037 segments x 2 references (and the source) uploaded: every
"Analysis" option, opening a segment (a "largest gains" button), the next segment, a jump to a segment by number, a
change of the tokenizer and of the smoothing (sidebar), a paired test (bootstrap 1,000 and AR 10,000); the chrF
view's analyses and next segment; then the Explain page: editing the candidate until the headline shows the new
numbers. Each is timed from the click (or the edit) to the answer on screen and to the click's work over: every
script run it caused finished (the server's ``script_finished`` messages) and drawn (the browser's last long task
after the last message) — not the status widget alone, which shows only after a delay, so a tokenizer change
computing a new report looked idle at once. Also the CPU time of the server process and of the browser for each
click, and what the click's runs sent the browser, counted from the websocket (the same on a busy machine): runs of
the whole page and of a fragment, deltas (elements and blocks) by kind and by place, bytes. Targets: every Corpus
click median < 0.5 s and none > 1.5 s; an edit on the Explain page updates the headline < 0.5 s.

Data: ``--wmt DIR`` (or EXPLAINER_WMT22) with WMT22's ``generaltest2022.en-de.*`` files
(github.com/wmt-conference/wmt22-news-systems, ``txt/``): the references A and B, the systems Online-B, OpenNMT
and PROMT, and the source. Not in the repository: without it the benchmark says so and stops (``--generated``
runs it on generated data of the same shape instead).

Needs Debian's Chromium and Playwright (as the browser tests). Usage:
``python bench/bench_clicks.py --wmt DIR [--repeat 3] [--port N]``
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench_corpus_page as cp  # noqa: E402  (the server, idle and CPU helpers)

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, forward_msg  # noqa: E402

SYSTEMS = ("Online-B", "OpenNMT", "PROMT")
TARGET_MEDIAN_S = 0.5
TARGET_MAX_S = 1.5
TARGET_EDIT_S = 0.5


def _find(d: Path, name: str) -> Path:
    """A WMT22 file in ``d`` or in its ``references/``, ``system-outputs/``, ``sources/`` (the repository's
    ``txt/`` layout)."""
    for sub in ("", "references", "system-outputs", "sources"):
        if (d / sub / name).exists():
            return d / sub / name
    return d / name


def wmt_files(d: Path) -> tuple[list[Path], list[Path], Path | None]:
    syss = [_find(d, f"generaltest2022.en-de.hyp.{n}.de") for n in SYSTEMS]
    refs = [_find(d, f"generaltest2022.en-de.ref.{k}.de") for k in "AB"]
    src = _find(d, "generaltest2022.en-de.src.en")
    missing = [p for p in syss + refs if not p.exists()]
    if missing:
        raise SystemExit(f"WMT22 files missing in {d}: {', '.join(p.name for p in missing)}")
    return syss, refs, src if src.exists() else None


def generated_files(tmp: Path) -> tuple[list[Path], list[Path], Path | None]:
    from tests.corpus_data import make_testset, write_files

    refs, systems = make_testset(2037, 2, 3, seed=2037)
    ref_paths, sys_paths = write_files(tmp, refs, systems)
    return [x for _, x in sys_paths], list(ref_paths), None


def _cpu_of(pid: int) -> float:
    try:
        parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def browser_cpu() -> float:
    """CPU seconds of this process's descendants other than the server: Playwright's driver and Chromium (its
    renderer draws what the server sends; on a busy 2-core machine the two compete)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d.name))
    total, todo = 0.0, list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        if pid == cp.SERVER_PID:
            continue
        total += _cpu_of(pid)
        todo += children.get(pid, [])
    return total


class SentCount:
    """What the server sent the browser, counted from its messages (the same whatever the machine's load): full
    runs and fragment runs finished, deltas (elements and blocks drawn), their bytes, and the bytes per kind of
    element."""

    def __init__(self) -> None:
        self.full = self.fragment = self.deltas = self.bytes = 0
        self.kinds: dict[str, list[int]] = {}
        self.places: dict[str, list[int]] = {}     # by the delta's place: sidebar, or the main area's block

    def add(self, msg, size: int) -> None:
        kind = msg.WhichOneof("type")
        if kind == "script_finished":
            from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

            if msg.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
                self.fragment += 1
            elif msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                self.full += 1
        elif kind == "delta":
            self.deltas += 1
            self.bytes += size
            d = msg.delta
            what = d.WhichOneof("type")
            name = d.new_element.WhichOneof("type") if what == "new_element" else what
            for table, key in ((self.kinds, name or "?"), (self.places, self.place(msg.metadata.delta_path))):
                k = table.setdefault(key, [0, 0])
                k[0] += 1
                k[1] += size

    @staticmethod
    def place(path) -> str:
        path = list(path)
        if not path:
            return "?"
        return "sidebar" if path[0] == 1 else f"main {path[1] if len(path) > 1 else ''}"

    def snapshot(self) -> tuple:
        return (self.full, self.fragment, self.deltas, self.bytes, {k: list(v) for k, v in self.kinds.items()},
                {k: list(v) for k, v in self.places.items()})

    def since(self, snap: tuple) -> dict:
        full, frag, deltas, size, kinds, places = snap

        def diff(now, then):
            out = {k: (v[0] - then.get(k, [0, 0])[0], v[1] - then.get(k, [0, 0])[1]) for k, v in now.items()}
            return {k: v for k, v in out.items() if v[0]}

        return {"full": self.full - full, "fragment": self.fragment - frag, "deltas": self.deltas - deltas,
                "bytes": self.bytes - size, "kinds": diff(self.kinds, kinds), "places": diff(self.places, places)}


class Runs:
    """When a click's work is over: the server's runs finished (its ``script_finished`` messages on the page's
    websocket, none for QUIET_S after) and the browser done drawing them (its last long task, > 50 ms, over).
    The status widget ("Running…") shows only after a delay, so a long run (a new tokenizer's report) looked idle
    at once and the next click landed in it; and it hides before the browser has drawn the last messages."""

    QUIET_S = 0.3       # no message for this long after a run finished: no second run (a st.rerun) follows

    LONG_TASKS = """(() => { window.__longTaskEnds = []; try { new PerformanceObserver(list => { for (const e of
        list.getEntries()) window.__longTaskEnds.push(performance.timeOrigin + e.startTime + e.duration); })
        .observe({entryTypes: ['longtask']}); } catch (e) {} })();"""

    def __init__(self, page) -> None:
        self.finished: list[float] = []     # wall clock (time.time) of each script_finished message
        self.last = 0.0                     # of the last message
        self.sent = SentCount()             # what the server sent (load-independent)

        def got(payload) -> None:
            self.last = time.time()
            msg = forward_msg(payload)
            if msg is None:                 # not a ForwardMsg: not ours
                return
            self.sent.add(msg, len(payload))
            if msg.WhichOneof("type") == "script_finished":
                self.finished.append(self.last)

        page.add_init_script(self.LONG_TASKS)
        page.on("websocket", lambda ws: ws.on("framereceived", got))

    def wait_over(self, page, since: float, timeout: float = 120.0) -> float:
        """Wait until the runs after ``since`` (time.time) are over and drawn; the wall clock when they were."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            page.wait_for_timeout(30)
            if any(t > since for t in self.finished) and time.time() - self.last >= self.QUIET_S:
                cp.idle(page)
                drawn = page.evaluate("(t) => Math.max(0, ...(window.__longTaskEnds || []).filter(e => e > t))",
                                      since * 1000) / 1000
                return max(self.last, drawn)
        raise TimeoutError("no script run finished after the click")


class Clicks:
    """Timed clicks on one page: wall seconds from the click to the answer on screen (``answer``) and to the page
    idle (``res``: the click's runs over and drawn), and the CPU seconds the server and the browser spent on it."""

    def __init__(self, page, runs: Runs | None = None) -> None:
        self.page = page
        self.runs = runs
        self.res: dict[str, list[float]] = {}
        self.answer: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}
        self.bcpu: dict[str, list[float]] = {}
        self.lost: dict[str, int] = {}
        self.sent: dict[str, list[dict]] = {}

    def time(self, name: str, action, until=lambda: None) -> float:
        c0, b0 = cp.server_cpu(), browser_cpu()
        snap = self.runs.sent.snapshot() if self.runs is not None else None
        e0 = time.time()
        t0 = time.perf_counter()
        action()
        try:
            until()
        except Exception as e:  # noqa: BLE001 - Playwright's TimeoutError: the answer never came; say so, go on
            self.lost[name] = self.lost.get(name, 0) + 1
            print(f"  {name}: NO ANSWER after {time.perf_counter() - t0:.0f} s ({type(e).__name__})", flush=True)
        self.answer.setdefault(name, []).append(time.perf_counter() - t0)
        if self.runs is not None:
            wall = max(self.runs.wait_over(self.page, e0) - e0, self.answer[name][-1])
        else:
            cp.idle(self.page)
            wall = time.perf_counter() - t0
        self.res.setdefault(name, []).append(wall)
        self.cpu.setdefault(name, []).append(cp.server_cpu() - c0)
        self.bcpu.setdefault(name, []).append(browser_cpu() - b0)
        if snap is not None:
            self.sent.setdefault(name, []).append(self.runs.sent.since(snap))
        return wall

    def report(self, target_median: float, target_max: float, *, on_answer: bool = False) -> list[str]:
        """One line per kind of click; the target is checked on the time to the page idle (``on_answer``: to the
        answer on screen)."""
        fails = []
        med = statistics.median
        for k, v in self.res.items():
            a = self.answer[k]
            w = a if on_answer else v
            ok = med(w) < target_median and max(w) <= target_max and not self.lost.get(k)
            lost = f", {self.lost[k]} with no answer" if self.lost.get(k) else ""
            print(f"  {k:<40} idle: median {med(v) * 1000:6.0f} ms, max {max(v) * 1000:6.0f} ms; answer: median "
                  f"{med(a) * 1000:6.0f} ms (of {len(v)}{lost}); CPU median: server {med(self.cpu[k]) * 1000:4.0f} "
                  f"ms, browser {med(self.bcpu[k]) * 1000:5.0f} ms  {'OK' if ok else 'MISSED'}", flush=True)
            if not ok:
                fails.append(k)
        for k, v in self.sent.items():
            last = v[-1]
            top = sorted(last["kinds"].items(), key=lambda kv: -kv[1][1])[:4]
            print(f"  {k:<40} sent: {last['full']} full run(s), {last['fragment']} fragment run(s), "
                  f"{last['deltas']} deltas, {last['bytes'] / 1000:.0f} kB ("
                  + ", ".join(f"{n} {c} × {b / 1000:.0f} kB" for n, (c, b) in top) + ")", flush=True)
            print(f"  {'':<40} by place: " + ", ".join(f"{n}: {c}" for n, (c, b) in last["places"].items()),
                  flush=True)
        return fails


def load_corpus(page, url: str, syss, refs, src) -> float:
    page.goto(url + "/corpus")
    page.wait_for_selector(".st-key-cp_source")
    cp.idle(page)
    page.locator(".st-key-cp_source").get_by_text("Upload files").click()
    cp.idle(page)
    page.locator(".st-key-cp_up_sys input[type=file]").set_input_files([str(x) for x in syss])
    page.locator(".st-key-cp_up_ref input[type=file]").set_input_files([str(x) for x in refs])
    if src is not None:
        page.locator(".st-key-cp_up_src input[type=file]").set_input_files(str(src))
    cp.idle(page)
    time.sleep(1)
    t0 = time.perf_counter()
    page.get_by_role("button", name="Use these files").click()
    page.wait_for_selector(".st-key-cp_headline [data-testid='stMetric']", timeout=300_000)
    cp.idle(page, timeout=300)
    return time.perf_counter() - t0


def analysis_options(page) -> list[str]:
    return [b.inner_text().strip() for b in page.locator(".st-key-cp_differ_view button").all()]


# the line above a test's result ("Paired bootstrap, 1,000 resamples, seed …, computed in 0.41 s."): a new result
# has a new line (the time differs), an earlier result still on screen is not the answer
RESULT_LINE = """() => { const p = Array.from(document.querySelectorAll('[data-testid="stMarkdownContainer"] p'))
                        .find(e => / computed in [0-9.]+ s/.test(e.textContent)); return p ? p.textContent : ''; }"""
SEG_INPUT = "document.querySelector('.st-key-cp_seg_input input')"   # absent for a moment while a fragment reruns


def corpus_clicks(page, repeat: int, runs: Runs) -> Clicks:
    c = Clicks(page, runs)
    views = analysis_options(page)
    print(f"  analyses: {', '.join(views)}")
    for title in ("Corpus BLEU worked out", "Corpus BLEU ≠ mean of sentence BLEUs"):
        for _ in range(repeat):      # open, close, open …: each drawn only while open
            c.time(f"open or close a section: {title}", lambda title=title: page.locator(
                '[data-testid="stExpander"] summary').filter(has_text=title).first.click())
    toks = ["intl", "13a", "char", "13a"]
    smooths = ["floor", "add-k", "exp"]
    for k in range(repeat):
        for v in views[1:] + views[:1]:
            c.time(f"analysis: {v}", lambda v=v: page.locator(".st-key-cp_differ_view").get_by_text(v, exact=True)
                   .click())
        # open a segment: a "largest gains" button of the Largest deltas analysis
        page.locator(".st-key-cp_differ_view").get_by_text("Largest deltas", exact=True).click()
        cp.idle(page)
        btns = page.locator("button", has_text="segment ").filter(has_text="→")
        btn = btns.nth(k % max(1, btns.count()))
        seg = int(btn.inner_text().split(":")[0].split()[-1])
        c.time("open a segment (largest gains button)", btn.click,
               lambda seg=seg: page.wait_for_function(f"() => {SEG_INPUT} && {SEG_INPUT}.value == '{seg}'"))
        cur = int(page.locator(".st-key-cp_seg_input input").input_value())
        c.time("next segment", lambda: page.get_by_role("button", name="next →").click(),
               lambda cur=cur: page.wait_for_function(f"() => {SEG_INPUT} && {SEG_INPUT}.value != '{cur}'"))
        target = 100 + 37 * k

        def jump(target=target):
            inp = page.locator(".st-key-cp_seg_input input")
            inp.fill(str(target))
            inp.press("Enter")

        c.time("segment by number", jump, lambda target=target: page.get_by_text(
            f"Segment {target}: sentence score").first.wait_for())
        tok = toks[k % len(toks)]

        def pick_tok(tok=tok):
            page.locator('[class*="st-key-bleu_opt"][class*="tokenize"]').click()
            page.get_by_role("option", name=tok, exact=True).click()

        # the answer: the signature under the scores names the new tokenizer (the old scores stay on screen while
        # the new report is computed)
        c.time("change the tokenizer", pick_tok, lambda tok=tok: page.get_by_text(f"|tok:{tok}|").first.wait_for())
        smooth = smooths[k % len(smooths)]

        def pick_smooth(smooth=smooth):
            page.locator('[class*="st-key-bleu_opt"][class*="smooth_method"]').click()
            page.get_by_role("option", name=smooth, exact=True).click()

        # not one of the clicks: an option applied after counting (the statistics are kept)
        c.time("change the smoothing", pick_smooth,
               lambda smooth=smooth: page.get_by_text(f"|smooth:{smooth}").first.wait_for())   # floor[0.10]
    for test, label, n in (("bs", "paired bootstrap", "1,000"), ("ar", "approximate randomization", "10,000")):
        for _ in range(max(1, repeat // 2)):
            page.locator(".st-key-cp_test").get_by_text(label).click()
            cp.idle(page)
            before = page.evaluate(RESULT_LINE)
            c.time(f"run a paired test ({test} {n})", lambda: page.get_by_role("button", name="Run the test").click(),
                   lambda before=before: page.wait_for_function(f"(b) => {{ const t = ({RESULT_LINE})(); return t "
                                                                f"&& t !== b; }}", arg=before, timeout=60_000))
    return c


CHRF_VIEWS = ("Largest deltas", "Segment scores", "N-grams", "Sentence buckets", "Length buckets")


def chrf_clicks(page, repeat: int, runs: Runs) -> tuple[Clicks, float]:
    """The same page looking at chrF (metric "chrF"): each analysis, the next segment. (The clicks, the seconds
    the switch to chrF took: its report is computed then.)"""
    c = Clicks(page, runs)
    t0 = time.perf_counter()
    e0 = time.time()
    page.locator(".st-key-cp_metric").get_by_text("chrF", exact=True).click()
    page.locator(".st-key-cp_differ_view").filter(has_text="N-grams").wait_for(timeout=300_000)
    cp.idle(page, timeout=300)
    runs.wait_over(page, e0, timeout=300)    # the switch's runs over: the first click's count is its own
    switch = time.perf_counter() - t0
    for _ in range(repeat):
        for v in CHRF_VIEWS:
            c.time(f"chrF analysis: {v}", lambda v=v: page.locator(".st-key-cp_differ_view").get_by_text(v, exact=True)
                   .click())
        cur = page.locator(".st-key-cp_seg_input input").input_value()
        c.time("chrF next segment", lambda: page.get_by_role("button", name="next →").click(),
               lambda cur=cur: page.wait_for_function(f"() => {SEG_INPUT} && {SEG_INPUT}.value != '{cur}'"))
    return c, switch


def explain_edits(page, url: str, repeat: int) -> Clicks:
    """Edit the candidate on the Explain page: from the edit (Ctrl+Enter) to the new BLEU on screen."""
    from urllib.parse import urlencode

    c = Clicks(page)
    cand = "The cat sat on the mat near the door of the old house."
    refs = ["A cat was sitting on the mat by the door of the old house.", "The cat sat on a mat at the house door."]
    page.goto(url + "/?" + urlencode([("candidate", cand)] + [("ref", r) for r in refs]))
    page.wait_for_selector('[data-testid="stMetricValue"]')
    cp.idle(page)
    time.sleep(1.5)
    cp.idle(page)
    words = cand.split()
    values = """() => Array.from(document.querySelectorAll('[data-testid="stMetricValue"]'))
                      .map(v => v.textContent.trim()).join(' ')"""
    for k in range(repeat * 3):
        before = page.evaluate(values)
        text = " ".join(words[: len(words) - 1 - k % 6])     # a word fewer each time: every number changes
        box = page.locator(".st-key-candidate textarea")

        def edit(box=box, text=text):
            box.fill(text)
            box.press("Control+Enter")

        c.time("edit the candidate: new headline", edit, lambda before=before: page.wait_for_function(
            f"(b) => ({values})() !== b", arg=before))
    return c


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--wmt", default=os.environ.get("EXPLAINER_WMT22"), help="directory of WMT22's txt/ files")
    ap.add_argument("--generated", action="store_true", help="generated data of the same shape instead of WMT22")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--root", help="run the server of another checkout (e.g. an older commit), for a paired figure")
    ap.add_argument("--no-explain", action="store_true", help="the Corpus page only")
    a = ap.parse_args()
    if not a.wmt and not a.generated:
        print("SKIPPED: no WMT22 files. Give --wmt DIR (or EXPLAINER_WMT22) with generaltest2022.en-de.* from "
              "github.com/wmt-conference/wmt22-news-systems (txt/), or --generated for data of the same shape.")
        return 0
    if not Path(CHROMIUM).exists():
        print(f"SKIPPED: no Chromium at {CHROMIUM}")
        return 0
    from playwright.sync_api import sync_playwright

    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared)")
    if a.port:
        cp.free_port = lambda: a.port
    if a.root:
        cp.ROOT = Path(a.root).resolve()
        print(f"server: {cp.ROOT}")
    proc, url = cp.start_server()
    cp.SERVER_PID = proc.pid
    fails: list[str] = []
    try:
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
            syss, refs, src = wmt_files(Path(a.wmt)) if a.wmt else generated_files(Path(tmp))
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = b.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(120_000)
            runs = Runs(page)
            t = load_corpus(page, url, syss, refs, src)
            what = "WMT22 en-de" if a.wmt else "generated"
            print(f"\n[Corpus page, {what}: {len(syss)} systems x 2,037 segments x {len(refs)} references"
                  f"{' + source' if src else ''}] loaded in {t:.1f} s")
            c = corpus_clicks(page, a.repeat, runs)
            fails += c.report(TARGET_MEDIAN_S, TARGET_MAX_S)
            c, switch = chrf_clicks(page, a.repeat, runs)
            print(f"\n[the same page with chrF] its report computed and drawn in {switch:.1f} s")
            fails += c.report(TARGET_MEDIAN_S, TARGET_MAX_S)
            if not a.no_explain:
                print("\n[Explain page]")
                e = explain_edits(page, url, a.repeat)
                fails += e.report(TARGET_EDIT_S, float("inf"), on_answer=True)
            b.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except Exception:  # noqa: BLE001
            proc.kill()
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    print("PASS" if not fails else f"MISSED: {', '.join(fails)}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
