"""The Teach page's lesson views: the walkthrough (navigation, a step fitted to the window, speaker notes), the
student view (predict, check, reveal) and the handouts."""
from __future__ import annotations

import dataclasses
import functools
import hashlib

import streamlit as st

from explainer.teach.answers import Check
from explainer.teach.handout import handout_name
from explainer.teach.model import ClaimCheck, LcsGrid, Lesson
from explainer.teach.results import progress_checksum, progress_holds
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui.pagestate import MAX_URL_TEXT
from explainer.ui.settings import MetricSettings
from explainer.ui.teach import clicker, fitter, presenting
from explainer.ui.teach import teach_html as th
from explainer.ui.teach.common import answer_form, escape, html, public_link
from explainer.ui.teach.link import LINK_PROGRESS, PAGE, ZOOMS, query
from explainer.ui.teach.teach_markdown import handout_markdown

# Height of what the walkthrough shows above a step's body (top padding, the view / navigation rows: Streamlit's
# widgets, in px) and of the step's title (in the lesson's base size --tcb, which grows with the window), and of
# the LCS table's slider: the body gets the rest of the window.
FIT_OFFSET = 218
FIT_OFFSET_PROJECTOR = 110   # the projector hides the page's rows (PROJECTOR_CSS): the top spacer and padding remain
FIT_TITLE = 2.11
FIT_SECTION = 0.9   # a lecture of several families: the line naming the part (in --tcb)
SLIDER_HEIGHT = 90
CASE_BUTTON_HEIGHT = 58   # a "Switch lowercase on" button below a step (Papineni's 2/7: 55 px below the window)


def _step_label(lesson: Lesson, i: int) -> str:
    s = lesson.steps[i]
    return f"{i + 1} / {len(lesson.steps)} · {s.family} · {s.title}"


def _go(delta: int, n: int) -> None:
    ss = st.session_state
    ss.pop(clicker.GOTO, None)   # a move of the buttons: the keys' pending move is over
    ss["tch_step"] = max(0, min(n - 1, ps.shown("tch_step", 0) + delta))


def nav(lesson: Lesson, mode: str, *, presenter: bool = False) -> int:
    """The navigation row (Previous, the step, Next; the walkthrough's notes, text size, clicker keys; the
    presenter's blank screen instead of the notes); the step shown."""
    ss = st.session_state
    n = len(lesson.steps)
    PAGE.settle("step", 0, n - 1, 0)
    if mode == "walk":
        clicker.apply()
    else:
        clicker.forget()
    i = ps.choice("tch_step", range(n), 0)
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key="tch_nav"):
        st.button("Previous", icon=":material/arrow_back:", key="tch_prev", disabled=i == 0, on_click=_go,
                  args=(-1, n), shortcut="Left" if mode == "walk" else None)
        st.selectbox("Step", list(range(n)), key="tch_step", format_func=lambda k: _step_label(lesson, k),
                     label_visibility="collapsed", width=380, on_change=clicker.picked)
        st.button("Next", icon=":material/arrow_forward:", key="tch_next", disabled=i >= n - 1, on_click=_go,
                  args=(1, n), shortcut="Right" if mode == "walk" else None)
        # no tooltip: it stayed over the step's caption after each click; the button shows its key itself
        if mode == "walk":
            if presenter:
                presenting.blank_control()
            else:
                st.toggle("Speaker notes", key="tch_notes")
            ps.choice("tch_zoom", ZOOMS, "100")
            st.selectbox("Text size", ZOOMS, key="tch_zoom", format_func=lambda z: f"Text {z} %", width=130,
                         label_visibility="collapsed",
                         help="The step's text size (the projector window's too, when opened from here). A step "
                              "that no longer fits the window is made smaller again, so nothing is cut off.")
            # in this row: hidden (display:none), they add no row to the page (the step keeps its fit)
            presenting.clicker_keys(functools.partial(_go, n=n))
            clicker.keys(n, blank=presenter)   # the same keys counted in the browser: every press moves one step
            fitter.mount()    # the step's type made smaller in the browser when it does not fit (zoom 125 %)
        else:
            right, asked = _student_score(lesson)
            st.markdown(f"**{right}/{asked}** right", help=f"{right} of your {asked} answers were right; this "
                        f"lesson asks {len(lesson.questions())} questions.")
    return ss["tch_step"]


