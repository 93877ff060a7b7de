"""The pages share one settings model (explainer.ui.settings): settings set on one page hold on the others, a
corpus segment and a Dialects row open the Explain page with their settings, and the Teach page draws the same
sidebar widgets as the Explain and Corpus pages. AppTest of the whole app (st.navigation), as a user moves
between pages."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
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
    assert explain_settings["bleu"].options["lowercase"] is True
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


def test_settings_set_on_corpus_before_the_explain_page_ever_ran_hold_there():
    """A session that starts on the Corpus page (a shared corpus link): the first visit to the Explain page keeps
    the settings chosen on the Corpus page instead of putting its default example's settings in force."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page(CORPUS)
    at.run()
    at.checkbox(key="bleu_opt:sacrebleu:lowercase").check().run()
    at.selectbox(key="rouge_dialect").set_value("rouge155").run()
    go(ok(at), EXPLAIN)
    assert at.checkbox(key="bleu_opt:sacrebleu:lowercase").value is True
    assert at.selectbox(key="rouge_dialect").value == "rouge155"
    assert at.session_state[SESSION_KEY]["bleu"].options["lowercase"] is True
    go(at, CORPUS)
    assert at.checkbox(key="bleu_opt:sacrebleu:lowercase").value is True


# ------------------------------------------------------------------------------------------------- Teach
def page_html(at: AppTest) -> str:
    return "".join(h.proto.body for h in at.get("html"))


def teach_bleu(at: AppTest) -> float:
    """The BLEU value the Teach page's BLEU score step shows (from its data attribute)."""
    for k in range(len(at.selectbox(key="tch_step").options)):
        at.selectbox(key="tch_step").set_value(k).run()
        m = re.search(r'data-metric="bleu" data-value="([^"]+)"', page_html(ok(at)))
        if m:
            return float(m.group(1))
    raise AssertionError("no step shows the BLEU score")


def test_teach_draws_the_shared_widgets_and_takes_the_explain_pages_settings():
    from explainer.bleu import explain_bleu
    from explainer.examples import get_example

    at = app()
    at.selectbox(key="bleu_dialect").set_value("nltk").run()
    at.selectbox(key="bleu_opt:nltk:smoothing").set_value("method1").run()
    go(ok(at), TEACH)
    # the same widgets (keys) as the Explain page, showing the Explain page's choice; no copies of them
    assert at.selectbox(key="bleu_dialect").value == "nltk"
    assert at.selectbox(key="bleu_opt:nltk:smoothing").value == "method1"
    assert not any((w.key or "").startswith("tch_bleu") or (w.key or "").startswith("tch_rouge")
                   for w in [*at.selectbox, *at.checkbox])
    assert not [m for m in at.multiselect if m.key == "rouge_types"]   # a lesson's ROUGE types are fixed
    ex = get_example("cat_mat")
    want = explain_bleu(ex.candidate, list(ex.references), dialect="nltk", smoothing="method1").score
    assert teach_bleu(at) == pytest.approx(want, abs=1e-12)
    assert at.query_params["bleu_dialect"] == "nltk" and at.query_params["smooth"] == "method1"


def test_settings_changed_on_teach_hold_on_explain_and_the_types_survive():
    at = app()
    at.multiselect(key="rouge_types").set_value(["rouge1", "rougeL"]).run()
    go(ok(at), TEACH)
    at.selectbox(key="tch_example").set_value("stem_took").run()   # the example switches stemming on
    assert ok(at).checkbox(key="rouge_opt:rouge-score:use_stemmer").value is True
    at.checkbox(key="bleu_opt:sacrebleu:lowercase").check().run()
    go(ok(at), EXPLAIN)
    assert at.checkbox(key="rouge_opt:rouge-score:use_stemmer").value is True
    assert at.checkbox(key="bleu_opt:sacrebleu:lowercase").value is True
    assert at.multiselect(key="rouge_types").value == ["rouge1", "rougeL"]   # not reset by the Teach page
    # and back on Teach (its own state from its last link, the settings as the Explain page left them)
    at.checkbox(key="bleu_opt:sacrebleu:lowercase").uncheck().run()
    go(ok(at), TEACH)
    assert at.selectbox(key="tch_example").value == "stem_took"
    assert at.checkbox(key="bleu_opt:sacrebleu:lowercase").value is False
    assert at.checkbox(key="rouge_opt:rouge-score:use_stemmer").value is True


