"""sacreBLEU's TER of one hypothesis against one reference (``sacrebleu.metrics.lib_ter.translation_edit_rate``),
step by step.

The library's own pieces do the work: ``BeamEditDistance`` (the beam edit distance and its row cache),
``_find_shifted_pairs``, ``_perform_shift``, ``_flip_trace``, ``trace_to_alignment`` and its constants. Only its
two loops are written out here — ``translation_edit_rate``'s (shift while the best shift lowers the edit distance,
at most ``_MAX_SHIFT_CANDIDATES`` candidates in all) and ``_shift``'s (weigh every candidate, keep the best by
(gain, length, earliest start, earliest target)) — to record which candidate won each round, its gain and how many
were weighed. ``tests/test_ter_trace.py`` checks every round's shifted hypothesis against ``lib_ter._shift`` and
every total against ``translation_edit_rate``.

The trace's work is bounded (``explainer.ter.limits.MAX_TRACE_WORK``): each edit distance and each scan of the
position pairs is counted before it runs.
"""
from __future__ import annotations

import math
from typing import Sequence

from sacrebleu.metrics import lib_ter as L

from explainer.ter.limits import Budget
from explainer.ter.trace import EDIT_OPS, TerEdit, TerReferenceTrace, TerShift

__all__ = ["search", "beam_width", "alignment", "new_position", "full_distance"]

MAX_CANDIDATES = L._MAX_SHIFT_CANDIDATES

_STOPS = {
    "no-gain": "no shift lowers the edit distance any more",
    "no-candidate": "no shift candidate is left: every block of words the texts share is already aligned, or "
                    "too far away (more than 50 positions) or too long (more than 10 words)",
    "candidate-limit": f"sacreBLEU stops after weighing {MAX_CANDIDATES:,} shift candidates for one pair of texts "
                       "(its own limit)",
    "empty-reference": "the reference is empty: every hypothesis word is an edit and there is nothing to shift to",
}


def beam_width(n_h: int, n_r: int) -> int:
    """``BeamEditDistance._edit_distance``'s beam: 25 cells either side of the diagonal, wider for very different
    lengths."""
    ratio = n_r / n_h if n_h else 1
    return math.ceil(ratio / 2 + L._BEAM_WIDTH) if L._BEAM_WIDTH < ratio / 2 else L._BEAM_WIDTH


def _covers_every_cell(n_h: int, n_r: int) -> bool:
    """The beam reaches every cell of the matrix (then the distance is the exact Levenshtein distance)."""
    if n_h == 0:
        return True
    ratio = n_r / n_h
    bw = beam_width(n_h, n_r)
    # row i spans [floor(i * ratio) - bw, floor(i * ratio) + bw); the last row always reaches the end
    return math.floor(n_h * ratio) - bw <= 0 and (n_h == 1 or math.floor(ratio) + bw >= n_r + 1)


class _CountedEditDistance(L.BeamEditDistance):
    """sacreBLEU's BeamEditDistance; each call's cells are counted against the budget before they are computed
    (``__call__`` is the library's, with the count added)."""

    def __init__(self, words_ref: Sequence[str], budget: Budget | None) -> None:
        super().__init__(list(words_ref))
        self._budget = budget

    def __call__(self, words_hyp):
        start_position, dist = self._find_cache(words_hyp)
        if self._budget is not None:
            n_h, n_r = len(words_hyp), self._n_words_ref
            self._budget.spend((n_h - start_position) * min(n_r + 1, 2 * beam_width(n_h, n_r)) + n_r + 1)
        edit_distance, newly_created_matrix, trace = self._edit_distance(words_hyp, start_position, dist)
        self._add_cache(words_hyp, newly_created_matrix)
        return edit_distance, trace


def alignment(trace: str) -> list[TerEdit]:
    """sacreBLEU's trace of edit operations (rewriting the hypothesis into the reference) as positions."""
    out = []
    i = j = 0
    for op in trace:
        name = EDIT_OPS[op]
        if name == "deletion":
            out.append(TerEdit(name, i, None))
            i += 1
        elif name == "insertion":
            out.append(TerEdit(name, None, j))
            j += 1
        else:
            out.append(TerEdit(name, i, j))
            i += 1
            j += 1
    return out


def new_position(n: int, start: int, length: int, target: int) -> int:
    """Where the moved words begin after ``lib_ter._perform_shift(words, start, length, target)`` (``n`` words)."""
    if target < start:
        return target
    if target > start + length:
        return target - length
    return start + max(0, min(n, length + target) - (start + length))


