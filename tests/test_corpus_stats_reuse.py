"""A corpus's statistics are kept when only an option applied after counting changes (smoothing, effective order,
the API): each dialect names those options (``SCORING_ONLY``); every one of them is checked here to leave each
segment's statistics unchanged, and a report made from kept statistics is the report made from scratch. On the
Corpus page a smoothing change then rescores from the kept statistics instead of counting every segment again
(issue 18: a WMT test set's counting is most of a settings change's server time)."""
from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

from explainer.bleu import dialect_names, get_dialect
from explainer.bleu.system_stats import system_stats
from explainer.corpus.report import bleu_report, report_stats
from explainer.corpus.testset import TestSet
from tests.corpus_data import make_testset


@pytest.fixture(scope="module")
def ts() -> TestSet:
    streams, systems = make_testset(60, 2, 2, seed=7)
    return TestSet(references=[list(r) for r in zip(*streams)], systems=systems)


def _values(spec) -> list:
    if spec.choices:
        return list(spec.choices)
    if spec.type == "bool":
        return [None, True, False] if spec.default is None else [True, False]
    if spec.type in ("float", "optional_float"):
        return [0.01, 0.5, 3.0] + ([None] if spec.type == "optional_float" else [])
    raise AssertionError(f"no test values for a {spec.type} option")


def _variants():
    for name in dialect_names():
        cls = type(get_dialect(name))
        for spec in cls.OPTIONS:
            if spec.name in cls.SCORING_ONLY:
                for v in _values(spec):
                    yield name, spec.name, v


VARIANTS = list(_variants())


def test_every_dialect_that_applies_options_after_counting_names_them():
    named = {n for n, _, _ in VARIANTS}
    assert {"sacrebleu", "nltk", "hf-evaluate", "torchmetrics", "torchmetrics-sacrebleu"} <= named
    for name in dialect_names():
        cls = type(get_dialect(name))
        assert cls.SCORING_ONLY <= {o.name for o in cls.OPTIONS}, name


@pytest.mark.parametrize("dialect,option,value", VARIANTS, ids=[f"{d}-{o}-{v}" for d, o, v in VARIANTS])
def test_options_applied_after_counting_leave_the_statistics_alone(ts, dialect, option, value):
    base = get_dialect(dialect)
    try:
        other = get_dialect(dialect, **{option: value})
    except ValueError:
        pytest.skip("not a valid combination of this dialect's options")
    assert other.counts_key == base.counts_key
    hyps = [lines for _, lines in ts.systems]
    a0, r0, _, c0 = system_stats(base, hyps, ts.references)
    a1, r1, _, c1 = system_stats(other, hyps, ts.references)
    assert r1 == r0
    assert c1 == c0
    for x, y in zip(a0, a1):
        assert np.array_equal(x, y)


def test_a_counting_option_changes_the_key():
    assert get_dialect("sacrebleu", tokenize="intl").counts_key != get_dialect("sacrebleu").counts_key
    assert get_dialect("sacrebleu", lowercase=True).counts_key != get_dialect("sacrebleu").counts_key
    assert get_dialect("nltk", weights=(0.5, 0.5)).counts_key != get_dialect("nltk").counts_key


@pytest.mark.parametrize("dialect,options", [
    ("sacrebleu", {"smooth_method": "floor", "smooth_value": 0.2}),
    ("sacrebleu", {"smooth_method": "none", "effective_order": True}),
    ("nltk", {"k": 3.0, "auto_reweigh": True}),
    ("hf-evaluate", {"smooth": True}),
])
def test_a_report_from_kept_statistics_is_the_report_from_scratch(ts, dialect, options):
    kept = report_stats(ts, get_dialect(dialect))
    got = bleu_report(ts, dialect=dialect, keep_refs=False, stats=kept, **options)
    want = bleu_report(ts, dialect=dialect, keep_refs=False, **options)
    for g, w in zip(got.systems, want.systems):
        assert g.score == w.score
        assert g.trace.to_dict() == w.trace.to_dict()
        assert np.array_equal(g.sentence, w.sentence, equal_nan=True)
        assert np.array_equal(g.bp, w.bp)
        assert np.array_equal(g.stats, w.stats)
    assert got.signature == want.signature


