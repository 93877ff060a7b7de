"""The Corpus page's test set: uploads, pasted text or a bundled sample, bounded before any work; the systems' names."""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import streamlit as st

from explainer.corpus.samples import SAMPLES, load_sample
from explainer.corpus.testset import (
    MAX_REFERENCES,
    TestSet,
    TestSetError,
    build_testset,
    parse_jsonl,
    parse_tsv,
    segment_lines,
    system_name_from_file,
    unique_name,
)
from explainer.errors import ExplainerInputError
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import settings as metric_settings
from explainer.ui.corpus.common import PAGE_MAX_BYTES, PAGE_MAX_SEGMENTS, PAGE_MAX_SYSTEMS
from explainer.ui.corpus.link import PAGE


def testset_from_uploads(system_files: list[tuple[str, bytes]], ref_files: list[tuple[str, bytes]]) -> TestSet:
    """Build a test set from uploaded files (name, bytes): .txt systems and references, or .jsonl / .tsv files
    that carry their references. Raises TestSetError with the file and line."""
    if not system_files:    # the uploader itself refuses a file over the limit: it is marked red, never sent
        raise TestSetError(f"give at least one system output file (the limit is {PAGE_MAX_BYTES / 1e6:.0f} MB for "
                           "all files together: a larger file is refused by the uploader, marked red, and never "
                           "reaches the page; `python -m explainer compare` takes larger test sets)")
    total = sum(len(b) for _, b in system_files) + sum(len(b) for _, b in ref_files)
    if total > PAGE_MAX_BYTES:
        raise TestSetError(f"the files hold {total / 1e6:.1f} MB, over the page's limit of {PAGE_MAX_BYTES / 1e6:.0f} "
                           "MB (the command line `python -m explainer compare` takes larger test sets)")
    systems: list[tuple[str, list[str]]] = []
    sources: dict[str, str] = {}
    per_segment_refs: list[list[str]] | None = None
    ref_source = None
    streams: list[tuple[str, list[str]]] = []
    for name, data in system_files:
        low = name.lower()
        if low.endswith(".jsonl"):
            cands, refs = parse_jsonl(data, name)
            if per_segment_refs is None:
                per_segment_refs, ref_source = refs, name
            elif refs != per_segment_refs:
                k = next((i for i, (a, b) in enumerate(zip(refs, per_segment_refs)) if a != b),
                         min(len(refs), len(per_segment_refs)))
                raise TestSetError(f"{name}: the references of segment {k + 1} differ from those in {ref_source}; "
                                   "every system must be scored against the same references")
            systems.append((unique_name(system_name_from_file(name), [n for n, _ in systems]), cands))
            sources[systems[-1][0]] = name
        elif low.endswith(".tsv"):
            syss, rstreams = parse_tsv(data, name)
            for n, lines in syss:
                systems.append((unique_name(n, [x for x, _ in systems]), lines))
                sources[systems[-1][0]] = f"{name}, column {n}"
            streams += [(f"{name}:{i + 1}", s) for i, s in enumerate(rstreams)]
        else:
            systems.append((unique_name(system_name_from_file(name), [n for n, _ in systems]),
                            segment_lines(data, name)))
            sources[systems[-1][0]] = name
    for name, data in ref_files:
        streams.append((name, segment_lines(data, name)))
    if len(systems) > PAGE_MAX_SYSTEMS:
        raise TestSetError(f"{len(systems)} systems, over the page's limit of {PAGE_MAX_SYSTEMS}")
    if per_segment_refs is not None:
        if streams:
            raise TestSetError(f"{ref_source} carries its own references; do not upload reference files with .jsonl "
                               "systems")
        return build_testset(systems, per_segment_refs=per_segment_refs, max_segments=PAGE_MAX_SEGMENTS,
                             sources=sources)
    if not streams:
        raise TestSetError("add at least one reference file (one segment per line, aligned with the systems)")
    if len(streams) > MAX_REFERENCES:
        raise TestSetError(f"{len(streams)} reference files, over the limit of {MAX_REFERENCES}")
    return build_testset(systems, streams, max_segments=PAGE_MAX_SEGMENTS, sources=sources)


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
    for k in ("cp_seg", "cp_filter_ids"):
        ss.pop(k, None)
    for k in ("cp_baseline", "cp_system", "cp_view_sys"):
        ps.reset(k)         # another test set: its first systems, not the last ones shown


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
    try:
        ts = testset_from_uploads([(f.name, f.getvalue()) for f in sys_files],
                                  [(f.name, f.getvalue()) for f in ref_files])
    except (TestSetError, ExplainerInputError) as e:
        ss["cp_load_error"] = str(e)
        return
    _set_testset(ts, f"{len(ts.systems)} uploaded system(s), {ts.n_refs()} reference(s)")


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


def _input_section() -> TestSet | None:
    ss = st.session_state
    loaded = ss.get("cp_ts")
    with st.expander("Test set: upload, paste or pick a sample" + (f" — loaded: {ss.get('cp_ts_label', '')}"
                                                                    if loaded is not None else ""),
                     expanded=loaded is None):
        source = st.radio("Source", ["Sample corpus", "Upload files", "Paste"], horizontal=True, key="cp_source")
        if source == "Sample corpus":
            ids = list(SAMPLES)
            if ss.get("cp_sample") not in ids:
                ss["cp_sample"] = ids[0]
            st.selectbox("Sample", ids, key="cp_sample", format_func=lambda i: SAMPLES[i].title)
            st.caption(hl.md_escape(SAMPLES[ss["cp_sample"]].description) + " Written for this project.")
            st.button("Load the sample", key="cp_load_sample", on_click=_load_sample, type="primary")
        elif source == "Upload files":
            c1, c2 = st.columns(2)
            with c1:
                st.file_uploader("System outputs (one .txt per system; or .jsonl with candidate/references; or "
                                 ".tsv with a header: ref… columns and one column per system)",
                                 type=["txt", "jsonl", "tsv"], accept_multiple_files=True, key="cp_up_sys")
            with c2:
                st.file_uploader(f"References (.txt, 1–{MAX_REFERENCES} files, one segment per line)", type=["txt"],
                                 accept_multiple_files=True, key="cp_up_ref")
            st.button("Use these files", key="cp_load_up", on_click=_load_uploads, type="primary")
            st.caption(f"UTF-8, one segment per line, the same number of lines in every file. Limits: "
                       f"{PAGE_MAX_SEGMENTS:,} segments, {PAGE_MAX_SYSTEMS} systems, {MAX_REFERENCES} references, "
                       f"{PAGE_MAX_BYTES / 1e6:.0f} MB; larger test sets: `python -m explainer compare`. "
                       "File names become system names (editable below). Nothing is stored on the server.")
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
    for w in ss.pop(PAGE.warnings_key, None) or []:
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
        return ts.with_names(names)
    except TestSetError as e:
        st.warning(hl.md_escape(f"{e}; using the file names."))
        return ts
