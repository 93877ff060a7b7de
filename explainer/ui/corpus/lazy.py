"""A section of the Corpus page drawn only while it is open, rerun on its own (issue 33, item 9: a click redraws
its own part of the page only).

A settings change redraws the page; every chart drawn costs the browser time (about 1 s on a WMT test set when
every section drew its charts). A section behind an expander whose state Streamlit keeps (``key``,
``on_change="rerun"``) is computed and sent only while the reader has it open; it stays open across reruns. The
section is a fragment: opening or closing it reruns the section alone, not the page (a WMT test set's page is
some 250 elements; a closed section is one).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

import streamlit as st

from explainer.ui.corpus import warmup
from explainer.ui.corpus.common import RUN_FIGURES

__all__ = ["lazy_section", "is_open"]


def is_open(key: str) -> bool:
    """Whether the section ``key`` is open (its state, before or after it is drawn)."""
    return bool(st.session_state.get(key, False))


def lazy_section(title: str, key: str, draw: Callable[[], None], *, anchor: str | None = None,
                 expanded: bool = False) -> None:
    """An expander titled ``title`` whose body ``draw()`` runs only while it is open. ``title`` is user text
    escaped by the caller's words (an expander's label reads Markdown). In its own container: one slot whatever
    it draws, so the fragments below keep their places (and names)."""
    with st.container():
        _section_fragment(key)(title, key, draw, anchor, expanded)


def _figures_key(key: str) -> str:
    return f"_cp_figures:{key}"


@lru_cache(maxsize=None)
def _section_fragment(key: str) -> Callable[..., None]:
    """The section ``key``'s fragment: a function of its own per section, named after it (Streamlit names a
    fragment by its function and its place; the page's tests check that no fragment's name changes)."""
    def section(title: str, key: str, draw: Callable[[], None], anchor: str | None, expanded: bool) -> None:
        with warmup.page_run():   # the background reports wait while a fragment runs
            _section(title, key, draw, anchor, expanded)

    section.__qualname__ = section.__name__ = f"section_fragment[{key}]"
    return st.fragment(section)


def _section(title: str, key: str, draw: Callable[[], None], anchor: str | None, expanded: bool) -> None:
    """The section; its charts recorded for the charts download while it is open (its own run forgets the ones
    of its last run: a section closed has none)."""
    from explainer.ui.highlight import md_escape

    ss = st.session_state
    figures = ss.setdefault(RUN_FIGURES, {})
    for k in ss.pop(_figures_key(key), ()):
        figures.pop(k, None)
    box = st.expander(md_escape(title), expanded=expanded, key=key, on_change="rerun")
    if not box.open:
        return
    before = set(figures)
    with box:
        if anchor:
            st.html(f'<span id="{anchor}"></span>')
        draw()
    ss[_figures_key(key)] = sorted(set(figures) - before)
