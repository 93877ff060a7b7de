"""The Dialects page loops over the registered metric families (issue 29): every family is offered and compared
(TER through the generic view: its rows are sacreBLEU's TER, each opens the Explain page with its settings); the
Reproduce tab takes the several-number claim the README advertises, one search per number (issue 33, defect 7),
and says when implementations tie and how likely a rounding coincidence is (defect 4)."""
from __future__ import annotations

import re
import urllib.parse

import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import TER

from explainer.dialectcmp.reproduction import reproduce
from explainer.examples import get_example
from explainer.families import FAMILIES
from explainer.ui import highlight as hl
from explainer.ui.explain.link import parse_link
from tests.test_ui_dialects import html_of, new_page

CAND, REFS = "The cat sat on the mat.", ["The cat is on the mat.", "A cat sat on a mat!"]


def _table(at):
    return next(d.value for d in at.dataframe if "implementation" in d.value.columns)


@pytest.mark.parametrize("metric", list(FAMILIES))
def test_every_registered_family_is_offered_and_compared(metric):
    at = new_page({"candidate": CAND, "ref": REFS, "metric": metric})
    assert at.radio(key="dl_metric").value == metric
    assert list(at.radio(key="dl_metric").options) == [FAMILIES[n].label for n in FAMILIES]
    assert len(_table(at)) >= 1 and at.query_params["metric"] == metric
    said = html_of(at) + " ".join(m.value for m in at.markdown)
    assert "First divergence" in said


def test_ter_rows_are_sacrebleus_ter_and_open_the_explain_page():
    at = new_page({"candidate": CAND, "ref": REFS, "metric": "ter"})
    df = _table(at)
    real = {"sacreBLEU TER": TER(), "sacreBLEU TER, normalized": TER(normalized=True),
            "sacreBLEU TER, case kept": TER(case_sensitive=True), "sacreBLEU TER, no punctuation": TER(no_punct=True)}
    rows = {r["implementation"]: r for r in df.to_dict("records")}
    assert set(real) <= set(rows)
    for label, metric in real.items():
        assert rows[label]["TER"] == f"{metric.sentence_score(CAND, REFS).score:.4f}".rstrip("0").rstrip(".")
        q = urllib.parse.parse_qs(rows[label]["explain"][3:], keep_blank_values=True)
        state = parse_link(q)
        assert not state.warnings and state.candidate == CAND and state.refs == REFS
        ter = state.settings["ter"]
        assert ter.dialect == "sacrebleu"
        want = {"normalized": False, "no_punct": False, "asian_support": False, "case_sensitive": False,
                **{k: True for k, v in metric.__dict__.items() if k in ("normalized", "no_punct", "case_sensitive")
                   and v}}
        assert {k: bool(ter.options[k]) for k in want} == want, label
    body = html_of(at)
    assert "First divergence: other options" in body and "normalized" in body


def test_the_several_number_claim_the_readme_advertises_is_searched_number_by_number():
    """Before: "the claim has several numbers (44.2, 21.3, 41.0); give one"; the CLI took it."""
    ex = get_example("abandon_hope")
    claim = "R-1/R-2/R-L 44.2/21.3/41.0"
    at = new_page({"candidate": ex.candidate, "ref": list(ex.references), "claim": claim})
    assert not at.exception
    assert not any("several numbers" in e.value for e in at.error)
    assert any("The claim has 3 numbers" in m.value for m in at.markdown)
    heads = [s.value for s in at.subheader]
    for part in ("R-1 44.2", "R-2 21.3", "R-L 41.0"):
        assert part in heads
        want = reproduce(ex.candidate, list(ex.references), part)
        shown = [b.value for b in list(at.success) + list(at.warning) + list(at.error)]
        assert any(v.startswith(hl.md_escape(want.headline)[:40]) for v in shown), part
    assert at.text_input(key="dl_claim").value == claim and at.query_params["claim"] == claim


def test_a_tie_and_the_chance_of_a_coincidence_are_said_on_the_page():
    cand = "The storms closed the schools across the northern counties on Monday."
    refs = ["Storms closing schools across northern counties on Monday."]
    f = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True).score(refs[0], cand)["rouge1"].fmeasure
    claim = f"R-1 {100 * f:.2f}"
    at = new_page({"candidate": cand, "ref": refs, "claim": claim})
    want = reproduce(cand, refs, claim)
    assert want.tied
    body = html_of(at)
    ties = re.search(r'data-testid="dl-ties">(.*?)</ul>', body).group(1)
    items = re.findall(r"<li>(.*?)</li>", ties)
    assert len(items) == len(want.ties) and items[0].startswith(hl.escape_text(want.ties[0].description))
    assert "the original script" in items[0]
    assert any(m.value.startswith(f"**{len(want.ties)} implementations give") for m in at.markdown)
    said = " ".join(c.value for c in list(at.caption) + list(at.info) + list(at.warning))
    assert hl.md_escape(want.coincidence.sentence) in said
