"""ROUGE dialects: small policy objects over the shared algorithms.

A dialect decides the tokenizer (+ stemmer), the sentence splitter for summary-level types, how the counts
become P/R/F (F-measure formula, alpha, rounding), how several references are combined (``multi_ref``:
best-f, pool, best-recall) and how a corpus is aggregated. The algorithms (n-grams, LCS, union LCS,
weighted LCS, skip-bigrams) live in their own modules and are shared by every dialect; a new dialect
(e.g. ``rouge155``) subclasses ``Dialect``, overrides the hooks it needs and calls ``register_dialect``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from explainer.options import coerce_value
from explainer.rouge import lcs as lcs_mod
from explainer.rouge.aggregate import bootstrap, mean_scores
from explainer.rouge.ngrams import ngram_overlap, ngram_table
from explainer.rouge.scoring import Score, f1_rouge_score, safe_div
from explainer.rouge.skipgram import skip_overlap, skip_table
from explainer.rouge.tokenize import TokenizedText, get_tokenizer, split_sentences
from explainer.rouge.trace import TypeResult
from explainer.rouge.types import DEFAULT_TYPES, RougeType
from explainer.rouge.union import union_lcs, union_lcs_hits
from explainer.rouge.wlcs import f_inverse, summary_wlcs, weight_note, wlcs_pooled_scores, wlcs_scores

__all__ = ["Option", "Dialect", "Prepared", "DIALECTS", "register_dialect", "get_dialect", "dialect_options",
           "MULTI_REF_POLICIES", "RougeScoreDialect", "HfEvaluateDialect", "TextbookDialect"]

MULTI_REF_POLICIES = {
    "best-f": "score each reference separately; per ROUGE type keep the reference with the highest F "
              "(the first one on ties) — rouge-score score_multi, HF evaluate",
    "pool": "pool the counts over the references: R = sum of hits / sum of reference sizes, "
            "P = sum of hits / (k x candidate size) — ROUGE-1.5.5 -f A; ROUGE-W as the script pools it: "
            "R = f^-1(sum of hits / sum of f(weighted reference length)), P = f^-1(sum of hits / (k x f(candidate "
            "size)))",
    "best-recall": "per ROUGE type keep the reference with the highest recall (the first one on ties) "
                   "— like ROUGE-1.5.5 -f B, which chooses ROUGE-W by the single-weighted recall "
                   "f^-1(hits / weighted reference length) as here, but N/S/SU by the recall rounded to 5 decimals "
                   "(here: unrounded; the rouge155 dialect rounds as the script does)",
}


@dataclass(frozen=True)
class Option:
    """An option a dialect accepts, described for a UI and the CLI."""

    name: str
    type: str                 # "bool", "choice", "int", "float"
    default: Any
    help: str
    choices: tuple | None = None
    corpus_only: bool = False
    min: float | None = None  # bounds of a number (inclusive); the UI uses them for its widgets and links
    max: float | None = None

    def to_dict(self) -> dict:
        d = {"name": self.name, "type": self.type, "default": self.default, "help": self.help}
        if self.choices is not None:
            d["choices"] = list(self.choices)
        if self.min is not None:
            d["min"] = self.min
        if self.max is not None:
            d["max"] = self.max
        if self.corpus_only:
            d["corpus_only"] = True
        return d


def coerce_option(o: Option, v: Any) -> Any:
    """Check one option value against its spec; strings (CLI ``-o``, URL parameters) become the spec's type.
    The rule is the BLEU core's too (``explainer.options``)."""
    return coerce_value(o.name, o.type, v, choices=o.choices, lo=o.min, hi=o.max)


@dataclass
class Prepared:
    """A text tokenized for one dialect (fast path: only the token lists)."""

    text: str
    tokens: list[str]
    sent_tokens: list[list[str]] | None = None
    view: TokenizedText | None = None
    sentences: list | None = None
    extra: dict = field(default_factory=dict)


