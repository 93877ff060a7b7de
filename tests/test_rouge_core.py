"""Seeds' worked examples, the textbook dialect against the chapter's own code, edge cases, properties."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer

from explainer.errors import ExplainerInputError
from explainer.rouge import DIALECTS, dialect_options, explain_rouge, explain_rouge_corpus, parse_type, score_rouge
from explainer.rouge.lcs import lcs, lcs_length
from explainer.rouge.union import union_lcs, union_lcs_hits
from tests.chapter import chapter_functions
from tests.conftest import seed_vectors

RS_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum"]


def _seed_vectors():
    return seed_vectors("rouge.jsonl")


def test_seed_vectors_rouge_score_and_hf():
    n = 0
    for rec in _seed_vectors():
        if rec["implementation"] == "rouge_score":
            stem = rec["options"]["use_stemmer"]
            tr = explain_rouge(rec["candidate"], rec["references"], types=RS_TYPES, use_stemmer=stem)
            for t, s in rec["result"]["scores"].items():
                assert tuple(tr.scores[t]) == pytest.approx((s["precision"], s["recall"], s["fmeasure"]), abs=1e-9)
            n += 1
        elif rec["implementation"] == "hf_evaluate_rouge" and rec["level"] == "segment":
            tr = explain_rouge(rec["candidate"], rec["references"], dialect="hf-evaluate",
                               use_stemmer=rec["options"]["use_stemmer"])
            for t, f in rec["result"].items():
                assert tr.reported[t] == pytest.approx(f, abs=1e-9)
            n += 1
    assert n >= 28


def test_seed_union_lcs_example_gives_4():
    rec = next(r for r in _seed_vectors() if r["case_id"] == "s001_union_lcs" and r["implementation"] == "rouge_score")
    tr = explain_rouge(rec["candidate"], rec["references"], types=["rougeLsum"])
    det = tr.per_reference[0]["rougeLsum"].detail
    assert det["hits"] == 4
    s = det["per_ref_sentence"][0]
    assert [c["ref_indices"] for c in s["lcs_per_cand_sentence"]] == [[0, 1], [0, 2, 4]]
    assert s["union"] == [0, 1, 2, 4]
    want = rec["result"]["scores"]["rougeLsum"]
    assert tr.scores["rougeLsum"].recall == pytest.approx(want["recall"], abs=1e-9)


def _chapter_functions():
    """The chapter's own from-scratch functions (their recorded outputs, tests/chapter.py)."""
    return chapter_functions()


# inputs beyond the course examples on which the textbook dialect is compared with the chapter's functions
CHAPTER_EXTRA_CASES = [("The cat, the CAT. the cat!", "the cat sat on the mat."), ("", "a b"), ("a b", ""), ("x", "x"),
                       ("the cat sat on the mat", "the cat is on the mat")]


def test_textbook_dialect_equals_chapter_code():
    ns = _chapter_functions()
    cases = [(r["candidate"], r["references"][0]) for r in _seed_vectors() if r["implementation"] == "rouge_score"]
    cases += CHAPTER_EXTRA_CASES
    for cand, ref in cases:
        tr = explain_rouge(cand, [ref], dialect="textbook", types=["rouge1", "rouge2", "rougeL"])
        for n in (1, 2):
            want = ns["rouge_n"](cand, ref, n=n)
            got = tr.scores[f"rouge{n}"]
            assert (got.precision, got.recall, got.fmeasure) == pytest.approx(
                (want["precision"], want["recall"], want["f1"]), abs=1e-12)
        want = ns["rouge_l"](cand, ref)
        got = tr.scores["rougeL"]
        assert (got.precision, got.recall, got.fmeasure) == pytest.approx(
            (want["precision"], want["recall"], want["f1"]), abs=1e-12)
        assert tr.per_reference[0]["rougeL"].hits == want["lcs"]


def test_textbook_rejects_types_it_does_not_define():
    with pytest.raises(ValueError, match="only ROUGE-N and ROUGE-L"):
        explain_rouge("a", ["a"], dialect="textbook", types=["rougeLsum"])


# ---- edge cases ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("cand,ref", [("", "the cat"), ("the cat", ""), ("", ""), ("cat", "cat"), ("dog", "cat"),
                                      ("... !!! ?", "the cat"), ("   \n\n ", "a\nb")])
