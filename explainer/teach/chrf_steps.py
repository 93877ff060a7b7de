"""The chrF walkthrough as steps, read from a chrF trace's ``to_dict()`` (docs/chrf.md "Trace schema").

Order of a lecture: the texts as chrF reads them (characters, whitespace removed) → the character n-grams of one
order, counted in the candidate and the reference and clipped → precision, recall and F per order → (chrF++) word
n-grams → the reference kept when there are several → the averaging into the score. Every number is a trace
field; each step asks one "predict before you see it" question.

``explainer.teach.family_lessons.chrf_lesson(candidate, references, ...)`` builds a whole lesson (the Teach page and
the handouts render it as they render the BLEU and ROUGE lessons).
"""
from __future__ import annotations

from typing import Any

from explainer.teach.answers import question
from explainer.teach.family import LessonFamily
from explainer.teach.model import Chart, Chip, Formula, Para, Question, Result, Step, Table, TokenRow, frac, num

__all__ = ["chrf_steps", "focus_order", "order_question", "NOTES", "MAX_ROWS", "MAX_CHIPS", "LESSON",
           "ChrfLesson"]

MAX_ROWS = 400      # n-gram table rows in a step; the trace download has every one
MAX_CHIPS = 160     # characters shown as chips per text

#: step id -> (what to say, the common misconception)
NOTES = {
    "chrf-text": (
        "chrF reads characters: sacreBLEU removes the whitespace first, so 'the cat' and 'thecat' give the same "
        "character n-grams; case matters unless lowercase is on.",
        "“chrF needs a tokenizer like BLEU.” It needs none: every character n-gram of the text without spaces "
        "counts, so it is robust to tokenization and rewards partly right words (morphology)."),
    "chrf-ngrams": (
        "Each character n-gram of the candidate counts at most as often as it occurs in the reference: the same "
        "clipping as BLEU's, on characters.",
        "“chrF counts characters once per word.” It counts every position: 'the the' has the bigram 'th' twice."),
    "chrf-prf": (
        "Per order, precision divides the matches by the candidate's n-grams and recall by the reference's; F-beta "
        "weighs recall beta times as much as precision (beta = 2 in sacreBLEU's chrF2, 3 in NLTK).",
        "“chrF is a precision like BLEU.” It is an F-score: missing reference material (low recall) costs more than "
        "extra material, so a short, safe output does not win."),
    "chrf-words": (
        "chrF++ adds word unigrams and bigrams to the character orders, as more orders of the same average. Words "
        "are split at spaces and one punctuation character is cut off the end (or the start) of each word.",
        "“chrF++ tokenizes like BLEU.” Its word splitting is cruder: '(hi)' gives '(hi' and ')'."),
    "chrf-refs": (
        "With several references sacreBLEU scores the candidate against each one separately and keeps the "
        "statistics of the best-scoring one (the first on a tie); NLTK takes a single reference.",
        "“The references are pooled.” They are not: one reference is kept per segment, and the corpus sums the "
        "kept statistics."),
    "chrf-average": (
        "sacreBLEU averages precision and recall over the orders that have candidate and reference n-grams "
        "(effective order) and combines the two averages into one F; with eps_smoothing (and in NLTK) the score "
        "is the mean of the per-order F.",
        "“The chrF score is the mean of the per-order F.” Not in sacreBLEU's default: it is the F of the mean P "
        "and mean R, which is a different number."),
}


def _say(sid: str) -> str:
    return NOTES[sid][0]


def _mis(sid: str) -> str:
    return NOTES[sid][1]


def focus_order(t: dict) -> int:
    """The index of the character order a lesson looks at closely: the lowest one where clipping removes a count
    (the point of the step), else bigrams (or unigrams)."""
    k = t["chosen_reference"]
    for i, o in enumerate(t["order_traces"]):
        if o["kind"] == "char" and any(r["count"] > r["matched"][k] and r["ref_counts"][k] > 0 for r in o["ngrams"]):
            return i
    chars = [i for i, o in enumerate(t["order_traces"]) if o["kind"] == "char"]
    return chars[1] if len(chars) > 1 else chars[0]


