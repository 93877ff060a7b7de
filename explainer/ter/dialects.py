"""The TER dialect policy interface and the record of the final step.

TER (Translation Edit Rate, Snover et al. 2006) counts the edits that turn the hypothesis into a reference:
insertions, deletions, substitutions of single words, and *shifts* (moving a block of words, one edit whatever
its length), divided by the reference's length. The shifts are found greedily (Tercom's heuristic); the edit
distance after them is a Levenshtein distance over words. The algorithm is written once
(``explainer/ter/algorithm.py``, the search in ``explainer/ter/shifts.py``); a dialect decides where
implementations differ (docs/ter.md):

==============================  ==============================================================================
hook                            decides
==============================  ==============================================================================
``tokenize(text)``              the hypothesis as the library compares it (sacreBLEU: its ``TercomTokenizer``)
``tokenize_passes(text, ref)``  the tokenizer's output, pass by pass (sacreBLEU tokenizes a reference twice)
``view_rules()``                how each pass's output maps back to its input (lowercasing, decoded entities,
                                removed punctuation), for the tokens' character spans
``edits(words_h, words_r)``     (number of edits, reference length) of one pair, fast (the library's own code)
``explain_pair(h, r, budget)``  the same step by step: every shift, the alignment after them
``select_reference(edits)``     the reference whose edits the segment keeps (sacreBLEU: fewest, first on a tie)
``reference_length(lengths)``   the segment's reference length (sacreBLEU: the mean of every reference's)
``combine(stats)``              the score of ``[num_edits, ref_length]``, step by step
``sum_stats(segment_stats)``    the corpus's statistics (sacreBLEU: ``sum_of_lists``)
``signature(nrefs)``            sacreBLEU's own ``TERSignature``
``check_inputs``                warnings / errors of the real library before scoring (recorded, never raised)
==============================  ==============================================================================

A statistics vector is ``[num_edits, ref_length]`` (sacreBLEU's layout).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Mapping, Sequence

from explainer.dialect import Dialect
from explainer.options import format_value

__all__ = ["TerDialect", "TerCombination", "LibraryError", "LibraryWarning", "FLAGS", "g"]

#: the flags of ``explainer ter``, each a dialect maps to its own option (``TerDialect.cli_flags``) or refuses
FLAGS = ("normalized", "no_punct", "asian_support", "case_sensitive")


def g(x: float) -> str:
    """A number as shown in formulas."""
    return f"{x:.6g}"


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
    """A warning about this input: the real library's, or the explainer's about the library's behaviour."""

    category: str
    message: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class TerCombination:
    """From ``[num_edits, ref_length]`` (a segment's, or a corpus's sums) to the score (0-100 and more: TER is an
    error rate, lower is better, and it exceeds 100 when there are more edits than reference words)."""

    num_edits: float
    ref_length: float
    score: float                 # the library's scale: 100 · edits / length
    ter: float                   # the same on 0-1
    rule: str                    # "ratio" | "empty-reference" (length 0, edits > 0: 100) | "empty" (both 0: 0)
    formula: str
    explanation: str
    warnings: list[LibraryWarning] = field(default_factory=list)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["warnings"] = [w.to_dict() for w in self.warnings]
        return d


