"""The chrF corpus report: each system's corpus chrF (``explain_chrf_corpus``: its statistics, segment traces on
demand for the drill-down), the per-segment scores, the largest differences to the baseline, scores by reference
length, and the statistic the paired tests resample (``chrf/statistic.py``). The references of every segment are
prepared once for all systems. With sacreBLEU's dialect the corpus numbers are ``CHRF(...).corpus_score``'s and the
tests ``PairedTest``'s.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from explainer.chrf import get_dialect
from explainer.chrf.algorithm import explain_corpus, prepare_references
from explainer.chrf.dialects import ChrfDialect
from explainer.chrf.statistic import chrf_statistic
from explainer.chrf.trace import ChrfCorpusTrace
from explainer.corpus.report import ReportBase, largest_deltas
from explainer.corpus.testset import TestSet
from explainer.gcpause import gc_paused
from explainer.statistic import Statistic

__all__ = ["ChrfSystem", "ChrfReport", "chrf_report"]


@dataclass
class ChrfSystem:
    name: str
    trace: ChrfCorpusTrace
    sentence: np.ndarray          # each segment's own score (native scale), from its kept statistics


@dataclass
class ChrfReport(ReportBase):
    testset: TestSet
    dialect: str
    options: dict
    d: ChrfDialect
    systems: list[ChrfSystem]
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def scale(self) -> float:
        return self.d.scale

    def statistic(self, i: int) -> Statistic:
        t = self.systems[i].trace
        return chrf_statistic(self.d, t.segment_stats, t.score)

    def corpus_scores(self) -> list:
        """Every system's :class:`explainer.family.CorpusScores` (what the family's ``corpus`` gives)."""
        from explainer.chrf.family import CHRF
        from explainer.family import CorpusScores, MeasureScores

        m = CHRF.main_measure(self.d)
        return [CorpusScores(CHRF.name, self.signature,
                             {m.key: MeasureScores(m, float(s.trace.score), s.sentence, self.statistic(j))},
                             CHRF.segment_score_name(self.d)) for j, s in enumerate(self.systems)]

    def order_rows(self, i: int) -> list[dict]:
        """System i's corpus statistics per order: counts, P, R, F, in the average or not."""
        return [{"kind": o.kind, "n": o.n, "hyp": o.hyp, "ref": o.ref, "match": o.match, "precision": o.precision,
                 "recall": o.recall, "f": o.f, "included": o.included}
                for o in self.systems[i].trace.combination.orders]

    def segment_rows(self, baseline: int = 0) -> dict[str, list]:
        cols: dict[str, list] = {"segment": list(range(1, self.n_segments + 1)),
                                 "ref_chars": [len(r[0]) if r else 0 for r in self.testset.references]}
        base = self.systems[baseline].sentence
        for k, s in enumerate(self.systems):
            cols[f"{s.name} | score"] = s.sentence.tolist()
            if k != baseline:
                cols[f"{s.name} | Δ"] = (s.sentence - base).tolist()
            cols[f"{s.name} | reference"] = [x + 1 for x in s.trace.chosen_references]
        return cols

    def largest_deltas(self, i: int, baseline: int = 0, k: int = 10) -> dict:
        return largest_deltas(self.systems[i].sentence, self.systems[baseline].sentence, k,
                              system=self.systems[i].name, baseline=self.systems[baseline].name)

    def length_buckets(self, edges: Sequence[int] = (50, 100, 150, 200, 300)) -> list[dict]:
        """Mean segment score per system by the length of reference 1 in characters."""
        L = np.array([len(r[0]) if r else 0 for r in self.testset.references])
        bounds = [0] + list(edges) + [None]
        out = []
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            idx = np.flatnonzero((L >= lo) & (L < hi) if hi is not None else (L >= lo))
            out.append({"bucket": f"{lo}–{hi - 1}" if hi is not None else f"{lo}+", "low": lo, "high": hi,
                        "n_segments": int(len(idx)), "segments": [int(x) + 1 for x in idx],
                        "scores": {s.name: float(np.mean(s.sentence[idx])) if len(idx) else None
                                   for s in self.systems}})
        return out

    def corpus_vs_mean(self, i: int, top: int = 10) -> dict:
        """System i's corpus score against the mean of its segment scores, and (when the corpus score sums the
        segments' statistics, as sacreBLEU's does) the segments that pull the two apart most: leaving segment k out,
        the corpus score is that of the summed statistics minus k's (= ``corpus_score`` on the corpus without k) and
        the mean that of the other segments; k's influence is how much larger the gap is with k than without."""
        key = ("cvm", i, top)
        if key in self._cache:
            return self._cache[key]
        s = self.systems[i]
        S = len(s.sentence)
        mean = float(np.mean(s.sentence)) if S else float("nan")
        out: dict[str, Any] = {"system": s.name, "corpus": float(s.trace.score), "mean_of_sentences": mean,
                               "gap": float(s.trace.score) - mean, "n_segments": S}
        if S > 1 and self.d.corpus_rule == "sum":
            stats = np.asarray(s.trace.segment_stats, dtype=np.int64)
            loo_corpus = np.asarray(self.statistic(i).score_rows(stats.sum(0)[None, :] - stats, "py"), dtype=float)
            loo_mean = (s.sentence.sum() - s.sentence) / (S - 1)
            influence = out["gap"] - (loo_corpus - loo_mean)
            order = np.argsort(-np.abs(influence), kind="stable")[:top]
            out["pulling_apart"] = [
                {"segment": int(k) + 1, "influence": float(influence[k]), "sentence_score": float(s.sentence[k]),
                 "length": int(stats[k, 0]), "ref_length": int(stats[k, 1]),
                 "corpus_without": float(loo_corpus[k]), "mean_without": float(loo_mean[k])} for k in order]
        self._cache[key] = out
        return out

    def ngram_differences(self, i: int, baseline: int = 0, *, order: int | None = None, k: int = 15) -> dict:
        """The n-grams of one order (index into the dialect's orders; default: the word unigrams of chrF++, else the
        longest character order) that system ``i`` matches more often than the baseline (``better``) and less often
        (``worse``), with chrF's own clipped counts against each segment's kept reference; the segments where the
        difference occurs. The matched counts add up to the order's ``match`` of each system's corpus statistics."""
        orders = self.d.orders
        if order is None:
            words = [j for j, (kind, _) in enumerate(orders) if kind == "word"]
            order = words[0] if words else len(orders) - 1 - sum(1 for kind, _ in orders if kind == "word")
        key = ("ngd", i, baseline, order, k)
        if key not in self._cache:
            self._cache[key] = _ngram_differences(self, i, baseline, order, k)
        return self._cache[key]

    def to_dict(self, *, baseline: int = 0, segments: bool = True, tests: dict | None = None) -> dict:
        out: dict[str, Any] = {
            "kind": "chrf-corpus-report", "dialect": self.dialect, "name": self.d.metric_name,
            "options": self.options, "signature": self.signature, "n_segments": self.n_segments,
            "baseline": self.systems[baseline].name,
            "systems": [{"name": s.name, "corpus": _corpus_dict(s.trace)} for s in self.systems],
            "largest_deltas": [self.largest_deltas(j, baseline) for j in range(len(self.systems)) if j != baseline],
            "length_buckets": self.length_buckets(),
        }
        if tests:
            out["tests"] = tests
        if segments:
            out["segments"] = [{"segment": k + 1, "references": self.testset.references[k],
                                "systems": {s.name: {"text": self.testset.systems[j][1][k],
                                                     "score": float(s.sentence[k]),
                                                     "reference": s.trace.chosen_references[k] + 1,
                                                     "stats": list(s.trace.segment_stats[k])}
                                            for j, s in enumerate(self.systems)}}
                               for k in range(self.n_segments)]
        return out


