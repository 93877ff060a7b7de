"""Corpus mode: whole test sets, several systems, confidence intervals and paired significance tests.

Pure Python (no Streamlit). The scores come from the cores (``explainer.bleu``, ``explainer.rouge``); this package
adds what a test set needs:

* ``testset``: loading plain text / .jsonl / .tsv, line-count and encoding errors naming file and line, limits;
* ``bleu_report(testset, dialect=..., **options)`` / ``rouge_report(...)``: corpus scores per system, the corpus
  trace, per-segment scores and the analyses (``report.py``, ``rouge_report.py``, ``ngram_diff.py``);
* ``significance``: sacreBLEU 2.6's paired bootstrap, paired approximate randomization and bootstrap CI,
  number for number (``rowscore.py`` scores resampled rows with ``compute_bleu``'s own arithmetic);
* ``samples``: bundled sample corpora; ``cli``: ``python -m explainer compare``.
"""
from __future__ import annotations

__all__ = ["TestSet", "build_testset", "bleu_report", "rouge_report", "paired_test", "bootstrap_confidence",
           "load_sample", "SAMPLES"]

_LAZY = {
    "TestSet": ("explainer.corpus.testset", "TestSet"),
    "build_testset": ("explainer.corpus.testset", "build_testset"),
    "bleu_report": ("explainer.corpus.report", "bleu_report"),
    "rouge_report": ("explainer.corpus.rouge_report", "rouge_report"),
    "paired_test": ("explainer.corpus.significance", "paired_test"),
    "bootstrap_confidence": ("explainer.corpus.significance", "bootstrap_confidence"),
    "load_sample": ("explainer.corpus.samples", "load_sample"),
    "SAMPLES": ("explainer.corpus.samples", "SAMPLES"),
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        mod, attr = _LAZY[name]
        return getattr(importlib.import_module(mod), attr)
    raise AttributeError(f"module 'explainer.corpus' has no attribute {name!r}")
