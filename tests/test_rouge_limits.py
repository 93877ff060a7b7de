"""The stated limits of the ROUGE core (explainer/rouge/limits.py), checked before the work starts:

* ROUGE-Lsum compares every reference sentence with every candidate sentence: ~30,000 tokens on ~1,700 lines took
  109 s for the scores and 6 min with a full trace. Now: at most LSUM_MAX_PAIRS sentence pairs (a clear
  ExplainerInputError above), and a full trace above SUMMARY_TRACE_MAX_PAIRS / _CELLS keeps the scores only, with
  a note, computed exactly as before.
* ROUGE-W's pure-Python tables: at most WLCS_MAX_TOTAL_CELLS cells over all sentence pairs.
* A corpus with every item's trace: at most MAX_CORPUS_TRACE_CHARS characters (12,000 items took 2.6 GB);
  ``item(i)`` builds one item's trace on demand.
"""
from __future__ import annotations

import json
import random
import time

import pytest
from rouge_score import rouge_scorer

from explainer.errors import ExplainerInputError, TraceTooLarge
from explainer.rouge import explain_rouge, explain_rouge_corpus, limits, score_rouge

_rng = random.Random(11)
_VOCAB = [f"w{i}" for i in range(400)]


def _lines(n_lines: int, per_line: int = 8) -> str:
    return "\n".join(" ".join(_rng.choice(_VOCAB) for _ in range(per_line)) for _ in range(n_lines))


@pytest.mark.parametrize("dialect", ["rouge-score", "rouge155"])
def test_lsum_over_the_pair_limit_is_refused_at_once(dialect):
    """The audit's case: ~30,000 tokens on ~1,700 lines (2.9 million sentence pairs)."""
    cand, ref = _lines(1_700, 18), _lines(1_700, 18)
    t0 = time.process_time()
    for call in (score_rouge, explain_rouge):
        with pytest.raises(ExplainerInputError) as e:
            call(cand, [ref], types=["rouge1", "rougeLsum"], dialect=dialect)
        assert "2,890,000 sentence pairs" in str(e.value) and f"{limits.LSUM_MAX_PAIRS:,}" in str(e.value)
    assert time.process_time() - t0 < 8   # tokenizing the texts; no LCS table is built
    assert score_rouge(cand, [ref], types=["rouge1", "rougeL"], dialect=dialect)["rougeL"].fmeasure > 0


def test_pair_limit_boundary_counts_every_reference(monkeypatch):
    monkeypatch.setattr(limits, "LSUM_MAX_PAIRS", 24)
    cand, ref = _lines(4), _lines(3)          # 4 x 3 = 12 sentence pairs per reference
    score_rouge(cand, [ref, ref], types=["rougeLsum"])                       # 24: at the limit
    with pytest.raises(ExplainerInputError, match="36 sentence pairs here, over the explainer's limit of 24"):
        score_rouge(cand, [ref, ref, ref], types=["rougeLsum"])
    score_rouge(cand, [ref, ref, ref], types=["rouge1", "rougeL"])          # no summary-level type: no limit


@pytest.mark.parametrize("dialect", ["rouge-score", "rouge155"])
def test_lsum_trace_over_the_trace_limit_keeps_the_scores_only(monkeypatch, dialect):
    monkeypatch.setattr(limits, "SUMMARY_TRACE_MAX_PAIRS", 20)
    cand, refs = _lines(5), [_lines(4), _lines(6)]     # 20 + 30 sentence pairs
    tr = explain_rouge(cand, refs, types=["rouge1", "rougeLsum"], dialect=dialect, multi_ref="best-recall")
    assert tr.scores == score_rouge(cand, refs, types=["rouge1", "rougeLsum"], dialect=dialect,
                                    multi_ref="best-recall")
    for per in tr.per_reference:
        d = per["rougeLsum"].detail
        assert "50 sentence pairs" in d["limited"] and "per_ref_sentence" not in d
        assert "limited" not in per["rouge1"].detail
    assert any("ROUGE-Lsum: scores only" in n for n in tr.notes)
    json.dumps(tr.to_dict(), allow_nan=False)
    monkeypatch.setattr(limits, "SUMMARY_TRACE_MAX_PAIRS", 50)
    full = explain_rouge(cand, refs, types=["rouge1", "rougeLsum"], dialect=dialect, multi_ref="best-recall")
    assert "per_ref_sentence" in full.per_reference[0]["rougeLsum"].detail and full.scores == tr.scores


def test_limited_trace_numbers_are_rouge_scores():
    """A trace over the trace limits (~8,000 sentence pairs) has rouge-score's own numbers."""
    cand, ref = _lines(90), _lines(90)
    tr = explain_rouge(cand, [ref], types=["rougeLsum"])
    assert "limited" in tr.per_reference[0]["rougeLsum"].detail
    want = rouge_scorer.RougeScorer(["rougeLsum"]).score(ref, cand)["rougeLsum"]
    assert tuple(tr.scores["rougeLsum"]) == pytest.approx(tuple(want), abs=1e-12, rel=0)


def test_rouge_w_total_cells_are_bounded(monkeypatch):
    """Every sentence pair fills a pure-Python table: the per-pair limit alone let many short lines run for minutes."""
    cand, ref = _lines(400, 10), _lines(400, 10)          # 4,000 x 4,000 tokens = 16 million cells
    t0 = time.process_time()
    with pytest.raises(ExplainerInputError, match=r"ROUGE-W .* 16,000,000 cells here, over the explainer's limit of "
                                                  r"12,000,000"):
        score_rouge(cand, [ref], types=["rougeW-1.2"])
    assert time.process_time() - t0 < 3
    monkeypatch.setattr(limits, "SUMMARY_TRACE_MAX_CELLS", 100)
    tr = explain_rouge(_lines(3), [_lines(3)], types=["rougeW-1.2"])      # 24 x 24 = 576 cells > 100
    d = tr.per_reference[0]["rougeW-1.2"].detail
    assert "576 table cells" in d["limited"] and "per_ref_sentence" not in d


def test_corpus_with_every_trace_is_capped_before_any_work(monkeypatch):
    monkeypatch.setattr(limits, "MAX_CORPUS_TRACE_CHARS", 100)
    cands = ["the cat sat on the mat"] * 3                      # 3 x (22 + 21) = 129 characters
    refs = [["the cat is on the mat"]] * 3
    calls = []
    with pytest.raises(TraceTooLarge, match=r"3 items would cover 129 characters, over the limit of 100"):
        explain_rouge_corpus(cands, refs, traces=True, progress=lambda i, n: calls.append(i))
    assert calls == []
    ct = explain_rouge_corpus(cands, refs)                      # scores without traces: fine
    assert ct.items is None and ct.item(2).scores == explain_rouge(cands[2], refs[2]).scores
    with pytest.raises(IndexError):
        ct.item(3)
    monkeypatch.setattr(limits, "MAX_CORPUS_TRACE_CHARS", 129)
    full = explain_rouge_corpus(cands, refs, traces=True)
    assert full.item(1) is full.items[1]
