"""The one chrF algorithm, shared by every dialect.

segment  ──prepare──► texts ──extract──► n-gram Counters per order ──► per reference [hyp, ref, match] * orders
         ──► the reference with the best score is kept (sacreBLEU; first on a tie)
corpus   ──► the kept vectors, summed (sacreBLEU) or their scores averaged (NLTK) ──► dialect.combine ──► score

Two paths produce the same statistics: ``score_*`` (Counters and clipped sums only, the work sacreBLEU does) and
``explain_*`` (every distinct candidate n-gram with its counts per reference, column-wise, and the combination
step by step; spans of the n-grams in the user's text on demand: ``candidate_spans``).
"""
from __future__ import annotations

from typing import Sequence

from explainer.chrf.checks import check_references, normalize_corpus_input, normalize_segment_input
from explainer.chrf.dialects import ChrfDialect
from explainer.chrf.spans import candidate_spans, missed_ngrams  # noqa: F401  (re-exported)
from explainer.chrf.trace import ChrfCorpusTrace, ChrfStats, ChrfText, ChrfTrace, OrderTrace
from explainer.errors import ExplainerInputError, TraceTooLarge
from explainer.gcpause import gc_paused

__all__ = ["MAX_TRACE_CHARS", "MAX_CORPUS_TRACE_CHARS", "prepare_references", "candidate_stats", "segment_stats",
           "score_segment", "score_corpus", "explain_segment", "explain_corpus", "candidate_spans", "missed_ngrams",
           "check_references", "nrefs_of"]

#: characters (candidate + references) one segment's trace may cover: a trace lists every distinct n-gram of every
#: order (up to 6-10 per character) with its counts per reference; at the limit (chrF++) building takes ~0.6 s,
#: to_dict ~1.2 s and its JSON ~0.9 s on a busy machine, ~5 MB (docs/chrf.md "Limits")
MAX_TRACE_CHARS = 40_000
#: characters of a corpus whose every segment's trace is built at once (explain_chrf_corpus(full=True))
MAX_CORPUS_TRACE_CHARS = 1_500_000


def nrefs_of(references: Sequence[Sequence[str]]) -> int | str:
    counts = {len(r) for r in references}
    return counts.pop() if len(counts) == 1 else "var"


def _check_trace_size(candidate: str, references: Sequence[str], where: str = "") -> None:
    n = len(candidate) + sum(len(r) for r in references)
    if n > MAX_TRACE_CHARS:
        raise TraceTooLarge(
            f"{where}a full chrF trace of {n:,} characters (candidate + {len(references)} reference(s)) is over the "
            f"limit of {MAX_TRACE_CHARS:,} characters for one segment's trace (explainer.chrf.MAX_TRACE_CHARS). "
            "For the statistics only use score_chrf / score_chrf_corpus (CLI: without --full).")


# ---------------------------------------------------------------------------------- statistics only
def prepare_references(d: ChrfDialect, references: Sequence[str]) -> tuple[list, list]:
    """The references' half of the statistics: (per effective reference (Counters, lengths), warnings).
    Scoring several systems against the same references prepares them once."""
    refs, warns = d.effective_references(references)
    prep = d.prepare
    return [d.extract(prep(r)) for r in refs], warns


def candidate_stats(d: ChrfDialect, candidate: str, prepared: list) -> tuple[list, int]:
    """(the kept statistics vector, the index of the kept reference) of one candidate."""
    hc, hl = d.extract(d.prepare(candidate))
    order_stats = d.order_stats
    best = None
    best_f = -1.0
    best_k = 0
    for k, (rc, rl) in enumerate(prepared):
        stats: list = []
        for h, r, nh, nr in zip(hc, rc, hl, rl):
            stats.extend(order_stats(h, r, nh, nr))
        if len(prepared) == 1:
            return stats, 0
        f = d.f_score(stats)
        if f > best_f:
            best, best_f, best_k = stats, f, k
    return best, best_k


def segment_stats(d: ChrfDialect, candidate: str, references: Sequence[str]) -> list:
    return candidate_stats(d, candidate, prepare_references(d, references)[0])[0]


def _signature(d: ChrfDialect, nrefs) -> str:
    return d.cached("signature", nrefs, lambda: d.signature(nrefs))


def score_segment(d: ChrfDialect, candidate: str, references: Sequence[str]) -> ChrfStats:
    candidate, references = normalize_segment_input(candidate, references)
    check_references([references])
    warns, err = d.check_inputs([candidate], [references], corpus=False)
    prepared, w2 = prepare_references(d, references)
    stats, k = candidate_stats(d, candidate, prepared)
    comb = d.corpus_combine([stats], stats) if d.corpus_rule == "mean" else d.combine(stats)
    return ChrfStats(d.name, d.metric_name, comb, stats, _signature(d, len(references)), d.options_dict(), [k],
                     warns + w2, err)


def _sum(stats: Sequence[Sequence]) -> list:
    return [sum(col) for col in zip(*stats)]


