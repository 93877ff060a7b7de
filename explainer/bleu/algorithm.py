"""The one BLEU algorithm, shared by every dialect.

segment  ──tokenize──► tokens ──count──► clipped matches per order ──► [c, r, m_1..m_N, t_1..t_N]
corpus   ──────────────── sum of the segment vectors ──────────────► dialect.combine(...) ──► score

Two paths produce the *same* statistics:

* statistics only (``segment_stats``): the dialect's tokenizer, one Counter of all n-grams per text, the
  per-n-gram maximum over references, clipped sums - the same work sacreBLEU does, nothing more;
* full trace (``build_segment_trace``): tokens with character spans, every distinct candidate n-gram with
  positions, per-reference counts, all references attaining the maximum, one valid assignment.
"""
from __future__ import annotations

from typing import Any, Sequence

from explainer.bleu.dialects import BleuDialect, LibraryError, ReferencePick, SegmentContext
from explainer.bleu.limits import (
    MAX_CORPUS_TRACE_CHARS,
    MAX_TRACE_CHARS,
    TraceTooLarge,
    check_corpus_trace_size,
    check_trace_size,
)
from explainer.bleu.trace import BleuCorpusTrace, BleuStats, BleuText, BleuTrace, OrderNgrams
from explainer.errors import ExplainerInputError
from explainer.gcpause import gc_paused
from explainer.ngrams import count_all_ngrams
from explainer.text import check_length

__all__ = ["segment_stats", "prepare_references", "candidate_stats", "build_segment_trace", "explain_segment",
           "explain_corpus", "score_segment", "score_corpus", "normalize_segment_input", "normalize_corpus_input",
           "sum_stats", "MAX_TRACE_CHARS", "MAX_CORPUS_TRACE_CHARS", "TraceTooLarge", "check_trace_size",
           "check_corpus_trace_size"]


# ------------------------------------------------------------------------------------------- input
def _check_text(x: Any, what: str) -> str:
    if not isinstance(x, str):
        raise ExplainerInputError(f"{what} must be a string, got {type(x).__name__}")
    return x


def normalize_segment_input(candidate: Any, references: Any) -> tuple[str, list[str]]:
    """Validate one segment. ``None`` references are dropped (sacreBLEU's 'no reference here');
    ``""`` is kept as a real, empty reference."""
    _check_text(candidate, "the candidate")
    if isinstance(references, str):
        raise ExplainerInputError(
            "references must be a list of strings; got a single string (wrap it in a list: [reference])")
    if references is None:
        references = []
    try:
        refs = list(references)
    except TypeError:
        raise ExplainerInputError(f"references must be a list of strings, got {type(references).__name__}") from None
    out = []
    for k, r in enumerate(refs):
        if r is None:
            continue
        out.append(_check_text(r, f"reference {k + 1}"))
    check_length([candidate], "candidate")
    check_length(out, "reference")
    return candidate, out


def normalize_corpus_input(candidates: Any, references: Any) -> tuple[list[str], list[list[str]]]:
    """Validate a corpus given as candidates + one list of references per candidate. Mismatched
    lengths are an error, never silently truncated (unlike sacreBLEU's zip)."""
    if isinstance(candidates, str):
        raise ExplainerInputError("candidates must be a list of strings (one per segment), got a single string")
    try:
        cands = list(candidates)
    except TypeError:
        raise ExplainerInputError(f"candidates must be a list of strings, got {type(candidates).__name__}") from None
    if isinstance(references, str):
        raise ExplainerInputError("references must be a list with one list of reference strings per candidate")
    try:
        refs = list(references)
    except TypeError:
        raise ExplainerInputError("references must be a list with one list of reference strings per candidate, "
                                  f"got {type(references).__name__}") from None
    if len(refs) != len(cands):
        hint = ""
        if refs and all(isinstance(x, (list, tuple)) for x in refs) and all(len(x) == len(cands) for x in refs):
            hint = (" It looks like reference *streams* (one list per reference set, as sacreBLEU takes them); "
                    "pass one list of references per candidate instead (transpose them), or use "
                    "explainer.bleu.streams_to_segments.")
        raise ExplainerInputError(
            f"{len(cands)} candidate(s) but {len(refs)} reference list(s): every candidate needs its own list "
            f"of references.{hint}")
    out_c, out_r = [], []
    for i, (c, rs) in enumerate(zip(cands, refs)):
        if not isinstance(c, str):
            raise ExplainerInputError(f"candidate {i + 1} must be a string, got {type(c).__name__}")
        if isinstance(rs, str):
            raise ExplainerInputError(
                f"the references of candidate {i + 1} must be a list of strings, got a single string")
        try:
            rs = [r for r in rs if r is not None]
        except TypeError:
            raise ExplainerInputError(f"the references of candidate {i + 1} must be a list of strings") from None
        for k, r in enumerate(rs):
            if not isinstance(r, str):
                raise ExplainerInputError(f"reference {k + 1} of candidate {i + 1} must be a string")
        out_c.append(c)
        out_r.append(rs)
    check_length(out_c, "candidate")
    for rs in out_r:
        check_length(rs, "reference")
    return out_c, out_r


