"""NLTK 3.10.4 ``sentence_bleu`` / ``corpus_bleu`` (``nltk/translate/bleu_score.py``).

Whitespace tokens (``str.split()``) by default; per-sentence denominators max(1, ·); closest reference
length with ties to the shorter; ``SmoothingFunction().method0..7`` with epsilon/alpha/k; ``auto_reweigh``;
orders whose smoothed precision is 0 are skipped (``if p_i > 0``); ``math.fsum``. Smoothing methods 4-7 see
the corpus c but the LAST segment's hypothesis and references, as NLTK passes them.
See docs/dialects-bleu.md.
"""
from __future__ import annotations

import math
import sys
from collections import Counter
from fractions import Fraction
from importlib.metadata import version as _dist_version
from typing import Sequence

from explainer.bleu.dialects import (
    BleuDialect,
    Combination,
    LibraryError,
    LibraryWarning,
    OptionSpec,
    OrderResult,
    SegmentContext,
    closest_shorter,
)
from explainer.search_space import point

# The installed NLTK's version without importing NLTK itself (importing it takes ~0.5 s, and this module only needs
# the version to name the implementation and build the signature).
NLTK_VERSION = _dist_version("nltk")

METHODS = tuple(f"method{i}" for i in range(8))
_TINY = sys.float_info.min

_T = 1 / 3
#: the weight vectors NLTK users write, for the reproduce search: (weights, words, cost, highest order with weight)
NLTK_WEIGHTS = (
    ((0.25, 0.25, 0.25, 0.25), "", 0.0, 4),
    ((1.0,), "BLEU-1 (weights=(1,))", 1.0, 1),
    ((0.5, 0.5), "BLEU-2 (weights=(0.5, 0.5))", 1.0, 2),
    ((_T, _T, _T), "BLEU-3 (weights=(1/3, 1/3, 1/3))", 1.0, 3),
    ((1.0, 0.0, 0.0, 0.0), "BLEU-1 (weights=(1, 0, 0, 0))", 1.0, 1),
    ((0.5, 0.5, 0.0, 0.0), "BLEU-2 (weights=(0.5, 0.5, 0, 0))", 1.0, 2),
    ((0.33, 0.33, 0.33, 0.0), "BLEU-3 (weights=(0.33, 0.33, 0.33, 0))", 1.5, 3),
    ((_T, _T, _T, 0.0), "BLEU-3 (weights=(1/3, 1/3, 1/3, 0))", 1.0, 3),
    ((0.0, 1.0, 0.0, 0.0), "individual 2-gram BLEU (weights=(0, 1, 0, 0))", 2.0, 2),
    ((0.0, 0.0, 1.0, 0.0), "individual 3-gram BLEU (weights=(0, 0, 1, 0))", 2.0, 3),
    ((0.0, 0.0, 0.0, 1.0), "individual 4-gram BLEU (weights=(0, 0, 0, 1))", 2.0, 4),
)
#: the search's cost of each smoothing method
_SEARCH_METHODS = {"method0": 0.0, "method1": 0.5, "method2": 1.0, "method3": 1.0, "method4": 1.0, "method5": 1.0,
                   "method6": 1.0, "method7": 1.0}


def _warn_text(n: int) -> str:
    return ("\nThe hypothesis contains 0 counts of {}-gram overlaps.\n"
            "Therefore the BLEU score evaluates to 0, independently of\n"
            "how many N-gram overlaps of lower order it contains.\n"
            "Consider using lower n-gram order or use SmoothingFunction()").format(n)


def _mod_precision5(refs: Sequence[Sequence[str]], hyp: Sequence[str]) -> tuple[int, int]:
    """nltk modified_precision(references, hypothesis, 5) as its (unreduced) numerator and denominator.
    With no reference NLTK raises KeyError earlier (order 1, recorded by ``check_inputs``); here the missing
    maximum counts as 0 so that the explainer itself never fails."""
    n = 5
    counts = Counter(tuple(hyp[i:i + n]) for i in range(len(hyp) - n + 1))
    max_counts: dict = {}
    for ref in refs:
        rc = Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))
        for ng in counts:
            max_counts[ng] = max(max_counts.get(ng, 0), rc[ng])
    num = sum(min(k, max_counts.get(ng, 0)) for ng, k in counts.items())
    den = max(1, sum(counts.values()))
    return num, den


