"""The stated limits of the ROUGE core (explainer/rouge/limits.py), checked before the work starts:

* ROUGE-Lsum compares every reference sentence with every candidate sentence: ~30,000 tokens on ~1,700 lines took
  109 s for the scores and 6 min with a full trace. Now: at most LSUM_MAX_PAIRS sentence pairs (a clear
  ExplainerInputError above), and a full trace above SUMMARY_TRACE_MAX_PAIRS / _CELLS keeps the scores only, with
  a note, computed exactly as before.
* The pairs alone did not bound the work: 223 candidate lines of 150 tokens against 10 references of 22 lines of
  1,500 tokens (49,060 pairs, under the pair limit; 1.1e10 table cells) took 39 s. Now: at most LSUM_MAX_CELLS
  table cells too (SummaryWorkTooLarge, naming the types over their limits); the Explain page leaves those types
  out, shows the others and says why.
* ROUGE-W's pure-Python tables: at most WLCS_MAX_TOTAL_CELLS cells over all sentence pairs.
* A corpus with every item's trace: at most MAX_CORPUS_TRACE_CHARS characters (12,000 items took 2.6 GB);
  ``item(i)`` builds one item's trace on demand.
"""
from __future__ import annotations

import json
import random

import pytest
from rouge_score import rouge_scorer

from explainer.cli import main
from explainer.errors import ExplainerInputError, TraceTooLarge
from explainer.rouge import explain_rouge, explain_rouge_corpus, limits, score_rouge
from explainer.rouge.limits import SummaryWorkTooLarge

_rng = random.Random(11)
_VOCAB = [f"w{i}" for i in range(400)]


def _lines(n_lines: int, per_line: int = 8) -> str:
    return "\n".join(" ".join(_rng.choice(_VOCAB) for _ in range(per_line)) for _ in range(n_lines))


@pytest.fixture
def no_tables(monkeypatch):
    """Every LCS / WLCS primitive the dialects reach raises if called: a refusal "at once" is one made before any
    table is built. (A CPU-time bound here was flaky on a loaded machine; speed is in bench/bench_lsum_limit.py.)"""
    from explainer.rouge import lcs as lcs_mod
    from explainer.rouge import union, wlcs
    from explainer.rouge.rouge155 import evaluation

    def built(*a, **k):
        raise AssertionError("a table was built before the refusal")
    for mod, names in ((lcs_mod, ("lcs", "lcs_pairs", "masks_of")), (union, ("lcs", "lcs_pairs", "masks_of")),
                       (wlcs, ("wlcs",)), (evaluation, ("_core_lcs_pairs", "_core_wlcs"))):
        for name in names:
            monkeypatch.setattr(mod, name, built)
    return monkeypatch


@pytest.mark.parametrize("dialect", ["rouge-score", "rouge155"])
def test_lsum_over_the_pair_limit_is_refused_at_once(dialect, no_tables):
    """The audit's case: ~30,000 tokens on ~1,700 lines (2.9 million sentence pairs)."""
    cand, ref = _lines(1_700, 18), _lines(1_700, 18)
    for call in (score_rouge, explain_rouge):
        with pytest.raises(ExplainerInputError) as e:
            call(cand, [ref], types=["rouge1", "rougeLsum"], dialect=dialect)
        assert "2,890,000 sentence pairs" in str(e.value) and f"{limits.LSUM_MAX_PAIRS:,}" in str(e.value)
    no_tables.undo()
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


