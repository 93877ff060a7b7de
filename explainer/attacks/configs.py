"""What the gaming lab scores with: a dialect of the explainer's registry and its options, validated once.

The lab speaks the same option vocabulary as the CLI (``-o KEY=VALUE``), the permalinks and the widgets: a
:class:`BleuConfig` is a BLEU dialect name (``explainer.bleu.dialect_names()``) plus that dialect's own options
(its :class:`~explainer.options.OptionSpec` s), a :class:`RougeConfig` the same for ROUGE. Construction binds the
options through the family's registry, so an unknown dialect, an option the dialect does not have, or a bad value
is a ValueError with the registry's message, never a silent switch to another dialect. Values may be given as
strings (as from a URL) and are coerced by the option's spec.

The one thing the lab adds is how the texts reach NLTK (:data:`NLTK_INPUT`): NLTK's ``sentence_bleu`` given plain
strings instead of token lists iterates them character by character; ``nltk_input="string"`` reproduces that
mistake. It applies to the ``nltk`` dialect only (anything else is an error).
"""
from __future__ import annotations

from typing import Any, ClassVar, Mapping

from explainer.options import OptionSpec, bind_options

__all__ = ["BleuConfig", "RougeConfig", "NLTK_INPUT", "SENTENCE_BLEU", "CORPUS_BLEU", "ROUGE_SCORE", "ROUGE_TYPES",
           "nltk_characters", "bleu_input"]

#: the ROUGE types every lab score carries
ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")

