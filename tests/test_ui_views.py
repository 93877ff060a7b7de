"""Pure UI helpers over real traces: table rows, marks, chart figures, formulas and the diagnosis agree with
the traces — and, through them, with the real sacreBLEU / rouge-score run here."""
from __future__ import annotations

import math

import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

from explainer.analysis import diagnosis
from explainer.bleu import explain_bleu
from explainer.examples import EXAMPLES, get_example
from explainer.rouge import explain_rouge
from explainer.ui import bleu_view as bv
from explainer.ui import charts
from explainer.ui import rouge_view as rv

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def sacre(cand, refs, **kw):
    return BLEU(**kw).corpus_score([cand], [[r] for r in refs])


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: e.id)
@pytest.mark.parametrize("lowercase", [False, True])
def test_ngram_table_sums_are_sacrebleus_counts(ex, lowercase):
    refs = list(ex.references)
    bt = explain_bleu(ex.candidate, refs, lowercase=lowercase)
    real = sacre(ex.candidate, refs, lowercase=lowercase)
    rows = bv.ngram_rows(bt)
    for n in range(1, 5):
        sel = [r for r in rows if r["order"] == n]
        if real.counts[0] == 0:
            # sacreBLEU reports no counts when nothing matches at all; the table still holds the candidate
            assert sum(r["counted (clipped)"] for r in sel) == 0
            continue
        assert sum(r["counted (clipped)"] for r in sel) == real.counts[n - 1]
        assert sum(r["candidate count"] for r in sel) == real.totals[n - 1]
        for r in sel:
            assert r["counted (clipped)"] + r["clipped away"] + r["in no reference"] == r["candidate count"]
    chosen = [r for r in bv.ref_length_rows(bt) if r["chosen"]]
    assert chosen and all(r["length (tokens)"] == real.ref_len for r in chosen)
    assert f"{real.score:.4f}" in bv.formula_latex(bt) or real.score == 0 or f"{real.score:.4g}" in bv.formula_latex(bt)


@pytest.mark.parametrize("lowercase", [False, True])
def test_papineni_clipped_marks_match_sacrebleu(lowercase):
    ex = get_example("papineni_the")
    bt = explain_bleu(ex.candidate, list(ex.references), lowercase=lowercase)
    real = sacre(ex.candidate, list(ex.references), lowercase=lowercase)
    marks = bv.candidate_marks(bt)
    assert len(marks) == 7
    assert sum(m.clipped for m in marks) == 7 - real.counts[0]
    assert sum(1 for m in marks if m.order >= 1 and not m.clipped) == real.counts[0]
    assert all("clipped away" in m.title for m in marks if m.clipped)


def test_selected_ngram_marks_every_occurrence():
    ex = get_example("abandon_hope")
    bt = explain_bleu(ex.candidate, list(ex.references))
    occ = bv.ngram_occurrences(bt, "ye who")
    assert occ["n"] == 2
    for k in range(len(ex.references)):
        marks = bv.reference_marks(bt, k, selected="ye who")
        assert sum(m.selected for m in marks) == 2 * len(occ["ref_positions"][k])


def test_bleu_figures_carry_trace_numbers():
    ex = get_example("cat_sat")
    bt = explain_bleu(ex.candidate, list(ex.references))
    real = sacre(ex.candidate, list(ex.references))
    fig = charts.bleu_counts_figure(bv.order_rows(bt))
    totals, matches, raw, smoothed = (list(t.y) for t in fig.data)
    assert totals == real.totals and matches == real.counts
    assert [p for p in raw] == [c / t for c, t in zip(real.counts, real.totals)]
    assert [100 * p for p in smoothed] == pytest.approx(real.precisions, rel=1e-12)
    bp = charts.bp_curve_figure(bt.combination.c, bt.combination.r, bt.combination.bp)
    assert bp.data[1].x == (real.sys_len,) and bp.data[1].y[0] == pytest.approx(real.bp, rel=1e-12)
    for x, y in zip(bp.data[0].x, bp.data[0].y):
        assert y == pytest.approx(math.exp(1 - real.ref_len / x) if x < real.ref_len else 1.0, abs=1e-9)