def streams_to_segments(streams: Sequence[Sequence[str | None]], n_candidates: int | None = None) -> list[list[str]]:
    """sacreBLEU's layout (``streams[k][i]`` = reference k of segment i) to one list per segment.
    Streams of different lengths are an error (sacreBLEU silently truncates to the shortest)."""
    streams = [list(s) for s in streams]
    lens = {len(s) for s in streams}
    if len(lens) > 1:
        raise ExplainerInputError(
            "reference streams have different lengths (" + ", ".join(str(len(s)) for s in streams) +
            " lines); sacreBLEU would silently truncate to the shortest, the explainer refuses")
    n = lens.pop() if lens else 0
    if n_candidates is not None and streams and n != n_candidates:
        raise ExplainerInputError(f"{n_candidates} candidate(s) but the reference streams have {n} line(s)")
    return [[s[i] for s in streams if s[i] is not None] for i in range(n)]


def nrefs_of(references: Sequence[Sequence[str]]) -> int | str:
    counts = {len(r) for r in references}
    return counts.pop() if len(counts) == 1 else "var"


def sum_stats(stats: Sequence[Sequence]) -> list:
    if not stats:
        return []
    return [sum(col) for col in zip(*stats)]


# ---------------------------------------------------------------------------------- statistics only
def segment_stats(d: BleuDialect, candidate: str, references: Sequence[str]) -> list:
    """[c, r, m_1..m_N, t_1..t_N] for one segment (the fast path)."""
    return candidate_stats(d, candidate, prepare_references(d, references))


def prepare_references(d: BleuDialect, references: Sequence[str]) -> tuple:
    """The references' half of ``segment_stats``: (per-n-gram maximum count over the references or None,
    reference lengths), and with ``d.per_reference`` each reference's own counts third. Scoring several systems
    against the same references prepares them once."""
    N = d.max_order
    tok = d.tokenize
    ref_ngrams = None
    ref_lens = []
    own = []        # each reference's own counts, for a dialect that keeps one reference's statistics
    for ref in references:
        ref_toks = tok(ref)
        cnt = count_all_ngrams(ref_toks, N)
        ref_lens.append(len(ref_toks))
        if d.per_reference:
            own.append(cnt)
            cnt = cnt.copy()
        if ref_ngrams is None:
            ref_ngrams = cnt
        else:
            for ng, k in cnt.items():
                if k > ref_ngrams[ng]:
                    ref_ngrams[ng] = k
    return (ref_ngrams, ref_lens, own) if d.per_reference else (ref_ngrams, ref_lens)


def candidate_stats(d: BleuDialect, candidate: str, prepared: tuple) -> list:
    """The candidate's half of ``segment_stats`` against ``prepare_references(d, references)``."""
    ref_ngrams, ref_lens = prepared[0], prepared[1]
    N = d.max_order
    ht = d.tokenize(candidate)
    c = len(ht)
    if d.per_reference:
        return d.pick_reference(c, ref_lens, _per_reference_matches(count_all_ngrams(ht, N), prepared[2], N)).stats
    correct = [0] * N
    if ref_ngrams:
        for ng, k in count_all_ngrams(ht, N).items():
            rk = ref_ngrams.get(ng)
            if rk:
                correct[len(ng) - 1] += k if k < rk else rk
    r = d.ref_length_fast(c, ref_lens)
    seg_total = d.segment_total
    return [c, r] + correct + [seg_total(c, n) for n in range(1, N + 1)]


def _per_reference_matches(hyp: dict, refs: Sequence[dict], N: int) -> list[list[int]]:
    """Per reference, per order: the candidate's n-grams clipped against that reference's counts alone."""
    out = []
    for cnt in refs:
        m = [0] * N
        for ng, k in hyp.items():
            rk = cnt.get(ng)
            if rk:
                m[len(ng) - 1] += k if k < rk else rk
        out.append(m)
    return out


def _context(d: BleuDialect, candidate: str, references: Sequence[str]) -> SegmentContext | None:
    if not d.needs_last_segment:
        return None
    return d.last_segment_context(d.tokenize(candidate), [d.tokenize(r) for r in references])