NLTK_INPUT = OptionSpec("nltk_input", "choice", "tokens",
                        "how the texts reach NLTK's sentence_bleu: token lists (str.split) or the plain strings, "
                        "which NLTK reads as sequences of characters", choices=("tokens", "string"),
                        label="NLTK input")


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same type (NLTK tells ``alpha=5`` from ``alpha=5.0``)."""
    return type(a) is type(b) and a == b


class _DialectConfig:
    """A dialect name and the options given to it (only those that differ from the dialect's defaults, coerced by
    the dialect's specs), immutable and hashable. Subclasses name the family's registry."""

    family: ClassVar[str] = ""
    default_dialect: ClassVar[str] = ""
    __slots__ = ("dialect", "options", "_bound")

    def __init__(self, dialect: str | None = None, /, **options: Any) -> None:
        dialect = self.default_dialect if dialect is None else dialect
        extra = self._take_extra(dialect, options)
        bound = self._create(dialect, options)          # the registry: unknown names and bad values raise here
        cls = type(bound)
        full = bind_options(f"the {dialect} dialect", cls.option_specs(), options, aliases=cls.ALIASES)
        given = tuple((s.name, full[s.name]) for s in cls.option_specs() if not _same(full[s.name], s.default))
        object.__setattr__(self, "dialect", dialect)
        object.__setattr__(self, "options", given)
        object.__setattr__(self, "_bound", bound)
        self._set_extra(extra)

    # ---- hooks of the families
    def _take_extra(self, dialect: str, options: dict) -> dict:
        return {}

    def _set_extra(self, extra: dict) -> None:
        pass

    def _extra_key(self) -> tuple:
        return ()

    def _create(self, dialect: str, options: Mapping[str, Any]):
        raise NotImplementedError

    # ---- value semantics
    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; use with_options()")

    def _key(self) -> tuple:
        # the bound dialect is the value "dialect + options" (explainer.dialect.Dialect.key); the lab adds its extra
        return (type(self).__name__, self._bound.key) + self._extra_key()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _DialectConfig) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        args = [repr(self.dialect)] + [f"{k}={v!r}" for k, v in self.options + self._extra_key()]
        return f"{type(self).__name__}({', '.join(args)})"

    # ---- reading
    @property
    def given(self) -> dict[str, Any]:
        """The options that differ from the dialect's defaults."""
        return dict(self.options)

    def get(self, name: str) -> Any:
        """An option's value as the bound dialect uses it (defaults resolved, e.g. sacreBLEU's effective order)."""
        return self._bound.options[name]

    def dialect_object(self):
        """The bound dialect of the registry (shared, immutable)."""
        return self._bound

    def with_options(self, **options: Any) -> "_DialectConfig":
        """The same dialect with some options changed (validated again)."""
        return type(self)(self.dialect, **{**self.given, **dict(self._extra_key()), **options})

    def core_text(self, text: str) -> str:
        """``text`` as this configuration hands it to its family's core (the lab's NLTK string input: characters)."""
        return text

    def describe(self) -> str:
        """The dialect and the options that differ from its defaults, in the CLI's ``KEY=VALUE`` words."""
        parts = [f"{k}={_text(v)}" for k, v in self.options + self._extra_key()]
        return " ".join([self.dialect] + parts)


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return ",".join(f"{x:g}" for x in v)
    return str(v)


class BleuConfig(_DialectConfig):
    """A BLEU dialect of ``explainer.bleu`` with options (``BleuConfig("sacrebleu", tokenize="intl")``) and, for
    ``nltk``, :data:`NLTK_INPUT`. BLEU in the lab is shown on 0-100 whatever the dialect's own scale."""

    family = "BLEU"
    default_dialect = "sacrebleu"
    __slots__ = ("nltk_input",)

    def _take_extra(self, dialect: str, options: dict) -> dict:
        if "nltk_input" not in options:
            return {}
        from explainer.bleu import DIALECTS

        value = NLTK_INPUT.coerce(options.pop("nltk_input"))
        if value not in (None, NLTK_INPUT.default) and not DIALECTS.dialect_class(dialect).reads_strings_as_characters:
            raise ValueError(f"option nltk_input applies to the nltk dialect only, not to {dialect}")
        return {"nltk_input": value}

    def _set_extra(self, extra: dict) -> None:
        object.__setattr__(self, "nltk_input", extra.get("nltk_input") or NLTK_INPUT.default)

    def _extra_key(self) -> tuple:
        return () if self.nltk_input == NLTK_INPUT.default else (("nltk_input", self.nltk_input),)

    def _create(self, dialect: str, options: Mapping[str, Any]):
        from explainer.bleu import get_dialect

        return get_dialect(dialect, **options)

    def core_text(self, text: str) -> str:
        return bleu_input(text, self)

    @property
    def scale(self) -> float:
        """The dialect's own score scale (sacreBLEU 100, NLTK and Hugging Face 1)."""
        return float(self._bound.scale)


class RougeConfig(_DialectConfig):
    """A ROUGE dialect of ``explainer.rouge`` with options (``RougeConfig("rouge155", multi_ref="best-recall")``),
    bound to :data:`ROUGE_TYPES`."""

    family = "ROUGE"
    default_dialect = "rouge-score"
    __slots__ = ()

    def _create(self, dialect: str, options: Mapping[str, Any]):
        from explainer.rouge import get_dialect

        return get_dialect(dialect, types=ROUGE_TYPES, **options)


#: ``sacrebleu.sentence_bleu`` (effective order on): the lab's BLEU unless a variant says otherwise
SENTENCE_BLEU = BleuConfig("sacrebleu", api="sentence_bleu")
#: ``BLEU().corpus_score``
CORPUS_BLEU = BleuConfig("sacrebleu")
#: rouge-score's ``RougeScorer`` (no stemmer, its default tokenizer, best F over references)
ROUGE_SCORE = RougeConfig("rouge-score")


def nltk_characters(text: str) -> str:
    """What NLTK counts when given a plain string: every character is a token, spaces included. As text for
    the explainer's whitespace-token ``nltk`` dialect: characters separated by spaces, a space written "␣",
    any other whitespace character "␣<hex code>" and a literal "␣" doubled - one token per character, and
    different characters stay different tokens, so every count equals NLTK's on the raw string."""
    out = []
    for ch in text:
        if ch == " ":
            out.append("␣")
        elif ch == "␣":
            out.append("␣␣")
        elif ch.isspace():
            out.append(f"␣{ord(ch):x}")
        else:
            out.append(ch)
    return " ".join(out)


def bleu_input(text: str, bleu: BleuConfig) -> str:
    """The text handed to the BLEU core: as given, or NLTK's character view (``nltk_input="string"``)."""
    return nltk_characters(text) if bleu.nltk_input == "string" else text