@pytest.mark.parametrize("dialect", ["rouge-score", "rouge155"])
def test_lsum_over_the_cell_limit_is_refused_at_once(dialect, no_tables):
    """The audit's second case, inside every other limit: each text ~153,000 characters (under 200,000), 49,060
    sentence pairs (under 50,000), but 33,450 x 33,000 x 10 = 11,038,500,000 table cells: 39 s before the limit.
    Refused before any LCS table is built (the no_tables fixture)."""
    cand, refs = _lines(223, 150), [_lines(22, 1_500) for _ in range(10)]
    assert max(map(len, [cand] + refs)) < 200_000
    for call in (score_rouge, explain_rouge):
        with pytest.raises(SummaryWorkTooLarge) as e:
            call(cand, refs, types=["rouge1", "rougeLsum"], dialect=dialect)
        assert e.value.types == ("rougeLsum",)
        msg = str(e.value)
        assert "11,038,500,000 table cells" in msg and f"{limits.LSUM_MAX_CELLS:,}" in msg
        assert "LSUM_MAX_CELLS" in msg and "sentence pairs here" not in msg


def test_cell_limit_boundary_counts_every_reference_and_keeps_exact_scores(monkeypatch):
    monkeypatch.setattr(limits, "LSUM_MAX_CELLS", 1_536)
    cand, ref = _lines(4), _lines(3)          # 32 x 24 = 768 cells per reference
    got = score_rouge(cand, [ref, ref], types=["rougeLsum"])["rougeLsum"]      # 1,536: at the limit
    want = rouge_scorer.RougeScorer(["rougeLsum"]).score_multi([ref, ref], cand)["rougeLsum"]
    assert tuple(got) == pytest.approx(tuple(want), abs=1e-12, rel=0)
    with pytest.raises(SummaryWorkTooLarge, match="2,304 table cells here .* over the explainer's limit of 1,536"):
        score_rouge(cand, [ref, ref, ref], types=["rougeLsum"])
    score_rouge(cand, [ref, ref, ref], types=["rouge1", "rougeL"])          # no summary-level type: no limit


def test_every_type_over_its_limit_is_named(monkeypatch):
    monkeypatch.setattr(limits, "LSUM_MAX_CELLS", 100)
    monkeypatch.setattr(limits, "WLCS_MAX_TOTAL_CELLS", 100)
    with pytest.raises(SummaryWorkTooLarge) as e:
        score_rouge(_lines(3), [_lines(3)], types=["rouge1", "rougeLsum", "rougeW-1.2"])   # 576 cells
    assert e.value.types == ("rougeLsum", "rougeW-1.2") and set(e.value.reasons) == set(e.value.types)
    assert "ROUGE-Lsum" in str(e.value) and "ROUGE-W" in str(e.value)
    assert all("explainer.rouge" not in why for why in e.value.reasons.values())   # the page's words: no API names


