"""A preset in "present" mode, for a 1280×720 projector: the preset's texts side by side, every metric's verdict
in large type, what resisted, the lesson, and one click to the Teach room or to the next preset. The page's
chrome (sidebar, toolbar, section picker) is hidden; the link keeps the mode (``view=present``)."""
from __future__ import annotations

import streamlit as st

from explainer.attacks.preset_table import preset_table
from explainer.attacks.presets import ENTRIES, PRESETS, evaluate, get_preset
from explainer.ui.highlight import escape_text
from explainer.ui.lab.common import html
from explainer.ui.lab.presets_section import KIND_WORDS, teach_link, variant_texts_html
from explainer.ui.lab.verdict_view import summary_html, verdict_table_html

__all__ = ["render", "PRESENT_CSS"]

# sizes in rem of Streamlit's 16 px root: the table's numbers at 26 px, its labels at 21 px, the texts at 22 px
PRESENT_CSS = """<style>
[data-testid="stSidebar"],[data-testid="stSidebarCollapsedControl"],[data-testid="stToolbar"],
[data-testid="stHeader"]{display:none}
[data-testid="stMainBlockContainer"]{padding:.6rem 2rem 1rem 2rem;max-width:none}
.lab-present h2{font-size:2rem;margin:0 0 .1rem 0;padding:0}
.lab-present .lab-kind{font-size:1.15rem;opacity:.85;margin-bottom:.3rem}
.lab-present .lab-box{font-size:1.35rem;line-height:1.35;padding:.35em .6em;margin:.1em 0 .3em 0}
.lab-present .lab-label{font-size:1.15rem;margin-top:.1em}
.lab-present table.lab-table{font-size:1.3rem;margin:.3em 0 .3em 0}
.lab-present table.lab-verdicts td[data-col]{font-size:1.6rem}
.lab-present table.lab-table th,.lab-present table.lab-table td{padding:.2em .45em}
.lab-present .lab-verdict{font-size:1.05rem}
.lab-present table.lab-verdicts td small{font-size:1rem}
.lab-present .lab-opts{font-size:1rem}
.lab-present .lab-summary{font-size:1.3rem;margin:.2rem 0 .4rem 0}
</style>"""


def _go(pid: str | None) -> None:
    ss = st.session_state
    if pid is None:
        ss["lab_view"] = ""
    else:
        ss["lab_preset"] = pid


def _neighbours(pid: str) -> tuple[str | None, str | None]:
    scored = [e for e in ENTRIES if e in PRESETS]
    i = scored.index(pid)
    return (scored[i - 1] if i > 0 else None), (scored[i + 1] if i + 1 < len(scored) else None)


def render(pid: str) -> None:
    p = get_preset(pid)
    res, table = evaluate(pid), preset_table(pid)
    st.html(PRESENT_CSS)
    html(f'<div class="lab-present"><h2>{p.catalogue} · {escape_text(p.title)}</h2>'
         f'<div class="lab-kind">{escape_text(KIND_WORDS[p.judgement])}</div>{variant_texts_html(p)}'
         f'{verdict_table_html(table)}<div class="lab-summary">{summary_html(table)}</div></div>')
    prev, nxt = _neighbours(pid)
    c1, c2, c3, c4 = st.columns([1, 1, 1, 1])
    with c1:
        href = teach_link(p, res)
        if href:
            st.link_button("Teach this preset ↗", href, icon=":material/school:", type="primary")
        else:
            st.caption("A corpus preset is not one lesson: Teach takes one text.")
    with c2:
        st.button("◀ Previous preset", key="lab_present_prev", on_click=_go, args=(prev,), disabled=prev is None)
    with c3:
        st.button("Next preset ▶", key="lab_present_next", on_click=_go, args=(nxt,), disabled=nxt is None)
    with c4:
        st.button("Leave present mode", key="lab_present_off", on_click=_go, args=(None,))
    with st.expander("Lesson"):
        st.markdown(p.lesson)
        st.caption(f"Source: {p.citation}")