@pytest.mark.parametrize("ex", [e for e in EXAMPLES if len(e.references) <= 4], ids=lambda e: e.id)
def test_rouge_rows_match_rouge_score(ex):
    refs = list(ex.references)
    rouge_trace = explain_rouge(ex.candidate, refs, types=TYPES)
    real = rouge_scorer.RougeScorer(list(TYPES)).score_multi(refs, ex.candidate)
    fig = charts.rouge_prf_figure(rv.prf_rows(rouge_trace))
    p, r, f = (list(t.y) for t in fig.data)
    assert p == [real[t].precision for t in TYPES]
    assert r == [real[t].recall for t in TYPES]
    assert f == [real[t].fmeasure for t in TYPES]
    k = rouge_trace.chosen_reference["rougeL"] or 0
    # ROUGE-L: the alignment has LCS-length pairs; rouge-score's own table agrees
    sc = rouge_scorer.RougeScorer(["rougeL"])
    ref_toks = sc._tokenizer.tokenize(refs[k])
    cand_toks = sc._tokenizer.tokenize(ex.candidate)
    lcs = rouge_scorer._lcs_table(ref_toks, cand_toks)[-1][-1]
    assert len(rv.lcs_alignment_rows(rouge_trace, k)) == lcs
    for t in ("rouge1", "rouge2"):
        rows = rv.overlap_rows(rouge_trace, t, k)
        res = rv.result(rouge_trace, t, k)
        assert sum(row["overlap (min)"] for row in rows) == res.hits


def test_lcs_heatmap_downsamples_and_escapes():
    cand = " ".join(f"w{i % 37}" for i in range(300)) + " <b>x</b>"
    ref = " ".join(f"w{(i * 7) % 37}" for i in range(280))
    rouge_trace = explain_rouge(cand, [ref], types=("rougeL",), tokenizer="rouge-score")
    d = rv.detail(rouge_trace, "rougeL", 0)
    fig, note = charts.lcs_heatmap_figure(d["table"], rouge_trace.references[0].tokenized.tokens,
                                          rouge_trace.candidate.tokenized.tokens, d["pairs"])
    assert note and "showing" in note
    assert len(fig.data[0].z) <= charts.HEATMAP_MAX and len(fig.data[0].z[0]) <= charts.HEATMAP_MAX
    assert len(fig.data[1].x) == d["lcs_length"]
    small_fig, small_note = charts.lcs_heatmap_figure(
        {"row_index": [0, 1], "col_index": [0, 1], "values": [[0, 0], [0, 1]], "rows": 1, "cols": 1},
        ["<img src=x onerror=alert(1)>"], ["<img src=x onerror=alert(1)>"], [[0, 0]])
    assert small_note is None
    assert all("<img" not in t for t in small_fig.layout.xaxis.ticktext)
    assert "&lt;img" in small_fig.layout.xaxis.ticktext[1]


def _codes(findings):
    return {f.code for f in findings}


def test_diagnosis_bleu_cases():
    ex = get_example("papineni_the")
    bt = explain_bleu(ex.candidate, list(ex.references))
    codes = _codes(diagnosis.diagnose_bleu(bt))
    assert "zero_matches" in codes and "case" in codes
    party = get_example("party")
    bt = explain_bleu(party.candidate, list(party.references))
    f = diagnosis.diagnose_bleu(bt)
    assert "no_ngrams" in _codes(f) and "bp" in _codes(f)
    real = sacre(party.candidate, list(party.references))
    assert f"{real.bp:.4f}" in next(x.text for x in f if x.code == "bp")
    glued = explain_bleu("the cat sat on the mat.", ["the cat sat on the mat"], tokenize="none")
    assert "punct" in _codes(diagnosis.diagnose_bleu(glued))
    cjk = explain_bleu("北京是中国的首都", ["北京是中国的首都。"])
    assert "no_spaces" in _codes(diagnosis.diagnose_bleu(cjk))


def test_diagnosis_rouge_cases():
    ex = get_example("non_latin")
    rouge_trace = explain_rouge(ex.candidate, list(ex.references), types=TYPES)
    assert "no_tokens" in _codes(diagnosis.diagnose_rouge(rouge_trace))
    g = get_example("google")
    rouge_trace = explain_rouge(g.candidate, list(g.references), types=TYPES)
    codes = _codes(diagnosis.diagnose_rouge(rouge_trace))
    assert "rouge2_zero" in codes and "lsum_no_newline" in codes
    u = get_example("union_lcs")
    rouge_trace = explain_rouge(u.candidate, list(u.references), types=TYPES)
    assert "lsum_no_newline" not in _codes(diagnosis.diagnose_rouge(rouge_trace))


def test_downloads_are_complete():
    import csv
    import io
    import json

    from explainer.ui.bleu_section import ngram_csv
    from explainer.ui.explain.page import trace_json
    from explainer.ui.families import Computed

    ex = get_example("abandon_hope")
    bt = explain_bleu(ex.candidate, list(ex.references))
    rouge_trace = explain_rouge(ex.candidate, list(ex.references), types=TYPES)
    d = json.loads(trace_json({"bleu": Computed(bt), "rouge": Computed(rouge_trace), "chrf": Computed()}))
    assert d["chrf"] is None
    assert d["bleu"]["score"] == bt.score
    assert d["rouge"]["scores"]["rouge1"]["fmeasure"] == rouge_trace.scores["rouge1"].fmeasure
    rows = list(csv.DictReader(io.StringIO(ngram_csv(bt))))
    assert len(rows) == len(bv.ngram_rows(bt))
    assert {"order", "n-gram", "candidate count", "ref 1", "ref 4", "max in one ref", "justified by"} <= set(rows[0])


