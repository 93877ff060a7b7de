"""One small scoring adapter for the gaming lab.

Every number the lab shows comes from here, and every number here comes from the real implementations:
sacreBLEU's ``BLEU`` metric object (its tokenizers, n-gram extraction, clipping and ``compute_bleu``) and
rouge-score's ``RougeScorer`` / its tokenizer and scoring functions. Nothing is re-implemented.

Two paths:

* :func:`score` - any options (tokenizer, case, smoothing, sentence vs corpus API, reference-length rule,
  rouge-score tokenizer / stemmer / newline handling), through the explainer's own cores
  (``explainer.bleu.score_bleu``, ``explainer.rouge.score_rouge``), which reproduce the packages exactly;
  used for presets and generators, and compared with the real packages in the tests.
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

from explainer.rouge.lcs import lcs_length

__all__ = [
    "METRICS", "Metric", "BleuOptions", "RougeOptions", "Scores", "score", "score_corpus", "FastScorer",
    "metric_label", "format_metric", "bleu_tokens", "bleu_input", "nltk_characters",
]


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    scale: float  # 100 for BLEU, 1 for everything else
    help: str


METRICS: dict[str, Metric] = {m.key: m for m in [
    Metric("bleu", "BLEU", 100.0, "sacreBLEU BLEU (0-100) with the variant's options"),
    Metric("bleu_bp", "BLEU brevity penalty", 1.0, "exp(1 - r/c) when the candidate is shorter, else 1"),
    Metric("rouge1_p", "ROUGE-1 P", 1.0, "rouge-score unigram precision"),
    Metric("rouge1_r", "ROUGE-1 R", 1.0, "rouge-score unigram recall"),
    Metric("rouge1_f", "ROUGE-1 F", 1.0, "rouge-score unigram F1"),
    Metric("rouge2_f", "ROUGE-2 F", 1.0, "rouge-score bigram F1"),
    Metric("rougeL_f", "ROUGE-L F", 1.0, "rouge-score longest-common-subsequence F1"),
    Metric("rougeLsum_f", "ROUGE-Lsum F", 1.0, "rouge-score summary-level LCS F1 (sentences = lines)"),
    Metric("sent_bleu_mean", "mean sentence BLEU", 100.0, "average of sacrebleu.sentence_bleu over segments"),
    Metric("unclipped_p1", "unigram precision without clipping", 1.0,
           "share of candidate words found in some reference, counting repeats (what clipping prevents)"),
]}

DEFAULT_METRICS = ("bleu", "bleu_bp", "rouge1_p", "rouge1_r", "rouge1_f", "rouge2_f", "rougeL_f")
ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def metric_label(key: str) -> str:
    return METRICS[key].label if key in METRICS else key


def format_metric(key: str, value: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if METRICS.get(key) and METRICS[key].scale == 100.0:
        return f"{value:.1f}"
    return f"{value:.2f}"


@dataclass(frozen=True)
class BleuOptions:
    """Options of sacreBLEU's ``BLEU`` plus the things sacreBLEU does not have a switch for.

    ``api="sentence"`` is ``sacrebleu.sentence_bleu`` (effective order on); ``api="corpus"`` is
    ``BLEU().corpus_score`` (effective order off). ``ref_length="shortest"`` recomputes the score from
    sacreBLEU's own statistics with the *shortest* reference length and no smoothing, which is the rule of
    the TF-NMT ``compute_bleu`` that Hugging Face ``evaluate``'s ``bleu`` uses (checked against the golden
    ``hf_evaluate_bleu`` records).

    ``dialect="nltk"`` is NLTK's ``sentence_bleu`` (the explainer's ``nltk`` dialect, tested against NLTK
    3.10.4) with ``weights``; ``nltk_input="string"`` reproduces passing plain strings instead of token
    lists, which NLTK silently reads as sequences of characters (catalogue C10). NLTK's 0-1 score is shown
    x100 like every BLEU in the lab."""

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    api: str = "sentence"  # "sentence" | "corpus"
    ref_length: str = "closest"  # "closest" | "shortest"
    dialect: str = "sacrebleu"  # "sacrebleu" | "nltk"
    weights: tuple[float, ...] = (0.25, 0.25, 0.25, 0.25)  # nltk only
    nltk_input: str = "tokens"  # nltk only: "tokens" (str.split lists) | "string" (characters)

    @property
    def effective_order(self) -> bool:
        return self.api == "sentence"

    def metric(self, references=None) -> BLEU:
        if self.dialect != "sacrebleu":
            raise ValueError("only sacreBLEU options have a sacreBLEU metric object")
        return _bleu_metric(self, None) if references is None else BLEU(
            lowercase=self.lowercase, tokenize=self.tokenize, smooth_method=self.smooth_method,
            smooth_value=self.smooth_value, effective_order=self.effective_order, force=True,
            references=references)

    def describe(self) -> str:
        if self.dialect == "nltk":
            return "|".join(["nltk sentence_bleu", "weights:" + ",".join(f"{w:g}" for w in self.weights),
                             "input:" + ("plain strings (characters)" if self.nltk_input == "string"
                                         else "token lists (str.split)")])
        parts = [f"tok:{self.tokenize}", "case:lc" if self.lowercase else "case:mixed",
                 f"smooth:{self.smooth_method}", f"api:{self.api}"]
        if self.ref_length != "closest":
            parts.append(f"ref_len:{self.ref_length}")
        return "|".join(parts)


def nltk_characters(text: str) -> str:
    """What NLTK counts when given a plain string: every character is a token, spaces included. As text for
    the explainer's whitespace-token ``nltk`` dialect: characters separated by spaces, a space written "␣",
    any other whitespace character "␣<hex code>" and a literal "␣" doubled - one token per character, and
    different characters stay different tokens, so every count equals NLTK's on the raw string."""
    out = []
    for ch in text:
        if ch == " ":
            out.append("␣")
        elif ch == "␣":
            out.append("␣␣")
        elif ch.isspace():
            out.append(f"␣{ord(ch):x}")
        else:
            out.append(ch)
    return " ".join(out)


