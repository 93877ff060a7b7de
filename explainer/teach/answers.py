"""Checking a student's typed answer against a question's trace value, with a stated tolerance.

Accepted forms: ``0.25``, ``0,25``, ``.25``, ``1/4``, ``25%`` (a percentage of a 0–1 quantity), ``1e-3``, a
Unicode minus. Input is bounded (``MAX_ANSWER_CHARS``) and never raises: a bad entry is a message.

Checking is formative: a wrong first answer gets a retry (``status == "retry"``) with a hint and without the
answer; the answer is revealed only after the last of :data:`ATTEMPTS` tries. The hint names the usual mix-ups
when the number read fits one of them: the other scale of a score (0.38 for a BLEU on 0–100), a percentage typed
as a plain number (50 for a 0–1 precision: "did you mean 50 %?") and a count off by one.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from explainer.teach.model import Question, num

__all__ = ["Check", "parse_number", "check_answer", "tolerance_for", "hint_for", "question", "MAX_ANSWER_CHARS",
           "ATTEMPTS", "mixup_hint"]

MAX_ANSWER_CHARS = 40
#: tries per question: a wrong answer before the last try gets a hint and another try, not the answer
ATTEMPTS = 2

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"


@dataclass(frozen=True)
class Check:
    status: str            # "right", "retry" (wrong, try again: no answer shown), "wrong" (final) or "invalid"
    value: float | None    # the number read from the answer
    message: str
    hint: str = ""         # the mix-up the number fits ("" when none), part of ``message``

    @property
    def right(self) -> bool:
        return self.status == "right"

    @property
    def final(self) -> bool:
        """The question is settled (right, or wrong on the last try): the answer may be shown."""
        return self.status in ("right", "wrong")


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


def _near(v: float, target: float, tol: float) -> bool:
    return abs(v - target) <= tol + 1e-12


def mixup_hint(q: Question, v: float) -> str:
    """A hint when ``v`` (wrong) fits a usual mix-up: the question's own misconceptions (:attr:`Question.mixups`:
    the count before clipping, another reference's length, the count with lowercase tokens), the other scale of a
    score, a percentage typed without its sign, a count off by one. "" otherwise. Never states the answer."""
    for value, hint in q.mixups:
        if not _near(value, q.answer, q.tolerance) and _near(v, value, q.tolerance):
            return hint
    if q.kind == "score" and q.scale == 100 and v <= 1 and _near(v * 100, q.answer, q.tolerance):
        return (f"You typed {num(v)}: that looks like the 0–1 scale, but this score is on the 0–100 scale "
                "(sacreBLEU reports percent). Multiply by 100.")
    if q.kind == "score" and q.scale == 1 and v > 1 and _near(v / 100, q.answer, q.tolerance):
        return f"You typed {num(v)}: that looks like the 0–100 scale, but this score is on the 0–1 scale."
    if q.kind == "ratio" and v > 1 and _near(v / 100, q.answer, q.tolerance):
        return (f"This is a number between 0 and 1 — did you mean {num(v)} %? Type it as {num(v)}% or as "
                f"{num(v / 100)}.")
    if q.kind == "count" and abs(v - q.answer) == 1:
        return q.off_by_one or ("Off by one: count again, token by token (a clipped count never exceeds the largest "
                                "count in one reference; an n-gram of n tokens starts at each of the first "
                                "len − n + 1 positions).")
    return ""


def check_answer(q: Question, raw: str, attempt: int = ATTEMPTS) -> Check:
    """Right when |value − answer| ≤ tolerance (a whole number must be a whole number). ``attempt`` (1-based):
    a wrong answer before try :data:`ATTEMPTS` is ``retry`` (a hint, no answer); on the last try ``wrong`` (the
    answer). An invalid entry does not use a try."""
    v, err = parse_number(raw, percent_of_one=q.kind == "ratio")
    if err:
        return Check("invalid", None, err)
    if q.kind == "count" and not float(v).is_integer():
        return Check("invalid", v, "The answer is a whole number (a count).")
    shown = q.shown or num(q.answer)
    if _near(v, q.answer, q.tolerance):
        return Check("right", v, f"Right — {shown}.")
    hint = mixup_hint(q, v)
    if attempt < ATTEMPTS:
        left = ATTEMPTS - attempt
        return Check("retry", v, f"Not quite: {num(v)} is not it. " + (hint + " " if hint else
                     f"Expected: {q.hint}. ") + f"Try again ({left} {'try' if left == 1 else 'tries'} left).",
                     hint)
    return Check("wrong", v, f"Not quite: you said {num(v)}, the answer is {shown}." + (" " + hint if hint else ""),
                 hint)


def question(qid: str, prompt: str, answer: float, *, kind: str, explanation: str, given=(), shown: str = "",
             scale: float = 1.0, marked=(), mixups=(), off_by_one: str = "") -> Question:
    """A :class:`Question` with the tolerance and the hint its kind implies. ``marked``: token rows with the
    tokens the explanation talks about as ``focus`` chips (shown with the answer); ``mixups``: (value, hint) of
    the misconceptions the question's numbers give (one equal to the answer is dropped); ``off_by_one``: a count's
    own off-by-one hint."""
    tol = tolerance_for(kind, answer, scale)
    mix = tuple((float(v), h) for v, h in mixups if v is not None and not _near(float(v), float(answer), tol))
    return Question(id=qid, prompt=prompt, answer=float(answer), tolerance=tol, hint=hint_for(kind, tol, scale),
                    explanation=explanation, given=tuple(given), kind=kind, shown=shown or num(answer),
                    scale=scale, marked=tuple(marked), mixups=mix, off_by_one=off_by_one)
