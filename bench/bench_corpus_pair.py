"""A whole WMT language pair on the Corpus page and in ``compare`` (issues 29 item 5 and 33 item 2).

1. The matrix of every pair (``significance.pair_matrix``, the page's "Run the test on every pair") of the WMT22
   en-zh systems (``--wmt DIR``: generaltest2022.en-zh.*, 2,037 segments x 2 references, zh tokenizer; else
   generated data of that shape): AR 10,000 trials and bootstrap 1,000 resamples, BLEU, with ``--systems K``
   systems (default 10: the 45 pairs of issue 33), one pass over the draws against a test per baseline (what the
   page ran before), and the first cells checked equal to ``paired_test`` with that baseline.
2. 20 systems x 20,000 segments x 4 references (generated): the reports of BLEU, chrF and TER as the page
   computes them (``family_report`` through the corpus parts), each time and the peak RSS of the process, then
   the AR matrix of every pair (190) and its clusters.

Usage: ``python bench/bench_corpus_pair.py [--wmt DIR] [--systems K] [--big] [--test ar|bs]``
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def rss_mb() -> float:
    """The process's peak resident memory so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_now_mb() -> float:
    """The process's resident memory now."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def en_zh(wmt: str | None, k: int):
    from explainer.corpus.testset import build_testset

    if wmt:
        d = Path(wmt)
        outs = (d / "system-outputs").glob("generaltest2022.en-zh.hyp.*")
        names = sorted(p.name.split(".hyp.")[1][:-3] for p in outs)
        names = [n for n in names if n != "refA"][:k]
        read = lambda p: p.read_text(encoding="utf-8").rstrip("\n").split("\n")  # noqa: E731
        refs = [read(d / "references" / f"generaltest2022.en-zh.ref.{r}.zh") for r in "AB"]
        systems = [(n, read(d / "system-outputs" / f"generaltest2022.en-zh.hyp.{n}.zh")) for n in names]
        return build_testset(systems, [(f"ref.{r}", x) for r, x in zip("AB", refs)]), "WMT22 en-zh"
    from tests.corpus_data import make_testset

    refs, systems = make_testset(2037, 2, k, lang="zh", seed=22)
    return build_testset(systems, [(f"ref.{r}", x) for r, x in zip("AB", refs)]), "generated en-zh shape"


def matrix(ts, label: str, test: str) -> None:
    from explainer.corpus.significance import _matrix_by_baseline, pair_matrix
    from explainer.families import FAMILIES

    fam = FAMILIES["bleu"]
    d = fam.bind("sacrebleu", tokenize="zh")
    t0 = time.perf_counter()
    scores = fam.corpus_systems(d, [lines for _, lines in ts.systems], ts.references)
    named = [(n, s.measures["score"].statistic) for (n, _), s in zip(ts.systems, scores)]
    print(f"{label}: {len(named)} systems x {ts.n_segments:,} segments, statistics in "
          f"{time.perf_counter() - t0:.1f} s", flush=True)
    n = 10_000 if test == "ar" else 1_000
    t0 = time.perf_counter()
    c0 = time.process_time()
    p = _matrix_by_baseline(named, test, n, None, True, lambda f: None, None)
    per, per_cpu = time.perf_counter() - t0, time.process_time() - c0
    t0 = time.perf_counter()
    c0 = time.process_time()
    m = pair_matrix(named, test=test, n_samples=n)
    one, one_cpu = time.perf_counter() - t0, time.process_time() - c0
    assert p == m.p, "the one-pass matrix differs from a test per baseline"
    K = len(named)
    print(f"  {test} {n:,}: {K * (K - 1) // 2} pairs in {one:.1f} s wall / {one_cpu:.1f} s CPU (one pass), "
          f"{per:.1f} s / {per_cpu:.1f} s CPU (a test per baseline, before); cells equal; clusters {m.clusters}",
          flush=True)


def big(test: str) -> None:
    from explainer.corpus.family_report import family_report
    from explainer.corpus.significance import pair_matrix
    from explainer.corpus.testset import build_testset
    from explainer.families import FAMILIES
    from tests.corpus_data import make_testset

    t0 = time.perf_counter()
    refs, systems = make_testset(20_000, 4, 20, seed=20)
    ts = build_testset(systems, [(f"ref{k}", r) for k, r in enumerate(refs)])
    chars = ts.n_chars()
    print(f"20 systems x 20,000 segments x 4 references: {chars:,} characters, made in "
          f"{time.perf_counter() - t0:.1f} s, RSS {rss_mb():.0f} MB")
    reports = {}
    import gc

    for name in ("bleu", "chrf", "ter"):
        fam = FAMILIES[name]
        gc.collect()
        before = rss_now_mb()
        t0 = time.perf_counter()
        c0 = time.process_time()
        reports[name] = family_report(ts, fam, fam.bind())
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        gc.collect()
        print(f"  {fam.label}: every system scored in {wall:.1f} s ({cpu:.1f} s CPU), the report keeps about "
              f"{rss_now_mb() - before:.0f} MB, process peak RSS {rss_mb():.0f} MB", flush=True)
    named = [(n, s.measures["score"].statistic) for n, s in zip(ts.names, reports["bleu"].scores)]
    n = 10_000 if test == "ar" else 1_000
    t0 = time.perf_counter()
    m = pair_matrix(named, test=test, n_samples=n)
    print(f"  BLEU {test} {n:,}: {len(named) * (len(named) - 1) // 2} pairs in {time.perf_counter() - t0:.1f} s, "
          f"{len(m.clusters)} clusters, peak RSS {rss_mb():.0f} MB", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wmt", default=None, help="WMT22's txt/ folder (references/, system-outputs/)")
    ap.add_argument("--systems", type=int, default=10)
    ap.add_argument("--test", choices=["ar", "bs"], default="ar")
    ap.add_argument("--big", action="store_true", help="also 20 systems x 20,000 segments x 4 references")
    a = ap.parse_args()
    ts, label = en_zh(a.wmt, a.systems)
    matrix(ts, label, a.test)
    if a.big:
        big(a.test)


if __name__ == "__main__":
    main()