def test_headline_format_keeps_nltk_tiny_values_visible():
    from explainer.ui.bleu_view import headline

    assert headline(78.25422900366438, 100) == "78.2542"
    assert headline(0.7825422900366437, 1) == "0.782542"
    assert headline(0.0, 100) == "0.0000" and headline(0, 1) == "0.000000"
    assert headline(1.4916681462400413e-154, 1) == "1.492e-154"


def test_diagnosis_names_clipped_repetition_with_sacrebleu_counts():
    ex = get_example("papineni_the")
    for lowercase in (False, True):
        bt = explain_bleu(ex.candidate, list(ex.references), lowercase=lowercase)
        real = sacre(ex.candidate, list(ex.references), lowercase=lowercase)
        f = next(x for x in diagnosis.diagnose_bleu(bt) if x.code == "clipped")
        assert f"{7 - real.counts[0]} candidate word occurrences" in f.text


def test_colour_by_reference_shows_the_frankenstein_seam():
    ex = get_example("frankenstein")
    bt = explain_bleu(ex.candidate, list(ex.references))
    marks = bv.candidate_marks(bt, by="reference")
    assert marks[0].ref == 0 and marks[-1].ref == 1  # "the president …" from ref 1, "… commerce" from ref 2
    assert {m.ref for m in marks if m.order} == {0, 1}
    assert all(m.ref is None for m in bv.candidate_marks(bt))  # default: by order
    from explainer.ui.highlight import render_marked_text

    html = render_marked_text(ex.candidate, marks)
    assert "xp-r0" in html and "xp-r1" in html and "<sub>R2</sub>" in html


def test_token_tooltip_says_where_the_ngram_occurs_in_every_reference():
    ex = get_example("abandon_hope")
    bt = explain_bleu(ex.candidate, list(ex.references))
    marks = bv.candidate_marks(bt)
    # 'hope' (token 3) is inside the counted 4-gram 'all hope , ye' (only ref 4 has it once)
    occ = bv.ngram_occurrences(bt, "all hope , ye")
    assert occ["ref_counts"] == [0, 0, 0, 1]
    assert "‘all hope , ye’" in marks[1].title and "it occurs in ref 4 ×1" in marks[1].title


# --- chart text as Plotly shows it ------------------------------------------------------------------------
_PLOTLY_ENTITIES = {"mu": "μ", "amp": "&", "lt": "<", "gt": ">", "nbsp": "\xa0", "times": "×", "plusmn": "±",
                    "deg": "°"}


def plotly_visible(s: str) -> str:
    """What Plotly draws for a text string (svg_text_utils.convertToTspans): ``<...>`` runs are tags (a few
    render: <b>, <i>, <a>, <br>, <sub>, <sup>, <span>; the others vanish), the text between them has entities
    decoded once — numeric ones and only the eight named ones above. An escaped label must contain no tag."""
    import re

    assert not re.search(r"<[^<>]*>", s), f"Plotly would read a tag in {s!r}"
    assert not re.search(r"\$[^$]*\$", s), f"Plotly would try to typeset {s!r} as LaTeX"

    def dec(m):
        t = m.group(1)
        if t.startswith("#"):
            return chr(int(t[2:], 16) if t[1] == "x" else int(t[1:]))
        return _PLOTLY_ENTITIES.get(t, m.group(0))

    return re.sub(r"&(#\d+|#x[\da-fA-F]+|[a-z]+);", dec, s)


CHART_TOKENS = ['"hello"', "it's", "<b>bold</b>", "&amp;lt;", "&lt;", "a&b", "$x$", "<a href='javascript:x'>",
                "&#60;", "&quot;", "5 > 3"]


@pytest.mark.parametrize("tok", CHART_TOKENS)
def test_chart_labels_show_the_users_characters_literally(tok):
    assert plotly_visible(charts.label_text(tok, limit=100)) == tok


