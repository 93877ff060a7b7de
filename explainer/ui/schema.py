"""The cores' dialect option descriptions -> the UI's option schema (query-parameter names, widget kinds).

Pure (no Streamlit). Adding an option to a dialect in the core adds a widget and a URL parameter here
without other changes. Parameter names: the issue's fixed names where the option has one meaning across
dialects (``tokenize``, ``smooth``, ``lowercase``, ``stem``, …); everything else is ``bleu_<name>`` /
``rouge_<name>``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from functools import lru_cache
from typing import Any, Mapping

from explainer.options import OptionSpec as CoreOptionSpec
from explainer.options import coerce_value

__all__ = ["bleu_schema", "rouge_schema", "ROUGE_TYPE_CHOICES", "DEFAULT_ROUGE_TYPES", "supported_types",
           "option_label", "OptionSpec", "FamilySchema", "encode_value", "decode_value"]


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


def _show(raw: str, limit: int = 40) -> str:
    """A query value as it may be quoted in a warning (the page escapes it again)."""
    return raw if len(raw) <= limit else raw[:limit] + "…"


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


_BLEU_PARAMS = {"tokenize": "tokenize", "lowercase": "lowercase", "smooth_method": "smooth", "smoothing": "smooth",
                "smooth": "smooth", "smooth_value": "smooth_value", "max_ngram_order": "max_order",
                "max_order": "max_order", "max_n": "max_order", "effective_order": "effective_order"}
_ROUGE_PARAMS = {"use_stemmer": "stem", "multi_ref": "multi_ref", "tokenizer": "rouge_tokenize"}

ROUGE_TYPE_CHOICES = ("rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW-1.2",
                      "rougeS4", "rougeSU4", "rougeS*", "rougeSU*")

_LABELS = {"tokenize": "tokenizer", "smooth_method": "smoothing", "smooth_value": "smoothing value",
           "max_ngram_order": "max n-gram order", "effective_order": "effective order",
           "api": "API (sentence vs corpus semantics)", "use_stemmer": "stemming (Porter)",
           "multi_ref": "several references", "split_summaries": "split sentences with NLTK (not newlines)",
           "auto_reweigh": "auto re-weigh short candidates", "max_order": "max n-gram order",
           "max_n": "max n-gram order", "force": "force (silence the tokenized-period warning)"}


def option_label(name: str) -> str:
    return _LABELS.get(name, name.replace("_", " "))


def _specs(dialect_cls, aliases: dict, prefix: str) -> tuple[OptionSpec, ...]:
    """The dialect's segment options (the cores' specs) with their URL parameter names. Free-text options are
    not offered (a widget for them would be unsafe)."""
    return tuple(OptionSpec.of(o, aliases.get(o.name, prefix + o.name), label=option_label(o.name))
                 for o in dialect_cls.option_specs(scope="segment") if o.type != "text")


@lru_cache(maxsize=1)
def bleu_schema() -> FamilySchema:
    from explainer.bleu import DEFAULT_DIALECT, DIALECTS, dialect_names

    names = tuple(dialect_names())
    return FamilySchema("bleu_dialect", DEFAULT_DIALECT, names,
                        {n: _specs(DIALECTS[n], _BLEU_PARAMS, "bleu_") for n in names})


@lru_cache(maxsize=1)
def rouge_schema() -> FamilySchema:
    from explainer.rouge import DIALECTS, dialect_names

    names = tuple(dialect_names())
    default = min(names, key=lambda n: DIALECTS[n].rank)        # the family's reference implementation
    return FamilySchema("rouge_dialect", default, names,
                        {n: _specs(DIALECTS[n], _ROUGE_PARAMS, "rouge_") for n in names})


def DEFAULT_ROUGE_TYPES() -> tuple[str, ...]:  # noqa: N802 (a function so the core loads lazily)
    from explainer.rouge import DEFAULT_TYPES

    return tuple(DEFAULT_TYPES)


def supported_types(dialect: str, types) -> tuple[tuple[str, ...], list[str]]:
    """(types the dialect defines, names it does not) for the chosen ROUGE dialect."""
    from explainer.rouge import get_dialect, parse_type

    d = get_dialect(dialect)
    ok, bad = [], []
    for t in types:
        (ok if parse_type(t).kind in d.supported_kinds else bad).append(t)
    return tuple(ok), bad


def dialect_label(family: str, name: str) -> str:
    if family == "bleu":
        from explainer.bleu import DIALECTS

        cls = DIALECTS.get(name)
        return f"{name} — {cls.implementation}" if cls is not None and cls.implementation else name
    from explainer.rouge import get_dialect

    d = get_dialect(name)
    return f"{name} — {d.label}" if d.label else name


def dialect_description(family: str, name: str) -> str:
    if family == "bleu":
        from explainer.bleu import DIALECTS

        cls = DIALECTS.get(name)
        return cls.description if cls is not None else ""
    from explainer.rouge import get_dialect

    return get_dialect(name).description
