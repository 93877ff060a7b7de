"""BLEU's reproduce search: every configuration of the BLEU dialects' search space scored on every reference
subset, the work shared between them (``engines.BleuEngine`` for one segment, ``corpus_engines.CorpusBleuEngine``
for a corpus), each value added to the collector as ``python -m explainer bleu`` prints it."""
from __future__ import annotations

from typing import Sequence

from explainer.dialectcmp.corpus_engines import CorpusBleuEngine
from explainer.dialectcmp.engines import BleuEngine

__all__ = ["search_segment", "search_corpus", "BLEU_MEASURES"]

#: what a BLEU claim may be: the score, the brevity penalty, an n-gram precision
BLEU_MEASURES = ("score", "bp", "p1", "p2", "p3", "p4")
#: where each measure is in the ``bleu`` command's JSON output
_PATHS = {"score": ["score"], "bp": ["bp"], **{f"p{n}": ["precisions", n - 1] for n in range(1, 5)}}


def _values(res, measures: Sequence[str], scale: float):
    """(measure, value, its native scale) of one result."""
    for m in measures:
        if m == "score":
            yield m, res.score, scale
        elif m == "bp":
            yield m, float(res.bp), 1.0
        elif int(m[1]) <= len(res.precisions):
            yield m, float(res.precisions[int(m[1]) - 1]), 1.0


def search_segment(col, measures, space, subsets, candidate: str, refs: list[str], tick) -> None:
    """One segment: every configuration of ``space`` on every reference subset (the real library fails on some
    inputs: it prints no number there, so that configuration explains no claim)."""
    eng = BleuEngine(candidate, refs)
    for i, sc in enumerate(space):
        opts = sc.config.opts
        for subset, sub_cost, sub_words in subsets:
            res = eng.score(sc.dialect, opts, subset)
            col.n += 1
            if res.error is not None:
                continue
            scale = eng.dialect(sc.dialect, opts).scale
            for m, value, native in _values(res, measures, scale):
                col.add("bleu", sc, subset, sub_cost, sub_words, m, value, native, label="BLEU")
        if i % 64 == 63:
            tick(64)
    tick(len(space) % 64)


def search_corpus(col, measures, space, subsets, candidates, references, tick) -> None:
    """A corpus: the same over the summed statistics (``corpus_engines``), each match with the place of its value
    in the ``bleu --hyp ... --ref ...`` output."""
    eng = CorpusBleuEngine(candidates, references, subsets)
    for sc in space:
        opts = sc.config.opts
        scale = eng.dialect(sc.dialect, opts).scale
        for subset, sub_cost, sub_words in subsets:
            res = eng.score(sc.dialect, opts, subset)
            col.n += 1
            if res.error is not None:
                continue
            for m, value, native in _values(res, measures, scale):
                col.add("bleu", sc, subset, sub_cost, sub_words, m, value, native, label="BLEU")
                col.value_paths[("bleu", sc.config, tuple(subset), m)] = _PATHS[m]
        tick(1)