class _Fail(Exception):
    """Internal: carries the LibraryError of a smoothing step NLTK would fail in."""

    def __init__(self, error: LibraryError) -> None:
        super().__init__(error.message)
        self.error = error


def _brevity(c: int, r: int) -> dict:
    """``brevity_penalty(closest_ref_len=r, hyp_len=c)`` and how it was reached (the Combination's BP fields)."""
    if c > r:
        bp, branch, bpf = 1, "c > r", f"c = {c} > r = {r}: BP = 1"
    elif c == 0:
        bp, branch, bpf = 0, "c = 0", "the candidate is empty: BP = 0"
    else:
        bp = math.exp(1 - r / c)
        branch, bpf = "c ≤ r", f"exp(1 − r/c) = exp(1 − {r}/{c}) = {bp:.6g}"
    return dict(c=c, r=r, ratio=c / r if r else None, bp=float(bp), bp_branch=branch, bp_formula=bpf, scale=1.0)


def _fraction_error(raw) -> LibraryError | None:
    """corpus_bleu first builds Fraction(numerator, denominator, _normalize=False) for every order. Every sentence
    adds max(1, ·) to the denominators, so a 0 denominator means a corpus without segments."""
    for m, t in raw:
        if t == 0:
            try:
                Fraction(m, t, _normalize=False)
            except ZeroDivisionError as e:
                return LibraryError(
                    "ZeroDivisionError", str(e),
                    "the real library fails here because the corpus has no segment: corpus_bleu builds the "
                    f"precision Fraction({m}, {t}) before anything else")
    return None


def _weighted_log_sum(p, weight, N: int):
    """NLTK's ``math.fsum(w_i * math.log(p_i) for w_i, p_i in zip(weights, p_n) if p_i > 0)`` and its exp,
    with the terms and which orders entered (OverflowError / ValueError as NLTK raises them)."""
    terms, included = [], []
    for i in range(N):
        w = weight[i] if i < len(weight) else None
        inc = w is not None and p[i] > 0
        included.append(inc)
        terms.append(w * math.log(p[i]) if inc else None)
    s = math.fsum(t for t in terms if t is not None)
    return terms, included, s, math.exp(s)


