"""Every implementation side by side: build the rows' traces, then the first divergence of each pair.

>>> from explainer.dialectcmp import compare
>>> cmp = compare("the cat sat on the mat.", ["the cat is on the mat."], metric="bleu")
>>> [r.id for r in cmp.rows][:2], cmp.pairs[1].first_step        # doctest: +SKIP
(['sacrebleu', 'sacrebleu:intl'], ...)

``compare_corpus`` does the same for a corpus (candidates and, per candidate, its references). Every registered
family compares: the rows and the first divergence are its part's (``explainer.dialectcmp.families``: BLEU's and
ROUGE's steps, chrF's own comparison, the generic one by option for any other family).
"""
from __future__ import annotations

from typing import Sequence

from explainer.dialectcmp.configs import Config
from explainer.dialectcmp.limits import check_corpus, check_segment
from explainer.dialectcmp.side_by_side import Comparison, Progress, build, default_pairs, divergence, pairs_scope

__all__ = ["Comparison", "compare", "compare_corpus", "divergence", "default_pairs", "pairs_scope", "build"]


def compare(candidate: str, references: Sequence[str], *, metric: str = "bleu", types: Sequence[str] = (),
            configs: Sequence[Config] | None = None, pairs: Sequence[tuple[str, str]] | None = None):
    """One segment: one row per configuration (default: the family part's ``row_configs``) and the first
    divergence of each pair (default: each row against the first). ``metric``: a registered family; ``types``:
    ROUGE's (default: rouge1, rouge2, rougeL, rougeLsum)."""
    from explainer.dialectcmp.families import family_part

    part = family_part(metric)
    refs = check_segment(candidate, references)
    return part.compare(candidate, refs, types=tuple(types), configs=configs, pairs=pairs)


def compare_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], *, metric: str = "bleu",
                   types: Sequence[str] = (), configs: Sequence[Config] | None = None,
                   pairs: Sequence[tuple[str, str]] | None = None, progress: Progress | None = None):
    """A corpus: corpus-level rows (BLEU: summed statistics; ROUGE: each dialect's aggregation; ...) and the first
    divergence of each pair (ROUGE: the earliest step among the items whose scores differ, else the
    aggregation). ``progress(done, total, what)`` is called before each row and each pair (a page's progress
    bar)."""
    from explainer.dialectcmp.families import family_part

    part = family_part(metric)
    cands, refs = check_corpus(candidates, references)
    return part.compare_corpus(cands, refs, types=tuple(types), configs=configs, pairs=pairs, progress=progress)