def score_corpus(d: ChrfDialect, candidates, references, *, prepared: list | None = None) -> ChrfStats:
    """Corpus statistics. ``prepared``: the references already prepared (``prepare_references`` per segment)."""
    candidates, references = normalize_corpus_input(candidates, references)
    if not candidates:
        raise ExplainerInputError("the corpus has no segment")
    check_references(references)
    warns, err = d.check_inputs(candidates, references, corpus=True)
    stats, chosen = [], []
    with gc_paused():
        for i, (h, rs) in enumerate(zip(candidates, references)):
            if prepared is not None:
                prep = prepared[i]
            else:
                prep, w2 = prepare_references(d, rs)
                for w in w2:
                    if w.message not in [x.message for x in warns]:
                        warns.append(w)
            st, k = candidate_stats(d, h, prep)
            stats.append(st)
            chosen.append(k)
    summed = _sum(stats)
    comb = d.corpus_combine(stats, summed)
    return ChrfStats(d.name, d.metric_name, comb, summed, _signature(d, nrefs_of(references)), d.options_dict(),
                     chosen, warns, err, segment_stats=stats)


# ---------------------------------------------------------------------------------------- full trace
def _text(d: ChrfDialect, text: str) -> ChrfText:
    p = d.prepare(text)
    return ChrfText(text, p, d.char_units(p), d.words(p) if d.word_order else [], d.preprocess_changes(text))


def build_segment_trace(d: ChrfDialect, candidate: str, references: Sequence[str]) -> ChrfTrace:
    warns, err = d.check_inputs([candidate], [references], corpus=False)
    refs, w2 = d.effective_references(references)
    cand = _text(d, candidate)
    rtexts = [_text(d, r) for r in refs]
    hc, hl = d.extract(cand.prepared)
    rext = [d.extract(r.prepared) for r in rtexts]
    K = len(refs)
    per_ref: list[list] = [[] for _ in range(K)]
    triple = d.order_triple
    orders = []
    for i, (kind, n) in enumerate(d.orders):
        h = hc[i]
        keys = list(h)
        counts = list(h.values())
        zeros = [0] * len(keys)
        rcounts, matched, rstats = [], [], []
        for k in range(K):
            r = rext[k][0][i]
            rk = list(map(r.get, keys, zeros))
            mk = list(map(min, counts, rk))
            rcounts.append(rk)
            matched.append(mk)
            trip = triple(hl[i], rext[k][1][i], sum(mk))
            rstats.append(list(trip))
            per_ref[k].extend(trip)
        orders.append(OrderTrace(kind, n, keys, counts, rcounts, matched, rstats))
    scores = [d.f_score(v) for v in per_ref] if K > 1 else [None]
    chosen = d.select_reference(scores) if K > 1 else 0
    stats = per_ref[chosen]
    comb = d.corpus_combine([stats], stats) if d.corpus_rule == "mean" else d.combine(stats)
    if K == 1:
        scores = [comb.score]
    tr = ChrfTrace(d.name, d.metric_name, d.options_dict(), cand, rtexts, orders, per_ref, scores, chosen, stats,
                   comb, _signature(d, len(references)), warns + w2, err)
    tr.dialect_object = d
    return tr


def explain_segment(d: ChrfDialect, candidate: str, references: Sequence[str]) -> ChrfTrace:
    candidate, references = normalize_segment_input(candidate, references)
    check_references([references])
    _check_trace_size(candidate, references)
    return build_segment_trace(d, candidate, references)


def explain_corpus(d: ChrfDialect, candidates, references, *, full: bool = False,
                   prepared: list | None = None) -> ChrfCorpusTrace:
    """The corpus trace (``prepared``: the references already prepared, one ``prepare_references`` per segment,
    shared by several systems; statistics path only)."""
    candidates, references = normalize_corpus_input(candidates, references)
    if not candidates:
        raise ExplainerInputError("the corpus has no segment")
    check_references(references)

    def builder(i: int) -> ChrfTrace:
        _check_trace_size(candidates[i], references[i], f"segment {i + 1}: ")
        return build_segment_trace(d, candidates[i], references[i])

    segments = None
    if full:
        n_chars = sum(map(len, candidates)) + sum(len(r) for rs in references for r in rs)
        if n_chars > MAX_CORPUS_TRACE_CHARS:
            raise TraceTooLarge(
                f"full chrF traces of all {len(candidates):,} segments would cover {n_chars:,} characters, over the "
                f"limit of {MAX_CORPUS_TRACE_CHARS:,} (explainer.chrf.MAX_CORPUS_TRACE_CHARS); build the segments "
                "you need with explain_chrf_corpus(...).segment(i), or use score_chrf_corpus")
        for i in range(len(candidates)):
            _check_trace_size(candidates[i], references[i], f"segment {i + 1}: ")
        with gc_paused():
            segments = [build_segment_trace(d, h, rs) for h, rs in zip(candidates, references)]
        # the corpus statistics are the segments' kept vectors (the same numbers score_corpus computes)
        warns, err = d.check_inputs(candidates, references, corpus=True)
        for t in segments:
            for w in t.warnings:
                if w.message not in [x.message for x in warns]:
                    warns.append(w)
        seg_stats = [t.stats for t in segments]
        summed = _sum(seg_stats)
        return ChrfCorpusTrace(d.name, d.metric_name, d.options_dict(), seg_stats,
                               [t.chosen_reference for t in segments], summed, d.corpus_combine(seg_stats, summed),
                               _signature(d, nrefs_of(references)), len(candidates), warns, err, builder=builder,
                               segments=segments)
    st = score_corpus(d, candidates, references, prepared=prepared)
    return ChrfCorpusTrace(d.name, d.metric_name, d.options_dict(), st.segment_stats, st.chosen_references,
                           st.stats, st.combination, st.signature, len(candidates), st.warnings, st.library_error,
                           builder=builder, segments=segments)