def _label(o: dict) -> str:
    return f"{'character' if o['kind'] == 'char' else 'word'} {o['n']}-grams"


def _chips(label: str, units: str) -> TokenRow:
    shown = units[:MAX_CHIPS]
    more = f" (the first {MAX_CHIPS} shown)" if len(units) > MAX_CHIPS else ""
    return TokenRow(label, tuple(Chip(c, "", str(i + 1)) for i, c in enumerate(shown)),
                    f"{len(units)} characters{more}")


def _step_text(t: dict) -> Step:
    c = t["candidate"]
    k = t["chosen_reference"]
    blocks: list[Any] = [Para(_say("chrf-text"), "key"), _chips("Candidate", c["units"])]
    for j, r in enumerate(t["references"]):
        blocks.append(_chips(f"Reference {j + 1}" + (" (kept)" if j == k and len(t["references"]) > 1 else ""),
                             r["units"]))
    for ch in c["changes"]:
        blocks.append(Para(f"{ch['step']}: {ch['detail']}", "note"))
    q = question("chrf-units", "How many characters does chrF read in the candidate?", len(c["units"]),
                 kind="count", given=(Para(f"Candidate: {c['text']}"),),
                 explanation=f"The candidate without whitespace has {len(c['units'])} characters.")
    return Step("chrf-text", "chrF", "The text as chrF reads it", tuple(blocks), _say("chrf-text"),
                _mis("chrf-text"), q)


def _ngram_table(o: dict, k: int) -> Table:
    rows = tuple((r["ngram"], r["count"], r["ref_counts"][k], r["matched"][k]) for r in o["ngrams"][:MAX_ROWS])
    total = ("total", sum(r["count"] for r in o["ngrams"]), "", sum(r["matched"][k] for r in o["ngrams"]))
    emph = tuple(i for i, r in enumerate(o["ngrams"][:MAX_ROWS]) if r["count"] > r["matched"][k])
    cap = "" if len(o["ngrams"]) <= MAX_ROWS else f"the first {MAX_ROWS} of {len(o['ngrams'])} n-grams"
    return Table(("n-gram", "in candidate", f"in reference {k + 1}", "matched (clipped)"), rows, emph, cap, total)


def _step_ngrams(t: dict, i: int) -> Step:
    o = t["order_traces"][i]
    k = t["chosen_reference"]
    comb = t["combination"]["orders"][i]
    blocks = [Para(_say("chrf-ngrams"), "key"), _ngram_table(o, k),
              Formula((f"matched {_label(o)}: {num(comb['match'])} of {num(comb['hyp'])} in the candidate and "
                       f"{num(comb['ref'])} in the reference",))]
    clipped = [r for r in o["ngrams"] if r["count"] > r["matched"][k]]
    if clipped:
        r = clipped[0]
        blocks.append(Para(f"'{r['ngram']}' occurs {r['count']} times in the candidate but {r['ref_counts'][k]} "
                           f"times in the reference: it counts {r['matched'][k]} times.", "note"))
    q = question(f"chrf-match-{o['kind']}{o['n']}", f"How many {_label(o)} of the candidate match the reference "
                 "(each clipped at its count in the reference)?", comb["match"], kind="count",
                 given=(_chips("Candidate", t["candidate"]["units"]),
                        _chips(f"Reference {k + 1}", t["references"][k]["units"])),
                 explanation=f"Summing min(candidate count, reference count) over the {len(o['ngrams'])} distinct "
                             f"{_label(o)} gives {num(comb['match'])}.")
    return Step("chrf-ngrams", "chrF", f"Counting and clipping {_label(o)}", tuple(blocks), _say("chrf-ngrams"),
                _mis("chrf-ngrams"), q)


