"""The metric settings every page shares: for every registered family, its dialect and options
(:class:`explainer.ui.families.DialectChoice`). One value, one set of sidebar widgets, one link form — every value
read and written by :class:`explainer.ui.pagestate.Field`, the program's one codec — so that a page shows "the
metric settings exactly as on the Explain page", and a link from one page to another carries them.

API (pages build on it):

* :class:`MetricSettings` — a frozen mapping family name -> :class:`DialectChoice` (pure, no Streamlit); every
  registered family is present. ``settings["bleu"].bind()`` is the bound dialect.
* :func:`default_settings` — every family's default dialect and options.
* :func:`settings_from_params` ``(params) -> (settings, warnings)`` and :func:`settings_to_params`
  ``(settings) -> {name: value}`` — the link form. Reading never raises: a bad value becomes a warning and the
  default.
* :func:`explain_link_params` ``(candidate, references, settings)`` — an Explain-page link with these texts.
* :func:`render_settings_sidebar` ``(*, extras=True, families=None) -> (settings, warnings)`` — every family's
  widgets in the sidebar (``extras=False``: not the families' own values, e.g. ROUGE's types on the Teach page,
  whose lesson fixes them; ``families``: only those families' widgets, the others keep their values). Widgets keep
  their values across reruns and pages: the last settings are kept under ``st.session_state[SESSION_KEY]`` and
  put back into the widgets when a page is opened (a widget drawn on another page is another widget).
* :func:`put_settings`, :func:`read_settings`, :func:`stored_settings`, :func:`current_settings` — the widgets'
  keys written, read, the last settings any page used, and the settings in force before this run draws them.

Session keys and link names: :mod:`explainer.ui.families.base`.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping, Sequence

from explainer.options import OptionSpec
from explainer.ui.families import DialectChoice, UiFamily, ui_families, ui_family
from explainer.ui.pagestate import MAX_URL_TEXT, Field, first, show

__all__ = ["MetricSettings", "default_settings", "settings_from_params", "settings_to_params",
           "explain_link_params", "apply_example_settings", "undo_example_settings", "render_settings_sidebar",
           "put_settings", "read_settings", "stored_settings", "current_settings", "SESSION_KEY",
           "settings_params", "to_widget", "from_widget", "choice_for", "configuration_link", "MAX_URL_TEXT"]

SESSION_KEY = "metric_settings"
PAGE_KEY = "_metric_settings_page"   # the page that last drew the widgets


class MetricSettings(Mapping):
    """Every choice that changes a number: family name -> :class:`DialectChoice`. A value (equal settings hash
    equal); families missing from ``choices`` get their defaults."""

    __slots__ = ("_choices", "_hash")

    def __init__(self, choices: Mapping[str, DialectChoice] | None = None) -> None:
        given = dict(choices or {})
        self._choices = {f.name: given.get(f.name) or f.default_choice() for f in ui_families()}
        self._hash = None

    def __getitem__(self, family: str) -> DialectChoice:
        return self._choices[family]

    def __iter__(self) -> Iterator[str]:
        return iter(self._choices)

    def __len__(self) -> int:
        return len(self._choices)

    def key(self) -> tuple:
        return tuple(c.key() for c in self._choices.values())

    def __eq__(self, other):
        if not isinstance(other, MetricSettings):
            return NotImplemented
        return self.key() == other.key()

    def __hash__(self):
        if self._hash is None:
            self._hash = hash(self.key())
        return self._hash

    def replace(self, *choices: DialectChoice) -> "MetricSettings":
        """These settings with ``choices`` in place of their families' current ones."""
        return MetricSettings({**self._choices, **{c.family: c for c in choices}})

    def __repr__(self) -> str:
        return "MetricSettings(" + ", ".join(f"{k}={c.dialect}{dict(c.options)}" for k, c in self.items()) + ")"


# ------------------------------------------------------------------------------------------- pure functions
def default_settings() -> MetricSettings:
    return MetricSettings()


