"""A section of the Corpus page drawn only while it is open (issue 33, item 9: draw only what is in view).

A settings change redraws the page; every chart drawn costs the browser time (about 1 s on a WMT test set when
every section drew its charts). A section behind an expander whose state Streamlit keeps (``key``,
``on_change="rerun"``) is computed and sent only while the reader has it open; it stays open across reruns.
"""
from __future__ import annotations

from typing import Callable

import streamlit as st

__all__ = ["lazy_section", "is_open"]


def is_open(key: str) -> bool:
    """Whether the section ``key`` is open (its state, before or after it is drawn)."""
    return bool(st.session_state.get(key, False))


def lazy_section(title: str, key: str, draw: Callable[[], None], *, anchor: str | None = None,
                 expanded: bool = False) -> bool:
    """An expander titled ``title`` whose body ``draw()`` runs only while it is open; returns whether it was
    drawn. ``title`` is user text escaped by the caller's words (an expander's label reads Markdown)."""
    from explainer.ui.highlight import md_escape

    box = st.expander(md_escape(title), expanded=expanded, key=key, on_change="rerun")
    if not box.open:
        return False
    with box:
        if anchor:
            st.html(f'<span id="{anchor}"></span>')
        draw()
    return True
