"""Dialects view and reproduce search: time for one sentence pair.

* reproduce, the whole space (every BLEU and ROUGE configuration, every reference subset, claim without a
  metric name): median of repeated runs after one warm-up, and the first run in this process (cold caches);
  target < 1 s;
* the same space rescored from scratch with the public APIs (``score_bleu`` / ``score_rouge`` per configuration
  and subset), and the sacreBLEU part of it with sacreBLEU itself (``BLEU(**options).corpus_score`` per
  configuration and subset), measured in the same run: ratios show what sharing tokens and counts saves;
* the side-by-side comparison (all rows' full traces + first divergences), BLEU and ROUGE.
"""
from __future__ import annotations

import statistics
import sys
import time
import warnings
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explainer.examples import get_example  # noqa: E402

PAIRS = ["cat_sat", "military_c1", "abandon_hope"]
LONG = ("the committee said on tuesday that the new rules for schools would take effect next year , after a long "
        "debate about funding , teachers and the number of pupils in each class . " * 2).strip()
LONG_REFS = [LONG.replace("tuesday", "monday"), LONG.replace("new rules", "rules").replace("long", "short")]


def median_time(fn, repeat=5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def from_scratch(cand, refs, claim="0.5"):
    """The same configurations and subsets as reproduce, each scored with the public API from scratch."""
    from explainer.bleu import score_bleu
    from explainer.dialectcmp.bleu_part import bleu_space
    from explainer.dialectcmp.claim import parse_claim
    from explainer.dialectcmp.reproduction import reference_subsets
    from explainer.dialectcmp.rouge_part import rouge_space
    from explainer.dialectcmp.rouge_search import iter_rules
    from explainer.dialectcmp.rouge_search import rouge_types as _rouge_types
    from explainer.rouge import score_rouge

    cl = parse_claim(claim)
    subsets = [s for s, _, _ in reference_subsets(len(refs))]
    for sc in bleu_space([cand] + refs):
        for s in subsets:
            score_bleu(cand, [refs[k] for k in s], dialect=sc.dialect, **sc.config.opts)
    for sc in rouge_space(split_changes=False):
        for rule, _, _ in iter_rules(sc.dialect):
            opts = dict(sc.config.opts, multi_ref=rule)
            for s in subsets:
                score_rouge(cand, [refs[k] for k in s], dialect=sc.dialect, types=_rouge_types(cl, sc.dialect), **opts)


def sacrebleu_part(cand, refs):
    from sacrebleu.metrics import BLEU

    from explainer.dialectcmp.bleu_part import bleu_space
    from explainer.dialectcmp.reproduction import reference_subsets

    subsets = [s for s, _, _ in reference_subsets(len(refs))]
    n = 0
    for sc in bleu_space([cand] + refs):
        if sc.dialect != "sacrebleu":
            continue
        o = dict(sc.config.opts)
        eff = o.pop("api", "corpus_bleu") == "sentence_bleu"
        bleu = BLEU(effective_order=eff, **o)
        for s in subsets:
            bleu.corpus_score([cand], [[refs[k]] for k in s])
            n += 1
    return n


def ours_sacrebleu_part(cand, refs):
    from explainer.dialectcmp.bleu_part import bleu_space
    from explainer.dialectcmp.engines import BleuEngine
    from explainer.dialectcmp.reproduction import reference_subsets

    eng = BleuEngine(cand, refs)
    subsets = [s for s, _, _ in reference_subsets(len(refs))]
    for sc in bleu_space([cand] + refs):
        if sc.dialect == "sacrebleu":
            for s in subsets:
                eng.score("sacrebleu", sc.config.opts, s)


def main():
    warnings.simplefilter("ignore")
    from explainer.dialectcmp.comparison import compare
    from explainer.dialectcmp.reproduction import reproduce

    cases = [(e, get_example(e).candidate, list(get_example(e).references)) for e in PAIRS]
    cases.append(("long (2 x 33 words, 2 refs)", LONG, LONG_REFS))
    t0 = time.perf_counter()
    first = reproduce(cases[0][1], cases[0][2], "0.5")
    cold = time.perf_counter() - t0
    print(f"reproduce, first run in this process (imports and caches cold): {cold:.3f} s "
          f"({first.n_configurations:,} configurations)")
    print("reproduce, whole space (claim '0.5': every BLEU and ROUGE configuration, every reference subset):")
    print(f"  {'pair':32s} {'refs':>4s} {'configs':>8s} {'ours':>8s} {'scratch':>8s} {'ratio':>6s}   "
          f"{'sacreBLEU part: ours':>20s} {'sacrebleu':>9s} {'ratio':>6s}")
    worst = 0.0
    for name, cand, refs in cases:
        res = reproduce(cand, refs, "0.5")
        t_ours = median_time(partial(reproduce, cand, refs, "0.5"))
        t_scratch = median_time(partial(from_scratch, cand, refs), repeat=1)
        t_sb_ours = median_time(partial(ours_sacrebleu_part, cand, refs))
        t_sb = median_time(partial(sacrebleu_part, cand, refs), repeat=3)
        worst = max(worst, t_ours)
        print(f"  {name:32s} {len(refs):4d} {res.n_configurations:8,d} {t_ours:7.3f}s {t_scratch:7.3f}s "
              f"{t_ours / t_scratch:6.2f}   {t_sb_ours:19.3f}s {t_sb:8.3f}s {t_sb_ours / t_sb:6.2f}")
    print(f"  slowest pair: {worst:.3f} s (target < 1 s)")
    print("dialects (side by side: every row's full trace + first divergences), median:")
    for name, cand, refs in cases:
        tb = median_time(partial(compare, cand, refs, metric="bleu"), repeat=3)
        tr = median_time(partial(compare, cand, refs, metric="rouge"), repeat=3)
        print(f"  {name:32s} BLEU {tb:6.3f} s   ROUGE {tr:6.3f} s")


if __name__ == "__main__":
    main()
