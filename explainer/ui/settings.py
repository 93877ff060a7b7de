"""The metric settings every page shares: the BLEU dialect and its options, the ROUGE dialect, its types and
its options. One model, one set of sidebar widgets, one URL form, so that the Explain page, the Corpus page and
any later page show "the metric settings exactly as on the Explain page", and a link from one page to another
carries them.

API (stable; other pages build on it):

* :class:`MetricSettings` — a frozen dataclass (pure, no Streamlit): ``bleu_dialect``, ``bleu_options``,
  ``rouge_dialect``, ``rouge_types``, ``rouge_options``. ``bleu_kwargs()`` / ``rouge_kwargs()`` give the
  keyword arguments of ``explain_bleu`` / ``explain_rouge`` (and their ``score_*`` / ``*_corpus`` siblings),
  ``rouge_types`` left to the caller as ``types=``.
* :func:`default_settings` — every dialect's defaults.
* :func:`settings_from_params` ``(params) -> (settings, warnings)`` and :func:`settings_to_params`
  ``(settings) -> {name: value}`` — the URL form (the Explain page's parameter names: ``bleu_dialect``,
  ``tokenize``, ``smooth``, ``lowercase``, ``stem``, ``rouge_types``, …; the codec: :mod:`explainer.ui.schema`).
  Parsing never raises: a bad value becomes a warning (a plain sentence for the page) and the default.
* :func:`explain_link_params` ``(candidate, references, settings)`` — the query parameters of an Explain-page
  link that shows this text with these settings (e.g. a corpus segment opened in the Explain view).
* :func:`render_settings_sidebar` ``(*, rouge_types=True) -> (settings, warnings)`` — draws the "BLEU settings"
  and "ROUGE settings" widgets in the sidebar and returns what they say (``rouge_types=False``: a page whose
  ROUGE types are fixed, e.g. the Teach page's lesson, draws no types picker; the types stay as the other pages
  have them). Widgets keep their values across reruns and
  across pages: the last settings are kept under ``st.session_state[SESSION_KEY]`` and put back into the
  widgets when a page is opened. (Streamlit forgets the state of widgets another page did not draw, and a
  widget drawn on another page is another widget — its id includes the page — that would start from its
  default: so whenever the page that draws the widgets changes, they are set from the stored settings.)
* :func:`put_settings` ``(settings)`` — write settings into the widgets (before they are drawn in this run;
  e.g. from a link or an example), :func:`read_settings` ``() -> (settings, warnings)`` — the widgets' values
  without drawing them, :func:`stored_settings` ``() -> settings | None`` — the last settings any page used,
  :func:`current_settings` ``() -> (settings, warnings)`` — the settings in force before this run draws the
  widgets (the widgets' values; after another page, the last stored settings; else the defaults).

Session-state keys used by the widgets: ``bleu_dialect``, ``bleu_opt:<dialect>:<option>``, ``rouge_dialect``,
``rouge_types``, ``rouge_opt:<dialect>:<option>`` (and ``SESSION_KEY``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from explainer.options import freeze
from explainer.ui.schema import (
    DEFAULT_ROUGE_TYPES,
    ROUGE_TYPE_CHOICES,
    FamilySchema,
    OptionSpec,
    bleu_schema,
    decode_value,
    dialect_description,
    dialect_label,
    encode_value,
    rouge_schema,
)

__all__ = ["MetricSettings", "default_settings", "settings_from_params", "settings_to_params",
           "explain_link_params", "apply_example_settings", "undo_example_settings", "render_settings_sidebar",
           "put_settings", "read_settings", "stored_settings", "current_settings", "SESSION_KEY", "bleu_key",
           "rouge_key", "settings_params", "to_widget", "from_widget", "parse_settings", "format_settings",
           "MAX_URL_TEXT"]

SESSION_KEY = "metric_settings"
# Texts longer than this (in all) are not put into a link (browsers and servers cut long URLs, ~8-64 KB)
MAX_URL_TEXT = 6_000
PAGE_KEY = "_metric_settings_page"   # the page that last drew the widgets


@dataclass(frozen=True)
class MetricSettings:
    """Every choice that changes a number: dialects, their options and the ROUGE types."""

    bleu_dialect: str
    bleu_options: Mapping[str, Any] = field(default_factory=dict)
    rouge_dialect: str = ""
    rouge_types: tuple[str, ...] = ()
    rouge_options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        # read-only views: a frozen dataclass whose dicts could change under it would not be a value
        object.__setattr__(self, "bleu_options", MappingProxyType(dict(self.bleu_options)))
        object.__setattr__(self, "rouge_options", MappingProxyType(dict(self.rouge_options)))
        object.__setattr__(self, "rouge_types", tuple(self.rouge_types))

    def _key(self) -> tuple:
        # the one freeze of option values (explainer.options.freeze): equal settings hash equal, and NLTK's
        # alpha=5 and alpha=5.0 stay two settings
        return (self.bleu_dialect, freeze(self.bleu_options), self.rouge_dialect, self.rouge_types,
                freeze(self.rouge_options))

    def __eq__(self, other):
        if not isinstance(other, MetricSettings):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def bleu_kwargs(self) -> dict[str, Any]:
        """``explain_bleu(candidate, refs, **settings.bleu_kwargs())``."""
        return {"dialect": self.bleu_dialect, **self.bleu_options}

    def rouge_kwargs(self) -> dict[str, Any]:
        """``explain_rouge(candidate, refs, types=..., **settings.rouge_kwargs())`` (types: see
        :func:`explainer.ui.schema.supported_types`, which drops the types a dialect does not define)."""
        return {"dialect": self.rouge_dialect, **self.rouge_options}

# ------------------------------------------------------------------------------------------- pure functions
def default_settings() -> MetricSettings:
    b, r = bleu_schema(), rouge_schema()
    return MetricSettings(b.default_dialect, b.defaults(b.default_dialect), r.default_dialect,
                          DEFAULT_ROUGE_TYPES(), r.defaults(r.default_dialect))


def settings_params(bleu: FamilySchema | None = None, rouge: FamilySchema | None = None) -> frozenset[str]:
    """The URL parameter names the settings use (dialects, ``rouge_types``, every option of every dialect)."""
    b, r = bleu or bleu_schema(), rouge or rouge_schema()
    return frozenset(b.all_params() | r.all_params() | {b.dialect_param, r.dialect_param, "rouge_types"})


def _first(params, key: str) -> str | None:
    vals = params.get(key)
    if not vals:
        return None
    return vals if isinstance(vals, str) else vals[-1]


def _show(raw: str, limit: int = 40) -> str:
    return raw if len(raw) <= limit else raw[:limit] + "…"


def _parse_family(params, schema: FamilySchema, warnings: list[str]) -> tuple[str, dict[str, Any]]:
    """A family's dialect and options from a link; a warning per bad value and per shared name (lowercase,
    tokenize, stem …) the chosen dialect does not have. Prefixed options of another dialect (bleu_weights …) are
    carried silently: a link may keep them after a dialect switch."""
    raw = _first(params, schema.dialect_param)
    dialect = schema.default_dialect
    if raw is not None:
        if raw in schema.dialects:
            dialect = raw
        else:
            warnings.append(f"“{schema.dialect_param}={_show(raw)}” is not a known dialect "
                            f"({', '.join(schema.dialects)}); using {schema.default_dialect}.")
    options = schema.defaults(dialect)
    own = {spec.param for spec in schema.specs(dialect)}
    for param in sorted(schema.all_params() - own):
        raw = _first(params, param)
        if raw is None or param.startswith(("bleu_", "rouge_")):
            continue
        mine = ", ".join(sorted(own)) or "none"
        warnings.append(f"“{param}={_show(raw)}” does not apply to the {dialect} dialect and is ignored "
                        f"(its link parameters: {mine}).")
    for spec in schema.specs(dialect):
        raw = _first(params, spec.param)
        if raw is None:
            continue
        options[spec.name], warn = decode_value(spec, raw)
        if warn:
            warnings.append(warn)
    return dialect, options


def _parse_types(params, choices: Sequence[str], default: Sequence[str], warnings: list[str]) -> tuple[str, ...]:
    raw_types = _first(params, "rouge_types")
    if raw_types is None:
        return tuple(default)
    if not raw_types.strip():
        return ()   # the link of a page with no ROUGE type picked (the page says to pick one)
    asked = [t.strip() for t in raw_types.split(",") if t.strip()][:len(choices) + 10]
    good = [t for t in asked if t in choices]
    bad = [t for t in asked if t not in choices]
    if bad:
        warnings.append(f"Unknown ROUGE type(s) {', '.join(_show(b) for b in bad)} ignored "
                        f"(known: {', '.join(choices)}).")
    if good:
        return tuple(dict.fromkeys(good))
    warnings.append(f"“rouge_types” names no known type; using {', '.join(default)}.")
    return tuple(default)


def parse_settings(params: Mapping[str, Sequence[str] | str], bleu: FamilySchema, rouge: FamilySchema, *,
                   type_choices: Sequence[str], default_types: Sequence[str]) -> tuple[MetricSettings, list[str]]:
    """A link's metric settings (absent: the dialect defaults) and a warning per bad value. Never raises: a value
    is valid exactly when the core's ``coerce`` accepts it, so adding an option to a dialect adds it to links."""
    warnings: list[str] = []
    bd, bo = _parse_family(params, bleu, warnings)
    rd, ro = _parse_family(params, rouge, warnings)
    types = _parse_types(params, type_choices, default_types, warnings)
    return MetricSettings(bd, bo, rd, types, ro), warnings


