"""The compare-mt analyses of the Corpus page and `compare --report` against compare-mt itself (the `compare-mt`
package of requirements-test.txt, run here on the same tokens): word accuracy by frequency bucket, sentence
buckets by compare-mt's `sentbleu`, and reference-length buckets (same buckets and counts; the scores differ by
design where compare-mt's own BLEU departs from sacreBLEU's, which the page says)."""
from __future__ import annotations

import contextlib
import io
import math

import pytest
from compare_mt import bucketers
from compare_mt import compare_mt_main as cmt

from explainer.corpus.comparemt import sentence_buckets, word_accuracy
from explainer.corpus.report import bleu_report
from explainer.corpus.samples import load_sample
from explainer.corpus.testset import build_testset
from tests.corpus_data import make_testset

#: compare-mt's default reference-length bucket cut-offs (``LengthSentenceBucketer``)
CMT_LENGTH_CUTOFFS = bucketers.LengthSentenceBucketer().bucket_cutoffs


def _quiet(fn, *a, **kw):
    with contextlib.redirect_stdout(io.StringIO()):      # compare-mt prints "Reading frequency from ..."
        return fn(*a, **kw)


def _tokens(rep, **_):
    """The tokens compare-mt is given: the dialect's, as a user would write them into compare-mt's tokenized
    files (reference 1, every system)."""
    d = rep.d
    ref = [d.tokenize(r[0]) for r in rep.testset.references]
    outs = [[d.tokenize(h) for h in lines] for _, lines in rep.testset.systems]
    return ref, outs


def _cases():
    en = load_sample("news-en")
    refs, systems = make_testset(250, 1, 3, lang="zh", seed=71)
    zh = build_testset(systems, [("ref", refs[0])])
    return {"news-en": (en, {}), "news-en lowercase": (en, {"lowercase": True}),
            "zh": (zh, {"tokenize": "zh"})}


CASES = _cases()


@pytest.mark.parametrize("case", list(CASES))
def test_word_accuracy_equals_compare_mt(case):
    ts, opts = CASES[case]
    rep = bleu_report(ts, **opts)
    if opts.get("lowercase"):
        # compare-mt lowercases with its own --case_insensitive: give it the cased tokens
        ref, outs = _tokens(bleu_report(ts))
        kw = {"case_insensitive": True}
    else:
        ref, outs = _tokens(rep)
        kw = {}
    wa = word_accuracy(rep)
    bucketer = bucketers.FreqWordBucketer(freq_data=ref, **kw)
    assert wa["labels"] == bucketer.bucket_strs
    assert wa["cutoffs"] == bucketer.bucket_cutoffs
    for out, mine in zip(outs, wa["systems"]):
        theirs = _quiet(cmt.generate_word_accuracy_report, ref, [out], to_cache=True, **kw)["statistics"]
        assert len(theirs) == len(mine["buckets"])
        for (m, r, o, rec, prec, f), b in zip(theirs, mine["buckets"]):
            assert (b["matches"], b["reference_words"], b["output_words"]) == (m, r, o)
            assert (b["recall"], b["precision"], b["fmeasure"]) == (rec, prec, f)
            assert math.isclose(b["fmeasure"], f, rel_tol=0, abs_tol=1e-9)


def test_word_accuracy_with_a_frequency_corpus_equals_compare_mt(tmp_path):
    """``--freq-corpus`` (compare-mt's ``freq_corpus_file``): the frequencies come from another text."""
    ts = load_sample("news-en")
    rep = bleu_report(ts)
    ref, outs = _tokens(rep)
    train = [r[1] for r in ts.references][:120] + [h for h in ts.systems[2][1][:60]]
    path = tmp_path / "train.tok"
    path.write_text("".join(" ".join(rep.d.tokenize(x)) + "\n" for x in train if x.strip()), encoding="utf-8")
    wa = word_accuracy(rep, freq_corpus=train)
    assert wa["frequencies_from"] == "the given corpus"
    for out, mine in zip(outs, wa["systems"]):
        theirs = _quiet(cmt.generate_word_accuracy_report, ref, [out], freq_corpus_file=str(path),
                        to_cache=True)["statistics"]
        got = [(b["matches"], b["reference_words"], b["output_words"], b["recall"], b["precision"], b["fmeasure"])
               for b in mine["buckets"]]
        assert got == [tuple(x) for x in theirs]


