"""What the Teach page's views share: HTML output, the shared lessons, links to a lesson, the answer box."""
from __future__ import annotations

import ipaddress
import os
from typing import Sequence
from urllib.parse import urlencode, urlsplit

import streamlit as st

from explainer.teach import check_answer
from explainer.teach.answers import ATTEMPTS, MAX_ANSWER_CHARS
from explainer.teach.families import DEFAULT_LECTURE
from explainer.teach.lesson import LessonPart, build_lecture
from explainer.teach.model import Lesson
from explainer.ui import compute as shared_compute
from explainer.ui import highlight as hl
from explainer.ui.settings import MetricSettings


def html(body: str) -> None:
    st.html(body)


def escape(s: str) -> str:
    return hl.escape_text(s)


def lecture_parts(settings: MetricSettings, names: Sequence[str]) -> tuple[LessonPart, ...]:
    """The lecture's families with the page's settings (each family's dialect and options)."""
    return tuple(LessonPart(n, settings[n].dialect, dict(settings[n].options)) for n in names)


def shared_lesson(cand: str, refs: list[str], settings: MetricSettings, *, names: Sequence[str] = DEFAULT_LECTURE,
                  order: int = 0, title: str = "", claims: tuple = ()) -> Lesson:
    """The lecture of ``names`` (family names, in order) over these texts with these settings, computed once and
    shared by every session (:func:`explainer.ui.compute.cached`: in memory, bounded by the texts' size, one
    computation per key at a time — a class opening the teacher's link waits for one computation). ``order``: the
    order each family follows (0: its own choice); ``claims``: a worked example's printed numbers, compared in the
    lesson."""
    names = tuple(names)
    choices = tuple(settings[n] for n in names)   # only the lecture's families' settings decide the lesson
    # the focus order, the title (the source's name) and the compared claims are part of the lesson
    kind = ("teach_lesson", names, order, title, hash(tuple(claims)))
    return shared_compute.cached(kind, cand, list(refs), choices, lambda: build_lecture(
        cand, list(refs), lecture_parts(settings, names), focus=order or None, title=title, claims=tuple(claims)))


def _base_url() -> str:
    try:
        return (st.context.url or "").split("?")[0]
    except Exception:  # noqa: BLE001 - embedded contexts without a URL
        return ""


def link(query: dict) -> str:
    """A link to the Teach page with ``query``."""
    return (_base_url() or "teach") + "?" + urlencode(query, doseq=True)


#: the app's public address for links in files that leave the server (handouts), e.g. https://metrics.example.org
PUBLIC_URL_ENV = "EXPLAINER_PUBLIC_URL"


def _loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def public_link(query: dict) -> str:
    """A link to the Teach page with ``query`` for a file that leaves the server (a handout): the Teach page at
    :data:`PUBLIC_URL_ENV` when it is set; else this server's, unless it is a loopback address (``localhost``: a
    student's browser would open their own machine), then relative (``teach?…``)."""
    public = os.environ.get(PUBLIC_URL_ENV, "").strip().rstrip("/")
    base = f"{public}/teach" if public else _base_url()
    if not base or (not public and _loopback(base)):
        base = "teach"
    return base + "?" + urlencode(query, doseq=True)


def answer_form(q, form_key: str, input_key: str):
    """An answer box with a Check button (Enter submits). The settled answer (right, or wrong on the last try),
    or None: not submitted yet, not a number (a warning says so), or wrong with a try left (a hint says so and
    the question stays, without its answer). The tries are counted per question in the session (``input_key``:
    per question and set); the same answer checked again (a double click on Check) is the same try."""
    ss = st.session_state
    tries_key = f"_{input_key}_tries"
    last_key = f"_{input_key}_last"
    with st.form(form_key, border=False, enter_to_submit=True):
        with st.container(horizontal=True, vertical_alignment="bottom"):
            st.text_input("Your answer", key=input_key, max_chars=MAX_ANSWER_CHARS, width=260,
                          placeholder="e.g. 3, 0.25, 1/4 or 25%")
            submitted = st.form_submit_button("Check", type="primary")
    raw = str(ss.get(input_key, "") or "").strip()
    if submitted and raw and raw == ss.get(last_key):
        submitted = False     # the same answer again: no new try, the same hint
    if not submitted:
        if ss.get(f"_{input_key}_retry"):
            st.warning(hl.md_escape(ss[f"_{input_key}_retry"]), icon=":material/replay:")
        return None
    attempt = int(ss.get(tries_key, 0)) + 1
    c = check_answer(q, raw, attempt=min(attempt, ATTEMPTS))
    if c.status == "invalid":
        st.warning(hl.md_escape(c.message), icon=":material/edit:")
        return None
    ss[tries_key] = attempt
    ss[last_key] = raw
    if c.status == "retry":
        ss[f"_{input_key}_retry"] = c.message
        st.warning(hl.md_escape(c.message), icon=":material/replay:")
        return None
    ss.pop(f"_{input_key}_retry", None)
    return c
