"""The analyses of issue 19, item 6: ROUGE length buckets of about equal size, largest deltas scored as
sacrebleu.sentence_bleu scores them (effective order), n-gram differences ranked by compare-mt's smoothed match
ratio. Expected numbers from sacreBLEU and rouge-score, computed here."""
from __future__ import annotations

import random

import numpy as np
import sacrebleu
from rouge_score import rouge_scorer

from explainer.corpus.ngram_diff import match_ratio
from explainer.corpus.report import bleu_report
from explainer.corpus.rouge_report import rouge_report
from explainer.corpus.testset import build_testset
from tests.corpus_data import make_testset


def test_rouge_length_buckets_are_about_equal_in_size():
    """Long summaries (50-120 words, as REALSumm's) all fell in the last fixed 10-word bin."""
    rng = random.Random(4)
    words = "the a report said council market city people year plan budget court water energy new".split()
    refs = [" ".join(rng.choice(words) for _ in range(rng.randint(50, 120))) for _ in range(100)]
    hyps = [" ".join(r.split()[: rng.randint(20, 60)]) for r in refs]
    ts = build_testset([("sys", hyps)], [("ref", refs)])
    rr = rouge_report(ts, types=["rouge1"])
    buckets = rr.length_buckets("rouge1")
    sizes = [b["n_segments"] for b in buckets]
    assert len(buckets) >= 4 and sum(sizes) == 100 and max(sizes) <= 2 * min(sizes), sizes
    sc = rouge_scorer.RougeScorer(["rouge1"])
    for b in buckets:
        want = np.mean([sc.score(refs[k - 1], hyps[k - 1])["rouge1"].fmeasure for k in b["segments"]])
        assert b["scores"]["sys"] == float(want)


def test_largest_deltas_use_sentence_bleu_with_effective_order():
    refs, systems = make_testset(200, 1, 2, seed=41)
    # short segments: 2-3 tokens, where BLEU without effective order is 0 for lack of a 4-gram
    r0 = list(refs[0])
    a, b = list(systems[0][1]), list(systems[1][1])
    for k in range(0, 200, 10):
        r0[k] = "Yes sir ."
        a[k], b[k] = "No .", "Yes sir ."
    ts = build_testset([("A", a), ("B", b)], [("ref", r0)])
    rep = bleu_report(ts)
    dl = rep.largest_deltas(1, 0, k=10)
    assert dl["scored_by"] == "sacrebleu.sentence_bleu (effective order)"
    want = np.array([sacrebleu.sentence_bleu(y, [r]).score - sacrebleu.sentence_bleu(x, [r]).score
                     for x, y, r in zip(a, b, r0)])
    for rec in dl["better"] + dl["worse"]:
        assert rec["delta"] == want[rec["segment"] - 1]
    assert [r["delta"] for r in dl["better"]] == sorted(want[want > 0], reverse=True)[:10]
    assert dl["n_better"] == int((want > 0).sum()) and dl["n_worse"] == int((want < 0).sum())


def test_ngram_differences_rank_by_compare_mts_smoothed_ratio():
    """A comma matched 10 more times (of ~100) ranked above a content word matched 5 times against 0."""
    ref = ["wir sehen , dass , der , rat , plant , heute"] * 20 + ["die Brücke ist neu"] * 5
    base = ["wir sehen , dass , der , rat , plant heute"] * 20 + ["die Straße ist neu"] * 5
    syst = ["wir sehen , dass , der , rat , plant , heute"] * 20 + ["die Brücke ist neu"] * 5
    ts = build_testset([("base", base), ("sys", syst)], [("ref", ref)])
    rep = bleu_report(ts)
    nd = rep.ngram_differences(1, 0, k=50, orders=[1])
    first = nd["better"][0]
    assert first["ngram"] == "Brücke" and first["ratio"] == match_ratio(5, 0) == 6 / 7
    ratios = [r["ratio"] for r in nd["better"]]
    assert ratios == sorted(ratios, reverse=True)
    assert all(r["ratio"] == (r["system"] + 1) / (r["system"] + r["baseline"] + 2) for r in nd["better"])
    comma = next(r for r in nd["better"] if r["ngram"] == ",")
    assert comma["difference"] > first["difference"]          # raw difference would have put it first
    assert "compare-mt" in nd["ranking"]
