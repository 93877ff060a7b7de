"""The Explain page: widgets, state <-> URL, and every registered metric family's trace of one candidate.

The page computes nothing itself and names no family: it asks each registered family
(:mod:`explainer.ui.families`) for its trace, headline numbers, section and diagnosis. User text reaches HTML
only through ``highlight.escape_text`` / ``render_marked_text`` and markdown only through ``md_escape``.

Public for the other pages (the Corpus page's segment view shows a segment with the same components):
:func:`headline` (every family's numbers and the signatures).
"""
from __future__ import annotations

import json
import time

import pandas as pd
import streamlit as st

from explainer.examples import EXAMPLES, get_example
from explainer.text import MAX_INPUT_CHARS
from explainer.ui import charts, traps_view, view_more
from explainer.ui import compute as shared_compute
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import sections as sx
from explainer.ui.display import data_table, render_display_toggle
from explainer.ui.explain import example_view, first_view
from explainer.ui.explain import link as xl
from explainer.ui.families import ui_families, ui_family
from explainer.ui.page_links import LINK_LIMITS_TEXT
from explainer.ui.pagestate import MAX_REFS, MAX_URL_TEXT, texts_fit
from explainer.ui.settings import (
    MetricSettings,
    apply_example_settings,
    current_settings,
    put_settings,
    read_settings,
    render_settings_sidebar,
    undo_example_settings,
)

DEFAULT_EXAMPLE = xl.DEFAULT_EXAMPLE
HIGHLIGHT_MAX_CHARS = sx.HIGHLIGHT_MAX_CHARS


# ---------------------------------------------------------------------------------------------- state
def _current() -> tuple[str, list[str], MetricSettings, dict, list[str]]:
    """(candidate, references, settings, view, warnings about the settings' widgets) as the widgets hold them."""
    cand, refs = xl.texts()
    settings, warns = read_settings()
    return cand, refs, settings, xl.view_values(len(refs)), warns


# ------------------------------------------------------------------------------------------- callbacks
def _on_example() -> None:
    ss = st.session_state
    ex_id = ss.get("example")
    if not ex_id:
        return
    ex = get_example(ex_id)
    settings, _ = current_settings()
    prev = (ss.get(xl.LAST) or {}).get("view", {}).get("example", "")
    if prev and prev != ex.id and prev in {e.id for e in EXAMPLES}:
        # undo what the previous example set (stemming on for "stem_took"), so the picker gives the same
        # numbers as the example's link; the user's own choices stay
        settings = undo_example_settings(settings, sorted(set(get_example(prev).settings) - set(ex.settings)))
    settings, _ = apply_example_settings(settings, ex.settings)  # link-style overrides, e.g. stem=1
    xl.put_texts(ex.candidate, list(ex.references))
    put_settings(settings)
    ss["ngram"] = ""
    ps.reset("rouge_ref")


def _add_ref() -> None:
    n = st.session_state.get("n_refs", 1)
    if n < MAX_REFS:
        st.session_state[f"ref_{n}"] = ""
        st.session_state["n_refs"] = n + 1


def _remove_ref(i: int) -> None:
    n = st.session_state.get("n_refs", 1)
    if n <= 1:
        st.session_state["ref_0"] = ""
        return
    vals = [st.session_state.get(f"ref_{j}", "") for j in range(n)]
    del vals[i]
    for j in range(MAX_REFS):
        st.session_state[f"ref_{j}"] = vals[j] if j < len(vals) else ""
    st.session_state["n_refs"] = n - 1


def _on_text_change() -> None:
    st.session_state["example"] = ""
    st.session_state["ngram"] = ""
    ps.reset("rouge_ref")


