"""The Corpus page: whole test sets, several systems, every segment one click from its explanation.

The page computes nothing itself: ``explainer.corpus`` builds the report (corpus scores, per-segment scores, the
analyses, the confidence intervals and paired tests) and ``explainer.ui.corpus.charts`` draws it. The metric
settings are the shared model of every page (``explainer.ui.settings``: the same sidebar as the Explain page, and
what is set on one page holds on the others). A segment opens in the Explain page's own components
(``explain.page.headline`` / ``bleu_section`` / ``rouge_section``) with the same settings and the same shared
traces (``explainer.ui.compute``), and as a link to the Explain page that carries the settings.

Bounded: the page takes at most PAGE_MAX_SEGMENTS segments, PAGE_MAX_SYSTEMS systems, 1–4 references and
PAGE_MAX_BYTES of uploads, checked before any work (the ``compare`` CLI streams larger test sets). Texts live in
this browser session's memory only: never written to disk, never logged. Results are kept per input and settings
(a rerun — sorting, filtering, opening a segment — recomputes nothing).
"""
from __future__ import annotations

import time
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

from explainer.corpus.export import columns_csv, json_text, testset_texts, with_texts
from explainer.corpus.testset import (
    TestSet,
    TestSetError,
)
from explainer.errors import ExplainerInputError
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import settings as metric_settings
from explainer.ui import traps_view
from explainer.ui.corpus import charts as cc
from explainer.ui.corpus import chrf_section
from explainer.ui.corpus import dialects as corpus_dialects
from explainer.ui.corpus import reproduce as corpus_reproduce
from explainer.ui.corpus.link import PAGE, SAVED_VIEW_KEYS

__all__ = ["render"]
from explainer.ui.corpus.common import (
    RUN_FIGURES,
    _app_run_if_needed,
    _apply_open_request,
    _filter_segments,
    _fmt,
    _on_chart_open,
    _on_group_row,
    _on_pick,
    _on_segment_row,
    _open_segment,
    _plot,
    _rouge_types,
    _selected_points,
)
from explainer.ui.corpus.reports import (
    _bleu_report,
    _rouge_corpus_options,
    _rouge_report,
    _tests_key,
    counts_analysis,
)
from explainer.ui.corpus.segments import _segments_fragment
from explainer.ui.corpus.significance import _restore_tests, _significance_section, p_value_text
from explainer.ui.corpus.state import _link_in, _sync_url
from explainer.ui.corpus.testset import _input_section, _system_names


def _language_pair() -> None:
    """sacreBLEU's language pair (``-l en-zh``): the target picks the tokenizer, as sacreBLEU's own table says."""
    st.text_input("Language pair (sacreBLEU's -l: the target picks the tokenizer)", key="cp_langpair",
                  placeholder="e.g. en-de, en-zh", max_chars=20, on_change=_apply_language_pair)
    note = st.session_state.pop("cp_langpair_note", None)
    if note:
        st.caption(hl.md_escape(note))


def _apply_language_pair() -> None:
    from explainer.bleu.registry import dialect_options
    from explainer.corpus.langpair import parse_language_pair

    ss = st.session_state
    text = (ss.get("cp_langpair") or "").strip()
    if not text:
        return
    try:
        pair = parse_language_pair(text)
    except ExplainerInputError as e:
        ss["cp_langpair_note"] = str(e)
        return
    current, _ = metric_settings.current_settings()
    bleu = current["bleu"]
    if "tokenize" not in bleu.options:
        ss["cp_langpair_note"] = (f"{bleu.dialect} has no tokenizer setting; the language pair is "
                                  "sacreBLEU's (pick sacrebleu in the sidebar)")
        return
    spec = next((o for o in dialect_options(bleu.dialect) if o["name"] == "tokenize"), {})
    if pair.tokenizer not in (spec.get("choices") or ()):
        ss["cp_langpair_note"] = (f"sacreBLEU picks {pair.tokenizer} for {pair.target}: it needs MeCab, which this "
                                  f"explainer does not have; pick char (or another) in the sidebar")
        return
    metric_settings.put_settings(current.replace(bleu.replace(tokenize=pair.tokenizer)))
    ss["cp_langpair_note"] = (f"{pair.source}-{pair.target}: tokenizer {pair.tokenizer}, sacreBLEU's choice for "
                              f"{pair.target} (sidebar)")


def saved_comparison() -> str | None:
    """This view as a saved comparison (``explainer.corpus.saved``), or None when nothing is loaded."""
    parts = _saved_parts()
    return None if parts is None else _dump_saved(parts)


def _dump_saved(parts) -> str:
    from explainer.corpus.saved import dump_saved

    return dump_saved(parts)


def save_button() -> None:
    """"Save this comparison" (BLEU, ROUGE and chrF views): this run's view; its "cp_tests" is the page's store,
    updated by later tests, read when the button is pressed."""
    snapshot = st.session_state.to_dict()
    st.download_button("Save this comparison (JSON: test set, names, settings, view, test results)",
                       lambda: _dump_saved(_saved_parts(snapshot)), file_name="corpus_comparison.json",
                       mime="application/json", key="cp_dl_saved", on_click="ignore")


