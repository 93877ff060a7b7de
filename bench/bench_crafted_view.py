"""The server's CPU for one Explain view opened from a crafted link (issue 34, item 1: under 2 s per view).

Links within ``MAX_URL_TEXT`` characters of texts: random English words (costlier for TER and the semantic family
than ``x x …``), one candidate and 1–9 references, with the costliest options a link can set (ROUGE's S*, SU* and W
types with rouge155; BLEU with character tokens and order 10). Each view is a fresh page under
``streamlit.testing`` (every family's headline and sections computed), after one warm-up view of other texts (the
model loaded, the modules imported), and the CPU time of this process is printed: what the server spends per view.

Usage: python bench/bench_crafted_view.py [--runs N]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from explainer.ui.pagestate import MAX_URL_TEXT  # noqa: E402

WORDS = ("the of and to in a is that for it as was with be by on not he this are or his from at which but have an "
         "they you were her she there one all we their can has been if more when will would who so no market "
         "government report people year police city said new first last percent million company minister").split()
OPTIONS = {
    "plain": {},
    "rouge-costly": {"rouge_dialect": "rouge155", "rouge_types": "rouge1,rouge2,rougeL,rougeLsum,rougeW-1.2,"
                                                                 "rougeS*,rougeSU*"},
    "bleu-char-10": {"tokenize": "char", "max_order": "10"},
}


def text(rng: random.Random, chars: int) -> str:
    out, n = [], 0
    while n < chars:
        w = rng.choice(WORDS)
        out.append(w)
        n += len(w) + 1
    return " ".join(out)[:chars].strip()


def view_cpu(params: dict) -> float:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    for k, v in params.items():
        at.query_params[k] = v
    t0 = time.process_time()
    at.run()
    cpu = time.process_time() - t0
    if at.exception:
        raise SystemExit(f"the page raised: {[e.value for e in at.exception]}")
    return cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    rng = random.Random(34)
    view_cpu({"candidate": "a warm-up text", "ref": ["a warm up text"]})
    print(f"load average {os.getloadavg()[0]:.1f}; MAX_URL_TEXT {MAX_URL_TEXT:,}")
    print(f"{'shape':32} {'options':14} CPU s per view")
    for n_refs in (1, 4, 9):
        per = MAX_URL_TEXT // (n_refs + 1)
        for name, opts in OPTIONS.items():
            cpus = []
            for _ in range(args.runs):
                params = {"candidate": text(rng, per), "ref": [text(rng, per) for _ in range(n_refs)], **opts}
                cpus.append(view_cpu(params))
            print(f"{f'1 + {n_refs} refs x {per:,} chars':32} {name:14} " + " ".join(f"{c:.2f}" for c in cpus))


if __name__ == "__main__":
    main()
