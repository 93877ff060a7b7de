"""The Corpus page's chrF analyses (issue 23): what the BLEU view offers, for chrF — where the systems differ
(length buckets, largest deltas, segment scores, the character / word n-grams matched more or less often, sentence
score bands), each bar or row listing its segments in the segment table; the corpus score against the mean of the
segment scores; every chrF implementation on the corpus (sacreBLEU's ``corpus_score`` against NLTK's
``corpus_chrf``, :func:`explainer.dialectcmp.chrf_compare.compare_chrf_corpus`) with the first step and segment
where two part. An analysis of the BLEU view that has no meaning for chrF says so in one line.

The numbers are the report's (:mod:`explainer.corpus.chrf_report`); system names and n-grams reach markdown only
through ``md_escape``, tables and charts take them as data.
"""
from __future__ import annotations

import json
from functools import partial
from typing import Callable

import numpy as np
import pandas as pd
import streamlit as st

from explainer.ui import highlight as hl
from explainer.ui.corpus import charts as cc
from explainer.ui.corpus.common import (
    REDRAW,
    _on_chart_open,
    _open_segment,
    _plot,
    _redraw,
    _selected_points,
    _selected_rows,
)
from explainer.ui.progress import Progress

__all__ = ["differ", "corpus_vs_mean", "implementations", "filtered", "FILTER_KEY", "VIEWS", "NOT_FOR_CHRF",
           "IMPL_KEY"]

FILTER_KEY = "cp_chrf_filter"           # (label, 1-based segment ids) the segment table shows, or absent
IMPL_KEY = "cp_chrf_impl_results"       # {(test set, system): (rows by id, comparison dict)}, the last two
VIEW_KEY = "cp_chrf_view"
VIEWS = ("Length buckets", "Largest deltas", "Segment scores", "N-grams", "Sentence buckets")
#: the BLEU view's analyses that mean nothing for chrF, each with its one line
NOT_FOR_CHRF = {
    "Length ratio": "chrF has no brevity penalty: a short output loses recall, which β = 2 weighs twice as much as "
                    "precision — see Length buckets, and R per order in the worked-out score above.",
    "Precision by order": "chrF's precision, recall and F of every order are in “The corpus score worked out” above "
                          "(chrF averages them; BLEU multiplies its precisions).",
    "Word accuracy": "compare-mt's word accuracy counts the BLEU tokenizer's words, not chrF's n-grams: it is in "
                     "the BLEU view; chrF++'s word n-grams are under N-grams here.",
    "Source length": "scores by source length: the BLEU view (its buckets sum BLEU statistics); here, Length buckets "
                     "give chrF by reference length.",
}


def _filter(ids, label: str) -> None:
    """(A callback) list these segments in the segment table: reruns the segments' part only (``_redraw``)."""
    ss = st.session_state
    ss[FILTER_KEY] = (label, [int(x) for x in ids])
    ss.setdefault(REDRAW, set()).add("table")
    _redraw()


def _on_rows(key: str, groups: list[tuple[list[int], str]]) -> None:
    rows = _selected_rows(key)
    if rows and rows[0] < len(groups):
        _filter(*groups[rows[0]])


def _on_bar(key: str, resolve) -> None:
    pts = _selected_points(key)
    if pts:
        ids, label = resolve(pts[0])[:2]
        if ids:
            _filter(ids, label)


def _on_scatter(key: str, system: str) -> None:
    """One point clicked opens its segment (``system``'s candidate); a box or lasso lists the points' segments."""
    ids = []
    for p in _selected_points(key):
        cd = p.get("customdata") if isinstance(p, dict) else None
        x = cd[0] if isinstance(cd, list) and cd else cd
        if isinstance(x, (int, float)) and not isinstance(x, bool) and float(x).is_integer() and x >= 1:
            ids.append(int(x))
    if len(set(ids)) == 1:
        _open_segment(ids[0], system, f"opened from the chart: segment {ids[0]}")
    elif ids:
        _filter(sorted(set(ids)), f"{len(set(ids))} segment(s) picked in the chart")