def _combine(d: BleuDialect, summed: list, ctx, n_segments: int):
    N = d.max_order
    return d.combine(summed[0], summed[1], summed[2:2 + N], summed[2 + N:2 + 2 * N], ctx, n_segments=n_segments)


def _signature(d: BleuDialect, nrefs) -> str:
    """The dialect's signature, kept per number of references in the dialect's own cache (a corpus trace asks
    once per segment; a bound dialect serves many calls)."""
    return d.cached("signature", nrefs, lambda: d.signature(nrefs))


def _merge_error(pre: LibraryError | None, comb_err: LibraryError | None) -> LibraryError | None:
    return pre if pre is not None else comb_err


def _combine_checked(d: BleuDialect, summed: list, ctx, n_segments: int, pre_err: LibraryError | None):
    """``_combine``, except that when the real library fails before scoring (``pre_err``: no reference, a corpus
    segment without one, ...) the score is the documented fallback 0.0: the statistics of the other segments
    would otherwise combine into a number that no library reports. That number stays in
    ``extra["score_had_it_not_failed"]`` for the curious, labelled as such."""
    comb = _combine(d, summed, ctx, n_segments)
    if pre_err is not None and (comb.score != 0.0 or comb.bleu != 0.0):
        comb.extra = dict(comb.extra, score_had_it_not_failed=comb.score)
        comb.score = comb.bleu = 0.0
    return comb


def score_segment(d: BleuDialect, candidate: str, references: Sequence[str]) -> BleuStats:
    candidate, references = normalize_segment_input(candidate, references)
    warns, err = d.check_inputs([candidate], [references], corpus=False)
    st = segment_stats(d, candidate, references)
    comb = _combine_checked(d, st, _context(d, candidate, references), 1, err)
    return BleuStats.from_combination(d.name, comb, _signature(d, len(references)), warns + comb.warnings,
                                      _merge_error(err, comb.library_error), d.options_dict())


def score_corpus(d: BleuDialect, candidates, references) -> BleuStats:
    candidates, references = normalize_corpus_input(candidates, references)
    warns, err = d.check_inputs(candidates, references, corpus=True)
    stats = [segment_stats(d, h, rs) for h, rs in zip(candidates, references)]
    summed = sum_stats(stats) if stats else [0, 0] + [0] * (2 * d.max_order)
    ctx = _context(d, candidates[-1], references[-1]) if candidates else None
    comb = _combine_checked(d, summed, ctx, len(stats), err)
    return BleuStats.from_combination(d.name, comb, _signature(d, nrefs_of(references) if references else 0),
                                      warns + comb.warnings, _merge_error(err, comb.library_error),
                                      d.options_dict(), stats)


# ---------------------------------------------------------------------------------------- full trace
def _bleu_text(d: BleuDialect, text: str) -> BleuText:
    toks = d.tokenize(text)
    starts, ends = d.align_offsets(text, toks)
    return BleuText(text, d.preprocessed_text(text), d.preprocess_changes(text), toks, starts, ends)


def _group_by_next(positions: Sequence[int], ref_toks: Sequence[str], off: int, lim: int) -> dict | None:
    """Positions p (< lim) of one prefix in a reference, grouped by the token at p + off (ascending lists)."""
    if not positions:
        return None
    out: dict = {}
    for p in positions:
        if p < lim:
            t = ref_toks[p + off]
            lst = out.get(t)
            if lst is None:
                out[t] = [p]
            else:
                lst.append(p)
    return out


