"""What the Dialects feature does with one metric family: read the claims that name it, search its configurations
for a claimed number, and put its implementations side by side.

:class:`FamilyPart` is the generic part every registered family gets from its registries alone
(``explainer.families.FAMILIES``): a claim names the family by its label (or the family's ``claim_names``); the
search tries every dialect's ``search_configs`` and scores them with ``fam.scores`` (one segment) or
``fam.corpus`` (a corpus); the side-by-side table has a row per dialect and per notable option combination the
dialect declares (``comparison_rows``), its numbers from ``fam.scores``, and two rows differ "by option"
(``generic_compare``). A family with its own (BLEU, ROUGE, chrF: shared work, rich rows, the first step where two
implementations diverge) subclasses it in a module named after it, registered in
``explainer/dialectcmp/families.py``.
"""
from __future__ import annotations

import re
from typing import Callable, ClassVar, Sequence

from explainer.dialectcmp.limits import segment_scores
from explainer.dialectcmp.space import SearchContext, family_space

__all__ = ["FamilyPart", "Tick", "blank"]

#: called as configurations are scored: ``tick(k)`` = k more done
Tick = Callable[[int], None]


def blank(m) -> str:
    """A matched name replaced by spaces (so that what is left is the number, and positions stay)."""
    return " " * (m.end() - m.start())