def _matched(report: ChrfReport, js: Sequence[int], order: int) -> dict[int, tuple[dict, dict]]:
    """Per system j of ``js``: its clipped matches of one order summed over the corpus (against each segment's kept
    reference, the one its corpus statistics were taken against), and per n-gram the segments with their counts.
    Kept in the report; one pass over the segments for the systems not kept yet, each kept reference extracted
    once for them (a WMT test set: 2.3 s for two systems when every segment's whole trace was built)."""
    want = [j for j in dict.fromkeys(js) if ("matched", j, order) not in report._cache]
    if want:
        d = report.d
        out = {j: ({}, {}) for j in want}
        chosen = {j: report.systems[j].trace.chosen_references for j in want}
        lines = {j: report.testset.systems[j][1] for j in want}
        with gc_paused():
            for s, rs in enumerate(report.testset.references):
                refs = d.effective_references(rs)[0]
                ref_ngrams: dict[int, Any] = {}
                for j in want:
                    c = chosen[j][s]
                    if c not in ref_ngrams:
                        ref_ngrams[c] = d.extract(d.prepare(refs[c]))[0][order]
                    rc = ref_ngrams[c]
                    total, per_seg = out[j]
                    for g, n in d.extract(d.prepare(lines[j][s]))[0][order].items():
                        m = min(n, rc.get(g, 0))
                        if m:
                            total[g] = total.get(g, 0) + m
                            per_seg.setdefault(g, {})[s] = m
        for j in want:
            report._cache[("matched", j, order)] = out[j]
    return {j: report._cache[("matched", j, order)] for j in js}


