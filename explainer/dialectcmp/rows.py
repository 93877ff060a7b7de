"""The side-by-side table: one row per configuration, each built from the core's own trace.

BLEU rows: sacreBLEU with its default (13a) and with every other tokenizer the text makes relevant, NLTK with
method0 and method1, HF evaluate, multi-bleu.perl, mteval-v13a.pl, the textbook. ROUGE rows: rouge-score
with and without stemming, HF evaluate, ROUGE-1.5.5 -f A and -f B, the textbook, the rouge package (pltrdy),
rouge-chinese over jieba, rouge-metric's PyRouge. sacreBLEU's ja-mecab / ko-mecab rows appear for Japanese /
Korean. A row's numbers are the
trace's, which are what ``python -m explainer bleu|rouge`` prints with the row's ``argv`` (tested).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from explainer.dialectcmp.configs import Config

__all__ = ["bleu_row_configs", "rouge_row_configs", "bleu_row", "rouge_row", "rouge_counts", "DEFAULT_ROUGE_TYPES",
           "relevant_tokenizers", "smoothing_label", "Row"]

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")

# scripts written without spaces between words: the zh and char tokenizers exist for them
_NO_SPACE_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f\uac00-\ud7af]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")


@dataclass
class Row:
    """A row of the table: its configuration, the trace it comes from, and the JSON the CLI prints."""

    config: Config
    trace: Any
    data: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.config.id

    @property
    def label(self) -> str:
        return self.config.label


def relevant_tokenizers(texts: Sequence[str]) -> list[str]:
    """sacreBLEU tokenizers besides 13a that change something for these texts: ``intl`` and ``none`` when
    their tokens differ from 13a's, ``zh`` and ``char`` when a text is in a script written without spaces
    (their purpose; on English text ``char`` would only show that characters are not words)."""
    from explainer.bleu import get_dialect

    base = get_dialect("sacrebleu")
    base_toks = [base.tokenize(t) for t in texts]
    out = []
    for name in ("intl", "none"):
        d = get_dialect("sacrebleu", tokenize=name)
        if any(d.tokenize(t) != bt for t, bt in zip(texts, base_toks)):
            out.append(name)
    if any(_NO_SPACE_SCRIPT.search(t) for t in texts):
        for name in ("zh", "char"):
            d = get_dialect("sacrebleu", tokenize=name)
            if any(d.tokenize(t) != bt for t, bt in zip(texts, base_toks)):
                out.append(name)
    # MeCab: Japanese (kana) and Korean (Hangul) text, the languages these tokenizers are for
    for name, rx in (("ja-mecab", _KANA), ("ko-mecab", _HANGUL)):
        if any(rx.search(t) for t in texts):
            out.append(name)
    return out


def bleu_row_configs(texts: Sequence[str]) -> list[Config]:
    """The BLEU rows for these texts (candidate(s) and references), in display order."""
    rows = [Config.make("bleu", "sacrebleu", {}, id="sacrebleu", label="sacreBLEU (13a)",
                        note="sacreBLEU's defaults: 13a tokens, exp smoothing, closest reference length")]
    for tok in relevant_tokenizers(texts):
        rows.append(Config.make("bleu", "sacrebleu", {"tokenize": tok}, id=f"sacrebleu:{tok}",
                                label=f"sacreBLEU ({tok})", note=f"sacreBLEU with tokenize={tok!r}"))
    rows += [
        Config.make("bleu", "nltk", {"smoothing": "method0"}, id="nltk:method0", label="NLTK method0",
                    note="NLTK sentence_bleu, no smoothing"),
        Config.make("bleu", "nltk", {"smoothing": "method1"}, id="nltk:method1", label="NLTK method1",
                    note="NLTK sentence_bleu with SmoothingFunction().method1"),
        Config.make("bleu", "hf-evaluate", {}, id="hf-evaluate", label="HF evaluate",
                    note="evaluate.load('bleu'): shortest reference length, no smoothing"),
        Config.make("bleu", "multi-bleu", {}, id="multi-bleu", label="multi-bleu.perl",
                    note="Moses multi-bleu.perl: whitespace tokens, no smoothing"),
        Config.make("bleu", "mteval", {}, id="mteval", label="mteval-v13a.pl",
                    note="Moses mteval-v13a.pl: 13a, ASCII lowercasing, NIST smoothing"),
        Config.make("bleu", "textbook", {}, id="textbook", label="Textbook",
                    note="the textbook's bleu_score: lowercase + whitespace, 1e-10 floor"),
        Config.make("bleu", "torchmetrics", {}, id="torchmetrics", label="torchmetrics BLEUScore",
                    note="torchmetrics BLEUScore: whitespace tokens, 0 when an order has no match, float32"),
        Config.make("bleu", "torchmetrics-sacrebleu", {}, id="torchmetrics-sacrebleu",
                    label="torchmetrics SacreBLEUScore",
                    note="torchmetrics SacreBLEUScore: 13a tokens, no exp smoothing, float32"),
    ]
    return rows


def rouge_row_configs(types: Sequence[str] = DEFAULT_ROUGE_TYPES) -> list[Config]:
    """The ROUGE rows (the textbook computes only the ROUGE-N and ROUGE-L types it defines)."""
    from explainer.rouge import parse_types

    types = tuple(rt.name for rt in parse_types(types))
    tb_types = tuple(t for t in types if parse_types([t])[0].kind in ("N", "L"))
    rows = [
        Config.make("rouge", "rouge-score", {}, id="rouge-score", label="rouge-score", types=types,
                    note="rouge-score RougeScorer, no stemming, best-F reference"),
        Config.make("rouge", "rouge-score", {"use_stemmer": True}, id="rouge-score:stem",
                    label="rouge-score (stemmer)", types=types, note="rouge-score with use_stemmer=True"),
        Config.make("rouge", "hf-evaluate", {}, id="hf-evaluate", label="HF evaluate", types=types,
                    note="evaluate.load('rouge'): rouge-score underneath, F only"),
        Config.make("rouge", "rouge155", {"multi_ref": "pool"}, id="rouge155:A", label="ROUGE-1.5.5 -f A",
                    types=types, note="ROUGE-1.5.5.pl, references pooled (-f A, the script's default)"),
        Config.make("rouge", "rouge155", {"multi_ref": "best-recall"}, id="rouge155:B", label="ROUGE-1.5.5 -f B",
                    types=types, note="ROUGE-1.5.5.pl, the best-recall reference (-f B)"),
    ]
    if tb_types:
        rows.append(Config.make("rouge", "textbook", {}, id="textbook", label="Textbook", types=tb_types,
                                note="the textbook's rouge_n / rouge_l: lowercase + whitespace"))
    # the other Python ROUGE packages (ROUGE-N up to 5 and their ROUGE-L only for rouge / rouge-chinese)
    pl_types = tuple(t for t in types if parse_types([t])[0].kind == "L"
                     or (parse_types([t])[0].kind == "N" and parse_types([t])[0].n <= 5))
    if pl_types:
        rows.append(Config.make("rouge", "pltrdy", {}, id="pltrdy", label="rouge 1.0.1 (pltrdy)", types=pl_types,
                                note="from rouge import Rouge: sentences at '.', words at spaces, n-grams as sets, "
                                     "F with 1e-8"))
        rows.append(Config.make("rouge", "rouge-chinese", {}, id="rouge-chinese", label="rouge-chinese + jieba",
                                types=pl_types, note="rouge-chinese over jieba words, as the Chinese fine-tuning "
                                                     "scripts score"))
    rows.append(Config.make("rouge", "rouge-metric", {}, id="rouge-metric", label="rouge-metric (PyRouge)",
                            types=types, note="PyRouge: lines, str.split() words (case kept), references pooled"))
    tm_types = tuple(t for t in types if parse_types([t])[0].kind in ("N", "L"))
    if tm_types:
        rows.append(Config.make("rouge", "torchmetrics", {}, id="torchmetrics", label="torchmetrics ROUGEScore",
                                types=tm_types, note="torchmetrics ROUGEScore: rouge-score's tokens, float32, "
                                                     "accumulate='best'"))
    return rows


# ------------------------------------------------------------------------------------------------ BLEU
def smoothing_label(dialect: str, options: dict) -> str:
    """The smoothing a BLEU configuration applies, in a few words."""
    o = options
    if dialect == "sacrebleu":
        m = o.get("smooth_method", "exp")
        if m in ("floor", "add-k"):
            return f"{m} {o.get('smooth_value'):g}"
        return "exp (NIST)" if m == "exp" else "none"
    if dialect == "nltk":
        m = o.get("smoothing", "method0")
        extra = {"method1": f" (ε = {o.get('epsilon', 0.1):g})", "method4": f" (k = {o.get('k', 5):g})",
                 "method6": f" (α = {o.get('alpha', 5):g})", "method7": f" (k = {o.get('k', 5):g})"}.get(m, "")
        return m + extra + (" = none" if m == "method0" else "")
    if dialect == "hf-evaluate":
        return "add-one (all orders)" if o.get("smooth") else "none"
    if dialect == "mteval":
        return "NIST geometric" if o.get("smoothing", True) else "none"
    if dialect == "textbook":
        return "none (log floor 1e-10)"
    if dialect in ("torchmetrics", "torchmetrics-sacrebleu"):
        return "add-one (orders ≥ 2)" if o.get("smooth") else "none"
    return "none"


def bleu_row(config: Config, trace) -> Row:
    """A BLEU row: the statistics the CLI prints for this configuration, plus what the table shows."""
    data = {"id": config.id, "label": config.label, "dialect": config.dialect, "given": config.opts}
    from explainer.bleu.report import stats_dict

    # the statistics exactly as ``python -m explainer bleu`` prints them (null where the real library fails)
    data.update(stats_dict(trace.stats_summary()))
    data.update(scale=trace.scale, tokenizer=trace.tokenizer, smoothing=smoothing_label(config.dialect, trace.options),
                argv=config.argv())
    if getattr(trace, "n_segments", None) is not None:
        data["n_segments"] = trace.n_segments
    return Row(config, trace, data)


# ----------------------------------------------------------------------------------------------- ROUGE
def rouge_row(config: Config, trace, headline: str | None = None) -> Row:
    """A ROUGE row from a segment trace (``RougeTrace``) or a corpus trace (``RougeCorpusTrace``)."""
    from explainer.rouge import Score

    types = list(trace.types)
    head = headline if headline in types else types[0]
    data: dict = {"id": config.id, "label": config.label, "dialect": config.dialect, "given": config.opts,
                  "options": dict(trace.options), "types": types, "type": head}
    if hasattr(trace, "scores"):       # one segment
        scores = {t: s.to_dict() for t, s in trace.scores.items()}
        data.update(scores=scores, tokenizer=trace.tokenizer, stemmer=trace.stemmer, multi_ref=trace.multi_ref,
                    chosen_reference=trace.chosen_reference, notes=list(trace.notes), signature=trace.signature,
                    counts=rouge_counts(trace), cand_len=len(trace.candidate.tokenized.tokens),
                    ref_lens=[len(r.tokenized.tokens) for r in trace.references])
    else:                               # a corpus: the aggregate's mid (bootstrap) or the mean
        scores = {}
        for t, a in trace.aggregate.items():
            s = a.get("mid") if isinstance(a, dict) else a
            if isinstance(s, Score):
                scores[t] = s.to_dict()
            elif isinstance(a, list):   # HF use_aggregator=False: per-item F values (not a row default)
                scores[t] = {"fmeasure": sum(a) / len(a) if a else 0.0}
        data.update(scores=scores, aggregation=trace.aggregation, reported=trace.reported,
                    signature=trace.signature, n_segments=len(trace.item_scores), multi_ref=trace.options.get(
                        "multi_ref"))
    h = scores.get(head, {})
    data.update(score=h.get("fmeasure", 0.0), fmeasure=h.get("fmeasure", 0.0), precision=h.get("precision"),
                recall=h.get("recall"), scale=1.0, argv=config.argv())
    return Row(config, trace, data)


def rouge_counts(trace) -> dict:
    """Per type, what the reported P, R and F are computed from: ``hits`` (overlap / LCS hits), ``cand_total``
    and ``ref_total`` of the kept reference (``reference``: its 0-based index), or their sums over the
    references (``reference``: "pooled"; the candidate counted once per reference); ``{"died": ...}`` where
    ROUGE-1.5.5 dies (it prints nothing)."""
    out = {}
    for t in trace.types:
        died = getattr(trace.scores[t], "died", None)
        if died:
            out[t] = {"died": died}
            continue
        k = trace.chosen_reference.get(t)
        pooled = trace.pooled.get(t)
        if k is None and pooled:
            out[t] = {"hits": pooled["hits"], "cand_total": pooled["cand_total"], "ref_total": pooled["ref_total"],
                      "reference": "pooled"}
        else:
            k = k or 0
            x = trace.per_reference[k][t]
            out[t] = {"hits": x.hits, "cand_total": x.cand_total, "ref_total": x.ref_total, "reference": k}
    return out
