"""The Explain page's whole state <-> URL query parameters. Pure: no Streamlit here.

Parameter names (the issue fixes the first ones):

* ``candidate``: the candidate text; ``ref``: one per reference, repeated, in order (1-10);
* ``bleu_dialect`` and its options: ``tokenize``, ``smooth``, ``lowercase`` (0/1), plus ``smooth_value``,
  ``max_order``, ``effective_order`` (0/1) and any other option a dialect declares, under its own name;
* ``rouge_dialect``, ``rouge_types`` (comma-separated) and its options: ``stem`` (0/1), plus the others
  under ``rouge_<name>``;
* ``example`` (the example picked, informational), ``ngram`` (the n-gram selected in the table), ``colour``
  (``order`` or ``reference``: what the BLEU highlight colours encode) and ``rouge_ref`` (1-based: the
  reference the ROUGE details are shown against).

Parsing never raises: a bad or unknown value becomes a warning (a plain sentence for the page) and the
default is used. The options are the cores' own :class:`explainer.options.OptionSpec` s (with a URL parameter
name: :class:`OptionSpec` here), and a value is valid exactly when the core's ``coerce`` accepts it, so adding
an option to a dialect adds it to the URL without touching this module.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any, Iterable, Mapping, Sequence

from explainer.options import OptionSpec as CoreOptionSpec
from explainer.options import coerce_value

__all__ = [
    "OptionSpec", "FamilySchema", "ExplainState", "MAX_REFS", "MAX_URL_TEXT",
    "parse_params", "to_params", "encode_value", "decode_value", "apply_settings", "reset_settings",
    "bounded_int", "dropped_params_message", "dropped_params_text",
]

MAX_REFS = 10
COLOUR_MODES = ("order", "reference")
# Texts longer than this are not put into the URL (browsers and servers cut long URLs, ~8-64 KB); the
# page says so and the permalink then carries only the settings.
MAX_URL_TEXT = 6_000

@dataclass(frozen=True)
class OptionSpec(CoreOptionSpec):
    """One dialect option as the UI sees it: the cores' :class:`explainer.options.OptionSpec` (type, default,
    bounds, choices, help, label, and its one coercion rule, ``coerce``) plus ``param``, its query-parameter
    name. ``kind`` (from the core) is the type, or ``tristate`` for a bool whose default is "the library's"."""

    param: str = ""

    @classmethod
    def of(cls, core: CoreOptionSpec, param: str, *, label: str = "") -> "OptionSpec":
        """The core's spec with its URL parameter name (and a widget label)."""
        fields = {f.name: getattr(core, f.name) for f in dataclass_fields(CoreOptionSpec)}
        if label:
            fields["label"] = label
        if core.type == "float" and isinstance(core.default, int) and not isinstance(core.default, bool):
            fields["default"] = float(core.default)
        return cls(**fields, param=param)


@dataclass(frozen=True)
class FamilySchema:
    """Dialects of one metric family (BLEU or ROUGE) and each dialect's options."""

    dialect_param: str
    default_dialect: str
    dialects: tuple[str, ...]
    options: Mapping[str, tuple[OptionSpec, ...]]  # dialect -> its options

    def specs(self, dialect: str) -> tuple[OptionSpec, ...]:
        return tuple(self.options.get(dialect, ()))

    def defaults(self, dialect: str) -> dict[str, Any]:
        return {s.name: s.default for s in self.specs(dialect)}

    def all_params(self) -> set[str]:
        return {s.param for specs in self.options.values() for s in specs}


@dataclass
class ExplainState:
    candidate: str = ""
    refs: list[str] = field(default_factory=lambda: [""])
    bleu_dialect: str = ""
    bleu_options: dict[str, Any] = field(default_factory=dict)
    rouge_dialect: str = ""
    rouge_types: tuple[str, ...] = ()
    rouge_options: dict[str, Any] = field(default_factory=dict)
    example: str = ""
    ngram: str = ""
    colour: str = "order"
    rouge_ref: int = 0          # 0-based; 0 also when absent


def encode_value(spec: OptionSpec, value: Any) -> str:
    if spec.kind == "bool":
        return "1" if value else "0"
    if spec.kind == "tristate":
        return "default" if value is None else ("1" if value else "0")
    if spec.kind == "optional_float":
        return "default" if value is None else repr(float(value))
    if spec.kind == "float_list":
        return ",".join(repr(float(v)) for v in value)
    if spec.kind == "float":
        # repr is the shortest string that round-trips exactly
        return repr(float(value))
    return str(value)


