"""The Corpus page's first view of a large upload, in CPU seconds and where they go (issue 19: "20,000 segments
take ~1 min on the page").

Uploads S segments x 3 systems x 2 references (the WMT-shaped generated set of bench_corpus_wmt.py repeated, or
WMT22's files with ``--wmt DIR``) into the page run by Streamlit's AppTest, clicks "Use these files" and reports
the wall time, the CPU time of the page's thread and the CPU time of the page's functions (each function of the
Corpus page modules and of ``explainer.corpus.report`` is wrapped with a thread-CPU timer; nested functions count
in their callers too). In the same run, sacreBLEU's ``BLEU().corpus_score`` of the 3 systems on the same lines
(CPU), for the ratio. CPU seconds are what a busy machine does not inflate; the wall time is printed beside them.

Usage: ``python bench/bench_corpus_first_view.py [--segments S] [--wmt DIR]``
"""
from __future__ import annotations

import argparse
import collections
import functools
import importlib
import inspect
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MODULES = ("explainer.ui.corpus.page", "explainer.ui.corpus.reports", "explainer.ui.corpus.charts",
           "explainer.ui.corpus.testset", "explainer.corpus.report")


def instrument(cpu: collections.Counter, calls: collections.Counter) -> None:
    for modname in MODULES:
        m = importlib.import_module(modname)
        short = modname.rsplit(".", 1)[-1]
        for name, f in list(vars(m).items()):
            if not (inspect.isfunction(f) and f.__module__ == modname):
                continue

            def timed(*a, _f=f, _key=f"{short}.{name}", **k):
                t = time.thread_time()
                try:
                    return _f(*a, **k)
                finally:
                    cpu[_key] += time.thread_time() - t
                    calls[_key] += 1

            setattr(m, name, functools.wraps(f)(timed))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--segments", type=int, default=20000)
    ap.add_argument("--wmt", default=None)
    args = ap.parse_args()
    os.chdir(ROOT)
    from bench.bench_corpus_wmt import load, repeat_to

    syss, refs, label = load(args.wmt)
    syss, refs = repeat_to(syss, args.segments), repeat_to(refs, args.segments)
    cpu: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    instrument(cpu, calls)
    from tests.test_ui_corpus import new_page, ok

    at = new_page()
    at.radio(key="cp_source").set_value("Upload files").run()
    at.file_uploader(key="cp_up_sys").set_value([(n, b, "text/plain") for n, b in syss])
    at.file_uploader(key="cp_up_ref").set_value([(n, b, "text/plain") for n, b in refs])
    at.run()
    cpu.clear()
    calls.clear()
    at.default_timeout = 1800
    w0 = time.perf_counter()
    at.button(key="cp_load_up").click().run()
    ok(at)
    wall = time.perf_counter() - w0
    page_cpu = cpu.get("page.render", 0.0)
    print(f"{label}: {args.segments:,} segments x {len(syss)} systems x {len(refs)} references")
    print(f"click 'Use these files' -> first view drawn: {wall:.1f} s wall, {page_cpu:.2f} s CPU of the page")
    for k, v in cpu.most_common(12):
        print(f"  {v:7.2f} s CPU  {calls[k]:4d}x  {k}")
    from sacrebleu.metrics import BLEU

    streams = [d.decode("utf-8").splitlines() for _, d in refs]
    t0 = time.process_time()
    for _, d in syss:
        BLEU().corpus_score(d.decode("utf-8").splitlines(), streams)
    t_sacre = time.process_time() - t0
    print(f"sacreBLEU BLEU().corpus_score of the {len(syss)} systems: {t_sacre:.2f} s CPU "
          f"(page's first view / sacreBLEU: {page_cpu / t_sacre:.2f}x)")


if __name__ == "__main__":
    main()
