"""torchmetrics 1.9 ``BLEUScore`` and ``SacreBLEUScore`` (torchmetrics/functional/text/bleu.py, sacre_bleu.py).

Both reduce to the same computation, ``_bleu_score_update`` / ``_bleu_score_compute``, on float32 tensors:

* tokens: ``BLEUScore``: ``str.split()``; ``SacreBLEUScore``: torchmetrics' copies of sacreBLEU's tokenizers,
  called on the raw line (no ``rstrip``, as HF's copy), lowercasing AFTER tokenizing (sacreBLEU lowercases
  before). The explainer calls sacreBLEU's own tokenizer classes the same way;
* reference length: the closest, a tie to the FIRST listed reference (``list.index(min(diffs))``);
* n-grams clipped against the union (max count) of the references, as everywhere;
* if any order has 0 matches the score is 0 — also with ``smooth=True`` (the check comes first);
* ``smooth=True``: (m + 1) / (t + 1) for orders 2..N, order 1 unsmoothed; NOT sacreBLEU's exp smoothing, even in
  ``SacreBLEUScore``: where sacreBLEU smooths a 0-match order, torchmetrics returns 0;
* BP = 1 if c > r, else exp(1 − r/c); score = BP · exp(Σ wₙ log pₙ) on 0–1;
* float32: counts and lengths are float32 tensors, so every step is rounded to float32. The explainer repeats the
  steps in NumPy float32 (division, log, weighted sum in order, exp), which gives the recorded values of the real
  package (tests/data/torchmetrics.jsonl.gz, tests/test_dialects_torchmetrics.py).
"""
from __future__ import annotations

from explainer.bleu.dialect_sacrebleu import sacrebleu_tokenizer
from explainer.bleu.dialects import (
    BleuDialect,
    Combination,
    OptionSpec,
    OrderResult,
    closest_first,
    search_order_cost,
)
from explainer.search_space import point

__all__ = ["TorchmetricsBleuDialect", "TorchmetricsSacreBleuDialect"]

_SACRE_TOKENIZERS = ("13a", "intl", "zh", "char", "none")


def _f32(x):
    import numpy as np

    return np.float32(x)


def _orders_and_smoothing(context):
    """(n_gram, smooth, order cost) of the search, in its order."""
    for n in (4, 3, 2, 1):
        oc = search_order_cost(n, context)
        if oc is not None:
            for smooth_on in (False, True):
                yield n, smooth_on, oc


def _search_options(n: int, smooth_on: bool) -> dict:
    return {**({"n_gram": n} if n != 4 else {}), **({"smooth": True} if smooth_on else {})}


def _search_words(n: int, smooth_on: bool) -> tuple[str, str]:
    return (f"n_gram={n}" if n != 4 else "", "smooth=True" if smooth_on else "")


