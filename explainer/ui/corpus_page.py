"""The Corpus page: whole test sets, several systems, every segment one click from its explanation.

The page computes nothing itself: ``explainer.corpus`` builds the report (corpus scores, per-segment scores, the
analyses, the confidence intervals and paired tests) and ``explainer.ui.corpus_charts`` draws it. The metric
settings are the shared model of every page (``explainer.ui.settings``: the same sidebar as the Explain page, and
what is set on one page holds on the others). A segment opens in the Explain page's own components
(``explain_page.headline`` / ``bleu_section`` / ``rouge_section``) with the same settings and the same shared
traces (``explainer.ui.compute``), and as a link to the Explain page that carries the settings.

Bounded: the page takes at most PAGE_MAX_SEGMENTS segments, PAGE_MAX_SYSTEMS systems, 1–4 references and
PAGE_MAX_BYTES of uploads, checked before any work (the ``compare`` CLI streams larger test sets). Texts live in
this browser session's memory only: never written to disk, never logged. Results are kept per input and settings
(a rerun — sorting, filtering, opening a segment — recomputes nothing).
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import replace
from functools import partial
from typing import Any
from urllib.parse import urlencode

import numpy as np
import pandas as pd
import streamlit as st

from explainer.corpus.export import columns_csv, json_text, testset_texts, with_texts
from explainer.corpus.samples import SAMPLES, load_sample
from explainer.corpus.significance import MAX_RESAMPLES, MAX_TEST_CELLS
from explainer.corpus.testset import (
    MAX_REFERENCES,
    TestSet,
    TestSetError,
    build_testset,
    segment_lines,
    testset_from_files,
)
from explainer.errors import ExplainerInputError
from explainer.options import freeze
from explainer.ui import corpus_charts as cc
from explainer.ui import corpus_dialects, corpus_reproduce
from explainer.ui import highlight as hl
from explainer.ui import settings as metric_settings
from explainer.ui.page_links import dropped_link_warning, watch_dropped_link

__all__ = ["render", "PAGE_MAX_SEGMENTS", "PAGE_MAX_SYSTEMS", "PAGE_MAX_BYTES", "PAGE_MAX_RESAMPLES",
           "PAGE_MAX_TEST_CELLS", "PAGE_TEST_SECONDS", "testset_from_uploads", "testset_from_paste"]

PAGE_MAX_SEGMENTS = 20_000           # a full WMT test set is 2,000-3,000 segments; the largest ones under 20,000
PAGE_MAX_SYSTEMS = 10                # sacreBLEU's defaults run on 20,000 segments x 10 systems
PAGE_MAX_BYTES = 40_000_000          # all uploaded / pasted text together (20,000 segments x 12 files)
PAGE_MAX_RESAMPLES = MAX_RESAMPLES               # bootstrap 10,000 resamples, AR 100,000 trials
PAGE_MAX_TEST_CELLS = MAX_TEST_CELLS  # resamples x segments of one test: sacreBLEU's AR on 20,000 segments
PAGE_TEST_SECONDS = 120              # one test's time limit on the page (the command line has none)
TABLE_SEARCH_MAX = 200               # characters of a table search
CHART_CONFIG = {"displaylogo": False}
DETECTED = "cp_detected"             # what the uploaded files were read as (one sentence per file)


# ---------------------------------------------------------------------------------------------- loading
def testset_from_uploads(system_files: list[tuple[str, bytes]], ref_files: list[tuple[str, bytes]],
                         detected: list[str] | None = None, source_file: tuple[str, bytes] | None = None) -> TestSet:
    """Build a test set from uploaded files (name, bytes) of any name, each read by its content
    (``explainer.corpus.testset.testset_from_files``: plain lines, JSON Lines with candidate/references, TSV with
    ref… columns); ``detected`` gets one sentence per file saying what was found. Raises TestSetError with the
    file and line."""
    if not system_files:    # the uploader itself refuses a file over the limit: it is marked red, never sent
        raise TestSetError(f"give at least one system output file (the limit is {PAGE_MAX_BYTES / 1e6:.0f} MB for "
                           "all files together: a larger file is refused by the uploader, marked red, and never "
                           "reaches the page; `python -m explainer compare` takes larger test sets)")
    total = (sum(len(b) for _, b in system_files) + sum(len(b) for _, b in ref_files)
             + (len(source_file[1]) if source_file else 0))
    if total > PAGE_MAX_BYTES:
        raise TestSetError(f"the files hold {total / 1e6:.1f} MB, over the page's limit of {PAGE_MAX_BYTES / 1e6:.0f} "
                           "MB (the command line `python -m explainer compare` takes larger test sets)")
    ts, found = testset_from_files(system_files, ref_files, max_segments=PAGE_MAX_SEGMENTS,
                                   max_systems=PAGE_MAX_SYSTEMS, source_file=source_file)
    if detected is not None:
        detected.extend(found)
    return ts


def testset_from_paste(systems: list[tuple[str, str]], refs: list[str]) -> TestSet:
    total = sum(len(t) for _, t in systems) + sum(len(r) for r in refs)
    if total > PAGE_MAX_BYTES:
        raise TestSetError(f"the pasted text holds {total:,} characters, over the page's limit")
    sys_lines = [(n.strip() or f"system {i + 1}", segment_lines(t.encode("utf-8"), n or f"system {i + 1}"))
                 for i, (n, t) in enumerate(systems) if t.strip()]
    ref_lines = [(f"reference {i + 1}", segment_lines(r.encode("utf-8"), f"reference {i + 1}"))
                 for i, r in enumerate(refs) if r.strip()]
    if not sys_lines:
        raise TestSetError("paste at least one system output (one segment per line)")
    if not ref_lines:
        raise TestSetError("paste the reference (one segment per line, aligned with the systems)")
    return build_testset(sys_lines, ref_lines, max_segments=PAGE_MAX_SEGMENTS)


def _testset_key(ts: TestSet) -> str:
    h = hashlib.sha256()
    for rs in ts.references:
        h.update(json.dumps(rs, ensure_ascii=False).encode("utf-8"))
    for _, lines in ts.systems:
        h.update(b"\x00sys")
        for ln in lines:
            h.update(ln.encode("utf-8", "surrogatepass") + b"\n")
    return h.hexdigest()[:24]


def _set_testset(ts: TestSet, label: str, sample: str | None = None) -> None:
    ss = st.session_state
    ss["cp_ts"] = ts
    ss["cp_ts_key"] = _testset_key(ts)
    ss["cp_ts_label"] = label
    ss["cp_ts_sample"] = sample          # a bundled sample can be in a link; uploads and pasted text cannot
    ss["cp_names"] = list(ts.names)
    for i, n in enumerate(ts.names):
        ss[f"cp_name_{i}"] = n
    for k in ("cp_seg", "cp_baseline", "cp_system", "cp_view_sys", "cp_filter_ids", SHOWN_NAMES, DETECTED,
              RESTORED_TESTS):
        ss.pop(k, None)


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
    if "tokenize" not in current.bleu_options:
        ss["cp_langpair_note"] = (f"{current.bleu_dialect} has no tokenizer setting; the language pair is "
                                  "sacreBLEU's (pick sacrebleu in the sidebar)")
        return
    spec = next((o for o in dialect_options(current.bleu_dialect) if o["name"] == "tokenize"), {})
    if pair.tokenizer not in (spec.get("choices") or ()):
        ss["cp_langpair_note"] = (f"sacreBLEU picks {pair.tokenizer} for {pair.target}: it needs MeCab, which this "
                                  f"explainer does not have; pick char (or another) in the sidebar")
        return
    metric_settings.put_settings(replace(current, bleu_options={**current.bleu_options, "tokenize": pair.tokenizer}))
    ss["cp_langpair_note"] = (f"{pair.source}-{pair.target}: tokenizer {pair.tokenizer}, sacreBLEU's choice for "
                              f"{pair.target} (sidebar)")


def _sample_settings(sid: str) -> None:
    """The sample's suggested settings (e.g. the zh tokenizer), on the dialect that has the option."""
    ss = st.session_state
    bleu = SAMPLES[sid].settings.get("bleu", {})
    current, _ = metric_settings.current_settings()
    from explainer.bleu import DIALECTS

    if bleu and set(bleu) <= {o.name for o in DIALECTS[current.bleu_dialect].OPTIONS}:   # the dialect has them
        metric_settings.put_settings(replace(current, bleu_options={**current.bleu_options, **bleu}))
        ss["cp_notice"] = "Loaded with the sample's suggested settings: " + ", ".join(
            f"{k} = {v}" for k, v in bleu.items()) + " (sidebar)."


