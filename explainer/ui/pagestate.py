"""Page state as data: one engine under every page.

A page declares its fields once (:class:`Field`: the URL name, the session key, the type, bounds and default
as an :class:`explainer.options.OptionSpec`, a label) in a :class:`Page`, and the engine does the rest:

* :meth:`Page.link` — the link's parameters to load, or None when the widgets keep their values: on the first
  run of a session, whenever the address differs from what the page last wrote (another link followed in the
  same tab), and back from another page (Streamlit dropped this page's widget values; the page's last link has
  them). A link the server dropped whole (over its limits) gets the dropped-link notice.
* :meth:`Page.read` — the declared fields' values from a link, bounded value by value before any conversion;
  one warning per dropped or clamped value, one for the parameters nobody knows; :func:`read_texts` does the
  same for a page's candidate and references.
* :meth:`Page.seed` — the widgets' session keys from those values; :meth:`Page.warnings` shows the warnings once.
* :meth:`Page.write` — the address bar from the page's values (only what differs from the defaults).
* :func:`choice` — on every run, before a choice widget is drawn, the stored value reconciled with the options
  it is drawn with (a value that is no longer an option falls back to a valid one; the widget stores an id or
  an index, never its display string). Streamlit's selectbox sends the browser's *display string* back: when
  the labels change (another lesson has another number of steps; an exercise checked gets a "✓"), the old
  string is no longer an option and arrives as the stored value; writing the reconciled value back makes the
  browser show it with the current labels. :func:`shown` is what a callback (run before the script) reads.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

import streamlit as st

from explainer.options import OptionSpec, coerce_value

__all__ = ["Field", "Page", "choice", "shown", "read_texts", "first", "show", "MAX_REFS", "MAX_URL_TEXT"]

MAX_REFS = 10
#: Texts longer than this (in all) are not put into a link (browsers and servers cut long URLs, ~8-64 KB; the page
#: says so and its link then carries the rest of its state only), and a link carrying more is not loaded, on every
#: page (:func:`read_texts`)
MAX_URL_TEXT = 6_000
MAX_SHOWN = 40          # characters of a link value quoted in a warning
_SHOWN = "_ps_shown"
_INT = re.compile(r"[+-]?[0-9]{1,18}")   # ASCII digits only ('²' and '٣' are str.isdigit), bounded before int()
_DIGITS = re.compile(r"\s*[+-]?[0-9]+\s*")   # a whole number of any length (too long for the bound above)
# A number in a link: ASCII digits, a point and an exponent, bounded (float() also reads '١.٥' as 1.5)
_FLOAT = re.compile(r"[+-]?(?:[0-9]{1,40}(?:\.[0-9]{0,40})?|\.[0-9]{1,40})(?:[eE][+-]?[0-9]{1,4})?")
_LIBRARY_DEFAULT = ("", "default", "none")   # a tristate or optional number left to the library

Params = Mapping[str, Sequence[str] | str]


def show(raw: str, limit: int = MAX_SHOWN) -> str:
    """A link value as a warning quotes it (the page escapes it when it shows it)."""
    return raw if len(raw) <= limit else raw[:limit] + "…"


def first(params: Params, name: str) -> str | None:
    """The last value of ``name`` in a link (a repeated parameter: the last one wins), or None."""
    v = params.get(name)
    if not v:
        return None
    return v if isinstance(v, str) else v[-1]


def _all(params: Params, name: str) -> list[str] | None:
    v = params.get(name)
    if v is None:
        return None
    return [v] if isinstance(v, str) else list(v)


@dataclass(frozen=True)
class Field:
    """One value of a page's state. ``spec.name`` is the URL parameter; ``spec`` gives the type, default, bounds
    and choices (the cores' one coercion rule); ``key`` is the session key ("" = a value only of the link);
    ``base`` shifts an int in the link (1-based numbers: ``step=1`` is the index 0); ``what`` names the value in
    a warning ("a seed"); ``multi``: a comma-separated list of choices; ``late``: the bounds are known later in
    the run (the raw value is kept and :meth:`Page.settle` bounds it); ``label``: the widget's label."""

    spec: OptionSpec
    key: str = ""
    base: int = 0
    what: str = ""
    multi: bool = False
    late: bool = False
    label: str = ""
    default_words: str = ""
    step: float = 0.0       # a float in the link must be a multiple of this (a slider's step)
    message: str = ""       # the warning in the page's own words ({param}, {raw}, {default}), if not the usual
    verb: str = "using"     # what the page does instead: "using 1", "showing segment 1"

    @property
    def param(self) -> str:
        return self.spec.name

    @property
    def default(self) -> Any:
        d = self.spec.default
        return list(d) if self.multi else d

    def _range(self, lo: float | None, hi: float | None) -> str:
        if self.spec.type == "int" and lo is not None and hi is not None:
            return f" ({int(lo) + self.base}–{int(hi) + self.base:,})"
        if self.spec.type == "float" and lo is not None and hi is not None:
            return f" ({lo:g}–{hi:g})"
        return ""

    def _words(self) -> str:
        s = self.spec
        if self.what:
            return self.what
        if s.type == "choice" or self.multi:
            lead = "a comma-separated list of" if self.multi else "one of"
            return f"{lead} {', '.join(map(str, s.choices or ()))}"
        if s.type == "bool" and s.default is None:
            return "on, off or default (1/0, true/false, yes/no, on/off, default)"
        if s.type == "bool":
            return "on or off (1/0, true/false, yes/no, on/off)"
        if s.type == "optional_float":
            return "a number or default"
        if s.type == "float_list":
            return "a list of numbers separated by commas"
        if s.type == "int":
            return "a whole number"
        if s.type == "float" and self.step:
            return f"a number in steps of {self.step:g}"
        if s.type == "text":
            return f"a text of at most {int(s.max or 0):,} characters"
        return "a number"

    def warning(self, raw: str, lo: float | None = None, hi: float | None = None, default: Any = None,
                choices: Sequence | None = None) -> str:
        d = self.default if default is None else default
        words = self.default_words or (",".join(d) if self.multi else
                                       f"{d + self.base:,}" if self.spec.type == "int" else str(d))
        if self.message:
            return self.message.format(param=self.param, raw=show(raw), default=words)
        lo = self.spec.min if lo is None else lo
        hi = self.spec.max if hi is None else hi
        if choices is not None:
            return (f"“{self.param}={show(raw)}” is not {self._words()} ({', '.join(map(str, choices))}); "
                    f"{self.verb} {words}.")
        if self.spec.type == "text":
            return f"The link's {self.param} is longer than {int(self.spec.max or 0):,} characters; it is not loaded."
        if self.spec.type == "int" and _DIGITS.fullmatch(raw) and not _INT.fullmatch(raw.strip()):
            return (f"“{self.param}={show(raw)}” has more than 18 digits (the most a link's whole number may have); "
                    f"{self.verb} {words}.")
        bound = self._out_of_range(raw, lo, hi)
        if bound:
            return f"“{self.param}={show(raw)}” is out of range ({bound}); {self.verb} {words}."
        return f"“{self.param}={show(raw)}” is not {self._words()}{self._range(lo, hi)}; {self.verb} {words}."

    def _out_of_range(self, raw: str, lo: float | None, hi: float | None) -> str:
        """The bound a number of the right kind passes ("must be at least 0"), or "" (not a number of the kind)."""
        t = self.spec.type
        if t not in ("float", "optional_float") or (lo is None and hi is None) or len(raw) > 40:
            return ""
        if not _FLOAT.fullmatch(raw.strip()):
            return ""       # not a number in ASCII digits (float() reads '١.٥', 'nan', 'inf')
        x = float(raw.strip())
        if (lo is None or x >= lo) and (hi is None or x <= hi):
            return ""
        if lo is not None and hi is not None:
            return f"must be between {lo:g} and {hi:g}"
        return f"must be at least {lo:g}" if lo is not None else f"must be at most {hi:g}"

    def decode(self, raw: str, *, lo: int | None = None, hi: int | None = None, default: Any = None,
               choices: Sequence | None = None) -> tuple[Any, str | None]:
        """(value, None) or (default, warning): bounded before any conversion. ``lo``/``hi``/``default``/
        ``choices``: the bounds, default and choices of this run when they are narrower than the spec's (a
        lesson's steps, a sample's systems)."""
        s = self.spec
        if choices is not None:
            if raw in choices:
                return raw, None
            return (self.default if default is None else default), self.warning(raw, default=default,
                                                                                choices=choices)
        try:
            if self.multi:
                return self._decode_multi(raw, default)
            if s.type == "int":
                if not _INT.fullmatch(raw.strip()):
                    raise ValueError
                v = int(raw.strip()) - self.base
                low = s.min if lo is None else lo
                high = s.max if hi is None else hi
                if (low is not None and v < low) or (high is not None and v > high):
                    raise ValueError
                return v, None
            if s.type == "bool" and s.default is None and raw.strip().lower() in _LIBRARY_DEFAULT:
                return None, None        # a tristate: "the library's default"
            if s.type == "bool":
                return coerce_value(s.name, "bool", raw.strip()), None
            if s.type == "optional_float" and raw.strip().lower() in _LIBRARY_DEFAULT:
                return None, None
            if not _ascii_numbers(s.type, raw):
                raise ValueError
            if s.type == "float" and self.step:
                v = s.coerce(raw.strip())
                if abs(v / self.step - round(v / self.step)) > 1e-9:
                    raise ValueError
                return round(v / self.step) * self.step, None
            return s.coerce(raw if s.type in ("text", "choice") else raw.strip()), None
        except (ValueError, TypeError):
            return (self.default if default is None else default), self.warning(raw, lo, hi, default)

    def _decode_multi(self, raw: str, default: Any) -> tuple[Any, str | None]:
        """A comma-separated list: the known items in the choices' order (a set: one order for one value); unknown
        ones are named in a warning and dropped, so the rest of what the link says is kept; none known: the
        default."""
        choices = tuple(self.spec.choices or ())
        if not raw.strip():
            return [], None     # none chosen (absent: the default)
        items = [t.strip() for t in raw.split(",", len(choices) + 10) if t.strip()][:len(choices) + 10]
        good = [c for c in choices if c in items]
        bad = [t for t in items if t not in choices]
        if not items:
            return (self.default if default is None else default), self.warning(raw, default=default)
        if not bad:
            return good, None
        if good:
            return good, (f"“{self.param}”: {', '.join(show(b, 30) for b in bad[:5])} "
                          f"{'is' if len(bad) == 1 else 'are'} not one of {', '.join(map(str, choices))}; ignored.")
        return (self.default if default is None else default), self.warning(raw, default=default)

    def encode(self, value: Any) -> str:
        """The value as the link carries it; ``decode`` reads it back to the same value (floats by ``repr``,
        the shortest text that does; a slider's steps as ``:g``)."""
        t = self.spec.type
        if self.multi:
            return ",".join(map(str, value))
        if value is None and (t == "optional_float" or (t == "bool" and self.spec.default is None)):
            return "default"
        if t == "bool":
            return "1" if value else "0"
        if t == "int":
            return str(int(value) + self.base)
        if t in ("float", "optional_float"):
            return f"{float(value):g}" if self.step else _float_text(value)
        if t == "float_list":
            return ",".join(_float_text(v) for v in value)
        return str(value)


def _ascii_numbers(type_: str, raw: str) -> bool:
    """Every number of a float, optional float or float list written in ASCII and bounded (other types: True)."""
    if type_ in ("float", "optional_float"):
        return bool(_FLOAT.fullmatch(raw.strip()))
    if type_ == "float_list":
        items = raw.replace(",", " ").split()
        return len(items) <= 100 and all(_FLOAT.fullmatch(t) for t in items)
    return True


def _float_text(v: Any) -> str:
    """The shortest text that reads back as the same float (``repr``), a whole number without its ".0"."""
    r = repr(float(v))
    return r[:-2] if r.endswith(".0") else r


MAX_NAMES_SHOWN = 5


def unknown_warning(unknown: Sequence[str], warns: list[str]) -> None:
    """One warning for the parameters no one on this page knows (the first few named, the rest counted)."""
    if not unknown:
        return
    shown = ", ".join(f"“{show(k, 30)}”" for k in unknown[:MAX_NAMES_SHOWN])
    more = f" and {len(unknown) - MAX_NAMES_SHOWN:,} more" if len(unknown) > MAX_NAMES_SHOWN else ""
    warns.append(f"The link's parameter(s) {shown}{more} mean nothing on this page; they were dropped.")


def read_texts(params: Params, warns: list[str], *, max_refs: int = MAX_REFS, max_chars: int = MAX_URL_TEXT,
               what: str = "", keep: tuple[str, Sequence[str]] | None = None) -> tuple[str | None, list[str] | None]:
    """A link's candidate (``candidate``) and references (``ref``, repeated; at most ``max_refs``), None when
    absent. Texts over ``max_chars`` in all (what a link may carry, on every page: the page's own links never
    hold more) are not loaded, with a warning: the page keeps ``keep`` (the texts it has, typed in this tab)
    instead, or returns (None, None) (the page's default texts)."""
    cand = first(params, "candidate")
    refs = _all(params, "ref")
    if refs is not None:
        if len(refs) > max_refs:
            warns.append(f"The link has {len(refs)} references; the page shows at most {max_refs}, so only the first "
                         f"{max_refs} are used{what}.")
            refs = refs[:max_refs]
        refs = refs or [""]
    total = len(cand or "") + sum(map(len, refs or ()))
    if total > max_chars:
        kept = keep is not None and (keep[0] or any(keep[1]))
        warns.append(f"The link's texts have {total:,} characters, more than a link may carry "
                     f"({max_chars:,}); they are not loaded" + ("; the page keeps the texts it had." if kept else "."))
        return (keep[0], list(keep[1])) if kept else (None, None)
    return cand, refs


def texts_fit(cand: str, refs: Sequence[str], limit: int = MAX_URL_TEXT) -> bool:
    return len(cand) + sum(map(len, refs)) <= limit


@dataclass
class Page:
    """A page's state: its fields, the other parameters its link may carry (``known``: e.g. the metric
    settings', read elsewhere), and the session-key prefix of its bookkeeping (``name``)."""

    name: str
    fields: tuple[Field, ...]
    known: Callable[[], Iterable[str]] = lambda: ()
    reload_on_return: bool = True
    texts: bool = True                  # the link may carry ``candidate`` / ``ref``
    dropped_words: Callable[[str], str] = lambda s: s   # the dropped-link sentence in this page's words
    max_chars: int | None = None        # no value of the page's own fields is longer (checked first)
    _by_param: dict = dataclasses.field(init=False, repr=False)

    def __post_init__(self):
        self._by_param = {f.param: f for f in self.fields}

    def __getitem__(self, param: str) -> Field:
        return self._by_param[param]

    def names(self) -> set[str]:
        """Every parameter name this page's link may carry."""
        return set(self._by_param) | set(self.known()) | ({"candidate", "ref"} if self.texts else set())

    # ------------------------------------------------------------------ keys
    @property
    def _last(self) -> str:
        return f"_ps_{self.name}_last"

    @property
    def _warns(self) -> str:
        return f"_ps_{self.name}_warnings"

    @property
    def _loaded(self) -> str:
        return f"_ps_{self.name}_loaded"

    # ------------------------------------------------------------------ in
    def link(self, *, is_rerun: Callable[[], bool] = lambda: False) -> tuple[dict | None, bool]:
        """(the parameters to load, or None when the widgets keep their values; True when the page was opened
        without a link — the navigation entry). ``is_rerun``: whether this page's widgets are still in session
        state (a rerun of the page, not a return to it)."""
        ss = st.session_state
        params = {k: st.query_params.get_all(k) for k in st.query_params.keys()}
        bare = not params
        if not ss.get(self._loaded):
            if bare:
                self._dropped_link()
            return params, bare
        if params and params == ss.get(self._last):
            return None, bare
        if params and not set(params) & self.names():
            params, bare = {}, True     # another page's parameters after switching pages: no link of this page
        if not params:
            if is_rerun() or not self.reload_on_return:
                return None, bare
            params = ss.get(self._last) or {}
        return params, bare

    def _dropped_link(self) -> None:
        from explainer.ui.page_links import dropped_link_warning

        msg = dropped_link_warning(self.name)
        if msg:
            msg = self.dropped_words(msg)
            st.session_state[self._warns] = list(st.session_state.get(self._warns) or []) + [msg]

    def read(self, params: Params, warns: list[str], *, only: Iterable[str] | None = None,
             known: Iterable[str] | None = None) -> dict[str, Any]:
        """The fields' values from a link (absent: the default), a warning per bad value and one for parameters
        no one knows. ``only``: the fields to read (the others keep their defaults); ``known``: the other
        parameters the link may carry, instead of the page's own list."""
        values: dict[str, Any] = {}
        wanted = set(only) if only is not None else None
        for f in self.fields:
            raw = first(params, f.param) if wanted is None or f.param in wanted else None
            if raw is not None and self.max_chars is not None and len(raw) > self.max_chars:
                warns.append(f"“{f.param}={show(raw)}” ({len(raw):,} characters) is too long for this parameter; "
                             "it is ignored.")
                raw = None
            if raw is None:
                values[f.param] = None if f.late else f.default
                continue
            if f.late:
                values[f.param] = raw
                continue
            values[f.param], w = f.decode(raw)
            if w:
                warns.append(w)
        names = self.names() if known is None else set(self._by_param) | set(known) | (
            {"candidate", "ref"} if self.texts else set())
        unknown_warning([k for k in params if k not in names], warns)
        return values

    def seed(self, values: Mapping[str, Any]) -> None:
        """The widgets' session keys from ``values`` (by URL name); a late field keeps its raw value."""
        ss = st.session_state
        for f in self.fields:
            if f.key and f.param in values:
                if f.late:
                    ss[f"_ps_late:{f.key}"] = values[f.param]
                else:
                    ss[f.key] = values[f.param]

    def loaded(self, warns: list[str]) -> None:
        """The link was read: its warnings are shown on this run."""
        ss = st.session_state
        ss[self._warns] = list(ss.get(self._warns) or []) + list(warns)
        ss[self._loaded] = True

    def settle(self, param: str, lo: int, hi: int, fallback: int) -> int:
        """A late field's value, now that its bounds are known: the link's value within [lo, hi] (a warning
        otherwise, shown on this run), else the stored value clamped into [lo, hi], else ``fallback``."""
        f = self[param]
        ss = st.session_state
        raw = ss.pop(f"_ps_late:{f.key}", None)
        if raw is not None:
            v, w = f.decode(raw, lo=lo, hi=hi, default=fallback)
            if w:
                st.warning("Link: " + _md(w), icon=":material/link:")
            ss[f.key] = v
        v = ss.get(f.key)
        if isinstance(v, int) and not isinstance(v, bool):
            ss[f.key] = min(max(v, lo), hi)
        return ss.get(f.key, fallback)

    @property
    def warnings_key(self) -> str:
        return self._warns

    def warnings(self, *, take: Callable[[str], list] | None = None, watch: bool = True) -> None:
        """Show the link's warnings (once; ``take``: how to take them from session state, e.g. a page whose first
        view has two runs keeps them for the second) and mount the browser's dropped-link check (``watch``;
        a page may mount it later with :meth:`watch`)."""
        taken = take(self._warns) if take else st.session_state.pop(self._warns, [])
        for w in taken:
            st.warning("Link: " + _md(w), icon=":material/link:")
        if watch:
            self.watch()

    def watch(self) -> None:
        """Mount the browser-side check of a link the server dropped whole (see :mod:`explainer.ui.page_links`)."""
        from explainer.ui.page_links import watch_dropped_link

        watch_dropped_link(self._warns, self.name, escape=self.dropped_words)

    # ------------------------------------------------------------------ out
    def params(self, values: Mapping[str, Any], *, always: Iterable[str] = ()) -> dict[str, str]:
        """The fields' link parameters for ``values`` (by URL name): those that differ from the default, and
        those in ``always``."""
        always = set(always)
        out = {}
        for f in self.fields:
            if f.param not in values or values[f.param] is None:
                continue
            v = values[f.param]
            if f.param in always or v != f.default:
                out[f.param] = f.encode(v)
        return out

    def values(self) -> dict[str, Any]:
        """The fields' current values from their session keys (a field without a value: its default)."""
        ss = st.session_state
        return {f.param: ss.get(f.key, f.default) for f in self.fields if f.key}

    def write(self, want: Mapping[str, str | list[str]]) -> None:
        """The address bar: ``want`` (written only when it differs from the address or from this page's last
        link), remembered as this page's last link. The address a run sees is the one the browser sent with its
        rerun: after quick moves it may be older than the page's last write, still on its way to the browser
        (``step=2`` seen while ``step=1`` is underway): equal to ``want`` there, the address bar would keep the
        step written last, not this run's."""
        norm = {k: (list(v) if isinstance(v, (list, tuple)) else [v]) for k, v in want.items()}
        have = {k: st.query_params.get_all(k) for k in st.query_params.keys()}
        if norm != have or norm != st.session_state.get(self._last):
            st.query_params.from_dict({k: (list(v) if isinstance(v, tuple) else v) for k, v in want.items()})
        st.session_state[self._last] = norm


def _md(text: str) -> str:
    from explainer.ui.highlight import md_escape

    return md_escape(text)


# ------------------------------------------------------------------------------------------- choice widgets
def _valid(value: Any, options: Sequence) -> bool:
    try:
        return any(type(value) is type(o) and value == o for o in options)
    except Exception:  # noqa: BLE001 - an odd stored object is simply not an option
        return False


def choice(key: str, options: Sequence, default: Any = None) -> Any:
    """The value of the choice widget ``key`` reconciled with ``options`` (call it just before drawing the
    widget, without ``index``): the stored value if it is an option, else the last value shown if it still is,
    else ``default`` (or the first option). The value is stored again, so the browser shows it with the current
    labels and sends back a label that is an option."""
    ss = st.session_state
    options = list(options)
    if not options:
        ss.pop(key, None)
        return None
    value = ss.get(key)
    if not _valid(value, options):
        last = ss.get(_SHOWN, {}).get(key)
        value = last if _valid(last, options) else (default if _valid(default, options) else options[0])
    ss[key] = value
    ss.setdefault(_SHOWN, {})[key] = value
    return value


def reset(key: str, value: Any = None) -> None:
    """Put a choice widget back to ``value`` (None: its default on the next run), forgetting the value last shown
    (which :func:`choice` would otherwise fall back to)."""
    ss = st.session_state
    ss.get(_SHOWN, {}).pop(key, None)
    if value is None:
        ss.pop(key, None)
    else:
        ss[key] = value


def shown(key: str, default: Any = None) -> Any:
    """The value of ``key`` as last drawn by :func:`choice` (for callbacks: the stored value may be a stale
    display string until the script reconciles it)."""
    return st.session_state.get(_SHOWN, {}).get(key, default)
