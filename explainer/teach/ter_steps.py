"""The TER walkthrough as steps, read from a TER trace's ``to_dict()`` (docs/ter.md "Trace schema").

Order of a lecture: the words as TER reads them → the word edit distance before any shift → the shifts the
heuristic takes (each one edit, whatever its length) → the alignment after the shifts (the edits left) → the
reference kept when there are several → TER = edits / mean reference length. Every number is a trace field; each
step asks one "predict before you see it" question.

``explainer.teach.family_lessons.ter_lesson(candidate, references, ...)`` builds a whole lesson (the Teach page and
the handouts render it as they render the BLEU, ROUGE and chrF lessons).
"""
from __future__ import annotations

from typing import Any, Sequence

from explainer.teach.answers import question
from explainer.teach.family import LessonFamily
from explainer.teach.model import Chip, Formula, Para, Result, Step, Table, TokenRow, num

__all__ = ["ter_steps", "NOTES", "MAX_CHIPS", "MAX_ROWS", "OP_LABELS", "LESSON", "TerLesson"]

MAX_CHIPS = 160     # words shown as chips per text
MAX_ROWS = 200      # alignment / shift rows in a step; the trace download has every one

#: an operation's chip: (kind, letter, words); the letter is the mark that does not rely on colour
OP_LABELS = {"match": ("match", "=", "matches"), "substitution": ("", "S", "substituted"),
             "deletion": ("", "D", "deleted: not in the reference"),
             "insertion": ("", "I", "inserted: missing from the hypothesis")}

#: step id -> (what to say, the common misconception)
NOTES = {
    "ter-tokens": (
        "TER compares words. sacreBLEU's TER lowercases the texts (unless case_sensitive) and splits them at "
        "whitespace; with normalized it also splits punctuation off, with no_punct it removes it.",
        "“TER counts character edits.” It counts whole words: 'cats' for 'cat' is one substitution, as is 'dog'."),
    "ter-distance": (
        "Before any shift, the word edit distance: the fewest insertions, deletions and substitutions of single "
        "words that turn the hypothesis into the reference.",
        "“Word order costs nothing, as in BLEU's unigrams.” Here a word in the wrong place costs edits: a deletion "
        "where it is and an insertion where it should be — unless a shift moves it."),
    "ter-shifts": (
        "A shift moves a block of words (at most 10, at most 50 positions away) to where the reference has them, "
        "and costs ONE edit whatever its length. TER takes the shift that lowers the edit distance most, again and "
        "again, while one still helps: a greedy heuristic (Tercom's), not an optimal search.",
        "“Moving three words costs three edits.” One shift is one edit, so reordering whole phrases is cheap in "
        "TER."),
    "ter-alignment": (
        "After the shifts, the edit distance again: each hypothesis word matches a reference word, is substituted "
        "or is deleted; each reference word left over is inserted. These edits plus the shifts are the TER edits.",
        "“Insertions and deletions are from the reference's point of view.” In TER they edit the hypothesis: a "
        "deletion removes a hypothesis word, an insertion adds a reference word it lacks."),
    "ter-refs": (
        "With several references sacreBLEU computes the edits against each one and keeps the fewest (the first on "
        "a tie), but divides by the MEAN length of all the references.",
        "“The kept reference's own length is the denominator.” It is the average over every reference."),
    "ter-score": (
        "TER = edits / reference length, times 100 in sacreBLEU. It is an error rate: lower is better, 0 is a "
        "perfect match, and it goes above 100 when there are more edits than reference words.",
        "“Higher TER is better, like BLEU.” It is the other way round, and TER is not capped at 100: a long, wrong "
        "hypothesis can score 150."),
}


def _say(sid: str) -> str:
    return NOTES[sid][0]


def _mis(sid: str) -> str:
    return NOTES[sid][1]


