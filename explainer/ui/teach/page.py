"""The Teach page: a worked example, a gaming-lab preset or the teacher's own text as a step-by-step lesson
(walkthrough for the projector, student view with answer boxes), generated exercise sets, and the handouts.

Layout only: the page's state is declared once in :mod:`explainer.ui.teach.link` (on the engine of
:mod:`explainer.ui.pagestate`), the views are :mod:`~explainer.ui.teach.walkthrough` (walkthrough, student view,
handouts) and :mod:`~explainer.ui.teach.practice` (exercise sets), over :mod:`explainer.teach` (steps, questions,
exercise sets: pure) and ``teach_html`` / ``teach_markdown`` (escaped rendering, shared with the handouts). The
metric settings are the shared model of every page (:mod:`explainer.ui.settings`: the same sidebar widgets as the
Explain and Corpus pages; what is set on one page holds here, and the other way round); the lesson's ROUGE
types are fixed (:data:`explainer.teach.lesson.LESSON_TYPES`). Lessons are computed once per texts and settings
and shared by every session (:mod:`explainer.ui.compute`): a class opening the teacher's link computes it once.
"""
from __future__ import annotations

import streamlit as st

from explainer.attacks.presets import PRESETS
from explainer.examples import EXAMPLES, get_example
from explainer.teach.families import DEFAULT_LECTURE, lesson_family, lesson_names
from explainer.teach.lesson import MAX_LESSON_CHARS
from explainer.teach.model import Lesson
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import settings as ms
from explainer.ui.pagestate import MAX_REFS, MAX_URL_TEXT
from explainer.ui.settings import MetricSettings
from explainer.ui.teach import demo_view, fitter, presenting
from explainer.ui.teach import teach_html as th
from explainer.ui.teach.common import html, shared_lesson
from explainer.ui.teach.link import (
    DEFAULT_EXAMPLE,
    LINK_PROGRESS,
    MODES,
    PAGE,
    SOURCES,
    ZOOMS,
    lecture,
    load_from_url,
    max_focus,
    preset_default_variant,
    preset_ids,
    preset_params,
    query,
    source_defaults,
)
from explainer.ui.teach.practice import practice
from explainer.ui.teach.walkthrough import (
    case_buttons,
    cells_slider,
    downloads,
    nav,
    room_cells,
    step_body,
    student_step,
)
from explainer.ui.teach.walkthrough import title as title_

PAGE_CSS = """<style>
.st-key-tch_keys,[data-testid="stLayoutWrapper"]:has(> .st-key-tch_keys),
.st-key-tch_keys_count,[data-testid="stLayoutWrapper"]:has(> .st-key-tch_keys_count){display:none!important}
.st-key-tch_fit_js,[data-testid="stLayoutWrapper"]:has(> .st-key-tch_fit_js){display:none!important}
html:not(.tch-keys) body:has(.st-key-tch_keys_count) [data-testid="stMain"]{visibility:hidden;
  animation:tch-show 0s 3s forwards}
@keyframes tch-show{to{visibility:visible}}
:root{--tcb:max(1.22rem,2.7vmin);--tnotes-h:26vh}
[data-testid="stMainBlockContainer"]{padding-top:3.4rem;padding-bottom:1.2rem}
.tc{font-size:var(--tcb)}
.tc-title{font-size:calc(var(--tcb) * 1.52);font-weight:800;line-height:1.2;margin:.05em 0 .14em 0}
.tc-title .fam{display:inline-block;font-size:.54em;border:2px solid currentColor;border-radius:.3em;
  padding:0 .4em;margin-right:.55em;vertical-align:middle;letter-spacing:.04em}
.tc-title .num{font-weight:600;opacity:.75;font-size:.65em;margin-left:.4em}
.tc-section{font-size:calc(var(--tcb) * .8);font-weight:600;opacity:.85;line-height:1.1;margin:0}
.tc-box{border-left:.27em solid rgba(128,128,128,.6);background:rgba(128,128,128,.10);padding:.22em .54em;
  margin:.13em 0 .4em 0;white-space:pre-wrap;word-break:break-word;font-size:calc(var(--tcb) * .92)}
.tc-lab{font-weight:700;font-size:calc(var(--tcb) * .82)}
.st-key-tch_nav button p{font-size:1.05rem}
.st-key-tch_head>.stElementContainer:has([data-testid="stCaptionContainer"]){flex:1 1 0 !important;min-width:3rem}
.st-key-tch_nav>.st-key-tch_step{flex:1 1 12rem!important;max-width:380px!important;width:auto!important}
.st-key-tch_head [data-testid="stCaptionContainer"] p{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.tnotes-fixed{position:fixed;right:1rem;bottom:.8rem;width:min(52em,calc(100vw - 6rem));max-height:var(--tnotes-h);
  overflow:auto;z-index:999990;box-shadow:0 4px 18px rgba(0,0,0,.35);font-size:calc(var(--tcb) * .84);
  line-height:1.4}
</style>"""



