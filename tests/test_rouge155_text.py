"""rouge155 pieces: the -m stemmer (exception list + ROUGE's Porter variant), the byte-level tokenizer with
spans, -s, -l/-b (including the script's -b bug), Perl's drand48, and properties against the real rouge-score.

Expected stems are those ROUGE-1.5.5 -m prints (measured with the script) and
are checked indirectly on every -m golden record (tests/test_rouge155.py); the NLTK outputs are computed here
by NLTK itself, to show why no NLTK mode can stand in for the script's stemmer.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explainer.rouge import explain_rouge, score_rouge
from explainer.rouge.rouge155 import Rouge155Options, evaluate
from explainer.rouge.rouge155.bootstrap import Drand48, bootstrap_average
from explainer.rouge.rouge155.stem import exceptions, porter_stem, stem_token, stopwords
from explainer.rouge.rouge155.text import TokenOptions, perl_split_ws, read_text

# ROUGE-1.5.5 -m output per word (measured with the script).
PERL_M = {
    "they": "thei", "news": "new", "away": "awai", "said": "say", "were": "be", "children": "child",
    "better": "well", "best": "well", "professional": "profess", "agreement": "agreem", "dying": "die",
    "skies": "ski", "leaves": "leaf", "was": "was", "has": "has", "is": "is", "epicenter": "epic",
    "took": "take", "taken": "take",
}


def test_stemmer_reproduces_the_documented_perl_outputs():
    for w, s in PERL_M.items():
        assert stem_token(w) == s, w


def test_no_nltk_mode_is_the_perl_stemmer():
    """Why the variant is implemented here: each NLTK mode differs from ROUGE-1.5.5 on some words."""
    from nltk.stem.porter import PorterStemmer

    modes = {m: PorterStemmer(mode=m) for m in (PorterStemmer.ORIGINAL_ALGORITHM, PorterStemmer.MARTIN_EXTENSIONS,
                                                PorterStemmer.NLTK_EXTENSIONS)}
    for mode, st_ in modes.items():
        diffs = [w for w in ("agreement", "professional", "epicenter", "they", "news")
                 if w not in exceptions() and st_.stem(w) != porter_stem(w)]
        assert diffs, f"NLTK {mode} agrees with ROUGE-1.5.5 on every probe word"
    # ...while on plain words all agree (the variant is Porter's algorithm underneath)
    for w in ("running", "cats", "generously", "reported", "capabilities", "hopeful"):
        assert porter_stem(w) == modes[PorterStemmer.ORIGINAL_ALGORITHM].stem(w), w


def test_exception_list_and_length_rule():
    exc = exceptions()
    assert len(exc) == 5930 and exc["were"] == "be" and exc["best"] == "well"
    assert stem_token("are") == "are"  # length <= 3: never stemmed, even though 'are' -> 'be' is in the list
    assert stem_token("cats") == "cat"
    assert len(stopwords()) == 596 and "the" in stopwords()  # 598 lines, 596 distinct (Perl hash keys)


def test_tokens_spans_and_byte_level_cleanup():
    text = "The U.S.-led coalition's state-of-the-art plan.\nCafé İstanbul COVID-19 20%"
    pt = read_text(text)
    assert pt.tokens == ["the", "u", "s", "led", "coalition", "s", "state", "of", "the", "art", "plan",
                         "caf", "stanbul", "covid", "19", "20"]
    for t in pt.ngram_tokens:  # every token points at the user's own characters
        assert text[t.start:t.end].lower() == t.surface
    assert pt.non_ascii_chars == 2
    assert [len(u) for u in pt.lcs_sequences] == [11, 5]


def test_units_crlf_empty_lines_and_tabs():
    pt = read_text("a b\r\n\n\tc\n")
    assert pt.units == ["a b\r", "\tc"]
    assert pt.lcs_sequences == [["a", "b"], ["c"]]


def test_stopwords_removed_before_stemming():
    pt = read_text("The children were running", options=TokenOptions(stem=True, remove_stopwords=True))
    assert pt.tokens == ["child", "run"]  # 'the' and 'were' are SMART stop words (checked unstemmed)
    assert [t.surface for t in pt.stopwords_removed] == ["the", "were"]


def test_perl_split_keeps_a_leading_empty_field():
    assert perl_split_ws(" a  b ") == ["", "a", "b"]
    assert perl_split_ws("") == []
    assert perl_split_ws("a\u00a0b") == ["a\u00a0b"]  # Perl's \s on bytes is ASCII whitespace only


def test_word_limit_applies_to_the_references_too():
    """Measured with ROUGE-1.5.5: ``a b c`` vs ``x y a b c`` with -l 2 scores 0."""
    ev = evaluate("a b c", ["x y a b c"], Rouge155Options(n=1, length_limit=2))
    assert (ev.metrics["ROUGE-1"].R, ev.metrics["ROUGE-L"].R) == (0.0, 0.0)


def test_byte_limit_bug_in_the_lcs_units():
    """Measured with ROUGE-1.5.5: three 9-byte lines vs the same lines with -b 12 print ROUGE-1 = 1.0 but
    ROUGE-L R = 0.33333, P = 0.66667 (readText_LCS never advances its byte counter)."""
    text = "aaaa bbbb\ncccc dddd\neeee ffff"
    ev = evaluate(text, [text], Rouge155Options(n=1, byte_limit=12))
    m1, ml = ev.metrics["ROUGE-1"], ev.metrics["ROUGE-L"]
    assert (m1.R, m1.P) == (1.0, 1.0)
    assert (ml.R, ml.P) == (0.33333, 0.66667)
    assert any("-b" in n for n in ev.notes)


def test_drand48_matches_the_posix_generator():
    """Perl >= 5.20's drand48 is POSIX drand48: X = (0x5DEECE66D X + 0xB) mod 2^48, srand48(s) sets
    X = s·2^16 + 0x330E. Checked against the C library's own srand48/drand48 where available."""
    import ctypes
    import ctypes.util

    path = ctypes.util.find_library("c")
    if not path:
        pytest.skip("no C library to compare with")
    libc = ctypes.CDLL(path)
    libc.drand48.restype = ctypes.c_double
    for seed in (0, 1, 2, 999, 123456):
        libc.srand48(ctypes.c_long(seed))
        ours = Drand48(seed)
        for _ in range(50):
            assert ours.drand() == libc.drand48()


