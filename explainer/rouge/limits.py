"""The stated limits of the ROUGE core on the work of summary-level types, checked before the work starts.

ROUGE-Lsum and ROUGE-W compare every reference sentence with every candidate sentence (one LCS table per
sentence pair). The work grows with the number of sentence pairs (each costs Python-level steps) and with the
cells of their tables (reference sentence tokens x candidate sentence tokens, summed: reference tokens x candidate
tokens). Texts of ~30,000 tokens on ~1,700 lines meant 2.9 million sentence pairs: 109 s for the scores and 6 min
for a full trace, while every other request waited.

* Scores: at most ``LSUM_MAX_PAIRS`` sentence pairs and ``LSUM_MAX_CELLS`` table cells for ROUGE-Lsum, and
  ``WLCS_MAX_TOTAL_CELLS`` table cells for ROUGE-W (its weighted DP is plain Python), per call, summed over the
  references; above them the call raises ``SummaryWorkTooLarge`` (an ``ExplainerInputError``) that states the
  limit and names the types over it (like ROUGE-S* and the per-pair ROUGE-W limit). The pairs alone did not bound
  the work: 223 candidate lines of 150 tokens against 10 references of 22 lines of 1,500 tokens (each text
  ~153,000 characters, 49,060 pairs, 1.1e10 cells) took 39 s (110 s under load). There is no cheaper exact path
  for the scores (the union needs rouge-score's own backtrace of every pair), so above the limits the type is
  refused, not approximated; the Explain page leaves it out and shows the others with the reason.
* Full traces: above ``SUMMARY_TRACE_MAX_PAIRS`` sentence pairs or ``SUMMARY_TRACE_MAX_CELLS`` cells, a
  summary-level type's trace degrades to its scores only: its ``detail`` holds ``limited`` (the reason) instead of
  the per-sentence alignments, and the trace's notes say so. The numbers are the same.
* One call's whole work (every type against every reference): at most ``MAX_SEGMENT_WORK`` units, estimated
  from the token counts before any scoring (``segment_work``: a unit is about one Python-level step: a token of an
  n-gram count, a skip-bigram, a cell of a pure-Python table, and a fixed cost per type and reference, larger
  for a full trace). The limits above bound one type on one pair of texts; this one bounds their product with the
  number of references and types (one segment with 10,000 references and seven types took 78 s and 2.8 GB).
  Above it: ``SegmentWorkTooLarge`` (a ``SummaryWorkTooLarge``) naming the costliest types, whose removal would
  bring the call within the limit (the Explain page leaves them out).
* A corpus with every item's full trace (``explain_rouge_corpus(traces=True)``) covers at most
  ``MAX_CORPUS_TRACE_CHARS`` characters (all candidates and references): a full trace takes ~200-300 bytes per
  character, and 12,000 items took 2.6 GB (rouge155: 5.5 GB). Above it: ``TraceTooLarge``, before any work;
  one item's trace is built on demand with ``RougeCorpusTrace.item(i)``.
"""
from __future__ import annotations

from typing import Sequence

from explainer.errors import ExplainerInputError, TraceTooLarge

__all__ = ["LSUM_MAX_PAIRS", "LSUM_MAX_CELLS", "WLCS_MAX_TOTAL_CELLS", "SUMMARY_TRACE_MAX_PAIRS",
           "SUMMARY_TRACE_MAX_CELLS", "MAX_CORPUS_TRACE_CHARS", "MAX_SEGMENT_WORK", "SummaryWorkTooLarge",
           "SegmentWorkTooLarge", "summary_work", "check_summary_work", "limited_types", "check_corpus_trace_size",
           "segment_work", "check_segment_work"]

