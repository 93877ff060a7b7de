"""The ROUGE dialect policy interface: small policy objects over the shared algorithms.

A dialect is constructed with its ROUGE types and options bound, as rouge-score's
``RougeScorer(["rouge1", "rougeL"], use_stemmer=True)`` is (``explainer/dialect.py``: validated once, then
read-only). It decides the tokenizer (+ stemmer), the sentence splitter for summary-level types, how the counts
become P/R/F (F-measure formula, alpha, rounding), how several references are combined (``multi_ref``: best-f,
pool, best-recall) and how a corpus is aggregated. The algorithms (n-grams, LCS, union LCS, weighted LCS,
skip-bigrams) live in their own modules and are shared by every dialect.

==========================  ==================================================================================
hook                        decides
==========================  ==================================================================================
``prepare(text, ...)``      the tokens (and sentences) of a text; with ``full=True`` also their spans and the
                            words the tokenizer dropped (a :class:`~explainer.rouge.tokenize.TokenizedText`)
``score_type(rtype, ...)``  one ROUGE type against one reference: counts, P/R/F and, for a trace, the details
``combine(rtype, results)`` several references: best-f / pool / best-recall
``aggregate(per_type)``     a corpus: rouge-score's bootstrap, a mean, ROUGE-1.5.5's Average lines
``reported(scores)``        what the implementation itself returns
``call_snippet(n_refs)``    Python that reproduces the numbers with the real implementation
``signature()``             every bound option and type
==========================  ==================================================================================

To add a dialect: subclass :class:`RougeDialect`, declare ``name`` and ``OPTIONS`` (segment and corpus scope),
override the hooks that differ, and add it to ``explainer/rouge/registry.py``.
"""
from __future__ import annotations

from typing import Any, ClassVar, Sequence

from explainer.dialect import Dialect
from explainer.options import OptionSpec, format_value
from explainer.rouge import lcs as lcs_mod
from explainer.rouge.aggregate import bootstrap, mean_scores
from explainer.rouge.limits import check_summary_work
from explainer.rouge.ngrams import ngram_overlap, ngram_table
from explainer.rouge.scoring import Score, f1_rouge_score, safe_div
from explainer.rouge.skipgram import skip_overlap, skip_table
from explainer.rouge.tokenize import TokenizedText, get_tokenizer, split_sentences
from explainer.rouge.trace import TypeResult
from explainer.rouge.types import DEFAULT_TYPES, RougeType, parse_types
from explainer.rouge.union import union_lcs, union_lcs_hits
from explainer.rouge.wlcs import f_inverse, summary_wlcs, weight_note, wlcs_pooled_scores, wlcs_scores

__all__ = ["RougeDialect", "MULTI_REF_POLICIES", "SENTENCE_KINDS", "stemmer_option", "multi_ref_option",
           "tokenizer_option", "bootstrap_corpus_options", "search_splits", "SPLIT_WORDS"]

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

#: type kinds computed over sentences (summary level)
SENTENCE_KINDS = frozenset({"Lsum", "W"})

LCS_TIE_RULE = ("rouge-score _backtrack_norec: diagonal on equal tokens; else drop a candidate token only if that "
                "keeps a strictly longer LCS, otherwise drop a reference token")


#: the words of a search point whose texts are put one sentence per line first
SPLIT_WORDS = "one sentence per line (for ROUGE-Lsum)"


def search_splits(context) -> tuple[tuple[bool, float, str], ...]:
    """(texts put one sentence per line?, cost, words) for the reproduce search (``explainer/search_space.py``):
    the texts as given, and, when it changes some text, one sentence per line (as summarization scripts prepare
    texts for ROUGE-Lsum)."""
    if context.split_changes:
        return ((False, 0.0, ""), (True, 1.0, SPLIT_WORDS))
    return ((False, 0.0, ""),)


# ------------------------------------------------------------------------------- options shared by dialects
#: the documented ``explainer rouge`` flags of the options every ROUGE dialect has (others: ``-o NAME=VALUE``)
_CLI_FLAGS = {"use_stemmer": "--stem", "multi_ref": "--multi-ref", "tokenizer": "--tokenizer"}

def stemmer_option(default: bool = False) -> OptionSpec:
    return OptionSpec("use_stemmer", "bool", default,
                      "Porter-stem tokens longer than 3 characters (NLTK PorterStemmer, as rouge-score does)",
                      label="stemming (Porter)")


