"""BLEU's own part of the Corpus page (``explainer.ui.corpus.part.CorpusPart``): its report (the statistics of every
segment, shared between settings that count alike), the corpus score worked out, corpus BLEU against the mean of
sentence BLEUs, and its analyses — precision by order, the n-grams one system matches that the other does not, the
length ratio, compare-mt's word accuracy and source-length buckets. Every number is the report's
(``explainer.corpus.report``); every bar and row leads to its segments.
"""
from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from explainer.ui import highlight as hl
from explainer.ui.corpus import charts as cc
from explainer.ui.corpus.common import (
    filter_segments,
    fmt,
    on_chart_open,
    on_group_row,
    on_pick,
    on_segment_row,
    open_segment,
    plot,
    selected_points,
)
from explainer.ui.corpus.lazy import lazy_section
from explainer.ui.corpus.part import Analysis, CorpusFocus, CorpusPart

__all__ = ["PART", "BleuPart"]

STATS_SHARE = 8     # statistics take an eighth of what a report does (WMT22 en-de: 0.5 MB against 3.8 MB)


class BleuPart(CorpusPart):
    family = "bleu"
    has_implementations = True

    def report(self, testset, ts_key: str, family, d, *, progress, shared):
        """The BLEU report; its statistics kept apart under the dialect's ``counts_key``: an option applied after
        counting (smoothing, effective order) makes a new report from them in a fraction of the time."""
        from explainer.corpus.report import bleu_report, report_stats

        stats = shared("bleu-stats", (ts_key, tuple(testset.names), d.counts_key),
                       lambda: report_stats(testset, d, progress=progress), share=STATS_SHARE)
        return bleu_report(testset, dialect=d.name, keep_refs=False, progress=progress, stats=stats,
                           **d.options_dict())

    def sections(self, focus: CorpusFocus) -> None:
        rep, i = focus.report, focus.i
        lazy_section(f"Corpus BLEU worked out — {rep.systems[i].name}", "cp_sec_worked_out",
                     partial(_worked_out, rep, i), anchor="worked-out")
        lazy_section("Corpus BLEU ≠ mean of sentence BLEUs", "cp_sec_corpus_vs_mean", partial(_corpus_vs_mean, rep, i),
                     anchor="corpus-vs-mean")

    def analyses(self, focus: CorpusFocus) -> tuple[Analysis, ...]:
        return (Analysis("Precision by order", draw=_precision_view),
                Analysis("N-grams", draw=_ngrams_view, pair=True),
                Analysis("Length ratio", compute=lambda f: f.report.length_ratio(),
                         figure=lambda rows, f: cc.length_ratio_figure(rows), lists=cc.ratio_bar_segments,
                         caption="c / r below 1: the segment is shorter than its reference (alone, it would get a "
                                 "brevity penalty). Click a bar to list that system's segments in the bin in the "
                                 "table below."),
                Analysis("Word accuracy", draw=_word_accuracy_view),
                # compare-mt's own sentence BLEU (NLTK's method 2), as compare-mt buckets it: BLEU's own analysis
                # in place of the generic bands of the segment score
                Analysis("Sentence buckets", compute=_sentence_buckets, figure=_sentence_buckets_figure,
                         lists=partial(cc.bucket_bar_segments, what="sentence score"),
                         caption=_sentence_buckets_caption),
                Analysis("Source length", draw=_source_length_view,
                         applies=lambda f: f.testset.source is not None))

    def reference_lengths(self, focus: CorpusFocus):
        import numpy as np

        lengths = np.asarray([x[0] if x else 0 for x in focus.report.ref_lens], dtype=np.int64)
        return lengths, f"tokens of reference 1 ({focus.d.tokenizer_name or focus.d.name})"

    def segment_columns(self, focus: CorpusFocus) -> dict:
        return focus.report.segment_rows(focus.b)

    def segment_note(self, focus: CorpusFocus, seg: int, j: int) -> str:
        rep, k = focus.report, seg - 1
        s = rep.systems[j]
        return (f"Segment {seg}: sentence score {s.sentence[k]:.4f} alone ({rep.dialect}), BP {s.bp[k]:.4f}, "
                f"c = {int(s.stats[k, 0])}, r = {int(s.stats[k, 1])}; its statistics {s.stats[k].tolist()} are one "
                f"of the {rep.n_segments:,} rows summed into the corpus score.")

    def implementations(self, focus: CorpusFocus) -> None:
        from explainer.ui.corpus import dialects as corpus_dialects

        corpus_dialects.render(focus.report, "bleu", focus.i, focus.ts_key, label="BLEU", how="summed statistics",
                               plot=plot, open_segment=open_segment)

    def report_dict(self, focus: CorpusFocus, tests: dict | None) -> dict:
        return focus.report.to_dict(baseline=focus.b, tests=tests)

    def warnings(self, focus: CorpusFocus) -> list[str]:
        rep = focus.report
        out = [f"{rep.d.implementation}: {w}" for w in sorted({w.message for s in rep.systems
                                                                for w in s.trace.warnings})]
        for s in rep.systems:
            if s.trace.library_error is not None:
                e = s.trace.library_error
                out.append(f"{s.name}: the real {rep.d.implementation} raises {e.type} here: {e.explanation}")
        return out


