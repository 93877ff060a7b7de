"""Moved to :mod:`explainer.analysis.diagnosis` (analysis over traces is not UI); kept as an alias for code
written before the move."""
from explainer.analysis.diagnosis import Finding, diagnose_bleu, diagnose_rouge  # noqa: F401

__all__ = ["Finding", "diagnose_bleu", "diagnose_rouge"]
