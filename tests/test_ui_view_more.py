"""One view's work limit and the click that computes the rest (explainer.ui.view_more, explainer.ui.budget): a
crafted link cannot make the server trace TER or run the semantic model past a view's share, and a reader who wants
it clicks "Compute … for these texts" — the values then equal the real implementation's (issue 34, item 1)."""
from __future__ import annotations

import random

import pytest
from sacrebleu.metrics import TER
from streamlit.testing.v1 import AppTest

from explainer.families import FAMILIES
from explainer.ter.algorithm import explain_segment
from explainer.ter.limits import MAX_TRACE_WORK, Budget
from explainer.ui import budget
from tests.conftest import ROOT

APP = str(ROOT / "app.py")
WORDS = ("the of and to in a is that for it as was with be by on not he this are or his from at which but have an "
         "they you were her she there one all we their can has been if more when will would who so no").split()


def words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def ter_work(cand: str, refs: list[str]) -> int:
    b = Budget(None)
    explain_segment(FAMILIES["ter"].bind("sacrebleu"), cand, refs, budget=b)
    return b.used


@pytest.fixture(scope="module")
def ter_texts() -> tuple[str, list[str]]:
    """Texts whose TER trace needs more than one view's work and less than the core's limit (counted by the core)."""
    rng = random.Random(7)
    for n in range(30, 80):
        cand, ref = words(rng, n), words(rng, n)
        if budget.VIEW_TER_WORK < ter_work(cand, [ref]) < MAX_TRACE_WORK:
            return cand, [ref]
    raise AssertionError("no texts between the view's and the core's TER work")


def page(params: dict) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def headline(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def more(at, family: str):
    keys = [b.key for b in at.button if b.key == f"view_more_{family}"]
    return at.button(key=keys[0]) if keys else None


def notes(at) -> str:
    return " ".join(e.value.replace("\\", "") for e in at.info)


def test_ter_past_a_views_work_waits_for_a_click_then_equals_sacrebleu(ter_texts):
    cand, refs = ter_texts
    at = page({"candidate": cand, "ref": refs})
    assert headline(at, "TER") == "—"
    assert f"more than {budget.VIEW_TER_WORK:,} units of work" in notes(at) and not at.error
    at.session_state["xp_tab"] = "TER"
    at.run()
    button = more(at, "ter")
    assert button is not None and button.label == "Compute TER for these texts"
    button.click().run()
    assert not at.exception
    want = TER().sentence_score(cand, refs).score
    assert float(headline(at, "TER")) == pytest.approx(want, abs=0.006)   # the headline shows 2 decimals
    assert more(at, "ter") is None and "VIEW_TER_WORK" not in notes(at)
    # the request is this session's, for these texts: not in the link, and gone when the texts change
    assert not any(k.startswith("view_more") or k == "_view_more" for k in at.query_params)
    again = page({"candidate": cand, "ref": refs})
    assert headline(again, "TER") == "—"
    at.text_area(key=next(t.key for t in at.text_area if t.value == cand)).set_value(cand + " the").run()
    assert headline(at, "TER") == "—" or ter_work(cand + " the", refs) <= budget.VIEW_TER_WORK


def test_semantic_past_a_views_work_waits_for_a_click_then_equals_the_core():
    rng = random.Random(11)
    cand, ref = words(rng, 300), words(rng, 300)
    fam = FAMILIES["semantic"]
    from explainer.semantic.algorithm import segment_cost

    costs = {d: segment_cost(fam.bind(d), cand, [ref]) for d in fam.dialects}
    assert min(costs.values()) > budget.VIEW_SEMANTIC_WORK      # neither fits one view
    at = page({"candidate": cand, "ref": ref})
    assert "explainer.ui.budget.VIEW_SEMANTIC_WORK" in notes(at)
    at.session_state["xp_tab"] = "Meaning (STS, BERTScore)"
    at.run()
    more(at, "semantic").click().run()
    assert not at.exception and more(at, "semantic") is None
    for d in fam.dialects:
        t = fam.explain(fam.bind(d), cand, [ref])
        m = fam.main_measure(fam.bind(d))
        assert m.label in [x.label for x in at.metric]
        help_ = next(x.proto.help for x in at.metric if x.label == m.label)
        assert f"exact value {fam.trace_scores(t)[m.key]!r}" in help_


def test_a_views_work_is_bounded_by_its_own_limits_not_the_cores(ter_texts):
    """Without the click a view spends at most VIEW_TER_WORK of TER's shift search and VIEW_SEMANTIC_WORK of the
    model's runs; the core's own limits stay for the click."""
    from explainer.ui.families import ui_family
    from explainer.ui.families.base import DialectChoice

    cand, refs = ter_texts
    ter = ui_family("ter")
    c = ter.compute(DialectChoice("ter", "sacrebleu", {}), cand, refs)
    assert c.trace is None and c.view_limited and f"{budget.VIEW_TER_WORK:,}" in c.error
    whole = ter.compute(DialectChoice("ter", "sacrebleu", {}), cand, refs, whole=True)
    assert whole.trace is not None and not whole.view_limited
    assert whole.trace.score == pytest.approx(TER().sentence_score(cand, refs).score, abs=1e-9)
    # the core's limit is not the view's: texts past it give "—" without a click to offer
    rng = random.Random(3)
    far = words(rng, 400), [words(rng, 400)]
    beyond = ter.compute(DialectChoice("ter", "sacrebleu", {}), *far, whole=True)
    assert beyond.trace is None and not beyond.view_limited
