"""The Corpus page with chrF as the metric (issue 23): each system's corpus chrF as sacreBLEU's
``CHRF.corpus_score`` (or NLTK's ``corpus_chrf``) computes it (:func:`explainer.corpus.chrf_report.chrf_report`),
the selected system's corpus statistics per order with the averaging worked out, the segments that differ most
from the baseline, the per-segment scores with each segment's Explain link (the chrF tab shows it step by step),
and the report download. The chrF settings are the sidebar's (:mod:`explainer.ui.chrf_settings`), in the link.

System names and texts reach markdown only through ``md_escape`` and tables as data; no user text reaches HTML.
"""
from __future__ import annotations

from functools import partial
from typing import Callable

import pandas as pd
import streamlit as st

from explainer.ui import chrf_settings as cs
from explainer.ui import chrf_view as cview
from explainer.ui import highlight as hl
from explainer.ui import settings as ms
from explainer.ui import traps_view
from explainer.ui.corpus import charts as cc
from explainer.ui.corpus import chrf_analyses as ca
from explainer.ui.corpus.common import (
    CHRF_SEGMENT_VIEW_FRAGMENT,
    CHRF_SEGMENTS_FRAGMENT,
    SEGMENT_FRAGMENTS,
    _app_run_if_needed,
    _apply_open_request,
    _explain_url,
    _on_segment_row,
    _plot,
)
from explainer.ui.corpus.reports import _Progress, scored
from explainer.ui.corpus.state import _sync_url

__all__ = ["render", "report", "segment_table", "scores_rows"]

MAX_TABLE_SEGMENTS = 5_000


def report(ts, ts_key: str, settings: cs.ChrfSettings):
    """The chrF report of this test set with these settings (shared by every session, as the other reports)."""
    from explainer.corpus.chrf_report import chrf_report

    def compute():
        p = _Progress("Scoring chrF")
        try:
            return chrf_report(ts, progress=p, **settings.kwargs())
        finally:
            p.done()

    return scored("chrf", (ts_key, tuple(ts.names), settings), compute, ts)


def _fmt(rep, x: float) -> str:
    return f"{x:.4f}" if rep.scale >= 100 else f"{x:.6f}"


def scores_rows(rep, b: int) -> list[dict]:
    """Per system: the corpus score (native scale), its difference to the baseline, the averaging's P and R."""
    base = rep.systems[b].trace.score
    out = []
    for s in rep.systems:
        c = s.trace.combination
        row = {"system": s.name, rep.d.metric_name: c.score, "Δ vs baseline": c.score - base}
        if c.avg_precision is not None:
            row["mean P"], row["mean R"] = c.avg_precision, c.avg_recall
        out.append(row)
    return out


def segment_table(rep, b: int, i: int, base_settings, only: list[int] | None = None) -> pd.DataFrame:
    """Each segment's score per system (and Δ to the baseline, the kept reference), with a link that opens the
    selected system's segment on the Explain page with the same chrF settings; ``only``: these 1-based segments."""
    from explainer.ui.dialects.chrf_part import explain_query

    df = pd.DataFrame(rep.segment_rows(b))
    df = (df.iloc[[k - 1 for k in only]] if only is not None else df).head(MAX_TABLE_SEGMENTS)
    lines = rep.testset.systems[i][1]
    df.insert(1, "explain", [_explain_url(explain_query(rep.dialect, rep.options, lines[k - 1],
                                                        rep.testset.references[k - 1], base=base_settings))
                             for k in df["segment"]])
    return df


def _headline(rep, b: int) -> None:
    row = st.container(horizontal=True, gap="medium", key="cp_chrf_headline")
    for s in rep.systems:
        with row:
            st.metric(hl.md_escape(f"{rep.d.metric_name} — {s.name}"), _fmt(rep, s.trace.score),
                      delta=None if s is rep.systems[b] else f"{s.trace.score - rep.systems[b].trace.score:+.4f} "
                                                              "vs baseline",
                      help=f"corpus {rep.d.metric_name}, exact value {s.trace.score!r}")


