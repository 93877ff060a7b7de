"""The documented size limits of full traces (docs/trace-schema-bleu.md "Limits"): one segment's full trace
covers at most MAX_TRACE_CHARS characters (candidate + all references), a full corpus trace at most
MAX_CORPUS_TRACE_CHARS; above them a clear TraceTooLarge (an ExplainerInputError) says the limit and how to get
the statistics, which stay limited only per text. Plus: building a trace is linear in the input, also when many
distinct n-grams continue one frequent prefix (that case used to be quadratic); and a bootstrap's N is bounded
(MAX_BOOTSTRAP resamples, MAX_BOOTSTRAP_DRAWS draws) with memory flat in N."""
from __future__ import annotations

import json
import time

import pytest
from sacrebleu.metrics import BLEU

from explainer.bleu import (
    MAX_BOOTSTRAP,
    MAX_CORPUS_TRACE_CHARS,
    MAX_TRACE_CHARS,
    TraceTooLarge,
    bootstrap_bleu_corpus,
    explain_bleu,
    explain_bleu_corpus,
    score_bleu,
    score_bleu_corpus,
)
from explainer.cli import main
from explainer.errors import ExplainerInputError
from explainer.text import MAX_INPUT_CHARS


def test_segment_trace_limit_is_a_clear_input_error():
    """The audit's case: 11 texts of 199,998 characters took 32 s and 769 MB to trace and export."""
    text = "a " * 99_999
    t0 = time.process_time()
    with pytest.raises(TraceTooLarge) as e:
        explain_bleu(text, [text] * 10)
    assert time.process_time() - t0 < 5
    assert isinstance(e.value, ExplainerInputError)
    msg = str(e.value)
    assert f"{MAX_TRACE_CHARS:,}" in msg and f"{11 * len(text):,}" in msg and "score_bleu" in msg


def test_exactly_at_the_limit_builds_and_one_more_character_does_not():
    half = MAX_TRACE_CHARS // 2
    cand, ref = "a" * half, "a" * (MAX_TRACE_CHARS - half)
    tr = explain_bleu(cand, [ref], tokenize="char")
    assert tr.sys_len == half and len(json.dumps(tr.to_dict())) > 0
    with pytest.raises(TraceTooLarge):
        explain_bleu(cand + "a", [ref], tokenize="char")


def test_statistics_are_not_limited_by_the_trace_limits():
    cand = "the cat sat on the mat " * 5_000          # 115,000 characters: over the trace limit, under the text limit
    refs = ["the cat is on the mat " * 5_000, "a cat sat on a mat " * 5_000]
    assert len(cand) + sum(map(len, refs)) > MAX_TRACE_CHARS and len(cand) < MAX_INPUT_CHARS
    want = BLEU().corpus_score([cand], [[r] for r in refs])
    got = score_bleu(cand, refs)
    assert abs(got.score - want.score) < 1e-9 and got.counts == want.counts
    got = score_bleu_corpus([cand, "x"], [refs, ["x"]])
    assert abs(got.score - BLEU().corpus_score([cand, "x"], [[refs[0], "x"], [refs[1], None]]).score) < 1e-9


def test_corpus_trace_limits(monkeypatch):
    from explainer.bleu import limits

    monkeypatch.setattr(limits, "MAX_CORPUS_TRACE_CHARS", 100)
    cands = ["the cat sat on the mat"] * 4                    # 4 x (22 + 22) = 176 characters
    refs = [["the cat is on the mat"]] * 4
    with pytest.raises(TraceTooLarge) as e:
        explain_bleu_corpus(cands, refs, full=True)
    assert "100 characters" in str(e.value) and "segment(i)" in str(e.value) and "score_bleu_corpus" in str(e.value)
    tr = explain_bleu_corpus(cands, refs)                      # statistics + lazy segments: fine
    assert tr.segment(2).sys_len == 6 and tr.to_dict()["n_segments"] == 4
    for build_all in (lambda: tr.to_dict(full=True), lambda: tr.segments, tr.materialise, tr.build_all):
        with pytest.raises(TraceTooLarge):
            build_all()
    monkeypatch.setattr(limits, "MAX_CORPUS_TRACE_CHARS", 176)
    assert len(explain_bleu_corpus(cands, refs, full=True).to_dict(full=True)["segments"]) == 4


