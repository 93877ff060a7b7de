"""TER benchmark: one run, median of several repetitions, ratios against sacreBLEU measured in the same run.

* statistics only: ``score_ter_corpus`` vs ``TER().corpus_score`` (target <= 1.0x): both run sacreBLEU's own
  per-pair code (``translation_edit_rate``)
* full traces: ``explain_ter_corpus(full=True)`` - every segment's words with their spans, per reference the shift
  search recorded round by round (each shift, its gain and candidates) and the alignment after the shifts, the kept
  reference and the score (target <= 2.0x); the corpus statistics are taken from the traces
* memory of the full traces (tracemalloc peak)
* the paired bootstrap (1,000 resamples) of two systems: ``paired_test`` vs sacreBLEU's ``PairedTest`` with TER

sacreBLEU's TER tokenizer keeps a cache shared by every instance (``TercomTokenizer.__call__`` is an
``lru_cache``); it is emptied before every timed run so that no side reads words another run tokenized.

Corpus: WMT22 general test set en-de (2,037 segments, references A and B, a system output) with ``--wmt DIR`` or the
environment variable ``EXPLAINER_WMT22`` (the directory holding ``txt/references`` and ``txt/system-outputs``);
otherwise 2,037 synthetic segments x 2 references (``bench_bleu.make_corpus``), or ``--hyp H --ref R1 --ref R2``.
CPU time of this process is the primary figure.

Usage: ``python bench/bench_ter.py [--wmt DIR [--system NAME]] [--segments N] [--repeat R]``
"""
from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bleu import make_corpus  # noqa: E402
from sacrebleu.metrics import TER  # noqa: E402
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer  # noqa: E402

from explainer.ter import explain_ter_corpus, get_dialect, score_ter_corpus  # noqa: E402


def timed(fn):
    TercomTokenizer.__call__.cache_clear()
    gc.collect()
    c0, w0 = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c0, time.perf_counter() - w0


def bench_scores(hyps, r0, r1, repeat: int) -> dict:
    per_seg = [[x, y] for x, y in zip(r0, r1)]
    ref = TER().corpus_score(hyps, [r0, r1])
    ours = score_ter_corpus(hyps, per_seg)
    full = explain_ter_corpus(hyps, per_seg, full=True)
    assert ours.score == ref.score == full.score and ours.num_edits == ref.num_edits, (ours.score, ref.score)
    print(f"TER = {ref.score!r} ({ref.num_edits} edits / {ref.ref_length} words), equal on all three paths")
    res: dict = {"sacrebleu": [], "stats": [], "full": []}
    # interleaved, so that machine noise hits every side alike
    for _ in range(repeat):
        for key, fn in (("sacrebleu", lambda: TER().corpus_score(hyps, [r0, r1])),
                        ("stats", lambda: score_ter_corpus(hyps, per_seg)),
                        ("full", lambda: explain_ter_corpus(hyps, per_seg, full=True))):
            res[key].append(timed(fn))
    med = {k: statistics.median(c for c, _ in v) for k, v in res.items()}
    print(f"sacreBLEU corpus_score {med['sacrebleu']:.2f} s CPU | score_ter_corpus {med['stats']:.2f} s = "
          f"{med['stats'] / med['sacrebleu']:.2f}x (target <= 1.0x) | explain_ter_corpus(full=True) "
          f"{med['full']:.2f} s = {med['full'] / med['sacrebleu']:.2f}x (target <= 2.0x)")
    print("  per run (CPU s): " + "; ".join(f"{k} " + ", ".join(f"{c:.2f}" for c, _ in v) for k, v in res.items()))
    return med


def bench_memory(hyps, r0, r1) -> None:
    import tracemalloc

    per_seg = [[x, y] for x, y in zip(r0, r1)]
    gc.collect()
    tracemalloc.start()
    tr = explain_ter_corpus(hyps, per_seg, full=True)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del tr
    print(f"memory: explain_ter_corpus(full=True), {len(hyps)} segments: tracemalloc peak {peak / 2 ** 20:.0f} MB")


def bench_paired(hyps, r0, r1, repeat: int) -> None:
    from sacrebleu.significance import PairedTest

    from explainer.corpus.significance import paired_test
    from explainer.ter.algorithm import score_corpus
    from explainer.ter.stats import ter_statistic

    os.environ.setdefault("SACREBLEU_SEED", "12345")
    per_seg = [[x, y] for x, y in zip(r0, r1)]
    systems = [("a", hyps), ("b", r1)]
    d = get_dialect("sacrebleu")

    def ours():
        named = []
        for name, h in systems:
            st = score_corpus(d, h, per_seg)
            named.append((name, ter_statistic(st.segment_stats, st.score)))
        return paired_test(named, test="bs", n_samples=1000)

    def sacre():
        return PairedTest(systems, {"TER": TER()}, [r0, r1], test_type="bs", n_samples=1000)()

    a, b = ours(), sacre()[1]
    assert a.systems[1].p_value == b["TER"][1].p_value and a.systems[1].ci == b["TER"][1].ci
    t_s, t_o = [], []
    for _ in range(repeat):
        t_s.append(timed(sacre)[0])
        t_o.append(timed(ours)[0])
    ms, mo = statistics.median(t_s), statistics.median(t_o)
    print(f"paired bootstrap (1,000 resamples, 2 systems): sacreBLEU PairedTest {ms:.2f} s CPU | paired_test "
          f"{mo:.2f} s = {mo / ms:.2f}x (same p-values and intervals)")


def _read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n")


def load(a, ap) -> tuple[list[str], list[str], list[str], str]:
    wmt = a.wmt or os.environ.get("EXPLAINER_WMT22")
    if a.hyp:
        if len(a.ref) != 2:
            ap.error("--hyp needs exactly two --ref files")
        hyps, r0, r1 = (_read(Path(f)) for f in (a.hyp, *a.ref))
        what = a.hyp
    elif wmt:
        txt = Path(wmt) / "txt" if (Path(wmt) / "txt").is_dir() else Path(wmt)
        r0, r1 = (_read(txt / "references" / f"generaltest2022.en-de.ref.{k}.de") for k in "AB")
        hyps = _read(txt / "system-outputs" / f"generaltest2022.en-de.hyp.{a.system}.de")
        what = f"WMT22 en-de, {a.system} against references A and B"
    else:
        hyps, r0, r1 = make_corpus(a.segments)
        what = "synthetic (bench_bleu.make_corpus)"
    if not len(hyps) == len(r0) == len(r1):
        ap.error("the files have different numbers of lines")
    return hyps, r0, r1, what


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--segments", type=int, default=2037)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--wmt", help="the WMT22 data directory (default: $EXPLAINER_WMT22; else a synthetic corpus)")
    ap.add_argument("--system", default="Online-A", help="the en-de system output to score (default Online-A)")
    ap.add_argument("--hyp", help="system output, one segment a line (instead of WMT22 or the synthetic corpus)")
    ap.add_argument("--ref", action="append", default=[], help="reference file (give two, with --hyp)")
    a = ap.parse_args()
    hyps, r0, r1, what = load(a, ap)
    print(f"corpus: {what}: {len(hyps)} segments x 2 references, "
          f"{sum(map(len, hyps)) + sum(map(len, r0 + r1)):,} characters")
    bench_scores(hyps, r0, r1, a.repeat)
    bench_memory(hyps, r0, r1)
    bench_paired(hyps, r0, r1, max(1, a.repeat // 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
