"""Corpus-level reproduce: seconds per claim on a test set of 2,037 segments × 2 references.

    .venv/bin/python bench/bench_reproduce_corpus.py [--hyp SYSTEM --ref R1 --ref R2]

Without files the test set is generated (deterministic: the bundled news-en sample's sentences, recombined and
perturbed to 2,037 segments of 8–60 words, two references each); with files (e.g. a WMT test set: a system
output and its references A and B) those are used. Claims: corpus scores made with randomly drawn real
configurations (sacreBLEU: tokenizer incl. char, case, smoothing, order, effective order, reference subset;
NLTK corpus_bleu; rouge-score mean of the documents; ROUGE-1.5.5's Average; a claim without a metric name
(BLEU and ROUGE); a refused chrF), each printed to two decimals as papers print them, searched cold (a fresh
search per claim; sacreBLEU's tokenizer caches emptied before each). Printed: seconds per claim, median and worst
(targets: median ≤ 10 s, worst ≤ 30 s), whether the generating configuration and subset were named, and, for the
BLEU part, the time sacreBLEU itself takes to score every sacreBLEU configuration of the search once per subset
(measured on a sample of the configurations and scaled), in the same run.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SAMPLE = Path(__file__).resolve().parents[1] / "explainer" / "corpus" / "samples" / "news-en"
N_SEGMENTS = 2037


def generated_corpus(n: int = N_SEGMENTS, seed: int = 2037):
    rng = random.Random(seed)
    sents = [s for f in ("ref.1.txt", "ref.2.txt", "baseline.txt", "new-model.txt", "small-model.txt")
             for s in (SAMPLE / f).read_text(encoding="utf-8").splitlines() if s.strip()]
    words = [w for s in sents for w in s.split()]

    def perturb(toks):
        toks = list(toks)
        for _ in range(rng.randint(1, 5)):
            op = rng.random()
            if op < 0.4 and toks:
                toks[rng.randrange(len(toks))] = rng.choice(words)
            elif op < 0.7 and len(toks) > 3:
                del toks[rng.randrange(len(toks))]
            else:
                toks.insert(rng.randrange(len(toks) + 1), rng.choice(words))
        return toks

    hyps, r1, r2 = [], [], []
    for _ in range(n):
        base = rng.choice(sents).split() + (rng.choice(sents).split() if rng.random() < 0.4 else [])
        r1.append(" ".join(base))
        r2.append(" ".join(perturb(base)))
        hyps.append(" ".join(perturb(base)))
    return hyps, [r1, r2]


def claims(hyps, streams, rng: random.Random):
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import BLEU

    from explainer.dialectcmp.corpus_engines import corpus_subsets, rouge155_average
    from explainer.rouge import score_rouge

    out = []
    subsets = [s for s, _, _ in corpus_subsets(len(streams))]
    for _ in range(6):
        sub = rng.choice(subsets)
        opts = {"tokenize": rng.choice(["13a", "intl", "none", "char"]), "lowercase": rng.random() < 0.5,
                "smooth_method": rng.choice(["exp", "none", "floor", "add-k"]),
                "max_ngram_order": rng.choice([4, 4, 3, 2]), "effective_order": rng.random() < 0.3}
        v = BLEU(**opts).corpus_score(hyps, [streams[k] for k in sub]).score
        out.append((f"BLEU {v:.2f}", "sacrebleu", sub, v))
    sub = rng.choice(subsets)
    v = float(corpus_bleu([[streams[k][i].split() for k in sub] for i in range(len(hyps))], [h.split() for h in hyps],
                          smoothing_function=SmoothingFunction().method1))
    out.append((f"BLEU {100 * v:.2f}", "nltk", sub, v))
    sub = rng.choice(subsets)
    sc = rouge_scorer.RougeScorer(["rouge2"])
    v = math.fsum(sc.score_multi([streams[k][i] for k in sub], h)["rouge2"].fmeasure
                  for i, h in enumerate(hyps)) / len(hyps)
    out.append((f"ROUGE-2 F1 {100 * v:.2f}", "rouge-score", sub, v))
    sub = (0,)
    vals = [score_rouge(h, [streams[0][i]], dialect="rouge155", types=["rouge1"])["rouge1"].fmeasure
            for i, h in enumerate(hyps)]
    v = rouge155_average(vals)
    out.append((f"ROUGE-1 {100 * v:.2f}", "rouge155", sub, v))
    out.append(("R-L 0.4417", None, None, None))          # a ROUGE-L claim: every meaning of the name
    out.append(("44.17", None, None, None))                # no metric name: BLEU and ROUGE
    out.append(("chrF 55.2", None, None, None))            # refused
    return out


def clear_caches() -> None:
    """Empty sacreBLEU's tokenizer caches (an lru_cache on each tokenizer's ``__call__``; as bench_bleu.py does),
    so that no claim profits from an earlier one's tokenization."""
    import gc

    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    for cls in (Tokenizer13a, TokenizerRegexp, TokenizerV14International, TokenizerZh, TokenizerChar):
        fn = cls.__dict__.get("__call__")
        if hasattr(fn, "cache_clear"):
            fn.cache_clear()
    gc.collect()