class _Smoothing:
    """NLTK's ``SmoothingFunction`` methods on the corpus fractions ``p`` (changed in place), each step writing
    what it did to ``notes``. Method 7 is method 4 then method 5, as in NLTK."""

    def __init__(self, raw, hyp_len: int, ctx: SegmentContext | None, eps, alpha, k, warns: list) -> None:
        self.raw, self.hyp_len, self.ctx = raw, hyp_len, ctx
        self.eps, self.alpha, self.k, self.warns = eps, alpha, k, warns
        self.p: list = [Fraction(m, t, _normalize=False) for m, t in raw]
        self.notes = [("none", f"{m} / {t} = {m / t:.6g}", "matches > 0: plain precision") for m, t in raw]

    def method0(self) -> None:
        for i, (m, _t) in enumerate(self.raw):
            if m == 0:
                self.warns.append(LibraryWarning("UserWarning", _warn_text(i + 1)))
                self.p[i] = _TINY
                self.notes[i] = ("method0", "sys.float_info.min = 2.2250738585072014e-308",
                                 "0 matches, no smoothing: NLTK substitutes the smallest float and warns; the "
                                 "score becomes tiny but not 0")

    def method1(self) -> None:
        eps = self.eps
        for i, (m, t) in enumerate(self.raw):
            if m == 0:
                self.p[i] = (m + eps) / t
                self.notes[i] = ("method1", f"(0 + ε) / {t} = {eps:g} / {t} = {self.p[i]:.6g}",
                                 "0 matches: method1 adds ε to the numerator")

    def method2(self) -> None:
        for i, (m, t) in enumerate(self.raw):
            if i != 0:
                self.p[i] = Fraction(m + 1, t + 1, _normalize=False)
                self.notes[i] = ("method2", f"({m} + 1) / ({t} + 1) = {float(self.p[i]):.6g}",
                                 "method2 adds 1 to numerator and denominator of every order ≥ 2, matched or not")

    def method3(self) -> None:
        inc = 1
        for i, (m, t) in enumerate(self.raw):
            if m == 0:
                self.p[i] = 1 / (2 ** inc * t)
                self.notes[i] = ("method3", f"1 / (2^{inc} · {t}) = {self.p[i]:.6g}",
                                 f"0 matches: NIST geometric smoothing, k = {inc}")
                inc += 1

    def method4(self) -> None:
        inc = 1
        hyp_len, k = self.hyp_len, self.k
        for i, pi in enumerate(self.p):
            is_zero = (pi.numerator == 0) if isinstance(pi, Fraction) else False
            if is_zero and hyp_len > 1:
                try:
                    numerator = 1 / (2 ** inc * k / math.log(hyp_len))
                except ZeroDivisionError as e:
                    raise _Fail(LibraryError(
                        type(e).__name__, str(e),
                        f"the real library fails here because method4 divides 1 by 2^{inc} · k / ln {hyp_len} "
                        f"for the {i + 1}-grams (0 matches), and with k = {k:g} that is 0")) from None
                self.p[i] = numerator / self.raw[i][1]
                self.notes[i] = ("method4", f"(1 / (2^{inc} · k / ln {hyp_len})) / {self.raw[i][1]} = {self.p[i]:.6g}",
                                 f"0 matches: method4 scales the NIST value by ln(c)/k, k = {k}")
                inc += 1
            elif is_zero:
                self.notes[i] = ("method4", "0 (left unsmoothed)",
                                 f"0 matches but the corpus c = {hyp_len} ≤ 1: method4 leaves the 0")

    def method5(self) -> None:
        if self.ctx is None or "p5" not in self.ctx.extra:
            raise AssertionError("method5 needs the last segment")
        n5, d5 = self.ctx.extra["p5"]
        p = self.p
        plus = p + [Fraction(n5, d5, _normalize=False)]
        prev = p[0] + 1
        for i in range(len(p)):
            new = (prev + p[i] + plus[i + 1]) / 3
            self.notes[i] = ("method5", f"(p'_{i} + p_{i + 1} + p_{i + 2}) / 3 = {float(new):.6g}",
                             "method5 averages the previous smoothed, this and the next order's precision "
                             "(next of the last order: 5-gram precision of the last segment)")
            p[i] = new
            prev = new

    def method6(self) -> None:
        p, alpha = self.p, self.alpha
        if len(p) < 3:
            raise _Fail(LibraryError("IndexError", "list index out of range",
                                     "the real library fails here because method6 reads the 3-gram precision "
                                     "and fewer than 3 orders are weighted"))
        if not p[2]:   # NLTK: assert p_n[2] (truthiness: an unreduced Fraction(0, t) != 0)
            raise _Fail(LibraryError("AssertionError",
                                     "This smoothing method requires non-zero precision for bigrams.",
                                     "the real library fails here because method6 asserts a non-zero 3-gram "
                                     "precision (its message says bigrams)"))
        last_len = self.ctx.extra.get("last_hyp_len", 0) if self.ctx else 0
        for i in range(2, len(p)):
            # NLTK's own test, on its unreduced Fractions: Fraction(0, 2, _normalize=False) == 0 is False
            pi0 = 0 if p[i - 2] == 0 else p[i - 1] ** 2 / p[i - 2]
            m = self.raw[i][0]
            l_ = max(0, last_len - i)
            try:
                p[i] = (m + alpha * pi0) / (l_ + alpha)
            except ZeroDivisionError as e:
                raise _Fail(LibraryError(
                    type(e).__name__, str(e),
                    f"the real library fails here because method6 divides by ℓ + α for the {i + 1}-grams, and "
                    f"both are 0: the last candidate has no {i + 1}-grams (ℓ = 0) and α = {alpha:g}")) from None
            self.notes[i] = ("method6", f"({m} + α·π0) / ({l_} + α) = {float(p[i]):.6g}, π0 = p'²_{i}/p'_{i - 1}",
                             f"method6 interpolates with the prior π0 (α = {alpha}); ℓ = {l_} is the number of "
                             f"{i + 1}-grams of the last candidate")


_METHOD_STEPS = {f"method{i}": (f"method{i}",) for i in range(7)} | {"method7": ("method4", "method5")}


