"""The Corpus page's chrF analyses (issue 23): every analysis of the view runs, the n-grams' matched counts are
sacreBLEU's own statistics, the p-value matrix is sacreBLEU's PairedTest with each system as the baseline, every
implementation's corpus score is sacreBLEU's ``CHRF.corpus_score`` / NLTK's ``corpus_chrf``, and a click lists
segments in the segment table. Expected numbers computed here with the libraries."""
from __future__ import annotations

import numpy as np
import pytest
from nltk.translate.chrf_score import corpus_chrf
from sacrebleu.metrics import CHRF

from explainer.corpus.samples import load_sample
from tests.ui_driver import BrowserLikeApp


def _streams(ts):
    return [[refs[j] for refs in ts.references] for j in range(len(ts.references[0]))]


def _frame(app, column: str):
    return next(d.value for d in app.at.dataframe if column in d.value.columns)


@pytest.fixture(scope="module")
def app():
    return BrowserLikeApp({"sample": "news-en", "metric": "chrf", "chrf_sacrebleu_word_order": "2"}, page="corpus")


def test_every_analysis_runs_and_only_chrfs_own(app):
    """chrF's analyses: the generic ones and its n-grams; BLEU's own (precision by order, length ratio, word
    accuracy) are not offered for chrF."""
    views = list(app.at.segmented_control(key="cp_differ_view").options)
    assert views == ["Length buckets", "Largest deltas", "Segment scores", "Sentence buckets", "N-grams"]
    for view in views:
        app.select("cp_differ_view", view, kind="segmented_control")
        assert not app.exceptions, (view, app.exceptions)


def test_ngram_matches_are_sacrebleus_statistics(app):
    ts = load_sample("news-en")
    app.select("cp_differ_view", "N-grams", kind="segmented_control")
    m = CHRF(word_order=2)
    names = list(ts.names)
    i, b = names.index(app.at.selectbox(key="cp_system").value), names.index(app.at.selectbox(key="cp_baseline").value)
    for order in (5, 6):                     # character 6-grams and word unigrams (chrF++)
        app.select("cp_chrf_ngram_order", order)
        assert not app.exceptions
        caption = " ".join(c.value for c in app.at.caption)
        for j in (i, b):
            stats = np.array(m._extract_corpus_statistics(list(ts.systems[j][1]), _streams(ts))).sum(axis=0)
            assert f"{int(stats[3 * order + 2]):,}" in caption, (order, j)


def test_the_p_value_matrix_is_pairedtest_with_each_baseline(monkeypatch):
    from sacrebleu.significance import PairedTest

    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf"}, page="corpus")
    app.set("number_input", "cp_test_n_bs", 100)
    app.at.session_state["cp_matrix_open"] = True       # the expander opened
    app.run()
    app.click("cp_run_matrix")
    assert not app.exceptions, app.exceptions
    ts = load_sample("news-en")
    table = _frame(app, "system").to_dict("records")
    matrix = next(d.value for d in app.at.dataframe if set(ts.names) <= set(d.value.columns)).to_dict("records")
    assert table
    systems = [(n, list(h)) for n, h in ts.systems]
    for k in range(len(systems) - 1):
        _, res = PairedTest(systems[k:], {"chrf": CHRF()}, _streams(ts), test_type="bs", n_samples=100)()
        (metric,) = [x for x in res if x != "System"]
        for name, r in zip([n for n, _ in systems[k + 1:]], res[metric][1:]):
            row = next(x for x in matrix if x["system"] == systems[k][0])
            assert row[name] == f"{r.p_value:.4f}", (systems[k][0], name)


