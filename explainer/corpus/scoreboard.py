"""Several metrics on one test set: a column per measure of every chosen family (BLEU, chrF, TER, each ROUGE type,
…), each system's corpus score in it, the paired tests of every column against the baseline, and the comparison as
``compare`` writes it (JSON) and the paper tables read it (``explainer.corpus.tables``).

Nothing here names a family: a column is what :meth:`explainer.family.MetricFamily.corpus` gives for one measure
(its corpus score, the segment scores under the family's named definition, the ``Statistic`` the tests resample),
and its direction is the measure's (``Measure.higher_is_better``: TER is an error rate).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from explainer.family import CorpusScores, Measure, MeasureScores
from explainer.statistic import Statistic

__all__ = ["MetricColumn", "Scoreboard", "columns_of", "score_families", "column_tests", "column_dict",
           "comparison_dict", "faithful_tests"]


def faithful_tests(d) -> bool:
    """Whether the bootstrap and paired tests of the bound dialect ``d`` are its implementation's own (sacreBLEU's
    ``PairedTest``); else they are the project's extension to this metric's statistics."""
    return bool(getattr(d, "sacrebleu_significance", False))


@dataclass
class MetricColumn:
    """One measure of one family under one bound dialect, for every system of a test set (test-set order)."""

    family: str
    measure: Measure
    signature: str
    segment_score_name: str
    scores: list[MeasureScores]
    faithful: bool = False
    dialect: str = ""
    options: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The column's id: ``family`` alone for a family of one measure (``bleu``), else ``family:measure``."""
        return self.family if self.measure.key == "score" else f"{self.family}:{self.measure.key}"

    @property
    def label(self) -> str:
        return self.measure.label

    @property
    def values(self) -> list[float]:
        return [float(s.score) for s in self.scores]

    def statistics(self) -> list[Statistic] | None:
        """Every system's statistic, or None when the tests are not defined for this column (:attr:`no_tests`)."""
        out = [s.statistic for s in self.scores]
        return None if any(x is None for x in out) else out

    @property
    def no_tests(self) -> str:
        return next((s.no_tests for s in self.scores if s.statistic is None), "")


def columns_of(family, d, scores: Sequence[CorpusScores], *, measures: Sequence[str] | None = None
               ) -> list[MetricColumn]:
    """The columns of one family (``family``: its :class:`explainer.family.MetricFamily`) from every system's
    :class:`CorpusScores` under the bound dialect ``d``; ``measures``: only these measure keys."""
    out = []
    for m in family.measures(d):
        if measures is not None and m.key not in measures:
            continue
        out.append(MetricColumn(family.name, m, scores[0].signature, scores[0].segment_score_name,
                                [s.measures[m.key] for s in scores], faithful_tests(d), d.name,
                                d.options_dict() if hasattr(d, "options_dict") else dict(d.options)))
    return out


@dataclass
class Scoreboard:
    """The systems (test-set order, the first the default baseline) and a column per chosen measure."""

    names: list[str]
    n_segments: int
    n_references: int | str
    columns: list[MetricColumn]

    def column(self, key: str) -> MetricColumn:
        for c in self.columns:
            if c.key == key:
                return c
        raise KeyError(key)


def score_families(testset, chosen: Sequence[tuple[Any, Any]], *,
                   progress: Callable[[float, str], None] | None = None) -> Scoreboard:
    """Every system of ``testset`` scored by each ``(family, bound dialect)`` of ``chosen``
    (:meth:`MetricFamily.corpus_systems`), as one :class:`Scoreboard`."""
    tick = progress or (lambda f, msg: None)
    systems = [lines for _, lines in testset.systems]
    cols: list[MetricColumn] = []
    for k, (fam, d) in enumerate(chosen):
        scores = fam.corpus_systems(d, systems, testset.references,
                                    progress=lambda f, msg, _k=k, _fam=fam: tick((_k + f) / len(chosen),
                                                                                 f"{_fam.label}: {msg}"))
        cols += columns_of(fam, d, scores)
    tick(1.0, "done")
    return Scoreboard(list(testset.names), testset.n_segments, testset.n_refs(), cols)


def column_tests(col: MetricColumn, names: Sequence[str], baseline: int, *, test: str, n_samples: int,
                 seed: Any = None, n_ar_confidence: int = -1, time_limit: float | None = None,
                 progress: Callable[[float], None] | None = None):
    """sacreBLEU's paired test of every system against ``baseline`` on this column (``PairedTest``'s numbers with
    the column's statistic); ExplainerInputError when the tests are not defined for it."""
    from explainer.corpus.significance import paired_test
    from explainer.errors import ExplainerInputError

    stats = col.statistics()
    if stats is None:
        raise ExplainerInputError(col.no_tests or f"paired tests are not defined for {col.label}")
    order = [baseline] + [j for j in range(len(names)) if j != baseline]
    return paired_test([(names[j], stats[j]) for j in order], test=test, n_samples=n_samples, seed=seed,
                       n_ar_confidence=n_ar_confidence, faithful=col.faithful, time_limit=time_limit,
                       progress=progress)


def column_dict(col: MetricColumn, names: Sequence[str], result=None, *, baseline: int = 0) -> dict:
    """One column as ``compare`` writes one metric: its label, scale, direction, signature and every system's
    ``{"name", "score", "p_value", "mean", "ci"}`` (the paired test's rows, baseline first, when one was run)."""
    from explainer.corpus.significance import paired_signature

    m = col.measure
    out: dict[str, Any] = {"metric": col.family, "measure": m.key, "label": m.label, "scale": m.scale,
                           "decimals": m.decimals, "higher_is_better": m.higher_is_better, "dialect": col.dialect,
                           "options": col.options, "signature": col.signature,
                           "segment_score": col.segment_score_name}
    if result is None:
        order = [baseline] + [j for j in range(len(names)) if j != baseline]
        out["systems"] = [{"name": names[j], "score": col.values[j], "p_value": None, "mean": None, "ci": None}
                          for j in order]
        out["test"] = {"type": None, "faithful": col.faithful}
        return out
    out["systems"] = [s.to_dict() for s in result.systems]
    out["test"] = {"type": result.test, "n_samples": result.n_samples, "seed": result.seed,
                   "n_ar_confidence": result.n_ar_confidence, "faithful": result.faithful}
    if result.note:
        out["test"]["note"] = result.note
    if result.faithful:
        out["signature"] = paired_signature(col.signature, result.test, result.n_samples, result.seed,
                                            result.n_ar_confidence)
    return out


def comparison_dict(board: Scoreboard, results: dict | None = None, *, baseline: int = 0) -> dict:
    """The whole comparison: ``{"metrics": [column_dict, ...], "systems": names, "n_segments", "n_references"}``
    (``results``: column key -> its paired test, where one was run)."""
    results = results or {}
    cols = [{**column_dict(c, board.names, results.get(c.key), baseline=baseline), "n_segments": board.n_segments}
            for c in board.columns]
    return {"metrics": cols,
            "systems": [board.names[baseline]] + [n for j, n in enumerate(board.names) if j != baseline],
            "n_segments": board.n_segments, "n_references": board.n_references}
