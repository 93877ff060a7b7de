"""The Corpus page with chrF (issue 23): each system's corpus chrF is sacreBLEU's ``CHRF.corpus_score`` (NLTK's
``corpus_chrf``) computed here, the chrF settings travel in the link, and a segment's Explain link shows that
segment's sentence chrF."""
from __future__ import annotations

import urllib.parse

import pytest
from nltk.translate.chrf_score import corpus_chrf
from sacrebleu.metrics import CHRF

from explainer.corpus.samples import load_sample
from tests.ui_driver import BrowserLikeApp


def _streams(ts):
    n = len(ts.references[0])
    return [[refs[j] for refs in ts.references] for j in range(n)]


def _metrics(app) -> dict[str, str]:
    return {m.label.replace("\\", ""): m.value for m in app.at.metric}


@pytest.mark.parametrize("link,opts", [({}, {}), ({"chrf_sacrebleu_word_order": "2"}, {"word_order": 2})])
def test_corpus_scores_are_sacrebleus(link, opts):
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf", **link}, page="corpus")
    assert not app.exceptions, app.exceptions
    ts = load_sample("news-en")
    m = CHRF(**opts)
    shown = _metrics(app)
    for name, lines in ts.systems:
        want = m.corpus_score(list(lines), _streams(ts)).score
        assert shown[f"{_name(opts)} — {name}"] == f"{want:.4f}"
    assert app.query["metric"] == ["chrf"]
    for k, v in link.items():
        assert app.query[k] == [v]


def _name(opts) -> str:
    return "chrF2++" if opts.get("word_order") else "chrF2"


def test_nltk_corpus_chrf_and_the_link_back():
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf", "chrf_dialect": "nltk"}, page="corpus")
    assert not app.exceptions
    ts = load_sample("news-en")
    shown = _metrics(app)
    for name, lines in ts.systems:    # NLTK's own handling of several references: a list given as the reference
        assert shown[f"chrF — {name}"] == f"{corpus_chrf([list(r) for r in ts.references], list(lines)):.6f}"
    again = app.reopen()
    assert not again.exceptions and _metrics(again) == shown


def test_a_segments_explain_link_shows_its_sentence_chrf():
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf", "chrf_sacrebleu_word_order": "2"}, page="corpus")
    seg = next(d.value for d in app.at.dataframe if "explain" in d.value.columns)
    link = seg["explain"].iloc[2]
    q = urllib.parse.parse_qs(link[3:], keep_blank_values=True)
    assert q["chrf_sacrebleu_word_order"] == ["2"]
    explain = BrowserLikeApp(q)
    assert not explain.exceptions
    want = CHRF(word_order=2).sentence_score(q["candidate"][0], q["ref"]).score
    assert next(m.value for m in explain.at.metric if m.label == "chrF") == f"{want:.4f}"


def test_the_paired_test_is_sacrebleus_pairedtest_with_chrf(monkeypatch):
    from sacrebleu.significance import PairedTest

    from explainer.ui.corpus.significance import p_value_text

    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf"}, page="corpus")
    app.set("number_input", "cp_test_n_bs", 200)
    app.click("cp_run_test")
    assert not app.exceptions, app.exceptions
    table = next(d.value for d in app.at.dataframe if "p-value" in d.value.columns).to_dict("records")
    ts = load_sample("news-en")
    _, res = PairedTest([(n, list(h)) for n, h in ts.systems], {"chrf": CHRF()}, _streams(ts), test_type="bs",
                        n_samples=200)()
    (key,) = [k for k in res if k != "System"]
    for row, want in zip(table, res[key]):
        assert row["score"] == want.score and row["p-value"] == p_value_text(want.p_value)
        assert row["mean"] == want.mean and row["95% CI ±"] == want.ci


