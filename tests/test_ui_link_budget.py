"""Crafted links and the work of one view (issue 34, item 1).

A link carries at most ``MAX_URL_TEXT`` characters of text on every page (the engine's ``read_texts``; the
Dialects page alone enforced it), and one view computes the ROUGE types beyond its headline and the diagnosis's
rescoring only within its work budget (``explainer.ui.budget``): the issue's links cost 8-19 s of server CPU per
view. Each crafted link is run under streamlit.testing with the CPU of the run measured (``time.process_time``
around ``at.run()``: the script runs in a thread of this process), after a warm-up run of the page.
"""
from __future__ import annotations

import time

import pytest
from streamlit.testing.v1 import AppTest

from explainer.examples import get_example
from explainer.rouge.skipgram import skip_bigram_count
from explainer.ui import budget
from explainer.ui.explain.link import DEFAULT_EXAMPLE
from explainer.ui.pagestate import MAX_URL_TEXT, read_texts
from explainer.ui.settings import settings_from_params
from tests.conftest import ROOT

PAGES = {"explain": ROOT / "app.py", "teach": ROOT / "explainer" / "ui" / "pages" / "teach.py",
         "lab": ROOT / "explainer" / "ui" / "pages" / "gaming_lab.py",
         "dialects": ROOT / "explainer" / "ui" / "pages" / "dialects.py"}
CPU_LIMIT = 2.0
X6000 = ("x " * 3000)[:6000]
X2990 = ("x " * 1500)[:2990]
# the issue's links: 66 KB (ten references, character tokens, order 10) and 19 KB (rouge155, the costly types)
CHAR10 = {"candidate": X6000, "ref": [X6000] * 10, "tokenize": "char", "max_order": "10"}
ROUGE155 = {"candidate": X6000, "ref": [X6000.replace("x", "y")], "rouge_dialect": "rouge155",
            "rouge_types": "rougeLsum,rougeW-1.2,rougeS*,rougeSU*"}
# within a link's size: the costly types on two 2,990-character texts (9.6 s of CPU before the budget)
COSTLY_TYPES = {"candidate": X2990, "ref": [X2990], "rouge_types": "rouge1,rouge2,rougeL,rougeLsum,rougeW-1.2,"
                "rougeS*,rougeSU*"}
COSTLY_155 = {**COSTLY_TYPES, "rouge_dialect": "rouge155", "tokenize": "char", "max_order": "10"}

_warm: set[str] = set()


def run(page: str, params: dict) -> tuple[AppTest, float]:
    """The page opened with ``params``: (the run, its CPU seconds). The page is run once before (imports, caches
    of the dialects' resources)."""
    if page not in _warm:
        AppTest.from_file(str(PAGES[page]), default_timeout=300).run()
        _warm.add(page)
    at = AppTest.from_file(str(PAGES[page]), default_timeout=300)
    for k, v in params.items():
        at.query_params[k] = v
    t0 = time.process_time()
    at.run()
    spent = time.process_time() - t0
    assert not at.exception, [e.value for e in at.exception]
    return at, spent


def said(at) -> str:
    """Every warning, error and note on the page as a reader sees it (without the Markdown escapes); what a view's
    work limit leaves to a click is a note (``st.info``)."""
    return " ".join(e.value.replace("\\", "") for e in [*at.warning, *at.error, *at.info])


# ------------------------------------------------------------------------------------- a link's texts
def test_read_texts_bounds_every_page_by_default():
    warns: list[str] = []
    assert read_texts({"candidate": ["x" * MAX_URL_TEXT]}, warns) == ("x" * MAX_URL_TEXT, None) and not warns
    assert read_texts({"candidate": ["x" * (MAX_URL_TEXT + 1)]}, warns) == (None, None)
    assert warns == [f"The link's texts have {MAX_URL_TEXT + 1:,} characters, more than a link may carry "
                     f"({MAX_URL_TEXT:,}); they are not loaded."]
    warns.clear()
    assert read_texts({"candidate": ["c" * 5000], "ref": ["r" * 1001]}, warns, keep=("mine", ["yours"])) == (
        "mine", ["yours"])
    assert "the page keeps the texts it had" in warns[0]


def test_one_constant_for_a_links_texts():
    from explainer.ui import pagestate, settings

    assert pagestate.MAX_URL_TEXT is settings.MAX_URL_TEXT


