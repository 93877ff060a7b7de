"""A class in real browsers: thirty Chromium pages opening Explain links at the same moment, and the server's CPU
per ordinary view of each of the five pages (issue 34, item 7).

Starts the app as `make run` does (``streamlit run serve.py``; an older checkout without ``serve.py``:
``streamlit run app.py``) headless on a free localhost port, without a file watcher, then drives Debian's Chromium
through Playwright: one browser, a fresh context (empty cache, as a student's first visit) per page.

* **A class** (``--class N``, default 30): N pages opened at once on ordinary Explain links (a candidate and two
  references of 8-30 words from the bundled English news sample), in two modes: a different link per student, and
  the same link for all (the teacher's). Per page: when the headline numbers (the six metrics of
  ``.st-key-xp_headline``) are on screen, measured inside the page from the moment the class started; each page's
  five BLEU / ROUGE numbers are checked against sacreBLEU and rouge-score for its own texts. Then the server CPU of
  the whole class (navigation to idle: every page's second run done) divided by N, and the browser's CPU
  (Chromium and Playwright's driver, on the same cores).
* **Per page** (``--views K``, default 5): each of the five pages (Explain and Dialects on ordinary links, the
  Gaming lab, a Teach lesson step, the Corpus page with its bundled sample) opened K times, one at a time, each in
  a fresh context after a warm-up view of every page; the server CPU of each view from navigation until the page
  is idle and the server quiet.

Targets: every headline of the class within 3 s; server CPU per ordinary view <= 0.2 s on every page.

Options: ``--root DIR`` (serve another checkout, e.g. ``git archive`` of an older commit, for a before / after
figure), ``--entry FILE`` (the script to ``streamlit run``), ``--plain-server`` (hide uvloop and httptools from
the server: Streamlit's own asyncio loop and uvicorn's pure-Python HTTP parser, as without
requirements.txt's server packages), ``--processes N`` (N server processes behind nginx, scripts/serve_class.py;
the CPU is theirs and nginx's), ``--rounds R``, ``--skip-class``, ``--skip-pages``, ``--json FILE``.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_first_view import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    expected_headline,
    free_port,
    ordinary_links,
    query,
)

TARGET_HEADLINE_S = 3.0
TARGET_VIEW_CPU_S = 0.2
TIMEOUT_S = 180.0
HEADLINE = ("BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-Lsum", "chrF")
QUIET_CPU_S = 0.015     # the server is idle when it spends less than this in QUIET_WINDOW_S
QUIET_WINDOW_S = 1.0

# Installed before any page script: when the headline's six numbers are on screen (ms since this page's navigation
# and the wall clock), and what they read.
HEADLINE_OBSERVER = """
(() => {
  const labels = %s;
  const check = () => {
    if (window.__headline) return;
    const got = {};
    for (const m of document.querySelectorAll('.st-key-xp_headline [data-testid="stMetric"]')) {
      const l = m.querySelector('[data-testid="stMetricLabel"]');
      const v = m.querySelector('[data-testid="stMetricValue"]');
      if (l && v && v.textContent.trim()) got[l.textContent.trim()] = v.textContent.trim();
    }
    if (labels.every(x => x in got)) window.__headline = {t: performance.now(), epoch: Date.now(), values: got};
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, characterData: true});
})();
""" % json.dumps(list(HEADLINE))

# The page is idle: rendered, no script run in progress, no element still loading its code, the Explain page's
# first view complete (explainer/ui/explain/first_view.py).
IDLE_JS = """() => {
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  return !!document.querySelector('[data-testid="stMainBlockContainer"]')
    && !(status && status.offsetParent !== null)
    && !document.querySelector('[data-testid="stSkeleton"]')
    && !document.querySelector('.st-key-first_view_pending');
}"""
EXPLAIN_DONE_JS = "() => (%s)() && !!document.querySelector('[data-testid=\"stDownloadButton\"]')" % IDLE_JS

# Stand-ins that hide uvloop and httptools from the server (--plain-server): both are optional for Streamlit and
# uvicorn, which then use asyncio's own loop and the pure-Python h11 parser.
_HIDE = "raise ImportError('hidden by bench_class_browser --plain-server')\n"


# ------------------------------------------------------------------------------------------------ server
class AppServer:
    """``streamlit run <entry>`` of a checkout, headless, on a free localhost port, without a file watcher."""

    def __init__(self, root: Path, entry: str | None = None, plain: bool = False) -> None:
        self.root = root
        self.entry = entry or ("serve.py" if (root / "serve.py").exists() else "app.py")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._tmp = tempfile.TemporaryDirectory()
        env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
        if plain:
            for name in ("uvloop", "httptools"):
                Path(self._tmp.name, name + ".py").write_text(_HIDE)
            env["PYTHONPATH"] = self._tmp.name + os.pathsep + env.get("PYTHONPATH", "")
        self.log = tempfile.TemporaryFile()
        streamlit = Path(sys.executable).with_name("streamlit")
        self.proc = subprocess.Popen(
            [str(streamlit), "run", str(root / self.entry), "--server.headless", "true", "--server.port",
             str(self.port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none", "--server.runOnSave", "false"],
            cwd=root, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.time() + 90
        while time.time() < deadline and self.proc.poll() is None:
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        self.stop()
        self.log.seek(0)
        raise RuntimeError("streamlit did not start:\n" + self.log.read().decode(errors="replace")[-2000:])

    def cpu(self) -> float:
        return process_cpu(self.proc.pid)

    async def quiet(self, timeout: float = 60.0) -> None:
        """Wait until the server spends less than QUIET_CPU_S of CPU in QUIET_WINDOW_S."""
        deadline = time.time() + timeout
        samples = [(time.time(), self.cpu())]
        while time.time() < deadline:
            await asyncio.sleep(0.1)
            samples.append((time.time(), self.cpu()))
            old = [s for s in samples if samples[-1][0] - s[0] >= QUIET_WINDOW_S]
            if old and samples[-1][1] - old[-1][1] < QUIET_CPU_S:
                return

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self._tmp.cleanup()


class ClusterServer(AppServer):
    """``--processes N``: N Streamlit processes behind nginx (scripts/serve_class.py); the CPU is theirs and
    nginx's together."""

    def __init__(self, root: Path, entry: str | None, plain: bool, processes: int) -> None:
        sys.path.insert(0, str(ROOT / "scripts"))
        from serve_class import Cluster

        self.root = root
        self.entry = entry or ("serve.py" if (root / "serve.py").exists() else "app.py")
        self._tmp = tempfile.TemporaryDirectory()
        env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
        if plain:
            for name in ("uvloop", "httptools"):
                Path(self._tmp.name, name + ".py").write_text(_HIDE)
            env["PYTHONPATH"] = self._tmp.name + os.pathsep + env.get("PYTHONPATH", "")
        self.cluster = Cluster(processes, free_port(), entry=self.entry, root=root, env=env)
        self.url, self.port = self.cluster.url, self.cluster.port

    def cpu(self) -> float:
        pids = self.cluster.pids()
        pids += descendants(self.cluster.front.pid)   # nginx's worker
        return sum(process_cpu(p) for p in pids)

    def stop(self) -> None:
        self.cluster.stop()
        self._tmp.cleanup()


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process (all its threads) from /proc/<pid>/stat."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (Playwright's driver and the Chromium it started)."""
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def browser_cpu() -> float:
    return sum(process_cpu(p) for p in descendants(os.getpid()))