class FamilyPart:
    """The Dialects feature's part of one family (the generic one; see the module's docstring)."""

    #: a claim that names no metric ("38.0") is searched in this family too (the numbers papers print bare)
    searches_unnamed_claims: ClassVar[bool] = False
    #: claim readers read the names in this order (a lower one first: chrF's "chrF2" before ROUGE's "R-2")
    claim_order: ClassVar[int] = 50

    def __init__(self, family) -> None:
        self.family = family

    @property
    def name(self) -> str:
        return self.family.name

    @property
    def label(self) -> str:
        return self.family.label

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    # ------------------------------------------------------------------------------------------------ claims
    def metric_choices(self) -> tuple[str, ...]:
        """What ``--metric`` (the page's "It is") may say to narrow a claim to this family."""
        return (self.name,)

    def name_pattern(self) -> re.Pattern:
        """How papers print the family's name, over the lowercased claim."""
        return re.compile(self.family.claim_names or rf"\b{re.escape(self.label.lower())}\b")

    def reads_name(self, word: str) -> bool:
        """``word`` (lowercased) is a name of this family (a metric name the refusal list must then not refuse)."""
        return bool(self.name_pattern().search(word))

    def read_name(self, s: str) -> tuple[str, dict | None]:
        """The family's name in the (lowercased) claim: (the claim with the name blanked, what the name says of
        the family's settings, e.g. ``{"max_order": 2}`` for "BLEU-2") or (s, None) when not named."""
        rx = self.name_pattern()
        if not rx.search(s):
            return s, None
        return rx.sub(blank, s), {}

    def read_own_measures(self, s: str) -> tuple[str, list[str], bool]:
        """Measure words only this family has (BLEU's "BP", "2-gram precision"): (the claim with them blanked, the
        measures, whether they say the claim is this family's)."""
        return s, [], False

    def claim_measures(self, measures: Sequence[str], said: bool) -> tuple[str, ...]:
        """The measures a claim of this family asks for, from the measure words read (``said``: the claim itself
        says the family, by its name or a measure only it has; else only ``--metric`` does)."""
        return ("score",)

    def narrow_named(self, named: dict, metric: str) -> dict:
        """What ``--metric`` (one of ``metric_choices``) says of the family's settings, on top of the claim's."""
        return named

    def claim_fields(self, named: dict) -> dict:
        """The family's own fields of a parsed claim's JSON (``Claim.to_dict``)."""
        return {}

    def value_limit(self) -> float | None:
        """The largest value a claim of this family may have: 100 (a 0-1 score is printed ×100 at most); None for
        an error rate (TER exceeds 100 when there are more edits than reference words)."""
        ms = self.family.measures(self.family.bind())
        return None if any(not m.higher_is_better for m in ms) else 100.0

    # ------------------------------------------------------------------------------------------------ search
    def searches(self, claim) -> bool:
        """This family is searched for ``claim``."""
        if claim.family is not None:
            return claim.family == self.name
        return self.searches_unnamed_claims and self.unnamed_measures(claim) is not None

    def unnamed_measures(self, claim) -> tuple[str, ...] | None:
        """The measures a claim without a metric's name is searched under here (None: not searched here)."""
        return ("score",)

    def space(self, claim, context: SearchContext):
        """The configurations searched for ``claim`` (``explainer.dialectcmp.space.family_space``)."""
        return family_space(self.name, context)

    def search(self, col, claim, candidate: str, references: list[str], subsets, context: SearchContext,
               tick: Tick) -> int:
        """Score every configuration on every reference subset into the collector ``col``
        (``explainer.dialectcmp.reproduction``); returns the number of configurations."""
        from explainer.dialectcmp.generic_search import search_segment

        return search_segment(self, col, claim, candidate, references, subsets, context, tick)

    def search_corpus(self, col, claim, candidates, references, subsets, context: SearchContext, tick: Tick) -> int:
        """The same for a corpus score (``col`` a corpus collector: its matches carry the corpus command)."""
        from explainer.dialectcmp.generic_search import search_corpus

        return search_corpus(self, col, claim, candidates, references, subsets, context, tick)

    # ------------------------------------------------------------------------------------------------ printed
    def judge_bound(self, candidate: str, references: list[str], agrees):
        """A bound the textbook prints ("a score of 1 is unattainable") under every configuration searched: the
        simplest whose value (on 0-1) ``agrees``, else "holds nowhere"
        (``explainer.dialectcmp.verdict.Judgement``)."""
        from explainer.dialectcmp.space import search_context
        from explainer.dialectcmp.verdict import Judgement

        fam = self.family
        for sc in sorted(self.space(None, search_context([candidate, *references])), key=lambda x: x.cost):
            d = sc.config.bound()
            m = fam.main_measure(d)
            v = segment_scores(fam, d, candidate, references).get(m.key)
            if v is not None and agrees(v / m.scale):
                return Judgement("holds-otherwise", ", ".join((sc.dialect,) + sc.words) + f": {v / m.scale:.6g}")
        return Judgement("holds-nowhere", "every configuration searched gives at least the bound")

    def judge_count(self, candidate: str, references: list[str], what: str, value: float):
        """A count the textbook prints (an LCS length): not searched unless the family has counts to search."""
        from explainer.dialectcmp.verdict import Judgement

        return Judgement("not-searched", "")

    # ------------------------------------------------------------------------------------------------ compare
    def comparison_types(self, types: str | None) -> tuple:
        """``--types`` for this family's comparison (ROUGE's; a ValueError for a family without types)."""
        if types is not None:
            raise ValueError(f"{self.label} has no types")
        return ()

    @property
    def has_types(self) -> bool:
        return False

    def row_configs(self, texts: Sequence[str], types: Sequence[str] = ()):
        """The side-by-side rows' configurations for these texts (no scoring)."""
        from explainer.dialectcmp.generic_compare import row_configs

        return row_configs(self.family, texts)

    def compare(self, candidate: str, references: Sequence[str], *, types: Sequence[str] = (), configs=None,
                pairs: Sequence[tuple[str, str]] | None = None):
        """Hook: one segment (the limits already checked, ``comparison.compare``): every row and the first
        difference of each pair (default: each row against the first)."""
        from explainer.dialectcmp.generic_compare import compare

        return compare(self.family, candidate, references, configs=configs, pairs=pairs)

    def compare_corpus(self, candidates, references, *, types: Sequence[str] = (), configs=None,
                       pairs: Sequence[tuple[str, str]] | None = None, progress=None):
        """Hook: a corpus (the limits already checked, ``comparison.compare_corpus``): every row's corpus scores and
        the first difference of each pair."""
        from explainer.dialectcmp.generic_compare import compare_corpus

        return compare_corpus(self.family, candidates, references, configs=configs, pairs=pairs, progress=progress)

    def divergence(self, cmp, a: str, b: str):
        """Hook: the first difference of rows ``a`` and ``b`` of a comparison this part made."""
        from explainer.dialectcmp.generic_compare import divergence

        return divergence(cmp, a, b)
