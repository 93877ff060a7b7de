"""Explain page rerun cost: a 40-token candidate against 4 references (about 40 tokens each).

Prints, from one run (median of N):
* the page's own render time (``render()`` start to end, as the page records it) on a rerun,
* the whole AppTest rerun (script + element serialisation, as Streamlit does it in tests),
* a first run (cold session, texts parsed from the URL),
* for scale, sacreBLEU + rouge-score computing the same scores (no trace, no UI) in the same run,
* a large-input rerun (4 references of ~2,000 tokens) to show graceful degradation.
Target: the rerun spends < 300 ms in Python.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import logging  # noqa: E402

logging.getLogger("streamlit").setLevel(logging.ERROR)

from streamlit.testing.v1 import AppTest  # noqa: E402

TARGET_MS = 300
N = 9

WORDS = ("the a cat dog sat on mat rug quickly slowly red blue big small house garden ran jumped over under "
         "near far today yesterday and but because it is was were has have , .").split()


def make_texts(n_tokens: int, n_refs: int, seed: int = 0) -> tuple[str, list[str]]:
    rng = random.Random(seed)
    base = [rng.choice(WORDS) for _ in range(n_tokens)]
    refs = []
    for _ in range(n_refs):
        r = list(base)
        for _ in range(max(1, n_tokens // 5)):  # perturb: substitutions and swaps
            i = rng.randrange(len(r))
            r[i] = rng.choice(WORDS)
        refs.append(" ".join(r))
    cand = list(base)
    rng.shuffle(cand[: n_tokens // 3])
    return " ".join(cand), refs


def app_with(cand: str, refs: list[str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["candidate"] = cand
    at.query_params["ref"] = refs
    return at


def bench(cand: str, refs: list[str], n: int = N) -> dict:
    firsts, reruns, renders = [], [], []
    for _ in range(3):
        at = app_with(cand, refs)
        t = time.perf_counter()
        at.run()
        firsts.append(time.perf_counter() - t)
        assert not at.exception, [e.value for e in at.exception]
    for _ in range(n):
        t = time.perf_counter()
        at.run()
        reruns.append(time.perf_counter() - t)
        renders.append(at.session_state["_render_seconds"])
        assert not at.exception
    return {"first": statistics.median(firsts), "rerun": statistics.median(reruns),
            "render": statistics.median(renders), "bleu": at.metric[0].value}


def libraries(cand: str, refs: list[str], n: int = N) -> float:
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import BLEU

    ts = []
    for _ in range(n):
        t = time.perf_counter()
        BLEU().corpus_score([cand], [[r] for r in refs])
        rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"]).score_multi(refs, cand)
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def main() -> int:
    cand, refs = make_texts(40, 4)
    print(f"input: candidate {len(cand.split())} tokens, {len(refs)} references of "
          f"{', '.join(str(len(r.split())) for r in refs)} tokens; median of {N} reruns")
    r = bench(cand, refs)
    lib = libraries(cand, refs)
    print(f"page render() on a rerun      : {1000 * r['render']:7.1f} ms   (target < {TARGET_MS} ms)")
    print(f"AppTest rerun (whole script)  : {1000 * r['rerun']:7.1f} ms")
    print(f"first run of a session        : {1000 * r['first']:7.1f} ms")
    print(f"sacreBLEU + rouge-score alone : {1000 * lib:7.1f} ms   "
          f"(page rerun = {r['rerun'] / lib:.0f}x the bare scores: it also builds traces, tables, charts, HTML)")
    big_c, big_r = make_texts(2000, 4, seed=1)
    rb = bench(big_c, big_r, n=3)
    lib_b = libraries(big_c, big_r, n=3)
    print(f"large input (2,000 tokens x 4 refs): render {1000 * rb['render']:.0f} ms, AppTest rerun "
          f"{1000 * rb['rerun']:.0f} ms; sacreBLEU + rouge-score alone {1000 * lib_b:.0f} ms")
    ok = r["rerun"] * 1000 < TARGET_MS
    print("PASS" if ok else "FAIL", f"rerun {1000 * r['rerun']:.1f} ms vs target {TARGET_MS} ms")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