def test_corpus_segment_over_the_segment_limit():
    big = "a " * (MAX_TRACE_CHARS // 2)
    tr = explain_bleu_corpus(["a b", big], [["a b"], ["a"]])
    assert tr.segment(0).sys_len == 2
    with pytest.raises(TraceTooLarge, match="segment 2: "):
        tr.segment(1)
    with pytest.raises(TraceTooLarge, match="segment 2: "):
        explain_bleu_corpus(["a b", big], [["a b"], ["a"]], full=True)
    assert MAX_CORPUS_TRACE_CHARS >= 10 * MAX_TRACE_CHARS


def test_cli_full_over_the_limit_is_one_line_and_statistics_still_work(capsys, monkeypatch):
    import io
    import sys

    line = json.dumps({"candidate": "a " * 30_000, "references": ["a " * 30_000]}).encode() + b"\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(line), encoding="utf-8"))
    rc = main(["bleu", "--jsonl", "-", "--full"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and "line 1: " in err and f"{MAX_TRACE_CHARS:,}" in err
    assert len(err.strip().splitlines()) == 1
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(line), encoding="utf-8"))
    assert main(["bleu", "--jsonl", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["sys_len"] == 30_000


def test_trace_building_is_linear_when_many_ngrams_share_a_frequent_prefix():
    """'a x1 a x2 a x3 ...' against 'a a a ...': every bigram 'a xi' starts where 'a' does, at each of the
    reference's ~25,000 positions. Filtering those positions once per bigram took ~20 s at this size; grouping
    them by the next token once takes well under a second."""
    cand = " ".join(f"a x{i}" for i in range(MAX_TRACE_CHARS // 16))
    ref = "a " * ((MAX_TRACE_CHARS - len(cand)) // 2)
    t0 = time.process_time()
    tr = explain_bleu(cand, [ref])
    assert time.process_time() - t0 < 4
    assert tr.ngrams[0].entries[0].ref_counts == (len(ref.split()),)
    assert tr.ngrams[1].matches == 0
    # the same positions as the straightforward search
    small = explain_bleu("a x a y a a b a a", ["a a b a x a a y"])
    for order in small.ngrams:
        for e in order.entries:
            want = tuple(p for p in range(len("a a b a x a a y".split()) - order.n + 1)
                         if tuple("a a b a x a a y".split()[p:p + order.n]) == e.ngram)
            assert e.ref_positions == (want,), (e.ngram, e.ref_positions, want)


# ------------------------------------------------------------------------------------------------ bootstrap
def _corpus(n):
    hyps = [f"the cat number {i} sat on the mat today" for i in range(n)]
    refs = [[f"a cat number {i % 7} is on the mat"] for i in range(n)]
    return hyps, refs


@pytest.mark.parametrize("n", [0, -3, True, 2.5, "100", MAX_BOOTSTRAP + 1, 10 ** 30])
def test_bootstrap_n_is_bounded_before_any_work(n):
    """N of a bootstrap is a number a stranger controls: above MAX_BOOTSTRAP (or not a whole number) it is refused
    at once with the bound in the message (N = 10^9 on 3 segments reached 22.9 GB before dying)."""
    hyps, refs = _corpus(3)
    t0 = time.process_time()
    with pytest.raises(ValueError) as e:
        bootstrap_bleu_corpus(hyps, refs, n_bootstrap=n)
    assert time.process_time() - t0 < 1
    if isinstance(n, int) and not isinstance(n, bool) and n > MAX_BOOTSTRAP:
        assert f"{MAX_BOOTSTRAP:,}" in str(e.value)


def test_bootstrap_draws_are_bounded(monkeypatch):
    from explainer.bleu import bootstrap

    monkeypatch.setattr(bootstrap, "MAX_BOOTSTRAP_DRAWS", 1_000)
    hyps, refs = _corpus(20)
    bootstrap_bleu_corpus(hyps, refs, n_bootstrap=50)                 # 1,000 draws: at the limit
    with pytest.raises(ValueError, match=r"51 resamples over 20 segments draws 1,020 segments, over the limit of "
                                         r"1,000 .* e\.g\. 50"):
        bootstrap_bleu_corpus(hyps, refs, n_bootstrap=51)


@pytest.mark.parametrize("chunk_draws", [1, 7, 100_000])
def test_bootstrap_in_chunks_equals_sacrebleu_exactly(monkeypatch, chunk_draws):
    """Resamples drawn and summed chunk by chunk give sacreBLEU's own numbers, bit for bit."""
    from explainer.bleu import bootstrap

    monkeypatch.setattr(bootstrap, "BOOTSTRAP_CHUNK_DRAWS", chunk_draws)
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    hyps, refs = _corpus(23)
    ref = BLEU().corpus_score(hyps, [[r[0] for r in refs]], n_bootstrap=333)
    got = bootstrap_bleu_corpus(hyps, refs, n_bootstrap=333)
    assert (got.score, got.mean, got.ci) == (ref.score, ref._mean, ref._ci)


def test_bootstrap_memory_is_flat_in_n():
    """Memory no longer grows as N x segments (100,000 resamples on 3,000 segments needed ~14 GB)."""
    import tracemalloc

    hyps, refs = _corpus(400)

    def peak(n):
        tracemalloc.start()
        try:
            bootstrap_bleu_corpus(hyps, refs, n_bootstrap=n)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(1_000), peak(8_000)
    # all N resamples at once would be 8,000 x 400 x 10 float32 = 128 MB, plus a 26 MB index array
    assert large < 16 * 2 ** 20 and large - small < 2 * 2 ** 20, (small, large)
