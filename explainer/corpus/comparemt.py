"""compare-mt's analyses (Neubig et al. 2019) on a BLEU report, with the report's own tokens (the dialect's
tokenizer and lowercasing) and sacreBLEU's sentence scores:

* ``word_accuracy``: precision, recall and F-measure of the words, bucketed by their frequency in the references
  (or in a training / source-side corpus when given), as compare-mt's ``generate_word_accuracy_report`` with
  its default frequency cut-offs 1, 2, 3, 4, 5, 10, 100, 1000: per segment, a word type matches
  min(count in the output, count in the reference) times; an output word is bucketed by its own frequency, a
  reference word by its own. With several references, the first one is used (compare-mt takes one reference).
* ``sentence_buckets``: how many segments of each system fall in each band of sentence score (sacreBLEU's
  ``sentence_bleu`` with effective order, compare-mt's ``sentbleu``), bands of 10 points.
* ``source_length_buckets``: corpus BLEU of each system over the segments of each source-length bucket (whitespace
  tokens of the source file, or characters for text without spaces), buckets of about equal size.

Every record lists its segments (1-based ids), as the report's own analyses do.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

import numpy as np

__all__ = ["FREQ_CUTOFFS", "word_accuracy", "sentence_buckets", "source_length_buckets", "source_lengths"]

#: compare-mt's default frequency bucket boundaries (``--wordacc_bucket_cutoffs``-less runs)
FREQ_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)


def _bucket_labels(cutoffs: Sequence[int]) -> list[str]:
    out = [f"<{cutoffs[0]}"]
    for lo, hi in zip(cutoffs[:-1], cutoffs[1:]):
        out.append(f"{lo}" if hi == lo + 1 else f"[{lo},{hi})")
    out.append(f">={cutoffs[-1]}")
    return out


def _bucket_of(freq: int, cutoffs: Sequence[int]) -> int:
    for k, c in enumerate(cutoffs):
        if freq < c:
            return k
    return len(cutoffs)


def word_accuracy(report, *, freq_corpus: Iterable[str] | None = None,
                  cutoffs: Sequence[int] = FREQ_CUTOFFS) -> dict:
    """Word precision / recall / F per frequency bucket and system (see the module's docstring)."""
    d = report.d
    refs_tok = [d.tokenize(r[0]) if r else [] for r in report.testset.references]
    freq: Counter = Counter()
    if freq_corpus is None:
        for toks in refs_tok:
            freq.update(toks)
        source = "the references"
    else:
        for line in freq_corpus:
            freq.update(d.tokenize(line))
        source = "the given corpus"
    labels = _bucket_labels(cutoffs)
    nb = len(labels)
    out_systems = []
    for name, lines in report.testset.systems:
        match = np.zeros(nb, dtype=np.int64)
        n_out = np.zeros(nb, dtype=np.int64)
        n_ref = np.zeros(nb, dtype=np.int64)
        segs: list[set] = [set() for _ in range(nb)]
        for k, (hyp, ref) in enumerate(zip(lines, refs_tok)):
            hc, rc = Counter(d.tokenize(hyp)), Counter(ref)
            for w, c in hc.items():
                b = _bucket_of(freq.get(w, 0), cutoffs)
                n_out[b] += c
                m = min(c, rc.get(w, 0))
                match[b] += m
                segs[b].add(k + 1)
            for w, c in rc.items():
                b = _bucket_of(freq.get(w, 0), cutoffs)
                n_ref[b] += c
                segs[b].add(k + 1)
        rows = []
        for b in range(nb):
            p = match[b] / n_out[b] if n_out[b] else 0.0
            r = match[b] / n_ref[b] if n_ref[b] else 0.0
            f = 2 * p * r / (p + r) if p + r else 0.0
            rows.append({"bucket": labels[b], "matches": int(match[b]), "output_words": int(n_out[b]),
                         "reference_words": int(n_ref[b]), "precision": float(p), "recall": float(r),
                         "fmeasure": float(f), "segments": sorted(segs[b])})
        out_systems.append({"system": name, "buckets": rows})
    return {"frequencies_from": source, "cutoffs": list(cutoffs), "labels": labels, "systems": out_systems}


def sentence_buckets(report, width: float = 10.0) -> dict:
    """Segments per band of sentence score (sacreBLEU: ``sentence_bleu``, effective order; else the dialect's
    sentence score), per system."""
    scale = report.scale
    step = width if scale >= 100 else width / 100
    n = int(round(scale / step))
    labels = [f"{k * step:g}–{(k + 1) * step:g}" for k in range(n)]
    systems = []
    how = None
    for j, s in enumerate(report.systems):
        var = report.sacrebleu_sentence_variants(j)
        scores = var["sentence_bleu"] if var is not None else s.sentence
        how = "sacrebleu.sentence_bleu (effective order)" if var is not None else f"{report.dialect}'s sentence score"
        idx = np.minimum((np.asarray(scores) / step).astype(int), n - 1)
        systems.append({"system": s.name, "counts": [int((idx == k).sum()) for k in range(n)],
                        "segments": [[int(x) + 1 for x in np.flatnonzero(idx == k)] for k in range(n)]})
    return {"scored_by": how, "labels": labels, "systems": systems}


def source_lengths(source: Sequence[str]) -> np.ndarray:
    """Whitespace tokens of each source line; characters (without spaces) for a source mostly without spaces
    (Chinese, Japanese)."""
    words = np.array([len(s.split()) for s in source])
    chars = np.array([len("".join(s.split())) for s in source])
    if words.sum() and chars.sum() / max(1, words.sum()) > 15:      # no spaces between words
        return chars
    return words


def source_length_buckets(report, source: Sequence[str], k: int = 5) -> list[dict]:
    """Corpus score per system over the segments of each source-length bucket (about equal size)."""
    from explainer.corpus.report import quantile_edges

    if len(source) != report.n_segments:
        raise ValueError(f"the source has {len(source):,} lines, the test set {report.n_segments:,} segments")
    L = source_lengths(source)
    edges = quantile_edges(L, k)
    bounds = [0] + list(edges) + [None]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        mask = (L >= lo) & (L < hi) if hi is not None else (L >= lo)
        idx = np.flatnonzero(mask)
        if not len(idx):
            continue
        out.append({"bucket": f"{lo}–{hi - 1}" if hi is not None else f"{lo}+", "low": lo, "high": hi,
                    "n_segments": int(len(idx)), "segments": [int(x) + 1 for x in idx],
                    "scores": {s.name: report.score_subset(j, idx) for j, s in enumerate(report.systems)}})
    return out
