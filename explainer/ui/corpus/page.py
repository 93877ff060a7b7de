"""The Corpus page: whole test sets, several systems, several metrics, every segment one click from its explanation.

The page computes nothing itself and names no metric: it loops over the chosen families (the one looked at
closely, then the others in the scores table: every registered family can be chosen). Each family's report comes
from its corpus part (``explainer.ui.corpus.parts``: BLEU's statistics and analyses, chrF's, ROUGE's; the family's
corpus scores alone for the others), its scores, segment scores and statistics from its ``CorpusScores``; the
scores table has a column per measure, each tested against the baseline; the family looked at shows its own
sections and analyses beside the generic ones (``analyses.py``). The metric settings are the shared model of every
page (``explainer.ui.settings``); a segment opens in the Explain page's own components with those settings.

Bounded: the page takes at most PAGE_MAX_SEGMENTS segments, PAGE_MAX_SYSTEMS systems, 1–4 references and
PAGE_MAX_BYTES of uploads, checked before any work (the ``compare`` CLI streams larger test sets). Texts live in
this browser session's memory only: never written to disk, never logged. Results are kept per input and settings
(a rerun — sorting, filtering, opening a segment — recomputes nothing); the sections below the scores are drawn
only while open (issue 33, item 9).
"""
from __future__ import annotations

import time

import streamlit as st

from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import settings as metric_settings
from explainer.ui import traps_view
from explainer.ui.corpus import reproduce as corpus_reproduce
from explainer.ui.corpus import warmup
from explainer.ui.corpus.analyses import differ_section
from explainer.ui.corpus.common import RUN_FIGURES, app_run_if_needed, apply_open_request
from explainer.ui.corpus.downloads import downloads_section
from explainer.ui.corpus.language import language_pair_field
from explainer.ui.corpus.lazy import lazy_section
from explainer.ui.corpus.link import PAGE
from explainer.ui.corpus.part import CorpusFocus
from explainer.ui.corpus.parts import corpus_part
from explainer.ui.corpus.reports import (
    corpus_option_widgets,
    family_choice,
    schedule_other_tokenizers,
    scored_families,
    shared_result,
)
from explainer.ui.corpus.scores import scores_header, scores_table
from explainer.ui.corpus.segments import segments_fragment
from explainer.ui.corpus.significance import significance_section
from explainer.ui.corpus.state import ALSO_KEY, MEASURE_KEY, METRIC_KEY, chosen_metrics, focus_metric, link_in, sync_url
from explainer.ui.corpus.testset import input_section, system_names

__all__ = ["render"]

FRAGMENT_FIGURES = "_cp_fragment_figures"   # the chart keys the analysis fragment drew in its last run


def render() -> None:
    t0 = time.perf_counter()
    with warmup.page_run():     # the background computations wait while the page runs
        apply_open_request()   # a segment asked for by a click (a callback) before any widget is drawn
        st.session_state[RUN_FIGURES] = {}      # this run's charts only (and no earlier test set's)
        link_in()              # before the sidebar: a link (or a sample) may set the settings
        shown = _render()
        sync_url()
        # after the widgets: a link the server dropped whole
        PAGE.watch()
    st.session_state["_cp_render_seconds"] = time.perf_counter() - t0
    if shown is not None:       # after the first view: the other tokenizers' reports while the server is idle
        schedule_other_tokenizers(*shown)


def _header(warns: list[str]):
    """The title, the settings' warnings and the input section; the test set loaded (its systems named), or None."""
    st.title("Corpus: whole test sets")
    st.caption("Load a test set (system outputs and 1–4 references), see each system's corpus scores under every "
               "metric you pick, each worked out, confidence intervals and paired significance tests as sacreBLEU "
               "computes them, where the systems differ — and open any segment step by step.")
    for w in warns:
        st.warning(hl.md_escape(w))
    ts = input_section()
    if ts is None:
        st.info("Pick a sample corpus above to see the page at work, or upload your own files.",
                icon=":material/info:")
        return None
    return system_names(ts)


