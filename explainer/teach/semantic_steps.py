"""The semantic walkthrough as steps — "what n-grams miss" — read from the STS and BERTScore traces' ``to_dict()``
(docs/semantic.md "Trace schema").

Order of a lecture: the texts as the model reads them (word pieces) → STS: one vector per text and their cosine →
BERTScore: every piece against every piece, the greedy matches → its precision, recall and F → what n-grams miss,
on the course's paraphrase ("The feline rested on the rug") and word-order ("The man bit the dog") pairs: BLEU
without smoothing against STS and BERTScore → what meaning metrics miss too (negation, numbers). Every number is a
trace field (or sacreBLEU's BLEU, computed here); each step asks one "predict before you see it" question.

``semantic_lesson(candidate, references, ...)`` builds the whole lesson (the Teach page and the handouts render it
as they render the other lessons).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

from explainer.teach.answers import question
from explainer.teach.family import LessonFamily
from explainer.teach.lesson_size import check_size
from explainer.teach.model import Chip, Formula, Lesson, Para, Result, Step, Table, TokenRow, num

__all__ = ["semantic_steps", "semantic_lesson", "contrast_rows", "COURSE_PAIRS", "NOTES", "MAX_CHIPS", "MAX_ROWS",
           "LESSON", "SemanticLesson"]

MAX_CHIPS = 160     # pieces shown as chips per text
MAX_ROWS = 200      # pieces listed in a table

#: the course's pairs: (what, candidate, reference)
COURSE_PAIRS = (("paraphrase", "The feline rested on the rug", "The cat sat on the mat"),
                ("word order", "The man bit the dog", "The dog bit the man"))

#: step id -> (what to say, the common misconception)
NOTES = {
    "semantic-pieces": (
        "The model reads word pieces, not words: a word it does not know whole is split into known pieces, '##' "
        "marking a piece that continues a word; [CLS] and [SEP] are added at the ends. The text is lowercased "
        "and accents are removed first.",
        "“The model sees the words as written.” It sees pieces of a 30,522-entry vocabulary: 'feline' may be one "
        "piece, a rare name several, an emoji [UNK]."),
    "semantic-sts": (
        "STS turns each text into one vector: the average of its pieces' vectors (the specials included), scaled "
        "to length 1. The score is the cosine of the two vectors: 1 for the same direction, 0 for unrelated.",
        "“STS compares the words.” It compares two averages: everything about the words' order and roles is "
        "folded into one point before the comparison."),
    "semantic-matrix": (
        "BERTScore keeps one vector per piece, each shaped by its neighbours, and compares every candidate piece "
        "with every reference piece: a table of cosines. Each piece then takes its best match on the other side, "
        "greedily: two pieces may pick the same partner.",
        "“BERTScore aligns the texts one to one, like the LCS.” Greedy matching lets many pieces match the same "
        "piece, and a piece may match [SEP]."),
    "semantic-prf": (
        "Precision averages the candidate pieces' best cosines, recall the reference pieces' (idf weights, when "
        "on, make rare pieces count more; [CLS] and [SEP] weigh 0). F = 2PR / (P + R).",
        "“A BERTScore of 0.54 means half the meaning is there.” With this model, unrelated sentences already "
        "score well above 0: the number only means something beside other numbers from the same model."),
    "semantic-ngrams": (
        "BLEU (no smoothing) gives the paraphrase 0, since no 3- or 4-gram is shared, and the swapped roles 0 too. "
        "The meaning metrics give the paraphrase some credit — and give the swapped roles almost full marks: they "
        "do not see who did what to whom either.",
        "“Semantic metrics fix what n-grams miss.” They fix synonyms, partly, and miss word order as badly as "
        "bag-of-words counts."),
    "semantic-blind": (
        "Negation and numbers change the meaning with one piece; the other pieces still find their twins, so "
        "the scores stay high. Report what the metric does, not what we hope it does.",
        "“A high semantic score means the same meaning.” It means similar pieces in similar contexts."),
}


def _say(sid: str) -> str:
    return NOTES[sid][0]


def _mis(sid: str) -> str:
    return NOTES[sid][1]


def _chips(label: str, text: dict) -> TokenRow:
    pieces = text["pieces"]
    shown = pieces[:MAX_CHIPS]
    more = f" (the first {MAX_CHIPS} shown)" if len(pieces) > MAX_CHIPS else ""
    chips = tuple(Chip(p["piece"], "match" if p["special"] else ("clip" if p["piece"].startswith("##") else ""),
                       str(i), "added by the tokenizer" if p["special"] else (
                           "continues the word before" if p["piece"].startswith("##") else ""))
                  for i, p in enumerate(shown))
    trunc = f"; truncated: {text['total_pieces']} pieces, the first {text['max_pieces'] - 2} read" \
        if text["truncated"] else ""
    return TokenRow(label, chips, f"{len(pieces) - 2} pieces + [CLS] and [SEP]{more}{trunc}")


def _step_pieces(sts: dict) -> Step:
    c = sts["candidate"]
    blocks: list[Any] = [Para(_say("semantic-pieces"), "key"), _chips("Candidate", c)]
    blocks += [_chips(f"Reference {k + 1}", r) for k, r in enumerate(sts["references"])]
    split = [p["piece"] for p in c["pieces"] if p["piece"].startswith("##")]
    if split:
        blocks.append(Para(f"{len(split)} piece(s) of the candidate continue a word ({', '.join(split[:5])}).",
                           "note"))
    n = len(c["pieces"]) - 2
    q = question("semantic-pieces", "How many word pieces does the model read in the candidate (without [CLS] and "
                 "[SEP])?", n, kind="count", given=(Para(f"Candidate: {c['text']}"),),
                 explanation=f"The tokenizer splits the candidate into {n} pieces: "
                             f"{' '.join(p['piece'] for p in c['pieces'][1:-1][:30])}.")
    return Step("semantic-pieces", "Semantic", "The texts as the model reads them", tuple(blocks),
                _say("semantic-pieces"), _mis("semantic-pieces"), q)


def _step_sts(sts: dict) -> Step:
    pools = [("candidate", sts["candidate_pooling"])] + [
        (f"reference {k + 1}", p) for k, p in enumerate(sts["reference_pooling"])]
    k = sts["chosen_reference"]
    rows = tuple((k2 + 1, num(c), "kept" if k2 == k else "") for k2, c in enumerate(sts["cosines"]))
    blocks = [Para(_say("semantic-sts"), "key"),
              Table(("text", "piece vectors averaged", "length before scaling"),
                    tuple((w, p["n_pieces"], num(p["norm"])) for w, p in pools)),
              Formula(tuple(sts["cosine_formulas"]) + (sts["formula"],)),
              Table(("reference", "cosine", ""), rows, (k,)),
              Result("STS", sts["score"], f"{sts['score']:.4f}", "sts")]
    q = question("semantic-pooled", "How many piece vectors are averaged into the candidate's sentence vector?",
                 sts["candidate_pooling"]["n_pieces"], kind="count", given=(_chips("Candidate", sts["candidate"]),),
                 explanation=f"Mean pooling averages every piece the model read, [CLS] and [SEP] included: "
                             f"{sts['candidate_pooling']['n_pieces']}.")
    return Step("semantic-sts", "Semantic", "STS: one vector per text, one cosine", tuple(blocks),
                _say("semantic-sts"), _mis("semantic-sts"), q)


def _focus_piece(bs: dict, k: int) -> int:
    """The candidate piece a question asks about: the content piece with the lowest best cosine (the one the
    reference explains worst), else the first content piece."""
    pair = bs["pairs"][k]
    cand = bs["candidate"]["pieces"]
    content = [i for i, p in enumerate(cand) if not p["special"]]
    if not content:
        return 0
    return min(content, key=lambda i: pair["candidate_best_cosine"][i])


def _step_matrix(bs: dict) -> Step:
    k = bs["chosen"]["f1"]
    pair = bs["pairs"][k]
    cand, ref = bs["candidate"]["pieces"], bs["references"][k]["pieces"]
    rows = tuple((i, p["piece"], f"{j}: {ref[j]['piece']}", num(s), num(w))
                 for i, (p, j, s, w) in enumerate(zip(cand, pair["candidate_best"], pair["candidate_best_cosine"],
                                                      pair["candidate_weights"])))[:MAX_ROWS]
    i = _focus_piece(bs, k)
    row = pair["similarity"][i]
    blocks = [Para(_say("semantic-matrix"), "key"),
              Table(("#", "candidate piece", f"best piece of reference {k + 1}", "cosine", "weight"), rows, (i,),
                    "" if len(cand) <= MAX_ROWS else f"the first {MAX_ROWS} of {len(cand)} pieces")]
    q = question("semantic-best", f"Candidate piece {i} ‘{cand[i]['piece']}’: what is its best cosine with a piece "
                 f"of reference {k + 1}?", pair["candidate_best_cosine"][i], kind="ratio",
                 given=(Table(("reference piece", "cosine with ‘" + cand[i]["piece"] + "’"),
                              tuple((f"{j}: {p['piece']}", num(v)) for j, (p, v) in enumerate(zip(ref, row)))),),
                 explanation=f"The largest cosine in its row is {num(pair['candidate_best_cosine'][i])}, with "
                             f"‘{ref[pair['candidate_best'][i]]['piece']}’ (piece {pair['candidate_best'][i]}).")
    return Step("semantic-matrix", "Semantic", "BERTScore: every piece against every piece", tuple(blocks),
                _say("semantic-matrix"), _mis("semantic-matrix"), q)


def _step_prf(bs: dict) -> Step:
    k = bs["chosen"]["f1"]
    f = bs["pairs"][k]["formulas"]
    blocks: list[Any] = [Para(_say("semantic-prf"), "key"), Formula((f["precision"], f["recall"], f["f1"]))]
    blocks += [Para(n, "note") for n in f["notes"]]
    if len(bs["pairs"]) > 1:
        blocks.append(Formula(tuple(bs["kept_formulas"].values())))
    if bs["idf"] is not None:
        blocks.append(Table(("piece", "references containing it", "idf"),
                            tuple((r["piece"], r["count"], num(r["idf"])) for r in bs["idf"]["pieces"][:MAX_ROWS])))
    blocks.append(Result("BERTScore F", bs["f1"], f"{bs['f1']:.4f}", "bertscore_f1"))
    p, r = bs["pairs"][k]["precision"], bs["pairs"][k]["recall"]
    q = question("semantic-f", "With these P and R, what is F?", bs["pairs"][k]["f1"], kind="ratio",
                 given=(Table(("P", "R"), ((num(p), num(r)),)),), explanation=f["f1"])
    return Step("semantic-prf", "Semantic", "BERTScore: precision, recall and F", tuple(blocks),
                _say("semantic-prf"), _mis("semantic-prf"), q)


def contrast_rows(pairs: Sequence[tuple[str, str, str]] = COURSE_PAIRS) -> list[dict]:
    """Per pair: sacreBLEU's sentence BLEU without smoothing (0-100), STS and BERTScore F, all computed here."""
    from explainer.bleu import score_bleu
    from explainer.semantic import score_semantic

    out = []
    for what, cand, ref in pairs:
        out.append({"what": what, "candidate": cand, "reference": ref,
                    "bleu": score_bleu(cand, [ref], dialect="sacrebleu", smooth_method="none").score,
                    "sts": score_semantic(cand, [ref], dialect="sts").values["sts"],
                    "bertscore_f1": score_semantic(cand, [ref], dialect="bertscore").values["f1"]})
    return out


