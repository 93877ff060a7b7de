"""The one TER algorithm, shared by every dialect.

segment  ──tokenize──► words ──► per reference (num_edits, ref_length) ──► the reference with the fewest edits
         (the first on a tie); ref_length = the mean of every reference's length ──► [num_edits, ref_length]
corpus   ──► the segments' vectors summed ──► dialect.combine ──► 100 · edits / length

Two paths produce the same statistics: ``score_*`` (the library's own per-pair code, the work sacreBLEU does)
and ``explain_*`` (the same search recorded: every shift and the alignment after them, ``explainer/ter/shifts.py``,
plus the words' spans in the user's text).
"""
from __future__ import annotations

from typing import Sequence

from explainer.errors import ExplainerInputError
from explainer.gcpause import gc_paused
from explainer.ter.checks import check_references, normalize_corpus_input, normalize_segment_input
from explainer.ter.dialects import LibraryWarning, TerDialect
from explainer.ter.limits import (
    MAX_TRACE_WORK,
    Budget,
    TraceTooLarge,
    check_corpus_trace_size,
    check_tokens,
    check_trace_size,
)
from explainer.ter.spans import token_spans
from explainer.ter.trace import TerCorpusTrace, TerReferenceTrace, TerStats, TerText, TerTrace

__all__ = ["prepare_references", "candidate_stats", "segment_stats", "score_segment", "score_corpus",
           "explain_segment", "explain_corpus", "build_segment_trace", "nrefs_of", "text_of", "bounded_segment_stats"]


def nrefs_of(references: Sequence[Sequence[str]]) -> int | str:
    counts = {len(r) for r in references}
    return counts.pop() if len(counts) == 1 else "var"


def _signature(d: TerDialect, nrefs) -> str:
    return d.cached("signature", nrefs, lambda: d.signature(nrefs))


def _words(d: TerDialect, text: str, what: str, reference: bool = False) -> list[str]:
    words = d.reference_words(text) if reference else d.words(text)
    check_tokens(len(words), what)
    return words


# ---------------------------------------------------------------------------------- statistics only
def prepare_references(d: TerDialect, references: Sequence[str], where: str = "") -> list[list[str]]:
    """The references' words (scoring several systems against the same references tokenizes them once)."""
    return [_words(d, r, f"{where}reference {k + 1}", True) for k, r in enumerate(references)]


def candidate_stats(d: TerDialect, candidate: str, prepared: Sequence[Sequence[str]], where: str = ""
                    ) -> tuple[list, int, list[int]]:
    """(``[num_edits, ref_length]``, the index of the kept reference, every reference's edits) of one candidate:
    ``TER._compute_segment_statistics``."""
    words_h = _words(d, candidate, f"{where}the candidate")
    edits, lengths = [], []
    for words_r in prepared:
        e, n = d.edits(words_h, words_r)
        edits.append(e)
        lengths.append(n)
    k = d.select_reference(edits)
    return [edits[k], d.reference_length(lengths)], k, edits


def segment_stats(d: TerDialect, candidate: str, references: Sequence[str]) -> list:
    return candidate_stats(d, candidate, prepare_references(d, references))[0]


def score_segment(d: TerDialect, candidate: str, references: Sequence[str]) -> TerStats:
    candidate, references = normalize_segment_input(candidate, references)
    check_references([references])
    warns, err = d.check_inputs([candidate], [references], corpus=False)
    stats, k, edits = candidate_stats(d, candidate, prepare_references(d, references))
    return TerStats(d.name, d.metric_name, d.combine(stats), stats, _signature(d, len(references)),
                    d.options_dict(), [k], warns, err, reference_edits=[edits])


def score_corpus(d: TerDialect, candidates, references, *, prepared: list | None = None) -> TerStats:
    """Corpus statistics (``TER.corpus_score``). ``prepared``: the references' words already prepared
    (``prepare_references`` per segment)."""
    candidates, references = normalize_corpus_input(candidates, references)
    if not candidates:
        raise ExplainerInputError("the corpus has no segment")
    check_references(references)
    warns, err = d.check_inputs(candidates, references, corpus=True)
    stats, chosen, edits = [], [], []
    with gc_paused():
        for i, (h, rs) in enumerate(zip(candidates, references)):
            where = f"segment {i + 1}: "
            prep = prepared[i] if prepared is not None else prepare_references(d, rs, where)
            st, k, e = candidate_stats(d, h, prep, where)
            stats.append(st)
            chosen.append(k)
            edits.append(e)
    summed = d.sum_stats(stats)
    return TerStats(d.name, d.metric_name, d.combine(summed), summed, _signature(d, nrefs_of(references)),
                    d.options_dict(), chosen, warns, err, segment_stats=stats, reference_edits=edits)


