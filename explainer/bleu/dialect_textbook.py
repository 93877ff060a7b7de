"""The textbook's from-scratch BLEU (its "Complete BLEU Implementation", ``bleu_score``).

``tokenize = text.lower().split()``; modified precision = clipped/total (0 when total is 0); the closest
reference length by ``min(ref_lens, key=lambda r: abs(r - c))`` (a tie goes to the FIRST listed reference);
``log(max(p, 1e-10))`` for every order; geometric mean ``exp(sum(logs) / len(logs))``;
``BP = 1 if c >= r else exp(1 - r/c)``. The textbook has no corpus function: for a corpus the explainer sums
the per-segment statistics as every library does.
"""
from __future__ import annotations

import math

from explainer.bleu.dialects import (
    BleuDialect,
    Combination,
    LibraryError,
    OptionSpec,
    OrderResult,
    closest_first,
    search_order_cost,
)
from explainer.search_space import point

EPSILON = 1e-10


class TextbookDialect(BleuDialect):
    name = "textbook"
    label = "Textbook (from-scratch code)"
    implementation = "textbook bleu_score()"
    description = ("The textbook's from-scratch BLEU: lowercase + whitespace tokens, closest reference "
                   "(first listed wins a tie), zero precisions floored at 1e-10, score on 0-1.")
    scale = 1.0
    OPTIONS = (OptionSpec("max_n", "int", 4, "maximum n-gram order (the textbook's max_n)", min=1, max=10),)
    tokenizer_name = "lower+split"
    short_label = "the textbook"
    rank = 5
    cli_flags = {"max_order": "max_n"}

    def smoothing_label(self) -> str:
        return "none (log floor 1e-10)"

    @classmethod
    def search_configs(cls, context):
        """max_n 1-4."""
        out = []
        for n in (4, 3, 2, 1):
            oc = search_order_cost(n, context)
            if oc is not None:
                out.append(point({"max_n": n} if n != 4 else {}, 1.0 + oc, f"max_n={n}" if n != 4 else ""))
        return out

    @classmethod
    def comparison_rows(cls, texts):
        return [{"options": {}, "id": cls.name, "label": "Textbook",
                 "note": "the textbook's bleu_score: lowercase + whitespace, 1e-10 floor"}]

    def tokenize(self, text: str) -> list[str]:
        return text.lower().split()

    def preprocessed_text(self, text: str) -> str:
        return " ".join(text.lower().split())

    def preprocess_changes(self, text: str) -> list[dict]:
        out = []
        if text.lower() != text:
            out.append({"step": "lowercase", "detail": "text.lower()"})
        out.append({"step": "tokenize", "detail": "str.split(): punctuation stays attached to words"})
        return out

    align_mode = (True, False)

    @property
    def max_order(self) -> int:
        return self.options["max_n"]

    def choose_ref_length(self, c, ref_lens):
        return closest_first(c, ref_lens)

    def ref_length_fast(self, c, ref_lens):
        return min(ref_lens, key=lambda r: abs(r - c)) if ref_lens else 0

    def combine(self, c, r, matches, totals, ctx, *, n_segments=1) -> Combination:
        N = self.max_order
        err = None
        precisions = [(m / t if t > 0 else 0) for m, t in zip(matches, totals)]
        logs = [math.log(max(p, EPSILON)) for p in precisions]
        log_sum = sum(logs)
        log_mean = log_sum / len(logs)
        geo = math.exp(log_mean)
        if c >= r:
            bp, branch, f = 1.0, "c ≥ r", f"c = {c} ≥ r = {r}: BP = 1"
        elif c == 0:
            bp, branch, f = 0.0, "c = 0", "exp(1 − r/0): division by zero"
            err = LibraryError("ZeroDivisionError", "division by zero",
                               "the real library fails here because the candidate is empty: brevity_penalty "
                               "computes exp(1 − r/c) with c = 0")
        else:
            bp = math.exp(1 - r / c)
            branch, f = "c < r", f"exp(1 − r/c) = exp(1 − {r}/{c}) = {bp:.6g}"
        orders = []
        for n in range(1, N + 1):
            m, t, p = matches[n - 1], totals[n - 1], precisions[n - 1]
            if p > EPSILON:
                sm, formula, reason = "none", f"{m} / {t} = {p:.6g}", "precision above the 1e-10 floor"
            else:
                sm = "floor-1e-10"
                formula = f"max({p:g}, 1e-10) = 1e-10"
                reason = ("no candidate n-grams of this order: precision 0, floored at 1e-10" if t == 0
                          else "0 matches: log(max(p, 1e-10)) keeps the log finite")
            orders.append(OrderResult(n=n, matches=m, totals=t, precision_raw=(m / t) if t else None,
                                      precision=p, smoothing=sm, formula=formula, reason=reason, weight=1.0 / N,
                                      included=True, log_term=logs[n - 1]))
        score = bp * geo
        early = None
        if n_segments == 0:
            # an empty corpus (recorded as NotExpressible by check_inputs): nothing to score, not the 1e-10 floor
            geo = score = 0.0
            early = "no segments: nothing to score (score 0.0)"
        return Combination(orders=orders, c=c, r=r, ratio=(c / r) if r else None, bp=bp, bp_branch=branch,
                           bp_formula=f, weights=[1.0 / N] * N, effective_order=N, log_sum=log_sum,
                           log_mean=log_mean, geo_mean=geo, score=score, bleu=score, scale=1.0,
                           early_exit=early, library_error=err)

    def signature(self, nrefs) -> str:
        return f"textbook|nrefs:{nrefs}|case:lc|tok:split|ref:closest-first|floor:1e-10|max_n:{self.max_order}"

    def check_inputs(self, candidates, references, *, corpus):
        if corpus and not candidates:
            return [], LibraryError("NotExpressible", "no segments: the textbook's bleu_score scores one candidate",
                                    "the real library cannot even be given this input: the textbook has no corpus "
                                    "function (a textbook corpus sums the statistics of its segments), and an "
                                    "empty corpus has no candidate to pass to bleu_score")
        if any(len(r) == 0 for r in references):
            return [], LibraryError("ValueError", "min() arg is an empty sequence",
                                    "the real library fails here because there is no reference: "
                                    "min(ref_lens, ...) of an empty list")
        return [], None