def test_chart_labels_literal_in_ticks_hover_and_alignment():
    toks = ['"hello"', "it's", "<b>x</b>", "&amp;lt;"]
    text = " ".join(toks)
    rouge_trace = explain_rouge(text, [text], types=("rougeL",), dialect="textbook")
    assert list(rouge_trace.candidate.tokenized.tokens) == [t.lower() for t in toks]
    d = rv.detail(rouge_trace, "rougeL", 0)
    cand_toks, ref_toks = rouge_trace.candidate.tokenized.tokens, rouge_trace.references[0].tokenized.tokens
    fig, _ = charts.lcs_heatmap_figure(d["table"], ref_toks, cand_toks, d["pairs"])
    assert [plotly_visible(t) for t in fig.layout.xaxis.ticktext[1:]] == list(cand_toks)
    assert [plotly_visible(t) for t in fig.layout.yaxis.ticktext[1:]] == list(ref_toks)
    assert [plotly_visible(c[0]) for c in fig.data[1].customdata] == list(cand_toks)
    afig, _ = charts.alignment_figure(cand_toks, ref_toks, d["pairs"])
    assert [plotly_visible(t) for t in afig.data[1].text] == list(cand_toks)
    assert [plotly_visible(t) for t in afig.data[2].text] == list(ref_toks)


def _bar_traces(fig):
    return [t for t in fig.data if t.type == "bar"]


def _check_bar_colours(fig):
    """Every bar series is filled with its own colour; a pattern is only a second signal drawn over it."""
    colours = []
    for t in _bar_traces(fig):
        m = t.marker
        assert isinstance(m.color, str) and m.color.startswith("#"), t.name
        pat = m.pattern
        if pat is not None and pat.shape:
            assert pat.fillmode == "overlay", (t.name, "the pattern would replace the series colour")
            assert pat.bgcolor in (None, m.color)
        colours.append(m.color)
    assert len(set(colours)) == len(colours)
    shapes = [(t.marker.pattern.shape if t.marker.pattern is not None else "") or "" for t in _bar_traces(fig)]
    assert len(set(shapes)) == len(shapes), "series must also differ by pattern"


def test_rouge_prf_bars_use_series_colours_and_labels_do_not_collide():
    ex = get_example("abandon_hope")
    types = ("rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeSU4")
    rouge_trace = explain_rouge(ex.candidate, list(ex.references), types=types)
    fig = charts.rouge_prf_figure(rv.prf_rows(rouge_trace))
    _check_bar_colours(fig)
    assert [t.marker.color for t in fig.data] == [charts.BLUE, charts.ORANGE, charts.GREEN]
    for t in fig.data:
        # value labels stand upright above each bar, so neighbours cannot run into each other
        assert t.textangle == -90 and t.textposition == "outside"
    assert fig.layout.yaxis.range[1] >= 1.3 * max(max(t.y) for t in fig.data)


def test_bleu_count_bars_use_series_colours():
    ex = get_example("cat_sat")
    fig = charts.bleu_counts_figure(bv.order_rows(explain_bleu(ex.candidate, list(ex.references))))
    _check_bar_colours(fig)


def test_zero_precision_label_is_not_clipped():
    ex = get_example("cat_sat")
    bt = explain_bleu(ex.candidate, list(ex.references), smooth_method="none")
    assert sacre(ex.candidate, list(ex.references), smooth_method="none").counts[3] == 0
    fig = charts.bleu_counts_figure(bv.order_rows(bt))
    raw = fig.data[2]
    assert raw.text[3] == "0.000"
    # drawn outside the plot area if need be, and the axis leaves room below 0 for a label under the marker
    assert raw.cliponaxis is False
    lo, hi = fig.layout.yaxis2.range
    assert lo <= -0.1 * hi


# --- which occurrences are shown as counted, and every reference occurrence -------------------------------
@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: e.id)
def test_display_assignment_keeps_sacrebleus_counts(ex):
    refs = list(ex.references)
    bt = explain_bleu(ex.candidate, refs)
    real = sacre(ex.candidate, refs)
    shown = bv.display_assignment(bt)
    for n, (order, per_entry) in enumerate(zip(bt.ngrams, shown), start=1):
        assert sum(len(a) for a in per_entry) == (real.counts[n - 1] if real.counts[0] else 0)
        for e, a in zip(order.entries, per_entry):
            # the same number of occurrences, paired with the same reference occurrences as the trace's
            assert len(a) == e.clipped
            assert set(x["cand_pos"] for x in a) <= set(e.cand_positions)
            assert sorted((x["ref"], x["ref_pos"]) for x in a) == sorted((x["ref"], x["ref_pos"]) for x in e.assignment)
    marks = bv.candidate_marks(bt)
    toks = bt.candidate.tokens
    lost = sum(e.cand_count - e.clipped for e in bt.ngrams[0].entries if e.max_ref_count > 0)
    assert sum(m.clipped for m in marks) == lost
    assert len(marks) == sum(1 for t in toks if t.start is not None)


