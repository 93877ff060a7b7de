"""The last three BLEU steps of a lesson for a dialect that keeps ONE reference's statistics (Google BLEU, GLEU:
the trace's ``reference_pick``), under the same step ids so that exercises, claims and the handout find them:
``bleu-precision`` (each reference alone: precision and recall of all n-grams together), ``bleu-bp`` (the reference
kept; no brevity penalty) and ``bleu-score`` (Σtp / Σmax(tpfp, tpfn)). Every number is a trace field."""
from __future__ import annotations

from typing import Any

from explainer.teach.answers import question
from explainer.teach.model import Formula, Para, Result, Step, Table, frac, num
from explainer.teach.notes import misconception, say

__all__ = ["gleu_steps"]


def _rows(pick: dict) -> tuple:
    return tuple((f"ref {x['ref'] + 1}", x["tp"], x["tpfp"], x["tpfn"], num(x["precision"] or 0.0),
                  num(x["recall"] or 0.0), "—" if x["gleu"] is None else num(x["gleu"]),
                  "kept" if x["kept"] else ("skipped" if x["skipped"] else "")) for x in pick["rows"])


_COLUMNS = ("reference", "shared n-grams tp", "candidate n-grams", "reference n-grams", "precision", "recall",
            "min = tp / max")


def _step_references(b: dict) -> Step:
    pick = b["reference_pick"]
    kept = pick["rows"][pick["index"]] if pick["index"] is not None else None
    blocks: list[Any] = [
        Para("GLEU counts the n-grams of all orders together, against each reference ALONE: precision = shared / "
             "candidate n-grams, recall = shared / reference n-grams, and the score of a reference is the smaller "
             "of the two.", "key"),
        Table(_COLUMNS + ("",), _rows(pick), (pick["index"],) if kept else ())]
    if kept is None:
        return Step("bleu-precision", "BLEU", "Each reference alone: precision and recall", tuple(blocks),
                    say("gleu-precision"), misconception("gleu-precision"), None, "gleu-precision")
    k = pick["index"]
    lines = (f"P = tp / candidate n-grams = {frac(kept['tp'], kept['tpfp'], kept['precision'] or 0.0)}",
             f"R = tp / reference n-grams = {frac(kept['tp'], kept['tpfn'], kept['recall'] or 0.0)}",
             f"min(P, R) = tp / max({kept['tpfp']}, {kept['tpfn']}) = {frac(kept['tp'], kept['n_all'], kept['gleu'])}")
    blocks.append(Formula(lines))
    q = question("gleu-min", f"Against reference {k + 1}: what is min(precision, recall)?", kept["gleu"],
                 kind="ratio", shown=frac(kept["tp"], kept["n_all"], kept["gleu"]),
                 given=(Para(f"Shared n-grams (orders together): {kept['tp']}; the candidate has {kept['tpfp']} "
                             f"n-grams, reference {k + 1} has {kept['tpfn']}."),),
                 explanation="; ".join(lines) + ".")
    low = "recall" if (kept["recall"] or 0.0) < (kept["precision"] or 0.0) else "precision"
    return Step("bleu-precision", "BLEU", "Each reference alone: precision and recall", tuple(blocks),
                say("gleu-precision", f"Here the smaller one is the {low}."), misconception("gleu-precision"), q,
                "gleu-precision")


def _step_kept(b: dict) -> Step:
    pick, comb = b["reference_pick"], b["combination"]
    blocks: list[Any] = [
        Para("GLEU keeps the reference with the highest min(precision, recall) — the first listed on a tie — and "
             "has no brevity penalty: a short candidate already loses through recall.", "key"),
        Table(_COLUMNS + ("",), _rows(pick), (pick["index"],) if pick["index"] is not None else ()),
        Para(pick["explanation"] + ".", "note"),
        Formula((f"{comb['bp_branch']}: BP = {num(comb['bp'])}",))]
    q = None
    if pick["index"] is not None and len(pick["rows"]) > 1:
        q = question("gleu-kept", "Which reference does GLEU keep? (its number)", pick["index"] + 1, kind="count",
                     given=(Table(_COLUMNS[:4], tuple(r[:4] for r in _rows(pick))),),
                     explanation=pick["explanation"] + ".")
    elif pick["index"] is not None:
        row = pick["rows"][pick["index"]]
        q = question("gleu-n-all", "How many n-grams does the denominator max(candidate n-grams, reference n-grams) "
                                   "hold?", row["n_all"], kind="count",
                     given=(Para(f"The candidate has {row['tpfp']} n-grams of orders {b['options'].get('min_len', 1)}"
                                 f"–{b['options'].get('max_len', 4)}, the reference {row['tpfn']}."),),
                     explanation=f"max({row['tpfp']}, {row['tpfn']}) = {row['n_all']}.")
    return Step("bleu-bp", "BLEU", "The reference kept (and no brevity penalty)", tuple(blocks), say("gleu-bp"),
                misconception("gleu-bp"), q, "gleu-bp")


def _step_score(b: dict) -> Step:
    comb = b["combination"]
    ratio = comb["extra"]["ratio"]
    rows = tuple((o["n"], o["matches"], o["totals"]) for o in comb["orders"])
    line = ratio["formula"]
    blocks: list[Any] = [
        Para("GLEU = Σtp / Σmax(tpfp, tpfn): the shared n-grams over the larger side's n-grams, no logs and no "
             "mean. Over a corpus both sums run over the sentences first.", "key"),
        Table(("order", "shared with the kept reference", "n-grams of the larger side"), rows,
              total=("all", ratio["numerator"], ratio["denominator"])),
        Formula((line,)),
        Result(f"Google BLEU ({b['dialect']}, 0–1)", b["score"], num(b["score"]), "bleu"),
        Para(f"Signature: {b['signature']}", "note")]
    q = question("gleu-score", "What is the GLEU score (0–1)?", b["score"], kind="ratio",
                 shown=frac(ratio["numerator"], ratio["denominator"], b["score"]) if ratio["denominator"] else "0",
                 given=(Table(("order", "shared", "larger side"), rows),), explanation=line + ".")
    return Step("bleu-score", "BLEU", "The score: one ratio of summed counts", tuple(blocks),
                say("gleu-score", f"Here GLEU = {num(b['score'])}."), misconception("gleu-score"), q, "gleu-score")


def gleu_steps(b: dict) -> list[Step]:
    """The steps after clipping for a trace with ``reference_pick``."""
    return [_step_references(b), _step_kept(b), _step_score(b)]