def _round(words_h: list[str], words_r: list[str], ed, checked: int, budget: Budget | None):
    """``lib_ter._shift``: (distance before, its trace, the best candidate or None, candidates checked in all,
    candidates weighed this round, how many share the best gain). The best candidate is
    ``(gain, length, start_h, target, start_r, shifted words)``."""
    pre_score, inv_trace = ed(words_h)
    align, ref_err, hyp_err = L.trace_to_alignment(L._flip_trace(inv_trace))
    if budget is not None:
        budget.spend(len(words_h) * len(words_r))        # _find_shifted_pairs visits every pair of positions
    best_key = best = top = None
    weighed = tied = 0
    for start_h, start_r, length in L._find_shifted_pairs(words_h, words_r):
        if sum(hyp_err[start_h: start_h + length]) == 0:
            continue
        if sum(ref_err[start_r: start_r + length]) == 0:
            continue
        if start_h <= align[start_r] < start_h + length:
            continue
        prev_idx = -1
        for offset in range(-1, length):
            if start_r + offset == -1:
                idx = 0
            elif start_r + offset in align:
                idx = align[start_r + offset] + 1
            else:
                break
            if idx == prev_idx:
                continue
            prev_idx = idx
            shifted = L._perform_shift(words_h, start_h, length, idx)
            gain = pre_score - ed(shifted)[0]
            key = (gain, length, -start_h, -idx)
            checked += 1
            weighed += 1
            if top is None or gain > top:
                top, tied = gain, 1
            elif gain == top:
                tied += 1
            if best_key is None or key > best_key:
                best_key, best = key, (gain, length, start_h, idx, start_r, shifted)
        if checked >= MAX_CANDIDATES:
            break
    return pre_score, inv_trace, best, checked, weighed, tied


def full_distance(words_h: Sequence[str], words_r: Sequence[str]) -> int:
    """The plain Levenshtein distance over words (unit costs, no beam)."""
    prev = list(range(len(words_r) + 1))
    for i, w in enumerate(words_h, 1):
        cur = [i] + [0] * len(words_r)
        for j, r in enumerate(words_r, 1):
            cur[j] = min(prev[j - 1] + (w != r), prev[j] + 1, cur[j - 1] + 1)
        prev = cur
    return prev[-1]


def _empty_reference(words_h: Sequence[str], index: int) -> TerReferenceTrace:
    dels = [TerEdit("deletion", i, None) for i in range(len(words_h))]
    n = len(words_h)
    return TerReferenceTrace(index, n, dels, [], "empty-reference", _STOPS["empty-reference"], 0, list(words_h),
                             list(dels), n, n, 0, 0, True)


def _beam_notes(ref: TerReferenceTrace, words_r: Sequence[str], budget: Budget | None) -> None:
    """When the beam did not cover the matrix, whether it missed a cheaper alignment (sacreBLEU does not say)."""
    if ref.full_band:
        return
    if budget is not None:
        budget.spend(len(ref.shifted) * len(words_r))
    exact = full_distance(ref.shifted, words_r)
    if exact < ref.edit_distance:
        ref.notes.append(f"sacreBLEU's beam (cells within {ref.beam_width} of the diagonal) misses a cheaper "
                         f"alignment of the shifted hypothesis: it counts {ref.edit_distance} edits where the full "
                         f"edit distance is {exact} (sacreBLEU's own documentation: its beam can differ from "
                         "Tercom's in extreme cases)")


def search(words_h: Sequence[str], words_r: Sequence[str], index: int = 0,
           budget: Budget | None = None) -> TerReferenceTrace:
    """``translation_edit_rate(words_h, words_r)``, recorded: the same (num_edits, ref_length)."""
    n_r = len(words_r)
    if n_r == 0:
        return _empty_reference(words_h, index)
    words_r = list(words_r)
    ed = _CountedEditDistance(words_r, budget)
    shifts: list[TerShift] = []
    checked = 0
    cur = list(words_h)
    first = None
    while True:
        pre, inv, best, checked, weighed, tied = _round(cur, words_r, ed, checked, budget)
        if first is None:
            first = (pre, inv)
        if checked >= MAX_CANDIDATES:
            stop = "candidate-limit"
            break
        if best is None or best[0] <= 0:
            stop = "no-candidate" if best is None else "no-gain"
            break
        gain, length, start, target, start_r, shifted = best
        shifts.append(TerShift(cur[start:start + length], start, length, target,
                               new_position(len(cur), start, length, target), start_r, gain, pre, pre - gain,
                               weighed, tied))
        cur = shifted
    distance, inv = ed(cur)
    ref = TerReferenceTrace(index, first[0], alignment(first[1]), shifts, stop, _STOPS[stop], checked, cur,
                            alignment(inv), distance, len(shifts) + distance, n_r, beam_width(len(cur), n_r),
                            _covers_every_cell(len(cur), n_r))
    if stop == "candidate-limit" and best is not None and best[0] > 0:
        ref.notes.append(f"the best shift of the last round (gain {best[0]}) was not applied: the candidate limit "
                         "was reached in that round")
    _beam_notes(ref, words_r, budget)
    return ref