#: ROUGE-Lsum: most sentence pairs (reference sentences x candidate sentences, over all references) per call
LSUM_MAX_PAIRS = 50_000
#: ROUGE-Lsum: most LCS table cells (reference tokens x candidate tokens, over all references) per call. Set for
#: the costliest shape per cell (short lines against long lines: every pair costs a Python step per token of its
#: longer side), measured in docs/benchmarks.md; long lines cost far less per cell (bit-parallel rows)
LSUM_MAX_CELLS = 10_000_000
#: ROUGE-W: most weighted-LCS table cells (reference tokens x candidate tokens, over all references) per call
WLCS_MAX_TOTAL_CELLS = 12_000_000
#: a full trace keeps per-sentence alignments of a summary-level type up to this many sentence pairs ...
SUMMARY_TRACE_MAX_PAIRS = 5_000
#: ... and this many table cells; above either it keeps the scores only
SUMMARY_TRACE_MAX_CELLS = 2_000_000
#: characters (all candidates + all references) of a corpus whose every item's full trace is kept
MAX_CORPUS_TRACE_CHARS = 1_000_000
#: work units of one call (``segment_work``; a unit is ~1 µs of CPU on a busy machine, ~0.4 µs idle): 200
#: references of 15 tokens with seven types and a full trace are ~0.8 million units (0.45 s busy), ROUGE-S* with a
#: full trace on two texts of 1,500 tokens ~4.5 million (2.9 s busy)
MAX_SEGMENT_WORK = 20_000_000
#: units charged per type and reference whatever the texts (the result and its records); a full trace more
_PAIR_COST, _PAIR_COST_FULL = 100, 400

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
    return {"Lsum": "ROUGE-Lsum", "W": f"ROUGE-W ({rtype.name})"}.get(rtype.kind, f"summary-level {rtype.name}")


class SummaryWorkTooLarge(ExplainerInputError):
    """A summary-level type over its work limit. ``types``: the names of the types over it (the other types of the
    call could be computed); ``reasons``: {type name: why, in words without API names (for the app)}."""

    def __init__(self, message: str, types: tuple[str, ...], reasons: dict[str, str]):
        super().__init__(message)
        self.types = types
        self.reasons = reasons


def check_summary_work(types, cand_sents, refs_sents) -> tuple[int, int]:
    """Raise SummaryWorkTooLarge when summary-level types in ``types`` are over their limits (all of them are
    named); returns the work (sentence pairs, table cells)."""
    kinds = {t.kind for t in types}
    if not kinds & set(_SUMMARY_KINDS):
        return 0, 0
    pairs, cells = summary_work(cand_sents, refs_sents)
    messages: list[str] = []
    reasons: dict[str, str] = {}
    for t in types:
        if t.kind == "Lsum" and pairs > LSUM_MAX_PAIRS:
            why = (f"ROUGE-Lsum compares every reference sentence (line) with every candidate sentence: {pairs:,} "
                   f"sentence pairs here, over the explainer's limit of {LSUM_MAX_PAIRS:,}")
            messages.append(f"{why} (explainer.rouge.limits.LSUM_MAX_PAIRS). Put fewer sentences on separate "
                            "lines (e.g. one paragraph per line), shorten the texts, or leave rougeLsum out.")
        elif t.kind == "Lsum" and cells > LSUM_MAX_CELLS:
            why = (f"ROUGE-Lsum fills an LCS table for every pair of reference and candidate sentences (lines): "
                   f"{cells:,} table cells here (reference tokens × candidate tokens, over all references), over "
                   f"the explainer's limit of {LSUM_MAX_CELLS:,}")
            messages.append(f"{why} (explainer.rouge.limits.LSUM_MAX_CELLS). Shorten the texts, use fewer "
                            "references, or leave rougeLsum out.")
        elif t.kind == "W" and cells > WLCS_MAX_TOTAL_CELLS:
            why = (f"ROUGE-W fills a weighted-LCS table for every pair of reference and candidate sentences: "
                   f"{cells:,} cells here, over the explainer's limit of {WLCS_MAX_TOTAL_CELLS:,}")
            messages.append(f"{why} (explainer.rouge.limits.WLCS_MAX_TOTAL_CELLS). Shorten the texts or leave "
                            "ROUGE-W out.")
        else:
            continue
        reasons[t.name] = why
    if messages:
        raise SummaryWorkTooLarge(" ".join(messages), tuple(reasons), reasons)
    return pairs, cells


