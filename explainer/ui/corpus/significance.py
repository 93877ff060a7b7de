"""The Corpus page's confidence intervals and paired tests: sacreBLEU's own (``PairedTest``, ``--confidence``) on
every chosen measure's statistic, each against the baseline; the matrix of every pair and WMT-style clusters of
the measure looked at (in its direction: TER ranks the lowest first). Nothing here names a metric: what is
sacreBLEU's own and what is the project's extension is the measure's (``MetricColumn.faithful``).
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd
import streamlit as st

from explainer.errors import ExplainerInputError
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui.corpus import charts as cc
from explainer.ui.corpus.common import PAGE_MAX_RESAMPLES, PAGE_MAX_TEST_CELLS, plot
from explainer.ui.corpus.reports import ReportProgress
from explainer.ui.corpus.scores import column_results, p_value_text
from explainer.ui.corpus.testset import RESTORED_TESTS

__all__ = ["PAGE_TEST_SECONDS", "TESTS", "MATRICES", "significance_section", "restore_tests", "test_controls",
           "P_VALUE_WORDS", "saved_tests"]

PAGE_TEST_SECONDS = 120              # one test's time limit on the page (all the measures' tests together)
TESTS = "cp_tests"                   # {test key: {"result", "seconds", "test", "n"}}, the last few
MATRICES = "cp_matrices"             # {(test key, test, n): PairMatrix}, the last two
TESTS_KEPT = 12

P_VALUE_WORDS = """
**What the p-value says.** Suppose the two systems were equally good on test sets like this one. The p-value is
how often chance alone — resampling the segments (paired bootstrap, Koehn 2004) or randomly swapping the two
systems' outputs segment by segment (approximate randomization, Riezler & Maxwell 2005) — produces a difference in
corpus score at least as large as the one observed. A small p-value (conventionally below 0.05) means such a
difference would be rare if the systems were equally good.

**What it does not say.** It is not the probability that the systems are equally good, nor that the difference
matters to anyone: a tiny, useless difference on a large test set can be "significant". It says nothing about
other test sets, domains or references, and a large p-value is no proof that the systems are equal (the test set
may be too small). The tests resample *segments*; they do not account for the variance of training runs.

