"""The cores' dialect option descriptions -> the UI's option schema (query-parameter names, widget kinds).

Pure (no Streamlit). Adding an option to a dialect in the core adds a widget and a URL parameter here
without other changes. Parameter names: the issue's fixed names where the option has one meaning across
dialects (``tokenize``, ``smooth``, ``lowercase``, ``stem``, …); everything else is ``bleu_<name>`` /
``rouge_<name>``.
"""
from __future__ import annotations

from functools import lru_cache

from explainer.ui.permalink import FamilySchema, OptionSpec

__all__ = ["bleu_schema", "rouge_schema", "ROUGE_TYPE_CHOICES", "DEFAULT_ROUGE_TYPES", "supported_types",
           "option_label"]

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