def _worked_out(rep, i: int) -> None:
    s = rep.systems[i]
    st.header("The corpus score worked out", anchor="chrf-worked-out")
    st.caption(hl.md_escape(f"{s.name}: " + s.trace.combination.explanation + "."))
    st.dataframe(pd.DataFrame(cview.table_rows(_order_rows(s.trace))), hide_index=True, width="stretch",
                 key="cp_chrf_orders")
    for f in cview.average_formulas(s.trace):
        st.latex(f)


def _order_rows(trace) -> list[dict]:
    from explainer.chrf.view import order_rows

    return order_rows(trace)


TESTS_KEY = "cp_chrf_tests"


def test_rows(res) -> list[dict]:
    """The paired test's result as sacreBLEU prints it: score, p-value (4 decimals) and the 95 % interval."""
    from explainer.ui.corpus.significance import p_value_text

    return [{"system": r.name, "score": r.score, "p-value": p_value_text(r.p_value), "mean": r.mean,
             "95% CI ±": r.ci} for r in res.systems]


def _tests(rep, b: int, ts_key: str) -> None:
    """sacreBLEU's PairedTest with chrF against the baseline (the BLEU view's controls: test, resamples, run)."""
    from explainer.corpus.significance import paired_test
    from explainer.errors import ExplainerInputError
    from explainer.ui.corpus.significance import PAGE_TEST_SECONDS, _test_controls

    st.header("Confidence and significance", anchor="significance")
    st.caption("Paired bootstrap or approximate randomization against the baseline, as sacreBLEU's PairedTest "
               "computes them with chrF (same seed, same numbers).")
    test, n, run = _test_controls(rep)
    key = _view_key(rep, b, ts_key) + (test, n)
    _matrix_and_one_system(rep, test, n, key)
    _restore_test(rep, b, key)
    store = st.session_state.setdefault(TESTS_KEY, {})
    if run:
        order = [b] + [j for j in range(len(rep.systems)) if j != b]
        p = _Progress("Paired bootstrap" if test == "bs" else "Approximate randomization")
        try:
            res = paired_test([(rep.systems[j].name, rep.statistic(j)) for j in order], test=test, n_samples=n,
                              faithful=rep.d.sacrebleu_significance, time_limit=PAGE_TEST_SECONDS,
                              progress=lambda f: p(f, f"{int(100 * f)} %"))
        except ExplainerInputError as e:
            st.error(hl.md_escape(str(e)))
            return
        finally:
            p.done()
        store.clear()       # one result kept: each holds its resamples
        store[key] = res
    # the test last run for this view (baseline, settings), whichever test the controls now show: the one the
    # scores chart's whiskers and the paper tables hold too
    res = _find_result(store, _view_key(rep, b, ts_key))
    if res is None:
        st.caption("Press “Run the test”: sacreBLEU's defaults are 1,000 bootstrap resamples and 10,000 AR trials.")
        return
    what = (f"Paired bootstrap, {res.n_samples:,} resamples" if res.test == "bs" else
            f"Approximate randomization, {res.n_samples:,} trials")
    st.markdown(hl.md_escape(f"{what}, seed {res.seed}" + ("." if key in store else
                                                           " (the test last run; press “Run the test” for the one "
                                                           "picked above).")))
    st.dataframe(pd.DataFrame(test_rows(res)), hide_index=True, width="stretch", key="cp_chrf_test_table")


def saved_tests(ss) -> list[dict]:
    """The chrF test of this test set as a saved comparison keeps it (with the dialect and options it was run
    with: restored only into the same view)."""
    out = []
    for key, res in ss.get(TESTS_KEY, {}).items():
        if key[0] == ss.get("cp_ts_key"):
            d = res.to_dict(with_samples=True)
            d.update(metric="chrf", baseline=res.systems[0].name, seconds=0.0, dialect=key[2], options=dict(key[3]))
            out.append(d)
    return out


def saved_settings(ss) -> dict[str, str]:
    """The chrF settings as the link writes them (those that differ from the library's defaults)."""
    from explainer.ui.corpus.link import CHRF_PARAMS, PAGE

    return PAGE.params({k: v for k, v in cs.view_values(ss).items() if k in CHRF_PARAMS})