def _default_words(spec: OptionSpec) -> str:
    """The default as a warning names it: a value, or in words when it is 'whatever the library does'."""
    if spec.default is None:
        return "the dialect's default"
    return encode_value(spec, spec.default) if spec.kind in ("bool", "float_list") else str(spec.default)


def decode_value(spec: OptionSpec, raw: str) -> tuple[Any, str | None]:
    """(value, None) or (default, warning). Whether a value is valid is the core's rule (``spec.coerce``, the
    one the cores, the CLI and the widgets use); the warnings say it in the page's words."""
    shown = _show(raw)
    low = raw.strip().lower()
    if spec.kind == "tristate" and low in ("", "default", "none"):
        return None, None
    if spec.kind == "optional_float" and low in ("", "default", "none"):
        return None, None
    if spec.kind == "choice":  # a link carries a choice as its text
        raw = next((c for c in spec.choices or () if raw == str(c)), raw)
    try:
        return spec.coerce(raw.strip() if isinstance(raw, str) and spec.kind != "choice" else raw), None
    except ValueError:
        return spec.default, _decode_warning(spec, raw, shown)


def _decode_warning(spec: OptionSpec, raw: str, shown: str) -> str:
    default = _default_words(spec)
    kind = spec.kind
    if kind == "bool":
        return f"“{spec.param}={shown}” is not 0 or 1; using {encode_value(spec, spec.default)}."
    if kind == "tristate":
        return f"“{spec.param}={shown}” is not 0, 1 or default; using the library default."
    if kind == "float_list":
        return f"“{spec.param}={shown}” is not a list of numbers; using the default."
    if kind == "choice":
        allowed = ", ".join(str(c) for c in spec.choices or ())
        return f"“{spec.param}={shown}” is not one of {allowed}; using {default}."
    number = "int" if kind == "int" else "float"
    try:  # a number of the right kind, only out of range?
        coerce_value(spec.name, number, raw.strip())
    except ValueError:
        if not (kind == "int" and re.fullmatch(r"\s*[+-]?[0-9]+\s*", raw)):  # (far too many digits: out of range)
            return f"“{spec.param}={shown}” is not a{'n integer' if kind == 'int' else ' number'}; using {default}."
    if spec.min is not None and spec.max is not None:
        return f"“{spec.param}={shown}” is outside {spec.min:g}–{spec.max:g}; using {default}."
    if spec.min is not None or spec.max is not None:
        bound = f"at least {spec.min:g}" if spec.min is not None else f"at most {spec.max:g}"
        return f"“{spec.param}={shown}” is out of range (must be {bound}); using {default}."
    return f"“{spec.param}={shown}” is out of range; using {default}."


MAX_INT_DIGITS = 18  # longer digit strings are refused before int() (Python refuses > 4,300 digits with an error)


def bounded_int(raw: str, lo: int | None = None, hi: int | None = None) -> int | None:
    """A URL integer: optional sign and ASCII digits only (``str.isdigit`` accepts '²', which ``int`` refuses),
    at most MAX_INT_DIGITS digits, checked before the conversion, and within [lo, hi]. None when it is not."""
    s = raw.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,%d}" % MAX_INT_DIGITS, s):
        return None
    v = int(s)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        return None
    return v


def dropped_params_message(raw_query: str, n_parsed: int, *, max_fields: int, max_chars: int) -> str | None:
    """The server ignores a whole query string with more than ``max_fields`` parameters or ``max_chars``
    characters (the page then gets none). Given the raw query string the browser sent and the number of
    parameters the page got: a sentence for the page when they were dropped, else None."""
    if not raw_query or n_parsed:
        return None
    return dropped_params_text(raw_query.count("&") + 1, len(raw_query), max_fields=max_fields, max_chars=max_chars)


def dropped_params_text(n_fields: int, n_chars: int, *, max_fields: int, max_chars: int) -> str | None:
    """The sentence for a query string of ``n_fields`` parameters and ``n_chars`` characters that the server
    ignored (over either limit), else None."""
    if n_fields > max_fields:
        return (f"This link has {n_fields:,} parameters; the server reads links with at most {max_fields:,} "
                "parameters and ignored all of them, so the page shows its default example instead.")
    if n_chars > max_chars:
        return (f"This link is {n_chars:,} characters long; the server reads links of at most "
                f"{max_chars:,} characters and ignored it, so the page shows its default example instead.")
    return None


