"""The reproduce search space: every registered dialect of every family, at the place it declares.

Each dialect says which of its option combinations the search tries, with their cost and words
(``Dialect.search_configs``, ``explainer/search_space.py``), or why it is not searched (``search_excluded``);
``family_space`` collects them for one family in the registry's order, as :class:`SearchConfig` s.
``unsearched_dialects`` names the dialects that declare neither (a contract test keeps it empty).

A configuration's cost counts what a reader would have to be told: 0 for a library's defaults, more for each
unusual setting. ``UNUSUAL_COST`` separates "a common configuration" from "an unusual setting".
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from explainer.dialect import Dialect
from explainer.dialectcmp.configs import Config
from explainer.search_space import UNUSUAL_COST, SearchContext
from explainer.text import has_no_space_script

__all__ = ["SearchConfig", "UNUSUAL_COST", "family_space", "search_context", "split_sentences_per_line",
           "search_status", "unsearched_dialects", "SearchContext"]


@dataclass(frozen=True)
class SearchConfig:
    config: Config
    cost: float
    words: tuple            # the non-default settings, in words ("lowercase", "BLEU-2", ...)
    lsum_split: bool = False        # the texts are put one sentence per line first (summary-level ROUGE)
    aggregation: str = ""           # a corpus value: "mean" or "bootstrap" (the implementation's resampling)

    @property
    def dialect(self) -> str:
        return self.config.dialect


_SENT_END = re.compile(r"(?<=[.!?])[ \t]+(?=\S)")


def split_sentences_per_line(text: str) -> str:
    """One sentence per line, as summarization scripts prepare texts for ROUGE-Lsum (a line break after . ! ?
    followed by a space; existing line breaks stay)."""
    return _SENT_END.sub("\n", text)


def search_context(texts: Sequence[str], *, corpus: bool = False, named=None) -> SearchContext:
    """What the dialects are told about the texts searched (and what the claim names of the family's settings)."""
    texts = list(texts)
    return SearchContext(corpus=corpus, no_space_script=has_no_space_script(texts),
                         split_changes=not corpus and any(split_sentences_per_line(t) != t for t in texts),
                         named=dict(named or {}))


def search_status(cls: type) -> str | None:
    """"searched" when the dialect declares its place in the search, its reason when it says why it is not
    searched, None when it says neither (a contract failure)."""
    if cls.search_excluded:
        return cls.search_excluded
    if getattr(cls.search_configs, "__func__", None) is not Dialect.search_configs.__func__:
        return "searched"
    return None


def unsearched_dialects(families=None) -> list[str]:
    """``family/dialect`` for every registered dialect that neither declares its place in the search nor says why
    it is not searched (``families``: a mapping name -> MetricFamily; default: every registered family)."""
    from explainer.families import FAMILIES

    fams = FAMILIES if families is None else families
    return [f"{name}/{d}" for name in fams for d in fams[name].dialect_names()
            if search_status(fams[name].dialects.dialect_class(d)) is None]


def family_space(family: str, context: SearchContext) -> list[SearchConfig]:
    """Every configuration searched for the family ``family`` in ``context``: each registered dialect's own points
    (``search_configs``), dialects in the registry's order; a dialect that is not searched adds none."""
    from explainer.families import get_family

    fam = get_family(family)
    out: list[SearchConfig] = []
    for name in fam.dialect_names():
        cls = fam.dialects.dialect_class(name)
        if search_status(cls) != "searched":
            continue
        for p in cls.search_configs(context) or ():
            out.append(SearchConfig(Config.make(family, name, dict(p.options)), p.cost, p.words, p.lsum_split,
                                    p.aggregation))
    return out