def settings_params() -> frozenset[str]:
    """Every link parameter the settings use (each family's dialect, options and own values)."""
    return frozenset(p for f in ui_families() for p in f.params())


def _read_choice(params, fam: UiFamily, warnings: list[str]) -> DialectChoice:
    """A family's settings from a link: the dialect, then the options the chosen dialect has (a parameter shared
    by several dialects is read for the chosen one; a warning for one the chosen dialect does not have), the
    family's own values; a warning per bad value. Parameters named after another dialect (chrF's
    ``chrf_nltk_beta``, BLEU's ``bleu_weights``) keep their dialect's value for when it is picked: they are not
    this choice's, and not wrong."""
    dialect, w = fam.dialect_field().decode(first(params, fam.dialect_param) or fam.default_dialect)
    if w:
        warnings.append(w)
    opts: dict[str, Any] = {}
    mine = {f.param: (s, f) for s, f in zip(fam.option_specs(dialect), fam.option_fields(dialect))}
    for spec, f in mine.values():
        raw = first(params, f.param)
        opts[spec.name] = f.spec.default if raw is None else _decoded(f, raw, warnings)
    others = {f.param for d in fam.dialects() if d != dialect for f in fam.option_fields(d)} - set(mine)
    for param in sorted(others):
        raw = first(params, param)
        if raw is not None and _shared(fam, param):
            own = ", ".join(sorted(mine)) or "none"
            warnings.append(f"“{param}={show(raw)}” does not apply to the {dialect} dialect and is ignored "
                            f"(its link parameters: {own}).")
    for f in fam.extra_fields():
        raw = first(params, f.param)
        opts[fam.extra_option(f)] = fam.extra_value(f, f.default if raw is None else _decoded(f, raw, warnings))
    return DialectChoice(fam.name, dialect, opts)


def _shared(fam: UiFamily, param: str) -> bool:
    """True when ``param`` is a family-wide name (``tokenize``), not one dialect's own (``bleu_weights``,
    ``chrf_nltk_beta``): naming an option the chosen dialect lacks is then worth a warning."""
    prefixed = (f"{fam.name}_",)
    return not param.startswith(prefixed)


def _decoded(f: Field, raw: str, warnings: list[str]) -> Any:
    value, w = f.decode(raw)
    if w:
        warnings.append(w)
    return value


def settings_from_params(params: Mapping[str, Sequence[str] | str]) -> tuple[MetricSettings, list[str]]:
    """Query parameters (each name -> its values, or one value) -> (settings, warnings). Parameters that are
    not settings (texts, ``example``, another page's own) are ignored without a warning."""
    warnings: list[str] = []
    return MetricSettings({f.name: _read_choice(params, f, warnings) for f in ui_families()}), warnings


def choice_params(fam: UiFamily, choice: DialectChoice) -> dict[str, str]:
    """One family's link parameters: the dialect and its options (all of them, or for a family whose links carry
    only what differs from the library, those), and the family's own values."""
    out: dict[str, str] = {}
    if fam.complete_links or choice.dialect != fam.default_dialect:
        out[fam.dialect_param] = choice.dialect
    for spec, f in zip(fam.option_specs(choice.dialect), fam.option_fields(choice.dialect)):
        v = choice.options.get(spec.name, f.spec.default)
        if fam.complete_links or v != f.spec.default:
            out[f.param] = f.encode(v)
    for f in fam.extra_fields():
        v = choice.options.get(fam.extra_option(f), f.default)
        out[f.param] = f.encode(list(v) if f.multi else v)
    return out


def settings_to_params(settings: MetricSettings) -> dict[str, str]:
    """Settings -> query parameters (every family's, so a link is complete)."""
    out: dict[str, str] = {}
    for f in ui_families():
        out.update(choice_params(f, settings[f.name]))
    return out