def _bound_order(n: int, warns: list[str]) -> None:
    """The order followed stays within the lecture's maximum order (a setting changed under it): the automatic
    order otherwise, with a warning."""
    ss = st.session_state
    order = ss.get("tch_order")
    if isinstance(order, int) and 0 <= order <= n:
        return
    if isinstance(order, int) and order > n:
        warns.append(f"The n-gram order followed ({order}) is above the maximum order of these settings "
                     f"({n}); following the automatic order.")
    ss["tch_order"] = 0


# ------------------------------------------------------------------------------------------- sidebar
def _on_example() -> None:
    """Picking an example undoes the settings the previous example applied and applies its own (the shared
    settings: the Explain page's example picker does the same)."""
    ss = st.session_state
    settings, _ = ms.current_settings()
    prev = ss.get("_tch_prev_example")
    ex = get_example(ss["tch_example"])
    if prev and prev != ex.id:
        settings = ms.undo_example_settings(settings, sorted(set(get_example(prev).settings) - set(ex.settings)))
    settings, _ = ms.apply_example_settings(settings, ex.settings)
    ms.put_settings(settings)


def _on_preset() -> None:
    ss = st.session_state
    pid = ss.get("tch_preset")
    if pid in PRESETS:
        variant = ss.get("tch_variant")
        if not isinstance(variant, int) or not 0 <= variant < len(PRESETS[pid].variants) \
                or ss.get("_tch_prev_preset") != pid:
            ss["tch_variant"] = preset_default_variant(pid)
        _apply_preset_settings()


def _apply_preset_settings() -> None:
    """A preset's lesson shows the lab's numbers: its dialects and options become the shared settings (the
    ROUGE types stay as the other pages have them)."""
    ss = st.session_state
    current, _ = ms.current_settings()
    preset = source_defaults("preset", DEFAULT_EXAMPLE, ss["tch_preset"], ss.get("tch_variant", 0))
    ms.put_settings(preset.replace(preset["rouge"].replace(types=current["rouge"].options["types"])))


def _lesson_label(name: str) -> str:
    return lesson_family(name).label


