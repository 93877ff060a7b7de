"""The metric settings of the Corpus page: the Explain page's sidebar widgets, the same session keys.

Stand-in until the shared settings model (``explainer.ui.settings``, written by the Explain page's track) is on
this branch: it offers the same names (``MetricSettings`` with ``bleu_kwargs()`` / ``rouge_kwargs()``,
``render_settings_sidebar()``, ``explain_link_params()``), so the Corpus page switches by changing one import
(``corpus_page._settings_module``). The widgets use the Explain page's session keys (``bleu_dialect``,
``bleu_opt:<dialect>:<option>``, ``rouge_dialect``, ``rouge_types``, ``rouge_opt:<dialect>:<option>``), so a
choice made on one page is the choice of the other within a browser session; when Streamlit has dropped them
(another page was shown), they are put back from the last settings used.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from explainer.ui.permalink import ExplainState, OptionSpec, to_params
from explainer.ui.schema import (
    DEFAULT_ROUGE_TYPES,
    ROUGE_TYPE_CHOICES,
    bleu_schema,
    dialect_description,
    dialect_label,
    rouge_schema,
)

__all__ = ["MetricSettings", "render_settings_sidebar", "explain_link_params", "default_settings",
           "put_settings", "SESSION_KEY"]

SESSION_KEY = "metric_settings"
_TRI = {None: "library default", True: "on", False: "off"}
_TRI_BACK = {v: k for k, v in _TRI.items()}


@dataclass(frozen=True)
class MetricSettings:
    bleu_dialect: str
    bleu_options: Mapping[str, Any] = field(default_factory=dict)
    rouge_dialect: str = ""
    rouge_types: tuple[str, ...] = ()
    rouge_options: Mapping[str, Any] = field(default_factory=dict)

    def bleu_kwargs(self) -> dict[str, Any]:
        return {"dialect": self.bleu_dialect, **self.bleu_options}

    def rouge_kwargs(self) -> dict[str, Any]:
        return {"dialect": self.rouge_dialect, **self.rouge_options}

    def to_state_fields(self) -> dict[str, Any]:
        return {"bleu_dialect": self.bleu_dialect, "bleu_options": dict(self.bleu_options),
                "rouge_dialect": self.rouge_dialect, "rouge_types": tuple(self.rouge_types),
                "rouge_options": dict(self.rouge_options)}


def default_settings() -> MetricSettings:
    b, r = bleu_schema(), rouge_schema()
    return MetricSettings(b.default_dialect, b.defaults(b.default_dialect), r.default_dialect,
                          DEFAULT_ROUGE_TYPES(), r.defaults(r.default_dialect))


def explain_link_params(candidate: str, references: Sequence[str], settings: MetricSettings) -> dict:
    state = ExplainState(candidate=candidate, refs=list(references), **settings.to_state_fields())
    return to_params(state, bleu_schema(), rouge_schema())


def _bkey(dialect: str, name: str) -> str:
    return f"bleu_opt:{dialect}:{name}"


def _rkey(dialect: str, name: str) -> str:
    return f"rouge_opt:{dialect}:{name}"


def _to_widget(spec: OptionSpec, value: Any) -> Any:
    if spec.kind == "tristate":
        return _TRI.get(value, "library default")
    if spec.kind == "float_list":
        return ", ".join(repr(float(v)) for v in (value or ()))
    if spec.kind == "int" and value is not None:
        return int(value)
    if spec.kind == "float" and value is not None:
        return float(value)
    return value


def _from_widget(spec: OptionSpec, raw: Any) -> tuple[Any, str | None]:
    if spec.kind == "tristate":
        return _TRI_BACK.get(raw, spec.default), None
    if spec.kind == "float_list":
        try:
            vals = tuple(float(x) for x in str(raw).replace(",", " ").split())
            if not vals:
                raise ValueError
            return vals, None
        except ValueError:
            return spec.default, f"{spec.label}: “{str(raw)[:60]}” is not a list of numbers; using the default."
    if spec.kind == "bool":
        return (raw if isinstance(raw, bool) else spec.default), None
    if spec.kind == "choice":
        return (raw if raw in spec.choices else spec.default), None
    return raw, None


def put_settings(settings: MetricSettings, ss) -> None:
    b, r = bleu_schema(), rouge_schema()
    ss["bleu_dialect"] = settings.bleu_dialect
    for spec in b.specs(settings.bleu_dialect):
        ss[_bkey(settings.bleu_dialect, spec.name)] = _to_widget(spec, settings.bleu_options.get(spec.name,
                                                                                                  spec.default))
    ss["rouge_dialect"] = settings.rouge_dialect
    ss["rouge_types"] = list(settings.rouge_types)
    for spec in r.specs(settings.rouge_dialect):
        ss[_rkey(settings.rouge_dialect, spec.name)] = _to_widget(spec, settings.rouge_options.get(spec.name,
                                                                                                    spec.default))
    ss[SESSION_KEY] = settings


def _restore_if_forgotten(ss) -> None:
    """Streamlit drops the state of widgets the last page did not draw: put the last settings back (ours, or the
    Explain page's last state)."""
    if "bleu_dialect" in ss:
        return
    last = ss.get(SESSION_KEY)
    if isinstance(last, MetricSettings):
        put_settings(last, ss)
        return
    xs = ss.get("_last_state")
    if isinstance(xs, ExplainState) and xs.bleu_dialect:
        put_settings(MetricSettings(xs.bleu_dialect, xs.bleu_options, xs.rouge_dialect, tuple(xs.rouge_types),
                                    xs.rouge_options), ss)


def _option_widget(st, spec: OptionSpec, key: str) -> None:
    label, help_ = spec.label or spec.name, spec.help or None
    if key not in st.session_state:
        st.session_state[key] = _to_widget(spec, spec.default)
    if spec.kind == "bool":
        st.checkbox(label, key=key, help=help_)
    elif spec.kind == "tristate":
        st.selectbox(label, list(_TRI.values()), key=key, help=help_)
    elif spec.kind == "choice":
        st.selectbox(label, list(spec.choices), key=key, help=help_)
    elif spec.kind == "int":
        st.number_input(label, min_value=int(spec.min) if spec.min is not None else None,
                        max_value=int(spec.max) if spec.max is not None else None, step=1, key=key, help=help_)
    elif spec.kind in ("float", "optional_float"):
        st.number_input(label, min_value=float(spec.min) if spec.min is not None else None,
                        max_value=float(spec.max) if spec.max is not None else None, step=0.1, format="%g",
                        key=key, help=(help_ or "") + (" Empty = the library's default." if spec.kind ==
                                                          "optional_float" else ""))
    elif spec.kind == "float_list":
        st.text_input(label, key=key, help=(help_ or "") + " Numbers separated by commas.")


def render_settings_sidebar() -> tuple[MetricSettings, list[str]]:
    import streamlit as st

    ss = st.session_state
    _restore_if_forgotten(ss)
    b, r = bleu_schema(), rouge_schema()
    # A widget of another page with the same key is another widget to Streamlit (its id includes the page): on
    # the first run here it would start from its own default (a number input from its minimum, e.g. max order
    # 1). Writing the values back through the session-state API makes them the new widgets' values.
    keys = ["bleu_dialect", "rouge_dialect", "rouge_types"]
    if ss.get("bleu_dialect") in b.dialects:
        keys += [_bkey(ss["bleu_dialect"], spec.name) for spec in b.specs(ss["bleu_dialect"])]
    if ss.get("rouge_dialect") in r.dialects:
        keys += [_rkey(ss["rouge_dialect"], spec.name) for spec in r.specs(ss["rouge_dialect"])]
    for k in keys:
        if k in ss:
            ss[k] = ss[k]
    warns: list[str] = []
    with st.sidebar:
        st.header("BLEU settings")
        if ss.get("bleu_dialect") not in b.dialects:
            ss["bleu_dialect"] = b.default_dialect
        st.selectbox("BLEU dialect", list(b.dialects), key="bleu_dialect",
                     format_func=lambda n: dialect_label("bleu", n))
        bd = ss["bleu_dialect"]
        st.caption(dialect_description("bleu", bd))
        for spec in b.specs(bd):
            _option_widget(st, spec, _bkey(bd, spec.name))
        st.header("ROUGE settings")
        if ss.get("rouge_dialect") not in r.dialects:
            ss["rouge_dialect"] = r.default_dialect
        st.selectbox("ROUGE dialect", list(r.dialects), key="rouge_dialect",
                     format_func=lambda n: dialect_label("rouge", n))
        rd = ss["rouge_dialect"]
        st.caption(dialect_description("rouge", rd))
        if "rouge_types" not in ss:
            ss["rouge_types"] = list(DEFAULT_ROUGE_TYPES())
        st.multiselect("ROUGE types", list(ROUGE_TYPE_CHOICES), key="rouge_types",
                       help="W = weighted LCS, S = skip-bigrams (max gap 4 or unlimited *), SU = S + unigrams.")
        for spec in r.specs(rd):
            _option_widget(st, spec, _rkey(rd, spec.name))
    bopts, ropts = {}, {}
    for spec in b.specs(bd):
        v, w = _from_widget(spec, ss.get(_bkey(bd, spec.name)))
        bopts[spec.name] = v
        if w:
            warns.append(w)
    for spec in r.specs(rd):
        v, w = _from_widget(spec, ss.get(_rkey(rd, spec.name)))
        ropts[spec.name] = v
        if w:
            warns.append(w)
    types = tuple(t for t in (ss.get("rouge_types") or ()) if t in ROUGE_TYPE_CHOICES)
    settings = MetricSettings(bd, bopts, rd, types, ropts)
    ss[SESSION_KEY] = settings
    return settings, warns
