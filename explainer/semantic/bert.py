"""The BERT encoder of all-MiniLM-L6-v2 in float32 NumPy: what ``transformers``' ``BertModel`` computes, without torch.

For each text (word-piece ids, ``[CLS]`` first and ``[SEP]`` last), as ``BertModel.forward`` in eval mode:

1. embeddings: ``word[id] + position[i] + token_type[0]``, then LayerNorm (eps from config.json, 1e-12);
2. six layers, each: self-attention (12 heads of 32 dimensions: ``softmax(q·kᵀ / √32) · v``), the output dense
   layer, residual and LayerNorm; the intermediate dense layer (1,536) with GELU (``explainer.semantic.gelu``),
   the output dense layer, residual and LayerNorm;
3. the last layer's hidden states are the token embeddings (``last_hidden_state``: what sentence-transformers pools
   and what bert-score matches with ``num_layers=6``).

The texts are never padded: the dense layers work on every token of every text at once (one matrix product over
all tokens), and attention, the only step that mixes tokens, runs per group of texts of the same length. So a
text's embeddings are what the model gives it alone; the libraries pad a batch to its longest text and mask the
padding, which changes their numbers only in the last float32 digits.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from explainer.semantic.gelu import gelu_

__all__ = ["BertEncoder"]

#: most attention scores (heads × rows × columns) computed at once, in float32 (64 MB)
_MAX_SCORE_CELLS = 16_000_000


def _layer_norm_(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: np.float32) -> np.ndarray:
    """LayerNorm over the last axis, in place: ``(x − mean) / √(var + eps) · weight + bias`` (biased variance)."""
    x -= x.mean(axis=-1, keepdims=True)
    var = np.square(x).mean(axis=-1, keepdims=True)
    var += eps
    np.sqrt(var, out=var)
    x /= var
    x *= weight
    x += bias
    return x


class _Layer:
    """One transformer layer's weights, laid out for ``tokens @ W`` (query, key and value fused)."""

    __slots__ = ("qkv_w", "qkv_b", "out_w", "out_b", "ln1_w", "ln1_b", "inter_w", "inter_b", "ffn_w", "ffn_b",
                 "ln2_w", "ln2_b")

    def __init__(self, w: dict, prefix: str) -> None:
        def t(name: str) -> np.ndarray:      # torch's Linear weight is (out, in): keep its transpose
            return np.ascontiguousarray(np.asarray(w[f"{prefix}.{name}.weight"], np.float32).T)

        def v(name: str) -> np.ndarray:
            return np.array(w[f"{prefix}.{name}"], np.float32)

        a = "attention.self"
        self.qkv_w = np.ascontiguousarray(np.concatenate([t(f"{a}.query"), t(f"{a}.key"), t(f"{a}.value")], 1))
        self.qkv_b = np.concatenate([v(f"{a}.query.bias"), v(f"{a}.key.bias"), v(f"{a}.value.bias")])
        self.out_w, self.out_b = t("attention.output.dense"), v("attention.output.dense.bias")
        self.ln1_w, self.ln1_b = v("attention.output.LayerNorm.weight"), v("attention.output.LayerNorm.bias")
        self.inter_w, self.inter_b = t("intermediate.dense"), v("intermediate.dense.bias")
        self.ffn_w, self.ffn_b = t("output.dense"), v("output.dense.bias")
        self.ln2_w, self.ln2_b = v("output.LayerNorm.weight"), v("output.LayerNorm.bias")


