"""The Explain page's chrF (issue 23): the headline number, the per-order table, the formulas and the averaging
are sacreBLEU's ``CHRF`` / NLTK's ``chrf_score`` numbers (computed here), the chrF settings and the order shown
travel in the link, bad input gets a message, and user text reaches HTML escaped."""
from __future__ import annotations

import re

import pytest
from nltk.translate.chrf_score import sentence_chrf
from sacrebleu.metrics import CHRF

from explainer.ui import chrf_view as cview
from explainer.ui.chrf_section import ORDER_KEY as CHRF_ORDER_KEY
from explainer.ui.families import ui_family
from tests.ui_driver import BrowserLikeApp, view_diff

H = "It is a guide to action which ensures that the military always obeys the commands of the party."
R = ["It is a guide to action that ensures that the military will forever heed Party commands.",
     "It is the guiding principle which guarantees the military forces always being under the command of the Party."]


def _chrf_metric(app) -> str:
    return next(m.value for m in app.at.metric if m.label == "chrF")


def _orders_table(app):
    return next(d.value for d in app.at.dataframe if "P =" in d.value.columns)


@pytest.mark.parametrize("link,opts", [({}, {}), ({"chrf_sacrebleu_word_order": "2"}, {"word_order": 2}),
                                       ({"chrf_sacrebleu_lowercase": "1", "chrf_sacrebleu_eps_smoothing": "1",
                                         "chrf_sacrebleu_beta": "3"}, {"lowercase": True, "eps_smoothing": True,
                                                                       "beta": 3})])
def test_headline_table_and_formulas_are_sacrebleus(link, opts):
    app = BrowserLikeApp({"candidate": H, "ref": R, **link}, tab="chrF")
    assert not app.exceptions, app.exceptions
    m = CHRF(**opts)
    want = m.sentence_score(H, R)
    assert _chrf_metric(app) == f"{want.score:.4f}"
    # the per-order table: sacreBLEU's kept statistics, P = match / hyp and R = match / ref of each order
    stats = m._extract_corpus_statistics([H], [[r] for r in R])[0]
    table = _orders_table(app)
    assert len(table) == len(stats) // 3
    for i, row in enumerate(table.to_dict("records")):
        hyp, ref, match = stats[3 * i: 3 * i + 3]
        assert (row["candidate n-grams"], row["reference n-grams"], row["matched"]) == (hyp, ref, match)
        assert row["P"] == pytest.approx(match / hyp, abs=1e-12) and row["R"] == pytest.approx(match / ref, abs=1e-12)
    # the final formula gives the library's score, and the signature is sacreBLEU's own
    latex = [x.value for x in app.at.latex]
    assert re.search(r"= " + re.escape(f"{want.score:.6g}"), latex[-1]), latex[-1]
    code = " ".join(c.value for c in app.at.code)
    assert str(m.get_signature()) in code


def test_focus_order_formula_numbers():
    """The focus order's P, R and F-beta with the numbers filled in are the kept statistics' (sacreBLEU)."""
    app = BrowserLikeApp({"candidate": H, "ref": R, "chrf_order": "3"}, tab="chrF")
    assert not app.exceptions
    stats = CHRF()._extract_corpus_statistics([H], [[r] for r in R])[0]
    hyp, ref, match = stats[6:9]
    latex = [x.value for x in app.at.latex]
    assert rf"P_{{c3}} = \frac{{{match}}}{{{hyp}}}" in latex[0] and rf"R_{{c3}} = \frac{{{match}}}{{{ref}}}" in latex[0]
    p, r = match / hyp, match / ref
    f = 5 * p * r / (4 * p + r)
    assert latex[1].rstrip("$\n ").endswith(f"= {f:.6g}")
    ngrams = next(d.value for d in app.at.dataframe if "n-gram" in d.value.columns)
    assert int(ngrams["matched (clipped)"].sum()) == match and int(ngrams["in the candidate"].sum()) == hyp


def test_nltk_dialect_is_nltks_number():
    app = BrowserLikeApp({"candidate": H, "ref": R[0], "chrf_dialect": "nltk"}, tab="chrF")
    assert not app.exceptions
    assert _chrf_metric(app) == f"{sentence_chrf(R[0], H):.6f}"
    app.set("number_input", ui_family("chrf").option_key("nltk", "beta"), 2.0)
    assert not app.exceptions and app.query["chrf_nltk_beta"] == ["2"]
    assert _chrf_metric(app) == f"{sentence_chrf(R[0], H, beta=2.0):.6f}"


