"""The ``rouge155`` dialect as a policy over the ROUGE core (``explain_rouge(..., dialect="rouge155")``).

The numbers come from ``explainer.rouge.rouge155.evaluation`` (ROUGE-1.5.5.pl's semantics, golden-tested); this
module maps them onto the core's trace: ``prepare`` reads a text as the script does (SPL units, ASCII
lower-casing, byte-level cleanup, ``-s``, ``-m``, ``-l``/``-b``), ``score_type`` scores one reference,
``combine`` applies ``-f A`` (pool) or ``-f B`` (best recall) with the script's own selection scores and
rounding, ``aggregate`` gives the bootstrap ``Average`` lines with Perl's drand48.

Type names (what the script prints):

* ``rouge1``..``rouge9`` -> ROUGE-N; ``rougeLsum`` -> the script's ROUGE-L (summary level, one unit per
  line); ``rougeL`` -> the script's ROUGE-L with each text put on one line (newlines -> spaces), i.e. the
  sentence-level LCS; ``rougeW-1.2`` -> ROUGE-W-1.2 (units as given); ``rougeS4`` / ``rougeSU4`` /
  ``rougeS*`` / ``rougeSU*`` -> ROUGE-S/SU with ``-2 4`` / ``-2 -1`` (SU never counts the last token).

Scores are what the script prints: R and P rounded to 5 decimals, F from the rounded P and R (``-p`` α).
Each ``Score`` here is a ``PerlScore`` carrying the ``-t 2`` counts and, when the real script dies
(``-w`` with a reference that has no tokens), the death message.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from explainer.options import OptionSpec
from explainer.rouge import lcs as lcs_mod
from explainer.rouge.dialects import RougeDialect, search_splits
from explainer.rouge.ngrams import ngram_table
from explainer.rouge.rouge155.bootstrap import bootstrap_average, perl_round5, sort_eval_keys
from explainer.rouge.rouge155.evaluation import (
    WLCS_DEATH,
    MetricResult,
    PerlDeath,
    ngram_counts,
    perl_prf,
    score_grams,
    score_lcs,
    skip_bigram_counts,
)
from explainer.rouge.rouge155.options import Rouge155Options
from explainer.rouge.rouge155.text import PerlText, TokenOptions, read_text
from explainer.rouge.scoring import Score
from explainer.rouge.skipgram import skip_table
from explainer.rouge.tokenize import Sentence, TokenizedText, Tokenizer
from explainer.rouge.trace import TypeResult
from explainer.rouge.types import RougeType
from explainer.rouge.union import tie_rule_check
from explainer.rouge.wlcs import f_inverse, f_weight, weight_note
from explainer.search_space import point
from explainer.text import Token

__all__ = ["Rouge155Dialect", "PerlScore", "perl_label"]

POLICY_TO_F = {"pool": "A", "best-recall": "B"}


class PerlScore(Score):
    """A Score as ROUGE-1.5.5 prints it, plus its ``-t 2`` counts (model, peer, hit) and a death, if any."""

    counts: tuple = (0, 0, 0)
    died: str | None = None
    died_why: str | None = None

    def to_dict(self) -> dict:
        d = Score.to_dict(self)
        if self.died:  # the 0s are placeholders: say so wherever the score is serialised (CLI, JSON download)
            d["died"] = (f"PerlDie: {self.died} — the real script prints no score here because "
                         f"{self.died_why or 'it died'}")
        return d


def _pscore(p: float, r: float, f: float, counts=(0, 0, 0), died=None, why=None) -> PerlScore:
    s = PerlScore(p, r, f)
    s.counts = tuple(counts)
    s.died = died
    s.died_why = why
    return s


def perl_label(rtype: RougeType) -> str:
    if rtype.kind == "N":
        return f"ROUGE-{rtype.n}"
    if rtype.kind == "Lsum":
        return "ROUGE-L"
    if rtype.kind == "L":
        return "ROUGE-L (texts on one line)"
    if rtype.kind == "W":
        return f"ROUGE-W-{_wlabel(rtype.weight)}"
    return f"ROUGE-{rtype.kind}{'*' if rtype.skip is None else rtype.skip}"


def _wlabel(w: float) -> str:
    return str(int(w)) if float(w).is_integer() else repr(float(w))


class _PerlTokenizerInfo(Tokenizer):
    """Only for labels and for locating the words the byte-level cleanup removed (``find_dropped``)."""

    name = "ROUGE-1.5.5"
    label = ("ROUGE-1.5.5.pl (lower-case A-Z only; every byte outside A-Za-z0-9 becomes a space, so non-ASCII "
             "characters split words; tokens must start with a-z or 0-9)")
    drops_what = "works on bytes and keeps only ASCII letters and digits"
    # -s and -l/-b also remove ASCII words, so the core's "ASCII text loses nothing" shortcut does not hold
    ascii_complete = False


_INFO = _PerlTokenizerInfo()
#: most bootstrap resamples (-r) of a corpus: each resample draws every item once
MAX_RESAMPLES = 10_000
STEMMER_LABEL = ("ROUGE-1.5.5 -m: WordNet-2.0 exception list first, else ROUGE's Porter variant (modified "
                 "step 4), tokens longer than 3 characters")


class Rouge155Dialect(RougeDialect):
    name = "rouge155"
    label = "ROUGE-1.5.5.pl (Chin-Yew Lin, 2005), without Perl"
    description = ("The original Perl script's semantics: its byte-level tokenizer, -m stemming (WordNet "
                   "exceptions + its Porter variant), -s SMART stop words, -l/-b limits, ROUGE-N/L/W/S/SU, "
                   "-f A (pool the references) or B (best recall), -p alpha, 5-decimal rounding with F from the "
                   "rounded P and R, summary-level ROUGE-L, and the bootstrap 'Average' over a corpus (Perl's "
                   "drand48, srand(i) per resample).")
    native_kinds = frozenset({"N", "L", "Lsum", "W", "S", "SU"})
    supported_kinds = native_kinds
    default_multi_ref = "pool"
    short_label = "ROUGE-1.5.5"
    rank = 3
    original = True
    printed_decimals = 5
    weighted_f = True
    rouge_l_is_summary_level = True
    search_multi_ref = (("pool", 0.0, ""), ("best-recall", 0.5, "-f B (best-recall reference)"))

    @classmethod
    def f_alpha(cls, options) -> float:
        return float((options or {}).get("alpha", 0.5))

    @classmethod
    def f_rule(cls, options) -> str:
        return f"F = PR/((1−α)P + αR), α = {(options or {}).get('alpha', 0.5):g}, from the 5-decimal P and R"

    @classmethod
    def search_configs(cls, context):
        """-m, -s (stop words removed), -p 0.2 (F-beta with beta = 2); one segment: the Lsum sentence splitting; a
        corpus: -m only, its Average (-s is left out at corpus level: an unusual setting that doubles the cost of
        reading the texts, most of the time of a ROUGE claim)."""
        if context.corpus:
            return [point({"use_stemmer": True} if stem else {}, 0.5, "-m" if stem else "", aggregation="bootstrap")
                    for stem in (False, True)]
        out = []
        for split, sc, sw in search_splits(context):
            for stem in (False, True):
                for stop in (False, True):
                    for alpha in (0.5, 0.2):
                        opts: dict = {}
                        if stem:
                            opts["use_stemmer"] = True
                        if stop:
                            opts["remove_stopwords"] = True
                        if alpha != 0.5:
                            opts["alpha"] = alpha
                        out.append(point(opts, 0.5 + sc + 2.5 * stop + 2.0 * (alpha != 0.5), "-m" if stem else "",
                                         "-s (stop words removed)" if stop else "",
                                         "-p 0.2 (F-beta with beta = 2)" if alpha != 0.5 else "", sw,
                                         lsum_split=split))
        return out

    @classmethod
    def comparison_rows(cls, texts=()):
        return [{"options": {"multi_ref": "pool"}, "id": "rouge155:A", "label": "ROUGE-1.5.5 -f A",
                 "note": "ROUGE-1.5.5.pl, references pooled (-f A, the script's default)"},
                {"options": {"multi_ref": "best-recall"}, "id": "rouge155:B", "label": "ROUGE-1.5.5 -f B",
                 "note": "ROUGE-1.5.5.pl, the best-recall reference (-f B)"}]
    su_last_token = False
    OPTIONS = (
        OptionSpec("use_stemmer", "bool", False, "-m: " + STEMMER_LABEL, label="stemming (-m)"),
        OptionSpec("remove_stopwords", "bool", False,
                   "-s: remove the SMART stop words (598-line list shipped with ROUGE-1.5.5; checked on the unstemmed "
                   "token) before counting", label="remove stop words (-s)"),
        OptionSpec("multi_ref", "choice", "pool",
                   "pool: -f A (the script's default): sum hits and sizes over the references; best-recall: -f B: "
                   "keep the reference with the highest recall (5-decimal recall for N/S, raw for L, "
                   "single-weighted for W; the first wins ties)", choices=("pool", "best-recall"),
                   label="several references (-f)"),
        OptionSpec("alpha", "float", 0.5, "-p: F = P·R / ((1-α)·P + α·R); 0.5 is F1, α→1 favours precision",
                   min=0.0, max=1.0, label="alpha (-p)"),
        OptionSpec("length_limit", "int", 0, "-l: use only the first N words of every text (0 = no limit)", min=0,
                   label="word limit (-l)"),
        OptionSpec("byte_limit", "int", 0, "-b: use only the first N bytes of every text (0 = no limit)", min=0,
                   label="byte limit (-b)"),
        OptionSpec("resamples", "int", 1000, "-r: bootstrap resamples (resample i is seeded with srand(i))",
                   scope="corpus", min=1, max=MAX_RESAMPLES),
        OptionSpec("confidence", "float", 95.0, "-c: confidence level of the interval, in percent", scope="corpus",
                   min=0.0, max=100.0),
        OptionSpec("counting", "choice", "0", "-t: 0 = average the per-item scores (default); 1 = pool the "
                   "token counts over the corpus", choices=("0", "1"), scope="corpus"),
    )

    def _setup(self) -> None:
        o = self.options
        self.multi_ref = o["multi_ref"]
        self.stem = bool(o["use_stemmer"])
        self.perl_options()  # validates the combination (e.g. -l with -b) with the script's messages
        self.token_options = TokenOptions(stem=self.stem, remove_stopwords=bool(o["remove_stopwords"]),
                                          length_limit=int(o["length_limit"]), byte_limit=int(o["byte_limit"]))

    def perl_options(self, rtype: RougeType | None = None, mode: str | None = None) -> Rouge155Options:
        """The script's options for one type (``mode``: force -f A or B)."""
        o = self.options
        kw = dict(n=0, w=None, skip=None, unigrams="", stem=self.stem, remove_stopwords=bool(o["remove_stopwords"]),
                  length_limit=int(o["length_limit"]), byte_limit=int(o["byte_limit"]),
                  mode=mode or POLICY_TO_F[o["multi_ref"]], alpha=float(o["alpha"]))
        if rtype is not None and rtype.kind == "W":
            kw["w"] = rtype.weight
        if rtype is not None and rtype.kind in ("S", "SU"):
            kw["skip"] = -1 if rtype.skip is None else rtype.skip
            kw["unigrams"] = "u" if rtype.kind == "SU" else ""
        return Rouge155Options(**kw)

    def check_types(self, types: Sequence[RougeType]) -> list[str]:
        notes = []
        for rtype in types:
            if rtype.kind not in self.supported_kinds:
                raise ValueError(f"the rouge155 dialect does not define {rtype.name}")
            if rtype.kind == "W" and weight_note(rtype.name, rtype.weight):
                notes.append(weight_note(rtype.name, rtype.weight))
            if rtype.kind == "L":
                notes.append("rougeL here is ROUGE-1.5.5's ROUGE-L with every text put on one line (newlines → "
                             "spaces): one LCS over all tokens. The script's own ROUGE-L is summary level: "
                             "that is rougeLsum")
        return notes

    def signature(self) -> str:
        return "rouge155|ROUGE-1.5.5.pl " + " ".join(self.command_flags())

    def command_flags(self) -> list[str]:
        """Flags of an equivalent ROUGE-1.5.5.pl run (plus ``-z SPL``: one unit per line)."""
        o, types = self.options, self.types
        flags: list[str] = []
        ns = [t.n for t in types if t.kind == "N"]
        if ns:
            flags += ["-n", str(max(ns))]
        ws = [t.weight for t in types if t.kind == "W"]
        if ws:
            flags += ["-w", _wlabel(ws[0])]
        sk = [t for t in types if t.kind in ("S", "SU")]
        if sk:
            flags += ["-2", "-1" if sk[0].skip is None else str(sk[0].skip)]
            kinds = {t.kind for t in sk}
            if kinds == {"SU"}:
                flags.append("-u")
            elif kinds == {"S", "SU"}:
                flags.append("-U")
        if self.stem:
            flags.append("-m")
        if o["remove_stopwords"]:
            flags.append("-s")
        if o["length_limit"]:
            flags += ["-l", str(o["length_limit"])]
        if o["byte_limit"]:
            flags += ["-b", str(o["byte_limit"])]
        flags += ["-f", POLICY_TO_F[o["multi_ref"]]]
        if float(o["alpha"]) != 0.5:
            flags += ["-p", repr(float(o["alpha"]))]
        return flags + ["-a", "-z", "SPL"]

    # ---- tokens ----------------------------------------------------------------------------------
    def tokenizer_name(self) -> str:
        return _INFO.label

    def stemmer_name(self) -> str | None:
        return STEMMER_LABEL if self.stem else None

    @property
    def splitter(self) -> str:
        return "newline"

    def prepare(self, text: str, *, need_sents: bool, full: bool, what: str = "text") -> TokenizedText:
        pt = read_text(text, options=self.token_options)
        sents = [Sentence(i, u, off, off + len(u)) for i, (u, off) in enumerate(zip(pt.units, pt.unit_offsets))]
        tt = self._located(text, pt, what) if full else TokenizedText(text, pt.tokens)
        tt.sentences, tt.sentence_tokens = sents, pt.lcs_sequences
        tt.extra["perl"] = pt
        return tt

    def _located(self, text: str, pt: PerlText, what: str) -> TokenizedText:
        """The tokens with their spans, the words the script drops (stop words told apart) and the notes."""
        toks = pt.ngram_tokens
        tt = TokenizedText(text, [t.token for t in toks], [t.surface for t in toks],
                           [Token(t.surface, t.start, t.end) for t in toks], stemmed=self.stem, located=True)
        _INFO.find_dropped(tt, what)
        stop_spans = {(t.start, t.end) for t in pt.stopwords_removed}
        for d in tt.dropped:
            if (d.get("start"), d.get("end")) in stop_spans:
                d["kind"] = "stopword"
        other = [d for d in tt.dropped if d["kind"] != "stopword"]
        msgs = []
        if len(other) == len(tt.dropped):
            if tt.message:
                msgs.append(tt.message)
        elif other:  # the core's message counted the stop words as removed by the tokenizer: rebuild it
            removed = [d for d in other if d["kind"] == "removed"]
            cut = [d for d in other if d["kind"] == "cut"]
            parts = []
            if removed:
                parts.append(f"{len(removed)} of {tt.n_words} words were removed ("
                             + ", ".join(d["text"] for d in removed[:5]) + (", …" if len(removed) > 5 else "") + ")")
            if cut:
                parts.append(f"{len(cut)} word{'s' if len(cut) != 1 else ''} lost characters ("
                             + ", ".join(f"{d['text']} → {' '.join(d['kept'])}" for d in cut[:5])
                             + (", …" if len(cut) > 5 else "") + ")")
            msgs.append(f"the ROUGE-1.5.5 tokenizer {_INFO.drops_what}: " + "; ".join(parts))
        if pt.stopwords_removed:
            ex = ", ".join(dict.fromkeys(t.surface for t in pt.stopwords_removed[:8]))
            msgs.append(f"-s removed {len(pt.stopwords_removed)} stop word(s) of this {what} ({ex}"
                        f"{', …' if len(pt.stopwords_removed) > 8 else ''})")
        if pt.truncated:
            msgs.append(f"this {what} was {pt.truncated}")
        if not toks and text.strip() and not any("no tokens" in m for m in msgs):
            msgs.append(f"this {what} has no ROUGE-1.5.5 tokens, so every score involving it is 0")
        if what.startswith("reference") and not any(pt.lcs_sequences):
            msgs.append(f"with ROUGE-W (-w) the real ROUGE-1.5.5 dies on this {what}: \"{WLCS_DEATH}\" "
                        "(it divides by the reference's weighted length, 0)")
        tt.message = "; ".join(msgs) if msgs else None
        return tt

    def _one_line(self, p: TokenizedText) -> PerlText:
        """The text read with every newline a space (``rougeL``: one LCS over all tokens), kept with the text."""
        pt = p.extra.get("perl_one_line")
        if pt is None:
            pt = p.extra["perl_one_line"] = read_text(p.text.replace("\n", " "), options=self.token_options)
        return pt

    # ---- scoring ---------------------------------------------------------------------------------
    def score_type(self, rtype: RougeType, cand: TokenizedText, ref: TokenizedText, *, full: bool) -> TypeResult:
        """One type against one reference, scored by the script's own code with -f A (one reference)."""
        label = perl_label(rtype)
        c: PerlText = cand.extra["perl"]
        try:
            m, select, detail = self._score_metric(rtype, label, cand, ref, full)
        except PerlDeath as d:
            why = d.why.replace("reference 1", "this reference")
            detail = {"perl_metric": label, "died": d.message,
                      "died_why": f"the real script dies here because {why}"}
            fc = f_weight(float(len(c.tokens)), rtype.weight)
            return TypeResult(rtype.name, 0.0, 0.0, fc, _pscore(0.0, 0.0, 0.0, (0.0, fc, 0.0), d.message, why),
                              detail)
        detail["perl_metric"] = label
        detail["counts"] = {"model_count": m.model_count, "peer_count": m.peer_count, "hit_count": m.hit_count}
        detail["rounding"] = m.formula
        detail["selection_score"] = select
        return TypeResult(rtype.name, m.hit_count, m.model_count, m.peer_count,
                          _pscore(m.P, m.R, m.F, (m.model_count, m.peer_count, m.hit_count)), detail)

    def _score_metric(self, rtype: RougeType, label: str, cand: TokenizedText, ref: TokenizedText,
                      full: bool) -> tuple[MetricResult, float, dict]:
        """(the script's metric, the -f B selection score, the trace details)."""
        po = self.perl_options(rtype, mode="A")
        c: PerlText = cand.extra["perl"]
        r: PerlText = ref.extra["perl"]
        k = rtype.kind
        detail: dict = {}
        if k in ("N", "S", "SU"):
            if k == "N":
                m = score_grams(label, "N", *ngram_counts(c.tokens, rtype.n), [ngram_counts(r.tokens, rtype.n)], po,
                                False)
                if full:
                    detail = {"n": rtype.n, "ngrams": ngram_table(r.tokens, c.tokens, rtype.n)}
            else:
                uni = k == "SU"
                skip = -1 if rtype.skip is None else rtype.skip
                m = score_grams(label, k, *skip_bigram_counts(c.tokens, skip, uni),
                                [skip_bigram_counts(r.tokens, skip, uni)], po, False)
                if full:
                    detail = dict(skip_table(r.tokens, c.tokens, rtype.skip, su=uni, su_last_token=False),
                                  max_gap=rtype.skip)
            return m, m.per_reference[0]["recall_5dp"], detail
        if k in ("L", "Lsum"):
            cc, rr = (self._one_line(cand), self._one_line(ref)) if k == "L" else (c, r)
            m = score_lcs(label, cc, [rr], po, full, None)
            return m, m.per_reference[0]["score"], (self._lcs_detail(k, m, cc, rr) if full else detail)
        if k == "W":
            m = score_lcs(label, c, [r], po, full, rtype.weight)
            if full:
                row = m.per_reference[0]
                w = rtype.weight
                detail = {"weight": w, "hits": row["hit"], "ref_weight": row["base"],
                          "cand_tokens": len(c.tokens), "per_ref_sentence": row.get("sentences", []),
                          "f": f"f(k) = k^{w}", "f_inverse": f"f^-1(x) = x^(1/{w})",
                          "formula": "P = f^-1(hits / f(candidate tokens)); R = f^-1(hits / f(sum_i f(|r_i|))) "
                                     "(ROUGE-1.5.5 weights the reference length twice)"}
            return m, m.per_reference[0]["score"], detail
        raise ValueError(rtype.name)  # pragma: no cover

    def _lcs_detail(self, k: str, m: MetricResult, cand: PerlText, ref: PerlText) -> dict:
        row = m.per_reference[0]
        if k == "Lsum":
            sents = row.get("sentences", [])
            # the script's markLCS tie rule is rouge-score's: show whether the other rule (drop a candidate token on
            # ties) would change the hits, as the core's rougeLsum trace does
            flags, alt_hits = tie_rule_check(ref.lcs_sequences, cand.lcs_sequences, Counter(ref.tokens),
                                             Counter(cand.tokens))
            for s, fl in zip(sents, flags):
                for rec in s["lcs_per_cand_sentence"]:
                    rec["alternative_lcs_exists"] = fl[rec["cand_sentence"]]
            return {"splitter": "lines (ROUGE-1.5.5 SPL units: every non-empty line)", "ref_tokens": row["base"],
                    "cand_tokens": len(cand.tokens), "hits": row["hit"],
                    "ref_budget": dict(Counter(ref.tokens)), "cand_budget": dict(Counter(cand.tokens)),
                    "hits_with_other_tie_rule": alt_hits, "tie_rule_changes_hits": alt_hits != row["hit"],
                    "per_ref_sentence": sents}
        ref_toks, cand_toks = [t for u in ref.lcs_sequences for t in u], [t for u in cand.lcs_sequences for t in u]
        res = lcs_mod.lcs(ref_toks, cand_toks)
        return {"lcs_length": res.length, "pairs": [list(p) for p in res.pairs], "ref_indices": res.ref_indices,
                "cand_indices": res.cand_indices, "table": lcs_mod.table_form(res, len(ref_toks), len(cand_toks)),
                "alternative_lcs_exists": lcs_mod.alternative_exists(ref_toks, cand_toks, res),
                "tie_rule": "ROUGE-1.5.5 markLCS: diagonal on equal tokens; else up (drop a reference token) "
                            "when c[i-1][j] >= c[i][j-1], else left",
                "hits_after_budgets": row["hit"]}

    def finish(self, rtype, hits, ref_total, cand_total, detail=None) -> TypeResult:
        inv = (lambda x: f_inverse(x, rtype.weight)) if rtype.kind == "W" else None
        r, p, f, _ = perl_prf(hits, ref_total, cand_total, float(self.options["alpha"]), inv)
        return TypeResult(rtype.name, hits, ref_total, cand_total, _pscore(p, r, f, (ref_total, cand_total, hits)),
                          detail)

    def combine(self, rtype: RougeType, results: list[TypeResult]):
        died = next((x.score for x in results if getattr(x.score, "died", None)), None)
        if died is not None:
            return self._died(results, died)
        if self.multi_ref == "pool":
            hits = sum(x.hits for x in results)
            rtot = sum(x.ref_total for x in results)
            ctot = sum(x.cand_total for x in results)
            tr = self.finish(rtype, hits, rtot, ctot)
            pool = {"hits": hits, "ref_total": rtot, "cand_total": ctot, "references": len(results),
                    "rule": "-f A: R = Σ hits / Σ model counts, P = Σ hits / Σ peer counts (the candidate is "
                            "counted once per reference)" + ("; ROUGE-W pools f(Σ_s f(|r_s|)) and f(|C|) per "
                                                             "reference" if rtype.kind == "W" else "")}
            return tr.score, (0 if len(results) == 1 else None), (pool if len(results) > 1 else None)
        best, best_score = 0, -1.0
        for i, x in enumerate(results):
            s = (x.detail or {}).get("selection_score")
            if s is None:  # fast path: recompute the selection score from the counts
                s = self._selection(rtype, x)
            if s > best_score:
                best, best_score = i, s
        return results[best].score, best, None

    def _died(self, results: list[TypeResult], died: PerlScore):
        idx = next(i for i, x in enumerate(results) if getattr(x.score, "died", None))
        why = f"reference {idx + 1} has no tokens" + (" after stop-word removal" if self.options["remove_stopwords"]
                                                     else "")
        return (_pscore(0.0, 0.0, 0.0, (0, 0, 0), died.died, why), (0 if len(results) == 1 else None),
                {"died": died.died, "died_why": f"the real script dies here because {why}: with -w it divides "
                 "the weighted LCS hits by the reference's weighted length, 0 (exit status 255); it printed "
                 "ROUGE-N and ROUGE-L before and nothing after"})

    @staticmethod
    def _selection(rtype: RougeType, x: TypeResult) -> float:
        if rtype.kind in ("N", "S", "SU"):
            return perl_round5(x.hits / x.ref_total) if x.ref_total else 0.0
        if rtype.kind in ("L", "Lsum"):
            return x.hits / x.ref_total if x.ref_total > 0 else 0.0
        base = f_inverse(x.ref_total, rtype.weight)  # ref_total = f(base); only used when details were not kept
        return f_inverse(x.hits / base, rtype.weight) if base else 0.0

    def reported(self, scores: dict) -> dict:
        out = {}
        w_died = next((s for t, s in scores.items() if getattr(s, "died", None)), None)
        for t, s in scores.items():
            if getattr(s, "died", None):
                out[t] = {"died": f"PerlDie: {s.died}", "printed": None,
                          "why": f"the real script dies here because {s.died_why}"}
            elif w_died is not None and (t.startswith("rougeS")):
                out[t] = {"printed": None, "why": "the real script died during ROUGE-W, before ROUGE-S/SU"}
            else:
                c = getattr(s, "counts", (None, None, None))
                out[t] = {"R": s.recall, "P": s.precision, "F": s.fmeasure,
                          "counts(-t 2)": {"model_count": c[0], "peer_count": c[1], "hit_count": c[2]}}
        return out

    # ---- corpus ----------------------------------------------------------------------------------
    def aggregate(self, per_type: dict[str, list]) -> tuple[dict, dict, dict]:
        n_res = int(self.options["resamples"])
        conf = float(self.options["confidence"])
        mode = int(self.options["counting"])
        agg, reported = {}, {}
        died = next((s for v in per_type.values() for s in v if getattr(s, "died", None)), None)
        for t, scores in per_type.items():
            keys = [f"{i + 1}.X" for i in range(len(scores))]
            is_dead = died is not None and (t.startswith("rougeW") or t.startswith("rougeS"))
            if is_dead:
                z = Score(0.0, 0.0, 0.0)
                agg[t] = {"low": z, "mid": z, "high": z}
                reported[t] = {"died": f"PerlDie: {died.died}", "printed": None,
                               "why": "the real script dies in the ROUGE-W pass because an item has a reference "
                                      "without tokens; nothing from ROUGE-W on is printed"}
                continue
            if mode == 0:
                vals = {k: (s.recall, s.precision, s.fmeasure) for k, s in zip(keys, scores)}
            else:
                vals = {k: tuple(getattr(s, "counts", (0, 0, 0))) for k, s in zip(keys, scores)}
            b = bootstrap_average(vals, n_resamples=n_res, confidence=conf, mode=mode)
            agg[t] = {"low": Score(b.ci_low[1], b.ci_low[0], b.ci_low[2]),
                      "mid": Score(b.average[1], b.average[0], b.average[2]),
                      "high": Score(b.ci_high[1], b.ci_high[0], b.ci_high[2])}
            tot = [0.0, 0.0, 0.0]
            for k in sort_eval_keys(keys):
                c = getattr(scores[int(k.split(".")[0]) - 1], "counts", (0, 0, 0))
                tot = [tot[0] + c[0], tot[1] + c[1], tot[2] + c[2]]
            reported[t] = {"Average_R": b.average[0], "Average_P": b.average[1], "Average_F": b.average[2],
                           "CI_R": [b.ci_low[0], b.ci_high[0]], "CI_P": [b.ci_low[1], b.ci_high[1]],
                           "CI_F": [b.ci_low[2], b.ci_high[2]],
                           ("plain_mean" if mode == 0 else "pooled_without_resampling"):
                               {"R": b.plain_mean[0], "P": b.plain_mean[1], "F": b.plain_mean[2]},
                           "counts(-t 2)": {"model_count": int(tot[0]), "peer_count": int(tot[1]),
                                            "hit_count": int(tot[2])}}
        desc = {"method": "bootstrap-mean (ROUGE-1.5.5)", "n_samples": n_res, "confidence_interval": conf / 100,
                "counting": mode, "seed": "srand(i) for resample i (Perl's drand48)",
                "note": "ROUGE-1.5.5's Average_X: 'mid' is the MEAN of the resample means (not a median, not the "
                        "plain mean of the items), each resample drawing N items with int(rand(N)) after srand(i); "
                        "low/high are the sorted resample means at the CI positions"
                        + ("; -t 1: each resample pools the token counts, then R = H/M, P = H/P" if mode == 1 else "")}
        return agg, desc, reported

