"""The ROUGE corpus report: each system through the core's ``explain_rouge_corpus``.

The corpus numbers are the dialect's own aggregation, unchanged: rouge-score's ``BootstrapAggregator``
(low / mid / high: 2.5th / 50th / 97.5th percentiles of 1,000 resample means; mid is a median), HF evaluate's
mid F, ROUGE-1.5.5's ``Average_X`` with its ``-c``/``-r`` interval (Perl's drand48, exact), the textbook's plain
mean. The per-segment scores are the dialect's per-item scores.

Paired tests on ROUGE (``statistic``) are the project's own extension: sacreBLEU's paired bootstrap / AR applied
to the mean of the per-item F (or P, R) of one ROUGE type; no ROUGE implementation has them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from explainer.corpus.report import ReportBase
from explainer.corpus.testset import TestSet
from explainer.rouge import explain_rouge_corpus
from explainer.rouge.trace import RougeCorpusTrace
from explainer.statistic import Statistic

__all__ = ["RougeSystem", "RougeReport", "rouge_report", "MEASURES"]

MEASURES = ("fmeasure", "precision", "recall")
_COLUMN = {"precision": 0, "recall": 1, "fmeasure": 2}


@dataclass
class RougeSystem:
    name: str
    trace: RougeCorpusTrace
    per_type: dict[str, np.ndarray]      # type -> (S, 3) precision, recall, fmeasure per item

    def item(self, t: str, measure: str = "fmeasure") -> np.ndarray:
        return self.per_type[t][:, _COLUMN[measure]]

    def mean(self, t: str, measure: str = "fmeasure") -> float:
        return float(np.mean(self.item(t, measure)))


@dataclass
class RougeReport(ReportBase):
    testset: TestSet
    dialect: str
    options: dict
    types: list[str]
    systems: list[RougeSystem]
    _cache: dict = field(default_factory=dict, repr=False)

    def statistic(self, i: int, t: str, measure: str = "fmeasure") -> Statistic:
        from explainer.rouge.family import item_statistic

        return item_statistic(self.systems[i].item(t, measure).astype(np.float64))

    def corpus_scores(self) -> list:
        """Every system's :class:`explainer.family.CorpusScores`: per type the score the dialect reports
        (rouge-score's bootstrap mid, the mean elsewhere), the per-item F and the statistic of the tests (the mean
        per-item F): what the family's ``corpus`` gives."""
        from explainer.family import CorpusScores, MeasureScores
        from explainer.rouge.engine import bind_dialect
        from explainer.rouge.family import ROUGE, reported_f

        d = bind_dialect(self.dialect, self.types, corpus=True, **self.options)
        out = []
        for j, s in enumerate(self.systems):
            agg = s.trace.aggregate if isinstance(s.trace.aggregate, dict) else {}
            measures = {}
            for m in ROUGE.measures(d):
                st = self.statistic(j, m.key)
                rep = reported_f(agg.get(m.key)) if m.key in agg else None
                measures[m.key] = MeasureScores(m, st.score if rep is None else rep, s.item(m.key), st)
            out.append(CorpusScores(ROUGE.name, self.signature, measures, ROUGE.segment_score_name(d)))
        return out

    def aggregate_rows(self) -> list[dict]:
        """Per system and type the dialect's aggregation: low / mid / high (or the mean) of P, R, F."""
        out = []
        for s in self.systems:
            agg = s.trace.aggregate
            for t in self.types:
                a = agg.get(t) if isinstance(agg, dict) else None
                rec: dict[str, Any] = {"system": s.name, "type": t, "mean_f": s.mean(t)}
                if isinstance(a, dict) and "mid" in a:
                    for k in ("low", "mid", "high"):
                        rec[f"{k}_f"] = float(a[k].fmeasure)
                        rec[f"{k}_p"] = float(a[k].precision)
                        rec[f"{k}_r"] = float(a[k].recall)
                elif a is not None and hasattr(a, "fmeasure"):
                    rec.update(mid_f=float(a.fmeasure), mid_p=float(a.precision), mid_r=float(a.recall))
                out.append(rec)
        return out

    def segment_rows(self, t: str, baseline: int = 0, measure: str = "fmeasure") -> dict[str, list]:
        cols: dict[str, list] = {"segment": list(range(1, self.n_segments + 1)),
                                 "ref_words": [len(r[0].split()) if r else 0 for r in self.testset.references]}
        base = self.systems[baseline].item(t, measure)
        for k, s in enumerate(self.systems):
            v = s.item(t, measure)
            cols[f"{s.name} | {t}"] = v.tolist()
            if k != baseline:
                cols[f"{s.name} | Δ"] = (v - base).tolist()
            cols[f"{s.name} | words"] = [len(h.split()) for h in self.testset.systems[k][1]]
        return cols

    def largest_deltas(self, i: int, t: str, baseline: int = 0, k: int = 10, measure: str = "fmeasure") -> dict:
        from explainer.corpus.report import largest_deltas

        return largest_deltas(self.systems[i].item(t, measure), self.systems[baseline].item(t, measure), k,
                              system=self.systems[i].name, baseline=self.systems[baseline].name, type=t)

    def length_buckets(self, t: str, edges: Sequence[int] | None = None, measure: str = "fmeasure"
                       ) -> list[dict]:
        """Mean per-item score per system by reference-1 length in words (whitespace). ``edges=None``: five
        buckets of about equal size (quintiles of the lengths, as the BLEU report's); empty buckets are left
        out."""
        from explainer.corpus.report import quantile_edges

        L = np.array([len(r[0].split()) if r else 0 for r in self.testset.references])
        if edges is None:
            edges = quantile_edges(L)
        bounds = [0] + list(edges) + [None]
        out = []
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            mask = (L >= lo) & (L < hi) if hi is not None else (L >= lo)
            idx = np.flatnonzero(mask)
            if not len(idx):
                continue
            rec = {"bucket": f"{lo}–{hi - 1}" if hi is not None else f"{lo}+", "low": lo, "high": hi,
                   "n_segments": int(len(idx)), "segments": [int(x) + 1 for x in idx], "scores": {}}
            for s in self.systems:
                rec["scores"][s.name] = float(np.mean(s.item(t, measure)[idx])) if len(idx) else None
            out.append(rec)
        return out

    def to_dict(self, *, baseline: int = 0, segments: bool = True, tests: dict | None = None) -> dict:
        out: dict[str, Any] = {
            "kind": "rouge-corpus-report", "dialect": self.dialect, "options": self.options, "types": self.types,
            "signature": self.signature, "n_segments": self.n_segments,
            "baseline": self.systems[baseline].name,
            "systems": [],
        }
        for s in self.systems:
            d = s.trace.to_dict()
            d.pop("item_scores", None)
            d.pop("chosen_reference", None)
            out["systems"].append({"name": s.name, "corpus": d,
                                   "mean": {t: {m: s.mean(t, m) for m in MEASURES} for t in self.types}})
        out["largest_deltas"] = [self.largest_deltas(j, t, baseline) for j in range(len(self.systems))
                                 if j != baseline for t in self.types]
        out["length_buckets"] = {t: self.length_buckets(t) for t in self.types}
        if tests:
            out["tests"] = tests
        if segments:
            out["segments"] = [
                {"segment": k + 1, "systems": {s.name: {t: {"precision": float(s.per_type[t][k, 0]),
                                                            "recall": float(s.per_type[t][k, 1]),
                                                            "fmeasure": float(s.per_type[t][k, 2])}
                                                        for t in self.types} for s in self.systems}}
                for k in range(self.n_segments)]
        return out


def rouge_report(testset: TestSet, *, dialect: str = "rouge-score", types: Sequence[str] | None = None,
                 progress: Callable[[float, str], None] | None = None, **options: Any) -> RougeReport:
    tick = progress or (lambda f, msg: None)
    systems = []
    n = len(testset.systems)
    for j, (name, lines) in enumerate(testset.systems):
        def prog(done, total, _j=j, _name=name):
            if done % max(1, total // 20) == 0 or done == total:
                tick((_j + done / total) / n, f"ROUGE of {_name}: segment {done:,} of {total:,}")

        tr = explain_rouge_corpus(lines, testset.references, dialect=dialect, types=types, progress=prog, **options)
        per_type = {t: np.array([[s[t].precision, s[t].recall, s[t].fmeasure] for s in tr.item_scores],
                                dtype=np.float64).reshape(-1, 3) for t in tr.types}
        systems.append(RougeSystem(name, tr, per_type))
    tick(1.0, "done")
    return RougeReport(testset, dialect, dict(options), list(systems[0].trace.types), systems)
