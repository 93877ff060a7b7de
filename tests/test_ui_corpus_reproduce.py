"""The Corpus page's "Which settings give …?" section (issue 20): a corpus score of the selected system made with
the real sacreBLEU is found with its configuration and reference file; other metrics are refused by name; bad
claims are one message."""
from __future__ import annotations

from sacrebleu.metrics import BLEU
from streamlit.testing.v1 import AppTest

from explainer.corpus import load_sample
from explainer.ui import highlight as hl
from explainer.ui.corpus import reproduce as corpus_reproduce
from tests.conftest import ROOT

PAGE = str(ROOT / "explainer" / "ui" / "pages" / "corpus.py")


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def sample_page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.run()
    at.selectbox(key="cp_sample").set_value("news-en")
    at.button(key="cp_load_sample").click().run()
    return ok(at)


def search(at: AppTest, claim: str) -> AppTest:
    at.text_input(key="cp_rep_claim").set_value(claim)
    at.button(key="FormSubmitter:cp_rep_form-Search").click().run()
    return ok(at)


def test_a_corpus_score_is_found_with_its_configuration_and_reference_file():
    at = sample_page()
    ts = load_sample("news-en")
    name = at.session_state["cp_system"]
    streams = [list(s) for s in zip(*ts.references)]
    v = BLEU(tokenize="intl", lowercase=True).corpus_score(ts.system(name), [streams[1]]).score
    search(at, f"BLEU {v:.2f}")
    (res,) = next(iter(at.session_state[corpus_reproduce.STORE_KEY].values()))
    assert any(m.config.dialect == "sacrebleu" and m.references == [1] and abs(m.value - v) < 1e-9
               for m in res.matches)
    table = next(d.value for d in at.dataframe if "command" in d.value.columns)
    assert any(ts.ref_names[1] in r and "--ref" in c for r, c in zip(table["references"], table["command"]))
    assert at.success or at.warning


def test_other_metrics_are_refused_and_bad_claims_are_one_message():
    at = search(sample_page(), "BLEU 30.0 / chrF 55.2")
    assert any("chrF" in e.value for e in at.error)
    at = search(at, "no number")
    assert any(hl.md_escape("no number in the claim") in e.value for e in at.error)