def _restore_test(rep, b: int, key: tuple) -> None:
    """A restored comparison's chrF test goes where this view keeps its own, when it was run with this dialect,
    these options and this baseline."""
    from explainer.corpus.significance import PairedResult
    from explainer.ui.corpus.testset import RESTORED_TESTS

    pending = st.session_state.get(RESTORED_TESTS) or []
    for t in pending:
        if (t.get("metric") == "chrf" and t.get("baseline") == rep.names[b] and t.get("dialect") == rep.dialect
                and t.get("options") == rep.options):
            st.session_state.setdefault(TESTS_KEY, {}).clear()
            st.session_state[TESTS_KEY][key] = PairedResult.from_dict(t)
            pending.remove(t)
            return


def _view_key(rep, b: int, ts_key: str) -> tuple:
    """What a test's key starts with for this view: the test set, the systems, the dialect, its options and the
    baseline (then the test and its number of resamples)."""
    return ts_key, tuple(rep.names), rep.dialect, tuple(sorted(rep.options.items())), rep.names[b]


def _find_result(store: dict, view_key: tuple):
    """The paired test in ``store`` (the session's TESTS_KEY dict) run for this view, or None."""
    for key, res in list(store.items()):
        if key[:5] == view_key:
            return res
    return None


def _tests_result(rep, b: int, ts_key: str):
    """The paired test run for this view (baseline, settings), or None."""
    return _find_result(st.session_state.get(TESTS_KEY, {}), _view_key(rep, b, ts_key))


def _matrix_and_one_system(rep, test: str, n: int, key: tuple) -> None:
    """Every pair of systems (the p-value matrix and WMT-style clusters, as the BLEU view), or with one system
    sacreBLEU's bootstrap interval (``--confidence``)."""
    from explainer.ui.corpus.significance import _confidence_of_one_system, _pair_matrix_box

    faithful = rep.d.sacrebleu_significance
    if len(rep.systems) > 2:
        _pair_matrix_box(rep, "chrf", test, n, ("chrf",) + key[:-3], faithful=faithful, rouge_type=None,
                         measure="fmeasure")
    elif len(rep.systems) == 1:
        _confidence_of_one_system(rep, faithful)


def _traps(ts, ts_key: str, settings) -> None:
    """The classic traps of the test set under the chrF settings (kept for the last test set and settings)."""
    key = (ts_key, settings)
    kept = st.session_state.get("_cp_chrf_traps")
    if kept is None or kept[0] != key:
        kept = st.session_state["_cp_chrf_traps"] = (key, traps_view.corpus_traps(
            ts.systems, ts.references, ms.MetricSettings().replace(settings), families=[settings.family]))
    traps_view.show(kept[1])


def render(ts, ts_key: str, b: int, i: int, base_settings, save: Callable[[], None]) -> None:
    """The whole chrF view of the page (``b``: the baseline, ``i``: the system looked at; ``save``: the page's
    "Save this comparison" button, drawn with the downloads). As the BLEU view, a click reruns only the part it
    changes (issue 18): the tests, the analyses, and the segment table and view are fragments; every part above
    them is a container (one slot whatever it draws: Streamlit names a fragment by where it is drawn)."""
    settings = cs.read()
    with st.container():    # the report's progress bar, or an error
        try:
            rep = report(ts, ts_key, settings)
        except ValueError as e:
            st.error(hl.md_escape(str(e)), icon=":material/error:")
            return
        if rep is None:     # its scoring stopped (said above)
            return
    st.session_state[SEGMENT_FRAGMENTS] = (CHRF_SEGMENTS_FRAGMENT, CHRF_SEGMENT_VIEW_FRAGMENT)
    with st.container():
        _traps(ts, ts_key, settings)
    with st.container():
        chart_box = _scores(rep, b)
    with st.container():
        _worked_out(rep, i)
    with st.container():
        ca.corpus_vs_mean(rep, i)
    with st.container():
        _chrf_tests_fragment(rep, b, ts_key, chart_box)
    with st.container():
        _chrf_analysis_fragment(rep, b, i, ts_key)
    with st.container():
        _chrf_segments_fragment(rep, b, i, base_settings)
    with st.container():
        # the test is looked up when a table is downloaded, in the session's own store (a test run since then
        # redrew its own part only)
        store = st.session_state.setdefault(TESTS_KEY, {})
        ca.downloads(rep, b, partial(_find_result, store, _view_key(rep, b, ts_key)), save)