def _load_sample() -> None:
    sid = st.session_state.get("cp_sample")
    if sid not in SAMPLES:
        return
    _set_testset(load_sample(sid), SAMPLES[sid].title, sample=sid)
    _sample_settings(sid)


def _load_uploads() -> None:
    ss = st.session_state
    sys_files = ss.get("cp_up_sys") or []
    ref_files = ss.get("cp_up_ref") or []
    detected: list[str] = []
    src = ss.get("cp_up_src")
    try:
        ts = testset_from_uploads([(f.name, f.getvalue()) for f in sys_files],
                                  [(f.name, f.getvalue()) for f in ref_files], detected,
                                  (src.name, src.getvalue()) if src is not None else None)
    except (TestSetError, ExplainerInputError) as e:
        ss["cp_load_error"] = str(e)
        return
    _set_testset(ts, f"{len(ts.systems)} uploaded system(s), {ts.n_refs()} reference(s)")
    ss[DETECTED] = detected


#: the widgets a saved comparison restores (besides the test set, the names and the settings)
SAVED_VIEW_KEYS = ("cp_metric", "cp_baseline", "cp_system", "cp_view_sys", "cp_seg", "cp_test", "cp_test_n_bs",
                   "cp_test_n_ar", "cp_rouge_type", "cp_differ_view", "cp_rdiffer_view", "cp_view_family",
                   "cp_langpair")
RESTORED_TESTS = "cp_restored_tests"


def saved_comparison() -> str | None:
    """This view as a saved comparison (``explainer.corpus.saved``), or None when nothing is loaded."""
    parts = _saved_parts()
    return None if parts is None else _dump_saved(parts)


def _dump_saved(parts) -> str:
    from explainer.corpus.saved import dump_saved

    return dump_saved(parts)


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
    return Saved(ts, ss.get("cp_ts_label", ""), metric_settings.settings_to_params(settings), view, tests)


def _load_saved() -> None:
    from explainer.corpus.saved import load_saved

    ss = st.session_state
    f = ss.get("cp_up_saved")
    if f is None:
        ss["cp_load_error"] = "choose a saved comparison (.json) first"
        return
    try:
        saved = load_saved(f.getvalue(), max_bytes=PAGE_MAX_BYTES, max_segments=PAGE_MAX_SEGMENTS,
                           max_systems=PAGE_MAX_SYSTEMS, name=f.name)
    except (TestSetError, ExplainerInputError) as e:
        ss["cp_load_error"] = str(e)
        return
    _set_testset(saved.testset, saved.label or f"restored from {f.name}")
    settings, warns = metric_settings.settings_from_params(saved.settings)
    metric_settings.put_settings(settings)
    for k, v in saved.view.items():
        if k in SAVED_VIEW_KEYS and v is not None:
            ss[k] = v
    ss[RESTORED_TESTS] = saved.tests
    if warns:
        ss["cp_notice"] = "Restored, with warnings: " + "; ".join(warns)


def _restore_tests(key: tuple, metric: str, baseline: str, rouge_type: str | None, measure: str) -> None:
    """Results of a restored comparison go where the page keeps its own (under this view's key)."""
    from explainer.corpus.significance import PairedResult

    ss = st.session_state
    pending = ss.get(RESTORED_TESTS)
    if not pending:
        return
    for t in pending:
        if (t.get("metric") == metric and t.get("baseline") == baseline
                and (metric == "bleu" or (t.get("rouge_type") == rouge_type and t.get("measure") == measure))):
            res = PairedResult.from_dict(t)
            ss.setdefault("cp_tests", {})[key] = {"result": res, "seconds": float(t.get("seconds") or 0.0),
                                                  "test": res.test, "n": res.n_samples}
            pending.remove(t)
            break


def _load_paste() -> None:
    ss = st.session_state
    n_sys = ss.get("cp_paste_n", 2)
    systems = [(ss.get(f"cp_paste_name_{i}", f"system {i + 1}"), ss.get(f"cp_paste_sys_{i}", "")) for i in range(n_sys)]
    refs = [ss.get(f"cp_paste_ref_{k}", "") for k in range(ss.get("cp_paste_nref", 1))]
    try:
        ts = testset_from_paste(systems, refs)
    except (TestSetError, ExplainerInputError) as e:
        ss["cp_load_error"] = str(e)
        return
    _set_testset(ts, "pasted text")


# ------------------------------------------------------------------------------------------- the link
LAST_PARAMS = "_cp_last_params"     # the query parameters this page last wrote
SHOWN_NAMES = "_cp_shown_names"     # the systems' names as the page last showed them
LINK_WARNINGS = "cp_link_warnings"  # what was wrong with the link (shown once, above the page)


def _params() -> dict[str, list[str]]:
    return {k: st.query_params.get_all(k) for k in st.query_params.keys()}


def _sample_info(sid: str) -> tuple[list[str], int]:
    ts = load_sample(sid)
    return list(ts.names), ts.n_segments


def _parse(params: dict):
    from explainer.ui import corpus_link

    return corpus_link.parse_link(params, samples=SAMPLES, sample_info=_sample_info, max_n=PAGE_MAX_RESAMPLES,
                                  max_cells=PAGE_MAX_TEST_CELLS)


def _link_in() -> None:
    """Before any widget is drawn: a link (the URL, when it is not the one this page last wrote) sets the sample,
    the settings and the view; bad values and unknown parameters become warnings (the canonical link written at
    the end of the run drops them from the address bar). Back from another page (the navigation drops the
    query), the view is put back as the page left it."""
    ss = st.session_state
    params = _params()
    last = ss.get(LAST_PARAMS)
    if params == last:
        return
    if not params:
        if last:
            _apply_view(_parse(last), metric_settings.current_settings()[0])
        else:   # the page's first load: a link over the server's limits arrives empty (said by watch_dropped_link)
            dropped = dropped_link_warning("corpus")
            if dropped:
                ss[LINK_WARNINGS] = [_corpus_words(dropped)]
        return
    warns = []
    dropped = dropped_link_warning("corpus") if last is None else None
    if dropped:
        warns.append(_corpus_words(dropped))
    link = _parse(params)
    warns += link.warnings
    loaded = False
    if link.sample is not None and (ss.get("cp_ts") is None or ss.get("cp_ts_sample") != link.sample):
        ss["cp_sample"] = link.sample
        _set_testset(load_sample(link.sample), SAMPLES[link.sample].title, sample=link.sample)
        loaded = True
    if link.settings is not None:
        metric_settings.put_settings(link.settings)
    elif loaded:
        _sample_settings(link.sample)
    _apply_view(link, link.settings or metric_settings.current_settings()[0])
    ss[LINK_WARNINGS] = warns


def _corpus_words(sentence: str) -> str:
    """The shared dropped-link sentence as it applies here (this page has no default example)."""
    return sentence.replace("so the page shows its default example instead", "so the page opened without it")


def _apply_view(link, settings) -> None:
    """The link's metric, systems, segment, test and ROUGE choices into the widgets' keys (before they are
    drawn). System names in a link are the sample's own; the page shows the names the user gave them."""
    ss = st.session_state
    if link.metric:
        ss["cp_metric"] = link.metric.upper()
    ts = ss.get("cp_ts")
    if link.sample is not None and ts is not None and ss.get("cp_ts_sample") == link.sample:
        own = list(ts.names)

        def shown(name: str) -> str:
            return _shown_names(own)[own.index(name)]

        if link.baseline:
            ss["cp_baseline"] = shown(link.baseline)
        if link.system:
            ss["cp_system"] = shown(link.system)
        if link.seg_system or link.system:
            ss["cp_view_sys"] = shown(link.seg_system or link.system)
        if link.seg:
            ss["cp_seg"] = link.seg
    if link.test:
        ss["cp_test"] = link.test
    if link.n is not None:
        ss[f"cp_test_n_{link.test or 'bs'}"] = link.n
    if link.rouge_type:
        ss["cp_rouge_type"] = link.rouge_type
    for name, v in link.agg.items():
        ss[_copt_key(settings.rouge_dialect, name)] = v


def _shown_names(own: list[str]) -> list[str]:
    """The names the page shows for the test set's systems ``own``: the ones typed, unless they were refused
    (blank or repeated: then the file names, as the page says)."""
    ss = st.session_state
    last = ss.get(SHOWN_NAMES)
    if isinstance(last, list) and len(last) == len(own):
        return last
    return [ss.get(f"cp_name_{i}", n) for i, n in enumerate(own)]


