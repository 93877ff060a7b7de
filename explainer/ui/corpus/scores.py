"""The Corpus page's scores: a column per measure of every chosen family (BLEU, chrF, TER, each ROUGE type, …),
each with its p-value and interval once a paired test ran (each measure's own test against the baseline), the
headline of the measure looked at, its chart (whiskers: the test's intervals), and every family's signature.

The table and the chart are drawn by the significance fragment (its result is in them): a test run redraws that
fragment and this table only (issue 18).
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from explainer.ui import highlight as hl
from explainer.ui.corpus import charts as cc
from explainer.ui.corpus.common import plot

__all__ = ["scores_header", "scores_table", "p_value_text", "column_results"]


def p_value_text(p: float | None) -> str:
    """A p-value as sacreBLEU prints it (4 decimals); the baseline has none (it was shown as "None")."""
    return "— (baseline)" if p is None else f"{p:.4f}"


def _value(x: float, scale: float) -> str:
    return f"{x:.4f}" if scale >= 100 else f"{x:.6f}"


def scores_header(chosen, focus_col, b: int) -> st.delta_generator.DeltaGenerator:
    """The header, the measure looked at per system (a headline), the container the table and chart go into (the
    significance fragment draws them), every family's signature."""
    st.header("Corpus scores", anchor="corpus-scores")
    m = focus_col.measure
    row = st.container(horizontal=True, gap="medium", key="cp_headline")
    values = focus_col.values
    for j, name in enumerate(_names(chosen)):
        with row:
            delta = None if j == b else f"{values[j] - values[b]:+.4f} vs baseline"
            st.metric(hl.md_escape(f"{m.label} — {name}"), _value(values[j], m.scale), delta=delta,
                      delta_color="normal" if m.higher_is_better else "inverse",
                      help=f"corpus {m.label}, exact value {values[j]!r}")
    box = st.container()
    for fs in chosen:
        st.code(f"{fs.fam.label} signature: {fs.columns[0].signature}" if fs.columns else fs.fam.label,
                language=None, wrap_lines=True)
    lower = [c.label for fs in chosen for c in fs.columns if not c.measure.higher_is_better]
    st.caption(hl.md_escape("Each corpus score is the implementation's own (summed statistics, or its aggregation)"
                            + (f"; {', '.join(lower)}: an error rate, lower is better" if lower else "") + "."))
    return box


def _names(chosen) -> list[str]:
    return list(chosen[0].report.testset.names)


def column_results(chosen, b_name: str) -> dict:
    """column key -> the kept paired test of every column against the baseline (``cp_tests``), where one ran."""
    store = st.session_state.get("cp_tests", {})
    out = {}
    for fs in chosen:
        for col in fs.columns:
            got = store.get(fs.test_key(col, b_name))
            if got is not None:
                out[col.key] = got["result"]
    return out


def scores_table(chosen, focus_col, b: int) -> None:
    """Per system every column's score, its p-value and 95 % half-width (the test run against baseline ``b``) and
    its difference to the baseline; the chart of the measure looked at."""
    names = _names(chosen)
    results = column_results(chosen, names[b])
    rows = [{"system": n} for n in names]
    fmt: dict = {}
    for fs in chosen:
        for col in fs.columns:
            res = results.get(col.key)
            by = {x.name: x for x in res.systems} if res is not None else {}
            for j, row in enumerate(rows):
                row[col.label] = col.values[j]
                if res is not None:
                    got = by.get(names[j])
                    row[f"{col.label} p-value"] = p_value_text(got.p_value) if got is not None else "—"
                    row[f"{col.label} 95% CI ±"] = got.ci if got is not None and got.ci is not None else None
                row[f"Δ {col.label}"] = col.values[j] - col.values[b]
            digits = 4 if col.measure.scale >= 100 else 6
            fmt[col.label] = st.column_config.NumberColumn(format=f"%.{digits}f")
            fmt[f"Δ {col.label}"] = st.column_config.NumberColumn(format=f"%+.{digits}f")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="cp_scores_table", column_config=fmt)
    res = results.get(focus_col.key)
    by = {x.name: x.ci for x in res.systems} if res is not None else {}
    m = focus_col.measure
    plot(cc.corpus_scores_figure(names, focus_col.values, ci=[by.get(n) for n in names] if by else None,
                                 metric=m.label, scale=m.scale), "cp_scores")