class TorchmetricsBleuDialect(BleuDialect):
    name = "torchmetrics"
    label = "torchmetrics BLEUScore"
    implementation = "torchmetrics 1.9 BLEUScore (float32)"
    description = ("torchmetrics.text.BLEUScore: str.split() tokens, closest reference length (first listed on "
                   "ties), 0 when any order has no match, optional add-one smoothing of orders ≥ 2, float32, 0-1.")
    scale = 1.0
    short_label = "torchmetrics BLEUScore"
    rank = 8
    #: every step is rounded to float32, as the library's tensors are
    arithmetic = "float32"
    cli_flags = {"smooth": "smooth", "max_order": "n_gram"}
    smooth_words = {"none": "false", "add-one": "true", "false": "false", "true": "true"}
    tokenizer_name = "str.split() (torchmetrics _tokenize_fn)"
    SCORING_ONLY = frozenset({"smooth"})
    OPTIONS = (
        OptionSpec("n_gram", "int", 4, "maximum n-gram order", min=1, max=4),
        OptionSpec("smooth", "bool", False, "add 1 to matches and totals of orders 2..N (order 1 unsmoothed)"),
    )
    align_mode = (False, False)

    @classmethod
    def search_configs(cls, context):
        """BLEUScore: n_gram 1-4, smooth."""
        out = []
        for n, smooth_on, oc in _orders_and_smoothing(context):
            out.append(point(_search_options(n, smooth_on), 0.5 + 1.0 * smooth_on + oc,
                             *_search_words(n, smooth_on)))
        return out

    def tokenize(self, text: str) -> list[str]:
        return text.split() if text else []

    def preprocessed_text(self, text: str) -> str:
        return " ".join(self.tokenize(text))

    def preprocess_changes(self, text: str) -> list[dict]:
        return [{"step": "tokenize", "detail": "str.split(): whitespace only, case and punctuation kept"}]

    @property
    def max_order(self) -> int:
        return self.options["n_gram"]

    def choose_ref_length(self, c, ref_lens):
        return closest_first(c, ref_lens)

    def ref_length_fast(self, c, ref_lens):
        diffs = [abs(c - x) for x in ref_lens]
        return ref_lens[diffs.index(min(diffs))] if ref_lens else 0

    def combine(self, c, r, matches, totals, ctx, *, n_segments=1) -> Combination:
        import numpy as np

        N = self.max_order
        w = _f32(1.0 / N)
        num = np.array(matches, dtype=np.float32)
        den = np.array(totals, dtype=np.float32)
        smooth = self.options["smooth"]
        base = dict(c=c, r=r, ratio=(c / r) if r else None, scale=1.0,
                    nominal_weights=[1.0 / N] * N, effective_order=N)
        if min(matches) == 0:
            orders = [OrderResult(n + 1, matches[n], totals[n], (matches[n] / totals[n]) if totals[n] else None,
                                  0.0, "none", "not computed",
                                  "an order has 0 matches: torchmetrics returns 0 before any smoothing", 0.0, False,
                                  None) for n in range(N)]
            bp, branch, bpf = self._bp(c, r)
            return Combination(orders=orders, bp=float(bp), bp_branch=branch, bp_formula=bpf, weights=[0.0] * N,
                               log_sum=None, log_mean=None, geo_mean=0.0, score=0.0, bleu=0.0,
                               early_exit="min(numerator) == 0: torchmetrics returns 0.0 (smoothing or not)", **base)
        with np.errstate(divide="ignore", invalid="ignore"):
            if smooth:
                prec = (num + np.float32(1)) / (den + np.float32(1))
                prec[0] = num[0] / den[0]
            else:
                prec = num / den
            terms = np.float32(w) * np.log(prec)
        total = np.float32(0)
        for x in terms:                          # torch.sum over N <= 4 float32 values, in order
            total = np.float32(total + x)
        geo = np.exp(total)
        bp, branch, bpf = self._bp(c, r)
        score = np.float32(bp) * geo
        orders = []
        for n in range(N):
            m, t = matches[n], totals[n]
            sm = smooth and n > 0
            orders.append(OrderResult(
                n=n + 1, matches=m, totals=t, precision_raw=(m / t) if t else None, precision=float(prec[n]),
                smoothing="add-one" if sm else "none",
                formula=(f"({m} + 1) / ({t} + 1) = {float(prec[n]):.6g}" if sm
                         else f"{m} / {t} = {float(prec[n]):.6g}"),
                reason=("smooth=True: add-one on orders ≥ 2" if sm else "plain precision") + " (float32)",
                weight=float(w), included=True, log_term=float(terms[n])))
        return Combination(orders=orders, bp=float(bp), bp_branch=branch, bp_formula=bpf,
                           weights=[float(w)] * N, log_sum=float(total), log_mean=float(total), geo_mean=float(geo),
                           score=float(score), bleu=float(score), **base)

    @staticmethod
    def _bp(c: int, r: int):
        import numpy as np

        if c > r:
            return np.float32(1.0), "c > r", f"c = {c} > r = {r}: BP = 1"
        with np.errstate(divide="ignore"):
            bp = np.exp(np.float32(1) - np.float32(r) / np.float32(c)) if c else np.float32(0.0)
        return bp, "c ≤ r", f"exp(1 − r/c) = exp(1 − {r}/{c}) = {float(bp):.6g} (float32)"

    def smoothing_label(self) -> str:
        return "add-one (orders ≥ 2)" if self.options["smooth"] else "none"

    def signature(self, nrefs) -> str:
        o = self.options
        return f"torchmetrics:BLEUScore|nrefs:{nrefs}|n_gram:{o['n_gram']}|smooth:{'yes' if o['smooth'] else 'no'}"