# ----------------------------------------------------------------------------------------------- a class
async def class_round(browser, server: AppServer, links: list[tuple[str, list[str]]]) -> dict:
    """len(links) fresh contexts opened at the same moment, each on its link. Returns the headline times (s from
    the class's start), wrong or missing numbers, and the server's and the browser's CPU for the whole class."""
    contexts = [await browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in links]
    pages = []
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT_S * 1000)
        pg = await ctx.new_page()
        await pg.add_init_script(HEADLINE_OBSERVER)
        pages.append(pg)
    await server.quiet()
    c0, b0 = server.cpu(), browser_cpu()
    t0 = time.time()
    await asyncio.gather(*(pg.goto(server.url + "/?" + query(c, r), wait_until="commit")
                           for pg, (c, r) in zip(pages, links)))
    heads = await asyncio.gather(*(pg.wait_for_function("window.__headline", polling=50) for pg in pages),
                                 return_exceptions=True)
    await asyncio.gather(*(pg.wait_for_function(EXPLAIN_DONE_JS, polling=200) for pg in pages),
                         return_exceptions=True)
    done = time.time() - t0
    await server.quiet()
    cpu, bcpu = server.cpu() - c0, browser_cpu() - b0
    times, problems = [], []
    for i, (h, (c, r)) in enumerate(zip(heads, links)):
        if isinstance(h, Exception):
            problems.append(f"page {i + 1}: no headline ({type(h).__name__})")
            continue
        h = await h.json_value()
        times.append(h["epoch"] / 1000 - t0)
        want = expected_headline(c, r)
        shown = {k: v for k, v in h["values"].items() if k in want}
        if shown != want:
            problems.append(f"page {i + 1}: shows {shown}, its own numbers are {want}")
    for ctx in contexts:
        await ctx.close()
    return {"headline_s": times, "done_s": done, "server_cpu_s": cpu, "browser_cpu_s": bcpu, "problems": problems}


