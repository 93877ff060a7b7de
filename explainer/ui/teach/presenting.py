"""The Teach page's presenting views (see :mod:`explainer.ui.teach.present` for the room): the projector window
shows what the room holds (the step only: no notes, no answer, no control at all, so no widget can take the
clicker's keys; black while the screen is blanked), the presenter window sets the room and shows the step as the
class sees it, the next one, the notes, the answers, a clock and the step count. The projector follows the room
within :data:`present.POLL_SECONDS`."""
from __future__ import annotations

import time

import streamlit as st

from explainer.teach.model import LcsGrid, Lesson
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
.tp-blank{position:fixed;inset:0;background:#000;z-index:1000000}
</style>"""

# clicker keys: what presentation remotes send (PageDown / PageUp), the space bar and the arrows
FORWARD_KEYS = ("PageDown", "Space", "Down")
BACK_KEYS = ("PageUp", "Up")
BLANK_KEY = "b"       # what clickers send for "blank screen"
#: link parameters that are the window's own, not the room's: which window it is, its key, the ordinary page's
#: notes, the view (a room shows the walkthrough)
OWN_PARAMS = ("view", "room", "key", "notes", "mode", "done", "sig")
ROOM_LOAD = "_tch_room_load"   # session: the room's state to show on this run (the poll found a new version)


def room_state(query: dict) -> dict:
    """What the room carries of a presenter's link: everything the class sees (lesson, texts, settings, step,
    demo, the LCS table's fill, the blank screen), not the window's own parameters."""
    return {k: v for k, v in query.items() if k not in OWN_PARAMS}


def joined(room: str, state: dict) -> dict:
    """A projector's link parameters for the room's state."""
    return {**{k: ([v] if isinstance(v, str) else list(v)) for k, v in state.items()}, "view": ["projector"],
            "room": [room]}


def sync(query: dict) -> None:
    """The presenter (the window with the room's control key) puts what the class sees into the room; every
    window then polls the room (the projector follows it, the presenter's clock runs). Last on the page: the
    poll fragment's own reruns then never displace the step's elements."""
    ss = st.session_state
    room = ss.get("tch_room")
    if not room:
        return
    key = ss.get("tch_room_key")
    if present.may_control(room, key):
        state = present.valid_state(room_state(query))
        got = present.current(room)
        if state is not None and (got is None or got["state"] != state):
            ss["_tch_room_seen"] = (room, present.publish(room, state, key=key))
        elif got is not None:
            ss["_tch_room_seen"] = (room, got["version"])
    _poll()


@st.fragment(run_every=present.POLL_SECONDS)
def _poll() -> None:
    ss = st.session_state
    room = ss.get("tch_room")
    got = present.current(room) if room else None
    if ss.get("tch_view") == "presenter" and ss.get("tch_room_key"):
        _clock(got)
        return
    if got is None or (room, got["version"]) == ss.get("_tch_room_seen"):
        return
    ss["_tch_room_seen"] = (room, got["version"])
    ss[ROOM_LOAD] = joined(room, got["state"])
    st.rerun(scope="app")


def _clock(got: dict | None) -> None:
    # drawn by the poll, which is last on the page: fixed to the window's corner, it stays in sight on any step
    now = time.time()
    since = int(now - got["opened"]) if got else 0
    html(f'<div class="tc tp-clock" role="timer"><b>{time.strftime("%H:%M", time.localtime(now))}</b> · '
         f"presenting for {since // 60} min {since % 60:02d} s</div>")


def toggle_blank() -> None:
    st.session_state["tch_blank"] = not st.session_state.get("tch_blank")


def blank_control() -> None:
    """The presenter's blank-screen switch (``b``, what clickers send): the projector goes black."""
    on = bool(st.session_state.get("tch_blank"))
    st.button("Show the screen again (b)" if on else "Blank screen (b)", key="tch_blank_btn", on_click=toggle_blank,
              icon=":material/visibility:" if on else ":material/visibility_off:", shortcut=BLANK_KEY,
              type="primary" if on else "secondary")


def blank_html() -> str:
    """The projector's blank screen: black over the whole window (the step stays underneath, so it comes back at
    once)."""
    return '<div class="tp-blank" data-testid="teach-blank" role="img" aria-label="blank screen"></div>'


def clicker_keys(go) -> None:
    """Hidden buttons bound to the clicker keys (the visible Previous / Next keep ← and →); hidden by the page's
    CSS (``.st-key-tch_keys``): a hidden button still answers its shortcut."""
    with st.container(key="tch_keys", border=False):
        for k in FORWARD_KEYS:
            st.button(f"Clicker forward ({k})", key=f"tch_key_{k.lower()}", on_click=go, args=(1,), shortcut=k)
        for k in BACK_KEYS:
            st.button(f"Clicker back ({k})", key=f"tch_key_{k.lower()}", on_click=go, args=(-1,), shortcut=k)


def presenter_panel(lesson: Lesson, i: int, *, upto: int | None = None, blank: bool = False) -> None:
    """The presenter's view: the step as the class sees it and the next one smaller (left); the notes in large
    type, the question with its answer, the textbook's number (right); the step count (the clock is the poll's)."""
    s = lesson.steps[i]
    grid = next((b for b in s.blocks if isinstance(b, LcsGrid)), None)
    lead = th.cell_rule(grid, upto) if grid is not None and upto else ""
    now = th.step_html(s, upto=upto, lead=lead, img_charts=True)
    if i + 1 < len(lesson.steps):
        t = lesson.steps[i + 1]
        nxt = (f'<div class="tp-next"><div class="tp-h">Next: {escape(t.family)} · {escape(t.title)}</div>'
               f'<div class="tp-next-body">{th.step_html(t, img_charts=True)}</div></div>')
    else:
        nxt = '<div class="tp-next"><div class="tp-h">Next: the end of the lesson.</div></div>'
    ask = ""
    if s.question:
        ask = (f'<div class="tp-ask"><b>Ask the class:</b> {escape(s.question.prompt)}<br><b>Answer:</b> '
               f"{escape(s.question.shown)} — {escape(s.question.explanation)}</div>")
    detail = th.claim_details(s)
    ask += f'<div class="tp-ask"><b>The textbook\'s number:</b> {escape(detail)}</div>' if detail else ""
    state = ('<div class="tp-blanked">The projector is blank (b shows it again).</div>' if blank else "")
    html(f'<div class="tp-grid" data-testid="teach-presenter"><div class="tp-left">{state}'
         f'<div class="tp-h">On the projector: step {i + 1} of {len(lesson.steps)}</div>'
         f'<div class="tp-now">{now}</div>{nxt}</div>'
         f'<div class="tp-right"><div class="tp-count">Step <b>{i + 1}</b> of {len(lesson.steps)}</div>'
         f'<div class="tp-notes"><b>Say:</b> {escape(s.say)}<br><b>Common misconception:</b> '
         f"{escape(s.misconception)}</div>{ask}</div></div>")


def links(query: dict) -> tuple[str, str]:
    """A fresh room's projector link (the room id only: the class sees it) and presenter link (with the room's
    control key) for this lesson."""
    room = st.session_state.setdefault("_tch_new_room", present.new_room())
    base = {k: v for k, v in query.items() if k not in ("view", "room", "key", "notes", "mode")}
    return (to_link({**base, "view": "projector", "room": room}),
            to_link({**base, "view": "presenter", "room": room, "key": present.control_key(room)}))


PRESENTER_CSS = """<style>
.tp-grid{display:grid;grid-template-columns:minmax(0,58fr) minmax(0,42fr);gap:1.2rem;align-items:start}
.tp-h{font-weight:700;font-size:1.05rem;opacity:.8;margin:.2rem 0}
.tp-now{border:3px solid #0072B2;border-radius:.4rem;padding:.3rem .5rem}
.tp-now .tc{font-size:max(15px,1.15vw)}
.tp-next{margin-top:.6rem;border-top:2px solid #999;padding-top:.3rem}
.tp-next-body{max-height:30vh;overflow:hidden;opacity:.75}
.tp-next-body .tc{font-size:max(12px,.8vw)}
.tp-count{font-size:max(22px,1.7vw);font-weight:700;margin-bottom:.3rem}
.tp-notes{font-size:max(22px,1.65vw);line-height:1.4;border:2px solid #CC79A7;border-radius:.4rem;
  padding:.4rem .6rem}
.tp-ask{font-size:max(20px,1.45vw);line-height:1.35;margin-top:.6rem;border:2px solid #0072B2;border-radius:.4rem;
  padding:.4rem .6rem}
.tp-blanked{background:#111;color:#fff;font-weight:700;padding:.3rem .6rem;border-radius:.3rem;margin-bottom:.3rem}
.tp-clock{font-size:max(20px,1.4vw);margin:0;position:fixed;right:4.5rem;top:.5rem;z-index:1000010;
  padding:.1rem .6rem;background:var(--background-color,#fff);border:2px solid #999;border-radius:.4rem}
</style>"""
