"""sacreBLEU 2.6 ``CHRF`` (chrF and chrF++: ``CHRF(...).corpus_score`` / ``sentence_score``).

The n-gram extraction is sacreBLEU's own (``sacrebleu.metrics.helpers.extract_all_char_ngrams``,
``extract_word_ngrams``, ``CHRF._remove_punctuation``); the signature is its own ``CHRFSignature``.
Reference: ``sacrebleu/metrics/chrf.py`` (_get_match_statistics, _compute_f_score, _compute_segment_statistics).
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

import sacrebleu
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.helpers import extract_all_char_ngrams, extract_word_ngrams

from explainer.chrf.dialects import ChrfDialect, Combination, LibraryError, LibraryWarning, OrderResult, g
from explainer.options import OptionSpec
from explainer.search_space import point

__all__ = ["SacreChrfDialect", "EPS", "sacrebleu_f_score"]

EPS = 1e-16   # CHRF._compute_f_score's eps


def sacrebleu_f_score(stats: Sequence[float], factor: float, order: int, eps_smoothing: bool) -> float:
    """``CHRF._compute_f_score`` on Python numbers, operation for operation (the fast path; ``combine`` is the
    same arithmetic with the explanation)."""
    eps = EPS
    score = 0.0
    effective_order = 0
    avg_prec, avg_rec = 0.0, 0.0
    f1 = 1 + factor
    for i in range(order):
        n_hyp, n_ref, n_match = stats[3 * i: 3 * i + 3]
        prec = n_match / n_hyp if n_hyp > 0 else eps
        rec = n_match / n_ref if n_ref > 0 else eps
        denom = factor * prec + rec
        score += (f1 * prec * rec / denom) if denom > 0 else eps
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective_order += 1
    if eps_smoothing:
        return 100 * score / order
    if effective_order == 0:
        avg_prec = avg_rec = 0.0
    else:
        avg_prec /= effective_order
        avg_rec /= effective_order
    if avg_prec + avg_rec:
        score = f1 * avg_prec * avg_rec
        score /= ((factor * avg_prec) + avg_rec)
        return 100 * score
    return 0.0


def _order_result(kind: str, n: int, n_hyp, n_ref, n_match, factor) -> OrderResult:
    """One order of ``CHRF._compute_f_score``: P, R (eps for an empty side), F (eps when P = R = 0), and whether
    the order enters the effective-order average (``included``)."""
    eps = EPS
    if n_hyp > 0:
        prec = n_match / n_hyp
        pn = f"{g(n_match)} / {g(n_hyp)} = {g(prec)}"
    else:
        prec = eps
        pn = "no candidate n-grams counted (none in the candidate, or none in the reference): eps = 1e-16"
    if n_ref > 0:
        rec = n_match / n_ref
        rn = f"{g(n_match)} / {g(n_ref)} = {g(rec)}"
    else:
        rec = eps
        rn = "no reference n-grams: eps = 1e-16"
    denom = factor * prec + rec
    if denom > 0:
        f = (1 + factor) * prec * rec / denom
        fn = f"(1 + {g(factor)}) · {g(prec)} · {g(rec)} / ({g(factor)} · {g(prec)} + {g(rec)}) = {g(f)}"
    else:
        f = eps
        fn = "P = R = 0: eps = 1e-16"
    return OrderResult(kind, n, n_hyp, n_ref, n_match, prec, rec, f, pn, rn, fn, n_hyp > 0 and n_ref > 0)


def _beta_value(beta: float):
    """sacreBLEU's CLI takes an integer beta (``chrF2``); a whole number is passed as an int so that the score's
    name and arithmetic are the library's (``beta ** 2`` of 2 and of 2.0 give the same floats)."""
    return int(beta) if float(beta).is_integer() else beta


#: the search's betas: (beta, cost, words)
_SEARCH_BETAS = ((2, 0.0, ""), (1, 1.5, "beta = 1"), (3, 1.5, "beta = 3"))
#: a cost that leaves a configuration out of the search (another word order or beta than the claim names)
_EXCLUDED = 99.0


def _claimed_cost(value, claimed, cost: float) -> float:
    """A setting the claim names costs nothing when it is the named one and leaves the others out."""
    if claimed is not None:
        return 0.0 if value == claimed else _EXCLUDED
    return cost


def _search_options(word_order: int, beta: float, lowercase: bool, whitespace: bool, eps: bool) -> dict:
    """The options of a search point (only those that are not the defaults)."""
    opts: dict = {}
    if word_order:
        opts["word_order"] = word_order
    if beta != 2:
        opts["beta"] = float(beta)
    if lowercase:
        opts["lowercase"] = True
    if whitespace:
        opts["whitespace"] = True
    if eps:
        opts["eps_smoothing"] = True
    return opts