def _link_now() -> dict[str, str]:
    """This view's link (from the widgets' state: callable in a fragment's run too)."""
    from explainer.ui import corpus_link

    ss = st.session_state
    settings = metric_settings.stored_settings() or metric_settings.default_settings()
    metric = (ss.get("cp_metric") or "BLEU").lower()
    ts = ss.get("cp_ts")
    sample = ss.get("cp_ts_sample") if ts is not None and ss.get("cp_ts_sample") in SAMPLES else None
    kw: dict[str, Any] = {}
    if sample is not None:
        own = list(ts.names)
        shown = _shown_names(own)

        def link_name(key: str) -> str | None:
            v = ss.get(key)
            return own[shown.index(v)] if v in shown else None

        test = ss.get("cp_test") if ss.get("cp_test") in ("bs", "ar") else None
        kw = dict(baseline=link_name("cp_baseline"), system=link_name("cp_system"),
                  seg_system=link_name("cp_view_sys"), seg=ss.get("cp_seg") if "cp_seg" in ss else None,
                  test=test, n=ss.get(f"cp_test_n_{test}") if test else None)
    if metric == "rouge":
        kw["rouge_type"] = ss.get("cp_rouge_type")
        kw["agg"] = {o["name"]: ss[_copt_key(settings.rouge_dialect, o["name"])]
                     for o in corpus_link.agg_specs(settings.rouge_dialect)
                     if _copt_key(settings.rouge_dialect, o["name"]) in ss}
    return corpus_link.link_params(settings=settings, sample=sample, metric=metric, **kw)


def _sync_url() -> None:
    """Write this view's link into the address bar (only when it changed)."""
    want = _link_now()
    norm = {k: [v] for k, v in want.items()}
    if _params() != norm:
        st.query_params.from_dict(want)
    st.session_state[LAST_PARAMS] = norm


def _base_url() -> str:
    try:
        return (st.context.url or "").split("?")[0]
    except Exception:  # noqa: BLE001 - embedded contexts without a URL
        return ""


def _share_box() -> None:
    """The link to this view, and what it cannot hold."""
    ss = st.session_state
    want = _link_now()
    st.markdown("**Link to this view**")
    st.code((_base_url() or "corpus") + "?" + urlencode(want), language=None, wrap_lines=True)
    if "sample" not in want:
        st.caption("This test set was uploaded or pasted: a link cannot carry it (nothing you load is stored on the "
                   "server). The link keeps the metric and its settings; whoever opens it loads the same files to "
                   "see the same numbers.")
        return
    ts = ss.get("cp_ts")
    renamed = ts is not None and any(ss.get(f"cp_name_{i}", n) != n for i, n in enumerate(ts.names))
    st.caption("The link opens this sample with these settings, this baseline, system and segment, and the test "
               "set up (press “Run the test”: same seed, same numbers)."
               + (" The names you gave the systems are not in it." if renamed else ""))


def _upload_form() -> None:
    """Uploads: systems, references and an optional source, any file name (read by content)."""
    c1, c2 = st.columns(2)
    with c1:
        st.file_uploader("System outputs, any file name (one segment per line, one file per system; or "
                         "JSON Lines with candidate/references; or TSV with a header: ref… columns and one "
                         "column per system; the format is read from the content)",
                         type=None, accept_multiple_files=True, key="cp_up_sys")
    with c2:
        st.file_uploader(f"References, any file name (1–{MAX_REFERENCES} files, one segment per line)",
                         type=None, accept_multiple_files=True, key="cp_up_ref")
    st.file_uploader("Source (optional, any file name, one segment per line): shown in the segment view "
                     "and the table, and source-length buckets", type=None, accept_multiple_files=False,
                     key="cp_up_src")
    st.button("Use these files", key="cp_load_up", on_click=_load_uploads, type="primary")
    st.caption(f"UTF-8, one segment per line, the same number of lines in every file. Limits: "
               f"{PAGE_MAX_SEGMENTS:,} segments, {PAGE_MAX_SYSTEMS} systems, {MAX_REFERENCES} references, "
               f"{PAGE_MAX_BYTES / 1e6:.0f} MB; larger test sets: `python -m explainer compare`. "
               "File names become system names without their common prefix and suffix "
               "(`…hyp.Online-B.de` → `Online-B`; editable below). Nothing is stored on the server.")


def _input_section() -> TestSet | None:
    ss = st.session_state
    loaded = ss.get("cp_ts")
    with st.expander("Test set: upload, paste or pick a sample" + (f" — loaded: {ss.get('cp_ts_label', '')}"
                                                                    if loaded is not None else ""),
                     expanded=loaded is None):
        source = st.radio("Source", ["Sample corpus", "Upload files", "Paste", "Saved comparison"], horizontal=True,
                          key="cp_source")
        if source == "Sample corpus":
            ids = list(SAMPLES)
            if ss.get("cp_sample") not in ids:
                ss["cp_sample"] = ids[0]
            st.selectbox("Sample", ids, key="cp_sample", format_func=lambda i: SAMPLES[i].title)
            st.caption(hl.md_escape(SAMPLES[ss["cp_sample"]].description) + " Written for this project.")
            st.button("Load the sample", key="cp_load_sample", on_click=_load_sample, type="primary")
        elif source == "Upload files":
            _upload_form()
        elif source == "Saved comparison":
            st.file_uploader("A comparison saved from this page (JSON: the test set, names, settings, view and "
                             "test results)", type=None, accept_multiple_files=False, key="cp_up_saved")
            st.button("Restore it", key="cp_load_saved", on_click=_load_saved, type="primary")
            st.caption(f"Limit: {PAGE_MAX_BYTES / 1e6:.0f} MB, and the limits of uploads. Save one with “Save this "
                       "comparison” under Downloads. Nothing is stored on the server.")
        else:
            n_ref = ss.setdefault("cp_paste_nref", 1)
            for k in range(n_ref):
                st.text_area(f"Reference {k + 1} (one segment per line)", key=f"cp_paste_ref_{k}", height=120)
            n_sys = ss.setdefault("cp_paste_n", 2)
            cols = st.columns(n_sys)
            for i in range(n_sys):
                with cols[i]:
                    st.text_input("System name", value=f"system {chr(65 + i)}", key=f"cp_paste_name_{i}")
                    st.text_area("Output (one segment per line)", key=f"cp_paste_sys_{i}", height=120)
            b1, b2, b3 = st.columns(3)
            b1.button("Add a reference", key="cp_add_ref", disabled=n_ref >= MAX_REFERENCES,
                      on_click=lambda: ss.__setitem__("cp_paste_nref", min(MAX_REFERENCES, n_ref + 1)))
            b2.button("Add a system", key="cp_add_sys", disabled=n_sys >= PAGE_MAX_SYSTEMS,
                      on_click=lambda: ss.__setitem__("cp_paste_n", min(PAGE_MAX_SYSTEMS, n_sys + 1)))
            b3.button("Use the pasted text", key="cp_load_paste", on_click=_load_paste, type="primary")
        err = ss.pop("cp_load_error", None)
        if err:
            st.error(hl.md_escape(err), icon=":material/error:")
    found = ss.get(DETECTED)
    if found and loaded is not None and ss.get("cp_ts_sample") is None:
        st.caption(hl.md_escape("Read by content — " + "; ".join(found)))
    for w in ss.pop(LINK_WARNINGS, None) or []:
        st.warning(hl.md_escape(w), icon=":material/link:")
    notice = ss.pop("cp_notice", None)
    if notice:
        st.info(hl.md_escape(notice), icon=":material/tune:")
    return ss.get("cp_ts")


def _system_names(ts: TestSet) -> TestSet:
    ss = st.session_state
    st.markdown("**Systems** (the first is the baseline by default; names are editable)")
    cols = st.columns(len(ts.systems))
    names = []
    for i, (n, _) in enumerate(ts.systems):
        key = f"cp_name_{i}"
        if key not in ss:
            ss[key] = n
        with cols[i]:
            names.append(st.text_input(f"System {i + 1}", key=key, max_chars=60))
    try:
        ts = ts.with_names(names)
    except TestSetError as e:
        st.warning(hl.md_escape(f"{e}; using the file names."))
    ss[SHOWN_NAMES] = list(ts.names)   # the names the page shows (the file names when the typed ones are refused)
    return ts


# ------------------------------------------------------------------------------------------- computing
_REPORTS_KEPT = 3