class BertEncoder:
    """The encoder, from the safetensors weights and config.json. Read-only after construction: one instance
    serves every thread."""

    def __init__(self, weights: dict, config: dict) -> None:
        if config.get("hidden_act") != "gelu" or config.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError("only BERT with absolute positions and erf GELU is supported")
        self.hidden = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.head_dim = self.hidden // self.heads
        self.n_layers = int(config["num_hidden_layers"])
        self.max_positions = int(config["max_position_embeddings"])
        self.eps = np.float32(config["layer_norm_eps"])
        self.word = np.array(weights["embeddings.word_embeddings.weight"], np.float32)
        self.position = np.array(weights["embeddings.position_embeddings.weight"], np.float32)
        self.token_type0 = np.array(weights["embeddings.token_type_embeddings.weight"][0], np.float32)
        self.emb_ln = (np.array(weights["embeddings.LayerNorm.weight"], np.float32),
                       np.array(weights["embeddings.LayerNorm.bias"], np.float32))
        self.layers = [_Layer(weights, f"encoder.layer.{i}") for i in range(self.n_layers)]
        self.scale = np.float32(1.0 / np.sqrt(self.head_dim))

    @property
    def nbytes(self) -> int:
        arrays = [self.word, self.position, self.token_type0, *self.emb_ln]
        arrays += [getattr(layer, s) for layer in self.layers for s in _Layer.__slots__]
        return sum(a.nbytes for a in arrays)

    def encode(self, sequences: Sequence[Sequence[int]]) -> list[np.ndarray]:
        """The last layer's hidden states of each id sequence: a (length, hidden) float32 array per sequence,
        computed on the calling thread (``explainer.semantic.embed`` spreads large runs over the cores)."""
        if not sequences:
            return []
        lengths = [len(s) for s in sequences]
        if min(lengths) < 1 or max(lengths) > self.max_positions:
            raise ValueError(f"a sequence must have 1 to {self.max_positions} word pieces")
        order = sorted(range(len(sequences)), key=lambda i: lengths[i])
        groups: list[tuple[int, int, int]] = []    # (first token row, number of texts, length)
        row, k = 0, 0
        while k < len(order):
            L = lengths[order[k]]
            j = k
            while j < len(order) and lengths[order[j]] == L:
                j += 1
            groups.append((row, j - k, L))
            row += (j - k) * L
            k = j
        ids = np.fromiter((t for i in order for t in sequences[i]), dtype=np.int64, count=row)
        h = self._embed(ids, groups)
        for layer in self.layers:
            h = self._layer(h, layer, groups)
        out: list = [None] * len(sequences)
        for (start, n, L), idx in zip(groups, _split(order, [g[1] for g in groups])):
            block = h[start:start + n * L].reshape(n, L, self.hidden)
            for b, i in enumerate(idx):
                out[i] = block[b]
        return out

    def _embed(self, ids: np.ndarray, groups) -> np.ndarray:
        h = self.word[ids]
        for start, n, L in groups:
            block = h[start:start + n * L].reshape(n, L, self.hidden)
            block += self.position[:L]
        h += self.token_type0
        return _layer_norm_(h, *self.emb_ln, self.eps)

    def _layer(self, h: np.ndarray, layer: _Layer, groups) -> np.ndarray:
        qkv = h @ layer.qkv_w
        qkv += layer.qkv_b
        ctx = np.empty_like(h)
        for start, n, L in groups:
            self._attention(qkv[start:start + n * L], n, L, ctx[start:start + n * L])
        attn = ctx @ layer.out_w
        attn += layer.out_b
        attn += h
        h = _layer_norm_(attn, layer.ln1_w, layer.ln1_b, self.eps)
        inter = h @ layer.inter_w
        inter += layer.inter_b
        gelu_(inter)
        out = inter @ layer.ffn_w
        del inter
        out += layer.ffn_b
        out += h
        return _layer_norm_(out, layer.ln2_w, layer.ln2_b, self.eps)

    def _attention(self, qkv: np.ndarray, n: int, L: int, out: np.ndarray) -> None:
        """Self-attention of ``n`` texts of ``L`` pieces each (rows of ``qkv``), written to ``out``."""
        H, D = self.heads, self.head_dim
        per_text = H * L * L
        step = max(1, _MAX_SCORE_CELLS // per_text)
        for b0 in range(0, n, step):
            b1 = min(n, b0 + step)
            x = qkv[b0 * L:b1 * L].reshape(b1 - b0, L, 3, H, D)
            q = x[:, :, 0].transpose(0, 2, 1, 3)          # (texts, heads, L, D)
            k = x[:, :, 1].transpose(0, 2, 3, 1)          # (texts, heads, D, L)
            v = x[:, :, 2].transpose(0, 2, 1, 3)
            scores = np.matmul(q, k)
            scores *= self.scale
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            ctx = np.matmul(scores, v)                    # (texts, heads, L, D)
            out[b0 * L:b1 * L] = ctx.transpose(0, 2, 1, 3).reshape((b1 - b0) * L, H * D)


def _split(items: list, sizes: list[int]) -> list[list]:
    out, k = [], 0
    for s in sizes:
        out.append(items[k:k + s])
        k += s
    return out
