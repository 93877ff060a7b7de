"""The side-by-side table: one row per configuration, each built from the core's own trace.

BLEU rows: sacreBLEU with its default (13a) and with every other tokenizer the text makes relevant, NLTK with
method0 and method1, HF evaluate, multi-bleu.perl, mteval-v13a.pl, the textbook. ROUGE rows: rouge-score
with and without stemming, HF evaluate, ROUGE-1.5.5 -f A and -f B, the textbook. A row's numbers are the
trace's, which are what ``python -m explainer bleu|rouge`` prints with the row's ``argv`` (tested).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from explainer.dialectcmp.configs import Config

__all__ = ["bleu_row_configs", "rouge_row_configs", "bleu_row", "rouge_row", "rouge_counts", "DEFAULT_ROUGE_TYPES",
           "relevant_tokenizers", "smoothing_label", "Row"]

DEFAULT_ROUGE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


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
    """sacreBLEU tokenizers besides 13a that change something for these texts (see the sacreBLEU dialect)."""
    from explainer.bleu.dialect_sacrebleu import relevant_tokenizers as tokenizers

    return tokenizers(texts)


def _by_rank(dialect_classes) -> list:
    return sorted(dialect_classes, key=lambda c: c.rank)       # stable: registry order within a rank


def _rouge_kind(t: str) -> str:
    from explainer.rouge import parse_types

    return parse_types([t])[0].kind


def bleu_row_configs(texts: Sequence[str]) -> list[Config]:
    """The BLEU rows for these texts (candidate(s) and references), in display order: each dialect's own
    ``comparison_rows``, the most standard implementation first (``rank``)."""
    from explainer.bleu import DIALECTS

    return [Config.make("bleu", cls.name, r["options"], id=r["id"], label=r["label"], note=r["note"])
            for cls in _by_rank(DIALECTS[n] for n in DIALECTS) for r in cls.comparison_rows(texts)]


def rouge_row_configs(types: Sequence[str] = DEFAULT_ROUGE_TYPES) -> list[Config]:
    """The ROUGE rows (each dialect with the types of its ``supported_kinds``: the textbook computes only the
    ROUGE-N and ROUGE-L types it defines)."""
    from explainer.rouge import DIALECTS, parse_types

    types = tuple(rt.name for rt in parse_types(types))
    out = []
    for cls in _by_rank(DIALECTS[n] for n in DIALECTS):
        own = tuple(t for t in types if _rouge_kind(t) in cls.supported_kinds)
        if own:
            out += [Config.make("rouge", cls.name, r["options"], id=r["id"], label=r["label"], note=r["note"],
                                types=own) for r in cls.comparison_rows()]
    return out


# ------------------------------------------------------------------------------------------------ BLEU
def smoothing_label(dialect: str, options: dict) -> str:
    """The smoothing a BLEU configuration applies, in a few words (the dialect's ``smoothing_label``)."""
    from explainer.bleu import get_dialect

    return get_dialect(dialect, **options).smoothing_label()


def bleu_row(config: Config, trace) -> Row:
    """A BLEU row: the statistics the CLI prints for this configuration, plus what the table shows."""
    data = {"id": config.id, "label": config.label, "dialect": config.dialect, "given": config.opts}
    from explainer.bleu.report import stats_dict

    # the statistics exactly as ``python -m explainer bleu`` prints them (null where the real library fails)
    data.update(stats_dict(trace.stats_summary()))
    data.update(scale=trace.scale, tokenizer=trace.tokenizer, smoothing=config.bound().smoothing_label(),
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
