"""The geometric-mean step as the textbook writes it: Σ w_n log p_n with 0–1 precisions (negative logs), beside
sacreBLEU's log-of-percent form; both give sacreBLEU's own score."""
from __future__ import annotations

import math

import pytest

from explainer.examples import EXAMPLES
from explainer.teach import build_lesson
from explainer.teach.bleu_steps import textbook_logs
from explainer.teach.model import Formula, Table, num


def _cases():
    return [(e.id, e.candidate, list(e.references)) for e in EXAMPLES][:8] + [
        ("own", "the the the the cat sat on the mat today", ["the cat sat on the mat"])]


@pytest.mark.parametrize("eid,cand,refs", _cases())
def test_textbook_logs_give_sacrebleus_score(eid, cand, refs):
    from sacrebleu.metrics import BLEU

    real = BLEU().corpus_score([cand], [[r] for r in refs])
    lesson = build_lesson(cand, refs)
    step = next(s for s in lesson.steps if s.id == "bleu-score")
    if real.score == 0:
        return
    from explainer.bleu import explain_bleu

    comb = explain_bleu(cand, refs, dialect="sacrebleu").to_dict()["combination"]
    terms = textbook_logs(comb)
    used = [t for t in terms if t is not None]
    assert all(t <= 0 for t in used)                          # logs of 0–1 precisions are negative
    assert real.bp * math.exp(sum(used)) * 100 == pytest.approx(real.score, abs=1e-9)
    table = next(b for b in step.blocks if isinstance(b, Table))
    assert "w_n · log p_n" in table.columns and any("sacreBLEU" in c for c in table.columns)
    text = " ".join(" ".join(b.lines) for b in step.blocks if isinstance(b, Formula))
    assert text.index("Textbook: Σ w_n·log p_n") < text.index("sacreBLEU: Σ log(100·p_n)")
    assert f"= {num(sum(used))} → exp = {num(math.exp(sum(used)))} (on 0–1)" in text
    assert f"{num(sum(used))} + log 100" in text


@pytest.mark.parametrize("eid,cand,refs", _cases())
def test_the_closing_step_compares_bleu_and_rouge_with_the_libraries_numbers(eid, cand, refs):
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import BLEU

    real = BLEU().corpus_score([cand], [[r] for r in refs])
    rl = rouge_scorer.RougeScorer(["rouge1", "rougeL"]).score_multi(refs, cand)
    lesson = build_lesson(cand, refs)
    last = lesson.steps[-1]
    assert last.id == "bleu-vs-rouge" and last.say and last.misconception
    table = next(b for b in last.blocks if isinstance(b, Table))
    cells = " ".join(str(c) for row in table.rows for c in row)
    assert f"p_1 = {num(real.precisions[0] / 100)}" in cells
    assert f"BP = {num(real.bp)}" in cells
    assert f"F = {num(rl['rouge1'].fmeasure)}" in cells and f"ROUGE-L F = {num(rl['rougeL'].fmeasure)}" in cells
    assert lesson.bleu_summary["shown"] in cells


def test_a_lesson_with_pooled_references_of_the_textbook_dialect():
    """Found by the Teach page's random sequences: the textbook ROUGE with multi_ref=pool records pooled counts
    without a rule name, and the lesson crashed (KeyError 'rule')."""
    from explainer.rouge import explain_rouge

    cand, refs = "the cat sat on the mat", ["the cat sat", "a cat was on the mat"]
    lesson = build_lesson(cand, refs, rouge_dialect="textbook", rouge_options={"multi_ref": "pool"})
    r = explain_rouge(cand, refs, dialect="textbook", types=("rouge1",), multi_ref="pool").to_dict()
    pooled = r["pooled"]["rouge1"]
    text = " ".join(b.text for s in lesson.steps for b in s.blocks if hasattr(b, "text") and isinstance(b.text, str))
    assert f"hits {pooled['hits']}, reference size {pooled['ref_total']}" in text


@pytest.mark.parametrize("c,r", [(6, 6), (7, 6), (5, 6), (12, 6), (3, 9)])
def test_the_bp_chart_labels_do_not_overlap(c, r):
    """'r = 6' and 'c = 6, BP = 1' overlapped on the BP chart (c = r): their boxes (14 px text, about 0.6 em a
    character) must not intersect."""
    import re as _re

    from explainer.teach.model import Chart
    from explainer.ui.teach.teach_html import svg_chart

    bp = 1.0 if c >= r else math.exp(1 - r / c)
    svg = svg_chart(Chart("bp_curve", {"c": c, "r": r, "bp": bp}, "alt"))
    boxes = []
    for m in _re.finditer(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*?font-size="(\d+)"[^>]*?text-anchor="(\w+)"[^>]*>'
                          r'([^<]*)</text>', svg):
        x, y, size, anchor, text = float(m[1]), float(m[2]), int(m[3]), m[4], m[5]
        if not (text.startswith("r = ") or text.startswith("c = ")):
            continue
        w = 0.6 * size * len(text)
        left = x - w if anchor == "end" else (x - w / 2 if anchor == "middle" else x)
        boxes.append((left, y - size, left + w, y))
    assert len(boxes) == 2, svg
    (a0, b0, a1, b1), (c0, d0, c1, d1) = boxes
    assert a1 <= c0 or c1 <= a0 or b1 <= d0 or d1 <= b0, boxes
