"""Trace types for BLEU. Every field is documented in ``docs/trace-schema-bleu.md``.

All ``to_dict()`` results contain only JSON types (dict, list, str, int, float, bool, None).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from explainer.bleu.dialects import Combination, LibraryError, LibraryWarning, ReferencePick, RefLengthChoice
from explainer.bleu.limits import check_corpus_trace_size
from explainer.gcpause import gc_paused
from explainer.text import Token

__all__ = ["BleuText", "NgramEntry", "OrderNgrams", "BleuTrace", "BleuCorpusTrace", "BleuStats"]


class BleuText:
    """One text (candidate or reference) of a BLEU trace as the dialect reads it: the user's string, the
    preprocessing (the string the tokens were split from and what changed) and the tokens with character offsets
    in the user's string. (The ROUGE trace's record of a text is :class:`explainer.rouge.trace.RougeTextView`: a
    role and a ``TokenizedText`` with stems, removed words and sentences, a different record.)

    Tokens are stored compactly (their strings and start/end offsets); ``tokens`` builds the ``Token``
    objects (with character spans in ``text``; None when a token cannot be located) on first access."""

    __slots__ = ("text", "preprocessed", "changes", "token_texts", "starts", "ends", "_tokens")

    def __init__(self, text: str, preprocessed: str, changes: list[dict], token_texts: list[str],
                 starts: list, ends: list) -> None:
        self.text = text                    # the user's original string
        self.preprocessed = preprocessed    # the string the tokens were split from
        self.changes = changes              # [{"step": str, "detail": str}] what preprocessing changed
        self.token_texts = token_texts      # the tokens, as the dialect computes n-grams over them
        self.starts = starts                # character offsets in ``text`` (None if not locatable)
        self.ends = ends
        self._tokens = None

    @property
    def tokens(self) -> list[Token]:
        if self._tokens is None:
            self._tokens = [Token(t, a, b) for t, a, b in zip(self.token_texts, self.starts, self.ends)]
        return self._tokens

    def __repr__(self) -> str:
        return f"BleuText(text={self.text!r}, tokens={len(self.token_texts)})"

    def to_dict(self) -> dict:
        return {"text": self.text, "preprocessed": self.preprocessed, "changes": self.changes,
                "tokens": [{"text": t, "start": a, "end": b}
                           for t, a, b in zip(self.token_texts, self.starts, self.ends)]}


@dataclass(slots=True)
class NgramEntry:
    """One distinct candidate n-gram of order n. Sequences are tuples/lists: treat them as read-only."""

    ngram: tuple                        # the n-gram's tokens
    cand_count: int
    cand_positions: list[int]           # candidate token index where each occurrence starts
    ref_counts: tuple                   # its count in each reference (same order as the references)
    ref_positions: tuple                # per reference, a tuple of the start indices
    max_ref_count: int
    max_refs: list[int]                 # every reference index attaining max_ref_count (empty when it is 0)
    clipped: int                        # min(cand_count, max_ref_count)
    assignment: list[dict]              # [{"cand_pos", "ref", "ref_pos"}]: ONE valid assignment of the
                                        # matched occurrences (one of possibly several)

    @property
    def text(self) -> str:
        return " ".join(self.ngram)

    def to_dict(self) -> dict:
        return {"ngram": list(self.ngram), "text": self.text, "cand_count": self.cand_count,
                "cand_positions": list(self.cand_positions), "ref_counts": list(self.ref_counts),
                "ref_positions": [list(p) for p in self.ref_positions], "max_ref_count": self.max_ref_count,
                "max_refs": self.max_refs, "clipped": self.clipped, "assignment": self.assignment}


ASSIGNMENT_NOTE = ("one valid assignment: the first matched candidate occurrences are paired, in order, with "
                   "occurrences in the first reference that attains the maximum count; other assignments "
                   "with the same clipped count may exist")


class OrderNgrams:
    """All distinct candidate n-grams of one order for one segment.

    Stored compactly: for every candidate position the index of its distinct n-gram (``ids``), the first
    position of each distinct n-gram (``firsts``), its candidate count, and - for n-grams occurring in some
    reference - their start positions in every reference. ``entries`` derives the ``NgramEntry`` records from
    these on first access (the n-gram's tokens, positions, per-reference counts, maximum, every reference
    attaining it, clipped count, one assignment) and keeps them."""

    __slots__ = ("n", "matches", "candidate_ngrams", "totals", "_tokens", "_firsts", "_ids", "_counts",
                 "_ref_positions", "_n_refs", "_entries", "clip_ref")

    def __init__(self, n: int, matches: int, candidate_ngrams: int, totals: int, tokens: list, firsts: list,
                 ids: list, counts: list, ref_positions: list, n_refs: int) -> None:
        self.n = n
        self.matches = matches                      # sum of clipped counts in this segment
        self.candidate_ngrams = candidate_ngrams    # number of candidate n-grams (max(0, c − n + 1))
        self.totals = totals                        # the segment's totals under the dialect's rule
        self._tokens = tokens                       # the candidate's tokens
        self._firsts = firsts                       # first candidate position of each distinct n-gram
        self._ids = ids                             # candidate position -> distinct n-gram index
        self._counts = counts                       # candidate count of each distinct n-gram
        self._ref_positions = ref_positions         # per distinct n-gram: None (in no reference) or per-ref tuples
        self._n_refs = n_refs
        self._entries = None
        #: None: every n-gram is clipped against its largest count in one reference (BLEU); an index: against
        #: that reference's count alone (a dialect keeping one reference's statistics, GLEU)
        self.clip_ref = None

    @property
    def entries(self) -> list[NgramEntry]:
        if self._entries is None:
            self._entries = self._build_entries()
        return self._entries

    def materialise(self) -> list[NgramEntry]:
        """Build the entry records now if they are not built yet (``entries`` does so on first access)."""
        return self.entries

    def _build_entries(self) -> list[NgramEntry]:
        # ~2 µs per entry, nearly all of it allocating the record and its small lists/dict; the common cases
        # (an n-gram seen once, one reference, one clipped match) skip the general loops (bench/bench_bleu.py)
        K, n, toks = self._n_refs, self.n, self._tokens
        firsts, ids = self._firsts, self._ids
        zeros, no_pos = (0,) * K, ((),) * K
        if len(firsts) == len(ids):      # every n-gram occurs once: its only position is its first
            positions: list[list[int]] = [[f] for f in firsts]
        else:
            positions = [[] for _ in firsts]
            for i, j in enumerate(ids):
                positions[j].append(i)
        grams = [(toks[f],) for f in firsts] if n == 1 else [tuple(toks[f:f + n]) for f in firsts]
        Entry = NgramEntry
        out: list[NgramEntry] = []
        append = out.append
        for ng, cpos, cc, rp in zip(grams, positions, self._counts, self._ref_positions):
            if rp is None:
                append(Entry(ng, cc, cpos, zeros, no_pos, 0, [], 0, []))
                continue
            if self.clip_ref is not None:
                rc = tuple([len(x) for x in rp])
                k0 = self.clip_ref
                mx = rc[k0]
                max_refs = [k0] if mx else []
                r0 = rp[k0]
            elif K == 1:
                k0 = 0
                r0 = rp[0]
                mx = len(r0)
                rc = (mx,)
                max_refs = [0]
            else:
                rc = tuple([len(x) for x in rp])
                mx = max(rc)
                max_refs = [k for k in range(K) if rc[k] == mx]
                k0 = max_refs[0]
                r0 = rp[k0]
            clipped = cc if cc < mx else mx
            if clipped == 1:
                assignment = [{"cand_pos": cpos[0], "ref": k0, "ref_pos": r0[0]}]
            else:
                assignment = [{"cand_pos": cpos[j], "ref": k0, "ref_pos": r0[j]} for j in range(clipped)]
            append(Entry(ng, cc, cpos, rc, rp, mx, max_refs, clipped, assignment))
        return out

    def __repr__(self) -> str:
        return (f"OrderNgrams(n={self.n}, matches={self.matches}, totals={self.totals}, "
                f"distinct={len(self._firsts)})")

    def to_dict(self) -> dict:
            return {"n": self.n, "matches": self.matches, "candidate_ngrams": self.candidate_ngrams,
                "totals": self.totals, "clip_ref": self.clip_ref, "entries": [e.to_dict() for e in self.entries]}


def _combo_props(cls):
    """Convenience attributes read from ``self.combination``."""
    for name in ("score", "bleu", "bp", "geo_mean", "log_sum", "weights", "effective_order"):
        setattr(cls, name, property(lambda self, _n=name: getattr(self.combination, _n)))
    return cls


@_combo_props
@dataclass
class BleuTrace:
    """Full trace of one segment (``explain_bleu``)."""

    dialect: str
    implementation: str
    options: dict
    scale: float
    tokenizer: str
    candidate: BleuText
    references: list[BleuText]
    ngrams: list[OrderNgrams]
    totals_rule: str
    ref_length: RefLengthChoice
    stats: list                         # [c, r, m_1..m_N, t_1..t_N] (the dialect's rule for t)
    combination: Combination
    signature: str
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None
    #: a dialect keeping one reference's statistics (GLEU): each reference's numbers and the one kept
    reference_pick: ReferencePick | None = None

    @property
    def counts(self) -> list:
        return [o.reported_matches if o.reported_matches is not None else o.matches for o in self.combination.orders]

    @property
    def totals(self) -> list:
        return [o.reported_totals if o.reported_totals is not None else o.totals for o in self.combination.orders]

    @property
    def precisions(self) -> list[float]:
        return [o.precision for o in self.combination.orders]

    @property
    def sys_len(self) -> int:
        return self.combination.c

    @property
    def ref_len(self) -> int:
        return self.combination.r

    def stats_summary(self) -> "BleuStats":
        return BleuStats.from_combination(self.dialect, self.combination, self.signature, self.warnings,
                                          self.library_error, self.options)

    def to_dict(self) -> dict:
        return {
            "kind": "bleu-segment",
            "dialect": self.dialect, "implementation": self.implementation, "options": self.options,
            "scale": self.scale, "tokenizer": self.tokenizer,
            "candidate": self.candidate.to_dict(), "references": [r.to_dict() for r in self.references],
            "ngrams": [o.to_dict() for o in self.ngrams], "assignment_note": ASSIGNMENT_NOTE,
            "totals_rule": self.totals_rule,
            "ref_length": {**self.ref_length.to_dict(), "c": self.combination.c,
                           "ref_lengths": [len(r.token_texts) for r in self.references]},
            "stats": list(self.stats),
            "combination": self.combination.to_dict(),
            "score": self.score, "bleu": self.bleu, "counts": self.counts, "totals": self.totals,
            "precisions": self.precisions, "bp": self.bp, "sys_len": self.sys_len, "ref_len": self.ref_len,
            "signature": self.signature,
            "warnings": [w.to_dict() for w in self.warnings],
            "library_error": self.library_error.to_dict() if self.library_error else None,
            "reference_pick": self.reference_pick.to_dict() if self.reference_pick else None,
        }


@dataclass
class BleuStats:
    """Light result of the statistics-only fast path (no tokens, positions or assignments)."""

    dialect: str
    score: float            # native scale
    bleu: float             # 0..1
    counts: list            # matches per order as the library reports them
    totals: list
    precisions: list[float]  # 0..1, the value the library uses / reports
    bp: float
    sys_len: int
    ref_len: int
    ratio: float | None
    signature: str
    options: dict = field(default_factory=dict)
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None
    segment_stats: list | None = None   # corpus: per-segment [c, r, m.., t..]

    @classmethod
    def from_combination(cls, dialect, comb: Combination, signature, warnings, error, options,
                         segment_stats=None) -> "BleuStats":
        return cls(dialect=dialect, score=comb.score, bleu=comb.bleu,
                   counts=[o.reported_matches if o.reported_matches is not None else o.matches for o in comb.orders],
                   totals=[o.reported_totals if o.reported_totals is not None else o.totals for o in comb.orders],
                   precisions=[o.precision for o in comb.orders], bp=comb.bp, sys_len=comb.c, ref_len=comb.r,
                   ratio=comb.ratio, signature=signature, options=options, warnings=list(warnings),
                   library_error=error, segment_stats=segment_stats)

    def to_dict(self) -> dict:
        d = {"dialect": self.dialect, "score": self.score, "bleu": self.bleu, "counts": self.counts,
             "totals": self.totals, "precisions": self.precisions, "bp": self.bp, "sys_len": self.sys_len,
             "ref_len": self.ref_len, "ratio": self.ratio, "signature": self.signature, "options": self.options,
             "warnings": [w.to_dict() for w in self.warnings],
             "library_error": self.library_error.to_dict() if self.library_error else None}
        if self.segment_stats is not None:
            d["segment_stats"] = [list(s) for s in self.segment_stats]
        return d


@_combo_props
@dataclass
class BleuCorpusTrace:
    """Corpus trace: per-segment sufficient statistics, their sums, and the final combination.
    Full per-segment traces are built on demand with ``segment(i)`` (or all at once with ``full=True``)."""

    dialect: str
    implementation: str
    options: dict
    scale: float
    tokenizer: str
    n_segments: int
    segment_stats: list[list]           # per segment [c, r, m_1..m_N, t_1..t_N]
    summed: list                        # element-wise sum
    combination: Combination
    signature: str
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None
    segment_errors: list[dict] = field(default_factory=list)   # {"segment": i, ...} per-segment notes
    _builder: Callable[[int], BleuTrace] | None = field(default=None, repr=False, compare=False)
    _segments: dict = field(default_factory=dict, repr=False, compare=False)
    _n_chars: int = field(default=0, repr=False, compare=False)   # characters of all texts (trace-size limit)

    counts = BleuTrace.counts
    totals = BleuTrace.totals
    precisions = BleuTrace.precisions
    sys_len = BleuTrace.sys_len
    ref_len = BleuTrace.ref_len

    def segment(self, i: int) -> BleuTrace:
        """The full trace of segment i (0-based), built on first use and kept."""
        if not 0 <= i < self.n_segments:
            raise IndexError(f"segment {i} out of range (0..{self.n_segments - 1})")
        t = self._segments.get(i)
        if t is None:
            t = self._segments[i] = self._builder(i)
        return t

    def build_all(self) -> None:
        """Build every segment's full trace now (with the garbage collector paused, see explainer.gcpause).
        Raises ``TraceTooLarge`` above ``MAX_CORPUS_TRACE_CHARS`` (``segment(i)`` builds one segment)."""
        if len(self._segments) < self.n_segments:
            check_corpus_trace_size(self._n_chars, self.n_segments)
        with gc_paused():
            for i in range(self.n_segments):
                self.segment(i)

    def materialise(self) -> None:
        """Build every segment's trace and every n-gram entry record now (GC paused), e.g. before exporting."""
        if len(self._segments) < self.n_segments:
            check_corpus_trace_size(self._n_chars, self.n_segments)
        # one pause for both steps: every re-enabling of the collector is followed by a collection of all the
        # objects allocated while it was off
        with gc_paused():
            for i in range(self.n_segments):
                for order in self.segment(i).ngrams:
                    order.materialise()

    @property
    def segments(self) -> list[BleuTrace]:
        if len(self._segments) < self.n_segments:
            self.build_all()
        return [self._segments[i] for i in range(self.n_segments)]

    def stats_summary(self) -> BleuStats:
        return BleuStats.from_combination(self.dialect, self.combination, self.signature, self.warnings,
                                          self.library_error, self.options, self.segment_stats)

    def to_dict(self, *, full: bool = False) -> dict:
        """``full=True`` includes every segment's full trace (building the missing ones)."""
        d = {
            "kind": "bleu-corpus",
            "dialect": self.dialect, "implementation": self.implementation, "options": self.options,
            "scale": self.scale, "tokenizer": self.tokenizer, "n_segments": self.n_segments,
            "segment_stats": [list(s) for s in self.segment_stats], "summed": list(self.summed),
            "combination": self.combination.to_dict(),
            "score": self.score, "bleu": self.bleu, "counts": self.counts, "totals": self.totals,
            "precisions": self.precisions, "bp": self.bp, "sys_len": self.sys_len, "ref_len": self.ref_len,
            "signature": self.signature,
            "warnings": [w.to_dict() for w in self.warnings],
            "library_error": self.library_error.to_dict() if self.library_error else None,
            "segment_errors": self.segment_errors,
        }
        if full:
            segs = self.segments
            with gc_paused():
                d["segments"] = [s.to_dict() for s in segs]
        return d
