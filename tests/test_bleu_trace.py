"""The full trace's n-gram tables, spans, reference-length choice and statistics, checked against brute force
on the generated cases, plus the fast (stats-only) path agreeing with the full path for every dialect."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from explainer.bleu import (
    DIALECTS,
    explain_bleu,
    explain_bleu_corpus,
    score_bleu,
    score_bleu_corpus,
    streams_to_segments,
)
from explainer.errors import ExplainerInputError
from tests.bleu_cases import make_cases

CASES = make_cases(600, seed=99)
BUILTIN = ["sacrebleu", "nltk", "hf-evaluate", "textbook"]


def _ngrams(toks, n):
    return [tuple(toks[i:i + n]) for i in range(len(toks) - n + 1)]


@pytest.mark.parametrize("dialect,opts", [("sacrebleu", {}), ("sacrebleu", {"lowercase": True, "tokenize": "intl"}),
                                          ("sacrebleu", {"tokenize": "char", "max_ngram_order": 3}),
                                          ("nltk", {}), ("hf-evaluate", {}), ("textbook", {})])
def test_ngram_tables_brute_force(dialect, opts):
    for hyp, refs in CASES:
        tr = explain_bleu(hyp, refs, dialect=dialect, **opts)
        ht = tr.candidate.token_texts
        refs_toks = [r.token_texts for r in tr.references]
        assert len(tr.ngrams) == tr.combination.orders[-1].n
        for order in tr.ngrams:
            n = order.n
            cand = _ngrams(ht, n)
            cc = Counter(cand)
            rcs = [Counter(_ngrams(ref_toks, n)) for ref_toks in refs_toks]
            # every distinct candidate n-gram once, in order of first occurrence
            assert [e.ngram for e in order.entries] == list(dict.fromkeys(cand))
            m = 0
            for e in order.entries:
                g = e.ngram
                assert e.cand_count == cc[g]
                assert list(e.cand_positions) == [i for i, x in enumerate(cand) if x == g]
                assert list(e.ref_counts) == [rc[g] for rc in rcs]
                for k, ref_toks in enumerate(refs_toks):
                    assert list(e.ref_positions[k]) == [i for i, x in enumerate(_ngrams(ref_toks, n)) if x == g]
                mx = max([rc[g] for rc in rcs], default=0)
                assert e.max_ref_count == mx
                assert e.max_refs == ([k for k, rc in enumerate(rcs) if rc[g] == mx] if mx else [])
                assert e.clipped == min(cc[g], mx) <= e.cand_count
                # the assignment is valid: distinct candidate and reference occurrences of this n-gram
                assert len(e.assignment) == e.clipped
                assert len({a["cand_pos"] for a in e.assignment}) == e.clipped
                assert len({(a["ref"], a["ref_pos"]) for a in e.assignment}) == e.clipped
                for a in e.assignment:
                    assert tuple(ht[a["cand_pos"]:a["cand_pos"] + n]) == g
                    assert tuple(refs_toks[a["ref"]][a["ref_pos"]:a["ref_pos"] + n]) == g
                m += e.clipped
            assert order.matches == m
            assert order.candidate_ngrams == len(cand)
        assert tr.stats[0] == len(ht)
        assert tr.stats[2:2 + len(tr.ngrams)] == [o.matches for o in tr.ngrams]


@pytest.mark.parametrize("dialect", BUILTIN)
def test_spans_point_into_the_original_text(dialect):
    opts = {"lowercase": True} if dialect == "sacrebleu" else {}
    located = 0
    for hyp, refs in CASES:
        tr = explain_bleu(hyp, refs, dialect=dialect, **opts)
        for tt in [tr.candidate] + tr.references:
            last_end = 0
            for tok in tt.tokens:
                if tok.start is None:
                    continue
                assert 0 <= last_end <= tok.start < tok.end <= len(tt.text)
                last_end = tok.end
                piece = tt.text[tok.start:tok.end]
                if "&" not in piece and "<" not in piece:
                    assert piece.lower() == tok.text.lower(), (dialect, tt.text, tok)
                located += 1
    assert located > 1000


@pytest.mark.parametrize("dialect", BUILTIN)
def test_fast_path_equals_full_path(dialect):
    for hyp, refs in CASES[:300]:
        tr = explain_bleu(hyp, refs, dialect=dialect)
        st = score_bleu(hyp, refs, dialect=dialect)
        assert st.score == tr.score and st.counts == tr.counts and st.totals == tr.totals
        assert (st.sys_len, st.ref_len, st.bp, st.signature) == (tr.sys_len, tr.ref_len, tr.bp, tr.signature)
        assert (st.library_error is None) == (tr.library_error is None)


@pytest.mark.parametrize("dialect", BUILTIN)
def test_corpus_segments_and_json(dialect):
    hyps = [h for h, _ in CASES[:40]]
    refs = [r for _, r in CASES[:40]]
    ct = explain_bleu_corpus(hyps, refs, dialect=dialect)
    st = score_bleu_corpus(hyps, refs, dialect=dialect)
    assert ct.score == st.score and ct.segment_stats == st.segment_stats
    assert ct.summed == [sum(col) for col in zip(*ct.segment_stats)]
    for i in (0, 7, 39):
        assert ct.segment(i).stats == ct.segment_stats[i]
    d = json.loads(json.dumps(ct.to_dict(full=True)))
    assert len(d["segments"]) == 40 and d["segments"][7]["stats"] == ct.segment_stats[7]
    json.dumps(explain_bleu(hyps[3], refs[3], dialect=dialect).to_dict())


def test_registry_and_options():
    assert list(DIALECTS)[:3] == ["sacrebleu", "nltk", "hf-evaluate"] and "textbook" in DIALECTS
    from explainer.bleu import dialect_options
    for name in DIALECTS:
        opts = dialect_options(name)
        for o in opts:
            assert set(o) >= {"name", "type", "default", "help", "choices"}
        json.dumps(opts)
    with pytest.raises(ValueError, match="unknown BLEU dialect"):
        explain_bleu("a", ["a"], dialect="bleurt")
    with pytest.raises(ValueError, match="has no option"):
        explain_bleu("a", ["a"], dialect="nltk", lowercase=True)
    with pytest.raises(ValueError, match="smooth_method must be one of exp, floor, add-k, none"):
        explain_bleu("a", ["a"], smooth_method="laplace")


def test_input_errors_are_clear():
    with pytest.raises(ExplainerInputError, match="single string"):
        explain_bleu("a", "a")
    with pytest.raises(ExplainerInputError, match="must be a string"):
        explain_bleu(None, ["a"])
    with pytest.raises(ExplainerInputError, match="candidates must be a list"):
        explain_bleu_corpus(None, None)
    with pytest.raises(ExplainerInputError, match="list of reference strings per candidate"):
        score_bleu_corpus(["a"], 5)
    with pytest.raises(ExplainerInputError, match="reference 1 of candidate 1"):
        explain_bleu_corpus(["a"], [[1]])
    with pytest.raises(ExplainerInputError, match="2 candidate"):
        explain_bleu_corpus(["a", "b"], [["a"]])
    with pytest.raises(ExplainerInputError, match="streams"):
        # sacreBLEU layout passed by mistake: 2 streams for 3 candidates
        explain_bleu_corpus(["a", "b", "c"], [["a", "b", "c"], ["x", "y", "z"]])
    with pytest.raises(ExplainerInputError, match="different lengths"):
        streams_to_segments([["a", "b"], ["a"]])
    assert streams_to_segments([["a", "b"], ["x", None]]) == [["a", "x"], ["b"]]
    from explainer.text import MAX_INPUT_CHARS, InputTooLong
    with pytest.raises(InputTooLong, match="limit"):
        score_bleu("a " * MAX_INPUT_CHARS, ["a"])


@pytest.mark.parametrize("dialect,opts", [("sacrebleu", {}), ("sacrebleu", {"lowercase": True}),
                                          ("sacrebleu", {"tokenize": "char"}), ("nltk", {}),
                                          ("hf-evaluate", {}), ("textbook", {})])
def test_span_fast_path_agrees_with_align_spans(dialect, opts):
    """The str.find fast path of align_offsets gives exactly what explainer.text.align_spans gives."""
    from explainer.bleu import get_dialect
    from explainer.text import align_spans

    d = get_dialect(dialect, **opts)
    casefold, unescape = d.align_mode
    for hyp, refs in CASES:
        for text in [hyp] + refs:
            toks = d.tokenize(text)
            starts, ends = d.align_offsets(text, toks)
            ref = align_spans(text, toks, casefold=casefold, unescape=unescape,
                              lowercase_first=d.align_lowercase_first)
            assert (starts, ends) == ([t.start for t in ref], [t.end for t in ref]), (dialect, text, toks)


def test_preprocessing_changes_are_recorded():
    text = "Hello <skipped> World &amp;lt; x-\nray \n"
    tr = explain_bleu(text, ["hello world"], lowercase=True)
    steps = [c["step"] for c in tr.candidate.changes]
    assert steps == ["lowercase", "rstrip", "skipped", "hyphen-newline", "unescape", "unescape", "tokenize"], steps
    from sacrebleu.metrics import BLEU
    assert tr.candidate.preprocessed == BLEU(lowercase=True)._preprocess_segment(text)
    # the entity chain &amp;lt; -> &lt; -> < is reported step by step, as 13a applies it
    assert [c["detail"] for c in tr.candidate.changes if c["step"] == "unescape"] == [
        "&amp; unescaped 1 time(s)", "&lt; unescaped 1 time(s)"]
    hf = explain_bleu(text, ["hello world"], dialect="hf-evaluate")
    assert [c["step"] for c in hf.candidate.changes][:2] == ["skipped", "hyphen-newline"]
    assert [c["step"] for c in explain_bleu(text, ["x"], dialect="nltk").candidate.changes] == ["tokenize"]


WEIGHT_CONFIGS = [("sacrebleu", {}), ("sacrebleu", {"effective_order": True}), ("sacrebleu", {"max_ngram_order": 6}),
                  ("nltk", {}), ("nltk", {"smoothing": "method4"}), ("nltk", {"auto_reweigh": True}),
                  ("nltk", {"weights": (0.5, 0.3, 0.2), "smoothing": "method1"}), ("hf-evaluate", {}),
                  ("hf-evaluate", {"smooth": True}), ("textbook", {}), ("multi-bleu", {}),
                  ("mteval", {}), ("mteval", {"smoothing": False})]


def _nominal(dialect, opts, n):
    if dialect == "nltk":
        return [float(w) for w in opts.get("weights", (0.25,) * 4)]
    if dialect in ("multi-bleu", "mteval"):
        return [0.25] * 4
    return [1.0 / n] * n


@pytest.mark.parametrize("dialect,opts", WEIGHT_CONFIGS)
def test_combination_weights_are_the_weights_used_in_the_sum(dialect, opts):
    """Combination.weights[i] is the weight order i actually has in the sum (0 when the order is excluded or
    the library takes no log-sum, as the schema says), equal to orders[i].weight; the configured weights are
    kept in nominal_weights. NLTK method4 'a' vs 'a' used to report weights [0.25]*4 with per-order weights
    [0.25, 0, 0, 0]; HF's early exit reported 1/N for orders it never summed."""
    import math

    cases = CASES[:150] + [("a", ["a"]), ("a b", ["a c"]), ("x y z", ["a b c"]), ("a b c d e", ["a b c d e"])]
    for hyp, refs in cases:
        if dialect in ("multi-bleu", "mteval") and not refs:
            continue
        tr = explain_bleu(hyp, refs, dialect=dialect, **opts)
        comb = tr.combination
        assert comb.weights == [o.weight for o in comb.orders], (hyp, refs, comb.weights)
        for o in comb.orders:
            if not o.included:
                assert o.weight == 0.0, (hyp, refs, o)
        assert comb.nominal_weights == pytest.approx(_nominal(dialect, opts, len(comb.orders)), abs=1e-15)
        d = tr.to_dict()["combination"]
        assert d["weights"] == comb.weights and d["nominal_weights"] == comb.nominal_weights
        if dialect in ("nltk", "hf-evaluate") and comb.log_sum is not None:
            # the weighted sum the library takes is exactly the weights used times the logs
            used = [o.weight * math.log(o.precision) for o in comb.orders if o.included]
            assert math.fsum(used) == pytest.approx(comb.log_sum, rel=1e-12, abs=1e-12), (hyp, refs)


