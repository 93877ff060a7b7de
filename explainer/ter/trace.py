"""The records of a TER trace (docs/ter.md "Trace schema").

* ``TerStats``: statistics only (``score_ter`` / ``score_ter_corpus``).
* ``TerTrace``: one segment step by step: the texts as TER tokenized them (``TerText``, tokens with character
  spans), per reference the shift search (``TerShift``: every shift taken, in order, with its gain and the
  candidates weighed) and the alignment after the shifts (``TerEdit``: matches, substitutions, insertions,
  deletions with their positions in both texts), the reference kept, ``[num_edits, ref_length]`` and the score.
* ``TerCorpusTrace``: the segments' statistics, their sums, the score; segment traces on demand.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from explainer.ter.dialects import LibraryError, LibraryWarning, TerCombination

__all__ = ["TerToken", "TerText", "TerShift", "TerEdit", "TerReferenceTrace", "TerStats", "TerTrace",
           "TerCorpusTrace", "EDIT_OPS"]

#: sacreBLEU's edit operations (rewriting the hypothesis into the reference) -> the trace's names
EDIT_OPS = {" ": "match", "s": "substitution", "d": "deletion", "i": "insertion"}


def _common(comb: TerCombination) -> dict:
    return {"score": comb.score, "ter": comb.ter, "num_edits": comb.num_edits, "ref_length": comb.ref_length}


def _err(e: LibraryError | None) -> dict | None:
    return e.to_dict() if e else None


@dataclass
class TerToken:
    """One word as TER compares it. ``start``/``end``: the characters of the user's text it came from (end
    exclusive), None when it could not be found there; ``exact``: those characters, lowercased as TER does, are the
    word itself; otherwise ``note`` says what the tokenizer changed (punctuation removed inside it, an entity
    decoded, a line-end hyphen joined)."""

    text: str
    start: int | None
    end: int | None
    exact: bool
    note: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class TerText:
    text: str                      # as given
    tokenized: str                 # the library's tokenizer output (words joined by single spaces)
    tokens: list[TerToken]
    changes: list[dict]            # what the tokenizer did: {"step", "detail"}

    @property
    def words(self) -> list[str]:
        return [t.text for t in self.tokens]

    def to_dict(self) -> dict:
        return {"text": self.text, "tokenized": self.tokenized, "tokens": [t.to_dict() for t in self.tokens],
                "changes": self.changes}


@dataclass
class TerShift:
    """One shift the heuristic took: ``words`` (``length`` of them) move from position ``start`` of the
    hypothesis as it was before this shift to ``new_start`` of the hypothesis after it. ``target`` is
    sacreBLEU's insertion index (before that position of the hypothesis before the shift); ``ref_start`` the
    position of the same words in the reference. The shift was the best of the ``candidates`` weighed in its
    round: the largest ``gain`` (edit distance ``distance_before`` - ``distance_after``); among the ``tied``
    candidates with that gain, the longest, then the earliest start, then the earliest target (Tercom's
    order)."""

    words: list[str]
    start: int
    length: int
    target: int
    new_start: int
    ref_start: int
    gain: int
    distance_before: int
    distance_after: int
    candidates: int
    tied: int

    @property
    def reason(self) -> str:
        why = f"it lowers the edit distance by {self.gain} ({self.distance_before} → {self.distance_after})"
        if self.tied > 1:
            why += (f"; {self.tied} of the {self.candidates} candidates lower it as much, and it is the longest, "
                    "then the earliest in the hypothesis, then the earliest target position")
        else:
            why += f", more than any of the other {self.candidates - 1} candidates weighed"
        return why

    def to_dict(self) -> dict:
        d = asdict(self)
        d["reason"] = self.reason
        return d


@dataclass
class TerEdit:
    """One step of the alignment of the (shifted) hypothesis with the reference: ``op`` is "match",
    "substitution", "deletion" (a hypothesis word with no reference word: deleted from the hypothesis) or
    "insertion" (a reference word missing from the hypothesis); ``hyp`` / ``ref`` the positions (None on the side
    that has no word)."""

    op: str
    hyp: int | None
    ref: int | None

    def to_list(self) -> list:
        return [self.op, self.hyp, self.ref]


@dataclass
class TerReferenceTrace:
    """The hypothesis against one reference: the edit distance before any shift, the shifts taken, why the search
    stopped, the shifted hypothesis, its alignment with the reference; ``num_edits`` = shifts + edit distance."""

    index: int
    initial_distance: int
    initial_alignment: list[TerEdit]
    shifts: list[TerShift]
    stop: str                      # "no-gain" | "no-candidate" | "candidate-limit" | "empty-reference"
    stop_reason: str
    candidates_checked: int
    shifted: list[str]             # the hypothesis after every shift
    alignment: list[TerEdit]       # of ``shifted`` with the reference
    edit_distance: int
    num_edits: int
    ref_length: int
    beam_width: int
    full_band: bool                # the beam covered every cell of the last edit distance
    notes: list[str] = field(default_factory=list)

    @property
    def num_shifts(self) -> int:
        return len(self.shifts)

    def counts(self) -> dict:
        """The alignment's operations counted: match, substitution, insertion, deletion."""
        out = {op: 0 for op in EDIT_OPS.values()}
        for e in self.alignment:
            out[e.op] += 1
        return out

    def to_dict(self) -> dict:
        return {"index": self.index, "num_edits": self.num_edits, "ref_length": self.ref_length,
                "num_shifts": self.num_shifts, "edit_distance": self.edit_distance, "counts": self.counts(),
                "initial_distance": self.initial_distance,
                "initial_alignment": [e.to_list() for e in self.initial_alignment],
                "shifts": [s.to_dict() for s in self.shifts], "stop": self.stop, "stop_reason": self.stop_reason,
                "candidates_checked": self.candidates_checked, "shifted": list(self.shifted),
                "alignment": [e.to_list() for e in self.alignment], "beam_width": self.beam_width,
                "full_band": self.full_band, "notes": list(self.notes)}


