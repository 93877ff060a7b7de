"""A lesson: both traces computed once by the cores, turned into the BLEU and ROUGE walkthrough steps."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from explainer.teach.bleu_steps import bleu_headline, bleu_steps
from explainer.teach.model import Lesson
from explainer.teach.rouge_steps import rouge_steps

__all__ = ["build_lesson", "lesson_from_traces", "LESSON_TYPES", "MAX_LESSON_CHARS"]

LESSON_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
# A lesson is for a projector and a handout: its texts together are limited (checked before any work); the
# Explain page takes far longer texts.
MAX_LESSON_CHARS = 10_000


def _as_dict(trace) -> dict | None:
    if trace is None or isinstance(trace, dict):
        return trace
    return trace.to_dict()


def lesson_from_traces(bleu_trace, rouge_trace, *, title: str = "", focus_order: int | None = None,
                       notes: Sequence[str] = ()) -> Lesson:
    """Steps from existing traces (objects or their ``to_dict()``); either may be None (that family is left
    out and ``notes`` says why)."""
    b, r = _as_dict(bleu_trace), _as_dict(rouge_trace)
    steps = []
    if b is not None:
        steps += bleu_steps(b, focus_order)
    if r is not None:
        steps += rouge_steps(r)
    src = b or r or {}
    cand = src["candidate"]["text"] if src else ""
    refs = [x["text"] for x in src.get("references", [])] if src else []
    bs = {}
    if b is not None:
        bs = {"score": b["score"], "scale": b["scale"], "shown": bleu_headline(b["score"], b["scale"]),
              "signature": b["signature"], "dialect": b["dialect"], "implementation": b["implementation"]}
    rs = {}
    if r is not None:
        rs = {"scores": r["scores"], "signature": r["signature"], "dialect": r["dialect"]}
    return Lesson(title=title, candidate=cand, references=refs, steps=steps, bleu_summary=bs, rouge_summary=rs,
                  notes=list(notes))


def build_lesson(candidate: str, references: Sequence[str], *, bleu_dialect: str = "sacrebleu",
                 bleu_options: Mapping[str, Any] | None = None, rouge_dialect: str = "rouge-score",
                 rouge_options: Mapping[str, Any] | None = None, focus_order: int | None = None,
                 title: str = "") -> Lesson:
    """Compute the BLEU and ROUGE traces with the cores (``explain_bleu`` / ``explain_rouge``) and build the
    walkthrough. Input the cores refuse (``ValueError``: empty reference list, bad options, text too long)
    becomes a note and that family is left out; a lesson over ``MAX_LESSON_CHARS`` raises ``ValueError``."""
    from explainer.bleu import explain_bleu
    from explainer.rouge import explain_rouge, get_dialect, parse_type

    total = len(candidate) + sum(len(x) for x in references)
    if total > MAX_LESSON_CHARS:
        raise ValueError(f"the texts have {total:,} characters together; a lesson takes at most "
                         f"{MAX_LESSON_CHARS:,} (use the Explain page for longer texts)")
    notes: list[str] = []
    bleu_trace = rouge_trace = None
    try:
        bleu_trace = explain_bleu(candidate, list(references), dialect=bleu_dialect, **dict(bleu_options or {}))
    except ValueError as e:
        notes.append(f"BLEU: {e}")
    try:
        kinds = get_dialect(rouge_dialect).supported_kinds
        types = tuple(t for t in LESSON_TYPES if parse_type(t).kind in kinds)
        rouge_trace = explain_rouge(candidate, list(references), dialect=rouge_dialect, types=types,
                                    **dict(rouge_options or {}))
    except ValueError as e:
        notes.append(f"ROUGE: {e}")
    return lesson_from_traces(bleu_trace, rouge_trace, title=title, focus_order=focus_order, notes=notes)