@pytest.fixture
def counted(monkeypatch):
    """How often the Corpus page counted a test set's statistics (the shared reports forgotten first)."""
    from explainer.corpus import report
    from explainer.ui.compute import corpus_reports

    calls = []
    real = report.system_stats

    def counting(*a, **kw):
        calls.append(a[0].counts_key)
        return real(*a, **kw)

    monkeypatch.setattr(report, "system_stats", counting)
    corpus_reports.clear()
    yield calls
    corpus_reports.clear()


def test_the_corpus_page_rescores_a_smoothing_change_from_kept_statistics(counted):
    from explainer.corpus import load_sample
    from tests.test_ui_corpus import load_sample_page, ok, scores_table

    at = load_sample_page()
    assert len(counted) == 1
    sample = load_sample("news-en")
    streams = [list(s) for s in zip(*sample.references)]
    for method in ("floor", "add-k", "none", "exp"):
        at.selectbox(key="bleu_opt:sacrebleu:smooth_method").set_value(method).run()
        ok(at)
        got = list(scores_table(at)["BLEU"])
        assert got == [BLEU(smooth_method=method).corpus_score(lines, streams).score for _, lines in sample.systems]
    assert len(counted) == 1          # smoothing: no new count
    at.selectbox(key="bleu_opt:sacrebleu:tokenize").set_value("intl").run()
    ok(at)
    assert len(counted) == 2          # a tokenizer: counted anew
    assert list(scores_table(at)["BLEU"]) == [BLEU(tokenize="intl").corpus_score(lines, streams).score
                                             for _, lines in sample.systems]


def test_the_analyses_of_the_tokens_survive_a_smoothing_change(counted, monkeypatch):
    """Sentence buckets (compare-mt's own sentence BLEU), word accuracy and the n-gram differences depend on the
    tokens, not on the smoothing: the page computes them once per tokenization, and shows the same numbers."""
    from explainer.corpus import comparemt, ngram_diff
    from tests.test_ui_corpus import load_sample_page, ok

    calls = {"sentbleu": 0, "words": 0, "ngrams": 0}

    def counting(name, real):
        def f(*a, **kw):
            calls[name] += 1
            return real(*a, **kw)
        return f

    monkeypatch.setattr(comparemt, "sentbleu_scores", counting("sentbleu", comparemt.sentbleu_scores))
    monkeypatch.setattr(comparemt, "word_accuracy", counting("words", comparemt.word_accuracy))
    monkeypatch.setattr(ngram_diff, "ngram_differences", counting("ngrams", ngram_diff.ngram_differences))
    at = load_sample_page()

    def shown():
        out = {}
        for view in ("Sentence buckets", "Word accuracy", "N-grams"):
            at.segmented_control(key="cp_differ_view").set_value(view).run()
            ok(at)
            out[view] = ([d.value.to_dict() for d in at.dataframe if "n-gram" in d.value.columns
                          or "frequency" in d.value.columns], [c.value for c in at.caption])
        return out

    before = shown()
    assert calls == {"sentbleu": 3, "words": 1, "ngrams": 1}      # three systems, one pair
    at.selectbox(key="bleu_opt:sacrebleu:smooth_method").set_value("floor").run()
    ok(at)
    assert shown() == before
    assert calls == {"sentbleu": 3, "words": 1, "ngrams": 1}
    at.selectbox(key="bleu_opt:sacrebleu:tokenize").set_value("intl").run()
    ok(at)
    shown()
    assert calls == {"sentbleu": 6, "words": 2, "ngrams": 2}