def _cached(kind: str, key: tuple, compute):
    """Per-session results keyed by input and settings (the last few kept)."""
    ss = st.session_state
    store = ss.setdefault("cp_results", {})
    full = (kind,) + key
    if full in store:
        val = store.pop(full)
        store[full] = val
        return val
    val = compute()
    store[full] = val
    while len(store) > _REPORTS_KEPT:
        store.pop(next(iter(store)))
    return val


class _Progress:
    """A progress bar that appears only for work that lasts (over ~0.3 s), with what is being done."""

    def __init__(self, label: str):
        self.label = label
        self.t0 = time.perf_counter()
        self.bar = None

    def __call__(self, frac: float, msg: str = "") -> None:
        if self.bar is None and time.perf_counter() - self.t0 > 0.3:
            self.bar = st.progress(0.0, text=self.label)
        if self.bar is not None:
            self.bar.progress(min(1.0, max(0.0, float(frac))), text=f"{self.label}: {msg}" if msg else self.label)

    def done(self) -> None:
        if self.bar is not None:
            self.bar.empty()


def _bleu_report(ts: TestSet, ts_key: str, settings) -> tuple[Any, tuple]:
    """(the BLEU report of this test set with these settings, its key: what it is computed from)."""
    from explainer.corpus.report import bleu_report

    kw = settings.bleu_kwargs()
    key = (ts_key, tuple(ts.names), freeze(kw))

    def compute():
        p = _Progress("Scoring every system (BLEU)")
        try:
            dialect = kw.pop("dialect")
            return bleu_report(ts, dialect=dialect, keep_refs=False, progress=p, **kw)
        finally:
            p.done()

    return _cached("bleu", key, compute), ("bleu",) + key


def _cjk_warning(ts: TestSet, tokenizer: str | None) -> str | None:
    from explainer.corpus.langpair import cjk_warning

    pair = (st.session_state.get("cp_langpair") or "").strip()
    target = pair.split("-")[-1].lower() if "-" in pair else None
    return cjk_warning((r for rs in ts.references[:2000] for r in rs), tokenizer, target=target)


def _rouge_types(settings) -> tuple[tuple[str, ...], list[str]]:
    from explainer.ui.schema import supported_types

    return supported_types(settings.rouge_dialect, settings.rouge_types)


def _rouge_report(ts: TestSet, ts_key: str, settings, corpus_opts: dict) -> tuple[Any, tuple]:
    """(the ROUGE report of this test set with these settings, its key: what it is computed from)."""
    from explainer.corpus.rouge_report import rouge_report

    types, _ = _rouge_types(settings)
    kw = settings.rouge_kwargs()
    key = (ts_key, tuple(ts.names), freeze(kw), types, freeze(corpus_opts))

    def compute():
        p = _Progress("Scoring every system (ROUGE)")
        try:
            dialect = kw.pop("dialect")
            return rouge_report(ts, dialect=dialect, types=list(types), progress=p, **kw, **corpus_opts)
        finally:
            p.done()

    return _cached("rouge", key, compute), ("rouge",) + key


# --------------------------------------------------------------------------------------------- sections
def _fmt(x: float | None, scale: float = 100.0) -> str:
    if x is None:
        return "—"
    return f"{x:.2f}" if scale >= 100 else f"{x:.4f}"


RUN_FIGURES = "cp_run_figures"    # the charts drawn in this run, for the "Charts (HTML)" download


def _plot(fig, key: str, **kw):
    cfg = dict(CHART_CONFIG)
    fmt = st.session_state.get("cp_chart_format", "png")
    cfg["toImageButtonOptions"] = {"format": fmt, "filename": key}
    st.session_state.setdefault(RUN_FIGURES, {})[key] = fig
    return st.plotly_chart(fig, key=key, config=cfg, **kw)


OPEN_REQUEST = "cp_open_request"
SCROLL_TO_SEGMENT = "cp_scroll_to_segment"     # a counter: each opening asks once to scroll to the segment view
SCROLLED = "_cp_scrolled"


def _scroll_to_segment_view() -> None:
    """Scroll the page to the segment view once after a click opened a segment (it opens two screens below the
    gain / loss buttons and chart bars, out of sight). A zero-height component's script, same origin."""
    ss = st.session_state
    n = ss.get(SCROLL_TO_SEGMENT, 0)
    if not n or ss.get(SCROLLED) == n:
        return
    ss[SCROLLED] = n
    import streamlit.components.v1 as components

    components.html(f"<script>/* {n} */ const el = window.parent.document.getElementById('segment-view');"
                    "if (el) { el.scrollIntoView({behavior: 'smooth', block: 'start'}); }</script>", height=0)


def _open_segment(seg: int, system: str | None = None, note: str = "") -> None:
    """Ask for segment ``seg`` (the candidate of ``system``) to be opened in the segment view. Only a request: a
    widget's key cannot be written once the widget is drawn in a run (Streamlit raises), so it is applied by
    :func:`_apply_open_request` before the widgets of the next run are drawn. Called from widget callbacks (a
    button's ``on_click``, a chart's or table's ``on_select``), which run before the script."""
    st.session_state[OPEN_REQUEST] = (int(seg), system, note)


def _apply_open_request() -> None:
    """Apply a pending :func:`_open_segment` request; called at the top of a run, before any widget is drawn (the
    page's run, and the segments fragment's own runs)."""
    ss = st.session_state
    req = ss.pop(OPEN_REQUEST, None)
    if req is None:
        return
    seg, system, note = req
    ss["cp_seg"] = int(seg)
    if system is not None:
        ss["cp_system"] = system
        ss["cp_view_sys"] = system
    ss["cp_opened_note"] = note
    ss[SCROLL_TO_SEGMENT] = ss.get(SCROLL_TO_SEGMENT, 0) + 1     # the segment opens below: bring it into view


def _selected_points(key: str) -> list[dict]:
    """The points selected in the chart ``key`` (its state, read in its ``on_select`` callback)."""
    try:
        return list(st.session_state[key]["selection"]["points"])
    except (KeyError, TypeError, AttributeError):
        return []


def _selected_rows(key: str) -> list[int]:
    """The rows selected in the dataframe ``key`` (read in its ``on_select`` callback)."""
    try:
        return list(st.session_state[key]["selection"]["rows"])
    except (KeyError, TypeError, AttributeError):
        return []


def _point_segment(point: dict) -> int | None:
    """The 1-based segment id a chart point stands for (``customdata``: the id, or a list starting with it)."""
    cd = point.get("customdata")
    if isinstance(cd, list) and cd:
        cd = cd[0]
    if isinstance(cd, (int, float)) and not isinstance(cd, bool):
        return int(cd)
    return None


def _on_pick(key: str, resolve) -> None:
    """``on_select`` of a chart whose bars stand for groups of segments: ``resolve(point)`` gives (the segments,
    a label[, their system]); they are listed in the table below (a single one is opened too)."""
    pts = _selected_points(key)
    if not pts:
        return
    got = resolve(pts[0])
    ids, label = got[0], got[1]
    if ids:
        _filter_segments(ids, label)
        if len(ids) == 1:
            _open_segment(ids[0], got[2] if len(got) > 2 else None, f"opened from the chart: {label}")


def _on_chart_open(key: str, system: str) -> None:
    """``on_select`` of a chart whose points are segments: one point opens it, several list them in the table."""
    ids = sorted({s for s in (_point_segment(p) for p in _selected_points(key)) if s is not None})
    if len(ids) == 1:
        _open_segment(ids[0], system, f"opened from the chart: segment {ids[0]}")
    elif ids:
        _filter_segments(ids, "selected in the chart")


def _baseline_and_system(names: list[str]) -> tuple[int, int]:
    ss = st.session_state
    if ss.get("cp_baseline") not in names:
        ss["cp_baseline"] = names[0]
    others = [n for n in names if n != ss["cp_baseline"]] or names
    if ss.get("cp_system") not in names:
        ss["cp_system"] = others[0]
    c1, c2 = st.columns(2)
    c1.selectbox("Baseline (paired tests and deltas are against it)", names, key="cp_baseline")
    c2.selectbox("System to look at (worked-out score, differences, segment view)", names, key="cp_system")
    return names.index(ss["cp_baseline"]), names.index(ss["cp_system"])


