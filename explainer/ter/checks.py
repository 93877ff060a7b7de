"""The TER core's input checks, with the BLEU core's rules and messages: a candidate is a string, references a
list of strings (``None`` entries dropped: sacreBLEU's "no reference here"), a corpus one list of references per
candidate (never truncated), every text within ``explainer.text.MAX_INPUT_CHARS``, and TER's own rule: every
segment has at least one reference."""
from __future__ import annotations

from typing import Any, Sequence

from explainer.errors import ExplainerInputError
from explainer.text import check_length

__all__ = ["normalize_segment_input", "normalize_corpus_input", "check_references"]


def _refs_list(references: Any, where: str) -> list[str]:
    if isinstance(references, str):
        raise ExplainerInputError(f"{where} must be a list of strings; got a single string (wrap it in a list: "
                                  "[reference])")
    if references is None:
        return []
    try:
        refs = [r for r in references if r is not None]
    except TypeError:
        raise ExplainerInputError(f"{where} must be a list of strings, got {type(references).__name__}") from None
    for k, r in enumerate(refs):
        if not isinstance(r, str):
            raise ExplainerInputError(f"reference {k + 1} must be a string, got {type(r).__name__}")
    return refs


def normalize_segment_input(candidate: Any, references: Any) -> tuple[str, list[str]]:
    if not isinstance(candidate, str):
        raise ExplainerInputError(f"the candidate must be a string, got {type(candidate).__name__}")
    refs = _refs_list(references, "references")
    check_length([candidate], "candidate")
    check_length(refs, "reference")
    return candidate, refs


def normalize_corpus_input(candidates: Any, references: Any) -> tuple[list[str], list[list[str]]]:
    if isinstance(candidates, str) or isinstance(references, str):
        raise ExplainerInputError("a corpus is a list of candidates and, per candidate, a list of references")
    try:
        cands, refs = list(candidates), list(references)
    except TypeError:
        raise ExplainerInputError("a corpus is a list of candidates and, per candidate, a list of references") from None
    if len(refs) != len(cands):
        raise ExplainerInputError(f"{len(cands)} candidate(s) but {len(refs)} reference list(s): every candidate "
                                  "needs its own list of references")
    out_r = []
    for i, (c, rs) in enumerate(zip(cands, refs)):
        if not isinstance(c, str):
            raise ExplainerInputError(f"candidate {i + 1} must be a string, got {type(c).__name__}")
        out_r.append(_refs_list(rs, f"the references of candidate {i + 1}"))
    check_length(cands, "candidate")
    for rs in out_r:
        check_length(rs, "reference")
    return cands, out_r


def check_references(references: Sequence[Sequence[str]]) -> None:
    for i, refs in enumerate(references):
        if not refs:
            where = f"segment {i + 1}" if len(references) > 1 else "the segment"
            raise ExplainerInputError(f"{where} has no reference; TER compares the candidate with at least one "
                                      "reference")