@lru_cache(maxsize=64)
def _bleu_metric(opts: BleuOptions, _unused) -> BLEU:
    return BLEU(lowercase=opts.lowercase, tokenize=opts.tokenize, smooth_method=opts.smooth_method,
                smooth_value=opts.smooth_value, effective_order=opts.effective_order, force=True)


@dataclass(frozen=True)
class RougeOptions:
    """Options of the explainer's ``rouge-score`` dialect (which reproduces rouge-score's ``RougeScorer``;
    see docs/dialects-rouge.md). ``tokenizer="rouge-score"`` is the library's DefaultTokenizer (lowercase,
    ASCII letters and digits only); ``"unicode"`` is the explainer's opt-in tokenizer for any script, used
    to show the non-Latin fix (not any library's default).

    ``dialect="rouge155"`` is the explainer's ROUGE-1.5.5.pl dialect (golden-tested; the script itself
    cannot run here) with ``multi_ref="pool"`` (``-f A``, the script's default) or ``"best-recall"``
    (``-f B``); its ``rougeL`` is the sentence-level LCS of the texts on one line, ``rougeLsum`` the
    script's summary-level ROUGE-L."""

    use_stemmer: bool = False
    split_summaries: bool = False
    tokenizer: str = "rouge-score"  # "rouge-score" | "unicode"
    dialect: str = "rouge-score"  # "rouge-score" | "rouge155"
    multi_ref: str = "pool"  # rouge155 only: "pool" (-f A) | "best-recall" (-f B)

    def kwargs(self) -> dict:
        if self.dialect == "rouge155":
            return {"use_stemmer": self.use_stemmer, "multi_ref": self.multi_ref}
        return {"use_stemmer": self.use_stemmer, "split_summaries": self.split_summaries,
                "tokenizer": self.tokenizer}

    def describe(self) -> str:
        if self.dialect == "rouge155":
            return "|".join(["ROUGE-1.5.5.pl", "-f A (pool)" if self.multi_ref == "pool" else "-f B (best recall)",
                             f"stem:{'-m' if self.use_stemmer else 'no'}"])
        return "|".join([f"stem:{'yes' if self.use_stemmer else 'no'}", f"tok:{self.tokenizer}",
                         f"split:{'nltk' if self.split_summaries else 'newline'}"])


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


def _bleu_kwargs(opts: BleuOptions) -> tuple[str, dict]:
    """(dialect, options) of the explainer's BLEU core for these options."""
    if opts.dialect == "nltk":
        return "nltk", {"weights": tuple(float(w) for w in opts.weights)}
    if opts.ref_length == "shortest":
        # Hugging Face evaluate's bleu (TF-NMT compute_bleu): shortest reference, no smoothing.
        return "hf-evaluate", {}
    return "sacrebleu", {"tokenize": opts.tokenize, "lowercase": opts.lowercase,
                         "smooth_method": opts.smooth_method, "smooth_value": opts.smooth_value,
                         "api": "sentence_bleu" if opts.api == "sentence" else "corpus_bleu"}


def _bleu_values(st) -> dict[str, float]:
    scale = 1.0 if st.dialect == "sacrebleu" else 100.0  # hf-evaluate reports 0-1
    return {"bleu": float(st.score) * scale, "bleu_bp": float(st.bp)}


def _rouge_values(opts: RougeOptions, candidate: str, references: Sequence[str]) -> dict[str, tuple]:
    from explainer.rouge import score_rouge

    res = score_rouge(candidate, list(references), dialect=opts.dialect, types=ROUGE_TYPES, **opts.kwargs())
    return {k: (float(v.precision), float(v.recall), float(v.fmeasure)) for k, v in res.items()}


def bleu_input(text: str, opts: BleuOptions) -> str:
    """The text handed to the BLEU core: as given, or NLTK's character view (``nltk_input="string"``)."""
    return nltk_characters(text) if opts.dialect == "nltk" and opts.nltk_input == "string" else text


