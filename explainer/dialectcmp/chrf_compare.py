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

__all__ = ["ChrfRow", "row_specs", "chrf_rows", "first_difference", "compare_chrf", "ChrfCorpusRow", "chrf_corpus_rows",
           "first_corpus_difference", "corpus_comparison", "corpus_pair", "compare_chrf_corpus", "ChrfComparison"]

@dataclass
class ChrfComparison:
    """chrF's side by side as a comparison object (``rows``, ``pair``, ``divergence``, ``to_dict``: the JSON of
    ``compare_chrf`` / ``compare_chrf_corpus``), each pair a dict ``{"a", "b", "first_step", "why", "cells"}``
    (a corpus: and ``segment``)."""

    level: str
    rows: list
    pairs: list = field(default_factory=list)
    n_segments: int | None = None
    metric: str = "chrf"

    def row(self, row_id: str):
        for r in self.rows:
            if r.id == row_id:
                return r
        raise ValueError(f"unknown row {row_id!r}; rows: {', '.join(r.id for r in self.rows)}")

    def divergence(self, a: str, b: str) -> dict:
        """The first difference of rows ``a`` and ``b`` (a kept one, or computed without keeping it)."""
        for p in self.pairs:
            if p["a"] == a and p["b"] == b:
                return p
        if self.level == "corpus":
            return corpus_pair({r.id: r for r in self.rows}, a, b)
        return {"a": a, "b": b, **first_difference(self.row(a).trace, self.row(b).trace)}

    def pair(self, a: str, b: str) -> dict:
        """The first difference of rows ``a`` and ``b``, kept (``to_dict`` lists it)."""
        d = self.divergence(a, b)
        if d not in self.pairs:
            self.pairs.append(d)
        return d

    def to_dict(self) -> dict:
        head = {"metric": "chrf", "level": self.level}
        if self.n_segments is not None:
            head["n_segments"] = self.n_segments
        return {**head, "rows": [r.to_dict() for r in self.rows], "pairs": list(self.pairs)}


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


def segment_comparison(candidate: str, references: Sequence[str], pairs: Sequence[tuple[str, str]] | None = None
                       ) -> ChrfComparison:
    """The rows and, per pair (default: each row against the first), the first step where they disagree (the
    Dialects comparison's limits are checked before any work)."""
    from explainer.dialectcmp.limits import check_segment

    references = check_segment(candidate, references)
    cmp = ChrfComparison("segment", chrf_rows(candidate, references))
    ids = [r.id for r in cmp.rows]
    for x, y in (pairs if pairs is not None else [(ids[0], r) for r in ids[1:]]):
        if x not in ids or y not in ids:
            raise ValueError(f"unknown row in pair {x}:{y}; rows: {', '.join(ids)}")
        cmp.pair(x, y)
    return cmp


def compare_chrf(candidate: str, references: Sequence[str], pairs: Sequence[tuple[str, str]] | None = None
                 ) -> dict:
    """``dialects --metric chrf``: :func:`segment_comparison` as JSON."""
    return segment_comparison(candidate, references, pairs).to_dict()


# ------------------------------------------------------------------------------------------------ corpus level
@dataclass
class ChrfCorpusRow:
    id: str
    label: str
    config: Config
    trace: object = field(repr=False)       # ChrfCorpusTrace (segment traces on demand)
    summary: dict = field(repr=False, default_factory=dict)

    def to_dict(self) -> dict:
        t = self.summary
        return {"id": self.id, "label": self.label, "dialect": self.config.dialect, "options": self.config.opts,
                "argv": self.config.argv() + ["--corpus"], "name": t["name"], "score": t["score"],
                "native_score": t["native_score"], "scale": t["scale"], "averaging": t["averaging"],
                "signature": t["signature"], "orders": t["orders"], "stats": t["stats"],
                "warnings": [w["message"] for w in t["warnings"]]}


def chrf_corpus_rows(candidates: Sequence[str], references: Sequence[Sequence[str]], progress=None
                     ) -> list[ChrfCorpusRow]:
    """Every chrF dialect's ``comparison_rows`` at corpus level: sacreBLEU's ``corpus_score`` (summed statistics),
    NLTK's ``corpus_chrf`` (its mean of the per-order F over segments). ``progress(done, total, what)``."""
    from explainer.chrf.algorithm import explain_corpus

    texts = list(candidates) + [r for rs in references for r in rs]
    specs = row_specs(texts)
    out = []
    for k, (rid, dialect, opts, label) in enumerate(specs):
        if progress is not None:
            progress(k, len(specs), label)
        cfg = Config.make("chrf", dialect, opts, id=rid, label=label)
        tr = explain_corpus(cfg.bound(), candidates, references)
        summary = tr.to_dict()
        summary.pop("segment_stats", None)
        summary.pop("chosen_references", None)
        out.append(ChrfCorpusRow(rid, label, cfg, tr, summary))
    return out