_ALIASES = {"stem": "use_stemmer", "stemmer": "use_stemmer", "multi_ref_policy": "multi_ref"}


class Dialect:
    name = "base"
    label = ""
    description = ""
    native_kinds = frozenset({"N", "L", "Lsum"})
    supported_kinds = frozenset({"N", "L", "Lsum", "W", "S", "SU"})
    tokenizer_choices: tuple = ("rouge-score", "unicode")
    default_tokenizer = "rouge-score"
    default_stem = False
    default_multi_ref = "best-f"
    default_types: tuple = DEFAULT_TYPES   # what explain_rouge / score_rouge / the CLI compute when no types are given
    su_last_token = False        # ROUGE-1.5.5 quirk: SU never counts the last token's unigram

    # ---- options -------------------------------------------------------------------------------
    def options(self) -> list[Option]:
        return [
            Option("use_stemmer", "bool", self.default_stem,
                   "Porter-stem tokens longer than 3 characters (NLTK PorterStemmer, as rouge-score does)"),
            Option("multi_ref", "choice", self.default_multi_ref,
                   "how several references are combined: " + "; ".join(f"{k}: {v}" for k, v in MULTI_REF_POLICIES.items()),
                   choices=tuple(MULTI_REF_POLICIES)),
            Option("tokenizer", "choice", self.default_tokenizer,
                   "rouge-score: the library's tokenizer (drops every non-ASCII character); unicode: opt-in words of "
                   "any script, lowercased — not any library's default", choices=self.tokenizer_choices),
        ]

    def _spec(self) -> dict:
        # options() is static per dialect instance: build it once
        spec = self.__dict__.get("_spec_cache")
        if spec is None:
            spec = self.__dict__["_spec_cache"] = {o.name: o for o in self.options()}
        return spec

    def resolve_options(self, options: dict) -> dict:
        spec = self._spec()
        out = {o.name: o.default for o in spec.values()}
        for k, v in options.items():
            k = _ALIASES.get(k, k)
            if k not in spec:
                raise ValueError(f"the {self.name} dialect has no option {k!r}; options: {', '.join(spec)}")
            if v is None:
                continue
            out[k] = coerce_option(spec[k], v)
        return out

    def check_types(self, rts: Sequence[RougeType]) -> list[str]:
        """Raise for unsupported types; return notes for types that are not native to the implementation."""
        notes = []
        for rt in rts:
            if rt.kind not in self.supported_kinds:
                raise ValueError(f"the {self.name} dialect does not define {rt.name}")
            if rt.kind not in self.native_kinds:
                notes.append(f"{rt.name} is not computed by {self.label or self.name}; it is computed here with "
                             f"ROUGE-1.5.5's definition on this dialect's tokens")
            if rt.kind == "W" and weight_note(rt.name, rt.weight):
                notes.append(weight_note(rt.name, rt.weight))
        return notes

    def signature(self, opts: dict, rts: Sequence[RougeType]) -> str:
        parts = [self.name] + [f"{k}={v}" for k, v in sorted(opts.items())]
        return "|".join(parts) + "|types=" + ",".join(rt.name for rt in rts)

    # ---- tokens ----------------------------------------------------------------------------------
    def sentence_splitter(self, opts: dict) -> str:
        return "nltk" if opts.get("split_summaries") else "newline"

    def stemmer_name(self, opts: dict) -> str | None:
        return get_tokenizer(opts.get("tokenizer", self.default_tokenizer)).stemmer_name(bool(opts.get("use_stemmer")))

    def tokenizer_name(self, opts: dict) -> str:
        return get_tokenizer(opts.get("tokenizer", self.default_tokenizer)).label

    def prepare(self, text: str, opts: dict, *, need_sents: bool, full: bool, what: str = "text") -> Prepared:
        tok = get_tokenizer(opts.get("tokenizer", self.default_tokenizer))
        stem = bool(opts.get("use_stemmer"))
        split = self.sentence_splitter(opts)
        sents = sent_tokens = None
        if need_sents:
            sents = split_sentences(text, split)
            sent_tokens = [tok.fast(s.text, stem) for s in sents]
        concat = need_sents and split == "newline" and tok.newline_safe
        if full:
            whole = [t for st in sent_tokens for t in st] if concat else None
            view = tok.full(text, stem, what=what, tokens=whole)
            return Prepared(text, view.tokens, sent_tokens, view, sents)
        if concat:
            # Tokens never span a newline for these tokenizers, so the whole text's tokens are the
            # concatenation of the lines' tokens (checked against the real tokenizer in the tests).
            return Prepared(text, [t for st in sent_tokens for t in st], sent_tokens, None, sents)
        return Prepared(text, tok.fast(text, stem), sent_tokens, None, sents)

    # ---- scoring ---------------------------------------------------------------------------------
    def fmeasure(self, p: float, r: float, opts: dict) -> float:
        return f1_rouge_score(p, r)

    def finish(self, rt: RougeType, hits, ref_total, cand_total, opts, detail=None) -> TypeResult:
        if rt.kind == "W":
            p, r = wlcs_scores(hits, ref_total, cand_total, rt.weight)
        else:
            p, r = safe_div(hits, cand_total), safe_div(hits, ref_total)
        return TypeResult(rt.name, hits, ref_total, cand_total, Score(p, r, self.fmeasure(p, r, opts)), detail)

    def score_type(self, rt: RougeType, cand: Prepared, ref: Prepared, opts: dict, *, full: bool) -> TypeResult:
        c, r = cand.tokens, ref.tokens
        k = rt.kind
        detail = None
        if k == "N":
            hits, rtot, ctot = ngram_overlap(r, c, rt.n)
            if full:
                detail = {"n": rt.n, "ngrams": ngram_table(r, c, rt.n)}
        elif k == "L":
            if full:
                res = lcs_mod.lcs(r, c)
                hits = res.length
                detail = {"lcs_length": res.length, "pairs": [list(p) for p in res.pairs],
                          "ref_indices": res.ref_indices, "cand_indices": res.cand_indices,
                          "table": lcs_mod.table_form(res, len(r), len(c)),
                          "alternative_lcs_exists": lcs_mod.alternative_exists(r, c, res),
                          "tie_rule": "rouge-score _backtrack_norec: diagonal on equal tokens; else drop a "
                                      "candidate token only if that keeps a strictly longer LCS, otherwise "
                                      "drop a reference token"}
            else:
                hits = lcs_mod.lcs_length(r, c)
            rtot, ctot = len(r), len(c)
        elif k == "Lsum":
            if full:
                detail = union_lcs(ref.sent_tokens, cand.sent_tokens)
                detail["splitter"] = self.sentence_splitter(opts)
                hits, rtot, ctot = detail["hits"], detail["ref_tokens"], detail["cand_tokens"]
            else:
                hits, rtot, ctot = union_lcs_hits(ref.sent_tokens, cand.sent_tokens)
        elif k == "W":
            res = summary_wlcs(ref.sent_tokens, cand.sent_tokens, rt.weight, record=full)
            hits, rtot, ctot = res["hits"], res["ref_weight"], res["cand_tokens"]
            if full:
                w = rt.weight
                detail = dict(res, f=f"f(k) = k^{w}", f_inverse=f"f^-1(x) = x^(1/{w})",
                              formula="P = f^-1(hits / f(candidate tokens)); R = f^-1(hits / f(sum_i f(|r_i|))) "
                                      "(ROUGE-1.5.5 weights the reference length twice)")
        elif k in ("S", "SU"):
            su = k == "SU"
            hits, rtot, ctot = skip_overlap(r, c, rt.skip, su=su, su_last_token=self.su_last_token)
            if full:
                detail = dict(skip_table(r, c, rt.skip, su=su, su_last_token=self.su_last_token),
                              max_gap=rt.skip)
        else:  # pragma: no cover
            raise ValueError(rt.name)
        return self.finish(rt, hits, rtot, ctot, opts, detail)

    # ---- several references -------------------------------------------------------------------------
    def combine(self, rt: RougeType, results: list[TypeResult], opts: dict) -> tuple[Score, int | None, dict | None]:
        """(score, chosen reference index or None when pooled, pooled counts or None)."""
        policy = opts.get("multi_ref", self.default_multi_ref)
        if len(results) == 1:
            return results[0].score, 0, None
        if policy == "pool" and rt.kind == "W":
            # ROUGE-1.5.5 -f A: every reference adds f(its weighted length) and f(|C|) to the denominators
            pool = wlcs_pooled_scores([r.hits for r in results], [r.ref_total for r in results],
                                      [r.cand_total for r in results], rt.weight)
            p, r_ = pool.pop("precision"), pool.pop("recall")
            pool.update(references=len(results),
                        rule="ROUGE-1.5.5 -f A for ROUGE-W: R = f^-1(sum of hits / sum_i f(ref_weight_i)), "
                             "P = f^-1(sum of hits / sum_i f(candidate tokens)); ref_total and cand_total are "
                             "those weighted sums")
            return Score(p, r_, self.fmeasure(p, r_, opts)), None, pool
        if policy == "pool":
            hits = sum(r.hits for r in results)
            rtot = sum(r.ref_total for r in results)
            ctot = sum(r.cand_total for r in results)
            tr = self.finish(rt, hits, rtot, ctot, opts)
            return tr.score, None, {"hits": hits, "ref_total": rtot, "cand_total": ctot, "references": len(results)}
        if policy == "best-f":
            keys = [r.score.fmeasure for r in results]
        elif rt.kind == "W":
            # ROUGE-1.5.5 -f B picks ROUGE-W by the single-weighted recall f^-1(hits / sum_s f(|r_s|)), not by the
            # reported (doubly weighted) recall
            keys = [f_inverse(r.hits / r.ref_total, rt.weight) if r.ref_total else 0.0 for r in results]
        else:
            keys = [r.score.recall for r in results]
        best = 0
        for i in range(1, len(results)):
            if keys[i] > keys[best]:
                best = i
        return results[best].score, best, None

    def call_snippet(self, opts: dict, rts: Sequence[RougeType], n_refs: int) -> str | None:
        """Python that reproduces the segment's numbers with the real implementation (None if there is none)."""
        return None

    def reported(self, scores: dict[str, Score], opts: dict) -> dict:
        """What the implementation itself returns for one segment."""
        return {t: s.to_dict() for t, s in scores.items()}

    # ---- corpus ----------------------------------------------------------------------------------
    def corpus_options(self) -> list[Option]:
        return [
            Option("aggregate", "choice", "bootstrap",
                   "bootstrap: rouge-score's BootstrapAggregator (low/mid/high = 2.5/50/97.5th percentiles of 1,000 "
                   "resample means; mid is a median); mean: plain mean of the per-item scores",
                   choices=("bootstrap", "mean"), corpus_only=True),
            Option("seed", "int", 42, "seed of the bootstrap (rouge-score itself uses NumPy's unseeded global RNG)",
                   corpus_only=True, min=0, max=2**32 - 1),
        ]

    def aggregate(self, per_type: dict[str, list[Score]], copts: dict) -> tuple[dict, dict, dict]:
        """(aggregate, aggregation description, reported)."""
        if copts.get("aggregate", "bootstrap") == "mean":
            agg = mean_scores(per_type)
            return agg, {"method": "mean", "note": "arithmetic mean of the per-item P, R and F"}, \
                {t: s.to_dict() for t, s in agg.items()}
        seed = copts.get("seed", 42)
        agg = bootstrap(per_type, seed=seed)
        desc = {"method": "bootstrap", "seed": seed, "n_samples": 1000, "confidence_interval": 0.95,
                "note": "rouge-score BootstrapAggregator: mid is the MEDIAN of 1,000 bootstrap resample means "
                        "(not the mean of the scores); low/high are the 2.5th/97.5th percentiles"}
        return agg, desc, {t: {k: v.to_dict() for k, v in a.items()} for t, a in agg.items()}