def explain_link_params(candidate: str, references: Sequence[str], settings: MetricSettings) -> dict:
    """Query parameters of the Explain page showing this candidate and these references with ``settings``
    (``ref`` is a list: one repeated parameter per reference). Texts too long for a link are left out, as the
    Explain page's own link does (:data:`MAX_URL_TEXT`)."""
    out: dict = {}
    if len(candidate) + sum(map(len, references)) <= MAX_URL_TEXT:
        out["candidate"], out["ref"] = candidate, list(references)
    return {**out, **settings_to_params(settings)}


def apply_example_settings(settings: MetricSettings, example_settings: Mapping[str, str], *,
                           skip: Iterable[str] = ()) -> tuple[MetricSettings, list[str]]:
    """An example's link-style overrides (``{"stem": "1"}``) on the chosen dialects, except the parameters in
    ``skip`` (those a link states: they win). Settings the chosen dialects do not have are left out. Returns
    warnings for values that do not decode (a bug in the example)."""
    skip = set(skip)
    warns: list[str] = []
    out = []
    for fam in ui_families():
        c = settings[fam.name]
        opts = dict(c.options)
        for spec, f in zip(fam.option_specs(c.dialect), fam.option_fields(c.dialect)):
            raw = example_settings.get(f.param)
            if raw is not None and f.param not in skip:
                opts[spec.name] = _decoded(f, raw, warns)
        out.append(DialectChoice(fam.name, c.dialect, opts))
    return settings.replace(*out), warns


def choice_for(family: str, dialect: str, options: Mapping[str, Any] = {}, **extras: Any) -> DialectChoice:
    """The choice of ``dialect`` of ``family``: its defaults with ``options`` (those a link can carry; others are
    dropped) and the family's own values (``extras``, e.g. ROUGE's ``types=``) where given."""
    fam = ui_family(family)
    base = fam.default_choice()
    known = {s.name: f.spec.default for s, f in zip(fam.option_specs(dialect), fam.option_fields(dialect))}
    opts = {**known, **{k: v for k, v in options.items() if k in known}}
    for f in fam.extra_fields():
        name = fam.extra_option(f)
        opts[name] = fam.extra_value(f, extras[name]) if extras.get(name) else base.options.get(name)
    return DialectChoice(family, dialect, opts)


def configuration_link(family: str, dialect: str, options: Mapping[str, Any], candidate: str,
                       references: Sequence[str], types: Sequence[str] = (), *, base=None) -> dict:
    """The Explain page's parameters that show one configuration (a row of the Dialects page, a reproduce match):
    ``base``'s settings (default: every dialect's defaults) with this family's dialect and options in place (and
    the family's own values, e.g. ROUGE's ``types``, as far as the dialect computes them); texts left out when too
    long for a link."""
    settings = base if base is not None else default_settings()
    choice = choice_for(family, dialect, options, types=tuple(dict.fromkeys(types)) if types else None)
    settings = settings.replace(ui_family(family).usable(choice))
    out = explain_link_params(candidate, list(references) or [""], settings)
    out[ui_family(family).dialect_param] = dialect      # the configuration shown is named, default or not
    return out


def undo_example_settings(settings: MetricSettings, params: Iterable[str]) -> MetricSettings:
    """The options behind the link parameters ``params`` back to their defaults (on the chosen dialects): what
    an example's settings changed is undone when another example is picked."""
    keys = set(params)
    out = []
    for fam in ui_families():
        c = settings[fam.name]
        opts = dict(c.options)
        for spec, f in zip(fam.option_specs(c.dialect), fam.option_fields(c.dialect)):
            if f.param in keys:
                opts[spec.name] = f.spec.default
        out.append(DialectChoice(fam.name, c.dialect, opts))
    return settings.replace(*out)


# ------------------------------------------------------------------------------------ widgets <-> values
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
            label = spec.label or spec.name
            return spec.default, f"{label}: “{str(raw)[:60]}” is not a list of numbers; using the default."
        return spec.default, None


def _ss(ss):
    if ss is None:
        import streamlit as st

        return st.session_state
    return ss


