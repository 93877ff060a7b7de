"""What the Teach page's views share: HTML output, the shared lessons, links to a lesson, the answer box."""
from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from explainer.teach import check_answer
from explainer.teach.answers import ATTEMPTS, MAX_ANSWER_CHARS
from explainer.teach.lesson import LESSON_TYPES, build_lesson
from explainer.teach.model import Lesson
from explainer.ui import compute as shared_compute
from explainer.ui import highlight as hl
from explainer.ui.settings import MetricSettings


def html(body: str) -> None:
    st.html(body)


def escape(s: str) -> str:
    return hl.escape_text(s)


def shared_lesson(cand: str, refs: list[str], settings: MetricSettings, *, order: int = 0,
                  title: str = "", claims: tuple = ()) -> Lesson:
    """The lesson of these texts with these settings (ROUGE types: the lesson's own), computed once and shared
    by every session (:func:`explainer.ui.compute.cached`: in memory, bounded by the texts' size, one
    computation per key at a time — a class opening the teacher's link waits for one computation). ``claims``:
    a worked example's printed numbers, compared in the lesson."""
    settings = settings.replace(settings["rouge"].replace(types=tuple(LESSON_TYPES)))
    # the focus order, the title (the source's name) and the compared claims are part of the lesson
    kind = f"teach_lesson:{order}:{title}:{hash(tuple(claims))}"
    return shared_compute.cached(kind, cand, list(refs), settings, lambda: build_lesson(
        cand, list(refs), bleu_dialect=settings["bleu"].dialect, bleu_options=dict(settings["bleu"].options),
        rouge_dialect=settings["rouge"].dialect,
        rouge_options={k: v for k, v in settings["rouge"].options.items() if k != "types"},
        focus_order=order or None, title=title, claims=tuple(claims)))


def chrf_lesson_shared(cand: str, refs: list[str], settings: MetricSettings, title: str, metric: str,
                       order: int = 0) -> Lesson:
    """The chrF lesson (``metric``: "chrf" or "chrf++", sacreBLEU's chrF2 / chrF2++) of these texts, computed once
    and shared as :func:`shared_lesson` is; ``order``: the character order followed (0: where clipping matters)."""
    from explainer.teach.chrf_steps import chrf_lesson

    opts = {"word_order": 2} if metric == "chrf++" else {}
    return shared_compute.cached(f"teach_chrf:{metric}:{order}:{title}", cand, list(refs), settings,
                                 lambda: chrf_lesson(cand, list(refs), options=opts, title=title,
                                                     focus=order - 1 if order else None))


def _base_url() -> str:
    try:
        return (st.context.url or "").split("?")[0]
    except Exception:  # noqa: BLE001 - embedded contexts without a URL
        return ""


def link(query: dict) -> str:
    """A link to the Teach page with ``query``."""
    return (_base_url() or "teach") + "?" + urlencode(query, doseq=True)


def answer_form(q, form_key: str, input_key: str):
    """An answer box with a Check button (Enter submits). The settled answer (right, or wrong on the last try),
    or None: not submitted yet, not a number (a warning says so), or wrong with a try left (a hint says so and
    the question stays, without its answer). The tries are counted per question in the session."""
    ss = st.session_state
    tries_key = f"_{input_key}_tries"
    with st.form(form_key, border=False, enter_to_submit=True):
        with st.container(horizontal=True, vertical_alignment="bottom"):
            st.text_input("Your answer", key=input_key, max_chars=MAX_ANSWER_CHARS, width=260,
                          placeholder="e.g. 3, 0.25, 1/4 or 25%")
            submitted = st.form_submit_button("Check", type="primary")
    if not submitted:
        if ss.get(f"_{input_key}_retry"):
            st.warning(hl.md_escape(ss[f"_{input_key}_retry"]), icon=":material/replay:")
        return None
    attempt = int(ss.get(tries_key, 0)) + 1
    c = check_answer(q, ss.get(input_key, ""), attempt=min(attempt, ATTEMPTS))
    if c.status == "invalid":
        st.warning(hl.md_escape(c.message), icon=":material/edit:")
        return None
    ss[tries_key] = attempt
    if c.status == "retry":
        ss[f"_{input_key}_retry"] = c.message
        st.warning(hl.md_escape(c.message), icon=":material/replay:")
        return None
    ss.pop(f"_{input_key}_retry", None)
    return c