def _metrics() -> list:
    """The metric looked at closely, the others of the scores table, and the language pair; the UI families
    chosen (the one looked at first)."""
    from explainer.families import FAMILIES
    from explainer.ui.families import ui_family

    ss = st.session_state
    names = FAMILIES.names()
    ss[METRIC_KEY] = focus_metric(ss)
    c_metric, c_also, c_pair = st.columns([2, 2, 2], vertical_alignment="bottom")
    with c_metric:
        st.segmented_control("Metric (looked at closely)", names, key=METRIC_KEY,
                             format_func=lambda n: FAMILIES[n].label)
    focus = focus_metric(ss)
    others = [n for n in names if n != focus]
    picked = ss.get(ALSO_KEY) or []
    ss[ALSO_KEY] = [n for n in others if n in picked]     # registry order: the table's and the link's
    with c_also:
        st.multiselect("Also in the scores table and the paper tables", others, key=ALSO_KEY,
                       format_func=lambda n: FAMILIES[n].label,
                       help="Each metric gets a column, its own paired test against the baseline and its signature.")
    with c_pair:
        language_pair_field()
    return [ui_family(n) for n in chosen_metrics(ss)]


def _reports(ts, fams, settings):
    """Every chosen family's report (a progress bar each, shared by every session), or None with the reason."""
    ss = st.session_state
    for fam in fams:
        corpus_option_widgets(fam, family_choice(fam, settings).dialect)
    chosen, errors = scored_families(ts, ss["cp_ts_key"], fams, settings)
    for e in errors:
        st.error(hl.md_escape(e), icon=":material/error:")
    if not chosen or chosen[0].fam is not fams[0]:
        return None
    return chosen


def _warnings_and_traps(ts, chosen, settings, part, focus) -> None:
    """The CJK warning of a tokenizer that does not split the references, the implementation's warnings, and the
    classic traps of the test set (kept for the last test set and settings)."""
    from explainer.corpus.langpair import cjk_warning

    ss = st.session_state
    tokenizing = [fs.d for fs in chosen if "tokenize" in fs.d.options]
    for d in tokenizing[:1]:
        pair = (ss.get("cp_langpair") or "").strip()
        target = pair.split("-")[-1].lower() if "-" in pair else None
        cjk = cjk_warning((r for rs in ts.references[:2000] for r in rs), d.options.get("tokenize"), target=target)
        if cjk:
            st.warning(hl.md_escape(cjk), icon=":material/translate:")
    for w in part.warnings(focus):
        st.warning(hl.md_escape(w), icon=":material/warning:")
    key = (ss.get("cp_ts_key"), tuple(fs.fam.name for fs in chosen), settings)
    kept = ss.get("_cp_traps")
    if kept is None or kept[0] != key:
        kept = ss["_cp_traps"] = (key, traps_view.corpus_traps(
            ts.systems, ts.references, settings, families=[fs.fam.name for fs in chosen],
            skip=("cjk-unsplit",) if tokenizing else ()))
    traps_view.show(kept[1])


def _baseline_and_system(names: list[str]) -> tuple[int, int]:
    ss = st.session_state
    base = ps.choice("cp_baseline", names, names[0])     # renamed systems: a stored name may be none of these
    ps.choice("cp_system", names, ([n for n in names if n != base] or names)[0])
    c1, c2 = st.columns(2)
    c1.selectbox("Baseline (paired tests and deltas are against it)", names, key="cp_baseline")
    c2.selectbox("System to look at (worked-out score, differences, segment view)", names, key="cp_system")
    return names.index(ss["cp_baseline"]), names.index(ss["cp_system"])


def _measure(fs):
    """The measure of the family looked at that the tests, analyses and table are about (several: a ROUGE type)."""
    keys = [c.measure.key for c in fs.columns]
    ps.choice(MEASURE_KEY, keys, keys[0])
    if len(keys) > 1:
        labels = {c.measure.key: c.label for c in fs.columns}
        st.selectbox(f"{fs.fam.label} measure of the tests, analyses and table", keys, key=MEASURE_KEY,
                     format_func=labels.get)
    key = st.session_state[MEASURE_KEY]
    return next(c for c in fs.columns if c.measure.key == key)