# --------------------------------------------------------------------------------------------- sections
def _systems_table(rep) -> None:
    rows = []
    for s in rep.systems:
        t = s.trace
        row = {"system": s.name, "BLEU": s.score, "BP": t.bp, "ratio c/r": t.combination.ratio,
               "sys_len": t.sys_len, "ref_len": t.ref_len}
        row.update({f"p{n + 1}": p for n, p in enumerate(t.precisions)})
        rows.append(row)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="cp_bleu_systems",
                 column_config={"BLEU": st.column_config.NumberColumn(format="%.4f")})


def _worked_out(rep, i: int) -> None:
    from explainer.ui import bleu_view as bv
    from explainer.ui import charts

    t = rep.systems[i].trace
    st.caption("Every segment adds its clipped matches and its n-gram totals per order, its length c and its chosen "
               "reference length r; the corpus score is computed once from these sums.")
    orders = bv.order_rows(t)
    rows = [{"order": o["n"], "summed matches": o["matches"], "summed totals": o["totals"],
             "precision": o["precision_raw"], "after smoothing": o["precision"], "how": o["formula"],
             "in the mean": o["included"]} for o in orders]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    plot(charts.bleu_counts_figure(orders), "cp_counts")
    # two precisions per line: four of a WMT-sized corpus (p₄ = 11559/33421 = 0.345…) were cut at 1280 px
    orders_c = list(t.combination.orders)
    if not orders_c:
        st.latex(r"\text{—}")
    for k in range(0, len(orders_c), 2):
        st.latex(r"\quad ".join(bv.precision_latex(o) for o in orders_c[k:k + 2]))
    st.markdown(hl.md_escape(f"Total candidate length c = {t.sys_len:,} tokens, total reference length r = "
                             f"{t.ref_len:,} (each segment's r is the reference length its rule picks; "
                             f"the corpus r is their sum). Ratio c/r = {fmt(t.combination.ratio, 1)}."))
    st.latex(bv.bp_latex(t))
    st.latex(bv.formula_latex(t))
    if t.combination.early_exit:
        st.info(hl.md_escape(t.combination.early_exit))
    st.markdown("**Every system's brevity penalty, lengths and precisions**")
    _systems_table(rep)


def _corpus_vs_mean(rep, i: int) -> None:
    rows = [rep.corpus_vs_mean(j) for j in range(len(rep.systems))]
    plot(cc.corpus_vs_mean_figure(rows, scale=rep.scale), "cp_cvm")
    cvm = rows[i]
    line = (f"For {cvm['system']}: corpus {fmt(cvm['corpus'], rep.scale)}, mean of the {cvm['n_segments']:,} "
            f"sentence scores {fmt(cvm['mean_of_sentences'], rep.scale)} (difference {cvm['gap']:+.4f}).")
    if "mean_sentence_bleu" in cvm:
        line += (f" sacreBLEU's two sentence-level entry points differ too: sacrebleu.sentence_bleu turns "
                 f"effective order on (mean {fmt(cvm['mean_sentence_bleu'], rep.scale)}), BLEU().sentence_score "
                 f"keeps it off as BLEU() does (mean {fmt(cvm['mean_sentence_score'], rep.scale)}); with it off, a "
                 "short segment without a single 4-gram scores 0.")
    st.markdown(hl.md_escape(line))
    st.markdown("**Why they differ on this data**")
    for r in cvm["reasons"]:
        c1, c2 = st.columns([5, 1], vertical_alignment="center")
        c1.markdown("- " + hl.md_escape(r["text"]))
        if r["segments"]:
            c2.button(f"{len(r['segments']):,} segment{'' if len(r['segments']) == 1 else 's'}",
                      key=f"cp_reason_{r['what']}", on_click=filter_segments, args=(r["segments"], r["what"]),
                      help="Show these segments in the table below")
    if cvm.get("pulling_apart"):
        plot(cc.influence_figure(cvm), "cp_influence", selection_mode="points",
             on_select=partial(on_chart_open, "cp_influence", rep.names[i]))
        st.caption("Leave-one-out: for each segment, how much larger the gap (corpus − mean) is with it than without "
                   "it. Long segments with many matches raise the corpus score; short ones that score 0 alone lower "
                   "the mean. Click a bar to open that segment.")