def format_settings(settings: MetricSettings, bleu: FamilySchema, rouge: FamilySchema) -> dict[str, str]:
    """Settings -> link parameters: every option of the chosen dialects, so a link is complete."""
    out = {bleu.dialect_param: settings.bleu_dialect}
    for spec in bleu.specs(settings.bleu_dialect):
        out[spec.param] = encode_value(spec, settings.bleu_options.get(spec.name, spec.default))
    out[rouge.dialect_param] = settings.rouge_dialect
    out["rouge_types"] = ",".join(settings.rouge_types)
    for spec in rouge.specs(settings.rouge_dialect):
        out[spec.param] = encode_value(spec, settings.rouge_options.get(spec.name, spec.default))
    return out


def settings_from_params(params: Mapping[str, Sequence[str] | str]) -> tuple[MetricSettings, list[str]]:
    """Query parameters (each name -> its values, or one value) -> (settings, warnings). Parameters that are
    not settings (texts, ``example``, another page's own) are ignored without a warning."""
    return parse_settings(params, bleu_schema(), rouge_schema(), type_choices=ROUGE_TYPE_CHOICES,
                          default_types=DEFAULT_ROUGE_TYPES())


def settings_to_params(settings: MetricSettings) -> dict[str, str]:
    """Settings -> query parameters (every option of the chosen dialects, so a link is complete)."""
    return format_settings(settings, bleu_schema(), rouge_schema())