class RougeScoreDialect(Dialect):
    name = "rouge-score"
    label = "rouge-score 0.1.2 (google-research)"
    description = ("rouge-score's RougeScorer: its own tokenizer (lowercase, only a-z 0-9), optional NLTK Porter "
                   "stemming, rougeL over all tokens, rougeLsum over newline-separated sentences, F1, "
                   "score_multi keeps the best F per type.")

    def options(self):
        return super().options() + [
            Option("split_summaries", "bool", False,
                   "rougeLsum: split sentences with nltk.sent_tokenize instead of newlines (needs NLTK punkt_tab)"),
        ]


    def call_snippet(self, opts, rts, n_refs):
        if opts.get("tokenizer") != "rouge-score" or any(rt.kind not in self.native_kinds for rt in rts):
            return None
        args = [repr([rt.name for rt in rts]), f"use_stemmer={bool(opts.get('use_stemmer'))}"]
        if opts.get("split_summaries"):
            args.append("split_summaries=True")
        head = f"from rouge_score import rouge_scorer\nscorer = rouge_scorer.RougeScorer({', '.join(args)})\n"
        if n_refs == 1:
            return head + "scores = scorer.score(target=reference, prediction=candidate)  # reference FIRST"
        if opts.get("multi_ref", "best-f") != "best-f":
            return None
        return head + "scores = scorer.score_multi(targets=references, prediction=candidate)  # best F per type"


