"""The generated exercise pairs and the exercise a family's question makes of one: :func:`make_pair` writes a fresh
candidate and its references for a kind and a level; :class:`Exercise` is one numeric question over such a pair.
The exercise sets (:mod:`explainer.teach.exercises`) draw them; each family's lesson asks its question about them.

Kinds of generated pair:

* ``clip``: a reference word repeated in the candidate (clipping);
* ``missing4``: every fourth token replaced, so no 4-gram matches (precision per order, smoothing);
* ``short``: the first tokens of the reference only (brevity penalty);
* ``reorder``: the reference's chunks swapped (ROUGE-L's in-order subsequence).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping

from explainer.teach.model import Question

__all__ = ["KINDS", "Exercise", "make_pair"]

KINDS = ("clip", "missing4", "short", "reorder")   # the pairs make_pair writes (BLEU's and ROUGE's kinds)

_SUBJECTS = ("the cat", "a small dog", "the old man", "my sister", "the teacher", "a young girl", "the farmer",
             "our neighbour", "the pilot", "a tired student")
_VERBS = ("sat on", "looked at", "walked past", "painted", "cleaned", "found", "carried", "opened", "repaired",
          "pushed")
_OBJECTS = ("the red mat", "a wooden box", "the kitchen door", "an old bicycle", "the garden gate", "a heavy bag",
            "the blue car", "a broken chair", "the front window", "a paper boat")
_TAILS = ("this morning", "after lunch", "in the rain", "last night", "before school", "on sunday",
          "near the river", "with great care", "at the station", "for an hour")
_FILLERS = ("quickly", "yellow", "seven", "perhaps", "silver", "gently", "twelve", "orange", "slowly", "maybe")

# the pair kinds that get a second reference, per level
_TWO_REFS = {("clip", "hard"), ("short", "medium")}


@dataclass(frozen=True)
class Exercise:
    index: int
    kind: str
    title: str
    candidate: str
    references: tuple[str, ...]
    step_id: str            # the walkthrough step the question belongs to
    focus_order: int | None
    question: Question

    family: str = "BLEU"            # the family's label (as a step names it)
    metric_family: str = "bleu"     # the family's registered name
    options: Mapping[str, Any] = field(default_factory=dict)   # the options its answer is computed with


def _parts(rng: random.Random) -> list[list[str]]:
    """Subject, verb, object and ending of a short sentence, each a list of words."""
    return [x.split() for x in (rng.choice(_SUBJECTS), rng.choice(_VERBS), rng.choice(_OBJECTS), rng.choice(_TAILS))]


def _flat(parts) -> list[str]:
    return [w for p in parts for w in p]


def _other(rng: random.Random, parts: list[list[str]]) -> list[str]:
    """A second reference for the same event: same subject and object, another verb and ending."""
    verbs = [v for v in _VERBS if v.split() != parts[1]]
    tails = [t for t in _TAILS if t.split() != parts[3]]
    return _flat([parts[0], rng.choice(verbs).split(), parts[2], rng.choice(tails).split()])


def make_pair(kind: str, level: str, rng: random.Random) -> tuple[str, list[str]]:
    """A candidate and its references for one exercise kind and level."""
    parts = _parts(rng)
    ref = _flat(parts)
    second = None
    if level == "hard" and kind in ("reorder", "missing4"):
        second = [rng.choice([v for v in _VERBS if v.split() != parts[1]]).split(), rng.choice(_OBJECTS).split()]
        ref = ref + ["and", "then"] + _flat(second)
    if kind == "clip":
        # the repeated word: half the time one the reference has twice or more (its clipped count is then not 1:
        # an answer always 1 taught nothing)
        words = [w for w in dict.fromkeys(ref) if w not in ("a", "an")]
        twice = [w for w in words if ref.count(w) > 1]
        w = rng.choice(twice if twice and rng.random() < 0.5 else [w for w in words if ref.count(w) == 1])
        i = ref.index(w)
        extra = 2 if level == "easy" else 3
        cand = ref[:i + 1] + [w] * extra + ref[i + 1:]
        if level != "easy":   # also drop a later word, so the precision is not just (c - extra) / c
            later = list(range(i + extra + 1, len(cand)))
            if later:
                j = rng.choice(later)
                cand = cand[:j] + cand[j + 1:]
    elif kind == "missing4":
        fill = [f for f in _FILLERS if f not in ref]
        rng.shuffle(fill)
        cand = list(ref)
        for k, p in enumerate(range(3, len(cand), 4)):   # every window of 4 tokens contains one replaced token
            cand[p] = fill[k % len(fill)]
    elif kind == "short":
        keep = {"easy": 4, "medium": 5, "hard": 5}[level] + rng.randrange(0, 2)
        cand = ref[:keep]
        if level == "hard":
            cand[-2] = rng.choice([f for f in _FILLERS if f not in ref])
    elif kind == "reorder":
        if second is not None:     # the two clauses swapped
            cand = _flat([parts[0], second[0], second[1], ["and", "then"], parts[1], parts[2], parts[3]])
        else:                      # the ending moved to the front: same meaning, another order
            cand = _flat([parts[3], parts[0], parts[1], parts[2]])
    else:
        raise ValueError(f"unknown exercise kind {kind!r}")
    refs = [ref]
    if (kind, level) in _TWO_REFS:
        refs.append(_other(rng, parts))
    return " ".join(cand), [" ".join(r) for r in refs]