def test_nltk_method4_single_token_weights():
    tr = explain_bleu("a", ["a"], dialect="nltk", smoothing="method4")
    assert tr.combination.weights == [0.25, 0.0, 0.0, 0.0]
    assert tr.combination.nominal_weights == [0.25] * 4
    assert tr.weights == [0.25, 0.0, 0.0, 0.0]


def test_entity_spans_are_located_in_every_unescaping_dialect():
    """Every token of texts full of (nested) entities has a span, and the span's text decodes to the token the
    way the dialect decodes it: 'a&amp;lt;b' under 13a gave the '<' token a null span."""
    import random

    from explainer.text import ENTITIES_13A

    def decode(s, chain):
        for e, c in chain:
            s = s.replace(e, c)
        return s

    mteval = (("&lt;", "<"), ("&gt;", ">"))
    configs = [("sacrebleu", {}, ENTITIES_13A, False), ("sacrebleu", {"lowercase": True}, ENTITIES_13A, True),
               ("hf-evaluate", {}, ENTITIES_13A, False),
               ("multi-bleu", {"script": "multi-bleu-detok.perl"}, ENTITIES_13A, False),
               ("mteval", {}, mteval, False),
               ("mteval", {"international_tokenization": True}, mteval + (("&apos;", "'"),), False)]
    rng = random.Random(5)
    pieces = ["&", "amp;", "lt;", "gt;", "quot;", "apos;", "a", "A", "<", ">", '"', ";", "LT;", "AMP;", " ", "b"]
    tr = explain_bleu("a&amp;lt;b", ["a<b"])
    assert [(t.text, t.start, t.end) for t in tr.candidate.tokens] == [("a", 0, 1), ("<", 1, 9), ("b", 9, 10)]
    for dialect, opts, chain, lower_first in configs:
        for _ in range(600):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 10)))
            prev = 0
            for tok in explain_bleu(text, [text], dialect=dialect, **opts).candidate.tokens:
                assert tok.start is not None, (dialect, opts, text, tok)
                span = text[tok.start:tok.end]
                assert decode(span.lower() if lower_first else span, chain).lower() == tok.text.lower(), \
                    (dialect, opts, text, tok)
                assert tok.start >= prev
                prev = tok.end


