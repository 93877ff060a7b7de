"""The Corpus page's confidence intervals and paired tests (sacreBLEU's own where the dialect's are)."""
from __future__ import annotations

import time

import numpy as np
import pandas as pd
import streamlit as st

from explainer.errors import ExplainerInputError
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui.corpus import charts as cc
from explainer.ui.corpus.common import PAGE_MAX_RESAMPLES, PAGE_MAX_TEST_CELLS, _plot
from explainer.ui.corpus.reports import _TESTS_KEPT, _Progress, _tests_key
from explainer.ui.corpus.testset import RESTORED_TESTS

PAGE_TEST_SECONDS = 120              # one test's time limit on the page (the command line has none)


def _restore_tests(key: tuple, metric: str, baseline: str, rouge_type: str | None, measure: str) -> None:
    """Results of a restored comparison go where the page keeps its own (under this view's key)."""
    from explainer.corpus.significance import PairedResult

    ss = st.session_state
    pending = ss.get(RESTORED_TESTS)
    if not pending:
        return
    for t in pending:
        if (t.get("metric") == metric and t.get("baseline") == baseline
                and (metric == "bleu" or (t.get("rouge_type") == rouge_type and t.get("measure") == measure))):
            res = PairedResult.from_dict(t)
            ss.setdefault("cp_tests", {})[key] = {"result": res, "seconds": float(t.get("seconds") or 0.0),
                                                  "test": res.test, "n": res.n_samples}
            pending.remove(t)
            break


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
"""


def _significance_section(rep, rkey: tuple, metric: str, b: int, i: int, rouge_type: str | None = None,
                          measure: str = "fmeasure") -> None:
    st.header("Confidence and significance", anchor="significance")
    faithful = metric == "bleu" and rep.d.sacrebleu_significance
    _significance_caption(metric, faithful, rouge_type, measure)
    if metric == "bleu" and rep.d.needs_last_segment:
        st.info(f"Bootstrap and paired tests are not defined for the {rep.dialect} dialect: its corpus score depends "
                "on the last segment (NLTK's smoothing reads it), which resampling would change.")
        return
    test, n, run = _test_controls(rep)
    key = _tests_key(rkey, rep.names[b], rouge_type, measure)
    _restore_tests(key, metric, rep.names[b], rouge_type, measure)
    # the scores table above shows the p-values and intervals too: the fragment draws it after this section
    # (BLEU), and the downloads read the result when pressed, so no second run is needed (issue 18)
    if run and not _run_paired_test(rep, metric, b, test, n, key, faithful=faithful, rouge_type=rouge_type,
                                    measure=measure):
        return
    got = st.session_state.setdefault("cp_tests", {}).get(key)
    if len(rep.systems) > 2:
        _pair_matrix_box(rep, metric, test, n, key, faithful=faithful, rouge_type=rouge_type, measure=measure)
    if got is None and len(rep.systems) == 1 and metric == "bleu":
        _confidence_of_one_system(rep, faithful)
    elif got is None:
        st.caption("Press “Run the test”: sacreBLEU's defaults are 1,000 bootstrap resamples and 10,000 AR trials.")
    else:
        _test_result(rep, metric, got, faithful, rouge_type)


def p_value_text(p: float | None) -> str:
    """A p-value as sacreBLEU prints it (4 decimals); the baseline has none (it was shown as "None")."""
    return "— (baseline)" if p is None else f"{p:.4f}"


def _significance_caption(metric: str, faithful: bool, rouge_type: str | None, measure: str) -> None:
    """Whose procedure the numbers are: sacreBLEU's own, or the project's extension of it."""
    if metric == "bleu":
        st.caption("sacreBLEU 2.6's own procedures (`sacrebleu/significance.py`), number for number"
                   + ("" if faithful else " — applied here to this dialect's statistics: the project's own "
                                         "extension, no implementation of this dialect has them") +
                   ". Seed from SACREBLEU_SEED (default 12345).")
    else:
        st.caption(hl.md_escape(f"The project's own extension: sacreBLEU's paired bootstrap / approximate "
                                f"randomization applied to the mean per-item {measure} of {rouge_type} (no ROUGE "
                                "implementation has paired tests; the dialect's own intervals are in the scores "
                                "table)."))


def _test_controls(rep) -> tuple[str, int, bool]:
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
    S = rep.n_segments
    too_big = n * S > PAGE_MAX_TEST_CELLS
    if too_big:
        st.warning(f"{n:,} × {S:,} segments is over the page's limit of {PAGE_MAX_TEST_CELLS:,} draws per test; "
                   f"use at most {PAGE_MAX_TEST_CELLS // S:,} (or the command line).")
    one = len(rep.systems) < 2
    run = c3.button("Run the test", key="cp_run_test", type="primary", disabled=too_big or one)
    st.caption(f"Bounded: at most {PAGE_MAX_RESAMPLES[test]:,} {'resamples' if test == 'bs' else 'trials'}, "
               f"{PAGE_MAX_TEST_CELLS:,} draws (× segments) and {PAGE_TEST_SECONDS} s per test; the statistics of "
               "each segment are resampled, not the texts.")
    if one:
        st.info("A paired test needs two systems. With one system, the bootstrap interval below is sacreBLEU's "
                "`--confidence`.")
    return test, n, bool(run) and not too_big and not one


def _run_paired_test(rep, metric: str, b: int, test: str, n: int, key: tuple, *, faithful: bool,
                     rouge_type: str | None, measure: str) -> bool:
    """Run the test against baseline ``b`` with a progress bar and keep its result under ``key``; False (and the
    message shown) when the core refuses it."""
    from explainer.corpus.significance import paired_test

    order = [b] + [j for j in range(len(rep.systems)) if j != b]
    named = [(rep.systems[j].name, rep.statistic(j) if metric != "rouge" else rep.statistic(j, rouge_type, measure))
             for j in order]
    p = _Progress("Paired bootstrap" if test == "bs" else "Approximate randomization")
    t0 = time.perf_counter()
    try:
        res = paired_test(named, test=test, n_samples=n, faithful=faithful,
                          progress=lambda f: p(f, f"{int(100 * f)} % (time limit {PAGE_TEST_SECONDS} s)"),
                          time_limit=PAGE_TEST_SECONDS)
    except ExplainerInputError as e:
        st.error(hl.md_escape(str(e)))
        return False
    finally:
        p.done()
    store = st.session_state.setdefault("cp_tests", {})
    store.pop(key, None)
    store[key] = {"result": res, "seconds": time.perf_counter() - t0, "test": test, "n": n}
    while len(store) > _TESTS_KEPT:     # each holds its resamples: the last few only
        store.pop(next(iter(store)))
    return True


MATRICES = "cp_matrices"


def _pair_matrix_box(rep, metric: str, test: str, n: int, key: tuple, *, faithful: bool, rouge_type: str | None,
                     measure: str) -> None:
    """Every pair of systems under the chosen test (a p-value matrix) and WMT-style clusters."""
    from explainer.corpus.significance import pair_matrix

    ss = st.session_state
    store = ss.setdefault(MATRICES, {})
    mkey = key[1:] + (test, n)
    with st.expander("All systems against each other (every pair, WMT-style clusters)",
                     expanded=mkey in store):
        if st.button(f"Run the test on every pair ({len(rep.systems) * (len(rep.systems) - 1) // 2} pairs)",
                     key="cp_run_matrix"):
            named = [(s.name, rep.statistic(j) if metric != "rouge" else rep.statistic(j, rouge_type, measure))
                     for j, s in enumerate(rep.systems)]
            p = _Progress("Every pair")
            try:
                store[mkey] = pair_matrix(named, test=test, n_samples=n, faithful=faithful,
                                          progress=lambda f: p(f, f"{int(100 * f)} %"), time_limit=PAGE_TEST_SECONDS)
            except ExplainerInputError as e:
                st.error(hl.md_escape(str(e)))
            finally:
                p.done()
            while len(store) > 2:
                store.pop(next(iter(store)))
        m = store.get(mkey)
        if m is None:
            st.caption(f"The test above ({test}, {n:,}) run with each system as the baseline; bounded by the same "
                       f"{PAGE_TEST_SECONDS} s.")
            return
        rows = [{"system": a, **{b: ("—" if i == j else f"{m.p[i][j]:.4f}") for j, b in enumerate(m.names)}}
                for i, a in enumerate(m.names)]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        st.markdown(hl.md_escape("Clusters, best first: " + " > ".join("{" + ", ".join(c) + "}" for c in m.clusters)))
        st.caption(hl.md_escape(m.to_dict()["clustering"] + ". Many pairs at 0.05: some differences are chance "
                                "(see the note on Bonferroni below)."))


def _confidence_of_one_system(rep, faithful: bool) -> None:
    """One system: sacreBLEU's ``--confidence`` (bootstrap 95 % interval, 1,000 resamples) when asked."""
    from explainer.corpus.significance import bootstrap_confidence

    if st.button("Bootstrap 95 % confidence interval", key="cp_run_conf"):
        c = bootstrap_confidence(rep.statistic(0), 1000, faithful=faithful)
        st.markdown(hl.md_escape(f"{rep.systems[0].name}: {c.score:.4f}, bootstrap mean {c.mean:.4f} ± "
                                 f"{c.ci:.4f} (1,000 resamples, seed {c.seed})"))
        _plot(cc.bootstrap_figure([(rep.systems[0].name, c.resampled, c.score, c.ci)]), "cp_conf")


