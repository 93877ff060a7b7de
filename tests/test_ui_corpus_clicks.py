"""Every bar of the Corpus page's analyses leads to the segments behind it: a click (a point as the browser reports
it: the figure's JSON ``customdata``) is turned back into segment ids, and those are exactly the segments the bar
counts or sums — checked against the per-segment statistics, not against the chart's own numbers."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from explainer.bleu import dialect_names
from explainer.corpus import load_sample
from explainer.corpus.report import LENGTH_RATIO_EDGES, bleu_report
from explainer.ui.corpus import charts as cc
from tests.corpus_data import make_testset


@pytest.fixture(scope="module")
def rep():
    return bleu_report(load_sample("news-en"))


def clicks(fig):
    """(trace, point, the point as Streamlit reports a click on it) for every bar of ``fig``."""
    data = json.loads(fig.to_json())["data"]
    for t, trace in enumerate(data):
        for k, cd in enumerate(trace.get("customdata") or []):
            yield trace, k, {"curve_number": t, "point_index": k, "customdata": cd}


def test_length_ratio_bars_list_the_segments_in_their_bin(rep):
    rows = rep.length_ratio()
    fig = cc.length_ratio_figure(rows)
    seen = {s.name: set() for s in rep.systems}
    n = 0
    for trace, k, point in clicks(fig):
        ids, label, system = cc.ratio_bar_segments(rows, point)
        s = rep.systems[rep.names.index(system)]
        c, r = s.stats[:, 0], s.stats[:, 1]
        lo, hi = LENGTH_RATIO_EDGES[k], LENGTH_RATIO_EDGES[k + 1]
        want = [j + 1 for j in range(rep.n_segments) if r[j] > 0 and lo <= c[j] / r[j] < hi]
        assert ids == want and len(ids) == trace["y"][k], (system, k)
        assert label.startswith(f"{system}: c/r in ")
        seen[system] |= set(ids)
        n += 1
    assert n == len(rows) * (len(LENGTH_RATIO_EDGES) - 1)
    for s in rep.systems:     # the bins part every segment with a reference length
        assert seen[s.name] == {j + 1 for j in range(rep.n_segments) if s.stats[j, 1] > 0}


def test_precision_bars_lead_to_the_segments_whose_counts_they_sum(rep):
    rows = rep.precision_by_order()
    for trace, k, point in clicks(cc.precision_by_order_figure(rows)):
        i, n = cc.precision_bar_pick(rows, point)
        assert (rep.names[i], n) == (trace["name"], k + 1)
        ps = rep.precision_segments(i, n)
        recs = ps["segments"]
        # the bar's own numbers (the corpus trace's summed counts) are these segments' sums
        assert (ps["matches"], ps["totals"]) == (point["customdata"][0], point["customdata"][1])
        assert sum(r["matches"] for r in recs) == ps["matches"] and sum(r["totals"] for r in recs) == ps["totals"]
        assert trace["y"][k] == pytest.approx(ps["matches"] / ps["totals"], abs=1e-12)
        missed = [r["missed"] for r in recs]
        assert missed == sorted(missed, reverse=True) and all(r["totals"] > 0 for r in recs)
        N = rep.max_order
        st = rep.systems[i].stats
        assert {r["segment"] for r in recs} == {j + 1 for j in range(rep.n_segments) if st[j, 1 + N + n] > 0}


@pytest.mark.parametrize("dialect", dialect_names())
def test_precision_segments_sum_to_every_dialects_corpus_counts(dialect):
    refs, systems = make_testset(40, 2, 1, seed=3)
    from explainer.corpus.testset import build_testset

    ts = build_testset(systems, [(f"r{k}", r) for k, r in enumerate(refs)])
    r = bleu_report(ts, dialect=dialect)
    t = r.systems[0].trace
    for n in range(1, r.max_order + 1):
        ps = r.precision_segments(0, n)
        assert (ps["matches"], ps["totals"]) == (int(t.counts[n - 1]), int(t.totals[n - 1])), (dialect, n)
    with pytest.raises(ValueError):
        r.precision_segments(0, r.max_order + 1)


def test_ngram_bars_list_the_segments_of_their_ngram(rep):
    nd = rep.ngram_differences(1, 0)
    n = 0
    for trace, k, point in clicks(cc.ngram_diff_figure(nd)):
        ids, label = cc.ngram_bar_segments(nd, point)
        kind, j = point["customdata"][3], point["customdata"][4]
        rec = nd[kind][j]
        assert trace["x"][k] == rec["difference"] and ids == rec["segments"] and len(ids) == rec["n_segments"]
        assert label == f"n-gram “{rec['ngram']}”"
        n += 1
    assert n == len(nd["better"]) + len(nd["worse"]) > 0


def test_delta_histogram_bars_list_the_segments_in_their_bin(rep):
    delta = rep.systems[1].sentence - rep.systems[0].sentence
    seen = []
    for trace, k, point in clicks(cc.delta_histogram_figure(delta, name="b", base_name="a")):
        ids, label = cc.delta_bar_segments(delta, point)
        assert len(ids) == trace["y"][k]
        lo, hi = trace["x"][k] - trace["width"] / 2, trace["x"][k] + trace["width"] / 2
        assert all(lo - 1e-9 <= delta[j - 1] <= hi + 1e-9 for j in ids)
        seen += ids
    assert sorted(seen) == list(range(1, rep.n_segments + 1))      # every segment in exactly one bar


def test_length_bucket_bars_list_their_segments(rep):
    buckets = rep.length_buckets()
    for _, k, point in clicks(cc.length_buckets_figure(buckets, rep.names)):
        ids, label = cc.bucket_bar_segments(buckets, point)
        assert ids == buckets[k]["segments"] and len(ids) == buckets[k]["n_segments"]
        assert label == f"reference length {buckets[k]['bucket']}"


@pytest.mark.parametrize("cd", [None, "x", [], ["a", "b", "c", "d", "e"], [0, 99], [99, 0], [True, 0], [-1, 0],
                                [math.nan, 0], [0.5, 0], [1e300, 0], {"a": 1}])
def test_a_click_the_browser_made_up_leads_nowhere(rep, cd):
    """customdata comes back from the browser: anything odd gives no segments, never an exception."""
    point = {"customdata": cd}
    assert cc.ratio_bar_segments(rep.length_ratio(), point)[0] == []
    assert cc.precision_bar_pick(rep.precision_by_order(), point) is None
    assert cc.ngram_bar_segments(rep.ngram_differences(1, 0), point)[0] == []
    assert cc.bucket_bar_segments(rep.length_buckets(), point)[0] == []
    real_bar = isinstance(cd, list) and bool(cd) and type(cd[0]) is int and 0 <= cd[0] < cc.DELTA_BINS
    assert bool(cc.delta_bar_segments(np.arange(5.0), point)[0]) == real_bar      # bar 0 holds the value 0


@pytest.mark.parametrize("metric,view,chart,label", [
    ("bleu", "Length buckets", "cp_buckets", "reference length "),
    ("bleu", "Word accuracy", "cp_wordacc", "words of reference frequency "),
    ("bleu", "Sentence buckets", "cp_sentbuckets", "sentence score "),   # compare-mt's sentence BLEU
    ("bleu", "Source length", "cp_srcbuckets", "source length "),
    ("chrf", "Length buckets", "cp_buckets", "reference length "),
    ("chrf", "Sentence buckets", "cp_sentbuckets", "segment score "),
    ("ter", "Length buckets", "cp_buckets", "reference length "),
    ("ter", "Sentence buckets", "cp_sentbuckets", "segment score "),
])
def test_a_bucket_bar_lists_its_segments_under_what_it_buckets(monkeypatch, metric, view, chart, label):
    """The note above the segment table names what a clicked bar's bucket is of: a band of sentence scores was
    called a "reference length" in four analyses. The chart's own click handler is read from the page run."""
    import streamlit

    from tests.test_ui_corpus import load_sample_page, ok

    handlers = {}
    real = streamlit.plotly_chart

    def spy(fig, *args, **kwargs):
        handlers[kwargs.get("key")] = kwargs.get("on_select")
        return real(fig, *args, **kwargs)

    monkeypatch.setattr(streamlit, "plotly_chart", spy)
    at = load_sample_page()
    if view == "Source length":     # the samples have no source: the sample with its first reference as one
        from explainer.corpus.testset import TestSet
        from explainer.ui.corpus.testset import testset_key

        ts = load_sample("news-en")
        ts = TestSet(references=ts.references, systems=ts.systems, source=[r[0] for r in ts.references])
        at.session_state["cp_ts"] = ts
        at.session_state["cp_ts_key"] = testset_key(ts)
        at.run()
    if metric != "bleu":
        at.segmented_control(key="cp_metric").set_value(metric).run()
    at.segmented_control(key="cp_differ_view").set_value(view).run()
    ok(at)
    resolve = handlers[chart].args[1]       # on_select = partial(<the analysis' handler>, key, resolve)
    ids, text = resolve({"customdata": ["x", 1, 0]})[:2]
    assert ids and text.startswith(label), text