def filtered(n_segments: int) -> tuple[str, list[int]] | None:
    """The segments the table is narrowed to (ids within the test set), or None; a button shows all again."""
    got = st.session_state.get(FILTER_KEY)
    if not got:
        return None
    label, ids = got
    ids = [k for k in ids if 1 <= k <= n_segments]
    if not ids:
        return None
    c1, c2 = st.columns([4, 1], vertical_alignment="center")
    c1.info(hl.md_escape(f"Showing {len(ids):,} segment(s): {label}."), icon=":material/filter_alt:")
    c2.button("Show all segments", key="cp_chrf_filter_clear", on_click=st.session_state.pop, args=(FILTER_KEY, None))
    return label, ids


# ------------------------------------------------------------------------------------- where they differ
def differ(rep, b: int, i: int) -> None:
    """One analysis at a time (as the BLEU view), then the BLEU analyses chrF has no use for, one line each."""
    st.header("Where the systems differ", anchor="chrf-differ")
    ss = st.session_state
    if ss.get(VIEW_KEY) not in VIEWS:
        ss[VIEW_KEY] = VIEWS[0]
    view = st.segmented_control("Analysis", list(VIEWS), key=VIEW_KEY) or VIEWS[0]
    if view in ("Largest deltas", "Segment scores", "N-grams") and i == b:
        st.info("Pick a system other than the baseline above.")
    else:
        {"Length buckets": _buckets, "Largest deltas": _deltas, "Segment scores": _scatter, "N-grams": _ngrams,
         "Sentence buckets": _bands}[view](rep, b, i)
    with st.expander("The BLEU view's other analyses, for chrF"):
        for name, line in NOT_FOR_CHRF.items():
            st.markdown(f"- **{name}**: {line}")


def _buckets(rep, b: int, i: int) -> None:
    # the buckets' edges are fixed lengths: one without a segment has no mean (it was a bar of 0 and "None")
    lb = [x for x in rep.length_buckets() if x["n_segments"]]
    _plot(cc.length_buckets_figure(lb, rep.names, metric=f"mean segment {rep.d.metric_name}",
                                   title=f"Mean segment {rep.d.metric_name} by the length of reference 1 "
                                         "(characters)"),
          "cp_chrf_buckets_chart", selection_mode="points",
          on_select=partial(_on_bar, "cp_chrf_buckets_chart", partial(cc.bucket_bar_segments, lb,
                                                                       unit=" characters")))
    groups = [(x["segments"], f"reference length {x['bucket']} characters") for x in lb]
    st.dataframe(pd.DataFrame([{"bucket": x["bucket"], "segments": x["n_segments"], **x["scores"]} for x in lb]),
                 hide_index=True, width="stretch", key="cp_chrf_buckets", selection_mode="single-row",
                 on_select=partial(_on_rows, "cp_chrf_buckets", groups))
    st.caption("The mean of the segments' own scores per bucket (chrF's corpus score is no sum of segment scores: "
               "see below). Click a bar or a row to list its segments in the table below.")


def _deltas(rep, b: int, i: int) -> None:
    dl = rep.largest_deltas(i, b)
    st.caption(f"{dl['n_better']:,} segments score higher than the baseline, {dl['n_worse']:,} lower, "
               f"{dl['n_equal']:,} the same.")
    for what, words in (("better", "above"), ("worse", "below")):
        rows = dl.get(what) or []
        if rows:
            st.markdown(f"**Segments most {words} the baseline** (click a row to list it below)")
            ids = [r["segment"] for r in rows]
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key=f"cp_chrf_deltas_{what}",
                         selection_mode="single-row",
                         on_select=partial(_on_rows, f"cp_chrf_deltas_{what}",
                                           [([k], f"segment {k}") for k in ids]))
    delta = rep.systems[i].sentence - rep.systems[b].sentence
    _plot(cc.delta_histogram_figure(delta, name=rep.names[i], base_name=rep.names[b]), "cp_chrf_delta_hist",
          selection_mode="points",
          on_select=partial(_on_bar, "cp_chrf_delta_hist", partial(cc.delta_bar_segments, delta)))


def _scatter(rep, b: int, i: int) -> None:
    _plot(cc.segment_scatter_figure(rep.systems[b].sentence, rep.systems[i].sentence, base_name=rep.names[b],
                                    name=rep.names[i], metric=f"segment {rep.d.metric_name}"),
          "cp_chrf_scatter", selection_mode=("points", "box", "lasso"),
          on_select=partial(_on_scatter, "cp_chrf_scatter", rep.names[i]))
    st.caption("Each point is a segment (above the diagonal: the system scores higher there). Click one to open it "
               "in the segment view, or draw a box or lasso (the chart's toolbar) to list them in the table below.")