def _saved_parts(ss=None):
    """What a saved comparison holds, taken in this run (the download is made later, outside any run); the
    JSON is only written when the button is pressed. ``ss``: the session state (this run's by default)."""
    from explainer.corpus.saved import Saved

    ss = st.session_state if ss is None else ss
    ts = ss.get("cp_ts")
    if ts is None:
        return None
    names = [ss.get(f"cp_name_{i}", n) for i, n in enumerate(ts.names)]
    try:
        ts = ts.with_names(names)
    except TestSetError:
        pass
    settings = metric_settings.stored_settings(ss) or metric_settings.default_settings()
    view = {k: ss[k] for k in SAVED_VIEW_KEYS if k in ss and isinstance(ss[k], (str, int, float, bool))}
    tests = []
    for key, got in ss.get("cp_tests", {}).items():
        if len(key) < 3 or key[1] != ss.get("cp_ts_key"):
            continue
        d = got["result"].to_dict(with_samples=True)
        d.update(metric=key[0], baseline=got["result"].systems[0].name, seconds=got.get("seconds", 0.0),
                 rouge_type=key[-2] if key[0] == "rouge" else None, measure=key[-1] if key[0] == "rouge" else None)
        tests.append(d)
    tests += chrf_section.saved_tests(ss)
    params = {**metric_settings.settings_to_params(settings), **chrf_section.saved_settings(ss)}
    return Saved(ts, ss.get("cp_ts_label", ""), params, view, tests)


def _cjk_warning(ts: TestSet, tokenizer: str | None) -> str | None:
    from explainer.corpus.langpair import cjk_warning

    pair = (st.session_state.get("cp_langpair") or "").strip()
    target = pair.split("-")[-1].lower() if "-" in pair else None
    return cjk_warning((r for rs in ts.references[:2000] for r in rs), tokenizer, target=target)


def _traps(ts: TestSet, metric: str, settings) -> None:
    """The classic traps of the test set under these settings (kept for the last test set and settings: the
    checks read a bounded sample, yet a rerun of the page need not repeat them). The BLEU section says the CJK
    one itself, with the language pair."""
    ss = st.session_state
    key = (ss.get("cp_ts_key"), metric, settings)
    kept = ss.get("_cp_traps")
    if kept is None or kept[0] != key:
        kept = ss["_cp_traps"] = (key, traps_view.corpus_traps(
            ts.systems, ts.references, settings, families=[metric], skip=("cjk-unsplit",) if metric == "bleu" else ()))
    traps_view.show(kept[1])


def _baseline_and_system(names: list[str]) -> tuple[int, int]:
    ss = st.session_state
    base = ps.choice("cp_baseline", names, names[0])     # renamed systems: a stored name may be none of these
    ps.choice("cp_system", names, ([n for n in names if n != base] or names)[0])
    c1, c2 = st.columns(2)
    c1.selectbox("Baseline (paired tests and deltas are against it)", names, key="cp_baseline")
    c2.selectbox("System to look at (worked-out score, differences, segment view)", names, key="cp_system")
    return names.index(ss["cp_baseline"]), names.index(ss["cp_system"])


def _scores_section_bleu(rep, rkey: tuple, b: int):
    """The corpus scores; returns the container of the table and the chart, which show a paired test's p-values
    and intervals: the significance fragment draws them (:func:`_scores_table_bleu`), so a test run redraws that
    fragment and this container only, not the whole page (issue 18)."""
    st.header("Corpus scores", anchor="corpus-scores")
    row = st.container(horizontal=True, gap="medium", key="cp_headline")
    for s in rep.systems:
        with row:
            st.metric(hl.md_escape(f"BLEU — {s.name}"), f"{s.score:.4f}" if rep.scale >= 100 else f"{s.score:.6f}",
                      delta=None if s is rep.systems[b] else f"{s.score - rep.systems[b].score:+.4f} vs baseline",
                      help=f"corpus BLEU, exact value {s.score!r}")
    box = st.container()
    st.code(f"BLEU signature: {rep.signature}", language=None, wrap_lines=True)
    st.caption(hl.md_escape(f"{rep.d.implementation}; corpus BLEU from the summed statistics of all "
                            f"{rep.n_segments:,} segments (not a mean of sentence scores). Scale 0–{rep.scale:g}."))
    _scores_warnings(rep)
    return box


def _scores_table_bleu(rep, rkey: tuple, b: int) -> None:
    """The scores table and chart, with the p-values and intervals of the test run against baseline ``b``."""
    tests = st.session_state.get("cp_tests", {}).get(_tests_key(rkey, rep.names[b]))
    by = {x.name: x for x in tests["result"].systems} if tests is not None else {}
    rows = []
    for s in rep.systems:
        t = s.trace
        row = {"system": s.name, "BLEU": s.score, "BP": t.bp, "ratio c/r": t.combination.ratio,
               "sys_len": t.sys_len, "ref_len": t.ref_len}
        for n, p in enumerate(t.precisions):
            row[f"p{n + 1}"] = p
        if tests is not None:
            row["p-value"] = p_value_text(by[s.name].p_value) if s.name in by else "—"
            row["95% CI ±"] = by[s.name].ci if s.name in by else None
        row["Δ vs baseline"] = s.score - rep.systems[b].score
        rows.append(row)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={"BLEU": st.column_config.NumberColumn(format="%.4f"),
                                "Δ vs baseline": st.column_config.NumberColumn(format="%+.4f")})
    ci = [by[s.name].ci if s.name in by else None for s in rep.systems] if by else None
    _plot(cc.corpus_scores_figure(rep.names, [s.score for s in rep.systems], ci=ci, scale=rep.scale), "cp_scores")


