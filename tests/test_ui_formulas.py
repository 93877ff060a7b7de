"""Every formula on the Explain page evaluates to the number beside it (issue 10, defects 2 and 3).

For every worked example and every BLEU and ROUGE dialect, the page is rendered (AppTest) and each LaTeX formula
it shows is read back by tests/latex_eval.py: every "a = b = c" chain must hold to the precision the numbers are
printed with, the BLEU formula must end at the headline's exact score, and the ROUGE formulas must end at the
trace's P, R and F.
"""
from __future__ import annotations

import re

import pytest

from explainer.bleu import dialect_names, explain_bleu
from explainer.examples import EXAMPLES, get_example
from tests.families_support import schema
from tests.latex_eval import NotANumber, chains, check_formula, evaluate, strip_math
from tests.ui_driver import BrowserLikeApp

ALL_TYPES = "rouge1,rouge2,rougeL,rougeLsum,rougeW-1.2,rougeS4,rougeSU4,rougeS*"


def _exact_bleu(at) -> float | None:
    m = re.search(r"exact value ([-+0-9.eEinfa]+)", at.metric[0].proto.help or "")
    return float(m.group(1)) if m else None


def _last_number(tex: str) -> float | None:
    for sides in reversed(chains(tex)):
        for s in reversed(sides):
            try:
                return evaluate(s)
            except NotANumber:
                continue
    return None


def _check_page(at, where) -> int:
    checked = 0
    for el in at.latex:
        n, bad = check_formula(el.value)
        assert not bad, (where, el.value, bad)
        checked += n
        if "\\text{BLEU}" in el.value and "fails" not in el.value:
            exact = _exact_bleu(at)
            last = _last_number(el.value)
            assert exact is not None and last is not None, (where, el.value)
            assert last == pytest.approx(exact, rel=1e-3, abs=1e-12), (where, el.value, exact)
    return checked


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: e.id)
def test_every_formula_evaluates_to_the_number_beside_it(ex):
    """Only the open tab is built: every BLEU dialect on the BLEU tab, then every ROUGE dialect (with every
    type's details open) on the ROUGE tab."""
    app = BrowserLikeApp({"example": ex.id, "rouge_types": ALL_TYPES}, open_details=True)
    assert not app.exceptions
    total = 0
    for bd in dialect_names():
        app.select("bleu_dialect", bd)
        assert not app.exceptions, app.exceptions
        total += _check_page(app.at, (ex.id, bd))
    app.open_tab("ROUGE")
    for rd in schema("rouge").dialects:
        app.select("rouge_dialect", rd)
        assert not app.exceptions, app.exceptions
        total += _check_page(app.at, (ex.id, rd))
    assert total >= 20, total  # the test reads real formulas, not none


def test_the_issues_textbook_formula():
    """cat/mat under the textbook dialect: the floored 4th term is in the formula, and it gives the headline."""
    ex = get_example("cat_mat")
    app = BrowserLikeApp({"example": ex.id, "bleu_dialect": "textbook"}, tab="BLEU")
    score = next(el.value for el in app.at.latex if "\\text{BLEU}" in el.value)
    assert r"\log 1.000\times 10^{-10}" in score
    bt = explain_bleu(ex.candidate, list(ex.references), dialect="textbook")
    assert _last_number(score) == pytest.approx(bt.score, rel=1e-3)
    p4 = next(strip_math(el.value) for el in app.at.latex if strip_math(el.value).startswith("p_4"))
    assert r"1.000\times 10^{-10}" in p4


