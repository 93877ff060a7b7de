"""compare-mt's analyses (Neubig et al. 2019) on a BLEU report, with the report's own tokens (the dialect's
tokenizer and lowercasing):

* ``word_accuracy``: precision, recall and F-measure of the words, bucketed by their frequency in the references
  (or in a training / source-side corpus when given), as compare-mt's ``generate_word_accuracy_report`` with
  its default frequency cut-offs 1, 2, 3, 4, 5, 10, 100, 1000: per segment, a word type matches
  min(count in the output, count in the reference) times; an output word is bucketed by its own frequency, a
  reference word by its own. With several references, the first one is used (compare-mt takes one reference).
* ``sentence_buckets``: how many segments of each system fall in each band of sentence score, as compare-mt's
  ``--compare_sentence_buckets bucket_type=score,score_measure=sentbleu`` counts them: its ``sentbleu`` is NLTK's
  ``sentence_bleu`` with Chen & Cherry's method 2 against the first reference (NLTK's arithmetic on counts made
  once per reference, equal to NLTK's own function to the last bit), its cut-offs 10, 20, ..., 90 (times the
  scale / 100) and its bucket labels.
* ``source_length_buckets`` (this project's, not compare-mt's: compare-mt's length buckets are by reference
  length): corpus BLEU of each system over the segments of each source-length bucket (whitespace tokens of the
  source file, or characters for text without spaces), buckets of about equal size.

compare-mt reads files that are already tokenized (split at single spaces: an empty line is one empty token
there); here the tokens are the dialect's. Given the same tokens, the counts, precisions, recalls, F-measures
and sentence-bucket counts are compare-mt's own (``tests/test_corpus_comparemt_parity.py`` runs compare-mt).

Every record lists its segments (1-based ids), as the report's own analyses do.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Iterable, Sequence

import numpy as np

from explainer.ngrams import count_all_ngrams

__all__ = ["FREQ_CUTOFFS", "SENTBLEU_SCORED_BY", "word_accuracy", "sentence_buckets", "sentbleu_scores",
           "source_length_buckets", "source_lengths"]

#: compare-mt's default frequency bucket boundaries (``--wordacc_bucket_cutoffs``-less runs)
FREQ_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)


#: how :func:`sentence_buckets` scores a segment (said on the page and in the JSON report)
SENTBLEU_SCORED_BY = ("compare-mt's sentbleu: NLTK sentence_bleu with Chen & Cherry's method 2, against the first "
                      "reference, on the dialect's tokens")


def _bucket_labels(cutoffs: Sequence, num_type: str = "int") -> list[str]:
    """compare-mt's ``Bucketer.set_bucket_cutoffs`` labels: ``<1``, ``1`` .. ``4``, ``[5,10)``, ``>=1000``."""
    out = []
    for k, x in enumerate(cutoffs):
        if k == 0:
            out.append(f"<{x}")
        elif num_type == "int" and x - 1 == cutoffs[k - 1]:
            out.append(f"{x - 1}")
        else:
            out.append(f"[{cutoffs[k - 1]},{x})")
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
    # each word's bucket once (not once per occurrence), and the references' side once for every system: the
    # same numbers, a third of the time on a WMT test set (issue 18: a click on the analysis waits for it)
    bucket = {w: _bucket_of(c, cutoffs) for w, c in freq.items()}
    unseen = _bucket_of(0, cutoffs)
    ref_counts = [Counter(ref) for ref in refs_tok]
    n_ref = [0] * nb
    ref_segs: list[set] = [set() for _ in range(nb)]
    for k, rc in enumerate(ref_counts):
        for w, c in rc.items():
            b = bucket.get(w, unseen)
            n_ref[b] += c
            ref_segs[b].add(k + 1)
    out_systems = []
    for name, lines in report.testset.systems:
        match = [0] * nb
        n_out = [0] * nb
        segs: list[set] = [set(x) for x in ref_segs]
        for k, (hyp, rc) in enumerate(zip(lines, ref_counts)):
            for w, c in Counter(d.tokenize(hyp)).items():
                b = bucket.get(w, unseen)
                n_out[b] += c
                match[b] += min(c, rc.get(w, 0))
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


