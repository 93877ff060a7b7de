"""STS as sentence-transformers 6.2.0 computes it with all-MiniLM-L6-v2:
``SentenceTransformer("all-MiniLM-L6-v2").encode([candidate, reference], normalize_embeddings=True)``, then the
dot product of the two rows.

The model's modules.json lists what ``encode`` does: ``Transformer`` (the text truncated to ``max_seq_length`` =
256 word pieces, sentence_bert_config.json; the last layer's piece vectors), ``Pooling`` (1_Pooling/config.json:
mean over the attention mask, so ``[CLS]`` and ``[SEP]`` are averaged in) and ``Normalize`` (each vector divided by
its length, ``max(‖v‖, 1e-12)``; ``normalize_embeddings=True`` divides once more, a no-op). The dot product of unit
vectors is their cosine. sentence-transformers does not strip the text.

Several references: sentence-transformers has no rule of its own; the explainer gives each reference's cosine and
keeps the highest (the first on a tie), the max-over-references rule of SAS (semantic answer similarity).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from explainer.semantic.dialects import SegmentValues, SemanticDialect, first_max
from explainer.semantic.model import ModelInfo, SemanticModel
from explainer.semantic.notes import blind_spots
from explainer.semantic.pieces import PieceText
from explainer.semantic.trace import StsPooling, StsTrace

__all__ = ["StsDialect", "SENTENCE_TRANSFORMERS_VERSION", "pool"]

SENTENCE_TRANSFORMERS_VERSION = "6.2.0"
_EPS = np.float32(1e-12)


def pool(h: np.ndarray) -> StsPooling:
    """Mean pooling then L2 normalisation of one text's (pieces, 384) last-layer vectors."""
    n = h.shape[0]
    mean = h.sum(axis=0, dtype=np.float32) / np.float32(n)
    norm = np.sqrt(np.square(mean).sum(dtype=np.float32))
    return StsPooling(n, float(norm), mean / max(norm, _EPS))


class StsDialect(SemanticDialect):
    name = "sts"
    label = "STS (sentence-transformers)"
    short_label = "sentence-transformers"
    implementation = f"sentence-transformers {SENTENCE_TRANSFORMERS_VERSION}"
    description = ("The cosine of the two texts' sentence embeddings: all-MiniLM-L6-v2's piece vectors averaged "
                   "and scaled to length 1, as SentenceTransformer.encode(..., normalize_embeddings=True); "
                   "several references: the highest cosine.")
    rank = 0
    library = "sentence-transformers"
    library_version = SENTENCE_TRANSFORMERS_VERSION
    measures = ("sts",)
    headline = "sts"
    strip_text = False
    multi_reference_rule = ("each reference's cosine is computed; the highest is kept (the first on a tie). "
                            "sentence-transformers compares two texts; the max over references is SAS's rule")
    OPTIONS = ()

    def max_pieces(self, model: SemanticModel) -> int:
        return model.max_seq_length

    def signature(self, info: ModelInfo) -> str:
        return (f"sentence-transformers:{SENTENCE_TRANSFORMERS_VERSION}|model:{info.name}@{info.revision}"
                "|pooling:mean|normalize:yes|max_seq_length:256|refs:max")

    def segment_values(self, index: int, candidate: PieceText, references: Sequence[PieceText],
                       cand_emb: np.ndarray, ref_embs: Sequence[np.ndarray], context=None) -> SegmentValues:
        c = pool(cand_emb).embedding
        cos = [float(np.dot(c, pool(r).embedding)) for r in ref_embs]
        best, k = first_max(cos)
        return SegmentValues({"sts": best}, {"sts": k}, [{"sts": x} for x in cos])

    def build_trace(self, model: SemanticModel, candidate: PieceText, references: Sequence[PieceText],
                    cand_emb: np.ndarray, ref_embs: Sequence[np.ndarray], context=None) -> StsTrace:
        cp = pool(cand_emb)
        rps = [pool(r) for r in ref_embs]
        cos = [float(np.dot(cp.embedding, rp.embedding)) for rp in rps]
        best, k = first_max(cos)
        warns, err = self.check_inputs([candidate], [list(references)])
        return StsTrace(self.name, self.options_dict(), model.info, self.signature(model.info), candidate,
                        list(references), cp, rps, cos, k, best, self.multi_reference_rule, warns, err,
                        blind_spots())