def _scores_section_bleu(rep, rkey: tuple, b: int) -> None:
    st.header("Corpus scores", anchor="corpus-scores")
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
    row = st.container(horizontal=True, gap="medium", key="cp_headline")
    for s in rep.systems:
        with row:
            st.metric(hl.md_escape(f"BLEU — {s.name}"), f"{s.score:.4f}" if rep.scale >= 100 else f"{s.score:.6f}",
                      delta=None if s is rep.systems[b] else f"{s.score - rep.systems[b].score:+.4f} vs baseline",
                      help=f"corpus BLEU, exact value {s.score!r}")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={"BLEU": st.column_config.NumberColumn(format="%.4f"),
                                "Δ vs baseline": st.column_config.NumberColumn(format="%+.4f")})
    ci = [by[s.name].ci if s.name in by else None for s in rep.systems] if by else None
    _plot(cc.corpus_scores_figure(rep.names, [s.score for s in rep.systems], ci=ci, scale=rep.scale), "cp_scores")
    st.code(f"BLEU signature: {rep.signature}", language=None, wrap_lines=True)
    st.caption(hl.md_escape(f"{rep.d.implementation}; corpus BLEU from the summed statistics of all "
                            f"{rep.n_segments:,} segments (not a mean of sentence scores). Scale 0–{rep.scale:g}."))
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


def _filter_segments(ids, label: str) -> None:
    st.session_state["cp_filter_ids"] = (label, [int(x) for x in ids])


_TESTS_KEPT = 6


def _tests_key(rkey: tuple, baseline: str, rouge_type: str | None = None, measure: str = "fmeasure") -> tuple:
    """Where a paired test's result is kept: the report's key (metric, test set, system names, settings — what
    the statistics are computed from, never the report object's ``id``, which a later report may reuse), the
    baseline and, for ROUGE, the type and measure tested."""
    return rkey + (baseline,) + ((rouge_type, measure) if rkey[0] == "rouge" else ())


# ---------------------------------------------------------------------------------- significance
P_VALUE_WORDS = """
**What the p-value says.** Suppose the two systems were equally good on test sets like this one. The p-value is
how often chance alone — resampling the segments (paired bootstrap, Koehn 2004) or randomly swapping the two
systems' outputs segment by segment (approximate randomization, Riezler & Maxwell 2005) — produces a difference in
corpus score at least as large as the one observed. A small p-value (conventionally below 0.05) means such a
difference would be rare if the systems were equally good.

**What it does not say.** It is not the probability that the systems are equally good, nor that the difference
matters to anyone: a tiny, useless difference on a large test set can be "significant". It says nothing about
other test sets, domains or references, and a large p-value is no proof that the systems are equal (the test set
may be too small). The tests resample *segments*; they do not account for the variance of training runs.

**Many comparisons.** With several systems, each compared with the baseline at 0.05, the chance that at least one
comparison looks significant by luck grows with their number ({k} comparisons here: up to {risk:.0%} if all
systems were equally good). Compare the p-values with 0.05 / {k} = {bonf:.4f} (Bonferroni) or report them all.
"""


def _significance_section(rep, rkey: tuple, metric: str, b: int, i: int, rouge_type: str | None = None,
                          measure: str = "fmeasure") -> None:
    st.header("Confidence and significance", anchor="significance")
    faithful = metric == "bleu" and rep.d.sacrebleu_significance
    _significance_caption(metric, faithful, rouge_type, measure)
    if metric == "bleu" and rep.d.needs_last_segment:
        st.info(f"Bootstrap and paired tests are not defined for the {rep.dialect} dialect: its corpus score depends "
                "on the last segment (NLTK's smoothing reads it), which resampling would change.")
        return
    test, n, run = _test_controls(rep)
    key = _tests_key(rkey, rep.names[b], rouge_type, measure)
    _restore_tests(key, metric, rep.names[b], rouge_type, measure)
    if run:
        if not _run_paired_test(rep, metric, b, test, n, key, faithful=faithful, rouge_type=rouge_type,
                                measure=measure):
            return
        # the scores table above shows the p-values and intervals too: draw the page again with them
        st.rerun()
    got = st.session_state.setdefault("cp_tests", {}).get(key)
    if len(rep.systems) > 2:
        _pair_matrix_box(rep, metric, test, n, key, faithful=faithful, rouge_type=rouge_type, measure=measure)
    if got is None and len(rep.systems) == 1 and metric == "bleu":
        _confidence_of_one_system(rep, faithful)
    elif got is None:
        st.caption("Press “Run the test”: sacreBLEU's defaults are 1,000 bootstrap resamples and 10,000 AR trials.")
    else:
        _test_result(rep, metric, got, faithful, rouge_type)


def p_value_text(p: float | None) -> str:
    """A p-value as sacreBLEU prints it (4 decimals); the baseline has none (it was shown as "None")."""
    return "— (baseline)" if p is None else f"{p:.4f}"


def _significance_caption(metric: str, faithful: bool, rouge_type: str | None, measure: str) -> None:
    """Whose procedure the numbers are: sacreBLEU's own, or the project's extension of it."""
    if metric == "bleu":
        st.caption("sacreBLEU 2.6's own procedures (`sacrebleu/significance.py`), number for number"
                   + ("" if faithful else " — applied here to this dialect's statistics: the project's own "
                                         "extension, no implementation of this dialect has them") +
                   ". Seed from SACREBLEU_SEED (default 12345).")
    else:
        st.caption(hl.md_escape(f"The project's own extension: sacreBLEU's paired bootstrap / approximate "
                                f"randomization applied to the mean per-item {measure} of {rouge_type} (no ROUGE "
                                "implementation has paired tests; the dialect's own intervals are in the scores "
                                "table)."))


def _test_controls(rep) -> tuple[str, int, bool]:
    """The test, its number of resamples or trials (bounded before any work) and whether to run it now."""
    ss = st.session_state
    c1, c2, c3 = st.columns([2, 1, 1])
    test = c1.radio("Test", ["bs", "ar"], key="cp_test", horizontal=True,
                    format_func=lambda t: "paired bootstrap (Koehn 2004)" if t == "bs" else
                    "approximate randomization (Riezler & Maxwell 2005)")
    nkey = f"cp_test_n_{test}"
    if nkey not in ss:
        ss[nkey] = 1000 if test == "bs" else 10000
    n = int(c2.number_input("Resamples" if test == "bs" else "Trials", min_value=1,
                            max_value=PAGE_MAX_RESAMPLES[test], step=100, key=nkey))
    S = rep.n_segments
    too_big = n * S > PAGE_MAX_TEST_CELLS
    if too_big:
        st.warning(f"{n:,} × {S:,} segments is over the page's limit of {PAGE_MAX_TEST_CELLS:,} draws per test; "
                   f"use at most {PAGE_MAX_TEST_CELLS // S:,} (or the command line).")
    one = len(rep.systems) < 2
    run = c3.button("Run the test", key="cp_run_test", type="primary", disabled=too_big or one)
    st.caption(f"Bounded: at most {PAGE_MAX_RESAMPLES[test]:,} {'resamples' if test == 'bs' else 'trials'}, "
               f"{PAGE_MAX_TEST_CELLS:,} draws (× segments) and {PAGE_TEST_SECONDS} s per test; the statistics of "
               "each segment are resampled, not the texts.")
    if one:
        st.info("A paired test needs two systems. With one system, the bootstrap interval below is sacreBLEU's "
                "`--confidence`.")
    return test, n, bool(run) and not too_big and not one


def _run_paired_test(rep, metric: str, b: int, test: str, n: int, key: tuple, *, faithful: bool,
                     rouge_type: str | None, measure: str) -> bool:
    """Run the test against baseline ``b`` with a progress bar and keep its result under ``key``; False (and the
    message shown) when the core refuses it."""
    from explainer.corpus.significance import paired_test

    order = [b] + [j for j in range(len(rep.systems)) if j != b]
    named = [(rep.systems[j].name, rep.statistic(j) if metric == "bleu" else rep.statistic(j, rouge_type, measure))
             for j in order]
    p = _Progress("Paired bootstrap" if test == "bs" else "Approximate randomization")
    t0 = time.perf_counter()
    try:
        res = paired_test(named, test=test, n_samples=n, faithful=faithful,
                          progress=lambda f: p(f, f"{int(100 * f)} % (time limit {PAGE_TEST_SECONDS} s)"),
                          time_limit=PAGE_TEST_SECONDS)
    except ExplainerInputError as e:
        st.error(hl.md_escape(str(e)))
        return False
    finally:
        p.done()
    store = st.session_state.setdefault("cp_tests", {})
    store.pop(key, None)
    store[key] = {"result": res, "seconds": time.perf_counter() - t0, "test": test, "n": n}
    while len(store) > _TESTS_KEPT:     # each holds its resamples: the last few only
        store.pop(next(iter(store)))
    return True


MATRICES = "cp_matrices"