@pytest.mark.parametrize("page", ["explain", "teach", "lab", "dialects"])
@pytest.mark.parametrize("link", [CHAR10, ROUGE155], ids=["66KB-char-order-10", "19KB-rouge155"])
def test_the_issues_links_are_not_loaded_on_any_page(page, link):
    at, spent = run(page, link)
    total = len(link["candidate"]) + sum(map(len, link["ref"]))
    assert f"The link's texts have {total:,} characters, more than a link may carry ({MAX_URL_TEXT:,}); they " \
           "are not loaded." in said(at)
    assert not any(X6000 in (t.value or "") for t in at.text_area)
    assert spent < CPU_LIMIT, f"{page}: {spent:.2f} s of CPU"


def test_explain_shows_its_example_instead():
    at, _ = run("explain", CHAR10)
    assert at.text_area(key="candidate").value == get_example(DEFAULT_EXAMPLE).candidate


def test_a_link_followed_in_the_tab_keeps_what_was_typed():
    at, _ = run("explain", {})
    at.text_area(key="candidate").input("my own candidate").run()
    at.text_area(key="ref_0").input("my own reference").run()
    for k, v in CHAR10.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception
    assert at.text_area(key="candidate").value == "my own candidate"
    assert at.text_area(key="ref_0").value == "my own reference"
    assert "the page keeps the texts it had" in said(at)


# ------------------------------------------------------------------------------------- the view's work
@pytest.mark.parametrize("link", [COSTLY_TYPES, COSTLY_155], ids=["rouge-score", "rouge155-char-order-10"])
def test_a_link_within_its_size_stays_within_the_views_budget(link):
    at, spent = run("explain", link)
    text = said(at)
    assert "rougeW-1.2, rougeS*, rougeSU* are left out: one view does at most 600,000 units of ROUGE work" in text
    assert spent < CPU_LIMIT, f"{spent:.2f} s of CPU"
    numbers = {m.label: m.value for m in at.metric}
    assert all(numbers[h] not in ("—", "") for h in ("BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-Lsum"))


def test_a_costly_type_within_the_budget_is_computed():
    cand, ref = "the cat sat on the mat today", "a cat was sitting on the mat"
    settings, _ = settings_from_params({"rouge_types": ["rouge1,rougeS*,rougeW-1.2"], "rouge_dialect": ["rouge155"]})
    plan = budget.plan_rouge(settings["rouge"], cand, [ref])
    assert set(plan.types) == {"rouge1", "rougeS*", "rougeW-1.2"} and not plan.left_out
    assert plan.rescore == plan.types and plan.work <= budget.VIEW_WORK_BUDGET


def test_typed_text_keeps_its_headline_and_loses_only_the_costly_types():
    """Up to the cores' limits the headline is computed as before; the budget leaves out the rest, saying so."""
    words = "the cat sat on a mat and the dog ran far away from the big red house".split()
    cand = " ".join(words[i % len(words)] for i in range(4000))
    ref = " ".join(words[(i * 7) % len(words)] for i in range(4000))
    settings, _ = settings_from_params({"rouge_types": ["rouge1,rouge2,rougeL,rougeLsum,rougeS*,rougeS4"]})
    plan = budget.plan_rouge(settings["rouge"], cand, [ref])
    assert {"rouge1", "rouge2", "rougeL", "rougeLsum"} <= set(plan.types)
    assert "rougeS*" in plan.left_out and plan.headline > 0
    assert f"{2 * skip_bigram_count(4000, None):,} skip-bigrams" in plan.left_out["rougeS*"]
    note = budget.left_out_note(plan)
    assert note.startswith("rougeS*") and "maximum gap (rougeS4, rougeSU4)" in note


def test_typed_text_on_the_page_still_shows_every_headline_number():
    words = "the cat sat on a mat and the dog ran far away from the big red house".split()
    at, _ = run("explain", {})
    at.text_area(key="candidate").input(" ".join(words[i % 17] for i in range(3000))).run()
    at.text_area(key="ref_0").input(" ".join(words[(i * 7) % 17] for i in range(3000))).run()
    assert not at.exception
    numbers = {m.label: m.value for m in at.metric}
    assert all(numbers[h] not in ("—", "") for h in ("BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-Lsum"))


def test_skip_bigram_count_is_the_cores_enumeration():
    from explainer.rouge.skipgram import skip_bigrams

    for n in range(0, 25):
        for skip in (None, 0, 1, 4, 30):
            assert skip_bigram_count(n, skip) == sum(skip_bigrams([str(i) for i in range(n)], skip).values())
