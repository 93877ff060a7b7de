"""The pages share one settings model (explainer.ui.settings): settings set on one page hold on the others, a
corpus segment and a Dialects row open the Explain page with their settings, and the Teach page draws the same
sidebar widgets as the Explain and Corpus pages. AppTest of the whole app (st.navigation), as a user moves
between pages."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from sacrebleu.metrics import BLEU
from streamlit.testing.v1 import AppTest

from explainer.corpus import load_sample
from explainer.ui.settings import SESSION_KEY, read_settings, settings_from_params
from tests.conftest import ROOT

APP = str(ROOT / "app.py")
CORPUS = "explainer/ui/pages/corpus.py"
EXPLAIN = "explainer/ui/pages/explain.py"
TEACH = "explainer/ui/pages/teach.py"
DIALECTS = "explainer/ui/pages/dialects.py"


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def app(params: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    return ok(at)


def go(at: AppTest, page: str) -> AppTest:
    """Follow the navigation entry: the new page starts without the old page's query parameters."""
    at.query_params.clear()
    at.switch_page(page)
    at.run()
    return ok(at)


def link_params(url: str) -> dict:
    return parse_qs(urlsplit(url).query, keep_blank_values=True)


def corpus_scores(at: AppTest) -> list[float]:
    df = next(d.value for d in at.dataframe if "BLEU" in d.value.columns and "system" in d.value.columns)
    return list(df["BLEU"])


def test_settings_from_explain_hold_on_corpus_and_the_segment_link_carries_them():
    at = app()
    at.checkbox(key="bleu_opt:sacrebleu:lowercase").check().run()
    at.checkbox(key="rouge_opt:rouge-score:use_stemmer").check().run()
    explain_settings = ok(at).session_state[SESSION_KEY]
    assert explain_settings.bleu_options["lowercase"] is True
    go(at, CORPUS)
    # the Corpus page draws the same widgets, showing what was set on the Explain page
    assert at.checkbox(key="bleu_opt:sacrebleu:lowercase").value is True
    assert at.checkbox(key="rouge_opt:rouge-score:use_stemmer").value is True
    at.selectbox(key="cp_sample").set_value("news-en")
    at.button(key="cp_load_sample").click().run()
    ok(at)
    ts = load_sample("news-en")
    streams = [list(s) for s in zip(*ts.references)]
    assert corpus_scores(at) == [BLEU(lowercase=True).corpus_score(lines, streams).score for _, lines in ts.systems]
    # the segment's Explain link: the same settings, read back by the Explain page's own parser
    link = next(m.value for m in at.markdown if "Open segment" in m.value)
    params = link_params(re.search(r"\]\(([^)]*)\)", link).group(1))
    shown, warns = settings_from_params(params)
    assert warns == [] and shown == at.session_state[SESSION_KEY] == explain_settings
    # ... and opened in a new tab (a new session), the Explain page shows exactly those settings and texts
    fresh = app({k: v if len(v) > 1 else v[0] for k, v in params.items()})
    got, warns = read_settings(fresh.session_state)
    assert warns == [] and got == explain_settings
    seg = at.session_state["cp_seg"]
    assert fresh.text_area(key="candidate").value == ts.system(at.session_state["cp_view_sys"])[seg - 1]


def test_settings_changed_on_corpus_hold_on_explain():
    at = go(app(), CORPUS)
    at.selectbox(key="bleu_dialect").set_value("nltk").run()
    at.selectbox(key="rouge_dialect").set_value("rouge155").run()
    go(ok(at), EXPLAIN)
    assert at.selectbox(key="bleu_dialect").value == "nltk"
    assert at.selectbox(key="rouge_dialect").value == "rouge155"
    bleu = next(m for m in at.metric if m.label == "BLEU")
    assert "nltk" in bleu.help
