"""The Corpus page's "Every implementation on this corpus" section (issue 12 §1 at corpus level): the Dialects
page's table for one system's whole output, the sacreBLEU row equal to sacreBLEU's own corpus_score, the first
divergence of two rows, bounded before any work."""
from __future__ import annotations

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU
from streamlit.testing.v1 import AppTest

from explainer.corpus import load_sample
from explainer.dialectcmp.comparison import compare_corpus
from explainer.ui.corpus import dialects as corpus_dialects
from explainer.ui.dialects import view as dv
from tests.conftest import ROOT

PAGE = str(ROOT / "explainer" / "ui" / "pages" / "corpus.py")


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def sample_page(sample: str = "news-en", *, section_open: bool = True) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.run()
    at.selectbox(key="cp_sample").set_value(sample)
    at.button(key="cp_load_sample").click().run()
    if section_open:                    # the section is drawn while it is open (issue 33, item 9)
        at.session_state["cp_sec_implementations"] = True
        at.run()
    return ok(at)


def html_of(at) -> str:
    return "".join(h.proto.body for h in at.get("html"))


def impl_table(at):
    return next(d.value for d in at.dataframe if "implementation" in d.value.columns)


def stored(at):
    (cmp,) = [v for k, v in at.session_state[corpus_dialects.STORE_KEY].items()]
    return cmp


def test_every_bleu_implementation_on_the_corpus_and_the_sacrebleu_row_is_sacrebleus():
    closed = sample_page(section_open=False)
    assert "Every implementation on this corpus" in [e.label for e in closed.expander]
    assert not [b for b in closed.button if b.key == "cp_impl_run"]            # drawn only while open
    at = sample_page()
    assert not [d for d in at.dataframe if "implementation" in d.value.columns]   # only when asked for
    at.button(key="cp_impl_run").click().run()
    ok(at)
    ts = load_sample("news-en")
    name = at.session_state["cp_system"]
    lines = ts.system(name)
    streams = [list(s) for s in zip(*ts.references)]
    cmp = stored(at)
    assert cmp.level == "corpus" and cmp.metric == "bleu"
    real = BLEU().corpus_score(lines, streams).score
    assert cmp.rows[0].id == "sacrebleu" and cmp.rows[0].data["score"] == pytest.approx(real, abs=1e-9)
    none = cmp.row("sacrebleu:none").data["score"]
    assert none == pytest.approx(BLEU(tokenize="none").corpus_score(lines, streams).score, abs=1e-9)
    # the table shows the core's comparison of this system's whole output, row for row
    direct = compare_corpus(lines, ts.references, metric="bleu")
    df = impl_table(at)
    assert list(df["implementation"]) == [r.label for r in direct.rows]
    assert list(df["score"]) == [dv._num(r.data["score"]) for r in direct.rows]
    assert df["score"][0] == dv._num(sacrebleu.corpus_bleu(lines, streams).score)
    assert list(df["first difference from row 1"])[1:] == [dv.STEP_WORDS[d.first_step] for d in direct.pairs]
    # the first divergence of the default pair, and the segment it names opens in the segment view
    d = direct.pairs[0]
    body = html_of(at)
    assert f"First divergence: {dv.STEP_WORDS[d.first_step]}" in body
    if d.segment is not None:
        at.button(key="cp_impl_open").click().run()
        assert ok(at).session_state["cp_seg"] == d.segment + 1
    # another pair
    at.selectbox(key="cp_impl_b").set_value("hf-evaluate").run()
    d = direct.pair("sacrebleu", "hf-evaluate")
    assert f"First divergence: {dv.STEP_WORDS[d.first_step]}" in html_of(ok(at))


def test_rouge_implementations_follow_the_pages_rouge_type():
    at = sample_page()
    at.segmented_control(key="cp_metric").set_value("rouge").run()
    ok(at).button(key="cp_impl_run").click().run()
    ok(at)
    cmp = stored(at)
    ts = load_sample("news-en")
    lines = ts.system(at.session_state["cp_system"])
    head = at.session_state["cp_measure"]
    assert cmp.metric == "rouge" and cmp.rows[0].data["type"] == head
    direct = compare_corpus(lines, ts.references, metric="rouge", types=cmp.rows[0].config.types)
    assert [r.data["score"] for r in cmp.rows] == [r.data["score"] for r in direct.rows]
    df = impl_table(at)
    assert list(df[f"{head} F"]) == [dv._num(r.data["scores"][head]["fmeasure"]) for r in direct.rows]


def test_over_the_limit_is_said_before_any_work(monkeypatch):
    monkeypatch.setattr(corpus_dialects, "PAGE_MAX_SEGMENTS", 50)
    at = sample_page()
    assert any("takes at most 50 segments" in i.value for i in at.info)
    assert not [b for b in at.button if b.key == "cp_impl_run"]
