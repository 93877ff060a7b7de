"""The Corpus page's reports, computed once per (test set, settings) and shared by the server's sessions."""
from __future__ import annotations

import hashlib
from typing import Any

import streamlit as st

from explainer.corpus.testset import (
    TestSet,
)
from explainer.options import freeze
from explainer.ui.corpus.common import _copt_key, _rouge_types
from explainer.ui.progress import Progress

STATS_SHARE = 8     # statistics take an eighth of what a report does (WMT22 en-de: 0.5 MB against 3.8 MB)


def _full_key(kind: str, key: tuple, ts: TestSet) -> tuple:
    """Everything a result is made from and shows: the texts (``key``'s test set hash), the systems' and
    references' names and the source, so a session only ever gets a report of the very texts it loaded."""
    src = hashlib.sha256("\n".join(ts.source).encode("utf-8", "surrogatepass")).hexdigest()[:24] \
        if ts.source is not None else None
    return (kind,) + key + (tuple(ts.ref_names or ()), src)


def _cached(kind: str, key: tuple, compute, ts: TestSet, share: int = 1):
    """Results keyed by input and settings (:func:`_full_key`), computed once and shared by every session of the
    server (``explainer.ui.compute.corpus_reports``: in memory, bounded by the test sets' characters, one
    computation per key at a time)."""
    from explainer.ui.compute import corpus_reports

    cost = sum(len(x) for _, lines in ts.systems for x in lines) + sum(len(r) for rs in ts.references for r in rs)
    return corpus_reports.get(_full_key(kind, key, ts), cost // share + 1, compute)


STOPPED = "cp_report_stopped"    # session state: the report whose scoring this session stopped


def _stop(full: tuple) -> None:
    st.session_state[STOPPED] = full


def scored(kind: str, key: tuple, compute, ts: TestSet):
    """A report (as :func:`_cached`; ``kind``: the family's name): before a new one is computed, the estimate of
    its time (:mod:`explainer.ui.corpus.estimate`) and a Stop button above the progress bar; a click on Stop ends
    the run (the bar's next move) and the page then says the scoring was stopped, with a button to score again
    (None). Once computed, the estimate stays as what it took."""
    import time

    from explainer.ui.compute import corpus_reports
    from explainer.ui.corpus.estimate import estimate_text

    ss = st.session_state
    full = _full_key(kind, key, ts)
    if full in corpus_reports:
        return _cached(kind, key, compute, ts)
    if ss.get(STOPPED) == full:
        st.info("Scoring stopped. " + estimate_text(ts, kind), icon=":material/stop_circle:")
        st.button("Score again", key="cp_score_again", on_click=lambda: ss.pop(STOPPED, None), type="primary")
        return None
    note, stop = st.empty(), st.empty()
    note.caption(estimate_text(ts, kind))
    stop.button("Stop", key="cp_stop_scoring", icon=":material/stop:", on_click=_stop, args=(full,),
                help="Stop scoring this test set (nothing is kept; the page says so and can score again).")
    t0 = time.perf_counter()
    rep = _cached(kind, key, compute, ts)
    stop.empty()
    note.caption(f"{estimate_text(ts, kind)} Scored in {time.perf_counter() - t0:.1f} s.")
    return rep


def counts_analysis(rep, name: str, compute):
    """An analysis of a BLEU report that depends only on what its statistics depend on (the tokens, the
    references, the order; not smoothing or effective order): computed once per test set and the dialect's
    ``counts_key``, shared by the server's sessions, so a smoothing change keeps it (issue 18). A spinner the
    first time: seconds on a WMT-sized test set (sentence buckets score every segment alone)."""
    key = (st.session_state.get("cp_ts_key"), tuple(rep.names), rep.d.counts_key, name)

    def run():
        with st.spinner(f"Computing the {name.split(':')[0].replace('_', ' ')} analysis (once per test set and "
                        "tokenization)…"):
            return compute()

    return _cached("comparemt", key, run, rep.testset, share=STATS_SHARE)


class _Progress(Progress):
    """The bar of a report or a test: drawn only for work that lasts over 0.3 s, with what is being done."""

    AFTER_SECONDS = 0.3

    def __init__(self, label: str) -> None:
        super().__init__(label, after=self.AFTER_SECONDS)

    def __call__(self, frac: float, msg: str = "") -> None:
        super().__call__(frac, f"{self.label}: {msg}" if msg else None)


def _bleu_report(ts: TestSet, ts_key: str, settings) -> tuple[Any, tuple] | None:
    """(the BLEU report of this test set with these settings, its key: what it is computed from), or None when
    this session stopped its scoring (said on the page)."""
    from explainer.bleu import get_dialect
    from explainer.corpus.report import bleu_report, report_stats

    kw = settings["bleu"].kwargs()
    key = (ts_key, tuple(ts.names), freeze(kw))

    def compute():
        p = _Progress("Scoring every system (BLEU)")
        try:
            opts = dict(kw)
            dialect = opts.pop("dialect")
            d = get_dialect(dialect, **opts)
            # the statistics are kept apart: a change of an option applied after counting (smoothing,
            # effective order) makes a new report from them in a fraction of the time (issue 18)
            stats = _cached("bleu-stats", (ts_key, tuple(ts.names), d.counts_key),
                            lambda: report_stats(ts, d, progress=p), ts, share=STATS_SHARE)
            return bleu_report(ts, dialect=dialect, keep_refs=False, progress=p, stats=stats, **opts)
        finally:
            p.done()

    rep = scored("bleu", key, compute, ts)
    return None if rep is None else (rep, ("bleu",) + key)


def _rouge_report(ts: TestSet, ts_key: str, settings, corpus_opts: dict) -> tuple[Any, tuple] | None:
    """(the ROUGE report of this test set with these settings, its key: what it is computed from), or None when
    this session stopped its scoring (said on the page)."""
    from explainer.corpus.rouge_report import rouge_report

    types, _ = _rouge_types(settings)
    kw = {k: v for k, v in settings["rouge"].kwargs().items() if k != "types"}   # types: as supported
    key = (ts_key, tuple(ts.names), freeze(kw), types, freeze(corpus_opts))

    def compute():
        p = _Progress("Scoring every system (ROUGE)")
        try:
            dialect = kw.pop("dialect")
            return rouge_report(ts, dialect=dialect, types=list(types), progress=p, **kw, **corpus_opts)
        finally:
            p.done()

    rep = scored("rouge", key, compute, ts)
    return None if rep is None else (rep, ("rouge",) + key)


_TESTS_KEPT = 6


def _tests_key(rkey: tuple, baseline: str, rouge_type: str | None = None, measure: str = "fmeasure") -> tuple:
    """Where a paired test's result is kept: the report's key (metric, test set, system names, settings — what
    the statistics are computed from, never the report object's ``id``, which a later report may reuse), the
    baseline and, for ROUGE, the type and measure tested."""
    return rkey + (baseline,) + ((rouge_type, measure) if rkey[0] == "rouge" else ())


def _rouge_corpus_options(settings) -> dict:
    from explainer.rouge import dialect_options

    opts = {}
    spec = [o for o in dialect_options(settings["rouge"].dialect, corpus=True) if o.get("corpus_only")]
    if not spec:
        return opts
    with st.expander("ROUGE corpus aggregation options"):
        for o in spec:
            key = _copt_key(settings["rouge"].dialect, o["name"])
            if key not in st.session_state:
                st.session_state[key] = o["default"]
            if o["type"] == "bool":
                opts[o["name"]] = st.checkbox(o["name"], key=key, help=o["help"])
            elif o["type"] == "choice":
                opts[o["name"]] = st.selectbox(o["name"], o["choices"], key=key, help=o["help"])
            elif o["type"] == "int":
                hi = o.get("max")
                hi = int(hi) if hi is not None and hi <= 10_000 else 10_000     # the page's bound (resamples)
                opts[o["name"]] = int(st.number_input(o["name"], min_value=int(o.get("min", 0)), max_value=hi,
                                                      step=1, key=key,
                                                      help=o["help"] + " (the page allows up to 10,000)"))
            elif o["type"] == "float":
                opts[o["name"]] = float(st.number_input(o["name"], min_value=o.get("min"), max_value=o.get("max"),
                                                        key=key, help=o["help"]))
    return opts
