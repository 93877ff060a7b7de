"""The progress bar of long work, moved at most every EVERY_SECONDS.

Each move of a bar is a message that makes the browser render the page again. A WMT-sized report ticked at every
2 % of its segments: 50 renders of the whole Corpus page, which cost the browser more than drawing the new report
(issue 18). Work that reports its progress often (a search, an optimizer step) calls the bar as often as it likes;
the bar moves when a quarter of a second has passed since its last move.
"""
from __future__ import annotations

import time

import streamlit as st

__all__ = ["Progress", "EVERY_SECONDS"]

EVERY_SECONDS = 0.25


class Progress:
    """``Progress(label)`` draws the bar at once; ``after=s`` draws it only once the work has lasted ``s`` seconds
    (a short run then draws nothing). Call it with the fraction done and, optionally, the text to show."""

    def __init__(self, label: str, *, after: float | None = None, every: float = EVERY_SECONDS) -> None:
        self.label, self.after, self.every = label, after, every
        self.t0 = time.perf_counter()
        self.last = self.t0
        self.bar = st.progress(0.0, text=label) if after is None else None

    def __call__(self, frac: float, text: str | None = None) -> None:
        now = time.perf_counter()
        if self.bar is None:
            if now - self.t0 < (self.after or 0.0):
                return
            self.bar = st.progress(0.0, text=self.label)
        elif now - self.last < self.every:
            return
        self.last = now
        self.bar.progress(min(1.0, max(0.0, float(frac))), text=text or self.label)

    def finish(self, text: str) -> None:
        """The bar full, with ``text`` (whenever the last move was)."""
        if self.bar is None:
            self.bar = st.progress(0.0, text=self.label)
        self.bar.progress(1.0, text=text)

    def done(self) -> None:
        """Remove the bar (nothing if it was never drawn)."""
        if self.bar is not None:
            self.bar.empty()
