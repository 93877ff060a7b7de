"""The UI side of a metric family: its settings as page-state fields, and the views every page draws of it.

A :class:`UiFamily` is registered once (``explainer/ui/families/__init__.py``) beside the core's
:class:`explainer.family.MetricFamily`; the pages loop over the registered families and call these hooks, so a
page never names a family. The settings of one family are a :class:`DialectChoice` (a dialect name and its
options, plus the family's own values such as ROUGE's types): the value every page keeps, links and restores,
bound to a dialect by the core family (:meth:`DialectChoice.bind`).

Link parameters and session keys (kept from earlier versions, so old links still open):

* the dialect: ``<family>_dialect`` (param and session key);
* an option: session key ``<family>_opt:<dialect>:<option>``; its parameter is :meth:`UiFamily.option_param`:
  ``<family>_<option>`` unless the family names it otherwise (BLEU's ``tokenize`` / ``smooth``; chrF's
  ``chrf_<dialect>_<option>``, one per dialect);
* a family value: its own field (ROUGE's ``rouge_types``).

Every value is read and written by :class:`explainer.ui.pagestate.Field` (one codec for the whole program).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Mapping, Sequence

from explainer.options import OptionSpec, freeze
from explainer.ui.pagestate import Field

__all__ = ["DialectChoice", "UiFamily", "Number", "Computed", "Download", "option_label"]

_LABELS = {"tokenize": "tokenizer", "smooth_method": "smoothing", "smooth_value": "smoothing value",
           "max_ngram_order": "max n-gram order", "effective_order": "effective order",
           "api": "API (sentence vs corpus semantics)", "use_stemmer": "stemming (Porter)",
           "multi_ref": "several references", "split_summaries": "split sentences with NLTK (not newlines)",
           "auto_reweigh": "auto re-weigh short candidates", "max_order": "max n-gram order",
           "max_n": "max n-gram order", "force": "force (silence the tokenized-period warning)"}


def option_label(name: str) -> str:
    """An option's name in words (a widget's label)."""
    return _LABELS.get(name, name.replace("_", " "))


@dataclass(frozen=True)
class DialectChoice:
    """One family's settings: the dialect and its options (plus the family's own values, e.g. ROUGE's ``types``).
    A value: equal choices hash equal (options keyed by the one ``freeze``)."""

    family: str
    dialect: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def key(self) -> tuple:
        return (self.family, self.dialect, freeze(dict(self.options)))

    def __eq__(self, other):
        return isinstance(other, DialectChoice) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def kwargs(self) -> dict[str, Any]:
        """``explain_<family>(candidate, refs, **choice.kwargs())``."""
        return {"dialect": self.dialect, **self.options}

    def bind(self):
        """The bound dialect (ValueError with a message for the user when the options do not go together)."""
        from explainer.families import FAMILIES

        return FAMILIES[self.family].bind(self.dialect, **self.options)

    def replace(self, **options: Any) -> "DialectChoice":
        return DialectChoice(self.family, self.dialect, {**self.options, **options})


@dataclass(frozen=True)
class Number:
    """One number of the headline: its label, the value as shown, the help text (exact value, scale)."""

    label: str
    value: str
    help: str = ""


@dataclass(frozen=True)
class Download:
    """A file the family offers for its trace: ``build()`` makes its text when the button is pressed."""

    label: str
    build: Any
    file_name: str
    mime: str
    key: str


@dataclass
class Computed:
    """A family's trace for the texts shown (None when not computed) and what the page says instead or beside it
    (``error``: why there is no trace; ``notes``: parts left out)."""

    trace: Any = None
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    dialect: Any = None              # the bound dialect the trace was made with
    asked: tuple = ()                # the measures asked for (ROUGE: the types picked), when not all are shown
    recheck: tuple | None = None     # the measures the diagnosis may score again (the view's work budget); None: all
    #: the view's own work limit left (part of) the trace out, and a click computes it within the core's limits
    #: (:mod:`explainer.ui.view_more`); ``inputs_key``: the texts and settings it is for
    view_limited: bool = False
    inputs_key: str = ""


class UiFamily:
    """Base class of a family's UI part. Subclasses set ``name`` (the core family's) and override the hooks."""

    name: ClassVar[str] = ""
    #: the sidebar expander's help and the dialect picker's
    picker_help: ClassVar[str] = ""
    #: a link carries every option of the chosen dialect (True), or only those that differ from the default
    complete_links: ClassVar[bool] = True
    #: the headline's numbers are drawn in this order among the families (lower first)
    headline_order: ClassVar[int] = 50
    #: the Corpus page's first view from a new report of this family: CPU microseconds per character of work
    #: (characters × systems) and per segment and system (explainer.ui.corpus.estimate; measured with
    #: bench/bench_corpus_upload.py, rounded up; a family not measured gets chrF's per character and ROUGE's per
    #: segment)
    corpus_cost: ClassVar[tuple[float, float]] = (3.0, 700.0)

    @property
    def core(self):
        from explainer.families import FAMILIES

        return FAMILIES[self.name]

    @property
    def label(self) -> str:
        return self.core.label

    # ------------------------------------------------------------------ settings: names
    @property
    def dialect_param(self) -> str:
        return f"{self.name}_dialect"

    @property
    def dialect_key(self) -> str:
        return f"{self.name}_dialect"

    def option_key(self, dialect: str, option: str) -> str:
        return f"{self.name}_opt:{dialect}:{option}"

    def option_param(self, dialect: str, option: str) -> str:
        return f"{self.name}_{option}"

    def option_widget_label(self, option: str) -> str:
        return option_label(option)

    # ------------------------------------------------------------------ settings: fields
    def dialects(self) -> tuple[str, ...]:
        return tuple(self.core.dialect_names())

    @property
    def default_dialect(self) -> str:
        return self.core.default_dialect

    def option_specs(self, dialect: str) -> tuple[OptionSpec, ...]:
        """The dialect's options a page offers: its segment options, free text left out (a widget for them would
        be unsafe)."""
        cls = self.core.dialects.get(dialect)
        if cls is None:
            return ()
        return tuple(o for o in cls.option_specs(scope="segment") if o.type != "text")

    def dialect_field(self) -> Field:
        return Field(OptionSpec(self.dialect_param, "choice", self.default_dialect, choices=self.dialects()),
                     self.dialect_key, label=f"{self.label} dialect", what="a known dialect")

    def option_field(self, dialect: str, spec: OptionSpec) -> Field:
        """The field of one option of one dialect: the core's spec under the link's name."""
        default = float(spec.default) if spec.type == "float" and isinstance(spec.default, int) \
            and not isinstance(spec.default, bool) else spec.default
        core = OptionSpec(self.option_param(dialect, spec.name), spec.type, default, help=spec.help,
                          choices=spec.choices, min=spec.min, max=spec.max, label=spec.label)
        return Field(core, self.option_key(dialect, spec.name), label=self.option_widget_label(spec.name),
                     default_words="the dialect's default" if default is None else "")

    def option_fields(self, dialect: str) -> tuple[Field, ...]:
        return tuple(self.option_field(dialect, s) for s in self.option_specs(dialect))

    def extra_fields(self) -> tuple[Field, ...]:
        """The family's own values besides the dialect's options (ROUGE: its types), by option name in the
        choice: ``Field.key`` is the session key, ``Field.param`` the link's name; the choice's option is
        :meth:`extra_option`."""
        return ()

    def extra_option(self, f: Field) -> str:
        """The option name in the :class:`DialectChoice` under which an extra field's value is kept."""
        return f.param

    def extra_value(self, f: Field, value: Any) -> Any:
        """An extra field's value as the choice keeps it (e.g. a list as a tuple)."""
        return tuple(value) if isinstance(value, list) else value

    def all_fields(self) -> tuple[Field, ...]:
        """Every field of the family's settings (the dialect, each dialect's options, the extras)."""
        out = [self.dialect_field()]
        for d in self.dialects():
            out += self.option_fields(d)
        return tuple(out) + self.extra_fields()

    def params(self) -> set[str]:
        """Every link parameter the family's settings may use."""
        return {f.param for f in self.all_fields()}

    def default_choice(self) -> DialectChoice:
        d = self.default_dialect
        opts = {s.name: f.spec.default for s, f in zip(self.option_specs(d), self.option_fields(d))}
        for f in self.extra_fields():
            opts[self.extra_option(f)] = self.extra_value(f, f.default)
        return DialectChoice(self.name, d, opts)

    def dialect_label(self, dialect: str) -> str:
        cls = self.core.dialects.get(dialect)
        if cls is None:
            return dialect
        what = cls.implementation or cls.label
        return f"{dialect} — {what}" if what else dialect

    def dialect_description(self, dialect: str) -> str:
        cls = self.core.dialects.get(dialect)
        return cls.description if cls is not None else ""

    def usable(self, choice: DialectChoice) -> DialectChoice:
        """The choice with only what its dialect computes (ROUGE: the types the dialect defines)."""
        return choice

    # ------------------------------------------------------------------ compute
    def compute(self, choice: DialectChoice, candidate: str, references: Sequence[str], *,
                whole: bool = False) -> Computed:
        """The trace of these texts under ``choice`` (computed once per inputs by the caller's cache), or why
        not, in the page's words; never raises for what a user can type. ``whole``: within the core's limits only,
        not one view's (a reader's click)."""
        try:
            d = choice.bind()
        except ValueError as e:
            return Computed(error=str(e))
        limit = self.core.max_trace_chars(d)
        n = len(candidate) + sum(map(len, references))
        if limit is not None and n > limit:
            return Computed(error=f"these texts have {n:,} characters in all, more than the {limit:,} the "
                                  f"step-by-step {self.label} view can show at once. Shorten the candidate or the "
                                  f"references to see {self.label}; the other metrics are not affected.")
        from explainer.ui.budget import ViewWorkExceeded

        try:
            return Computed(self.explain(d, candidate, references, whole=whole), dialect=d)
        except ViewWorkExceeded as e:
            return Computed(error=str(e), dialect=d, view_limited=True)
        except ValueError as e:
            return Computed(error=str(e), dialect=d)

    def explain(self, d, candidate: str, references: Sequence[str], *, whole: bool = False):
        """Hook: the trace one view shows; a family whose trace can cost more than a view's share bounds it here
        unless ``whole`` (raising :class:`explainer.ui.budget.ViewWorkExceeded`)."""
        return self.core.explain(d, candidate, references)

    # ------------------------------------------------------------------ views
    def headline(self, computed: Computed) -> list[Number]:
        """The family's numbers in the headline (a "—" with the reason when there is no trace)."""
        if computed.trace is None:
            return [Number(self.label, "—", ("not computed: " + computed.error) if computed.error else "")]
        t, d = computed.trace, computed.dialect
        values = self.core.trace_scores(t)
        err = self.core.library_error(t)
        out = []
        for m in self.core.measures(d):
            if err:
                out.append(Number(m.label, "fails", f"The real implementation raises {err}."))
                continue
            v = values.get(m.key)
            out.append(Number(m.label, m.fmt(v), f"{self.label} ({getattr(t, 'dialect', '')}, 0–{m.scale:g}"
                                                  f"{'' if m.higher_is_better else ', lower is better'}); "
                                                  f"exact value {v!r}"))
        return out

    def signature(self, computed: Computed) -> str | None:
        t = computed.trace
        sig = getattr(t, "signature", None) if t is not None else None
        return f"{self.label} signature: {sig}" if sig else None

    def view_fields(self) -> tuple[Field, ...]:
        """Hook: what the family's section lets a reader pick (the reference shown, an order), as page-state
        fields: the Explain page's link carries them, so a link shows the section as it was seen."""
        return ()

    def tab_label(self) -> str:
        return self.label

    def section(self, computed: Computed, *, n_refs: int) -> None:
        """Hook: every step of the trace (Streamlit; the Explain tab and the Corpus segment view)."""
        import streamlit as st

        from explainer.ui.highlight import md_escape

        if computed.trace is None:
            st.info((f"{self.label} is not computed yet: " if computed.view_limited else
                     f"{self.label} could not be computed: ") + md_escape(computed.error or ""))
        self.more_button(computed)

    def more_button(self, computed: Computed) -> None:
        """The click that computes what the view's work limit left out (nothing when it left nothing out)."""
        from explainer.ui import view_more

        view_more.button(self.name, self.label, computed)

    def diagnosis(self, computed: Computed) -> list:
        """Hook: findings of ``explainer.analysis.diagnosis`` for this trace ("why is the score low?")."""
        return []

    def downloads(self, computed: Computed) -> list[Download]:
        """Hook: the family's own files beside the trace JSON (BLEU's n-gram table)."""
        return []

    def trace_dict(self, computed: Computed) -> dict | None:
        t = computed.trace
        return t.to_dict() if t is not None and hasattr(t, "to_dict") else None
