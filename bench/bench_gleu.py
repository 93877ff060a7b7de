"""Google BLEU (GLEU) benchmark: one run, medians of several repetitions, ratios measured in the same run.

* statistics only: ``score_bleu_corpus(dialect="google-bleu")`` (HF's 13a tokens, each reference's own counts, the
  best reference per segment) vs NLTK's ``corpus_gleu`` over the same 13a tokens (tokenizing included) and vs
  ``sacrebleu.corpus_bleu`` on the same texts (the project's usual yardstick);
* full traces: ``explain_bleu_corpus(dialect="google-bleu", full=True)`` (tokens with spans, n-gram tables, every
  reference's precision and recall) vs the same sacreBLEU baseline.

Corpus: bench_bleu.py's synthetic corpus (segments x 2 references). sacreBLEU's tokenizer caches are cleared
before every timed repetition of every side.

Usage: ``python bench/bench_gleu.py [--segments N] [--repeat R]``
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import sacrebleu  # noqa: E402
from bench_bleu import allow_full_traces, make_corpus, timed  # noqa: E402
from nltk.translate.gleu_score import corpus_gleu  # noqa: E402
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # noqa: E402

from explainer.bleu import explain_bleu_corpus, score_bleu_corpus  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--segments", type=int, default=2400)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    hyps, r0, r1 = make_corpus(a.segments)
    streams = [r0, r1]
    refs = [[x, y] for x, y in zip(r0, r1)]      # one list per segment
    allow_full_traces(sum(len(h) for h in hyps) + sum(len(r) for rs in refs for r in rs))

    def nltk_side():
        tok = Tokenizer13a()
        return corpus_gleu([[tok(r).split() for r in rs] for rs in refs], [tok(h).split() for h in hyps])

    sides = {
        "sacrebleu.corpus_bleu": lambda: sacrebleu.corpus_bleu(hyps, streams).score,
        "nltk corpus_gleu (13a tokens)": nltk_side,
        "explainer google-bleu statistics": lambda: score_bleu_corpus(hyps, refs, dialect="google-bleu").score,
        "explainer google-bleu full trace": lambda: explain_bleu_corpus(hyps, refs, dialect="google-bleu",
                                                                        full=True).score,
    }
    values = {k: fn() for k, fn in sides.items()}
    assert values["nltk corpus_gleu (13a tokens)"] == values["explainer google-bleu statistics"] \
        == values["explainer google-bleu full trace"], values
    times: dict = {k: [] for k in sides}
    for _ in range(a.repeat):
        for k, fn in sides.items():
            times[k].append(timed(fn)[0])       # CPU seconds (a shared machine inflates wall time unevenly)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{a.segments} segments x 2 references, CPU median of {a.repeat}; "
          f"GLEU = {values['explainer google-bleu statistics']} (= NLTK's)")
    for k, m in med.items():
        print(f"  {k:38s} {m * 1000:9.1f} ms   x{m / med['sacrebleu.corpus_bleu']:.2f} sacreBLEU   "
              f"x{m / med['nltk corpus_gleu (13a tokens)']:.2f} NLTK")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
