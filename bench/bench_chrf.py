"""chrF benchmark: one run, median of several repetitions, ratios against sacreBLEU measured in the same run.

* statistics only: ``score_chrf_corpus`` vs ``CHRF(...).corpus_score`` (target <= 1.0x), for chrF and chrF++
* full traces: ``explain_chrf_corpus(full=True)`` - every segment's prepared texts, per order every distinct
  candidate n-gram with its count, its count in each reference and the clipped matches, the per-reference
  statistics and scores, the kept reference and the combination step by step (target <= 2.0x); the corpus
  statistics are taken from the traces
* memory of the full traces (tracemalloc peak)
* the paired bootstrap (1,000 resamples) of two systems: ``paired_test`` vs sacreBLEU's ``PairedTest`` with CHRF

Corpus: 2,037 synthetic segments x 2 references (``bench_bleu.make_corpus``: 8-40 words from a 3,000-word vocabulary
with punctuation, references are perturbations of the candidate). CPU time of this process is the primary figure.

Usage: ``python bench/bench_chrf.py [--segments N] [--repeat R] [--hyp H --ref R1 --ref R2]``

With ``--hyp`` and two ``--ref`` files (one segment a line, e.g. a WMT test set's system output and references) the
corpus is read from them instead of generated; the paired bootstrap then compares the system with the second
reference as before.
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bleu import make_corpus  # noqa: E402
from sacrebleu.metrics import CHRF  # noqa: E402

from explainer.chrf import explain_chrf_corpus, get_dialect, score_chrf_corpus  # noqa: E402


def timed(fn):
    gc.collect()
    c0, w0 = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c0, time.perf_counter() - w0


def bench_scores(hyps, r0, r1, repeat: int) -> dict:
    per_seg = [[x, y] for x, y in zip(r0, r1)]
    out = {}
    for wo in (0, 2):
        ref = CHRF(word_order=wo).corpus_score(hyps, [r0, r1])
        ours = score_chrf_corpus(hyps, per_seg, word_order=wo)
        full = explain_chrf_corpus(hyps, per_seg, word_order=wo, full=True)
        assert abs(ours.score - ref.score) < 1e-9 and abs(full.score - ref.score) < 1e-9, (ours.score, ref.score)
        res: dict = {"sacrebleu": [], "stats": [], "full": []}
        # interleaved, so that machine noise hits every side alike
        for _ in range(repeat):
            for key, fn in (("sacrebleu", lambda wo=wo: CHRF(word_order=wo).corpus_score(hyps, [r0, r1])),
                            ("stats", lambda wo=wo: score_chrf_corpus(hyps, per_seg, word_order=wo)),
                            ("full", lambda wo=wo: explain_chrf_corpus(hyps, per_seg, word_order=wo, full=True))):
                res[key].append(timed(fn))
        med = {k: statistics.median(c for c, _ in v) for k, v in res.items()}
        name = "chrF2++" if wo else "chrF2"
        out[name] = med
        print(f"{name}: sacreBLEU corpus_score {med['sacrebleu'] * 1000:.0f} ms CPU | score_chrf_corpus "
              f"{med['stats'] * 1000:.0f} ms = {med['stats'] / med['sacrebleu']:.2f}x (target <= 1.0x) | "
              f"explain_chrf_corpus(full=True) {med['full'] * 1000:.0f} ms = {med['full'] / med['sacrebleu']:.2f}x "
              "(target <= 2.0x)")
    return out


def bench_memory(hyps, r0, r1) -> None:
    import tracemalloc

    per_seg = [[x, y] for x, y in zip(r0, r1)]
    gc.collect()
    tracemalloc.start()
    tr = explain_chrf_corpus(hyps, per_seg, word_order=2, full=True)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del tr
    print(f"memory: explain_chrf_corpus(full=True), chrF2++, {len(hyps)} segments: tracemalloc peak "
          f"{peak / 2 ** 20:.0f} MB")


def bench_paired(hyps, r0, r1, repeat: int) -> None:
    import os

    from sacrebleu.significance import PairedTest

    from explainer.chrf.algorithm import score_corpus
    from explainer.chrf.statistic import chrf_statistic
    from explainer.corpus.significance import paired_test

    os.environ.setdefault("SACREBLEU_SEED", "12345")
    per_seg = [[x, y] for x, y in zip(r0, r1)]
    systems = [("a", hyps), ("b", r1)]
    d = get_dialect("sacrebleu")

    def ours():
        named = []
        for name, h in systems:
            st = score_corpus(d, h, per_seg)
            named.append((name, chrf_statistic(d, st.segment_stats, st.score)))
        return paired_test(named, test="bs", n_samples=1000)

    def sacre():
        return PairedTest(systems, {"chrF": CHRF()}, [r0, r1], test_type="bs", n_samples=1000)()

    a, b = ours(), sacre()[1]
    assert a.systems[1].p_value == b["chrF2"][1].p_value and a.systems[1].ci == b["chrF2"][1].ci
    t_s, t_o = [], []
    for _ in range(repeat):
        t_s.append(timed(sacre)[0])
        t_o.append(timed(ours)[0])
    ms, mo = statistics.median(t_s), statistics.median(t_o)
    print(f"paired bootstrap (1,000 resamples, 2 systems): sacreBLEU PairedTest {ms:.2f} s CPU | paired_test "
          f"{mo:.2f} s = {mo / ms:.2f}x (same p-values and intervals)")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--segments", type=int, default=2037)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--hyp", help="system output, one segment a line (instead of the synthetic corpus)")
    ap.add_argument("--ref", action="append", default=[], help="reference file (give two, with --hyp)")
    a = ap.parse_args()
    if a.hyp:
        if len(a.ref) != 2:
            ap.error("--hyp needs exactly two --ref files")
        hyps, r0, r1 = (Path(f).read_text(encoding="utf-8").rstrip("\n").split("\n") for f in (a.hyp, *a.ref))
        if not len(hyps) == len(r0) == len(r1):
            ap.error("the files have different numbers of lines")
        a.segments = len(hyps)
    else:
        hyps, r0, r1 = make_corpus(a.segments)
    print(f"corpus: {a.segments} segments x 2 references, {sum(map(len, hyps)) + sum(map(len, r0 + r1)):,} characters")
    bench_scores(hyps, r0, r1, a.repeat)
    bench_memory(hyps, r0, r1)
    bench_paired(hyps, r0, r1, max(1, a.repeat // 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