# ---------------------------------------------------------------------------------------------- per page
def page_urls(server: AppServer, k: int) -> dict[str, str]:
    """An ordinary view of each page (Explain and Dialects: a different ordinary link per view)."""
    cand, refs = ordinary_links(1, seed=1000 + k)[0]
    return {"Explain": server.url + "/?" + query(cand, refs),
            "Gaming lab": server.url + "/gaming_lab",
            "Dialects": server.url + "/dialects?" + query(cand, refs),
            "Teach": server.url + "/teach?example=cat_mat&step=4",
            "Corpus": server.url + "/corpus?sample=news-en"}


async def one_view(browser, server: AppServer, url: str) -> float:
    """Server CPU of one view in a fresh context, from navigation until the page is idle and the server quiet."""
    ctx = await browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.set_default_timeout(TIMEOUT_S * 1000)
    pg = await ctx.new_page()
    await server.quiet()
    c0 = server.cpu()
    await pg.goto(url)
    await pg.wait_for_function(IDLE_JS, polling=100)
    await server.quiet()
    cpu = server.cpu() - c0
    await ctx.close()
    return cpu


async def per_page(browser, server: AppServer, views: int) -> dict[str, list[float]]:
    for url in page_urls(server, -1).values():          # warm-up: the first view of a page pays its imports
        await one_view(browser, server, url)
    out: dict[str, list[float]] = {}
    for k in range(views):
        for name, url in page_urls(server, k).items():
            out.setdefault(name, []).append(await one_view(browser, server, url))
    return out


# -------------------------------------------------------------------------------------------------- main
def fmt(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.2f} s, max {max(xs):.2f} s" if xs else "none"