def test_edge_cases_match_rouge_score(cand, ref):
    scorer = rouge_scorer.RougeScorer(RS_TYPES)
    want = scorer.score(ref, cand)
    tr = explain_rouge(cand, [ref], types=RS_TYPES)
    json.dumps(tr.to_dict(), allow_nan=False)
    for t in RS_TYPES:
        assert tuple(tr.scores[t]) == pytest.approx(tuple(want[t]), abs=1e-12)


def test_all_tokens_dropped_is_said_loudly():
    hindi = "यह एक बहुत अच्छी फिल्म थी और मुझे यह बहुत पसंद आई"
    tr = explain_rouge(hindi, ["यह एक अच्छी फिल्म थी"])
    assert tr.candidate.tokenized.tokens == []
    n = len(hindi.split())
    assert any(f"all {n} words of this candidate (Devanagari script) were removed" in note and "every score" in note
               for note in tr.notes)
    assert all(s.fmeasure == 0 for s in tr.scores.values())
    # the opt-in unicode tokenizer explains it
    tr2 = explain_rouge(hindi, ["यह एक अच्छी फिल्म थी"], tokenizer="unicode")
    assert tr2.scores["rouge1"].recall > 0
    assert "not any library's default" in tr2.tokenizer


def test_cut_words_and_spans():
    tr = explain_rouge("The café was naïve", ["the cafe"], use_stemmer=True)
    d = tr.to_dict()["candidate"]
    assert [t["text"] for t in d["tokens"]] == ["the", "caf", "was", "na", "ve"]
    assert d["tokens"][1]["start"] == 4 and d["tokens"][1]["end"] == 7
    assert {x["text"] for x in d["dropped"]} == {"café", "naïve"}


