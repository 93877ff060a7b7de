"""The chrF dialect policy interface and the records of the final combination.

chrF (Popović 2015) and chrF++ (Popović 2017) count character n-grams (orders 1..``char_order``) and, for
chrF++, word n-grams (orders 1..``word_order``) of the candidate and of a reference; per order the clipped
matches give a precision and a recall, and an F-score with recall ``beta`` times as important as precision.
The algorithm is written once (``explainer/chrf/algorithm.py``); a dialect decides where implementations differ
(docs/chrf.md):

==============================  ==============================================================================
hook                            decides
==============================  ==============================================================================
``prepare(text)``               preprocessing (sacreBLEU: optional ``str.lower``; NLTK: none)
``char_units(prepared)``        the string character n-grams are taken from (whitespace removed or kept)
``words(prepared)``             the word tokens of chrF++ (sacreBLEU's punctuation splitter)
``effective_references(refs)``  the references as the library sees them (NLTK joins several into one text)
``order_stats(h, r, lens)``     one order's clipped matches, then ``order_triple``: ``[hyp, ref, match]`` as the
                                library records them (sacreBLEU: hyp = 0 when the reference has no n-gram of
                                that order)
``f_score(stats)``              the score of one statistics vector, fast (selects the best reference)
``combine(stats)``              the same, step by step (per-order P, R, F; the averaging; the score)
``corpus_combine(stats)``       the corpus score (sacreBLEU: sum the vectors, combine; NLTK: mean of the
                                segments' per-order F)
``signature(nrefs)``            sacreBLEU's own ``CHRFSignature``; NLTK: a description of the call
``check_inputs``                warnings / errors of the real library before scoring (recorded, never raised)
==============================  ==============================================================================

A statistics vector is ``[hyp_1, ref_1, match_1, hyp_2, ref_2, match_2, ...]``, one triple per order, character
orders first, then word orders (sacreBLEU's layout).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from itertools import repeat
from typing import ClassVar, Sequence

from explainer.bleu.dialects import LibraryError, LibraryWarning
from explainer.dialect import Dialect

__all__ = ["ChrfDialect", "OrderResult", "Combination", "LibraryError", "LibraryWarning", "order_names"]


@dataclass
class OrderResult:
    """One order (character or word n-grams of length ``n``) in the final combination."""

    kind: str                   # "char" or "word"
    n: int
    hyp: float                  # candidate n-grams as the library counts them
    ref: float                  # reference n-grams
    match: float                # clipped matches
    precision: float            # the value the library uses (eps where it falls back)
    recall: float
    f: float                    # this order's F-beta (eps where the library falls back)
    precision_note: str         # "match / hyp" with numbers, or why eps
    recall_note: str
    f_note: str
    included: bool              # enters the average (sacreBLEU's effective order; always True for eps/NLTK)

    @property
    def label(self) -> str:
        return f"{self.kind} {self.n}-grams"

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Combination:
    """From one statistics vector (a segment, or a corpus's sum) to the score. ``score`` is on the library's
    scale (sacreBLEU 0-100, NLTK 0-1); ``chrf`` on 0-1; ``score100`` on 0-100."""

    orders: list[OrderResult]
    averaging: str              # "effective-order" | "mean-f" (sacreBLEU eps_smoothing) | "mean-f-nltk"
    beta: float
    avg_precision: float | None  # effective-order averaging: the mean P and R over the included orders
    avg_recall: float | None
    effective_order: int
    f_sum: float | None          # mean-f: the sum of the per-order F
    score: float
    scale: float
    formula: str                 # the final step with numbers
    explanation: str
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None

    @property
    def chrf(self) -> float:
        return self.score / self.scale

    @property
    def score100(self) -> float:
        return self.score if self.scale == 100.0 else 100.0 * self.score

    def to_dict(self) -> dict:
        d = asdict(self)
        d["chrf"] = self.chrf
        d["score100"] = self.score100
        d["warnings"] = [w.to_dict() for w in self.warnings]
        d["library_error"] = self.library_error.to_dict() if self.library_error else None
        return d


def order_names(char_order: int, word_order: int) -> list[tuple[str, int]]:
    """``[("char", 1), ..., ("char", C), ("word", 1), ..., ("word", W)]``: the orders of a statistics vector."""
    return [("char", n) for n in range(1, char_order + 1)] + [("word", n) for n in range(1, word_order + 1)]


def g(x: float) -> str:
    """A number as shown in formulas."""
    return f"{x:.6g}"


class ChrfDialect(Dialect):
    """Base class of a chrF dialect: options bound at construction (``explainer.dialect.Dialect``). Every hook
    reproduces the real implementation exactly (same integers, floats to 1e-9)."""

    family: ClassVar[str] = "chrF"
    scale: ClassVar[float] = 100.0
    #: "sum" (corpus score from the summed statistics) or "mean" (mean of the segments' per-order F)
    corpus_rule: ClassVar[str] = "sum"

    # ---- identity
    def describe(self) -> dict:
        return dict(super().describe(), scale=self.scale, corpus_rule=self.corpus_rule)

    def options_dict(self) -> dict:
        return dict(self.options)

    @property
    def char_order(self) -> int:
        raise NotImplementedError

    @property
    def word_order(self) -> int:
        return 0

    @property
    def beta(self) -> float:
        raise NotImplementedError

    @property
    def orders(self) -> list[tuple[str, int]]:
        return order_names(self.char_order, self.word_order)

    @property
    def metric_name(self) -> str:
        """The score's name as the library prints it (sacreBLEU: ``chrF2``, ``chrF2++``)."""
        return "chrF"

    # ---- preprocessing and units
    def prepare(self, text: str) -> str:
        return text

    def preprocess_changes(self, text: str) -> list[dict]:
        return []

    def char_units(self, prepared: str) -> str:
        raise NotImplementedError

    def words(self, prepared: str) -> list[str]:
        return prepared.split()

    def effective_references(self, references: Sequence[str]) -> tuple[list[str], list[LibraryWarning]]:
        """The references the library compares with, and what it says about them."""
        return list(references), []

    def extract(self, prepared: str) -> tuple[list[Counter], list[int]]:
        """(one Counter per order, the number of n-gram positions per order) of a prepared text."""
        raise NotImplementedError

    # ---- statistics
    def order_stats(self, hyp: Counter, ref: Counter, n_hyp: int, n_ref: int) -> tuple[int, int, int]:
        """``[hyp, ref, match]`` of one order: clipped matches, counted as the library counts them."""
        m = sum(map(min, hyp.values(), map(ref.get, hyp, repeat(0)))) if ref else 0
        return self.order_triple(n_hyp, n_ref, m)

    def order_triple(self, n_hyp: int, n_ref: int, match: int) -> tuple[int, int, int]:
        """``[hyp, ref, match]`` as the library records them, from the candidate's and the reference's number of
        n-gram positions and the clipped matches."""
        return n_hyp, n_ref, match

    def select_reference(self, f_scores: Sequence[float]) -> int:
        """The index of the reference whose statistics the segment keeps (sacreBLEU: the best F, the first one
        on a tie)."""
        best, best_f = 0, -1.0
        for k, f in enumerate(f_scores):
            if f > best_f:
                best, best_f = k, f
        return best

    def f_score(self, stats: Sequence[float]) -> float:
        """The score (native scale) of one statistics vector, without the explanation."""
        return self.combine(stats).score

    def combine(self, stats: Sequence[float]) -> Combination:
        raise NotImplementedError

    def corpus_combine(self, segment_stats: Sequence[Sequence[float]], summed: Sequence[float]) -> Combination:
        """The corpus score from the segments' statistics (``summed`` = their column sums)."""
        return self.combine(summed)

    # ---- signature, library behaviour
    def signature(self, nrefs: int | str) -> str:
        return f"{self.name}|nrefs:{nrefs}"

    def check_inputs(self, candidates: Sequence[str], references: Sequence[Sequence[str]], *, corpus: bool
                     ) -> tuple[list[LibraryWarning], LibraryError | None]:
        return [], None