**Many comparisons.** With several systems, each compared with the baseline at 0.05, the chance that at least one
comparison looks significant by luck grows with their number ({k} comparisons here: up to {risk:.0%} if all
systems were equally good). Compare the p-values with 0.05 / {k} = {bonf:.4f} (Bonferroni) or report them all.
With several metrics each is tested on its own: the same caution holds per metric.
"""


def _store() -> dict:
    return st.session_state.setdefault(TESTS, {})


def _keep(key: tuple, result, seconds: float, col) -> None:
    """A measure's test under ``key``; with what a saved comparison needs to put it back (the family, the
    measure, the signature of the statistics it was run on)."""
    store = _store()
    store.pop(key, None)
    store[key] = {"result": result, "seconds": seconds, "test": result.test, "n": result.n_samples,
                  "metric": col.family, "measure": col.measure.key, "signature": col.signature}
    while len(store) > TESTS_KEPT:     # each holds its resamples: the last few only
        store.pop(next(iter(store)))


def restore_tests(chosen, baseline: str) -> None:
    """Results of a restored comparison go where the page keeps its own (the measure's key for this view), when
    they were run with the same dialect and options on this baseline."""
    from explainer.corpus.significance import PairedResult

    pending = st.session_state.get(RESTORED_TESTS)
    if not pending:
        return
    for fs in chosen:
        for col in fs.columns:
            for t in list(pending):
                if (t.get("metric") == col.family and t.get("measure", col.measure.key) == col.measure.key
                        and t.get("baseline") == baseline and t.get("signature", col.signature) == col.signature):
                    res = PairedResult.from_dict(t)
                    _keep(fs.test_key(col, baseline), res, float(t.get("seconds") or 0.0), col)
                    pending.remove(t)


def test_controls(n_segments: int, n_systems: int) -> tuple[str, int, bool]:
    """The test, its number of resamples or trials (bounded before any work) and whether to run it now."""
    ss = st.session_state
    c1, c2, c3 = st.columns([2, 1, 1])
    test = c1.radio("Test", ["bs", "ar"], key="cp_test", horizontal=True,
                    format_func=lambda t: "paired bootstrap (Koehn 2004)" if t == "bs" else
                    "approximate randomization (Riezler & Maxwell 2005)")
    nkey = f"cp_test_n_{test}"
    if nkey not in ss:
        ss[nkey] = 1000 if test == "bs" else 10000
    n = int(c2.number_input("Resamples" if test == "bs" else "Trials", min_value=1,
                            max_value=PAGE_MAX_RESAMPLES[test], step=100, key=nkey))
    too_big = n * n_segments > PAGE_MAX_TEST_CELLS
    if too_big:
        st.warning(f"{n:,} × {n_segments:,} segments is over the page's limit of {PAGE_MAX_TEST_CELLS:,} draws per "
                   f"test; use at most {PAGE_MAX_TEST_CELLS // n_segments:,} (or the command line).")
    one = n_systems < 2
    run = c3.button("Run the test", key="cp_run_test", type="primary", disabled=too_big or one)
    st.caption(f"Bounded: at most {PAGE_MAX_RESAMPLES[test]:,} {'resamples' if test == 'bs' else 'trials'}, "
               f"{PAGE_MAX_TEST_CELLS:,} draws (× segments) and {PAGE_TEST_SECONDS} s per test (every metric's "
               "together); the statistics of each segment are resampled, not the texts.")
    if one:
        st.info("A paired test needs two systems. With one system, the bootstrap interval below is sacreBLEU's "
                "`--confidence`.")
    return test, n, bool(run) and not too_big and not one


def _run(chosen, names: list[str], b: int, test: str, n: int) -> None:
    """Every measure's paired test against baseline ``b`` (one time limit for all), kept per measure."""
    from explainer.corpus.scoreboard import column_tests

    cols = [(fs, c) for fs in chosen for c in fs.columns if c.statistics() is not None]
    p = ReportProgress("Paired bootstrap" if test == "bs" else "Approximate randomization")
    t0 = time.perf_counter()
    try:
        for k, (fs, col) in enumerate(cols):
            left = max(0.0, PAGE_TEST_SECONDS - (time.perf_counter() - t0))
            t1 = time.perf_counter()
            res = column_tests(col, names, b, test=test, n_samples=n, time_limit=left,
                               progress=lambda f, _k=k, _label=col.label: p(
                                   (_k + f) / len(cols), f"{_label}: {int(100 * f)} % (time limit "
                                                         f"{PAGE_TEST_SECONDS} s)"))
            _keep(fs.test_key(col, names[b]), res, time.perf_counter() - t1, col)
    except ExplainerInputError as e:
        st.error(hl.md_escape(str(e)))
    finally:
        p.done()


def significance_section(chosen, focus_fs, focus_col, b: int) -> None:
    """The tests of every chosen measure against the baseline, the matrix of the measure looked at."""
    names = list(focus_fs.report.testset.names)
    st.header("Confidence and significance", anchor="significance")
    _caption(chosen)
    if focus_col.statistics() is None:
        st.info(hl.md_escape(focus_col.no_tests))
    restore_tests(chosen, names[b])
    test, n, run = test_controls(focus_fs.report.testset.n_segments, len(names))
    if run:
        _run(chosen, names, b, test, n)
    results = column_results(chosen, names[b])
    if len(names) > 2 and focus_col.statistics() is not None:
        _pair_matrix_box(focus_fs, focus_col, names, test, n)
    if not results and len(names) == 1 and focus_col.statistics() is not None:
        _confidence_of_one_system(focus_col, names)
    elif not results:
        st.caption("Press “Run the test”: sacreBLEU's defaults are 1,000 bootstrap resamples and 10,000 AR trials.")
    else:
        _results(chosen, focus_col, names, b, test, n)


def _caption(chosen) -> None:
    """Whose procedure the numbers are: sacreBLEU's own, or the project's extension of it, per measure."""
    own = [c.label for fs in chosen for c in fs.columns if c.faithful]
    ext = [c.label for fs in chosen for c in fs.columns if not c.faithful and c.statistics() is not None]
    parts = []
    if own:
        parts.append(f"{', '.join(own)}: sacreBLEU 2.6's own procedures (`sacrebleu/significance.py`), number for "
                     "number; seed from SACREBLEU_SEED (default 12345)")
    if ext:
        parts.append(f"{', '.join(ext)}: the project's own extension — sacreBLEU's paired bootstrap / approximate "
                     "randomization applied to this measure's statistics (for ROUGE the mean per-item F of the "
                     "type; no implementation has these tests)")
    st.caption(hl.md_escape(". ".join(parts) + "."))


def _pair_matrix_box(fs, col, names: list[str], test: str, n: int) -> None:
    """Every pair of systems under the chosen test (a p-value matrix) and WMT-style clusters, in an expander that
    keeps its state (it stays open after "Run the test on every pair": its result is drawn in the same run)."""
    from explainer.corpus.significance import pair_matrix

    store = st.session_state.setdefault(MATRICES, {})
    mkey = fs.test_key(col, "") + (test, n)
    box = st.expander(hl.md_escape(f"All systems against each other (every pair, WMT-style clusters): {col.label}"),
                      key="cp_matrix_open", on_change="rerun")
    if not box.open:
        return
    with box:
        pairs = len(names) * (len(names) - 1) // 2
        if st.button(f"Run the test on every pair ({pairs} pairs)", key="cp_run_matrix"):
            p = ReportProgress("Every pair")
            t0 = time.perf_counter()
            try:
                m = pair_matrix(list(zip(names, col.statistics())), test=test, n_samples=n, faithful=col.faithful,
                                higher_is_better=col.measure.higher_is_better,
                                progress=lambda f: p(f, f"{int(100 * f)} %"), time_limit=PAGE_TEST_SECONDS)
                store[mkey] = (m, time.perf_counter() - t0)
            except ExplainerInputError as e:
                st.error(hl.md_escape(str(e)))
            finally:
                p.done()
            while len(store) > 2:
                store.pop(next(iter(store)))
        got = store.get(mkey)
        if got is None:
            st.caption(f"The test above ({test}, {n:,}) run with each system as the baseline; bounded by the same "
                       f"{PAGE_TEST_SECONDS} s.")
            return
        _matrix(*got)


def _matrix(m, seconds: float) -> None:
    rows = [{"system": a, **{b: ("—" if i == j else f"{m.p[i][j]:.4f}") for j, b in enumerate(m.names)}}
            for i, a in enumerate(m.names)]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="cp_matrix_table")
    st.markdown(hl.md_escape("Clusters, best first: " + " > ".join("{" + ", ".join(c) + "}" for c in m.clusters)))
    st.caption(hl.md_escape(m.to_dict()["clustering"] + f"; {len(m.names) * (len(m.names) - 1) // 2} pairs in "
                            f"{seconds:.1f} s. Many pairs at 0.05: some differences are chance (see the note on "
                            "Bonferroni below)."))


