from explainer.text import align_spans, check_length, InputTooLong
import pytest


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