def test_every_implementation_is_the_libraries_corpus_score_and_lists_the_first_segment():
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf"}, page="corpus")
    app.at.session_state["cp_sec_implementations"] = True       # the section opened
    app.run()
    app.click("cp_impl_chrf_run")
    assert not app.exceptions, app.exceptions
    ts = load_sample("news-en")
    lines = list(ts.systems[list(ts.names).index(app.at.selectbox(key="cp_system").value)][1])
    rows = {r["implementation"]: r for r in _frame(app, "implementation").to_dict("records")}
    for label, opts in (("sacreBLEU chrF2", {}), ("sacreBLEU chrF2++", {"word_order": 2}),
                        ("sacreBLEU chrF2, eps smoothing", {"eps_smoothing": True})):
        assert rows[label]["as the library reports it"] == pytest.approx(
            CHRF(**opts).corpus_score(lines, _streams(ts)).score, abs=1e-9)
    refs = [list(r) for r in ts.references]
    assert rows["NLTK chrF (β = 3)"]["as the library reports it"] == pytest.approx(corpus_chrf(refs, lines), abs=1e-12)
    assert rows["NLTK chrF, β = 2"]["as the library reports it"] == pytest.approx(corpus_chrf(refs, lines, beta=2),
                                                                                  abs=1e-12)
    app.select("cp_impl_chrf_b", "nltk")
    assert not app.exceptions
    app.click("cp_impl_chrf_open")                  # sacreBLEU and NLTK part at segment 1: its references
    seg = next(d.value for d in app.at.dataframe if "reference 1" in d.value.columns)
    assert list(seg["segment"]) == [1]
    app.click("cp_clear_filter")
    seg = next(d.value for d in app.at.dataframe if "reference 1" in d.value.columns)
    assert len(seg) == 100           # the table's first page of every segment
    assert any("300 of 300 segments" in c.value for c in app.at.caption)


def test_corpus_against_the_mean_of_segment_scores():
    ts = load_sample("news-en")
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf"}, page="corpus")
    app.at.session_state["cp_sec_corpus_vs_mean"] = True       # the section opened
    app.run()
    rows = {r["system"]: r for r in _frame(app, "mean of segment scores").to_dict("records")}
    for name, lines in ts.systems:
        want = np.mean([CHRF().sentence_score(h, list(r)).score for h, r in zip(lines, ts.references)])
        assert rows[name]["mean of segment scores"] == pytest.approx(want, abs=1e-9)
        assert rows[name]["corpus"] == pytest.approx(CHRF().corpus_score(list(lines), _streams(ts)).score, abs=1e-9)


def test_the_corpus_pages_claim_box_searches_a_chrf_claim():
    """The "Which settings give …?" box said chrF was not searched (the core and the CLI search it)."""
    ts = load_sample("news-en")
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf"}, page="corpus")
    name = app.at.selectbox(key="cp_system").value
    lines = list(ts.systems[list(ts.names).index(name)][1])
    want = CHRF(word_order=2).corpus_score(lines, _streams(ts)).score
    app.at.text_input(key="cp_rep_claim").set_value(f"chrF++ {want:.2f}")
    app.at.selectbox(key="cp_rep_metric").set_value("chrf")
    app.at.button[[b.label for b in app.at.button].index("Search")].click().run()
    assert not app.exceptions, app.exceptions
    assert app.at.success and "reproduced" in app.at.success[0].value
    rows = _frame(app, "configuration").to_dict("records")
    assert any(r["as printed by"] == pytest.approx(want, abs=1e-9) for r in rows)


@pytest.mark.parametrize("fmt,test", [("markdown", None), ("latex", "bs")])
def test_the_paper_tables_are_what_compare_writes(fmt, test, capsys, monkeypatch):
    """The chrF view's LaTeX / Markdown downloads equal ``compare --metric chrf --format ...`` on the same files
    (with the paired bootstrap run on the page: its p-values, intervals and sacreBLEU's paired signature)."""
    from explainer.cli import main
    from explainer.corpus.chrf_report import chrf_report
    from explainer.corpus.samples import HERE, SAMPLES
    from explainer.corpus.significance import paired_test

    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    s = SAMPLES["news-en"]
    rep = chrf_report(load_sample("news-en"), word_order=2)
    res = None if test is None else paired_test([(x.name, rep.statistic(j)) for j, x in enumerate(rep.systems)],
                                                test="bs", n_samples=100, faithful=True)
    argv = ["compare", "--metric", "chrf", "--word-order", "2", "--format", fmt]
    argv += [a for r in s.references for a in ("--ref", str(HERE / "news-en" / r))]
    argv += [a for f in s.systems for a in ("--system", f"{f[:-4]}={HERE / 'news-en' / f}")]
    argv += ["--paired-bs", "--paired-bs-n", "100"] if test else []
    assert main(argv) == 0
    assert _page_table(rep, res, fmt) == capsys.readouterr().out