def _pair_matrix_box(rep, metric: str, test: str, n: int, key: tuple, *, faithful: bool, rouge_type: str | None,
                     measure: str) -> None:
    """Every pair of systems under the chosen test (a p-value matrix) and WMT-style clusters."""
    from explainer.corpus.significance import pair_matrix

    ss = st.session_state
    store = ss.setdefault(MATRICES, {})
    mkey = key[1:] + (test, n)
    with st.expander("All systems against each other (every pair, WMT-style clusters)",
                     expanded=mkey in store):
        if st.button(f"Run the test on every pair ({len(rep.systems) * (len(rep.systems) - 1) // 2} pairs)",
                     key="cp_run_matrix"):
            named = [(s.name, rep.statistic(j) if metric == "bleu" else rep.statistic(j, rouge_type, measure))
                     for j, s in enumerate(rep.systems)]
            p = _Progress("Every pair")
            try:
                store[mkey] = pair_matrix(named, test=test, n_samples=n, faithful=faithful,
                                          progress=lambda f: p(f, f"{int(100 * f)} %"), time_limit=PAGE_TEST_SECONDS)
            except ExplainerInputError as e:
                st.error(hl.md_escape(str(e)))
            finally:
                p.done()
            while len(store) > 2:
                store.pop(next(iter(store)))
        m = store.get(mkey)
        if m is None:
            st.caption(f"The test above ({test}, {n:,}) run with each system as the baseline; bounded by the same "
                       f"{PAGE_TEST_SECONDS} s.")
            return
        rows = [{"system": a, **{b: ("—" if i == j else f"{m.p[i][j]:.4f}") for j, b in enumerate(m.names)}}
                for i, a in enumerate(m.names)]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        st.markdown(hl.md_escape("Clusters, best first: " + " > ".join("{" + ", ".join(c) + "}" for c in m.clusters)))
        st.caption(hl.md_escape(m.to_dict()["clustering"] + ". Many pairs at 0.05: some differences are chance "
                                "(see the note on Bonferroni below)."))


def _confidence_of_one_system(rep, faithful: bool) -> None:
    """One system: sacreBLEU's ``--confidence`` (bootstrap 95 % interval, 1,000 resamples) when asked."""
    from explainer.corpus.significance import bootstrap_confidence

    if st.button("Bootstrap 95 % confidence interval", key="cp_run_conf"):
        c = bootstrap_confidence(rep.statistic(0), 1000, faithful=faithful)
        st.markdown(hl.md_escape(f"{rep.systems[0].name}: {c.score:.4f}, bootstrap mean {c.mean:.4f} ± "
                                 f"{c.ci:.4f} (1,000 resamples, seed {c.seed})"))
        _plot(cc.bootstrap_figure([(rep.systems[0].name, c.resampled, c.score, c.ci)]), "cp_conf")


def _test_result(rep, metric: str, got: dict, faithful: bool, rouge_type: str | None) -> None:
    """A test's result: the table, sacreBLEU's signature, what the p-value means, the resampled scores and each
    system's null distribution with the observed difference."""
    res = got["result"]
    st.markdown(hl.md_escape(f"{'Paired bootstrap' if res.test == 'bs' else 'Approximate randomization'}, "
                             f"{res.n_samples:,} {'resamples' if res.test == 'bs' else 'trials'}, seed {res.seed}, "
                             f"baseline {res.systems[0].name} — computed in {got['seconds']:.2f} s."))
    rows = [{"system": s.name, "score": s.score, "p-value": p_value_text(s.p_value),
             "bootstrap mean": s.mean, "95% CI ±": s.ci,
             "significant at 0.05": "baseline" if s.p_value is None else ("yes" if s.p_value < 0.05 else "no")}
            for s in res.systems]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if metric == "bleu" and faithful:
        from explainer.corpus.significance import paired_signature

        st.code("signature: " + paired_signature(rep.signature, res.test, res.n_samples, res.seed,
                                                 res.n_ar_confidence), language=None, wrap_lines=True)
    k = len(res.systems) - 1
    st.markdown(P_VALUE_WORDS.format(k=k, risk=1 - 0.95 ** k, bonf=0.05 / max(k, 1)))
    if res.test == "bs":
        series = [(s.name, s.resampled if s.resampled is not None else np.array([]), s.score, s.ci)
                  for s in res.systems if s.resampled is not None]
        _plot(cc.bootstrap_figure(series, metric="BLEU" if metric == "bleu" else rouge_type), "cp_bs_dist")
    names = [s.name for s in res.systems[1:]]
    if names:
        pick = st.selectbox("Null distribution of", names, key="cp_null_sys")
        s = res.systems[1 + names.index(pick)]
        if s.null_stats is not None:
            _plot(cc.null_distribution_figure(s.null_stats, s.observed_diff, s.p_value, test=res.test, name=s.name,
                                              baseline=res.systems[0].name), "cp_null")


# ---------------------------------------------------------------------------------- where they differ
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
               "its segments in the table below.")


def _cached_analysis(rep, name: str, compute):
    """compare-mt's analyses of a report, computed once per report (the report is kept per input and settings)."""
    key = ("comparemt", name)
    if key not in rep._cache:
        rep._cache[key] = compute()
    return rep._cache[key]


def _word_accuracy_view(rep, b: int, i: int) -> None:
    from explainer.corpus.comparemt import word_accuracy

    wa = _cached_analysis(rep, "word_accuracy", lambda: word_accuracy(rep))
    buckets = [{"bucket": lab, "n_segments": len(wa["systems"][0]["buckets"][k]["segments"]),
                "segments": wa["systems"][0]["buckets"][k]["segments"],
                "scores": {s["system"]: s["buckets"][k]["fmeasure"] for s in wa["systems"]}}
               for k, lab in enumerate(wa["labels"])]
    buckets = [bk for k, bk in enumerate(buckets)
               if any(s["buckets"][k]["reference_words"] or s["buckets"][k]["output_words"] for s in wa["systems"])]
    _plot(cc.length_buckets_figure(buckets, rep.names, metric="word F-measure", what="frequency",
                                   title="Word accuracy (F-measure) by frequency in the references"),
          "cp_wordacc", selection_mode="points",
          on_select=partial(_on_pick, "cp_wordacc", partial(cc.bucket_bar_segments, buckets)))
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

    sb = _cached_analysis(rep, "sentence_buckets", lambda: sentence_buckets(rep))
    buckets = [{"bucket": lab, "n_segments": sum(s["counts"][k] for s in sb["systems"]),
                "segments": sorted({x for s in sb["systems"] for x in s["segments"][k]}),
                "scores": {s["system"]: s["counts"][k] for s in sb["systems"]}} for k, lab in enumerate(sb["labels"])]
    _plot(cc.length_buckets_figure(buckets, rep.names, metric="segments", what="sentence score",
                                   title="Segments per band of sentence score"), "cp_sentbuckets",
          selection_mode="points", on_select=partial(_on_pick, "cp_sentbuckets",
                                                      partial(cc.bucket_bar_segments, buckets)))
    st.caption(hl.md_escape(f"compare-mt's sentence bucket analysis: how many segments of each system score in "
                            f"each band; sentence scores: {sb['scored_by']}. Click a bar to list the band's "
                            "segments (of every system) below."))


def _source_length_view(rep, b: int, i: int) -> None:
    from explainer.corpus.comparemt import source_length_buckets

    buckets = _cached_analysis(rep, "source_length", lambda: source_length_buckets(rep, rep.testset.source))
    _plot(cc.length_buckets_figure(buckets, rep.names, what="source length",
                                   title="BLEU by source length (buckets of about equal size)"), "cp_srcbuckets",
          selection_mode="points", on_select=partial(_on_pick, "cp_srcbuckets",
                                                      partial(cc.bucket_bar_segments, buckets)))
    st.caption("Corpus BLEU of the segments whose source has that many words (characters for a source written "
               "without spaces). Click a bar to list its segments below.")


def _on_group_row(key: str, groups: list[tuple[list[int], str]]) -> None:
    """``on_select`` of a table whose rows are groups of segments (ids, label): lists the picked one's below."""
    rows = _selected_rows(key)
    if rows and rows[0] < len(groups):
        _filter_segments(*groups[rows[0]])


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


def _on_segment_row(key: str, ids: list[int], system: str | None) -> None:
    """``on_select`` of a table whose rows are the segments ``ids``: opens the picked one."""
    rows = _selected_rows(key)
    if rows and rows[0] < len(ids):
        _open_segment(int(ids[rows[0]]), system, f"opened from the table: segment {int(ids[rows[0]])}")