def _settings_lines(lesson: Lesson) -> list[tuple[str, str]]:
    """A header line per family of the lesson: its implementation and signature."""
    return [(sm["label"], " — ".join(x for x in (sm.get("implementation"), sm.get("signature")) if x))
            for sm in lesson.summaries.values()]


def _no_link_note(total: int) -> str:
    """What the handouts say instead of a link."""
    return (f"the texts have {total:,} characters together, more than a link carries ({MAX_URL_TEXT:,}); paste "
            "them as your own text on the Teach page.")


def downloads(lesson: Lesson, settings: MetricSettings, source: str, texts, no_link: int | None = None) -> None:
    """The handouts; ``no_link``: the texts' length when the lesson has no link (the handouts say why instead of
    giving a link to another lesson)."""
    link = "" if no_link else public_link(query(settings, texts, mode="walk", step=0))
    note = _no_link_note(no_link) if no_link else ""
    lesson = dataclasses.replace(lesson, source=source)
    lines = _settings_lines(lesson)
    for student, who in ((False, "Teacher's"), (True, "Student's")):
        tag = "_student" if student else ""
        st.download_button(f"{who} handout (HTML)", lambda s=student: th.handout_html(
                               lesson, settings=lines, link=link, link_note=note, student=s),
                           file_name=handout_name(lesson, student=student, ext="html"), mime="text/html",
                           key=f"tch_dl_html{tag}", on_click="ignore", icon=":material/description:")
        st.download_button(f"{who} handout (Markdown)", lambda s=student: handout_markdown(
                               lesson, settings=lines, link=link, link_note=note, student=s),
                           file_name=handout_name(lesson, student=student, ext="md"), mime="text/markdown",
                           key=f"tch_dl_md{tag}", on_click="ignore", icon=":material/notes:")
    st.caption("The HTML handout is one file: it opens offline; the teacher's prints one step per page. The "
               "student's is a sheet (two steps or more per printed page): blanks instead of the worked numbers, "
               "an empty LCS table to fill in, no speaker notes, the answers on the last page."
               + (" It has no link to this lesson: the texts are too long for one." if no_link else ""))


def section_html(lesson: Lesson, i: int) -> str:
    """A lecture of several families: which part step ``i`` is in ("Part 2 of 4 · ROUGE · step 3 of 8"), the
    section's heading; "" for a lesson of one family."""
    if len(lesson.sections) < 2:
        return ""
    k, label, j, m = lesson.section_of(i)
    return (f'<div class="tc-section" data-testid="teach-section">Part {k + 1} of {len(lesson.sections)} · '
            f"<b>{escape(label)}</b> · step {j + 1} of {m}</div>")


def title(lesson: Lesson, i: int) -> None:
    s = lesson.steps[i]
    html(section_html(lesson, i) + f'<div class="tc-title"><span class="fam">{escape(s.family)}</span>'
         f'{escape(s.title)}<span class="num">step {i + 1} of {len(lesson.steps)}</span></div>')


def cells_slider(lesson: Lesson, i: int) -> int | None:
    """The LCS table's fill (its cells row by row), a slider when step ``i`` has a full table (None otherwise). Its
    value is the page's ``cells`` (-1: every cell), which the presenter's room carries to the projector."""
    grid = next((b for b in lesson.steps[i].blocks if isinstance(b, LcsGrid)), None)
    ss = st.session_state
    if grid is None or not th.grid_cells(grid):
        ss["tch_cells"] = -1
        return None
    total = th.grid_cells(grid)
    key = f"tch_cells_{i}_{len(grid.ref_tokens)}x{len(grid.cand_tokens)}"
    linked = ss.pop("_tch_cells_link", None)   # the link's fill, for this step's slider
    if isinstance(linked, int) and 0 <= linked <= total:
        ss[key] = linked
    if key not in ss or not 0 <= ss[key] <= total:
        ss[key] = total
    upto = st.slider("Cells filled, row by row", 0, total, key=key,
                     help="Move the slider to fill the table one cell at a time.")
    ss["tch_cells"] = upto if upto < total else -1
    return upto


