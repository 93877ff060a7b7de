"""NLTK's chrF (``nltk.translate.chrf_score``: ``sentence_chrf`` / ``corpus_chrf``).

How it differs from sacreBLEU's: beta = 3 by default, whitespace removed with NLTK's own ``_preprocess`` (the
regular expression ``\\s+``) or kept, no lowercasing, no word n-grams (``min_len``..``max_len`` character orders
only), per order ``P = tp / (tp + fp)``, ``R = tp / (tp + fn)`` and F, all three eps = 1e-16 when any division
fails (``ZeroDivisionError``); the segment score is the mean of the per-order F-scores and the corpus score the
mean over the segments (macro average, not summed statistics); score on 0-1. NLTK takes one reference: a list of
several references is joined with spaces into one text by ``_preprocess`` (recorded as a warning).
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

import nltk
from nltk.translate.chrf_score import _preprocess

from explainer.chrf.dialects import ChrfDialect, Combination, LibraryError, LibraryWarning, OrderResult, g
from explainer.options import OptionSpec
from explainer.search_space import point

__all__ = ["NltkChrfDialect", "EPS"]

EPS = 1e-16   # chrf_precision_recall_fscore_support's epsilon


class NltkChrfDialect(ChrfDialect):
    name = "nltk"
    label = "NLTK"
    implementation = f"nltk {nltk.__version__}"
    description = ("NLTK's sentence_chrf / corpus_chrf: character n-grams 1-6 without whitespace, beta = 3, "
                   "per-order F averaged, corpus = mean of the segments, one reference, score on 0-1.")
    short_label = "NLTK"
    rank = 1
    scale = 1.0
    corpus_rule = "mean"
    cli_flags = {"char_order": "max_len", "beta": "beta", "whitespace": "ignore_whitespace"}
    negated_flags = frozenset({"whitespace"})
    no_op_flags = {"word_order": 0}
    counting_options = ("min_len", "max_len", "ignore_whitespace")
    OPTIONS = (
        OptionSpec("min_len", "int", 1, "smallest character n-gram order", min=1, max=10),
        OptionSpec("max_len", "int", 6, "largest character n-gram order", min=1, max=10),
        OptionSpec("beta", "float", 3.0, "recall is beta times as important as precision", min=0.0, max=10.0),
        OptionSpec("ignore_whitespace", "bool", True, "remove whitespace (regular expression \\s+) first"),
    )

    @classmethod
    def search_configs(cls, context):
        """Beta 3 (its default) or 2, whitespace kept; character orders only (a claimed "chrF++" leaves it out)."""
        word_order, beta = context.named.get("word_order"), context.named.get("beta")
        if word_order not in (None, 0):
            return []
        out = []
        for b, bc, bw in ((3.0, 0.0, ""), (2.0, 0.5, "beta = 2")):
            if beta is not None and b != beta:
                continue
            for ws in (False, True):
                opts: dict = {}
                if b != 3.0:
                    opts["beta"] = b
                if ws:
                    opts["ignore_whitespace"] = False
                out.append(point(opts, 0.5 + (0.0 if beta is not None else bc) + 1.0 * ws, bw,
                                 "whitespace kept" if ws else ""))
        return out

    @classmethod
    def comparison_rows(cls, texts=()) -> list[dict]:
        return [{"options": {}, "id": cls.name, "label": "NLTK chrF (β = 3)", "note": cls.description},
                {"options": {"beta": 2.0}, "id": f"{cls.name}:beta2", "label": "NLTK chrF, β = 2",
                 "note": "NLTK with sacreBLEU's β"}]

    def _setup(self) -> None:
        o = self.options
        if o["min_len"] > o["max_len"]:
            raise ValueError(f"the nltk dialect needs min_len <= max_len, got {o['min_len']} > {o['max_len']} "
                             "(NLTK would divide by zero orders)")
        self._lo, self._hi = o["min_len"], o["max_len"]
        self._beta = o["beta"]
        self._factor = self._beta ** 2
        self._ign = o["ignore_whitespace"]

    @property
    def char_order(self) -> int:
        return self._hi

    @property
    def beta(self) -> float:
        return self._beta

    @property
    def orders(self) -> list[tuple[str, int]]:
        return [("char", n) for n in range(self._lo, self._hi + 1)]

    @property
    def metric_name(self) -> str:
        return "chrF"

    def prepare(self, text: str) -> str:
        return text

    def preprocess_changes(self, text: str) -> list[dict]:
        if self._ign and text != _preprocess(text, True):
            return [{"step": "whitespace", "detail": "whitespace removed (regular expression \\s+)"}]
        return []

    def char_units(self, prepared: str) -> str:
        return _preprocess(prepared, self._ign)

    def effective_references(self, references: Sequence[str]):
        if len(references) <= 1:
            return list(references), []
        # sentence_chrf(reference=[r1, r2], ...): _preprocess joins a non-string with spaces
        return [" ".join(references)], [LibraryWarning(
            "explainer", f"NLTK's chrF takes one reference; the {len(references)} references given are joined with "
                         "spaces into one text, as nltk's _preprocess does with a list")]

    def extract(self, prepared: str) -> tuple[list[Counter], list[int]]:
        u = _preprocess(prepared, self._ign)
        L = len(u)
        counters, lens = [], []
        for n in range(self._lo, self._hi + 1):
            counters.append(Counter([u[i:i + n] for i in range(L - n + 1)]))
            lens.append(L - n + 1 if L >= n else 0)
        return counters, lens

    def f_score(self, stats) -> float:
        return self.combine(stats).score

    def _order_f(self, tp, tpfp, tpfn):
        """chrf_precision_recall_fscore_support's arithmetic: (prec, rec, f, failed)."""
        try:
            prec = tp / tpfp
            rec = tp / tpfn
            factor = self._factor
            f = (1 + factor) * (prec * rec) / (factor * prec + rec)
            return prec, rec, f, False
        except ZeroDivisionError:
            return EPS, EPS, EPS, True

    def combine(self, stats) -> Combination:
        """``sentence_chrf``: per order P, R, F (eps when a division fails); the mean of the F-scores."""
        orders = []
        factor = self._factor
        for i, (kind, n) in enumerate(self.orders):
            tpfp, tpfn, tp = stats[3 * i: 3 * i + 3]
            prec, rec, f, failed = self._order_f(tp, tpfp, tpfn)
            if failed:
                why = ("no candidate n-grams" if tpfp == 0 else "no reference n-grams" if tpfn == 0
                       else "P = R = 0")
                pn = rn = fn = f"{why}: ZeroDivisionError, so P = R = F = eps = 1e-16"
            else:
                pn = f"{g(tp)} / {g(tpfp)} = {g(prec)}"
                rn = f"{g(tp)} / {g(tpfn)} = {g(rec)}"
                fn = f"(1 + {g(factor)}) · ({g(prec)} · {g(rec)}) / ({g(factor)} · {g(prec)} + {g(rec)}) = {g(f)}"
            orders.append(OrderResult(kind, n, tpfp, tpfn, tp, prec, rec, f, pn, rn, fn, True))
        N = len(orders)
        total = sum([o.f for o in orders])      # corpus_chrf's sum() (compensated from Python 3.12 on)
        score = total / N
        return Combination(orders, "mean-f-nltk", self._beta, None, None, N, total, score, 1.0,
                           f"{g(total)} / {N} = {g(score)}", "the mean of the per-order F-scores")

    def corpus_combine(self, segment_stats, summed) -> Combination:
        """``corpus_chrf``: per order the sum of the segments' F, summed over the orders, / orders / segments."""
        S = len(segment_stats)
        N = len(self.orders)
        per_order = [[] for _ in range(N)]
        for st in segment_stats:
            for i in range(N):
                tpfp, tpfn, tp = st[3 * i: 3 * i + 3]
                per_order[i].append(self._order_f(tp, tpfp, tpfn)[2])
        total_scores = [sum(fs) for fs in per_order]
        score = (sum(total_scores) / N) / S
        comb = self.combine(summed)
        for o, t in zip(comb.orders, total_scores):
            o.f = t / S
            o.f_note = f"mean over the {S} segments of this order's F = {g(t)} / {S} = {g(t / S)}"
        comb.f_sum = sum(total_scores)
        comb.score = score
        comb.averaging = "mean-f-nltk-corpus"
        comb.formula = f"({g(sum(total_scores))} / {N}) / {S} = {g(score)}"
        comb.explanation = ("corpus_chrf: the macro average over orders and segments of the per-order F-scores; "
                            "the summed counts (P, R shown per order) do not enter the score")
        return comb

    def signature(self, nrefs) -> str:
        ws = "yes" if self._ign else "no"
        return (f"nltk:{nltk.__version__}|nrefs:{nrefs}|min_len:{self._lo}|max_len:{self._hi}|beta:{g(self._beta)}"
                f"|ignore_whitespace:{ws}")

    def check_inputs(self, candidates, references, *, corpus):
        err = None
        if not candidates:
            err = LibraryError("ZeroDivisionError", "division by zero",
                               "the real library fails here because there is no segment (it divides by 0)")
        return [], err
