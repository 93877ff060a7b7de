"""The records of a chrF trace (docs/chrf.md "Trace schema").

* ``ChrfStats``: statistics only (``score_chrf`` / ``score_chrf_corpus``).
* ``ChrfTrace``: one segment step by step: the prepared texts, per order every candidate n-gram with its count,
  its count in each reference and the clipped match against each reference (``NgramRow``), the per-reference
  statistics and F, the reference kept, and the combination (per-order P, R, F and the averaging).
* ``ChrfCorpusTrace``: the segments' statistics, their sum (or NLTK's mean), the combination; segment traces on
  demand.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from explainer.chrf.dialects import Combination, LibraryError, LibraryWarning

__all__ = ["ChrfStats", "NgramRow", "OrderTrace", "ChrfText", "ChrfTrace", "ChrfCorpusTrace"]


def _common(comb: Combination) -> dict:
    return {"score": comb.score100, "native_score": comb.score, "chrf": comb.chrf, "scale": comb.scale,
            "orders": [{"kind": o.kind, "n": o.n, "hyp": o.hyp, "ref": o.ref, "match": o.match,
                        "precision": o.precision, "recall": o.recall, "f": o.f, "included": o.included}
                       for o in comb.orders],
            "averaging": comb.averaging, "effective_order": comb.effective_order,
            "avg_precision": comb.avg_precision, "avg_recall": comb.avg_recall}


@dataclass
class ChrfStats:
    """Statistics only. ``stats``: the (summed) vector ``[hyp, ref, match] * orders``."""

    dialect: str
    name: str                     # the library's name of the score (chrF2, chrF2++)
    combination: Combination
    stats: list
    signature: str
    options: dict
    chosen_references: list[int]  # per segment: the reference whose statistics were kept
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None
    segment_stats: list | None = None

    @property
    def score(self) -> float:
        return self.combination.score

    @property
    def score100(self) -> float:
        return self.combination.score100

    def to_dict(self) -> dict:
        d = {"dialect": self.dialect, "name": self.name, **_common(self.combination), "stats": list(self.stats),
             "signature": self.signature, "options": self.options, "chosen_references": self.chosen_references,
             "warnings": [w.to_dict() for w in self.warnings],
             "library_error": self.library_error.to_dict() if self.library_error else None}
        if self.segment_stats is not None:
            d["segment_stats"] = [list(s) for s in self.segment_stats]
        return d


@dataclass
class NgramRow:
    """One distinct candidate n-gram of one order (a row of ``OrderTrace``)."""

    ngram: str                    # word n-grams joined with one space (sacreBLEU's key)
    count: int                    # in the candidate
    ref_counts: list[int]         # in each (effective) reference
    matched: list[int]            # min(count, ref_count) per reference: the clipped match

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class OrderTrace:
    """One order, column-wise (cheap to build for thousands of segments): every distinct candidate n-gram in
    order of first occurrence, its count, its count in each reference and the clipped match against each."""

    kind: str
    n: int
    ngrams: list[str]
    counts: list[int]
    ref_counts: list[list[int]]   # [reference][ngram]
    matched: list[list[int]]      # [reference][ngram]: min(count, ref_count)
    ref_stats: list[list]         # per reference: [hyp, ref, match] as the library counts them

    def rows(self) -> list[NgramRow]:
        K = len(self.ref_counts)
        return [NgramRow(ng, c, [self.ref_counts[k][j] for k in range(K)], [self.matched[k][j] for k in range(K)])
                for j, (ng, c) in enumerate(zip(self.ngrams, self.counts))]

    def to_dict(self) -> dict:
        per_ref_counts = list(zip(*self.ref_counts)) if self.ref_counts else [()] * len(self.ngrams)
        per_ref_matched = list(zip(*self.matched)) if self.matched else [()] * len(self.ngrams)
        rows = [{"ngram": g, "count": c, "ref_counts": list(rc), "matched": list(m)}
                for g, c, rc, m in zip(self.ngrams, self.counts, per_ref_counts, per_ref_matched)]
        return {"kind": self.kind, "n": self.n, "ngrams": rows, "ref_stats": self.ref_stats}


@dataclass
class ChrfText:
    text: str                     # as given
    prepared: str                 # after the dialect's preprocessing (lowercasing)
    units: str                    # the characters n-grams are taken from (whitespace removed or kept)
    words: list[str]              # word tokens (chrF++), else []
    changes: list[dict]

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ChrfTrace:
    dialect: str
    name: str
    options: dict
    candidate: ChrfText
    references: list[ChrfText]    # the effective references (NLTK: several joined into one)
    orders: list[OrderTrace]
    reference_stats: list[list]   # per reference: the whole vector
    reference_scores: list[float]  # per reference: its score (native scale), which selects the kept one
    chosen_reference: int
    stats: list                   # the kept vector
    combination: Combination
    signature: str
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None

    #: the bound dialect that built the trace (not exported): ``missed`` and ``spans`` recompute from the texts
    dialect_object: Any = field(default=None, repr=False, compare=False)

    @property
    def score(self) -> float:
        return self.combination.score

    def missed(self, i: int) -> list[list]:
        """Order ``i``'s n-grams of the kept reference not matched fully: ``[ngram, reference count, matched]``."""
        from explainer.chrf.spans import missed_ngrams

        return missed_ngrams(self.dialect_object, self, i)

    def spans(self, i: int, which: int = -1) -> dict | None:
        """Order ``i``'s n-grams -> their ``[start, end)`` spans in the original candidate (``which=-1``) or
        reference ``which`` (``explainer.chrf.spans.candidate_spans``)."""
        from explainer.chrf.spans import candidate_spans

        kind, n = self.orders[i].kind, self.orders[i].n
        text = self.candidate if which < 0 else self.references[which]
        return candidate_spans(self.dialect_object, text, kind, n)

    def to_dict(self) -> dict:
        d = self._dict()
        if self.dialect_object is not None:
            from explainer.chrf.spans import missed_all

            for o, missed in zip(d["order_traces"], missed_all(self.dialect_object, self)):
                o["missed"] = missed
        return d

    def summary_dict(self) -> dict:
        """``to_dict()`` without the n-gram tables (``order_traces``): the texts as read, the per-order statistics,
        the combination, the kept reference (cheap for long texts)."""
        return {"dialect": self.dialect, "name": self.name, **_common(self.combination),
                "signature": self.signature, "options": self.options,
                "candidate": self.candidate.to_dict(), "references": [r.to_dict() for r in self.references],
                "reference_stats": self.reference_stats, "reference_scores": self.reference_scores,
                "chosen_reference": self.chosen_reference, "stats": list(self.stats),
                "combination": self.combination.to_dict(), "warnings": [w.to_dict() for w in self.warnings],
                "library_error": self.library_error.to_dict() if self.library_error else None}

    def _dict(self) -> dict:
        return {"dialect": self.dialect, "name": self.name, **_common(self.combination),
                "signature": self.signature, "options": self.options,
                "candidate": self.candidate.to_dict(), "references": [r.to_dict() for r in self.references],
                "order_traces": [o.to_dict() for o in self.orders], "reference_stats": self.reference_stats,
                "reference_scores": self.reference_scores, "chosen_reference": self.chosen_reference,
                "stats": list(self.stats), "combination": self.combination.to_dict(),
                "warnings": [w.to_dict() for w in self.warnings],
                "library_error": self.library_error.to_dict() if self.library_error else None}