def _scores_warnings(rep) -> None:
    tok = rep.d.options.get("tokenize") if "tokenize" in rep.d.options else None
    cjk = _cjk_warning(rep.testset, tok) if "tokenize" in rep.d.options else None
    if cjk:
        st.warning(hl.md_escape(cjk), icon=":material/translate:")
    warns = {w.message for s in rep.systems for w in s.trace.warnings}
    for w in sorted(warns):
        st.warning(hl.md_escape(f"{rep.d.implementation}: {w}"), icon=":material/warning:")
    for s in rep.systems:
        if s.trace.library_error is not None:
            e = s.trace.library_error
            st.error(hl.md_escape(f"{s.name}: the real {rep.d.implementation} raises {e.type} here: {e.explanation}"))


def _worked_out_section(rep, i: int) -> None:
    from explainer.ui import bleu_view as bv
    from explainer.ui import charts

    s = rep.systems[i]
    t = s.trace
    st.header(hl.md_escape(f"Corpus BLEU worked out — {s.name}"), anchor="worked-out")
    st.caption("Every segment adds its clipped matches and its n-gram totals per order, its length c and its chosen "
               "reference length r; the corpus score is computed once from these sums.")
    orders = bv.order_rows(t)
    rows = [{"order": o["n"], "summed matches": o["matches"], "summed totals": o["totals"],
             "precision": o["precision_raw"], "after smoothing": o["precision"], "how": o["formula"],
             "in the mean": o["included"]} for o in orders]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    _plot(charts.bleu_counts_figure(orders), "cp_counts")
    # two precisions per line: four of a WMT-sized corpus (p₄ = 11559/33421 = 0.345…) were cut at 1280 px
    per_line = 2
    orders_c = list(t.combination.orders)
    if not orders_c:
        st.latex(r"\text{—}")
    for k in range(0, len(orders_c), per_line):
        st.latex(r"\quad ".join(bv.precision_latex(o) for o in orders_c[k:k + per_line]))
    st.markdown(hl.md_escape(f"Total candidate length c = {t.sys_len:,} tokens, total reference length r = "
                             f"{t.ref_len:,} (each segment's r is the reference length its rule picks; "
                             f"the corpus r is their sum). Ratio c/r = "
                             f"{_fmt(t.combination.ratio, 1)}."))
    st.latex(bv.bp_latex(t))
    st.latex(bv.formula_latex(t))
    if t.combination.early_exit:
        st.info(hl.md_escape(t.combination.early_exit))


def _corpus_vs_mean_section(rep, i: int) -> None:
    st.header("Corpus BLEU ≠ mean of sentence BLEUs", anchor="corpus-vs-mean")
    rows = [rep.corpus_vs_mean(j) for j in range(len(rep.systems))]
    _plot(cc.corpus_vs_mean_figure(rows, scale=rep.scale), "cp_cvm")
    cvm = rows[i]
    line = (f"For {cvm['system']}: corpus {_fmt(cvm['corpus'], rep.scale)}, mean of the {cvm['n_segments']:,} "
            f"sentence scores {_fmt(cvm['mean_of_sentences'], rep.scale)} (difference "
            f"{cvm['gap']:+.4f}).")
    if "mean_sentence_bleu" in cvm:
        line += (f" sacreBLEU's two sentence-level entry points differ too: sacrebleu.sentence_bleu turns "
                 f"effective order on (mean {_fmt(cvm['mean_sentence_bleu'], rep.scale)}), BLEU().sentence_score "
                 f"keeps it off as BLEU() does (mean {_fmt(cvm['mean_sentence_score'], rep.scale)}); with it off, a "
                 "short segment without a single 4-gram scores 0.")
    st.markdown(hl.md_escape(line))
    st.markdown("**Why they differ on this data**")
    for r in cvm["reasons"]:
        c1, c2 = st.columns([5, 1], vertical_alignment="center")
        c1.markdown("- " + hl.md_escape(r["text"]))
        if r["segments"]:
            c2.button(f"{len(r['segments']):,} segment{'' if len(r['segments']) == 1 else 's'}",
                      key=f"cp_reason_{r['what']}",
                      on_click=_filter_segments, args=(r["segments"], r["what"]),
                      help="Show these segments in the table below")
    if cvm.get("pulling_apart"):
        _plot(cc.influence_figure(cvm), "cp_influence", selection_mode="points",
              on_select=partial(_on_chart_open, "cp_influence", rep.names[i]))
        st.caption("Leave-one-out: for each segment, how much larger the gap (corpus − mean) is with it than without "
                   "it. Long segments with many matches raise the corpus score; short ones that score 0 alone lower "
                   "the mean. Click a bar to open that segment.")