def _step_prf(t: dict, i: int) -> Step:
    orders = t["combination"]["orders"]
    beta = t["combination"]["beta"]
    rows = tuple((_label(o), num(o["hyp"]), num(o["ref"]), num(o["match"]), num(o["precision"]), num(o["recall"]),
                  num(o["f"]), "yes" if o["included"] else "no") for o in orders)
    o = orders[i]
    lines = (f"P = {o['precision_note']}", f"R = {o['recall_note']}", f"F{num(beta)} = {o['f_note']}")
    # the axis names each order briefly ("chr 2", "word 1"): "character 2-grams" under each group overlapped
    chart = [{"label": _label(x), "short": f"{'chr' if x['kind'] == 'char' else 'word'} {x['n']}", "p": x["precision"],
              "r": x["recall"], "f": x["f"]} for x in orders]
    blocks = [Para(_say("chrf-prf"), "key"),
              Table(("order", "cand. n-grams", "ref. n-grams", "matched", "P", "R", "F", "in the average"), rows,
                    (i,)),
              Formula(lines),
              Chart("prf_bars", {"rows": chart}, "Precision, recall and F per order: " + "; ".join(
                  f"{c['label']} P {num(c['p'])} R {num(c['r'])} F {num(c['f'])}" for c in chart))]
    q = question(f"chrf-recall-{o['kind']}{o['n']}", f"What is the recall of the {_label(o)}?", o["recall"],
                 kind="ratio", shown=frac(o["match"], o["ref"], o["recall"]) if o["ref"] else num(o["recall"]),
                 given=(Table(("order", "matched", "cand. n-grams", "ref. n-grams"),
                              ((_label(o), num(o["match"]), num(o["hyp"]), num(o["ref"])),)),),
                 explanation=f"Recall divides the matches by the reference's n-grams: R = {o['recall_note']}.")
    return Step("chrf-prf", "chrF", "Precision, recall and F per order", tuple(blocks), _say("chrf-prf"),
                _mis("chrf-prf"), q)


def _step_words(t: dict) -> Step | None:
    words = [i for i, o in enumerate(t["order_traces"]) if o["kind"] == "word"]
    if not words:
        return None
    i = words[0]
    k = t["chosen_reference"]
    o = t["order_traces"][i]
    cand_words = t["candidate"]["words"]
    blocks = [Para(_say("chrf-words"), "key"),
              TokenRow("Candidate words", tuple(Chip(w) for w in cand_words[:MAX_CHIPS]), f"{len(cand_words)} words"),
              _ngram_table(o, k)]
    comb = t["combination"]["orders"][i]
    q = question("chrf-word-match", "How many word unigrams of the candidate match the reference?", comb["match"],
                 kind="count", given=(TokenRow("Candidate words", tuple(Chip(w) for w in cand_words[:MAX_CHIPS])),),
                 explanation=f"min(candidate count, reference count) summed over the words: {num(comb['match'])}.")
    return Step("chrf-words", "chrF", "chrF++: word n-grams too", tuple(blocks), _say("chrf-words"),
                _mis("chrf-words"), q)


def _step_refs(t: dict) -> Step | None:
    if len(t["references"]) < 2:
        return None
    k = t["chosen_reference"]
    rows = tuple((j + 1, r["text"], num(s), "kept" if j == k else "")
                 for j, (r, s) in enumerate(zip(t["references"], t["reference_scores"])))
    blocks = [Para(_say("chrf-refs"), "key"), Table(("reference", "text", "score", ""), rows, (k,))]
    q = question("chrf-kept", "Which reference does sacreBLEU keep (its number)?", k + 1, kind="count",
                 given=(Table(("reference", "score"), tuple((j + 1, num(s)) for j, s in
                                                             enumerate(t["reference_scores"]))),),
                 explanation=f"Reference {k + 1} has the best score ({num(t['reference_scores'][k])}).")
    return Step("chrf-refs", "chrF", "Several references: the best one is kept", tuple(blocks), _say("chrf-refs"),
                _mis("chrf-refs"), q)


