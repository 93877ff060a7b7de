"""Every registered family's verdict on every preset: one table per preset (its texts by every family's measures
and the lesson's own numbers), from :mod:`explainer.attacks.verdicts`.

Each variant is scored by every family (``fam.scores`` for one segment; a corpus variant by ``fam.corpus``, or the
mean of the segments' scores when the variant is a mean of sentence scores) with the variant's own configuration
where it has one for that family (its ``bleu`` / ``rouge``) and the lab's dialect otherwise
(:func:`explainer.attacks.measures.lab_dialects`). The lesson's own numbers (a brevity penalty, ROUGE-1 precision,
the unclipped precision of G1) come from the lab's scoring (:func:`explainer.attacks.presets.evaluate`).
"""
from __future__ import annotations

from functools import lru_cache

from explainer.attacks.measures import Column, columns, converted, family_of, lab_dialects
from explainer.attacks.presets import PRESETS, Variant, evaluate, get_preset
from explainer.attacks.scoring import METRICS, family_measure, metric_label, sentence_config
from explainer.attacks.verdicts import Row, VerdictTable, build_table
from explainer.families import FAMILIES
from explainer.family import Measure

__all__ = ["preset_table", "variant_dialects", "variant_role", "all_summaries", "headline_key"]


def variant_dialects(v: Variant) -> dict[str, object]:
    """family name -> the bound dialect this variant is scored with by that family."""
    bleu = sentence_config(v.bleu) if v.is_corpus and v.aggregate == "sentence_mean" else v.bleu
    return lab_dialects((bleu, v.rouge))


def _transform(v: Variant, fam):
    """How the variant hands its texts to ``fam`` (the lab's NLTK string input is NLTK's view of the text)."""
    conf = next((c for c in (v.bleu, v.rouge) if family_of(c.dialect_object()) is fam), None)
    return conf.core_text if conf is not None else (lambda t: t)


def _family_values(v: Variant, fam, d) -> dict[str, float]:
    t = _transform(v, fam)
    if not v.is_corpus:
        return fam.scores(d, t(v.candidate), [t(r) for r in v.references])
    cands = [t(c) for c in v.candidate]
    refs = [[t(r) for r in rs] for rs in v.references]
    if v.aggregate == "sentence_mean":
        per = [fam.scores(d, c, r) for c, r in zip(cands, refs)]
        return {k: sum(p[k] for p in per) / len(per) for k in per[0]}
    return {k: ms.score for k, ms in fam.corpus(d, cands, refs).measures.items()}


def variant_role(p, i: int) -> str:
    v = p.variants[i]
    if v.compare_only:
        return "comparison"
    if i == 0:
        return "honest" if p.kind == "attack" else "baseline"
    return ("alternative" if p.legitimate else "attack") if p.kind == "attack" else "setting"


def _base(p, i: int) -> int | None:
    """The row variant ``i``'s deltas are taken against: the first earlier variant scored against the same
    references (a delta across different references says nothing about the texts)."""
    if i == 0:
        return None
    refs = p.variants[i].references
    return next((j for j in range(i) if p.variants[j].references == refs), None)


def headline_key(m: str) -> str:
    """The table column of a lab metric: the family measure it equals (``rouge:rouge1``), else itself."""
    fm = family_measure(m)
    return f"{fm[0]}:{fm[1]}" if fm else m


def _lesson_columns(p) -> list[Column]:
    out = []
    for m in p.headline:
        if family_measure(m) is None:
            meta = METRICS[m]
            fam = FAMILIES[meta.family] if meta.family in FAMILIES else None
            out.append(Column(meta.family, fam.label if fam else "", Measure(m, metric_label(m), meta.scale,
                                                                            True, 1 if meta.scale == 100 else 2),
                              fam.reads if fam else "", lesson=m))
    return out


def _ordered(fam_cols: list[Column], lesson: list[Column]) -> list[Column]:
    """The lesson's numbers inside their family's group, after its measures."""
    out = []
    for name in FAMILIES:
        out += [c for c in fam_cols if c.family == name] + [c for c in lesson if c.family == name]
    return out + [c for c in lesson if c.family not in FAMILIES]


@lru_cache(maxsize=None)
def preset_table(pid: str) -> VerdictTable:
    """The preset's table: one row per variant, a column per measure of every family and per lesson number, and
    every column's verdict (the lesson's own numbers get one too: they are its headline)."""
    p = get_preset(pid)
    lab = evaluate(pid)
    dialects = [variant_dialects(v) for v in p.variants]
    fam_cols = columns(dialects[0])
    lesson = _lesson_columns(p)
    rows, notes = [], []
    for i, v in enumerate(p.variants):
        values, why = {}, {}
        for name in FAMILIES:
            fam, d = FAMILIES[name], dialects[i][name]
            cols = [c for c in fam_cols if c.family == name]
            measures = {m.key: m for m in fam.measures(d)}
            try:
                got = _family_values(v, fam, d)
            except ValueError as e:
                got = {}
                why.update({c.key: str(e) for c in cols})
            for c in cols:
                m = measures.get(c.measure.key, c.measure)
                values[c.key] = converted(got.get(c.measure.key), m, c.measure)
                if m.scale != c.measure.scale:
                    notes.append(f"{v.label}: {fam.label} is reported on 0–{m.scale:g} by {d.name}; shown on "
                                 f"0–{c.measure.scale:g} like the other rows.")
        for c in lesson:
            values[c.key] = lab.scores[i].values.get(c.lesson)
        rows.append(Row(v.label, variant_role(p, i), values, _base(p, i), v.note, why))
    judged = tuple(i for i, v in enumerate(p.variants) if i > 0 and not v.compare_only)
    table = build_table(p.judgement, _ordered(fam_cols, lesson), rows, judged,
                        headline=[headline_key(m) for m in p.headline])
    table.notes = list(dict.fromkeys(notes))
    return table


@lru_cache(maxsize=1)
def all_summaries() -> tuple[dict, ...]:
    """Every preset's verdicts at a glance (a row per preset: its catalogue id, title and what each column did)."""
    out = []
    for pid, p in PRESETS.items():
        t = preset_table(pid)
        out.append({"preset": pid, "catalogue": p.catalogue, "title": p.title, "kind": t.kind,
                    **{c.label: t.verdicts.get(c.key, "") for c in t.columns if not c.lesson}})
    return tuple(out)