def room_cells(lesson: Lesson, i: int) -> int | None:
    """The LCS table's fill on the projector: the room's (``cells``), no slider."""
    grid = next((b for b in lesson.steps[i].blocks if isinstance(b, LcsGrid)), None)
    if grid is None or not th.grid_cells(grid):
        return None
    cells = st.session_state.get("tch_cells")
    return cells if isinstance(cells, int) and 0 <= cells < th.grid_cells(grid) else th.grid_cells(grid)


def step_body(lesson: Lesson, i: int, *, notes: bool, fit_window: bool = False, projector: bool = False,
              upto: int | None = None) -> None:
    """Step ``i`` (``upto``: the LCS table's fill; ``projector``: the projector's window, no control)."""
    s = lesson.steps[i]
    grid = next((b for b in s.blocks if isinstance(b, LcsGrid)), None)
    # walkthrough: the step fits the window below the page's own rows (head, navigation, title; the slider) and,
    # with the speaker notes on, above their panel (--tnotes-h, page CSS): the notes never cover the step
    offset = FIT_OFFSET_PROJECTOR if projector else FIT_OFFSET
    head = FIT_TITLE + (FIT_SECTION if len(lesson.sections) > 1 else 0)
    slider = SLIDER_HEIGHT if upto is not None and not projector else 0
    slider += 0 if projector else CASE_BUTTON_HEIGHT * len(_case_claims(s))    # the buttons below the step
    fit = (f"calc(100vh - {offset + slider}px - {head:g} * var(--tcb)"
           + (" - var(--tnotes-h) - 1.2rem" if notes else "") + ")" if fit_window else None)
    body = th.step_html(s, upto=upto, fit=fit, lead=th.cell_rule(grid, upto) if upto else "",
                        background=_background(), min_px=th.PROJECTOR_MIN_PX if projector else 0)
    html(body)
    if not projector:
        case_buttons(s)
    if notes:
        # the class sees this window: the question, never its answer (that is in the presenter window)
        extra = f"<br><b>Ask the class:</b> {escape(s.question.prompt)}" if s.question else ""
        detail = th.claim_details(s)
        extra += f"<br><b>The textbook's number:</b> {escape(detail)}" if detail else ""
        html(f'<div class="tc"><div class="tnotes tnotes-fixed" style="{_panel_style()}" role="note" '
              f'aria-label="speaker notes"><b>Say:</b> {escape(s.say)}<br><b>Common misconception:</b> '
              f"{escape(s.misconception)}{extra}</div></div>")


def _apply_setting(family: str, options: tuple) -> None:
    from explainer.ui import settings as ms

    settings, _ = ms.current_settings()
    ms.put_settings(settings.replace(settings[family].replace(**dict(options))))


def _case_claims(step) -> list[ClaimCheck]:
    return [c for c in step.blocks if isinstance(c, ClaimCheck) and c.setting and c.agrees is False]


def case_buttons(step) -> None:
    """A textbook number that holds with lowercase tokens (Papineni's 2/7): the switch that makes it hold, one
    click away (the step says so in its box)."""
    for c in _case_claims(step):
        st.button(f"Switch {c.setting_label} on: the textbook's {c.printed} holds then", key=f"tch_case_{c.metric}",
                  icon=":material/match_case:", on_click=_apply_setting, args=c.setting, type="secondary")


def _dark() -> bool:
    try:
        return st.context.theme.type == "dark"
    except Exception:  # noqa: BLE001 - no theme information (tests, embedded)
        return False


def _background() -> str:
    return "#0e1117" if _dark() else "#fff"


def _panel_style() -> str:
    return f"background:{_background()};color:{'#fafafa' if _dark() else '#111'}"



