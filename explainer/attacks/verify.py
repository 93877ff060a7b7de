"""Independent re-scoring with the REAL packages (sacreBLEU, rouge-score), for the lab's on-page checks.

The lab's numbers come from the explainer's cores (``scoring.py``); this module does not feed any number the
page shows. It calls the public APIs of the installed packages - ``sacrebleu.metrics.BLEU(...).sentence_score``
with the options of the lab's default BLEU definition (13a, case-sensitive, exp smoothing, effective order,
i.e. ``sacrebleu.sentence_bleu``) and ``rouge_score.rouge_scorer.RougeScorer(..., use_stemmer=False)``
(``score_multi`` with several references, best F per type) - so the page can say whether what it shows is
what the libraries themselves say.
"""
from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass
from typing import Mapping, Sequence

from rouge_score import rouge_scorer

from explainer.attacks.scoring import SENTENCE_BLEU, BleuConfig

__all__ = ["real_scores", "compare", "Mismatch", "PACKAGES", "REAL_METRICS"]

REAL_METRICS = ("bleu", "bleu_bp", "rouge1_p", "rouge1_r", "rouge1_f", "rouge2_p", "rouge2_r", "rouge2_f",
                "rougeL_p", "rougeL_r", "rougeL_f")


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - both are requirements
        return "?"


PACKAGES = f"sacreBLEU {_version('sacrebleu')} / rouge-score {_version('rouge-score')}"


def real_scores(candidate: str, references: Sequence[str], bleu: BleuConfig = SENTENCE_BLEU) -> dict[str, float]:
    """Every metric of :data:`REAL_METRICS` for one candidate, computed by the installed packages (a
    configuration whose dialect has the real library's metric object, ``library_metric``: sacreBLEU's)."""
    metric = bleu.dialect_object().library_metric()
    if metric is None:
        raise ValueError(f"the real-package check runs sacreBLEU; the {bleu.dialect} dialect is not sacreBLEU")
    refs = list(references)
    b = metric.sentence_score(candidate, refs) if bleu.get("api") == "sentence_bleu" else metric.corpus_score(
        [candidate], [[r] for r in refs])
    sc = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=False)
    r = sc.score_multi(refs, candidate)  # best F per type; with one reference the same as score()
    out = {"bleu": float(b.score), "bleu_bp": float(b.bp)}
    for t in ("rouge1", "rouge2", "rougeL"):
        out[f"{t}_p"], out[f"{t}_r"], out[f"{t}_f"] = (float(r[t].precision), float(r[t].recall),
                                                       float(r[t].fmeasure))
    return out


@dataclass(frozen=True)
class Mismatch:
    label: str  # which text ("start", "final")
    metric: str
    shown: float
    real: float


def compare(label: str, shown: Mapping[str, float], real: Mapping[str, float], tol: float = 1e-9) -> list[Mismatch]:
    """Every metric present in both mappings whose values differ by more than ``tol``."""
    return [Mismatch(label, m, float(shown[m]), float(real[m])) for m in real
            if m in shown and abs(float(shown[m]) - float(real[m])) > tol]
