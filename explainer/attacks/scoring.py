"""One small scoring adapter for the gaming lab.

Every number the lab shows comes from here, and every number here comes from the real implementations:
sacreBLEU's ``BLEU`` metric object (its tokenizers, n-gram extraction, clipping and ``compute_bleu``) and
rouge-score's ``RougeScorer`` / its tokenizer and scoring functions. Nothing is re-implemented.

Two paths:

* :func:`score` - any dialect of either family with any of its options (a :class:`~explainer.attacks.configs.BleuConfig`
  / :class:`~explainer.attacks.configs.RougeConfig`: the registry's names and the options' own specs, as on the
  CLI), through the explainer's own cores (``explainer.bleu.score_bleu``, ``explainer.rouge.score_rouge``), which
  reproduce the packages exactly; used for presets and generators, and compared with the real packages in the
  tests.
* :class:`FastScorer` - references tokenised once (sacreBLEU's own reference cache, rouge-score's own
  tokenizer), then each candidate costs one tokenisation plus counting; used by the optimizer, which scores
  thousands of neighbours. It returns exactly what :func:`score` returns for the default options
  (tested).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Sequence

import numpy as np
from rouge_score import rouge_scorer
from rouge_score import scoring as rs_scoring
from rouge_score import tokenizers as rs_tokenizers
from sacrebleu.metrics.bleu import BLEU

from explainer.attacks.configs import (
    CORPUS_BLEU,
    ROUGE_SCORE,
    ROUGE_TYPES,
    SENTENCE_BLEU,
    BleuConfig,
    RougeConfig,
    bleu_input,
    nltk_characters,
)
from explainer.rouge.lcs import lcs_length

__all__ = [
    "METRICS", "Metric", "BleuConfig", "RougeConfig", "SENTENCE_BLEU", "CORPUS_BLEU", "ROUGE_SCORE", "Scores",
    "score", "score_corpus", "sentence_config", "FastScorer", "metric_label", "format_metric", "bleu_tokens",
    "bleu_input", "nltk_characters", "sacrebleu_metric", "family_measure",
]


@dataclass(frozen=True)
class Metric:
    """One number of the lab's lessons: ``family`` is the metric family it belongs to (its group in a table) and
    ``measure`` the family's measure it equals (its key in ``family.scores``), or "" for a part of a metric (a
    brevity penalty, a precision) that no family reports as its score."""

    key: str
    label: str
    scale: float  # 100 for BLEU, 1 for everything else
    help: str
    family: str = ""
    measure: str = ""


METRICS: dict[str, Metric] = {m.key: m for m in [
    Metric("bleu", "BLEU", 100.0, "BLEU (0-100) of the variant's dialect and options", "bleu", "score"),
    Metric("bleu_bp", "BLEU brevity penalty", 1.0, "exp(1 - r/c) when the candidate is shorter, else 1", "bleu"),
    Metric("rouge1_p", "ROUGE-1 P", 1.0, "rouge-score unigram precision", "rouge"),
    Metric("rouge1_r", "ROUGE-1 R", 1.0, "rouge-score unigram recall", "rouge"),
    Metric("rouge1_f", "ROUGE-1 F", 1.0, "rouge-score unigram F1", "rouge", "rouge1"),
    Metric("rouge2_f", "ROUGE-2 F", 1.0, "rouge-score bigram F1", "rouge", "rouge2"),
    Metric("rougeL_f", "ROUGE-L F", 1.0, "rouge-score longest-common-subsequence F1", "rouge", "rougeL"),
    Metric("rougeLsum_f", "ROUGE-Lsum F", 1.0, "rouge-score summary-level LCS F1 (sentences = lines)", "rouge",
           "rougeLsum"),
    Metric("sent_bleu_mean", "mean sentence BLEU", 100.0, "average of sacrebleu.sentence_bleu over segments",
           "bleu"),
    Metric("unclipped_p1", "unigram precision without clipping", 1.0,
           "share of candidate words found in some reference, counting repeats (what clipping prevents)", "bleu"),
]}


def family_measure(key: str) -> tuple[str, str] | None:
    """(family, measure key) of a lab metric that is a family's own score (``rouge1_f`` -> ROUGE's ``rouge1``), or
    None for a part of a metric (a brevity penalty, a precision)."""
    m = METRICS.get(key)
    return (m.family, m.measure) if m is not None and m.measure else None

DEFAULT_METRICS = ("bleu", "bleu_bp", "rouge1_p", "rouge1_r", "rouge1_f", "rouge2_f", "rougeL_f")


def metric_label(key: str) -> str:
    return METRICS[key].label if key in METRICS else key


def format_metric(key: str, value: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if METRICS.get(key) and METRICS[key].scale == 100.0:
        return f"{value:.1f}"
    return f"{value:.2f}"


def sacrebleu_metric(bleu: BleuConfig = SENTENCE_BLEU, references=None) -> BLEU:
    """sacreBLEU's own ``BLEU`` object for a ``sacrebleu`` configuration (with ``references``: its reference
    cache, tokenised once). Its options are the bound dialect's, defaults resolved (effective order from
    ``api``, the smoothing value). Any other dialect is an error: it has no sacreBLEU object."""
    return _bleu_metric(bleu) if references is None else _new_metric(bleu, references)


def _new_metric(bleu: BleuConfig, references=None) -> BLEU:
    # force only silences sacreBLEU's tokenized-period log warning, never a number
    metric = bleu.dialect_object().library_metric(references, force=True)
    if metric is None:
        raise ValueError(f"the {bleu.dialect} dialect has no sacreBLEU metric object")
    return metric


@lru_cache(maxsize=64)
def _bleu_metric(bleu: BleuConfig) -> BLEU:
    return _new_metric(bleu)


@dataclass
class Scores:
    """Every metric for one candidate (or one corpus) plus the BLEU statistics behind the BLEU number."""

    values: dict[str, float]
    bleu_counts: list[int] = field(default_factory=list)
    bleu_totals: list[int] = field(default_factory=list)
    sys_len: int = 0
    ref_len: int = 0
    rouge: dict[str, tuple[float, float, float]] = field(default_factory=dict)  # type -> (P, R, F)
    signature: str = ""

    def __getitem__(self, key: str) -> float:
        return self.values[key]

    def get(self, key: str, default=None):
        return self.values.get(key, default)

    def to_dict(self) -> dict:
        return asdict(self)


def _check(candidate: str, references: Sequence[str]) -> None:
    if not isinstance(candidate, str):
        raise TypeError("candidate must be a string")
    if not references:
        raise ValueError("at least one reference is needed")


def _bleu_stats(bleu: BleuConfig, candidate: str, references: Sequence[str]):
    from explainer.bleu import score_bleu

    st = score_bleu(bleu_input(candidate, bleu), [bleu_input(r, bleu) for r in references],
                    dialect=bleu.dialect_object())
    if st.library_error:
        raise ValueError(f"BLEU failed: {st.library_error}")
    return st


def _bleu_values(bleu: BleuConfig, st) -> dict[str, float]:
    # every BLEU in the lab is on 0-100, whatever the dialect's own scale (NLTK and Hugging Face report 0-1)
    return {"bleu": float(st.score) * (100.0 / bleu.scale), "bleu_bp": float(st.bp)}


def _rouge_values(rouge: RougeConfig, candidate: str, references: Sequence[str]) -> dict[str, tuple]:
    from explainer.rouge import score_rouge

    res = score_rouge(candidate, list(references), dialect=rouge.dialect_object())
    return {k: (float(v.precision), float(v.recall), float(v.fmeasure)) for k, v in res.items()}


def _unclipped_p1(bleu: BleuConfig, candidate: str, references: Sequence[str]) -> float:
    hyp = bleu_tokens(candidate, bleu)
    vocab = set()
    for r in references:
        vocab.update(bleu_tokens(r, bleu))
    return sum(1 for t in hyp if t in vocab) / len(hyp) if hyp else 0.0


def score(candidate: str, references: Sequence[str], bleu: BleuConfig = SENTENCE_BLEU,
          rouge: RougeConfig = ROUGE_SCORE) -> Scores:
    """All metrics for one candidate against its references (several references: the dialects' own rules, e.g.
    sacreBLEU's max-count clipping and closest length, rouge-score's ``score_multi``, best F per type).
    Computed by the explainer's cores (``score_bleu`` / ``score_rouge``), which reproduce the real
    implementations; the tests compare every preset with the real packages."""
    _check(candidate, references)
    refs = list(references)
    st = _bleu_stats(bleu, candidate, refs)
    rv = _rouge_values(rouge, candidate, refs)
    values = _bleu_values(bleu, st)
    for t, (p, r, f) in rv.items():
        values[f"{t}_p"], values[f"{t}_r"], values[f"{t}_f"] = p, r, f
    values["unclipped_p1"] = _unclipped_p1(bleu, candidate, refs)
    return Scores(values, list(st.counts), list(st.totals), int(st.sys_len), int(st.ref_len), rv, st.signature)


def score_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]],
                 bleu: BleuConfig = CORPUS_BLEU, rouge: RougeConfig = ROUGE_SCORE) -> Scores:
    """Corpus metrics: ``references[i]`` is the list of references of ``candidates[i]``. BLEU is
    sacreBLEU's corpus BLEU (statistics summed, one brevity penalty); ROUGE values are the mean over
    segments of the per-segment scores; ``sent_bleu_mean`` averages ``sentence_bleu`` with the same options."""
    from explainer.bleu import score_bleu_corpus

    if len(candidates) != len(references):
        raise ValueError(f"{len(candidates)} candidates but {len(references)} reference lists")
    d = bleu.dialect_object()
    if d.compute_bleu_params() is None or d.options.get("api") != "corpus_bleu":
        raise ValueError("corpus presets use sacreBLEU's corpus_bleu")
    if not candidates:
        raise ValueError("the corpus is empty")
    for c, r in zip(candidates, references):
        _check(c, r)
    st = score_bleu_corpus(list(candidates), [list(r) for r in references], dialect=bleu.dialect_object())
    if st.library_error:
        raise ValueError(f"BLEU failed: {st.library_error}")
    values = _bleu_values(bleu, st)
    sentence = sentence_config(bleu)
    sent = [float(_bleu_stats(sentence, c, list(r)).score) for c, r in zip(candidates, references)]
    values["sent_bleu_mean"] = sum(sent) / len(sent)
    rv = _mean_rouge([_rouge_values(rouge, c, r) for c, r in zip(candidates, references)])
    for t, (p, r_, f) in rv.items():
        values[f"{t}_p"], values[f"{t}_r"], values[f"{t}_f"] = p, r_, f
    out = Scores(values, list(st.counts), list(st.totals), int(st.sys_len), int(st.ref_len), rv, st.signature)
    out.segment_sentence_bleu = sent  # type: ignore[attr-defined]
    return out


def sentence_config(bleu: BleuConfig) -> BleuConfig:
    """``sacrebleu.sentence_bleu`` with the options of a corpus configuration (effective order as that API
    sets it unless the configuration fixes it)."""
    return bleu.with_options(api="sentence_bleu")


def _mean_rouge(per_segment: list[dict[str, tuple]]) -> dict[str, tuple]:
    n = len(per_segment)
    return {t: tuple(sum(x[t][k] for x in per_segment) / n for k in range(3)) for t in ROUGE_TYPES}


def bleu_tokens(text: str, bleu: BleuConfig = SENTENCE_BLEU) -> list[str]:
    """Tokens exactly as the BLEU of this configuration counts them: the dialect's own tokenizer (sacreBLEU's
    after optional lowercasing, NLTK's ``str.split``, or NLTK's character tokens for plain strings)."""
    return bleu.dialect_object().tokenize(bleu_input(text, bleu))


class FastScorer:
    """Stats-only scoring against fixed references for the optimizer: sacreBLEU's reference cache
    (``BLEU(references=...)``) and rouge-score's tokenizer and scoring functions with the references
    tokenised once. Default options only (sentence BLEU, 13a, exp smoothing; rouge-score default
    tokenizer, no stemmer); :func:`score` is the general path and the two agree exactly (tested)."""

    def __init__(self, references: Sequence[str]):
        if not references:
            raise ValueError("at least one reference is needed")
        self.references = list(references)
        self._bleu = sacrebleu_metric(SENTENCE_BLEU, references=[[r] for r in self.references])
        self._tok = rs_tokenizers.DefaultTokenizer(False)
        self._ref_tokens = [self._tok.tokenize(r) for r in self.references]
        self._ref_ng = [(rouge_scorer._create_ngrams(t, 1), rouge_scorer._create_ngrams(t, 2))
                        for t in self._ref_tokens]

    @staticmethod
    def _lcs_score(ref, pred):
        # rouge-score's _score_lcs, with the LCS length from the explainer's bit-parallel LCS (tested equal to
        # rouge-score's DP table); rouge-score's pure-Python table dominates the optimizer's time otherwise.
        if not ref or not pred:
            return rs_scoring.Score(precision=0, recall=0, fmeasure=0)
        n = lcs_length(ref, pred)
        p, r = n / len(pred), n / len(ref)
        return rs_scoring.Score(precision=p, recall=r, fmeasure=rs_scoring.fmeasure(p, r))

    def bleu(self, candidate: str):
        stats = self._bleu._extract_corpus_statistics([candidate], None)[0]
        return self._bleu._compute_score_from_stats(stats)

    def rouge_l_f(self, candidate: str) -> float:
        """``values(candidate)["rougeL_f"]`` without the other metrics (score_multi's best F = the max F)."""
        pred = self._tok.tokenize(candidate)
        return max(float(self._lcs_score(ref_toks, pred).fmeasure) for ref_toks in self._ref_tokens)

    def values(self, candidate: str) -> dict[str, float]:
        b = self.bleu(candidate)
        pred = self._tok.tokenize(candidate)
        p1, p2 = rouge_scorer._create_ngrams(pred, 1), rouge_scorer._create_ngrams(pred, 2)
        per_ref = []
        for ref_toks, (r1, r2) in zip(self._ref_tokens, self._ref_ng):
            per_ref.append({"rouge1": rouge_scorer._score_ngrams(r1, p1),
                            "rouge2": rouge_scorer._score_ngrams(r2, p2),
                            "rougeL": self._lcs_score(ref_toks, pred)})
        out = {"bleu": float(b.score), "bleu_bp": float(b.bp)}
        for t in ("rouge1", "rouge2", "rougeL"):
            # score_multi: np.argmax over F -> first reference with the best F.
            best = per_ref[int(np.argmax([s[t].fmeasure for s in per_ref]))][t]
            out[f"{t}_p"], out[f"{t}_r"], out[f"{t}_f"] = (float(best.precision), float(best.recall),
                                                           float(best.fmeasure))
        return out