def sacrebleu_seconds(hyps, streams, n_sample: int = 12) -> tuple[float, int]:
    """sacreBLEU's own time to score every sacreBLEU configuration of the search once per subset (a sample of
    configurations timed, scaled to all)."""
    from sacrebleu.metrics import BLEU

    from explainer.dialectcmp.bleu_part import bleu_space
    from explainer.dialectcmp.corpus_engines import corpus_subsets

    space = [sc for sc in bleu_space(hyps[:200], corpus=True) if sc.dialect == "sacrebleu"]
    subsets = [s for s, _, _ in corpus_subsets(len(streams))]
    rng = random.Random(1)
    sample = rng.sample(space, n_sample)
    t0 = time.process_time()
    for sc in sample:
        o = dict(sc.config.opts)
        o.pop("api", None)
        for sub in subsets:
            BLEU(**o).corpus_score(hyps, [streams[k] for k in sub])
    per = (time.process_time() - t0) / n_sample
    return per * len(space), len(space) * len(subsets)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hyp")
    ap.add_argument("--ref", action="append", default=[])
    a = ap.parse_args()
    from explainer.dialectcmp.corpus_reproduction import reproduce_corpus

    if a.hyp:
        hyps = Path(a.hyp).read_text(encoding="utf-8").splitlines()
        streams = [Path(r).read_text(encoding="utf-8").splitlines() for r in a.ref]
        what = f"{a.hyp} with {len(streams)} reference files"
    else:
        hyps, streams = generated_corpus()
        what = "generated test set"
    refs = [list(x) for x in zip(*streams)]
    chars = sum(map(len, hyps)) + sum(len(r) for rs in refs for r in rs)
    print(f"{what}: {len(hyps):,} segments × {len(streams)} references, {chars:,} characters")
    times = []
    for text, dialect, sub, value in claims(hyps, streams, random.Random(20261127)):
        clear_caches()
        t0 = time.perf_counter()
        c0 = time.process_time()
        res = reproduce_corpus(hyps, refs, text, max_matches=None)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        times.append(wall)
        named = ""
        if dialect is not None:
            ok = any(m.config.dialect == dialect and tuple(m.references) == tuple(sub)
                     and math.isclose(m.value, value, rel_tol=1e-9) for m in res.matches)
            named = "generating configuration and subset named" if ok else "NOT FOUND"
        print(f"  {text!r:24} {wall:6.2f} s (CPU {cpu:6.2f} s)  {res.verdict:14} {res.n_configurations:6,} "
              f"scored  {named}")
    print(f"median {statistics.median(times):.2f} s per claim, worst {max(times):.2f} s (targets ≤ 10 s, ≤ 30 s)")
    secs, n = sacrebleu_seconds(hyps, streams)
    print(f"sacreBLEU itself, every sacreBLEU configuration of the search once per subset ({n:,} scores): "
          f"{secs:.1f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
