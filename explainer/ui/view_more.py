"""The click that computes what one view's work limit left out (TER's trace, the semantic family's model runs:
``explainer.ui.budget``): a view from any link stays within its budget, and a reader who wants the rest asks for it.

The request is the session's own, for these texts and settings only (:func:`explainer.ui.budget.view_key`): a link
or a saved view never carries it, so no link makes the server do more than a view's work; a reader opening one sees
the same click. The result is shared like every trace (``explainer.ui.compute``)."""
from __future__ import annotations

from typing import Mapping, Sequence

import streamlit as st

from explainer.ui.budget import view_key

__all__ = ["SESSION_KEY", "asked", "wanted", "button"]

#: family name -> the inputs' key whose whole trace this session asked for
SESSION_KEY = "_view_more"


def asked(family: str, choice, candidate: str, references: Sequence[str]) -> bool:
    """Whether this session asked for the family's whole trace of these texts under ``choice``."""
    return st.session_state.get(SESSION_KEY, {}).get(family) == view_key(family, choice, candidate, references)


def wanted(families, candidate: str, references: Sequence[str], settings: Mapping) -> frozenset[str]:
    """The families whose whole trace this session asked for, for these texts and settings."""
    return frozenset(f.name for f in families if asked(f.name, settings[f.name], candidate, references))


def _ask(family: str, key: str) -> None:
    st.session_state[SESSION_KEY] = {**st.session_state.get(SESSION_KEY, {}), family: key}


def button(family: str, label: str, computed) -> None:
    """The button under a family's view when its work limit left part of it out (nothing otherwise)."""
    if not (computed.view_limited and computed.inputs_key):
        return
    st.button(f"Compute {label} for these texts", key=f"view_more_{family}", on_click=_ask,
              args=(family, computed.inputs_key), icon=":material/play_arrow:",
              help="One view of the page does a bounded amount of work, so that a link cannot keep the server busy; "
                   "this computes the rest for your texts (within the metric's own limits).")