@dataclass
class ChrfCorpusTrace:
    dialect: str
    name: str
    options: dict
    segment_stats: list[list]
    chosen_references: list[int]
    summed: list
    combination: Combination
    signature: str
    n_segments: int
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None
    builder: Callable[[int], ChrfTrace] | None = field(default=None, repr=False)
    segments: list | None = field(default=None, repr=False)

    @property
    def score(self) -> float:
        return self.combination.score

    def segment(self, i: int) -> ChrfTrace:
        if self.segments is not None and self.segments[i] is not None:
            return self.segments[i]
        if self.builder is None:
            raise ValueError("this corpus trace keeps no texts")
        return self.builder(i)

    def segment_scores(self, dialect) -> list[float]:
        """Each segment's own score (native scale) from its kept statistics."""
        return [dialect.f_score(s) for s in self.segment_stats]

    def to_dict(self, *, full: bool = False) -> dict:
        d = {"dialect": self.dialect, "name": self.name, **_common(self.combination), "stats": list(self.summed),
             "signature": self.signature, "options": self.options, "n_segments": self.n_segments,
             "combination": self.combination.to_dict(), "segment_stats": [list(s) for s in self.segment_stats],
             "chosen_references": self.chosen_references,
             "warnings": [w.to_dict() for w in self.warnings],
             "library_error": self.library_error.to_dict() if self.library_error else None}
        if full:
            d["segments"] = [self.segment(i).to_dict() for i in range(self.n_segments)]
        return d