def _scores(rep, b: int):
    """The scores table, the signature and the report's warnings; the container of the scores chart (drawn by
    the tests' part, whose intervals it shows)."""
    st.header("Corpus scores", anchor="corpus-scores")
    _headline(rep, b)
    st.dataframe(pd.DataFrame(scores_rows(rep, b)), hide_index=True, width="stretch", key="cp_chrf_table")
    chart_box = st.container()
    st.code(f"{rep.d.metric_name} signature: {rep.signature}", language=None, wrap_lines=True)
    st.caption(hl.md_escape(f"{rep.d.label}; corpus {rep.d.metric_name} from the statistics of all "
                            f"{rep.n_segments:,} segments."))
    for w in sorted({w.message for s in rep.systems for w in s.trace.warnings}):
        st.warning(hl.md_escape(w), icon=":material/warning:")
    return chart_box


@st.fragment
def _chrf_tests_fragment(rep, b: int, ts_key: str, chart_box) -> None:
    """The paired test, then the scores chart above (its whiskers are the test's intervals): a test run reruns
    this part only and shows its result in both in one run."""
    _tests(rep, b, ts_key)
    with chart_box:
        tested = _tests_result(rep, b, ts_key)
        by = {x.name: x.ci for x in tested.systems} if tested is not None else {}
        _plot(cc.corpus_scores_figure(rep.names, [s.trace.score for s in rep.systems], metric=rep.d.metric_name,
                                      scale=rep.scale, ci=[by.get(n) for n in rep.names] if by else None),
              "cp_chrf_scores")
    _sync_url()     # the test and its number of resamples are in the link


@st.fragment
def _chrf_analysis_fragment(rep, b: int, i: int, ts_key: str) -> None:
    """Where the systems differ and every implementation: an analysis picked redraws this part only; a bar or row
    that lists segments redraws the segment table (``common._redraw``)."""
    _app_run_if_needed()
    with st.container():
        ca.differ(rep, b, i)
    with st.container():
        ca.implementations(rep, i, ts_key)


@st.fragment(key=CHRF_SEGMENTS_FRAGMENT)
def _chrf_segments_fragment(rep, b: int, i: int, base_settings) -> None:
    """The segment table and the segment view: a row picked or the filter cleared reruns this part only."""
    _apply_open_request()
    with st.container():
        _segment_table(rep, b, i, base_settings)
    with st.container():
        _chrf_segment_view_fragment(rep)


@st.fragment(key=CHRF_SEGMENT_VIEW_FRAGMENT)
def _chrf_segment_view_fragment(rep) -> None:
    """Previous / next, the segment number and a segment opened from a chart rerun the segment view only."""
    _apply_open_request()
    ca.segment_view(rep)
    _sync_url()     # the link follows the segment


def _segment_table(rep, b: int, i: int, base_settings) -> None:
    st.header("Segments", anchor="chrf-segments")
    only = ca.filtered(rep.n_segments)
    # previous / next walk the segments this table lists (all, or those a bar or row listed), not the rows the
    # BLEU view listed before a switch to chrF
    if only is None:
        st.session_state.pop("cp_visible_ids", None)
    else:
        st.session_state["cp_visible_ids"] = list(only[1])
    st.caption(hl.md_escape(f"Each segment's own {rep.d.metric_name} per system; “open” shows "
                            f"{rep.systems[i].name}'s segment step by step on the Explain page (chrF tab); a row "
                            "opens it in the segment view below."))
    table = segment_table(rep, b, i, base_settings, None if only is None else only[1])
    st.dataframe(table, hide_index=True, width="stretch", key="cp_chrf_segments", selection_mode="single-row",
                 on_select=partial(_on_segment_row, "cp_chrf_segments", [int(x) for x in table["segment"]],
                                   rep.names[i]),
                 column_config={"explain": st.column_config.LinkColumn("Explain", display_text="open")})