def test_bad_input_messages():
    with pytest.raises(ExplainerInputError, match="at least one reference"):
        explain_rouge("a", [])
    with pytest.raises(ValueError, match="invalid ROUGE type"):
        explain_rouge("a", ["a"], types=["rouge10"])
    with pytest.raises(ValueError, match="unknown ROUGE dialect"):
        explain_rouge("a", ["a"], dialect="nope")
    with pytest.raises(ValueError, match="no option"):
        explain_rouge("a", ["a"], bogus=1)
    with pytest.raises(ValueError, match="must be one of"):
        explain_rouge("a", ["a", "b"], multi_ref="max")
    with pytest.raises(ExplainerInputError):
        explain_rouge(None, ["a"])
    with pytest.raises(ExplainerInputError, match="reference entries"):
        explain_rouge_corpus(["a", "b"], [["a"]])
    from explainer.text import MAX_INPUT_CHARS, InputTooLong

    big = "a " * (MAX_INPUT_CHARS // 2 + 1)
    for call in (lambda: explain_rouge(big, ["a"]), lambda: score_rouge("a", [big]),
                 lambda: explain_rouge_corpus(["a", big], [["a"], ["a"]])):
        with pytest.raises(InputTooLong, match="limit"):
            call()


def test_type_parsing():
    assert parse_type("rougeW-1.2").weight == 1.2
    assert parse_type("rougeS*").skip is None and parse_type("rougeSU4").skip == 4
    assert parse_type("rouge9").n == 9


def test_multi_ref_policies():
    cand = "the quick brown fox"
    refs = ["the fast brown fox jumped over the lazy dog in the park today", "a quick brown fox"]
    best_f = explain_rouge(cand, refs, multi_ref="best-f")
    pool = explain_rouge(cand, refs, multi_ref="pool")
    best_r = explain_rouge(cand, refs, multi_ref="best-recall")
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    want = scorer.score_multi(refs, cand)
    assert tuple(best_f.scores["rouge1"]) == pytest.approx(tuple(want["rouge1"]), abs=1e-9)
    per = [scorer.score(r, cand)["rouge1"] for r in refs]
    assert best_r.chosen_reference["rouge1"] == max(range(2), key=lambda i: (per[i].recall, -i))
    # pooled ROUGE-1 from the per-reference counts
    pr = [p["rouge1"] for p in pool.per_reference]
    assert pool.chosen_reference["rouge1"] is None
    assert pool.scores["rouge1"].recall == pytest.approx(sum(x.hits for x in pr) / sum(x.ref_total for x in pr),
                                                         abs=1e-9)
    assert pool.scores["rouge1"].precision == pytest.approx(sum(x.hits for x in pr) / (2 * pr[0].cand_total), abs=1e-9)


def test_rouge_w_runs_on_worked_example():
    tr = explain_rouge("the cat is on the mat", ["there is a cat on the mat"], types=["rougeW-1.2"])
    w = tr.per_reference[0]["rougeW-1.2"].detail["per_ref_sentence"][0]
    assert w["runs"] == [1, 3] and w["counted"] == [1, 4, 5, 6]
    assert tr.per_reference[0]["rougeW-1.2"].hits == pytest.approx(1 + 3 ** 1.2, abs=1e-9)


def test_corpus_bootstrap_matches_real_aggregator_under_seed():
    import numpy as np
    from rouge_score import scoring

    cands = ["the cat sat", "a dog ran home", "news today", "the children were happy", "x y z"]
    refs = [["the cat sat down"], ["the dog ran"], ["news of today"], ["the child was happy"], ["a b c"]]
    ct = explain_rouge_corpus(cands, refs, types=["rouge1", "rougeL"], seed=3)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    agg = scoring.BootstrapAggregator()
    for c, r in zip(cands, refs):
        agg.add_scores(scorer.score(r[0], c))
    state = np.random.get_state()
    np.random.seed(3)
    try:
        want = agg.aggregate()
    finally:
        np.random.set_state(state)
    for t in ("rouge1", "rougeL"):
        for k in ("low", "mid", "high"):
            assert tuple(ct.aggregate[t][k]) == pytest.approx(tuple(getattr(want[t], k)), abs=1e-12)


def test_dialect_registry_and_options():
    assert {"rouge-score", "hf-evaluate", "textbook", "rouge155"} <= set(DIALECTS), sorted(DIALECTS)
    names = {o["name"] for o in dialect_options("rouge-score")}
    assert {"use_stemmer", "multi_ref", "tokenizer", "split_summaries"} <= names
    assert any(o["name"] == "use_aggregator" for o in dialect_options("hf-evaluate", corpus=True))


def test_long_text_trace_has_compact_table():
    words = [f"w{i % 97}" for i in range(1200)]
    cand = " ".join(words)
    ref = " ".join(reversed(words))
    tr = explain_rouge(cand, [ref], types=["rougeL"])
    det = tr.per_reference[0]["rougeL"].detail
    assert det["table"]["kind"] == "sampled" and len(det["table"]["values"]) <= 200
    assert det["lcs_length"] == lcs_length(ref.split(), cand.split()) == det["table"]["values"][-1][-1]
    assert len(det["pairs"]) == det["lcs_length"]


# ---- properties ------------------------------------------------------------------------------------

words = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "cat", "É", "x.y", "\n"]), max_size=25)


@settings(max_examples=150)
@given(words, st.lists(words, min_size=1, max_size=3))
def test_properties(cw, rws):
    cand = " ".join(cw)
    refs = [" ".join(r) for r in rws]
    tr = explain_rouge(cand, refs, types=["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4"])
    for s in tr.scores.values():
        for v in s:
            assert 0.0 <= v <= 1.0 + 1e-12
    ct = tr.candidate.tokenized.tokens
    for k, pr in enumerate(tr.per_reference):
        ref_toks = tr.references[k].tokenized.tokens
        assert pr["rougeL"].hits <= min(len(ct), len(ref_toks))
        u = pr["rougeLsum"]
        assert u.hits <= u.ref_total and u.hits <= u.cand_total
    fast = score_rouge(cand, refs, types=["rouge1", "rouge2", "rougeL", "rougeLsum"])
    for t, s in fast.items():
        assert tuple(s) == tuple(tr.scores[t])


@settings(max_examples=200)
@given(st.lists(st.lists(st.sampled_from("abc"), max_size=6), max_size=3),
       st.lists(st.lists(st.sampled_from("abc"), max_size=6), max_size=3))
def test_union_hits_bounded(rs, cs):
    h, m, n = union_lcs_hits(rs, cs)
    assert h <= m and h <= n
    assert union_lcs(rs, cs)["hits"] == h
    for r in rs:
        for c in cs:
            assert lcs(r, c).length <= min(len(r), len(c))