@dataclass
class TerStats:
    """Statistics only. ``stats``: ``[num_edits, ref_length]`` (a corpus: summed as sacreBLEU sums them)."""

    dialect: str
    name: str
    combination: TerCombination
    stats: list
    signature: str
    options: dict
    chosen_references: list[int]   # per segment: the reference whose edits were kept
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None
    segment_stats: list | None = None
    reference_edits: list | None = None   # per segment, every reference's number of edits

    @property
    def score(self) -> float:
        return self.combination.score

    @property
    def num_edits(self) -> float:
        return self.combination.num_edits

    @property
    def ref_length(self) -> float:
        return self.combination.ref_length

    def to_dict(self) -> dict:
        d = {"dialect": self.dialect, "name": self.name, **_common(self.combination), "stats": list(self.stats),
             "signature": self.signature, "options": self.options, "chosen_references": self.chosen_references,
             "combination": self.combination.to_dict(), "warnings": [w.to_dict() for w in self.warnings],
             "library_error": _err(self.library_error)}
        if self.reference_edits is not None:
            d["reference_edits"] = [list(e) for e in self.reference_edits]
        if self.segment_stats is not None:
            d["segment_stats"] = [list(s) for s in self.segment_stats]
        return d


@dataclass
class TerTrace:
    dialect: str
    name: str
    options: dict
    candidate: TerText
    references: list[TerText]
    per_reference: list[TerReferenceTrace]
    chosen_reference: int
    stats: list                    # [num_edits of the kept reference, the mean reference length]
    combination: TerCombination
    signature: str
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None

    @property
    def score(self) -> float:
        return self.combination.score

    @property
    def num_edits(self) -> float:
        return self.stats[0]

    @property
    def ref_length(self) -> float:
        return self.stats[1]

    @property
    def kept(self) -> TerReferenceTrace:
        return self.per_reference[self.chosen_reference]

    def to_dict(self) -> dict:
        return {"dialect": self.dialect, "name": self.name, **_common(self.combination),
                "signature": self.signature, "options": self.options, "candidate": self.candidate.to_dict(),
                "references": [r.to_dict() for r in self.references],
                "per_reference": [p.to_dict() for p in self.per_reference],
                "reference_edits": [p.num_edits for p in self.per_reference],
                "reference_lengths": [p.ref_length for p in self.per_reference],
                "chosen_reference": self.chosen_reference, "stats": list(self.stats),
                "combination": self.combination.to_dict(), "warnings": [w.to_dict() for w in self.warnings],
                "library_error": _err(self.library_error)}


@dataclass
class TerCorpusTrace:
    dialect: str
    name: str
    options: dict
    segment_stats: list[list]
    chosen_references: list[int]
    summed: list
    combination: TerCombination
    signature: str
    n_segments: int
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None
    builder: Callable[[int], TerTrace] | None = field(default=None, repr=False)
    segments: list | None = field(default=None, repr=False)
    dialect_object: Any = field(default=None, repr=False, compare=False)

    @property
    def score(self) -> float:
        return self.combination.score

    def segment(self, i: int) -> TerTrace:
        if self.segments is not None and self.segments[i] is not None:
            return self.segments[i]
        if self.builder is None:
            raise ValueError("this corpus trace keeps no texts")
        return self.builder(i)

    def segment_scores(self) -> list[float]:
        """Each segment's own score (sacreBLEU's ``sentence_score``) from its statistics."""
        return [self.dialect_object.combine(s).score for s in self.segment_stats]

    def to_dict(self, *, full: bool = False) -> dict:
        d = {"dialect": self.dialect, "name": self.name, **_common(self.combination), "stats": list(self.summed),
             "signature": self.signature, "options": self.options, "n_segments": self.n_segments,
             "combination": self.combination.to_dict(), "segment_stats": [list(s) for s in self.segment_stats],
             "chosen_references": self.chosen_references, "warnings": [w.to_dict() for w in self.warnings],
             "library_error": _err(self.library_error)}
        if full:
            d["segments"] = [self.segment(i).to_dict() for i in range(self.n_segments)]
        return d