def explain_link_params(candidate: str, references: Sequence[str], settings: MetricSettings) -> dict:
    """Query parameters of the Explain page showing this candidate and these references with ``settings``
    (``ref`` is a list: one repeated parameter per reference). Texts too long for a URL are left out, as the
    Explain page's own link does (:data:`MAX_URL_TEXT`)."""
    out: dict = {}
    if len(candidate) + sum(map(len, references)) <= MAX_URL_TEXT:
        out["candidate"], out["ref"] = candidate, list(references)
    return {**out, **settings_to_params(settings)}


def _families(settings: MetricSettings, bleu: FamilySchema | None, rouge: FamilySchema | None):
    b, r = bleu or bleu_schema(), rouge or rouge_schema()
    return ((b, settings.bleu_dialect, dict(settings.bleu_options)),
            (r, settings.rouge_dialect, dict(settings.rouge_options)))


def apply_example_settings(settings: MetricSettings, example_settings: Mapping[str, str], *,
                           skip: Sequence[str] = (), bleu: FamilySchema | None = None,
                           rouge: FamilySchema | None = None) -> tuple[MetricSettings, list[str]]:
    """An example's link-style overrides (``{"stem": "1"}``) on the chosen dialects, except the parameters in
    ``skip`` (those a link states: they win). Settings the chosen dialects do not have are left out. Returns
    warnings for values that do not decode (a bug in the example)."""
    skip = set(skip)
    warns: list[str] = []
    (b, _, bo), (r, _, ro) = fams = _families(settings, bleu, rouge)
    for schema, dialect, opts in fams:
        for spec in schema.specs(dialect):
            raw = example_settings.get(spec.param)
            if raw is None or spec.param in skip:
                continue
            opts[spec.name], w = decode_value(spec, raw)
            warns += [w] if w else []
    return MetricSettings(settings.bleu_dialect, bo, settings.rouge_dialect, settings.rouge_types, ro), warns


