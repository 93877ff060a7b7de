"""The Corpus page's link in and out (what a link says: :mod:`explainer.ui.corpus.link`) and the share box."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import streamlit as st

from explainer.corpus.samples import SAMPLES, load_sample
from explainer.ui import settings as metric_settings
from explainer.ui.corpus import link as corpus_link
from explainer.ui.corpus.common import (
    FIRST_ANALYSIS,
    PAGE_MAX_RESAMPLES,
    PAGE_MAX_TEST_CELLS,
    base_url,
    copt_key,
    shown_names,
)
from explainer.ui.corpus.link import DEFAULT_METRIC, PAGE
from explainer.ui.corpus.testset import sample_settings, set_testset

__all__ = ["link_in", "link_now", "sync_url", "share_box", "METRIC_KEY", "ALSO_KEY", "MEASURE_KEY", "focus_metric",
           "chosen_metrics"]

METRIC_KEY = "cp_metric"        # the family looked at closely
ALSO_KEY = "cp_also"            # the other families in the scores table
MEASURE_KEY = "cp_measure"      # the measure of that family (a ROUGE type)


def focus_metric(ss=None) -> str:
    """The family looked at closely (a stored value that is no family: the first one)."""
    from explainer.families import FAMILIES

    ss = st.session_state if ss is None else ss
    v = ss.get(METRIC_KEY)
    return v if v in FAMILIES else DEFAULT_METRIC


def chosen_metrics(ss=None) -> list[str]:
    """The families of the scores table: the one looked at, then the others chosen (registry order)."""
    from explainer.families import FAMILIES

    ss = st.session_state if ss is None else ss
    focus = focus_metric(ss)
    also = ss.get(ALSO_KEY) or []
    return [focus] + [f for f in FAMILIES.names() if f in also and f != focus]


def _sample_info(sid: str) -> tuple[list[str], int]:
    ts = load_sample(sid)
    return list(ts.names), ts.n_segments


def _parse(params: dict):
    return corpus_link.parse_link(params, samples=SAMPLES, sample_info=_sample_info, max_n=PAGE_MAX_RESAMPLES,
                                  max_cells=PAGE_MAX_TEST_CELLS)


def link_in() -> None:
    """Before any widget is drawn: a link (the URL, when it is not the one this page last wrote) sets the sample,
    the settings and the view; bad values and unknown parameters become warnings (the canonical link written at
    the end of the run drops them from the address bar). Back from another page (the navigation drops the
    query), the view is put back as the page left it, with the settings the other pages have now."""
    ss = st.session_state
    params, bare = PAGE.link()
    if params is None:
        return
    if not params:      # the page's first load without a link (a link over the server's limits: said by the engine)
        PAGE.loaded([])
        return
    link = _parse(params)
    if bare:
        _apply_view(link, metric_settings.current_settings()[0])
        return
    loaded = False
    if link.sample is not None and (ss.get("cp_ts") is None or ss.get("cp_ts_sample") != link.sample):
        ss["cp_sample"] = link.sample
        set_testset(load_sample(link.sample), SAMPLES[link.sample].title, sample=link.sample)
        loaded = True
    if link.settings is not None:
        metric_settings.put_settings(link.settings)
    elif loaded:
        sample_settings(link.sample)
    _apply_view(link, link.settings or metric_settings.current_settings()[0])
    PAGE.loaded(link.warnings)


def _apply_view(link, settings) -> None:
    """The link's metrics, systems, segment, test and corpus options into the widgets' keys (before they are
    drawn). System names in a link are the sample's own; the page shows the names the user gave them."""
    ss = st.session_state
    if link.metric:
        ss[METRIC_KEY] = link.metric
    if link.also is not None:
        ss[ALSO_KEY] = [f for f in link.also if f != focus_metric(ss)]
    if link.measure:
        ss[MEASURE_KEY] = link.measure
    if link.analysis:
        ss["cp_differ_view"] = link.analysis
    ts = ss.get("cp_ts")
    if link.sample is not None and ts is not None and ss.get("cp_ts_sample") == link.sample:
        own = list(ts.names)

        def shown(name: str) -> str:
            return shown_names(own)[own.index(name)]

        if link.baseline:
            ss["cp_baseline"] = shown(link.baseline)
        if link.system:
            ss["cp_system"] = shown(link.system)
        if link.seg_system or link.system:
            ss["cp_view_sys"] = shown(link.seg_system or link.system)
        if link.seg:
            ss["cp_seg"] = link.seg
    if link.test:
        ss["cp_test"] = link.test
    if link.n is not None:
        ss[f"cp_test_n_{link.test or 'bs'}"] = link.n
    family = focus_metric(ss)
    for name, v in link.agg.items():
        ss[copt_key(family, settings[family].dialect, name)] = v


def link_now() -> dict[str, str]:
    """This view's link (from the widgets' state: callable in a fragment's run too)."""
    ss = st.session_state
    settings = metric_settings.stored_settings() or metric_settings.default_settings()
    metric = focus_metric(ss)
    ts = ss.get("cp_ts")
    sample = ss.get("cp_ts_sample") if ts is not None and ss.get("cp_ts_sample") in SAMPLES else None
    kw: dict[str, Any] = {}
    if sample is not None:
        own = list(ts.names)
        shown = shown_names(own)

        def link_name(key: str) -> str | None:
            v = ss.get(key)
            return own[shown.index(v)] if v in shown else None

        test = ss.get("cp_test") if ss.get("cp_test") in ("bs", "ar") else None
        kw = dict(baseline=link_name("cp_baseline"), system=link_name("cp_system"),
                  seg_system=link_name("cp_view_sys"), seg=ss.get("cp_seg") if "cp_seg" in ss else None,
                  test=test, n=ss.get(f"cp_test_n_{test}") if test else None)
    dialect = settings[metric].dialect
    kw["agg"] = {o["name"]: ss[copt_key(metric, dialect, o["name"])] for o in corpus_link.agg_specs(metric, dialect)
                 if copt_key(metric, dialect, o["name"]) in ss}
    measure = ss.get(MEASURE_KEY)
    known = corpus_link.measures_of(metric, settings)
    view = ss.get("cp_differ_view")
    return corpus_link.link_params(settings=settings, sample=sample, metric=metric,
                                   also=chosen_metrics(ss)[1:], measure=measure if measure in known[1:] else None,
                                   analysis=view if isinstance(view, str) and view != ss.get(FIRST_ANALYSIS) else None,
                                   **kw)


def sync_url() -> None:
    """Write this view's link into the address bar (only when it changed), and the view into the record a saved
    comparison reads when it is made (``saving.record_view``)."""
    from explainer.ui.corpus.saving import record_view

    PAGE.write(link_now())
    record_view()


def share_box() -> None:
    """The link to this view, and what it cannot hold."""
    ss = st.session_state
    want = link_now()
    st.markdown("**Link to this view**")
    st.code((base_url() or "corpus") + "?" + urlencode(want), language=None, wrap_lines=True)
    if "sample" not in want:
        st.caption("This test set was uploaded or pasted: a link cannot carry it (nothing you load is stored on the "
                   "server). The link keeps the metric and its settings; whoever opens it loads the same files to "
                   "see the same numbers.")
        return
    ts = ss.get("cp_ts")
    renamed = ts is not None and any(ss.get(f"cp_name_{i}", n) != n for i, n in enumerate(ts.names))
    st.caption("The link opens this sample with these settings, this baseline, system and segment, and the test "
               "set up (press “Run the test”: same seed, same numbers)."
               + (" The names you gave the systems are not in it." if renamed else ""))
