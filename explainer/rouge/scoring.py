"""Scores and F-measures."""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["Score", "f1_rouge_score", "f_alpha", "safe_div"]


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


def f_alpha(precision: float, recall: float, alpha: float = 0.5) -> float:
    """ROUGE-1.5.5's F = P*R / ((1-alpha)*P + alpha*R); 0 when P or R is 0."""
    if precision == 0 or recall == 0:
        return 0.0
    return precision * recall / ((1 - alpha) * precision + alpha * recall)


def safe_div(a, b) -> float:
    return a / b if b else 0.0