class NltkDialect(BleuDialect):
    name = "nltk"
    label = "NLTK"
    implementation = f"nltk {NLTK_VERSION}"
    description = ("NLTK's sentence_bleu / corpus_bleu on str.split() tokens: no smoothing by default (a zero "
                   "order becomes sys.float_info.min), max(1, ·) denominators, score on 0-1.")
    scale = 1.0
    needs_last_segment = True
    totals_rule = ("max(1, number of candidate n-grams) per sentence: a sentence shorter than n adds 1 to the "
                   "denominator (NLTK modified_precision)")
    tokenizer_name = "str.split"
    short_label = "NLTK"
    rank = 1
    totals_rule_notable = True
    reads_strings_as_characters = True
    cli_flags = {"smooth": "smoothing", "weights": "weights", "auto_reweigh": "auto_reweigh"}
    SCORING_ONLY = frozenset({"epsilon", "alpha", "k", "auto_reweigh"})   # not smoothing: method5 counts p5
    OPTIONS = (
        OptionSpec("weights", "float_list", (0.25, 0.25, 0.25, 0.25),
                   "weights per order; their number sets the maximum order", max=10),
        OptionSpec("smoothing", "choice", "method0", "SmoothingFunction method (Chen & Cherry 2014)",
                   choices=METHODS),
        OptionSpec("epsilon", "float", 0.1, "method1: count added to zero-match orders", min=0.0),
        OptionSpec("alpha", "float", 5, "method6: prior weight", min=0.0),
        OptionSpec("k", "float", 5, "method4: k", min=0.0),
        OptionSpec("auto_reweigh", "bool", False,
                   "if c < 4 and the weights are exactly (0.25,)*4, use (1/c,)*c"),
    )

    @classmethod
    def flag_options(cls, flag, value):
        if flag != "max_order":
            return None
        if value < 1:
            raise ValueError("--max-order must be at least 1")
        return {"weights": (1.0 / value,) * value}     # NLTK's order is the number of weights

    def smoothing_label(self) -> str:
        o = self.options
        m = o["smoothing"]
        extra = {"method1": f" (ε = {o['epsilon']:g})", "method4": f" (k = {o['k']:g})",
                 "method6": f" (α = {o['alpha']:g})", "method7": f" (k = {o['k']:g})"}.get(m, "")
        return m + extra + (" = none" if m == "method0" else "")

    @classmethod
    def search_configs(cls, context):
        """SmoothingFunction method0-7, the weight vectors NLTK users write (a claimed BLEU-n keeps those whose
        highest weighted order is n), auto_reweigh, method1's epsilon."""
        wanted = context.named.get("max_order")
        out = []
        for method, mc in _SEARCH_METHODS.items():
            method_words = f"SmoothingFunction().{method}" if method != "method0" else ""
            base = {"smoothing": method} if method != "method0" else {}
            for weights, ww, wc, n in NLTK_WEIGHTS:
                if wanted is not None and n != wanted:
                    continue
                opts = dict(base)
                if weights != (0.25, 0.25, 0.25, 0.25):
                    opts["weights"] = weights
                out.append(point(opts, mc + wc, method_words, ww))
            if wanted in (None, 4):
                out.append(point({**base, "auto_reweigh": True}, mc + 1.5, method_words, "auto_reweigh=True"))
        if wanted in (None, 4):
            out.append(point({"smoothing": "method1", "epsilon": 0.01}, 2.0,
                             "SmoothingFunction(epsilon=0.01).method1"))
        return out

    @classmethod
    def comparison_rows(cls, texts):
        return [{"options": {"smoothing": "method0"}, "id": "nltk:method0", "label": "NLTK method0",
                 "note": "NLTK sentence_bleu, no smoothing"},
                {"options": {"smoothing": "method1"}, "id": "nltk:method1", "label": "NLTK method1",
                 "note": "NLTK sentence_bleu with SmoothingFunction().method1"}]

    def __init__(self, **options) -> None:
        # SmoothingFunction keeps epsilon, alpha and k exactly as given, and their type shows in NLTK's
        # arithmetic (alpha = 0 -> "Fraction(0, 0)", alpha = 0.0 -> "float division by zero"), so remember
        # what the caller passed before the options are coerced to floats.
        self._given = {key: options.get(key) for key in ("epsilon", "alpha", "k")}
        # NLTK tests `weight == (0.25, 0.25, 0.25, 0.25)` before auto-reweighing: a *list* of the same numbers
        # is never equal to that tuple, so NLTK does not reweigh it. Strings (CLI, links) mean NLTK's default tuple.
        self._weights_list = isinstance(options.get("weights"), list)
        super().__init__(**options)

    def _setup(self) -> None:
        self.weights = tuple(self.options["weights"])
        o = self.options
        for key, given in self._given.items():
            v = o[key]
            if given is None:
                # NLTK's defaults: epsilon=0.1, alpha=5, k=5 (ints)
                if isinstance(v, float) and v.is_integer():
                    o[key] = int(v)
            elif isinstance(given, int) and not isinstance(given, bool):
                o[key] = int(given)
            elif isinstance(given, str):
                # from the CLI or a URL: "0" is the int 0, "0.0" the float, as Python would read them
                try:
                    o[key] = int(given.strip())
                except ValueError:
                    pass

    def tokenize(self, text: str) -> list[str]:
        return text.split()

    def preprocessed_text(self, text: str) -> str:
        return " ".join(text.split())

    def preprocess_changes(self, text: str) -> list[dict]:
        return [{"step": "tokenize", "detail": "str.split(): case kept, punctuation stays attached"}]

    align_mode = (False, False)

    @property
    def max_order(self) -> int:
        return len(self.weights)

    def segment_total(self, length: int, n: int) -> int:
        return max(1, length - n + 1)

    def choose_ref_length(self, c, ref_lens):
        return closest_shorter(c, ref_lens)

    def ref_length_fast(self, c, ref_lens):
        return min(ref_lens, key=lambda L: (abs(L - c), L)) if ref_lens else 0

    def last_segment_context(self, hyp_tokens, refs_tokens) -> SegmentContext:
        ctx = SegmentContext(hyp_len=len(hyp_tokens))
        m = self.options["smoothing"]
        if m in ("method5", "method7"):
            ctx.extra["p5"] = _mod_precision5(refs_tokens, hyp_tokens)
        ctx.extra["last_hyp_len"] = len(hyp_tokens)
        return ctx

    # ------------------------------------------------------------------------------- corpus_bleu tail
    def combine(self, c, r, matches, totals, ctx, *, n_segments=1) -> Combination:
        """``corpus_bleu`` after the counting: fractions, the early 0, smoothing, weights, the weighted log-sum."""
        N = self.max_order
        raw = [(matches[i], totals[i]) for i in range(N)]
        base = _brevity(c, r)
        err = _fraction_error(raw)
        if err is not None:
            return self._failed(raw, base, err)
        if matches[0] == 0:
            return self._no_unigram_match(raw, base)
        warns: list[LibraryWarning] = []
        p, notes = self._smooth(raw, c, ctx, warns)
        if isinstance(p, LibraryError):
            return self._failed(raw, base, p)
        weight, extra = self._weights(c)
        try:
            terms, included, s, geo = _weighted_log_sum(p, weight, N)
        except (OverflowError, ValueError) as e:
            return self._failed(raw, base, LibraryError(
                type(e).__name__, str(e),
                "the real library fails here because the weighted sum of log precisions cannot be computed "
                f"in floating point ({type(e).__name__}: {e}) with these weights"))
        orders = [self._order(i, raw[i], p[i], notes[i], weight, included[i], terms[i]) for i in range(N)]
        return Combination(orders=orders, weights=[o_.weight for o_ in orders], nominal_weights=list(self.weights),
                           effective_order=sum(included), log_sum=s, log_mean=s, geo_mean=geo, score=base["bp"] * geo,
                           bleu=base["bp"] * geo, warnings=warns, extra=extra, **base)

    def _no_unigram_match(self, raw, base) -> Combination:
        N = len(raw)
        orders = [OrderResult(n, m, t, m / t if t else None, 0.0, "none", "not computed",
                              "no unigram matches: corpus_bleu returns the integer 0 before smoothing",
                              0.0, False, None) for n, (m, t) in enumerate(raw, 1)]
        return Combination(orders=orders, weights=[0.0] * N, nominal_weights=list(self.weights),
                           effective_order=0, log_sum=None, log_mean=None,
                           geo_mean=0.0, score=0, bleu=0.0, early_exit="no unigram match: NLTK returns 0 (int)",
                           extra={"return_type": "int"}, **base)

    def _weights(self, c: int) -> tuple[tuple, dict]:
        """The weights NLTK sums with (``auto_reweigh``: (1/c,)*c for a short corpus) and what to report."""
        weight = self.weights
        reweighed = False
        list_note = None
        if self.options["auto_reweigh"] and c < 4 and weight == (0.25, 0.25, 0.25, 0.25):
            if self._weights_list:
                list_note = ("auto_reweigh did nothing: the weights were given as a list, and NLTK compares them "
                             "with the tuple (0.25, 0.25, 0.25, 0.25), which a list never equals")
            else:
                weight = (1 / c,) * c
                reweighed = True
        extra = {"return_type": "float", "auto_reweighed": reweighed}
        if reweighed:
            extra["reweighed_weights"] = [float(x) for x in weight]
        if list_note:
            extra["auto_reweigh_note"] = list_note
        return weight, extra

    @staticmethod
    def _order(i, raw_i, p_i, note, weight, included, term) -> OrderResult:
        m, t = raw_i
        w = weight[i] if i < len(weight) else 0.0
        sm, formula, reason = note
        if not included:
            if i >= len(weight):
                reason += f"; auto_reweigh uses only {len(weight)} order(s), zip() drops this one"
            else:
                reason += "; its precision is 0, and NLTK skips orders with p ≤ 0 (as if p = 1)"
        return OrderResult(n=i + 1, matches=m, totals=t, precision_raw=m / t if t else None, precision=float(p_i),
                           smoothing=sm, formula=formula, reason=reason, weight=float(w) if included else 0.0,
                           included=included, log_term=term)

    def _failed(self, raw, base, err: LibraryError) -> Combination:
        """The combination when NLTK raises: nothing is computed, the score falls back to 0.0."""
        method = self.options["smoothing"]
        N = len(raw)
        orders = [OrderResult(n, m, t, m / t if t else None, 0.0, method, "not computed", err.explanation,
                              0.0, False, None) for n, (m, t) in enumerate(raw, 1)]
        return Combination(orders=orders, weights=[0.0] * N, nominal_weights=list(self.weights), effective_order=0,
                           log_sum=None, log_mean=None, geo_mean=0.0, score=0.0, bleu=0.0, library_error=err,
                           extra={"return_type": None}, **base)

    def _smooth(self, raw, c, ctx: SegmentContext | None, warns):
        """The SmoothingFunction method applied to the corpus fractions, exactly as NLTK computes it (the same
        unreduced Fractions, ints and floats, so that an exception NLTK raises is raised here too, with the
        same message). Returns (precisions, notes) or (LibraryError, None)."""
        o = self.options
        method = o["smoothing"]
        hyp_len = c if c else (ctx.hyp_len if ctx else 0)   # NLTK: hyp_len if hyp_len else len(hypothesis)
        sm = _Smoothing(raw, hyp_len, ctx, o["epsilon"], o["alpha"], o["k"], warns)
        try:
            for step in _METHOD_STEPS[method]:
                getattr(sm, step)()
        except _Fail as f:
            return f.error, None
        except (ArithmeticError, ValueError) as e:
            return LibraryError(type(e).__name__, str(e),
                                f"the real library fails here because {method}'s arithmetic raises "
                                f"{type(e).__name__} ({e}) with these counts and parameters"), None
        return sm.p, sm.notes

    def signature(self, nrefs) -> str:
        o = self.options
        w = ",".join(f"{x:g}" for x in self.weights)
        extra = ""
        if o["smoothing"] == "method1":
            extra = f"[eps={o['epsilon']:g}]"
        elif o["smoothing"] in ("method4", "method7"):
            extra = f"[k={o['k']:g}]"
        elif o["smoothing"] == "method6":
            extra = f"[alpha={o['alpha']:g}]"
        return (f"nltk:{NLTK_VERSION}|nrefs:{nrefs}|tok:split|case:mixed|weights:{w}|"
                f"smooth:{o['smoothing']}{extra}|auto_reweigh:{'yes' if o['auto_reweigh'] else 'no'}")

    def check_inputs(self, candidates, references, *, corpus):
        for i, (h, rs) in enumerate(zip(candidates, references)):
            if not rs:
                toks = self.tokenize(h)
                if toks:
                    # modified_precision(order 1) looks up the first candidate unigram first: KeyError((tok,))
                    return [], LibraryError("KeyError", str(KeyError((toks[0],))),
                                            f"the real library fails here because segment {i + 1} has no reference: "
                                            "modified_precision looks the candidate's n-grams up in an empty table")
                return [], LibraryError("ValueError", "min() arg is an empty sequence",
                                        f"the real library fails here because segment {i + 1} has no reference: "
                                        "closest_ref_length takes min() of no lengths")
        return [], None
