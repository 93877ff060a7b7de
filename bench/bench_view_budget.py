"""The view's ROUGE work estimate against its measurement (explainer.ui.budget; issue 34).

For shapes a link or a typed text can take (≤ 6,000 characters: what a link carries; and typed texts of 20,000
characters), each ROUGE type's full trace is timed on its own and printed beside the estimate
``explainer.ui.budget.rouge_work`` makes before computing it (units of ``explainer.rouge.limits.segment_work``,
about a microsecond on a busy machine; ROUGE-Lsum with its sentence pairs and cells). CPU seconds of this process,
one run each (the machine is shared: say its load with the figures).

Usage: python bench/bench_view_budget.py [--quick]   (--quick: the link-sized shapes only)
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explainer.rouge import explain_rouge  # noqa: E402
from explainer.ui.budget import rouge_work  # noqa: E402
from explainer.ui.settings import settings_from_params  # noqa: E402

VOCAB = "the a cat dog sat on mat rug red blue big small house garden ran jumped over under near far".split()
TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeS*", "rougeSU*")


def words(n_chars: int, rng: random.Random, line_every: int = 0) -> str:
    out: list[str] = []
    size = 0
    while size < n_chars:
        w = rng.choice(VOCAB)
        out.append(w + ("\n" if line_every and len(out) % line_every == 0 else " "))
        size += len(out[-1])
    return "".join(out)[:n_chars]


def shapes(quick: bool):
    rng = random.Random(1)
    x = ("x " * 1500)[:2990]
    yield "link: 2 x 3,000 chars of words", words(2990, rng), [words(2990, rng)], "rouge-score"
    yield "link: 2 x 3,000 chars of 'x x'", x, [x], "rouge-score"
    yield "link: 'x x' vs 1,495 lines of 'x'", x, ["x\n" * 1495], "rouge155"
    yield "link: 550 chars vs 10 refs", words(545, rng), [words(545, rng) for _ in range(10)], "rouge155"
    yield "link: 20-token lines", words(2990, rng, 20), [words(2990, rng, 20)], "rouge155"
    if not quick:
        yield "typed: 2 x 20,000 chars", words(20000, rng), [words(20000, rng)], "rouge-score"


def timed(f, *args, **kwargs) -> float:
    t0 = time.process_time()
    try:
        f(*args, **kwargs)
    except ValueError:
        pass
    return time.process_time() - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    quick = ap.parse_args().quick
    print(f"{'shape':36s} {'type':11s} {'units':>11s} {'measured s':>10s} {'µs per unit':>11s}")
    explain_rouge("warm up", ["the imports"], types=TYPES)
    worst = 0.0
    for label, cand, refs, dialect in shapes(quick):
        settings, _ = settings_from_params({"rouge_dialect": [dialect], "rouge_types": [",".join(TYPES)]})
        work = rouge_work(settings["rouge"], cand, refs)
        if work is None:
            continue
        _, full, _, _ = work
        for t in TYPES:
            if full[t] > 30_000_000:
                continue            # far over the budget: left out on the page, not worth timing here
            got = timed(explain_rouge, cand, refs, dialect=dialect, types=[t], **{
                k: v for k, v in settings["rouge"].options.items() if k != "types"})
            per = got * 1e6 / full[t] if full[t] else float("nan")
            if got > 0.05 and full[t]:
                worst = max(worst, per)
            print(f"{label:36s} {t:11s} {full[t]:11,d} {got:10.3f} {per:11.2f}")
    print(f"highest µs per unit over types above 0.05 s: {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
