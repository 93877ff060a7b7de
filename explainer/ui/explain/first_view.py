"""The first view of the Explain page in two steps: the headline numbers first, the step-by-step sections right
after.

Measured in Chromium on the 2-core machine, a browser shows nothing of the page until it has loaded and run the
code of every kind of element the run sends: with the charts (4.7 MB of Plotly), data grids, formulas and
syntax highlighting in the same run, the headline numbers appeared 3.4–6.8 s after navigation. So the first
run of a session in a browser sends the texts, the headline and the diagnosis only, and a tiny script-less
component tells the server once the browser has painted the headline numbers; the server then runs the whole
page. The sidebar's settings come with that second run too (their widgets' scripts delayed the headline by a
further ~0.7 s, measured paired); the text boxes are there at once and work meanwhile. A fragment timer
(:data:`FALLBACK_SECONDS`) asks for the rest too, should the component never report.

Only a browser does either: a client that does not report its page URL (AppTest, a script on the websocket) gets
the whole page in one run, as before.

A class opening a link at once: second runs wait (at most :data:`YIELD_MAX_SECONDS`) while other sessions are
in their first run or connected without one yet, so every student sees the numbers before the server builds
anyone's tables and charts; then the second runs take turns (:func:`second_run_turn`). Measured with thirty
websocket sessions on thirty links (issue 18): with the second runs all running at once, the server's event loop
got the interpreter lock about once per thirty thread switches and a third of the headlines, computed long before,
reached their browsers only after 2.3-2.7 s; waiting for sessions not yet started and one second run at a time
(the same work: one interpreter lock either way) brought every headline under 1.5 s.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

DONE_KEY = "_first_view_done"
PENDING_KEY = "first_view_pending"  # the placeholder's container: CSS class st-key-first_view_pending
FALLBACK_SECONDS = 4.0
YIELD_MAX_SECONDS = 1.0   # a second run waits at most this long for other sessions' first runs
TURN_MAX_SECONDS = 2.0    # ... and at most this long for its turn after other sessions' second runs
SECOND_RUN_KEY = "_first_view_second_run"
_FIRST_RUN_EXPIRES = 2.0  # a first run not seen ending (stopped, or it returned early) stops counting after this

# Trusted constant code (no user data reaches it). Waits until the headline numbers are in the page, lets the
# browser paint them (two animation frames), then reports; gives up waiting after ~5 s and reports anyway.
_PAINTED_JS = """
export default function (component) {
  const { setTriggerValue } = component;
  let sent = false;
  const send = () => { if (!sent) { sent = true; setTriggerValue("painted", true); } };
  const shown = () => document.querySelector('[data-testid="stMetricValue"]') !== null;
  const wait = (tries) => {
    if (shown() || tries <= 0) requestAnimationFrame(() => requestAnimationFrame(send));
    else setTimeout(() => wait(tries - 1), 30);
  };
  wait(170);
}
"""

_painted = st.components.v2.component("explainer_first_view_painted", js=_PAINTED_JS)


# Sessions in their first run now (session id -> when last seen): a class opening a link at once gets every
# headline before anyone's step-by-step sections are built (see after_first_views).
_first_runs: dict[str, float] = {}
_lock = threading.Lock()


def pending() -> bool:
    """True during the session's first run in a browser (the run that ends after the headline). A client that
    does not report its page URL is not a browser frontend and would never report back, so it gets everything
    in one run."""
    if st.session_state.get(DONE_KEY) or st.context.url is None:
        return False
    ctx = get_script_run_ctx()
    if ctx is not None:
        with _lock:
            _first_runs[ctx.session_id] = time.monotonic()
    return True


def after_first_views() -> None:
    """Called before the heavy sections: while other sessions are in their first run (or connected and not yet
    run once), wait (releasing the CPU to them) for at most :data:`YIELD_MAX_SECONDS`, so that thirty students
    opening a link at once all see their numbers before the server builds anyone's tables and charts."""
    ctx = get_script_run_ctx()
    me = ctx.session_id if ctx is not None else None
    deadline = time.monotonic() + YIELD_MAX_SECONDS
    while time.monotonic() < deadline:
        if not _others_first(me):
            return
        time.sleep(0.01)


_not_run: dict[str, float] = {}   # sessions seen connected without a finished run (id -> when first seen)


def _others_first(me: str | None) -> bool:
    """Another session is in its first run, or connected without any finished run (its first run not started
    yet: on a busy server the event loop may not have read its request), seen for less than
    :data:`_FIRST_RUN_EXPIRES` seconds."""
    now = time.monotonic()
    with _lock:
        for sid, seen in list(_first_runs.items()):
            if now - seen > _FIRST_RUN_EXPIRES:
                del _first_runs[sid]
        if any(sid != me for sid in _first_runs):
            return True
    unrun = {i.session.id for i in _active_sessions() if i.script_run_count == 0} - {me}
    with _lock:
        for sid in list(_not_run):
            if sid not in unrun:
                del _not_run[sid]
        for sid in unrun:
            _not_run.setdefault(sid, now)
        return any(now - t <= _FIRST_RUN_EXPIRES for t in _not_run.values())


def _active_sessions() -> list:
    """The server's connected sessions (none under AppTest or when Streamlit's runtime is not running)."""
    try:
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return []
        return list(Runtime.instance()._session_mgr.list_active_sessions())
    except Exception:  # noqa: BLE001 - a private API: without it, the wait falls back to first runs only
        return []


_turn = threading.Lock()


@contextmanager
def second_run_turn():
    """The second run of a browser's first view builds the sections in its turn, one session at a time (waiting
    at most :data:`TURN_MAX_SECONDS`): the interpreter lock runs one thread at a time anyway, and thirty
    threads competing for it starve the event loop that sends everyone's headlines. Other runs go straight."""
    if not st.session_state.pop(SECOND_RUN_KEY, False):
        yield
        return
    got = _turn.acquire(timeout=TURN_MAX_SECONDS)
    try:
        yield
    finally:
        if got:
            _turn.release()


def _first_run_ends() -> None:
    ctx = get_script_run_ctx()
    if ctx is not None:
        with _lock:
            _first_runs.pop(ctx.session_id, None)


def once(key: str) -> list:
    """A one-shot list in Session State (e.g. a link's warnings): taken out after the run that shows the whole
    page, so a browser's first view shows it in both of its runs."""
    return st.session_state.get(key, []) if pending() else st.session_state.pop(key, [])


def details_later() -> bool:
    """True when this run should end here, after the top of the page (:func:`pending`). Shows a placeholder and
    asks the browser to report back once the top is on screen (then the whole page runs)."""
    if not pending():
        return False
    with st.container(key=PENDING_KEY):
        st.caption("Loading the step-by-step explanation…")
    _painted(key="_first_view_painted", on_painted_change=_done)
    _fallback()
    _first_run_ends()
    return True


def _done() -> None:
    st.session_state[DONE_KEY] = True
    st.session_state[SECOND_RUN_KEY] = True


@st.fragment(run_every=FALLBACK_SECONDS)
def _fallback() -> None:
    # Does nothing inside the first (full) run. Should the browser's timer fire before the component reported,
    # this fragment's own rerun marks the first view done and reruns the whole page; any full run makes the
    # browser drop the timer, so it fires at most once.
    ctx = get_script_run_ctx()
    if ctx is not None and ctx.fragment_ids_this_run:
        _done()
        st.rerun()