class TorchmetricsSacreBleuDialect(TorchmetricsBleuDialect):
    name = "torchmetrics-sacrebleu"
    label = "torchmetrics SacreBLEUScore"
    implementation = "torchmetrics 1.9 SacreBLEUScore (float32)"
    description = ("torchmetrics.text.SacreBLEUScore: sacreBLEU's tokenizers (no rstrip, lowercase after "
                   "tokenizing) under torchmetrics' BLEU: 0 when any order has no match (no exp smoothing), "
                   "closest reference length with the first listed on ties, float32, 0-1.")
    short_label = "torchmetrics SacreBLEUScore"
    cli_flags = {"smooth": "smooth", "max_order": "n_gram", "tokenize": "tokenize", "lowercase": "lowercase"}
    OPTIONS = TorchmetricsBleuDialect.OPTIONS + (
        OptionSpec("tokenize", "choice", "13a", "sacreBLEU tokenizer (torchmetrics' copies)",
                   choices=_SACRE_TOKENIZERS),
        OptionSpec("lowercase", "bool", False, "lowercase after tokenizing"),
    )

    @classmethod
    def search_configs(cls, context):
        """SacreBLEUScore: n_gram 1-4, smooth, tokenizer (zh and char too for text in a script without spaces),
        lowercase."""
        toks = ("13a", "intl", "zh", "char") if context.no_space_script else ("13a", "intl")
        out = []
        for n, smooth_on, oc in _orders_and_smoothing(context):
            for tok in toks:
                for lc in (False, True):
                    opts = dict(_search_options(n, smooth_on), **({"tokenize": tok} if tok != "13a" else {}),
                                **({"lowercase": True} if lc else {}))
                    out.append(point(opts, 0.5 + 1.0 * smooth_on + (tok != "13a") * 1.0 + 0.5 * lc + oc,
                                     *_search_words(n, smooth_on), f"tokenize={tok}" if tok != "13a" else "",
                                     "lowercase=True" if lc else ""))
        return out

    def _setup(self) -> None:
        self._tok = sacrebleu_tokenizer(self.options["tokenize"])
        self.tokenizer_name = f"{self.options['tokenize']} (sacreBLEU's class on the raw line; torchmetrics' copy)"
        self.align_mode = (self.options["lowercase"], self.options["tokenize"] == "13a")

    def tokenization_key(self) -> tuple:
        return (self.name, self.options["tokenize"], bool(self.options["lowercase"]))

    def tokenize(self, text: str) -> list[str]:
        if not text:
            return []
        out = self._tok(text)
        return (out.lower() if self.options["lowercase"] else out).split()

    def preprocess_changes(self, text: str) -> list[dict]:
        out = [{"step": "tokenize", "detail": f"{self.options['tokenize']}: sacreBLEU's tokenizer on the raw line "
                                              "(no rstrip first)"}]
        if self.options["lowercase"]:
            out.append({"step": "lowercase", "detail": "str.lower() AFTER tokenizing (sacreBLEU lowercases before)"})
        return out

    def signature(self, nrefs) -> str:
        o = self.options
        return (f"torchmetrics:SacreBLEUScore|nrefs:{nrefs}|tok:{o['tokenize']}|lc:{'yes' if o['lowercase'] else 'no'}"
                f"|n_gram:{o['n_gram']}|smooth:{'yes' if o['smooth'] else 'no'}")

