"""The TER trace: the recorded shift search is sacreBLEU's own round by round (``lib_ter._shift``), the recorded
shifts applied in order give the shifted hypothesis, whose alignment has exactly num_edits - shifts edits; the words'
spans in the user's text; sacreBLEU's quirks the trace reports; the limits; the JSON."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.metrics.distance import edit_distance
from sacrebleu.metrics import TER
from sacrebleu.metrics import lib_ter as L

from explainer.errors import ExplainerInputError, TraceTooLarge
from explainer.ter import (
    MAX_CORPUS_TRACE_CHARS,
    MAX_TEXT_TOKENS,
    MAX_TRACE_CHARS,
    TooManyTokens,
    explain_ter,
    explain_ter_corpus,
    get_dialect,
    score_ter,
    score_ter_corpus,
)
from explainer.ter.shifts import full_distance, search


def library_rounds(words_h, words_r):
    """sacreBLEU's own loop (``translation_edit_rate``): the hypothesis after each applied shift, the stop."""
    ed = L.BeamEditDistance(words_r)
    cur, seen, checked = list(words_h), [], 0
    while True:
        delta, new, checked = L._shift(cur, words_r, ed, checked)
        if checked >= L._MAX_SHIFT_CANDIDATES or delta <= 0:
            return seen, checked
        seen.append((delta, new))
        cur = new


def apply_shift(words, start, length, new_start):
    block = words[start:start + length]
    rest = words[:start] + words[start + length:]
    return rest[:new_start] + block + rest[new_start:]


def check_pair(words_h, words_r, ref=None):
    ref = ref or search(words_h, words_r)
    if not words_r:
        assert (ref.num_edits, ref.ref_length) == L.translation_edit_rate(words_h, words_r)
        return ref
    rounds, checked = library_rounds(words_h, words_r)
    assert ref.num_edits == len(rounds) + L.BeamEditDistance(words_r)(rounds[-1][1] if rounds else words_h)[0]
    assert ref.candidates_checked == checked
    assert [(s.gain, s.distance_after) for s in ref.shifts] == [(d, s.distance_before - d)
                                                                for (d, _), s in zip(rounds, ref.shifts)]
    cur = list(words_h)
    for s, (_, want) in zip(ref.shifts, rounds, strict=True):
        assert cur[s.start:s.start + s.length] == s.words
        assert words_r[s.ref_start:s.ref_start + s.length] == s.words
        cur = apply_shift(cur, s.start, s.length, s.new_start)
        assert cur == want
        assert cur[s.new_start:s.new_start + s.length] == s.words
        assert s.candidates >= s.tied >= 1
    assert cur == ref.shifted
    # the alignment of the shifted hypothesis: exactly num_edits - shifts edits, sacreBLEU's own distance
    edits = [e for e in ref.alignment if e.op != "match"]
    assert len(edits) == ref.num_edits - ref.num_shifts == ref.edit_distance == L.BeamEditDistance(words_r)(cur)[0]
    assert [e.hyp for e in ref.alignment if e.hyp is not None] == list(range(len(cur)))
    assert [e.ref for e in ref.alignment if e.ref is not None] == list(range(len(words_r)))
    for e in ref.alignment:
        if e.op == "match":
            assert cur[e.hyp] == words_r[e.ref]
        elif e.op == "substitution":
            assert cur[e.hyp] != words_r[e.ref]
    assert len([e for e in ref.initial_alignment if e.op != "match"]) == ref.initial_distance
    return ref


def test_a_worked_example():
    """docs/ter.md's worked example: each number as sacreBLEU computes it."""
    h, r = "the cat sat on the mat", "on the mat the cat sat"
    tr = explain_ter(h, [r])
    k = tr.kept
    want = TER().sentence_score(h, [r])
    assert (tr.num_edits, tr.ref_length, tr.score) == (want.num_edits, want.ref_length, want.score)
    assert (want.num_edits, want.ref_length, round(want.score, 2)) == (1, 6.0, 16.67)
    assert L.BeamEditDistance(r.split())(h.split()) == (k.initial_distance, "ssssss")      # six substitutions
    rounds, checked = library_rounds(h.split(), r.split())
    assert k.candidates_checked == checked == 36
    (s,) = k.shifts
    ((gain, shifted),) = rounds
    assert (s.gain, k.shifted) == (gain, shifted) == (6, r.split())
    assert (s.words, s.start, s.new_start) == (["the", "cat", "sat"], 0, 3)
    assert "lowers the edit distance by 6 (6 → 0)" in s.reason and k.edit_distance == 0
    assert k.counts() == {"match": 6, "substitution": 0, "deletion": 0, "insertion": 0}


@pytest.mark.parametrize("h,r", [
    ("a b c d e f", "d e f a b c"), ("the the the cat", "cat the the the"), ("a", "b"), ("", "a b"), ("a b", ""),
    ("x y z a b c d", "a b c d x y z w"), ("one two three four five six seven", "seven six five four three two one"),
])
def test_rounds_are_the_librarys(h, r):
    check_pair(h.split(), r.split())