@pytest.mark.parametrize("dialect", ["rouge-score", "rouge155"])
def test_rouge_l_and_lsum_show_fractions_per_reference(dialect):
    """ROUGE-L: LCS/len(candidate), LCS/len(reference), F with numbers; ROUGE-Lsum: union hits over reference
    tokens — against each reference picked."""
    from explainer.rouge import explain_rouge

    ex = get_example("union_lcs")
    refs = list(ex.references) + ["w1 w9 w5\nw2 w3"]
    app = BrowserLikeApp({"candidate": ex.candidate, "ref": refs, "rouge_dialect": dialect}, tab="ROUGE")
    rouge_trace = explain_rouge(ex.candidate, refs, dialect=dialect)
    for k in range(len(refs)):
        app.select("rouge_ref", k)
        tex = [strip_math(el.value) for el in app.at.latex]
        for t, label in (("rougeL", "LCS"), ("rougeLsum", "union LCS hits")):
            res = rouge_trace.per_reference[k][t]
            p = next(x for x in tex if x.startswith("P = ") and f"\\text{{{label}}}" in x)
            r = next(x for x in tex if x.startswith("R = ") and f"\\text{{{label}}}" in x)
            assert f"\\frac{{{res.hits:g}}}{{{res.cand_total:g}}}" in p, (k, t, p)
            assert f"\\frac{{{res.hits:g}}}{{{res.ref_total:g}}}" in r, (k, t, r)
            assert _last_number(p) == pytest.approx(res.score.precision, abs=6e-6)
            assert _last_number(r) == pytest.approx(res.score.recall, abs=6e-6)
        fs = [x for x in tex if re.match(r"(\\begin\{aligned\})?F\s*&?=", x)]
        assert any(_last_number(f) == pytest.approx(rouge_trace.per_reference[k]["rougeLsum"].score.fmeasure, abs=6e-6)
                   for f in fs)
        captions = " ".join(c.value for c in app.at.caption)
        lsum = rouge_trace.per_reference[k]["rougeLsum"]
        assert f"Union hits over the reference's {lsum.ref_total:g} tokens" in captions.replace("\\", "")


def test_rouge155_chart_and_table_round_alike():
    """The chart's bar labels and the table show the same value the same way (0.15385, not 0.1538 vs 0.1539)."""
    app = BrowserLikeApp({"example": "abandon_hope", "rouge_dialect": "rouge155"}, tab="ROUGE")
    table = next(d.value for d in app.at.dataframe if list(d.value.columns) == ["type", "precision", "recall",
                                                                                  "F-measure"])
    from explainer.rouge import explain_rouge
    from explainer.ui import charts
    from explainer.ui import rouge_view as rv

    ex = get_example("abandon_hope")
    rouge_trace = explain_rouge(ex.candidate, list(ex.references), dialect="rouge155")
    fig = charts.rouge_prf_figure(rv.prf_rows(rouge_trace))
    for trace, col in zip(fig.data, ["precision", "recall", "F-measure"]):
        assert list(trace.text) == list(table[col]), col
    assert all(len(v.split(".")[1]) == 5 for v in table["F-measure"])


@pytest.mark.parametrize("dialect,word", [("rouge155", "pooled"), ("rouge-score", "kept")])
def test_reference_picker_speaks_the_tables_words(dialect, word):
    app = BrowserLikeApp({"example": "abandon_hope", "rouge_dialect": dialect}, tab="ROUGE")
    winners = next(d.value for d in app.at.dataframe if "kept" in d.value.columns)
    note = next(c.value for c in app.at.caption if c.value.startswith("In the headline"))
    assert all(word in str(v) for v in winners["kept"]) or word == "kept"
    assert word in note
    assert [o for o in app.at.selectbox(key="rouge_ref").options] == [f"reference {i + 1}" for i in range(4)]


def test_pltrdy_f_shows_its_epsilon():
    """rouge 1.0.1 computes F as 2·(P·R / (P + R + 1e-8)): the formula shows the 1e-8 and ends at the package's
    own F (run live), not at the harmonic mean."""
    from rouge import Rouge

    ex = get_example("cat_mat")
    app = BrowserLikeApp({"example": ex.id, "rouge_dialect": "pltrdy"}, tab="ROUGE")
    assert not app.exceptions
    tex = [el.value for el in app.at.latex if r"\frac{2PR}" in el.value]
    assert tex and all(r"P + R + 10^{-8}" in t for t in tex), tex
    live = Rouge().get_scores(ex.candidate, ex.references[0])[0]["rouge-1"]["f"]
    assert any(_last_number(t) == pytest.approx(live, abs=6e-6) for t in tex), (tex, live)
    for t in tex:
        n, bad = check_formula(t)   # the chain 2·p·r / (p + r + 10^-8) = F holds to its printed digits
        assert n and not bad, (t, bad)
    captions = " ".join(c.value for c in app.at.caption).replace("\\", "")
    assert "F = 2·P·R / (P + R + 1e-8): rouge 1.0.1" in captions and "adds 1e-8 to the denominator" in captions
