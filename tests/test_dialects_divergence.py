"""The first step at which two configurations diverge, on hand-made pairs: one per vocabulary word, with the
evidence sentence and the cells to highlight."""
from __future__ import annotations

import pytest

from explainer.bleu import explain_bleu
from explainer.dialectcmp.comparison import compare, compare_corpus
from explainer.dialectcmp.configs import Config
from explainer.dialectcmp.divergence import BLEU_STEPS, ROUGE_STEPS, bleu_divergence, rouge_divergence
from explainer.dialectcmp.space import split_sentences_per_line
from explainer.rouge import explain_rouge


def pair(cand, refs, a, b, metric="bleu", **kw):
    cmp = compare(cand, refs, metric=metric, pairs=[], **kw)
    d = cmp.pair(a, b)
    assert d.first_step in (BLEU_STEPS if metric == "bleu" else ROUGE_STEPS) + (None,)
    return d


def bleu_cfg(dialect, cid, **opts):
    return Config.make("bleu", dialect, opts, id=cid, label=cid)


# ------------------------------------------------------------------------------------------------ BLEU
def test_tokens_13a_vs_whitespace():
    d = pair("the cat sat on the mat.", ["the cat is on the mat."], "sacrebleu", "nltk:method1")
    assert d.first_step == "tokens"
    assert "splits `mat.` into `mat .`" in d.why and "NLTK method1 keeps `mat.`" in d.why
    assert "1-gram matches 6 vs 5" in d.why
    a, b = [c for c in d.cells if c["kind"] == "token" and c["text"] == "candidate"]
    assert a["side"] == "a" and a["text"] == "candidate" and a["indices"] == [5, 6]     # `mat` `.`
    assert b["side"] == "b" and b["indices"] == [5]                                    # `mat.`
    assert a["all"] == [5, 6] and b["all"] == [5]
    # the reference is tokenized differently too: said, and marked
    assert "(all 2 texts (candidate and reference) are tokenized differently; each is marked)" in d.why
    ra, rb = [c for c in d.cells if c["kind"] == "token" and c["text"] == "reference"]
    assert (ra["side"], ra["ref"], ra["indices"], rb["indices"]) == ("a", 0, [5, 6], [5])


def test_tokens_the_evidence_names_the_split_not_only_the_case():
    # the lowercasing comes first in the text, but the split of `mat.` is what moves the counts: both are named,
    # the split first; every differing stretch of the text is a cell
    d = pair("The cat sat on the mat.", ["the cat is on the mat."], "sacrebleu", "textbook")
    a, b = [c for c in d.cells if c["kind"] == "token" and c["text"] == "candidate"]
    assert d.why.startswith("sacreBLEU (13a) splits `mat.` into `mat .` in the candidate; Textbook keeps `mat.`; "
                            "also Textbook lowercases `The` to `the`; sacreBLEU (13a) keeps the case")
    assert d.why.endswith(": 3-gram matches 2 vs 1")
    assert a["indices"] == [5, 6] and b["indices"] == [5] and a["all"] == [0, 5, 6] and b["all"] == [0, 5]


def test_tokens_every_differing_text_is_named_and_marked():
    refs = ["The cat is on the mat.", "There is a cat on the mat.", "a cat"]
    d = pair("The cat sat on the mat.", refs, "sacrebleu", "nltk:method1")
    assert "(3 of the 4 texts (candidate, reference 1 and reference 2) are tokenized differently" in d.why
    texts = {(c["side"], c["ref"]) for c in d.cells if c["kind"] == "token"}
    assert texts == {(s, r) for s in "ab" for r in (None, 0, 1)}
    d = pair("the cat", ["the cat"], "rouge-score", "textbook", metric="rouge")
    assert d.first_step is None
    d = pair("The cat sat.", ["the cat, sat", "a cat sat."], "rouge-score", "textbook", metric="rouge")
    assert "(all 3 texts (candidate, reference 1 and reference 2) are tokenized differently" in d.why
    assert len([c for c in d.cells if c["kind"] == "token"]) == 6