def bounded_segment_stats(d: TerDialect, candidate: str, references: Sequence[str], work: int) -> list | None:
    """``[num_edits, ref_length]`` of one segment by the recorded search (the same numbers as
    :func:`score_segment`), or None when the search needs more than ``work`` units (edit-distance cells and position
    pairs; :data:`explainer.ter.limits.WORK_PER_SECOND` per second of CPU)."""
    candidate, references = normalize_segment_input(candidate, references)
    check_references([references])
    words_h = _words(d, candidate, "the candidate")
    prepared = prepare_references(d, references)
    budget = Budget(work)
    try:
        per = [d.explain_pair(words_h, r, budget, index=k) for k, r in enumerate(prepared)]
    except TraceTooLarge:
        return None
    edits = [p.num_edits for p in per]
    return [edits[d.select_reference(edits)], d.reference_length([p.ref_length for p in per])]


# ---------------------------------------------------------------------------------------- full trace
def text_of(d: TerDialect, text: str, what: str = "text", reference: bool = False) -> TerText:
    """A text as the dialect reads it (a candidate, or a ``reference``): its tokenizer's output and each word's
    span in ``text``."""
    passes = d.tokenize_passes(text, reference)
    check_tokens(len(passes[-1].split()), what)
    return TerText(text, passes[-1], token_spans(text, passes, **d.view_rules()), d.preprocess_changes(text, passes))


def _search_warnings(refs: Sequence[TerText], per: Sequence[TerReferenceTrace]) -> list[LibraryWarning]:
    out = []
    for k, r in enumerate(refs):
        for c in r.changes:
            if c["step"] == "tokenized twice":
                out.append(LibraryWarning("library-tokenizer", f"reference {k + 1}: {c['detail']}"))
    for p in per:
        if p.stop == "candidate-limit":
            out.append(LibraryWarning("library-limit", f"reference {p.index + 1}: sacreBLEU stopped the shift "
                                      f"search after {p.candidates_checked:,} candidates (its limit); more shifts "
                                      "might have lowered the edit count"))
        for note in p.notes:
            if "beam" in note:
                out.append(LibraryWarning("library-beam", f"reference {p.index + 1}: {note}"))
    return out


def build_segment_trace(d: TerDialect, candidate: str, references: Sequence[str], where: str = "",
                        budget: Budget | None = None) -> TerTrace:
    warns, err = d.check_inputs([candidate], [references], corpus=False)
    cand = text_of(d, candidate, f"{where}the candidate")
    refs = [text_of(d, r, f"{where}reference {k + 1}", True) for k, r in enumerate(references)]
    budget = budget or Budget(MAX_TRACE_WORK, where)
    per = [d.explain_pair(cand.words, r.words, budget, index=k) for k, r in enumerate(refs)]
    edits = [p.num_edits for p in per]
    k = d.select_reference(edits)
    stats = [edits[k], d.reference_length([p.ref_length for p in per])]
    return TerTrace(d.name, d.metric_name, d.options_dict(), cand, refs, per, k, stats, d.combine(stats),
                    _signature(d, len(references)), warns + _search_warnings(refs, per), err)


def explain_segment(d: TerDialect, candidate: str, references: Sequence[str], *,
                    budget: Budget | None = None) -> TerTrace:
    """The full trace of one segment (``budget``: a lower work limit than ``MAX_TRACE_WORK``, a caller's own)."""
    candidate, references = normalize_segment_input(candidate, references)
    check_references([references])
    check_trace_size(candidate, references)
    return build_segment_trace(d, candidate, references, budget=budget)


def explain_corpus(d: TerDialect, candidates, references, *, full: bool = False,
                   prepared: list | None = None) -> TerCorpusTrace:
    """The corpus trace (``prepared``: the references' words already prepared, one ``prepare_references`` per
    segment, shared by several systems; statistics path only)."""
    candidates, references = normalize_corpus_input(candidates, references)
    if not candidates:
        raise ExplainerInputError("the corpus has no segment")
    check_references(references)

    def builder(i: int) -> TerTrace:
        where = f"segment {i + 1}: "
        check_trace_size(candidates[i], references[i], where)
        return build_segment_trace(d, candidates[i], references[i], where)

    if not full:
        st = score_corpus(d, candidates, references, prepared=prepared)
        return TerCorpusTrace(d.name, d.metric_name, d.options_dict(), st.segment_stats, st.chosen_references,
                              st.stats, st.combination, st.signature, len(candidates), st.warnings,
                              st.library_error, builder=builder, dialect_object=d)
    check_corpus_trace_size(candidates, references)
    for i in range(len(candidates)):
        check_trace_size(candidates[i], references[i], f"segment {i + 1}: ")
    with gc_paused():
        segments = [builder(i) for i in range(len(candidates))]
    warns, err = d.check_inputs(candidates, references, corpus=True)
    for i, t in enumerate(segments):
        for w in t.warnings:
            if w.category != "explainer":
                warns.append(LibraryWarning(w.category, f"segment {i + 1}: {w.message}"))
    seg_stats = [t.stats for t in segments]
    summed = d.sum_stats(seg_stats)
    return TerCorpusTrace(d.name, d.metric_name, d.options_dict(), seg_stats, [t.chosen_reference for t in segments],
                          summed, d.combine(summed), _signature(d, nrefs_of(references)), len(candidates), warns,
                          err, builder=builder, segments=segments, dialect_object=d)