def _words_row(label: str, words: Sequence[str]) -> TokenRow:
    more = f" (the first {MAX_CHIPS} shown)" if len(words) > MAX_CHIPS else ""
    return TokenRow(label, tuple(Chip(w, "", str(i)) for i, w in enumerate(words[:MAX_CHIPS])),
                    f"{len(words)} words{more}")


def _aligned_rows(alignment: Sequence, hyp: Sequence[str], ref: Sequence[str], hyp_label: str,
                  ref_label: str) -> tuple[TokenRow, TokenRow]:
    """The two texts as chips, each word with its operation's letter."""
    h, r = [], []
    for op, i, j in alignment:
        kind, letter, words = OP_LABELS[op]
        if i is not None:
            h.append(Chip(hyp[i], kind, letter, f"{hyp[i]}: {words}"))
        if j is not None:
            r.append(Chip(ref[j], kind, letter, f"{ref[j]}: {words}"))
    return (TokenRow(hyp_label, tuple(h[:MAX_CHIPS]), f"{len(h)} words"),
            TokenRow(ref_label, tuple(r[:MAX_CHIPS]), f"{len(r)} words"))


def _kept(t: dict) -> tuple[int, dict, list[str]]:
    k = t["chosen_reference"]
    return k, t["per_reference"][k], [x["text"] for x in t["references"][k]["tokens"]]


def _hyp(t: dict) -> list[str]:
    return [x["text"] for x in t["candidate"]["tokens"]]


def _step_tokens(t: dict) -> Step:
    k, _, ref = _kept(t)
    blocks: list[Any] = [Para(_say("ter-tokens"), "key"), _words_row("Hypothesis", _hyp(t)),
                         _words_row(f"Reference {k + 1}", ref)]
    for what, text in (("hypothesis", t["candidate"]), (f"reference {k + 1}", t["references"][k])):
        for ch in text["changes"]:
            blocks.append(Para(f"{what}: {ch['step']}: {ch['detail']}", "note"))
    q = question("ter-ref-words", f"How many words does TER count in reference {k + 1}?", len(ref), kind="count",
                 given=(Para(f"Reference {k + 1}: {t['references'][k]['text']}"),),
                 explanation=f"TER's tokenizer gives {len(ref)} words: {' · '.join(ref[:30])}"
                             + (" …" if len(ref) > 30 else ""))
    return Step("ter-tokens", "TER", "The words TER compares", tuple(blocks), _say("ter-tokens"),
                _mis("ter-tokens"), q)


def _step_distance(t: dict) -> Step:
    k, p, ref = _kept(t)
    hyp = _hyp(t)
    rows = _aligned_rows(p["initial_alignment"], hyp, ref, "Hypothesis", f"Reference {k + 1}")
    d = p["initial_distance"]
    blocks = [Para(_say("ter-distance"), "key"), *rows,
              Formula((f"edit distance before any shift: {d} (= substitutions + deletions + insertions)",))]
    q = question("ter-initial-distance", "What is the word edit distance between the hypothesis and the reference "
                 "before any shift?", d, kind="count",
                 given=(_words_row("Hypothesis", hyp), _words_row(f"Reference {k + 1}", ref)),
                 explanation=f"The fewest single-word edits: {d}; the letters mark them (S, D, I).")
    return Step("ter-distance", "TER", "Edit distance before shifting", tuple(blocks), _say("ter-distance"),
                _mis("ter-distance"), q)