def _sidebar() -> tuple[MetricSettings, list[str]]:
    """The lesson's families and source and the order followed, then the lecture families' metric settings;
    returns those."""
    ss = st.session_state
    with st.sidebar:
        st.header("Lesson")
        names = lesson_names()
        # in the registry's order (a lecture runs BLEU → ROUGE → chrF → TER), whatever order they were picked in
        chosen = ss.get("tch_lecture") or ()
        ss["tch_lecture"] = [n for n in names if n in chosen] or list(DEFAULT_LECTURE)
        st.multiselect("Lesson of", list(names), key="tch_lecture", format_func=_lesson_label,
                       help="Every metric's lesson; several run as one lecture, one section each, in this order: "
                            + " → ".join(_lesson_label(n) for n in names) + ".")
        _source_widgets()
        lecture = tuple(n for n in names if n in (ss.get("tch_lecture") or ())) or DEFAULT_LECTURE
        n_max = max_focus(ms.current_settings(ss)[0], lecture)
        order_warns: list[str] = []
        _bound_order(n_max, order_warns)
        ps.choice("tch_order", range(0, n_max + 1), 0)
        whats = [lesson_family(n).focus_what for n in lecture if lesson_family(n).focus_what]
        st.selectbox("Order followed", list(range(0, n_max + 1)), key="tch_order",
                     format_func=lambda n: "automatic (where clipping matters)" if n == 0 else f"{n}-grams",
                     disabled=n_max == 0,
                     help="; ".join(whats).capitalize() + f" (up to {n_max} with these settings); automatic picks "
                          "the lowest order where clipping removes a count." if whats else
                          "None of these lessons follows an n-gram order.")
    settings, warns = ms.render_settings_sidebar(extras=False, families=lecture)
    return settings, order_warns + warns


def _source_widgets() -> None:
    ss = st.session_state
    st.radio("Teach from", list(SOURCES), key="tch_source", format_func=SOURCES.get, horizontal=False)
    src = ss.get("tch_source", "example")
    if src == "example":
        titles = {e.id: e.title for e in EXAMPLES}
        ss["_tch_prev_example"] = ps.choice("tch_example", list(titles), DEFAULT_EXAMPLE)
        st.selectbox("Worked example", list(titles), key="tch_example", format_func=titles.get,
                     on_change=_on_example)
        st.caption(hl.md_escape(get_example(ss["tch_example"]).note))
    elif src == "preset":
        ids = preset_ids()
        ss["_tch_prev_preset"] = ps.choice("tch_preset", ids, ids[0])
        st.selectbox("Gaming-lab preset", ids, key="tch_preset", on_change=_on_preset,
                     format_func=lambda p: f"{PRESETS[p].catalogue} · {PRESETS[p].title}")
        p = PRESETS[ss["tch_preset"]]
        ps.choice("tch_variant", range(len(p.variants)), preset_default_variant(p.id))
        st.selectbox("Which output", list(range(len(p.variants))), key="tch_variant",
                     on_change=_apply_preset_settings, format_func=lambda i: p.variants[i].label)
        st.caption(hl.md_escape(p.lesson))
    else:
        st.text_area("Candidate", key="tch_cand", height=90, help="ROUGE-Lsum reads one sentence per line.")
        n = ss.get("tch_nrefs", 1)
        for i in range(n):
            st.text_area(f"Reference {i + 1}", key=f"tch_ref_{i}", height=70)
        c1, c2 = st.columns(2)
        c1.button("Add reference", key="tch_add_ref", disabled=n >= MAX_REFS,
                  on_click=lambda: ss.update(tch_nrefs=min(MAX_REFS, ss.get("tch_nrefs", 1) + 1)))
        c2.button("Remove last", key="tch_rm_ref", disabled=n <= 1,
                  on_click=lambda: ss.update(tch_nrefs=max(1, ss.get("tch_nrefs", 1) - 1)))
        st.caption(f"At most {MAX_LESSON_CHARS:,} characters in all (longer texts: use the Explain page). "
                   "Your text is not stored on the server; it lives in this page's URL (texts over "
                   f"{MAX_URL_TEXT:,} characters in all: only in this tab).")


# ------------------------------------------------------------------------------------------- the lesson
def _texts() -> tuple[str, list[str], str, str]:
    """(candidate, references, title, source description) of the chosen source."""
    ss = st.session_state
    src = ss.get("tch_source", "example")
    if src == "example":
        ex = get_example(ss.get("tch_example") or DEFAULT_EXAMPLE)
        return ex.candidate, list(ex.references), ex.title, f"worked example: {ex.title}"
    if src == "preset":
        pid, v = ss["tch_preset"], ss.get("tch_variant", 0)
        p = preset_params(pid, v)
        return (p.get("candidate", [""])[0], p.get("ref", [""]),
                f"{PRESETS[pid].title}: {PRESETS[pid].variants[v].label}",
                f"gaming-lab preset {PRESETS[pid].catalogue} · {PRESETS[pid].title} — output: "
                f"{PRESETS[pid].variants[v].label}")
    n = ss.get("tch_nrefs", 1)
    return ss.get("tch_cand", ""), [ss.get(f"tch_ref_{i}", "") for i in range(n)], "Your own text", "your own text"