def test_clipped_mark_prefers_occurrences_outside_longer_matches():
    ex = get_example("cat_mat")  # the default: "the cat is on the mat" vs "there is a cat on the mat"
    bt = explain_bleu(ex.candidate, list(ex.references))
    real = sacre(ex.candidate, list(ex.references))
    marks = bv.candidate_marks(bt)
    words = [ex.candidate[m.start:m.end] for m in marks]
    assert words == ["the", "cat", "is", "on", "the", "mat"]
    # 'the' occurs twice, once in the reference: one is clipped. The one inside the counted trigram
    # 'on the mat' is shown as counted (order 3), the other as clipped.
    assert real.counts[2] >= 1
    assert marks[4].order == 3 and not marks[4].clipped
    assert marks[0].clipped and marks[0].order == 0
    assert "removes a count, not a particular occurrence" in marks[0].title
    assert all(w in ex.references[0].split() for w in words)
    assert sum(m.clipped for m in marks) == real.totals[0] - real.counts[0] == 1


def test_reference_occurrences_not_used_for_the_clip_are_marked_too():
    ex = get_example("military_c1")
    bt = explain_bleu(ex.candidate, list(ex.references))
    for k, ref in enumerate(bt.references):
        marks = {m.start: m for m in bv.reference_marks(bt, k)}
        for order in bt.ngrams:
            for e in order.entries:
                if not e.clipped:
                    continue
                for p in e.ref_positions[k]:
                    for i in range(p, p + order.n):
                        m = marks[ref.tokens[i].start]
                        assert m.order or m.also, (k, e.text, i)
    # refs 2 and 3 share 'It is', 'guide', 'always', 'the' with the candidate; the trace pairs 'It is' with ref 1
    r2 = bv.reference_marks(bt, 1)
    words = {ex.references[1][m.start:m.end]: m for m in r2}
    assert words["It"].also == 2 and words["It"].order == 0
    assert "occurs here too" in words["It"].title and "reference 1" in words["It"].title
    r3 = bv.reference_marks(bt, 2)
    guide = next(m for m in r3 if ex.references[2][m.start:m.end] == "guide")
    assert guide.also >= 1 and guide.order == 0
    from explainer.ui.highlight import legend_html, legend_refs_html, render_marked_text

    html = render_marked_text(ex.references[1], r2)
    assert "xp-also" in html
    assert "occurs here too" in legend_html(4) and "xp-also" in legend_html(4)
    assert "occurs here too" in legend_refs_html(3)


# --- diagnosis wording and duplicates ------------------------------------------------------------------------
def test_diagnosis_grammar_singular_and_plural():
    ex = get_example("cat_mat")
    bt = explain_bleu(ex.candidate, list(ex.references), dialect="nltk")
    f = {x.code: x for x in diagnosis.diagnose_bleu(bt)}
    real = sacre(ex.candidate, list(ex.references))
    assert real.totals[0] - real.counts[0] == 1
    assert "1 candidate word occurrence does not count" in f["clipped"].text
    party = get_example("party")
    f = {x.code: x for x in diagnosis.diagnose_bleu(explain_bleu(party.candidate, list(party.references)))}
    assert "The candidate has 1 token," in f["bp"].text and "1 tokens" not in f["bp"].text
    glued = diagnosis.diagnose_bleu(explain_bleu("the cat sat on the mat.", ["the cat sat on the mat"],
                                                 tokenize="none"))
    assert "‘mat.’ carries punctuation" in next(x for x in glued if x.code == "punct").text
    two = diagnosis.diagnose_bleu(explain_bleu("the cat, sat on the mat.", ["the cat sat on the mat"],
                                               tokenize="none"))
    assert "carry punctuation" in next(x for x in two if x.code == "punct").text
    mp = get_example("military_party")
    f = {x.code: x for x in diagnosis.diagnose_bleu(explain_bleu(mp.candidate, list(mp.references)))}
    assert "None of the 1 " not in f["zero_matches"].text and "(0/1)" in f["zero_matches"].text


def test_diagnosis_merges_missing_orders_into_one_finding():
    party = get_example("party")
    bt = explain_bleu(party.candidate, list(party.references))
    f = [x for x in diagnosis.diagnose_bleu(bt) if x.code == "no_ngrams"]
    assert len(f) == 1
    assert f[0].title == "No 2-, 3- or 4-grams in a 1-token candidate"
    mp = get_example("military_party")
    f = [x for x in diagnosis.diagnose_bleu(explain_bleu(mp.candidate, list(mp.references))) if x.code == "no_ngrams"]
    assert len(f) == 1 and f[0].title == "No 4-grams in a 3-token candidate"


def test_diagnosis_does_not_repeat_the_tokenizer_message():
    rouge_trace = explain_rouge("Café été naïve", ["cafe ete naive"], types=TYPES)
    texts = [x.text for x in diagnosis.diagnose_rouge(rouge_trace)]
    assert rouge_trace.candidate.tokenized.message in texts
    assert texts.count(rouge_trace.candidate.tokenized.message) == 1


