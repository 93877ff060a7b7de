"""The Gaming lab's metrics: every registered metric family's measures, each text scored through its family.

A lab table has a column per measure of every family in :data:`explainer.families.FAMILIES` (BLEU; ROUGE-1, -2,
-L, -Lsum; chrF2; TER; any family registered later), so that every attack shows every metric's verdict. Each family
scores with the lab's dialect for it: the lab's own configuration where it has one (:data:`LAB_CONFIGS`:
``sacrebleu.sentence_bleu`` and rouge-score, as the catalogue measures), else the family's default dialect; a
preset's variant may fix another (its ``bleu`` / ``rouge``). A column's numbers are on its measure's scale (a
dialect that reports on another scale is converted: Hugging Face's BLEU 0-1 shown on sacreBLEU's 0-100).

Work that scores many texts (sweeps, the optimizer) uses :meth:`explainer.family.MetricFamily.bounded_scores`: a
score that would take more than :data:`LAB_SECONDS` of CPU (TER's shift search on a long shuffled text) is left out
and said so, and the work can stop between any two scores.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

from explainer.attacks.configs import ROUGE_SCORE, SENTENCE_BLEU
from explainer.families import FAMILIES
from explainer.family import Measure, MetricFamily

__all__ = ["Column", "LAB_CONFIGS", "LAB_SECONDS", "family_of", "lab_dialects", "columns", "column_map",
           "TextScorer", "OVER_LIMIT", "converted"]

#: the lab's own dialects (the catalogue's definitions); a family not here scores with its default dialect
LAB_CONFIGS = (SENTENCE_BLEU, ROUGE_SCORE)
#: the most CPU (seconds) one family may take to score one text in a sweep or an optimizer step
LAB_SECONDS = 0.1
#: why a cell has no number when the family's bounded score gave up
OVER_LIMIT = "over the lab's work limit for one score (the metric's search grows steeply with this text)"


@dataclass(frozen=True)
class Column:
    """One column of a lab table: a measure of a family (``lesson`` empty), or one of a lesson's own numbers
    (``lesson``: its key in :data:`explainer.attacks.scoring.METRICS`, e.g. BLEU's brevity penalty), shown in its
    family's group."""

    family: str
    family_label: str
    measure: Measure
    reads: str = "n-gram"
    lesson: str = ""
    decimals: int | None = None     # as the lab shows it (None: the measure's own)

    @property
    def key(self) -> str:
        """The column's id in tables, links and CSV files: ``family:measure`` (``bleu:score``, ``rouge:rouge1``)
        or the lesson number's own key (``bleu_bp``)."""
        return self.lesson or f"{self.family}:{self.measure.key}"

    @property
    def label(self) -> str:
        return self.measure.label

    @property
    def shown_decimals(self) -> int:
        return self.measure.decimals if self.decimals is None else self.decimals

    def fmt(self, value: float | None) -> str:
        if value is None or value != value:
            return "—"
        return f"{value:.{self.shown_decimals}f}"


def family_of(d) -> MetricFamily | None:
    """The registered family a bound dialect belongs to (its class is in the family's registry), or None."""
    for name in FAMILIES:
        fam = FAMILIES[name]
        if fam.dialects.get(getattr(d, "name", None)) is type(d):
            return fam
    return None


def lab_dialects(configs: Iterable = LAB_CONFIGS) -> dict[str, object]:
    """family name -> the bound dialect the lab scores with: ``configs``' dialects (lab configurations, e.g. a
    preset variant's ``bleu`` / ``rouge``) where they belong to a family, every other family's default."""
    out = {}
    for c in configs:
        d = c.dialect_object() if hasattr(c, "dialect_object") else c
        fam = family_of(d)
        if fam is not None:
            out[fam.name] = d
    return {name: out.get(name) or FAMILIES[name].bind() for name in FAMILIES}


def columns(dialects: Mapping[str, object]) -> list[Column]:
    """Every family's measures, in the registry's order (a family missing from ``dialects``: its default)."""
    out = []
    for name in FAMILIES:
        fam = FAMILIES[name]
        d = dialects.get(name) or fam.bind()
        out += [Column(name, fam.label, m, fam.reads, decimals=_lab_decimals(m)) for m in fam.measures(d)]
    return out


def _lab_decimals(m: Measure) -> int:
    """The lab's tables show a 0-1 score with 2 decimals (as the catalogue prints them; the verdict and the delta
    say when a difference hides below them), a 0-100 score with the measure's own."""
    return min(m.decimals, 2) if m.scale <= 1 else m.decimals


def column_map(cols: Sequence[Column]) -> dict[str, Column]:
    return {c.key: c for c in cols}


def converted(value: float | None, measure: Measure, column: Measure) -> float | None:
    """A value a dialect reports on ``measure``'s scale, on the column's scale."""
    if value is None or measure.scale == column.scale:
        return value
    return value * column.scale / measure.scale


class TextScorer:
    """Scores texts against fixed references with every family (bounded, see the module notes).

    ``score(text, tick)`` -> column key -> value (None: not computed, the reason in ``why``); ``tick()`` is called
    between two families' scores (a page's Stop and progress; it may raise to stop)."""

    def __init__(self, references: Sequence[str], dialects: Mapping[str, object] | None = None, *,
                 seconds: float = LAB_SECONDS, families: Iterable[str] | None = None) -> None:
        self.references = list(references)
        self.dialects = dict(dialects or lab_dialects())
        self.seconds = seconds
        self.names = [n for n in FAMILIES if families is None or n in set(families)]
        self.columns = [c for c in columns(self.dialects) if c.family in self.names]
        self.why: dict[str, str] = {}

    def family_scores(self, name: str, text: str) -> dict[str, float] | None:
        """One family's measures for ``text`` (None: over the work limit; ValueError: the family refuses it)."""
        fam = FAMILIES[name]
        return fam.bounded_scores(self.dialects[name], text, self.references, seconds=self.seconds)

    def score(self, text: str, tick: Callable[[], None] | None = None) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for name in self.names:
            if tick is not None:
                tick()
            cols = [c for c in self.columns if c.family == name]
            try:
                vals = self.family_scores(name, text)
                why = OVER_LIMIT if vals is None else ""
            except ValueError as e:      # input the family refuses (too many words for TER, ...)
                vals, why = None, str(e)
            for c in cols:
                out[c.key] = None if vals is None else vals.get(c.measure.key)
                if why:
                    self.why[c.key] = why
        return out