def test_a_split_with_the_same_case_does_not_say_the_case_differs():
    """Issue 33, defect 6: "Every implementation on this corpus", 13a vs intl said "sacreBLEU (13a) keeps
    `Chat-Service-Fenster` (and the case differs)"; intl splits the hyphens and keeps the case."""
    cand = "Klicken Sie auf das Chat-Service-Fenster, um mit uns zu sprechen."
    refs = ["Klicken Sie auf das Chat-Service-Fenster, um mit einem Agenten zu sprechen."]
    d = pair(cand, refs, "sacrebleu", "sacrebleu:intl")
    assert d.first_step == "tokens"
    assert ("sacreBLEU (intl) splits `Chat-Service-Fenster` into `Chat - Service - Fenster` in the candidate; "
            "sacreBLEU (13a) keeps `Chat-Service-Fenster`") in d.why
    assert "case differs" not in d.why
    c = compare_corpus([cand, "Das Fenster."], [refs, ["Das Fenster."]], metric="bleu", pairs=[])
    assert "case differs" not in c.pair("sacrebleu", "sacrebleu:intl").why
    # a split where one side also lowercases still says so
    d = pair("The Mat.", ["the mat ."], "sacrebleu", "textbook")
    assert "splits `the mat.` into `The Mat .`" in d.why and "(and the case differs)" in d.why


def test_tokens_lowercase():
    cfgs = [bleu_cfg("sacrebleu", "cased"), bleu_cfg("sacrebleu", "lc", lowercase=True)]
    d = pair("The cat sat on the mat", ["the cat sat on the mat"], "cased", "lc", configs=cfgs)
    assert d.first_step == "tokens"
    assert "lc lowercases `The` to `the`" in d.why and "cased keeps the case" in d.why
    assert "1-gram matches 5 vs 6" in d.why


def test_counts_all_references_vs_the_first_only():
    cand, refs = "the cat sat on the mat", ["the cat is on the mat", "a cat sat on a mat"]
    a = explain_bleu(cand, refs)
    b = explain_bleu(cand, refs[:1])
    d = bleu_divergence(a, b, "all references", "the first only")
    assert d.first_step == "counts"
    assert d.why.startswith("1-gram matches (clipped) 6 (all references) vs 5 (the first only)")
    assert d.cells == [{"kind": "order", "n": 1, "field": "matches"}]


def test_totals_nltk_counts_at_least_one_ngram():
    d = pair("the cat", ["the cat sat"], "sacrebleu", "nltk:method1")
    assert d.first_step == "totals"
    assert "3-gram totals 0 (sacreBLEU (13a)) vs 1 (NLTK method1)" in d.why and "max(1, c − n + 1)" in d.why


def test_ref_length_closest_vs_shortest():
    cand = "the minister announced a new package of funding for rural schools today"
    refs = ["the minister announced funding for schools",
            "today the education minister announced a large new package of funding for rural schools"]
    d = pair(cand, refs, "sacrebleu", "hf-evaluate")
    assert d.first_step == "ref_length"
    assert ("sacreBLEU (13a) takes the closest reference length (ties to the shorter) (r = 14), HF evaluate the "
            "shortest reference (r = 6)") in d.why
    assert {"kind": "reference", "side": "a", "refs": [1]} in d.cells
    assert {"kind": "reference", "side": "b", "refs": [0]} in d.cells


def test_ref_length_tie_first_listed_vs_shorter():
    # c = 4; references of 3 and 5 tokens: equally close. sacreBLEU takes the shorter, the textbook the first listed
    cfgs = [bleu_cfg("sacrebleu", "sacrebleu", tokenize="none", lowercase=True), bleu_cfg("textbook", "textbook")]
    d = pair("a b c d", ["a b c d e", "a b c"], "sacrebleu", "textbook", configs=cfgs)
    assert d.first_step == "ref_length"
    assert "(r = 3)" in d.why and "(r = 5)" in d.why and "first listed" in d.why