def first_reference_counts(report) -> list[tuple[Counter, int]]:
    """Each segment's first reference as compare-mt's ``sentbleu`` sees it: its n-gram counts (orders 1-4) and
    its length, on the dialect's tokens. Shared by every system's :func:`sentbleu_scores`."""
    d = report.d
    out = []
    for refs in report.testset.references:
        toks = d.tokenize(refs[0]) if refs else []
        out.append((count_all_ngrams(toks, 4), len(toks)))
    return out


def sentbleu_scores(report, j: int, ref_counts: list[tuple[Counter, int]] | None = None) -> list[float]:
    """System j's segments as compare-mt's ``SentBleuScorer`` scores them: ``scale * nltk sentence_bleu([ref],
    out, smoothing_function=SmoothingFunction().method2)`` on the dialect's tokens, the first reference
    (:func:`nltk_sentbleu_method2`: NLTK's arithmetic on counts made once per reference)."""
    d = report.d
    scale = _comparemt_scale(report)
    if ref_counts is None:
        ref_counts = first_reference_counts(report)
    return [scale * nltk_sentbleu_method2(d.tokenize(hyp), rc, rlen)
            for hyp, (rc, rlen) in zip(report.testset.systems[j][1], ref_counts)]


def nltk_sentbleu_method2(hyp: Sequence[str], ref_counts: Counter, ref_len: int) -> float:
    """``nltk.translate.bleu_score.sentence_bleu([ref], hyp, smoothing_function=SmoothingFunction().method2)``
    with the default weights, equal to the last bit (``tests/test_corpus_comparemt.py`` compares them): the same
    clipped counts and ``max(1, n-grams)`` denominators as ``modified_precision``, the early 0 without a unigram
    match, method 2's +1 on orders 2-4, NLTK's own ``brevity_penalty`` and its ``fsum`` of ``0.25 * log(p)``.
    NLTK's ``p`` is an unnormalised ``Fraction`` that ``log`` reads as ``float(p)``, i.e. ``numerator /
    denominator`` (Python's correctly rounded int division): the same float is made here without the Fraction.
    Calling NLTK itself costs about five times more (it counts the reference anew per order and per system): 0.8 s
    for WMT22's 3 × 2,037 segments, the first "Sentence buckets" click."""
    from nltk.translate.bleu_score import brevity_penalty

    matches = [0, 0, 0, 0]
    for g, k in count_all_ngrams(hyp, 4).items():
        r = ref_counts.get(g)
        if r:
            matches[len(g) - 1] += k if k < r else r
    totals = [max(0, len(hyp) - n) for n in range(4)]
    if matches[0] == 0:
        return 0
    # every p is > 0 here: p1's numerator is a match, the others' are + 1
    p = [matches[0] / max(1, totals[0])] + [(matches[n] + 1) / (max(1, totals[n]) + 1) for n in (1, 2, 3)]
    return brevity_penalty(ref_len, len(hyp)) * math.exp(math.fsum(0.25 * math.log(p_i) for p_i in p))


def _comparemt_scale(report) -> float:
    """compare-mt's ``--scorer_scale`` (1 or 100) that matches the dialect's scale."""
    return 100.0 if report.scale >= 100 else 1.0


def sentence_buckets(report) -> dict:
    """Segments per band of compare-mt's sentence score (:func:`sentbleu_scores`), per system, with compare-mt's
    cut-offs (``x * scale / 10`` for x in 1..9, a score below a cut-off falls under it) and labels."""
    scale = _comparemt_scale(report)
    cutoffs = [x * scale / 10.0 for x in range(1, 10)]
    labels = _bucket_labels(cutoffs, num_type="float")
    systems = []
    refc = first_reference_counts(report)
    for j, s in enumerate(report.systems):
        idx = np.array([_bucket_of(x, cutoffs) for x in sentbleu_scores(report, j, refc)], dtype=np.int64)
        systems.append({"system": s.name, "counts": [int((idx == k).sum()) for k in range(len(labels))],
                        "segments": [[int(x) + 1 for x in np.flatnonzero(idx == k)] for k in range(len(labels))]})
    return {"scored_by": SENTBLEU_SCORED_BY, "cutoffs": cutoffs, "labels": labels, "systems": systems}


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