def _read_family(ss, fam: UiFamily, warns: list[str]) -> DialectChoice:
    d = ss.get(fam.dialect_key)
    d = d if d in fam.dialects() else fam.default_dialect
    opts: dict[str, Any] = {}
    for spec, f in zip(fam.option_specs(d), fam.option_fields(d)):
        v, w = from_widget(f.spec, ss.get(f.key, to_widget(f.spec, f.spec.default)))
        opts[spec.name] = v
        if w:
            warns.append(w)
    for f in fam.extra_fields():
        raw = ss.get(f.key)
        if f.multi:   # nothing picked yet (a first run before the widgets are drawn) is the default, not empty
            value = f.default if raw is None else [c for c in (f.spec.choices or ()) if c in raw]
        else:
            value = f.default if raw is None else raw
        opts[fam.extra_option(f)] = fam.extra_value(f, value)
    return DialectChoice(fam.name, d, opts)


def read_settings(ss=None) -> tuple[MetricSettings, list[str]]:
    """The settings the widgets hold (``ss``: a session-state mapping; Streamlit's by default)."""
    ss = _ss(ss)
    warns: list[str] = []
    return MetricSettings({f.name: _read_family(ss, f, warns) for f in ui_families()}), warns


def put_choice(fam: UiFamily, choice: DialectChoice, ss) -> None:
    """One family's widgets' keys from ``choice``."""
    ss[fam.dialect_key] = choice.dialect
    for spec, f in zip(fam.option_specs(choice.dialect), fam.option_fields(choice.dialect)):
        ss[f.key] = to_widget(f.spec, choice.options.get(spec.name, f.spec.default))
    for f in fam.extra_fields():
        v = choice.options.get(fam.extra_option(f), f.default)
        ss[f.key] = list(v) if f.multi else v


def put_settings(settings: MetricSettings, ss=None) -> None:
    """Write settings into the widgets' keys (call before the widgets are drawn in this run)."""
    ss = _ss(ss)
    for fam in ui_families():
        put_choice(fam, settings[fam.name], ss)
    ss[SESSION_KEY] = settings


def stored_settings(ss=None) -> MetricSettings | None:
    """The settings the last page run used (in this browser session), or None."""
    s = _ss(ss).get(SESSION_KEY)
    return s if isinstance(s, MetricSettings) else None