# --------------------------------------------------------------------------------------------- student
def _lesson_key(lesson: Lesson) -> str:
    """A lesson's id, the same in every server process (its texts and its questions' answers): what the student's
    answers and their checksum belong to."""
    h = hashlib.sha256()
    for part in (lesson.candidate, *lesson.references, *(f"{s.id}|{s.question.id}|{s.question.answer!r}"
                                                         for s in lesson.steps if s.question)):
        h.update(part.encode("utf-8") + b"\x1f")
    return h.hexdigest()[:20]


def _answers(lesson: Lesson) -> dict:
    """The student's answers to this lesson (step -> Check), with the progress a link carries put back when its
    checksum is this server's for this lesson (a reload keeps the score)."""
    ss = st.session_state
    key = _lesson_key(lesson)
    ans = ss.setdefault("_tch_answers", {}).setdefault(key, {})
    link = ss.pop("_tch_done_link", None)
    if link:
        done, checksum = link
        if not progress_holds(f"lesson|{key}", done, checksum):
            st.warning("The answers in this link do not carry this server's checksum for this lesson (edited by "
                       "hand, another lesson's, or made before a restart without a fixed key); they are not "
                       "counted.", icon=":material/gpp_bad:")
        for i, ch in enumerate(done[:len(lesson.steps)]):
            if ch in "01" and i not in ans and progress_holds(f"lesson|{key}", done, checksum):
                ans[i] = Check("right" if ch == "1" else "wrong", None,
                               f"Answered before (kept in the link): {'right' if ch == '1' else 'not right'}.")
    done = "".join("-" if i not in ans else ("1" if ans[i].right else "0") for i in range(len(lesson.steps)))
    done = done.rstrip("-")
    ss[LINK_PROGRESS] = (done, progress_checksum(f"lesson|{key}", done) if done else "")
    return ans


def _student_score(lesson: Lesson) -> tuple[int, int]:
    ans = _answers(lesson)
    return sum(1 for c in ans.values() if c.right), len(ans)


def student_step(lesson: Lesson, i: int) -> None:
    s = lesson.steps[i]
    q = s.question
    if q is None:
        step_body(lesson, i, notes=False, upto=cells_slider(lesson, i))
        return
    ans = _answers(lesson)
    revealed = st.session_state.setdefault("_tch_revealed", set())
    rkey = f"{_lesson_key(lesson)}:{i}"
    box = f"tch_answer_{_lesson_key(lesson)[:8]}_{i}"   # each lesson's answer box (and tries) its own
    check = ans.get(i)
    if check is None and rkey not in revealed:
        html('<div class="tc"><div class="task"><b>Predict before you see it:</b> ' + escape(q.prompt) +
              f' <span class="thint">({escape(q.hint)})</span></div>' + th.blocks_html(q.given, img_charts=True) +
              "</div>")
        c = answer_form(q, f"tch_form_{i}", box)
        if c is not None:
            ans[i] = c
            st.rerun()
        st.button("Show me the answer", key=f"tch_reveal_{i}", on_click=lambda: revealed.add(rkey),
                  type="tertiary")
        return
    if check is not None:
        (st.success if check.right else st.error)(hl.md_escape(check.message + " " + q.explanation),
                                                  icon=":material/check_circle:" if check.right else
                                                  ":material/cancel:")
    else:
        st.info(hl.md_escape(f"The answer: {q.shown}. {q.explanation}"), icon=":material/visibility:")
    if q.marked:   # the tokens the answer talks about, marked
        html('<div class="tc tc-marked">' + th.blocks_html(q.marked) + "</div>")
    step_body(lesson, i, notes=False, upto=cells_slider(lesson, i))

    def again():
        ans.pop(i, None)
        revealed.discard(rkey)
        for k in (box, f"_{box}_tries", f"_{box}_retry", f"_{box}_last"):
            st.session_state.pop(k, None)

    st.button("Try this one again", key=f"tch_again_{i}", on_click=again, type="tertiary")


