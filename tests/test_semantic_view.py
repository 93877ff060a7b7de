"""The semantic view model (explainer/ui/semantic_view.py): every number shown is the trace's, user text is escaped
in HTML and in Plotly, the heatmap is bounded, the greedy alignment draws each piece's best match both ways."""
from __future__ import annotations

import json

import explainer.semantic as sem
from explainer.ui import semantic_view as sv


def test_sts_view_carries_the_trace_numbers():
    t = sem.explain_semantic("The feline rested on the rug", ["Dogs bark", "The cat sat on the mat"])
    v = sv.sts_view(t)
    assert v.headline == f"{t.score:.4f}"
    assert [r["cosine"] for r in v.cosine_rows] == [f"{c:.4f}" for c in t.cosines]
    assert [r["kept"] for r in v.cosine_rows] == ["", "✓"] and t.chosen_reference == 1
    assert v.pooling_rows[0]["pieces averaged"] == len(t.candidate.pieces)
    assert v.formula == t.formula and "max(" in v.formula
    assert {b["what"] for b in v.blind_spots} == {"word order beyond context", "negation", "numbers"}


def test_bertscore_view_marks_where_each_kept_value_comes_from():
    t = sem.explain_semantic("The cat sat quietly on the mat by the door",
                             ["cat", "The cat sat quietly on the old mat by the front door of the house"],
                             dialect="bertscore", idf=True)
    v = sv.bertscore_view(t)
    assert v.headline == f"{t.f1:.4f}"
    for row, pair in zip(v.rows, t.pairs):
        assert row["P"].split()[0] == sv.fmt(pair.precision) and row["R"].split()[0] == sv.fmt(pair.recall)
    assert "NaN" in v.rows[0]["R"]             # 'cat' is in both references: idf 0, recall 0/0
    assert [r["from reference"] for r in v.kept_rows] == [t.chosen[m] + 1 for m in ("precision", "recall", "f1")]
    assert v.idf_rows and all(r["idf"] == f"{x.idf:.6g}" for r, x in zip(v.idf_rows, t.idf))
    assert "roberta-large" in v.published and v.evaluate_default["num_layers"] == 17


def test_pair_view_heatmap_and_alignment():
    t = sem.explain_semantic("The feline rested on the rug", ["The cat sat on the mat"], dialect="bertscore")
    pv = sv.bertscore_pair_view(t, 0)
    g = t.pairs[0].greedy
    assert len(pv.z) == len(t.candidate.pieces) and pv.z[2][3] == float(g.similarity[2, 3])
    assert pv.cand_best == [int(x) for x in g.cand_best] and not pv.sample_note
    fig = sv.similarity_figure(pv)
    heat, prec, rec = fig.data
    assert len(prec.x) == len(t.candidate.pieces) and len(rec.x) == len(t.references[0].pieces)
    assert all(pv.z[y][x] == max(pv.z[y]) for x, y in zip(prec.x, prec.y))     # each row's best, marked
    afig, note = sv.greedy_alignment_figure(pv)
    assert note == "" and afig.data[0].name.startswith("candidate piece")
    assert afig.data[0].x.count(None) == len(t.candidate.pieces)
    assert "P = Σ weight · best cosine" in pv.formulas["precision"]


def test_heatmap_is_bounded_and_says_so():
    long = " ".join(f"word{i}" for i in range(120))
    t = sem.explain_semantic(long, [long], dialect="bertscore")
    pv = sv.bertscore_pair_view(t, 0)
    assert len(pv.rows) == sv.HEATMAP_MAX and len(pv.cols) == sv.HEATMAP_MAX and "evenly spaced" in pv.sample_note
    assert len(pv.cand_rows) == len(t.candidate.pieces)           # the tables keep every piece
    _, note = sv.greedy_alignment_figure(pv)
    assert "first 40 pieces" in note


def test_user_text_is_escaped_in_html_and_plotly():
    evil = '<img src=x onerror=alert(1)> $x$ "q" &amp;'
    t = sem.explain_semantic(evil, ["<b>bold</b>"], dialect="bertscore")
    html = sv.pieces_html(t.candidate, "the candidate")
    assert "<img" not in html and "<b>" not in html and 'title="piece 1: &lt;">&lt;<sub>1</sub>' in html
    fig = sv.similarity_figure(sv.bertscore_pair_view(t, 0))
    text = json.dumps(fig.to_plotly_json()["layout"]["yaxis"]["ticktext"] + list(fig.data[0].x))
    assert "<" not in text and "$" not in text
    afig, _ = sv.greedy_alignment_figure(sv.bertscore_pair_view(t, 0))
    assert all("<" not in s and "$" not in s for d in afig.data if d.text for s in d.text)


def test_piece_rows_and_marks_show_split_words():
    t = sem.explain_semantic("Tokenization rocks", ["x"])
    rows = sv.piece_rows(t.candidate)
    assert [r["piece"] for r in rows] == ["[CLS]", "token", "##ization", "rocks", "[SEP]"]
    assert rows[2]["word"] == "Tokenization" and rows[2]["continues a word"] == "yes" and rows[0]["word"] == "(added)"
    marks = sv.piece_marks(t.candidate)
    assert [(m.start, m.end, m.label) for m in marks] == [(0, 5, "1"), (5, 12, "2"), (13, 18, "3")]
    assert "continues the word" in marks[1].title


def test_truncation_is_said():
    t = sem.explain_semantic(" ".join(["word"] * 300), ["x"])
    assert sv.sts_view(t).notes and "254" in sv.sts_view(t).notes[0]
    assert "254" in sv.pieces_html(t.candidate, "the candidate")
