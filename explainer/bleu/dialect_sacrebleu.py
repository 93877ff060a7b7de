"""sacreBLEU 2.6.0 ``BLEU`` (``corpus_bleu`` / ``BLEU().corpus_score`` and ``sentence_bleu`` semantics).

Tokenizers are sacreBLEU's own classes; the signature is built by sacreBLEU's own ``BLEUSignature``.
Reference: ``sacrebleu/metrics/bleu.py`` (compute_bleu 212-293, _preprocess_segment 295-302,
_get_closest_ref_len 327-345); docs/dialects-bleu.md.
"""
from __future__ import annotations

import math
import re
from typing import Sequence

import sacrebleu
from sacrebleu.metrics.bleu import BLEU, BLEUSignature, _get_tokenizer

from explainer.bleu.dialects import (
    BleuDialect,
    Combination,
    LibraryError,
    LibraryWarning,
    OptionSpec,
    OrderResult,
    RefLengthChoice,
    closest_shorter,
    search_order_cost,
)
from explainer.search_space import point
from explainer.text import ENTITIES_13A

TOKENIZERS = ("13a", "intl", "zh", "char", "none", "ja-mecab", "ko-mecab")
#: sacreBLEU tokenizers the explainer refuses: each downloads a SentencePiece model the first time it is used
#: (sacrebleu/tokenizers/tokenizer_spm.py), and nothing here downloads at run time
REFUSED_TOKENIZERS = {
    "flores101": "the FLORES-101 SentencePiece model (flores101_mm100_175M/sentencepiece.bpe.model)",
    "flores200": "the FLORES-200 SentencePiece model (flores200_sacrebleu_tokenizer_spm.model)",
    "spm": "the FLORES-101 SentencePiece model (spm is sacreBLEU's old name for flores101)",
    "spBLEU-1K": "the spBLEU-1K SentencePiece model",
}
#: tokenizers that call MeCab: what their trace says they did
_MECAB_NOTES = {
    "ja-mecab": "ja-mecab: strip, then MeCab with the IPA dictionary (ipadic), -Owakati: morphemes separated by "
                "spaces",
    "ko-mecab": "ko-mecab: strip, then MeCab-ko with mecab-ko-dic, -Owakati: morphemes separated by spaces",
}


def refused_tokenizer_message(name: str) -> str | None:
    """Why ``tokenize=name`` is refused (None when it is not): the tokenizer downloads a model at run time."""
    what = REFUSED_TOKENIZERS.get(name)
    if what is None:
        return None
    return (f"sacreBLEU's {name!r} tokenizer downloads {what} from the internet the first time it is used; the "
            "explainer never downloads at run time, so it cannot reproduce it here. Use a tokenizer that needs no "
            f"model: {', '.join(TOKENIZERS)} (ja-mecab / ko-mecab for Japanese / Korean)")


_PERIOD_WARNING = "That's 100 lines that end in a tokenized period ('.')"
# scripts written without spaces between words: the zh and char tokenizers exist for them
_NO_SPACE_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f\uac00-\ud7af]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
SMOOTH_METHODS = ("exp", "floor", "add-k", "none")
_MYLOG_FLOOR = -9999999999  # sacrebleu.utils.my_log(0)

_TOK_CACHE: dict = {}


def sacrebleu_tokenizer(name: str):
    """One shared instance per tokenizer name, so sacreBLEU's lru_cache on ``__call__`` is reused."""
    tok = _TOK_CACHE.get(name)
    if tok is None:
        tok = _TOK_CACHE[name] = _get_tokenizer(name)()
    return tok


def _my_log(x: float) -> float:
    return _MYLOG_FLOOR if x == 0.0 else math.log(x)


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def _brevity(c: int, r: int) -> dict:
    """compute_bleu's brevity penalty and how it was reached (the Combination's BP fields)."""
    bp = 1.0
    if c < r:
        if c > 0:
            bp = math.exp(1 - r / c)
            branch, bp_formula = "c < r", f"exp(1 − r/c) = exp(1 − {r}/{c}) = {_fmt(bp)}"
        else:
            bp = 0.0
            branch, bp_formula = "c = 0", "the candidate is empty: BP = 0"
    else:
        branch, bp_formula = "c ≥ r", f"c = {c} ≥ r = {r}: BP = 1"
    return dict(c=c, r=r, ratio=c / r if r else None, bp=bp, bp_branch=branch, bp_formula=bp_formula, scale=100.0)


