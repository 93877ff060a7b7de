"""What every section of the Gaming lab page shares: escaped HTML boxes, links to the other pages, widgets whose
values survive a switch of section, the user's texts, the verdict table with its one-line summary, and a Stop that
takes effect between two scores."""
from __future__ import annotations

import streamlit as st

from explainer.ui import highlight as hl
from explainer.ui.lab import view as lv
from explainer.ui.lab.link import refs_list
from explainer.ui.lab.verdict_view import summary_markdown, verdict_table_html

__all__ = ["html", "box", "base_url", "explain_href", "page_href", "persistent_select", "persistent_text_area",
           "persistent_widget", "user_inputs", "MAX_LAB_CHARS", "LESSON_ICON", "show_verdicts", "yield_point"]

MAX_LAB_CHARS = 5_000  # the lab re-scores texts hundreds of times; keep inputs paragraph-sized
# A Material icon, as on the Explain page: an emoji such as 💡 is a missing glyph in Debian's Chromium
# (no emoji font installed).
LESSON_ICON = ":material/lightbulb:"


def html(body: str) -> None:
    st.html(lv.LAB_CSS + body)


def box(text: str) -> str:
    return f'<div class="lab-box">{hl.escape_text(text)}</div>'


def base_url() -> str:
    try:
        url = st.context.url or ""
    except Exception:  # noqa: BLE001 - older/embedded contexts
        url = ""
    return url.split("?")[0]


def explain_href(query: str) -> str:
    """Link to the Explain page (the app's default page, at the app root)."""
    return lv.explain_href(base_url(), query)


def page_href(path: str, query: str) -> str:
    """Link to another page of the app (``teach``) from this page's URL."""
    return lv.page_href(base_url(), path, query)


def yield_point() -> None:
    """Let a Stop (or any rerun the browser asked for) take effect here: reading the session state is where
    Streamlit raises the rerun in the script, without drawing anything."""
    st.session_state.get("_lab_yield")


# ------------------------------------------------------------------------------------------------ widgets
def persistent_select(label: str, store: str, options: list, **kw):
    """A selectbox whose choice survives section switches: the value lives under ``store``; the widget (key
    ``store + '_box'``) is re-filled from it before it is drawn and copies changes back."""
    ss = st.session_state
    box_key = store + "_box"
    if ss.get(store) not in options:
        ss[store] = options[0]
    ss[box_key] = ss[store]
    st.selectbox(label, options, key=box_key, on_change=lambda: ss.__setitem__(store, ss[box_key]), **kw)
    return ss[store]


def persistent_text_area(label: str, store: str, **kw) -> str:
    """A text area whose text survives section switches (see :func:`persistent_select`)."""
    ss = st.session_state
    box_key = store + "_box"
    ss[box_key] = ss.get(store, "")
    st.text_area(label, key=box_key, on_change=lambda: ss.__setitem__(store, ss[box_key]), **kw)
    return ss[store]


def persistent_widget(widget, label: str, key: str, store: str, default, *args, normalize=lambda v: v, **kw):
    """A widget whose value survives section switches and is restored from the URL: the value lives under
    ``store``; the widget (``key``) is re-filled from it before it is drawn and copies edits back (through
    ``normalize``)."""
    ss = st.session_state
    ss.setdefault(store, default)
    ss[key] = ss[store]
    return widget(label, *args, key=key, on_change=lambda: ss.__setitem__(store, normalize(ss[key])), **kw)


# ------------------------------------------------------------------------------------------------ inputs
def user_inputs() -> tuple[str, list[str]] | None:
    """The user's candidate and references (one per line); None (with a message) when unusable."""
    c1, c2 = st.columns(2)
    with c1:
        cand = persistent_text_area("Candidate", "lab_cand", height=110,
                                    help="The text to attack. Sweeps, generators and the optimizer all start from it.")
    with c2:
        refs = refs_list(persistent_text_area("References (one per line)", "lab_refs", height=110,
                                              help="Each non-empty line is one reference."))
    if st.session_state.get("_lab_carried") == (cand, tuple(refs)):
        st.caption("The candidate and references you had on the Explain page.")
    too_long = [name for name, t in [("The candidate", cand)] + [(f"Reference {i + 1}", r) for i, r in enumerate(refs)]
                if len(t) > MAX_LAB_CHARS]
    if too_long:
        st.warning(f"{too_long[0]} is longer than {MAX_LAB_CHARS:,} characters. The lab re-scores its texts "
                   "hundreds of times, so it works on paragraph-sized inputs; use the Explain page for long "
                   "texts, or shorten this one (your text is kept above).")
        return None
    if not refs:
        st.warning("Add at least one reference (one per line) to score anything.")
        return None
    if len(refs) > 10:
        st.warning(f"{len(refs)} references given; the lab uses the first 10.")
        refs = refs[:10]
    return cand, refs


# ------------------------------------------------------------------------------------------------ verdicts
def show_verdicts(table, *, caption: str = "") -> None:
    """The verdict table, its one-line summary (what resisted) and the table's notes."""
    html(verdict_table_html(table))
    st.markdown(summary_markdown(table))
    notes = list(table.notes) + ([caption] if caption else [])
    why = sorted({w for r in table.rows for w in r.why.values() if w})
    if why:
        notes.append("— : " + "; ".join(why))
    if notes:
        st.caption(" ".join(hl.md_escape(n) for n in notes))
