"""Checking a student's typed answer against a question's trace value, with a stated tolerance.

Accepted forms: ``0.25``, ``0,25``, ``.25``, ``1/4``, ``25%`` (a percentage of a 0–1 quantity), ``1e-3``, a
Unicode minus. Input is bounded (``MAX_ANSWER_CHARS``) and never raises: a bad entry is a message.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from explainer.teach.model import Question, num

__all__ = ["Check", "parse_number", "check_answer", "tolerance_for", "hint_for", "question", "MAX_ANSWER_CHARS"]

MAX_ANSWER_CHARS = 40

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"


@dataclass(frozen=True)
class Check:
    status: str            # "right", "wrong" or "invalid"
    value: float | None    # the number read from the answer
    message: str

    @property
    def right(self) -> bool:
        return self.status == "right"


def tolerance_for(kind: str, answer: float, scale: float = 1.0) -> float:
    """Whole numbers must be exact; a 0–1 ratio within 0.005 (0.0005 for values below 0.1, so that 0.0833 is
    not "right" for 0.08); a score within half a point of its scale (0.5 on 0–100, 0.005 on 0–1)."""
    if kind == "count":
        return 0.0
    if kind == "score":
        return 0.005 * scale
    return 0.005 if abs(answer) >= 0.1 else 0.0005


def hint_for(kind: str, tolerance: float, scale: float = 1.0) -> str:
    if kind == "count":
        return "a whole number"
    if kind == "score":
        rng = "0–100" if scale == 100 else "0–1"
        return f"on the {rng} scale; right within ±{tolerance:g}"
    return (f"between 0 and 1 — a fraction such as 5/7 or a percentage such as 71.4% is fine; right within "
            f"±{tolerance:g}")


def parse_number(raw: str, *, percent_of_one: bool = True) -> tuple[float | None, str | None]:
    """(value, None) or (None, message). ``percent_of_one``: ``25%`` means 0.25 (else 25)."""
    if raw is None:
        return None, "Type a number first."
    s = str(raw).strip()
    if not s:
        return None, "Type a number first."
    if len(s) > MAX_ANSWER_CHARS:
        return None, f"That is longer than {MAX_ANSWER_CHARS} characters; type just the number."
    s = s.replace("\u2212", "-").replace("\u2009", "").replace("\u202f", "").replace(" ", "")
    if "," in s and "." not in s and s.count(",") == 1:
        s = s.replace(",", ".")          # a decimal comma
    percent = s.endswith("%")
    if percent:
        s = s[:-1]
    m = re.fullmatch(rf"({_NUMBER})/({_NUMBER})", s)
    try:
        if m:
            den = float(m.group(2))
            if den == 0:
                return None, "A fraction with 0 below the line is not a number."
            v = float(m.group(1)) / den
        elif re.fullmatch(_NUMBER, s):
            v = float(s)
        else:
            raise ValueError
    except (ValueError, OverflowError):
        return None, "That is not a number. Type for example 0.25, 1/4 or 25%."
    if not math.isfinite(v):
        return None, "That is not a finite number."
    if percent and percent_of_one:
        v /= 100
    return v, None


def check_answer(q: Question, raw: str) -> Check:
    """Right when |value − answer| ≤ tolerance (a whole number must be a whole number)."""
    v, err = parse_number(raw, percent_of_one=q.kind == "ratio")
    if err:
        return Check("invalid", None, err)
    if q.kind == "count" and not float(v).is_integer():
        return Check("invalid", v, "The answer is a whole number (a count).")
    shown = q.shown or num(q.answer)
    if abs(v - q.answer) <= q.tolerance + 1e-12:
        return Check("right", v, f"Right — {shown}.")
    return Check("wrong", v, f"Not quite: you said {num(v)}, the answer is {shown}.")


def question(qid: str, prompt: str, answer: float, *, kind: str, explanation: str, given=(), shown: str = "",
             scale: float = 1.0, marked=()) -> Question:
    """A :class:`Question` with the tolerance and the hint its kind implies. ``marked``: token rows with the
    tokens the explanation talks about as ``focus`` chips (shown with the answer)."""
    tol = tolerance_for(kind, answer, scale)
    return Question(id=qid, prompt=prompt, answer=float(answer), tolerance=tol, hint=hint_for(kind, tol, scale),
                    explanation=explanation, given=tuple(given), kind=kind, shown=shown or num(answer),
                    scale=scale, marked=tuple(marked))