async def run(args) -> tuple[dict, list[str]]:
    from playwright.async_api import async_playwright

    report: dict = {"load_before": os.getloadavg()[0], "class": [], "pages": {}}
    failures: list[str] = []
    root = Path(args.root).resolve()
    if args.processes:
        server = ClusterServer(root, args.entry, args.plain_server, args.processes)
    else:
        server = AppServer(root, args.entry, args.plain_server)
    report.update(entry=server.entry, processes=args.processes)
    print(f"server: streamlit run {server.entry} ({server.root}){' without uvloop/httptools' * args.plain_server}"
          + (f", {args.processes} processes behind nginx" if args.processes else "")
          + f"; load average {report['load_before']:.2f} on {os.cpu_count()} cores")
    try:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=["--headless"] + CHROMIUM_ARGS)
            try:
                await one_view(browser, server, page_urls(server, -2)["Explain"])   # warm-up
                if not args.skip_class:
                    failures += await _classes(browser, server, args, report)
                if not args.skip_pages:
                    failures += await _pages(browser, server, args, report)
            finally:
                await browser.close()
    finally:
        server.stop()
    report["load_after"] = os.getloadavg()[0]
    return report, failures


async def _classes(browser, server: AppServer, args, report: dict) -> list[str]:
    failures = []
    for k in range(args.rounds):
        for mode in ("different", "same"):
            links = ordinary_links(args.class_size, seed=300 + k)
            if mode == "same":
                links = [links[0]] * args.class_size
            r = await class_round(browser, server, links)
            n = args.class_size
            r.update(mode=mode, round=k + 1, load=os.getloadavg()[0])
            report["class"].append(r)
            print(f"\n[{n} Chromium pages at once, {'a different link each' if mode == 'different' else 'one link'}"
                  f", round {k + 1}] load {r['load']:.1f}")
            print(f"  headline on screen (from the class's start): {fmt(r['headline_s'])} "
                  f"({len(r['headline_s'])}/{n} correct pages: {n - len(r['problems'])}); "
                  f"target: every one < {TARGET_HEADLINE_S:.0f} s")
            print(f"  whole pages done: {r['done_s']:.2f} s; server CPU {r['server_cpu_s']:.2f} s = "
                  f"{r['server_cpu_s'] / n:.3f} s per view; browser CPU {r['browser_cpu_s']:.1f} s")
            failures += r["problems"][:5]
            if len(r["headline_s"]) < n or max(r["headline_s"]) >= TARGET_HEADLINE_S:
                failures.append(f"class, {mode} links, round {k + 1}: slowest headline "
                                f"{max(r['headline_s'], default=float('nan')):.2f} s")
    return failures


async def _pages(browser, server: AppServer, args, report: dict) -> list[str]:
    failures = []
    res = await per_page(browser, server, args.views)
    print(f"\n[server CPU per ordinary view, one at a time, fresh context each, {args.views} views per page] "
          f"load {os.getloadavg()[0]:.1f}")
    for name, xs in res.items():
        report["pages"][name] = xs
        ok = max(xs) <= TARGET_VIEW_CPU_S
        print(f"  {name:11} median {statistics.median(xs):.3f} s, max {max(xs):.3f} s  "
              f"{'ok' if ok else 'OVER'} (target <= {TARGET_VIEW_CPU_S} s)")
        if statistics.median(xs) > TARGET_VIEW_CPU_S:
            failures.append(f"{name}: server CPU per view median {statistics.median(xs):.3f} s")
    return failures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=str(ROOT), help="the checkout to serve (default: this one)")
    ap.add_argument("--entry", help="the script to `streamlit run` (default: serve.py, else app.py)")
    ap.add_argument("--plain-server", action="store_true", help="hide uvloop and httptools from the server")
    ap.add_argument("--processes", type=int, default=0,
                    help="N Streamlit processes behind nginx (scripts/serve_class.py) instead of one")
    ap.add_argument("--class", dest="class_size", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=1, help="classes per mode")
    ap.add_argument("--views", type=int, default=5, help="views per page in the per-page part")
    ap.add_argument("--skip-class", action="store_true")
    ap.add_argument("--skip-pages", action="store_true")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"no Chromium at {CHROMIUM}: nothing measured")
        return 2
    report, failures = asyncio.run(run(args))
    print(f"\nload average after: {report['load_after']:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    for f in failures[:20]:
        print("FAIL", f)
    print("PASS" if not failures else f"FAIL ({len(failures)} problems)")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
