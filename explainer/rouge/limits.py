"""The stated limits of the ROUGE core on the work of summary-level types, checked before the work starts.

ROUGE-Lsum and ROUGE-W compare every reference sentence with every candidate sentence (one LCS table per
sentence pair). The work grows with the number of sentence pairs (each costs Python-level steps) and with the
cells of their tables (reference sentence tokens x candidate sentence tokens, summed: reference tokens x candidate
tokens). Texts of ~30,000 tokens on ~1,700 lines meant 2.9 million sentence pairs: 109 s for the scores and 6 min
for a full trace, while every other request waited.

* Scores: at most ``LSUM_MAX_PAIRS`` sentence pairs for ROUGE-Lsum and ``WLCS_MAX_TOTAL_CELLS`` table cells for
  ROUGE-W (its weighted DP is plain Python) per call, summed over the references; above them the call raises an
  ``ExplainerInputError`` that states the limit (like ROUGE-S* and the per-pair ROUGE-W limit).
* Full traces: above ``SUMMARY_TRACE_MAX_PAIRS`` sentence pairs or ``SUMMARY_TRACE_MAX_CELLS`` cells, a
  summary-level type's trace degrades to its scores only: its ``detail`` holds ``limited`` (the reason) instead of
  the per-sentence alignments, and the trace's notes say so. The numbers are the same.
* A corpus with every item's full trace (``explain_rouge_corpus(traces=True)``) covers at most
  ``MAX_CORPUS_TRACE_CHARS`` characters (all candidates and references): a full trace takes ~200-300 bytes per
  character, and 12,000 items took 2.6 GB (rouge155: 5.5 GB). Above it: ``TraceTooLarge``, before any work;
  one item's trace is built on demand with ``RougeCorpusTrace.item(i)``.
"""
from __future__ import annotations

from typing import Sequence

from explainer.errors import ExplainerInputError, TraceTooLarge

__all__ = ["LSUM_MAX_PAIRS", "WLCS_MAX_TOTAL_CELLS", "SUMMARY_TRACE_MAX_PAIRS", "SUMMARY_TRACE_MAX_CELLS",
           "MAX_CORPUS_TRACE_CHARS", "summary_work", "check_summary_work", "limited_types",
           "check_corpus_trace_size"]

#: ROUGE-Lsum: most sentence pairs (reference sentences x candidate sentences, over all references) per call
LSUM_MAX_PAIRS = 50_000
#: ROUGE-W: most weighted-LCS table cells (reference tokens x candidate tokens, over all references) per call
WLCS_MAX_TOTAL_CELLS = 12_000_000
#: a full trace keeps per-sentence alignments of a summary-level type up to this many sentence pairs ...
SUMMARY_TRACE_MAX_PAIRS = 5_000
#: ... and this many table cells; above either it keeps the scores only
SUMMARY_TRACE_MAX_CELLS = 2_000_000
#: characters (all candidates + all references) of a corpus whose every item's full trace is kept
MAX_CORPUS_TRACE_CHARS = 1_000_000

_SUMMARY_KINDS = ("Lsum", "W")


def summary_work(cand_sents: Sequence[Sequence[str]], refs_sents: Sequence[Sequence[Sequence[str]]]) -> tuple[int, int]:
    """(sentence pairs, table cells) of comparing the candidate's sentences with every reference's sentences
    (sentences without tokens compare with nothing)."""
    cand = [s for s in cand_sents if s]
    n_tokens = sum(map(len, cand))
    pairs = cells = 0
    for ref_sents in refs_sents:
        ref = [s for s in ref_sents if s]
        pairs += len(ref) * len(cand)
        cells += sum(map(len, ref)) * n_tokens
    return pairs, cells


def _label(rtype) -> str:
    return "ROUGE-Lsum" if rtype.kind == "Lsum" else f"ROUGE-W ({rtype.name})"


def check_summary_work(types, cand_sents, refs_sents) -> tuple[int, int]:
    """Raise ExplainerInputError when a summary-level type in ``types`` is over its limit; returns the work."""
    kinds = {t.kind for t in types}
    if not kinds & set(_SUMMARY_KINDS):
        return 0, 0
    pairs, cells = summary_work(cand_sents, refs_sents)
    if "Lsum" in kinds and pairs > LSUM_MAX_PAIRS:
        raise ExplainerInputError(
            f"ROUGE-Lsum compares every reference sentence (line) with every candidate sentence: {pairs:,} sentence "
            f"pairs here, over the explainer's limit of {LSUM_MAX_PAIRS:,} (explainer.rouge.limits.LSUM_MAX_PAIRS). "
            "Put fewer sentences on separate lines (e.g. one paragraph per line), shorten the texts, or leave "
            "rougeLsum out.")
    if "W" in kinds and cells > WLCS_MAX_TOTAL_CELLS:
        raise ExplainerInputError(
            f"ROUGE-W fills a weighted-LCS table for every pair of reference and candidate sentences: {cells:,} cells "
            f"here, over the explainer's limit of {WLCS_MAX_TOTAL_CELLS:,} "
            "(explainer.rouge.limits.WLCS_MAX_TOTAL_CELLS). Shorten the texts or leave ROUGE-W out.")
    return pairs, cells


def limited_types(types, pairs: int, cells: int) -> dict[str, str]:
    """{type name: note} for the summary-level types whose full trace is over the trace limits."""
    if pairs <= SUMMARY_TRACE_MAX_PAIRS and cells <= SUMMARY_TRACE_MAX_CELLS:
        return {}
    why = (f"{pairs:,} sentence pairs" if pairs > SUMMARY_TRACE_MAX_PAIRS else f"{cells:,} table cells")
    return {t.name: (f"{_label(t)}: scores only — the per-sentence alignments are not traced for {why} (the trace "
                     f"limits are {SUMMARY_TRACE_MAX_PAIRS:,} sentence pairs and {SUMMARY_TRACE_MAX_CELLS:,} cells); "
                     "the numbers are computed in full")
            for t in types if t.kind in _SUMMARY_KINDS}


def check_corpus_trace_size(n_chars: int, n_items: int) -> None:
    if n_chars > MAX_CORPUS_TRACE_CHARS:
        raise TraceTooLarge(
            f"full ROUGE traces of all {n_items:,} items would cover {n_chars:,} characters, over the limit of "
            f"{MAX_CORPUS_TRACE_CHARS:,} characters for a corpus with every item's trace "
            "(explainer.rouge.limits.MAX_CORPUS_TRACE_CHARS). Score the corpus without traces (CLI: without --full) "
            "and build the items you need with explain_rouge_corpus(...).item(i).")