class TerDialect(Dialect):
    """Base class of a TER dialect: options bound at construction (``explainer.dialect.Dialect``). Every hook
    reproduces the real implementation exactly."""

    family: ClassVar[str] = "TER"
    scale: ClassVar[float] = 100.0
    #: the bootstrap and paired tests are the library's own (sacreBLEU's PairedTest)
    sacrebleu_significance: ClassVar[bool] = False
    #: flag (``FLAGS``) -> this dialect's option; a flag missing here does not apply to the dialect
    cli_flags: ClassVar[Mapping[str, str]] = {}
    #: lower scores are better (an error rate): what a ranking or a "better / worse" sentence must know
    lower_is_better: ClassVar[bool] = True

    # ---- identity
    def describe(self) -> dict:
        return dict(super().describe(), scale=self.scale, lower_is_better=self.lower_is_better)

    def options_dict(self) -> dict:
        return dict(self.options)

    @property
    def metric_name(self) -> str:
        return "TER"

    # ---- texts
    def tokenize(self, text: str) -> str:
        """The text as the library compares it: words separated by single spaces."""
        raise NotImplementedError

    def words(self, text: str) -> list[str]:
        return self.tokenize(text).split()

    def tokenize_passes(self, text: str, reference: bool = False) -> list[str]:
        """The tokenizer's output of each pass over ``text`` (the last one is what the library compares)."""
        return [self.tokenize(text)]

    def reference_words(self, text: str) -> list[str]:
        return self.tokenize_passes(text, True)[-1].split()

    def view_rules(self) -> dict:
        """How the tokenized text relates to the user's: ``lowercase`` (bool), ``replacements`` (ordered
        ``(old, new)`` literal replacements applied before splitting), ``removed`` (a regular expression of the
        characters deleted), for ``explainer.ter.spans``."""
        return {"lowercase": False, "replacements": (), "removed": None}

    def preprocess_changes(self, text: str, passes: list[str]) -> list[dict]:
        """What the tokenizer did to ``text`` (``passes``: ``tokenize_passes``' output): ``{"step", "detail"}``."""
        return []

    # ---- edits
    def edits(self, words_h: Sequence[str], words_r: Sequence[str]) -> tuple[int, int]:
        raise NotImplementedError

    def explain_pair(self, words_h: Sequence[str], words_r: Sequence[str], budget=None, index: int = 0):
        """``explainer.ter.shifts.PairSearch`` of one pair: every shift, the alignment after them."""
        raise NotImplementedError

    def select_reference(self, edits: Sequence[int]) -> int:
        """The index of the reference whose edits the segment keeps (the fewest, the first on a tie)."""
        best, best_e = 0, None
        for k, e in enumerate(edits):
            if best_e is None or e < best_e:
                best, best_e = k, e
        return best

    def reference_length(self, lengths: Sequence[int]) -> float:
        return sum(lengths) / len(lengths)

    def combine(self, stats: Sequence[float]) -> TerCombination:
        raise NotImplementedError

    def sum_stats(self, segment_stats: Sequence[Sequence[float]]) -> list:
        return [sum(col) for col in zip(*segment_stats)]

    # ---- command line
    @classmethod
    def options_from_flags(cls, flags: Mapping[str, Any], all_classes=()) -> dict:
        """The options the flags given (flag -> value, None = not given) set; ValueError naming the dialects a
        flag applies to when it does not apply to this one."""
        opts: dict = {}
        for flag in FLAGS:
            value = flags.get(flag)
            if value is None:
                continue
            option = cls.cli_flags.get(flag)
            if option is None:
                where = ", ".join(c.name for c in all_classes if flag in c.cli_flags)
                raise ValueError(f"--{flag.replace('_', '-')} does not apply to the {cls.name} dialect"
                                 + (f" (it applies to: {where})" if where else ""))
            opts[option] = value
        return opts

    @classmethod
    def cli_argv(cls, given: Mapping[str, Any]) -> list[str]:
        """The ``explainer ter`` arguments (input: one JSON line on stdin) that bind this dialect with the options
        ``given`` (its flags where it has them, ``-o NAME=VALUE`` otherwise; options in name order)."""
        argv = ["ter", "--jsonl", "-", "--dialect", cls.name]
        to_flag = {opt: flag for flag, opt in cls.cli_flags.items()}
        for name in sorted(given):
            v = given[name]
            if v is None:
                continue
            flag = to_flag.get(name)
            if flag is not None and v is True:
                argv.append("--" + flag.replace("_", "-"))
            else:
                argv += ["-o", f"{name}={format_value(v)}"]
        return argv

    # ---- signature, library behaviour
    def signature(self, nrefs: int | str) -> str:
        return f"{self.name}|nrefs:{nrefs}"

    def check_inputs(self, candidates: Sequence[str], references: Sequence[Sequence[str]], *, corpus: bool
                     ) -> tuple[list[LibraryWarning], LibraryError | None]:
        return [], None