def test_smoothing_exp_vs_method1():
    d = pair("the cat sat on the mat", ["the cat is on the mat"], "sacrebleu", "nltk:method1")
    assert d.first_step == "smoothing"
    assert d.why.startswith("4-gram precision (0/3 matched)")
    assert "100 / (2^1 · 3)" in d.why and "(0 + ε) / 3" in d.why
    assert d.cells == [{"kind": "order", "n": 4, "field": "precision"}]


def test_brevity_penalty_empty_reference():
    d = pair("a b", [""], "sacrebleu", "hf-evaluate")
    assert d.first_step == "brevity_penalty"
    assert "BP 1 (sacreBLEU (13a)" in d.why and "HF evaluate raises ZeroDivisionError: float division by zero" in d.why


def test_combination_effective_order():
    cfgs = [bleu_cfg("sacrebleu", "corpus_bleu"), bleu_cfg("sacrebleu", "sentence_bleu", api="sentence_bleu")]
    d = pair("party", ["The military follows party commands"], "corpus_bleu", "sentence_bleu", configs=cfgs)
    assert d.first_step == "combination"
    assert "0–1 score 0 (corpus_bleu) vs 0.01832 (sentence_bleu)" in d.why
    assert "averages 4 orders" in d.why and "1 (effective order)" in d.why


def test_combination_weights():
    cfgs = [bleu_cfg("nltk", "bleu4", smoothing="method1"), bleu_cfg("nltk", "bleu2", smoothing="method1",
                                                                      weights=(0.5, 0.5, 0.0, 0.0))]
    d = pair("the cat sat on the mat", ["the cat is on the mat"], "bleu4", "bleu2", configs=cfgs)
    assert d.first_step == "combination" and "weights" in d.why


def test_scale_only():
    d = pair("the cat sat on the mat", ["the cat sat on the mat"], "sacrebleu", "hf-evaluate")
    assert d.first_step == "scale"
    assert "reported as 100 by sacreBLEU (13a) (0–100 scale) and as 1 by HF evaluate (0–1 scale)" in d.why


def test_identical():
    cfgs = [bleu_cfg("sacrebleu", "a"), bleu_cfg("sacrebleu", "b", smooth_method="floor")]
    d = pair("the cat sat on the mat", ["the cat sat on the mat"], "a", "b", configs=cfgs)
    assert d.first_step is None and d.why.startswith("identical at every step")


def test_default_pairs_each_row_against_the_first():
    cmp = compare("the cat sat on the mat.", ["the cat is on the mat."])
    assert [(p.a, p.b) for p in cmp.pairs] == [(cmp.rows[0].id, r.id) for r in cmp.rows[1:]]
    assert all(p.first_step in BLEU_STEPS for p in cmp.pairs)


# ----------------------------------------------------------------------------------------------- ROUGE
def test_rouge_tokens():
    d = pair("the cat sat.", ["the cat sat on the mat."], "rouge-score", "textbook", metric="rouge")
    assert d.first_step == "tokens"
    assert "rouge-score has `sat` in the candidate where Textbook has `sat.`" in d.why
    assert "rouge1 hits 3 vs 2" in d.why


def test_rouge_stemming():
    d = pair("cats taking took taken", ["cat take take take"], "rouge-score", "rouge-score:stem", metric="rouge")
    assert d.first_step == "stemming"
    assert "`cats` unchanged (rouge-score) vs `cat` (rouge-score (stemmer))" in d.why
    assert "NLTK PorterStemmer" in d.why and "rouge1 hits 0 vs 2" in d.why
    assert {"kind": "token", "side": "a", "text": "candidate", "ref": None, "indices": [0, 1], "all": [0, 1]} in d.cells


