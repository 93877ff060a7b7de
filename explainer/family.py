"""The metric-family contract: what every family (BLEU, ROUGE, chrF, TER, the semantic scores) is to the rest of
the program.

A *family* is one registered object (:data:`explainer.families.FAMILIES`): its name and scale, its dialect
registry, sentence and corpus scoring, and the per-segment statistic that significance tests resample. Features,
commands and pages loop over the registered families and ask the family; none compares a family's name
(``tests/test_architecture.py``). What differs between the implementations *inside* a family stays the dialect's
(``explainer/dialect.py``); a family is the layer above: which numbers it reports (:class:`Measure`), how a trace
turns into them, how a corpus is scored.

Each core package defines its family in ``<package>/family.py`` as a subclass of :class:`MetricFamily`; the
layers above add their own parts of a family through one registration line each (the UI's
``explainer/ui/families/__init__.py``, the CLI's command table).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Sequence

import numpy as np

from explainer.statistic import Statistic

__all__ = ["Measure", "MetricFamily", "CorpusScores", "MeasureScores", "verdict", "VERDICT_WORDS"]


@dataclass(frozen=True)
class Measure:
    """One number a family reports (BLEU's score; ROUGE-1's F; TER; STS). ``key`` names it in a family's score
    dict; ``scale`` is the top of the scale the number is given on (sacreBLEU's 100, rouge-score's 1: a dialect's
    own); ``higher_is_better`` is False for an error rate (TER); ``decimals``: as papers print it on that scale;
    ``resolution``: the smallest difference that is not rounding noise (0: the score is exact)."""

    key: str
    label: str
    scale: float = 100.0
    higher_is_better: bool = True
    decimals: int = 1
    resolution: float = 0.0

    def fmt(self, value: float | None) -> str:
        """The value as a table shows it (``—`` when missing)."""
        if value is None or value != value:
            return "—"
        return f"{value:.{self.decimals}f}"


@dataclass
class MeasureScores:
    """One measure of one system on a corpus: the corpus score, each segment's own score (the family's named
    segment-level definition) and the statistic the bootstrap and paired tests resample (None with ``no_tests``
    saying why when the tests are not defined, e.g. NLTK's corpus BLEU reads the last segment)."""

    measure: Measure
    score: float
    segment_scores: np.ndarray
    statistic: Statistic | None
    no_tests: str = ""


@dataclass
class CorpusScores:
    """A system's corpus scores under one bound dialect: every measure's :class:`MeasureScores`, and the
    signature of the configuration."""

    family: str
    signature: str
    measures: dict[str, MeasureScores] = field(default_factory=dict)
    segment_score_name: str = ""


#: the words every family's verdict uses (the Gaming lab, the Teach room): "fooled" means the attack scored at
#: least as well as the honest text, in the measure's own direction (lower TER is better)
VERDICT_WORDS = {"fooled": "✗ fooled", "tie": "✗ fooled (same score)", "resisted": "✓ resisted",
                 "n/a": "—"}


def verdict(measure: Measure, honest: float | None, attack: float | None, *, tol: float = 1e-12) -> str:
    """``fooled`` (the attack did better than the honest text), ``tie`` (the same score: the metric cannot tell
    them apart, which is also fooled), ``resisted`` (the attack did worse) or ``n/a``."""
    if honest is None or attack is None or honest != honest or attack != attack:
        return "n/a"
    gain = (attack - honest) if measure.higher_is_better else (honest - attack)
    if abs(gain) <= max(tol * max(1.0, abs(honest), abs(attack)), measure.resolution):
        return "tie"
    return "fooled" if gain > 0 else "resisted"


class MetricFamily:
    """Base class of a metric family (one instance per family, made by its core package's ``family.py``).

    Subclasses set the class attributes and implement the methods marked "hook". Everything a feature, a command
    or a page needs from a family is here; what only one family has (BLEU's brevity penalty, ROUGE's types) is
    reached through the family's own modules, registered per layer."""

    #: the family's id: registry key, link value, CLI name ("bleu", "rouge", "chrf", "ter", "semantic")
    name: ClassVar[str] = ""
    #: its name in a sentence or a column header ("BLEU", "chrF", "TER")
    label: ClassVar[str] = ""
    description: ClassVar[str] = ""
    #: "n-gram", "edit" or "meaning": what the family reads (the Gaming lab's "what resisted" sentence)
    reads: ClassVar[str] = "n-gram"
    #: where the family's dialects live: ``"module:ATTRIBUTE"`` of its DialectRegistry, imported on first use
    registry_path: ClassVar[str] = ""
    default_dialect: ClassVar[str] = ""
    #: how papers print the metric's name, a regular expression over a lowercased claim ("TER 45.2"); "": its label
    claim_names: ClassVar[str] = ""

    def claim_value(self, metric: str, trace: Any) -> float | None:
        """Hook: the true value of a worked example's claim ``metric`` (a key of
        ``explainer.examples.CLAIM_METRICS``) read from this family's ``trace`` (the object or its ``to_dict()``),
        or None when the claim is not about this family or the trace cannot say."""
        return None

    # ---------------------------------------------------------------------------------------- dialects
    @property
    def dialects(self):
        """The family's :class:`explainer.registry.DialectRegistry` (name -> dialect class)."""
        import importlib

        module, _, attr = self.registry_path.partition(":")
        return getattr(importlib.import_module(module), attr)

    def dialect_names(self) -> list[str]:
        return self.dialects.names()

    def bind(self, dialect: Any = None, /, **options: Any):
        """A bound dialect: ``dialect`` (a name; None: the family's default) with ``options`` (validated by the
        dialect: ValueError with a message for the user). A bound dialect of this family is returned as it is."""
        from explainer.dialect import Dialect

        if isinstance(dialect, Dialect):
            if options:
                raise ValueError("options cannot be given together with a bound dialect")
            return dialect
        return self.dialects.create(dialect or self.default_dialect, **options)

    def options(self, dialect: str) -> list[dict]:
        """The dialect's options as JSON (the specs every widget, flag and link parameter is made from)."""
        return self.dialects.options(dialect)

    # ---------------------------------------------------------------------------------------- numbers
    def measures(self, d) -> tuple[Measure, ...]:
        """Hook: the numbers the bound dialect ``d`` reports, headline first."""
        raise NotImplementedError

    def main_measure(self, d) -> Measure:
        return self.measures(d)[0]

    def explain(self, d, candidate: str, references: Sequence[str]):
        """Hook: the full trace of one segment (ValueError subclasses for input the family refuses)."""
        raise NotImplementedError

    def trace_scores(self, trace) -> dict[str, float]:
        """Hook: measure key -> value, read from a trace (what the headline shows)."""
        raise NotImplementedError

    def scores(self, d, candidate: str, references: Sequence[str]) -> dict[str, float]:
        """Measure key -> value for one segment, by the fast path (no trace). The default builds the trace."""
        return self.trace_scores(self.explain(d, candidate, references))

    def bounded_scores(self, d, candidate: str, references: Sequence[str], *, seconds: float
                       ) -> dict[str, float] | None:
        """:meth:`scores`, or None when they would take more than about ``seconds`` of CPU: work that scores many
        texts (the Gaming lab's sweeps and optimizer) stays bounded and can stop between two texts. The default is
        :meth:`scores`: a family whose cost grows steeply with its input (TER's shift search) overrides it."""
        return self.scores(d, candidate, references)

    def signature(self, d, n_refs: int = 1) -> str:
        """Hook: the configuration as the implementation names it (sacreBLEU's signature, a command line)."""
        raise NotImplementedError

    def library_error(self, trace) -> str | None:
        """What the real implementation would raise on this input (the trace continues), in words, or None."""
        e = getattr(trace, "library_error", None)
        return None if e is None else f"{getattr(e, 'type', 'error')}: {getattr(e, 'explanation', e)}"

    # ---------------------------------------------------------------------------------------- corpus
    #: how a segment's own score is defined (named on every chart that shows one)
    def segment_score_name(self, d) -> str:
        return f"{self.label} of the segment alone"

    def corpus(self, d, candidates: Sequence[str], references: Sequence[Sequence[str]], *,
               progress: Callable[[float, str], None] | None = None) -> CorpusScores:
        """Hook: the corpus scores of one system (``references[i]``: the references of segment i), every measure
        with its segment scores and statistic."""
        raise NotImplementedError

    def corpus_systems(self, d, systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]], *,
                       progress: Callable[[float, str], None] | None = None) -> list[CorpusScores]:
        """The corpus scores of several systems on one test set (``systems[j]``: system j's outputs); a family
        that prepares the references once for all systems overrides it. The default: :meth:`corpus` per
        system."""
        tick = progress or (lambda f, msg: None)
        out = []
        for j, cands in enumerate(systems):
            out.append(self.corpus(d, cands, references,
                                   progress=lambda f, msg, _j=j: tick((_j + f) / len(systems),
                                                                      f"system {_j + 1} of {len(systems)}: {msg}")))
        tick(1.0, "done")
        return out

    # ---------------------------------------------------------------------------------------- traps
    def traps(self, d, candidates: Sequence[str], references: Sequence[Sequence[str]], *, corpus: bool = True
              ) -> list:
        """The classic traps of these texts under the bound dialect ``d`` (``explainer.trapchecks.Trap`` s), named
        before they bite; the default: the references' layout and swapped files, which concern every family."""
        from explainer.trapchecks import layout_traps

        return layout_traps(candidates, references, corpus=corpus)

    # ---------------------------------------------------------------------------------------- limits
    def max_trace_chars(self, d) -> int | None:
        """The most characters (candidate + references) one full trace takes, or None (the core checks its own
        limits in any case; a page says this before the work)."""
        return None

    def describe(self) -> Mapping[str, Any]:
        return {"name": self.name, "label": self.label, "description": self.description, "reads": self.reads,
                "dialects": self.dialect_names(), "default_dialect": self.default_dialect}

    def __repr__(self) -> str:
        return f"<metric family {self.name}>"