def test_cli_refuses_lsum_over_the_cell_limit(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(limits, "LSUM_MAX_CELLS", 100)
    f = tmp_path / "in.jsonl"
    f.write_text(json.dumps({"candidate": _lines(3), "references": [_lines(3)]}) + "\n", encoding="utf-8")
    rc = main(["rouge", "--jsonl", str(f), "--types", "rouge1,rougeLsum"])
    out, err = capsys.readouterr()
    assert rc != 0 and out == ""
    assert "576 table cells here" in err and "LSUM_MAX_CELLS" in err and "Traceback" not in err
    assert main(["rouge", "--jsonl", str(f), "--types", "rouge1,rougeL"]) == 0


def test_page_leaves_out_the_type_over_its_limit_and_says_why(monkeypatch):
    """The Explain page's one call of the core: the other ROUGE types are computed exactly as without the
    limit, and the note names the left-out type and the reason in the page's words."""
    from explainer.ui.families import ui_family
    from explainer.ui.settings import default_settings

    monkeypatch.setattr(limits, "LSUM_MAX_CELLS", 100)
    cand, refs = _lines(3), [_lines(3), _lines(2)]
    rouge = ui_family("rouge")
    choice = default_settings()["rouge"]
    assert "rougeLsum" in choice.options["types"]
    c = rouge.compute(choice, cand, refs)
    assert c.trace is not None and c.error is None
    rest = [t for t in choice.options["types"] if t != "rougeLsum"]
    assert list(c.trace.scores) == rest
    opts = {k: v for k, v in choice.options.items() if k != "types"}
    assert c.trace.scores == explain_rouge(cand, refs, types=rest, **opts).scores
    [note] = c.notes
    assert note.startswith("rougeLsum is left out: ROUGE-Lsum fills an LCS table") and "960 table cells" in note
    assert "explainer.rouge" not in note and "leave rougeLsum out" not in note
    c = rouge.compute(choice.replace(types=("rougeLsum",)), cand, refs)
    assert c.trace is None and "rougeLsum is left out" in c.notes[0] and c.error


def test_rouge_w_total_cells_are_bounded(monkeypatch, no_tables):
    """Every sentence pair fills a pure-Python table: the per-pair limit alone let many short lines run for minutes."""
    cand, ref = _lines(400, 10), _lines(400, 10)          # 4,000 x 4,000 tokens = 16 million cells
    with pytest.raises(ExplainerInputError, match=r"ROUGE-W .* 16,000,000 cells here, over the explainer's limit of "
                                                  r"12,000,000"):
        score_rouge(cand, [ref], types=["rougeW-1.2"])
    no_tables.undo()
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


# ------------------------------------------------------------------------------- one call's whole work (issue 34)
@pytest.mark.parametrize("dialect,scale", [("rouge-score", 4), ("rouge155", 40), ("rouge-metric", 40)])
def test_one_calls_work_over_the_limit_is_refused_before_any_scoring(monkeypatch, dialect, scale):
    """One segment with 10,000 references and seven types took 78 s and 2.8 GB: every type against every reference
    is estimated from the token counts first (limits.MAX_SEGMENT_WORK; a full trace costs more per reference).
    ``scale``: the limit and the references divided by it (the slower dialects' texts take longer to prepare)."""
    from explainer.rouge import engine
    from explainer.rouge.limits import SegmentWorkTooLarge

    monkeypatch.setattr(limits, "MAX_SEGMENT_WORK", limits.MAX_SEGMENT_WORK // scale)
    monkeypatch.setattr(engine, "_score_all", lambda *a, **k: pytest.fail("scored before refusing"))
    types = "rouge1,rouge2,rougeL,rougeW-1.2,rougeS4"
    for fn, n in ((explain_rouge, 12_000 // scale), (score_rouge, 40_000 // scale)):
        refs = [f"a cat {i} sat on a mat" for i in range(n)]
        with pytest.raises(SegmentWorkTooLarge, match=f"against {n:,} references") as e:
            fn("the cat sat on the mat", refs, dialect=dialect, types=types)
        assert e.value.types and set(e.value.reasons) == set(e.value.types)


def test_the_costliest_types_are_named_and_the_rest_fits(monkeypatch):
    """The types named are the costliest, and without them the call is within the limit (the Explain page leaves
    them out and shows the others)."""
    from explainer.rouge.limits import SegmentWorkTooLarge, segment_work
    from explainer.rouge.types import parse_types

    monkeypatch.setattr(limits, "MAX_SEGMENT_WORK", 200_000)
    words = " ".join(f"w{i % 37}" for i in range(60))
    types = ["rouge1", "rougeL", "rougeS*", "rougeSU*", "rougeW-1.2"]
    with pytest.raises(SegmentWorkTooLarge) as e:
        explain_rouge(words, [words] * 10, types=types)
    rest = [t for t in types if t not in e.value.types]
    work = segment_work(parse_types(types), 60, [60] * 10, full=True)
    assert sum(work.values()) > 200_000 >= sum(work[t] for t in rest)
    assert rest and all(work[t] >= work[r] for t in e.value.types for r in rest)
    assert explain_rouge(words, [words] * 10, types=rest).scores["rouge1"].fmeasure == 1.0
    monkeypatch.setattr(limits, "MAX_SEGMENT_WORK", 10**12)       # the estimate only refuses; the numbers are kept
    assert score_rouge(words, [words] * 10, types=types)["rougeS*"].fmeasure == 1.0