def build_segment_trace(d: BleuDialect, candidate: str, references: Sequence[str]) -> tuple[
        BleuText, list[BleuText], list[OrderNgrams], Any, list, ReferencePick | None]:
    """Tokens, n-gram tables, reference-length choice and the statistics vector of one segment.

    Reference positions are found by extension rather than by listing every reference n-gram: an n-gram
    g occurs in a reference at p exactly when its (n-1)-gram prefix occurs at p and the reference token at
    p + n - 1 is g's last token; the prefix is itself a candidate (n-1)-gram, whose positions are known.
    The first candidate n-gram with a given prefix filters the prefix's positions directly; when a second one
    shares the prefix, the prefix's positions are grouped by their next token once. Each reference position
    is so visited at most twice per order, whatever the text: the work is linear in the total number of tokens
    (filtering per n-gram was quadratic when many distinct n-grams continue one frequent prefix, e.g. a
    candidate "a x1 a x2 a x3 ..." against references "a a a ...").

    With ``d.per_reference`` the dialect keeps one reference's statistics (the last item: its ``ReferencePick``,
    else None)."""
    cand = _bleu_text(d, candidate)
    refs = [_bleu_text(d, r) for r in references]
    ht = cand.token_texts
    refs_toks = [r.token_texts for r in refs]
    c = len(ht)
    ref_lens = [len(x) for x in refs_toks]
    orders, matches = [], []
    ids: list = []
    ref_positions: list = []
    for n in range(1, d.max_order + 1):
        prev_ids, prev_rp = ids, ref_positions
        ids, firsts, counts = _distinct_ngrams(ht, n)
        if n == 1:
            ref_positions = _unigram_positions(ht, firsts, refs_toks)
        else:
            ref_positions = _extended_positions(ht, n, firsts, prev_ids, prev_rp, refs_toks, ref_lens)
        m = _clipped_matches(counts, ref_positions)
        matches.append(m)
        orders.append(OrderNgrams(n, m, c - n + 1 if c >= n else 0, d.segment_total(c, n), ht, firsts, ids,
                                  counts, ref_positions, len(refs_toks)))
    if d.per_reference:
        pick = _pick_reference(d, c, ref_lens, orders)
        return cand, refs, orders, pick.ref_length, pick.stats, pick
    choice = d.choose_ref_length(c, ref_lens)
    stats = [c, choice.r] + matches + [o.totals for o in orders]
    return cand, refs, orders, choice, stats, None


def _pick_reference(d: BleuDialect, c: int, ref_lens: list, orders: list) -> ReferencePick:
    """The dialect's reference and statistics from each reference's own clipped matches; every order's n-grams
    are then clipped against that reference alone (their matches and totals are the dialect's)."""
    per_ref = [[0] * len(orders) for _ in ref_lens]
    for o in orders:
        for cc, rp in zip(o._counts, o._ref_positions):
            if rp is not None:
                for k, pos in enumerate(rp):
                    per_ref[k][o.n - 1] += cc if cc < len(pos) else len(pos)
    pick = d.pick_reference(c, ref_lens, per_ref)
    N = len(orders)
    for o in orders:
        o.matches, o.totals, o.clip_ref = pick.stats[1 + o.n], pick.stats[1 + N + o.n], pick.index
    return pick


def _distinct_ngrams(ht: Sequence[str], n: int) -> tuple[list, list, list]:
    """For the candidate's n-grams: the index of its distinct n-gram at every position (``ids``), the first
    position of each distinct n-gram (``firsts``) and its count (``counts``), in order of first occurrence."""
    index: dict = {}
    ids: list = []
    firsts: list = []
    counts: list = []
    for i in range(len(ht) - n + 1):
        key = ht[i] if n == 1 else tuple(ht[i:i + n])
        j = index.get(key)
        if j is None:
            j = index[key] = len(firsts)
            firsts.append(i)
            counts.append(1)
        else:
            counts[j] += 1
        ids.append(j)
    return ids, firsts, counts


def _unigram_positions(ht: Sequence[str], firsts: list, refs_toks: list) -> list:
    """Per distinct candidate token: None (in no reference) or its positions in every reference (tuples)."""
    ref_uni = []
    for ref_toks in refs_toks:
        pos: dict = {}
        for i, t in enumerate(ref_toks):
            lst = pos.get(t)
            if lst is None:
                pos[t] = [i]
            else:
                lst.append(i)
        ref_uni.append({t: tuple(v) for t, v in pos.items()})
    out: list = [None] * len(firsts)
    for j, f in enumerate(firsts):
        tok = ht[f]
        found = tuple(u.get(tok, ()) for u in ref_uni)
        if any(found):
            out[j] = found
    return out


def _extended_positions(ht: Sequence[str], n: int, firsts: list, prev_ids: list, prev_rp: list, refs_toks: list,
                        ref_lens: list) -> list:
    """Per distinct candidate n-gram (n > 1): None or its positions in every reference, found by extending the
    positions of its (n-1)-gram prefix (see ``build_segment_trace``)."""
    out: list = [None] * len(firsts)
    off = n - 1
    kr = range(len(refs_toks))
    seen_prefix: dict = {}   # prefix id -> None (filtered once directly) or its positions grouped by next token
    for j, f in enumerate(firsts):
        pid = prev_ids[f]
        prefix = prev_rp[pid]
        if prefix is None:
            continue
        last = ht[f + off]
        if pid in seen_prefix:
            groups = seen_prefix[pid]
            if groups is None:
                groups = seen_prefix[pid] = [_group_by_next(prefix[k], refs_toks[k], off, ref_lens[k] - off)
                                             for k in kr]
            found = [tuple(g.get(last, ())) if g else () for g in groups]
            if not any(found):
                continue
        else:
            seen_prefix[pid] = None
            found = []
            hit = False
            for k in kr:
                pp = prefix[k]
                if pp:
                    ref_toks = refs_toks[k]
                    lim = ref_lens[k] - off
                    x = tuple([p for p in pp if p < lim and ref_toks[p + off] == last])
                    if x:
                        hit = True
                    found.append(x)
                else:
                    found.append(())
            if not hit:
                continue
        out[j] = tuple(found)
    return out