def _page() -> str | None:
    """The page being run (its script hash), or None outside a Streamlit run."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return getattr(ctx, "page_script_hash", None) if ctx is not None else None


def _widgets_stale(ss) -> bool:
    """True when the widgets' keys do not hold the settings in force: Streamlit dropped them (another page did not
    draw them), or another page drew them last (this page's widgets are new widgets)."""
    first_fam = ui_families()[0]
    return first_fam.dialect_key not in ss or ss.get(PAGE_KEY, _page()) != _page()


def current_settings(ss=None) -> tuple[MetricSettings, list[str]]:
    """The settings in force before this run draws the widgets (e.g. in a callback, or a page that applies a
    link's or a sample's settings on top of the current ones): what this page's widgets hold, or, after another
    page, the last settings any page used."""
    ss = _ss(ss)
    last = stored_settings(ss)
    if last is not None and _widgets_stale(ss):
        return last, []
    return read_settings(ss)


# ---------------------------------------------------------------------------------------------- widgets
def option_widget(f: Field) -> None:
    """The widget of one option field (its session key holds the widget's value, see :func:`to_widget`)."""
    import streamlit as st

    spec = f.spec
    label, help_ = f.label or spec.label or spec.name, spec.help or None
    if f.key not in st.session_state:
        st.session_state[f.key] = to_widget(spec, spec.default)
    if spec.kind == "bool":
        st.checkbox(label, key=f.key, help=help_)
    elif spec.kind == "tristate":
        st.selectbox(label, list(_TRI.values()), key=f.key, help=help_)
    elif spec.kind == "choice":
        st.selectbox(label, list(spec.choices), key=f.key, help=help_)
    elif spec.kind == "int":
        st.number_input(label, min_value=int(spec.min) if spec.min is not None else None,
                        max_value=int(spec.max) if spec.max is not None else None, step=1, key=f.key, help=help_)
    elif spec.kind in ("float", "optional_float"):
        st.number_input(label, min_value=float(spec.min) if spec.min is not None else None,
                        max_value=float(spec.max) if spec.max is not None else None, step=0.1, format="%g",
                        key=f.key, help=(help_ or "") + (" Empty = the library's default." if spec.kind ==
                                                            "optional_float" else ""))
    elif spec.kind == "float_list":
        st.text_input(label, key=f.key, help=(help_ or "") + " Numbers separated by commas.")


def _extra_widget(f: Field) -> None:
    import streamlit as st

    if f.key not in st.session_state:
        st.session_state[f.key] = list(f.default) if f.multi else f.default
    if f.multi:
        # a set, shown in one order (the choices'): a link and the widget then agree whatever order it was picked in
        picked = st.session_state[f.key] or []
        st.session_state[f.key] = [c for c in (f.spec.choices or ()) if c in picked]
        st.multiselect(f.label, list(f.spec.choices or ()), key=f.key, help=f.spec.help or None)


def _restore_if_forgotten() -> None:
    """After another page was shown (see :func:`_widgets_stale`): put the last settings into the widgets."""
    import streamlit as st

    ss = st.session_state
    last = stored_settings(ss)
    if last is not None and _widgets_stale(ss):
        put_settings(last, ss)
    ss[PAGE_KEY] = _page()


def _family_widgets(fam: UiFamily, extras: bool) -> None:
    """A family's settings header, dialect picker (an unknown stored value falls back to the default), the chosen
    dialect's description, its options and (``extras``) the family's own values."""
    import streamlit as st

    ss = st.session_state
    st.header(f"{fam.label} settings")
    if ss.get(fam.dialect_key) not in fam.dialects():
        ss[fam.dialect_key] = fam.default_dialect
    st.selectbox(f"{fam.label} dialect", list(fam.dialects()), key=fam.dialect_key, format_func=fam.dialect_label,
                 help=fam.picker_help or None)
    d = ss[fam.dialect_key]
    st.caption(fam.dialect_description(d))
    if extras:
        for f in fam.extra_fields():
            _extra_widget(f)
    for f in fam.option_fields(d):
        option_widget(f)


def render_settings_sidebar(*, extras: bool = True, families: Iterable[str] | None = None
                            ) -> tuple[MetricSettings, list[str]]:
    """Draw the families' settings in the sidebar; return (settings, warnings about unusable input).
    ``extras=False``: not the families' own values (ROUGE's types); they keep what the other pages last used.
    ``families``: the families whose widgets are drawn (default: every one); the others keep their values."""
    import streamlit as st

    _restore_if_forgotten()
    ss = st.session_state
    drawn = set(families) if families is not None else None
    kept = {f.key: ss.get(f.key) for fam in ui_families() for f in fam.extra_fields()}
    kept_choices = stored_settings(ss)
    with st.sidebar:
        for fam in ui_families():
            if drawn is None or fam.name in drawn:
                _family_widgets(fam, extras)
    settings, warns = read_settings(ss)
    if not extras or drawn is not None:
        out = []
        for fam in ui_families():
            if drawn is not None and fam.name not in drawn and kept_choices is not None:
                out.append(kept_choices[fam.name])
                continue
            if not extras:
                # not widgets on this page: Streamlit keeps the values as plain session state
                for f in fam.extra_fields():
                    v = kept.get(f.key)
                    ss[f.key] = v if v is not None else (list(f.default) if f.multi else f.default)
                out.append(_read_family(ss, fam, warns))
        settings = settings.replace(*out)
    ss[SESSION_KEY] = settings
    return settings, warns


def families_of(settings: MetricSettings) -> list[tuple[UiFamily, DialectChoice]]:
    """(UI family, its choice) for every family, in display order."""
    return [(f, settings[f.name]) for f in ui_families()]


def ui(name: str) -> UiFamily:
    return ui_family(name)
