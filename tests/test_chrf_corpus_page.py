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
    """The segment view's link to the Explain page carries the segment's texts and the chrF settings: the Explain
    page shows sacreBLEU's sentence chrF of that segment."""
    import re

    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf", "chrf_sacrebleu_word_order": "2", "seg": "3"},
                         page="corpus")
    link = next(re.search(r"\]\((\./\?[^)]*)\)", m.value).group(1) for m in app.at.markdown
                if "Open segment 3 in the Explain page" in m.value)
    q = urllib.parse.parse_qs(link[3:], keep_blank_values=True)
    assert q["chrf_sacrebleu_word_order"] == ["2"]
    explain = BrowserLikeApp(q)
    assert not explain.exceptions
    want = CHRF(word_order=2).sentence_score(q["candidate"][0], q["ref"]).score
    assert next(m.value for m in explain.at.metric if m.label == "chrF") == f"{want:.4f}"


def test_the_paired_test_is_sacrebleus_pairedtest_with_chrf(monkeypatch):
    from sacrebleu.significance import PairedTest

    from explainer.ui.corpus.scores import p_value_text

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
        assert row["bootstrap mean"] == want.mean and row["95% CI ±"] == want.ci


def test_a_paper_table_drawn_before_the_test_holds_the_test(monkeypatch):
    """A test run reruns its own part of the page only (issue 18): the download buttons on screen are the ones
    drawn before it. Their tables look the test up when pressed, so the LaTeX table drawn before the test holds
    its p-values and sacreBLEU's paired signature — what ``paper_table`` writes with the test's result."""
    from streamlit.delta_generator import DeltaGenerator

    from explainer.ui.corpus.significance import TESTS

    made = {}
    real = DeltaGenerator.download_button

    def spy(self, label, data, *args, **kwargs):      # the buttons are drawn in columns
        made[kwargs.get("key")] = data
        return real(self, label, data, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", spy)
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf"}, page="corpus")
    app.set("number_input", "cp_test_n_bs", 200)
    before = made["cp_dl_latex"]
    assert "p-value" not in before() and "bs:200" not in before()
    app.click("cp_run_test")
    assert not app.exceptions, app.exceptions
    (got,) = app.at.session_state[TESTS].values()
    from explainer.corpus.chrf_report import chrf_report
    from tests.test_chrf_corpus_analyses import _page_table

    want = _page_table(chrf_report(load_sample("news-en")), got["result"], "latex")
    assert "bs:200" in want
    assert before() == want


def test_previous_and_next_walk_the_tables_rows_whatever_the_metric():
    """Previous / next walk the segments the table lists: all of them, or those a bar or row listed; one table for
    every metric, so the segments listed stay listed when the metric changes."""
    from tests.test_ui_corpus import load_sample_page, ok

    at = load_sample_page()
    at.session_state["cp_filter_ids"] = ("picked in the chart", [3, 50, 200])
    at.run()
    at.number_input(key="cp_seg_input").set_value(3).run()
    at.button(key="cp_next").click().run()
    assert ok(at).session_state["cp_seg"] == 50
    at.segmented_control(key="cp_metric").set_value("chrf").run()
    at.button(key="cp_next").click().run()
    assert ok(at).session_state["cp_seg"] == 200
    at.button(key="cp_prev").click().run()
    assert ok(at).session_state["cp_seg"] == 50
    at.button(key="cp_clear_filter").click().run()
    at.button(key="cp_next").click().run()
    assert ok(at).session_state["cp_seg"] == 51      # every segment once the filter is cleared
    assert at.number_input(key="cp_seg_input").value == 51


def test_the_test_shown_is_the_one_the_chart_and_tables_hold(monkeypatch):
    """After a test, picking the other test (not run yet) keeps the result on screen, said to be the test last
    run: the scores chart's whiskers and the paper tables hold that one too (the table had vanished while the
    whiskers and the tables kept it)."""
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf"}, page="corpus")
    app.set("number_input", "cp_test_n_bs", 200)
    app.click("cp_run_test")
    assert not app.exceptions, app.exceptions
    lines = [m.value.replace("\\", "") for m in app.at.markdown]
    assert any(x.startswith("chrF2: Paired bootstrap, 200 resamples, seed 12345, baseline baseline — computed in")
               and x.endswith(" s.") for x in lines), lines
    table = next(d.value for d in app.at.dataframe if "p-value" in d.value.columns)
    app.at.radio(key="cp_test").set_value("ar").run()
    assert not app.exceptions, app.exceptions
    lines = [m.value.replace("\\", "") for m in app.at.markdown]
    assert any(x.startswith("chrF2: Paired bootstrap, 200 resamples, seed 12345") and
               x.endswith("(the test last run; press “Run the test” for the one picked above).") for x in lines), lines
    again = next(d.value for d in app.at.dataframe if "p-value" in d.value.columns)
    assert again.equals(table)
