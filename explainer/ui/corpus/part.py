"""A metric family's own part of the Corpus page, and what every part is given.

The page loops over the chosen families (``explainer.ui.families``): every family's corpus scores, paired tests,
generic analyses (``explainer.ui.corpus.analyses``) and segment table come from its
:class:`explainer.family.CorpusScores`; what only one family has (BLEU's corpus score worked out, its precision by
order and n-gram differences; chrF's per-order statistics; ROUGE's aggregation) is its :class:`CorpusPart`
(registered in ``explainer.ui.corpus.parts``) and declared once: a section is a function of the
:class:`CorpusFocus`, an :class:`Analysis` is its name, its computation, its figure and what a click on the figure
lists. A family without a part (TER, …) gets the default: its corpus scores and the generic analyses.

What a part needs from the page comes in the focus (``shared``: the page's cache of results shared by the server's
sessions).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

__all__ = ["CorpusFocus", "Analysis", "CorpusPart", "DEFAULT_PART"]


@dataclass
class CorpusFocus:
    """What the page looks at closely: one family's report on the test set (``report``: the family's own or a
    :class:`explainer.corpus.family_report.FamilyReport`), its scores (``scores``: each system's CorpusScores),
    the measure the tests, analyses and table are about, the baseline ``b`` and the system looked at ``i``."""

    testset: Any
    ts_key: str
    family: Any                   # the explainer.family.MetricFamily
    d: Any                        # the bound dialect
    report: Any
    scores: list
    measure: Any                  # the explainer.family.Measure looked at
    b: int
    i: int
    settings: Any = None          # the page's MetricSettings (links to the Explain page)
    shared: Callable[..., Any] | None = None   # shared(kind, key, compute, share=1): the page's shared results
    chosen: list = field(default_factory=list)   # the families of the scores table (names), this one first
    extra: dict = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return list(self.testset.names)

    @property
    def n_segments(self) -> int:
        return self.testset.n_segments

    @property
    def label(self) -> str:
        return self.measure.label

    def measure_scores(self) -> list:
        """Every system's :class:`explainer.family.MeasureScores` of the measure looked at."""
        return [s.measures[self.measure.key] for s in self.scores]

    def segment_scores(self, j: int) -> np.ndarray:
        return self.scores[j].measures[self.measure.key].segment_scores

    @property
    def segment_score_name(self) -> str:
        return self.scores[0].segment_score_name if self.scores else ""

    def cached(self, name: str, compute: Callable[[], Any]) -> Any:
        """An analysis of the report, computed once per report (kept with it)."""
        cache = getattr(self.report, "_cache", None)
        if cache is None:
            return compute()
        key = ("analysis", self.measure.key, name)
        if key not in cache:
            cache[key] = compute()
        return cache[key]


@dataclass(frozen=True)
class Analysis:
    """One analysis of "Where the systems differ", declared once: its ``name`` (the picker's, the saved view's),
    ``compute(focus)`` (its data), ``figure(data, focus)`` (a Plotly figure; ``customdata`` on its bars or points),
    ``lists(data, point)`` (a clicked point -> (segment ids, label[, system]): listed in the segment table, a single
    one opened), ``table(data, focus)`` (a DataFrame and, per row, the (segments, label) a click lists, or None),
    ``caption``. ``pair``: it compares the system looked at with the baseline (another system needed);
    ``draw(focus)``: an analysis that draws itself (two steps of clicks); ``opens``: a click on a point opens that
    segment (``lists`` then gives one id)."""

    name: str
    compute: Callable[[CorpusFocus], Any] | None = None
    figure: Callable[[Any, CorpusFocus], Any] | None = None
    lists: Callable[[Any, dict], tuple] | None = None
    table: Callable[[Any, CorpusFocus], tuple] | None = None
    caption: Callable[[Any, CorpusFocus], str] | str = ""
    pair: bool = False
    draw: Callable[[CorpusFocus], None] | None = None
    selection: Sequence[str] = ("points",)
    applies: Callable[[CorpusFocus], bool] | None = None


class CorpusPart:
    """A family's own part of the Corpus page. Every hook has a default that is right for a family with nothing
    of its own: its corpus scores (:meth:`report`), the generic analyses, the generic segment table."""

    #: the family's name (its UI family's)
    family: str = ""
    #: the part draws "Every implementation on this corpus" (:meth:`implementations`)
    has_implementations: bool = False

    def report(self, testset, ts_key: str, family, d, *, progress: Callable[[float, str], None], shared) -> Any:
        """The family's report on the test set under the bound dialect ``d`` (``family``: the core
        ``MetricFamily``; the report's ``corpus_scores()`` are every system's CorpusScores). The default:
        :func:`explainer.corpus.family_report.family_report`."""
        from explainer.corpus.family_report import family_report

        return family_report(testset, family, d, progress=progress)

    def sections(self, focus: CorpusFocus) -> None:
        """The family's own sections after the scores (Streamlit): the corpus score worked out, corpus vs mean."""

    def analyses(self, focus: CorpusFocus) -> tuple[Analysis, ...]:
        """The family's own analyses, after the generic ones."""
        return ()

    def reference_lengths(self, focus: CorpusFocus) -> tuple[np.ndarray, str]:
        """(reference 1's length per segment, the unit): the length buckets' measure."""
        from explainer.corpus.segment_analyses import reference_lengths

        return reference_lengths(focus.testset), "words of reference 1 (characters for text without spaces)"

    def segment_columns(self, focus: CorpusFocus) -> dict[str, list] | None:
        """The family's own per-segment table (columns: ``segment``, then ``<system> | score`` first for each
        system, ``<system> | Δ``, anything else), or None: the generic table of the measure's segment scores."""
        return None

    def segment_note(self, focus: CorpusFocus, seg: int, j: int) -> str | None:
        """A sentence on how segment ``seg`` (1-based) of system ``j`` enters the corpus score, or None."""
        return None

    def implementations(self, focus: CorpusFocus) -> None:
        """"Every implementation on this corpus" (Streamlit), when the family has several implementations."""

    def report_dict(self, focus: CorpusFocus, tests: dict | None) -> dict:
        """The whole report as JSON (the download)."""
        return focus.report.to_dict(baseline=focus.b, tests=tests)

    def warnings(self, focus: CorpusFocus) -> list[str]:
        """What the real implementation warns about on this test set (shown under the scores)."""
        return []


DEFAULT_PART = CorpusPart()
