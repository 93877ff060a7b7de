"""The reproduce search of a family without its own (TER; any family registered later): every configuration its
dialects declare (``Dialect.search_configs``) on every reference subset, each scored by the family itself
(``fam.scores`` for one segment, ``fam.corpus`` for a corpus) — what ``python -m explainer <family>`` prints with
the match's arguments. Every measure the family reports is matched, as printed or on the other scale (×100,
÷100), whichever way its direction runs (a claimed TER is matched like any number)."""
from __future__ import annotations

from explainer.dialectcmp.limits import segment_scores

__all__ = ["search_segment", "search_corpus"]


def search_segment(part, col, claim, candidate: str, references: list[str], subsets, context, tick) -> int:
    fam = part.family
    space = part.space(claim, context)
    for sc in space:
        d = sc.config.bound()
        measures = fam.measures(d)
        for subset, sub_cost, sub_words in subsets:
            scores = segment_scores(fam, d, candidate, [references[k] for k in subset])
            col.n += 1
            for m in measures:
                value = scores.get(m.key)
                if value is not None and value == value:
                    col.add(m.label, sc, subset, sub_cost, sub_words, "score", float(value), m.scale)
        tick(1)
    return len(space)


def search_corpus(part, col, claim, candidates, references, subsets, context, tick) -> int:
    fam = part.family
    space = part.space(claim, context)
    for sc in space:
        d = sc.config.bound()
        for subset, sub_cost, sub_words in subsets:
            cs = fam.corpus(d, candidates, [[rs[k] for k in subset] for rs in references])
            col.n += 1
            for key, ms in cs.measures.items():
                if ms.score == ms.score:
                    col.add(ms.measure.label, sc, subset, sub_cost, sub_words, "score", float(ms.score),
                            ms.measure.scale)
                    col.value_paths[(ms.measure.label, sc.config, tuple(subset), "score")] = [key]
        tick(1)
    return len(space)