# --------------------------------------------------------------------------------------------- widgets
def _sidebar() -> None:
    """The example picker, then the shared metric settings (explainer.ui.settings)."""
    with st.sidebar:
        st.header("Example")
        ids = [""] + [e.id for e in EXAMPLES]
        titles = {e.id: e.title for e in EXAMPLES}
        if st.session_state.get("example") not in titles:
            st.session_state["example"] = ""
        st.selectbox("Load a worked example", ids, key="example", on_change=_on_example,
                     format_func=lambda i: titles.get(i, "— your own text —"),
                     help="Worked examples of the textbook and gaming presets. Loading one replaces "
                          "the texts.")
    render_settings_sidebar()  # its values are read back with the texts in _current_state
    render_display_toggle()


def _inputs() -> None:
    st.text_area("Candidate (the text being scored)", key="candidate", height=90, on_change=_on_text_change,
                 help="ROUGE-Lsum reads one sentence per line.")
    n = st.session_state.get("n_refs", 1)
    # Horizontal containers: the buttons keep their natural width (ratio columns squeezed "✕" to "›" and
    # "Add reference" to "Add …" at 1024 px), the text boxes take the rest.
    for i in range(n):
        with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
            st.text_area(f"Reference {i + 1}", key=f"ref_{i}", height=80, on_change=_on_text_change)
            st.button("✕", key=f"rm_ref_{i}", on_click=_remove_ref, args=(i,), help=f"Remove reference {i + 1}",
                      disabled=n <= 1, width="content")
    st.button("Add reference", icon=":material/add:", key="add_ref", on_click=_add_ref, disabled=n >= MAX_REFS,
              width="content")
    st.caption(f"1–{MAX_REFS} references, multi-line allowed. Limits: {MAX_INPUT_CHARS:,} characters per text "
               "(each metric's steps say their own limit when the texts pass it); highlighting shows the first "
               f"{HIGHLIGHT_MAX_CHARS:,} characters; the LCS table is drawn at most "
               f"{charts.HEATMAP_MAX}×{charts.HEATMAP_MAX} (downsampled beyond). Your text is not stored on the "
               f"server; it lives in this page's link (texts over {MAX_URL_TEXT:,} characters in all are left out "
               f"of it). {LINK_LIMITS_TEXT}.")


# ------------------------------------------------------------------------------------------ rendering
TABS_KEY = "xp_tab"  # the open tab: a family's tab label


# The five headline numbers wrap onto a second row when the page is narrow (a 1024 px projector with the
# sidebar open leaves ~540 px), instead of five squeezed columns cutting them to "78.…"; below 1100 px the
# numbers are also set a little smaller.
HEADLINE_CSS = """<style>
.st-key-xp_headline [data-testid="stMetric"]{min-width:7.6rem}
.st-key-xp_headline [data-testid="stMetricValue"]{white-space:nowrap}
@media (max-width:1100px){.st-key-xp_headline [data-testid="stMetricValue"]{font-size:1.8rem}}
</style>"""


def headline(computed: dict, *, signatures: bool | None = None) -> None:
    """The headline numbers of every family (``computed``: family name -> :class:`Computed`) and their
    signatures. Shared with the Corpus page's segment view. ``signatures``: show the signatures' code box
    (default: not in a browser's first view of the Explain page, see :mod:`explainer.ui.explain.first_view`)."""
    st.html(HEADLINE_CSS)
    row = st.container(horizontal=True, gap="medium", key="xp_headline")
    sig = []
    for fam in sorted(ui_families(), key=lambda f: f.headline_order):
        c = computed.get(fam.name)
        if c is None:
            continue
        for n in fam.headline(c):
            with row:
                st.metric(n.label, n.value, help=n.help or None)
        line = fam.signature(c)
        if line:
            sig.append(line)
    if signatures is None:
        signatures = not first_view.pending()  # not in a browser's first run: the code box's script is 1.5 MB
    if sig and signatures:
        st.code("\n".join(sig), language=None, wrap_lines=True)


