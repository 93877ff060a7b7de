"""A dialect's place in the reproduce search space: the option combinations it is tried with, each with a cost
and the words a reader is told.

Every registered dialect of every family declares its place itself (``Dialect.search_configs(context)``), or says
why it is not searched (``Dialect.search_excluded``): the search (``explainer.dialectcmp``) loops over the
registered dialects, so a new dialect is searched without an edit there, and a contract test fails when one
declares neither (``tests/test_search_space_contract.py``).

A point's *cost* counts what a reader would have to be told to get the number: 0 for a library's defaults, more
for each unusual setting (``UNUSUAL_COST`` separates "a common configuration" from "an unusual setting"); its
*words* name the settings that are not the defaults ("lowercase", "BLEU-2", ...).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

__all__ = ["SearchContext", "SearchPoint", "point", "UNUSUAL_COST"]

#: a configuration costing this much or more needs an unusual setting
UNUSUAL_COST = 3.0


@dataclass(frozen=True)
class SearchContext:
    """What the search knows when it asks a dialect for its configurations."""

    #: a corpus score (else the score of one segment)
    corpus: bool = False
    #: some text is in a script written without spaces (Chinese, Japanese, Korean, Thai)
    no_space_script: bool = False
    #: putting each sentence on a line of its own changes some text (a summary-level score may differ)
    split_changes: bool = False
    #: what the claim names of the family's own settings, by the name the family's claim reader gives them:
    #: BLEU's ``max_order`` ("BLEU-2"), chrF's ``word_order`` ("chrF++") and ``beta`` ("chrF3")
    named: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "named", MappingProxyType(dict(self.named)))


@dataclass(frozen=True)
class SearchPoint:
    """One configuration of a dialect in the search: the options given (the rest are the dialect's defaults),
    its cost, the words for its non-default settings; ``lsum_split``: the texts are put one sentence per line
    first (as summarization scripts do for ROUGE-Lsum); ``aggregation``: how a corpus value is made from the items'
    values ("mean", "bootstrap"; "" where the family does not say)."""

    options: Mapping[str, Any]
    cost: float
    words: tuple[str, ...] = ()
    lsum_split: bool = False
    aggregation: str = ""


def point(options: Mapping[str, Any], cost: float, *words: str, lsum_split: bool = False,
          aggregation: str = "") -> SearchPoint:
    """A :class:`SearchPoint` (empty words left out)."""
    return SearchPoint(dict(options), float(cost), tuple(w for w in words if w), lsum_split, aggregation)