class SacreChrfDialect(ChrfDialect):
    name = "sacrebleu"
    label = "sacreBLEU"
    implementation = f"sacrebleu {sacrebleu.__version__}"
    description = ("sacreBLEU's CHRF: character n-grams 1-6 without whitespace (chrF++: word 1-2-grams too), "
                   "beta = 2, statistics summed over the corpus, the best reference per segment, score on 0-100.")
    short_label = "sacreBLEU"
    rank = 0
    scale = 100.0
    corpus_rule = "sum"
    sacrebleu_significance = True
    counting_options = ("char_order", "word_order", "lowercase", "whitespace")
    cli_flags = {f: f for f in ("char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing")}
    OPTIONS = (
        OptionSpec("char_order", "int", CHRF.CHAR_ORDER, "character n-gram order", min=1, max=10),
        OptionSpec("word_order", "int", CHRF.WORD_ORDER, "word n-gram order (2 = chrF++)", min=0, max=4),
        OptionSpec("beta", "float", float(CHRF.BETA), "recall is beta times as important as precision",
                   min=0.0, max=10.0),
        OptionSpec("lowercase", "bool", False, "lowercase (str.lower) the candidate and the references"),
        OptionSpec("whitespace", "bool", False, "keep whitespace in the character n-grams"),
        OptionSpec("eps_smoothing", "bool", False,
                   "average the per-order F-scores with eps for empty orders (chrF++.py, Moses, NLTK style) "
                   "instead of sacreBLEU's effective-order average of precision and recall"),
    )

    @classmethod
    def search_configs(cls, context):
        """chrF (word order 0) or chrF++ (2), beta 2 (1 and 3 as written "chrF1", "chrF3"), lowercase, whitespace
        kept, eps smoothing (the chrF++.py / Moses style). A claimed "chrF++" (``context.named``'s ``word_order``)
        keeps only word order 2, "chrF" without plus signs prefers 0; a claimed beta keeps only that beta."""
        word_order, beta = context.named.get("word_order"), context.named.get("beta")
        out = []
        for wo in (0, 2):
            wc = _claimed_cost(wo, word_order, 0.0 if wo == 0 else 1.0)
            for b, bc, bw in _SEARCH_BETAS:
                cost_b = _claimed_cost(b, beta, bc)
                for lc in (False, True):
                    for ws in (False, True):
                        for eps in (False, True):
                            cost = wc + cost_b + 1.0 * lc + 1.0 * ws + 1.0 * eps
                            if cost >= _EXCLUDED:
                                continue
                            opts = _search_options(wo, b, lc, ws, eps)
                            out.append(point(opts, cost, "chrF++ (word order 2)" if wo and word_order is None else "",
                                             bw, "lowercase" if lc else "", "whitespace kept" if ws else "",
                                             "eps smoothing" if eps else ""))
        return out

    @classmethod
    def comparison_rows(cls, texts=()) -> list[dict]:
        return [{"options": {}, "id": cls.name, "label": "sacreBLEU chrF2", "note": cls.description},
                {"options": {"word_order": 2}, "id": f"{cls.name}:chrf++", "label": "sacreBLEU chrF2++",
                 "note": "word unigrams and bigrams added to the character orders"},
                {"options": {"eps_smoothing": True}, "id": f"{cls.name}:eps", "label": "sacreBLEU chrF2, eps smoothing",
                 "note": "the mean of the per-order F (chrF++.py, Moses and NLTK style) instead of effective order"}]

    def _setup(self) -> None:
        o = self.options
        self._beta = _beta_value(o["beta"])
        self._factor = self._beta ** 2
        self._chrf = CHRF(char_order=o["char_order"], word_order=o["word_order"], beta=self._beta,
                          lowercase=o["lowercase"], whitespace=o["whitespace"], eps_smoothing=o["eps_smoothing"])
        self._C = o["char_order"]
        self._W = o["word_order"]
        self._order = self._C + self._W
        self._lc = o["lowercase"]
        self._ws = o["whitespace"]
        self._eps = o["eps_smoothing"]

    # ---- identity
    @property
    def char_order(self) -> int:
        return self._C

    @property
    def word_order(self) -> int:
        return self._W

    @property
    def beta(self) -> float:
        return self._beta

    @property
    def metric_name(self) -> str:
        return f"chrF{self._beta}" + "+" * self._W

    @property
    def library_metric(self) -> CHRF:
        """sacreBLEU's own CHRF object with these options (the parity tests and the resampling use it)."""
        return self._chrf

    # ---- preprocessing (CHRF._preprocess_segment) and units
    def prepare(self, text: str) -> str:
        return text.lower() if self._lc else text

    def preprocess_changes(self, text: str) -> list[dict]:
        out = []
        if self._lc and text.lower() != text:
            out.append({"step": "lowercase", "detail": "str.lower() applied"})
        if not self._ws and "".join(text.split()) != text:
            out.append({"step": "whitespace", "detail": "whitespace removed before taking character n-grams"})
        if self._W:
            out.append({"step": "words", "detail": "words split at whitespace; one punctuation character split "
                                                   "off the end (else the start) of each word"})
        return out

    def char_units(self, prepared: str) -> str:
        return prepared if self._ws else "".join(prepared.split())

    def words(self, prepared: str) -> list[str]:
        return self._chrf._remove_punctuation(prepared)

    def extract(self, prepared: str) -> tuple[list[Counter], list[int]]:
        units = prepared if self._ws else "".join(prepared.split())    # extract_all_char_ngrams's own removal
        counters = extract_all_char_ngrams(units, self._C, True)
        L = len(units)
        lens = [L - n + 1 if L >= n else 0 for n in range(1, self._C + 1)]
        if self._W:
            words = self._chrf._remove_punctuation(prepared)
            for n in range(1, self._W + 1):
                counters.append(extract_word_ngrams(words, n))
                lens.append(len(words) - n + 1 if len(words) >= n else 0)
        return counters, lens

    # ---- statistics (CHRF._get_match_statistics)
    def order_triple(self, n_hyp, n_ref, match):
        # "Don't count hits if no reference exists for that n-gram": an order without reference n-grams
        # reports 0 candidate n-grams
        return (n_hyp if n_ref else 0), n_ref, match

    def f_score(self, stats) -> float:
        return sacrebleu_f_score(stats, self._factor, self._order, self._eps)

    def combine(self, stats) -> Combination:
        """``CHRF._compute_f_score``, step by step."""
        score = 0.0
        eff = 0
        avg_prec = avg_rec = 0.0
        orders = []
        for i, (kind, n) in enumerate(self.orders):
            o = _order_result(kind, n, *stats[3 * i: 3 * i + 3], self._factor)
            score += o.f
            if o.included:
                avg_prec += o.precision
                avg_rec += o.recall
                eff += 1
            if self._eps:
                o.included = True
            orders.append(o)
        n_orders = self._order
        if self._eps:
            final = 100 * score / n_orders
            return Combination(orders, "mean-f", self._beta, None, None, n_orders, score, final, 100.0,
                               f"100 · {g(score)} / {n_orders} = {g(final)}",
                               "eps_smoothing: the mean of the per-order F-scores (an empty order counts eps)")
        return self._effective_order(orders, avg_prec, avg_rec, eff)

    def _effective_order(self, orders, avg_prec, avg_rec, eff) -> Combination:
        factor = self._factor
        if eff == 0:
            avg_prec = avg_rec = 0.0
        else:
            avg_prec /= eff
            avg_rec /= eff
        if avg_prec + avg_rec:
            s = (1 + factor) * avg_prec * avg_rec
            s /= ((factor * avg_prec) + avg_rec)
            final = 100 * s
            formula = (f"100 · (1 + {g(factor)}) · {g(avg_prec)} · {g(avg_rec)} / ({g(factor)} · {g(avg_prec)} + "
                       f"{g(avg_rec)}) = {g(final)}")
        else:
            final = 0.0
            formula = "mean P + mean R = 0: score 0"
        return Combination(orders, "effective-order", self._beta, avg_prec, avg_rec, eff, None, final, 100.0,
                           formula,
                           f"effective order: precision and recall are averaged over the {eff} of {self._order} "
                           "orders with candidate and reference n-grams, then combined into one F-score")

    # ---- signature and library behaviour
    def signature(self, nrefs) -> str:
        m = CHRF(char_order=self._C, word_order=self._W, beta=self._beta, lowercase=self._lc,
                 whitespace=self._ws, eps_smoothing=self._eps)
        m.num_refs = -1 if nrefs == "var" else nrefs
        return m.get_signature().format()

    def check_inputs(self, candidates, references, *, corpus):
        err = None
        if not candidates:
            err = LibraryError("IndexError", "list index out of range",
                               "the real library fails here because there is no candidate")
        else:
            for i, refs in enumerate(references):
                if not refs:
                    err = LibraryError("ValueError", "not enough values to unpack (expected 3, got 0)",
                                       f"the real library fails here because segment {i + 1} has no reference: "
                                       "its statistics are an empty list")
                    break
        warns: list[LibraryWarning] = []
        return warns, err
