"""The Explain page's state, declared once (:data:`PAGE`), and its link in and out, on the engine of
:mod:`explainer.ui.pagestate`.

A link: ``candidate``; ``ref`` (one per reference, repeated, in order, 1-10); every family's settings under the
names of :mod:`explainer.ui.settings` (``bleu_dialect``, ``tokenize``, ``smooth``, ``lowercase``, ``stem``,
``rouge_types``, ``chrf_dialect``, ``chrf_<dialect>_<option>`` …, every option a dialect declares); ``example``
(the example picked), ``ngram`` (the n-gram selected in the table), ``colour`` (``order`` or ``reference``: what
the BLEU highlight colours encode), ``rouge_ref`` (1-based: the reference the ROUGE details are shown against)
and ``chrf_order`` (1-based: the order whose n-grams the chrF tab shows).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import streamlit as st

from explainer.examples import EXAMPLES, get_example
from explainer.options import OptionSpec
from explainer.ui import pagestate as ps
from explainer.ui import settings as ms
from explainer.ui.chrf_section import ORDER_KEY as CHRF_ORDER_KEY
from explainer.ui.families import ui_families
from explainer.ui.pagestate import MAX_REFS, Field
from explainer.ui.settings import MetricSettings

DEFAULT_EXAMPLE = "cat_mat"
COLOUR_MODES = ("order", "reference")
CHRF_ORDER_DEFAULT = 1     # the chrF tab shows character bigrams first (the first order with overlaps)
CHRF_MAX_ORDERS = 14            # character orders (at most 10) and word orders (at most 4)
MAX_NGRAM_CHARS = 1_000   # an n-gram of the table (its tokens joined); longer is no n-gram of a text shown
LAST = "_xp_last"          # the texts and view this page last showed (texts over a link's size are not in its link)

PAGE = ps.Page("explain", (
    Field(OptionSpec("example", "choice", "", choices=tuple(e.id for e in EXAMPLES)), "example",
          what="a known example", default_words="none (it is ignored)", label="Load a worked example"),
    Field(OptionSpec("ngram", "text", "", max=MAX_NGRAM_CHARS), "ngram", label="n-gram"),
    Field(OptionSpec("colour", "choice", "order", choices=COLOUR_MODES), "colour", label="Colours show"),
    Field(OptionSpec("rouge_ref", "int", 0, min=0, max=MAX_REFS - 1), "rouge_ref", base=1, late=True,
          what="a reference number", label="Reference"),
    Field(OptionSpec(CHRF_ORDER_KEY, "int", CHRF_ORDER_DEFAULT, min=0, max=CHRF_MAX_ORDERS - 1), CHRF_ORDER_KEY,
          base=1, what="an order number", label="Show the n-grams of"),
    *(f for fam in ui_families() for f in fam.view_fields()),     # what each family's section lets one pick
), known=ms.settings_params)
FAMILY_VIEW_FIELDS = tuple(f for fam in ui_families() for f in fam.view_fields())


def put_texts(cand: str, refs: list[str]) -> None:
    ss = st.session_state
    ss["candidate"] = cand
    refs = list(refs)[:MAX_REFS] or [""]
    ss["n_refs"] = len(refs)
    for i in range(MAX_REFS):
        ss[f"ref_{i}"] = refs[i] if i < len(refs) else ""


def texts() -> tuple[str, list[str]]:
    ss = st.session_state
    return ss.get("candidate", ""), [ss.get(f"ref_{i}", "") for i in range(ss.get("n_refs", 1))]


def _put_view(values: dict) -> None:
    ss = st.session_state
    ss["example"], ss["ngram"], ss["colour"] = values["example"] or "", values["ngram"] or "", values["colour"]
    if values.get("rouge_ref"):
        ss["rouge_ref"] = values["rouge_ref"]
    else:
        ps.reset("rouge_ref")
    ps.reset(CHRF_ORDER_KEY, values.get(CHRF_ORDER_KEY, CHRF_ORDER_DEFAULT))
    for f in FAMILY_VIEW_FIELDS:
        ps.reset(f.key, values.get(f.param, f.default))


def _restore() -> None:
    """Back from another page (Streamlit dropped the widgets' keys): the texts and view as this page last had
    them; the settings as any page last had them (shared)."""
    ss = st.session_state
    last = ss.get(LAST)
    if last is None or "candidate" in ss:
        return
    put_texts(*last["texts"])
    _put_view(last["view"])
    shared = ms.stored_settings()
    if shared is not None:
        ms.put_settings(shared)


@dataclass
class Link:
    """What an Explain link says: the texts, the metric settings, the view (by URL name: example, ngram, colour,
    rouge_ref 0-based), and a warning per dropped or clamped value."""

    candidate: str
    refs: list[str]
    settings: MetricSettings
    view: dict
    warnings: list[str]



def parse_link(params: Mapping[str, Sequence[str] | str], *, keep: tuple[str, list[str]] | None = None) -> Link:
    """A link's state (pure: never raises, bounded value by value). Absent texts are the example's (the link's
    ``example``, else the default one); texts over a link's size are not loaded (``keep``: the texts the page had,
    else the example's); an example's own settings apply under what the link states."""
    warns: list[str] = []
    values = PAGE.read(params, warns)
    ex = get_example(values["example"]) if values["example"] else None
    base = ex or get_example(DEFAULT_EXAMPLE)
    cand, refs = ps.read_texts(params, warns, max_refs=MAX_REFS, keep=keep)
    cand = base.candidate if cand is None else cand
    refs = list(base.references) if refs is None else refs
    settings, w = ms.settings_from_params(params)
    warns += w
    if ex is not None and ex.settings:
        # the example's own settings (as the picker applies them); parameters stated in the link win
        settings, w = ms.apply_example_settings(settings, ex.settings, skip=set(params))
        warns += w
    raw = values.pop("rouge_ref")
    values["rouge_ref"] = 0
    if raw is not None:
        values["rouge_ref"], w = PAGE["rouge_ref"].decode(raw, lo=0, hi=len(refs) - 1, default=0)
        warns += [w] if w else []
    return Link(cand, refs, settings, values, warns)


def load_from_url() -> None:
    """The link defines the page on the first run of a session and whenever it differs from what the page last
    wrote (a link followed inside the app); otherwise the widgets keep their values."""
    params, bare = PAGE.link(is_rerun=lambda: True)
    if params is None:
        _restore()
        return
    link = parse_link(params, keep=texts() if "candidate" in st.session_state else None)
    settings = link.settings
    if bare:
        link.view["example"] = DEFAULT_EXAMPLE  # the page opens on a worked example: say so, with its note
        # the session began on another page (the navigation drops its link): its settings hold here too
        settings = ms.stored_settings() or settings
    put_texts(link.candidate, link.refs)
    ms.put_settings(settings)
    _put_view(link.view)
    PAGE.loaded(link.warnings)


def view_values(n_refs: int) -> dict:
    """The view's fields now (a stale widget value of another type is no reference)."""
    ss = st.session_state
    rouge_ref = ss.get("rouge_ref")
    return {"example": ss.get("example") or "", "ngram": ss.get("ngram") or "",
            "colour": ss.get("colour") if ss.get("colour") in COLOUR_MODES else "order",
            "rouge_ref": rouge_ref if type(rouge_ref) is int and 0 <= rouge_ref < n_refs else 0,
            CHRF_ORDER_KEY: _chrf_order(ss.get(CHRF_ORDER_KEY)),
            **{f.param: _int_in(ss.get(f.key), f) for f in FAMILY_VIEW_FIELDS}}


def _int_in(v, f: Field):
    """A family's view value as the link carries it: an int within the field's bounds, else its default."""
    lo, hi = f.spec.min, f.spec.max
    ok = type(v) is int and (lo is None or v >= lo) and (hi is None or v <= hi)
    return v if ok else f.default


def _chrf_order(v) -> int:
    return v if type(v) is int and 0 <= v < CHRF_MAX_ORDERS else CHRF_ORDER_DEFAULT


def query(cand: str, refs: list[str], settings: MetricSettings, view: dict) -> dict:
    """The page's link: texts (when they fit a link), every setting of the chosen dialects, the view."""
    return {**ms.explain_link_params(cand, refs, settings), **PAGE.params(view)}


def write(cand: str, refs: list[str], settings: MetricSettings, view: dict) -> None:
    """The address bar, and what this page showed (restored on return from another page)."""
    PAGE.write(query(cand, refs, settings, view))
    st.session_state[LAST] = {"texts": (cand, list(refs)), "view": dict(view), "settings": settings}