@settings(max_examples=200, deadline=None)
@given(h=st.lists(st.sampled_from("a b c d e f".split()), max_size=16),
       r=st.lists(st.sampled_from("a b c d e g".split()), max_size=16))
def test_rounds_are_the_librarys_random(h, r):
    check_pair(h, r)


def test_the_candidate_limit_stops_the_search_as_sacrebleu_does():
    rng = random.Random(4)
    words = [f"w{i % 10}" for i in range(40)]
    h = words[:]
    rng.shuffle(h)
    tr = explain_ter(" ".join(h), [" ".join(words)])
    ref = check_pair(h, words, tr.kept)
    assert ref.stop == "candidate-limit" and ref.candidates_checked >= L._MAX_SHIFT_CANDIDATES
    assert any(w.category == "library-limit" for w in tr.warnings)


def test_the_beam_is_reported_when_it_misses_a_cheaper_alignment():
    """Four words matching the end of a 70-word reference (too far to shift): the beam around the diagonal does not
    reach the cells where they match, so sacreBLEU counts more edits than the full edit distance (66 insertions)."""
    h, r = "a b c d".split(), ["f"] * 66 + "a b c d".split()
    tr = explain_ter(" ".join(h), [" ".join(r)])
    ref = tr.kept
    assert (ref.num_edits, ref.ref_length) == L.translation_edit_rate(h, r)
    assert not ref.full_band and not ref.shifts
    exact = edit_distance(ref.shifted, r)
    assert full_distance(ref.shifted, r) == exact == 66 < ref.edit_distance == ref.num_edits
    assert any(f"it counts {ref.edit_distance} edits where the full edit distance is 66" in n for n in ref.notes)
    assert any(w.category == "library-beam" for w in tr.warnings)
    assert explain_ter("a b", ["f a b"]).kept.full_band and not explain_ter("a b", ["f a b"]).kept.notes


# --------------------------------------------------------------------------------------------- spans
def _spans_ok(text, t):
    pos = 0
    for tok in t.tokens:
        assert tok.start is not None, (text, tok)
        assert pos <= tok.start < tok.end <= len(text)
        pos = tok.end
        if tok.exact:
            assert tok.text in (text[tok.start:tok.end], text[tok.start:tok.end].lower())


@settings(max_examples=150, deadline=None)
@given(text=st.lists(st.sampled_from(list("abAB .,!?()'\"-&;\n3İΣσ今天。，ｈ")
                                   + ["&amp;", "&quot;", "&amp;quot;", "&amp;lt;", "'s", "\n-", "quot;"]),
                    max_size=30).map("".join),
       opts=st.fixed_dictionaries({k: st.booleans() for k in ("normalized", "no_punct", "asian_support",
                                                               "case_sensitive")}))
def test_every_word_is_found_in_the_text(text, opts):
    tr = explain_ter(text, [text], **opts)
    _spans_ok(text, tr.candidate)
    _spans_ok(text, tr.references[0])
    assert tr.candidate.words == get_dialect("sacrebleu", **opts).words(text)


def test_spans_and_what_the_tokenizer_changed():
    tr = explain_ter("Hello, U.S.A. &amp; World!", ["x"], normalized=True, no_punct=True)
    toks = {t.text: t for t in tr.candidate.tokens}
    assert list(toks) == ["hello", "u", "s", "a", "&", "world"]
    text = tr.candidate.text
    assert text[toks["hello"].start:toks["hello"].end] == "Hello" and toks["hello"].exact
    amp = toks["&"]
    assert text[amp.start:amp.end] == "&amp;" and not amp.exact and "&amp;" in amp.note
    tr = explain_ter("U.S.A. now", ["x"], no_punct=True)
    usa = tr.candidate.tokens[0]
    assert usa.text == "usa" and (usa.start, usa.end) == (0, 5) and not usa.exact and "'.' removed" in usa.note
    assert [c["step"] for c in tr.candidate.changes] == ["lowercase", "no_punct"]


def test_a_reference_is_tokenized_twice_and_the_trace_says_so():
    r = "2023's's's sat's e-mail The"
    tr = explain_ter("2023 sat", [r], normalized=True)
    m = TER(normalized=True)
    assert tr.references[0].words == m._cache_references([[r]])[0]["ref_words"][0]
    assert tr.references[0].words != m._preprocess_segment(r).split()
    assert any(c["step"] == "tokenized twice" for c in tr.references[0].changes)
    assert any(w.category == "library-tokenizer" for w in tr.warnings)
    assert tr.stats == m._extract_corpus_statistics(["2023 sat"], [[r]])[0]
    # '&amp;quot;': the first pass decodes '&amp;' and splits '&', 'quot', ';' apart; the spans follow both passes
    tr = explain_ter("x", ["say &amp;quot;hi"], normalized=True)
    toks = tr.references[0].tokens
    assert [t.text for t in toks] == m._cache_references([["say &amp;quot;hi"]])[0]["ref_words"][0]
    assert [t.text for t in toks] == ["say", "&", "quot", ";", "hi"]
    assert [(t.start, t.end) for t in toks] == [(0, 3), (4, 9), (9, 13), (13, 14), (14, 16)]
    assert not toks[1].exact and "&amp;" in toks[1].note


