"""Sweeps: every metric against one knob (length, fraction shuffled, stuffed function words, number of
references). Each point is scored with :class:`~explainer.attacks.scoring.FastScorer` (sacreBLEU's and
rouge-score's own code, references tokenised once), which equals :func:`scoring.score` exactly."""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Sequence

from explainer.attacks.generators import shuffle_words, stuff_function_words
from explainer.attacks.scoring import FastScorer

__all__ = ["SweepResult", "SWEEP_METRICS", "sweep_length", "sweep_shuffle", "sweep_stuffing",
           "sweep_references", "DEFAULT_PAD", "SWEEPS"]

SWEEP_METRICS = ("bleu", "bleu_bp", "rouge1_p", "rouge1_r", "rouge1_f", "rouge2_f", "rougeL_f")
DEFAULT_PAD = "the of and a to in is that for on"
MAX_POINTS = 80


@dataclass
class SweepResult:
    knob: str
    knob_label: str
    x: list[float]
    values: dict[str, list[float]]  # metric -> one value per x
    texts: list[str]
    note: str = ""
    marker: float | None = None  # x of the unchanged candidate, if it is on the curve
    extra: dict = field(default_factory=dict)

    def rows(self) -> list[dict]:
        return [{self.knob: x, **{m: v[i] for m, v in self.values.items()}, "text": self.texts[i]}
                for i, x in enumerate(self.x)]


def _collect(scorer: FastScorer, texts: Sequence[str]) -> dict[str, list[float]]:
    vals = {m: [] for m in SWEEP_METRICS}
    for t in texts:
        v = scorer.values(t)
        for m in SWEEP_METRICS:
            vals[m].append(v[m])
    return vals


def _check(candidate: str, references: Sequence[str]) -> list[str]:
    refs = [r for r in references if r.strip()]
    if not refs:
        raise ValueError("Give at least one non-empty reference.")
    if not candidate.split():
        raise ValueError("The candidate is empty: there is nothing to sweep.")
    return refs


def sweep_length(candidate: str, references: Sequence[str], max_len: int | None = None,
                 pad_text: str = DEFAULT_PAD) -> SweepResult:
    """Length from 1 word up to ``max_len``: shorter = the candidate truncated, longer = the candidate
    followed by words of ``pad_text`` (cycled). Shows the brevity-penalty curve and ROUGE precision and
    recall crossing."""
    refs = _check(candidate, references)
    words = candidate.split()
    pad = pad_text.split() or DEFAULT_PAD.split()
    ref_len = max(len(r.split()) for r in refs)
    max_len = int(max_len or max(2 * len(words), 2 * ref_len, len(words) + 5))
    max_len = max(2, min(max_len, 2000))
    step = max(1, -(-max_len // MAX_POINTS))
    xs = sorted(set(list(range(1, max_len + 1, step)) + [len(words)]))
    cyc = list(itertools.islice(itertools.cycle(pad), max(0, max_len - len(words))))
    texts = [" ".join(words[:L]) if L <= len(words) else " ".join(words + cyc[:L - len(words)]) for L in xs]
    scorer = FastScorer(refs)
    return SweepResult("length", "candidate length (words): truncate ← → pad", xs, _collect(scorer, texts), texts,
                       f"Left of {len(words)} words: truncated; right: padded with '{' '.join(pad[:6])}…'.",
                       marker=len(words))


def sweep_shuffle(candidate: str, references: Sequence[str], steps: int = 10, trials: int = 5,
                  seed: int = 0) -> SweepResult:
    """Fraction of word positions shuffled, 0 → 1; each point is the mean over ``trials`` seeds
    (``seed`` … ``seed + trials - 1``) because one shuffle is noisy. ``texts`` holds the first trial."""
    refs = _check(candidate, references)
    scorer = FastScorer(refs)
    xs = [i / steps for i in range(steps + 1)]
    vals = {m: [] for m in SWEEP_METRICS}
    texts = []
    for f in xs:
        acc = {m: 0.0 for m in SWEEP_METRICS}
        for t in range(trials):
            g = shuffle_words(candidate, f, seed + t)
            if t == 0:
                texts.append(g.text)
            v = scorer.values(g.text)
            for m in SWEEP_METRICS:
                acc[m] += v[m]
        for m in SWEEP_METRICS:
            vals[m].append(acc[m] / trials)
    return SweepResult("fraction", "fraction of words shuffled", xs, vals, texts,
                       f"Mean of {trials} shuffles per point (seeds {seed}–{seed + trials - 1}).", marker=0.0)


def sweep_stuffing(candidate: str, references: Sequence[str], max_n: int = 20) -> SweepResult:
    refs = _check(candidate, references)
    scorer = FastScorer(refs)
    xs = list(range(0, max(1, min(int(max_n), 300)) + 1))
    texts = [stuff_function_words(candidate, refs, n).text for n in xs]
    return SweepResult("n", "function words appended", xs, _collect(scorer, texts), texts,
                       "Function words the references contain are appended first (each is a clipped match).",
                       marker=0)


def sweep_references(candidate: str, references: Sequence[str]) -> SweepResult:
    """Score against the first k references, k = 1 … all (BLEU: max-count clipping, closest length;
    rouge-score: best reference per type)."""
    refs = _check(candidate, references)
    xs = list(range(1, len(refs) + 1))
    vals = {m: [] for m in SWEEP_METRICS}
    for k in xs:
        v = FastScorer(refs[:k]).values(candidate)
        for m in SWEEP_METRICS:
            vals[m].append(v[m])
    note = "" if len(refs) > 1 else "Only one reference: add more to see the curve."
    return SweepResult("k", "number of references used", xs, vals, [candidate] * len(xs), note, marker=len(refs))


SWEEPS = {
    "length": ("Length (truncate ↔ pad)", sweep_length),
    "shuffle": ("Fraction of words shuffled", sweep_shuffle),
    "stuffing": ("Stuffed function words", sweep_stuffing),
    "references": ("Number of references", sweep_references),
}
