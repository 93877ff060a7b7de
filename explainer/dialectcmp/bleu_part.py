"""BLEU's own part of the Dialects feature (``family_part.FamilyPart``): its claims ("BLEU-2 27.3", "BP 0.0131",
"unigram precision 0.29"), its search with the work shared between configurations (``bleu_search``), and its
side by side with the first of the algorithm's steps where two implementations diverge (``divergence``)."""
from __future__ import annotations

import re
from typing import Sequence

from explainer.dialectcmp.bleu_search import BLEU_MEASURES, search_corpus, search_segment
from explainer.dialectcmp.family_part import FamilyPart, blank

__all__ = ["BleuPart", "PART", "bleu_space"]

_BLEU = re.compile(r"\b(?:sacre)?bleu(?![a-z])(?:[\s_-]*@?\s*([1-9])(?![\d.]))?")   # not BLEURT
_BLEU_PREC = re.compile(r"\b(?:p([1-4])|([1-4])-?gram precision|(uni|bi|tri|four)-?gram precision)\b")
_BP = re.compile(r"\b(?:bp|brevity[\s-]*penalty)\b")
_ORDINAL = {"uni": 1, "bi": 2, "tri": 3, "four": 4}


class BleuPart(FamilyPart):
    searches_unnamed_claims = True
    claim_order = 10

    # ---------------------------------------------------------------------------------------------- claims
    def read_name(self, s: str):
        """"BLEU", "sacreBLEU", "BLEU-4", "BLEU@2": the order written is the highest n-gram order."""
        found = list(_BLEU.finditer(s))
        if not found:
            return s, None
        orders = [int(m.group(1)) for m in found if m.group(1)]
        return _BLEU.sub(blank, s), ({"max_order": orders[-1]} if orders else {})

    def reads_name(self, word: str) -> bool:
        return bool(_BLEU.search(word))

    def read_own_measures(self, s: str):
        """An n-gram precision ("p2", "2-gram precision", "bigram precision") or the brevity penalty."""
        out = []
        m = _BLEU_PREC.search(s)
        if m:
            out.append(f"p{int(m.group(1) or m.group(2) or _ORDINAL[m.group(3)])}")
            s = _BLEU_PREC.sub(blank, s)
        if _BP.search(s):
            out.append("bp")
            s = _BP.sub(blank, s)
        return s, out, True

    def claim_measures(self, measures, said: bool):
        """The score, the BP or an n-gram precision; a bare "precision" of a BLEU claim is the unigram one."""
        ms = [("p1" if x == "precision" and said else x) for x in measures]
        return tuple(x for x in ms if x in BLEU_MEASURES[1:]) or ("score",)

    def claim_fields(self, named: dict) -> dict:
        return {"bleu_order": named.get("max_order")}

    def unnamed_measures(self, claim):
        """A number without a name: the score (a "precision" claim: each n-gram precision); not with a recall or
        an F, which BLEU does not report."""
        if set(claim.measures) & {"recall", "fmeasure"}:
            return None
        return ("p1", "p2", "p3", "p4") if "precision" in claim.measures else ("score",)

    def _measures(self, claim) -> tuple[str, ...]:
        ms = claim.measures if claim.family == self.name else self.unnamed_measures(claim)
        return tuple(m for m in ms if m in BLEU_MEASURES) or ("score",)

    # ---------------------------------------------------------------------------------------------- search
    def search(self, col, claim, candidate, references, subsets, context, tick) -> int:
        space = self.space(claim, context)
        search_segment(col, self._measures(claim), space, subsets, candidate, references, tick)
        return len(space)

    def search_corpus(self, col, claim, candidates, references, subsets, context, tick) -> int:
        space = self.space(claim, context)
        search_corpus(col, self._measures(claim), space, subsets, candidates, references, tick)
        return len(space)

    def judge_bound(self, candidate, references, agrees):
        """A bound ("BLEU stays below 1") under every BLEU configuration searched, the simplest first (where the
        real library fails there is no number to agree)."""
        from explainer.dialectcmp.engines import BleuEngine
        from explainer.dialectcmp.verdict import Judgement

        eng = BleuEngine(candidate, references)
        subset = tuple(range(len(references)))
        for sc in sorted(bleu_space([candidate, *references]), key=lambda x: x.cost):
            res = eng.score(sc.dialect, sc.config.opts, subset)
            scale = eng.dialect(sc.dialect, sc.config.opts).scale
            if res.error is None and agrees(res.score / scale):
                return Judgement("holds-otherwise", ", ".join((sc.dialect,) + sc.words) + f": {res.score / scale:.6g}")
        return Judgement("holds-nowhere", "every configuration searched gives at least the bound")

    # ---------------------------------------------------------------------------------------------- compare
    def row_configs(self, texts: Sequence[str], types: Sequence[str] = ()):
        from explainer.dialectcmp.rows import bleu_row_configs

        return bleu_row_configs(texts)

    def compare(self, candidate, references, *, types=(), configs=None, pairs=None):
        from explainer.bleu import explain_bleu
        from explainer.dialectcmp.rows import bleu_row
        from explainer.dialectcmp.side_by_side import build

        configs = configs if configs is not None else self.row_configs([candidate] + list(references))
        return build("segment", self.name, candidate, references, configs,
                     lambda c: bleu_row(c, explain_bleu(candidate, references, dialect=c.dialect, **c.opts)), pairs,
                     differ=self.divergence)

    def compare_corpus(self, candidates, references, *, types=(), configs=None, pairs=None, progress=None):
        from explainer.bleu import explain_bleu_corpus
        from explainer.dialectcmp.rows import bleu_row
        from explainer.dialectcmp.side_by_side import build

        texts = list(candidates) + [r for rs in references for r in rs]
        configs = configs if configs is not None else self.row_configs(texts)
        return build("corpus", self.name, candidates, references, configs,
                     lambda c: bleu_row(c, explain_bleu_corpus(candidates, references, dialect=c.dialect, **c.opts)),
                     pairs, progress, differ=self.divergence)

    def divergence(self, cmp, a: str, b: str):
        from explainer.dialectcmp.divergence import bleu_divergence

        ra, rb = cmp.row(a), cmp.row(b)
        return bleu_divergence(ra.trace, rb.trace, ra.label, rb.label, id_a=a, id_b=b)


def _part() -> BleuPart:
    from explainer.families import get_family

    return BleuPart(get_family("bleu"))


PART = _part()


def bleu_space(texts: Sequence[str], order: int | None = None, *, corpus: bool = False):
    """Every BLEU configuration searched for these texts (``order``: a claimed BLEU-n keeps only order n;
    ``corpus``: for a corpus score)."""
    from explainer.dialectcmp.space import family_space, search_context

    return family_space("bleu", search_context(texts, corpus=corpus, named={"max_order": order} if order else {}))