def _ngrams_view(rep, b: int, i: int) -> None:
    with st.spinner("Counting matched n-grams…"):
        nd = rep.ngram_differences(i, b)
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


# ------------------------------------------------------------------------------------ table + segment view
def _segment_table(rep, metric: str, b: int, rouge_type: str | None = None) -> None:
    ss = st.session_state
    st.header("Segments", anchor="segments")
    ts = rep.testset
    if metric == "bleu":
        cols = rep.segment_rows(b)
    else:
        cols = rep.segment_rows(rouge_type, b)
    df = _table_frame(cols, ts, rep.names)
    c1, c2, c3 = st.columns([3, 2, 2])
    query = c1.text_input("Search the texts (candidates and references)", key="cp_search", max_chars=TABLE_SEARCH_MAX)
    others = [n for j, n in enumerate(rep.names) if j != b]
    cmp_name = ss.get("cp_system") if ss.get("cp_system") in others else (others[0] if others else None)
    show = c2.selectbox("Show", ["all segments", "system better", "system worse", "equal"], key="cp_show",
                        disabled=cmp_name is None,
                        help="Compared: the system picked above against the baseline.")
    mask = np.ones(len(df), dtype=bool)
    flt = ss.get("cp_filter_ids")
    if flt:
        label, ids = flt
        keep = np.zeros(len(df), dtype=bool)
        keep[[x - 1 for x in ids if 1 <= x <= len(df)]] = True
        mask &= keep
        c3.button(hl.md_escape(f"✕ only: {label[:40]} ({len(ids):,})"), key="cp_clear_filter",
                  on_click=lambda: ss.pop("cp_filter_ids", None), help="Show all segments again")
    if cmp_name is not None and show != "all segments" and f"{cmp_name} | Δ" in df:
        dcol = df[f"{cmp_name} | Δ"].to_numpy()
        mask &= {"system better": dcol > 0, "system worse": dcol < 0, "equal": dcol == 0}[show]
    if query:
        q = query.lower()
        hit = np.zeros(len(df), dtype=bool)
        for k in range(len(df)):
            if any(q in r.lower() for r in ts.references[k]) or any(q in lines[k].lower() for _, lines in ts.systems):
                hit[k] = True
        mask &= hit
    view = df[mask]
    st.caption(f"{int(mask.sum()):,} of {len(df):,} segments. Click a column header to sort, a row to open the "
               "segment below. Δ = the system's sentence score minus the baseline's.")
    fmt = {c: st.column_config.NumberColumn(format="%.2f" if metric == "bleu" and rep.scale >= 100 else "%.4f")
           for c in df.columns if c.endswith("| score") or c.endswith("| Δ") or c.endswith(f"| {rouge_type}")}
    fmt["reference 1"] = st.column_config.TextColumn("reference 1", width="medium")
    st.dataframe(view, hide_index=True, width="stretch", height=360, on_select=_on_table_row,
                 selection_mode="single-row", key="cp_table", column_config=fmt)
    # the rows as shown: a row picked in the table is looked up here (and previous / next walk them)
    ss["cp_visible_ids"] = view["segment"].tolist()


def _on_table_row() -> None:
    rows = _selected_rows("cp_table")
    visible = st.session_state.get("cp_visible_ids") or []
    if rows and rows[0] < len(visible):
        _open_segment(int(visible[rows[0]]))


@st.fragment
def _segments_fragment(rep, metric: str, b: int, settings, rouge_type: str | None = None) -> None:
    """The table and the segment view rerun on their own: picking a row and the table's filters redraw only this
    part of the page; previous / next and the segment number redraw only the segment view (a fragment inside)."""
    _apply_open_request()     # a row picked in the table reruns this fragment only
    _segment_table(rep, metric, b, rouge_type)
    _segment_view_fragment(rep, metric, settings)


@st.fragment
def _segment_view_fragment(rep, metric: str, settings) -> None:
    _segment_view(rep, metric, settings)
    _share_box()
    _sync_url()     # previous / next rerun this fragment only: the link follows the segment


PREVIEW_CHARS = 70


def _table_frame(cols: dict, ts: TestSet, names: list[str]) -> pd.DataFrame:
    """The table as shown: id, the first reference (shortened), its length, then per system its score first
    (the CSV download keeps every column in the report's order)."""
    out = {"segment": cols["segment"]}
    if ts.source is not None:
        out["source"] = [x[:PREVIEW_CHARS] + ("…" if len(x) > PREVIEW_CHARS else "") for x in ts.source]
    out["reference 1"] = [r[0][:PREVIEW_CHARS] + ("…" if len(r[0]) > PREVIEW_CHARS else "") if r else ""
                          for r in ts.references]
    for k in ("ref_len", "ref_words"):
        if k in cols:
            out[k] = cols[k]
    for n in names:
        first = [c for c in cols if c.startswith(f"{n} | ") and not c.endswith(("| len", "| r", "| words", "| BP"))
                 and not c.endswith("-gram")]
        rest = [c for c in cols if c.startswith(f"{n} | ") and c not in first and not c.endswith("| r")]
        for c in first + rest:
            out[c] = cols[c]
    return pd.DataFrame(out)


def _step(delta: int, S: int) -> None:
    ss = st.session_state
    visible = ss.get("cp_visible_ids") or list(range(1, S + 1))
    cur = int(ss.get("cp_seg", 1))
    if cur in visible:
        k = visible.index(cur) + delta
        ss["cp_seg"] = visible[max(0, min(len(visible) - 1, k))]
    else:
        ss["cp_seg"] = max(1, min(S, cur + delta))
    ss["cp_seg_input"] = ss["cp_seg"]


def _seg_input_changed() -> None:
    st.session_state["cp_seg"] = int(st.session_state["cp_seg_input"])


def _segment_view(rep, metric: str, settings) -> None:
    st.header("Segment view", anchor="segment-view")
    _scroll_to_segment_view()
    seg, j = _segment_navigation(rep.n_segments, rep.names)
    k = seg - 1
    cand = rep.testset.systems[j][1][k]
    refs = rep.testset.references[k]
    _side_by_side(rep, k, j)
    _segment_summary(rep, metric, seg, j, cand, refs, settings)
    _segment_explanation(cand, refs, metric, settings)


def _side_by_side(rep, k: int, j: int) -> None:
    """The source (when loaded), the baseline's and the shown system's outputs and the references of segment k
    side by side (compare-mt's sentence examples; the explanation below takes one candidate at a time)."""
    ss = st.session_state
    ts = rep.testset
    names = rep.names
    b = names.index(ss["cp_baseline"]) if ss.get("cp_baseline") in names else 0
    shown = [b] if b == j else [b, j]
    if ts.source is not None:
        st.markdown("**Source** " + hl.md_escape(ts.source[k]))
    cols = st.columns(len(shown) + 1)
    for col, idx in zip(cols, shown):
        with col:
            role = "baseline" if idx == b else "system"
            st.markdown(f"**{hl.md_escape(names[idx])}** ({role})")
            st.markdown(hl.md_escape(ts.systems[idx][1][k]) or "_(empty)_")
    with cols[-1]:
        for r_i, r in enumerate(ts.references[k]):
            st.markdown(f"**Reference {r_i + 1}**")
            st.markdown(hl.md_escape(r) or "_(empty)_")


def _segment_navigation(S: int, names: list[str]) -> tuple[int, int]:
    """Previous / next, the segment number and the system whose candidate is shown: (segment, system index)."""
    ss = st.session_state
    seg = max(1, min(S, int(ss.get("cp_seg", 1))))
    ss["cp_seg"] = seg
    if ss.get("cp_seg_input") != seg:
        ss["cp_seg_input"] = seg
    if ss.get("cp_view_sys") not in names:
        ss["cp_view_sys"] = ss.get("cp_system") if ss.get("cp_system") in names else names[0]
    c1, c2, c3, c4 = st.columns([1, 2, 1, 3], vertical_alignment="bottom")
    c1.button("← previous", key="cp_prev", on_click=_step, args=(-1, S), disabled=seg <= 1)
    c2.number_input("Segment", min_value=1, max_value=S, step=1, key="cp_seg_input", on_change=_seg_input_changed)
    c3.button("next →", key="cp_next", on_click=_step, args=(1, S), disabled=seg >= S)
    c4.selectbox("Candidate of", names, key="cp_view_sys")
    note = ss.pop("cp_opened_note", "")
    if note:
        st.caption(hl.md_escape(note))
    return seg, names.index(ss["cp_view_sys"])