def multi_ref_option(default: str = "best-f", choices: Sequence[str] = tuple(MULTI_REF_POLICIES)) -> OptionSpec:
    return OptionSpec("multi_ref", "choice", default,
                      "how several references are combined: " + "; ".join(f"{k}: {MULTI_REF_POLICIES[k]}"
                                                                           for k in choices),
                      choices=tuple(choices), label="several references")


def tokenizer_option(default: str = "rouge-score",
                     choices: Sequence[str] = ("rouge-score", "unicode", "whitespace")) -> OptionSpec:
    return OptionSpec("tokenizer", "choice", default,
                      "rouge-score: the library's tokenizer (drops every non-ASCII character); unicode: opt-in words "
                      "of any script, lowercased; whitespace: opt-in text.split(), case and punctuation kept (a "
                      "RougeScorer(tokenizer=...) object) — the opt-in ones are not any library's default",
                      choices=tuple(choices), label="tokenizer")


def bootstrap_corpus_options() -> tuple[OptionSpec, ...]:
    return (
        OptionSpec("aggregate", "choice", "bootstrap",
                   "bootstrap: rouge-score's BootstrapAggregator (low/mid/high = 2.5/50/97.5th percentiles of 1,000 "
                   "resample means; mid is a median); mean: plain mean of the per-item scores",
                   choices=("bootstrap", "mean"), scope="corpus"),
        OptionSpec("seed", "int", 42, "seed of the bootstrap (rouge-score itself uses NumPy's unseeded global RNG)",
                   scope="corpus", min=0, max=2**32 - 1),
    )


