"""The Corpus page's downloads: the per-segment table with the texts (CSV), the report of the family looked at
(JSON), the charts of the page as drawn (interactive HTML), the tables for the paper (LaTeX, Markdown: a column per
chosen metric, each with its marks and signature footnote — what ``compare --metric a,b,c --format latex``
writes), and "Save this comparison". Every file is made when its button is pressed, from the page's live records
(a test run since then redrew its own part of the page only): the tests' store, the charts of the last run.
"""
from __future__ import annotations

import streamlit as st

from explainer.corpus.export import columns_csv, json_text, testset_texts, with_texts
from explainer.ui.corpus import charts as cc
from explainer.ui.corpus.common import RUN_FIGURES
from explainer.ui.corpus.part import CorpusFocus
from explainer.ui.corpus.saving import save_button
from explainer.ui.corpus.segments import segment_columns
from explainer.ui.corpus.significance import TESTS

__all__ = ["downloads_section", "paper_table_input", "paper_table"]


def paper_table_input(chosen, store: dict, baseline: int) -> dict:
    """The comparison as ``compare`` writes it for these metrics (``explainer.corpus.tables``' input): each
    column's paired test against the baseline where one was run (``store``: the page's tests), else its scores."""
    from explainer.corpus.scoreboard import Scoreboard, comparison_dict

    names = list(chosen[0].report.testset.names)
    cols = [c for fs in chosen for c in fs.columns]
    results = {}
    for fs in chosen:
        for c in fs.columns:
            got = store.get(fs.test_key(c, names[baseline]))
            if got is not None:
                results[c.key] = got["result"]
    ts = chosen[0].report.testset
    board = Scoreboard(names, ts.n_segments, ts.n_refs(), cols)
    return comparison_dict(board, results, baseline=baseline)


def paper_table(chosen, store: dict, baseline: int, fmt: str) -> str:
    from explainer.corpus.export import clean_json
    from explainer.corpus.tables import render_table

    return render_table(clean_json(paper_table_input(chosen, store, baseline)), fmt)


def _files(part, focus: CorpusFocus, chosen) -> None:
    ss = st.session_state
    store = ss.setdefault(TESTS, {})
    fs = chosen[0]

    def tests_dict():
        got = store.get(fs.test_key(next(c for c in fs.columns if c.measure.key == focus.measure.key),
                                    focus.names[focus.b]))
        return got["result"].to_dict() if got else None

    c1, c2, c3, c4 = st.columns(4)
    name = focus.family.name
    c1.download_button("Per-segment table with the texts (CSV)",
                       lambda: columns_csv(with_texts(segment_columns(part, focus), *testset_texts(focus.testset))),
                       file_name=f"corpus_segments_{name}.csv", mime="text/csv", key="cp_dl_csv", on_click="ignore")
    c2.download_button(f"Whole {focus.family.label} report (JSON)",
                       lambda: json_text(part.report_dict(focus, tests_dict())),
                       file_name=f"corpus_report_{name}.json", mime="application/json", key="cp_dl_json",
                       on_click="ignore")
    # made when pressed, outside any run: it gets this run's charts (the dict itself, which the fragments' own runs
    # update), not the session (gone by then)
    figures = ss.setdefault(RUN_FIGURES, {})
    label = ss.get("cp_ts_label", "")
    c3.download_button("Charts (HTML, interactive)",
                       lambda: cc.charts_html(list(figures.values()), title="Corpus charts",
                                              subtitle=f"{label} — {fs.columns[0].signature if fs.columns else ''}"),
                       file_name="corpus_charts.html", mime="text/html", key="cp_dl_html", on_click="ignore")
    c4.selectbox("Chart image format (camera icon of each chart)", ["png", "svg"], key="cp_chart_format")


def _tables(chosen, b: int) -> None:
    store = st.session_state.setdefault(TESTS, {})
    labels = [c.label for fs in chosen for c in fs.columns]
    slug = "_".join(fs.fam.name for fs in chosen)
    d1, d2 = st.columns(2)
    d1.download_button("Table for the paper (LaTeX, booktabs)", lambda: paper_table(chosen, store, b, "latex"),
                       file_name=f"corpus_{slug}_table.tex", mime="text/x-tex", key="cp_dl_latex", on_click="ignore")
    d2.download_button("Table for the paper (Markdown)", lambda: paper_table(chosen, store, b, "markdown"),
                       file_name=f"corpus_{slug}_table.md", mime="text/markdown", key="cp_dl_md", on_click="ignore")
    st.caption(f"The tables hold a column per metric ({', '.join(labels)}), each score marked * where its p-value "
               "against the baseline is at most 0.05 when a test was run above (with one metric also the bootstrap "
               "mean ± 95 % CI and the p-value), and each metric's signature below the table under a short marker "
               "(a, b, c): it fits one column of a two-column paper; the LaTeX needs \\usepackage{booktabs}. The "
               "command line writes the same: `compare --metric a,b,c --format latex`.")


def downloads_section(part, focus: CorpusFocus, chosen) -> None:
    """The downloads (buttons only: their files are made when pressed)."""
    st.header("Downloads", anchor="downloads")
    _files(part, focus, chosen)
    _tables(chosen, focus.b)
    save_button()
    st.caption("Every chart's camera icon saves it as PNG or SVG (made in your browser). The HTML file holds all "
               "charts of this page, interactive, with Plotly included (works offline).")
