"""ROUGE-Lsum at its work limits: the largest allowed inputs must take a few seconds at most (issue 10).

``explainer.rouge.limits`` bounds ROUGE-Lsum by sentence pairs (LSUM_MAX_PAIRS) and by LCS table cells
(LSUM_MAX_CELLS, reference tokens x candidate tokens over all references). The cost per cell depends on the shape:
long lines are cheap (bit-parallel rows), short lines against long ones are the costliest (every sentence pair
costs Python steps per token of its longer side). This runs shapes of exactly LSUM_MAX_CELLS cells, under the
pair limit and the 200,000-character limit, through ``score_rouge`` (rougeLsum) and the Explain page's call
(``explain_rouge`` with the default types), for rouge-score and rouge155, and rouge-score's own
``RougeScorer(["rougeLsum"])`` on the same texts (numbers checked identical; exit status 1 if not). Then the
audit's input (49,060 pairs, 1.1e10 cells), which must be refused before any LCS table is built.

CPU seconds of this process (the machine is shared: wall time varies more). One run each.
Usage: python bench/bench_lsum_limit.py [--quick]   (--quick: no rouge-score comparison)
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rouge_score import rouge_scorer  # noqa: E402

from explainer.rouge import explain_rouge, limits, score_rouge  # noqa: E402
from explainer.rouge.limits import SummaryWorkTooLarge  # noqa: E402

VOCAB = "the a cat dog sat on mat rug red blue big small house garden ran jumped over under near far".split()


def _text(rng, lines: int, per_line: int) -> str:
    return "\n".join(" ".join(rng.choice(VOCAB) for _ in range(per_line)) for _ in range(lines))


def shapes(cells: int):
    """(label, candidate lines, tokens per candidate line, reference lines, tokens per reference line, references)
    with ``cells`` table cells in all."""
    side = int(cells ** 0.5)
    return [
        ("1-token cand lines x one 2,000-token ref line", cells // 2_000, 1, 1, 2_000, 1),
        ("1-token cand lines x one 10,000-token ref line", cells // 10_000, 1, 1, 10_000, 1),
        ("one cand line x 40,000 1-token ref lines", 1, cells // 40_000, 40_000, 1, 1),
        ("one cand line x 10,000 1-token ref lines", 1, cells // 10_000, 10_000, 1, 1),
        ("20-token lines both sides", side // 20, 20, side // 20, 20, 1),
        ("20-token cand lines x 10 refs of 100-token lines", 50, 20, cells // (10 * 50 * 20 * 100), 100, 10),
        ("one line each", 1, side, 1, side, 1),
        ("one line each, 10 references", 1, int((cells / 10) ** 0.5), 1, int((cells / 10) ** 0.5), 10),
    ]


def _cpu(fn, *args, **kw):
    t = time.process_time()
    out = fn(*args, **kw)
    return out, time.process_time() - t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="skip rouge-score's own runs")
    args = ap.parse_args()
    rng = random.Random(10)
    cells = limits.LSUM_MAX_CELLS
    print(f"LSUM_MAX_CELLS = {cells:,}, LSUM_MAX_PAIRS = {limits.LSUM_MAX_PAIRS:,}; CPU seconds")
    print(f"{'shape':50s} {'pairs':>7s} {'cells':>11s} | {'rouge-score dialect':^19s} | {'rouge155 dialect':^17s} "
          f"| rouge-score lib")
    print(f"{'':50s} {'':>7s} {'':>11s} | {'score':>8s} {'explain':>8s}  | {'score':>7s} {'explain':>8s} |")
    bad = 0
    worst = 0.0
    scorer = rouge_scorer.RougeScorer(["rougeLsum"])
    for label, cl, cp, rl, rp, nr in shapes(cells):
        cand, refs = _text(rng, cl, cp), [_text(rng, rl, rp) for _ in range(nr)]
        n_pairs, n_cells = cl * rl * nr, cl * cp * rl * rp * nr
        assert n_pairs <= limits.LSUM_MAX_PAIRS and n_cells <= cells and max(map(len, [cand] + refs)) < 200_000
        row = []
        ours = None
        for dialect in ("rouge-score", "rouge155"):
            s, t_score = _cpu(score_rouge, cand, refs, types=["rougeLsum"], dialect=dialect)
            _, t_explain = _cpu(explain_rouge, cand, refs, dialect=dialect)
            row += [t_score, t_explain]
            worst = max(worst, t_score, t_explain)
            if dialect == "rouge-score":
                ours = s["rougeLsum"]
        lib = "—"
        if not args.quick:
            want, t_lib = _cpu(scorer.score_multi, refs, cand)
            want = want["rougeLsum"]
            same = tuple(ours) == tuple(want)
            bad += not same
            lib = f"{t_lib:6.2f} s ({t_lib / row[0]:.1f}x ours){'' if same else '  NUMBERS DIFFER'}"
        print(f"{label:50s} {n_pairs:>7,} {n_cells:>11,} | {row[0]:7.2f}s {row[1]:7.2f}s  | {row[2]:6.2f}s "
              f"{row[3]:7.2f}s | {lib}", flush=True)
    print(f"slowest allowed call above: {worst:.2f} s CPU")
    rng = random.Random(1)
    cand, refs = _text(rng, 223, 150), [_text(rng, 22, 1_500) for _ in range(10)]
    t = time.process_time()
    try:
        score_rouge(cand, refs, types=["rougeLsum"])
        print("the audit's input was NOT refused")
        bad += 1
    except SummaryWorkTooLarge as e:
        print(f"audit's input (223 x 150 vs 10 x 22 x 1,500 tokens, {len(cand):,} characters): refused after "
              f"{time.process_time() - t:.2f} s CPU (tokenizing): {str(e)[:110]}…")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
