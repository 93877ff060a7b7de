"""The metric families' own parts of the Corpus page (``explainer.ui.corpus.part.CorpusPart``): one line each, the
module whose ``PART`` is the family's (its ``family``); a family without one gets the default part (its corpus
scores and the generic analyses only). Registered here rather than through the UI family
(``explainer.ui.families``): a part draws "Every implementation on this corpus" with the Dialects page's views,
which import the settings and so the UI families — the UI family pointing at its part would close that circle.
"""
from __future__ import annotations

import importlib
from functools import lru_cache

from explainer.ui.corpus.part import DEFAULT_PART, CorpusPart

__all__ = ["PART_MODULES", "corpus_part"]

PART_MODULES = (
    "explainer.ui.corpus.bleu_part",
    "explainer.ui.corpus.rouge_part",
    "explainer.ui.corpus.chrf_part",
)


@lru_cache(maxsize=None)
def corpus_part(family: str) -> CorpusPart:
    """The family's own part of the Corpus page, or the default."""
    for path in PART_MODULES:
        part = importlib.import_module(path).PART
        if part.family == family:
            return part
    return DEFAULT_PART
