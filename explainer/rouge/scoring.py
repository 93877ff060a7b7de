"""Scores and F-measures."""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["Score", "f1_rouge_score", "safe_div"]


class Score(NamedTuple):
    precision: float
    recall: float
    fmeasure: float

    def to_dict(self) -> dict:
        return {"precision": self.precision, "recall": self.recall, "fmeasure": self.fmeasure}


def f1_rouge_score(precision: float, recall: float) -> float:
    """rouge-score's own ``scoring.fmeasure`` (2PR/(P+R), 0 when P+R = 0)."""
    from rouge_score.scoring import fmeasure

    return fmeasure(precision, recall)


def safe_div(a, b) -> float:
    return a / b if b else 0.0
