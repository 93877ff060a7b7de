"""The Dialects page's chrF side by side (issue 23): every row's number is the real library's (sacreBLEU's CHRF,
NLTK's chrf_score, computed here), each row links to the Explain page with its settings, the first divergence
of two rows is said, and the metric travels in the link."""
from __future__ import annotations

import urllib.parse

from nltk.translate.chrf_score import sentence_chrf
from sacrebleu.metrics import CHRF

from tests.test_ui_dialects import new_page
from tests.ui_driver import BrowserLikeApp

CAND, REF = "the cat sat on the mat", "the cat is on the mat"


def _table(at):
    return next(d.value for d in at.dataframe if "implementation" in d.value.columns)


def test_rows_are_the_libraries_numbers_and_link_to_explain():
    at = new_page({"candidate": CAND, "ref": [REF], "metric": "chrf"})
    rows = {r["implementation"]: r for r in _table(at).to_dict("records")}
    assert rows["sacreBLEU chrF2"]["score 0–100"] == f"{CHRF().sentence_score(CAND, [REF]).score:.4f}"
    assert rows["sacreBLEU chrF2++"]["score 0–100"] == f"{CHRF(word_order=2).sentence_score(CAND, [REF]).score:.4f}"
    nltk_rows = [r for k, r in rows.items() if k.startswith("NLTK")]
    assert {r["as the library reports it"] for r in nltk_rows} == {f"{sentence_chrf(REF, CAND):.6f}",
                                                                   f"{sentence_chrf(REF, CAND, beta=2):.6f}"}
    # the chrF2++ row opens the Explain page on chrF2++ with these texts
    link = rows["sacreBLEU chrF2++"]["explain"]
    q = urllib.parse.parse_qs(link[3:], keep_blank_values=True)
    explain = BrowserLikeApp(q)
    assert not explain.exceptions
    assert next(m.value for m in explain.at.metric if m.label == "chrF") == rows["sacreBLEU chrF2++"]["score 0–100"]


def test_first_divergence_of_two_rows_and_the_link():
    from explainer.dialectcmp.chrf_compare import row_specs

    app = BrowserLikeApp({"candidate": CAND, "ref": [REF], "metric": "chrf"}, page="dialects")
    assert not app.exceptions and app.query["metric"] == ["chrf"]
    said = [m.value.replace("\\", "") for m in app.at.markdown if "First divergence" in m.value]
    assert said and "orders" in said[0]          # row 1 vs row 2, chrF2 vs chrF2++: the word orders
    nltk = next(rid for rid, dialect, opts, _ in row_specs() if dialect == "nltk" and not opts)
    app.select("dl_b", nltk)
    assert not app.exceptions and app.query["b"] == [nltk]
    said = [m.value.replace("\\", "") for m in app.at.markdown if "First divergence" in m.value]
    assert said and "characters read" in said[0] or "β" in said[0], said
    again = app.reopen()
    assert not again.exceptions and again.at.selectbox(key="dl_b").value == nltk