def _render():
    """The page; (the test set, its key, the chosen families' reports) when they are shown, else None."""
    settings, warns = metric_settings.render_settings_sidebar()
    # Every part above the fragments is a container, one slot whatever it draws: Streamlit names a fragment by
    # where it is drawn, and a click in one that comes while the page runs is run after that run under the old
    # name. One element more or fewer above it renamed every fragment below, and the click was dropped (issue 18).
    with st.container():
        ts = _header(warns)
    if ts is None:
        return None
    ss = st.session_state
    with st.container():
        fams = _metrics()
    with st.container():     # the reports' progress bars, their options and errors
        chosen = _reports(ts, fams, settings)
    if chosen is None:
        return None
    fs = chosen[0]
    part = corpus_part(fs.fam.name)
    with st.container():
        b, i = _baseline_and_system(list(ts.names))
        col = _measure(fs)
    focus = CorpusFocus(ts, ss["cp_ts_key"], fs.fam.core, fs.d, fs.report, fs.scores, col.measure, b, i,
                        settings=settings, chosen=[x.fam.name for x in chosen],
                        shared=lambda kind, k, c, share=1: shared_result(kind, k, c, ts, share))
    with st.container():
        _warnings_and_traps(ts, chosen, settings, part, focus)
    with st.container():
        scores_box = scores_header(chosen, col, b)
    _boxed(part.sections, focus)
    _boxed(_significance_fragment, chosen, col, b, scores_box)
    _boxed(_analysis_fragment, part, focus)
    _boxed(segments_fragment, part, focus)
    _boxed(downloads_section, part, focus, chosen)
    _boxed(_reproduce_fragment, ts, i, ss["cp_ts_key"])     # "Which settings give …?" for the selected system
    return ts, ss["cp_ts_key"], chosen


def _boxed(section, *args) -> None:
    """A section in its own container: one that draws an element more or fewer than last time (a warning, a
    test's result) leaves the places of the sections below unchanged, so the browser updates them instead of
    building them anew (issue 18: most of a click's time is the browser's)."""
    with st.container():
        section(*args)


# A click reruns only the section it changes (issue 18): each part below the scores is a fragment. What one part
# changes in another: a click in an analysis that lists or opens segments reruns the segment table and view, or
# the view alone (named fragments, common.redraw_parts); a test's result redraws the scores table above from its
# own fragment (an outside container); a segment opened for another system than the one picked above runs the
# whole page (common.apply_open_request).
@st.fragment
def _significance_fragment(chosen, col, b: int, scores_box) -> None:
    """The tests, then the scores table and chart above, which show the tests' p-values and intervals: a test run
    reruns this fragment only (it writes into that outside container), the table after the test, so one run
    shows the result everywhere."""
    with warmup.page_run():   # the background reports wait while a fragment runs
        significance_section(chosen, chosen[0], col, b)
        with scores_box:
            scores_table(chosen, col, b)
        sync_url()     # the test and its number of resamples are in the link


@st.fragment
def _analysis_fragment(part, focus: CorpusFocus) -> None:
    """Where the systems differ and every implementation: an analysis picked redraws this part only; a bar
    clicked or a segment opened from them redraws the segment table and view (``common.redraw_parts``)."""
    with warmup.page_run():   # the background reports wait while a fragment runs
        app_run_if_needed()
        ss = st.session_state
        figures = ss.setdefault(RUN_FIGURES, {})
        for k in ss.get(FRAGMENT_FIGURES, ()):     # this part's charts of its last run (the download lists this run's)
            figures.pop(k, None)
        before = set(figures)
        with st.container():
            differ_section(part, focus)
        with st.container():
            if part.has_implementations:
                lazy_section("Every implementation on this corpus", "cp_sec_implementations",
                             lambda: part.implementations(focus), anchor="implementations")
        ss[FRAGMENT_FIGURES] = sorted(set(figures) - before)
        sync_url()      # the analysis is in the link and the saved view


@st.fragment
def _reproduce_fragment(ts, i: int, ts_key: str) -> None:
    with warmup.page_run():   # the background reports wait while a fragment runs
        corpus_reproduce.render(ts, i, ts_key)