def _no_match(matches, totals, N: int, base: dict) -> Combination:
    """No n-gram of any order matches: compute_bleu returns 0.0 before smoothing."""
    orders = [OrderResult(n, matches[n - 1], totals[n - 1],
                          (matches[n - 1] / totals[n - 1]) if totals[n - 1] else None, 0.0, "none",
                          "score returned as 0.0 before smoothing",
                          "no n-gram of any order matches: sacreBLEU returns 0 before smoothing, "
                          "reporting every precision as 0", 0.0, False, None,
                          reported_matches=matches[n - 1], reported_totals=totals[n - 1],
                          precision_native=0.0)
              for n in range(1, N + 1)]
    return Combination(orders=orders, weights=[0.0] * N, nominal_weights=[1.0 / N] * N,
                       effective_order=N, log_sum=None, log_mean=None, geo_mean=0.0, score=0.0, bleu=0.0,
                       early_exit="no matches at any order: score 0.0 (sacreBLEU returns early)", **base)


def _zero_match(method: str, value, total, smooth_mteval: float) -> tuple[float, tuple[str, str, str]]:
    """The precision (in %) of an order with 0 matches under ``method``, and the note that explains it."""
    if method == "exp":
        k = int(math.log2(smooth_mteval))
        p = 100.0 / (smooth_mteval * total)
        return p, ("exp", f"100 / (2^{k} · {total}) = {_fmt(p)}%",
                   f"0 matches: exp (NIST) smoothing gives 1/(2^k·t), k = {k} for the {_ordinal(k)} zero-match order")
    if method == "floor":
        p = 100.0 * value / total
        return p, ("floor", f"100 · {value:g} / {total} = {_fmt(p)}%",
                   f"0 matches: floor smoothing puts {value:g} in the numerator")
    why = ("0 matches and smooth_method='none'" if method == "none"
           else "0 unigram matches (add-k does not change unigrams)")
    return 0.0, ("none", f"0 / {total} = 0", why + ": my_log(0) = −9999999999, so the score is 0")


def _not_computed(n: int, included: bool) -> tuple[str, str, str]:
    reason = (f"no candidate {n}-grams (totals = 0): the loop stops here, this and every later precision stay 0")
    if included:
        reason += "; without effective order the 0 enters the mean, so the score is 0"
    else:
        reason += "; effective order leaves it out of the mean"
    return "none", "not computed", reason