def _contrast_table(rows: list[dict]) -> Table:
    return Table(("pair", "candidate", "reference", "BLEU (no smoothing)", "STS", "BERTScore F"),
                 tuple((r["what"], r["candidate"], r["reference"], num(r["bleu"]), num(r["sts"]),
                        num(r["bertscore_f1"])) for r in rows))


def _step_ngrams(rows: list[dict]) -> Step:
    best = max(range(len(rows)), key=lambda i: rows[i]["sts"])
    q = question("semantic-which", "Which pair gets the higher STS: 1 (the paraphrase) or 2 (the same words with "
                 "the roles swapped)?", best + 1, kind="count",
                 given=(Table(("pair", "candidate", "reference"),
                              tuple((i + 1, r["candidate"], r["reference"]) for i, r in enumerate(rows))),),
                 explanation=f"Pair {best + 1}: STS {num(rows[best]['sts'])} against "
                             f"{num(rows[1 - best]['sts'])}.")
    return Step("semantic-ngrams", "Semantic", "What n-grams miss — and what meaning metrics miss",
                (Para(_say("semantic-ngrams"), "key"), _contrast_table(rows)), _say("semantic-ngrams"),
                _mis("semantic-ngrams"), q)


def _step_blind(rows: list[dict]) -> Step:
    q = question("semantic-negation", "What STS does the negated sentence get against the original?",
                 rows[0]["sts"], kind="ratio",
                 given=(Table(("candidate", "reference"), ((rows[0]["candidate"], rows[0]["reference"]),)),),
                 explanation=f"STS {num(rows[0]['sts'])}: one added piece barely moves the average vector.")
    return Step("semantic-blind", "Semantic", "Blind spots: negation and numbers",
                (Para(_say("semantic-blind"), "key"), _contrast_table(rows)), _say("semantic-blind"),
                _mis("semantic-blind"), q)


