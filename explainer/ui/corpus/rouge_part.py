"""ROUGE's own part of the Corpus page (``explainer.ui.corpus.part.CorpusPart``): its report (each system through
``explain_rouge_corpus``: the dialect's own aggregation — rouge-score's bootstrap low / mid / high, ROUGE-1.5.5's
average with its interval, the plain mean — with the corpus options of the dialect), the aggregation per type, and
every ROUGE implementation on the corpus. A ROUGE type is a measure: the scores table has a column per type, the
tests, analyses and segment table are about the type picked.
"""
from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from explainer.ui import highlight as hl
from explainer.ui.corpus.common import open_segment, plot
from explainer.ui.corpus.lazy import lazy_section
from explainer.ui.corpus.part import CorpusFocus, CorpusPart

__all__ = ["PART", "RougePart"]

_AGG = {"low_f": "low F", "mid_f": "mid F (dialect's score)", "high_f": "high F"}


class RougePart(CorpusPart):
    family = "rouge"
    has_implementations = True

    def report(self, testset, ts_key: str, family, d, *, progress, shared):
        from explainer.corpus.rouge_report import rouge_report

        return rouge_report(testset, dialect=d.name, types=[t.name for t in d.types], progress=progress,
                            **dict(d.options))

    def sections(self, focus: CorpusFocus) -> None:
        lazy_section(f"{focus.family.label} as {focus.report.dialect} aggregates it", "cp_sec_aggregation",
                     partial(_aggregation, focus.report), anchor="aggregation", expanded=True)

    def segment_columns(self, focus: CorpusFocus) -> dict:
        return focus.report.segment_rows(focus.measure.key, focus.b)

    def implementations(self, focus: CorpusFocus) -> None:
        from explainer.ui.corpus import dialects as corpus_dialects

        corpus_dialects.render(focus.report, "rouge", focus.i, focus.ts_key, label="ROUGE",
                               how="each one's own aggregation of the per-segment scores",
                               rouge_type=focus.measure.key, plot=plot, open_segment=open_segment)

    def report_dict(self, focus: CorpusFocus, tests: dict | None) -> dict:
        return focus.report.to_dict(baseline=focus.b, tests=tests)

    def warnings(self, focus: CorpusFocus) -> list[str]:
        for s in focus.report.systems:
            if s.trace.notes:
                return list(s.trace.notes)
        return []


def _aggregation(rr) -> None:
    agg = rr.systems[0].trace.aggregation
    st.caption(hl.md_escape(f"{rr.dialect}: {agg.get('note', agg.get('method', ''))}"))
    rows = []
    for r in rr.aggregate_rows():
        row = {"system": r["system"], "type": r["type"], "mean F (per item)": r["mean_f"]}
        row.update({label: r[k] for k, label in _AGG.items() if k in r})
        rows.append(row)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="cp_rouge_aggregation")
    st.caption("The paired tests compare the mean per-item F of the type picked (the project's own extension: no "
               "ROUGE implementation has paired tests); the dialect's own intervals are in this table.")


PART = RougePart()