def test_a_teach_link_defines_its_settings_and_they_carry_to_explain():
    at = app()
    at.query_params.clear()
    for k, v in {"example": "abandon_hope", "rouge_dialect": "rouge155", "stem": "1", "step": "2"}.items():
        at.query_params[k] = v
    at.switch_page(TEACH)
    at.run()
    assert ok(at).selectbox(key="rouge_dialect").value == "rouge155"
    go(at, EXPLAIN)
    assert at.selectbox(key="rouge_dialect").value == "rouge155"
    assert at.checkbox(key="rouge_opt:rouge155:use_stemmer").value is True


def test_thirty_sessions_on_one_teach_link_compute_the_lesson_once(monkeypatch):
    from explainer.ui import compute as C
    from explainer.ui.teach import common as teach_page

    calls = []
    real = teach_page.build_lecture
    monkeypatch.setattr(teach_page, "build_lecture", lambda *a, **k: calls.append(a) or real(*a, **k))
    C.shared.clear()
    link = {"candidate": "a cat sat on the mat today", "ref": ["the cat sat on the mat"], "smooth": "floor",
            "step": "3"}
    pages = []
    for _ in range(3):
        at = AppTest.from_file(str(ROOT / "explainer" / "ui" / "pages" / "teach.py"), default_timeout=60)
        for k, v in link.items():
            at.query_params[k] = v
        at.run()
        pages.append(ok(at))
    assert len(calls) == 1
    assert len({page_html(p) for p in pages}) == 1
    # other settings are another lesson
    pages[0].selectbox(key="bleu_opt:sacrebleu:smooth_method").set_value("exp").run()
    assert len(calls) == 2


# ---------------------------------------------------------------------------------------------- Dialects
def test_dialects_links_keep_the_users_other_settings():
    from explainer.examples import get_example

    at = app()
    at.selectbox(key="rouge_dialect").set_value("rouge155").run()
    at.checkbox(key="rouge_opt:rouge155:use_stemmer").check().run()
    go(ok(at), DIALECTS)
    df = at.dataframe[0].value
    ex = get_example("cat_sat")
    for label, link in zip(df["implementation"], df["explain"]):
        params = link_params(link)
        s, warns = settings_from_params(params)
        assert warns == [] and params["candidate"] == [ex.candidate]
        assert s["rouge"].dialect == "rouge155" and s["rouge"].options["use_stemmer"] is True, label  # the user's
    nltk = link_params(df["explain"][list(df["implementation"]).index("NLTK method1")])
    assert nltk["bleu_dialect"] == ["nltk"] and nltk["smooth"] == ["method1"]            # the row's own
    # the row's link opened: the Explain page shows that configuration and the user's ROUGE settings
    fresh = app({k: v if len(v) > 1 else v[0] for k, v in nltk.items()})
    got, _ = read_settings(fresh.session_state)
    assert got["bleu"].dialect == "nltk" and got["rouge"].dialect == "rouge155"


def test_thirty_sessions_on_one_dialects_link_compute_once(monkeypatch):
    from explainer.dialectcmp import comparison as compare_mod
    from explainer.dialectcmp import reproduction as reproduce_mod
    from explainer.ui import compute as C

    counts = {"compare": 0, "reproduce": 0}
    real_compare, real_reproduce = compare_mod.compare, reproduce_mod.reproduce

    def counting(name, real):
        def f(*a, **k):
            counts[name] += 1
            return real(*a, **k)
        return f

    monkeypatch.setattr(compare_mod, "compare", counting("compare", real_compare))
    monkeypatch.setattr(reproduce_mod, "reproduce", counting("reproduce", real_reproduce))
    C.shared.clear()
    link = {"candidate": "the cat sat on the mat today", "ref": ["the cat sat on the mat"], "claim": "BLEU = 0.7"}
    pages = []
    for _ in range(3):
        at = AppTest.from_file(str(ROOT / "explainer" / "ui" / "pages" / "dialects.py"), default_timeout=90)
        for k, v in link.items():
            at.query_params[k] = v
        at.run()
        pages.append(ok(at))
    assert counts == {"compare": 1, "reproduce": 1}
    assert len({str(p.dataframe[0].value.to_dict()) for p in pages}) == 1
    assert len({page_html(p) for p in pages}) == 1