class HfEvaluateDialect(Dialect):
    name = "hf-evaluate"
    label = "Hugging Face evaluate 0.4.6, metric 'rouge'"
    description = ("HF evaluate's rouge metric: rouge-score underneath, use_stemmer off by default, several "
                   "references via score_multi (best F per type), returns F only; use_aggregator gives the "
                   "bootstrap median (mid) of rouge-score's BootstrapAggregator under the load-time seed.")

    def options(self):
        return super().options()

    def reported(self, scores, opts):
        return {t: s.fmeasure for t, s in scores.items()}

    def call_snippet(self, opts, rts, n_refs):
        if opts.get("tokenizer") != "rouge-score" or any(rt.kind not in self.native_kinds for rt in rts):
            return None
        if n_refs > 1 and opts.get("multi_ref", "best-f") != "best-f":
            return None
        refs = "[reference]" if n_refs == 1 else "[references]"
        return ("import evaluate\nrouge = evaluate.load(\"rouge\")\n"
                f"rouge.compute(predictions=[candidate], references={refs}, rouge_types={[rt.name for rt in rts]!r}, "
                f"use_stemmer={bool(opts.get('use_stemmer'))}, use_aggregator=False)  # F only")

    def corpus_options(self):
        return [
            Option("use_aggregator", "bool", True,
                   "True: bootstrap 'mid' F (a median of resample means); False: the list of per-item F values",
                   corpus_only=True),
            Option("seed", "int", 42, "the seed given to evaluate.load(..., seed=); HF reseeds NumPy's legacy "
                                      "global RNG with it before every compute", corpus_only=True, min=0, max=2**32 - 1),
        ]

    def aggregate(self, per_type, copts):
        if not copts.get("use_aggregator", True):
            return {t: [s.fmeasure for s in v] for t, v in per_type.items()}, \
                {"method": "none", "note": "use_aggregator=False: one F value per item"}, \
                {t: [s.fmeasure for s in v] for t, v in per_type.items()}
        seed = copts.get("seed", 42)
        agg = bootstrap(per_type, seed=seed)
        desc = {"method": "bootstrap", "seed": seed, "n_samples": 1000, "confidence_interval": 0.95,
                "note": "HF evaluate returns mid.fmeasure of rouge-score's BootstrapAggregator: the MEDIAN of 1,000 "
                        "bootstrap resample means, not the mean of the scores"}
        return agg, desc, {t: a["mid"].fmeasure for t, a in agg.items()}


