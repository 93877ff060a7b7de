"""ROUGE's own part of the Dialects feature (``family_part.FamilyPart``): its claims ("R-1 recall 0.67",
"ROUGE-L 0.41", "ROUGE-SU4 0.2"), its search (``rouge_search``, ``rouge_corpus_search``: each type once per
reference, every multi-reference rule, the meanings of "ROUGE-L"), and its side by side with the first step where
two implementations diverge (tokens, stemming, overlap, LCS, several references, F, rounding)."""
from __future__ import annotations

import re
from typing import Sequence

from explainer.dialectcmp.family_part import FamilyPart, blank
from explainer.dialectcmp.rouge_corpus_search import search_corpus
from explainer.dialectcmp.rouge_search import ROUGE_TYPES_SEARCHED, search_segment
from explainer.errors import ExplainerInputError

__all__ = ["RougePart", "PART", "rouge_space", "rouge_corpus_space"]

_ROUGE = re.compile(r"\b(?:rouge|r)[\s_-]*(lsum|l|w(?:-?1\.2)?|su\*|s\*|su4|s4|[1-9](?![\d.]))(?![a-z])")
_ROUGE_BARE = re.compile(r"\brouge\b")
_ROUGE_NAME = {"lsum": "rougeLsum", "l": "rougeL", "w": "rougeW-1.2", "w-1.2": "rougeW-1.2", "w1.2": "rougeW-1.2",
               "su*": "rougeSU*", "s*": "rougeS*", "su4": "rougeSU4", "s4": "rougeS4"}
_PRF = ("precision", "recall", "fmeasure")


