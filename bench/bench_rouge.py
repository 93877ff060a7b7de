"""ROUGE speed vs rouge-score, one run (issue 3 §3).

1. Scores only: ROUGE-1/2/L/Lsum with stemming on 2,500 multi-sentence summary pairs. rouge-score's
   ``RougeScorer.score`` vs ``explainer.rouge.score_rouge``; every number must be identical (checked).
2. Full traces (tokens with spans, n-gram tables, LCS alignment + table, union steps) on the same pairs vs
   rouge-score's scores: all 2,500 kept (``explain_rouge_corpus(traces=True)``), and one at a time + to_dict().
3. One 5,000 x 5,000-token ROUGE-L trace (alignment, sampled table, alternative-LCS flag); target < 2 s.

Each timing is the best of a few repeats; the stemmer memo is cleared before each run of ours, so the
explainer pays for stemming every distinct word again (rouge-score stems every occurrence).
Usage: python bench/bench_rouge.py [--pairs N] [--quick]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rouge_score import rouge_scorer  # noqa: E402

from explainer.rouge import explain_rouge, explain_rouge_corpus, score_rouge  # noqa: E402
from explainer.rouge import limits as rouge_limits  # noqa: E402
from explainer.rouge import tokenize as rtok  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]

# a fixed pseudo-English vocabulary (no external text): stems with inflections so the stemmer has work
BASES = ("report market govern elect nation compani announc increas decis polic citi state offici year percent "
         "week month presid minist court vote tax bank price oil trade talk plan peopl worker school hospit "
         "storm flood fire attack troop border leader parti union contract budget deficit growth export").split()
SUFFIXES = ["", "s", "ed", "ing", "er", "ers", "ment", "ly", "ation", "al"]
FUNC = "the a of to in and for on that with by at from as is was were has have said it its".split()


def _word(rng):
    if rng.random() < 0.45:
        return rng.choice(FUNC)
    return rng.choice(BASES) + rng.choice(SUFFIXES)


def _sentence(rng):
    w = [_word(rng) for _ in range(rng.randint(10, 24))]
    w[0] = w[0].capitalize()
    return " ".join(w) + rng.choice([".", ".", ",", "!"])


def make_pairs(n: int, seed: int = 20241122):
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        ref_s = [_sentence(rng) for _ in range(rng.randint(2, 5))]
        cand_s = []
        for s in ref_s:  # candidate: a noisy paraphrase of the reference sentences, sometimes reordered
            ws = s.split()
            ws = [w if rng.random() < 0.7 else _word(rng) for w in ws]
            if rng.random() < 0.3:
                del ws[rng.randrange(len(ws))]
            cand_s.append(" ".join(ws))
        if rng.random() < 0.3:
            rng.shuffle(cand_s)
        if rng.random() < 0.3:
            cand_s.append(_sentence(rng))
        pairs.append(("\n".join(cand_s), "\n".join(ref_s)))
    return pairs


def best_of(fn, repeats):
    best = float("inf")
    out = None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=2500)
    ap.add_argument("--quick", action="store_true", help="1 repeat instead of 3")
    args = ap.parse_args()
    reps = 1 if args.quick else 3
    pairs = make_pairs(args.pairs)
    ntok = sum(len(c.split()) + len(r.split()) for c, r in pairs)
    print(f"{len(pairs)} pairs, {ntok / len(pairs) / 2:.1f} words per text on average, "
          f"{sum(c.count(chr(10)) + 1 for c, _ in pairs) / len(pairs):.1f} candidate sentences")

    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    t_rs, ref_scores = best_of(lambda: [scorer.score(r, c) for c, r in pairs], reps)

    def ours_fast():
        rtok.memo_porter()._cache.clear()
        return [score_rouge(c, [r], types=TYPES, use_stemmer=True) for c, r in pairs]

    t_fast, fast_scores = best_of(ours_fast, reps)
    mism = sum(1 for a, b in zip(ref_scores, fast_scores) for t in TYPES if tuple(a[t]) != tuple(b[t]))

    n_chars = sum(len(c) + len(r) for c, r in pairs)
    if n_chars > rouge_limits.MAX_CORPUS_TRACE_CHARS:
        print(f"(corpus of {n_chars:,} characters: MAX_CORPUS_TRACE_CHARS lifted for this benchmark run)")
        rouge_limits.MAX_CORPUS_TRACE_CHARS = n_chars

    def ours_full():
        rtok.memo_porter()._cache.clear()
        return explain_rouge_corpus([c for c, _ in pairs], [[r] for _, r in pairs], types=TYPES, use_stemmer=True,
                                    traces=True, aggregate="mean").items

    t_full, traces = best_of(ours_full, reps)
    mism_full = sum(1 for a, b in zip(ref_scores, traces) for t in TYPES if tuple(a[t]) != tuple(b.scores[t]))
    del traces

    def ours_full_each():
        rtok.memo_porter()._cache.clear()
        for c, r in pairs:
            explain_rouge(c, [r], types=TYPES, use_stemmer=True).to_dict()

    t_each, _ = best_of(ours_full_each, reps)

    print(f"rouge-score RougeScorer.score       : {t_rs:7.3f} s")
    print(f"explainer score_rouge (scores only) : {t_fast:7.3f} s   speed-up x{t_rs / t_fast:.2f}   "
          f"numbers not bit-identical: {mism} of {len(pairs) * len(TYPES)}")
    print(f"explainer full traces, all kept     : {t_full:7.3f} s   speed-up x{t_rs / t_full:.2f}   "
          f"numbers not bit-identical: {mism_full}   (explain_rouge_corpus(traces=True))")
    print(f"explainer explain_rouge + to_dict() : {t_each:7.3f} s   speed-up x{t_rs / t_each:.2f}   "
          f"(one trace at a time, serialised to JSON-ready dicts)")

    # 5,000 x 5,000 tokens ROUGE-L trace
    rng = random.Random(5)
    a = " ".join(_word(rng) for _ in range(5000))
    b = " ".join(_word(rng) for _ in range(5000))
    t_long, tr = best_of(lambda: explain_rouge(a, [b], types=["rougeL"]), 1)
    det = tr.per_reference[0]["rougeL"].detail
    n_a, n_b = len(tr.candidate.tokenized.tokens), len(tr.references[0].tokenized.tokens)
    print(f"ROUGE-L trace {n_a} x {n_b} tokens      : {t_long:7.3f} s   (LCS {det['lcs_length']}, table "
          f"{det['table']['kind']} {len(det['table']['row_index'])}x{len(det['table']['col_index'])}, "
          f"alternative LCS: {det['alternative_lcs_exists']}; target < 2 s)")
    # worst case for the alternative-LCS check: a unique LCS (5,000 distinct tokens vs themselves) scans every row
    u = " ".join(f"w{i}" for i in range(5000))
    t_u, tr_u = best_of(lambda: explain_rouge(u, [u], types=["rougeL"]), 1)
    print(f"ROUGE-L trace 5000 x 5000, unique LCS: {t_u:7.3f} s   (LCS {tr_u.per_reference[0]['rougeL'].hits}, "
          f"alternative LCS: {tr_u.per_reference[0]['rougeL'].detail['alternative_lcs_exists']}; target < 2 s)")
    if not args.quick or n_a * n_b <= 4_000_000:
        t0 = time.perf_counter()
        s = rouge_scorer.RougeScorer(["rougeL"]).score(b, a)["rougeL"]
        t_rs_long = time.perf_counter() - t0
        print(f"rouge-score rougeL same pair         : {t_rs_long:7.3f} s   (same F: "
              f"{s.fmeasure == tr.scores['rougeL'].fmeasure})")
    ok = mism == 0 and mism_full == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
