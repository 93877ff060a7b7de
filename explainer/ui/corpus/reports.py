"""The Corpus page's reports: each chosen family's report on the test set (its own, through its corpus part, or its
corpus scores alone), computed once per (test set, bound dialect) and shared by the server's sessions
(``explainer.ui.compute.corpus_reports``: in memory, bounded, one computation per key at a time), with a progress
bar; the corpus options of a family's dialect (ROUGE's aggregation: ``agg_<option>`` in the link).

A slow family (the semantic scores: ~0.1 s per segment) shows its bar and keeps its report like every other: a rerun
computes nothing again.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import streamlit as st

from explainer.corpus.testset import TestSet
from explainer.ui.corpus.common import copt_key
from explainer.ui.corpus.parts import corpus_part
from explainer.ui.progress import Progress

__all__ = ["shared_result", "scored", "STOPPED", "ReportProgress", "family_report", "corpus_option_specs",
           "corpus_options", "corpus_option_widgets", "family_choice", "FamilyScores", "scored_families",
           "bound_dialect", "report_key", "compute_report", "schedule_other_tokenizers"]


def _full_key(kind: str, key: tuple, ts: TestSet) -> tuple:
    """Everything a result is made from and shows: the texts (``key``'s test set hash), the systems' and
    references' names and the source, so a session only ever gets a result of the very texts it loaded."""
    src = hashlib.sha256("\n".join(ts.source).encode("utf-8", "surrogatepass")).hexdigest()[:24] \
        if ts.source is not None else None
    return (kind,) + tuple(key) + (tuple(ts.ref_names or ()), src)


def shared_result(kind: str, key: tuple, compute, ts: TestSet, share: int = 1):
    """Results keyed by input and settings (:func:`_full_key`), computed once and shared by every session of the
    server (``explainer.ui.compute.corpus_reports``: in memory, bounded by the test sets' characters, one
    computation per key at a time). Its cost is the test set's characters (``share``: a result that takes a
    fraction of what a report does)."""
    from explainer.ui.compute import corpus_reports

    cost = sum(len(x) for _, lines in ts.systems for x in lines) + sum(len(r) for rs in ts.references for r in rs)
    return corpus_reports.get(_full_key(kind, key, ts), cost // share + 1, compute)


STOPPED = "cp_report_stopped"    # session state: the report whose scoring this session stopped


def _stop(full: tuple) -> None:
    st.session_state[STOPPED] = full


def scored(kind: str, key: tuple, compute, ts: TestSet):
    """A report (as :func:`shared_result`; ``kind``: the family's name): before a new one is computed, the
    estimate of its time (:mod:`explainer.ui.corpus.estimate`) and a Stop button above the progress bar; a click
    on Stop ends the run (the bar's next move) and the page then says the scoring was stopped, with a button to
    score again (None). Once computed, the estimate stays as what it took."""
    import time

    from explainer.ui.compute import corpus_reports
    from explainer.ui.corpus.estimate import estimate_text

    ss = st.session_state
    full = _full_key(kind, key, ts)
    if full in corpus_reports:
        return shared_result(kind, key, compute, ts)
    if ss.get(STOPPED) == full:
        st.info("Scoring stopped. " + estimate_text(ts, kind), icon=":material/stop_circle:")
        st.button("Score again", key=f"cp_score_again_{kind}", on_click=lambda: ss.pop(STOPPED, None),
                  type="primary")
        return None
    note, stop = st.empty(), st.empty()
    note.caption(estimate_text(ts, kind))
    stop.button("Stop", key=f"cp_stop_scoring_{kind}", icon=":material/stop:", on_click=_stop, args=(full,),
                help="Stop scoring this test set (nothing is kept; the page says so and can score again).")
    t0 = time.perf_counter()
    rep = shared_result(kind, key, compute, ts)
    stop.empty()
    note.caption(f"{estimate_text(ts, kind)} Scored in {time.perf_counter() - t0:.1f} s.")
    return rep


class ReportProgress(Progress):
    """The bar of a report or a test: drawn only for work that lasts over 0.3 s, with what is being done."""

    AFTER_SECONDS = 0.3

    def __init__(self, label: str) -> None:
        super().__init__(label, after=self.AFTER_SECONDS)

    def __call__(self, frac: float, msg: str = "") -> None:
        super().__call__(frac, f"{self.label}: {msg}" if msg else None)


def corpus_option_specs(fam, dialect: str) -> list[dict]:
    """The dialect's options that concern a whole corpus only (ROUGE's bootstrap aggregation), as JSON specs."""
    cls = fam.core.dialects.get(dialect)
    return [o.to_dict() for o in cls.option_specs(scope="corpus")] if cls is not None else []


def corpus_options(fam, dialect: str) -> dict[str, Any]:
    """The values of those options as their widgets hold them (the defaults before they are drawn)."""
    ss = st.session_state
    out = {}
    for o in corpus_option_specs(fam, dialect):
        v = ss.get(copt_key(fam.name, dialect, o["name"]), o["default"])
        out[o["name"]] = v
    return out


def corpus_option_widgets(fam, dialect: str) -> None:
    """The corpus options' widgets (in an expander named after the family); the page's bound on an int: 10,000."""
    specs = corpus_option_specs(fam, dialect)
    if not specs:
        return
    with st.expander(f"{fam.label} corpus aggregation options"):
        for o in specs:
            key = copt_key(fam.name, dialect, o["name"])
            if key not in st.session_state:
                st.session_state[key] = o["default"]
            if o["type"] == "bool":
                st.checkbox(o["name"], key=key, help=o["help"])
            elif o["type"] == "choice":
                st.selectbox(o["name"], o["choices"], key=key, help=o["help"])
            elif o["type"] == "int":
                hi = o.get("max")
                hi = int(hi) if hi is not None and hi <= 10_000 else 10_000     # the page's bound (resamples)
                st.number_input(o["name"], min_value=int(o.get("min") or 0), max_value=hi, step=1, key=key,
                                help=o["help"] + " (the page allows up to 10,000)")
            elif o["type"] == "float":
                st.number_input(o["name"], min_value=o.get("min"), max_value=o.get("max"), key=key, help=o["help"])


def family_choice(fam, settings):
    """The family's settings as the page uses them (``UiFamily.usable``: what its dialect computes)."""
    return fam.usable(settings[fam.name])


def bound_dialect(fam, settings):
    """The family's bound dialect under the page's settings and its corpus options (ValueError with a message for
    the user when they do not bind)."""
    choice = family_choice(fam, settings)
    extra = corpus_options(fam, choice.dialect)
    return fam.core.bind(choice.dialect, **{**choice.options, **extra})


def report_key(fam, ts: TestSet, ts_key: str, d) -> tuple:
    """What a family's report is computed from: the family, the test set, its systems' names, the bound dialect."""
    return (fam.name, ts_key, tuple(ts.names), d.key)


def compute_report(fam, ts: TestSet, ts_key: str, d, progress, *, get=shared_result):
    """The family's report under the bound dialect ``d`` (its corpus part's), shared by the server's sessions
    (``get``: :func:`scored` on the page, which says the time first and may come back None when stopped)."""
    part = corpus_part(fam.name)

    def compute():
        return part.report(ts, ts_key, fam.core, d, progress=progress,
                           shared=lambda kind, k, c, share=1: shared_result(kind, k, c, ts, share))

    return get(fam.name, report_key(fam, ts, ts_key, d), compute, ts)


def family_report(ts: TestSet, ts_key: str, fam, settings) -> tuple[Any, Any, tuple] | None:
    """(the family's report on the test set, the bound dialect, the report's key) under the page's settings and the
    family's corpus options, with its estimated time, a Stop and a progress bar; None when this session stopped
    its scoring (said on the page); ValueError with a message for the user when the settings do not bind."""
    d = bound_dialect(fam, settings)
    p = ReportProgress(f"Scoring every system ({fam.label})")
    try:
        rep = compute_report(fam, ts, ts_key, d, p, get=scored)
    finally:
        p.done()
    return None if rep is None else (rep, d, report_key(fam, ts, ts_key, d))


def schedule_other_tokenizers(ts: TestSet, ts_key: str, chosen) -> None:
    """After a view: the reports of the chosen families for every other tokenizer their dialect offers, computed in
    the background while the server is idle (``warmup``), so that a change of the tokenizer answers at once."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    from explainer.ui.corpus import warmup
    from explainer.ui.corpus.common import APPTEST_SESSION

    ctx = get_script_run_ctx()
    if ctx is None or ctx.session_id == APPTEST_SESSION:      # a page under streamlit.testing: no background work
        return
    for fs in chosen:
        spec = next((o for o in fs.d.option_specs() if o.name == "tokenize"), None)
        if spec is None:
            continue
        opts = dict(fs.d.options)
        for tok in spec.choices or ():
            if tok == opts.get("tokenize"):
                continue
            try:
                d = fs.fam.core.bind(fs.d.name, **{**opts, "tokenize": tok})
            except ValueError:
                continue
            warmup.schedule(report_key(fs.fam, ts, ts_key, d),
                            lambda fam=fs.fam, d=d: compute_report(fam, ts, ts_key, d, warmup.paused_progress))


@dataclass
class FamilyScores:
    """One chosen family on the test set: its UI family, report, bound dialect, the report's key and its columns
    (a measure each: ``explainer.corpus.scoreboard.MetricColumn``)."""

    fam: Any
    report: Any
    d: Any
    key: tuple
    columns: list
    scores: list        # every system's CorpusScores

    def test_key(self, col, baseline: str) -> tuple:
        """Where a paired test of ``col`` against ``baseline`` is kept: what the statistics are computed from (the
        report's key, never the report object's ``id``, which a later report may reuse), the measure, the
        baseline."""
        return self.key + (col.measure.key, baseline)


def scored_families(ts: TestSet, ts_key: str, fams, settings) -> tuple[list[FamilyScores], list[str]]:
    """Every chosen family's report and columns, in the order given (the first is the one looked at closely), and
    the messages of those whose settings or input refuse (left out)."""
    from explainer.corpus.scoreboard import columns_of
    from explainer.errors import ExplainerInputError

    out, errors = [], []
    for fam in fams:
        try:
            got = family_report(ts, ts_key, fam, settings)
        except (ExplainerInputError, ValueError) as e:
            errors.append(f"{fam.label}: {e}")
            continue
        if got is None:         # stopped by this session: said with its "Score again"
            continue
        report, d, key = got
        scores = report.corpus_scores()
        out.append(FamilyScores(fam, report, d, key, columns_of(fam.core, d, scores), scores))
    return out, errors