class RougeDialect(Dialect):
    """Base class of a ROUGE dialect: bound to its types (``self.types``) and options (``self.options``)."""

    family: ClassVar[str] = "ROUGE"
    native_kinds: ClassVar[frozenset] = frozenset({"N", "L", "Lsum"})
    supported_kinds: ClassVar[frozenset] = frozenset({"N", "L", "Lsum", "W", "S", "SU"})
    default_multi_ref: ClassVar[str] = "best-f"
    #: what explain_rouge / score_rouge / the CLI compute when no types are given
    default_types: ClassVar[tuple] = DEFAULT_TYPES
    #: ROUGE-1.5.5 quirk: SU never counts the last token's unigram
    su_last_token: ClassVar[bool] = False
    #: the P, R and F the implementation reports per segment (HF evaluate: F only)
    reported_measures: ClassVar[tuple[str, ...]] = ("precision", "recall", "fmeasure")
    #: decimals the implementation rounds its printed P and R to (ROUGE-1.5.5: 5), None when it does not round
    printed_decimals: ClassVar[int | None] = None
    #: F is P·R / ((1 − α)·P + α·R) from the printed (rounded) P and R, α an option (ROUGE-1.5.5 -p); otherwise
    #: F1 = 2PR / (P + R)
    weighted_f: ClassVar[bool] = False
    #: what the implementation adds to the denominator of F1 (rouge 1.0.1: 2·PR/(P + R + 1e-8))
    f_epsilon: ClassVar[float] = 0.0
    #: what the implementation itself calls ROUGE-L is the summary-level union LCS over sentences (this project's
    #: rougeLsum; ROUGE-1.5.5), not one LCS over the whole text (a reproduce search labels a "ROUGE-L" match with it)
    rouge_l_is_summary_level: ClassVar[bool] = False
    #: the multi-reference rules a reproduce search tries, the dialect's own first: (rule, cost, words)
    search_multi_ref: ClassVar[tuple] = (("best-f", 0.0, ""), ("pool", 1.5, "references pooled"),
                                         ("best-recall", 1.5, "best-recall reference"))
    ALIASES: ClassVar[dict] = {"stem": "use_stemmer", "stemmer": "use_stemmer", "multi_ref_policy": "multi_ref"}
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (stemmer_option(), multi_ref_option(), tokenizer_option())

    def __init__(self, types: Any = None, **options: Any) -> None:
        super().__init__(**options)
        self.types: tuple[RougeType, ...] = parse_types(self.default_types if types is None else types)
        self.type_notes: list[str] = self.check_types(self.types)
        self.needs_sentences: bool = any(t.kind in SENTENCE_KINDS for t in self.types)

    def _setup(self) -> None:
        o = self.options
        self.multi_ref: str = o.get("multi_ref", self.default_multi_ref)
        self.stem: bool = bool(o.get("use_stemmer"))
        if "tokenizer" in o:
            self._tokenizer = get_tokenizer(o["tokenizer"])

    # ---- identity ----------------------------------------------------------------------------------
    def _bound_extra(self) -> tuple:
        return (tuple(t.name for t in self.types),)

    @property
    def type_names(self) -> list[str]:
        return [t.name for t in self.types]

    def segment_options(self) -> dict:
        """The bound options that change a segment's numbers (the corpus-only ones left out)."""
        return {o.name: self.options[o.name] for o in self.OPTIONS if o.scope == "segment"}

    def corpus_options(self) -> dict:
        return {o.name: self.options[o.name] for o in self.OPTIONS if o.scope == "corpus"}

    def check_types(self, types: Sequence[RougeType]) -> list[str]:
        """Raise for unsupported types; return notes for types that are not native to the implementation."""
        notes = []
        for rtype in types:
            if rtype.kind not in self.supported_kinds:
                raise ValueError(f"the {self.name} dialect does not define {rtype.name}")
            if rtype.kind not in self.native_kinds:
                notes.append(f"{rtype.name} is not computed by {self.label or self.name}; it is computed here with "
                             f"ROUGE-1.5.5's definition on this dialect's tokens")
            if rtype.kind == "W" and weight_note(rtype.name, rtype.weight):
                notes.append(weight_note(rtype.name, rtype.weight))
        return notes

    def signature(self) -> str:
        parts = [self.name] + [f"{k}={v}" for k, v in sorted(self.segment_options().items())]
        return "|".join(parts) + "|types=" + ",".join(self.type_names)

    # ---- tokens ----------------------------------------------------------------------------------
    @property
    def splitter(self) -> str:
        """How summary-level types split a text into sentences."""
        return "nltk" if self.options.get("split_summaries") else "newline"

    def stemmer_name(self) -> str | None:
        return self._tokenizer.stemmer_name(self.stem)

    def tokenizer_name(self) -> str:
        return self._tokenizer.label

    def prepare(self, text: str, *, need_sents: bool, full: bool, what: str = "text") -> TokenizedText:
        """The text as this dialect scores it; ``full``: with spans and dropped words (for a trace)."""
        tok, stem, split = self._tokenizer, self.stem, self.splitter
        sents = sent_tokens = None
        if need_sents:
            sents = split_sentences(text, split)
            sent_tokens = [tok.fast(s.text, stem) for s in sents]
        # Tokens never span a newline for these tokenizers, so with newline splitting the whole text's tokens are
        # the concatenation of the lines' tokens (checked against the real tokenizer in the tests).
        concat = need_sents and split == "newline" and tok.newline_safe
        whole = [t for st in sent_tokens for t in st] if concat else None
        if full:
            tt = tok.full(text, stem, what=what, tokens=whole)
        else:
            tt = TokenizedText(text, whole if whole is not None else tok.fast(text, stem))
        tt.sentences, tt.sentence_tokens = sents, sent_tokens
        return tt

    def prepare_reference(self, text: str) -> TokenizedText:
        """``prepare`` for the fast path, kept in this dialect's cache: references are usually scored again and
        again (gaming-lab sweeps, a candidate rewritten many times). Cached texts are never mutated."""
        return self.cached("references", text,
                           lambda: self.prepare(text, need_sents=self.needs_sentences, full=False),
                           cost=len(text) + 1)

    # ---- scoring ---------------------------------------------------------------------------------
    def fmeasure(self, p: float, r: float) -> float:
        return f1_rouge_score(p, r)

    def finish(self, rtype: RougeType, hits, ref_total, cand_total, detail=None) -> TypeResult:
        if rtype.kind == "W":
            p, r = wlcs_scores(hits, ref_total, cand_total, rtype.weight)
        else:
            p, r = safe_div(hits, cand_total), safe_div(hits, ref_total)
        return TypeResult(rtype.name, hits, ref_total, cand_total, Score(p, r, self.fmeasure(p, r)), detail)

    def score_type(self, rtype: RougeType, cand: TokenizedText, ref: TokenizedText, *, full: bool) -> TypeResult:
        kind = rtype.kind
        if kind == "N":
            hits, rtot, ctot, detail = self._score_n(rtype, cand.tokens, ref.tokens, full)
        elif kind == "L":
            hits, rtot, ctot, detail = self._score_l(cand.tokens, ref.tokens, full)
        elif kind == "Lsum":
            hits, rtot, ctot, detail = self._score_lsum(cand, ref, full)
        elif kind == "W":
            hits, rtot, ctot, detail = self._score_w(rtype, cand, ref, full)
        elif kind in ("S", "SU"):
            hits, rtot, ctot, detail = self._score_skip(rtype, cand.tokens, ref.tokens, full)
        else:  # pragma: no cover
            raise ValueError(rtype.name)
        return self.finish(rtype, hits, rtot, ctot, detail)

    def _score_n(self, rtype, c, r, full):
        hits, rtot, ctot = ngram_overlap(r, c, rtype.n)
        return hits, rtot, ctot, ({"n": rtype.n, "ngrams": ngram_table(r, c, rtype.n)} if full else None)

    def _score_l(self, c, r, full):
        if not full:
            return lcs_mod.lcs_length(r, c), len(r), len(c), None
        res = lcs_mod.lcs(r, c)
        detail = {"lcs_length": res.length, "pairs": [list(p) for p in res.pairs],
                  "ref_indices": res.ref_indices, "cand_indices": res.cand_indices,
                  "table": lcs_mod.table_form(res, len(r), len(c)),
                  "alternative_lcs_exists": lcs_mod.alternative_exists(r, c, res), "tie_rule": LCS_TIE_RULE}
        return res.length, len(r), len(c), detail

    def _score_lsum(self, cand, ref, full):
        if not full:
            return (*union_lcs_hits(ref.sentence_tokens, cand.sentence_tokens), None)
        detail = union_lcs(ref.sentence_tokens, cand.sentence_tokens)
        detail["splitter"] = self.splitter
        return detail["hits"], detail["ref_tokens"], detail["cand_tokens"], detail

    def _score_w(self, rtype, cand, ref, full):
        res = summary_wlcs(ref.sentence_tokens, cand.sentence_tokens, rtype.weight, record=full)
        detail = None
        if full:
            w = rtype.weight
            detail = dict(res, f=f"f(k) = k^{w}", f_inverse=f"f^-1(x) = x^(1/{w})",
                          formula="P = f^-1(hits / f(candidate tokens)); R = f^-1(hits / f(sum_i f(|r_i|))) "
                                  "(ROUGE-1.5.5 weights the reference length twice)")
        return res["hits"], res["ref_weight"], res["cand_tokens"], detail

    def _score_skip(self, rtype, c, r, full):
        su = rtype.kind == "SU"
        hits, rtot, ctot = skip_overlap(r, c, rtype.skip, su=su, su_last_token=self.su_last_token)
        detail = None
        if full:
            detail = dict(skip_table(r, c, rtype.skip, su=su, su_last_token=self.su_last_token), max_gap=rtype.skip)
        return hits, rtot, ctot, detail

    # ---- the work of summary-level types ------------------------------------------------------------
    #: the kinds whose work and trace grow with sentence pairs (``explainer.rouge.limits``)
    summary_kinds: ClassVar[frozenset] = SENTENCE_KINDS

    def summary_work(self, cand: TokenizedText, preps: Sequence[TokenizedText]) -> tuple[int, int]:
        """Refuse this call's summary-level types over their work limits (``SummaryWorkTooLarge``), before any
        scoring; returns (sentence pairs, table cells), which the trace limits read."""
        if not self.needs_sentences:
            return 0, 0
        return check_summary_work(self.types, cand.sentence_tokens or [], [p.sentence_tokens or [] for p in preps])

    def limited_detail(self, rtype: RougeType, result: TypeResult, note: str) -> dict:
        """The ``detail`` of a type whose full trace is over the trace limits: what the fast path recorded (the
        counts are the TypeResult's) and ``limited``, the reason."""
        detail = dict(result.detail or {}, limited=note)
        if rtype.kind == "Lsum":
            detail["splitter"] = self.splitter
        return detail

    # ---- several references -------------------------------------------------------------------------
    def combine(self, rtype: RougeType, results: list[TypeResult]) -> tuple[Score, int | None, dict | None]:
        """(score, chosen reference index or None when pooled, pooled counts or None)."""
        policy = self.multi_ref
        if len(results) == 1:
            return results[0].score, 0, None
        if policy == "pool":
            return self._pool(rtype, results)
        if policy == "best-f":
            keys = [r.score.fmeasure for r in results]
        elif rtype.kind == "W":
            # ROUGE-1.5.5 -f B picks ROUGE-W by the single-weighted recall f^-1(hits / sum_s f(|r_s|)), not by the
            # reported (doubly weighted) recall
            keys = [f_inverse(r.hits / r.ref_total, rtype.weight) if r.ref_total else 0.0 for r in results]
        else:
            keys = [r.score.recall for r in results]
        best = 0
        for i in range(1, len(results)):
            if keys[i] > keys[best]:
                best = i
        return results[best].score, best, None

    def _pool(self, rtype: RougeType, results: list[TypeResult]) -> tuple[Score, None, dict]:
        if rtype.kind == "W":
            # ROUGE-1.5.5 -f A: every reference adds f(its weighted length) and f(|C|) to the denominators
            pool = wlcs_pooled_scores([r.hits for r in results], [r.ref_total for r in results],
                                      [r.cand_total for r in results], rtype.weight)
            p, r_ = pool.pop("precision"), pool.pop("recall")
            pool.update(references=len(results),
                        rule="ROUGE-1.5.5 -f A for ROUGE-W: R = f^-1(sum of hits / sum_i f(ref_weight_i)), "
                             "P = f^-1(sum of hits / sum_i f(candidate tokens)); ref_total and cand_total are "
                             "those weighted sums")
            return Score(p, r_, self.fmeasure(p, r_)), None, pool
        hits = sum(r.hits for r in results)
        rtot = sum(r.ref_total for r in results)
        ctot = sum(r.cand_total for r in results)
        tr = self.finish(rtype, hits, rtot, ctot)
        return tr.score, None, {"hits": hits, "ref_total": rtot, "cand_total": ctot, "references": len(results)}

    @classmethod
    def f_alpha(cls, options: dict) -> float:
        """α of the F-measure under ``options`` (0.5 is F1)."""
        return 0.5

    @classmethod
    def f_rule(cls, options: dict) -> str:
        """How F is computed from P and R, in a line."""
        return "F1 = 2PR/(P + R)"

    @classmethod
    def rouge_l_words(cls, options: dict) -> dict:
        """What this implementation's ``rougeL`` counts, in words (the Teach page's ROUGE-L step): ``key`` (the rule),
        ``hits`` (what the numerator is), ``cand`` and ``ref`` (what P and R divide by), ``note`` (how the
        implementation's own "ROUGE-L" differs from this ``rougeL``, or "")."""
        note = (f"What {cls.label} itself calls ROUGE-L is summary level (the union of LCS hits over sentences): "
                "ROUGE-Lsum here." if cls.rouge_l_is_summary_level else "")
        return {"key": "ROUGE-L replaces the n-gram hits by the length of the longest common subsequence.",
                "hits": "LCS", "cand": "candidate tokens", "ref": "reference tokens", "note": note}

    @classmethod
    def cli_argv(cls, given: dict, types: Sequence[str] = ()) -> list[str]:
        """The ``explainer rouge`` arguments (input: one JSON line on stdin) that bind this dialect with the
        options ``given`` and ``types`` (the documented flags where the CLI has one, ``-o NAME=VALUE`` else)."""
        argv = ["rouge", "--jsonl", "-", "--dialect", cls.name]
        if types:
            argv += ["--types", ",".join(types)]
        for name in sorted(given):
            v = given[name]
            if v is None:
                continue
            flag = _CLI_FLAGS.get(name)
            if flag == "--stem":
                if v:
                    argv.append(flag)
            elif flag is not None:
                argv += [flag, str(v)]
            else:
                argv += ["-o", f"{name}={format_value(v)}"]
        return argv

    def call_snippet(self, n_refs: int) -> str | None:
        """Python that reproduces the segment's numbers with the real implementation (None if there is none)."""
        return None

    def reported(self, scores: dict[str, Score]) -> dict:
        """What the implementation itself returns for one segment."""
        return {t: s.to_dict() for t, s in scores.items()}

    # ---- corpus ----------------------------------------------------------------------------------
    def aggregate(self, per_type: dict[str, list[Score]]) -> tuple[dict, dict, dict]:
        """(aggregate, aggregation description, reported), with the bound corpus options."""
        if self.options.get("aggregate", "bootstrap") == "mean":
            agg = mean_scores(per_type)
            return agg, {"method": "mean", "note": "arithmetic mean of the per-item P, R and F"}, \
                {t: s.to_dict() for t, s in agg.items()}
        seed = self.options.get("seed", 42)
        agg = bootstrap(per_type, seed=seed)
        desc = {"method": "bootstrap", "seed": seed, "n_samples": 1000, "confidence_interval": 0.95,
                "note": "rouge-score BootstrapAggregator: mid is the MEDIAN of 1,000 bootstrap resample means "
                        "(not the mean of the scores); low/high are the 2.5th/97.5th percentiles"}
        return agg, desc, {t: {k: v.to_dict() for k, v in a.items()} for t, a in agg.items()}
