"""Gaming-lab optimizer speed: cost of scoring one neighbour with the stats-only fast path (FastScorer:
sacreBLEU's reference cache + rouge-score's own functions on pre-tokenised references) versus calling the
public APIs (sacrebleu.sentence_bleu + RougeScorer.score_multi) and the explainer's full path (scoring.score),
measured in the same run; plus how many neighbours a 3-second default budget scores."""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sacrebleu  # noqa: E402
from rouge_score import rouge_scorer  # noqa: E402

from explainer.attacks.optimizer import optimize  # noqa: E402
from explainer.attacks.scoring import FastScorer, score  # noqa: E402

REFS = ["the minister said that the government will increase the budget for schools in the next year",
        "the government plans to spend more on schools next year , the minister said"]
CANDS = ["minister promises more money for schools next year",
         "the minister said the government will spend more money on schools in the next year",
         " ".join(["the minister said that the budget will increase"] * 4)]


def per_call(fn, n=300, repeat=5):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for i in range(n):
            fn(CANDS[i % len(CANDS)])
        times.append((time.perf_counter() - t0) / n)
    return statistics.median(times)


def main():
    fast = FastScorer(REFS)
    rs = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"])
    t_fast = per_call(fast.values)
    t_pkg = per_call(lambda c: (sacrebleu.sentence_bleu(c, REFS), rs.score_multi(REFS, c)))
    t_full = per_call(lambda c: score(c, REFS), n=100)
    print("one neighbour, all metrics (median per call):")
    print(f"  fast path (FastScorer)              {t_fast * 1e6:8.1f} µs")
    print(f"  sacrebleu.sentence_bleu + rouge-score {t_pkg * 1e6:6.1f} µs   ratio fast/packages = {t_fast / t_pkg:.2f}")
    print(f"  explainer full path (scoring.score) {t_full * 1e6:8.1f} µs   ratio fast/full = {t_fast / t_full:.2f}")
    res = optimize(CANDS[2], REFS, "rouge1_f", budget_seconds=3.0, seed=0, max_steps=10 ** 6, patience=10 ** 6)
    print(f"optimizer, 3 s budget, 36-word start: {res.evaluations} neighbours scored in {res.elapsed:.3f} s "
          f"(overrun {max(0.0, res.elapsed - 3.0) * 1e3:.2f} ms; longest unit {res.max_unit_seconds * 1e3:.2f} ms)")


if __name__ == "__main__":
    main()
