"""The Corpus page's test set: uploads, pasted text, a bundled sample or a saved page, bounded before any work; the
systems' names."""
from __future__ import annotations

import hashlib
import json

import streamlit as st

from explainer.corpus.samples import SAMPLES, load_sample
from explainer.corpus.testset import (
    MAX_REFERENCES,
    TestSet,
    TestSetError,
    build_testset,
    segment_lines,
    testset_from_files,
)
from explainer.errors import ExplainerInputError
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import settings as metric_settings
from explainer.ui.corpus.common import (
    PAGE_MAX_BYTES,
    PAGE_MAX_RESAMPLES,
    PAGE_MAX_SEGMENTS,
    PAGE_MAX_SYSTEMS,
    PAGE_MAX_TEST_CELLS,
    SHOWN_NAMES,
)
from explainer.ui.corpus.estimate import PAGE_MAX_WORK_CHARS, check_work
from explainer.ui.corpus.language import pair_from_uploads
from explainer.ui.corpus.link import PAGE, read_saved_view

__all__ = ["testset_from_uploads", "testset_from_paste", "testset_key", "set_testset", "sample_settings",
           "input_section", "system_names", "RESTORED_TESTS", "DETECTED"]

DETECTED = "cp_detected"             # what the uploaded files were read as (one sentence per file)


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
    check_work(ts)
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
    ts = build_testset(sys_lines, ref_lines, max_segments=PAGE_MAX_SEGMENTS)
    check_work(ts)
    return ts


def testset_key(ts: TestSet) -> str:
    h = hashlib.sha256()
    for rs in ts.references:
        h.update(json.dumps(rs, ensure_ascii=False).encode("utf-8"))
    for _, lines in ts.systems:
        h.update(b"\x00sys")
        for ln in lines:
            h.update(ln.encode("utf-8", "surrogatepass") + b"\n")
    return h.hexdigest()[:24]


def set_testset(ts: TestSet, label: str, sample: str | None = None) -> None:
    ss = st.session_state
    ss["cp_ts"] = ts
    ss["cp_ts_key"] = testset_key(ts)
    ss["cp_ts_label"] = label
    ss["cp_ts_sample"] = sample          # a bundled sample can be in a link; uploads and pasted text cannot
    ss["cp_names"] = list(ts.names)
    for i, n in enumerate(ts.names):
        ss[f"cp_name_{i}"] = n
    for k in ("cp_seg", "cp_filter_ids", SHOWN_NAMES, DETECTED, RESTORED_TESTS):
        ss.pop(k, None)
    for k in ("cp_baseline", "cp_system", "cp_view_sys"):
        ps.reset(k)         # another test set: its first systems, not the last ones shown


def sample_settings(sid: str) -> None:
    """The sample's suggested settings (e.g. the zh tokenizer), on the dialect that has the option."""
    ss = st.session_state
    bleu = SAMPLES[sid].settings.get("bleu", {})
    current, _ = metric_settings.current_settings()
    from explainer.bleu import DIALECTS

    c = current["bleu"]
    if bleu and set(bleu) <= {o.name for o in DIALECTS[c.dialect].OPTIONS}:   # the dialect has them
        metric_settings.put_settings(current.replace(c.replace(**bleu)))
        ss["cp_notice"] = "Loaded with the sample's suggested settings: " + ", ".join(
            f"{k} = {v}" for k, v in bleu.items()) + " (sidebar)."


def _load_sample() -> None:
    sid = st.session_state.get("cp_sample")
    if sid not in SAMPLES:
        return
    set_testset(load_sample(sid), SAMPLES[sid].title, sample=sid)
    sample_settings(sid)


UPLOAD_GEN = "cp_up_gen"      # the uploaders' generation: a new one is empty (its files were dropped)
UPLOADERS = ("cp_up_sys", "cp_up_ref", "cp_up_src")


def _up_key(base: str) -> str:
    """The uploader's key in this generation (the first keeps the plain name)."""
    gen = st.session_state.get(UPLOAD_GEN, 0)
    return f"{base}_{gen}" if gen else base


def _uploaded() -> list:
    """Every file the three uploaders hold now."""
    out = []
    for base in UPLOADERS:
        v = st.session_state.get(_up_key(base))
        out += list(v) if isinstance(v, list) else [v] if v is not None else []
    return out


def _check_upload_total() -> None:
    """As soon as the uploaders hold more than the page's limit for all files together: drop every file from the
    server's memory and give the uploaders a new generation (empty), with the reason."""
    files = _uploaded()
    total = sum(int(getattr(f, "size", 0)) for f in files)
    if total <= PAGE_MAX_BYTES:
        return
    from explainer.ui.uploads import release

    release(files)
    ss = st.session_state
    for base in UPLOADERS:
        ss.pop(_up_key(base), None)
    ss[UPLOAD_GEN] = ss.get(UPLOAD_GEN, 0) + 1
    ss["cp_load_error"] = (f"the files chosen hold {total / 1e6:.1f} MB together, over the page's limit of "
                           f"{PAGE_MAX_BYTES / 1e6:.0f} MB for all files: they were dropped (nothing is kept on "
                           "the server). Choose fewer or smaller files, or use `python -m explainer compare`.")