def _confidence_of_one_system(col, names: list[str]) -> None:
    """One system: sacreBLEU's ``--confidence`` (bootstrap 95 % interval, 1,000 resamples) when asked."""
    from explainer.corpus.significance import bootstrap_confidence

    if st.button("Bootstrap 95 % confidence interval", key="cp_run_conf"):
        c = bootstrap_confidence(col.statistics()[0], 1000, faithful=col.faithful)
        st.markdown(hl.md_escape(f"{names[0]}: {c.score:.4f}, bootstrap mean {c.mean:.4f} ± {c.ci:.4f} (1,000 "
                                 f"resamples, seed {c.seed})"))
        plot(cc.bootstrap_figure([(names[0], c.resampled, c.score, c.ci)], metric=col.label), "cp_conf")


def _result_rows(res) -> pd.DataFrame:
    """A test's table; where the test gives no interval (AR without n_ar_confidence) a dash, never "None"."""
    rows = [{"system": s.name, "score": s.score, "p-value": p_value_text(s.p_value),
             "bootstrap mean": s.mean if s.mean is not None else "—", "95% CI ±": s.ci if s.ci is not None else "—",
             "significant at 0.05": "baseline" if s.p_value is None else ("yes" if s.p_value < 0.05 else "no")}
            for s in res.systems]
    return pd.DataFrame(rows)