def test_diagnosis_stemming_only_when_it_would_change_a_score():
    ex = get_example("stem_took")
    refs = list(ex.references)
    rouge_trace = explain_rouge(ex.candidate, refs, types=TYPES)
    stemmed = explain_rouge(ex.candidate, refs, types=TYPES, use_stemmer=True).scores
    real = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True).score_multi(refs, ex.candidate)["rouge1"]
    f = [x for x in diagnosis.diagnose_rouge(rouge_trace, stemmed=stemmed) if x.code == "stem_off"]
    assert len(f) == 1 and f"{real.fmeasure:.5f}" in f[0].text
    g = get_example("google")
    rouge_trace = explain_rouge(g.candidate, list(g.references), types=TYPES)
    stemmed = explain_rouge(g.candidate, list(g.references), types=TYPES, use_stemmer=True).scores
    assert rouge_scorer.RougeScorer(list(TYPES), use_stemmer=True).score_multi(list(g.references), g.candidate) == \
        rouge_scorer.RougeScorer(list(TYPES)).score_multi(list(g.references), g.candidate)
    assert "stem_off" not in _codes(diagnosis.diagnose_rouge(rouge_trace, stemmed=stemmed))
    assert "stem_off" not in _codes(diagnosis.diagnose_rouge(rouge_trace))  # unknown: say nothing


def test_diagnosis_alternative_only_when_it_differs():
    ex = get_example("cat_sat")
    bt = explain_bleu(ex.candidate, list(ex.references))
    assert "alternatives" not in _codes(diagnosis.diagnose_bleu(bt, alternatives={"other": bt.score}))
    assert "alternatives" in _codes(diagnosis.diagnose_bleu(bt, alternatives={"other": bt.score / 2}))


def test_diagnosis_finds_canonically_equivalent_unicode():
    decomposed, precomposed = "e\u0301te\u0301 ici", "\u00e9t\u00e9 ici"
    bt = explain_bleu(decomposed, [precomposed])
    assert sacre(decomposed, [precomposed]).counts[0] == 1  # only 'ici' matches
    f = [x for x in diagnosis.diagnose_bleu(bt) if x.code == "unicode_nfc"]
    assert len(f) == 1 and "NFC" in f[0].text and "5 code points" in f[0].text and "3 code points" in f[0].text
    assert "unicode_nfc" not in _codes(diagnosis.diagnose_bleu(explain_bleu(precomposed, [precomposed])))


def test_diagnosis_suggests_only_offered_tokenizers():
    cjk = explain_bleu("北京是中国的首都", ["北京是中国的首都。"])
    offered = bleu_schema_tokenizers()
    f = next(x for x in diagnosis.diagnose_bleu(cjk, tokenizers=offered) if x.code == "no_spaces")
    assert "ja-mecab" not in f.text and "zh" in f.text and "char" in f.text
    f = next(x for x in diagnosis.diagnose_bleu(cjk) if x.code == "no_spaces")
    assert "ja-mecab" not in f.text


def bleu_schema_tokenizers():
    from explainer.ui.families import ui_family

    return next(s.choices for s in ui_family("bleu").option_specs("sacrebleu") if s.name == "tokenize")


def test_csv_download_neutralises_formula_cells():
    import csv
    import io

    from explainer.ui.bleu_section import ngram_csv

    cand = "=HYPERLINK(\"http://x\") +1 -2 @SUM(A1) plain"
    bt = explain_bleu(cand, ["plain =HYPERLINK(\"http://x\")"], tokenize="none")
    rows = list(csv.DictReader(io.StringIO(ngram_csv(bt))))
    assert len(rows) == len(bv.ngram_rows(bt))
    for row in rows:
        for v in row.values():
            assert not v.startswith(("=", "+", "-", "@", "\t", "\r")), v
    grams = [r["n-gram"] for r in rows if r["order"] == "1"]
    assert grams == ["'" + e.text if e.text[0] in "=+-@" else e.text for e in bt.ngrams[0].entries]
    # the numbers are untouched: counted cells sum to the trace's matches
    for order in bt.ngrams:
        assert sum(int(r["counted (clipped)"]) for r in rows if r["order"] == str(order.n)) == order.matches