def _differ_section_bleu(rep, b: int, i: int) -> None:
    st.header("Where the systems differ", anchor="differ")
    # One analysis at a time (tabs would compute and draw all of them on every rerun)
    views = {"Length buckets": _buckets_view, "Precision by order": _precision_view, "N-grams": _ngrams_view,
             "Largest deltas": _deltas_view, "Segment scores": _scatter_view, "Length ratio": _ratio_view,
             "Word accuracy": _word_accuracy_view, "Sentence buckets": _sentence_buckets_view}
    if rep.testset.source is not None:
        views["Source length"] = _source_length_view
    if st.session_state.get("cp_differ_view") not in views:
        st.session_state["cp_differ_view"] = next(iter(views))
    view = st.segmented_control("Analysis", list(views), key="cp_differ_view") or next(iter(views))
    if view in ("N-grams", "Largest deltas", "Segment scores") and i == b:
        st.info("Pick a system other than the baseline above" + (" to compare their n-grams." if view == "N-grams"
                                                                 else "."))
        return
    views[view](rep, b, i)


def _buckets_view(rep, b: int, i: int) -> None:
    buckets = rep.length_buckets()
    _plot(cc.length_buckets_figure(buckets, rep.names), "cp_buckets", selection_mode="points",
          on_select=partial(_on_pick, "cp_buckets", partial(cc.bucket_bar_segments, buckets)))
    rows = [{"reference length": bk["bucket"], "segments": bk["n_segments"],
             **{f"{n}": bk["scores"].get(n) for n in rep.names}} for bk in buckets]
    groups = [(bk["segments"], f"reference length {bk['bucket']}") for bk in buckets]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", selection_mode="single-row",
                 key="cp_bucket_table", on_select=partial(_on_group_row, "cp_bucket_table", groups))
    st.caption("Corpus BLEU of the segments in each bucket (their summed statistics). Click a bar or a row to list "
               "its segments in the table below. Not compare-mt's length buckets, on purpose: compare-mt cuts at "
               "10, 20, …, 60 reference tokens and scores with its own BLEU, which counts a segment shorter than n "
               "as one n-gram of order n and leaves an order without a match out of the mean; here the buckets are "
               "of about equal size and the score is the dialect's own corpus BLEU, with every reference.")


def _cached_analysis(rep, name: str, compute):
    """An analysis of a report, computed once per report (kept per input and settings; :func:`counts_analysis`
    for those that do not depend on the scoring options)."""
    key = ("comparemt", name)
    if key not in rep._cache:
        # source length: corpus BLEU per bucket, which the smoothing changes (so per report, not per tokenization)
        with st.spinner(f"Computing the {name.replace('_', ' ')} analysis (once per test set and settings)…"):
            rep._cache[key] = compute()
    return rep._cache[key]


