"""The TER view model (explainer/ui/ter_view.py): pure functions of the trace — every number is the trace's (and,
through it, sacreBLEU's, computed here), the alignment drawn with matches, substitutions, deletions and insertions
told apart by more than colour, every user string escaped."""
from __future__ import annotations

import json

import pytest
from sacrebleu.metrics import TER

from explainer.ter import explain_ter
from explainer.ui import ter_view as tv
from explainer.ui.highlight import render_marked_text

H = "The cat sat on the mat , said the old man"
R = ["the old man said : on the mat sat the cat", "a cat was sitting on the mat , the old man said"]


@pytest.fixture(scope="module")
def trace():
    return explain_ter(H, R)


def test_the_view_holds_the_traces_numbers(trace):
    v = tv.ter_view(trace)
    want = TER().sentence_score(H, R)
    assert v.value == f"{want.score:.4f}" and v.headline == f"TER = {want.score:.4f}"
    assert "lower is better" in v.direction and "above 100" in v.direction
    kept = trace.kept
    assert v.kept == trace.chosen_reference and v.n_refs == 2
    assert [r["edits"] for r in v.references] == [p.num_edits for p in trace.per_reference]
    assert [r["kept"] for r in v.references].count(True) == 1
    assert sum(1 for r in v.alignment if r["op"] != "match") == kept.edit_distance == trace.num_edits - len(v.shifts)
    assert v.counts == kept.counts()
    assert [(r["from"], r["to"], r["gain"]) for r in v.shifts] == [(s.start, s.new_start, s.gain) for s in kept.shifts]
    assert f"{kept.num_shifts} + {kept.edit_distance}" in v.formula[-1] and v.formula[-1].endswith(
        f"{want.score:.6g}")
    assert r"\frac{11 + 12}{2}" in v.formula[0]                        # the mean of the two reference lengths
    assert v.formula_text.endswith(f"= {want.score:.6g}")


def test_alignment_rows_follow_the_words_back_through_the_shifts(trace):
    rows = tv.alignment_rows(trace)
    cand = trace.candidate.words
    for r in rows:
        if r["candidate position"] is not None:
            assert cand[r["candidate position"]] == r["hypothesis"]
        if r["op"] == "match":
            assert r["hypothesis"] == r["reference"]
    moved = {i for s in trace.kept.shifts for i in range(s.new_start, s.new_start + s.length)}
    assert {r["shifted position"] for r in rows if r["moved"]} >= moved and moved
    assert sorted(r["candidate position"] for r in rows if r["candidate position"] is not None) == list(
        range(len(cand)))
    other = 1 - trace.chosen_reference
    assert len([r for r in tv.alignment_rows(trace, other) if r["reference position"] is not None]) == len(
        trace.references[other].words)
    with pytest.raises(ValueError, match="out of range"):
        tv.alignment_rows(trace, 2)


def test_marks_have_a_letter_as_well_as_a_colour(trace):
    marks = tv.candidate_marks(trace)
    assert len(marks) == len(trace.candidate.words)
    by_op = {m.label[0]: m.order for m in marks}
    assert set(by_op) <= {"=", "S", "D"} and "=" in by_op
    assert any(tv.SHIFTED in m.label for m in marks)
    rmarks = tv.reference_marks(trace)
    assert len(rmarks) == len(trace.references[trace.chosen_reference].words)
    assert {m.label for m in rmarks} <= {"=", "S", "I"}
    assert len({spec["mark"] for spec in tv.OPS.values()}) == len({spec["symbol"] for spec in tv.OPS.values()}) == 4
    assert len({spec["dash"] for op, spec in tv.OPS.items() if op in ("match", "substitution")}) == 2
    html = render_marked_text(trace.candidate.text, marks)
    assert html.count("<span") >= len(marks)
    assert "<sub>=</sub>" in html and "moved by a shift" in tv.legend_html()


def test_deletions_and_insertions():
    tr = explain_ter("a b c d", ["a x c"])
    rows = tv.alignment_rows(tr)
    ops = [r["op"] for r in rows]
    assert ops.count("deletion") + ops.count("substitution") >= 1
    tr = explain_ter("a c", ["a b c"])
    assert [r["op"] for r in tv.alignment_rows(tr)] == ["match", "insertion", "match"]
    assert [m.label for m in tv.reference_marks(tr)] == ["=", "I", "="]
    tr = explain_ter("a b c", ["a c"])
    assert [r["op"] for r in tv.alignment_rows(tr)] == ["match", "deletion", "match"]
    assert [m.label for m in tv.candidate_marks(tr)] == ["=", "D", "="]
    empty = explain_ter("a b", [""])
    assert tv.formula_text(empty) == empty.combination.formula and "100" in tv.formula_latex(empty)[-1]


def test_the_figure_tells_the_operations_apart_and_truncates():
    tr = explain_ter("a b x d e", ["a b c d f g"])
    fig, note = tv.alignment_figure(tv.alignment_rows(tr))
    assert note is None
    lines = {t.name: t for t in fig.data if t.mode == "lines"}
    assert lines["match (=)"].line.dash == "solid" and lines["substitution (S)"].line.dash == "dash"
    names = [t.name for t in fig.data]
    assert "deletion (D)" in names and "insertion (I)" in names
    long = explain_ter(" ".join(f"w{i}" for i in range(50)), [" ".join(f"w{i}" for i in range(45))])
    fig, note = tv.alignment_figure(tv.alignment_rows(long), limit=40)
    assert note and "first 40 words" in note
    assert max(len([y for y in t.y if y is not None]) for t in fig.data if t.mode == "markers+text") == 40


def test_every_user_string_is_escaped():
    evil = '<script>alert(1)</script> $x$ <b>bold</b> &amp; "q"'
    tr = explain_ter(evil, [evil + " <img src=x onerror=alert(1)>"], normalized=True)
    v = tv.ter_view(tr)
    html = tv.alignment_html(v.alignment)
    assert "<script>" not in html and "<img" not in html and "&lt;" in html
    marked = render_marked_text(tr.candidate.text, v.candidate_marks)
    assert "<script>" not in marked and "<b>bold" not in marked
    fig, _ = tv.alignment_figure(v.alignment)
    text = json.dumps(fig.to_plotly_json()["data"])
    assert "<script>" not in text and "<img" not in text and "$x$" not in text
    assert all("<" not in r["mark"] for r in v.alignment)


def test_token_rows_say_where_each_word_is():
    tr = explain_ter("Hello, U.S.A.!", ["x"], normalized=True, no_punct=True)
    rows = tv.token_rows(tr.candidate)
    assert rows[0] == {"position": 0, "word": "hello", "start": 0, "end": 5, "as typed": "Hello", "exact": True,
                       "note": ""}
    assert all(r["start"] is not None for r in rows)
