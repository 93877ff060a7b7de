"""The BLEU corpus report: every number traceable to segment ids.

``bleu_report(testset, dialect=..., **options)`` scores every system (references tokenized once) and keeps the
per-segment statistics ``[c, r, m_1..m_N, t_1..t_N]``. Everything else is derived from those arrays, on demand:

* ``systems[i].trace``: the corpus trace of the core (``BleuCorpusTrace``: summed statistics, the combination with
  its formulas); ``trace.segment(k)`` is segment k's full step-by-step trace (the Explain view);
* ``sentence``: each segment scored alone by the same dialect and options (what the Explain page shows for it);
* ``corpus_vs_mean``: corpus score beside the mean of the sentence scores, why they differ on this data, and the
  segments that pull them apart most (leave-one-out: how much the gap changes without that segment);
* ``segment_rows``, ``length_buckets``, ``precision_by_order``, ``largest_deltas``, ``length_ratio``,
  ``ngram_differences``: the analyses; each record lists the segments (1-based ids) behind it;
* ``statistic(i)``: the per-segment statistics as ``significance.Statistic`` for the CI and the paired tests.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from explainer.bleu import get_dialect
from explainer.bleu.algorithm import explain_corpus
from explainer.bleu.dialects import BleuDialect
from explainer.bleu.rowscore import sacrebleu_scores, score_rows, segment_scores
from explainer.bleu.system_stats import system_stats
from explainer.bleu.trace import BleuCorpusTrace
from explainer.corpus.testset import TestSet
from explainer.errors import ExplainerInputError
from explainer.statistic import Statistic

__all__ = ["ReportBase", "BleuSystem", "BleuReport", "bleu_report", "LENGTH_BUCKETS", "LENGTH_RATIO_EDGES",
           "largest_deltas", "quantile_edges", "ratio_bins", "segment_scores", "segment_columns"]

#: reference-length buckets (tokens of reference 1 under the dialect's tokenizer) when there are no lengths to
#: take quantiles of (compare-mt's defaults)
LENGTH_BUCKETS = (10, 20, 30, 40, 50)
#: bins of a segment's length ratio c / r (finer near 1, where brevity is decided)
LENGTH_RATIO_EDGES = (0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.2, 1.3, 1.5, 2.0, math.inf)


def _n(k: int, word: str) -> str:
    return f"{k:,} {word}" + ("" if k == 1 else "s")


def _ids(mask_or_idx) -> list[int]:
    a = np.asarray(mask_or_idx)
    if a.dtype == bool:
        a = np.flatnonzero(a)
    return [int(i) + 1 for i in a]


@dataclass
class BleuSystem:
    name: str
    trace: BleuCorpusTrace
    stats: np.ndarray                 # (S, 2 + 2N) per-segment statistics
    sentence: np.ndarray              # each segment scored alone (native scale)
    bp: np.ndarray                    # each segment's brevity penalty alone
    ctxs: list | None = None          # per-segment last-segment contexts (NLTK), else None

    @property
    def score(self) -> float:
        return self.trace.score


class ReportBase:
    """What every corpus report answers the same way (its ``testset`` and ``systems`` hold the rest)."""

    testset: TestSet
    systems: list

    @property
    def n_segments(self) -> int:
        return self.testset.n_segments

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.systems]

    @property
    def signature(self) -> str:
        return self.systems[0].trace.signature


@dataclass
class BleuReport(ReportBase):
    testset: TestSet
    dialect: str
    options: dict
    d: BleuDialect
    systems: list[BleuSystem]
    ref_lens: list[list[int]]         # per segment: tokens of each reference
    prepared_refs: list | None = field(default=None, repr=False)
    _cache: dict = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------------------------- basics
    @property
    def scale(self) -> float:
        return self.d.scale

    @property
    def max_order(self) -> int:
        return self.d.max_order

    def index(self, name: str) -> int:
        return self.names.index(name)

    def statistic(self, i: int) -> Statistic:
        d = self.d
        if d.needs_last_segment:
            raise ExplainerInputError(
                f"bootstrap and paired tests are not defined for the {self.dialect} dialect: its corpus score "
                "depends on the last segment (NLTK's smoothing reads it), which resampling would change")
        sysr = self.systems[i]
        return Statistic(sysr.stats, lambda rows, mode: score_rows(d, rows, mode=mode), sysr.score)

    def corpus_scores(self) -> list:
        """Every system's :class:`explainer.family.CorpusScores` (what the family's ``corpus`` gives), from the
        report's statistics: the corpus score, each segment's score alone and the statistic of the tests."""
        from explainer.bleu.family import BLEU
        from explainer.family import CorpusScores, MeasureScores

        m = BLEU.main_measure(self.d)
        why = "" if not self.d.needs_last_segment else (
            f"bootstrap and paired tests are not defined for the {self.dialect} dialect: its corpus score depends on "
            "the last segment (NLTK's smoothing reads it), which resampling would change")
        return [CorpusScores(BLEU.name, self.signature,
                             {m.key: MeasureScores(m, float(s.score), s.sentence,
                                                   None if why else self.statistic(j), why)},
                             BLEU.segment_score_name(self.d)) for j, s in enumerate(self.systems)]

    def score_subset(self, i: int, idx) -> float:
        """The corpus score of system i over the segments ``idx`` (0-based), from their summed statistics."""
        st = self.systems[i].stats[np.asarray(idx, dtype=np.int64)]
        if len(st) == 0:
            return float("nan")
        ctx = None
        if self.systems[i].ctxs is not None:
            ctx = [self.systems[i].ctxs[int(np.asarray(idx)[-1])]]
        return score_rows(self.d, st.sum(0)[None, :], mode="py", ctxs=ctx)[0]

    # ------------------------------------------------------------------------ sentence variants
    def sacrebleu_sentence_variants(self, i: int) -> dict | None:
        """A dialect whose arithmetic is sacreBLEU's ``compute_bleu`` only (``d.compute_bleu_params()``): each
        segment as ``sacrebleu.sentence_bleu`` scores it (effective order on) and as ``BLEU().sentence_score``
        does (effective order off, as BLEU() defaults), with the page's other options."""
        params = self.d.compute_bleu_params()
        if params is None:
            return None
        key = ("sent_variants", i)
        if key not in self._cache:
            st = self.systems[i].stats
            kw = {k: v for k, v in params.items() if k != "effective_order"}
            kw["mode"] = "py"
            self._cache[key] = {
                "sentence_bleu": np.asarray(sacrebleu_scores(st, effective_order=True, **kw)),
                "sentence_score": np.asarray(sacrebleu_scores(st, effective_order=False, **kw)),
            }
        return self._cache[key]

    # --------------------------------------------------------------------------- corpus vs mean
    def corpus_vs_mean(self, i: int, top: int = 10) -> dict:
        key = ("cvm", i, top)
        if key in self._cache:
            return self._cache[key]
        sysr = self.systems[i]
        S = self.n_segments
        sent = sysr.sentence
        corpus = float(sysr.score)
        mean = float(np.mean(sent)) if S else float("nan")
        gap = corpus - mean
        out: dict[str, Any] = {"system": sysr.name, "corpus": corpus, "mean_of_sentences": mean, "gap": gap,
                               "n_segments": S}
        var = self.sacrebleu_sentence_variants(i)
        if var is not None:
            out["mean_sentence_bleu"] = float(np.mean(var["sentence_bleu"]))
            out["mean_sentence_score"] = float(np.mean(var["sentence_score"]))
        # leave-one-out: how much the gap changes when segment k is left out
        if S > 1:
            total = sysr.stats.sum(0)
            loo_rows = total[None, :] - sysr.stats
            ctxs = None
            if sysr.ctxs is not None:
                last, before = sysr.ctxs[-1], sysr.ctxs[-2]
                ctxs = [last] * (S - 1) + [before]
            loo_corpus = np.asarray(score_rows(self.d, loo_rows, mode="py", ctxs=ctxs))
            loo_mean = (sent.sum() - sent) / (S - 1)
            influence = gap - (loo_corpus - loo_mean)
            order = np.argsort(-np.abs(influence), kind="stable")[:top]
            out["pulling_apart"] = [
                {"segment": int(k) + 1, "influence": float(influence[k]), "sentence_score": float(sent[k]),
                 "length": int(sysr.stats[k, 0]), "ref_length": int(sysr.stats[k, 1]),
                 "corpus_without": float(loo_corpus[k]), "mean_without": float(loo_mean[k])}
                for k in order]
        out["reasons"] = self._gap_reasons(i)
        self._cache[key] = out
        return out

    def _gap_reasons(self, i: int) -> list[dict]:
        """Plain-language facts of this data that make the corpus score and the mean differ."""
        sysr = self.systems[i]
        N = self.max_order
        st = sysr.stats
        S = len(st)
        c, r = st[:, 0], st[:, 1]
        mN = st[:, 1 + N]
        tN = st[:, 1 + 2 * N]
        out = []
        w = c / max(1, c.sum())
        heavy = np.argsort(-c, kind="stable")[: max(1, S // 10)]
        out.append({"what": "weights", "segments": _ids(heavy),
                    "text": (f"The corpus score sums the n-gram counts of all {S:,} segments before dividing, so a "
                             f"long segment weighs more: the longest 10 % of the segments hold "
                             f"{100 * float(w[heavy].sum()):.0f} % of the candidate tokens. The mean of sentence "
                             "scores gives every segment the same weight.")})
        zero = (mN == 0) & (tN > 0)
        if zero.any():
            k = int(zero.sum())
            out.append({"what": f"no {N}-gram match", "segments": _ids(zero), "count": k,
                        "text": (f"{_n(k, 'segment')} match{'es' if k == 1 else ''} no {N}-gram: alone "
                                 f"{'it scores' if k == 1 else 'they score'} 0 (or a small smoothed value), although "
                                 f"{'its' if k == 1 else 'their'} 1- to {N - 1}-gram matches still count in the "
                                 "corpus sums.")})
        short = tN == 0
        if short.any():
            k = int(short.sum())
            out.append({"what": f"shorter than {N} tokens", "segments": _ids(short), "count": k,
                        "text": (f"{_n(k, 'segment')} {'has' if k == 1 else 'have'} fewer than {N} tokens, so no "
                                 f"{N}-gram at all: alone {'its' if k == 1 else 'their'} score depends on the "
                                 "dialect's rule for an empty order; in the corpus they only add their shorter "
                                 "n-grams.")})
        brief = (c < r)
        if brief.any():
            k = int(brief.sum())
            ratio = c.sum() / max(1, r.sum())
            out.append({"what": "brevity", "segments": _ids(brief), "count": k,
                        "text": (f"{_n(k, 'segment')} {'is' if k == 1 else 'are'} shorter than "
                                 f"{'its' if k == 1 else 'their'} reference, so each is penalised alone (BP < 1); the "
                                 f"corpus applies one brevity penalty to the total lengths (ratio {ratio:.3f}), "
                                 "where longer segments make up for shorter ones.")})
        out.append({"what": "geometric mean", "segments": [],
                    "text": ("Both take a geometric mean of precisions, but the corpus takes it once over summed "
                             "counts, the mean takes it per segment and then averages: the mean of geometric means "
                             "is not the geometric mean of the sums.")})
        return out

    # ------------------------------------------------------------------------------- the table
    def segment_rows(self, baseline: int = 0) -> dict[str, list]:
        """Per-segment table as columns (``segment_columns``)."""
        return segment_columns([(s.name, s.stats, s.sentence, s.bp) for s in self.systems],
                               [int(x[0]) if x else 0 for x in self.ref_lens], self.max_order, baseline)

    def segment_record(self, k: int, baseline: int = 0) -> dict:
        """Everything the report knows about segment k (0-based), for the JSON report and drill-down."""
        N = self.max_order
        base = self.systems[baseline].sentence[k]
        rec = {"segment": k + 1, "ref_lengths": list(self.ref_lens[k]), "systems": {}}
        for j, s in enumerate(self.systems):
            row = s.stats[k].tolist()
            rec["systems"][s.name] = {"length": row[0], "r": row[1], "matches": row[2:2 + N],
                                      "totals": row[2 + N:], "score": float(s.sentence[k]), "bp": float(s.bp[k]),
                                      "delta": None if j == baseline else float(s.sentence[k] - base)}
        return rec

    # ------------------------------------------------------------------------------- analyses
    def length_buckets(self, edges: Sequence[int] | None = None) -> list[dict]:
        """Corpus score per system over the segments of each reference-length bucket (reference 1's tokens).
        ``edges=None``: five buckets of about equal size (quintiles of the lengths); empty buckets are left out."""
        L = np.array([x[0] if x else 0 for x in self.ref_lens])
        if edges is None:
            edges = quantile_edges(L)
        bounds = [0] + list(edges) + [None]
        out = []
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            mask = (L >= lo) & (L < hi) if hi is not None else (L >= lo)
            idx = np.flatnonzero(mask)
            if not len(idx):
                continue
            label = f"{lo}–{hi - 1}" if hi is not None else f"{lo}+"
            rec = {"bucket": label, "low": lo, "high": hi, "n_segments": int(len(idx)),
                   "segments": _ids(idx), "scores": {}, "length_ratio": {}}
            for j, s in enumerate(self.systems):
                rec["scores"][s.name] = self.score_subset(j, idx)
                tot = s.stats[idx].sum(0)
                rec["length_ratio"][s.name] = float(tot[0] / tot[1]) if tot[1] else None
            out.append(rec)
        return out

    def precision_by_order(self) -> list[dict]:
        out = []
        for s in self.systems:
            t = s.trace
            out.append({"system": s.name, "counts": list(t.counts), "totals": list(t.totals),
                        "precisions": [float(p) for p in t.precisions]})
        return out

    def precision_segments(self, i: int, n: int) -> dict:
        """The segments behind system i's corpus n-gram precision of order ``n`` (1-based): p_n = summed clipped
        matches / summed n-grams of the candidate, so each segment with n-grams of that order adds its own
        matches and totals. Rows most unmatched n-grams first (they pull p_n down most); ``matches`` and
        ``totals`` are the sums the corpus score uses."""
        N = self.max_order
        if not 1 <= n <= N:
            raise ValueError(f"order {n} is not between 1 and {N}")
        s = self.systems[i]
        m, t = s.stats[:, 1 + n], s.stats[:, 1 + N + n]
        idx = sorted(np.flatnonzero(t > 0).tolist(), key=lambda k: (-(t[k] - m[k]), k))
        rows = [{"segment": k + 1, "matches": int(m[k]), "totals": int(t[k]), "missed": int(t[k] - m[k]),
                 "precision": float(m[k] / t[k])} for k in idx]
        return {"system": s.name, "order": n, "matches": int(m.sum()), "totals": int(t.sum()), "segments": rows}

    def largest_deltas(self, i: int, baseline: int = 0, k: int = 10) -> dict:
        """Segments where system i's sentence score is most above / below the baseline's. sacreBLEU: as
        ``sacrebleu.sentence_bleu`` scores them (effective order on: a 2-4-token segment is not 0 for lack of a
        4-gram, so it does not jump between 0 and 100 and fill the list); other dialects: their own sentence
        score. ``scored_by`` says which."""
        vi, vb = self.sacrebleu_sentence_variants(i), self.sacrebleu_sentence_variants(baseline)
        if vi is not None and vb is not None:
            a, b, how = vi["sentence_bleu"], vb["sentence_bleu"], "sacrebleu.sentence_bleu (effective order)"
        else:
            a, b = self.systems[i].sentence, self.systems[baseline].sentence
            how = f"{self.dialect}'s sentence score"
        return largest_deltas(a, b, k, system=self.systems[i].name, baseline=self.systems[baseline].name,
                              scored_by=how)

    def length_ratio(self) -> list[dict]:
        """Per system: total c / r, each segment's c / r (None where r is 0) and the segments of each bin of
        :data:`LENGTH_RATIO_EDGES` (``bins``)."""
        out = []
        for s in self.systems:
            c, r = s.stats[:, 0], s.stats[:, 1]
            with np.errstate(divide="ignore", invalid="ignore"):
                seg = np.where(r > 0, c / np.where(r > 0, r, 1), np.nan)
            out.append({"system": s.name, "sys_len": int(c.sum()), "ref_len": int(r.sum()),
                        "ratio": float(c.sum() / r.sum()) if r.sum() else None,
                        "segment_ratio": [None if math.isnan(x) else float(x) for x in seg.tolist()],
                        "shorter": int((c < r).sum()), "longer": int((c > r).sum()), "bins": ratio_bins(seg)})
        return out

    def ngram_differences(self, i: int, baseline: int = 0, k: int = 15, orders: Sequence[int] | None = None) -> dict:
        from explainer.corpus.ngram_diff import ngram_differences

        key = ("ngd", i, baseline, k, tuple(orders) if orders else None)
        if key not in self._cache:
            self._cache[key] = ngram_differences(self, i, baseline, k=k, orders=orders)
        return self._cache[key]

    # --------------------------------------------------------------------------------- export
    def to_dict(self, *, baseline: int = 0, segments: bool = True, analyses: bool = True,
                tests: dict | None = None) -> dict:
        out: dict[str, Any] = {
            "kind": "bleu-corpus-report", "dialect": self.dialect, "options": self.d.options_dict(),
            "signature": self.signature, "scale": self.scale, "n_segments": self.n_segments,
            "n_references": self.testset.n_refs(), "reference_files": list(self.testset.ref_names),
            "baseline": self.systems[baseline].name,
            "systems": [{"name": s.name, "score": float(s.score), "corpus": s.trace.to_dict()} for s in self.systems],
        }
        for sd in out["systems"]:
            sd["corpus"].pop("segment_stats", None)
        if analyses:
            out["corpus_vs_mean"] = [self.corpus_vs_mean(j) for j in range(len(self.systems))]
            out["precision_by_order"] = self.precision_by_order()
            out["length_buckets"] = self.length_buckets()
            ratios = self.length_ratio()
            for r in ratios:
                r.pop("segment_ratio")
                r.pop("bins")
            out["length_ratio"] = ratios
            out["largest_deltas"] = [self.largest_deltas(j, baseline) for j in range(len(self.systems))
                                     if j != baseline]
            out["ngram_differences"] = [self.ngram_differences(j, baseline) for j in range(len(self.systems))
                                        if j != baseline]
        if tests:
            out["tests"] = tests
        if segments:
            out["segments"] = [self.segment_record(k, baseline) for k in range(self.n_segments)]
        return out


def largest_deltas(sys_scores, base_scores, k: int = 10, **labels) -> dict:
    """The k segments (1-based ids) where ``sys_scores`` is most above and most below ``base_scores``, and how many
    are better, worse and equal."""
    a, b = np.asarray(sys_scores), np.asarray(base_scores)
    delta = a - b
    order = np.argsort(delta, kind="stable")
    neg = [int(x) for x in order[:k] if delta[x] < 0]
    pos = [int(x) for x in order[::-1][:k] if delta[x] > 0]

    def rec(x):
        return {"segment": x + 1, "delta": float(delta[x]), "baseline": float(b[x]), "system": float(a[x])}

    return {**labels, "better": [rec(x) for x in pos], "worse": [rec(x) for x in neg],
            "n_better": int((delta > 0).sum()), "n_worse": int((delta < 0).sum()), "n_equal": int((delta == 0).sum())}


def ratio_bins(ratios, edges: Sequence[float] = LENGTH_RATIO_EDGES) -> list[dict]:
    """Segments (1-based ids) per bin [low, high) of the length ratios ``ratios`` (NaN: no reference length, in no
    bin); ``range`` is the bin's label."""
    v = np.asarray(ratios, dtype=float)
    out = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        with np.errstate(invalid="ignore"):
            mask = (v >= lo) & (v < hi)
        out.append({"range": f"{lo:g}–{hi:g}" if hi != math.inf else f"≥ {lo:g}", "low": lo,
                    "high": None if hi == math.inf else hi, "segments": _ids(mask)})
    return out


def quantile_edges(lengths, k: int = 5) -> list[int]:
    """Bucket edges at the quantiles of the lengths (k buckets of about equal size, whole tokens)."""
    L = np.asarray(lengths)
    if not len(L):
        return list(LENGTH_BUCKETS)
    qs = np.percentile(L, [100 * j / k for j in range(1, k)])
    return sorted({int(math.ceil(q)) for q in qs if q > 0})


def segment_columns(systems: Sequence[tuple[str, np.ndarray, np.ndarray, np.ndarray]], ref_len: Sequence[int],
                    max_order: int, baseline: int = 0) -> dict[str, list]:
    """The per-segment table as columns: id, reference 1's length, and per system ``(name, stats, sentence, bp)``
    its length, r, score, delta to the baseline's score, BP and the highest order's matches/totals. The page, the
    report and ``compare --segments`` write the same table."""
    N = max_order
    cols: dict[str, list] = {"segment": list(range(1, len(ref_len) + 1)), "ref_len": list(ref_len)}
    base = systems[baseline][2]
    for k, (name, stats, sentence, bp) in enumerate(systems):
        cols[f"{name} | len"] = stats[:, 0].tolist()
        cols[f"{name} | r"] = stats[:, 1].tolist()
        cols[f"{name} | score"] = sentence.tolist()
        if k != baseline:
            cols[f"{name} | Δ"] = (sentence - base).tolist()
        cols[f"{name} | BP"] = bp.tolist()
        cols[f"{name} | {N}-gram"] = [f"{m}/{t}" for m, t in zip(stats[:, 1 + N].tolist(),
                                                                   stats[:, 1 + 2 * N].tolist())]
    return cols


def report_stats(testset: TestSet, d: BleuDialect, *, keep_refs: bool = False,
                 progress: Callable[[float, str], None] | None = None) -> tuple:
    """The statistics of every system of ``testset`` under the bound dialect ``d`` (``system_stats``' tuple, its
    arrays read-only): what a report is made from, and all a report of another dialect with the same
    ``counts_key`` needs (only options applied after counting differ)."""
    tick = progress or (lambda f, msg: None)
    hyps = [lines for _, lines in testset.systems]
    arrays, ref_lens, prepared, ctxs = system_stats(
        d, hyps, testset.references, keep_refs=keep_refs,
        progress=lambda a, b: tick(0.85 * a / b, f"statistics: segment {a:,} of {b:,}"))
    for a in arrays:
        a.setflags(write=False)     # shared by the reports of several settings
    return arrays, ref_lens, prepared, ctxs


def bleu_report(testset: TestSet, *, dialect: str = "sacrebleu", keep_refs: bool = True,
                progress: Callable[[float, str], None] | None = None, stats: tuple | None = None,
                **options: Any) -> BleuReport:
    """Score every system of ``testset`` under ``dialect`` with ``options`` (as ``explain_bleu_corpus``).
    ``stats``: :func:`report_stats` of the test set under a dialect with the same ``counts_key`` (computed if
    None)."""
    d = get_dialect(dialect, **options)
    tick = progress or (lambda f, msg: None)
    if stats is None:
        stats = report_stats(testset, d, keep_refs=keep_refs, progress=tick)
    arrays, ref_lens, prepared, ctxs = stats
    systems = []
    for j, (name, lines) in enumerate(testset.systems):
        tick(0.85 + 0.15 * j / len(testset.systems), f"corpus score of {name}")
        trace = explain_corpus(d, lines, testset.references, stats=arrays[j].tolist())
        c = ctxs[j] if ctxs is not None else None
        sent, bp = segment_scores(d, arrays[j], c)
        systems.append(BleuSystem(name, trace, arrays[j], sent, bp, c))
    tick(1.0, "done")
    return BleuReport(testset, dialect, dict(options), d, systems, ref_lens, prepared)
