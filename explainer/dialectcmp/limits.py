"""Limits on what a stranger controls, checked before any work starts (one request must never stall the
server). Figures behind them: docs/dialects-compare.md "Limits"."""
from __future__ import annotations

from typing import Sequence

from explainer.errors import ExplainerInputError

__all__ = ["MAX_REFS", "MAX_COMPARE_CHARS", "MAX_REPRODUCE_TEXT_CHARS", "MAX_REPRODUCE_CHARS", "MAX_CLAIM_CHARS",
           "MAX_CORPUS_SEGMENTS", "MAX_CORPUS_CHARS", "check_segment", "check_corpus", "check_reproduce_corpus",
           "MAX_REPRODUCE_CORPUS_SEGMENTS", "MAX_REPRODUCE_CORPUS_REFS", "MAX_REPRODUCE_CORPUS_CHARS",
           "MAX_REPRODUCE_CORPUS_WORK", "SEGMENT_SCORE_MS", "segment_scores"]

#: references per candidate (the Explain page's limit too)
MAX_REFS = 10
#: characters (candidate + references) of one side-by-side comparison: ~17 full traces are built; at this size
#: the BLEU table takes ~0.1 s, the ROUGE table ~2 s (ROUGE-1.5.5's and the LCS traces; docs/dialects-compare.md)
MAX_COMPARE_CHARS = 20_000
#: characters of one text, and of candidate + references, for the reproduce search (~400 BLEU and ~30 ROUGE
#: configurations times every reference subset and multi-reference rule): at the limits ~0.5 s with 2
#: references of 2,000 characters, ~1.8 s with 10 references (the page shows a progress bar)
MAX_REPRODUCE_TEXT_CHARS = 2_000
MAX_REPRODUCE_CHARS = 8_000
#: length of a claim string ("BLEU = 0.576")
MAX_CLAIM_CHARS = 200
#: corpus comparison: segments, and characters of all candidates and references. One full WMT test set with
#: two references fits (newstest2014/2017: 3,003/3,004 segments; generaltest2022 en-de: 2,037 segments and 689k
#: characters, BLEU ~23 s, ROUGE ~53 s on a busy 2-core machine)
MAX_CORPUS_SEGMENTS = 3_100
MAX_CORPUS_CHARS = 1_500_000
#: corpus reproduce: segments, reference streams, characters of the system output and references (a WMT test
#: set of 2,037 segments with 2 references has ~710,000; every configuration is scored over every reference
#: subset: docs/benchmarks.md "reproduce, corpus")
MAX_REPRODUCE_CORPUS_SEGMENTS = 5_000
MAX_REPRODUCE_CORPUS_REFS = 4
MAX_REPRODUCE_CORPUS_CHARS = 900_000
#: characters × reference subsets searched (2 references: 3 subsets, 900,000 characters; 3: 7, 385,714; 4: 15,
#: 180,000): the worst claim (no metric name: BLEU and ROUGE) stays near 30 s of CPU at the bound
MAX_REPRODUCE_CORPUS_WORK = 2_700_000


def _check_texts(candidate, references, what: str) -> list[str]:
    if not isinstance(candidate, str):
        raise ExplainerInputError(f"{what}the candidate must be a string, got {type(candidate).__name__}")
    if isinstance(references, str) or references is None:
        raise ExplainerInputError(f"{what}the references must be a list of strings")
    refs = list(references)
    if not refs:
        raise ExplainerInputError(f"{what}give at least one reference: the metrics compare the candidate with "
                                  "references")
    if len(refs) > MAX_REFS:
        raise ExplainerInputError(f"{what}{len(refs)} references; at most {MAX_REFS} are compared")
    for k, r in enumerate(refs):
        if not isinstance(r, str):
            raise ExplainerInputError(f"{what}reference {k + 1} must be a string, got {type(r).__name__}")
    return refs


def check_segment(candidate, references, *, limit: int = MAX_COMPARE_CHARS, per_text: int | None = None,
                  what: str = "") -> list[str]:
    """Validate one candidate and its references against the limits; returns the references as a list."""
    refs = _check_texts(candidate, references, what)
    if per_text is not None:
        for name, t in [("the candidate", candidate)] + [(f"reference {k + 1}", r) for k, r in enumerate(refs)]:
            if len(t) > per_text:
                raise ExplainerInputError(f"{what}{name} has {len(t):,} characters; the limit here is "
                                          f"{per_text:,} per text")
    n = len(candidate) + sum(len(r) for r in refs)
    if n > limit:
        raise ExplainerInputError(f"{what}candidate and references have {n:,} characters together; the limit "
                                  f"here is {limit:,}")
    return refs


