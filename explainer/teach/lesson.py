"""A lesson: the traces of the families a lecture teaches, each computed once by its core, turned into one
sequence of steps with a section per family (BLEU → ROUGE → chrF → TER …, in the order asked), the pair steps
that compare two families, and the textbook's printed numbers at the steps where they appear.

The families are the registered lessons (:mod:`explainer.teach.families`); this module names none of them."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from explainer.examples import Claim
from explainer.families import claim_value
from explainer.teach.families import lesson_families, lesson_family, pair_steps
from explainer.teach.lesson_size import MAX_LESSON_CHARS, check_size
from explainer.teach.model import ClaimCheck, Lesson, Result, Step
from explainer.teach.paging import page_steps

__all__ = ["LessonPart", "build_lecture", "lesson_of_traces", "claim_checks", "claim_step", "check_size",
           "case_variants", "MAX_LESSON_CHARS"]


@dataclass(frozen=True)
class LessonPart:
    """One family of a lecture with its settings: the dialect (None: the family's default) and its options."""

    family: str
    dialect: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


def claim_step(metric: str) -> tuple[str, str] | None:
    """(family, step id) where a claimed number of ``metric`` appears, or None when no lesson answers it."""
    for fam in lesson_families():
        if metric in fam.claim_steps:
            return fam.name, fam.claim_steps[metric]
    return None


def claim_checks(claims: Sequence[Claim], traces: Mapping[str, dict | None],
                 cases: Mapping[str, tuple[dict, dict]] | None = None) -> list[ClaimCheck]:
    """Each printed number of a worked example whose family the lesson teaches (``traces``: family -> its trace
    dict, None when it failed) beside the value the trace gives (the Explain page's comparison,
    :func:`explainer.families.claim_value`), naming the implementation. ``cases``: family -> (its trace with the
    tokens compared without case, those options): a number wrong here that holds there is named as case."""
    out = []
    for c in claims:
        where = claim_step(c.metric)
        if where is None or where[0] not in traces:
            continue
        fam, t = lesson_family(where[0]), traces[where[0]]
        v = claim_value(c.metric, traces)
        impl = fam.implementation(t or {}).split(" (")[0].split(", ")[0]   # the name and version
        shown = "" if v is None else fam.claim_shown(c.metric, v, t)
        agrees = None if v is None else c.agrees(v)
        case = (cases or {}).get(where[0]) if agrees is False else None
        if case is not None:
            lower = claim_value(c.metric, {**traces, where[0]: case[0]})
            if lower is not None and c.agrees(lower):
                out.append(ClaimCheck(c.metric, _claim_label(c.metric), c.printed, v, shown, impl, False,
                                      "holds-otherwise", f"with lowercase tokens: {fam.case_setting()} on",
                                      (where[0], tuple(sorted(case[1].items()))), fam.case_setting()))
                continue
        other = _elsewhere(c, traces) if agrees is False else None
        out.append(ClaimCheck(c.metric, _claim_label(c.metric), c.printed, v, shown, impl, agrees,
                              *((other.kind, other.detail) if other is not None else ())))
    return out


def case_variants(parts: Sequence[LessonPart], traces: Mapping[str, dict | None], candidate: str,
                  references: Sequence[str]) -> dict[str, tuple[dict, dict]]:
    """family -> (its trace with tokens compared without case, those options), for each family whose settings are
    case-sensitive and have a switch (:meth:`LessonFamily.case_variant`)."""
    out = {}
    for p in parts:
        if traces.get(p.family) is None:
            continue
        fam = lesson_family(p.family)
        opts = fam.case_variant(p.dialect, p.options)
        if opts is None:
            continue
        try:
            out[p.family] = (fam.trace(p.dialect, opts, candidate, references), opts)
        except ValueError:
            continue
    return out


_CASE_WHAT = {"count": "the count", "ratio": "the value", "score": "the score"}


def _name_case(steps: list[Step], cases: Mapping[str, tuple[dict, dict]], focus: int | None) -> list[Step]:
    """A question whose answer differs when the tokens are compared without case gets that number as a named
    mix-up (first): "that is the count with lowercase tokens: this lesson is case-sensitive"."""
    other: dict[str, tuple] = {}
    for name, (t, _) in cases.items():
        fam = lesson_family(name)
        for s in fam.steps(t, focus):
            if s.question is not None:
                other[s.question.id] = (s.question, fam)
    out = []
    for s in steps:
        q = s.question
        got = other.get(q.id) if q is not None else None
        if got is None or got[0].prompt != q.prompt or abs(got[0].answer - q.answer) <= q.tolerance:
            out.append(s)
            continue
        hint = (f"That is {_CASE_WHAT.get(q.kind, 'the number')} with lowercase tokens: this lesson is "
                f"case-sensitive ({got[1].case_setting()} is off), so ‘The’ and ‘the’ are different tokens.")
        out.append(dataclasses.replace(s, question=dataclasses.replace(q, mixups=((got[0].answer, hint),)
                                                                       + q.mixups)))
    return out


def _claim_label(metric: str) -> str:
    from explainer.examples import CLAIM_METRICS

    return CLAIM_METRICS[metric]


def _elsewhere(c: Claim, traces: Mapping[str, dict | None]):
    """The three-way verdict of a number that is wrong with these settings: which settings give it, or the
    nearest value (``explainer.dialectcmp.printed.judge_printed``, over the texts of the traces)."""
    from explainer.dialectcmp.printed import judge_printed

    src = next((t for t in traces.values() if t), None)
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
        sid = claim_step(c.metric)[1]
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


def _paged(steps: list[Step], sections: list[tuple[str, int]]) -> tuple[list[Step], list[tuple[str, int]]]:
    """The steps as they fit a screen (:func:`explainer.teach.paging.page_steps`), section by section."""
    out: list[Step] = []
    paged = []
    for k, (label, start) in enumerate(sections):
        end = sections[k + 1][1] if k + 1 < len(sections) else len(steps)
        paged.append((label, len(out)))
        out += page_steps(steps[start:end])
    return out, paged


def _texts(traces: Mapping[str, dict | None]) -> tuple[str, list[str]]:
    src = next((t for t in traces.values() if t), None)
    if not src:
        return "", []
    cand = src["candidate"]["text"] if isinstance(src.get("candidate"), dict) else ""
    return cand, [x["text"] for x in src.get("references", []) if isinstance(x, dict)]


def lesson_of_traces(traces: Sequence[tuple[str, Any]], *, title: str = "", focus: int | None = None,
                     notes: Sequence[str] = (), claims: Sequence[Claim] = (), candidate: str | None = None,
                     references: Sequence[str] | None = None,
                     cases: Mapping[str, tuple[dict, dict]] | None = None) -> Lesson:
    """The lesson of existing traces: ``traces`` is (family, trace object or its ``to_dict()`` or None) in the
    lecture's order; a family without a trace is left out (``notes`` says why). ``focus``: the order each family
    follows (1-based, within its own maximum; None: its own choice); ``claims``: a worked example's printed
    numbers, each compared with the trace's value at the step where the number appears."""
    dicts = {name: (t if t is None or isinstance(t, dict) else t.to_dict()) for name, t in traces}
    steps: list[Step] = []
    sections: list[tuple[str, int]] = []
    done: tuple[str, ...] = ()
    for name, _ in traces:
        t = dicts[name]
        if t is None:
            continue
        fam = lesson_family(name)
        sections.append((fam.label, len(steps)))
        steps += fam.steps(t, focus)
        for pair in pair_steps(done, name):
            first = next(a for a in done if dicts.get(a) is not None)
            steps.append(pair(dicts[first], t))
        done += (name,)
    if cases:
        steps = _name_case(steps, cases, focus)
    checks = claim_checks(claims, dicts, cases)
    steps, sections = _paged(_place_claims(steps, checks), sections)
    cand, refs = _texts(dicts)
    return Lesson(title=title, candidate=cand if candidate is None else candidate,
                  references=refs if references is None else list(references), steps=steps,
                  summaries={n: lesson_family(n).summary(t) for n, t in dicts.items() if t is not None},
                  notes=list(notes), claims=checks if steps else [],
                  sections=sections)


def build_lecture(candidate: str, references: Sequence[str], parts: Sequence[LessonPart], *,
                  focus: int | None = None, title: str = "", claims: Sequence[Claim] = ()) -> Lesson:
    """Compute each part's trace with its core and build the lecture: the parts' sections in order. Input a core
    refuses (``ValueError``: bad options, text it cannot score) becomes a note and that family is left out; a
    lesson over :data:`MAX_LESSON_CHARS` raises ``ValueError``."""
    check_size(candidate, references)
    notes: list[str] = []
    traces: list[tuple[str, dict | None]] = []
    for p in parts:
        fam = lesson_family(p.family)
        try:
            traces.append((p.family, fam.trace(p.dialect, p.options, candidate, references)))
        except ValueError as e:
            traces.append((p.family, None))
            notes.append(f"{fam.label}: {e}")
    cases = case_variants(parts, dict(traces), candidate, references)
    lesson = lesson_of_traces(traces, title=title, focus=focus, notes=notes, claims=claims, candidate=candidate,
                              references=list(references), cases=cases)
    for note in _trace_warnings(traces):
        lesson.notes.append(note)
    return lesson


def _trace_warnings(traces) -> list[str]:
    """What a family's trace warns about that the lesson does not show in a step (chrF's and TER's warnings)."""
    out = []
    for name, t in traces:
        if t is not None:
            out += lesson_family(name).warnings(t)
    return out