def _word_accuracy_view(rep, b: int, i: int) -> None:
    from explainer.corpus.comparemt import word_accuracy

    wa = counts_analysis(rep, "word_accuracy", lambda: word_accuracy(rep))
    buckets = [{"bucket": lab, "n_segments": len(wa["systems"][0]["buckets"][k]["segments"]),
                "segments": wa["systems"][0]["buckets"][k]["segments"],
                "scores": {s["system"]: s["buckets"][k]["fmeasure"] for s in wa["systems"]}}
               for k, lab in enumerate(wa["labels"])]
    buckets = [bk for k, bk in enumerate(buckets)
               if any(s["buckets"][k]["reference_words"] or s["buckets"][k]["output_words"] for s in wa["systems"])]
    _plot(cc.length_buckets_figure(buckets, rep.names, metric="word F-measure", what="frequency",
                                   title="Word accuracy (F-measure) by frequency in the references"),
          "cp_wordacc", selection_mode="points",
          on_select=partial(_on_pick, "cp_wordacc", partial(cc.bucket_bar_segments, buckets,
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


def _sentence_buckets_view(rep, b: int, i: int) -> None:
    from explainer.corpus.comparemt import sentence_buckets

    sb = counts_analysis(rep, "sentence_buckets", lambda: sentence_buckets(rep))
    buckets = [{"bucket": lab, "n_segments": sum(s["counts"][k] for s in sb["systems"]),
                "segments": sorted({x for s in sb["systems"] for x in s["segments"][k]}),
                "scores": {s["system"]: s["counts"][k] for s in sb["systems"]}} for k, lab in enumerate(sb["labels"])]
    _plot(cc.length_buckets_figure(buckets, rep.names, metric="segments", what="sentence score",
                                   title="Segments per band of sentence score"), "cp_sentbuckets",
          selection_mode="points", on_select=partial(_on_pick, "cp_sentbuckets",
                                                      partial(cc.bucket_bar_segments, buckets, what="sentence score")))
    st.caption(hl.md_escape(f"compare-mt's sentence bucket analysis: how many segments of each system score in "
                            f"each band; sentence scores: {sb['scored_by']}. Click a bar to list the band's "
                            "segments (of every system) below."))


def _source_length_view(rep, b: int, i: int) -> None:
    from explainer.corpus.comparemt import source_length_buckets

    buckets = _cached_analysis(rep, "source_length", lambda: source_length_buckets(rep, rep.testset.source))
    _plot(cc.length_buckets_figure(buckets, rep.names, what="source length",
                                   title="BLEU by source length (buckets of about equal size)"), "cp_srcbuckets",
          selection_mode="points", on_select=partial(_on_pick, "cp_srcbuckets",
                                                      partial(cc.bucket_bar_segments, buckets, what="source length")))
    st.caption("Corpus BLEU of the segments whose source has that many words (characters for a source written "
               "without spaces). Click a bar to list its segments below.")


def _precision_view(rep, b: int, i: int) -> None:
    rows = rep.precision_by_order()
    _plot(cc.precision_by_order_figure(rows), "cp_prec", selection_mode="points",
          on_select=partial(_on_precision_bar, rows))
    pick = st.session_state.get("cp_prec_pick")
    if not pick or pick[0] not in rep.names or not 1 <= pick[1] <= rep.max_order:
        st.caption("Each bar is a sum over the segments: click one to list them, each with its own matches and "
                   "n-grams of that order.")
        return
    name, n = pick
    ps = rep.precision_segments(rep.names.index(name), n)
    recs = ps["segments"]
    ids = [r["segment"] for r in recs]
    prec = ps["matches"] / ps["totals"] if ps["totals"] else float("nan")
    st.markdown(hl.md_escape(f"p{n} of {name} = {ps['matches']:,} / {ps['totals']:,} = {prec:.4f}: the clipped "
                             f"{n}-gram matches and the {n}-grams of the {len(recs):,} segments that have any, "
                             "summed. Most unmatched first (they pull p" + str(n) + " down most); click a row to open "
                             "the segment."))
    st.dataframe(pd.DataFrame(recs, columns=["segment", "matches", "totals", "missed", "precision"]),
                 hide_index=True, width="stretch", height=280, selection_mode="single-row", key="cp_prec_table",
                 on_select=partial(_on_segment_row, "cp_prec_table", ids, name),
                 column_config={"precision": st.column_config.NumberColumn(format="%.4f")})
    if ids:
        st.button(f"List these {len(ids):,} segments in the table below", key="cp_prec_filter",
                  on_click=_filter_segments, args=(ids, f"{name}: segments with {n}-grams"))


def _on_precision_bar(rows: list[dict]) -> None:
    pts = _selected_points("cp_prec")
    pick = cc.precision_bar_pick(rows, pts[0]) if pts else None
    if pick is not None:
        st.session_state["cp_prec_pick"] = (rows[pick[0]]["system"], pick[1])


def _ngrams_view(rep, b: int, i: int) -> None:
    nd = counts_analysis(rep, f"ngrams:{i}:{b}", lambda: rep.ngram_differences(i, b))
    _plot(cc.ngram_diff_figure(nd), "cp_ngrams", selection_mode="points",
          on_select=partial(_on_pick, "cp_ngrams", partial(cc.ngram_bar_segments, nd)))
    records = nd["better"] + nd["worse"]
    rows = [{"n-gram": r["ngram"], "n": r["n"], rep.names[i]: r["system"], rep.names[b]: r["baseline"],
             "difference": r["difference"], "segments": r["n_segments"]} for r in records]
    groups = [(r["segments"], f"n-gram “{r['ngram']}”") for r in records]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", selection_mode="single-row",
                 key="cp_ngram_table", on_select=partial(_on_group_row, "cp_ngram_table", groups))
    st.caption("Clipped matches (as BLEU counts them) summed over the corpus. Click a bar or a row to list the "
               "segments where the two systems match that n-gram a different number of times.")


def _deltas_view(rep, b: int, i: int) -> None:
    with st.spinner("Scoring every segment alone (once per test set and settings)…"):
        dl = rep.largest_deltas(i, b)
    _delta_buttons(dl, "cp_delta", "", 2)
    st.caption(hl.md_escape(f"Sentence scores: {dl['scored_by']}."))
    vi, vb = rep.sacrebleu_sentence_variants(i), rep.sacrebleu_sentence_variants(b)
    if vi is not None and vb is not None:          # the same scores as the gains and losses above
        delta = vi["sentence_bleu"] - vb["sentence_bleu"]
    else:
        delta = rep.systems[i].sentence - rep.systems[b].sentence
    _plot(cc.delta_histogram_figure(delta, name=rep.names[i], base_name=rep.names[b]), "cp_delta_hist",
          selection_mode="points", on_select=partial(_on_pick, "cp_delta_hist", partial(cc.delta_bar_segments, delta)))
    st.caption("Click a bar to list its segments in the table below.")


def _scatter_view(rep, b: int, i: int) -> None:
    _plot(cc.segment_scatter_figure(rep.systems[b].sentence, rep.systems[i].sentence,
                                    base_name=rep.names[b], name=rep.names[i]),
          "cp_scatter", selection_mode=("points", "box", "lasso"),
          on_select=partial(_on_chart_open, "cp_scatter", rep.names[i]))
    st.caption("Each point is a segment. Click one to open it; to list several in the table, pick the box or lasso "
               "tool (the chart's toolbar, top right) and draw around them.")


def _ratio_view(rep, b: int, i: int) -> None:
    rows = rep.length_ratio()
    _plot(cc.length_ratio_figure(rows), "cp_ratio", selection_mode="points",
          on_select=partial(_on_pick, "cp_ratio", partial(cc.ratio_bar_segments, rows)))
    st.caption("c / r below 1: the segment is shorter than its reference (alone, it would get a brevity penalty). "
               "Click a bar to list that system's segments in the bin in the table below.")


def _delta_buttons(dl: dict, key: str, what: str, digits: int) -> None:
    """The segments with the largest gains and losses against the baseline, each a button that opens it."""
    st.markdown(hl.md_escape(f"{dl['system']} is better than {dl['baseline']} on {dl['n_better']:,} segments, "
                             f"worse on {dl['n_worse']:,}, equal on {dl['n_equal']:,}{what}."))
    c1, c2 = st.columns(2)
    for col, label, recs in ((c1, "Largest gains", dl["better"]), (c2, "Largest losses", dl["worse"])):
        with col:
            st.markdown(f"**{label}**")
            for r in recs:
                st.button(f"segment {r['segment']}: {r['delta']:+.{digits}f}  ({r['baseline']:.{digits}f} → "
                          f"{r['system']:.{digits}f})", key=f"{key}_{label}_{r['segment']}",
                          on_click=_open_segment, args=(r["segment"], dl["system"], ""))


def _downloads(rep, rkey: tuple, metric: str, b: int, rouge_type: str | None) -> None:
    st.header("Downloads", anchor="downloads")
    ss = st.session_state
    key = _tests_key(rkey, rep.names[b], rouge_type)
    # read when pressed: a test run since redraws its own fragment only, not this section (issue 18); the store
    # is the session's own dict, which each test run updates in place
    store = ss.setdefault("cp_tests", {})

    def result():
        got = store.get(key)
        return got["result"] if got else None

    def tests_dict():
        r = result()
        return r.to_dict() if r is not None else None
    c1, c2, c3, c4 = st.columns(4)
    with c1:
        st.download_button("Per-segment table with the texts (CSV)",
                           lambda: columns_csv(with_texts(rep.segment_rows(b) if metric == "bleu" else
                                                          rep.segment_rows(rouge_type, b),
                                                          *testset_texts(rep.testset))),
                           file_name=f"corpus_segments_{metric}.csv", mime="text/csv", key="cp_dl_csv",
                           on_click="ignore")
    with c2:
        st.download_button("Whole report (JSON)",
                           lambda: json_text(rep.to_dict(baseline=b, tests=tests_dict())),
                           file_name=f"corpus_report_{metric}.json", mime="application/json", key="cp_dl_json",
                           on_click="ignore")
    with c3:
        # made when pressed, outside any run: it gets this run's charts (the dict itself, which the analysis
        # fragment's own runs update), not the session (gone by then)
        figures = ss.setdefault(RUN_FIGURES, {})
        st.download_button("Charts (HTML, interactive)",
                           lambda: cc.charts_html(list(figures.values()), title="Corpus charts",
                                                  subtitle=f"{ss.get('cp_ts_label', '')} — {rep.signature}"),
                           file_name="corpus_charts.html", mime="text/html", key="cp_dl_html", on_click="ignore")
    with c4:
        st.selectbox("Chart image format (camera icon of each chart)", ["png", "svg"], key="cp_chart_format")
    def comp():
        return paper_table_input(rep, metric, result(), rouge_type)
    d1, d2 = st.columns(2)
    with d1:
        st.download_button("Table for the paper (LaTeX, booktabs)", partial(_paper_table, comp, "latex"),
                           file_name=f"corpus_{metric}_table.tex", mime="text/x-tex", key="cp_dl_latex",
                           on_click="ignore")
    with d2:
        st.download_button("Table for the paper (Markdown)", partial(_paper_table, comp, "markdown"),
                           file_name=f"corpus_{metric}_table.md", mime="text/markdown", key="cp_dl_md",
                           on_click="ignore")
    st.caption("The tables hold each system's score, the bootstrap mean ± 95 % CI and the p-value against the "
               "baseline when a test was run above (* where p ≤ 0.05), and the signature as a footnote; the LaTeX "
               "needs \\usepackage{booktabs}. The command line writes the same: `compare --format latex`.")
    save_button()
    st.caption("Every chart's camera icon saves it as PNG or SVG (made in your browser). The HTML file holds all "
               "charts of this page, interactive, with Plotly included (works offline).")


def paper_table_input(rep, metric: str, res, rouge_type: str | None) -> dict:
    """The comparison as ``compare`` prints it (``explainer.corpus.tables``' input): the test's rows when one was
    run (baseline first), else the corpus scores."""
    from explainer.corpus.significance import paired_signature

    out: dict[str, Any] = {"metric": metric, "n_segments": rep.n_segments, "signature": rep.signature}
    if metric == "rouge":
        out.update(rouge_type=rouge_type, measure="fmeasure")
    if res is not None:
        out["systems"] = [s.to_dict() for s in res.systems]
        out["test"] = {"type": res.test, "n_samples": res.n_samples, "seed": res.seed}
        if metric == "bleu" and res.faithful:
            out["signature"] = paired_signature(rep.signature, res.test, res.n_samples, res.seed,
                                                res.n_ar_confidence)
    elif metric == "bleu":
        out["systems"] = [{"name": s.name, "score": float(s.score)} for s in rep.systems]
        out["test"] = {"type": None}
    else:
        out["systems"] = [{"name": s.name, "score": s.mean(rouge_type)} for s in rep.systems]
        out["test"] = {"type": None}
    return out


def _paper_table(comp, fmt: str) -> str:
    from explainer.corpus.tables import render_table

    return render_table(comp() if callable(comp) else comp, fmt)


def _scores_section_rouge(rr, b: int) -> None:
    st.header("Corpus scores", anchor="corpus-scores")
    agg = rr.systems[0].trace.aggregation
    st.caption(hl.md_escape(f"{rr.dialect}: {agg.get('note', agg.get('method', ''))}"))
    rows = []
    for r in rr.aggregate_rows():
        row = {"system": r["system"], "type": r["type"], "mean F (per item)": r["mean_f"]}
        for k in ("low_f", "mid_f", "high_f"):
            if k in r:
                row[{"low_f": "low F", "mid_f": "mid F (dialect's score)", "high_f": "high F"}[k]] = r[k]
        rows.append(row)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.code(f"ROUGE signature: {rr.signature}", language=None, wrap_lines=True)
    for s in rr.systems:
        if s.trace.notes:
            for n in s.trace.notes:
                st.caption(hl.md_escape(n))
            break


def _rouge_differ(rr, t: str, b: int, i: int) -> None:
    st.header("Where the systems differ", anchor="differ")
    views = ["Length buckets", "Largest deltas", "Segment scores"]
    if st.session_state.get("cp_rdiffer_view") not in views:
        st.session_state["cp_rdiffer_view"] = views[0]
    view = st.segmented_control("Analysis", views, key="cp_rdiffer_view") or views[0]
    if view == "Length buckets":
        buckets = rr.length_buckets(t)
        _plot(cc.length_buckets_figure(buckets, rr.names, metric=f"mean {t} F"), "cp_rbuckets",
              selection_mode="points", on_select=partial(_on_pick, "cp_rbuckets", partial(cc.bucket_bar_segments,
                                                                                          buckets)))
        st.caption("Click a bar to list the bucket's segments in the table below.")
    if view == "Largest deltas":
        if i == b:
            st.info("Pick a system other than the baseline above.")
        else:
            _delta_buttons(rr.largest_deltas(i, t, b), "cp_rdelta", f" ({t} F)", 4)
    if view == "Segment scores":
        if i != b:
            _plot(cc.segment_scatter_figure(rr.systems[b].item(t), rr.systems[i].item(t),
                                            base_name=rr.names[b], name=rr.names[i], metric=f"{t} F"),
                  "cp_rscatter", selection_mode="points", on_select=partial(_on_chart_open, "cp_rscatter", rr.names[i]))


def render() -> None:
    t0 = time.perf_counter()
    _apply_open_request()   # a segment asked for by a click (a callback) before any widget is drawn
    st.session_state[RUN_FIGURES] = {}      # this run's charts only (and no earlier test set's)
    _link_in()              # before the sidebar: a link (or a sample) may set the settings
    _render()
    _sync_url()
    # after the widgets: a link the server dropped whole
    PAGE.watch()
    st.session_state["_cp_render_seconds"] = time.perf_counter() - t0


METRICS = {"BLEU": "BLEU", "ROUGE": "ROUGE", "CHRF": "chrF"}   # value (the link's, upper case) -> label


def _metric_and_language_pair() -> str:
    """The metric picker (BLEU, ROUGE, chrF) beside the language pair; the metric chosen."""
    ss = st.session_state
    if ss.get("cp_metric") not in METRICS:
        ss["cp_metric"] = "BLEU"
    c_metric, c_pair = st.columns([1, 2], vertical_alignment="bottom")
    with c_metric:
        metric = st.segmented_control("Metric", list(METRICS), key="cp_metric",
                                      format_func=lambda m: METRICS.get(m, str(m))) or "BLEU"
    with c_pair:
        _language_pair()
    return metric


def _render() -> None:
    settings, warns = metric_settings.render_settings_sidebar()
    # Every part above the fragments is a container, one slot whatever it draws: Streamlit names a fragment by
    # where it is drawn, and a click in one that comes while the page runs (a new tokenizer's report takes
    # seconds) is run after that run under the old name. One element more or fewer above it (a warning, the
    # progress bar of a report being computed) renamed every fragment below, and the click was dropped without
    # a word: a paired test's "Run the test" got no answer (issue 18).
    with st.container():
        ts = _header(warns)
    if ts is None:
        return
    ss = st.session_state
    with st.container():
        metric = _metric_and_language_pair()
    if metric == "CHRF":    # chrF's report and sections are its own (explainer.ui.corpus.chrf_section)
        with st.container():
            b, i = _baseline_and_system(list(ts.names))
        chrf_section.render(ts, ss["cp_ts_key"], b, i, settings, save=save_button)
        corpus_reproduce.render(ts, i, ss["cp_ts_key"])
        return
    with st.container():    # the report's progress bar, the ROUGE options and warnings, or an error
        got = _report(ts, metric, settings)
    if got is None:
        return
    rep, rkey = got
    _boxed(_traps, ts, metric.lower(), settings)
    with st.container():
        b, i = _baseline_and_system(rep.names)
    if metric == "BLEU":
        _restore_tests(_tests_key(rkey, rep.names[b]), "bleu", rep.names[b], None, "fmeasure")
        with st.container():
            scores_box = _scores_section_bleu(rep, rkey, b)
        _boxed(_worked_out_section, rep, i)
        _boxed(_corpus_vs_mean_section, rep, i)
        _boxed(_significance_fragment, rep, rkey, "bleu", b, i, None, scores_box)
        _boxed(_analysis_fragment, rep, "bleu", b, i, settings, ss["cp_ts_key"])
        _boxed(_segments_fragment, rep, "bleu", b, settings)
        _boxed(_downloads, rep, rkey, "bleu", b, None)
    else:
        with st.container():
            ps.choice("cp_rouge_type", rep.types, rep.types[0])
            t = st.selectbox("ROUGE type of the tests, deltas and table", rep.types, key="cp_rouge_type")
        _boxed(_scores_section_rouge, rep, b)
        _boxed(_significance_fragment, rep, rkey, "rouge", b, i, t)
        _boxed(_analysis_fragment, rep, "rouge", b, i, settings, ss["cp_ts_key"], t)
        _boxed(_segments_fragment, rep, "rouge", b, settings, t)
        _boxed(_downloads, rep, rkey, "rouge", b, t)
    _boxed(_reproduce_fragment, ts, i, ss["cp_ts_key"])     # "Which settings give …?" for the selected system


def _header(warns: list[str]):
    """The title, the settings' warnings and the input section; the test set loaded (its systems named), or None."""
    st.title("Corpus: whole test sets")
    st.caption("Load a test set (system outputs and 1–4 references), see each system's corpus score worked out, "
               "why it differs from the mean of sentence scores, confidence intervals and paired significance tests "
               "as sacreBLEU computes them, where the systems differ — and open any segment step by step.")
    for w in warns:
        st.warning(hl.md_escape(w))
    ts = _input_section()
    if ts is None:
        st.info("Pick a sample corpus above to see the page at work, or upload your own files.",
                icon=":material/info:")
        return None
    return _system_names(ts)


def _report(ts: TestSet, metric: str, settings):
    """(the BLEU or ROUGE report of the test set under these settings, its key), or None with the reason shown."""
    ss = st.session_state
    try:
        if metric == "BLEU":
            return _bleu_report(ts, ss["cp_ts_key"], settings)
        types, dropped = _rouge_types(settings)
        if dropped:
            st.warning(hl.md_escape(f"{', '.join(dropped)} not defined by {settings['rouge'].dialect}; left out."))
        if not types:
            st.warning("Select at least one ROUGE type in the sidebar.")
            return None
        copts = _rouge_corpus_options(settings)
        return _rouge_report(ts, ss["cp_ts_key"], settings, copts)
    except (ExplainerInputError, ValueError) as e:
        st.error(hl.md_escape(str(e)), icon=":material/error:")
        return None


def _boxed(section, *args) -> None:
    """A section in its own container: one that draws an element more or fewer than last time (a warning, a
    test's result) leaves the places of the sections below unchanged, so the browser updates them instead of
    building them anew (issue 18: most of a click's time is the browser's)."""
    with st.container():
        section(*args)


# A click reruns only the section it changes (issue 18): each part below the scores is a fragment. What one part
# changes in another: a click in an analysis that lists or opens segments reruns the segment table and view, or
# the view alone (named fragments, common._redraw); a test's result redraws the scores table above from its own
# fragment (an outside container); a segment opened for another system than the one picked above runs the
# whole page (common._apply_open_request).
FRAGMENT_FIGURES = "_cp_fragment_figures"   # the chart keys the analysis fragment drew in its last run


@st.fragment
def _significance_fragment(rep, rkey: tuple, metric: str, b: int, i: int, rouge_type: str | None = None,
                           scores_box=None) -> None:
    """The tests; with ``scores_box`` (BLEU) also the scores table and chart above, which show the test's
    p-values and intervals: a test run reruns this fragment only (it writes into that outside container), the
    table after the test, so one run shows the result everywhere (a second run cost a second redraw)."""
    _significance_section(rep, rkey, metric, b, i, rouge_type=rouge_type)
    if scores_box is not None:
        with scores_box:
            _scores_table_bleu(rep, rkey, b)
    _sync_url()     # the test and its number of resamples are in the link


@st.fragment
def _analysis_fragment(rep, metric: str, b: int, i: int, settings, ts_key: str, t: str | None = None) -> None:
    """Where the systems differ and every implementation: an analysis picked redraws this part only; a bar
    clicked or a segment opened from them redraws the segment table and view (``common._redraw``)."""
    _app_run_if_needed()
    ss = st.session_state
    figures = ss.setdefault(RUN_FIGURES, {})
    for k in ss.get(FRAGMENT_FIGURES, ()):     # this part's charts of its last run (the download lists this run's)
        figures.pop(k, None)
    before = set(figures)
    # each part in its own container: an analysis draws more or fewer elements than the one before, and the
    # parts below keep their places (the browser then updates the segment table and view instead of building
    # them anew: most of a click's time, issue 18)
    with st.container():
        if metric == "bleu":
            _differ_section_bleu(rep, b, i)
        else:
            _rouge_differ(rep, t, b, i)
    with st.container():
        corpus_dialects.render(rep, metric, i, ts_key, rouge_type=t if metric != "bleu" else None, plot=_plot,
                               open_segment=_open_segment)
    ss[FRAGMENT_FIGURES] = sorted(set(figures) - before)


@st.fragment
def _reproduce_fragment(ts, i: int, ts_key: str) -> None:
    corpus_reproduce.render(ts, i, ts_key)