def _first_segment(a: ChrfCorpusRow, b: ChrfCorpusRow) -> int | None:
    """The first segment whose kept statistics (or kept reference) differ in the two rows."""
    ta, tb = a.trace, b.trace
    for k, (x, y) in enumerate(zip(ta.segment_stats, tb.segment_stats)):
        if list(x) != list(y) or ta.chosen_references[k] != tb.chosen_references[k]:
            return k
    return None


def first_corpus_difference(a: ChrfCorpusRow, b: ChrfCorpusRow) -> dict:
    """The first step where two corpus rows disagree: the orders; else the first segment whose statistics differ
    (with that segment's own first step: references, characters, counts); else β, the per-order F, the averaging
    (NLTK's corpus score is the mean over segments of the per-order F), the score. ``segment``: 0-based or None."""
    sa, sb = a.summary, b.summary
    if _orders(sa) != _orders(sb):
        return {"first_step": "orders", "segment": None, "cells": {"a": _orders(sa), "b": _orders(sb)},
                "why": "different n-gram orders: chrF++ adds word unigrams and bigrams"}
    k = _first_segment(a, b)
    if k is not None:
        seg = first_difference(a.trace.segment(k).summary_dict(), b.trace.segment(k).summary_dict())
        step = seg["first_step"] or "counts"
        why = seg["why"] if seg["first_step"] else "another reference was kept"
        return {"first_step": step, "segment": k, "cells": seg["cells"],
                "why": f"segment {k + 1} (the first whose statistics differ): {why}"}
    steps = (("beta", sa["combination"]["beta"], sb["combination"]["beta"], "a different β weighs recall differently"),
             ("per-order F", [o["f"] for o in sa["orders"]], [o["f"] for o in sb["orders"]],
              "the same counts, aggregated differently: the F of the corpus's summed counts per order (sacreBLEU) "
              "or the mean of each segment's F per order (NLTK's corpus_chrf)"),
             ("averaging", sa["averaging"], sb["averaging"],
              "effective order averages P and R over the orders before one F; eps smoothing averages the per-order F "
              "of the summed statistics; NLTK's corpus_chrf averages the per-order F of each segment"))
    for step, x, y, why in steps:
        if x != y:
            return {"first_step": step, "segment": None, "cells": {"a": x, "b": y}, "why": why}
    if abs(sa["score"] - sb["score"]) > 1e-9:
        return {"first_step": "score", "segment": None, "cells": {"a": sa["score"], "b": sb["score"]},
                "why": "the scores differ"}
    return {"first_step": None, "segment": None, "cells": {},
            "why": "the same score on 0–100 (the native scales may differ: NLTK 0–1)"}


def corpus_comparison(candidates: Sequence[str], references: Sequence[Sequence[str]],
                      pairs: Sequence[tuple[str, str]] | None = None, progress=None
                      ) -> tuple[dict[str, ChrfCorpusRow], dict]:
    """The corpus rows by id (their traces: a later pair costs no new pass over the corpus) and the comparison
    :func:`compare_chrf_corpus` returns."""
    cmp = corpus_chrf_comparison(candidates, references, pairs, progress)
    return {r.id: r for r in cmp.rows}, cmp.to_dict()


def corpus_chrf_comparison(candidates: Sequence[str], references: Sequence[Sequence[str]],
                           pairs: Sequence[tuple[str, str]] | None = None, progress=None) -> ChrfComparison:
    """The corpus rows and, per pair (default: each row against the first), the first step where they disagree
    (the Dialects comparison's corpus limits checked before any work)."""
    from explainer.dialectcmp.limits import check_corpus

    cands, refs = check_corpus(candidates, references)
    cmp = ChrfComparison("corpus", chrf_corpus_rows(cands, refs, progress), n_segments=len(cands))
    ids = [r.id for r in cmp.rows]
    for x, y in (pairs if pairs is not None else [(ids[0], r) for r in ids[1:]]):
        cmp.pair(x, y)
    return cmp


def corpus_pair(by_id: dict[str, ChrfCorpusRow], a: str, b: str) -> dict:
    """``{"a", "b", "first_step", "segment", "why", "cells"}`` of two corpus rows."""
    if a not in by_id or b not in by_id:
        raise ValueError(f"unknown row in pair {a}:{b}; rows: {', '.join(by_id)}")
    return {"a": a, "b": b, **first_corpus_difference(by_id[a], by_id[b])}


def compare_chrf_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]],
                        pairs: Sequence[tuple[str, str]] | None = None, progress=None) -> dict:
    """``dialects --metric chrf --corpus``: the corpus rows and, per pair (default: each row against the first),
    the first step where they disagree; the Dialects comparison's corpus limits are checked before any work."""
    return corpus_comparison(candidates, references, pairs, progress)[1]