def _ngrams(rep, b: int, i: int) -> None:
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
    _plot(cc.ngram_diff_figure(nd), "cp_chrf_ngrams", selection_mode="points",
          on_select=partial(_on_bar, "cp_chrf_ngrams", partial(cc.ngram_bar_segments, nd)))
    rows = [{"n-gram": r["ngram"], rep.names[i]: r["system"], rep.names[b]: r["baseline"],
             "difference": r["difference"], "segments": r["n_segments"]} for r in recs]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="cp_chrf_ngram_table",
                 selection_mode="single-row",
                 on_select=partial(_on_rows, "cp_chrf_ngram_table",
                                   [(r["segments"], f"{labels[k][:-1]} “{r['ngram']}”") for r in recs]))
    st.caption(hl.md_escape(
        f"chrF's own clipped matches of the {labels[k]} against each segment's kept reference, summed over the "
        f"corpus ({nd['matched']['system']:,} for {rep.names[i]}, {nd['matched']['baseline']:,} for "
        f"{rep.names[b]}: the order's match count in the worked-out score). Spaces are removed before character "
        "n-grams unless whitespace is kept. Click a bar or a row to list the segments where the two differ."))


def _default_order(orders) -> int:
    words = [j for j, (kind, _) in enumerate(orders) if kind == "word"]
    return words[0] if words else len(orders) - 1


BANDS = (0, 20, 40, 60, 80, 100.000001)


def _bands(rep, b: int, i: int) -> None:
    """How many segments of each system score in each band of 20 points (0–100)."""
    factor = 100.0 / rep.scale
    labels = [f"{lo:g}–{min(hi, 100):.0f}" for lo, hi in zip(BANDS[:-1], BANDS[1:])]
    buckets = []
    for k, (lo, hi) in enumerate(zip(BANDS[:-1], BANDS[1:])):
        per = {s.name: np.flatnonzero((s.sentence * factor >= lo) & (s.sentence * factor < hi)) for s in rep.systems}
        segs = sorted({int(x) + 1 for v in per.values() for x in v})
        buckets.append({"bucket": labels[k], "n_segments": len(segs), "segments": segs,
                        "scores": {n: int(len(v)) for n, v in per.items()}})
    _plot(cc.length_buckets_figure(buckets, rep.names, metric="segments", what="segment score (0–100)",
                                   title=f"Segments per band of segment {rep.d.metric_name}"), "cp_chrf_bands",
          selection_mode="points",
          on_select=partial(_on_bar, "cp_chrf_bands", partial(cc.bucket_bar_segments, buckets,
                                                               what="segment score")))
    st.caption("compare-mt's sentence buckets with chrF: how many segments of each system score in each band. "
               "Click a bar to list the band's segments (of every system) below.")


# ------------------------------------------------------------------------------- corpus vs mean
def corpus_vs_mean(rep, i: int) -> None:
    """The corpus score against the mean of the segments' own scores, for every system (one line each)."""
    st.header(f"Corpus {rep.d.metric_name} and the mean of segment scores", anchor="chrf-corpus-vs-mean")
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
        _plot(cc.influence_figure(cvm), "cp_chrf_influence", selection_mode="points",
              on_select=partial(_on_chart_open, "cp_chrf_influence", rep.names[i]))
        st.caption("Leave-one-out: for each segment, how much larger the gap (corpus − mean) is with it than without "
                   "it (the corpus score without it: the summed statistics of the others, as corpus_score scores "
                   "that corpus). Long segments with many matches raise the corpus score; short ones that score low "
                   "alone lower the mean. Click a bar to open that segment.")


# ------------------------------------------------------------------------------- every implementation
def _compute(lines, refs):
    from explainer.dialectcmp.chrf_compare import corpus_comparison

    bar = Progress("Scoring the corpus with every chrF implementation…")

    def progress(done: int, total: int, what: str) -> None:
        bar(done / max(total, 1), f"Every implementation: {what} ({done} of {total})")

    try:
        return corpus_comparison(lines, refs, progress=progress)
    finally:
        bar.done()