def _step_shifts(t: dict) -> Step:
    k, p, ref = _kept(t)
    shifts = p["shifts"]
    rows = tuple((j + 1, " ".join(s["words"]), s["start"], s["new_start"], s["gain"],
                  f"{s['distance_before']} → {s['distance_after']}", s["candidates"])
                 for j, s in enumerate(shifts[:MAX_ROWS]))
    blocks: list[Any] = [Para(_say("ter-shifts"), "key")]
    if shifts:
        blocks.append(Table(("shift", "words", "from", "to", "gain", "edit distance", "candidates weighed"), rows,
                            caption="" if len(shifts) <= MAX_ROWS else f"the first {MAX_ROWS} of {len(shifts)}"))
        blocks.append(Para(f"Shift 1: {shifts[0]['reason']}.", "note"))
    else:
        blocks.append(Para("No shift is taken.", "text"))
    blocks.append(Para(f"The search stopped: {p['stop_reason']}.", "note"))
    blocks.append(_words_row("Hypothesis after the shifts", p["shifted"]))
    q = question("ter-shifts", "How many shifts does TER's heuristic take?", len(shifts), kind="count",
                 given=(_words_row("Hypothesis", _hyp(t)), _words_row(f"Reference {k + 1}", ref)),
                 explanation=(f"{len(shifts)} shift(s): " + "; ".join(
                     f"'{' '.join(s['words'])}' from {s['start']} to {s['new_start']} (gain {s['gain']})"
                     for s in shifts[:5]) if shifts else "None lowers the edit distance.")
                 + f" The search stopped: {p['stop_reason']}.")
    return Step("ter-shifts", "TER", "Shifts: moving blocks of words", tuple(blocks), _say("ter-shifts"),
                _mis("ter-shifts"), q)


def _step_alignment(t: dict) -> Step:
    k, p, ref = _kept(t)
    rows = _aligned_rows(p["alignment"], p["shifted"], ref, "Shifted hypothesis", f"Reference {k + 1}")
    c = p["counts"]
    table = Table(("matches", "substitutions", "deletions", "insertions", "edits left"),
                  ((c["match"], c["substitution"], c["deletion"], c["insertion"], p["edit_distance"]),))
    blocks = [Para(_say("ter-alignment"), "key"), *rows, table,
              Formula((f"TER edits = shifts + edits left = {p['num_shifts']} + {p['edit_distance']} = "
                       f"{p['num_edits']}",))]
    for note in p["notes"]:
        blocks.append(Para(note, "note"))
    q = question("ter-edits-left", "After the shifts, how many substitutions, deletions and insertions are left?",
                 p["edit_distance"], kind="count",
                 given=(_words_row("Shifted hypothesis", p["shifted"]), _words_row(f"Reference {k + 1}", ref)),
                 explanation=f"{c['substitution']} substitution(s) + {c['deletion']} deletion(s) + "
                             f"{c['insertion']} insertion(s) = {p['edit_distance']}.")
    return Step("ter-alignment", "TER", "The alignment after the shifts", tuple(blocks), _say("ter-alignment"),
                _mis("ter-alignment"), q)


def _step_refs(t: dict) -> Step | None:
    if len(t["references"]) < 2:
        return None
    k = t["chosen_reference"]
    rows = tuple((p["index"] + 1, r["text"], p["num_edits"], p["ref_length"], "kept" if p["index"] == k else "")
                 for p, r in zip(t["per_reference"], t["references"]))
    lengths = t["reference_lengths"]
    blocks = [Para(_say("ter-refs"), "key"), Table(("reference", "text", "edits", "words", ""), rows, (k,)),
              Formula((f"mean reference length = ({' + '.join(num(x) for x in lengths)}) / {len(lengths)} = "
                       f"{num(t['ref_length'])}",))]
    q = question("ter-kept", "Which reference does sacreBLEU keep (its number)?", k + 1, kind="count",
                 given=(Table(("reference", "edits"), tuple((p["index"] + 1, p["num_edits"])
                                                           for p in t["per_reference"])),),
                 explanation=f"Reference {k + 1} needs the fewest edits ({t['reference_edits'][k]}).")
    return Step("ter-refs", "TER", "Several references: the fewest edits, the mean length", tuple(blocks),
                _say("ter-refs"), _mis("ter-refs"), q)


