"""One family's corpus report when the family has no report of its own: every system's
:class:`explainer.family.CorpusScores` (each measure's corpus score, segment scores and statistic) under one bound
dialect, and the JSON download. Families with richer reports (BLEU's statistics and analyses, chrF's orders,
ROUGE's aggregation) have their own (``report.py``, ``chrf_report.py``, ``rouge_report.py``); every one of them
gives its :class:`CorpusScores` the same way (``corpus_scores()``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from explainer.corpus.testset import TestSet
from explainer.family import CorpusScores

__all__ = ["FamilyReport", "family_report"]


@dataclass
class FamilyReport:
    testset: TestSet
    family: Any                   # the explainer.family.MetricFamily
    d: Any                        # the bound dialect
    scores: list[CorpusScores]    # per system, in test-set order

    @property
    def names(self) -> list[str]:
        return list(self.testset.names)

    @property
    def n_segments(self) -> int:
        return self.testset.n_segments

    @property
    def signature(self) -> str:
        return self.scores[0].signature if self.scores else ""

    def corpus_scores(self) -> list[CorpusScores]:
        return self.scores

    def to_dict(self, *, baseline: int = 0, segments: bool = True, tests: dict | None = None) -> dict:
        out: dict[str, Any] = {"kind": f"{self.family.name}-corpus-report", "dialect": self.d.name,
                               "signature": self.signature, "n_segments": self.n_segments,
                               "baseline": self.names[baseline],
                               "segment_score": self.scores[0].segment_score_name if self.scores else "",
                               "systems": [{"name": n, "scores": {k: float(m.score) for k, m in s.measures.items()}}
                                           for n, s in zip(self.names, self.scores)]}
        if tests:
            out["tests"] = tests
        if segments:
            out["segments"] = [{"segment": k + 1,
                                "systems": {n: {key: float(m.segment_scores[k]) for key, m in s.measures.items()}
                                            for n, s in zip(self.names, self.scores)}}
                               for k in range(self.n_segments)]
        return out


def family_report(testset: TestSet, family, d, *, progress: Callable[[float, str], None] | None = None
                  ) -> FamilyReport:
    """Every system of ``testset`` scored by ``family`` under the bound dialect ``d``."""
    systems = [lines for _, lines in testset.systems]
    return FamilyReport(testset, family, d, family.corpus_systems(d, systems, testset.references,
                                                                  progress=progress))
