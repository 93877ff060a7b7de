"""Trace types for ROUGE. ``to_dict()`` gives pure JSON (see docs/trace-schema-rouge.md)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from explainer.rouge.scoring import Score

__all__ = ["TypeResult", "RougeTextView", "RougeTrace", "RougeCorpusTrace"]


@dataclass
class TypeResult:
    """One ROUGE type against one reference: the counts the score is computed from, and the score."""

    type: str
    hits: float            # overlap / LCS hits / weighted hits
    ref_total: float       # reference n-grams / tokens / weighted length
    cand_total: float      # candidate n-grams / tokens
    score: Score
    detail: dict | None = None

    def to_dict(self) -> dict:
        d = {"type": self.type, "hits": self.hits, "ref_total": self.ref_total, "cand_total": self.cand_total,
             **self.score.to_dict()}
        if self.detail is not None:
            d["detail"] = self.detail
        return d


@dataclass
class RougeTextView:
    """One text of a ROUGE trace in its role (the candidate, or reference ``index``): the
    :class:`~explainer.rouge.tokenize.TokenizedText` the dialect scored (tokens with character offsets, stems,
    removed words) and, for summary-level types, its sentences. (BLEU's record of a text, with its preprocessing,
    is :class:`explainer.bleu.trace.BleuText`.)"""

    role: str                       # "candidate" or "reference"
    index: int | None               # reference index
    tokenized: Any                  # tokenize.TokenizedText
    sentences: list | None = None   # tokenize.Sentence list (when a summary-level type was asked)
    sentence_tokens: list | None = None   # list[list[str]] matching forms per sentence

    def to_dict(self) -> dict:
        d = {"role": self.role, "index": self.index, **self.tokenized.to_dict()}
        if self.sentences is not None:
            # token_start: index of the sentence's first token in ``tokens`` when the whole text's tokens are the
            # concatenation of the sentences' tokens (always so with newline splitting), else null
            flat = [t for st in self.sentence_tokens for t in st]
            concat = flat == list(self.tokenized.tokens)
            sents, pos = [], 0
            for s, toks in zip(self.sentences, self.sentence_tokens):
                sents.append(dict(s.to_dict(), tokens=toks, token_start=pos if concat else None))
                pos += len(toks)
            d["sentences"] = sents
        return d


@dataclass
class RougeTrace:
    dialect: str
    dialect_label: str
    options: dict
    types: list[str]
    tokenizer: str
    stemmer: str | None
    candidate: RougeTextView
    references: list[RougeTextView]
    per_reference: list[dict[str, TypeResult]]
    scores: dict[str, Score]
    chosen_reference: dict[str, int | None]
    multi_ref: str
    multi_ref_note: str
    pooled: dict[str, dict] = field(default_factory=dict)
    reported: dict[str, Any] = field(default_factory=dict)   # what the implementation itself returns
    notes: list[str] = field(default_factory=list)
    signature: str = ""
    call: str | None = None     # Python that reproduces the numbers with the real implementation

    def score(self, t: str) -> Score:
        return self.scores[t]

    def to_dict(self) -> dict:
        return {
            "kind": "rouge",
            "dialect": self.dialect,
            "dialect_label": self.dialect_label,
            "signature": self.signature,
            "call": self.call,
            "options": self.options,
            "types": self.types,
            "tokenizer": self.tokenizer,
            "stemmer": self.stemmer,
            "scores": {t: s.to_dict() for t, s in self.scores.items()},
            "reported": self.reported,
            "multi_ref": self.multi_ref,
            "multi_ref_note": self.multi_ref_note,
            "chosen_reference": self.chosen_reference,
            "pooled": self.pooled,
            "per_reference": [{t: r.to_dict() for t, r in pr.items()} for pr in self.per_reference],
            "candidate": self.candidate.to_dict(),
            "references": [r.to_dict() for r in self.references],
            "notes": self.notes,
        }


@dataclass
class RougeCorpusTrace:
    dialect: str
    options: dict
    types: list[str]
    item_scores: list[dict[str, Score]]
    chosen_reference: list[dict[str, int | None]]
    aggregate: dict[str, Any]          # {type: {"low","mid","high"}} (bootstrap) or {type: Score} (mean)
    aggregation: dict                  # method, seed, n_samples, note
    reported: dict[str, Any]
    items: list[RougeTrace] | None = None
    notes: list[str] = field(default_factory=list)
    signature: str = ""
    _builder: Callable[[int], RougeTrace] | None = field(default=None, repr=False, compare=False)

    def item(self, i: int) -> RougeTrace:
        """The full trace of item i (0-based): the kept one with ``traces=True``, else built now (not kept)."""
        n = len(self.item_scores)
        if not 0 <= i < n:
            raise IndexError(f"item {i} out of range (0..{n - 1})")
        if self.items is not None:
            return self.items[i]
        if self._builder is None:
            raise ValueError("this corpus trace cannot build item traces")
        return self._builder(i)

    def to_dict(self) -> dict:
        def enc(v):
            if isinstance(v, Score):
                return v.to_dict()
            if isinstance(v, dict):
                return {k: enc(x) for k, x in v.items()}
            return v

        d = {
            "kind": "rouge-corpus",
            "dialect": self.dialect,
            "signature": self.signature,
            "options": self.options,
            "types": self.types,
            "aggregation": self.aggregation,
            "aggregate": enc(self.aggregate),
            "reported": self.reported,
            "item_scores": [{t: s.to_dict() for t, s in it.items()} for it in self.item_scores],
            "chosen_reference": self.chosen_reference,
            "notes": self.notes,
        }
        if self.items is not None:
            d["items"] = [t.to_dict() for t in self.items]
        return d
