"""BERTScore as bert-score 0.3.13 computes it with all-MiniLM-L6-v2 and its last layer:
``bert_score.score(cands, refs, model_type=<the model>, num_layers=6, idf=False|True)``.

What ``score`` does, step by step (``bert_score/score.py``, ``bert_score/utils.py``):

* texts: ``sent_encode`` strips each text and encodes it with ``[CLS]``/``[SEP]``, truncated to the tokenizer's
  ``model_max_length`` (512 pieces). With transformers 5 an empty text fails there (``AttributeError``:
  ``build_inputs_with_special_tokens`` is gone); with transformers 4 it is ``[CLS] [SEP]``, scored 0 with a
  warning. The trace shows transformers 4's numbers and records the failure.
* embeddings: the model cut to ``num_layers`` layers; its output (here the 6th and last layer);
* weights: ``explainer.semantic.idf`` (idf from every reference of the call);
* several references: the candidate is paired with each, every pair scored, then ``max(dim=0)`` over the pairs of
  a candidate: precision, recall and F are **each their own maximum**, and can come from different references;
* matching and the padding of its batches of 64 pairs: ``explainer.semantic.greedy``.

The published BERTScore numbers use roberta-large (layer 17), mostly with ``rescale_with_baseline=True``: another
model, which cannot run here; this dialect's numbers are bert-score's algorithm with all-MiniLM-L6-v2.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from explainer.options import OptionSpec
from explainer.semantic.dialects import (
    LibraryError,
    LibraryWarning,
    SegmentValues,
    SemanticDialect,
    first_max,
    truncation_warnings,
)
from explainer.semantic.greedy import greedy_match, unit_rows
from explainer.semantic.idf import IdfTable, idf_table, plain_weights
from explainer.semantic.model import ModelInfo, SemanticModel
from explainer.semantic.notes import blind_spots
from explainer.semantic.pieces import PieceText
from explainer.semantic.trace import BertScorePair, BertScoreTrace, IdfRow

__all__ = ["BertScoreDialect", "BERT_SCORE_VERSION", "BERT_SCORE_HASH_VERSION", "TRANSFORMERS_VERSION",
           "BATCH_PAIRS", "LAYER", "PUBLISHED", "BertScoreContext"]

BERT_SCORE_VERSION = "0.3.13"
#: what the 0.3.13 release calls itself in its hash string (its ``bert_score.__version__`` was left at 0.3.12)
BERT_SCORE_HASH_VERSION = "0.3.12"
#: the transformers version of the golden vectors (in bert-score's hash string)
TRANSFORMERS_VERSION = "5.24.0"
#: ``score(..., batch_size=64)``: pairs matched at once (their padding is shared)
BATCH_PAIRS = 64
#: ``num_layers``: all-MiniLM-L6-v2 has 6 layers; the last one is used
LAYER = 6
#: what the published numbers and Hugging Face evaluate use (huggingface/evaluate, metrics/bertscore/bertscore.py:
#: ``lang`` or ``model_type`` is required; ``lang="en"`` -> ``bert_score.utils.lang2model["en"]``)
PUBLISHED = {
    "note": ("Published BERTScore numbers use roberta-large, layer 17, mostly rescaled with a baseline "
             "(rescale_with_baseline=True): another model, which cannot run here, so those numbers cannot be "
             "reproduced; the numbers here are bert-score's algorithm with all-MiniLM-L6-v2, layer 6."),
    "evaluate_load_bertscore": {
        "call": 'evaluate.load("bertscore").compute(predictions=..., references=..., lang="en")',
        "model_type": "roberta-large", "num_layers": 17, "idf": False, "rescale_with_baseline": False,
        "use_fast_tokenizer": False, "batch_size": 64,
        "hash": f"roberta-large_L17_no-idf_version={BERT_SCORE_HASH_VERSION}(hug_trans=<installed transformers>)",
        "without_lang": "ValueError: Either 'lang' (e.g. 'en') or 'model_type' (e.g. "
                        "'microsoft/deberta-xlarge-mnli') must be specified"},
}
_EMPTY_T5 = ("AttributeError", "BertTokenizer has no attribute build_inputs_with_special_tokens")


@dataclass(frozen=True)
class BertScoreContext:
    """What a ``score`` call's numbers depend on beyond each pair: the idf dict (None: idf off) and, per pair in
    the call's order, whether its reference / candidate was padded in its batch of 64."""

    idf: IdfTable | None
    floors: tuple[tuple[bool, bool], ...]
    first_pair: tuple[int, ...]         # per segment: the index of its first pair
    cls_id: int
    sep_id: int

    def raw_weights(self, text: PieceText) -> np.ndarray:
        if self.idf is None:
            return plain_weights(text.ids, self.cls_id, self.sep_id)
        return self.idf.weights(text.ids)


def batch_floors(cand_lens: Sequence[int], ref_lens: Sequence[Sequence[int]]) -> tuple[tuple, tuple]:
    """Per pair (candidate, reference) in bert-score's flattened order: (reference padded, candidate padded) in its
    batch of ``BATCH_PAIRS`` pairs; and each segment's first pair."""
    pairs = [(c, r) for c, rs in zip(cand_lens, ref_lens) for r in rs]
    first, k = [], 0
    for rs in ref_lens:
        first.append(k)
        k += len(rs)
    out = []
    for b in range(0, len(pairs), BATCH_PAIRS):
        batch = pairs[b:b + BATCH_PAIRS]
        mc, mr = max(c for c, _ in batch), max(r for _, r in batch)
        out += [(r < mr, c < mc) for c, r in batch]
    return tuple(out), tuple(first)


