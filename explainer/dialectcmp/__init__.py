"""Every implementation side by side, the first step where two disagree, and "which settings give this number?".

* ``compare(candidate, references, metric=<a registered family>) -> Comparison``: one row per configuration
  (built from the cores' traces) and, per pair of rows, the first divergence (``Divergence``: ``first_step`` from
  a fixed vocabulary, ``why``, the ``cells`` to highlight); ``compare_corpus`` for a corpus.
* ``reproduce(candidate, references, claim, metric="any") -> Reproduction``: every common configuration whose
  value rounds (or truncates) to a claimed number, simplest first, each with the ``python -m explainer``
  arguments that print it; the nearest ones otherwise; the implementations that tie and the chance of a
  rounding coincidence.

Every registered family is compared and searched through its part (``families``: BLEU's, ROUGE's and chrF's own
modules, the generic ``family_part`` for any other), over the search space its dialects declare (``space``).
The modules: ``comparison`` (``compare``), ``reproduction`` (``reproduce``), and their steps (``rows``,
``divergence``, ``claim``, ``space``, ``engines``, ``ties``, ...); no module is named like a public function, so
``from explainer.dialectcmp import compare`` is always the function.

Pure Python, no Streamlit. CLI: ``python -m explainer dialects|reproduce`` (docs/dialects-compare.md).
"""
from __future__ import annotations

_LAZY = {
    "compare": ("explainer.dialectcmp.comparison", "compare"),
    "compare_corpus": ("explainer.dialectcmp.comparison", "compare_corpus"),
    "Comparison": ("explainer.dialectcmp.comparison", "Comparison"),
    "Divergence": ("explainer.dialectcmp.divergence", "Divergence"),
    "BLEU_STEPS": ("explainer.dialectcmp.divergence", "BLEU_STEPS"),
    "ROUGE_STEPS": ("explainer.dialectcmp.divergence", "ROUGE_STEPS"),
    "reproduce": ("explainer.dialectcmp.reproduction", "reproduce"),
    "Reproduction": ("explainer.dialectcmp.reproduction", "Reproduction"),
    "parse_claim": ("explainer.dialectcmp.claim", "parse_claim"),
    "Claim": ("explainer.dialectcmp.claim", "Claim"),
}

__all__ = list(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        mod, attr = _LAZY[name]
        return getattr(importlib.import_module(mod), attr)
    raise AttributeError(f"module 'explainer.dialectcmp' has no attribute {name!r}")