def test_rouge_w_open_run_at_sentence_end_is_recorded():
    """A run still open at the end of a reference sentence (its last counted position is followed only by marked
    positions the budget refused) is not scored — ROUGE-1.5.5's quirk. The trace records it as
    ``dropped_open_run`` so that counted positions = sum(runs) + dropped_open_run, and the runs give the hits; the
    per-sentence records equal those of the rouge155 engine (the script's own walk, golden-tested)."""
    import random

    from explainer.rouge.rouge155.evaluation import lcs_for_model
    from explainer.rouge.wlcs import summary_wlcs

    rng = random.Random(3)
    n_open = 0
    for _ in range(4000):
        rs = [[rng.choice("ab") for _ in range(rng.randint(1, 4))] for _ in range(rng.randint(1, 2))]
        cs = [[rng.choice("ab") for _ in range(rng.randint(1, 4))] for _ in range(rng.randint(1, 3))]
        d = summary_wlcs(rs, cs, 1.2, record=True)
        _, _, perl = lcs_for_model(rs, cs, Counter(t for s in rs for t in s), Counter(t for s in cs for t in s),
                                   1.2, True)
        for s, p in zip(d["per_ref_sentence"], perl):
            assert len(s["counted"]) == sum(s["runs"]) + s["dropped_open_run"], (rs, cs, s)
            assert (s["counted"], s["runs"], s["dropped_open_run"]) == (p["counted"], p["runs"],
                                                                        p["dropped_open_run"]), (rs, cs)
            n_open += s["dropped_open_run"] > 0
        assert d["hits"] == pytest.approx(sum(x ** 1.2 for s in d["per_ref_sentence"] for x in s["runs"]), abs=1e-12)
    assert n_open > 100
    # the audit's example: one counted position, no closed run
    d = summary_wlcs([["a", "b", "a", "a"], ["b", "a"]], [["b", "b", "b", "b"], ["a", "b", "a", "b"]], 1.2, record=True)
    s = d["per_ref_sentence"][1]
    assert s["counted"] == [0] and s["runs"] == [] and s["dropped_open_run"] == 1


@pytest.mark.parametrize("dialect", ["rouge-score", "hf-evaluate", "rouge155"])
def test_rouge_w_weights_below_one_are_computed_with_a_loud_note(dialect):
    """ROUGE-1.5.5 accepts any -w > 0 (it dies only for w <= 0), so a weight below 1 is computed — with a note,
    because the numbers can exceed 1: a text of n tokens against itself gets R = n^(1-w).
    The core dialects equal the rouge155 engine (the script's rules, golden-tested) on this ASCII text."""
    from explainer.rouge.rouge155 import evaluate, parse_flags

    text = " ".join(f"w{i}" for i in range(400))
    for w in ("0.0001", "0.5"):
        t = f"rougeW-{w}"
        tr = explain_rouge(text, [text], dialect=dialect, types=[t])
        s = tr.scores[t]
        assert s.recall > 1
        if dialect != "rouge155":  # (rouge155 prints 5 decimals)
            assert s.recall == pytest.approx(400 ** (1 - float(w)), rel=1e-9)
        perl = evaluate(text, [text], parse_flags(["-w", w]), detail=False).metrics[f"ROUGE-W-{w}"]
        assert "%.5f" % s.recall == "%.5f" % perl.R and "%.5f" % s.precision == "%.5f" % perl.P
        assert any("below 1" in n and "can exceed 1" in n for n in tr.notes), tr.notes
        assert score_rouge(text, [text], dialect=dialect, types=[t])[t].recall == s.recall
    assert not any("below 1" in n for n in explain_rouge(text, [text], dialect=dialect, types=["rougeW-1.2"]).notes)
    with pytest.raises(ValueError, match="must be > 0"):
        explain_rouge(text, [text], dialect=dialect, types=["rougeW-0"])


