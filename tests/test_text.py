import pytest

from explainer.text import InputTooLong, align_spans, check_length


def test_spans_point_into_original_text():
    text = "The cat, isn't  on the mat."
    toks = align_spans(text, ["the", "cat", ",", "isn't", "on", "the", "mat", "."])
    assert [text[t.start:t.end] for t in toks] == ["The", "cat", ",", "isn't", "on", "the", "mat", "."]


def test_entity_and_missing_tokens():
    text = "a &amp; b <skipped> c"
    toks = align_spans(text, ["a", "&", "b", "c", "zzz"])
    assert [text[t.start:t.end] if t.start is not None else None for t in toks] == ["a", "&amp;", "b", "c", None]


def test_length_limit():
    with pytest.raises(InputTooLong):
        check_length(["x" * 10, "y" * 300_000])


def test_entities_are_decoded_in_sequence_like_13a():
    """13a decodes &quot; &amp; &lt; &gt; with four str.replace calls in that order, so "&amp;lt;" ends as "<"
    (the span covers the whole entity text) while "&amp;quot;" ends as "&quot;"; &apos; is not decoded."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    for text in ("a&amp;lt;b", "x &amp;quot; y", "&amp;amp;gt;", "x &apos;y&apos;", "&amp;&lt;&gt;&quot;"):
        toks = Tokenizer13a()(text).split()
        spans = align_spans(text, toks, casefold=False)
        assert all(t.start is not None for t in spans), (text, spans)
        got = [text[t.start:t.end] for t in spans]
        for tok, s in zip(toks, got):
            for ent, ch in (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")):
                s = s.replace(ent, ch)
            assert s == tok, (text, toks, got)
    assert [(t.text, t.start, t.end) for t in align_spans("a&amp;lt;b", ["a", "<", "b"], casefold=False)] == \
        [("a", 0, 1), ("<", 1, 9), ("b", 9, 10)]
    # lowercasing before decoding (sacreBLEU lowercase=True): "&LT;" is decoded too
    assert [(t.start, t.end) for t in align_spans("A&LT;B", ["a", "<", "b"], lowercase_first=True)] == \
        [(0, 1), (1, 5), (5, 6)]
    assert align_spans("A&LT;B", ["a", "<", "b"])[1].start is None     # decoded case-sensitively otherwise