def limited_types(types, pairs: int, cells: int, kinds=_SUMMARY_KINDS) -> dict[str, str]:
    """{type name: note} for the summary-level types (``kinds``: the dialect's) whose full trace is over the trace
    limits."""
    if pairs <= SUMMARY_TRACE_MAX_PAIRS and cells <= SUMMARY_TRACE_MAX_CELLS:
        return {}
    why = (f"{pairs:,} sentence pairs" if pairs > SUMMARY_TRACE_MAX_PAIRS else f"{cells:,} table cells")
    return {t.name: (f"{_label(t)}: scores only — the per-sentence alignments are not traced for {why} (the trace "
                     f"limits are {SUMMARY_TRACE_MAX_PAIRS:,} sentence pairs and {SUMMARY_TRACE_MAX_CELLS:,} cells); "
                     "the numbers are computed in full")
            for t in types if t.kind in kinds}


def check_corpus_trace_size(n_chars: int, n_items: int) -> None:
    if n_chars > MAX_CORPUS_TRACE_CHARS:
        raise TraceTooLarge(
            f"full ROUGE traces of all {n_items:,} items would cover {n_chars:,} characters, over the limit of "
            f"{MAX_CORPUS_TRACE_CHARS:,} characters for a corpus with every item's trace "
            "(explainer.rouge.limits.MAX_CORPUS_TRACE_CHARS). Score the corpus without traces (CLI: without --full) "
            "and build the items you need with explain_rouge_corpus(...).item(i).")


class SegmentWorkTooLarge(SummaryWorkTooLarge):
    """One call's estimated work over ``MAX_SEGMENT_WORK``; ``types``: the costliest types, whose removal would
    bring it within the limit."""


def _type_work(t, c: int, r: int, full: bool) -> int:
    from explainer.rouge.skipgram import skip_bigram_count

    if t.kind in ("S", "SU"):
        work = skip_bigram_count(c, t.skip) + skip_bigram_count(r, t.skip) + c + r
        return 4 * work if full else work                  # a full trace counts them again and tabulates them
    if t.kind == "W":
        return (c * r) // 4 + c + r                         # a table in Python (also WLCS_MAX_TOTAL_CELLS)
    if t.kind == "L":                                       # bit rows; a trace also looks for another LCS
        return c + r + (c * r) // 500 + ((c * r) // 200 if full else 0)
    return c + r


def segment_work(types, cand_tokens: int, ref_tokens: Sequence[int], *, full: bool) -> dict[str, int]:
    """{type name: estimated work units} of scoring a candidate of ``cand_tokens`` tokens against references of
    ``ref_tokens`` tokens (``full``: with the full trace)."""
    pair = _PAIR_COST_FULL if full else _PAIR_COST
    return {t.name: sum(_type_work(t, cand_tokens, r, full) + pair for r in ref_tokens) for t in types}


def check_segment_work(types, cand_tokens: int, ref_tokens: Sequence[int], *, full: bool) -> int:
    """Raise SegmentWorkTooLarge when the estimated work of the call is over ``MAX_SEGMENT_WORK``; returns it."""
    per_type = segment_work(types, cand_tokens, ref_tokens, full=full)
    total = sum(per_type.values())
    if total <= MAX_SEGMENT_WORK:
        return total
    left, names = total, []
    for name, work in sorted(per_type.items(), key=lambda kv: -kv[1]):
        if left <= MAX_SEGMENT_WORK:
            break
        names.append(name)
        left -= work
    why = (f"scoring {len(per_type)} ROUGE type{'s' if len(per_type) != 1 else ''} against {len(ref_tokens):,} "
           f"reference{'s' if len(ref_tokens) != 1 else ''} ({'with' if full else 'without'} the full trace) is "
           f"about {total:,} units of work, over the explainer's limit of {MAX_SEGMENT_WORK:,} per segment "
           f"(explainer.rouge.limits.MAX_SEGMENT_WORK); the costliest: {', '.join(names)}")
    reasons = {n: (f"{n} is about {per_type[n]:,} of the {total:,} units of work of scoring every type against every "
                   f"reference, over the explainer's limit of {MAX_SEGMENT_WORK:,} per segment "
                   "(explainer.rouge.limits.MAX_SEGMENT_WORK)") for n in names}
    raise SegmentWorkTooLarge(f"{why}. Use fewer references or types, shorter texts, or a maximum skip gap "
                              "(rougeS4 instead of rougeS*).", tuple(names), reasons)
