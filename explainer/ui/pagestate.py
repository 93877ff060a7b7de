"""Page state as data: one engine under every page.

A choice widget (selectbox, radio, segmented control) keyed by ``key`` keeps its value in session state between
runs, but the options it is drawn with can change under it (another lesson has another number of steps; an
exercise checked gets a "✓" in its label). Streamlit's selectbox sends the browser's *display string* back: when
the labels change, the old string is no longer an option and arrives as the stored value. :func:`choice`
reconciles the stored value with the options on every run, before the widget is drawn: a value that is no longer
an option falls back to the last one shown (or the default), and the value is written back so that the browser
gets it with the current labels. :func:`shown` is what a callback (run before the script) reads instead of the
raw stored value.
"""
from __future__ import annotations

from typing import Any, Sequence

import streamlit as st

_SHOWN = "_ps_shown"


def _valid(value: Any, options: Sequence) -> bool:
    try:
        return any(type(value) is type(o) and value == o for o in options)
    except Exception:  # noqa: BLE001 - an odd stored object is simply not an option
        return False


def choice(key: str, options: Sequence, default: Any = None) -> Any:
    """The value of the choice widget ``key`` reconciled with ``options`` (call it just before drawing the
    widget, without ``index``): the stored value if it is an option, else the last value shown if it still is,
    else ``default`` (or the first option). The value is stored again, so the browser shows it with the current
    labels and sends back a label that is an option."""
    ss = st.session_state
    options = list(options)
    if not options:
        ss.pop(key, None)
        return None
    value = ss.get(key)
    if not _valid(value, options):
        last = ss.get(_SHOWN, {}).get(key)
        value = last if _valid(last, options) else (default if _valid(default, options) else options[0])
    ss[key] = value
    ss.setdefault(_SHOWN, {})[key] = value
    return value


def shown(key: str, default: Any = None) -> Any:
    """The value of ``key`` as last drawn by :func:`choice` (for callbacks: the stored value may be a stale
    display string until the script reconciles it)."""
    return st.session_state.get(_SHOWN, {}).get(key, default)