class TextbookDialect(Dialect):
    name = "textbook"
    label = "the course chapter's from-scratch ROUGE-N and ROUGE-L"
    description = ("The chapter's own functions: text.lower().split() tokens (punctuation stays attached), "
                   "clipped n-gram matches, LCS over the whole token list, F1. Defines ROUGE-N and ROUGE-L only.")
    native_kinds = frozenset({"N", "L"})
    supported_kinds = frozenset({"N", "L"})
    default_types = ("rouge1", "rouge2", "rougeL")   # the chapter has no rougeLsum
    tokenizer_choices = ("whitespace-lower",)
    default_tokenizer = "whitespace-lower"

    def options(self):
        return [o for o in super().options() if o.name == "multi_ref"] + [
            Option("tokenizer", "choice", "whitespace-lower", "the chapter's tokenizer: text.lower().split()",
                   choices=self.tokenizer_choices)]

    def check_types(self, rts):
        for rt in rts:
            if rt.kind not in self.supported_kinds:
                raise ValueError(f"the textbook dialect (course chapter) defines only ROUGE-N and ROUGE-L, not {rt.name}")
        return []

    def corpus_options(self):
        return []

    def call_snippet(self, opts, rts, n_refs):
        if n_refs != 1:
            return None
        lines = [f"rouge_n(candidate, reference, n={rt.n})" if rt.kind == "N" else "rouge_l(candidate, reference)"
                 for rt in rts]
        return "# the course chapter's own functions\n" + "\n".join(lines)

    def aggregate(self, per_type, copts):
        agg = mean_scores(per_type)
        return agg, {"method": "mean", "note": "the chapter does not aggregate; plain mean"}, \
            {t: s.to_dict() for t, s in agg.items()}


