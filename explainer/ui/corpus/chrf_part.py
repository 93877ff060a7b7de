"""chrF's own part of the Corpus page (``explainer.ui.corpus.part.CorpusPart``): its report (sacreBLEU's
``CHRF.corpus_score`` or NLTK's ``corpus_chrf``, ``explainer.corpus.chrf_report``), the corpus score worked out per
order, the corpus score against the mean of the segment scores (leave-one-out when the corpus score sums
statistics), the character / word n-grams one system matches more or less often than the baseline, and every chrF
implementation on the corpus. System names and n-grams reach Markdown only through ``md_escape``.
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from explainer.ui import chrf_view as cview
from explainer.ui import highlight as hl
from explainer.ui.corpus import charts as cc
from explainer.ui.corpus.common import on_chart_open, on_group_row, on_pick, plot
from explainer.ui.corpus.lazy import lazy_section
from explainer.ui.corpus.part import Analysis, CorpusFocus, CorpusPart

__all__ = ["PART", "ChrfPart"]


class ChrfPart(CorpusPart):
    family = "chrf"
    has_implementations = True

    def report(self, testset, ts_key: str, family, d, *, progress, shared):
        from explainer.corpus.chrf_report import chrf_report

        return chrf_report(testset, dialect=d.name, progress=progress, **d.options_dict())

    def sections(self, focus: CorpusFocus) -> None:
        rep, i = focus.report, focus.i
        name = rep.d.metric_name
        lazy_section(f"The corpus {name} worked out — {rep.systems[i].name}", "cp_sec_worked_out",
                     partial(_worked_out, rep, i), anchor="worked-out")
        lazy_section(f"Corpus {name} and the mean of segment scores", "cp_sec_corpus_vs_mean",
                     partial(_corpus_vs_mean, rep, i), anchor="corpus-vs-mean")

    def analyses(self, focus: CorpusFocus) -> tuple[Analysis, ...]:
        return (Analysis("N-grams", draw=_ngrams_view, pair=True),)

    def reference_lengths(self, focus: CorpusFocus):
        lengths = np.asarray([len(r[0]) if r else 0 for r in focus.testset.references], dtype=np.int64)
        return lengths, "characters of reference 1"

    def segment_columns(self, focus: CorpusFocus) -> dict:
        return focus.report.segment_rows(focus.b)

    def segment_note(self, focus: CorpusFocus, seg: int, j: int) -> str:
        rep, k = focus.report, seg - 1
        s = rep.systems[j]
        return (f"Segment {seg}: {s.name}'s {rep.d.metric_name} alone {s.sentence[k]:.4f}, against reference "
                f"{s.trace.chosen_references[k] + 1} (the one kept); its statistics {list(s.trace.segment_stats[k])} "
                "are this segment's part of the corpus score.")

    def implementations(self, focus: CorpusFocus) -> None:
        from explainer.ui.corpus.chrf_implementations import implementations

        implementations(focus.report, focus.i, focus.ts_key)

    def warnings(self, focus: CorpusFocus) -> list[str]:
        return sorted({w.message for s in focus.report.systems for w in s.trace.warnings})


# --------------------------------------------------------------------------------------------- sections
def _worked_out(rep, i: int) -> None:
    from explainer.chrf.view import order_rows

    s = rep.systems[i]
    st.caption(hl.md_escape(f"{s.name}: " + s.trace.combination.explanation + "."))
    st.dataframe(pd.DataFrame(cview.table_rows(order_rows(s.trace))), hide_index=True, width="stretch",
                 key="cp_chrf_orders")
    for f in cview.average_formulas(s.trace):
        st.latex(f)


def _corpus_vs_mean(rep, i: int) -> None:
    """The corpus score against the mean of the segments' own scores, for every system (one line each)."""
    rows = [{"system": s.name, "corpus": s.trace.score, "mean of segment scores": float(np.mean(s.sentence)),
             "difference": s.trace.score - float(np.mean(s.sentence))} for s in rep.systems]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="cp_chrf_cvm")
    r = rows[i]
    same = abs(r["difference"]) <= 1e-9 * max(1.0, rep.scale)
    st.markdown(hl.md_escape(
        f"{r['system']}: " + ("the corpus score is the mean of the segment scores (this dialect averages per-order "
                              "F-scores over the segments)." if same else
                              f"corpus {r['corpus']:.4f}, mean of the {rep.n_segments:,} segment scores "
                              f"{r['mean of segment scores']:.4f}: the corpus score sums the segments' counts "
                              "first, so long segments weigh more and a short segment's zero counts little.")))
    cvm = rep.corpus_vs_mean(i)
    if not same and cvm.get("pulling_apart"):
        plot(cc.influence_figure(cvm), "cp_influence", selection_mode="points",
             on_select=partial(on_chart_open, "cp_influence", rep.names[i]))
        st.caption("Leave-one-out: for each segment, how much larger the gap (corpus − mean) is with it than without "
                   "it (the corpus score without it: the summed statistics of the others, as corpus_score scores "
                   "that corpus). Long segments with many matches raise the corpus score; short ones that score low "
                   "alone lower the mean. Click a bar to open that segment.")


# --------------------------------------------------------------------------------------------- n-grams
def _default_order(orders) -> int:
    words = [j for j, (kind, _) in enumerate(orders) if kind == "word"]
    return words[0] if words else len(orders) - 1


def _ngrams_view(focus: CorpusFocus) -> None:
    rep, b, i = focus.report, focus.b, focus.i
    orders = rep.d.orders
    labels = [f"{'character' if kind == 'char' else 'word'} {n}-grams" for kind, n in orders]
    ss = st.session_state
    if ss.get("cp_chrf_ngram_order") not in range(len(orders)):
        ss["cp_chrf_ngram_order"] = _default_order(orders)
    k = st.selectbox("Order", list(range(len(orders))), key="cp_chrf_ngram_order", format_func=labels.__getitem__)
    with st.spinner("Counting matched n-grams…"):
        nd = rep.ngram_differences(i, b, order=k)
    recs = [{**r, "n": f"{orders[k][0]} {orders[k][1]}"} for r in nd["better"] + nd["worse"]]
    nd = {**nd, "better": recs[:len(nd["better"])], "worse": recs[len(nd["better"]):]}
    plot(cc.ngram_diff_figure(nd), "cp_ngrams", selection_mode="points",
         on_select=partial(on_pick, "cp_ngrams", partial(cc.ngram_bar_segments, nd)))
    rows = [{"n-gram": r["ngram"], rep.names[i]: r["system"], rep.names[b]: r["baseline"],
             "difference": r["difference"], "segments": r["n_segments"]} for r in recs]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="cp_ngram_table",
                 selection_mode="single-row",
                 on_select=partial(on_group_row, "cp_ngram_table",
                                   [(r["segments"], f"{labels[k][:-1]} “{r['ngram']}”") for r in recs]))
    st.caption(hl.md_escape(
        f"chrF's own clipped matches of the {labels[k]} against each segment's kept reference, summed over the "
        f"corpus ({nd['matched']['system']:,} for {rep.names[i]}, {nd['matched']['baseline']:,} for "
        f"{rep.names[b]}: the order's match count in the worked-out score). Spaces are removed before character "
        "n-grams unless whitespace is kept. Click a bar or a row to list the segments where the two differ."))


PART = ChrfPart()
