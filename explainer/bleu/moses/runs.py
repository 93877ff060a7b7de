"""Whole runs of the Moses scripts on a line-aligned corpus, as the scripts report them (standalone helpers for
tests and comparisons; the explainer's traces are built by the shared algorithm with the dialect policies).
"""
from __future__ import annotations

from typing import Sequence

from explainer.bleu.algorithm import segment_stats
from explainer.bleu.moses.dialects import MtevalDialect, MultiBleuDialect
from explainer.bleu.moses.scripts import MAX_ORDER, check_expressible, mteval_score, multibleu_score

__all__ = ["run_multibleu", "run_mteval"]


def _stats(d, candidates, references):
    """Per-segment [c, r, m_1..m_4, t_1..t_4] from the shared algorithm with dialect policy ``d``."""
    return [segment_stats(d, c, rs) for c, rs in zip(candidates, references)]


def run_multibleu(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
                  script: str = "multi-bleu.perl", lowercase: bool = False) -> dict:
    """multi-bleu.perl / multi-bleu-detok.perl on a line-aligned corpus, as the script reports it;
    ``references[i]`` are segment i's references (reference k goes to file REFSTEM<k>). Raises
    NotExpressible for inputs the files cannot carry."""
    check_expressible(script, candidates, references)
    d = MultiBleuDialect(script=script, lowercase=lowercase)
    stats = _stats(d, candidates, references)
    N = MAX_ORDER
    summed = [sum(col) for col in zip(*stats)]
    res = multibleu_score(summed[2:2 + N], summed[2 + N:], summed[0], summed[1], script=script,
                          lines_read=len(candidates))
    segs = [{"hyp_len": st[0], "ref_len": st[1], "matches": st[2:2 + N], "totals": st[2 + N:]} for st in stats]
    return {"result": res, "segments": segs,
            "tokens": {"candidates": [d.tokenize(c) for c in candidates],
                       "references": [[d.tokenize(r) for r in rs] for rs in references]}}


def run_mteval(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
               preserve_case: bool = False, smoothing: bool = True, international: bool = False) -> dict:
    """mteval-v13a.pl -b on one document holding the segments (``references[i][k]`` goes to refset k):
    the system score with its report, every segment's ``-d 2`` score and the ``document info`` counts."""
    check_expressible("mteval-v13a.pl", candidates, references)
    d = MtevalDialect(preserve_case=preserve_case, smoothing=smoothing,
                      international_tokenization=international)
    stats = _stats(d, candidates, references)
    N = MAX_ORDER
    segs = [(st[2:2 + N], st[2 + N:], st[1]) for st in stats]
    tok_r = [[d.tokenize(r) for r in rs] for rs in references]
    ref_counts = [sum(max(0, len(x) - n) for rs in tok_r for x in rs) for n in range(N)]
    system, per_seg = mteval_score(segs, smoothing=smoothing)
    return {"result": system, "segments": per_seg, "ref_ngram_counts": ref_counts,
            "tokens": {"candidates": [d.tokenize(c) for c in candidates], "references": tok_r}}