def _example_panel(example: str, cand: str, refs: list[str], computed: dict) -> None:
    """The worked example's note (what to look at) and the numbers the textbook prints beside the true ones."""
    ex = next((e for e in EXAMPLES if e.id == example), None)
    if ex is None or cand != ex.candidate or [r for r in refs if r] != list(ex.references):
        return
    st.info(f"**{hl.md_escape(ex.title)}.** {hl.md_escape(ex.note)}", icon=":material/lightbulb:")
    rows = example_view.claim_rows(ex, {name: c.trace for name, c in computed.items()})
    if rows:
        data_table(pd.DataFrame(rows), hide_index=True, key="claims_table")
        st.caption(example_view.CLAIMS_CAPTION)


def trace_json(computed: dict) -> str:
    """The "Trace (JSON)" download: every family's trace as ``to_dict()`` (None when not computed)."""
    payload = {name: ui_family(name).trace_dict(c) for name, c in computed.items()}
    return json.dumps(payload, ensure_ascii=False, indent=1)


def _downloads(computed: dict) -> None:
    st.markdown("#### Downloads")
    # Deferred: the files are built only when a button is clicked, so a rerun does not serialise traces. In a
    # wrapping row the buttons keep their full labels on a narrow page (columns cut them to "BLEU n-gram table (…").
    with st.container(horizontal=True, gap="small"):
        st.download_button("Trace (JSON)", lambda: trace_json(computed), file_name="trace.json",
                           mime="application/json", key="dl_json", on_click="ignore", width="content")
        for fam in ui_families():
            for d in fam.downloads(computed[fam.name]):
                st.download_button(d.label, d.build, file_name=d.file_name, mime=d.mime, key=d.key,
                                   on_click="ignore", width="content")


# ------------------------------------------------------------------------------------------------ page
def compute(cand: str, refs: list[str], settings: MetricSettings) -> dict:
    """Every family's trace (or the message shown instead), the only place the page calls the cores; computed
    once per (texts, family settings) and shared by every session (explainer.ui.compute); within one view's work
    unless the reader asked for a family's whole trace (explainer.ui.view_more)."""
    return shared_compute.traces(cand, refs, settings, view_more.wanted(ui_families(), cand, refs, settings))


def _diagnosis(computed: dict) -> list:
    """The findings of every trace, with the counterfactual scores they compare with (computed only when a finding
    can use them)."""
    return [f for fam in ui_families() for f in fam.diagnosis(computed[fam.name])]


def _usable_references(cand: str, all_refs: list[str]) -> list[str] | None:
    """Messages about the texts (invisible characters, too long, empty); the references to score, or None when
    there is nothing to compute. The user's text always stays in its box."""
    if not texts_fit(cand, all_refs):
        st.info("The texts are too long for a link; the link keeps only the settings.", icon=":material/link:")
    suspicious = hl.suspicious_chars([cand] + all_refs)
    if suspicious:
        st.info("Invisible or direction-changing characters in the texts (shown as U+XXXX badges below): "
                + hl.md_escape(", ".join(suspicious[:8])), icon=":material/visibility:")
    too_long = [n for n, t in [("the candidate", cand)] + [(f"reference {i + 1}", r)
                for i, r in enumerate(all_refs)] if len(t) > MAX_INPUT_CHARS]
    if too_long:
        st.error(f"{', '.join(too_long).capitalize()} {'is' if len(too_long) == 1 else 'are'} longer than the limit of "
                 f"{MAX_INPUT_CHARS:,} characters. Shorten the text to see the explanation; your text stays in "
                 "the box.")
        return None
    # An empty box is "no reference"; a reference of only spaces or control characters is real input (some
    # libraries fail on it, e.g. HF evaluate on a form feed), so it is scored as given.
    refs = [r for r in all_refs if r != ""]
    blank = [i + 1 for i, r in enumerate(all_refs) if r == ""]
    spaces = [i + 1 for i, r in enumerate(all_refs) if r != "" and not r.strip()]
    if not cand.strip():
        st.warning("The candidate is empty. Type the text you want to score in the candidate box.")
        return None
    if not refs:
        st.warning("There is no reference yet. Type at least one reference text (what the candidate is compared "
                   "with).")
        return None
    if blank:
        st.caption(f"Empty reference box(es) {', '.join(map(str, blank))} are ignored.")
    if spaces and len(spaces) == len(refs):
        st.warning("No reference has any visible text, so nothing can match: every score is 0, or the real "
                   "library fails (see below). Type a reference text to compare with.")
    elif spaces:
        st.info(f"Reference(s) {', '.join(map(str, spaces))} contain only spaces or invisible characters; they are "
                "scored as given (they have no tokens).", icon=":material/space_bar:")
    return refs


