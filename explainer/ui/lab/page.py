"""The Gaming lab page: presets, attack generators on the user's input, sweeps and the metric optimizer.

Layout only: each section is a module of this folder (``presets_section``, ``present``, ``generators_section``,
``sweeps_section``, ``optimizer_section``, ``outliers_section``) over :mod:`explainer.attacks` (all numbers). The
page's state is declared once in :mod:`explainer.ui.lab.link` (the pagestate engine reads and writes its link).
"""
from __future__ import annotations

import streamlit as st

from explainer.attacks.presets import ENTRIES, PRESETS
from explainer.ui.display import render_display_toggle
from explainer.ui.lab import generators_section, optimizer_section, present, presets_section, sweeps_section
from explainer.ui.lab import view as lv
from explainer.ui.lab.link import DEFAULT_PRESET, PAGE, load_from_url, query

__all__ = ["render"]


def _carry_explain_texts() -> None:
    """The texts last shown on the Explain page become the lab's candidate and references whenever they changed
    since the lab last took them (typed there, or an example picked), so the lab attacks what the user was
    looking at. The Explain page's untouched default example is not carried, nor texts when the lab's own link
    stated some."""
    from explainer.examples import get_example
    from explainer.ui.explain.link import DEFAULT_EXAMPLE, LAST

    ss = st.session_state
    last = ss.get(LAST)
    if last is None:
        return
    last_cand, last_refs = last["texts"]
    refs = tuple(r.replace("\n", " ") for r in last_refs if r.strip())
    texts = (last_cand, refs)
    if not last_cand.strip() or not refs or ss.get("_lab_explain_texts") == texts:
        return
    ss["_lab_explain_texts"] = texts
    default = get_example(DEFAULT_EXAMPLE)
    if ss.pop("_lab_link_texts", False) or (last_cand, list(last_refs)) == (default.candidate,
                                                                             list(default.references)):
        return
    ss["lab_cand"], ss["lab_refs"] = texts[0], "\n".join(refs)
    ss["_lab_carried"] = texts


def render() -> None:
    load_from_url()
    _carry_explain_texts()
    optimizer_section.repair()
    sweeps_section.repair()
    ss = st.session_state
    # the preset picker is not drawn in present mode, and Streamlit forgets an undrawn widget's value: kept here,
    # and written back every run (a value written in the run reaches the browser's widget as well)
    pid = ss.get("lab_preset")
    ss["lab_preset"] = pid if pid in ENTRIES else (ss.get("_lab_preset_v") or DEFAULT_PRESET)
    ss["_lab_preset_v"] = ss["lab_preset"]
    if ss.get("lab_view") == "present" and ss["lab_preset"] in PRESETS:
        PAGE.warnings()
        present.render(ss["lab_preset"])
        ss["_lab_preset_v"] = ss["lab_preset"]
        PAGE.write(query())
        return
    if render_display_toggle():
        st.html(lv.LAB_LARGE_CSS)
    st.html(lv.LAB_PAGE_CSS)
    st.title("Gaming lab: fooling the metrics")
    PAGE.warnings()
    if ss.get("lab_section") not in lv.SECTIONS:  # back from another page: Streamlit dropped the widget's value
        ss["lab_section"] = ss.get("_lab_section_v") or "presets"
    st.segmented_control("Section", list(lv.SECTIONS), key="lab_section", format_func=lv.SECTIONS.get,
                         required=True, label_visibility="collapsed")
    section = ss.get("lab_section") or "presets"
    ss["_lab_section_v"] = section
    {"presets": presets_section.render, "generators": generators_section.render, "sweeps": sweeps_section.render,
     "optimizer": optimizer_section.render}[section]()
    PAGE.write(query())