DIALECTS: dict[str, Dialect] = {}


def register_dialect(d: Dialect) -> Dialect:
    DIALECTS[d.name] = d
    return d


for _d in (RougeScoreDialect(), HfEvaluateDialect(), TextbookDialect()):
    register_dialect(_d)


PLUGIN_ERRORS: dict[str, str] = {}


def _load_plugins() -> None:
    """Import dialects that live in their own modules (ROUGE-1.5.5: explainer/rouge/rouge155*.py); they call
    register_dialect on import. A broken plugin must not break the other dialects: its error is kept in
    PLUGIN_ERRORS and reported when that dialect is asked for."""
    import importlib

    for mod in ("explainer.rouge.rouge155",):
        if mod in PLUGIN_ERRORS:
            continue
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as e:
            if e.name != mod:
                PLUGIN_ERRORS[mod] = f"{type(e).__name__}: {e}"
        except Exception as e:  # noqa: BLE001 - reported via get_dialect
            PLUGIN_ERRORS[mod] = f"{type(e).__name__}: {e}"


def get_dialect(name: str) -> Dialect:
    if name not in DIALECTS:
        _load_plugins()
    try:
        return DIALECTS[name]
    except KeyError:
        extra = "".join(f" ({m} failed to load: {err})" for m, err in PLUGIN_ERRORS.items() if name in m)
        raise ValueError(f"unknown ROUGE dialect {name!r}; choose one of {', '.join(DIALECTS)}{extra}") from None


def dialect_options(name: str, *, corpus: bool = False) -> list[dict]:
    """Options of a dialect for a UI: name, type, choices, default, help (corpus options when corpus=True)."""
    d = get_dialect(name)
    opts = [o.to_dict() for o in d.options()]
    if corpus:
        opts += [o.to_dict() for o in d.corpus_options()]
    return opts