def test_materialised_entries_equal_the_segment_traces_entries():
    """materialise() (one GC pause, fast paths for n-grams seen once / one reference / one clipped match) builds
    exactly the records explain_bleu builds for each segment on its own."""
    hyps = [h for h, _ in CASES[:120]] + ["a a a b a a", "x"]
    refs = [r for _, r in CASES[:120]] + [["a a b a a a"], ["x", "x y"]]
    ct = explain_bleu_corpus(hyps, refs)
    ct.materialise()
    for i, (h, rs) in enumerate(zip(hyps, refs)):
        alone = explain_bleu(h, rs)
        for a, b in zip(ct.segment(i).ngrams, alone.ngrams):
            assert a.entries == b.entries and [e.to_dict() for e in a.entries] == [e.to_dict() for e in b.entries]


def test_materialise_builds_every_entry_record_before_it_returns():
    """materialise() builds the records inside its one GC pause; without it they are built on first access."""
    ct = explain_bleu_corpus(["the cat sat on the mat", "a b c"], [["the cat is on the mat", "x"], ["a b", "c"]])
    orders = [o for i in range(ct.n_segments) for o in ct.segment(i).ngrams]
    assert orders and all(o._entries is None for o in orders)   # lazy until asked
    ct.materialise()
    assert all(o._entries is not None for o in orders)
