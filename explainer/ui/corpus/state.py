"""The Corpus page's link in and out (what a link says: :mod:`explainer.ui.corpus.link`) and the share box."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import streamlit as st

from explainer.corpus.samples import SAMPLES, load_sample
from explainer.ui import chrf_settings
from explainer.ui import settings as metric_settings
from explainer.ui.corpus import link as corpus_link
from explainer.ui.corpus.common import PAGE_MAX_RESAMPLES, PAGE_MAX_TEST_CELLS, _base_url, _copt_key, _shown_names
from explainer.ui.corpus.link import PAGE
from explainer.ui.corpus.testset import _sample_settings, _set_testset


def _sample_info(sid: str) -> tuple[list[str], int]:
    ts = load_sample(sid)
    return list(ts.names), ts.n_segments


def _parse(params: dict):
    return corpus_link.parse_link(params, samples=SAMPLES, sample_info=_sample_info, max_n=PAGE_MAX_RESAMPLES,
                                  max_cells=PAGE_MAX_TEST_CELLS)


def _link_in() -> None:
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
        _set_testset(load_sample(link.sample), SAMPLES[link.sample].title, sample=link.sample)
        loaded = True
    if link.settings is not None:
        metric_settings.put_settings(link.settings)
    elif loaded:
        _sample_settings(link.sample)
    _apply_view(link, link.settings or metric_settings.current_settings()[0])
    PAGE.loaded(link.warnings)


def _apply_view(link, settings) -> None:
    """The link's metric, systems, segment, test and ROUGE choices into the widgets' keys (before they are
    drawn). System names in a link are the sample's own; the page shows the names the user gave them."""
    ss = st.session_state
    if link.metric:
        ss["cp_metric"] = link.metric.upper()
    if link.chrf:
        PAGE.seed(link.chrf)
    ts = ss.get("cp_ts")
    if link.sample is not None and ts is not None and ss.get("cp_ts_sample") == link.sample:
        own = list(ts.names)

        def shown(name: str) -> str:
            return _shown_names(own)[own.index(name)]

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
    if link.rouge_type:
        ss["cp_rouge_type"] = link.rouge_type
    for name, v in link.agg.items():
        ss[_copt_key(settings["rouge"].dialect, name)] = v


def _link_now() -> dict[str, str]:
    """This view's link (from the widgets' state: callable in a fragment's run too)."""
    ss = st.session_state
    settings = metric_settings.stored_settings() or metric_settings.default_settings()
    metric = (ss.get("cp_metric") or "BLEU").lower()
    ts = ss.get("cp_ts")
    sample = ss.get("cp_ts_sample") if ts is not None and ss.get("cp_ts_sample") in SAMPLES else None
    kw: dict[str, Any] = {}
    if sample is not None:
        own = list(ts.names)
        shown = _shown_names(own)

        def link_name(key: str) -> str | None:
            v = ss.get(key)
            return own[shown.index(v)] if v in shown else None

        test = ss.get("cp_test") if ss.get("cp_test") in ("bs", "ar") else None
        kw = dict(baseline=link_name("cp_baseline"), system=link_name("cp_system"),
                  seg_system=link_name("cp_view_sys"), seg=ss.get("cp_seg") if "cp_seg" in ss else None,
                  test=test, n=ss.get(f"cp_test_n_{test}") if test else None)
    if metric == "rouge":
        kw["rouge_type"] = ss.get("cp_rouge_type")
        kw["agg"] = {o["name"]: ss[_copt_key(settings["rouge"].dialect, o["name"])]
                     for o in corpus_link.agg_specs(settings["rouge"].dialect)
                     if _copt_key(settings["rouge"].dialect, o["name"]) in ss}
    if metric == "chrf":
        kw["chrf"] = chrf_settings.view_values(ss)
    return corpus_link.link_params(settings=settings, sample=sample, metric=metric, **kw)


def _sync_url() -> None:
    """Write this view's link into the address bar (only when it changed)."""
    PAGE.write(_link_now())


def _share_box() -> None:
    """The link to this view, and what it cannot hold."""
    ss = st.session_state
    want = _link_now()
    st.markdown("**Link to this view**")
    st.code((_base_url() or "corpus") + "?" + urlencode(want), language=None, wrap_lines=True)
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