def test_bootstrap_of_identical_values_is_that_value():
    b = bootstrap_average({f"{i}.X": (0.5, 0.25, 0.33333) for i in range(1, 8)})
    assert b.average == (0.5, 0.25, 0.33333) and b.ci_low == b.average and b.ci_high == b.average


_WORDS = ["the", "cat", "cats", "sat", "on", "mat", "dog", "dogs", "running", "ran", "news", "new", "were",
          "was", "they", "said", "children", "better", "U.S.", "-", ",", "café"]
_text = st.lists(st.lists(st.sampled_from(_WORDS), min_size=0, max_size=8).map(" ".join),
                 min_size=1, max_size=3).map("\n".join)


@settings(max_examples=150)
@given(c=_text, refs=st.lists(_text, min_size=1, max_size=3), stem=st.booleans(), pool=st.booleans())
def test_properties(c, refs, stem, pool):
    o = Rouge155Options(n=2, w=1.2, skip=4, unigrams="U", stem=stem, mode="A" if pool else "B")
    ev = evaluate(c, refs, o)
    if any(not r.tokens for r in ev.models):
        assert ev.died is not None  # -w with a reference without tokens: the script dies
        return
    for m in ev.metrics.values():
        for v in (m.R, m.P, m.F):
            assert 0.0 <= v <= 1.0
        assert min(m.R, m.P) - 1e-12 <= m.F <= max(m.R, m.P) + 1e-12
    cand_n = len(ev.peer.tokens)
    for row1, rowl in zip(ev.metrics["ROUGE-1"].per_reference, ev.metrics["ROUGE-L"].per_reference):
        assert rowl["hit"] <= row1["hit"] <= min(cand_n, row1["model_count"])


_ascii = st.lists(st.lists(st.sampled_from([w for w in _WORDS if w != "café"]), min_size=0, max_size=9)
                  .map(" ".join), min_size=1, max_size=3).map("\n".join)


@settings(max_examples=200)
@given(c=_ascii, r=_ascii)
def test_equals_the_real_rouge_score_without_stemming_on_one_reference(c, r):
    """The golden README's consistency check, on generated cases: without stemming and with one reference,
    rouge155 ROUGE-1/2 and summary-level ROUGE-L print the same R and P as the real rouge-score
    (rougeLsum), and the one-line ROUGE-L as rougeL."""
    from rouge_score.rouge_scorer import RougeScorer

    rs = RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=False).score(r, c)
    ours = score_rouge(c, [r], dialect="rouge155", types=["rouge1", "rouge2", "rougeL", "rougeLsum"])
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        assert "%.5f" % ours[t].recall == "%.5f" % rs[t].recall, t
        assert "%.5f" % ours[t].precision == "%.5f" % rs[t].precision, t


def test_trace_view_reports_what_the_tokenizer_dropped():
    tr = explain_rouge("नमस्ते दुनिया", ["hello world"], dialect="rouge155", types=["rouge1"])
    msg = tr.to_dict()["candidate"]["message"]
    assert "all 2 words" in msg and tr.scores["rouge1"].fmeasure == 0.0
    tr2 = explain_rouge("the cat sat on the mat", ["a cat sat"], dialect="rouge155", types=["rouge1"],
                        remove_stopwords=True, use_stemmer=True)
    cand = tr2.to_dict()["candidate"]
    assert "stop word" in cand["message"]
    assert {d["kind"] for d in cand["dropped"]} == {"stopword"}
    assert cand["stemmed"] is True