def _step_score(t: dict) -> Step:
    c = t["combination"]
    shown = f"{t['score']:.4f}"
    blocks = [Para(_say("ter-score"), "key"), Formula((c["formula"], c["explanation"])),
              Result("TER", t["score"], shown, "ter")]
    if t["score"] > 100:
        blocks.append(Para("Above 100: the hypothesis needs more edits than the reference has words.", "note"))
    q = question("ter-score", "What is the TER score (0 = perfect; it can exceed 100)?", t["score"], kind="score",
                 scale=100.0, shown=shown,
                 given=(Table(("edits", "mean reference length"), ((num(t["num_edits"]), num(t["ref_length"])),)),),
                 explanation=c["formula"])
    return Step("ter-score", "TER", "From the edits to the score", tuple(blocks), _say("ter-score"),
                _mis("ter-score"), q)


def ter_steps(t: dict) -> list[Step]:
    """The walkthrough of one TER trace (``TerTrace.to_dict()``)."""
    steps = [_step_tokens(t), _step_distance(t), _step_shifts(t), _step_alignment(t)]
    refs = _step_refs(t)
    if refs is not None:
        steps.append(refs)
    steps.append(_step_score(t))
    return steps


# ------------------------------------------------------------------------------------------- the lesson
#: units of TER's shift search one lecture's trace may do (``explainer.ter.limits.Budget``; about 0.3 s of CPU)
LECTURE_TER_WORK = 300_000


class TerLesson(LessonFamily):
    """TER's lesson: the steps above over its trace; the edit-distance and score exercises."""

    name = "ter"
    exercise_kinds = ("ter-edits", "ter-score")
    kind_titles = {"ter-edits": "TER: the word edit distance", "ter-score": "TER: the score"}
    # (kind, level) -> (the generated pair's kind, the step whose question is asked)
    PLAN = {
        ("ter-edits", "easy"): ("short", "ter-distance"), ("ter-edits", "medium"): ("reorder", "ter-distance"),
        ("ter-edits", "hard"): ("missing4", "ter-distance"),
        ("ter-score", "easy"): ("short", "ter-score"), ("ter-score", "medium"): ("missing4", "ter-score"),
        ("ter-score", "hard"): ("reorder", "ter-score"),
    }

    def steps(self, trace: dict, focus: int | None = None) -> list[Step]:
        return ter_steps(trace)

    def trace(self, dialect, options, candidate, references) -> dict:
        """The trace within a lecture's work (:data:`LECTURE_TER_WORK`): a lecture's texts need a few thousand
        units, and a link's texts cannot keep the server searching shifts for a second per view."""
        from explainer.ter.algorithm import explain_segment
        from explainer.ter.limits import Budget

        d = self.core.bind(dialect or self.core.default_dialect, **self.trace_options(dialect, options))
        return explain_segment(d, candidate, list(references), budget=Budget(
            LECTURE_TER_WORK, named="the limit of a lecture's step-by-step (explainer.teach.ter_steps."
                                    "LECTURE_TER_WORK; the Explain page's TER tab computes more)")).to_dict()

    def summary(self, trace: dict) -> dict:
        return {**super().summary(trace), "score": trace["score"], "shown": f"{trace['score']:.4f}"}

    def warnings(self, trace: dict) -> list[str]:
        return [w["message"] for w in trace.get("warnings", [])]

    def case_variant(self, dialect, options):
        return {**dict(options), "case_sensitive": False} if options.get("case_sensitive") else None

    def case_setting(self) -> str:
        return "case-insensitive (case_sensitive off)"

    def exercise_source(self, options) -> str:
        return "sacreBLEU's TER with its defaults"

    def exercise(self, index, kind, level, rng, options):
        from explainer.teach.pairs import Exercise, make_pair

        pair_kind, step_id = self.PLAN[(kind, level)]
        cand, refs = make_pair(pair_kind, level, rng)
        step = next(s for s in ter_steps(self.trace(None, options, cand, refs)) if s.id == step_id)
        return Exercise(index, kind, self.kind_titles[kind], cand, tuple(refs), step_id, None, step.question,
                        family=self.label, metric_family=self.name, options=dict(options))


LESSON = TerLesson()
