"""The Dialects page's state, declared once (:data:`PAGE`), and its link in and out, on the engine of
:mod:`explainer.ui.pagestate`: ``candidate``/``ref`` (at most 10 references; texts over a link's size are left
out), ``metric`` (a registered family: bleu, rouge, chrf, ter, …), ``claim`` and ``claim_metric`` (the Reproduce
tab), ``a``/``b`` (the two rows compared), ``head`` (ROUGE's headline type: a family view's own field)."""
from __future__ import annotations

import streamlit as st

from explainer.dialectcmp.claim import metric_choices
from explainer.dialectcmp.limits import MAX_CLAIM_CHARS, MAX_REFS
from explainer.examples import get_example
from explainer.families import FAMILIES
from explainer.options import OptionSpec
from explainer.ui import pagestate as ps
from explainer.ui.dialects.views import dialects_view, views_fields
from explainer.ui.pagestate import Field

DEFAULT_EXAMPLE = "cat_sat"
TABS = ("Side by side", "Reproduce a number")
MAX_ROW_ID = 60   # no row id is longer
#: every registered family, in display order (the metric picker; the link's ``metric``)
METRICS = tuple(FAMILIES)

#: the fields of the families' own controls (``DialectsView.own_fields``: ROUGE's headline type, "head")
VIEW_FIELDS = views_fields()

PAGE = ps.Page("dialects", (
    Field(OptionSpec("metric", "choice", METRICS[0], choices=METRICS), "dl_metric",
          what=", ".join(METRICS[:-1]) + " or " + METRICS[-1], label="Metric"),
    Field(OptionSpec("claim", "text", "", max=MAX_CLAIM_CHARS), "dl_claim", label="Claimed number"),
    Field(OptionSpec("claim_metric", "choice", "any", choices=metric_choices()), "dl_claim_metric", label="It is"),
    Field(OptionSpec("a", "text", "", max=MAX_ROW_ID), "dl_a", label="Row A"),
    Field(OptionSpec("b", "text", "", max=MAX_ROW_ID), "dl_b", label="Row B"),
) + VIEW_FIELDS)


def texts() -> tuple[str, list[str]]:
    ss = st.session_state
    n = ss.get("dl_nrefs", 1)
    return ss.get("dl_cand", ""), [ss.get(f"dl_ref_{i}", "") for i in range(n)]


def set_texts(cand: str, refs) -> None:
    ss = st.session_state
    ss["dl_cand"] = cand
    ss["dl_nrefs"] = len(refs)
    for i, r in enumerate(refs):
        ss[f"dl_ref_{i}"] = r


def load_from_url() -> None:
    """The link on the first run, when another link is followed, and back from another page."""
    ss = st.session_state
    params, _ = PAGE.link(is_rerun=lambda: "dl_cand" in ss)
    if params is None:
        return
    warns: list[str] = []
    values = PAGE.read(params, warns)
    cand, refs = ps.read_texts(params, warns, max_refs=MAX_REFS, keep=texts() if "dl_cand" in ss else None)
    if cand is None and refs is None:
        ex = get_example(DEFAULT_EXAMPLE)
        cand, refs = ex.candidate, list(ex.references)
    set_texts(cand or "", refs or [""])
    PAGE.seed(values)
    ss["_dl_autorun"] = bool(values["claim"])
    if values["claim"]:
        ss["dl_tab"] = TABS[1]                  # a link with a claim opens on its answer
    PAGE.loaded(warns)


def query() -> dict:
    """The page's link now (texts left out when longer than a link carries)."""
    cand, refs = texts()
    out: dict = {}
    if ps.texts_fit(cand, refs):
        out["candidate"], out["ref"] = cand, list(refs)
    values = PAGE.values()
    shown = {f.param for f in dialects_view(values["metric"]).own_fields()}
    for f in VIEW_FIELDS:                       # a family view's own field, in the link only with its family
        if f.param not in shown:
            values.pop(f.param)
    return {**out, **PAGE.params(values, always=("metric",))}