# --------------------------------------------------------------------------------------------- analyses
def _counts_analysis(focus: CorpusFocus, name: str, compute):
    """An analysis that depends only on what the statistics depend on (the tokens, the references, the order; not
    smoothing or effective order): computed once per test set and the dialect's ``counts_key``, shared by the
    server's sessions, so a smoothing change keeps it (issue 18). A spinner the first time."""
    rep = focus.report
    key = (focus.ts_key, tuple(rep.names), rep.d.counts_key, name)

    def run():
        with st.spinner(f"Computing the {name.split(':')[0].replace('_', ' ')} analysis (once per test set and "
                        "tokenization)…"):
            return compute()

    return focus.shared("comparemt", key, run, share=STATS_SHARE)


def _precision_view(focus: CorpusFocus) -> None:
    rep = focus.report
    rows = rep.precision_by_order()
    plot(cc.precision_by_order_figure(rows), "cp_prec", selection_mode="points",
         on_select=partial(_on_precision_bar, rows))
    pick = st.session_state.get("cp_prec_pick")
    if not pick or pick[0] not in rep.names or not 1 <= pick[1] <= rep.max_order:
        st.caption("Each bar is a sum over the segments: click one to list them, each with its own matches and "
                   "n-grams of that order.")
        return
    name, n = pick
    got = rep.precision_segments(rep.names.index(name), n)
    recs = got["segments"]
    ids = [r["segment"] for r in recs]
    prec = got["matches"] / got["totals"] if got["totals"] else float("nan")
    st.markdown(hl.md_escape(f"p{n} of {name} = {got['matches']:,} / {got['totals']:,} = {prec:.4f}: the clipped "
                             f"{n}-gram matches and the {n}-grams of the {len(recs):,} segments that have any, "
                             f"summed. Most unmatched first (they pull p{n} down most); click a row to open the "
                             "segment."))
    st.dataframe(pd.DataFrame(recs, columns=["segment", "matches", "totals", "missed", "precision"]),
                 hide_index=True, width="stretch", height=280, selection_mode="single-row", key="cp_prec_table",
                 on_select=partial(on_segment_row, "cp_prec_table", ids, name),
                 column_config={"precision": st.column_config.NumberColumn(format="%.4f")})
    if ids:
        st.button(f"List these {len(ids):,} segments in the table below", key="cp_prec_filter",
                  on_click=filter_segments, args=(ids, f"{name}: segments with {n}-grams"))


def _on_precision_bar(rows: list[dict]) -> None:
    pts = selected_points("cp_prec")
    pick = cc.precision_bar_pick(rows, pts[0]) if pts else None
    if pick is not None:
        st.session_state["cp_prec_pick"] = (rows[pick[0]]["system"], pick[1])