class BertScoreDialect(SemanticDialect):
    name = "bertscore"
    label = "BERTScore (bert-score)"
    short_label = "bert-score"
    implementation = f"bert-score {BERT_SCORE_VERSION}"
    description = ("Greedy matching of word-piece embeddings (all-MiniLM-L6-v2, last layer): each candidate "
                   "piece's best cosine in the reference (precision), each reference piece's best in the candidate "
                   "(recall), F = 2PR/(P+R); idf weights optional; several references: P, R and F each their "
                   "own maximum.")
    rank = 1
    library = "bert-score"
    library_version = BERT_SCORE_VERSION
    measures = ("precision", "recall", "f1")
    headline = "f1"
    strip_text = True
    multi_reference_rule = ("the candidate is scored against each reference; precision, recall and F are each "
                            "the maximum over the references (bert-score's max(dim=0)), so they can come from "
                            "different references")
    OPTIONS = (OptionSpec("idf", "bool", False, "weight pieces by their inverse document frequency over the "
                          "references of the call (bert_score.score(idf=True))", label="idf weights"),)

    def max_pieces(self, model: SemanticModel) -> int:
        return model.model_max_length

    def signature(self, info: ModelInfo) -> str:
        """bert-score's own hash (``get_hash``), the model named instead of a folder path."""
        idf = "_idf" if self.options["idf"] else "_no-idf"
        return f"{info.name}_L{LAYER}{idf}_version={BERT_SCORE_HASH_VERSION}(hug_trans={TRANSFORMERS_VERSION})"

    def context(self, model: SemanticModel, candidates: Sequence[PieceText],
                references: Sequence[Sequence[PieceText]]) -> BertScoreContext:
        table = idf_table(r.ids for refs in references for r in refs) if self.options["idf"] else None
        floors, first = batch_floors([len(c) for c in candidates], [[len(r) for r in refs] for refs in references])
        return BertScoreContext(table, floors, first, model.tokenizer.cls_id, model.tokenizer.sep_id)

    def _pairs(self, index, candidate, references, cand_emb, ref_embs, ctx) -> list[BertScorePair]:
        cu = unit_rows(cand_emb)
        cw = ctx.raw_weights(candidate)
        first = ctx.first_pair[index]
        out = []
        for k, (r, re) in enumerate(zip(references, ref_embs)):
            rw = ctx.raw_weights(r)
            fr, fc = ctx.floors[first + k]
            out.append(BertScorePair(greedy_match(cu, unit_rows(re), cw, rw, floor_rows=fr, floor_cols=fc), cw, rw))
        return out

    def segment_values(self, index: int, candidate: PieceText, references: Sequence[PieceText],
                       cand_emb: np.ndarray, ref_embs: Sequence[np.ndarray], context: BertScoreContext
                       ) -> SegmentValues:
        pairs = self._pairs(index, candidate, references, cand_emb, ref_embs, context)
        values, chosen = {}, {}
        for m in self.measures:
            values[m], chosen[m] = first_max([getattr(p, m) for p in pairs])
        return SegmentValues(values, chosen, [{m: getattr(p, m) for m in self.measures} for p in pairs])

    def build_trace(self, model: SemanticModel, candidate: PieceText, references: Sequence[PieceText],
                    cand_emb: np.ndarray, ref_embs: Sequence[np.ndarray], context: BertScoreContext
                    ) -> BertScoreTrace:
        pairs = self._pairs(0, candidate, references, cand_emb, ref_embs, context)
        values, chosen = {}, {}
        for m in self.measures:
            values[m], chosen[m] = first_max([getattr(p, m) for p in pairs])
        idf_rows = None
        if context.idf is not None:
            seen: dict[int, str] = {}
            for t in [candidate, *references]:
                for p in t.pieces:
                    seen.setdefault(p.id, p.piece)
            idf_rows = [IdfRow(piece, i, context.idf.counts.get(i, 0), context.idf.idf(i), context.idf.formula(i))
                        for i, piece in seen.items()]
        warns, err = self.check_inputs([candidate], [list(references)])
        return BertScoreTrace(self.name, self.options_dict(), model.info, self.signature(model.info), LAYER,
                              candidate, list(references), pairs, values["precision"], values["recall"],
                              values["f1"], chosen, idf_rows, context.idf.n_documents if context.idf else None,
                              self.multi_reference_rule, PUBLISHED, warns, err, blind_spots())

    def check_inputs(self, candidates, references) -> tuple[list[LibraryWarning], LibraryError | None]:
        warns = truncation_warnings(self, candidates, references)
        empty_c = any(c.empty for c, refs in zip(candidates, references) for _ in refs)
        empty_r = any(r.empty for refs in references for r in refs)
        if empty_c:
            warns.append(LibraryWarning("stderr", "Warning: Empty candidate sentence detected; setting raw "
                                                  "BERTscores to 0."))
        if empty_r:
            warns.append(LibraryWarning("stderr", "Warning: Empty reference sentence detected; setting raw "
                                                  "BERTScores to 0."))
        err = None
        if any(not t.text.strip() for t in [*candidates, *(r for refs in references for r in refs)]):
            err = LibraryError(*_EMPTY_T5, "with transformers 5, bert-score 0.3.13 fails on an empty (or blank) "
                               "text: sent_encode calls tokenizer.build_inputs_with_special_tokens, which "
                               "transformers 5 removed. The numbers shown are bert-score's with transformers 4 "
                               "(the text read as [CLS] [SEP], scored 0).")
        return warns, err
