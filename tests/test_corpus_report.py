"""The corpus report: corpus BLEU of every dialect against the real libraries / golden vectors, per-segment scores
equal to the Explain view's, and every analysis number recomputed from the segments it names."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from sacrebleu.metrics import BLEU

from explainer.bleu import dialect_names, explain_bleu, score_bleu_corpus
from explainer.corpus.export import columns_csv, json_text
from explainer.corpus.report import bleu_report
from explainer.corpus.rouge_report import rouge_report
from explainer.corpus.samples import SAMPLES, load_sample
from explainer.corpus.testset import build_testset
from explainer.rouge import explain_rouge_corpus

DATA = Path(__file__).resolve().parent / "data"
TOL = 1e-9


@pytest.fixture(scope="module")
def en():
    return load_sample("news-en")


@pytest.fixture(scope="module")
def en_report(en):
    return bleu_report(en)


def test_samples_are_bundled_and_graded():
    assert set(SAMPLES) >= {"news-en", "news-zh"}
    en, zh = load_sample("news-en"), load_sample("news-zh")
    assert en.n_segments == 300 and en.n_refs() == 2 and en.names == ["baseline", "new-model", "small-model"]
    assert zh.n_segments == 200 and SAMPLES["news-zh"].settings == {"bleu": {"tokenize": "zh"}}
    assert en.system("small-model")[41] == ""
    scores = [sacrebleu.corpus_bleu(lines, [list(s) for s in zip(*en.references)]).score for _, lines in en.systems]
    assert scores[1] > scores[0] > scores[2]
    zs = [sacrebleu.corpus_bleu(lines, [list(s) for s in zip(*zh.references)], tokenize="zh").score
          for _, lines in zh.systems]
    assert zs[0] > zs[1]


# ------------------------------------------------------------------------- corpus scores, real libraries
def test_sacrebleu_corpus_and_sentence_scores_equal_the_library(en, en_report):
    streams = [list(s) for s in zip(*en.references)]
    for j, (_, lines) in enumerate(en.systems):
        s = en_report.systems[j]
        want = BLEU().corpus_score(lines, streams)
        assert s.score == want.score and list(s.trace.counts) == want.counts and list(s.trace.totals) == want.totals
        assert (s.trace.sys_len, s.trace.ref_len) == (want.sys_len, want.ref_len)
        var = en_report.sacrebleu_sentence_variants(j)
        plain = BLEU()
        for k in range(0, en.n_segments, 7):
            refs = en.references[k]
            assert s.sentence[k] == plain.sentence_score(lines[k], refs).score
            assert var["sentence_score"][k] == plain.sentence_score(lines[k], refs).score
            assert var["sentence_bleu"][k] == sacrebleu.sentence_bleu(lines[k], refs).score
    m = BLEU()
    m.corpus_score(en.systems[0][1], streams)
    assert en_report.signature == m.get_signature().format()


def test_chinese_sample_with_the_zh_tokenizer():
    zh = load_sample("news-zh")
    rep = bleu_report(zh, tokenize="zh")
    streams = [list(s) for s in zip(*zh.references)]
    for j, (_, lines) in enumerate(zh.systems):
        assert rep.systems[j].score == BLEU(tokenize="zh").corpus_score(lines, streams).score


def test_nltk_corpus_bleu_equals_the_library(en):
    small = build_testset([(n, lines[:80]) for n, lines in en.systems], per_segment_refs=en.references[:80])
    rep = bleu_report(small, dialect="nltk")
    for j, (_, lines) in enumerate(small.systems):
        want = nltk_corpus_bleu([[r.split() for r in refs] for refs in small.references], [h.split() for h in lines])
        assert math.isclose(rep.systems[j].score, want, abs_tol=TOL)


@pytest.mark.parametrize("dialect", dialect_names())
def test_every_dialect_report_equals_the_core_and_the_explain_view(en, dialect):
    small = build_testset([(n, lines[:60]) for n, lines in en.systems], per_segment_refs=en.references[:60])
    rep = bleu_report(small, dialect=dialect)
    for j, (_, lines) in enumerate(small.systems):
        want = score_bleu_corpus(lines, small.references, dialect=dialect)
        assert rep.systems[j].score == want.score
        assert list(rep.systems[j].trace.counts) == list(want.counts)
        for k in range(0, 60, 9):
            e = explain_bleu(lines[k], small.references[k], dialect=dialect)
            assert rep.systems[j].sentence[k] == e.score, (dialect, j, k)
            assert rep.systems[j].bp[k] == e.bp


def _golden_options(rec):
    o = rec["options"]
    impl = rec["implementation"]
    if impl == "hf_evaluate_bleu":
        return "hf-evaluate", {"max_order": o["max_order"], "smooth": o["smooth"]}
    if impl == "moses_multi_bleu":
        return "multi-bleu", {"script": o["script"], "lowercase": "-lc" in o["flags"]}
    return "mteval", {"preserve_case": not o["lowercase"], "smoothing": o["smoothing"],
                      "international_tokenization": o["tokenization"] == "international"}


def test_golden_corpora_of_the_implementations_that_cannot_run_here():
    """HF evaluate's bleu, multi-bleu(-detok).perl and mteval-v13a.pl corpus records (tests/data, copied from the
    golden vectors): the report's corpus score, counts and lengths, and mteval's printed segment scores."""
    recs = [json.loads(x) for x in (DATA / "corpus_golden_bleu.jsonl").read_text(encoding="utf-8").splitlines()]
    checked = {"hf-evaluate": 0, "multi-bleu": 0, "mteval": 0}
    for rec in recs:
        if rec["status"] != "ok":
            continue
        dialect, opts = _golden_options(rec)
        ts = build_testset([("sys", rec["candidates"])], per_segment_refs=rec["references"])
        rep = bleu_report(ts, dialect=dialect, **opts)
        s = rep.systems[0]
        res = rec["result"]
        key = (rec["case_id"], rec["options"])
        if dialect == "hf-evaluate":
            assert math.isclose(s.score, res["bleu"], abs_tol=TOL), key
            assert (s.trace.sys_len, s.trace.ref_len) == (res["translation_length"], res["reference_length"]), key
        elif dialect == "multi-bleu":
            assert math.isclose(s.score, res["full_precision"]["score"], abs_tol=TOL), key
            assert list(s.trace.counts) == res["matches"] and list(s.trace.totals) == res["totals"], key
        else:
            assert math.isclose(s.score, res["full_precision"]["score"], abs_tol=TOL), key
            assert list(s.trace.counts) == res["matches"], key
        checked[dialect] += 1
    assert checked == {"hf-evaluate": 36, "multi-bleu": 18, "mteval": 30}, checked


# ------------------------------------------------------------------------------------------- analyses
def test_corpus_vs_mean_and_the_segments_that_pull_them_apart(en, en_report):
    cvm = en_report.corpus_vs_mean(1)
    s = en_report.systems[1]
    assert cvm["corpus"] == s.score
    assert cvm["mean_of_sentences"] == pytest.approx(float(np.mean(s.sentence)), abs=TOL)
    assert cvm["mean_sentence_bleu"] == pytest.approx(
        float(np.mean([sacrebleu.sentence_bleu(h, r).score for h, r in zip(en.systems[1][1], en.references)])),
        abs=TOL)
    top = cvm["pulling_apart"][0]
    k = top["segment"] - 1
    keep = [i for i in range(en.n_segments) if i != k]
    lines = en.systems[1][1]
    without = score_bleu_corpus([lines[i] for i in keep], [en.references[i] for i in keep]).score
    assert top["corpus_without"] == pytest.approx(without, abs=TOL)
    assert top["mean_without"] == pytest.approx(float(np.mean(s.sentence[keep])), abs=TOL)
    assert top["influence"] == pytest.approx(cvm["gap"] - (without - top["mean_without"]), abs=TOL)
    assert abs(top["influence"]) >= max(abs(x["influence"]) for x in cvm["pulling_apart"][1:])
    assert any(r["what"] == "weights" for r in cvm["reasons"])


def test_length_buckets_partition_and_rescore(en, en_report):
    buckets = en_report.length_buckets()
    assert sum(b["n_segments"] for b in buckets) == en.n_segments
    for b in buckets:
        if not b["n_segments"]:
            continue
        idx = [x - 1 for x in b["segments"]]
        assert len(idx) == b["n_segments"]
        for name, lines in en.systems:
            want = score_bleu_corpus([lines[i] for i in idx], [en.references[i] for i in idx]).score
            assert b["scores"][name] == want


def test_ngram_differences_add_up_to_the_corpus_counts(en, en_report):
    nd = en_report.ngram_differences(1, 0, k=5)
    assert nd["matched_per_order"]["system"] == list(en_report.systems[1].trace.counts)
    assert nd["matched_per_order"]["baseline"] == list(en_report.systems[0].trace.counts)
    assert nd["better"] and nd["worse"]
    rec = nd["better"][0]
    assert rec["difference"] == rec["system"] - rec["baseline"] > 0
    # recount one n-gram by brute force over the segments it names
    from explainer.corpus.ngram_diff import clipped_matches

    d = en_report.d
    g = tuple(rec["ngram"].split(" "))
    tot_s = tot_b = 0
    for k in range(en.n_segments):
        prep = en_report.prepared_refs[k][0]
        tot_s += clipped_matches(d.tokenize(en.systems[1][1][k]), prep, d.max_order).get(g, 0)
        tot_b += clipped_matches(d.tokenize(en.systems[0][1][k]), prep, d.max_order).get(g, 0)
    assert (tot_s, tot_b) == (rec["system"], rec["baseline"])


def test_deltas_table_and_json(en, en_report):
    dl = en_report.largest_deltas(2, 0, k=5)
    assert dl["n_better"] + dl["n_worse"] + dl["n_equal"] == en.n_segments
    w = dl["worse"][0]
    k = w["segment"] - 1
    assert w["delta"] == en_report.systems[2].sentence[k] - en_report.systems[0].sentence[k]
    assert w["delta"] <= min(x["delta"] for x in dl["worse"])
    cols = en_report.segment_rows()
    assert len(cols["segment"]) == en.n_segments and cols["small-model | score"][41] == 0.0
    assert cols["small-model | len"][41] == 0 and cols["small-model | BP"][41] == 0.0
    text = columns_csv(cols)
    assert text.splitlines()[0].startswith("segment,ref_len,baseline | len")
    rep = json.loads(json_text(en_report.to_dict()))
    assert rep["systems"][0]["score"] == en_report.systems[0].score and len(rep["segments"]) == 300
    assert rep["segments"][41]["systems"]["small-model"]["length"] == 0


def test_csv_cells_cannot_run_as_formulas():
    text = columns_csv({"=cmd|' /C calc'!A0": ["+1", "@x", 1.5, -2.0]})
    assert text.splitlines() == ["'=cmd|' /C calc'!A0", "'+1", "'@x", "1.5", "-2.0"]


# ----------------------------------------------------------------------------------------------- ROUGE
def test_rouge_report_is_the_dialects_aggregation(en):
    small = build_testset([(n, lines[:50]) for n, lines in en.systems], per_segment_refs=en.references[:50])
    rr = rouge_report(small, types=["rouge1", "rougeL"])
    for j, (_, lines) in enumerate(small.systems):
        want = explain_rouge_corpus(lines, small.references, types=["rouge1", "rougeL"])
        assert rr.systems[j].trace.reported == want.reported
        assert rr.systems[j].mean("rougeL") == pytest.approx(
            float(np.mean([s["rougeL"].fmeasure for s in want.item_scores])), abs=TOL)
    # rouge-score's own BootstrapAggregator, seeded as the dialect documents (np.random.seed(42))
    from rouge_score import rouge_scorer, scoring

    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    np.random.seed(42)
    agg = scoring.BootstrapAggregator()
    for h, refs in zip(small.systems[0][1], small.references):
        agg.add_scores(scorer.score_multi(refs, h))
    res = agg.aggregate()
    rows = {r["type"]: r for r in rr.aggregate_rows() if r["system"] == small.names[0]}
    for t in ("rouge1", "rougeL"):
        assert rows[t]["mid_f"] == pytest.approx(res[t].mid.fmeasure, abs=TOL)
        assert rows[t]["low_f"] == pytest.approx(res[t].low.fmeasure, abs=TOL)
        assert rows[t]["high_f"] == pytest.approx(res[t].high.fmeasure, abs=TOL)


def test_rouge155_corpus_interval_comes_from_the_dialect(en):
    small = build_testset([(n, lines[:30]) for n, lines in en.systems[:2]], per_segment_refs=en.references[:30])
    rr = rouge_report(small, dialect="rouge155", types=["rouge1"], resamples=200)
    want = explain_rouge_corpus(small.systems[0][1], small.references, dialect="rouge155", types=["rouge1"],
                                resamples=200)
    assert rr.systems[0].trace.reported == want.reported
    assert "CI_F" in rr.systems[0].trace.reported["rouge1"]