def _results(chosen, focus_col, names: list[str], b: int, test: str, n: int) -> None:
    """Each measure's result (the measure looked at first): what was run, the table, sacreBLEU's signature; then
    what a p-value means and the charts of the measure looked at."""
    from explainer.corpus.significance import paired_signature

    store = _store()
    kept = [(c, store[fs.test_key(c, names[b])]) for fs in chosen for c in fs.columns
            if fs.test_key(c, names[b]) in store]
    kept.sort(key=lambda x: x[0] is not focus_col)
    for col, got in kept:
        res = got["result"]
        what = "Paired bootstrap" if res.test == "bs" else "Approximate randomization"
        unit = "resamples" if res.test == "bs" else "trials"
        last = ("" if (res.test, res.n_samples) == (test, n) else
                " (the test last run; press “Run the test” for the one picked above)")
        st.markdown(hl.md_escape(f"{col.label}: {what}, {res.n_samples:,} {unit}, seed {res.seed}, baseline "
                                 f"{res.systems[0].name} — computed in {got['seconds']:.2f} s{last}."))
        st.dataframe(_result_rows(res), hide_index=True, width="stretch", key=f"cp_test_table_{col.key}")
        if res.faithful:
            st.code(f"{col.label} signature: " + paired_signature(col.signature, res.test, res.n_samples, res.seed,
                                                                  res.n_ar_confidence), language=None,
                    wrap_lines=True)
    k = len(names) - 1
    st.markdown(P_VALUE_WORDS.format(k=k, risk=1 - 0.95 ** k, bonf=0.05 / max(k, 1)))
    focus = next((got["result"] for col, got in kept if col is focus_col), None)
    if focus is not None:
        _test_charts(focus, focus_col)


def _test_charts(res, col) -> None:
    """The resampled scores (bootstrap) and a system's null distribution with the observed difference."""
    if res.test == "bs":
        series = [(s.name, s.resampled if s.resampled is not None else np.array([]), s.score, s.ci)
                  for s in res.systems if s.resampled is not None]
        plot(cc.bootstrap_figure(series, metric=col.label), "cp_bs_dist")
    names = [s.name for s in res.systems[1:]]
    if names:
        ps.choice("cp_null_sys", names, names[0])   # another test's systems: the stored name may be none of these
        pick = st.selectbox("Null distribution of", names, key="cp_null_sys")
        s = res.systems[1 + names.index(pick)]
        if s.null_stats is not None:
            plot(cc.null_distribution_figure(s.null_stats, s.observed_diff, s.p_value, test=res.test, name=s.name,
                                             baseline=res.systems[0].name), "cp_null")


def saved_tests(store: dict, ts_key: str) -> list[dict]:
    """The tests of this test set as a saved comparison keeps them: each result with its resamples, the family,
    measure and signature it was run on and its baseline (``store``: the session's ``cp_tests``)."""
    out = []
    for key, got in list(store.items()):
        if len(key) < 3 or key[1] != ts_key:
            continue
        d = got["result"].to_dict(with_samples=True)
        d.update(metric=got.get("metric"), measure=got.get("measure"), signature=got.get("signature"),
                 baseline=got["result"].systems[0].name, seconds=got.get("seconds", 0.0))
        out.append(d)
    return out