def _load_uploads() -> None:
    ss = st.session_state
    sys_files = ss.get(_up_key("cp_up_sys")) or []
    ref_files = ss.get(_up_key("cp_up_ref")) or []
    detected: list[str] = []
    src = ss.get(_up_key("cp_up_src"))
    try:
        ts = testset_from_uploads([(f.name, f.getvalue()) for f in sys_files],
                                  [(f.name, f.getvalue()) for f in ref_files], detected,
                                  (src.name, src.getvalue()) if src is not None else None)
    except (TestSetError, ExplainerInputError) as e:
        ss["cp_load_error"] = str(e)
        return
    set_testset(ts, f"{len(ts.systems)} uploaded system(s), {ts.n_refs()} reference(s)")
    ss[DETECTED] = detected
    # WMT's file names state the language pair: its tokenizer before the first scoring (issue 33, item 3)
    pair_from_uploads([f.name for f in sys_files] + [f.name for f in ref_files])


RESTORED_TESTS = "cp_restored_tests"


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
        check_work(saved.testset)
    except (TestSetError, ExplainerInputError) as e:
        ss["cp_load_error"] = str(e)
        return
    set_testset(saved.testset, saved.label or f"restored from {f.name}")
    settings, warns = metric_settings.settings_from_params(saved.settings)
    metric_settings.put_settings(settings)
    # the view through the link's field declarations: each value bounded and checked as a link's, the same words
    view, view_warns = read_saved_view(saved.view, names=list(saved.testset.names),
                                       n_segments=saved.testset.n_segments, max_n=PAGE_MAX_RESAMPLES,
                                       max_cells=PAGE_MAX_TEST_CELLS)
    ss.update(view)
    if "cp_seg" in view:
        ss["cp_seg_input"] = view["cp_seg"]
    warns += view_warns
    ss[RESTORED_TESTS] = saved.tests
    if warns:
        ss["cp_notice"] = "Restored, with warnings: " + "; ".join(warns)


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
    set_testset(ts, "pasted text")


def _upload_form() -> None:
    """Uploads: systems, references and an optional source, any file name (read by content)."""
    c1, c2 = st.columns(2)
    with c1:
        st.file_uploader("System outputs, any file name (one segment per line, one file per system; or "
                         "JSON Lines with candidate/references; or TSV with a header: ref… columns and one "
                         "column per system; the format is read from the content)",
                         type=None, accept_multiple_files=True, key=_up_key("cp_up_sys"), on_change=_check_upload_total)
    with c2:
        st.file_uploader(f"References, any file name (1–{MAX_REFERENCES} files, one segment per line)",
                         type=None, accept_multiple_files=True, key=_up_key("cp_up_ref"), on_change=_check_upload_total)
    st.file_uploader("Source (optional, any file name, one segment per line): shown in the segment view "
                     "and the table, and source-length buckets", type=None, accept_multiple_files=False,
                     key=_up_key("cp_up_src"), on_change=_check_upload_total)
    st.button("Use these files", key="cp_load_up", on_click=_load_uploads, type="primary")
    st.caption(f"UTF-8, one segment per line, the same number of lines in every file. Limits: "
               f"{PAGE_MAX_SEGMENTS:,} segments, {PAGE_MAX_SYSTEMS} systems, {MAX_REFERENCES} references, "
               f"{PAGE_MAX_BYTES / 1e6:.0f} MB for all files together (more is dropped as soon as it is chosen), "
               f"{PAGE_MAX_WORK_CHARS / 1e6:.0f} million characters × systems of scoring work; larger test sets: "
               "`python -m explainer compare`. "
               "File names become system names without their common prefix and suffix "
               "(`…hyp.Online-B.de` → `Online-B`; editable below). Nothing is stored on the server.")


def input_section() -> TestSet | None:
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
        _refused_upload()
        err = ss.pop("cp_load_error", None)
        if err:
            st.error(hl.md_escape(err), icon=":material/error:")
    found = ss.get(DETECTED)
    if found and loaded is not None and ss.get("cp_ts_sample") is None:
        st.caption(hl.md_escape("Read by content — " + "; ".join(found)))
    for w in ss.pop(PAGE.warnings_key, None) or []:
        st.warning(hl.md_escape(w), icon=":material/link:")
    notice = ss.pop("cp_notice", None)
    if notice:
        st.info(hl.md_escape(notice), icon=":material/tune:")
    return ss.get("cp_ts")


def _refused_upload() -> None:
    """A file the server refused as it arrived (over the session's limit for all files: explainer.ui.uploads)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    from explainer.ui.uploads import install, refused_note

    install(PAGE_MAX_BYTES)
    ctx = get_script_run_ctx()
    note = refused_note(ctx.session_id if ctx is not None else None)
    if note:
        st.error(hl.md_escape(note), icon=":material/error:")


def system_names(ts: TestSet) -> TestSet:
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