def undo_example_settings(settings: MetricSettings, params: Sequence[str], *, bleu: FamilySchema | None = None,
                          rouge: FamilySchema | None = None) -> MetricSettings:
    """The options behind the link parameters ``params`` back to their defaults (on the chosen dialects): what
    an example's settings changed is undone when another example is picked."""
    keys = set(params)
    (_, _, bo), (_, _, ro) = fams = _families(settings, bleu, rouge)
    for schema, dialect, opts in fams:
        for spec in schema.specs(dialect):
            if spec.param in keys:
                opts[spec.name] = spec.default
    return MetricSettings(settings.bleu_dialect, bo, settings.rouge_dialect, settings.rouge_types, ro)


# ------------------------------------------------------------------------------------ widgets <-> values
def bleu_key(dialect: str, name: str) -> str:
    return f"bleu_opt:{dialect}:{name}"


def rouge_key(dialect: str, name: str) -> str:
    return f"rouge_opt:{dialect}:{name}"


_TRI = {None: "library default", True: "on", False: "off"}
_TRI_BACK = {v: k for k, v in _TRI.items()}


def to_widget(spec: OptionSpec, value: Any) -> Any:
    """An option value as its widget holds it."""
    if spec.kind == "tristate":
        return _TRI.get(value, "library default")
    if spec.kind == "float_list":
        # repr: the shortest text that reads back as the same float (f"{v:g}" would turn 1/3 into 0.333333)
        return ", ".join(repr(float(v)) for v in (value or ()))
    if spec.kind == "int" and value is not None:
        return int(value)
    if spec.kind == "float" and value is not None:
        return float(value)
    return value


def from_widget(spec: OptionSpec, raw: Any) -> tuple[Any, str | None]:
    """A widget's value -> (option value, warning or None), by the core's rule (``spec.coerce``, the one the cores
    and the links use). Anything a widget could hold that the option does not accept (a stale value of another
    kind) gives the default; a bad list typed by the user also a warning."""
    if spec.kind == "tristate":
        return _TRI_BACK.get(raw, spec.default), None
    if raw is None:
        return (None if spec.kind == "optional_float" else spec.default), None
    try:
        return spec.coerce(str(raw) if spec.kind == "float_list" else raw), None
    except (ValueError, TypeError):
        if spec.kind == "float_list":
            return spec.default, f"{spec.label}: “{str(raw)[:60]}” is not a list of numbers; using the default."
        return spec.default, None


def _read_family(ss, schema: FamilySchema, dialect: str, key, warns: list[str]) -> dict[str, Any]:
    out = {}
    for spec in schema.specs(dialect):
        v, w = from_widget(spec, ss.get(key(dialect, spec.name), to_widget(spec, spec.default)))
        out[spec.name] = v
        if w:
            warns.append(w)
    return out


def read_settings(ss=None) -> tuple[MetricSettings, list[str]]:
    """The settings the widgets hold (``ss``: a session-state mapping; Streamlit's by default)."""
    if ss is None:
        import streamlit as st

        ss = st.session_state
    b, r = bleu_schema(), rouge_schema()
    warns: list[str] = []
    bd = ss.get("bleu_dialect")
    bd = bd if bd in b.dialects else b.default_dialect
    rd = ss.get("rouge_dialect")
    rd = rd if rd in r.dialects else r.default_dialect
    # no ROUGE types picked yet (a first run before the widgets are drawn) is the default types, not an empty pick
    picked = ss.get("rouge_types")
    types = DEFAULT_ROUGE_TYPES() if picked is None else tuple(t for t in picked if t in ROUGE_TYPE_CHOICES)
    return MetricSettings(bd, _read_family(ss, b, bd, bleu_key, warns), rd, types,
                          _read_family(ss, r, rd, rouge_key, warns)), warns


def put_settings(settings: MetricSettings, ss=None) -> None:
    """Write settings into the widgets' keys (call before the widgets are drawn in this run)."""
    if ss is None:
        import streamlit as st

        ss = st.session_state
    b, r = bleu_schema(), rouge_schema()
    ss["bleu_dialect"] = settings.bleu_dialect
    for spec in b.specs(settings.bleu_dialect):
        ss[bleu_key(settings.bleu_dialect, spec.name)] = to_widget(spec, settings.bleu_options.get(spec.name,
                                                                                                    spec.default))
    ss["rouge_dialect"] = settings.rouge_dialect
    ss["rouge_types"] = list(settings.rouge_types)
    for spec in r.specs(settings.rouge_dialect):
        ss[rouge_key(settings.rouge_dialect, spec.name)] = to_widget(spec, settings.rouge_options.get(spec.name,
                                                                                                      spec.default))
    ss[SESSION_KEY] = settings