def _step_average(t: dict) -> Step:
    c = t["combination"]
    lines = [c["explanation"]]
    if c["averaging"] == "effective-order":
        inc = [o for o in c["orders"] if o["included"]]
        lines.append(f"mean P = ({' + '.join(num(o['precision']) for o in inc)}) / {len(inc)} = "
                     f"{num(c['avg_precision'])}")
        lines.append(f"mean R = ({' + '.join(num(o['recall']) for o in inc)}) / {len(inc)} = {num(c['avg_recall'])}")
    lines.append(c["formula"])
    shown = f"{t['native_score']:.4f}" if t["scale"] == 100 else f"{t['native_score']:.6f}"
    blocks = [Para(_say("chrf-average"), "key"), Formula(tuple(lines)),
              Result(t["name"], t["native_score"], shown, "chrf")]
    given = (Table(("mean P", "mean R", "beta"), ((num(c["avg_precision"]), num(c["avg_recall"]),
                                                   num(c["beta"])),)),) if c["averaging"] == "effective-order" else (
        Table(("order", "F"), tuple((o["kind"] + " " + str(o["n"]), num(o["f"])) for o in c["orders"])),)
    q = question("chrf-score", f"What is the {t['name']} score?", t["native_score"], kind="score", scale=t["scale"],
                 shown=shown, given=given, explanation=c["formula"])
    return Step("chrf-average", "chrF", "From the orders to the score", tuple(blocks), _say("chrf-average"),
                _mis("chrf-average"), q)


def chrf_steps(t: dict, focus: int | None = None) -> list[Step]:
    """The walkthrough of one chrF trace (``ChrfTrace.to_dict()``); ``focus``: the order index looked at closely."""
    i = focus_order(t) if focus is None else focus
    steps = [_step_text(t), _step_ngrams(t, i), _step_prf(t, i)]
    steps += [s for s in (_step_words(t), _step_refs(t)) if s is not None]
    steps.append(_step_average(t))
    return steps


