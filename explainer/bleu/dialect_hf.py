"""Hugging Face ``evaluate`` "bleu" (metric script huggingface/evaluate@a7dd338, ``nmt_bleu.compute_bleu``
from tensorflow/nmt@0be8642).

Tokenizer: the metric's ``Tokenizer13a`` is a copy of sacreBLEU's 13a, called on the raw line (sacreBLEU
``rstrip``s first). We therefore call sacreBLEU's own ``Tokenizer13a`` class on the *unstripped* text and split
the result, which gives the HF tokens: the only difference between the two (``"foo-\\n"`` -> HF ``foo``,
sacreBLEU ``foo-``) comes from that missing rstrip, and every golden HF record's ``tokens`` are reproduced
(tests/test_bleu_golden.py). Reference length: the SHORTEST reference. ``smooth``: (m+1)/(t+1) for every order,
unigrams included. See docs/dialects-bleu.md.
"""
from __future__ import annotations

import math

from explainer.bleu.dialect_sacrebleu import changes_13a, sacrebleu_tokenizer
from explainer.bleu.dialects import (
    BleuDialect,
    Combination,
    LibraryError,
    OptionSpec,
    OrderResult,
    search_order_cost,
    shortest,
)
from explainer.search_space import point


class HfEvaluateDialect(BleuDialect):
    name = "hf-evaluate"
    label = "Hugging Face evaluate (bleu)"
    implementation = "evaluate 0.4.6, metrics/bleu @a7dd338 (tensorflow/nmt compute_bleu @0be8642)"
    description = ("evaluate.load('bleu'): its own 13a copy (no rstrip), the SHORTEST reference length, "
                   "optional add-one smoothing of every order, score on 0-1.")
    scale = 1.0
    tokenizer_name = "13a (HF copy: no rstrip)"
    short_label = "HF evaluate"
    rank = 2
    cli_flags = {"smooth": "smooth", "max_order": "max_order"}
    smooth_words = {"none": "false", "add-one": "true", "false": "false", "true": "true"}
    SCORING_ONLY = frozenset({"smooth"})
    OPTIONS = (
        OptionSpec("max_order", "int", 4, "maximum n-gram order", min=1, max=10),
        OptionSpec("smooth", "bool", False, "add 1 to matches and totals of every order (unigrams too)"),
    )

    def _setup(self) -> None:
        self._tok = sacrebleu_tokenizer("13a")

    def smoothing_label(self) -> str:
        return "add-one (all orders)" if self.options["smooth"] else "none"

    @classmethod
    def search_configs(cls, context):
        """Max order 1-4, smooth."""
        out = []
        for n in (4, 3, 2, 1):
            oc = search_order_cost(n, context)
            if oc is None:
                continue
            for smooth_on in (False, True):
                opts: dict = {}
                if n != 4:
                    opts["max_order"] = n
                if smooth_on:
                    opts["smooth"] = True
                out.append(point(opts, 1.0 * smooth_on + oc, f"max_order={n}" if n != 4 else "",
                                 "smooth=True" if smooth_on else ""))
        return out

    @classmethod
    def comparison_rows(cls, texts):
        return [{"options": {}, "id": cls.name, "label": "HF evaluate",
                 "note": "evaluate.load('bleu'): shortest reference length, no smoothing"}]

    def tokenize(self, text: str) -> list[str]:
        return self._tok(text).split()

    def preprocessed_text(self, text: str) -> str:
        return " ".join(self._tok(text).split())

    def preprocess_changes(self, text: str) -> list[dict]:
        return changes_13a(text, "13a rules (HF's copy of sacreBLEU's tokenizer)",
                           "no rstrip first, unlike sacreBLEU")

    align_mode = (False, True)

    @property
    def max_order(self) -> int:
        return self.options["max_order"]

    def choose_ref_length(self, c, ref_lens):
        return shortest(c, ref_lens)

    def ref_length_fast(self, c, ref_lens):
        return min(ref_lens) if ref_lens else 0

    def combine(self, c, r, matches, totals, ctx, *, n_segments=1) -> Combination:
        N = self.max_order
        precisions, notes = self._precisions(matches, totals)
        terms, log_sum, geo, early = _geo_mean(precisions)
        ratio, bp, branch, bpf, err = _brevity_penalty(c, r)
        bleu = geo * bp
        orders = []
        for i in range(N):
            sm, f, why = notes[i]
            orders.append(OrderResult(n=i + 1, matches=matches[i], totals=totals[i],
                                      precision_raw=(matches[i] / totals[i]) if totals[i] else None,
                                      precision=float(precisions[i]), smoothing=sm, formula=f, reason=why,
                                      weight=1.0 / N if early is None else 0.0, included=early is None,
                                      log_term=terms[i]))
        return Combination(orders=orders, c=c, r=r, ratio=ratio, bp=bp, bp_branch=branch, bp_formula=bpf,
                           weights=[o.weight for o in orders], nominal_weights=[1.0 / N] * N, effective_order=N,
                           log_sum=log_sum, log_mean=log_sum,
                           geo_mean=float(geo), score=float(bleu), bleu=float(bleu), scale=1.0, early_exit=early,
                           library_error=err)

    def _precisions(self, matches, totals) -> tuple[list, list[tuple[str, str, str]]]:
        """compute_bleu's precisions (add-one on every order with ``smooth``) and, per order, (smoothing,
        formula, why)."""
        N = self.max_order
        precisions = [0] * N
        notes = []
        for i in range(N):
            m, t = matches[i], totals[i]
            if self.options["smooth"]:
                precisions[i] = (m + 1.0) / (t + 1.0)
                notes.append(("add-one", f"({m} + 1) / ({t} + 1) = {precisions[i]:.6g}",
                              "smooth=True adds 1 to matches and totals of every order, unigrams included"))
            elif t > 0:
                precisions[i] = float(m) / t
                notes.append(("none", f"{m} / {t} = {precisions[i]:.6g}", "no smoothing"))
            else:
                precisions[i] = 0.0
                notes.append(("none", "0 (no candidate n-grams)", "no candidate n-grams of this order: precision 0"))
        return precisions, notes

    def signature(self, nrefs) -> str:
        o = self.options
        return (f"hf-evaluate:bleu@a7dd338|nmt_bleu@0be8642|nrefs:{nrefs}|tok:13a-hf|case:mixed|ref:shortest|"
                f"max_order:{o['max_order']}|smooth:{'yes' if o['smooth'] else 'no'}")

    def check_inputs(self, candidates, references, *, corpus):
        if corpus and not candidates:
            # EvaluationModule.add_batch -> _infer_feature_from_batch reads v[0] of every input column
            # (evaluate src/evaluate/module.py); _compute would read references[0] next.
            return [], LibraryError("IndexError", "list index out of range",
                                    "the real library fails here because the corpus is empty: evaluate infers "
                                    "the input format from the first prediction and reference, and there is none")
        for i, rs in enumerate(references):
            if not rs:
                return [], LibraryError("ValueError", "min() arg is an empty sequence",
                                        f"the real library fails here because segment {i + 1} has no reference: "
                                        "compute_bleu takes min() of no reference lengths")
        return [], None