def test_the_link_reproduces_the_chrf_view():
    app = BrowserLikeApp({"candidate": H, "ref": R}, tab="chrF")
    app.select(ui_family("chrf").dialect_key, "sacrebleu")
    app.set("number_input", ui_family("chrf").option_key("sacrebleu", "word_order"), 2)
    app.select(CHRF_ORDER_KEY, 7)
    app.set("checkbox", ui_family("chrf").option_key("sacrebleu", "whitespace"), True)
    assert not app.exceptions
    q = app.query
    assert q["chrf_sacrebleu_word_order"] == ["2"] and q["chrf_order"] == ["8"]
    assert q["chrf_sacrebleu_whitespace"] == ["1"]
    again = app.reopen(tab="chrF")
    assert not again.exceptions
    assert not view_diff(app.view(exclude={"large_text"}), again.view(exclude={"large_text"}))
    assert _chrf_metric(again) == f"{CHRF(word_order=2, whitespace=True).sentence_score(H, R).score:.4f}"


def test_bad_chrf_links_and_settings_get_messages():
    app = BrowserLikeApp({"candidate": H, "ref": R[0], "chrf_sacrebleu_char_order": "99", "chrf_order": "x"},
                         tab="chrF")
    assert not app.exceptions
    warned = " ".join(w.value for w in app.at.warning).replace("\\", "")
    assert "chrf_sacrebleu_char_order=99" in warned and "chrf_order=x" in warned
    assert _chrf_metric(app) == f"{CHRF().sentence_score(H, R[:1]).score:.4f}"
    # NLTK refuses min_len > max_len: the page says so, the other numbers stay
    app = BrowserLikeApp({"candidate": H, "ref": R[0], "chrf_dialect": "nltk", "chrf_nltk_min_len": "5",
                          "chrf_nltk_max_len": "2"}, tab="chrF")
    assert not app.exceptions
    assert _chrf_metric(app) == "—"
    assert any("chrF could not be computed" in i.value for i in app.at.info)


def test_over_long_texts_are_refused_before_the_work():
    from explainer.chrf import MAX_TRACE_CHARS

    text = "abc def " * (MAX_TRACE_CHARS // 8 + 1)
    app = BrowserLikeApp({"candidate": "abc", "ref": "abc", "rouge_types": "rouge1"}, tab="chrF")
    app.set("text_area", "candidate", text)       # typed: no link carries it
    assert not app.exceptions
    assert any("Shorten" in i.value and f"{MAX_TRACE_CHARS:,}" in i.value for i in app.at.info)


def test_user_text_reaches_html_escaped():
    cand = "<b>bold</b> & <script>alert(1)</script> x"
    app = BrowserLikeApp({"candidate": cand, "ref": "<b>bold</b> y", "chrf_order": "1"}, tab="chrF")
    assert not app.exceptions
    htmls = [h.proto.body for h in app.at.get("html")]
    body = next(b for b in htmls if "candidate, character 1-grams" in b)
    assert "<script>" not in body and "<b>bold" not in body and "&lt;script&gt;" in body


# ------------------------------------------------------------------------------------------ the pure view
def test_marks_cover_the_matched_characters_without_overlap():
    from explainer.chrf import explain_chrf

    t = explain_chrf("the cat sat", ["the hat"])
    v = cview.chrf_view(t, 1)
    marks = sorted(v.candidate_marks, key=lambda m: m.start)
    assert all(a.end <= b.start for a, b in zip(marks, marks[1:]))
    matched = "".join(t.candidate.text[m.start:m.end] for m in marks if m.order)
    # the candidate's matched bigrams (th, he, at) cover t, h, e and a, t of "cat" (or "sat")
    assert matched.startswith("the") and matched.count("at") == 1
    fig = cview.prf_figure(v.chart, v.name)
    assert [b.name for b in fig.data] == ["precision", "recall", "F"]
    assert list(fig.data[2].y) == [o.f for o in t.combination.orders]
