"""The Teach page's ready-made demo (:mod:`explainer.teach.demo`): one click on "Demo" starts it; each step shows
its one-line lesson, the honest and the gamed text, the lab's numbers for both, and a link that runs it live in the
Gaming lab."""
from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from explainer.teach.demo import demo_sequence
from explainer.ui.teach.common import _base_url, escape, html

DEMO_BUDGET = 3.0   # seconds: the optimizer's run ends at its local optimum well within this


def start() -> None:
    st.session_state["tch_demo"] = 1


def _go(delta: int, n: int) -> None:
    ss = st.session_state
    ss["tch_demo"] = max(0, min(n, int(ss.get("tch_demo") or 0) + delta))


def _lab_link(query: dict) -> str:
    base = _base_url()
    page = base.rsplit("/", 1)[0] + "/gaming_lab" if "://" in base else "gaming_lab"
    return page + "?" + urlencode(query, doseq=True)


def render(*, controls: bool = True) -> None:
    """The demo step ``tch_demo`` (1-based; 0 = no demo); ``controls``: its buttons (not on the projector)."""
    ss = st.session_state
    steps = demo_sequence(DEMO_BUDGET)
    n = len(steps)
    k = max(1, min(n, int(ss.get("tch_demo") or 1)))
    s = steps[k - 1]
    if controls:
        with st.container(horizontal=True, vertical_alignment="center", gap="small", key="tch_demo_nav"):
            st.button("Previous", icon=":material/arrow_back:", key="tch_demo_prev", disabled=k == 1,
                      on_click=_go, args=(-1, n), shortcut="PageUp")
            st.button("Next", icon=":material/arrow_forward:", key="tch_demo_next", disabled=k == n,
                      on_click=_go, args=(1, n), shortcut="PageDown")
            st.button("End the demo", icon=":material/close:", key="tch_demo_end",
                      on_click=lambda: ss.update(tch_demo=0))
    before = "Start" if s.id == "optimizer" else "Honest"   # the optimizer's start is no honest output
    rows = "".join(f"<tr><td>{escape(m)}</td><td class='n'>{escape(a)}</td><td class='n'>{escape(b)}</td></tr>"
                   for m, a, b in s.numbers)
    refs = "".join(f'<div class="tc-lab">Reference {j + 1}</div><div class="tc-box">{escape(r)}</div>'
                   for j, r in enumerate(s.references))
    html(f'<div class="tc-title"><span class="fam">Demo</span>{escape(s.title)}'
         f'<span class="num">step {k} of {n}</span></div>'
         f'<div class="tc"><p class="tp-key" data-testid="demo-lesson">{escape(s.lesson)}</p>{refs}'
         f'<div class="tc-lab">{before}</div><div class="tc-box">{escape(s.honest)}</div>'
         f'<div class="tc-lab">Gamed</div><div class="tc-box">{escape(s.candidate)}</div>'
         f'<table class="tt"><thead><tr><th>metric</th><th>{before.lower()}</th><th>gamed</th></tr></thead>'
         f"<tbody>{rows}</tbody></table></div>")
    if controls:
        st.link_button("Run it live in the Gaming lab", _lab_link(s.lab_query), icon=":material/science:")
