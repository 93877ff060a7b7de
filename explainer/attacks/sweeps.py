"""Sweeps: every metric against one knob — length, fraction shuffled, stuffed function words, repetitions of one
word, number of references.

A sweep is planned first (:class:`SweepPlan`: the knob's values and the texts scored at each, at most
:data:`MAX_POINTS` points), then run point by point (:func:`run_sweep`), so that the work is bounded and visible:

* every family's measures are scored through the family (:class:`explainer.attacks.measures.TextScorer`, each
  score bounded by :data:`explainer.attacks.measures.LAB_SECONDS` of CPU), plus the lessons' parts of a metric
  (:data:`COMPONENTS`: BLEU's brevity penalty, ROUGE-1 precision and recall, by
  :class:`~explainer.attacks.scoring.FastScorer`, sacreBLEU's and rouge-score's own code);
* ``tick(done, total)`` runs between any two scores (a page moves its progress bar and stops there on Stop);
  ``on_point(result)`` after each point (a page keeps the points so far);
* a run stops at ``time_limit`` seconds (a safety limit: ``stopped == "time limit"``) and can be continued from
  where it stopped (``start=``).
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from explainer.attacks.generators import default_repeat_word, shuffle_words, stuff_function_words
from explainer.attacks.measures import Column, TextScorer, lab_dialects
from explainer.attacks.scoring import FastScorer, metric_label

__all__ = ["SweepPlan", "SweepResult", "COMPONENTS", "MAX_POINTS", "DEFAULT_PAD", "SWEEPS", "SWEEP_SECONDS",
           "plan_length", "plan_shuffle", "plan_stuffing", "plan_references", "plan_repetitions", "run_sweep",
           "empty_result",
           "sweep_length", "sweep_shuffle", "sweep_stuffing", "sweep_references", "sweep_repetitions",
           "series_labels"]

#: the parts of a metric the sweeps' lessons are about (keys of explainer.attacks.scoring.METRICS)
COMPONENTS = ("bleu_bp", "rouge1_p", "rouge1_r")
DEFAULT_PAD = "the of and a to in is that for on"
MAX_POINTS = 80
#: a sweep stops after this many seconds (a safety limit; Stop and the bounded scores are the usual limits)
SWEEP_SECONDS = 120.0


@dataclass(frozen=True)
class SweepPlan:
    """What a sweep scores: at each knob value ``x[i]`` the texts ``texts[i]`` (several: their mean is the point,
    e.g. several shuffles) against ``references[i]``."""

    knob: str
    knob_label: str
    x: tuple
    texts: tuple          # per point: a tuple of texts
    references: tuple     # per point: a tuple of references
    note: str = ""
    marker: float | None = None   # x of the unchanged candidate, when it is on the curve

    @property
    def units(self) -> int:
        return sum(len(t) for t in self.texts)


@dataclass
class SweepResult:
    """The points computed so far: ``values[series][i]`` (None: not computed for that point, ``why`` says why),
    ``texts[i]`` the (first) text of point i. ``stopped``: "" (complete), "by you", "time limit"."""

    knob: str
    knob_label: str
    x: list
    values: dict[str, list]
    texts: list[str]
    columns: list[Column]
    note: str = ""
    marker: float | None = None
    stopped: str = ""
    why: dict[str, str] = field(default_factory=dict)
    total: int = 0
    elapsed: float = 0.0

    @property
    def done(self) -> int:
        return len(self.x)

    @property
    def complete(self) -> bool:
        return self.done >= self.total

    def rows(self) -> list[dict]:
        labels = series_labels(self.columns)
        return [{self.knob_label: x, **{labels.get(k, k): v[i] for k, v in self.values.items()},
                 "text": self.texts[i]} for i, x in enumerate(self.x)]

    def snapshot(self) -> "SweepResult":
        return replace(self, x=list(self.x), values={k: list(v) for k, v in self.values.items()},
                       texts=list(self.texts), why=dict(self.why))


def series_labels(columns: Sequence[Column]) -> dict[str, str]:
    """series key -> its label (a family's measure, or a lesson's part of a metric)."""
    out = {c.key: c.label + ("" if c.measure.higher_is_better else " (lower is better)") for c in columns}
    out.update({k: metric_label(k) for k in COMPONENTS})
    return out


def _check(candidate: str, references: Sequence[str]) -> list[str]:
    refs = [r for r in references if r.strip()]
    if not refs:
        raise ValueError("Give at least one non-empty reference.")
    if not candidate.split():
        raise ValueError("The candidate is empty: there is nothing to sweep.")
    return refs


def _spread(lo: int, hi: int, must: Sequence[int] = ()) -> list[int]:
    """At most MAX_POINTS integers from lo to hi (evenly spaced; ``must`` kept)."""
    step = max(1, -(-(hi - lo + 1) // MAX_POINTS))
    return sorted(set(range(lo, hi + 1, step)) | {hi} | {m for m in must if lo <= m <= hi})


def _plan(knob, label, xs, texts, refs, note="", marker=None, per_point_refs=None) -> SweepPlan:
    r = tuple(refs)
    return SweepPlan(knob, label, tuple(xs), tuple(tuple(t) for t in texts),
                     tuple(per_point_refs) if per_point_refs is not None else tuple(r for _ in xs), note, marker)


def plan_length(candidate: str, references: Sequence[str], max_len: int | None = None,
                pad_text: str = DEFAULT_PAD) -> SweepPlan:
    """Length from 1 word up to ``max_len``: shorter = the candidate truncated, longer = the candidate followed by
    words of ``pad_text`` (cycled): the brevity-penalty curve and ROUGE precision and recall crossing."""
    refs = _check(candidate, references)
    words = candidate.split()
    pad = pad_text.split() or DEFAULT_PAD.split()
    ref_len = max(len(r.split()) for r in refs)
    max_len = int(max_len or max(2 * len(words), 2 * ref_len, len(words) + 5))
    max_len = max(2, min(max_len, 2000))
    xs = _spread(1, max_len, [len(words)])
    cyc = list(itertools.islice(itertools.cycle(pad), max(0, max_len - len(words))))
    texts = [[" ".join(words[:n]) if n <= len(words) else " ".join(words + cyc[:n - len(words)])] for n in xs]
    return _plan("length", "candidate length (words): truncate ← → pad", xs, texts, refs,
                 f"Left of {len(words)} words: truncated; right: padded with '{' '.join(pad[:6])}…'.",
                 marker=len(words))


def plan_shuffle(candidate: str, references: Sequence[str], steps: int = 10, trials: int = 5,
                 seed: int = 0) -> SweepPlan:
    """Fraction of word positions shuffled, 0 → 1; each point is the mean over ``trials`` seeds (``seed`` …
    ``seed + trials - 1``) because one shuffle is noisy."""
    refs = _check(candidate, references)
    steps, trials = max(1, min(int(steps), 40)), max(1, min(int(trials), 50))
    xs = [i / steps for i in range(steps + 1)]
    texts = [[shuffle_words(candidate, f, seed + t).text for t in range(trials)] for f in xs]
    return _plan("fraction", "fraction of words shuffled", xs, texts, refs,
                 f"Mean of {trials} shuffle{'s' if trials != 1 else ''} per point (seeds {seed}–{seed + trials - 1}).",
                 marker=0.0)


def plan_stuffing(candidate: str, references: Sequence[str], max_n: int = 20) -> SweepPlan:
    refs = _check(candidate, references)
    xs = _spread(0, max(1, min(int(max_n), 200)))
    texts = [[stuff_function_words(candidate, refs, n).text] for n in xs]
    return _plan("n", "function words appended", xs, texts, refs,
                 "Function words the references contain are appended first (each is a clipped match).", marker=0)


def plan_repetitions(candidate: str, references: Sequence[str], word: str | None = None,
                     max_n: int = 20) -> SweepPlan:
    """One word repeated n times, n = 1 … ``max_n`` (Papineni's "the the the …"): clipping caps the matches at the
    word's count in one reference. The word: ``word``, else the reference word the attack would pick (the most
    frequent as BLEU's tokenizer sees it, case kept)."""
    refs = [r for r in references if r.strip()]
    if not refs:
        raise ValueError("Give at least one non-empty reference.")
    w = (word or "").split()[0] if (word or "").split() else default_repeat_word(refs)
    if not w:
        raise ValueError("The references have no word to repeat.")
    xs = _spread(1, max(1, min(int(max_n), 200)))
    return _plan("repetitions", f"times '{w}' is repeated", xs, [[" ".join([w] * n)] for n in xs], refs,
                 f"The candidate is '{w}' repeated n times; BLEU and ROUGE clip its matches at its count in one "
                 "reference.")


def plan_references(candidate: str, references: Sequence[str]) -> SweepPlan:
    """Score against the first k references, k = 1 … all (BLEU: max-count clipping, closest length; rouge-score:
    best reference per type)."""
    refs = _check(candidate, references)
    xs = list(range(1, len(refs) + 1))
    note = "" if len(refs) > 1 else "Only one reference: add more to see the curve."
    return _plan("k", "number of references used", xs, [[candidate] for _ in xs], refs, note, marker=len(refs),
                 per_point_refs=[tuple(refs[:k]) for k in xs])


class _Scorers:
    """The scorers of each set of references a plan uses (prepared once)."""

    def __init__(self, dialects) -> None:
        self.dialects = dialects
        self._by_refs: dict[tuple, tuple[TextScorer, FastScorer]] = {}

    def get(self, refs: tuple) -> tuple[TextScorer, FastScorer]:
        if refs not in self._by_refs:
            self._by_refs[refs] = (TextScorer(refs, self.dialects), FastScorer(list(refs)))
        return self._by_refs[refs]


def empty_result(plan: SweepPlan, cols: Sequence[Column] | None = None) -> SweepResult:
    """The result of ``plan`` before its first point (every series empty)."""
    cols = list(cols) if cols is not None else TextScorer(plan.references[0]).columns
    return SweepResult(plan.knob, plan.knob_label, [], {**{c.key: [] for c in cols}, **{k: [] for k in COMPONENTS}},
                       [], cols, plan.note, plan.marker, total=len(plan.x))


def run_sweep(plan: SweepPlan, *, start: SweepResult | None = None, tick: Callable[[int, int], None] | None = None,
              on_point: Callable[[SweepResult], None] | None = None, time_limit: float = SWEEP_SECONDS,
              dialects=None, clock: Callable[[], float] = time.perf_counter) -> SweepResult:
    """Score the plan's points from ``start.done`` on (see the module notes)."""
    scorers = _Scorers(dialects or lab_dialects())
    res = start.snapshot() if start is not None else empty_result(plan, scorers.get(plan.references[0])[0].columns)
    res.stopped = ""
    t0 = clock() - res.elapsed
    done_units = sum(len(t) for t in plan.texts[:res.done])
    for i in range(res.done, len(plan.x)):
        if clock() - t0 >= time_limit:
            res.stopped = "time limit"
            break
        text_scorer, fast = scorers.get(plan.references[i])
        sums: dict[str, float | None] = {k: 0.0 for k in res.values}
        for t in plan.texts[i]:
            step = (lambda u=done_units: tick(u, plan.units)) if tick else None
            vals = text_scorer.score(t, tick=step)
            if step is not None:
                step()
            comp = fast.values(t)
            vals.update({k: comp[k] for k in COMPONENTS})
            for k in sums:
                sums[k] = None if sums[k] is None or vals.get(k) is None else sums[k] + vals[k]
            done_units += 1
        n = len(plan.texts[i])
        for k, s in sums.items():
            res.values[k].append(None if s is None else s / n)
        res.why.update(text_scorer.why)
        res.x.append(plan.x[i])
        res.texts.append(plan.texts[i][0])
        res.elapsed = clock() - t0
        if on_point is not None:
            on_point(res)
    res.elapsed = clock() - t0
    return res


def _complete(plan: SweepPlan) -> SweepResult:
    return run_sweep(plan, time_limit=float("inf"))


def sweep_length(candidate, references, max_len=None, pad_text=DEFAULT_PAD) -> SweepResult:
    return _complete(plan_length(candidate, references, max_len, pad_text))


def sweep_shuffle(candidate, references, steps=10, trials=5, seed=0) -> SweepResult:
    return _complete(plan_shuffle(candidate, references, steps, trials, seed))


def sweep_stuffing(candidate, references, max_n=20) -> SweepResult:
    return _complete(plan_stuffing(candidate, references, max_n))


def sweep_repetitions(candidate, references, word=None, max_n=20) -> SweepResult:
    return _complete(plan_repetitions(candidate, references, word, max_n))


def sweep_references(candidate, references) -> SweepResult:
    return _complete(plan_references(candidate, references))


#: knob -> (label, planner)
SWEEPS = {
    "length": ("Length (truncate ↔ pad)", plan_length),
    "shuffle": ("Fraction of words shuffled", plan_shuffle),
    "stuffing": ("Stuffed function words", plan_stuffing),
    "repetitions": ("Repetitions of one word", plan_repetitions),
    "references": ("Number of references", plan_references),
}