@pytest.mark.parametrize("example_id", ["military_c1", "abandon_hope"])
def test_ngram_display_rows_fold_reference_columns_and_keep_the_counts(example_id):
    ex = get_example(example_id)
    refs = list(ex.references)
    bt = explain_bleu(ex.candidate, refs)
    real = sacre(ex.candidate, refs)
    full, shown = bv.ngram_rows(bt), bv.ngram_display_rows(bt)
    assert [r["n-gram"] for r in shown] == [r["n-gram"] for r in full]
    for n in range(1, 5):
        assert sum(r["counted (clipped)"] for r in shown if r["order"] == n) == real.counts[n - 1]
        assert sum(r["candidate count"] for r in shown if r["order"] == n) == real.totals[n - 1]
    for f, s in zip(full, shown):
        assert s["justified by"] == (", ".join(x.removeprefix("ref ") for x in f["justified by"].split(", "))
                                     if f["justified by"] != "—" else "—")
        if len(refs) > bv.MAX_REF_COLUMNS:
            assert "ref 1" not in s and s["count per reference"] == " · ".join(str(f[f"ref {j + 1}"])
                                                                             for j in range(len(refs)))
        else:
            assert all(s[f"ref {j + 1}"] == f[f"ref {j + 1}"] for j in range(len(refs)))
    assert set(shown[0]) <= set(bv.NGRAM_COLUMNS) | {f"ref {j + 1}" for j in range(len(refs))}


def _rouge155_record(case_id: str, flags: list[str]) -> dict:
    from tests.conftest import golden

    return next(r for r in golden("rouge/rouge155.jsonl")
                if r["level"] == "segment" and r["case_id"] == case_id and r["options"]["flags"] == flags)


def test_pooled_rows_are_rouge155_counts_and_add_up_from_the_references():
    """With -f A the headline is pooled: the table shows the sums ROUGE-1.5.5 prints (-t 2 counts) and they are
    the sums of the per-reference details the page shows below it."""
    rec = _rouge155_record("seed_abandon_multi_ref", ["-n", "4", "-w", "1.2", "-2", "4", "-U", "-f", "A"])
    types = ("rouge1", "rouge2", "rougeL", "rougeW-1.2", "rougeSU4")
    rouge_trace = explain_rouge(rec["candidate"], rec["references"], dialect="rouge155", types=types)
    rows = {r["type"]: r for r in rv.pooled_rows(rouge_trace)}
    assert set(rows) == {rv.type_label(t) for t in types}
    for t, key in (("rouge1", "ROUGE-1"), ("rouge2", "ROUGE-2"), ("rougeL", "ROUGE-L"), ("rougeSU4", "ROUGE-SU4")):
        row, counts = rows[rv.type_label(t)], rec["result"]["counts"][key]
        assert (row["Σ hits"], row["Σ reference size"], row["Σ candidate size"]) == \
            (counts["hit_count"], counts["model_count"], counts["peer_count"])
        per = [rv.result(rouge_trace, t, k) for k in range(len(rec["references"]))]
        assert row["Σ hits"] == sum(p.hits for p in per) and row["Σ reference size"] == sum(p.ref_total for p in per)
        assert (row["R"], row["P"], row["F"]) == (rec["result"][key]["R"], rec["result"][key]["P"],
                                                  rec["result"][key]["F"])
    w = rows["ROUGE-W-1.2"]
    assert (w["R"], w["P"], w["F"]) == tuple(rec["result"]["ROUGE-W-1.2"][x] for x in ("R", "P", "F"))
    assert "f⁻¹" in w["how"]
    # best-F (rouge-score) keeps one reference per type: nothing is pooled
    assert rv.pooled_rows(explain_rouge(rec["candidate"], rec["references"], types=types)) == []


@pytest.mark.parametrize("dialect", ["rouge-score", "rouge155"])
def test_wlcs_rows_and_tables_explain_the_weighted_hits(dialect):
    cand = "the cat sat on the mat today\nit was sunny"
    refs = ["the cat was sitting on the mat\nsunny it was", "a cat on a mat"]
    rouge_trace = explain_rouge(cand, refs, dialect=dialect, types=("rougeW-1.2",))
    for k in range(2):
        rows = rv.wlcs_rows(rouge_trace, "rougeW-1.2", k)
        d = rv.detail(rouge_trace, "rougeW-1.2", k)
        assert len(rows) == len(d["per_ref_sentence"])
        for row, p in zip(rows, d["per_ref_sentence"]):
            runs = [int(x) for x in row["runs k of consecutive hits"].split(", ")] if p["runs"] else []
            # the runs and the dropped open run account for every counted position
            assert sum(runs) + row["open run dropped at the sentence end"] == len(p["counted"])
            assert row["Σ f(k)"] == pytest.approx(sum(r ** 1.2 for r in runs), abs=1e-9)
        for x in rv.wlcs_tables(rouge_trace, "rougeW-1.2", k):
            assert x["pairs"] and x["table"][-1][-1] == pytest.approx(x["wlcs"], abs=1e-9)
    # rouge-score's per-reference hits are the sum of f(k) over the reference's sentences
    assert rv.result(rouge_trace, "rougeW-1.2", 0).hits == pytest.approx(
        sum(r["Σ f(k)"] for r in rv.wlcs_rows(rouge_trace, "rougeW-1.2", 0)), abs=1e-9)


