"""Text-metric explainer (BLEU, ROUGE, chrF, TER, STS / BERTScore): compute the metrics exactly as the real
implementations do, recording every step.

Public API (pure Python, no Streamlit):

* ``explain_bleu(candidate, references, *, dialect="sacrebleu", **options) -> BleuTrace``
* ``explain_bleu_corpus(candidates, references, *, dialect="sacrebleu", **options) -> BleuCorpusTrace``
* ``score_bleu`` / ``score_bleu_corpus`` (statistics only) and ``bootstrap_bleu_corpus``
* ``explain_rouge(candidate, references, *, dialect="rouge-score", types=..., **options) -> RougeTrace``
* ``score_rouge`` (scores only) and ``explain_rouge_corpus``
* ``explain_chrf(candidate, references, *, dialect="sacrebleu", **options) -> ChrfTrace`` (chrF, chrF++:
  ``word_order=2``), ``explain_chrf_corpus``, ``score_chrf`` / ``score_chrf_corpus`` (statistics only)
* ``explain_ter(candidate, references, *, dialect="sacrebleu", **options) -> TerTrace`` (every shift and edit),
  ``explain_ter_corpus``, ``score_ter`` / ``score_ter_corpus`` (statistics only)
* ``explainer.families.FAMILIES``: every metric family, for code that loops over them

Architecture and the dialect contract: docs/architecture.md.

Imports are lazy so that ``import explainer`` stays cheap.
"""
from __future__ import annotations

__version__ = "0.1.0"

_LAZY = {
    "explain_bleu": ("explainer.bleu", "explain_bleu"),
    "explain_bleu_corpus": ("explainer.bleu", "explain_bleu_corpus"),
    "score_bleu": ("explainer.bleu", "score_bleu"),
    "score_bleu_corpus": ("explainer.bleu", "score_bleu_corpus"),
    "bootstrap_bleu_corpus": ("explainer.bleu", "bootstrap_bleu_corpus"),
    "BleuTrace": ("explainer.bleu", "BleuTrace"),
    "BleuCorpusTrace": ("explainer.bleu", "BleuCorpusTrace"),
    "BleuStats": ("explainer.bleu", "BleuStats"),
    "explain_rouge": ("explainer.rouge", "explain_rouge"),
    "explain_rouge_corpus": ("explainer.rouge", "explain_rouge_corpus"),
    "score_rouge": ("explainer.rouge", "score_rouge"),
    "RougeTrace": ("explainer.rouge", "RougeTrace"),
    "RougeCorpusTrace": ("explainer.rouge", "RougeCorpusTrace"),
    "explain_chrf": ("explainer.chrf", "explain_chrf"),
    "explain_chrf_corpus": ("explainer.chrf", "explain_chrf_corpus"),
    "score_chrf": ("explainer.chrf", "score_chrf"),
    "score_chrf_corpus": ("explainer.chrf", "score_chrf_corpus"),
    "ChrfTrace": ("explainer.chrf", "ChrfTrace"),
    "ChrfCorpusTrace": ("explainer.chrf", "ChrfCorpusTrace"),
    "ChrfStats": ("explainer.chrf", "ChrfStats"),
    "explain_ter": ("explainer.ter", "explain_ter"),
    "explain_ter_corpus": ("explainer.ter", "explain_ter_corpus"),
    "score_ter": ("explainer.ter", "score_ter"),
    "score_ter_corpus": ("explainer.ter", "score_ter_corpus"),
    "TerTrace": ("explainer.ter", "TerTrace"),
    "TerCorpusTrace": ("explainer.ter", "TerCorpusTrace"),
    "TerStats": ("explainer.ter", "TerStats"),
}

__all__ = list(_LAZY) + ["__version__"]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        mod, attr = _LAZY[name]
        return getattr(importlib.import_module(mod), attr)
    raise AttributeError(f"module 'explainer' has no attribute {name!r}")
