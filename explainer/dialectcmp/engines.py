"""Scoring many configurations of one segment, sharing the work (the reproduce search).

Everything specific to how the cores are driven lives here, over their dialect hooks:

* BLEU (``explainer.bleu.get_dialect`` instances): tokens are computed once per tokenization (dialect +
  tokenizer/case options) and text, n-gram counts (orders 1-4) once per tokenization, the clipped matches once
  per tokenization and reference subset; each configuration then applies only its own rules: reference length
  (``ref_length_fast``), totals (``segment_total``), ``check_inputs`` and ``combine`` — the same calls, on the
  same statistics, as ``explainer.bleu.score_bleu`` makes (``algorithm.score_segment``).
* ROUGE (``explainer.rouge.get_dialect``): each text is prepared once per dialect and token options, each
  ROUGE type scored once per reference (``score_type``), and every multi-reference rule and reference subset
  combines those results (``combine``) — the calls ``explainer.rouge.score_rouge`` makes.

Every value reported is checked against ``python -m explainer bleu|rouge`` with the match's arguments in the
tests (tests/test_reproduce.py).
"""
from __future__ import annotations

from typing import Sequence

from explainer.options import freeze

__all__ = ["BleuEngine", "RougeEngine", "BleuResult"]


class BleuResult:
    __slots__ = ("score", "bleu", "bp", "precisions", "error")

    def __init__(self, score, bleu, bp, precisions, error):
        self.score, self.bleu, self.bp, self.precisions, self.error = score, bleu, bp, precisions, error


class BleuEngine:
    """One candidate, its references; ``score(dialect, options, subset)`` for any configuration."""

    MAX_ORDER = 4

    def __init__(self, candidate: str, references: Sequence[str]) -> None:
        self.candidate = candidate
        self.references = list(references)
        self._dialects: dict = {}
        self._tokens: dict = {}
        self._counts: dict = {}
        self._clipped: dict = {}

    def dialect(self, name: str, opts: dict):
        from explainer.bleu import get_dialect

        key = (name, freeze(opts))       # the one key of option values (5 and 5.0 are two NLTK configurations)
        d = self._dialects.get(key)
        if d is None:
            d = self._dialects[key] = get_dialect(name, **opts)
        return d

    def _toks(self, tk: tuple, d) -> tuple[list[str], list[list[str]]]:
        t = self._tokens.get(tk)
        if t is None:
            t = self._tokens[tk] = (d.tokenize(self.candidate), [d.tokenize(r) for r in self.references])
        return t

    def _ngram_counts(self, tk: tuple, d):
        from explainer.ngrams import count_all_ngrams

        c = self._counts.get(tk)
        if c is None:
            cand, refs = self._toks(tk, d)
            c = self._counts[tk] = (count_all_ngrams(cand, self.MAX_ORDER),
                                    [count_all_ngrams(r, self.MAX_ORDER) for r in refs])
        return c

    def _stats(self, tk: tuple, d, subset: tuple) -> tuple[int, list[int], list[int]]:
        """(c, reference lengths, clipped matches of orders 1..4) for a reference subset."""
        key = (tk, subset)
        s = self._clipped.get(key)
        if s is None:
            cand_toks, ref_toks = self._toks(tk, d)
            cand_c, ref_c = self._ngram_counts(tk, d)
            mx: dict = {}
            for k in subset:
                for ng, n in ref_c[k].items():
                    if n > mx.get(ng, 0):
                        mx[ng] = n
            matches = [0] * self.MAX_ORDER
            for ng, n in cand_c.items():
                r = mx.get(ng)
                if r:
                    matches[len(ng) - 1] += n if n < r else r
            s = self._clipped[key] = (len(cand_toks), [len(ref_toks[k]) for k in subset], matches)
        return s

    def score(self, name: str, opts: dict, subset: tuple) -> BleuResult:
        """The numbers ``score_bleu(candidate, [references[k] for k in subset], dialect=name, **opts)`` gives;
        ``error`` is set where the real library fails (it then reports no number at all)."""
        d = self.dialect(name, opts)
        N = d.max_order
        if N > self.MAX_ORDER:
            raise ValueError(f"the search counts n-grams up to order {self.MAX_ORDER}")
        tk = d.tokenization_key()         # configurations with the same key tokenize every text identically
        c, ref_lens, matches = self._stats(tk, d, subset)
        refs = [self.references[k] for k in subset]
        warns, err = d.check_inputs([self.candidate], [refs], corpus=False)
        if d.per_reference:    # one reference's own statistics (GLEU): each reference of the subset alone
            st = d.pick_reference(c, ref_lens, [self._stats(tk, d, (k,))[2][:N] for k in subset]).stats
            r, matches, totals = st[1], st[2:2 + N], st[2 + N:]
        else:
            r = d.ref_length_fast(c, ref_lens)
            totals = [d.segment_total(c, n) for n in range(1, N + 1)]
        ctx = None
        if d.needs_last_segment:
            cand_toks, ref_toks = self._toks(tk, d)
            ctx = d.last_segment_context(cand_toks, [ref_toks[k] for k in subset])
        comb = d.combine(c, r, matches[:N], totals, ctx, n_segments=1)
        score, bleu = comb.score, comb.bleu
        if err is not None and (score != 0.0 or bleu != 0.0):
            score = bleu = 0.0          # the library fails before scoring: the documented fallback 0.0
        error = err or comb.library_error
        return BleuResult(score, bleu, comb.bp, [o.precision for o in comb.orders], error)


class RougeEngine:
    """One candidate, its references; per configuration the per-reference results of every type (from the
    dialect bound to its types and options, ``explainer.rouge.engine.bind_dialect``), then any multi-reference
    rule over any reference subset."""

    def __init__(self, candidate: str, references: Sequence[str]) -> None:
        self.candidate = candidate
        self.references = list(references)
        self._per_ref: dict = {}

    def per_reference(self, name: str, opts: dict, types: Sequence[str], texts: tuple[str, list[str]] | None = None):
        """The per-reference ``{type: TypeResult}`` of a configuration (with what ``combine`` needs)."""
        from explainer.rouge.engine import bind_dialect

        cand, refs = texts or (self.candidate, self.references)
        key = (name, freeze(opts), tuple(types), cand, tuple(refs))
        hit = self._per_ref.get(key)
        if hit is not None:
            return hit
        d = bind_dialect(name, list(types), **opts)
        need = d.needs_sentences
        cp = d.prepare(cand, need_sents=need, full=False)
        per = []
        for r in refs:
            rp = d.prepare(r, need_sents=need, full=False)
            per.append({rt.name: d.score_type(rt, cp, rp, full=False) for rt in d.types})
        hit = self._per_ref[key] = (name, dict(opts), list(types), {rt.name: rt for rt in d.types}, per)
        return hit

    def combine(self, prepared, rule: str, subset: tuple) -> dict:
        """{type: Score} under a multi-reference rule for a reference subset."""
        from explainer.rouge.engine import bind_dialect

        name, opts, types, rts, per = prepared
        d = bind_dialect(name, types, **dict(opts, multi_ref=rule))
        return {t: d.combine(rt, [per[k][t] for k in subset])[0] for t, rt in rts.items()}