def stored_settings(ss=None) -> MetricSettings | None:
    """The settings the last page run used (in this browser session), or None."""
    if ss is None:
        import streamlit as st

        ss = st.session_state
    s = ss.get(SESSION_KEY)
    return s if isinstance(s, MetricSettings) else None


def _page() -> str | None:
    """The page being run (its script hash), or None outside a Streamlit run."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return getattr(ctx, "page_script_hash", None) if ctx is not None else None


def _widgets_stale(ss) -> bool:
    """True when the widgets' keys do not hold the settings in force: Streamlit dropped them (another page did not
    draw them), or another page drew them last (this page's widgets are new widgets)."""
    return "bleu_dialect" not in ss or ss.get(PAGE_KEY, _page()) != _page()


def current_settings(ss=None) -> tuple[MetricSettings, list[str]]:
    """The settings in force before this run draws the widgets (e.g. in a callback, or a page that applies a
    link's or a sample's settings on top of the current ones): what this page's widgets hold, or, after another
    page, the last settings any page used."""
    if ss is None:
        import streamlit as st

        ss = st.session_state
    last = stored_settings(ss)
    if last is not None and _widgets_stale(ss):
        return last, []
    return read_settings(ss)


# ---------------------------------------------------------------------------------------------- widgets
def _option_widget(spec: OptionSpec, key: str) -> None:
    import streamlit as st

    label, help_ = spec.label or spec.name, spec.help or None
    if key not in st.session_state:
        st.session_state[key] = to_widget(spec, spec.default)
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


def _restore_if_forgotten() -> None:
    """After another page was shown (see :func:`_widgets_stale`): put the last settings into the widgets."""
    import streamlit as st

    ss = st.session_state
    last = stored_settings(ss)
    if last is not None and _widgets_stale(ss):
        put_settings(last, ss)
    ss[PAGE_KEY] = _page()


def _dialect_picker(family: str, schema) -> str:
    """A family's settings header, dialect selectbox (an unknown stored value falls back to the default) and
    the chosen dialect's description; returns the chosen dialect."""
    import streamlit as st

    ss, key, name = st.session_state, f"{family}_dialect", family.upper()
    st.header(f"{name} settings")
    if ss.get(key) not in schema.dialects:
        ss[key] = schema.default_dialect
    st.selectbox(f"{name} dialect", list(schema.dialects), key=key, format_func=lambda n: dialect_label(family, n))
    st.caption(dialect_description(family, ss[key]))
    return ss[key]


def render_settings_sidebar(*, rouge_types: bool = True) -> tuple[MetricSettings, list[str]]:
    """Draw the BLEU and ROUGE settings in the sidebar; return (settings, warnings about unusable input).
    ``rouge_types=False``: no ROUGE types picker; the settings keep the types the other pages last used."""
    import streamlit as st

    _restore_if_forgotten()
    ss = st.session_state
    kept_types = tuple(ss.get("rouge_types") or ())
    b, r = bleu_schema(), rouge_schema()
    with st.sidebar:
        bd = _dialect_picker("bleu", b)
        for spec in b.specs(bd):
            _option_widget(spec, bleu_key(bd, spec.name))
        rd = _dialect_picker("rouge", r)
        if rouge_types:
            if "rouge_types" not in ss:
                ss["rouge_types"] = list(DEFAULT_ROUGE_TYPES())
            st.multiselect("ROUGE types", list(ROUGE_TYPE_CHOICES), key="rouge_types",
                           help="W = weighted LCS, S = skip-bigrams (max gap 4 or unlimited *), SU = S + unigrams.")
        for spec in r.specs(rd):
            _option_widget(spec, rouge_key(rd, spec.name))
    settings, warns = read_settings(ss)
    if not rouge_types:
        # not a widget on this page: Streamlit keeps the value as plain session state
        ss["rouge_types"] = list(kept_types if "rouge_types" in ss or kept_types else DEFAULT_ROUGE_TYPES())
        settings = MetricSettings(settings.bleu_dialect, settings.bleu_options, settings.rouge_dialect,
                                  tuple(ss["rouge_types"]), settings.rouge_options)
    ss[SESSION_KEY] = settings
    return settings, warns
