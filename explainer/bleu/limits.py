"""The stated limits of the BLEU core, checked before the work starts (docs/trace-schema-bleu.md "Limits").

Statistics (``score_bleu`` / ``score_bleu_corpus``) take texts up to ``explainer.text.MAX_INPUT_CHARS`` each;
full traces are limited by the characters they cover, since their size grows with the n-gram positions listed.
"""
from __future__ import annotations

from typing import Sequence

from explainer.errors import TraceTooLarge
from explainer.text import MAX_INPUT_CHARS

__all__ = ["MAX_TRACE_CHARS", "MAX_CORPUS_TRACE_CHARS", "TraceTooLarge", "check_trace_size",
           "check_corpus_trace_size"]

#: Characters (candidate + all references) one segment's full trace may cover. The work and the size of a full
#: trace grow with the number of n-gram positions it lists; at this size the slowest case measured (character
#: tokens, max order 10, one long reference) builds and exports (to_dict) in ~3 s, the default dialect in
#: < 0.5 s (docs/trace-schema-bleu.md "Limits"). Statistics (score_bleu) are not limited by it.
MAX_TRACE_CHARS = 100_000
#: Characters (all candidates + all references) of a corpus whose every segment's full trace is built at once
#: (explain_bleu_corpus(full=True), to_dict(full=True), segments, build_all, materialise).
MAX_CORPUS_TRACE_CHARS = 1_500_000


def check_trace_size(candidate: str, references: Sequence[str], where: str = "") -> None:
    n = len(candidate) + sum(len(r) for r in references)
    if n > MAX_TRACE_CHARS:
        raise TraceTooLarge(
            f"{where}a full BLEU trace of {n:,} characters (candidate + {len(references)} reference(s)) is over "
            f"the limit of {MAX_TRACE_CHARS:,} characters in total for one segment's full trace "
            "(explainer.bleu.MAX_TRACE_CHARS). For the statistics only use score_bleu / score_bleu_corpus "
            f"(CLI: without --full), which take up to {MAX_INPUT_CHARS:,} characters per text.")


def check_corpus_trace_size(n_chars: int, n_segments: int) -> None:
    if n_chars > MAX_CORPUS_TRACE_CHARS:
        raise TraceTooLarge(
            f"full BLEU traces of all {n_segments:,} segments would cover {n_chars:,} characters, over the limit "
            f"of {MAX_CORPUS_TRACE_CHARS:,} characters for a full corpus trace "
            "(explainer.bleu.MAX_CORPUS_TRACE_CHARS). Build the segments you need with "
            "explain_bleu_corpus(...).segment(i) (full=False), or use score_bleu_corpus for the statistics only "
            "(CLI: without --full).")