def semantic_steps(sts: dict, bs: dict, contrast: list[dict], blind: list[dict]) -> list[Step]:
    """The walkthrough: ``sts`` / ``bs`` the traces' ``to_dict()``; ``contrast`` and ``blind`` rows of
    :func:`contrast_rows` (the course's pairs, the blind spots)."""
    return [_step_pieces(sts), _step_sts(sts), _step_matrix(bs), _step_prf(bs), _step_ngrams(contrast),
            _step_blind(blind)]


def _traces(candidate: str, references: Sequence[str], idf: bool) -> dict:
    """Both dialects' traces of the texts and the course's pairs: what :func:`semantic_steps` reads."""
    from explainer.semantic import explain_semantic
    from explainer.semantic.notes import BLIND_SPOTS

    sts = explain_semantic(candidate, list(references), dialect="sts").to_dict()
    bs = explain_semantic(candidate, list(references), dialect="bertscore", idf=idf).to_dict()
    shown = {frozenset((c, r)) for _, c, r in COURSE_PAIRS}      # the word-order pair is already in the contrast
    blind = contrast_rows(tuple((w, c, r) for w, c, r, _ in BLIND_SPOTS if frozenset((c, r)) not in shown))
    return {"candidate": sts["candidate"], "references": sts["references"], "sentence": sts, "pieces": bs,
            "contrast": contrast_rows(), "blind": blind}