# ------------------------------------------------------------------------------------------- the lesson
class ChrfLesson(LessonFamily):
    """chrF's lesson: the steps above over its trace; the matched-n-gram, P / R / F and score exercises."""

    name = "chrf"
    focus_what = "the character n-gram order the chrF steps follow"
    exercise_kinds = ("chrf-match", "chrf-prf", "chrf-score")
    kind_titles = {"chrf-match": "chrF: matched n-grams", "chrf-prf": "chrF: P, R and F of an order",
                   "chrf-score": "chrF: the score"}
    # (kind, level) -> (the generated pair's kind, what is asked: a step id, or "precision" / "recall" / "f" of the
    # focus order, the character order followed: None = the lesson's own choice, where clipping matters)
    PLAN = {
        ("chrf-match", "easy"): ("clip", "chrf-ngrams", None), ("chrf-match", "medium"): ("missing4", "chrf-ngrams", 2),
        ("chrf-match", "hard"): ("clip", "chrf-words", 3),
        ("chrf-prf", "easy"): ("short", "recall", None), ("chrf-prf", "medium"): ("missing4", "precision", 2),
        ("chrf-prf", "hard"): ("clip", "f", 3),
        ("chrf-score", "easy"): ("short", "chrf-average", None),
        ("chrf-score", "medium"): ("missing4", "chrf-average", None),
        ("chrf-score", "hard"): ("clip", "chrf-average", None),
    }

    def steps(self, trace: dict, focus: int | None = None) -> list[Step]:
        chars = sum(1 for o in trace["order_traces"] if o["kind"] == "char")
        return chrf_steps(trace, focus - 1 if isinstance(focus, int) and 1 <= focus <= chars else None)

    def max_focus(self, dialect, options) -> int:
        try:
            d = self.core.bind(dialect or self.core.default_dialect, **dict(options))
        except (ValueError, TypeError, KeyError):
            return 0
        return sum(1 for kind, _ in d.orders if kind == "char")

    def summary(self, trace: dict) -> dict:
        shown = f"{trace['native_score']:.4f}" if trace["scale"] == 100 else f"{trace['native_score']:.6f}"
        return {**super().summary(trace), "score": trace["native_score"], "scale": trace["scale"], "shown": shown,
                "name": trace["name"]}

    def warnings(self, trace: dict) -> list[str]:
        return [w["message"] for w in trace.get("warnings", [])]

    def exercise_options(self, dialect, options) -> dict:
        # chrF++ (word n-grams) is a lecture's choice its exercises keep; the other options stay the library's
        return {"word_order": options["word_order"]} if options.get("word_order") else {}

    def exercise_source(self, options) -> str:
        if options.get("word_order"):
            return f"sacreBLEU's CHRF with word_order={options['word_order']} (chrF2++), its other defaults"
        return "sacreBLEU's CHRF with its defaults"

    def exercise(self, index, kind, level, rng, options):
        """A chrF exercise: the chrF lesson's question (or P / R / F of its focus order) about a generated pair."""
        from explainer.teach.pairs import Exercise, make_pair

        pair_kind, asked, order = self.PLAN[(kind, level)]
        cand, refs = make_pair(pair_kind, level, rng)
        t = self.trace(None, options, cand, refs)
        focus = focus_order(t) if order is None else order - 1
        steps = {s.id: s for s in chrf_steps(t, focus)}
        if asked == "chrf-words" and asked not in steps:
            asked = "chrf-ngrams"          # chrF without word n-grams: the character order's matches
        if asked in steps:
            q, step_id = steps[asked].question, asked
        else:
            q, step_id = order_question(t, focus, asked), "chrf-prf"
        return Exercise(index, kind, self.kind_titles[kind], cand, tuple(refs), step_id, focus + 1, q,
                        family=self.label, metric_family=self.name, options=dict(options))


def order_question(t: dict, i: int, measure: str) -> Question:
    """Precision, recall or F-β of order ``i`` (the trace's numbers; sacreBLEU's for chrF2)."""
    o = t["combination"]["orders"][i]
    beta = num(t["combination"]["beta"])
    label = _label(o)
    given = (Table(("order", "matched", "cand. n-grams", "ref. n-grams"),
                   ((label, num(o["match"]), num(o["hyp"]), num(o["ref"])),)),)
    if measure == "precision":
        return question(f"chrf-precision-{o['kind']}{o['n']}", f"What is the precision of the {label}?",
                        o["precision"], kind="ratio", shown=frac(o["match"], o["hyp"], o["precision"]) if o["hyp"]
                        else num(o["precision"]), given=given,
                        explanation=f"Precision divides the matches by the candidate's n-grams: P = "
                                    f"{o['precision_note']}.")
    if measure == "recall":
        return question(f"chrf-recall-{o['kind']}{o['n']}", f"What is the recall of the {label}?", o["recall"],
                        kind="ratio", shown=frac(o["match"], o["ref"], o["recall"]) if o["ref"] else num(o["recall"]),
                        given=given, explanation=f"Recall divides the matches by the reference's n-grams: R = "
                                                 f"{o['recall_note']}.")
    return question(f"chrf-f-{o['kind']}{o['n']}", f"What is F{beta} (β = {beta}) of the {label}?", o["f"],
                    kind="ratio", shown=num(o["f"]), given=given,
                    explanation=f"P = {o['precision_note']}, R = {o['recall_note']}; F{beta} = (1 + β²)·P·R / "
                                f"(β²·P + R) = {o['f_note']}.")


LESSON = ChrfLesson()
