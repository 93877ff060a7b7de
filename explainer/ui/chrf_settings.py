"""The chrF settings of the pages: the chrF dialect (sacreBLEU's ``CHRF`` or NLTK's ``chrf_score``) and its
options, as one value (:class:`ChrfSettings`), sidebar widgets, link fields of :mod:`explainer.ui.pagestate`, and
the trace computed once per (texts, settings) for every session (:func:`trace`).

The widgets are built from the dialects' own option specs (``explainer.chrf.dialect_options``), as the BLEU and
ROUGE settings are (:mod:`explainer.ui.settings`): adding an option to a chrF dialect adds its widget and its
link parameter. Session keys: ``chrf_dialect`` and ``chrf_opt:<dialect>:<option>``; link parameters:
``chrf_dialect`` and ``chrf_<dialect>_<option>`` (each dialect keeps its own values: sacreBLEU's β = 2 and NLTK's
β = 3 are two settings), written only when they differ from the library's default.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping, MutableMapping

from explainer.options import OptionSpec, freeze
from explainer.ui import settings as ms
from explainer.ui.pagestate import Field
from explainer.ui.schema import OptionSpec as UiOptionSpec
from explainer.ui.schema import option_label

__all__ = ["ChrfSettings", "DIALECT_KEY", "chrf_key", "chrf_param", "dialects", "default_dialect", "specs",
           "fields", "read", "sidebar", "trace", "view_values", "ORDER_KEY"]

DIALECT_KEY = "chrf_dialect"
ORDER_KEY = "chrf_order"        # the order shown in detail on the Explain page (0-based; 1-based in the link)
MAX_ORDERS = 14                 # character orders (at most 10) and word orders (at most 4)


def chrf_key(dialect: str, name: str) -> str:
    return f"chrf_opt:{dialect}:{name}"


def chrf_param(dialect: str, name: str) -> str:
    return f"chrf_{dialect}_{name}"


@lru_cache(maxsize=1)
def _schema() -> tuple[str, tuple[str, ...], dict]:
    from explainer.chrf import DEFAULT_DIALECT, DIALECTS, dialect_names

    names = tuple(dialect_names())
    # "(chrF)" in the labels: the sidebar also shows BLEU's "lowercase"; each widget's name must say which it is
    return DEFAULT_DIALECT, names, {n: tuple(UiOptionSpec.of(o, chrf_param(n, o.name),
                                                             label=f"{option_label(o.name)} (chrF)")
                                             for o in DIALECTS[n].option_specs(scope="segment"))
                                    for n in names}


def dialects() -> tuple[str, ...]:
    return _schema()[1]


def default_dialect() -> str:
    return _schema()[0]


def specs(dialect: str) -> tuple[UiOptionSpec, ...]:
    """The dialect's options as the widgets and the link see them (``param``: the link's name)."""
    return _schema()[2].get(dialect, ())


@dataclass(frozen=True)
class ChrfSettings:
    """The chrF dialect and its options (a value: equal settings hash equal)."""

    dialect: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def _key(self) -> tuple:
        return self.dialect, freeze(dict(self.options))

    def __eq__(self, other):
        return isinstance(other, ChrfSettings) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def kwargs(self) -> dict[str, Any]:
        """``explain_chrf(candidate, refs, **settings.kwargs())``."""
        return {"dialect": self.dialect, **self.options}


def _label(name: str) -> str:
    from explainer.chrf import DIALECTS

    cls = DIALECTS.get(name)
    return f"{name} — {cls.label}" if cls is not None and cls.label else name


# ------------------------------------------------------------------------------------------- link fields
def fields() -> tuple[Field, ...]:
    """The page-state fields of the chrF settings (the dialect, then every dialect's options)."""
    out = [Field(OptionSpec(DIALECT_KEY, "choice", default_dialect(), choices=dialects()), DIALECT_KEY,
                 label="chrF dialect")]
    for d in dialects():
        for s in specs(d):
            core = OptionSpec(s.param, s.type, ms.to_widget(s, s.default), help=s.help, choices=s.choices,
                              min=s.min, max=s.max, label=s.label)
            out.append(Field(core, chrf_key(d, s.name), label=s.label))
    return tuple(out)


def view_values(ss: Mapping) -> dict[str, Any]:
    """The chrF fields' values now, by link name (a stale value of another type is the default)."""
    values = {DIALECT_KEY: ss.get(DIALECT_KEY) if ss.get(DIALECT_KEY) in dialects() else default_dialect()}
    for d in dialects():
        for s in specs(d):
            v, _ = ms.from_widget(s, ss.get(chrf_key(d, s.name), ms.to_widget(s, s.default)))
            values[s.param] = ms.to_widget(s, v)
    return values


# ----------------------------------------------------------------------------------------- widgets, value
def read(ss: Mapping | None = None) -> ChrfSettings:
    """The settings the widgets hold (before or after they are drawn)."""
    if ss is None:
        import streamlit as st

        ss = st.session_state
    d = ss.get(DIALECT_KEY)
    d = d if d in dialects() else default_dialect()
    return ChrfSettings(d, {s.name: ms.from_widget(s, ss.get(chrf_key(d, s.name), ms.to_widget(s, s.default)))[0]
                            for s in specs(d)})


def put(settings: ChrfSettings, ss: MutableMapping) -> None:
    ss[DIALECT_KEY] = settings.dialect
    for s in specs(settings.dialect):
        ss[chrf_key(settings.dialect, s.name)] = ms.to_widget(s, settings.options.get(s.name, s.default))


def sidebar() -> ChrfSettings:
    """The "chrF settings" in the sidebar: the dialect, its description and its options."""
    import streamlit as st

    from explainer.chrf import DIALECTS

    ss = st.session_state
    with st.sidebar:
        st.header("chrF settings")
        if ss.get(DIALECT_KEY) not in dialects():
            ss[DIALECT_KEY] = default_dialect()
        st.selectbox("chrF dialect", list(dialects()), key=DIALECT_KEY, format_func=_label,
                     help="chrF++ is chrF with word n-grams too: word order 2 (sacreBLEU).")
        d = ss[DIALECT_KEY]
        st.caption(DIALECTS[d].description)
        for s in specs(d):
            ms._option_widget(s, chrf_key(d, s.name))  # the BLEU and ROUGE settings' widgets
    return read(ss)


# ---------------------------------------------------------------------------------------------- compute
def trace(candidate: str, refs: list[str], settings: ChrfSettings):
    """(the chrF trace, None) or (None, a message for the page), computed once per (texts, settings) and shared
    by every session (:mod:`explainer.ui.compute`)."""
    from explainer.ui.compute import shared

    key = ("chrf", candidate, tuple(refs), settings)
    cost = len(candidate) + sum(map(len, refs)) + 1
    return shared.get(key, cost, lambda: _compute(candidate, refs, settings))


def _compute(candidate: str, refs: list[str], settings: ChrfSettings):
    from explainer.chrf import MAX_TRACE_CHARS, explain_chrf

    n = len(candidate) + sum(map(len, refs))
    if n > MAX_TRACE_CHARS:   # said before any work, in the page's terms
        return None, (f"these texts have {n:,} characters in all, more than the {MAX_TRACE_CHARS:,} the "
                      "step-by-step chrF view can show at once. Shorten the candidate or the references to see "
                      "chrF.")
    try:
        return explain_chrf(candidate, refs, **settings.kwargs()), None
    except ValueError as e:   # options the dialect refuses together (NLTK: min_len > max_len)
        return None, str(e)