@pytest.mark.parametrize("dialect", ["rouge-score", "hf-evaluate", "rouge155"])
def test_rouge_w_weights_that_overflow_are_a_clear_error(dialect):
    """rougeW-150 raised a bare OverflowError (k^150 is beyond a double; the CLI called it an internal error). It is
    a ValueError that says why and which weights are safe; weights from 1 to 7 never overflow."""
    from explainer.rouge.wlcs import SAFE_WEIGHT

    text = " ".join(f"w{i}" for i in range(400))
    for call in (explain_rouge, score_rouge):
        with pytest.raises(ValueError, match=r"weight 150 is too large.*from 1 to 7 never overflow"):
            call(text, [text, "w1 w2"], dialect=dialect, types=["rougeW-150"], multi_ref="pool")
        with pytest.raises(ValueError, match="too large"):
            call("a b", ["a b"], dialect=dialect, types=["rougeW-1000"])
    # below 1, f^-1(x) = x^(1/w) overflows when the candidate's tokens match as separate runs
    ref = "\n".join(" ".join(f"a{i} x" for i in range(j, j + 20)) for j in range(0, 1500, 20))
    cand = "\n".join(" ".join(f"a{i}" for i in range(j, j + 20)) for j in range(0, 1500, 20))
    with pytest.raises(ValueError, match="weight 0.01 is too small"):
        score_rouge(cand, [ref], dialect=dialect, types=["rougeW-0.01"])
    # the whole safe range works on the longest single sentence the weighted DP accepts
    long = " ".join(f"w{i % 50}" for i in range(2400))
    s = score_rouge(long, [long], dialect=dialect, types=[f"rougeW-{SAFE_WEIGHT:g}", "rougeW-1"])
    assert all(0 <= x <= 1 for sc in s.values() for x in sc)


def test_each_dialect_has_its_own_default_types():
    """Without types, every dialect computes its own defaults: the textbook dialect failed with the global default
    ("defines only ROUGE-N and ROUGE-L, not rougeLsum"). Its numbers are the chapter's own functions'; rouge-score's
    defaults are the real package's."""
    ns = _chapter_functions()
    cand, ref = "the cat sat on the mat", "the cat is on the mat"
    for call in (explain_rouge, score_rouge):
        res = call(cand, [ref], dialect="textbook")
        scores = res.scores if hasattr(res, "scores") else res
        assert list(scores) == ["rouge1", "rouge2", "rougeL"]
        for t, want in (("rouge1", ns["rouge_n"](cand, ref, n=1)), ("rouge2", ns["rouge_n"](cand, ref, n=2)),
                        ("rougeL", ns["rouge_l"](cand, ref))):
            assert tuple(scores[t]) == pytest.approx((want["precision"], want["recall"], want["f1"]), abs=1e-12)
    ct = explain_rouge_corpus([cand, "a b"], [[ref], ["a b"]], dialect="textbook")
    assert ct.types == ["rouge1", "rouge2", "rougeL"]
    real = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"]).score(ref, cand)
    for name in ("rouge-score", "hf-evaluate", "rouge155"):
        tr = explain_rouge(cand, [ref], dialect=name)
        assert tr.types == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        if name != "rouge155":
            for t, s in real.items():
                assert tuple(tr.scores[t]) == pytest.approx(tuple(s), abs=1e-12)
    with pytest.raises(ValueError, match="only ROUGE-N and ROUGE-L"):  # an explicit type it lacks is still an error
        explain_rouge(cand, [ref], dialect="textbook", types=["rougeLsum"])


@pytest.mark.parametrize("dialect,opts", [("rouge-score", {"seed": 7}), ("rouge-score", {"aggregate": "mean"}),
                                          ("hf-evaluate", {"use_aggregator": False, "seed": 1}),
                                          ("rouge155", {"resamples": 10}), ("rouge155", {"counting": "1"})])
def test_corpus_only_options_are_refused_by_the_segment_functions(dialect, opts):
    """seed / aggregate / use_aggregator / resamples / confidence / counting change only a corpus aggregation;
    explain_rouge and score_rouge accepted and silently ignored them."""
    for call in (explain_rouge, score_rouge):
        with pytest.raises(ValueError, match=r"only to a corpus: pass (it|them) to explain_rouge_corpus") as e:
            call("a b", ["a b"], dialect=dialect, **opts)
        assert all(k in str(e.value) for k in opts)
    ct = explain_rouge_corpus(["a b", "a c"], [["a b"], ["a b"]], dialect=dialect, types=["rouge1"], **opts)
    assert all(ct.options[k] == v for k, v in opts.items())