def _segment_summary(rep, metric: str, seg: int, j: int, cand: str, refs: list[str], settings) -> None:
    """The link to the Explain page, and how this segment enters the corpus score."""
    params = metric_settings.explain_link_params(cand, refs, settings)
    if "candidate" in params:
        st.markdown(f"[Open segment {seg} in the Explain page]({_explain_url(params)}) (same settings; a new tab)")
    else:
        st.caption(f"Segment {seg} is too long for a link to the Explain page; its full explanation is below.")
    k = seg - 1
    if metric == "bleu":
        s = rep.systems[j]
        st.caption(hl.md_escape(f"Segment {seg}: sentence score {s.sentence[k]:.4f} alone ({rep.dialect}), "
                                f"BP {s.bp[k]:.4f}, c = {int(s.stats[k, 0])}, r = {int(s.stats[k, 1])}; its statistics "
                                f"{s.stats[k].tolist()} are one of the {rep.n_segments:,} rows summed into the corpus "
                                "score."))
    if not cand.strip():
        st.warning(hl.md_escape(f"{rep.names[j]}'s output for segment {seg} is empty: every score is 0 (BP = 0)."))


def _segment_explanation(cand: str, refs: list[str], metric: str, settings) -> None:
    """The Explain page's own headline and BLEU or ROUGE section for this segment, with the same settings."""
    from explainer.ui import compute as shared_compute
    from explainer.ui import explain_page as xp
    from explainer.ui.permalink import ExplainState

    ss = st.session_state
    # the Explain page's traces for these texts and settings (computed once, shared with that page and with
    # every session looking at the same segment)
    types, _ = _rouge_types(settings)
    state = ExplainState(candidate=cand, refs=list(refs), **settings.to_state_fields())
    bleu_trace, rouge_trace, errors = shared_compute.traces(state, list(refs))
    for fam, msg in errors.items():
        if fam == "BLEU" or (fam == "ROUGE" and types):   # no / undefined ROUGE types: said below and above
            st.error(hl.md_escape(f"{fam}: {msg}"))
    xp.headline(bleu_trace, rouge_trace, types, signatures=True)
    # One family at a time: both would build every chart of the Explain view on each step (ROUGE's LCS tables
    # alone take ~0.3 s), and previous / next should be instant.
    if ss.get("cp_view_family") not in ("BLEU", "ROUGE"):
        ss["cp_view_family"] = "BLEU" if metric == "bleu" else "ROUGE"
    fam = st.segmented_control("Step by step", ["BLEU", "ROUGE"], key="cp_view_family") or "BLEU"
    if fam == "BLEU":
        if bleu_trace is not None:
            xp.bleu_section(bleu_trace)
    elif rouge_trace is not None:
        xp.rouge_section(rouge_trace, len(refs))
    else:
        st.info("No ROUGE type is selected in the sidebar (or the dialect defines none of them).")


def _explain_url(params: dict) -> str:
    """A link to the Explain page (the app's default page) with these query parameters."""
    return "./?" + urlencode(params, doseq=True)


# ------------------------------------------------------------------------------------------- downloads
def _downloads(rep, rkey: tuple, metric: str, b: int, rouge_type: str | None) -> None:
    st.header("Downloads", anchor="downloads")
    ss = st.session_state
    key = _tests_key(rkey, rep.names[b], rouge_type)
    tests = ss.get("cp_tests", {}).get(key)
    tests_dict = tests["result"].to_dict() if tests else None
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
                           lambda: json_text(rep.to_dict(baseline=b, tests=tests_dict) if metric == "bleu"
                                             else rep.to_dict(baseline=b, tests=tests_dict)),
                           file_name=f"corpus_report_{metric}.json", mime="application/json", key="cp_dl_json",
                           on_click="ignore")
    with c3:
        # made when pressed, outside any run: it gets this run's charts, not the session (gone by then)
        figures = list(ss.get(RUN_FIGURES, {}).values())
        st.download_button("Charts (HTML, interactive)",
                           partial(cc.charts_html, figures, title="Corpus charts",
                                   subtitle=f"{ss.get('cp_ts_label', '')} — {rep.signature}"),
                           file_name="corpus_charts.html", mime="text/html", key="cp_dl_html", on_click="ignore")
    with c4:
        st.selectbox("Chart image format (camera icon of each chart)", ["png", "svg"], key="cp_chart_format")
    comp = paper_table_input(rep, metric, tests["result"] if tests else None, rouge_type)
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
    st.download_button("Save this comparison (JSON: test set, names, settings, view, test results)",
                       partial(_dump_saved, _saved_parts()), file_name="corpus_comparison.json",
                       mime="application/json", key="cp_dl_saved", on_click="ignore")
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


def _paper_table(comp: dict, fmt: str) -> str:
    from explainer.corpus.tables import render_table

    return render_table(comp, fmt)


# --------------------------------------------------------------------------------------------------- ROUGE
def _rouge_corpus_options(settings) -> dict:
    from explainer.rouge import dialect_options

    opts = {}
    spec = [o for o in dialect_options(settings.rouge_dialect, corpus=True) if o.get("corpus_only")]
    if not spec:
        return opts
    with st.expander("ROUGE corpus aggregation options"):
        for o in spec:
            key = _copt_key(settings.rouge_dialect, o["name"])
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


def _copt_key(dialect: str, name: str) -> str:
    return f"cp_rouge_copt:{dialect}:{name}"


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


# ---------------------------------------------------------------------------------------------- the page
def render() -> None:
    t0 = time.perf_counter()
    _apply_open_request()   # a segment asked for by a click (a callback) before any widget is drawn
    st.session_state[RUN_FIGURES] = {}      # this run's charts only (and no earlier test set's)
    _link_in()              # before the sidebar: a link (or a sample) may set the settings
    _render()
    _sync_url()
    # after the widgets: a link the server dropped whole
    watch_dropped_link(LINK_WARNINGS, "corpus", escape=_corpus_words)
    st.session_state["_cp_render_seconds"] = time.perf_counter() - t0


def _render() -> None:
    settings, warns = metric_settings.render_settings_sidebar()
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
        return
    ts = _system_names(ts)
    ss = st.session_state
    if ss.get("cp_metric") not in ("BLEU", "ROUGE"):
        ss["cp_metric"] = "BLEU"
    c_metric, c_pair = st.columns([1, 2], vertical_alignment="bottom")
    with c_metric:
        metric = st.segmented_control("Metric", ["BLEU", "ROUGE"], key="cp_metric") or "BLEU"
    with c_pair:
        _language_pair()
    try:
        if metric == "BLEU":
            rep, rkey = _bleu_report(ts, ss["cp_ts_key"], settings)
        else:
            types, dropped = _rouge_types(settings)
            if dropped:
                st.warning(hl.md_escape(f"{', '.join(dropped)} not defined by {settings.rouge_dialect}; left out."))
            if not types:
                st.warning("Select at least one ROUGE type in the sidebar.")
                return
            copts = _rouge_corpus_options(settings)
            rep, rkey = _rouge_report(ts, ss["cp_ts_key"], settings, copts)
    except (ExplainerInputError, ValueError) as e:
        st.error(hl.md_escape(str(e)), icon=":material/error:")
        return
    b, i = _baseline_and_system(rep.names)
    if metric == "BLEU":
        _restore_tests(_tests_key(rkey, rep.names[b]), "bleu", rep.names[b], None, "fmeasure")
        _scores_section_bleu(rep, rkey, b)
        _worked_out_section(rep, i)
        _corpus_vs_mean_section(rep, i)
        _significance_section(rep, rkey, "bleu", b, i)
        _differ_section_bleu(rep, b, i)
        corpus_dialects.render(rep, "bleu", i, ss["cp_ts_key"], plot=_plot, open_segment=_open_segment)
        _segments_fragment(rep, "bleu", b, settings)
        _downloads(rep, rkey, "bleu", b, None)
    else:
        if ss.get("cp_rouge_type") not in rep.types:
            ss["cp_rouge_type"] = rep.types[0]
        t = st.selectbox("ROUGE type of the tests, deltas and table", rep.types, key="cp_rouge_type")
        _scores_section_rouge(rep, b)
        _significance_section(rep, rkey, "rouge", b, i, rouge_type=t)
        _rouge_differ(rep, t, b, i)
        corpus_dialects.render(rep, "rouge", i, ss["cp_ts_key"], rouge_type=t, plot=_plot,
                               open_segment=_open_segment)
        _segments_fragment(rep, "rouge", b, settings, t)
        _downloads(rep, rkey, "rouge", b, t)
    corpus_reproduce.render(ts, i, ss["cp_ts_key"])     # "Which settings give …?" for the selected system