def _geo_mean(precisions) -> tuple[list, float | None, float, str | None]:
    """(log terms, their sum, the geometric mean, the early exit): compute_bleu skips the logs when a precision
    is 0."""
    N = len(precisions)
    if min(precisions) > 0:
        terms = [(1.0 / N) * math.log(p) for p in precisions]
        log_sum = sum(terms)
        return terms, log_sum, math.exp(log_sum), None
    return [None] * N, None, 0, "a precision is 0: geo_mean = 0 (compute_bleu skips the logs)"


def _brevity_penalty(c: int, r: int) -> tuple[float | None, float, str, str, LibraryError | None]:
    """(ratio, BP, branch, formula, the library's error): ``exp(1 - 1/ratio)`` with ratio = c/r; a zero length
    divides by zero in compute_bleu."""
    if r == 0 or c == 0:
        what = ("the reference length (the shortest reference) is 0" if r == 0
                else "the candidate is empty (ratio 0)")
        # ratio = float(translation_length) / reference_length, then 1. / ratio: a float division either way
        err = LibraryError("ZeroDivisionError", "float division by zero",
                           f"the real library fails here because {what}: compute_bleu divides by it")
        return ((c / r) if r else None), 0.0, "division by zero", \
            "ratio = c/r, BP = exp(1 − 1/ratio): undefined", err
    ratio = float(c) / r
    if ratio > 1.0:
        return ratio, 1.0, "ratio > 1", f"ratio = {c}/{r} = {ratio:.6g} > 1: BP = 1", None
    bp = math.exp(1 - 1.0 / ratio)
    return ratio, bp, "ratio ≤ 1", f"exp(1 − 1/ratio) = exp(1 − 1/{ratio:.6g}) = {bp:.6g}", None
