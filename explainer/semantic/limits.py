"""The semantic family's limits, each checked before the work it bounds (docs/limits.md).

Characters are counted first (free); then the texts are split into word pieces (fast: Rust) and the pieces are
counted before the model runs. Texts longer than the model reads are not refused: they are truncated as the
libraries truncate them, and the trace says so.
"""
from __future__ import annotations

from typing import Sequence

from explainer.errors import ExplainerInputError, TraceTooLarge
from explainer.text import MAX_INPUT_CHARS, check_length

__all__ = ["MAX_INPUT_CHARS", "MAX_REFERENCES", "MAX_TRACE_CELLS", "MAX_CORPUS_CHARS", "MAX_CORPUS_PIECES",
           "check_segment", "check_trace_cells", "check_corpus_chars", "check_corpus_pieces"]

#: references of one segment (each is one more pass of the model and, for BERTScore, one more matrix)
MAX_REFERENCES = 10
#: similarity cells of one BERTScore trace, summed over the references (candidate pieces × reference pieces, with
#: [CLS] and [SEP]): two references of 512 pieces each against a 512-piece candidate; the JSON is ~10 MB there
MAX_TRACE_CELLS = 600_000
#: characters of one corpus call (candidates and references), counted before any word piece is made
MAX_CORPUS_CHARS = 20_000_000
#: word pieces one corpus call runs through the model (after truncation; each distinct text once): ~8 times WMT22
#: en-de with two references (254,000 pieces), tens of minutes on a 2-core machine
MAX_CORPUS_PIECES = 2_000_000


def check_segment(candidate: str, references: Sequence[str]) -> None:
    """One candidate and its references: types, at least one reference, at most ``MAX_REFERENCES``, each text at
    most ``MAX_INPUT_CHARS`` characters."""
    if not isinstance(candidate, str) or isinstance(references, str) or \
            not all(isinstance(r, str) for r in references):
        raise ExplainerInputError("the candidate must be a string and the references a list of strings")
    if not references:
        raise ExplainerInputError("the semantic metrics compare the candidate with at least one reference")
    if len(references) > MAX_REFERENCES:
        raise ExplainerInputError(f"{len(references)} references; the semantic metrics take at most "
                                  f"{MAX_REFERENCES} per candidate (explainer.semantic.MAX_REFERENCES)")
    check_length([candidate], "the candidate")
    check_length(references, "reference")


def check_trace_cells(cells: int) -> None:
    if cells > MAX_TRACE_CELLS:
        raise TraceTooLarge(
            f"the BERTScore trace would hold {cells:,} similarity cells, over the limit of {MAX_TRACE_CELLS:,} "
            "(explainer.semantic.MAX_TRACE_CELLS); use score_semantic for the numbers only, or fewer or shorter "
            "references")


def check_corpus_chars(candidates: Sequence[str], references: Sequence[Sequence[str]]) -> None:
    n = sum(map(len, candidates)) + sum(len(r) for refs in references for r in refs)
    if n > MAX_CORPUS_CHARS:
        raise ExplainerInputError(f"the corpus has {n:,} characters; the semantic metrics take at most "
                                  f"{MAX_CORPUS_CHARS:,} in one call (explainer.semantic.MAX_CORPUS_CHARS)")


def check_corpus_pieces(n_pieces: int) -> None:
    if n_pieces > MAX_CORPUS_PIECES:
        raise ExplainerInputError(f"the corpus has {n_pieces:,} word pieces to run through the model; the limit is "
                                  f"{MAX_CORPUS_PIECES:,} in one call (explainer.semantic.MAX_CORPUS_PIECES)")