def _lesson(cand: str, refs: list[str], settings: MetricSettings, title: str) -> Lesson:
    ss = st.session_state
    # a worked example's printed numbers are compared at their steps
    claims = ()
    if ss.get("tch_source", "example") == "example":
        claims = get_example(ss.get("tch_example") or DEFAULT_EXAMPLE).claims
    return shared_lesson(cand, refs, settings, names=lecture(), order=int(ss.get("tch_order") or 0), title=title,
                         claims=claims)


def _input_problem(cand: str, refs: list[str]) -> str | None:
    total = len(cand) + sum(len(r) for r in refs)
    if total > MAX_LESSON_CHARS:
        return (f"The texts have {total:,} characters together; a lesson takes at most {MAX_LESSON_CHARS:,}. "
                "Shorten them (your text stays in the boxes), or use the Explain page for long texts.")
    if not cand.strip():
        return "The candidate is empty. Type the text to be scored in the sidebar."
    if not any(r.strip() for r in refs):
        return "There is no reference yet. Type at least one reference in the sidebar."
    return None



# ----------------------------------------------------------------------------------------------- no link
def _link_chars(cand: str, refs: list[str]) -> int | None:
    """The texts' length when it is over what a link carries (MAX_URL_TEXT), else None."""
    total = len(cand) + sum(map(len, refs))
    return total if total > MAX_URL_TEXT else None


def _no_link_warning(total: int) -> str:
    return (f"The texts have {total:,} characters together, more than a link carries ({MAX_URL_TEXT:,}), so this "
            "lesson has no link: the page's URL leaves them out, and reloading or sharing it will not bring them "
            "back. They stay in this tab.")


# ------------------------------------------------------------------------------------------------ page
def render() -> None:
    # a projector needs the width: the sidebar (lesson source, settings) starts collapsed on this page
    st.set_page_config(initial_sidebar_state="collapsed")
    load_from_url()
    PAGE.warnings()
    ss = st.session_state
    ss.pop(LINK_PROGRESS, None)   # the view shown sets it again (the exercise set's or the student's answers)
    html(f"<style>{th.TEACH_CSS}</style>" + PAGE_CSS)
    mode = ss.get("tch_mode") or "walk"
    view = ss.get("tch_view") if mode == "walk" else None
    if view == "projector":
        # no control at all: the room sets everything the projector shows (no widget takes the clicker's keys)
        html(presenting.PROJECTOR_CSS + (presenting.blank_html() if ss.get("tch_blank") else ""))
        settings, warns = ms.current_settings()
    else:
        settings, warns = _sidebar()
    for w in warns:
        st.warning(hl.md_escape(w))
    if mode == "walk":
        ss.pop("_tch_done_link", None)   # answers kept in a link belong to the student view or the exercise set
    cand, refs, title, source = _texts()
    lesson, problem = None, None
    if mode != "practice":
        problem = _input_problem(cand, refs)
        if problem is None:
            refs = [r for r in refs if r != ""]
            with st.spinner("Computing the lesson step by step…"):
                lesson = _lesson(cand, refs, settings, title)
    # own texts over what a link carries: no link (said here and in the handouts)
    no_link = _link_chars(cand, refs) if mode != "practice" and ss.get("tch_source") == "text" else None
    if no_link:
        st.warning(hl.md_escape(_no_link_warning(no_link)), icon=":material/link_off:")
    if view != "projector":
        _head(lesson, settings, source, (cand, refs), title, mode, no_link)
    step = _body(lesson, problem, mode, view)
    q = query(settings, (cand, refs), mode=mode, step=step)
    PAGE.write(q)
    if view:
        presenting.sync(q)