def test_rouge_stemmers_disagree_porter_vs_wordnet_exceptions():
    cfgs = [Config.make("rouge", "rouge-score", {"use_stemmer": True}, id="rs", label="rouge-score",
                        types=("rouge1",)),
            Config.make("rouge", "rouge155", {"use_stemmer": True}, id="perl", label="ROUGE-1.5.5 -m",
                        types=("rouge1",))]
    d = pair("cats taking took taken", ["cat take take take"], "rs", "perl", metric="rouge", configs=cfgs)
    assert d.first_step == "stemming"
    assert "`took` unchanged (rouge-score) vs `take` (ROUGE-1.5.5 -m)" in d.why


def test_rouge_overlap_step_on_a_hand_made_trace_pair():
    # No shipped dialect counts ROUGE-N differently once the tokens agree (pltrdy's set counting would): the step
    # is checked on a pair of traces whose rouge2 counts were made to differ by hand.
    import copy

    from explainer.rouge.trace import TypeResult

    a = explain_rouge("the cat sat on the mat", ["the cat sat on a mat"])
    b = copy.deepcopy(a)
    x = b.per_reference[0]["rouge2"]
    b.per_reference[0]["rouge2"] = TypeResult(x.type, x.hits - 1, x.ref_total, x.cand_total, x.score, x.detail)
    d = rouge_divergence(a, b, "multiset", "set")
    assert d.first_step == "overlap"
    assert d.why == ("rouge2 against the reference: 3 hits of 5 reference / 5 candidate units (multiset) vs "
                     "2 of 5 / 5 (set)")
    assert d.cells == [{"kind": "type", "type": "rouge2", "ref": 0, "field": "hits"}]


def test_rouge_lsum_sentence_splitting():
    cand = "schools were closed on monday. the storm cut power to homes."
    refs = ["the storm cut power to homes. schools were closed on monday."]
    a = explain_rouge(cand, refs)
    b = explain_rouge(split_sentences_per_line(cand), [split_sentences_per_line(r) for r in refs])
    d = rouge_divergence(a, b, "as given", "one sentence per line")
    assert d.first_step == "lcs"
    assert d.why.startswith("rougeLsum against the reference: 6 hits")
    assert "as given splits the texts into 1 candidate / 1 reference sentence(s), one sentence per line into 2 / 2" \
        in d.why


def test_rouge_multi_ref_best_f_vs_pooled():
    cand = "the cat sat on the mat"
    refs = ["the cat sat on the mat", "a dog ran in the park"]
    d = pair(cand, refs, "rouge-score", "rouge155:A", metric="rouge")
    assert d.first_step == "multi_ref"
    assert "rouge-score keeps reference 1 (the highest F)" in d.why
    assert "ROUGE-1.5.5 -f A pools the 2 references (R = 7/12)" in d.why
    assert {"kind": "reference", "side": "a", "refs": [0]} in d.cells


def test_rouge_f_measure_alpha():
    cfgs = [Config.make("rouge", "rouge155", {}, id="f1", label="-p 0.5", types=("rouge1",)),
            Config.make("rouge", "rouge155", {"alpha": 0.2}, id="f2", label="-p 0.2", types=("rouge1",))]
    d = pair("the cat sat on the mat", ["the cat is on the mat today"], "f1", "f2", metric="rouge", configs=cfgs)
    assert d.first_step == "f_measure"
    assert "α = 0.2" in d.why and "the same P 0.8333 and R 0.7143" in d.why


def test_rouge_scale_rounding():
    d = pair("the cat sat on the mat", ["the cat is on the mat today"], "rouge-score", "rouge155:B", metric="rouge")
    assert d.first_step == "scale"
    assert "rounded to 5 decimals" in d.why and "R 0.7142857143 vs 0.71429" in d.why


def test_rouge_identical():
    d = pair("the cat sat on the mat", ["the cat is on the mat"], "rouge-score", "hf-evaluate", metric="rouge")
    assert d.first_step is None