def implementations(rep, i: int, ts_key: str) -> None:
    """sacreBLEU's chrF2 / chrF2++ / eps smoothing and NLTK's corpus_chrf (β = 3 and 2) on system ``i``'s output,
    computed when asked for (one corpus pass per row), and the first step where two rows part."""
    from explainer.dialectcmp.limits import MAX_CORPUS_CHARS, MAX_CORPUS_SEGMENTS
    from explainer.ui.dialects.chrf_part import STEP_WORDS, scores_figure

    st.header("Every implementation on this corpus", anchor="chrf-implementations")
    name = rep.names[i]
    st.caption(hl.md_escape(f"{name}'s output scored by sacreBLEU's CHRF (chrF2, chrF2++, eps smoothing: "
                            "corpus_score sums the statistics) and NLTK's corpus_chrf (β = 3 and 2: the mean of the "
                            "per-order F over segments), and the first step where each differs from the first row."))
    lines, refs = list(rep.testset.systems[i][1]), [list(r) for r in rep.testset.references]
    n_chars = sum(map(len, lines)) + sum(len(r) for rs in refs for r in rs)
    if len(lines) > MAX_CORPUS_SEGMENTS or n_chars > MAX_CORPUS_CHARS:
        st.info(f"This test set has {len(lines):,} segments and {n_chars:,} characters; the side-by-side takes at "
                f"most {MAX_CORPUS_SEGMENTS:,} segments and {MAX_CORPUS_CHARS:,} characters.", icon=":material/info:")
        return
    store = st.session_state.setdefault(IMPL_KEY, {})
    key = (ts_key, i)
    if key not in store:
        if not st.button(f"Compare every implementation on {len(lines):,} segments", key="cp_impl_chrf_run",
                         icon=":material/compare:", type="primary"):
            return
        try:
            store[key] = _compute(lines, refs)
        except ValueError as e:
            st.error(hl.md_escape(str(e)))
            return
        while len(store) > 2:
            store.pop(next(iter(store)))
    rows, res = store[key]
    first = {p["b"]: p for p in res["pairs"]}
    st.dataframe(pd.DataFrame([{"implementation": r["label"], "score 0–100": r["score"],
                                "as the library reports it": r["native_score"],
                                "first difference from row 1": "(reference row)" if k == 0 else
                                STEP_WORDS.get(first.get(r["id"], {}).get("first_step"), "same score"),
                                "averaging": r["averaging"], "signature": r["signature"]}
                               for k, r in enumerate(res["rows"])]),
                 hide_index=True, width="stretch", key="cp_impl_chrf_table")
    _plot(scores_figure(res), "cp_impl_chrf_scores")
    _pair(rows, res)
    st.download_button("Download the comparison (JSON)", json.dumps(res, ensure_ascii=False, indent=1),
                       file_name="implementations-chrf.json", mime="application/json", key="cp_impl_chrf_dl",
                       icon=":material/download:", on_click="ignore")


def _pair(rows: dict, res: dict) -> None:
    from explainer.dialectcmp.chrf_compare import corpus_pair
    from explainer.ui.corpus.dialects import pick_two_rows
    from explainer.ui.dialects.chrf_part import STEP_WORDS, divergence_rows

    labels = {r["id"]: r["label"] for r in res["rows"]}
    picked = pick_two_rows([r["id"] for r in res["rows"]], labels, "cp_impl_chrf_a", "cp_impl_chrf_b")
    if picked is None:
        return
    a, b = picked
    pair = next((p for p in res["pairs"] if p["a"] == a and p["b"] == b), None)
    if pair is None:
        pair = corpus_pair(rows, a, b)
        res["pairs"].append(pair)
    step = STEP_WORDS.get(pair["first_step"], "none: the same score")
    st.markdown(f"**First divergence: {hl.md_escape(step)}** — {hl.md_escape(pair['why'])}")
    if pair.get("cells"):
        st.dataframe(pd.DataFrame(divergence_rows(pair, labels[a], labels[b])), hide_index=True, width="stretch",
                     key="cp_impl_chrf_cells")
    if pair.get("segment") is not None:
        k = pair["segment"] + 1
        st.button(f"List segment {k} in the table below", key="cp_impl_chrf_open", on_click=_filter,
                  args=([k], f"segment {k}: the first where {labels[a]} and {labels[b]} differ"))


