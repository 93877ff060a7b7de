"""The first view of the Explain page in two steps: the headline numbers first, the step-by-step sections right
after.

Measured in Chromium on the 2-core machine, a browser shows nothing of the page until it has loaded and run the
code of every kind of element the run sends: with the charts (4.7 MB of Plotly), data grids, formulas and
syntax highlighting in the same run, the headline numbers appeared 3.4–6.8 s after navigation, while the top of
the page alone (inputs, settings, headline) takes about a second. So the first run of a session in a browser
ends after the headline, and a tiny script-less component tells the server once the browser has painted the
headline numbers; the server then runs the whole page. The inputs and settings work meanwhile. A fragment
timer (:data:`FALLBACK_SECONDS`) asks for the rest too, should the component never report.

Only a browser does either: a client that does not report its page URL (AppTest, a script on the websocket) gets
the whole page in one run, as before.
"""
from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

DONE_KEY = "_first_view_done"
PENDING_KEY = "first_view_pending"  # the placeholder's container: CSS class st-key-first_view_pending
FALLBACK_SECONDS = 4.0

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


def pending() -> bool:
    """True during the session's first run in a browser (the run that ends after the headline). A client that
    does not report its page URL is not a browser frontend and would never report back, so it gets everything
    in one run."""
    return not st.session_state.get(DONE_KEY) and st.context.url is not None


def details_later() -> bool:
    """True when this run should end here, after the top of the page (:func:`pending`). Shows a placeholder and
    asks the browser to report back once the top is on screen (then the whole page runs)."""
    if not pending():
        return False
    with st.container(key=PENDING_KEY):
        st.caption("Loading the step-by-step explanation…")
    _painted(key="_first_view_painted", on_painted_change=_done)
    _fallback()
    return True


def _done() -> None:
    st.session_state[DONE_KEY] = True


@st.fragment(run_every=FALLBACK_SECONDS)
def _fallback() -> None:
    # Does nothing inside the first (full) run. Should the browser's timer fire before the component reported,
    # this fragment's own rerun marks the first view done and reruns the whole page; any full run makes the
    # browser drop the timer, so it fires at most once.
    ctx = get_script_run_ctx()
    if ctx is not None and ctx.fragment_ids_this_run:
        _done()
        st.rerun()