def check_corpus(candidates: Sequence, references: Sequence) -> tuple[list[str], list[list[str]]]:
    """Validate a corpus (one list of references per candidate) against the corpus limits."""
    if isinstance(candidates, str) or isinstance(references, str):
        raise ExplainerInputError("a corpus is a list of candidates and, per candidate, a list of references")
    cands, refs = list(candidates), list(references)
    if not cands:
        raise ExplainerInputError("the corpus is empty: give at least one candidate")
    if len(cands) != len(refs):
        raise ExplainerInputError(f"{len(cands)} candidates but {len(refs)} reference lists: every candidate needs "
                                  "its own list of references")
    if len(cands) > MAX_CORPUS_SEGMENTS:
        raise ExplainerInputError(f"{len(cands):,} segments; the corpus comparison takes at most "
                                  f"{MAX_CORPUS_SEGMENTS:,} (one full WMT test set): compare a part of the test "
                                  "set, e.g. its first 3,000 segments")
    out = []
    total = 0
    for i, (c, rs) in enumerate(zip(cands, refs)):
        rs = _check_texts(c, rs, f"segment {i + 1}: ")
        total += len(c) + sum(len(r) for r in rs)
        out.append(rs)
    if total > MAX_CORPUS_CHARS:
        raise ExplainerInputError(f"the corpus has {total:,} characters; the corpus comparison takes at most "
                                  f"{MAX_CORPUS_CHARS:,} (one full WMT test set with two references): compare a "
                                  "part of the test set, or fewer references")
    return cands, out


def check_reproduce_corpus(candidates: Sequence, references: Sequence) -> tuple[list[str], list[list[str]]]:
    """Validate a corpus for the reproduce search (the same number of references for every segment: one per
    reference file) against its limits, before any work."""
    if isinstance(candidates, str) or isinstance(references, str):
        raise ExplainerInputError("a corpus is a list of candidates and, per candidate, a list of references")
    cands, refs = list(candidates), list(references)
    if not cands:
        raise ExplainerInputError("the corpus is empty: give at least one candidate")
    if len(cands) != len(refs):
        raise ExplainerInputError(f"{len(cands)} candidates but {len(refs)} reference lists: every candidate needs "
                                  "its own list of references")
    if len(cands) > MAX_REPRODUCE_CORPUS_SEGMENTS:
        raise ExplainerInputError(f"{len(cands):,} segments; the corpus search takes at most "
                                  f"{MAX_REPRODUCE_CORPUS_SEGMENTS:,}")
    out = []
    total = 0
    n_refs = None
    for i, (c, rs) in enumerate(zip(cands, refs)):
        rs = _check_texts(c, rs, f"segment {i + 1}: ")
        if n_refs is None:
            n_refs = len(rs)
            if n_refs > MAX_REPRODUCE_CORPUS_REFS:
                raise ExplainerInputError(f"{n_refs} references per segment; the corpus search takes at most "
                                          f"{MAX_REPRODUCE_CORPUS_REFS} (every subset of them is scored)")
        elif len(rs) != n_refs:
            raise ExplainerInputError(f"segment {i + 1} has {len(rs)} references, segment 1 has {n_refs}: give the "
                                      "same references for every segment (one file per reference)")
        total += len(c) + sum(len(r) for r in rs)
        if total > MAX_REPRODUCE_CORPUS_CHARS:
            raise ExplainerInputError(f"the corpus has more than {MAX_REPRODUCE_CORPUS_CHARS:,} characters "
                                      "(system output and references); the corpus search takes at most that")
        out.append(rs)
    subsets = 2 ** (n_refs or 1) - 1         # every non-empty subset (corpus_engines.corpus_subsets)
    if total * subsets > MAX_REPRODUCE_CORPUS_WORK:
        raise ExplainerInputError(f"{n_refs} references give {subsets} reference subsets to score; with that many, "
                                  f"the corpus search takes at most {MAX_REPRODUCE_CORPUS_WORK // subsets:,} "
                                  f"characters (this corpus has {total:,}); give fewer references or a part of the "
                                  "test set")
    return cands, out

#: CPU of one segment's scores under one configuration (a comparison's row, a reproduce candidate), in milliseconds
#: of the family's own work units (``MetricFamily.bounded_scores``; TER's recorded shift search: 100,000 units):
#: ordinary sentences need a few thousand units; 114 words drawn from a 60-word vocabulary took sacreBLEU 2.5 s
#: per TER score, and a comparison scores five rows, a reproduce search dozens of configurations
SEGMENT_SCORE_MS = 100


def segment_scores(fam, d, candidate: str, references: Sequence[str]) -> dict[str, float]:
    """One segment's scores under ``d`` within :data:`SEGMENT_SCORE_MS` of work (the same numbers as
    ``fam.scores``); ExplainerInputError when the texts need more (every configuration of a comparison costs about
    the same, so the first refusal ends the request)."""
    out = fam.bounded_scores(d, candidate, list(references), seconds=SEGMENT_SCORE_MS / 1000)
    if out is None:
        raise ExplainerInputError(
            f"{fam.label} of these texts needs more work than a comparison spends on one configuration (about "
            f"{SEGMENT_SCORE_MS} ms, explainer.dialectcmp.limits.SEGMENT_SCORE_MS): the texts have many "
            f"words in common in different orders. `python -m explainer {fam.name}` scores them on your machine.")
    return out
