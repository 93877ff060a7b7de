"""chrF's own part of the Dialects feature (``family_part.FamilyPart``): its claims ("chrF2 41.0", "chrF++ 55.2",
"chrF3"), its search (``chrf_space``: a corpus shares the n-gram statistics of the configurations that count the
same n-grams) and its side by side with the first step where two implementations diverge (``chrf_compare``)."""
from __future__ import annotations

import re

from explainer.dialectcmp.chrf_space import search_chrf, search_chrf_corpus
from explainer.dialectcmp.family_part import FamilyPart, blank

__all__ = ["ChrfPart", "PART"]

#: "chrF", "chrF2", "chrF++", "chrF2++", "chrF+" (the beta digit is written right after the name)
_CHRF = re.compile(r"\bchrf(\d)?(\+\+|\+)?(?![\w])")


class ChrfPart(FamilyPart):
    claim_order = 5         # before ROUGE's "R-2" and BLEU's names

    def read_name(self, s: str):
        """The last chrF name written: its word order ("++": 2, "+": 1) and beta (the digit), when written."""
        found = None
        for m in _CHRF.finditer(s):
            found = {}
            plus = {"++": 2, "+": 1}.get(m.group(2) or "")
            if plus is not None:
                found["word_order"] = plus
            if m.group(1):
                found["beta"] = int(m.group(1))
        return _CHRF.sub(blank, s), found

    def reads_name(self, word: str) -> bool:
        return bool(_CHRF.search(word))

    # ---------------------------------------------------------------------------------------------- search
    def search(self, col, claim, candidate, references, subsets, context, tick) -> int:
        n = search_chrf(col, claim, candidate, references, subsets)
        tick(n)
        return n

    def search_corpus(self, col, claim, candidates, references, subsets, context, tick) -> int:
        n = search_chrf_corpus(col, claim, candidates, references, subsets)
        tick(n)
        return n

    # ---------------------------------------------------------------------------------------------- compare
    def row_configs(self, texts, types=()):
        from explainer.dialectcmp.chrf_compare import row_specs
        from explainer.dialectcmp.configs import Config

        return [Config.make(self.name, dialect, opts, id=rid, label=label)
                for rid, dialect, opts, label in row_specs(list(texts))]

    def compare(self, candidate, references, *, types=(), configs=None, pairs=None):
        from explainer.dialectcmp.chrf_compare import segment_comparison

        return segment_comparison(candidate, references, pairs)

    def compare_corpus(self, candidates, references, *, types=(), configs=None, pairs=None, progress=None):
        from explainer.dialectcmp.chrf_compare import corpus_chrf_comparison

        return corpus_chrf_comparison(candidates, references, pairs, progress)

    def divergence(self, cmp, a: str, b: str):
        return cmp.divergence(a, b)


def _part() -> ChrfPart:
    from explainer.families import get_family

    return ChrfPart(get_family("chrf"))


PART = _part()