# ------------------------------------------------------------------------------------------ downloads
def paper_table_input(rep, res=None) -> dict:
    """The comparison as ``compare --metric chrf`` writes it (``explainer.corpus.tables``' input): the paired
    test's rows (baseline first) and sacreBLEU's paired signature when a test was run, else the corpus scores."""
    from explainer.corpus.significance import paired_signature

    out = {"metric": "chrf", "name": rep.d.metric_name, "n_segments": rep.n_segments, "signature": rep.signature}
    if res is None:
        out["systems"] = [{"name": s.name, "score": float(s.trace.score)} for s in rep.systems]
        out["test"] = {"type": None}
        return out
    out["systems"] = [s.to_dict() for s in res.systems]
    out["test"] = {"type": res.test, "n_samples": res.n_samples, "seed": res.seed}
    if res.faithful:
        out["signature"] = paired_signature(rep.signature, res.test, res.n_samples, res.seed, res.n_ar_confidence)
    return out


def paper_table(rep, res, fmt: str) -> str:
    from explainer.corpus.export import clean_json
    from explainer.corpus.tables import render_table

    return render_table(clean_json(paper_table_input(rep, res)), fmt)


def downloads(rep, b: int, result: Callable[[], object], save: Callable[[], None]) -> None:
    """The BLEU view's downloads for chrF: the per-segment table with the texts (CSV), the tables for the paper
    (LaTeX, Markdown: the paired test's numbers when one was run above) and the report (JSON). ``result()``: the
    paired test run for this view, or None — called when a table is pressed for (a test run since redrew its own
    part of the page only, not this one)."""
    from explainer.corpus.export import columns_csv, testset_texts, with_texts

    st.header("Downloads", anchor="chrf-downloads")
    c1, c2, c3, c4 = st.columns(4)
    c1.download_button("Per-segment table with the texts (CSV)",
                       lambda: columns_csv(with_texts(rep.segment_rows(b), *testset_texts(rep.testset))),
                       file_name="corpus_segments_chrf.csv", mime="text/csv", key="cp_chrf_dl_csv",
                       on_click="ignore")
    c2.download_button("Table for the paper (LaTeX, booktabs)", lambda: paper_table(rep, result(), "latex"),
                       file_name="corpus_chrf_table.tex", mime="text/x-tex", key="cp_chrf_dl_latex",
                       on_click="ignore")
    c3.download_button("Table for the paper (Markdown)", lambda: paper_table(rep, result(), "markdown"),
                       file_name="corpus_chrf_table.md", mime="text/markdown", key="cp_chrf_dl_md",
                       on_click="ignore")
    c4.download_button("Report (JSON)", lambda: json.dumps(rep.to_dict(baseline=b), ensure_ascii=False, indent=1),
                       file_name="chrf-report.json", mime="application/json", key="cp_chrf_dl", on_click="ignore")
    st.caption("The tables hold each system's score, the bootstrap mean ± 95 % CI and the p-value against the "
               "baseline when a test was run above, and the signature as a footnote — what `compare --metric chrf "
               "--format latex` writes.")
    save()


# ------------------------------------------------------------------------------------------ segment view
def segment_view(rep) -> None:
    """One segment in the page, as the BLEU view opens it: the segment picker and the system whose candidate is
    shown (``seg`` / ``seg_system`` in the link), the outputs and references side by side, and the Explain page's
    chrF steps for this segment with the page's chrF settings (the segment's own trace of the report)."""
    from explainer.errors import ExplainerInputError
    from explainer.ui.chrf_section import chrf_section
    from explainer.ui.corpus.segments import _scroll_to_segment_view, _segment_navigation, _side_by_side

    st.header("Segment view", anchor="segment-view")
    _scroll_to_segment_view()
    seg, j = _segment_navigation(rep.n_segments, rep.names)
    k = seg - 1
    _side_by_side(rep, k, j)
    s = rep.systems[j]
    st.caption(hl.md_escape(f"Segment {seg}: {s.name}'s {rep.d.metric_name} alone {s.sentence[k]:.4f}, against "
                            f"reference {s.trace.chosen_references[k] + 1} (the one kept); its statistics "
                            f"{list(s.trace.segment_stats[k])} are this segment's part of the corpus score."))
    try:
        trace = s.trace.segment(k)
    except (ExplainerInputError, ValueError) as e:
        st.info(hl.md_escape(str(e)), icon=":material/info:")
        return
    chrf_section(trace)