class RougePart(FamilyPart):
    searches_unnamed_claims = True
    claim_order = 20

    # ---------------------------------------------------------------------------------------------- claims
    def metric_choices(self) -> tuple[str, ...]:
        """A claim is narrowed to one ROUGE type."""
        return ROUGE_TYPES_SEARCHED

    def read_name(self, s: str):
        """"ROUGE", "ROUGE-L", "R-1", "ROUGE-SU4" …: the types named."""
        types = [_ROUGE_NAME.get(m.group(1), f"rouge{m.group(1)}") for m in _ROUGE.finditer(s)]
        s = _ROUGE.sub(blank, s)
        if not types and not _ROUGE_BARE.search(s):
            return s, None
        return _ROUGE_BARE.sub(blank, s), ({"types": tuple(dict.fromkeys(types))} if types else {})

    def reads_name(self, word: str) -> bool:
        return bool(_ROUGE.search(word) or _ROUGE_BARE.search(word))

    def narrow_named(self, named: dict, metric: str) -> dict:
        types = named.get("types", ())
        if types and metric not in types:
            raise ExplainerInputError(f"the claim names {', '.join(types)} but --metric is {metric}")
        return dict(named, types=(metric,))

    def claim_measures(self, measures, said: bool):
        return tuple(x for x in measures if x in _PRF)

    def claim_fields(self, named: dict) -> dict:
        return {"rouge_types": list(named.get("types", ()))}

    def unnamed_measures(self, claim):
        if "bp" in claim.measures:
            return None
        return claim.measures or _PRF

    # ---------------------------------------------------------------------------------------------- search
    def search(self, col, claim, candidate, references, subsets, context, tick) -> int:
        space = self.space(claim, context)
        search_segment(col, claim, claim.measures or _PRF, space, subsets, candidate, references, tick)
        return len(space)

    def search_corpus(self, col, claim, candidates, references, subsets, context, tick) -> int:
        space = self.space(claim, context)
        search_corpus(col, claim, claim.measures or _PRF, space, subsets, candidates, references, tick)
        return len(space)

    def judge_count(self, candidate, references, what: str, value: float):
        """A count (LCS length, union-LCS hits, unigram overlap: the hits of ROUGE type ``what``) against each
        reference, under every ROUGE configuration searched: the simplest that gives it, else the nearest count."""
        from explainer.dialectcmp.configs import dialect_class
        from explainer.dialectcmp.engines import RougeEngine
        from explainer.dialectcmp.verdict import Judgement

        eng = RougeEngine(candidate, references)
        best = near = None
        for sc in sorted(rouge_space(split_changes=False), key=lambda x: x.cost):
            try:
                prepared = eng.per_reference(sc.dialect, sc.config.opts, [what])
            except ValueError:
                continue        # the type is not one of this implementation's
            for k, per in enumerate(prepared[4]):
                hits = float(per[what].hits)
                label = dialect_class(self.name, sc.dialect).short_label or sc.dialect
                words = ", ".join((label,) + sc.words + (f"reference {k + 1}",))
                if hits == value and best is None:
                    best = f"{words}: {hits:g}"
                d = abs(hits - value)
                if near is None or d < near[0]:
                    near = (d, f"the nearest: {words}: {hits:g}")
        if best is not None:
            return Judgement("holds-otherwise", best)
        return Judgement("holds-nowhere", near[1] if near else "")

    # ---------------------------------------------------------------------------------------------- compare
    @property
    def has_types(self) -> bool:
        return True

    def comparison_types(self, types: str | None) -> tuple:
        """``--types rouge1,rougeL`` (default: rouge1, rouge2, rougeL, rougeLsum; the first is each row's
        headline)."""
        from explainer.dialectcmp.rows import DEFAULT_ROUGE_TYPES
        from explainer.rouge import parse_types

        if types is None:
            return DEFAULT_ROUGE_TYPES
        return tuple(rt.name for rt in parse_types(types))

    def row_configs(self, texts: Sequence[str], types: Sequence[str] = ()):
        from explainer.dialectcmp.rows import DEFAULT_ROUGE_TYPES, rouge_row_configs

        return rouge_row_configs(tuple(types) or DEFAULT_ROUGE_TYPES)

    def compare(self, candidate, references, *, types=(), configs=None, pairs=None):
        from explainer.dialectcmp.rows import rouge_row
        from explainer.dialectcmp.side_by_side import build
        from explainer.rouge import explain_rouge

        configs = configs if configs is not None else self.row_configs((), types)
        return build("segment", self.name, candidate, references, configs, lambda c: rouge_row(
            c, explain_rouge(candidate, references, dialect=c.dialect, types=list(c.types), **c.opts)), pairs,
            differ=self.divergence)

    def compare_corpus(self, candidates, references, *, types=(), configs=None, pairs=None, progress=None):
        from explainer.dialectcmp.rows import rouge_row
        from explainer.dialectcmp.side_by_side import build
        from explainer.rouge import explain_rouge_corpus

        configs = configs if configs is not None else self.row_configs((), types)
        return build("corpus", self.name, candidates, references, configs, lambda c: rouge_row(
            c, explain_rouge_corpus(candidates, references, dialect=c.dialect, types=list(c.types), **c.opts)),
            pairs, progress, differ=self.divergence)

    def divergence(self, cmp, a: str, b: str):
        """The first divergence of two rows; a corpus: the earliest step among the items whose scores differ,
        else the aggregation."""
        from explainer.dialectcmp.divergence import rouge_corpus_divergence, rouge_divergence
        from explainer.rouge import explain_rouge

        ra, rb = cmp.row(a), cmp.row(b)
        if cmp.level != "corpus":
            return rouge_divergence(ra.trace, rb.trace, ra.label, rb.label, id_a=a, id_b=b)

        def items(i):
            c, refs = cmp.candidate[i], cmp.references[i]
            return tuple(explain_rouge(c, refs, dialect=r.config.dialect, types=list(r.config.types),
                                       **r.config.opts) for r in (ra, rb))

        return rouge_corpus_divergence(ra.trace, rb.trace, ra.label, rb.label, items, id_a=a, id_b=b)


def _part() -> RougePart:
    from explainer.families import get_family

    return RougePart(get_family("rouge"))


PART = _part()


def rouge_space(*, split_changes: bool, cjk: bool = False):
    """Every ROUGE configuration searched for one segment (``split_changes``: one sentence per line changes the
    texts; ``cjk``: a text is in a script written without spaces)."""
    from explainer.dialectcmp.space import SearchContext, family_space

    return family_space("rouge", SearchContext(split_changes=split_changes, no_space_script=cjk))


def rouge_corpus_space():
    """Every ROUGE configuration searched for a corpus score."""
    from explainer.dialectcmp.space import SearchContext, family_space

    return family_space("rouge", SearchContext(corpus=True))
