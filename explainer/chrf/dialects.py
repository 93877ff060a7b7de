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
from typing import Any, ClassVar, Mapping, Sequence

from explainer.dialect import Dialect
from explainer.options import format_value

__all__ = ["ChrfDialect", "OrderResult", "Combination", "LibraryError", "LibraryWarning", "order_names", "FLAGS"]

#: the generic flags of ``explainer chrf`` / ``compare --metric chrf``, each a dialect maps to its own option
#: (``ChrfDialect.cli_flags``) or refuses
FLAGS = ("char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing")


@dataclass
class LibraryError:
    """An exception the real library would raise on this input (recorded, never raised)."""

    type: str
    message: str
    explanation: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class LibraryWarning:
    """A warning the real library (or the explainer about the library's behaviour) gives on this input."""

    category: str
    message: str

    def to_dict(self) -> dict:
        return asdict(self)


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
    #: the bootstrap and paired tests are the library's own (sacreBLEU's PairedTest), not the project's extension
    sacrebleu_significance: ClassVar[bool] = False
    #: generic flag (``FLAGS``) -> this dialect's option; a flag missing here does not apply to the dialect
    cli_flags: ClassVar[Mapping[str, str]] = {}
    #: flags whose value is the negation of the option (NLTK: ``--whitespace`` is ``ignore_whitespace=False``)
    negated_flags: ClassVar[frozenset] = frozenset()
    #: flags with a value that means "what this dialect does anyway" (NLTK has no word n-grams: --word-order 0)
    no_op_flags: ClassVar[Mapping[str, Any]] = {}
    #: the options that change the n-gram counts (the others, beta and the averaging, change only the arithmetic):
    #: configurations equal in these share their statistics vectors (the reproduce search)
    counting_options: ClassVar[tuple[str, ...]] = ()

    def counting_key(self) -> tuple:
        """This dialect's name and the values of its ``counting_options``."""
        return (self.name,) + tuple(self.options[o] for o in self.counting_options)

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

    # ---- command line
    @classmethod
    def options_from_flags(cls, flags: Mapping[str, Any], all_classes=()) -> dict:
        """The options the generic flags given (flag -> value, None = not given) set; ValueError naming the
        dialects a flag applies to when it does not apply to this one."""
        opts: dict = {}
        for flag in FLAGS:
            value = flags.get(flag)
            if value is None:
                continue
            option = cls.cli_flags.get(flag)
            if option is None:
                if flag in cls.no_op_flags and cls.no_op_flags[flag] == value:
                    continue
                where = ", ".join(c.name for c in all_classes if flag in c.cli_flags)
                raise ValueError(f"--{flag.replace('_', '-')} does not apply to the {cls.name} dialect"
                                 + (f" (it applies to: {where})" if where else ""))
            opts[option] = (not value) if flag in cls.negated_flags else value
        return opts

    @classmethod
    def cli_argv(cls, given: Mapping[str, Any], types=()) -> list[str]:
        """The ``explainer chrf`` arguments (input: one JSON line on stdin) that bind this dialect with the options
        ``given`` (its flags where it has them, ``-o NAME=VALUE`` otherwise; options in name order)."""
        argv = ["chrf", "--jsonl", "-", "--dialect", cls.name]
        to_flag = {opt: flag for flag, opt in cls.cli_flags.items()}
        for name in sorted(given):
            v = given[name]
            if v is None:
                continue
            flag = to_flag.get(name)
            if flag is None:
                argv += ["-o", f"{name}={format_value(v)}"]
                continue
            spec = next((o for o in cls.OPTIONS if o.name == name), None)
            dash = "--" + flag.replace("_", "-")
            if spec is not None and spec.type == "bool":
                want = (not v) if flag in cls.negated_flags else v
                if want:
                    argv.append(dash)
                else:
                    argv += ["-o", f"{name}={format_value(v)}"]
            else:
                argv += [dash, format_value(v)]
        return argv

    # ---- signature, library behaviour
    def signature(self, nrefs: int | str) -> str:
        return f"{self.name}|nrefs:{nrefs}"

    def check_inputs(self, candidates: Sequence[str], references: Sequence[Sequence[str]], *, corpus: bool
                     ) -> tuple[list[LibraryWarning], LibraryError | None]:
        return [], None
