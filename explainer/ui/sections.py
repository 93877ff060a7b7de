"""Pieces every family's step-by-step section draws with (Streamlit): escaped HTML, formulas, findings, and
charts that a caller may send elsewhere (:func:`charts_into`: the Corpus page's segment view keeps them behind an
expander) or leave out."""
from __future__ import annotations

import contextlib
import contextvars

import streamlit as st

from explainer.ui import charts
from explainer.ui import highlight as hl
from explainer.ui.display import large_text

__all__ = ["lazy_expander", "html", "findings", "column_config", "texts_html", "latex_lines", "charts_into", "plot",
           "HIGHLIGHT_MAX_CHARS", "TABLE_MAX_ROWS"]

HIGHLIGHT_MAX_CHARS = 20_000     # highlight at most this much of each text
TABLE_MAX_ROWS = 5_000           # rows of a section's table shown (the n-gram table: its view model)


def lazy_expander(label: str, key: str):
    """An expander whose content the caller builds only while it is open (``.open``; opening it reruns the
    page): a closed expander's tables and charts are neither computed nor sent to the browser."""
    return st.expander(label, key=key, on_change="rerun")


def html(body: str) -> None:
    st.html(hl.STYLE + body)


def findings(items) -> None:
    # Material icons: Debian's Chromium has no colour-emoji font, so emoji icons render as empty boxes.
    icon = {"error": ":material/error:", "warning": ":material/warning:", "info": ":material/info:"}
    for f in items:
        body = f"**{hl.md_escape(f.title)}** — {hl.md_escape(f.text)}"
        {"error": st.error, "warning": st.warning}.get(f.level, st.info)(body, icon=icon[f.level])


def column_config(columns) -> dict:
    """A view model's TableColumn list as Streamlit column settings."""
    cc = st.column_config
    return {c.name: (cc.TextColumn if c.text else cc.NumberColumn)(c.label, help=c.help, width=c.width,
                                                                    pinned=c.pinned) for c in columns}


def texts_html(texts) -> str:
    """Marked texts (a view model's MarkedText list) as escaped HTML: a heading line, then the text."""
    parts = []
    for m in texts:
        head, _, rest = m.heading.partition(" — ")
        parts.append(f"<p><b>{hl.escape_text(head)}</b>" + (f" — {hl.escape_text(rest)}" if rest else "") + "</p>")
        parts.append(hl.render_marked_text(m.text, m.marks, max_chars=HIGHLIGHT_MAX_CHARS, aria_label=m.aria_label))
    return "".join(parts)


def latex_lines(formulas) -> None:
    for f in formulas:
        st.latex(f)


_INLINE = object()
_CHARTS_INTO: contextvars.ContextVar = contextvars.ContextVar("xp_charts_into", default=_INLINE)


@contextlib.contextmanager
def charts_into(box):
    """Draw the sections' charts into ``box`` (a container, e.g. an expander) instead of in place, or not at all
    (``box`` None): the Corpus page's segment view keeps them behind an expander, since a Plotly chart costs the
    browser far more to draw than the tables and formulas that hold the same numbers (issue 18: each click on
    the Corpus page redraws the segment view)."""
    tok = _CHARTS_INTO.set(box)
    try:
        yield
    finally:
        _CHARTS_INTO.reset(tok)


def plot(fig, key: str, alt: str) -> None:
    box = _CHARTS_INTO.get()
    if box is None:
        return
    with box if box is not _INLINE else contextlib.nullcontext():
        st.plotly_chart(charts.readable(fig, large=large_text()), key=key,
                        config={"displaylogo": False}, alt=alt)