# --------------------------------------------------------------------------------------------- warnings
def test_asian_support_alone_is_a_warning_but_in_the_signature():
    st_ = score_ter("今天", ["今天"], asian_support=True)
    assert any("asian_support changes nothing" in w.message for w in st_.warnings)
    assert "asian:yes" in st_.signature
    assert not score_ter("今天", ["今天"], asian_support=True, normalized=True).warnings


# --------------------------------------------------------------------------------------------- limits and input
def test_limits_are_checked_before_the_work():
    with pytest.raises(TraceTooLarge, match="MAX_TRACE_CHARS"):
        explain_ter("a " * (MAX_TRACE_CHARS // 2 + 1), ["a"])
    with pytest.raises(TooManyTokens, match="MAX_TEXT_TOKENS"):
        score_ter("a " * (MAX_TEXT_TOKENS + 1), ["a"])
    with pytest.raises(TooManyTokens, match="reference 2"):
        score_ter("a", ["a", "a " * (MAX_TEXT_TOKENS + 1)])
    with pytest.raises(TooManyTokens, match="segment 2: the candidate"):
        score_ter_corpus(["a", "a " * (MAX_TEXT_TOKENS + 1)], [["a"], ["a"]])
    n = MAX_CORPUS_TRACE_CHARS // 1000 + 1
    with pytest.raises(TraceTooLarge, match="MAX_CORPUS_TRACE_CHARS"):
        explain_ter_corpus(["x " * 250] * n, [["y " * 250]] * n, full=True)


def test_the_trace_work_is_bounded_and_the_statistics_remain():
    rng = random.Random(1)
    words = [f"w{i % 20}" for i in range(40)]
    h = words[:]
    rng.shuffle(h)
    with pytest.raises(TraceTooLarge, match="MAX_TRACE_WORK"):
        explain_ter(" ".join(h), [" ".join(words)])
    assert score_ter(" ".join(h), [" ".join(words)]).stats[0] == L.translation_edit_rate(h, words)[0]


@pytest.mark.parametrize("call,msg", [
    (lambda: explain_ter("a", []), "has no reference"),
    (lambda: explain_ter("a", "a"), "single string"),
    (lambda: explain_ter(3, ["a"]), "must be a string"),
    (lambda: score_ter_corpus([], []), "no segment"),
    (lambda: score_ter_corpus(["a", "b"], [["a"]]), "every candidate needs its own list"),
    (lambda: score_ter_corpus(["a", "b"], [["a"], []]), "segment 2 has no reference"),
    (lambda: explain_ter("a", ["a"], colour=1), "has no option 'colour'"),
    (lambda: explain_ter("a", ["a"], dialect="tercom"), "unknown TER dialect"),
])
def test_bad_input_is_a_clear_value_error(call, msg):
    with pytest.raises(ValueError, match=msg):
        call()
    assert issubclass(ExplainerInputError, ValueError)


# --------------------------------------------------------------------------------------------- JSON
def test_to_dict_is_json_and_holds_the_numbers():
    tr = explain_ter("The cat sat on the mat .", ["On the mat sat the cat .", "a cat was on the mat"],
                     normalized=True)
    d = json.loads(json.dumps(tr.to_dict()))
    assert d["score"] == tr.score and d["num_edits"] == tr.num_edits and d["ref_length"] == tr.ref_length
    assert d["reference_edits"] == [p["num_edits"] for p in d["per_reference"]]
    assert d["chosen_reference"] == d["reference_edits"].index(min(d["reference_edits"]))
    p = d["per_reference"][d["chosen_reference"]]
    assert p["num_edits"] == p["num_shifts"] + p["edit_distance"]
    assert sum(v for k, v in p["counts"].items() if k != "match") == p["edit_distance"]
    assert p["shifts"] and set(p["shifts"][0]) >= {"words", "start", "new_start", "target", "gain", "candidates",
                                                   "tied", "reason"}
    c = explain_ter_corpus(["a b", "c d"], [["b a"], ["c d"]], full=True)
    dc = json.loads(json.dumps(c.to_dict(full=True)))
    assert dc["segment_stats"] == [[1, 2.0], [0, 2.0]] and len(dc["segments"]) == 2
    assert dc["score"] == TER().corpus_score(["a b", "c d"], [["b a", "c d"]]).score