def _page_table(rep, res, fmt):
    """The page's paper table for the chrF report ``rep`` with the test ``res`` (its store holds it)."""
    from explainer.chrf.family import CHRF
    from explainer.corpus.scoreboard import columns_of
    from explainer.ui.corpus.downloads import paper_table
    from explainer.ui.corpus.reports import FamilyScores

    scores = rep.corpus_scores()
    fs = FamilyScores(None, rep, rep.d, ("chrf",), columns_of(CHRF, rep.d, scores), scores)
    store = {} if res is None else {fs.test_key(fs.columns[0], rep.names[0]): {"result": res}}
    return paper_table([fs], store, 0, fmt)


def _final(app) -> float:
    """The score the segment view's last formula ends on (``… = 57.224``, as the Explain page's chrF tab writes it)."""
    import re

    (code,) = [c.value for c in app.at.code if "signature" in c.value and " = " in c.value]
    return float(re.search(r"= ([0-9.]+)\n", code).group(1))


def test_the_segment_view_shows_a_segments_chrf_step_by_step():
    """A segment opens in the page as under BLEU (``seg`` / ``seg_system`` in the link): its chrF steps, ending on
    sacreBLEU's sentence score of that segment with the page's settings."""
    ts = load_sample("news-en")
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf", "chrf_sacrebleu_word_order": "2", "seg": "5",
                          "seg_system": "small-model"}, page="corpus")
    assert not app.exceptions, app.exceptions
    lines = dict(ts.systems)["small-model"]
    want = CHRF(word_order=2).sentence_score(lines[4], list(ts.references[4])).score
    assert _final(app) == pytest.approx(want, abs=5e-5)
    app.click("cp_next")
    assert not app.exceptions and app.query["seg"] == ["6"]
    want = CHRF(word_order=2).sentence_score(lines[5], list(ts.references[5])).score
    assert _final(app) == pytest.approx(want, abs=5e-5)
    assert _final(app.reopen()) == pytest.approx(want, abs=5e-5)


def test_the_scores_chart_shows_the_paired_tests_intervals(monkeypatch):
    """As under BLEU, the corpus scores chart gets the 95 % half-widths of the test run on the page (sacreBLEU's
    PairedTest with CHRF, computed here)."""
    import json

    from sacrebleu.significance import PairedTest

    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    ts = load_sample("news-en")
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf"}, page="corpus")
    app.set("number_input", "cp_test_n_bs", 100)
    app.click("cp_run_test")
    assert not app.exceptions, app.exceptions
    bars = [d for c in app.at.get("plotly_chart") for d in json.loads(c.proto.spec)["data"] if d.get("error_y")]
    _, res = PairedTest([(n, list(h)) for n, h in ts.systems], {"chrf": CHRF()}, _streams(ts), test_type="bs",
                        n_samples=100)()
    (metric,) = [x for x in res if x != "System"]
    assert bars and bars[0]["error_y"]["array"] == pytest.approx([r.ci for r in res[metric]], abs=1e-6)


def test_one_system_gets_sacrebleus_bootstrap_interval(monkeypatch):
    """One system (no paired test): the chrF view offers sacreBLEU's ``--confidence``, as the BLEU view does (it
    said "the bootstrap interval below" and showed none); = ``CHRF().corpus_score(..., n_bootstrap=1000)``."""
    from tests.test_ui_corpus import new_page

    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    ts = load_sample("news-en")
    hyps, r1 = list(ts.systems[0][1][:60]), [r[0] for r in ts.references[:60]]
    at = new_page()
    at.radio(key="cp_source").set_value("Paste").run()
    at.text_area(key="cp_paste_ref_0").set_value("\n".join(r1))
    at.text_area(key="cp_paste_sys_0").set_value("\n".join(hyps))
    at.button(key="cp_load_paste").click().run()
    at.segmented_control(key="cp_metric").set_value("chrf").run()
    at.button(key="cp_run_conf").click().run()
    assert not at.exception
    want = CHRF().corpus_score(hyps, [r1], n_bootstrap=1000)
    line = next(m.value for m in at.markdown if "bootstrap mean" in m.value).replace("\\", "")
    assert f"{want.score:.4f}, bootstrap mean {want._mean:.4f} ± {want._ci:.4f}" in line