def _show(raw: str, limit: int = 40) -> str:
    """A query value as it may be quoted in a warning (the page escapes it again)."""
    r = raw if len(raw) <= limit else raw[:limit] + "…"
    return r


def _first(params: Mapping[str, Sequence[str]], key: str) -> str | None:
    vals = params.get(key)
    if not vals:
        return None
    if isinstance(vals, str):
        return vals
    return vals[-1]


def _parse_family(params, schema: FamilySchema, warnings: list[str]) -> tuple[str, dict[str, Any], set[str]]:
    used = {schema.dialect_param}
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
        # Prefixed options (bleu_weights, rouge_alpha, ...) of another dialect are carried silently; a shared
        # name (lowercase, tokenize, stem, ...) that this dialect does not have would be ignored unnoticed.
        if raw is None or param.startswith(("bleu_", "rouge_")):
            continue
        mine = ", ".join(sorted(own)) or "none"
        warnings.append(f"“{param}={_show(raw)}” does not apply to the {dialect} dialect and is ignored "
                        f"(its link parameters: {mine}).")
    for spec in schema.specs(dialect):
        used.add(spec.param)
        raw = _first(params, spec.param)
        if raw is None:
            continue
        value, warn = decode_value(spec, raw)
        options[spec.name] = value
        if warn:
            warnings.append(warn)
    return dialect, options, used


def parse_params(params: Mapping[str, Sequence[str] | str], bleu: FamilySchema, rouge: FamilySchema,
                 *, rouge_type_choices: Sequence[str], default_rouge_types: Sequence[str],
                 default: ExplainState | None = None) -> tuple[ExplainState, list[str]]:
    """Query parameters (each key -> all its values, in order) -> (state, warnings).

    Parameters that are absent keep the ``default`` state's value (texts) or the dialect default.
    """
    warnings: list[str] = []
    base = default or ExplainState()
    cand = _first(params, "candidate")
    refs = _parse_refs(params, base, warnings)
    bleu_dialect, bleu_options, used_b = _parse_family(params, bleu, warnings)
    rouge_dialect, rouge_options, used_r = _parse_family(params, rouge, warnings)
    types = _parse_types(params, rouge_type_choices, default_rouge_types, warnings)
    colour, rouge_ref = _parse_view(params, len(refs), warnings)
    known = {"candidate", "ref", "rouge_types", "example", "ngram", "colour", "rouge_ref"} | used_b | used_r
    # Options of *other* dialects are not errors: a link may carry them after a dialect switch.
    other = bleu.all_params() | rouge.all_params() | {bleu.dialect_param, rouge.dialect_param}
    unknown = sorted(k for k in params if k not in known and k not in other)
    if unknown:
        warnings.append(f"Unknown link parameter(s) ignored: {', '.join(_show(u) for u in unknown)}.")
    state = ExplainState(
        candidate=base.candidate if cand is None else cand, refs=refs,
        bleu_dialect=bleu_dialect, bleu_options=bleu_options,
        rouge_dialect=rouge_dialect, rouge_types=types, rouge_options=rouge_options,
        example=_first(params, "example") or "", ngram=_first(params, "ngram") or "", colour=colour,
        rouge_ref=rouge_ref,
    )
    return state, warnings


def _parse_refs(params, base: ExplainState, warnings: list[str]) -> list[str]:
    refs_raw = params.get("ref")
    if isinstance(refs_raw, str):
        refs_raw = [refs_raw]
    if refs_raw is None:
        return list(base.refs) or [""]
    refs = list(refs_raw)
    if len(refs) > MAX_REFS:
        warnings.append(f"The link has {len(refs)} references; the page shows at most {MAX_REFS}, "
                        f"so only the first {MAX_REFS} are used.")
        refs = refs[:MAX_REFS]
    return refs or [""]


