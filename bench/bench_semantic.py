"""The semantic metrics (issue 30): model load time and memory, one sentence pair, a WMT-sized corpus.

1. Load: ``explainer.semantic.load_model()`` in a fresh interpreter: wall and CPU seconds, and the process's RSS
   before and after (the model's memory: weights, tokenizer, the libraries it imports).
2. One pair after the load: STS and BERTScore of "The feline rested on the rug" / "The cat sat on the mat" with
   the embedding cache emptied each time (both measures: one forward pass of two texts), CPU seconds, median of R.
3. Corpus: 2,037 segments x 2 references, one system (STS and BERTScore in one pass): wall and CPU seconds, word
   pieces per second; and a second system against the same references in the same call (``score_semantic_systems``
   runs each reference once).

Data: ``--wmt DIR`` (WMT22's released ``txt/`` folder: ``--pair en-de`` German, as the Corpus page's sample, or
``de-en`` English); without it, generated English data of the same shape (tests/corpus_data.py).

Usage: ``python bench/bench_semantic.py [--wmt DIR] [--pair en-de] [--repeat R] [--no-corpus] [--one-system]``
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

_LOAD = """
import resource, time, json
import numpy, explainer.semantic as s
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
w, c = time.perf_counter(), time.process_time()
m = s.load_model()
w, c = time.perf_counter() - w, time.process_time() - c
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
import gc, os
gc.collect()
now = int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20
print(json.dumps({"wall": w, "cpu": c, "rss_before_mb": before / 1024, "rss_peak_mb": peak / 1024,
                  "rss_after_mb": now, "weights_mb": m.encoder.nbytes / 1e6}))
"""


def bench_load() -> dict:
    p = subprocess.run([sys.executable, "-c", _LOAD], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


def bench_pair(repeat: int) -> dict:
    import explainer.semantic as s
    from explainer.semantic import embed

    s.load_model()
    cpu, wall = [], []
    for _ in range(repeat):
        embed.clear_cache()
        w, c = time.perf_counter(), time.process_time()
        s.explain_semantic("The feline rested on the rug", ["The cat sat on the mat"], dialect="sts")
        s.explain_semantic("The feline rested on the rug", ["The cat sat on the mat"], dialect="bertscore")
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return {"cpu_median": statistics.median(cpu), "wall_median": statistics.median(wall)}


def load_corpus(wmt: str | None, pair: str):
    if wmt:
        d = Path(wmt)
        trg = pair.split("-")[1]

        def lines(p: Path) -> list[str]:
            return p.read_text(encoding="utf-8").split("\n")[:-1]

        refs = [lines(d / "references" / f"generaltest2022.{pair}.ref.{k}.{trg}") for k in "AB"]
        systems = {n: lines(d / "system-outputs" / f"generaltest2022.{pair}.hyp.{n}.{trg}")
                   for n in ("Online-B", "Online-A")}
        return systems, [list(x) for x in zip(*refs)], f"WMT22 {pair}"
    from tests.corpus_data import make_testset

    r, syss = make_testset(2037, 2, 2, seed=2037)
    return {n: lines for n, lines in syss}, [list(x) for x in zip(*r)], "generated, WMT-shaped (English)"


def bench_corpus(systems: dict, refs: list, what: str, one_only: bool) -> None:
    import explainer.semantic as s

    s.load_model()
    first = next(iter(systems))
    n_pieces = sum(n + 2 for n in s.load_model().tokenizer.count_pieces(
        list(systems[first]) + [r for rs in refs for r in rs]))
    runs = (("one system", {first: systems[first]}),) + ((("two systems", systems),) if not one_only else ())
    for label, syss in runs:
        w, c = time.perf_counter(), time.process_time()
        res = s.score_semantic_systems(syss, refs)
        wall, cpu = time.perf_counter() - w, time.process_time() - c
        print(f"corpus {what}, {len(refs):,} segments x 2 references, {label}: {wall:.1f} s wall, {cpu:.1f} s CPU; "
              f"STS {res[first]['sts'].score:.4f}, BERTScore F {res[first]['bertscore'].score:.4f}", flush=True)
        if label == "one system":
            print(f"  {n_pieces:,} word pieces for one system: {n_pieces / wall:,.0f} pieces/s (wall), "
                  f"{n_pieces / cpu:,.0f} per CPU second", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wmt", help="WMT22's txt/ folder")
    ap.add_argument("--pair", default="en-de", help="en-de (German, default) or de-en (English)")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--no-corpus", action="store_true")
    ap.add_argument("--one-system", action="store_true", help="the corpus for one system only")
    args = ap.parse_args()
    load = bench_load()
    print(f"load: {load['wall']:.2f} s wall, {load['cpu']:.2f} s CPU; RSS {load['rss_before_mb']:.0f} MB before, "
          f"{load['rss_after_mb']:.0f} MB after (+{load['rss_after_mb'] - load['rss_before_mb']:.0f} MB; peak "
          f"{load['rss_peak_mb']:.0f} MB while reading; weights {load['weights_mb']:.0f} MB)", flush=True)
    pair = bench_pair(args.repeat)
    print(f"one pair, STS + BERTScore after the load: {pair['cpu_median']:.3f} s CPU, {pair['wall_median']:.3f} s "
          f"wall (median of {args.repeat})", flush=True)
    if not args.no_corpus:
        systems, refs, what = load_corpus(args.wmt, args.pair)
        bench_corpus(systems, refs, what, args.one_system)
    return 0


if __name__ == "__main__":
    sys.exit(main())