@pytest.mark.parametrize("case", list(CASES))
def test_sentence_buckets_equal_compare_mt(case):
    """compare-mt's default ``bucket_type=score,score_measure=sentbleu`` report: segments per band."""
    ts, opts = CASES[case]
    rep = bleu_report(ts, **opts)
    ref, outs = _tokens(rep)
    sb = sentence_buckets(rep)
    assert sb["labels"] == bucketers.ScoreSentenceBucketer("sentbleu").bucket_strs
    assert sb["scored_by"].startswith("compare-mt's sentbleu")
    for out, mine in zip(outs, sb["systems"]):
        theirs = cmt.generate_sentence_bucketed_report(ref, [out], bucket_type="score", score_measure="sentbleu",
                                                       to_cache=True)["stats"]
        assert mine["counts"] == list(theirs)
        assert sum(len(s) for s in mine["segments"]) == len(out)


def _comparemt_bleu_agrees(rep, j, ids) -> bool:
    """Where compare-mt's ``BleuScorer`` is sacreBLEU's corpus BLEU on one reference: every output segment has
    at least N tokens (compare-mt counts a shorter one as one n-gram of each missing order, ``max(1, denom)``)
    and every order has a match (compare-mt drops an order without one from the mean, as if its precision
    were 1)."""
    N = rep.max_order
    st = rep.systems[j].stats[ids]
    return not ((st[:, 0] < N).any() or (st[:, 2:2 + N].sum(0) == 0).any())


@pytest.mark.parametrize("case", ["news-en", "zh"])
def test_reference_length_buckets_at_compare_mts_cutoffs(case):
    """compare-mt's default ``bucket_type=length,statistic_type=score,score_measure=bleu``: the report's length
    buckets cut at compare-mt's cut-offs hold the same segments; their corpus BLEU is compare-mt's wherever its
    own BLEU agrees with sacreBLEU's (1e-9), and the buckets where it does not are exactly those the page's
    caption names (segments shorter than N, an order without a match)."""
    ts, opts = CASES[case]
    one_ref = build_testset(ts.systems, [("ref", [r[0] for r in ts.references])])
    rep = bleu_report(one_ref, **opts)
    ref, outs = _tokens(rep)
    mine = {b["low"]: b for b in rep.length_buckets(edges=CMT_LENGTH_CUTOFFS)}
    bounds = [0, *CMT_LENGTH_CUTOFFS]
    # (compare-mt's own count report of length buckets fails on an AttributeError: its bucketer counts them)
    counts = [len(o) for o, _, _ in bucketers.LengthSentenceBucketer().create_bucketed_corpus(outs[0], ref=ref)]
    assert [mine[lo]["n_segments"] if lo in mine else 0 for lo in bounds] == list(counts)
    agreed = differed = 0
    for j, out in enumerate(outs):
        theirs = cmt.generate_sentence_bucketed_report(ref, [out], bucket_type="length", statistic_type="score",
                                                       score_measure="bleu", to_cache=True)["stats"]
        for lo, score in zip(bounds, theirs):
            if lo not in mine:
                assert score == 0.0
                continue
            b = mine[lo]
            ours = b["scores"][rep.names[j]]
            if _comparemt_bleu_agrees(rep, j, [k - 1 for k in b["segments"]]):
                assert math.isclose(ours, score, rel_tol=0, abs_tol=1e-9), (lo, ours, score)
                agreed += 1
            else:
                differed += ours != score
    assert agreed >= 2
    if case == "news-en":
        assert differed >= 1      # the sample has 3-token segments and an empty output: the caption's cases


@pytest.mark.parametrize("case", ["news-en", "zh"])
def test_ngram_differences_equal_compare_mt(case):
    """compare-mt's default n-gram report (``compare_type=match``, n = 1..4, alpha = 1) on one reference: the
    matched counts of every n-gram, the salience ratio, and the top of each list (the ratios in order; n-grams of
    equal ratio may come in another order, compare-mt sorts a dict)."""
    from compare_mt import stat_utils

    from explainer.corpus.ngram_diff import ngram_differences

    ts, opts = CASES[case]
    one_ref = build_testset(ts.systems, [("ref", [r[0] for r in ts.references])])
    rep = bleu_report(one_ref, **opts)
    ref, outs = _tokens(rep)
    k = 15
    got = ngram_differences(rep, 1, 0, k=k)
    m_base, m_sys = (cmt.generate_ngram_report(ref, [o], to_cache=True)["matches"] for o in (outs[0], outs[1]))
    scores = stat_utils.extract_salient_features(m_sys, m_base, alpha=1.0)
    ranked = sorted(scores.values(), reverse=True)
    for side, want in (("better", ranked[:k]), ("worse", ranked[::-1][:k])):
        recs = got[side]
        assert [r["ratio"] for r in recs] == want
        for r in recs:
            ng = tuple(r["ngram"].split(" "))
            assert (r["system"], r["baseline"]) == (m_sys.get(ng, 0), m_base.get(ng, 0))
            assert r["ratio"] == scores[ng]
    assert got["matched_per_order"]["system"] == [sum(c for g, c in m_sys.items() if len(g) == n)
                                                   for n in range(1, 5)]