def _explanation(computed: dict, cand: str, refs: list[str], settings: MetricSettings) -> None:
    """Below the headline (after a browser's first view, whose first run computes the headline only): the
    diagnosis, then every family's steps in a tab each, only the open one built."""
    if first_view.details_later():  # a browser's first view: the headline now, the rest right after
        return
    first_view.after_first_views()  # a class opening a link at once: everyone's headline first
    with first_view.second_run_turn():
        _details(computed, cand, refs, settings)


def _details(computed: dict, cand: str, refs: list[str], settings: MetricSettings) -> None:
    # a function of the inputs only: shared across sessions like the traces
    findings = shared_compute.cached("findings", cand, refs, settings, lambda: _diagnosis(computed), small=True)
    serious = any(f.level in ("error", "warning") for f in findings)
    with st.expander("Why is this score zero / low?", expanded=serious):
        if findings:
            sx.findings(findings)
        else:
            st.success("Nothing unusual: every order has matches and no penalty applies.")
    # Only the open tab's content is built and sent (switching tabs reruns the page).
    fams = ui_families()
    tabs = st.tabs([f.tab_label() for f in fams], key=TABS_KEY, on_change="rerun")
    for fam, tab in zip(fams, tabs):
        with tab:
            if tab.open:
                fam.section(computed[fam.name], n_refs=len(refs))
    _downloads(computed)


def render() -> None:
    t0 = time.perf_counter()
    xl.load_from_url()
    st.title("Text metrics, step by step")
    st.caption("One candidate, several references: every step of "
               + ", ".join(f.label for f in ui_families()) + ", computed as the real implementations do. Pick "
               "a worked example in the sidebar or type your own text.")
    # A browser's first view has two runs: the link's warnings are shown in both (dropped after the second).
    xl.PAGE.warnings(take=first_view.once, watch=False)
    if not first_view.pending():  # a browser's first run: the settings' widgets follow with the sections
        _sidebar()
    _inputs()
    cand, all_refs, settings, view, warns = _current()
    for w in warns:
        st.warning(hl.md_escape(w))
    xl.write(cand, all_refs, settings, view)
    # a link the server dropped whole: only the browser still has it. Mounted after the page's widgets, so the
    # rerun its report causes carries their values (a rerun asked for earlier in the first run blanked the texts)
    xl.PAGE.watch()
    refs = _usable_references(cand, all_refs)
    if refs is None:
        return
    with st.spinner("Computing every metric step by step…"):
        computed = compute(cand, refs, settings)
    for fam in ui_families():
        c = computed[fam.name]
        say = st.info if c.view_limited else st.error   # left to a click, not failed
        for note in c.notes:
            say(f"{fam.label}: " + hl.md_escape(note))
        if c.trace is None and c.error:
            say(f"{fam.label}: " + hl.md_escape(c.error))
    # the classic traps of these texts under these settings (texts and settings only: shared like the traces)
    traps_view.show(shared_compute.cached("traps", cand, refs, settings,
                                          lambda: traps_view.settings_traps([cand], [refs], settings, corpus=False),
                                          small=True))
    headline(computed)
    _example_panel(view["example"], cand, all_refs, computed)
    _explanation(computed, cand, refs, settings)
    st.session_state["_render_seconds"] = time.perf_counter() - t0