def _parse_types(params, choices: Sequence[str], default: Sequence[str], warnings: list[str]) -> tuple[str, ...]:
    raw_types = _first(params, "rouge_types")
    if raw_types is None:
        return tuple(default)
    if not raw_types.strip():
        return ()   # the link of a page with no ROUGE type picked (the page says to pick one)
    asked = [t.strip() for t in raw_types.split(",") if t.strip()]
    good = [t for t in asked if t in choices]
    bad = [t for t in asked if t not in choices]
    if bad:
        warnings.append(f"Unknown ROUGE type(s) {', '.join(_show(b) for b in bad)} ignored "
                        f"(known: {', '.join(choices)}).")
    if good:
        return tuple(dict.fromkeys(good))
    warnings.append(f"“rouge_types” names no known type; using {', '.join(default)}.")
    return tuple(default)


def _parse_view(params, n_refs: int, warnings: list[str]) -> tuple[str, int]:
    """The view parameters: ``colour`` and ``rouge_ref`` (1-based in the link, 0-based in the state)."""
    colour = "order"
    raw_colour = _first(params, "colour")
    if raw_colour is not None:
        if raw_colour in COLOUR_MODES:
            colour = raw_colour
        else:
            warnings.append(f"“colour={_show(raw_colour)}” is not one of {', '.join(COLOUR_MODES)}; using order.")
    rouge_ref = 0
    raw_rr = _first(params, "rouge_ref")
    if raw_rr is not None:
        k = bounded_int(raw_rr, 1, n_refs)
        if k is not None:
            rouge_ref = k - 1
        else:
            warnings.append(f"“rouge_ref={_show(raw_rr)}” is not a reference number (1–{n_refs}); using 1.")
    return colour, rouge_ref


def apply_settings(state: ExplainState, settings: Mapping[str, str], bleu: FamilySchema, rouge: FamilySchema,
                   *, skip: Iterable[str] = ()) -> list[str]:
    """Permalink-style ``settings`` (an example's, e.g. ``{"stem": "1"}``) onto the state's chosen dialects,
    except the parameters in ``skip`` (those a link states explicitly: they win). Settings the chosen dialect
    does not have are left out. Returns warnings for values that do not decode (a bug in the example)."""
    skip = set(skip)
    warns: list[str] = []
    for key, raw in settings.items():
        if key in skip:
            continue
        for schema, dialect, opts in ((bleu, state.bleu_dialect, state.bleu_options),
                                      (rouge, state.rouge_dialect, state.rouge_options)):
            for spec in schema.specs(dialect):
                if spec.param == key:
                    value, w = decode_value(spec, raw)
                    opts[spec.name] = value
                    if w:
                        warns.append(w)
    return warns


def reset_settings(state: ExplainState, keys: Iterable[str], bleu: FamilySchema, rouge: FamilySchema) -> None:
    """Put the options behind the permalink parameters ``keys`` back to their defaults (on the chosen dialects):
    what an example's ``settings`` changed is undone when another example is picked."""
    keys = set(keys)
    for schema, dialect, opts in ((bleu, state.bleu_dialect, state.bleu_options),
                                  (rouge, state.rouge_dialect, state.rouge_options)):
        for spec in schema.specs(dialect):
            if spec.param in keys:
                opts[spec.name] = spec.default


def to_params(state: ExplainState, bleu: FamilySchema, rouge: FamilySchema,
              *, include_texts: bool = True) -> dict[str, str | list[str]]:
    """State -> query parameters (``ref`` is a list, to be written as a repeated key).

    Texts longer than MAX_URL_TEXT are left out (``include_texts`` False leaves all texts out)."""
    out: dict[str, str | list[str]] = {}
    if include_texts and _fits(state):
        out["candidate"] = state.candidate
        out["ref"] = list(state.refs)
    out[bleu.dialect_param] = state.bleu_dialect
    for spec in bleu.specs(state.bleu_dialect):
        out[spec.param] = encode_value(spec, state.bleu_options.get(spec.name, spec.default))
    out[rouge.dialect_param] = state.rouge_dialect
    out["rouge_types"] = ",".join(state.rouge_types)
    for spec in rouge.specs(state.rouge_dialect):
        out[spec.param] = encode_value(spec, state.rouge_options.get(spec.name, spec.default))
    if state.example:
        out["example"] = state.example
    if state.ngram:
        out["ngram"] = state.ngram
    if state.colour != "order":
        out["colour"] = state.colour
    if state.rouge_ref:
        out["rouge_ref"] = str(state.rouge_ref + 1)
    return out


def _fits(state: ExplainState) -> bool:
    return len(state.candidate) + sum(len(r) for r in state.refs) <= MAX_URL_TEXT


def texts_fit_url(state: ExplainState) -> bool:
    return _fits(state)
