"""A click inside a part of the Corpus page that reruns alone (a fragment: a test's "Run the test", an analysis,
previous / next) must reach it even when it comes while the whole page is still running (a new tokenizer's report
takes seconds on a WMT test set). Streamlit names a fragment by where it is drawn (its delta path); a click that
comes during a full run waits for that run, then runs the fragment under the name it had when clicked. If the run
drew the fragment one place further down (a warning or a note more above it), that name is gone and Streamlit
drops the click without a word: the paired test's "Run the test" got no answer (issue 18). So every fragment of
the page is drawn at the same place whatever the settings, warnings and notes above it."""
from __future__ import annotations

from collections import defaultdict

import pytest
from streamlit.runtime import fragment as st_fragment

from tests.test_ui_corpus import load_sample_page, ok


@pytest.fixture
def fragment_ids(monkeypatch):
    """{fragment function: set of the names Streamlit gave it} over the runs of the test."""
    seen: dict[str, set[str]] = defaultdict(set)
    real = st_fragment._make_fragment_identity

    def recording(func, **kw):
        got = real(func, **kw)
        seen[func.__qualname__].add(got.fragment_id)
        return got

    monkeypatch.setattr(st_fragment, "_make_fragment_identity", recording)
    return seen


@pytest.fixture
def slow_reports(monkeypatch):
    """Every report computed anew shows its progress bar, as a WMT-sized one does (the sample's take
    milliseconds); reports computed by earlier tests are forgotten, so this test computes its own."""
    from explainer.ui.compute import corpus_reports
    from explainer.ui.corpus import reports

    monkeypatch.setattr(reports.ReportProgress, "AFTER_SECONDS", 0.0)
    corpus_reports.clear()
    yield
    corpus_reports.clear()


def _set_tokenizer(at, tok: str):
    at.selectbox(key="bleu_opt:sacrebleu:tokenize").set_value(tok).run()
    return ok(at)


def test_bleu_fragments_keep_their_names_across_settings_and_notes(fragment_ids, slow_reports):
    at = load_sample_page()
    first = {k: set(v) for k, v in fragment_ids.items()}
    assert {"_significance_fragment", "_analysis_fragment", "segments_fragment", "_segment_view_fragment",
            "_reproduce_fragment"} <= set(first)
    for tok in ("intl", "char", "none", "13a", "intl"):      # computed (a progress bar), then from the cache
        _set_tokenizer(at, tok)
    at.checkbox(key="bleu_opt:sacrebleu:lowercase").check().run()
    ok(at)
    at.text_input(key="cp_langpair").input("xx-yy").run()       # a note under the language pair
    ok(at)
    at.text_input(key="cp_langpair").input("en-de").run()
    ok(at)
    changed = {k: v for k, v in fragment_ids.items() if len(v) > 1}
    assert not changed, changed


def test_rouge_fragments_keep_their_names_across_settings_and_warnings(fragment_ids, slow_reports):
    at = load_sample_page()
    at.segmented_control(key="cp_metric").set_value("rouge").run()
    ok(at)
    rouge = {k: set(v) for k, v in fragment_ids.items() if k != "_segment_view_fragment"}
    at.checkbox(key="rouge_opt:rouge-score:use_stemmer").check().run()      # a new report: its progress bar
    ok(at)
    at.checkbox(key="rouge_opt:rouge-score:use_stemmer").uncheck().run()    # from the cache: none
    ok(at)
    at.multiselect(key="rouge_types").set_value(["rouge1", "rougeL"]).run()
    ok(at)
    at.multiselect(key="rouge_types").set_value(["rouge1", "rouge2", "rougeL", "rougeLsum"]).run()
    ok(at)
    assert at.segmented_control(key="cp_metric").value == "rouge"
    changed = {k: v - rouge.get(k, set()) for k, v in fragment_ids.items() if len(v - rouge.get(k, set())) > 0
               and k in rouge}
    assert not changed, changed


def test_chrf_fragments_keep_their_names_across_settings(fragment_ids, slow_reports):
    """With chrF looked at, the page's parts (its tests, analyses, segment table and view) are the same
    fragments: a new report's progress bar, another dialect and its notes above them leave their names unchanged;
    other metrics added to the scores table too."""
    at = load_sample_page()
    at.segmented_control(key="cp_metric").set_value("chrf").run()
    ok(at)
    assert {"_significance_fragment", "_analysis_fragment", "segments_fragment",
            "_segment_view_fragment"} <= set(fragment_ids)
    before = {k: set(v) for k, v in fragment_ids.items()}
    at.number_input(key="chrf_opt:sacrebleu:word_order").set_value(2).run()     # a new report: its progress bar
    ok(at)
    at.number_input(key="chrf_opt:sacrebleu:word_order").set_value(0).run()     # from the cache: none
    ok(at)
    at.selectbox(key="chrf_dialect").set_value("nltk").run()
    ok(at)
    at.selectbox(key="chrf_dialect").set_value("sacrebleu").run()
    ok(at)
    at.multiselect(key="cp_also").set_value(["bleu", "ter"]).run()           # more columns, a report each
    ok(at)
    assert at.segmented_control(key="cp_metric").value == "chrf"
    changed = {k: v - before[k] for k, v in fragment_ids.items() if k in before and v - before[k]}
    assert not changed, changed