# ---------------------------------------------------------------------------------------------- corpus
def test_bleu_corpus_rows_and_divergence():
    from explainer.bleu import score_bleu_corpus

    cands = ["the cat sat on the mat", "the dog ran."]
    refs = [["the cat is on the mat"], ["a dog ran."]]
    cmp = compare_corpus(cands, refs, metric="bleu")
    for r in cmp.rows:
        want = score_bleu_corpus(cands, refs, dialect=r.config.dialect, **r.config.opts)
        assert r.data["score"] == want.score and r.data["counts"] == want.counts, r.id
    d = cmp.pair("sacrebleu", "nltk:method1")
    assert d.first_step == "tokens" and d.segment == 1
    assert d.why.startswith("segment 2: sacreBLEU (13a) splits `ran.` into `ran .`")
    assert any(c.get("segment") == 1 for c in d.cells)
    # the 4-gram matches are 0 in both segments: sacreBLEU smooths, HF does not
    d = cmp.pair("sacrebleu", "hf-evaluate")
    assert d.first_step == "smoothing" and d.why.startswith("4-gram precision (0/4 matched)")


def test_rouge_corpus_rows_and_divergence():
    from explainer.rouge import explain_rouge_corpus

    cands = ["the cat sat on the mat", "the dog ran in the park"]
    refs = [["the cat is on the mat"], ["a dog ran in a park", "the dog is in the park"]]
    cmp = compare_corpus(cands, refs, metric="rouge")
    rs = cmp.row("rouge-score")
    want = explain_rouge_corpus(cands, refs, types=list(rs.config.types))
    assert rs.data["scores"]["rouge1"] == want.aggregate["rouge1"]["mid"].to_dict()
    d = cmp.pair("rouge-score", "rouge155:A")
    # item 1 differs only by rounding, item 2 in the multi-reference rule: the earlier step wins
    assert d.first_step == "multi_ref" and d.segment == 1 and d.why.startswith("item 2: rouge1")
    assert "2 items score differently" in d.why
    d = cmp.pair("rouge-score", "rouge-score:stem")
    assert d.first_step is None and d.why == "identical on every item and in the aggregate"


def test_rouge_corpus_aggregation_bootstrap_median_vs_mean():
    import random

    rng = random.Random(3)
    vocab = "a b c d e f g h".split()
    cands = [" ".join(rng.choices(vocab, k=rng.randint(1, 6))) for _ in range(30)]
    refs = [[" ".join(rng.choices(vocab, k=rng.randint(1, 6)))] for _ in range(30)]
    cfgs = [Config.make("rouge", "rouge-score", {}, id="bootstrap", label="BootstrapAggregator", types=("rouge1",)),
            Config.make("rouge", "rouge-score", {"aggregate": "mean"}, id="mean", label="plain mean",
                        types=("rouge1",))]
    cmp = compare_corpus(cands, refs, metric="rouge", configs=cfgs)
    d = cmp.pairs[0]
    assert d.first_step == "aggregation"
    assert d.why.startswith("every item scores the same, but rouge1 F aggregates to 0.2891 (BootstrapAggregator: "
                            "bootstrap) vs 0.2876 (plain mean: mean)")


def test_bounds_are_checked_before_work():
    from explainer.dialectcmp.limits import MAX_COMPARE_CHARS, MAX_REFS
    from explainer.errors import ExplainerInputError

    with pytest.raises(ExplainerInputError, match="at most 10"):
        compare("a", ["a"] * (MAX_REFS + 1))
    with pytest.raises(ExplainerInputError, match="limit here is"):
        compare("a " * MAX_COMPARE_CHARS, ["a"])
    with pytest.raises(ExplainerInputError, match="at least one reference"):
        compare("a", [])
    with pytest.raises(ExplainerInputError, match="must be a string"):
        compare("a", [None])


