"""A lesson: both traces computed once by the cores, turned into the BLEU and ROUGE walkthrough steps."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

from explainer.examples import CLAIM_METRICS, Claim
from explainer.families import claim_value
from explainer.teach.bleu_steps import bleu_headline, bleu_steps
from explainer.teach.model import ClaimCheck, Lesson, Para, Result, Step, Table, num
from explainer.teach.notes import misconception, say
from explainer.teach.rouge_steps import rouge_steps

__all__ = ["build_lesson", "lesson_from_traces", "claim_checks", "LESSON_TYPES", "MAX_LESSON_CHARS", "CLAIM_STEP",
           "compare_step"]

LESSON_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
# A lesson is for a projector and a handout: its texts together are limited (checked before any work); the
# Explain page takes far longer texts.
MAX_LESSON_CHARS = 10_000


def _as_dict(trace) -> dict | None:
    if trace is None or isinstance(trace, dict):
        return trace
    return trace.to_dict()


#: the step where a claimed number appears (its comparison is shown there)
CLAIM_STEP = {"bleu": "bleu-score", "bleu_p1": "bleu-precision", "bleu_bp": "bleu-bp", "rouge1_hits": "rouge-1",
              "rouge1_p": "rouge-prf", "rouge1_r": "rouge-prf", "rouge1_f": "rouge-prf", "rouge2_r": "rouge-prf",
              "rouge2_f": "rouge-prf", "rougeL_r": "rouge-l", "rougeL_f": "rouge-l", "lcs": "rouge-lcs-table",
              "lsum_hits": "rouge-lsum"}
assert set(CLAIM_STEP) == set(CLAIM_METRICS)


def claim_checks(claims: Sequence[Claim], b: dict | None, r: dict | None) -> list[ClaimCheck]:
    """Each printed number of a worked example beside the value the traces give (the Explain page's comparison,
    :func:`explainer.families.claim_value`), naming the implementation."""
    out = []
    for c in claims:
        v = claim_value(c.metric, {"bleu": b, "rouge": r})
        bleu = c.metric.startswith("bleu")
        impl = (b or {}).get("implementation", "") if bleu else (r or {}).get("dialect_label", "")
        impl = impl.split(" (")[0].split(", ")[0]   # the name and version, without where it comes from
        shown = "" if v is None else num(v)   # as the lesson's steps show numbers
        if v is not None and c.metric == "bleu" and b["scale"] != 1:
            shown += f" ({bleu_headline(b['score'], b['scale'])} on its 0–{b['scale']:g} scale)"
        agrees = None if v is None else c.agrees(v)
        where = _elsewhere(c, b, r) if agrees is False else None
        out.append(ClaimCheck(c.metric, CLAIM_METRICS[c.metric], c.printed, v, shown, impl, agrees,
                              *((where.kind, where.detail) if where is not None else ())))
    return out


def _elsewhere(c: Claim, b: dict | None, r: dict | None):
    """The three-way verdict of a number that is wrong with these settings: which settings give it, or the
    nearest value (``explainer.dialectcmp.printed.judge_printed``, over the texts of the traces)."""
    from explainer.dialectcmp.printed import judge_printed

    src = b or r
    if not src:
        return None
    try:
        return judge_printed(src["candidate"]["text"], [x["text"] for x in src.get("references", [])], c, False)
    except ValueError:
        return None     # texts beyond the search's limits: the two-way verdict stays


def _place_claims(steps: list[Step], checks: list[ClaimCheck]) -> list[Step]:
    """Each comparison at the end of the step where its number appears, before the step's final results (a
    claim whose step the lesson lacks: on the last step)."""
    ids = [s.id for s in steps]
    out = list(steps)
    for c in checks:
        sid = CLAIM_STEP[c.metric]
        i = ids.index(sid) if sid in ids else len(out) - 1
        if i < 0:
            continue
        blocks = list(out[i].blocks)
        at = len(blocks)
        while at > 0 and isinstance(blocks[at - 1], Result):
            at -= 1
        blocks.insert(at, c)
        out[i] = dataclasses.replace(out[i], blocks=tuple(blocks))
    return out


def _prf(sc: dict, t: str) -> str:
    if t not in sc:
        return "—"
    return f"P = {num(sc[t]['precision'])}, R = {num(sc[t]['recall'])}, F = {num(sc[t]['fmeasure'])}"


def compare_step(b: dict, r: dict) -> Step:
    """The closing step: what BLEU and ROUGE each rewarded in this example, every number from the two traces."""
    comb = b["combination"]
    p = {o["n"]: o["precision"] for o in comb["orders"]}
    sc = r["scores"]
    bleu = bleu_headline(b["score"], b["scale"])
    rows = (
        ("what it asks", "precision: how much of the candidate is in a reference",
         "recall (and P, F): how much of the reference the candidate covers"),
        ("single words", f"p_1 = {num(p.get(1))}", "ROUGE-1: " + _prf(sc, "rouge1")),
        ("word order", "p_2 … p_4 = " + ", ".join(num(p[n]) for n in sorted(p) if n > 1),
         "ROUGE-2: " + _prf(sc, "rouge2") + "; ROUGE-L: " + _prf(sc, "rougeL")),
        ("length", f"BP = {num(comb['bp'])} (c = {comb['c']}, r = {comb['r']})",
         "no penalty: a short candidate loses recall, a long one precision"),
        ("final number", f"BLEU = {bleu} (0–{num(b['scale'])})",
         "ROUGE-L F = " + (num(sc["rougeL"]["fmeasure"]) if "rougeL" in sc else "—") + " (0–1)"),
    )
    r1 = sc.get("rouge1")
    extra = ""
    if r1:
        extra = (f"Here unigram precision p_1 = {num(p.get(1))} and ROUGE-1 recall = {num(r1['recall'])}; "
                 f"BLEU = {bleu}, ROUGE-1 F = {num(r1['fmeasure'])}.")
    blocks = (Para("BLEU rewards precision over orders 1–4 and penalises short candidates; ROUGE rewards "
                   "covering the reference. Same overlaps, different questions.", "key"),
              Table(("", f"BLEU ({b['dialect']})", f"ROUGE ({r['dialect']})"), rows))
    return Step("bleu-vs-rouge", "Summary", "BLEU vs ROUGE on this example", blocks, say("bleu-vs-rouge", extra),
                misconception("bleu-vs-rouge"))


def lesson_from_traces(bleu_trace, rouge_trace, *, title: str = "", focus_order: int | None = None,
                       notes: Sequence[str] = (), claims: Sequence[Claim] = ()) -> Lesson:
    """Steps from existing traces (objects or their ``to_dict()``); either may be None (that family is left
    out and ``notes`` says why). ``claims``: a worked example's printed numbers, each compared with the trace's
    value at the step where the number appears (and listed in ``Lesson.claims``)."""
    b, r = _as_dict(bleu_trace), _as_dict(rouge_trace)
    steps = []
    if b is not None:
        steps += bleu_steps(b, focus_order)
    if r is not None:
        steps += rouge_steps(r)
    if b is not None and r is not None:
        steps.append(compare_step(b, r))
    checks = claim_checks(claims, b, r)
    steps = _place_claims(steps, checks)
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
                  notes=list(notes), claims=checks)


def build_lesson(candidate: str, references: Sequence[str], *, bleu_dialect: str = "sacrebleu",
                 bleu_options: Mapping[str, Any] | None = None, rouge_dialect: str = "rouge-score",
                 rouge_options: Mapping[str, Any] | None = None, focus_order: int | None = None,
                 title: str = "", claims: Sequence[Claim] = ()) -> Lesson:
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
    return lesson_from_traces(bleu_trace, rouge_trace, title=title, focus_order=focus_order, notes=notes,
                              claims=claims)