def _unclipped_p1(opts: BleuOptions, candidate: str, references: Sequence[str]) -> float:
    hyp = bleu_tokens(candidate, opts)
    vocab = set()
    for r in references:
        vocab.update(bleu_tokens(r, opts))
    return sum(1 for t in hyp if t in vocab) / len(hyp) if hyp else 0.0


def score(candidate: str, references: Sequence[str], bleu: BleuOptions = BleuOptions(),
          rouge: RougeOptions = RougeOptions()) -> Scores:
    """All metrics for one candidate against its references (several references: sacreBLEU's max-count
    clipping and closest length; rouge-score's ``score_multi``, best F per type). Computed by the
    explainer's cores (``score_bleu`` / ``score_rouge``), which reproduce sacreBLEU and rouge-score; the
    tests compare every preset with the real packages."""
    from explainer.bleu import score_bleu

    _check(candidate, references)
    refs = list(references)
    dialect, kw = _bleu_kwargs(bleu)
    st = score_bleu(bleu_input(candidate, bleu), [bleu_input(r, bleu) for r in refs], dialect=dialect, **kw)
    if st.library_error:
        raise ValueError(f"BLEU failed: {st.library_error}")
    rv = _rouge_values(rouge, candidate, refs)
    values = _bleu_values(st)
    for t, (p, r, f) in rv.items():
        values[f"{t}_p"], values[f"{t}_r"], values[f"{t}_f"] = p, r, f
    values["unclipped_p1"] = _unclipped_p1(bleu, candidate, refs)
    return Scores(values, list(st.counts), list(st.totals), int(st.sys_len), int(st.ref_len), rv, st.signature)


def score_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]],
                 bleu: BleuOptions = BleuOptions(api="corpus"), rouge: RougeOptions = RougeOptions()) -> Scores:
    """Corpus metrics: ``references[i]`` is the list of references of ``candidates[i]``. BLEU is
    sacreBLEU's corpus BLEU (statistics summed, one brevity penalty); ROUGE values are the mean over
    segments of rouge-score's per-segment scores; ``sent_bleu_mean`` averages ``sentence_bleu``."""
    from explainer.bleu import score_bleu, score_bleu_corpus

    if len(candidates) != len(references):
        raise ValueError(f"{len(candidates)} candidates but {len(references)} reference lists")
    if bleu.dialect != "sacrebleu":
        raise ValueError("corpus presets use sacreBLEU")
    if not candidates:
        raise ValueError("the corpus is empty")
    for c, r in zip(candidates, references):
        _check(c, r)
    dialect, kw = _bleu_kwargs(bleu)
    st = score_bleu_corpus(list(candidates), [list(r) for r in references], dialect=dialect, **kw)
    if st.library_error:
        raise ValueError(f"BLEU failed: {st.library_error}")
    values = _bleu_values(st)
    sent_opts = BleuOptions(tokenize=bleu.tokenize, lowercase=bleu.lowercase, smooth_method=bleu.smooth_method,
                            smooth_value=bleu.smooth_value, api="sentence")
    sd, skw = _bleu_kwargs(sent_opts)
    sent = [float(score_bleu(c, list(r), dialect=sd, **skw).score) for c, r in zip(candidates, references)]
    values["sent_bleu_mean"] = sum(sent) / len(sent)
    per = [_rouge_values(rouge, c, r) for c, r in zip(candidates, references)]
    rv = {}
    for t in ROUGE_TYPES:
        p = sum(x[t][0] for x in per) / len(per)
        r_ = sum(x[t][1] for x in per) / len(per)
        f = sum(x[t][2] for x in per) / len(per)
        rv[t] = (p, r_, f)
        values[f"{t}_p"], values[f"{t}_r"], values[f"{t}_f"] = p, r_, f
    out = Scores(values, list(st.counts), list(st.totals), int(st.sys_len), int(st.ref_len), rv, st.signature)
    out.segment_sentence_bleu = sent  # type: ignore[attr-defined]
    return out


def bleu_tokens(text: str, opts: BleuOptions = BleuOptions()) -> list[str]:
    """Tokens exactly as the BLEU of these options counts them: sacreBLEU's tokenizer (after optional
    lowercasing), or NLTK's ``str.split`` / character tokens."""
    if opts.dialect == "nltk":
        return bleu_input(text, opts).split()
    return opts.metric()._preprocess_segment(text).split()


class FastScorer:
    """Stats-only scoring against fixed references for the optimizer: sacreBLEU's reference cache
    (``BLEU(references=...)``) and rouge-score's tokenizer and scoring functions with the references
    tokenised once. Default options only (sentence BLEU, 13a, exp smoothing; rouge-score default
    tokenizer, no stemmer); :func:`score` is the general path and the two agree exactly (tested)."""

    def __init__(self, references: Sequence[str]):
        if not references:
            raise ValueError("at least one reference is needed")
        self.references = list(references)
        self._bleu = BleuOptions().metric(references=[[r] for r in self.references])
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