def test_lcs_marks_are_labelled_with_their_rank_not_as_unigrams():
    rouge_trace = explain_rouge("the quick brown fox", ["the brown quick fox"], types=("rougeL",))
    pairs = rv.detail(rouge_trace, "rougeL", 0)["pairs"]
    marks = [m for m in rv.lcs_marks(rouge_trace, 0) if m.order]
    assert [m.label for m in marks] == [f"L{i + 1}" for i in range(len(pairs))] == ["L1", "L2", "L3"]
    assert all("of 3" in m.title for m in marks)


def test_bleu_view_holds_the_ngram_table_and_smoothing_rows_the_page_shows():
    """The page only renders: the table's rows, columns and cut-off note, the unknown-selection message and the
    smoothing table come from the view model."""
    ex = get_example("cat_mat")
    bleu_trace = explain_bleu(ex.candidate, list(ex.references))
    view = bv.bleu_view(bleu_trace, selected="no such n-gram")
    full = bv.ngram_display_rows(bleu_trace)
    assert view.ngram_table.rows == full and view.ngram_table.total == len(full) and view.ngram_table.note == ""
    assert view.ngram_table.ngram_texts == [r["n-gram"] for r in full]
    names = [c.name for c in view.ngram_table.columns]
    assert names == [k for k in full[0] if k in bv.NGRAM_COLUMNS or k.startswith("ref ")]
    assert {c.name for c in view.ngram_table.columns if c.pinned} == {"order", "n-gram"}
    assert [c.name for c in view.ngram_table.columns if c.text] == ["n-gram", "justified by"]
    assert view.selected_unknown == "no such n-gram" and "“no such n-gram”" in view.selected_unknown_note
    assert bv.bleu_view(bleu_trace).selected_unknown_note == ""
    cut = bv.ngram_table(bleu_trace, max_rows=3)
    assert cut.rows == full[:3] and cut.total == len(full)
    assert cut.note == f"Showing the first 3 of {len(full):,} n-grams; the CSV download has all."
    assert [r["order"] for r in view.smoothing_rows] == [o.n for o in bleu_trace.combination.orders]
    assert [(r["before"], r["after"]) for r in view.smoothing_rows] == [
        (o.precision_raw, o.precision) for o in bleu_trace.combination.orders]


def test_rouge_w_details_hold_the_heatmaps_the_page_draws():
    cand = "the cat sat on the mat\nthe dog sat on the rug"
    refs = ["the cat sat on the mat\nthe dog sat on the rug\nthe cat and the dog sat"]
    rouge_trace = explain_rouge(cand, refs, types=("rougeW-1.2",))
    tables = rv.wlcs_tables(rouge_trace, "rougeW-1.2", 0)
    assert len(tables) > rv.WLCS_TABLES_SHOWN   # 3 reference × 2 candidate sentences share tokens
    (other,) = rv.reference_details(rouge_trace, 0).others
    assert len(other.wlcs_heatmaps) == rv.WLCS_TABLES_SHOWN
    assert other.wlcs_more_note.startswith(f"{len(tables) - rv.WLCS_TABLES_SHOWN} more sentence pairs")
    cand_sents, ref_sents = rouge_trace.candidate.sentence_tokens, rouge_trace.references[0].sentence_tokens
    for h, x in zip(other.wlcs_heatmaps, tables):
        assert h.table["values"] == x["table"] and h.pairs == x["pairs"]
        assert h.ref_tokens == ref_sents[x["ref_sentence"]] and h.cand_tokens == cand_sents[x["cand_sentence"]]
        assert (h.table["rows"], h.table["cols"]) == (len(h.ref_tokens), len(h.cand_tokens))
        assert f"{x['wlcs']:.4f}" in h.alt
        fig, _ = charts.lcs_heatmap_figure(h.table, h.ref_tokens, h.cand_tokens, h.pairs, title=h.title)
        assert fig.layout.title.text.startswith("Weighted LCS")
    assert len({h.key for h in other.wlcs_heatmaps}) == len(other.wlcs_heatmaps)
    assert other.wlcs_rows == rv.wlcs_rows(rouge_trace, "rougeW-1.2", 0)
    assert bool(other.wlcs_open_run_note) == any(r["open run dropped at the sentence end"] for r in other.wlcs_rows)
    # a type that is not ROUGE-W has none of it
    skip = rv.reference_details(explain_rouge(cand, refs, types=("rougeSU4",)), 0).others[0]
    assert (skip.wlcs_note, skip.wlcs_rows, skip.wlcs_heatmaps, skip.wlcs_more_note) == ("", [], [], "")