def _clipped_matches(counts: list, ref_positions: list) -> int:
    """Sum over distinct n-grams of min(candidate count, largest count in one reference)."""
    m = 0
    for cc, rp in zip(counts, ref_positions):
        if rp is not None:
            mx = max(map(len, rp))
            m += cc if cc < mx else mx
    return m


def explain_segment(d: BleuDialect, candidate: str, references: Sequence[str]) -> BleuTrace:
    candidate, references = normalize_segment_input(candidate, references)
    check_trace_size(candidate, references)
    return _segment_trace(d, candidate, references)


def _segment_trace(d: BleuDialect, candidate: str, references: Sequence[str], options: dict | None = None) -> BleuTrace:
    warns, err = d.check_inputs([candidate], [references], corpus=False)
    cand, refs, orders, choice, stats, pick = build_segment_trace(d, candidate, references)
    ctx = d.last_segment_context(cand.token_texts, [r.token_texts for r in refs]) if d.needs_last_segment else None
    comb = _combine_checked(d, stats, ctx, 1, err)
    return BleuTrace(dialect=d.name, implementation=d.implementation,
                     options=d.options_dict() if options is None else options, scale=d.scale,
                     tokenizer=d.tokenizer_name, candidate=cand, references=refs, ngrams=orders,
                     totals_rule=d.totals_rule, ref_length=choice, stats=stats, combination=comb,
                     signature=_signature(d, len(references)), warnings=warns + comb.warnings,
                     library_error=_merge_error(err, comb.library_error), reference_pick=pick)


def explain_corpus(d: BleuDialect, candidates, references, *, full: bool = False,
                   stats: Sequence[Sequence[int]] | None = None) -> BleuCorpusTrace:
    """``stats``: the per-segment statistics when the caller has them already (``segment_stats`` of every segment,
    e.g. several systems scored against references tokenized once); not with ``full``."""
    candidates, references = normalize_corpus_input(candidates, references)
    if stats is not None and (full or len(stats) != len(candidates)):
        raise ValueError("stats: one statistics row per candidate, and not together with full=True")
    warns, err = d.check_inputs(candidates, references, corpus=True)

    shared_options = d.options_dict()   # one dict shared by the segment traces (read-only by convention)
    n_chars = sum(len(c) for c in candidates) + sum(len(r) for rs in references for r in rs)

    def builder(i: int) -> BleuTrace:
        # inputs were validated above; a segment trace carries its own sentence-level score and notes
        check_trace_size(candidates[i], references[i], f"segment {i + 1}: ")
        return _segment_trace(d, candidates[i], references[i], shared_options)

    if full:
        check_corpus_trace_size(n_chars, len(candidates))
        for i in range(len(candidates)):
            check_trace_size(candidates[i], references[i], f"segment {i + 1}: ")
        # Build every segment's trace first and read the statistics off them (one pass over the texts).
        with gc_paused():
            built = {i: builder(i) for i in range(len(candidates))}
        stats = [built[i].stats for i in range(len(candidates))]
    else:
        built = {}
        if stats is None:
            stats = [segment_stats(d, h, rs) for h, rs in zip(candidates, references)]
        else:
            stats = [list(s) for s in stats]
    summed = sum_stats(stats) if stats else [0, 0] + [0] * (2 * d.max_order)
    ctx = _context(d, candidates[-1], references[-1]) if candidates else None
    comb = _combine_checked(d, summed, ctx, len(stats), err)
    seg_errors = [{"segment": i, "note": "no reference"} for i, rs in enumerate(references) if not rs]
    return BleuCorpusTrace(dialect=d.name, implementation=d.implementation, options=d.options_dict(),
                           scale=d.scale, tokenizer=d.tokenizer_name, n_segments=len(candidates),
                           segment_stats=stats, summed=summed, combination=comb,
                           signature=_signature(d, nrefs_of(references) if references else 0),
                           warnings=warns + comb.warnings, library_error=_merge_error(err, comb.library_error),
                           segment_errors=seg_errors, _builder=builder, _segments=built, _n_chars=n_chars)
