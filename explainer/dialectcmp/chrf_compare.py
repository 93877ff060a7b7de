"""chrF implementations side by side, and the first step where two disagree (``dialects --metric chrf`` and the
Dialects page's data).

Rows: every chrF dialect's ``comparison_rows`` (sacreBLEU's chrF2, chrF2++ and eps smoothing; NLTK's chrF with
β = 3, its default, and β = 2). The steps
compared, in the order the computation takes them: the references the library compares with (NLTK joins several
into one), the characters read (whitespace, case), the orders (chrF++'s word n-grams), the counts per order, β,
the per-order F (eps rules), the averaging, the scale. Each row carries the ``argv`` of the ``chrf`` command that
prints its numbers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from explainer.dialectcmp.configs import Config

__all__ = ["ChrfRow", "row_specs", "chrf_rows", "first_difference", "compare_chrf"]

@dataclass
class ChrfRow:
    id: str
    label: str
    config: Config
    trace: dict = field(repr=False)

    def to_dict(self) -> dict:
        t = self.trace
        return {"id": self.id, "label": self.label, "dialect": self.config.dialect, "options": self.config.opts,
                "argv": self.config.argv(), "name": t["name"], "score": t["score"], "native_score": t["native_score"],
                "scale": t["scale"], "averaging": t["averaging"], "signature": t["signature"],
                "orders": t["orders"], "warnings": [w["message"] for w in t["warnings"]]}


def row_specs(texts: Sequence[str] = ()) -> list[tuple[str, str, dict, str]]:
    """(row id, dialect, options, label) of every registered chrF dialect's ``comparison_rows``, in order."""
    from explainer.chrf import DIALECTS

    return [(r["id"], name, r["options"], r["label"]) for name in DIALECTS
            for r in DIALECTS[name].comparison_rows(texts)]


def chrf_rows(candidate: str, references: Sequence[str]) -> list[ChrfRow]:
    out = []
    for rid, dialect, opts, label in row_specs([candidate, *references]):
        cfg = Config.make("chrf", dialect, opts, id=rid, label=label)
        out.append(ChrfRow(rid, label, cfg, _trace(cfg, candidate, references)))
    return out


def _trace(cfg: Config, candidate: str, references: Sequence[str]) -> dict:
    from explainer.chrf.algorithm import explain_segment

    tr = explain_segment(cfg.bound(), candidate, list(references))
    return tr.summary_dict()


def _orders(t: dict) -> list[str]:
    return [f"{o['kind']} {o['n']}" for o in t["orders"]]


def _steps(a: dict, b: dict):
    """(step, same?, the two cells, why) in the order of the computation."""
    ra, rb = [r["text"] for r in a["references"]], [r["text"] for r in b["references"]]
    yield "references", ra == rb, (len(ra), len(rb)), (
        "one library compares with each reference, the other with one text: NLTK joins several references with "
        "spaces")
    ua, ub = a["candidate"]["units"], b["candidate"]["units"]
    why = "whitespace kept in one and removed in the other" if ("".join(ua.split()) == "".join(ub.split())) else (
        "one lowercases the text")
    yield "characters", ua == ub and [r["units"] for r in a["references"]] == [r["units"] for r in b["references"]], \
        (ua, ub), why
    yield "orders", _orders(a) == _orders(b), (_orders(a), _orders(b)), (
        "different n-gram orders: chrF++ adds word unigrams and bigrams")
    sa = [[o["hyp"], o["ref"], o["match"]] for o in a["orders"]]
    sb = [[o["hyp"], o["ref"], o["match"]] for o in b["orders"]]
    yield "counts", sa == sb, (sa, sb), (
        "the counts differ: sacreBLEU records 0 candidate n-grams for an order the reference lacks, or another "
        "reference was kept")
    yield "beta", a["combination"]["beta"] == b["combination"]["beta"], \
        (a["combination"]["beta"], b["combination"]["beta"]), "a different β weighs recall differently"
    fa, fb = [o["f"] for o in a["orders"]], [o["f"] for o in b["orders"]]
    yield "per-order F", fa == fb, (fa, fb), "an empty order is eps in one and left out in the other"
    yield "averaging", a["averaging"] == b["averaging"], (a["averaging"], b["averaging"]), (
        "sacreBLEU's default averages P and R over the orders first; eps smoothing and NLTK average the F-scores")
    yield "score", abs(a["score"] - b["score"]) <= 1e-9, (a["score"], b["score"]), "the scores differ"


def first_difference(a: dict, b: dict) -> dict:
    """The first step (of ``_steps``) where two chrF traces disagree, why, and both cells; ``first_step`` None
    when they agree on the score (on 0-100)."""
    for step, same, cells, why in _steps(a, b):
        if not same:
            return {"first_step": step, "why": why, "cells": {"a": cells[0], "b": cells[1]}}
    return {"first_step": None, "why": "the same score on 0–100 (the native scales may differ: NLTK 0–1)",
            "cells": {}}


def compare_chrf(candidate: str, references: Sequence[str], pairs: Sequence[tuple[str, str]] | None = None
                 ) -> dict:
    """The rows and, per pair (default: each row against the first), the first step where they disagree."""
    from explainer.dialectcmp.limits import check_segment

    references = check_segment(candidate, references)      # the Dialects comparison's limits, before any work
    rows = chrf_rows(candidate, references)
    by_id = {r.id: r for r in rows}
    todo = pairs if pairs is not None else [(rows[0].id, r.id) for r in rows[1:]]
    out_pairs = []
    for x, y in todo:
        if x not in by_id or y not in by_id:
            raise ValueError(f"unknown row in pair {x}:{y}; rows: {', '.join(by_id)}")
        out_pairs.append({"a": x, "b": y, **first_difference(by_id[x].trace, by_id[y].trace)})
    return {"metric": "chrf", "level": "segment", "rows": [r.to_dict() for r in rows], "pairs": out_pairs}
