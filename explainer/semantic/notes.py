"""What the semantic measures do not check, each with an example pair from the course or of its kind.

Only texts here: the numbers come from running the measures on the pairs (the Teach steps and the views do),
never from this file.
"""
from __future__ import annotations

__all__ = ["BLIND_SPOTS", "blind_spots"]

#: (what, candidate, reference, why)
BLIND_SPOTS = (
    ("word order beyond context", "The man bit the dog", "The dog bit the man",
     "Both texts have the same words; each piece's vector depends on its neighbours, but who did what to whom "
     "barely moves the sentence vector or the best matches, so the meaning can flip while the score stays high."),
    ("negation", "The patient does not have diabetes.", "The patient has diabetes.",
     "One added 'not' reverses the claim, yet the other pieces still find their twins: the score stays high."),
    ("numbers", "The meeting starts at 5 pm on 12 March.", "The meeting starts at 3 pm on 21 March.",
     "Digits are word pieces whose vectors sit close together; a wrong time or date costs little."),
)


def blind_spots() -> list[dict]:
    """The blind spots as records: ``what``, ``candidate``, ``reference``, ``why``."""
    return [{"what": w, "candidate": c, "reference": r, "why": why} for w, c, r, why in BLIND_SPOTS]