def _body(lesson, problem, mode: str, view: str | None) -> int | None:
    """The demo, the exercise set, or the lesson's step; the step shown (None: no step)."""
    ss = st.session_state
    if ss.get("tch_demo"):
        if view == "presenter":
            presenting.blank_control()
        demo_view.render(controls=view != "projector")
        return None
    if mode == "practice":
        practice()
        return None
    if problem:
        st.warning(hl.md_escape(problem), icon=":material/edit_note:")
        return None
    for note in lesson.notes:
        st.error(hl.md_escape(note))
    if not lesson.steps:
        return None
    return _walk(lesson, mode, view)


def _head(lesson, settings, source, texts, title, mode, no_link) -> None:
    """The row above the lesson: the view, the handouts, the demo, presenting."""
    with st.container(horizontal=True, vertical_alignment="center", key="tch_head"):
        st.segmented_control("View", list(MODES), key="tch_mode", format_func=MODES.get, required=True,
                             label_visibility="collapsed")
        if lesson is not None and lesson.steps:
            with st.popover("Handout", icon=":material/download:"):
                downloads(lesson, settings, source, texts, no_link)
            st.button("Demo", icon=":material/play_circle:", key="tch_demo_start", on_click=demo_view.start,
                      help="The ready-made demo: repetition fools plain precision → word salad keeps ROUGE-1 → the "
                           "optimizer climbs into word salad, each step with its one-line lesson.")
            if mode == "walk" and not no_link:
                with st.popover("Present", icon=":material/co_present:"):
                    proj, pres = presenting.links(query(settings, texts, mode=mode, step=0))
                    st.link_button("Open the projector window", proj, icon=":material/tv:")
                    st.link_button("Open the presenter window", pres, icon=":material/speaker_notes:")
                    st.caption("Two windows of this lesson kept in step: the projector shows the step only "
                               "(PageDown / PageUp / Space / arrows move it); the presenter window the notes, "
                               "the answers, the next step and a clock. Moving either moves both.")
        st.caption(hl.md_escape(f"Teaching: {title}") if mode != "practice" else
                   "Fresh exercises: predict the number, then check it.")


def _walk(lesson: Lesson, mode: str, view: str | None) -> int:
    """The walkthrough or the student view of one step (projector / presenter when presenting); the step."""
    ss = st.session_state
    if view == "projector":
        i = PAGE.settle("step", 0, len(lesson.steps) - 1, 0)
        _zoom()
        title_(lesson, i)
        step_body(lesson, i, notes=False, fit_window=True, projector=True, upto=room_cells(lesson, i))
        fitter.mount()
        return i
    if view == "presenter":
        html(presenting.PRESENTER_CSS)
    i = nav(lesson, mode, presenter=view == "presenter")
    if mode == "walk":
        _zoom()
    if mode == "student":
        title_(lesson, i)
        student_step(lesson, i)
    elif view == "presenter":
        title_(lesson, i)
        upto = cells_slider(lesson, i)
        presenting.presenter_panel(lesson, i, upto=upto, blank=bool(ss.get("tch_blank")))
        case_buttons(lesson.steps[i])
    else:
        title_(lesson, i)
        step_body(lesson, i, notes=bool(ss.get("tch_notes")), fit_window=True, upto=cells_slider(lesson, i))
    return i


def _zoom() -> None:
    """The text-size control (a rule, not the step's own style: the fitter sets that one)."""
    ss = st.session_state
    zoom = ss.get("tch_zoom") if ss.get("tch_zoom") in ZOOMS else "100"
    html(f"<style>.tc-fit{{--tzoom:{int(zoom) / 100:g};font-size:calc(var(--tcb) * var(--tzoom))}}</style>")