def _ngrams_view(focus: CorpusFocus) -> None:
    rep, b, i = focus.report, focus.b, focus.i
    nd = _counts_analysis(focus, f"ngrams:{i}:{b}", lambda: rep.ngram_differences(i, b))
    plot(cc.ngram_diff_figure(nd), "cp_ngrams", selection_mode="points",
         on_select=partial(on_pick, "cp_ngrams", partial(cc.ngram_bar_segments, nd)))
    records = nd["better"] + nd["worse"]
    rows = [{"n-gram": r["ngram"], "n": r["n"], rep.names[i]: r["system"], rep.names[b]: r["baseline"],
             "difference": r["difference"], "segments": r["n_segments"]} for r in records]
    groups = [(r["segments"], f"n-gram “{r['ngram']}”") for r in records]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", selection_mode="single-row",
                 key="cp_ngram_table", on_select=partial(on_group_row, "cp_ngram_table", groups))
    st.caption("Clipped matches (as BLEU counts them) summed over the corpus. Click a bar or a row to list the "
               "segments where the two systems match that n-gram a different number of times.")


def _sentence_buckets(focus: CorpusFocus) -> list[dict]:
    from explainer.corpus.comparemt import sentence_buckets

    rep = focus.report
    sb = _counts_analysis(focus, "sentence_buckets", lambda: sentence_buckets(rep))
    return [{"bucket": lab, "n_segments": sum(s["counts"][k] for s in sb["systems"]),
             "segments": sorted({x for s in sb["systems"] for x in s["segments"][k]}),
             "scores": {s["system"]: s["counts"][k] for s in sb["systems"]}} for k, lab in enumerate(sb["labels"])]


def _sentence_buckets_figure(buckets, focus: CorpusFocus):
    return cc.length_buckets_figure(buckets, focus.names, metric="segments", what="sentence score",
                                    title="Segments per band of sentence score (compare-mt)")


def _sentence_buckets_caption(buckets, focus: CorpusFocus) -> str:
    from explainer.corpus.comparemt import SENTBLEU_SCORED_BY

    return (f"compare-mt's sentence bucket analysis: how many segments of each system score in each band; sentence "
            f"scores: {SENTBLEU_SCORED_BY}. Click a bar to list the band's "
            "segments (of every system) below.")


def _word_accuracy_view(focus: CorpusFocus) -> None:
    from explainer.corpus.comparemt import word_accuracy
    rep = focus.report
    wa = _counts_analysis(focus, "word_accuracy", lambda: word_accuracy(rep))
    buckets = [{"bucket": lab, "n_segments": len(wa["systems"][0]["buckets"][k]["segments"]),
                "segments": wa["systems"][0]["buckets"][k]["segments"],
                "scores": {s["system"]: s["buckets"][k]["fmeasure"] for s in wa["systems"]}}
               for k, lab in enumerate(wa["labels"])]
    buckets = [bk for k, bk in enumerate(buckets)
               if any(s["buckets"][k]["reference_words"] or s["buckets"][k]["output_words"] for s in wa["systems"])]
    plot(cc.length_buckets_figure(buckets, rep.names, metric="word F-measure", what="frequency",
                                  title="Word accuracy (F-measure) by frequency in the references"),
         "cp_wordacc", selection_mode="points",
         on_select=partial(on_pick, "cp_wordacc", partial(cc.bucket_bar_segments, buckets,
                                                           what="words of reference frequency")))
    rows = [{"system": s["system"], "frequency": bk["bucket"], "matches": bk["matches"],
             "output words": bk["output_words"], "reference words": bk["reference_words"],
             "precision": bk["precision"], "recall": bk["recall"], "F": bk["fmeasure"]}
            for s in wa["systems"] for bk in s["buckets"]]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption("compare-mt's word accuracy analysis: each word of an output or a reference is bucketed by how often "
               "it occurs in the references (first reference); a word matches min(count in the output, count in "
               "the reference) times per segment. The tokens are the BLEU dialect's. Click a bar to list the "
               "segments with words of that bucket.")


def _source_length_view(focus: CorpusFocus) -> None:
    from explainer.corpus.comparemt import source_length_buckets
    rep = focus.report
    buckets = focus.cached("source_length", lambda: source_length_buckets(rep, rep.testset.source))
    plot(cc.length_buckets_figure(buckets, rep.names, what="source length",
                                  title="BLEU by source length (buckets of about equal size)"), "cp_srcbuckets",
         selection_mode="points", on_select=partial(on_pick, "cp_srcbuckets",
                                                     partial(cc.bucket_bar_segments, buckets, what="source length")))
    st.caption("Corpus BLEU of the segments whose source has that many words (characters for a source written "
               "without spaces). Click a bar to list its segments below.")


PART = BleuPart()
