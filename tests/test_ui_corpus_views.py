"""The Corpus page's views agree with each other and say what they count (issue 33, items 5 and 8): one definition
of a segment's score everywhere, named on every chart; a test without an interval shows a dash, never "None"; the
labels of six systems' bootstrap distributions do not overlap; several metrics in the scores table, each with its
own test (issue 29, item 3), for every registered family. Expected numbers from sacreBLEU, computed here."""
from __future__ import annotations

import json

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, TER
from sacrebleu.significance import PairedTest

from explainer.corpus.samples import load_sample
from explainer.families import FAMILIES
from tests.test_ui_corpus import load_sample_page, ok, plain, scores_table


def _streams(ts):
    return [list(s) for s in zip(*ts.references)]


@pytest.mark.parametrize("metric", ["bleu", "ter"])
def test_largest_deltas_and_segment_scores_count_one_definition_and_name_it(metric):
    """Lan-Bridge vs JDExploreAcademy: "Largest deltas" said better/worse/equal 687/838/512, the "Segment scores"
    legend 687/835/515 (two sentence-BLEU definitions; the scatter did not say which). Both count the family's
    segment score now, and both charts name it."""
    at = load_sample_page()
    if metric != "bleu":
        at.segmented_control(key="cp_metric").set_value(metric).run()
    ts = load_sample("news-en")
    scorer = {"bleu": lambda: BLEU(), "ter": lambda: TER()}[metric]()
    base, other = ts.system("baseline"), ts.system("new-model")
    gain = np.array([scorer.sentence_score(o, r).score - scorer.sentence_score(b, r).score
                     for b, o, r in zip(base, other, ts.references)])
    if metric == "ter":
        gain = -gain                                  # an error rate: lower is better
    want = (int((gain > 0).sum()), int((gain < 0).sum()), int((gain == 0).sum()))
    at.segmented_control(key="cp_differ_view").set_value("Largest deltas").run()
    words = next(plain(m.value) for m in ok(at).markdown if "is better than" in plain(m.value))
    assert f"on {want[0]:,} segments, worse on {want[1]:,}, equal on {want[2]:,}" in words
    name = FAMILIES[metric].segment_score_name(FAMILIES[metric].bind())

    def chart(start: str) -> dict:
        figs = [json.loads(c.proto.spec) for c in ok(at).get("plotly_chart")]
        return next(f for f in figs if f["layout"].get("title", {}).get("text", "").startswith(start))

    hist = chart("Δ segment score")
    assert name in hist["layout"]["title"]["text"]
    at.segmented_control(key="cp_differ_view").set_value("Segment scores").run()
    scatter = chart("Segment scores:")
    legend = [t["name"] for t in scatter["data"]]
    assert legend == [f"better ({want[0]})", f"worse ({want[1]})", f"equal ({want[2]})"]
    assert name in scatter["layout"]["title"]["text"]


def test_an_ar_test_shows_dashes_where_it_has_no_interval():
    """AR tables showed literal "None" cells (AR gives no interval unless n_ar_confidence)."""
    at = load_sample_page()
    at.radio(key="cp_test").set_value("ar").run()
    at.number_input(key="cp_test_n_ar").set_value(500).run()
    at.button(key="cp_run_test").click().run()
    res = next(d.value for d in ok(at).dataframe if "p-value" in d.value.columns and "bootstrap mean" in
               d.value.columns)
    cells = [str(v) for v in res.to_numpy().ravel()]
    assert "None" not in cells and "nan" not in cells
    assert set(res["bootstrap mean"]) == {"—"} and set(res["95% CI ±"]) == {"—"}


def test_six_systems_bootstrap_labels_do_not_overlap():
    """The observed scores of six systems within a point of each other were six labels written on the chart at
    almost the same place; each is in the legend now, with its value."""
    from explainer.ui.corpus.charts import bootstrap_figure

    rng = np.random.default_rng(0)
    series = [(f"system-{k}", rng.normal(30 + 0.1 * k, 1.0, 1000), 30 + 0.1 * k, 1.9) for k in range(6)]
    fig = json.loads(bootstrap_figure(series).to_json())
    assert not fig["layout"].get("annotations")
    names = [t["name"] for t in fig["data"]]
    assert names == [f"system-{k}: observed {30 + 0.1 * k:.2f}" for k in range(6)] and len(set(names)) == 6
    assert fig["layout"].get("showlegend") is not False


def test_several_metrics_each_with_its_own_test(monkeypatch):
    """BLEU looked at, chrF and TER also in the scores table: a column each, each tested against the baseline
    (PairedTest with that metric), and the paper tables hold every column."""
    from streamlit.delta_generator import DeltaGenerator

    from explainer.corpus.tables import latex_signature

    made = {}
    real = DeltaGenerator.download_button

    def spy(self, label, data, *args, **kwargs):      # the buttons are drawn in columns
        made[kwargs.get("key")] = data
        return real(self, label, data, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", spy)
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    at = load_sample_page()
    at.multiselect(key="cp_also").set_value(["chrf", "ter"]).run()
    at.number_input(key="cp_test_n_bs").set_value(150).run()
    at.button(key="cp_run_test").click().run()
    df = scores_table(ok(at)).set_index("system")
    ts = load_sample("news-en")
    from sacrebleu.metrics import CHRF

    for label, metric in (("BLEU", BLEU()), ("chrF2", CHRF()), ("TER", TER())):
        sigs, res = PairedTest(list(ts.systems), {label: metric}, _streams(ts), test_type="bs", n_samples=150)()
        for r, (name, _) in zip(res[label], ts.systems):
            assert df[label][name] == r.score
            assert df[f"{label} p-value"][name] == ("— (baseline)" if r.p_value is None else f"{r.p_value:.4f}")
        assert latex_signature(sigs[label].format()) in made["cp_dl_latex"]()
    assert "BLEU$^{a}$ & chrF2$^{b}$ & TER$^{c}$" in made["cp_dl_latex"]()


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_registered_family_can_be_looked_at(family):
    """Every registered family opens on the page (the semantic scores will be one more): its scores, the generic
    analyses, its segment table; a test with it."""
    at = load_sample_page()
    at.segmented_control(key="cp_metric").set_value(family).run()
    ok(at)
    views = list(at.segmented_control(key="cp_differ_view").options)
    assert views[:4] == ["Length buckets", "Largest deltas", "Segment scores", "Sentence buckets"]
    for v in views:
        at.segmented_control(key="cp_differ_view").set_value(v).run()
        ok(at)
    at.number_input(key="cp_test_n_bs").set_value(100).run()
    at.button(key="cp_run_test").click().run()
    assert any("p-value" in d.value.columns for d in ok(at).dataframe)


def test_a_click_on_the_analysis_shown_keeps_it_shown():
    """A click on the selected option of the analysis control deselects it: the page showed the first analysis
    instead (the browser test switching to ROUGE with "Segment scores" kept then clicking it got the length
    buckets). The analysis shown stays, and the control says so."""
    at = load_sample_page()
    at.segmented_control(key="cp_differ_view").set_value("Segment scores").run()
    at.segmented_control(key="cp_differ_view").set_value(None).run()
    ok(at)
    assert at.segmented_control(key="cp_differ_view").value == "Segment scores"
    titles = [json.loads(c.proto.spec)["layout"].get("title", {}).get("text", "")
              for c in at.get("plotly_chart")]
    assert any(t.startswith("Segment scores:") for t in titles), titles
