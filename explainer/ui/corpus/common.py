"""What the Corpus page's sections share: its bounds, chart drawing, opening a segment from a chart or a table, the
systems' shown names. Public names only: the page's modules and the families' corpus parts use them.

Imports nothing of the metric families' UI (``explainer.ui.families``) or the settings: a family's corpus part
(``explainer.ui.corpus.<family>_part``, reached through its UI family) imports this module."""
from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from explainer.corpus.significance import MAX_RESAMPLES, MAX_TEST_CELLS

PAGE_MAX_SEGMENTS = 20_000           # a full WMT test set is 2,000-3,000 segments; the largest ones under 20,000


PAGE_MAX_SYSTEMS = 20                # a whole WMT language pair (WMT22 en-zh and en-ja: 13 systems)


PAGE_MAX_BYTES = 100_000_000         # all uploaded / pasted text together (20,000 segments x 24 files x ~200 bytes)


PAGE_MAX_RESAMPLES = MAX_RESAMPLES               # bootstrap 10,000 resamples, AR 100,000 trials


PAGE_MAX_TEST_CELLS = MAX_TEST_CELLS  # resamples x segments of one test: sacreBLEU's AR on 20,000 segments


TABLE_SEARCH_MAX = 200               # characters of a table search


CHART_CONFIG = {"displaylogo": False}


SHOWN_NAMES = "_cp_shown_names"     # the systems' names as the page last showed them


def shown_names(own: list[str]) -> list[str]:
    """The names the page shows for the test set's systems ``own``: the ones typed, unless they were refused
    (blank or repeated: then the file names, as the page says)."""
    ss = st.session_state
    last = ss.get(SHOWN_NAMES)
    if isinstance(last, list) and len(last) == len(own):
        return last
    return [ss.get(f"cp_name_{i}", n) for i, n in enumerate(own)]


def base_url() -> str:
    try:
        return (st.context.url or "").split("?")[0]
    except Exception:  # noqa: BLE001 - embedded contexts without a URL
        return ""


def fmt(x: float | None, scale: float = 100.0) -> str:
    if x is None:
        return "—"
    return f"{x:.2f}" if scale >= 100 else f"{x:.4f}"


FIRST_ANALYSIS = "_cp_first_analysis"     # the analysis shown by default (not written into the link)


RUN_FIGURES = "cp_run_figures"    # the charts drawn in this run, for the "Charts (HTML)" download


def plot(fig, key: str, **kw):
    cfg = dict(CHART_CONFIG)
    image = st.session_state.get("cp_chart_format", "png")
    cfg["toImageButtonOptions"] = {"format": image, "filename": key}
    st.session_state.setdefault(RUN_FIGURES, {})[key] = fig
    return st.plotly_chart(fig, key=key, config=cfg, **kw)


OPEN_REQUEST = "cp_open_request"


SCROLL_TO_SEGMENT = "cp_scroll_to_segment"     # a counter: each opening asks once to scroll to the segment view


def open_segment(seg: int, system: str | None = None, note: str = "", redraw: bool = True) -> None:
    """Ask for segment ``seg`` (the candidate of ``system``) to be opened in the segment view. Only a request: a
    widget's key cannot be written once the widget is drawn in a run (Streamlit raises), so it is applied by
    :func:`apply_open_request` before the widgets of the next run are drawn. Called from widget callbacks (a
    button's ``on_click``, a chart's or table's ``on_select``), which run before the script; ``redraw``: end the
    callback by rerunning only what it changed (:func:`redraw_parts`)."""
    ss = st.session_state
    ss[OPEN_REQUEST] = (int(seg), system, note)
    other = system is not None and system != ss.get("cp_system")
    ss.setdefault(REDRAW, set()).add("app" if other else "segment")
    if redraw:
        redraw_parts()


REDRAW = "_cp_redraw"       # what this click's callback changed: "table", "segment" or "app"
SEGMENTS_FRAGMENT = "cp_segments"       # the segment table and view
SEGMENT_VIEW_FRAGMENT = "cp_segview"    # the segment view alone


# streamlit.testing's session: its element tree holds only what the last run drew (a browser keeps the rest of the
# page), so a rerun of some parts would look like a page without the others there: it gets the click's own rerun
APPTEST_SESSION = "test session id"


def redraw_parts() -> None:
    """The end of a callback that changed the segment table or view: rerun those parts only (Streamlit's rerun
    of named fragments, which replaces the click's own rerun — an analysis' bar or button would otherwise redraw
    its whole section and the table with it, issue 18). A segment of another system than the one picked above
    changes that picker: then the click's own rerun, which turns into a run of the whole page
    (:func:`app_run_if_needed`)."""
    from streamlit.errors import StreamlitAPIException
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    want = st.session_state.pop(REDRAW, set())
    ctx = get_script_run_ctx()
    if not want or "app" in want or ctx is None or ctx.session_id == APPTEST_SESSION:
        return
    try:
        st.rerun(scope=[SEGMENTS_FRAGMENT] if "table" in want else [SEGMENT_VIEW_FRAGMENT])
    except StreamlitAPIException:     # those parts are not on the page: the click's own rerun draws what it shows
        pass


