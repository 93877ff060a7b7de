"""The BLEU-and-ROUGE lecture every earlier version taught: its closing step (what each of the two rewarded on the
example), the pair step the registry places after ROUGE's section. The functions that build that lecture are in
:mod:`explainer.teach.family_lessons`."""
from __future__ import annotations

from explainer.teach.bleu_steps import bleu_headline
from explainer.teach.model import Para, Step, Table, num
from explainer.teach.notes import misconception, say

__all__ = ["compare_step"]


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