def _test_result(rep, metric: str, got: dict, faithful: bool, rouge_type: str | None) -> None:
    """A test's result: the table, sacreBLEU's signature, what the p-value means, the resampled scores and each
    system's null distribution with the observed difference."""
    res = got["result"]
    st.markdown(hl.md_escape(f"{'Paired bootstrap' if res.test == 'bs' else 'Approximate randomization'}, "
                             f"{res.n_samples:,} {'resamples' if res.test == 'bs' else 'trials'}, seed {res.seed}, "
                             f"baseline {res.systems[0].name} — computed in {got['seconds']:.2f} s."))
    rows = [{"system": s.name, "score": s.score, "p-value": p_value_text(s.p_value),
             "bootstrap mean": s.mean, "95% CI ±": s.ci,
             "significant at 0.05": "baseline" if s.p_value is None else ("yes" if s.p_value < 0.05 else "no")}
            for s in res.systems]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if metric == "bleu" and faithful:
        from explainer.corpus.significance import paired_signature

        st.code("signature: " + paired_signature(rep.signature, res.test, res.n_samples, res.seed,
                                                 res.n_ar_confidence), language=None, wrap_lines=True)
    k = len(res.systems) - 1
    st.markdown(P_VALUE_WORDS.format(k=k, risk=1 - 0.95 ** k, bonf=0.05 / max(k, 1)))
    if res.test == "bs":
        series = [(s.name, s.resampled if s.resampled is not None else np.array([]), s.score, s.ci)
                  for s in res.systems if s.resampled is not None]
        _plot(cc.bootstrap_figure(series, metric="BLEU" if metric == "bleu" else rouge_type), "cp_bs_dist")
    names = [s.name for s in res.systems[1:]]
    if names:
        ps.choice("cp_null_sys", names, names[0])   # another test's systems: the stored name may be none of these
        pick = st.selectbox("Null distribution of", names, key="cp_null_sys")
        s = res.systems[1 + names.index(pick)]
        if s.null_stats is not None:
            _plot(cc.null_distribution_figure(s.null_stats, s.observed_diff, s.p_value, test=res.test, name=s.name,
                                              baseline=res.systems[0].name), "cp_null")