def test_a_saved_chrf_comparison_restores_its_settings_view_and_test(monkeypatch):
    """The chrF view saves a comparison as the BLEU view does: restored, it shows chrF2++ (its settings), the same
    baseline and the paired test's p-values (PairedTest's) without running the test again."""
    from sacrebleu.significance import PairedTest

    from explainer.ui import settings as ms
    from explainer.ui.corpus.saving import saved_comparison
    from tests.test_ui_corpus import new_page

    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf", "chrf_sacrebleu_word_order": "2",
                          "baseline": "new-model"}, page="corpus")
    app.set("number_input", "cp_test_n_bs", 100)
    app.click("cp_run_test")
    assert not app.exceptions and app.has("download_button", "cp_dl_saved")
    ss = dict(app.at.session_state.to_dict())
    ss[ms.SESSION_KEY] = app.at.session_state[ms.SESSION_KEY]
    data = saved_comparison(ss).encode()
    again = new_page()
    again.radio(key="cp_source").set_value("Saved comparison").run()
    again.file_uploader(key="cp_up_saved").set_value(("c.json", data, "application/json"))
    again.run()
    again.button(key="cp_load_saved").click().run()
    assert not again.exception, [e.value for e in again.exception]
    ts = load_sample("news-en")
    named = [(n, list(dict(ts.systems)[n])) for n in ("new-model", "baseline", "small-model")]
    _, res = PairedTest(named, {"chrf": CHRF(word_order=2)}, _streams(ts), test_type="bs", n_samples=100)()
    (metric,) = [x for x in res if x != "System"]
    table = {r["system"]: r for r in next(d.value for d in again.dataframe if "p-value" in d.value.columns)
             .to_dict("records")}
    for (name, _), want in zip(named, res[metric]):
        assert table[name]["score"] == want.score
        assert table[name]["p-value"] == ("— (baseline)" if want.p_value is None else f"{want.p_value:.4f}")
    assert any(m.label.replace("\\", "").startswith("chrF2++ — ") for m in again.metric)
    # the scores chart above the tests shows the restored intervals in the same run
    import json

    bars = [d for c in again.get("plotly_chart") for d in json.loads(c.proto.spec)["data"] if d.get("error_y")]
    assert bars
    shown = dict(zip(bars[0]["x"], bars[0]["error_y"]["array"]))
    assert shown == pytest.approx({name: want.ci for (name, _), want in zip(named, res[metric])}, abs=1e-6)


def test_length_buckets_are_corpus_chrf_of_each_buckets_segments(app):
    """Buckets of about equal size by reference 1's characters; each bucket's score is sacreBLEU's corpus chrF of
    its segments alone (``CHRF.corpus_score`` on them), every system."""
    ts = load_sample("news-en")
    app.select("cp_differ_view", "Length buckets", kind="segmented_control")
    assert not app.exceptions, app.exceptions
    df = _frame(app, "reference length")
    assert (df["segments"] > 0).all() and df["segments"].sum() == ts.n_segments
    chrf = CHRF(word_order=2)
    lengths = np.array([len(r[0]) for r in ts.references])
    edges = sorted({int(np.ceil(q)) for q in np.percentile(lengths, [20, 40, 60, 80]) if q > 0})
    bounds = [0] + edges + [None]
    for name, lines in ts.systems:
        want = []
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            idx = [k for k in range(ts.n_segments) if lengths[k] >= lo and (hi is None or lengths[k] < hi)]
            if idx:
                refs = [[ts.references[k][j] for k in idx] for j in range(2)]
                want.append(chrf.corpus_score([lines[k] for k in idx], refs).score)
        assert list(df[name]) == pytest.approx(want, abs=1e-9), name
