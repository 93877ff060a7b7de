"""Display preferences shared by every page: the "large text" toggle for a projector.

``render_display_toggle()`` draws the toggle in the sidebar and sets the page's CSS; ``large_text()`` tells chart
code whether to scale its fonts (:func:`explainer.ui.charts.readable`). The choice survives a visit to another
page (it is kept under ``_large_text``, since Streamlit forgets the state of widgets a page did not draw).
"""
from __future__ import annotations

import streamlit as st

__all__ = ["render_display_toggle", "large_text", "LARGE_TEXT_CSS", "LARGE_ROOT_PX", "PAGE_CSS"]

KEY, STORE = "large_text", "_large_text"
LARGE_ROOT_PX = 20   # the page's root font size with large text (Streamlit's own is 16 px)

# Streamlit sizes its text in rem: a larger root font scales text, widgets and formulas together.
LARGE_TEXT_CSS = f"""<style>
html{{font-size:{LARGE_ROOT_PX}px}}
[data-testid="stSidebar"]{{min-width:22rem}}
</style>"""


# Nothing may be cut on a narrow page (a 1024 px projector with the sidebar open leaves ~540 px): a data grid
# or a formula wider than the page scrolls sideways, with a scrollbar that is always drawn (the grid's own is
# thin and transparent until hovered, so a cut-off column looked simply absent).
PAGE_CSS = """<style>
[data-testid="stDataFrame"] .dvn-scroller{scrollbar-width:auto;
  scrollbar-color:rgba(128,128,128,.85) rgba(128,128,128,.18)}
.katex-display{overflow-x:auto;overflow-y:hidden;padding:.15rem .4rem .35rem .4rem;scrollbar-width:thin;
  scrollbar-color:rgba(128,128,128,.85) rgba(128,128,128,.18)}
</style>"""


def large_text() -> bool:
    return bool(st.session_state.get(STORE, False))


def render_display_toggle() -> bool:
    ss = st.session_state
    ss[KEY] = ss.get(STORE, False)
    with st.sidebar:
        st.toggle("Large text (projector)", key=KEY, on_change=lambda: ss.__setitem__(STORE, ss[KEY]),
                  help="Larger text, formulas and charts for a projector or a big room.")
    st.html(PAGE_CSS + (LARGE_TEXT_CSS if ss.get(STORE) else ""))
    return bool(ss.get(STORE))
