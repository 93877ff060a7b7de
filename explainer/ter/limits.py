"""The TER core's stated limits, checked before the work they bound (docs/ter.md "Limits", docs/limits.md).

sacreBLEU's TER is expensive on some inputs: its shift search evaluates up to 1,000 shift candidates per pair of
texts, each one an edit distance over the hypothesis (a band of about 50 cells per word), and it scans every
pair of positions of the two texts once per shift. 50 shuffled words already cost it about 1.3 s of CPU (busy
2-core machine); natural sentences cost a few milliseconds. So there are three limits:

* ``MAX_TEXT_TOKENS``: words of one text as TER tokenized it (statistics and traces): memory (sacreBLEU keeps up
  to 10,000 rows of the edit-distance matrix, each as long as the reference) and the worst case of the shift
  search stay bounded; checked after tokenizing (linear) and before any edit distance;
* ``MAX_TRACE_CHARS`` / ``MAX_CORPUS_TRACE_CHARS``: characters of one segment's / of every segment's full trace,
  checked before anything is tokenized;
* ``MAX_TRACE_WORK``: the work of one segment's full trace, in edit-distance cells and position pairs scanned
  (counted as the instrumented search runs, checked before each step), so that a trace stays under about a second
  of CPU whatever the texts; past it the trace stops with :class:`TraceTooLarge` and the statistics (sacreBLEU's
  own code, ``score_ter``) are still available.
"""
from __future__ import annotations

from typing import Sequence

from explainer.errors import ExplainerInputError, TraceTooLarge

__all__ = ["MAX_TEXT_TOKENS", "MAX_TRACE_CHARS", "MAX_CORPUS_TRACE_CHARS", "MAX_TRACE_WORK", "check_tokens",
           "check_trace_size", "check_corpus_trace_size", "TraceTooLarge", "TooManyTokens", "Budget", "WORK_PER_SECOND"]

#: words of one text (candidate or reference) after TER's tokenization
MAX_TEXT_TOKENS = 1_000
#: characters (candidate + references) of one segment's full trace
MAX_TRACE_CHARS = 20_000
#: characters of a corpus whose every segment's full trace is built at once (explain_ter_corpus(full=True))
MAX_CORPUS_TRACE_CHARS = 1_500_000
#: edit-distance cells computed + position pairs scanned by one segment's full trace (every reference): about
#: 1 s of CPU on a busy 2-core machine (docs/ter.md "Limits")
MAX_TRACE_WORK = 1_000_000
#: work units of the recorded search per second of CPU (the measure behind MAX_TRACE_WORK), for callers that bound
#: TER in seconds (``TER.bounded_scores``: the Gaming lab's sweeps and optimizer)
WORK_PER_SECOND = MAX_TRACE_WORK


class TooManyTokens(ExplainerInputError):
    """A text has more words (as TER tokenized it) than ``MAX_TEXT_TOKENS``."""


def check_tokens(n_tokens: int, what: str) -> None:
    if n_tokens > MAX_TEXT_TOKENS:
        raise TooManyTokens(
            f"{what} has {n_tokens:,} words as TER tokenizes it, over the limit of {MAX_TEXT_TOKENS:,} per text "
            "(explainer.ter.MAX_TEXT_TOKENS): sacreBLEU's TER shift search grows with the product of the two "
            "texts' lengths; split the text into sentences")


def check_trace_size(candidate: str, references: Sequence[str], where: str = "") -> None:
    n = len(candidate) + sum(len(r) for r in references)
    if n > MAX_TRACE_CHARS:
        raise TraceTooLarge(
            f"{where}a full TER trace of {n:,} characters (candidate + {len(references)} reference(s)) is over the "
            f"limit of {MAX_TRACE_CHARS:,} characters for one segment's trace (explainer.ter.MAX_TRACE_CHARS). "
            "For the statistics only use score_ter / score_ter_corpus (CLI: without --full).")


def check_corpus_trace_size(candidates: Sequence[str], references: Sequence[Sequence[str]]) -> None:
    n = sum(map(len, candidates)) + sum(len(r) for rs in references for r in rs)
    if n > MAX_CORPUS_TRACE_CHARS:
        raise TraceTooLarge(
            f"full TER traces of all {len(candidates):,} segments would cover {n:,} characters, over the limit of "
            f"{MAX_CORPUS_TRACE_CHARS:,} (explainer.ter.MAX_CORPUS_TRACE_CHARS); build the segments you need with "
            "explain_ter_corpus(...).segment(i), or use score_ter_corpus")


class Budget:
    """The work units of one trace (``limit`` None: unbounded); ``spend`` raises TraceTooLarge past the limit.
    ``named``: the limit as its message names it (a caller's lower limit, e.g. one view's)."""

    __slots__ = ("limit", "used", "where", "named")

    def __init__(self, limit: int | None, where: str = "",
                 named: str = "the limit of one trace (explainer.ter.MAX_TRACE_WORK)") -> None:
        self.limit = limit
        self.used = 0
        self.where = where
        self.named = named

    def spend(self, n: int) -> None:
        self.used += n
        if self.limit is not None and self.used > self.limit:
            raise work_exceeded(self.used, self.where, self.limit, self.named)


def work_exceeded(work: int, where: str = "", limit: int = MAX_TRACE_WORK,
                  named: str = "the limit of one trace (explainer.ter.MAX_TRACE_WORK)") -> TraceTooLarge:
    """The error of a trace whose shift search went past its limit (``MAX_TRACE_WORK`` unless a caller's)."""
    return TraceTooLarge(
        f"{where}the TER trace of this segment needs more than {limit:,} units of work (edit-distance "
        f"cells and position pairs of sacreBLEU's shift search; {work:,} reached), {named}: the texts have many "
        "words in common in different orders. The statistics (score_ter, CLI without --full) are sacreBLEU's own "
        "computation and have no such limit.")