class SacreBleuDialect(BleuDialect):
    name = "sacrebleu"
    label = "sacreBLEU"
    implementation = f"sacrebleu {sacrebleu.__version__}"
    description = ("sacreBLEU's BLEU: 13a tokenizer, case-sensitive, exp (NIST) smoothing, closest reference "
                   "length (ties to the shorter), score on 0-100.")
    scale = 100.0
    short_label = "sacreBLEU"
    rank = 0
    log_of_percent = True
    sacrebleu_significance = True
    checks_whole_corpus = True
    cli_flags = {"tokenize": "tokenize", "lowercase": "lowercase", "smooth": "smooth_method",
                 "smooth_value": "smooth_value", "max_order": "max_ngram_order", "effective_order": "effective_order",
                 "api": "api"}
    SCORING_ONLY = frozenset({"smooth_method", "smooth_value", "effective_order", "api", "force"})
    OPTIONS = (
        OptionSpec("tokenize", "choice", "13a", "sacreBLEU tokenizer (its own classes)", choices=TOKENIZERS),
        OptionSpec("lowercase", "bool", False, "lowercase (Python str.lower) before tokenizing"),
        OptionSpec("smooth_method", "choice", "exp", "smoothing: exp (NIST), floor, add-k, none",
                   choices=SMOOTH_METHODS),
        OptionSpec("smooth_value", "optional_float", None,
                   "value for floor (default 0.1) and add-k (default 1); ignored otherwise", min=0.0),
        OptionSpec("max_ngram_order", "int", 4, "maximum n-gram order N (not recorded in the signature)",
                   min=1, max=10),
        OptionSpec("effective_order", "bool", None,
                   "average only over orders with candidate n-grams; default: off for corpus_bleu, "
                   "on for sentence_bleu"),
        OptionSpec("api", "choice", "corpus_bleu",
                   "which API to reproduce: corpus_bleu (= BLEU().corpus_score) or sentence_bleu "
                   "(sacrebleu.sentence_bleu: effective order on by default, warns when it is off)",
                   choices=("corpus_bleu", "sentence_bleu")),
        OptionSpec("force", "bool", False,
                   "silence the 'lines end in a tokenized period' warning (corpus of 100+ such lines)"),
    )

    def __init__(self, **options) -> None:
        msg = refused_tokenizer_message(options.get("tokenize")) if isinstance(options.get("tokenize"), str) else None
        if msg:
            raise ValueError(msg)
        super().__init__(**options)

    def _setup(self) -> None:
        o = self.options
        if o["effective_order"] is None:
            o["effective_order"] = o["api"] == "sentence_bleu"
        if o["smooth_value"] is None:
            o["smooth_value"] = BLEU.SMOOTH_DEFAULTS[o["smooth_method"]]
        elif BLEU.SMOOTH_DEFAULTS[o["smooth_method"]] is None:
            o["smooth_value"] = None  # exp / none take no value (sacreBLEU ignores it)
        self._user_smooth_value = o["smooth_value"]
        self._tok = sacrebleu_tokenizer(o["tokenize"])
        self._lc = o["lowercase"]
        self.tokenizer_name = self._tok.signature()
        self.align_mode = (self._lc, o["tokenize"] == "13a")
        # lowercase=True runs before the tokenizer, so 13a then decodes "&LT;" too
        self.align_lowercase_first = self._lc

    # ---- tokenization (BLEU._preprocess_segment, then str.split as in extract_all_word_ngrams)
    def preprocessed_text(self, text: str) -> str:
        if self._lc:
            text = text.lower()
        return self._tok(text.rstrip())

    def tokenize(self, text: str) -> list[str]:
        if self._lc:
            text = text.lower()
        return self._tok(text.rstrip()).split()

    def preprocess_changes(self, text: str) -> list[dict]:
        out = []
        t = text
        if self._lc and t.lower() != t:
            out.append({"step": "lowercase", "detail": "str.lower() applied before tokenizing"})
            t = t.lower()
        if t.rstrip() != t:
            out.append({"step": "rstrip", "detail": f"{len(t) - len(t.rstrip())} trailing whitespace "
                                                     "character(s) removed"})
            t = t.rstrip()
        name = self.options["tokenize"]
        if name == "13a":
            out += changes_13a(t, "13a: punctuation split off (mteval-v13a rules)")
        elif name == "intl":
            out.append({"step": "tokenize", "detail": "intl: Unicode punctuation and symbols split off"})
        elif name == "zh":
            out.append({"step": "tokenize", "detail": "zh: strip, each CJK character (U+2001-U+2A6D quirk "
                                                       "included) is a token, then 13a regexes"})
        elif name == "char":
            out.append({"step": "tokenize", "detail": "char: every non-space character is a token"})
        elif name in _MECAB_NOTES:
            out.append({"step": "tokenize", "detail": f"{_MECAB_NOTES[name]} ({self._tok.signature()})"})
        else:
            out.append({"step": "tokenize", "detail": "none: whitespace split only"})
        return out


    @property
    def max_order(self) -> int:
        return self.options["max_ngram_order"]

    def choose_ref_length(self, c: int, ref_lens: Sequence[int]) -> RefLengthChoice:
        if not ref_lens:
            return RefLengthChoice(-1, [], "closest", "shorter reference wins a tie", False,
                                   "no reference: sacreBLEU's _get_closest_ref_len returns its start value -1, "
                                   "which is added to the corpus reference length")
        return closest_shorter(c, ref_lens)

    def ref_length_fast(self, c: int, ref_lens: Sequence[int]) -> int:
        # BLEU._get_closest_ref_len (returns -1 for no reference; we never call it with none)
        closest_diff, closest_len = -1, -1
        for ref_len in ref_lens:
            diff = abs(c - ref_len)
            if closest_diff == -1 or diff < closest_diff:
                closest_diff = diff
                closest_len = ref_len
            elif diff == closest_diff and ref_len < closest_len:
                closest_len = ref_len
        return closest_len

    # ---- compute_bleu, step by step
    def combine(self, c, r, matches, totals, ctx, *, n_segments=1) -> Combination:
        """``BLEU.compute_bleu``: brevity penalty, the early 0, precisions with smoothing, the mean of the logs."""
        o = self.options
        N = o["max_ngram_order"]
        base = _brevity(c, r)
        if not any(matches):
            return _no_match(matches, totals, N, base)
        correct, total, precisions, notes, stopped_at, eff_order = self._precisions(matches, totals, N)
        logs = [_my_log(p) for p in precisions[:eff_order]]
        log_sum = sum(logs)
        log_mean = log_sum / eff_order
        geo = math.exp(log_mean)
        score = base["bp"] * geo
        orders = []
        for n in range(1, N + 1):
            inc = n <= eff_order
            if stopped_at is not None and n >= stopped_at:
                sm, formula, reason = _not_computed(n, inc)
            else:
                sm, formula, reason = notes[n - 1]
            tot_n = totals[n - 1]
            orders.append(OrderResult(
                n=n, matches=matches[n - 1], totals=tot_n,
                precision_raw=(matches[n - 1] / tot_n) if tot_n else None,
                precision=precisions[n - 1] / 100.0, smoothing=sm, formula=formula, reason=reason,
                weight=(1.0 / eff_order) if inc else 0.0, included=inc,
                log_term=logs[n - 1] if inc else None,
                reported_matches=correct[n - 1], reported_totals=total[n - 1],
                precision_native=precisions[n - 1]))
        return Combination(orders=orders, weights=[o_.weight for o_ in orders], nominal_weights=[1.0 / N] * N,
                           effective_order=eff_order,
                           log_sum=log_sum, log_mean=log_mean, geo_mean=geo, score=score, bleu=score / 100.0,
                           **base)

    def _precisions(self, matches, totals, N):
        """compute_bleu's loop over the orders: add-k on the counts, the stop at an order without candidate n-grams,
        the effective order, and each precision (in %) with the smoothing applied and why."""
        o = self.options
        method, value, eff = o["smooth_method"], o["smooth_value"], o["effective_order"]
        correct, total = list(matches), list(totals)
        precisions = [0.0] * N
        smooth_mteval = 1.0
        eff_order = N
        notes: list[tuple[str, str, str]] = [("none", "", "") for _ in range(N)]
        stopped_at = None
        for n in range(1, N + 1):
            if method == "add-k" and n > 1:
                correct[n - 1] += value
                total[n - 1] += value
            if total[n - 1] == 0:
                stopped_at = n
                break
            if eff:
                eff_order = n
            if correct[n - 1] == 0:
                if method == "exp":
                    smooth_mteval *= 2
                precisions[n - 1], notes[n - 1] = _zero_match(method, value, total[n - 1], smooth_mteval)
            else:
                precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
                if method == "add-k" and n > 1:
                    notes[n - 1] = ("add-k", f"100 · ({matches[n - 1]} + {value:g}) / ({totals[n - 1]} + {value:g})"
                                             f" = {_fmt(precisions[n - 1])}%",
                                    "add-k adds k to the matches and totals of every order ≥ 2 "
                                    "(the reported counts and totals change too)")
                else:
                    notes[n - 1] = ("none", f"100 · {correct[n - 1]} / {total[n - 1]} = {_fmt(precisions[n - 1])}%",
                                    "matches > 0: plain precision")
        return correct, total, precisions, notes, stopped_at, eff_order

    # ---- signature and library behaviour
    def signature(self, nrefs, *, n_bootstrap: int | None = None, seed: str | None = None) -> str:
        o = self.options
        args = {"num_refs": -1 if nrefs == "var" else nrefs, "smooth_method": o["smooth_method"],
                "smooth_value": self._user_smooth_value, "lowercase": o["lowercase"],
                "effective_order": o["effective_order"], "tokenizer_signature": self._tok.signature()}
        if n_bootstrap is not None:
            args["n_bootstrap"] = n_bootstrap
            args["seed"] = seed
        return BLEUSignature(args).format()

    def bootstrap_signature(self, nrefs, n_bootstrap: int, seed: str) -> str:
        return self.signature(nrefs, n_bootstrap=n_bootstrap, seed=seed)

    def streamed_input_warnings(self, ends_with_period) -> list[str]:
        if not self.options["force"] and any(x >= 100 for x in ends_with_period):
            return [_PERIOD_WARNING]
        return []

    # ---- capabilities the features use (see BleuDialect)
    def compute_bleu_params(self) -> dict:
        o = self.options
        return {"max_order": o["max_ngram_order"], "smooth_method": o["smooth_method"],
                "smooth_value": o["smooth_value"], "effective_order": o["effective_order"]}

    def library_metric(self, references=None, *, force: bool = False) -> BLEU:
        o = self.options
        return BLEU(lowercase=o["lowercase"], tokenize=o["tokenize"], smooth_method=o["smooth_method"],
                    smooth_value=o["smooth_value"], max_ngram_order=o["max_ngram_order"],
                    effective_order=o["effective_order"], references=references, force=force)

    def other_entry_point(self) -> tuple[str, "SacreBleuDialect"]:
        if self.options["api"] == "corpus_bleu":
            other, words = "sentence_bleu", "API = sentence_bleu (effective order on by default)"
        else:
            other, words = "corpus_bleu", "API = corpus_bleu (effective order off)"
        return words, type(self)(**{**self.options, "api": other, "effective_order": None})

    def tokenization_key(self) -> tuple:
        return (self.name, self.options["tokenize"], bool(self.options["lowercase"]))

    def smoothing_label(self) -> str:
        m = self.options["smooth_method"]
        if m in ("floor", "add-k"):
            return f"{m} {self.options['smooth_value']:g}"
        return "exp (NIST)" if m == "exp" else "none"

    @classmethod
    def search_configs(cls, context):
        """Tokenizer (every one of sacreBLEU's that runs without extra packages; zh and char cost less for text in
        a script without spaces), lowercase, smoothing, max order, ``corpus_bleu`` or ``sentence_bleu`` (for a
        corpus score: ``corpus_bleu`` with and without effective order instead of the two APIs)."""
        cjk, corpus = context.no_space_script, context.corpus
        toks = {"13a": 0.0, "intl": 1.0, "none": 1.0, "char": 1.0 if cjk else 2.0}
        if cjk or not corpus:
            # (a corpus without such text skips zh: its tokenizer is sacreBLEU's slowest — 3.5 s for 6,000 texts in
            # both cases — and it is meant for Chinese)
            toks["zh"] = 0.5 if cjk else 2.0
        if cjk:
            toks.update({"ja-mecab": 0.5, "ko-mecab": 0.5})     # MeCab (sacrebleu[ja], sacrebleu[ko]) is installed
        apis = ("corpus_bleu", "effective_order") if corpus else ("corpus_bleu", "sentence_bleu")
        out = []
        for tok, tc in toks.items():
            for lc in (False, True):
                for method, value, sc, sw in _SEARCH_SMOOTHING:
                    for n in (4, 3, 2, 1):
                        oc = search_order_cost(n, context)
                        if oc is None:
                            continue
                        for api in apis:
                            out.append(point(_search_options(tok, lc, method, value, n, api),
                                             tc + 0.5 * lc + sc + oc + (api == "effective_order"),
                                             f"tokenize={tok}" if tok != "13a" else "", "lowercase" if lc else "", sw,
                                             f"BLEU-{n} (max_ngram_order={n})" if n != 4 else "", _API_WORDS[api]))
        return out

    @classmethod
    def comparison_rows(cls, texts: Sequence[str]) -> list[dict]:
        rows = [{"options": {}, "id": cls.name, "label": "sacreBLEU (13a)",
                 "note": "sacreBLEU's defaults: 13a tokens, exp smoothing, closest reference length"}]
        for tok in relevant_tokenizers(texts):
            rows.append({"options": {"tokenize": tok}, "id": f"{cls.name}:{tok}", "label": f"sacreBLEU ({tok})",
                         "note": f"sacreBLEU with tokenize={tok!r}"})
        return rows

    def check_inputs(self, candidates, references, *, corpus):
        warns: list[LibraryWarning] = []
        o = self.options
        if o["api"] == "sentence_bleu" and not o["effective_order"]:
            warns.append(LibraryWarning("logging.WARNING",
                                        "It is recommended to enable `effective_order` for sentence-level BLEU."))
        if not o["force"] and sum(1 for h in candidates if h.endswith(" .")) >= 100:
            for msg in (_PERIOD_WARNING,
                        "It looks like you forgot to detokenize your test data, which may hurt your score.",
                        "If you insist your data is detokenized, or don't care, you can suppress this message "
                        "with the `force` parameter."):
                warns.append(LibraryWarning("logging.WARNING", msg))
        err = None
        if not candidates:
            err = LibraryError("IndexError", "list index out of range",
                               "the real library fails here because it reads hyps[0] to check the input type, "
                               "and there is no candidate")
        elif all(len(refs) == 0 for refs in references):
            err = LibraryError("IndexError", "list index out of range",
                               "the real library fails here because there is no reference: it reads refs[0][0] "
                               "to check the reference type")
        else:
            for i, (h, refs) in enumerate(zip(candidates, references)):
                if refs:
                    continue
                if self.tokenize(h):
                    err = LibraryError("TypeError", "argument of type 'NoneType' is not iterable",
                                       f"the real library fails here because segment {i + 1} has no reference "
                                       "(every reference stream holds None there): its reference n-gram table "
                                       "is None")
                    break
                warns.append(LibraryWarning(
                    "explainer", f"segment {i + 1} has no reference and an empty candidate: sacreBLEU does not "
                                 "fail, it silently counts that segment's reference length as -1"))
        return warns, err


