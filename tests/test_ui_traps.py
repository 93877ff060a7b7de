"""The classic traps (explainer.traps, issue 22) named on the Explain, Dialects and Corpus pages: each trap the core
finds for the texts and settings is one warning, escaped (a quoted word never forms a link or markup)."""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from explainer.ui import highlight as hl
from explainer.ui import traps_view
from explainer.ui.settings import default_settings
from tests.conftest import ROOT
from tests.dialects_samples import ZH_NEWS

APP = str(ROOT / "app.py")
PREFIX = "Before you read the numbers: "
#: a Chinese token that carries markdown: the cjk-unsplit trap quotes it (its first 20 characters) under a whitespace
#: tokenizer
EVIL = "新[点](javascript:x)北京三月五日电**粗**<b>体</b> "


def _shown(at) -> list[str]:
    return [w.value for w in at.warning if w.value.startswith(PREFIX)]


def _expected(traps) -> list[str]:
    return [PREFIX + hl.md_escape(t["message"][:1].upper() + t["message"][1:]) for t in traps]


def _ok(at):
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_explain_page_names_the_traps_of_chinese_text_escaped():
    c, r = EVIL + ZH_NEWS[0][0], ZH_NEWS[0][1]
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["candidate"] = c
    at.query_params["ref"] = r
    at.query_params["tokenize"] = "none"
    _ok(at.run())
    s = default_settings()
    s = s.replace(s["bleu"].replace(tokenize="none"))
    want = traps_view.settings_traps([c], [[r]], s, corpus=False)
    assert {t["code"] for t in want} >= {"cjk-unsplit", "dropped-words"}
    assert _shown(at) == _expected(want)
    for w in _shown(at):
        assert "](javascript" not in w and "<b>" not in w and "**" not in w
    assert any("javascript" in w for w in _shown(at))     # the quoted token is there, as text


def test_explain_page_shows_no_trap_on_plain_english():
    at = _ok(AppTest.from_file(APP, default_timeout=120).run())    # the default worked example
    assert _shown(at) == []


def test_dialects_page_names_the_traps_of_the_compared_metric():
    c, r = ZH_NEWS[1]
    at = AppTest.from_file(str(ROOT / "explainer" / "ui" / "pages" / "dialects.py"), default_timeout=120)
    at.query_params["candidate"] = c
    at.query_params["ref"] = r
    _ok(at.run())
    s = default_settings()
    bleu = traps_view.settings_traps([c], [[r]], s, families=["bleu"], corpus=False)
    assert [t["code"] for t in bleu] == ["cjk-unsplit"]
    assert _shown(at) == _expected(bleu)
    _ok(at.radio(key="dl_metric").set_value("rouge").run())
    from explainer.ui.dialects.rouge_part import HEAD_TYPES

    types = tuple(at.selectbox(key="dl_head").value for _ in [0]) + tuple(
        t for t in HEAD_TYPES if t != at.selectbox(key="dl_head").value)
    rs = s.replace(s["rouge"].replace(types=types))
    rouge = traps_view.settings_traps([c], [[r]], rs, families=["rouge"], corpus=False)
    assert "dropped-words" in [t["code"] for t in rouge]
    assert _shown(at) == _expected(rouge)


def test_corpus_page_names_pretokenized_output_and_a_reference_given_as_output():
    refs = [f"The council approved the budget for year {i}, officials said." for i in range(8)]
    tokenized = [f"the council approved the budget for year {i} , officials said ." for i in range(8)]
    at = _ok(AppTest.from_file(str(ROOT / "explainer" / "ui" / "pages" / "corpus.py"), default_timeout=120).run())
    at.radio(key="cp_source").set_value("Paste").run()
    at.text_area(key="cp_paste_ref_0").set_value("\n".join(refs))
    at.text_area(key="cp_paste_sys_0").set_value("\n".join(tokenized))
    at.text_area(key="cp_paste_sys_1").set_value("\n".join(refs))
    _ok(at.button(key="cp_load_paste").click().run())
    names = [n for n in ("system A", "system B")]
    s = default_settings()
    want = traps_view.corpus_traps(list(zip(names, [tokenized, refs])), [[r] for r in refs], s, families=["bleu"],
                                   skip=("cjk-unsplit",))
    assert {t["code"] for t in want} >= {"pretokenized", "candidate-is-reference"}
    assert _shown(at) == _expected(want)
