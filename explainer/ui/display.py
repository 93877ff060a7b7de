"""Display preferences shared by every page: the "large text" toggle for a projector.

``render_display_toggle()`` draws the toggle in the sidebar and sets the page's CSS; ``large_text()`` tells chart
code whether to scale its fonts (:func:`explainer.ui.charts.readable`); ``data_table()`` draws a table (a data
grid, or with large text an HTML table, which scales with the page). The choice survives a visit to another page (it is
kept under ``_large_text``, since Streamlit forgets the state of widgets a page did not draw).
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

__all__ = ["render_display_toggle", "large_text", "data_table", "LARGE_TEXT_CSS", "LARGE_ROOT_PX",
           "PAGE_CSS"]

KEY, STORE = "large_text", "_large_text"
LARGE_ROOT_PX = 20   # the page's root font size with large text (Streamlit's own is 16 px)

LARGE_TABLE_ROWS = 12  # rows of a table shown at once with large text (a longer one scrolls in its box)

# Streamlit sizes its text in rem: a larger root font scales text, widgets and formulas together. The sidebar is
# wider only while it is open (a minimum width on the collapsed one left a 121 px strip and kept the page squeezed
# to ~380 px at 1024x768); the page's side margins shrink so that the text's width grows with it. A data grid
# draws its text in a canvas at a size fixed when it mounts (~15 px): large text shows HTML tables
# (data_table()).
LARGE_TEXT_CSS = f"""<style>
html{{font-size:{LARGE_ROOT_PX}px}}
[data-testid="stSidebar"][data-collapsed="false"]{{min-width:22rem}}
[data-testid="stMainBlockContainer"]{{padding-left:1.6rem;padding-right:1.6rem}}
[data-testid="stTable"] th,[data-testid="stTable"] td{{font-size:1rem;line-height:1.45}}
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


def _labels_and_formats(column_config: dict | None) -> tuple[dict, dict]:
    """A data grid's column settings as an HTML table's header labels and number formats (``%.5f``)."""
    labels, formats = {}, {}
    for name, conf in (column_config or {}).items():
        if isinstance(conf, dict):
            if conf.get("label"):
                labels[name] = conf["label"]
            fmt = (conf.get("type_config") or {}).get("format")
            if isinstance(fmt, str) and fmt.startswith("%"):
                formats[name] = lambda v, f=fmt: f % v if isinstance(v, (int, float)) else v
    return labels, formats


def data_table(data, *, column_config: dict | None = None, hide_index: bool = True, **grid) -> None:
    """A table: Streamlit's data grid, or with large text an HTML table in the page's type (the grid's canvas
    text does not grow with the page; a long table scrolls in a box of LARGE_TABLE_ROWS rows). ``grid``: the
    data grid's own arguments (selection, height, width, key), which the HTML table does without."""
    if not large_text():
        st.dataframe(data, hide_index=hide_index, column_config=column_config, **grid)
        return
    df = data if isinstance(data, pd.DataFrame) else pd.DataFrame(data)
    labels, formats = _labels_and_formats(column_config)
    shown = df.style.format(formats, na_rep="") if formats else df
    if labels:
        shown = shown.relabel_index([labels.get(c, c) for c in df.columns], axis=1) if formats else \
            df.rename(columns=labels)
    rows = len(df)
    height = "content" if rows <= LARGE_TABLE_ROWS else int((LARGE_TABLE_ROWS + 1) * 2.05 * LARGE_ROOT_PX)
    st.table(shown, hide_index=hide_index, height=height)