def _ngram_differences(report: ChrfReport, i: int, baseline: int, order: int, k: int) -> dict:
    got = _matched(report, (i, baseline), order)
    (a, seg_a), (b, seg_b) = got[i], got[baseline]
    diffs = [(a.get(g, 0) - b.get(g, 0), g) for g in set(a) | set(b) if a.get(g, 0) != b.get(g, 0)]

    def rec(delta, g):
        sa, sb = seg_a.get(g, {}), seg_b.get(g, {})
        segs = sorted(s + 1 for s in set(sa) | set(sb) if (sa.get(s, 0) - sb.get(s, 0)) * delta > 0)
        return {"ngram": g, "system": a.get(g, 0), "baseline": b.get(g, 0), "difference": delta,
                "segments": segs, "n_segments": len(segs)}

    kind, n = report.d.orders[order]
    better = sorted((x for x in diffs if x[0] > 0), key=lambda x: (-x[0], x[1]))[:k]
    worse = sorted((x for x in diffs if x[0] < 0), key=lambda x: (x[0], x[1]))[:k]
    return {"system": report.systems[i].name, "baseline": report.systems[baseline].name, "kind": kind, "n": n,
            "better": [rec(*x) for x in better], "worse": [rec(*x) for x in worse],
            "matched": {"system": sum(a.values()), "baseline": sum(b.values())}}


def _corpus_dict(t: ChrfCorpusTrace) -> dict:
    d = t.to_dict()
    for k in ("segment_stats", "chosen_references", "options", "dialect", "signature", "n_segments"):
        d.pop(k, None)
    return d


def chrf_report(testset: TestSet, *, dialect: str = "sacrebleu",
                progress: Callable[[float, str], None] | None = None, **options: Any) -> ChrfReport:
    tick = progress or (lambda f, msg: None)
    d = get_dialect(dialect, **options)
    with gc_paused():
        prepared = [prepare_references(d, rs)[0] for rs in testset.references]
    systems = []
    n = len(testset.systems)
    for j, (name, lines) in enumerate(testset.systems):
        tick(j / n, f"chrF of {name}")
        tr = explain_corpus(d, lines, testset.references, prepared=prepared)
        sentence = np.asarray(tr.segment_scores(d), dtype=np.float64)
        systems.append(ChrfSystem(name, tr, sentence))
    tick(1.0, "done")
    return ChrfReport(testset, d.name, d.options_dict(), d, systems)
