"""Teach page costs, from one run (medians):

* building a lesson (both traces + every step) for a worked example, a 40-token candidate with 4 references,
  and the largest lesson allowed (MAX_LESSON_CHARS), with — for scale — sacreBLEU + rouge-score computing the
  same scores (no trace) in the same run, as a ratio;
* rendering the HTML and Markdown handouts of those lessons (time and size);
* generating the largest exercise set (MAX_SET items, attack items included);
* a class of thirty opening the same link: thirty fresh sessions (AppTest first runs) of
  ``teach?example=cat_mat&step=1``; the worked example's lesson is built once and shared, so every later
  session only renders. Target: a session's first run under 1 s.
"""
from __future__ import annotations

import logging
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
logging.getLogger("streamlit").setLevel(logging.ERROR)

from explainer.examples import get_example  # noqa: E402
from explainer.teach import build_lesson  # noqa: E402
from explainer.teach.exercises import MAX_SET, generate_set  # noqa: E402
from explainer.teach.lesson import MAX_LESSON_CHARS  # noqa: E402
from explainer.teach.rouge_steps import LESSON_TYPES  # noqa: E402
from explainer.ui.teach.teach_html import handout_html  # noqa: E402
from explainer.ui.teach.teach_markdown import handout_markdown  # noqa: E402

N = 7
sys.path.insert(0, str(ROOT / "bench"))
from bench_ui import make_texts as texts  # noqa: E402  (the Explain page benchmark's text generator)


def median_ms(fn, n: int = N) -> float:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return statistics.median(out)


def real_scores(cand: str, refs: list[str]) -> None:
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import BLEU

    BLEU().corpus_score([cand], [[r] for r in refs])
    rouge_scorer.RougeScorer(list(LESSON_TYPES)).score_multi(refs, cand)


def main() -> None:
    ex = get_example("cat_mat")
    cases = [("worked example cat_mat", ex.candidate, list(ex.references)),
             ("40 tokens, 4 references", *texts(40, 4))]
    # the largest lesson allowed: 5 texts of about MAX_LESSON_CHARS / 5 characters
    n_tok = 1
    while sum(len(t) for t in [texts(n_tok + 10, 4)[0]] + texts(n_tok + 10, 4)[1]) < MAX_LESSON_CHARS - 200:
        n_tok += 10
    big = texts(n_tok, 4)
    cases.append((f"largest lesson ({sum(map(len, [big[0]] + big[1])):,} chars, {n_tok} tokens x 5 texts)", *big))
    real_scores(*cases[0][1:])   # warm imports
    build_lesson(*cases[0][1:])
    print("lesson build (both traces + steps), median of", N)
    for name, cand, refs in cases:
        lesson_ms = median_ms(partial(build_lesson, cand, refs))
        real_ms = median_ms(partial(real_scores, cand, refs))
        lesson = build_lesson(cand, refs)
        html_ms = median_ms(partial(handout_html, lesson))
        md_ms = median_ms(partial(handout_markdown, lesson))
        html_kb = len(handout_html(lesson).encode()) / 1024
        print(f"  {name}: lesson {lesson_ms:.1f} ms vs sacreBLEU+rouge-score scores {real_ms:.1f} ms "
              f"(ratio {lesson_ms / real_ms:.1f}x); handout HTML {html_ms:.1f} ms ({html_kb:.0f} KB), "
              f"Markdown {md_ms:.1f} ms")
    set_ms = median_ms(lambda: generate_set(12345, "hard", MAX_SET), 3)
    print(f"exercise set of {MAX_SET} (hard, attack items included): {set_ms:.0f} ms")

    from streamlit.testing.v1 import AppTest

    page = str(ROOT / "explainer" / "ui" / "pages" / "teach.py")
    first = []
    for _ in range(30):
        at = AppTest.from_file(page, default_timeout=120)
        at.query_params["example"] = "cat_mat"
        at.query_params["step"] = "1"
        t = time.perf_counter()
        at.run()
        first.append((time.perf_counter() - t) * 1000)
        assert not at.exception
    print(f"thirty sessions opening teach?example=cat_mat&step=1: first session {first[0]:.0f} ms, then median "
          f"{statistics.median(first[1:]):.0f} ms, max {max(first[1:]):.0f} ms (target < 1000 ms)")


if __name__ == "__main__":
    main()