def test_a_paper_table_drawn_before_the_test_holds_the_test(monkeypatch):
    """A test run reruns its own part of the page only (issue 18): the download buttons on screen are the ones
    drawn before it. Their tables look the test up when pressed, so the LaTeX table drawn before the test holds
    its p-values and sacreBLEU's paired signature — what ``paper_table`` writes with the test's result."""
    from streamlit.delta_generator import DeltaGenerator

    from explainer.ui.corpus import chrf_analyses as ca
    from explainer.ui.corpus.chrf_section import TESTS_KEY

    made = {}
    real = DeltaGenerator.download_button

    def spy(self, label, data, *args, **kwargs):      # the buttons are drawn in columns
        made[kwargs.get("key")] = data
        return real(self, label, data, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", spy)
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf"}, page="corpus")
    app.set("number_input", "cp_test_n_bs", 200)
    before = made["cp_chrf_dl_latex"]
    assert "p-value" not in before() and "bs:200" not in before()
    app.click("cp_run_test")
    assert not app.exceptions, app.exceptions
    (res,) = app.at.session_state[TESTS_KEY].values()
    from explainer.corpus.chrf_report import chrf_report

    want = ca.paper_table(chrf_report(load_sample("news-en")), res, "latex")
    assert "bs:200" in want
    assert before() == want


def test_previous_and_next_walk_the_chrf_tables_rows_not_the_bleu_views():
    """In the chrF view previous / next walk the segments its table lists: all of them, or those a bar or row
    listed. Segments listed in the BLEU view before the switch are not the chrF table's rows (they were walked)."""
    from explainer.ui.corpus.chrf_analyses import FILTER_KEY
    from tests.test_ui_corpus import load_sample_page, ok

    at = load_sample_page()
    at.session_state["cp_filter_ids"] = ("picked in the BLEU view", [3, 50, 200])
    at.run()
    at.number_input(key="cp_seg_input").set_value(3).run()
    at.button(key="cp_next").click().run()
    assert ok(at).session_state["cp_seg"] == 50      # the BLEU view walks its own rows
    at.segmented_control(key="cp_metric").set_value("CHRF").run()
    at.number_input(key="cp_seg_input").set_value(50).run()
    at.button(key="cp_next").click().run()
    assert ok(at).session_state["cp_seg"] == 51      # every segment: the BLEU view's rows are not this table's
    at.session_state[FILTER_KEY] = ("listed in the chrF view", [8, 21, 130])    # as a bar clicked sets it
    at.number_input(key="cp_seg_input").set_value(8).run()
    at.button(key="cp_next").click().run()
    assert ok(at).session_state["cp_seg"] == 21
    at.button(key="cp_next").click().run()
    assert ok(at).session_state["cp_seg"] == 130
    at.button(key="cp_prev").click().run()
    assert ok(at).session_state["cp_seg"] == 21
    assert at.number_input(key="cp_seg_input").value == 21


def test_the_test_shown_is_the_one_the_chart_and_tables_hold(monkeypatch):
    """After a test, picking the other test (not run yet) keeps the result on screen, said to be the test last
    run: the scores chart's whiskers and the paper tables hold that one too (the table had vanished while the
    whiskers and the tables kept it)."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf"}, page="corpus")
    app.set("number_input", "cp_test_n_bs", 200)
    app.click("cp_run_test")
    assert not app.exceptions, app.exceptions
    lines = [m.value for m in app.at.markdown]
    assert "Paired bootstrap, 200 resamples, seed 12345." in [x.replace("\\", "") for x in lines]
    table = next(d.value for d in app.at.dataframe if "p-value" in d.value.columns)
    app.at.radio(key="cp_test").set_value("ar").run()
    assert not app.exceptions, app.exceptions
    lines = [m.value.replace("\\", "") for m in app.at.markdown]
    assert any(x.startswith("Paired bootstrap, 200 resamples, seed 12345 (the test last run") for x in lines), lines
    again = next(d.value for d in app.at.dataframe if "p-value" in d.value.columns)
    assert again.equals(table)