def semantic_lesson(candidate: str, references: Sequence[str], *, idf: bool = False, title: str = "") -> Lesson:
    """The semantic lesson for one candidate and its references (limited as every lesson's texts:
    ``explainer.teach.lesson_size.MAX_LESSON_CHARS``), then the course's pairs; ValueError for bad input."""
    check_size(candidate, references)
    t = _traces(candidate, references, idf)
    return Lesson(title=title or "What n-grams miss: meaning, and its limits", candidate=candidate,
                  references=list(references), steps=semantic_steps(t["sentence"], t["pieces"], t["contrast"],
                                                                    t["blind"]),
                  notes=LESSON.warnings(t))


# ------------------------------------------------------------------------------------------- the lesson
class SemanticLesson(LessonFamily):
    """The meaning scores' lesson in a lecture: both dialects' traces (STS and BERTScore, whichever the lecture's
    dialect is: the steps teach both) and the course's pairs. It asks no exercise set (its numbers are a model's,
    not countable by hand)."""

    name = "semantic"

    def trace(self, dialect: str | None, options: Mapping[str, Any], candidate: str,
              references: Sequence[str]) -> dict:
        return _traces(candidate, references, bool(options.get("idf")))

    def steps(self, trace: dict, focus: int | None = None) -> list[Step]:
        # in a lecture each step is headed by its section's name (the core family's label)
        return [dataclasses.replace(s, family=self.label)
                for s in semantic_steps(trace["sentence"], trace["pieces"], trace["contrast"], trace["blind"])]

    def implementation(self, trace: dict) -> str:
        core = self.core
        return " and ".join(core.dialects[trace[d]["dialect"]].label for d in ("sentence", "pieces"))

    def summary(self, trace: dict) -> dict:
        return {**super().summary(trace), "score": trace["pieces"]["f1"], "sts": trace["sentence"]["score"],
                "shown": f"{trace['pieces']['f1']:.4f}",
                "signature": " / ".join(trace[d]["signature"] for d in ("sentence", "pieces"))}

    def warnings(self, trace: dict) -> list[str]:
        return [w["message"] for w in trace["sentence"]["warnings"] + trace["pieces"]["warnings"]]

    def case_variant(self, dialect, options):
        return None     # the model lowercases every text: case never differs


LESSON = SemanticLesson()