# ------------------------------------------------------------------------------------ library failures
@pytest.mark.parametrize("b,evidence", [
    ("hf-evaluate", "HF evaluate fails: ZeroDivisionError: float division by zero"),
    ("multi-bleu", "multi-bleu.perl fails: PerlDie: Illegal division by zero at multi-bleu.perl line 154"),
])
def test_a_library_that_fails_differs_and_the_failure_is_the_evidence(b, evidence):
    # empty candidate: every number the explainer computes agrees with sacreBLEU's, but the real library raises
    d = pair("", ["a b c"], "sacrebleu", b)
    assert d.first_step == "brevity_penalty", d.why
    assert evidence in d.why and d.why.endswith("it reports no score")
    assert {"kind": "error", "side": "b"} in d.cells and {"kind": "bp"} in d.cells
    # and the other way round
    d = pair("", ["a b c"], b, "sacrebleu")
    assert d.first_step == "brevity_penalty" and evidence in d.why and {"kind": "error", "side": "a"} in d.cells


def test_a_failure_after_an_earlier_difference_is_added_to_the_evidence():
    d = pair("", ["a b c"], "sacrebleu", "mteval")
    assert d.first_step == "smoothing"
    assert "; and mteval-v13a.pl fails: PerlDie: Can't take log of 0" in d.why
    assert {"kind": "error", "side": "b"} in d.cells


def test_two_libraries_failing_differently_differ_and_the_same_way_are_identical():
    cfgs = [Config.make("bleu", "hf-evaluate", {}, id="hf", label="HF"),
            Config.make("bleu", "multi-bleu", {}, id="mb", label="multi-bleu"),
            Config.make("bleu", "hf-evaluate", {"max_order": 2}, id="hf2", label="HF max_order 2")]
    d = pair("", ["a b c"], "hf", "mb", configs=cfgs)
    assert d.first_step is not None and "HF fails: ZeroDivisionError" in d.why and "multi-bleu fails: PerlDie" in d.why
    assert d.why.endswith("neither reports a score")
    assert d.first_step == "brevity_penalty"
    d = pair("", ["a b c"], "hf", "hf2", configs=cfgs)
    assert d.first_step is None
    assert d.why == "identical: both fail the same way (ZeroDivisionError: float division by zero) and report no score"


def test_rouge155_dying_on_rouge_w_differs():
    cfgs = [Config.make("rouge", "rouge-score", {}, id="rs", label="rouge-score", types=("rougeW-1.2",)),
            Config.make("rouge", "textbook", {}, id="tb", label="textbook-like", types=("rouge1",)),
            Config.make("rouge", "rouge155", {}, id="perl", label="ROUGE-1.5.5", types=("rougeW-1.2",))]
    d = pair("a b c", ["a b", ""], "rs", "perl", metric="rouge", configs=cfgs)
    assert d.first_step in ("lcs", "multi_ref"), d.why
    assert "ROUGE-1.5.5 fails on rougeW-1.2: PerlDie: Illegal division by zero" in d.why
    assert {"kind": "error", "side": "b", "type": "rougeW-1.2"} in d.cells


# ------------------------------------------------------------------------------------ F weighting
def test_f_weighting_alpha_is_named_not_called_rounding():
    cfgs = [Config.make("rouge", "rouge-score", {}, id="rs", label="rouge-score", types=("rouge1",)),
            Config.make("rouge", "rouge155", {"alpha": 0.2}, id="p2", label="ROUGE-1.5.5 -p 0.2", types=("rouge1",))]
    d = pair("the cat sat on the mat", ["the cat is on the mat today"], "rs", "p2", metric="rouge", configs=cfgs)
    assert d.first_step == "f_measure", d.why
    assert "F weighting (alpha) 0.5 (rouge-score) vs 0.2 (ROUGE-1.5.5 -p 0.2)" in d.why
    assert "F 0.7692 vs 0.7353" in d.why
    # the same alpha on both sides, one rounding: that is rounding
    d = pair("the cat sat on the mat", ["the cat is on the mat today"], "rouge-score", "rouge155:B", metric="rouge")
    assert d.first_step == "scale"
