"""What an upload costs the Corpus page, against the page's estimate (explainer.ui.corpus.estimate; issue 34).

Uploads synthetic test sets (random words, one segment per line) under streamlit.testing and measures the CPU of
the run after "Use these files" (the BLEU report and the page drawn from it), then of switching the metric to
ROUGE and to chrF (each report computed once), beside the estimate the page shows before the work. The page's
weights are set from these runs (rounded up). CPU seconds of this process; the machine is shared: say its load.

Usage: python bench/bench_corpus_upload.py [--quick]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from explainer.corpus.testset import build_testset  # noqa: E402
from explainer.ui.corpus.estimate import scoring_seconds, scoring_work  # noqa: E402

WORDS = [f"w{i}" for i in range(3000)] + "the a of and to in is that it for on with as was".split() * 40


def lines(n: int, chars: int, rng: random.Random) -> list[str]:
    out = []
    for _ in range(n):
        words, size = [], 0
        while size < chars:
            words.append(rng.choice(WORDS))
            size += len(words[-1]) + 1
        out.append(" ".join(words)[:chars])
    return out


def run(at: AppTest, step) -> float:
    step(at)
    t0 = time.process_time()
    at.run()
    spent = time.process_time() - t0
    assert not at.exception, [e.value for e in at.exception]
    return spent


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    shapes = [(2000, 130, 2), (2000, 950, 1), (5000, 130, 4)]
    if not ap.parse_args().quick:
        shapes += [(2000, 130, 9), (10000, 300, 1)]
    rng = random.Random(5)
    AppTest.from_file(str(ROOT / "explainer" / "ui" / "pages" / "corpus.py"), default_timeout=900).run()
    print(f"{'segments':>8s} {'chars':>6s} {'systems':>7s} {'work (M chars)':>14s} {'metric':>6s} "
          f"{'estimate':>8s} {'measured':>8s}")
    for n, chars, n_sys in shapes:
        refs = lines(n, chars, rng)
        systems = [(f"sys{j}.txt", lines(n, chars, rng)) for j in range(n_sys)]
        ts = build_testset([(name.removesuffix(".txt"), sl) for name, sl in systems], [("ref", refs)])
        at = AppTest.from_file(str(ROOT / "explainer" / "ui" / "pages" / "corpus.py"), default_timeout=900)
        at.run()
        at.radio(key="cp_source").set_value("Upload files").run()
        at.file_uploader(key="cp_up_sys").set_value([(name, ("\n".join(sl) + "\n").encode(), "text/plain")
                                                     for name, sl in systems])
        at.file_uploader(key="cp_up_ref").set_value([("ref.txt", ("\n".join(refs) + "\n").encode(), "text/plain")])
        at.run()
        for metric, step in (("BLEU", lambda a: a.button(key="cp_load_up").click()),
                             ("ROUGE", lambda a: a.segmented_control(key="cp_metric").set_value("ROUGE")),
                             ("CHRF", lambda a: a.segmented_control(key="cp_metric").set_value("CHRF"))):
            got = run(at, step)
            print(f"{n:8d} {chars:6d} {n_sys:7d} {scoring_work(ts) / 1e6:14.1f} {metric:>6s} "
                  f"{scoring_seconds(ts, metric.lower()):8.1f} {got:8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
