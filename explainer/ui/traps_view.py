"""The classic traps (``explainer.traps``) on a page: one warning each, above the numbers they concern.

The traps are found on the texts and the settings only (``page_traps``), before anything is read off a score;
each message is the core's, shown escaped (``md_escape``: the user's words it quotes never form markup).
``page_trap_list`` is the pure part (tested directly); ``show`` draws them.
"""
from __future__ import annotations

from typing import Sequence

import streamlit as st

from explainer.traps import page_traps
from explainer.ui import highlight as hl

__all__ = ["settings_traps", "corpus_traps", "page_trap_list", "show"]

ICON = ":material/report:"


def settings_traps(candidates: Sequence[str], references: Sequence[Sequence[str]], settings, *,
                   families: Sequence[str] | None = None, corpus: bool = True) -> list[dict]:
    """The traps of the families (default: every one) under the page's settings (``MetricSettings``), a trap said
    once."""
    out: list[dict] = []
    for name in families if families is not None else list(settings):
        c = settings[name]
        out += page_traps(name, candidates, references, c.dialect, corpus=corpus, **c.options)
    return page_trap_list(out)


def page_trap_list(traps: Sequence[dict], *, skip: Sequence[str] = (), prefix: str = "") -> list[dict]:
    """The traps a page shows: one per (code, message), without the codes in ``skip``, each message after
    ``prefix`` (e.g. a system's name)."""
    seen, out = set(), []
    for t in traps:
        key = (t["code"], t["message"])
        if t["code"] in skip or key in seen:
            continue
        seen.add(key)
        out.append(dict(t, message=prefix + t["message"]))
    return out


#: traps about the references alone: said once for a test set, not once per system
_REFERENCE_TRAPS = ("references-transposed", "references-varying")


def corpus_traps(systems: Sequence[tuple[str, Sequence[str]]], references: Sequence[Sequence[str]], settings, *,
                 families: Sequence[str], skip: Sequence[str] = ()) -> list[dict]:
    """The traps of a test set (each system against the references) under the page's settings for ``families``:
    each said once, a system's own named after it when there are several."""
    out: list[dict] = []
    for name, lines in systems:
        for t in settings_traps(lines, references, settings, families=families):
            if len(systems) > 1 and t["code"] not in _REFERENCE_TRAPS:
                t = dict(t, message=f"{name}: {t['message']}")
            out.append(t)
    return page_trap_list(out, skip=skip)


def show(traps: Sequence[dict]) -> None:
    """One escaped warning per trap."""
    for t in traps:
        msg = t["message"]
        st.warning("Before you read the numbers: " + hl.md_escape(msg[:1].upper() + msg[1:]), icon=ICON)