#: smoothing in the reproduce search: (method, value, cost, words)
_SEARCH_SMOOTHING = (("exp", None, 0.0, ""), ("none", None, 0.5, "no smoothing"),
                     ("floor", 0.1, 1.0, "floor smoothing 0.1"), ("floor", 0.01, 2.0, "floor smoothing 0.01"),
                     ("add-k", 1.0, 1.0, "add-k smoothing, k = 1"), ("add-k", 0.5, 2.0, "add-k smoothing, k = 0.5"))
_API_WORDS = {"corpus_bleu": "", "sentence_bleu": "sacrebleu.sentence_bleu (effective order)",
              "effective_order": "effective_order=True"}


def _search_options(tok: str, lc: bool, method: str, value, n: int, api: str) -> dict:
    """The options of one point of the search (only those that are not the defaults)."""
    opts: dict = {}
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
    return opts


def changes_13a(t: str, tokenize_note: str, hyphen_note: str = "line-break hyphen joined") -> list[dict]:
    """What the 13a tokenizer's language-independent steps change in ``t`` (tokenizer_13a.py:23-32)."""
    out = []
    k = t.count("<skipped>")
    if k:
        out.append({"step": "skipped", "detail": f"'<skipped>' removed {k} time(s)"})
    t = t.replace("<skipped>", "")
    if "-\n" in t:
        out.append({"step": "hyphen-newline", "detail": f"'-\\n' removed ({hyphen_note})"})
    t = t.replace("-\n", "")
    if "\n" in t:
        out.append({"step": "newline", "detail": "newlines replaced by spaces"})
    t = t.replace("\n", " ")
    if "&" in t:
        for ent, ch in ENTITIES_13A:
            k = t.count(ent)
            if k:
                out.append({"step": "unescape", "detail": f"{ent} unescaped {k} time(s)"})
            t = t.replace(ent, ch)
    out.append({"step": "tokenize", "detail": tokenize_note})
    return out


def _ordinal(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}.get(k, f"{k}th")


def relevant_tokenizers(texts: Sequence[str]) -> list[str]:
    """sacreBLEU tokenizers besides 13a that change something for these texts: ``intl`` and ``none`` when
    their tokens differ from 13a's, ``zh`` and ``char`` when a text is in a script written without spaces
    (their purpose; on English text ``char`` would only show that characters are not words)."""
    base = sacrebleu_tokenizer("13a")
    base_toks = [base(t.rstrip()).split() for t in texts]
    out = []
    names = ["intl", "none"] + (["zh", "char"] if any(_NO_SPACE_SCRIPT.search(t) for t in texts) else [])
    for name in names:
        tok = sacrebleu_tokenizer(name)
        if any(tok(t.rstrip()).split() != bt for t, bt in zip(texts, base_toks)):
            out.append(name)
    # MeCab: Japanese (kana) and Korean (Hangul) text, the languages these tokenizers are made for
    for name, rx in (("ja-mecab", _KANA), ("ko-mecab", _HANGUL)):
        if any(rx.search(t) for t in texts):
            out.append(name)
    return out