def app_run_if_needed() -> None:
    """In a fragment's run: a pending request to open a segment of another system than the one picked above
    changes that picker and the sections drawn for it, outside the fragment: run the whole page instead."""
    ss = st.session_state
    req = ss.get(OPEN_REQUEST)
    if req is None or req[1] is None or req[1] == ss.get("cp_system"):
        return
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is not None and ctx.fragment_ids_this_run:
        st.rerun(scope="app")


def apply_open_request() -> None:
    """Apply a pending :func:`open_segment` request; called at the top of a run, before any widget is drawn (the
    page's run, and the segments fragment's own runs)."""
    app_run_if_needed()
    ss = st.session_state
    req = ss.pop(OPEN_REQUEST, None)
    if req is None:
        return
    seg, system, note = req
    ss["cp_seg"] = int(seg)
    if system is not None:
        ss["cp_system"] = system
        ss["cp_view_sys"] = system
    ss["cp_opened_note"] = note
    ss[SCROLL_TO_SEGMENT] = ss.get(SCROLL_TO_SEGMENT, 0) + 1     # the segment opens below: bring it into view


def selected_points(key: str) -> list[dict]:
    """The points selected in the chart ``key`` (its state, read in its ``on_select`` callback)."""
    try:
        return list(st.session_state[key]["selection"]["points"])
    except (KeyError, TypeError, AttributeError):
        return []


def selected_rows(key: str) -> list[int]:
    """The rows selected in the dataframe ``key`` (read in its ``on_select`` callback)."""
    try:
        return list(st.session_state[key]["selection"]["rows"])
    except (KeyError, TypeError, AttributeError):
        return []


def point_segment(point: dict) -> int | None:
    """The 1-based segment id a chart point stands for (``customdata``: the id, or a list starting with it)."""
    cd = point.get("customdata")
    if isinstance(cd, list) and cd:
        cd = cd[0]
    if isinstance(cd, (int, float)) and not isinstance(cd, bool):
        return int(cd)
    return None


def on_pick(key: str, resolve) -> None:
    """``on_select`` of a chart whose bars stand for groups of segments: ``resolve(point)`` gives (the segments,
    a label[, their system]); they are listed in the table below (a single one is opened too)."""
    pts = selected_points(key)
    if not pts:
        return
    got = resolve(pts[0])
    ids, label = got[0], got[1]
    if ids:
        filter_segments(ids, label, redraw=False)
        if len(ids) == 1:
            open_segment(ids[0], got[2] if len(got) > 2 else None, f"opened from the chart: {label}", redraw=False)
        redraw_parts()


def on_chart_open(key: str, system: str) -> None:
    """``on_select`` of a chart whose points are segments: one point opens it, several list them in the table."""
    ids = sorted({s for s in (point_segment(p) for p in selected_points(key)) if s is not None})
    if len(ids) == 1:
        open_segment(ids[0], system, f"opened from the chart: segment {ids[0]}")
    elif ids:
        filter_segments(ids, "selected in the chart")


def filter_segments(ids, label: str, redraw: bool = True) -> None:
    ss = st.session_state
    ss["cp_filter_ids"] = (label, [int(x) for x in ids])
    ss["cp_table_page"] = 1       # the table's first page of these segments
    ss.setdefault(REDRAW, set()).add("table")
    if redraw:
        redraw_parts()


def on_group_row(key: str, groups: list[tuple[list[int], str]]) -> None:
    """``on_select`` of a table whose rows are groups of segments (ids, label): lists the picked one's below."""
    rows = selected_rows(key)
    if rows and rows[0] < len(groups):
        filter_segments(*groups[rows[0]])


def on_segment_row(key: str, ids: list[int], system: str | None) -> None:
    """``on_select`` of a table whose rows are the segments ``ids``: opens the picked one."""
    rows = selected_rows(key)
    if rows and rows[0] < len(ids):
        open_segment(int(ids[rows[0]]), system, f"opened from the table: segment {int(ids[rows[0]])}")


def explain_url(params: dict) -> str:
    """A link to the Explain page (the app's default page) with these query parameters."""
    return "./?" + urlencode(params, doseq=True)


def copt_key(family: str, dialect: str, name: str) -> str:
    """The session key of a corpus option of a family's dialect (ROUGE's aggregation: ``cp_rouge_copt:…``)."""
    return f"cp_{family}_copt:{dialect}:{name}"
