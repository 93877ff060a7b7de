"""The dialects of issue 22 against their own packages, in one run (median of several repetitions):

* ``pltrdy``: ``score_rouge(..., dialect="pltrdy")`` vs ``rouge.Rouge().get_scores`` (target <= 1.5x)
* ``rouge-chinese``: ``score_rouge(..., dialect="rouge-chinese")`` vs rouge-chinese over ``jieba.cut`` (target <= 1.5x)
* ``sacrebleu --tokenize ja-mecab``: ``score_bleu_corpus`` vs ``sacrebleu.corpus_bleu(tokenize="ja-mecab")``
  (target <= 1.5x)
* full traces: ``explain_rouge(..., dialect="pltrdy")`` per pair (reported, no target)

Inputs: the English summaries, Chinese and Japanese news of tests/dialects_samples.py, repeated (one reference each);
every segment is a distinct string (a counter appended), and the explainer's caches (bound dialects, sacreBLEU's
tokenizer cache) are emptied before every repetition, so that no side is timed on a warm per-text cache.

Usage: ``python bench/bench_dialects_packages.py [--copies N] [--repeat R]``
"""
from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explainer.bleu import score_bleu_corpus  # noqa: E402
from explainer.rouge import explain_rouge, score_rouge  # noqa: E402
from tests.dialects_samples import EN_SUMMARIES, JA_NEWS, ZH_NEWS  # noqa: E402


def _cold() -> None:
    """No warm cache on our side: the bound dialects (their tokenized references) and sacreBLEU's tokenizer
    cache (the real library builds a new tokenizer per corpus_bleu call)."""
    from explainer.bleu.dialect_sacrebleu import sacrebleu_tokenizer
    from explainer.bleu.registry import DIALECTS as BLEU_DIALECTS
    from explainer.rouge.registry import DIALECTS as ROUGE_DIALECTS

    ROUGE_DIALECTS.forget_instances()
    BLEU_DIALECTS.forget_instances()
    sacrebleu_tokenizer("ja-mecab").__call__.cache_clear()


def _median(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        _cold()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    import jieba
    import sacrebleu
    from rouge import Rouge
    from rouge_chinese import Rouge as RougeChinese

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    en = [(f"{c} {i}", f"{rs[0]} {i}") for i in range(a.copies) for c, rs in EN_SUMMARIES]
    zh = [(f"{c}{i}", f"{r}{i}") for i in range(a.copies) for c, r in ZH_NEWS]
    ja = [(f"{c}{i}", f"{r}{i}") for i in range(a.copies) for c, r in JA_NEWS]
    rows = []

    def pair(name, ours, theirs, n, target):
        t_ours, t_theirs = _median(ours, a.repeat), _median(theirs, a.repeat)
        rows.append((name, n, t_ours, t_theirs, t_ours / t_theirs, target))

    pair("pltrdy", lambda: [score_rouge(c, [r], dialect="pltrdy") for c, r in en],
         lambda: [Rouge().get_scores(c, r) for c, r in en], len(en), 1.5)
    pair("rouge-chinese", lambda: [score_rouge(c, [r], dialect="rouge-chinese") for c, r in zh],
         lambda: [RougeChinese().get_scores(" ".join(jieba.cut(c)), " ".join(jieba.cut(r))) for c, r in zh],
         len(zh), 1.5)
    pair("sacrebleu ja-mecab (corpus)",
         lambda: score_bleu_corpus([c for c, _ in ja], [[r] for _, r in ja], tokenize="ja-mecab"),
         lambda: sacrebleu.corpus_bleu([c for c, _ in ja], [[r for _, r in ja]], tokenize="ja-mecab"), len(ja), 1.5)
    t_full = _median(lambda: [explain_rouge(c, [r], dialect="pltrdy") for c, r in en[:200]], a.repeat)
    print(f"{'what':30} {'items':>6} {'ours s':>9} {'package s':>10} {'ratio':>6} target")
    for name, n, t1, t2, ratio, target in rows:
        print(f"{name:30} {n:6d} {t1:9.3f} {t2:10.3f} {ratio:6.2f} <= {target}")
    print(f"{'pltrdy full traces':30} {200:6d} {t_full:9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
