"""The Teach page's presenting views (see :mod:`explainer.ui.teach.present` for the channel): the projector
window shows the step only (no notes, no answer, no toolbar; clicker keys), the presenter window the notes, the
answers, the next step and a clock. Both follow their room within :data:`present.POLL_SECONDS`."""
from __future__ import annotations

import time

import streamlit as st

from explainer.teach.model import Lesson
from explainer.ui.teach import present
from explainer.ui.teach import teach_html as th
from explainer.ui.teach.common import escape, html
from explainer.ui.teach.common import link as to_link

# the projector: Streamlit's toolbar, header and the page's own rows hidden; the step gets the window; no focus
# frame (the main area's focus ring, drawn by its ::before, framed the step after a click and a clicker key)
PROJECTOR_CSS = """<style>
header[data-testid="stHeader"],[data-testid="stToolbar"],[data-testid="stSidebar"],
[data-testid="stExpandSidebarButton"],.st-key-tch_head,.st-key-tch_nav,.st-key-tch_keys{display:none!important}
[data-testid="stMainBlockContainer"]{padding-top:1rem!important}
[data-testid="stMain"]:focus,[data-testid="stMain"]:focus-visible{outline:none!important}
[data-testid="stMain"]::before{box-shadow:none!important;border:none!important;outline:none!important}
</style>"""

# clicker keys: what presentation remotes send (PageDown / PageUp), the space bar and the arrows
FORWARD_KEYS = ("PageDown", "Space", "Down")
BACK_KEYS = ("PageUp", "Up")


def apply_pending() -> None:
    """At the start of a run, before the step widget is drawn: the step the room moved to (set by the poll)."""
    ss = st.session_state
    goto = ss.pop("_tch_room_goto", None)
    if goto is not None:
        ss["tch_step"] = goto


def sync(i: int, n: int) -> None:
    """Publish a move made in this window (the presenter's, with the room's control key); then poll the room for a
    move made in the other one."""
    ss = st.session_state
    room = ss.get("tch_room")
    if not room:
        return
    got = present.current(room)
    key = ss.get("tch_room_key")
    controls = present.may_control(room, key)
    if controls and ss.get("_tch_room_step") != i and (got is None or got["step"] != i):
        # this window moved (or opened the room): tell the other one
        ss["_tch_room_seen"] = present.publish(room, i, key=key)
    elif controls and got is not None and ss.get("_tch_room_seen") is None:
        ss["_tch_room_seen"] = got["version"]     # (a viewer takes the room's step from the poll below)
    ss["_tch_room_step"] = i
    _poll(n)


@st.fragment(run_every=present.POLL_SECONDS)
def _poll(n: int) -> None:
    ss = st.session_state
    room = ss.get("tch_room")
    got = present.current(room) if room else None
    if ss.get("tch_view") == "presenter":
        _clock(got)
    if got is None or got["version"] == ss.get("_tch_room_seen"):
        return
    ss["_tch_room_seen"] = got["version"]
    if got["step"] != ss.get("_tch_room_step") and 0 <= got["step"] < n:
        ss["_tch_room_goto"] = got["step"]
        ss["_tch_room_step"] = got["step"]
        st.rerun(scope="app")


def _clock(got: dict | None) -> None:
    # drawn by the poll, which is last on the page: fixed to the window's corner, it stays in sight on any step
    now = time.time()
    since = int(now - got["opened"]) if got else 0
    html(f'<div class="tc tp-clock" role="timer"><b>{time.strftime("%H:%M", time.localtime(now))}</b> · '
         f"presenting for {since // 60} min {since % 60:02d} s</div>")


def clicker_keys(go) -> None:
    """Hidden buttons bound to the clicker keys (the visible Previous / Next keep ← and →); hidden by the page's
    CSS (``.st-key-tch_keys``): a hidden button still answers its shortcut."""
    with st.container(key="tch_keys", border=False):
        for k in FORWARD_KEYS:
            st.button(f"Clicker forward ({k})", key=f"tch_key_{k.lower()}", on_click=go, args=(1,), shortcut=k)
        for k in BACK_KEYS:
            st.button(f"Clicker back ({k})", key=f"tch_key_{k.lower()}", on_click=go, args=(-1,), shortcut=k)


def presenter_panel(lesson: Lesson, i: int) -> None:
    """Notes, the question with its answer, and the next step's title and first lines."""
    s = lesson.steps[i]
    ask = ""
    if s.question:
        ask = (f'<p><b>Ask the class:</b> {escape(s.question.prompt)}<br><b>Answer:</b> '
               f"{escape(s.question.shown)} — {escape(s.question.explanation)}</p>")
    nxt = ""
    if i + 1 < len(lesson.steps):
        t = lesson.steps[i + 1]
        nxt = (f'<div class="tp-next"><b>Next:</b> {escape(t.family)} · {escape(t.title)}'
               f'<div class="tp-next-body">{th.step_html(t, img_charts=True)}</div></div>')
    else:
        nxt = '<div class="tp-next"><b>Next:</b> the end of the lesson.</div>'
    detail = th.claim_details(s)
    ask += f"<p><b>The textbook's number:</b> {escape(detail)}</p>" if detail else ""
    html(f'<div class="tc tp-presenter"><div class="tnotes"><b>Say:</b> {escape(s.say)}<br>'
         f"<b>Common misconception:</b> {escape(s.misconception)}</div>{ask}</div>" + nxt)


def links(query: dict) -> tuple[str, str]:
    """A fresh room's projector link (the room id only: the class sees it) and presenter link (with the room's
    control key) for this lesson."""
    room = st.session_state.setdefault("_tch_new_room", present.new_room())
    base = {k: v for k, v in query.items() if k not in ("view", "room", "key", "notes", "mode")}
    return (to_link({**base, "view": "projector", "room": room}),
            to_link({**base, "view": "presenter", "room": room, "key": present.control_key(room)}))


PRESENTER_CSS = """<style>
.tp-presenter{font-size:1.05rem}
.tp-next{margin-top:.6rem;border-top:2px solid #999;padding-top:.4rem;font-size:.95rem}
.tp-next-body{max-height:40vh;overflow:hidden;opacity:.8;transform-origin:top left}
.tp-clock{font-size:1.3rem;margin:0;position:fixed;right:1rem;bottom:.6rem;z-index:1000;padding:.15rem .6rem;
  background:var(--background-color,#fff);border:2px solid #999;border-radius:.4rem}
</style>"""
