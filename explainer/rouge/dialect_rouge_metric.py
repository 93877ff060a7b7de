"""``rouge-metric`` 1.0.1, its pure-Python ``PyRouge`` (``PyRouge(...).evaluate(hypotheses, multi_references)``).

What it does (rouge_metric/py_rouge.py):

* a text is split into sentences at ``\\n`` (empty lines kept, as sentences without tokens) and each sentence with
  ``str.split()``: no lowercasing, punctuation attached (ROUGE-1.5.5 lowercases and keeps only letters and digits);
* ROUGE-N: clipped n-gram counts over the words of all sentences (n-grams cross sentence ends, as in ROUGE-1.5.5);
* ROUGE-L (its ``rouge-l``, summary level; here ``rougeLsum``): per reference sentence the union of the LCS
  positions with every candidate sentence, each matched word taken from a budget of the candidate's unigram counts
  (ROUGE-1.5.5 also budgets the reference's); its LCS read-back drops a reference word on ties
  (``table[i][j] == table[i][j-1]``). ``rougeL`` here: the same with every text on one line (one LCS);
* ROUGE-W (f(k) = k^w, w >= 1), ROUGE-S / SU (``skip_gap``; SU adds the unigrams of all tokens but the last, as
  ROUGE-1.5.5 does) as in ROUGE-1.5.5;
* P, R: 0 when the denominator is close to 0 (``math.isclose``); F = P·R / (α·R + (1−α)·P), 0 when P or R is close
  to 0; α = 0.5 by default;
* several references: ``multi_ref_mode="average"`` pools the counts (sum of matches / sum of sizes, as ROUGE-1.5.5
  ``-f A``), ``"best"`` keeps the reference with the highest matches / reference size (unrounded; ROUGE-1.5.5
  ``-f B`` compares recalls rounded to 5 decimals);
* a corpus (``mode="average"``): the mean of P and the mean of R, and F computed from those two means
  (ROUGE-1.5.5 averages F itself).

See docs/dialects-packages.md for where it equals ROUGE-1.5.5 and where not.
"""
from __future__ import annotations

import math
from collections import Counter

from explainer.options import OptionSpec
from explainer.rouge import lcs as lcs_mod
from explainer.rouge.dialects import RougeDialect, search_splits
from explainer.rouge.ngrams import ngram_table
from explainer.rouge.scoring import Score
from explainer.rouge.tokenize import Sentence, TokenizedText, Tokenizer
from explainer.rouge.trace import TypeResult
from explainer.search_space import point
from explainer.text import Token

__all__ = ["RougeMetricDialect", "f_score", "div_or_zero"]


def _isclose0(x: float) -> bool:
    return math.isclose(x, 0)


def div_or_zero(a: float, b: float) -> float:
    return 0.0 if _isclose0(b) else a / b


def f_score(p: float, r: float, alpha: float) -> float:
    """``_f_score``: 0 when P or R is close to 0, else R·P / (α·R + (1−α)·P)."""
    if _isclose0(p) or _isclose0(r):
        return 0.0
    return r * p / (alpha * r + (1 - alpha) * p)


def _weight(w: float, inverse: bool):
    if w < 1:
        raise ValueError(f"rouge-metric refuses ROUGE-W weight {w}: Invalid weight {w}: expected >= 1")
    if inverse:
        w = 1 / w
    return lambda x: x ** w


def _build_ngrams(sent, n) -> Counter:
    c: Counter = Counter()
    for i in range(len(sent) - n + 1):
        c[tuple(sent[i:i + n])] += 1
    return c


def _wlcs_table(a, b, weight):
    m, n = len(a), len(b)
    wlen = [[0.0] * (n + 1) for _ in range(m + 1)]
    cont = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            if a[i - 1] == b[j - 1]:
                k = cont[i - 1][j - 1]
                wlen[i][j] = wlen[i - 1][j - 1] + weight(k + 1) - weight(k)
                cont[i][j] = k + 1
            else:
                wlen[i][j] = max(wlen[i - 1][j], wlen[i][j - 1])
                cont[i][j] = 0
    return wlen


def _lcs_elements(a, b, table):
    """(i, j) pairs of the LCS read back from the end: equal -> diagonal; ``table[i][j] == table[i][j-1]`` -> j-1
    (drop a word of b, the reference); else i-1."""
    s = []
    i, j = len(a), len(b)
    while i > 0 and j > 0:
        if a[i - 1] == b[j - 1]:
            i -= 1
            j -= 1
            s.append((i, j))
        elif table[i][j] == table[i][j - 1]:
            j -= 1
        else:
            i -= 1
    s.reverse()
    return s


def _skip_bigrams(sent, gap) -> Counter:
    c: Counter = Counter()
    if gap is None or gap < 0:
        gap = len(sent)
    for lo in range(len(sent)):
        for hi in range(lo + 1, min(len(sent), lo + gap + 2)):
            c[(sent[lo], sent[hi])] += 1
    return c


class _Report(Tokenizer):
    name = "rouge-metric"
    drops_what = "splits sentences at newlines and words at whitespace"


class RougeMetricDialect(RougeDialect):
    name = "rouge-metric"
    label = "rouge-metric 1.0.1 (PyRouge)"
    implementation = "rouge-metric 1.0.1"
    description = ("PyRouge of rouge-metric: sentences at newlines, str.split() words (case and punctuation kept), "
                   "ROUGE-N/L/W/S/SU as ROUGE-1.5.5 defines them, alpha F, several references averaged (pooled) or "
                   "best; a corpus averages P and R and computes F from the means.")
    native_kinds = frozenset({"N", "Lsum", "W", "S", "SU"})
    supported_kinds = frozenset({"N", "L", "Lsum", "W", "S", "SU"})
    default_multi_ref = "pool"
    short_label = "rouge-metric (PyRouge)"
    rank = 7
    search_multi_ref = (("pool", 0.0, ""), ("best-recall", 0.5, "multi_ref_mode='best'"))
    OPTIONS = (
        OptionSpec("multi_ref", "choice", "pool",
                   "several references: pool = multi_ref_mode='average' (sum of matches / sum of sizes, like "
                   "ROUGE-1.5.5 -f A); best-recall = multi_ref_mode='best' (highest matches / reference size)",
                   choices=("pool", "best-recall"), label="several references"),
        OptionSpec("alpha", "float", 0.5, "F = P·R / (α·R + (1−α)·P); 0.5 = F1", min=0.0, max=1.0),
        OptionSpec("aggregate", "choice", "average", "mode: average = mean P, mean R, F of the means; individual = "
                   "the per-document scores", choices=("average", "individual"), scope="corpus"),
    )
    _report = _Report()

    @classmethod
    def search_configs(cls, context):
        """Its default; the Lsum sentence splitting; one segment only (see the pltrdy dialect's)."""
        if context.corpus:
            return []
        return [point({}, 0.5 + sc, sw, lsum_split=split) for split, sc, sw in search_splits(context)]

    def _setup(self) -> None:
        super()._setup()
        self.alpha = float(self.options["alpha"])

    @classmethod
    def f_alpha(cls, options: dict) -> float:
        return float(options.get("alpha", 0.5))

    @classmethod
    def f_rule(cls, options: dict) -> str:
        return f"F = PR/((1−α)P + αR), α = {cls.f_alpha(options):g}; 0 when P or R is close to 0"

    @classmethod
    def rouge_l_words(cls, options: dict) -> dict:
        return dict(super().rouge_l_words(options),
                    note=("rouge-metric's own ROUGE-L (its rouge-l) is summary level over the lines: each reference "
                          "line's LCS with every candidate line, united, each word taken while the candidate's count "
                          "lasts — ROUGE-Lsum here. This ROUGE-L is the same with each text on one line: one LCS."))

    def __init__(self, types=None, **options) -> None:
        super().__init__(types, **options)
        for t in self.types:
            if t.kind == "W":
                _weight(t.weight, False)

    def check_types(self, types):
        notes = []
        for rtype in types:
            if rtype.kind not in self.supported_kinds:
                raise ValueError(f"the rouge-metric dialect does not define {rtype.name}")
            if rtype.kind == "L":
                notes.append("rougeL here is PyRouge's rouge-l with each text on one line (newlines → spaces): one "
                             "LCS over all tokens; PyRouge's own rouge-l is summary level over lines: rougeLsum")
        return notes

    # ---- tokens ----------------------------------------------------------------------------------
    @property
    def splitter(self) -> str:
        return "newline (PyRouge: text.split('\\n'), empty lines kept)"

    def tokenizer_name(self) -> str:
        return "str.split() of each line (case and punctuation kept)"

    def stemmer_name(self):
        return None

    def prepare(self, text: str, *, need_sents: bool, full: bool, what: str = "text") -> TokenizedText:
        lines = text.split("\n")
        sent_tokens = [ln.split() for ln in lines]
        tokens = [t for st in sent_tokens for t in st]
        sents, pos = [], 0
        for i, ln in enumerate(lines):
            sents.append(Sentence(i, ln, pos, pos + len(ln)))
            pos += len(ln) + 1
        if full:
            spans, p = [], 0
            for t in tokens:
                j = text.find(t, p)
                spans.append(Token(t, j, j + len(t)))
                p = j + len(t)
            tt = TokenizedText(text, tokens, list(tokens), spans, located=True)
            self._report.find_dropped(tt, what)
        else:
            tt = TokenizedText(text, tokens)
        # the lines are always read (every type needs them); the trace shows them for the summary-level types
        tt.sentences, tt.sentence_tokens = (sents if need_sents else None), sent_tokens
        return tt

    # ---- scoring: PyRouge's _Match (matches, hyp_size, ref_size) per reference -----------------------
    def fmeasure(self, p, r):
        return f_score(p, r, self.alpha)

    def finish(self, rtype, hits, ref_total, cand_total, detail=None) -> TypeResult:
        if rtype.kind == "W":
            inv = _weight(rtype.weight, True)
            p, r = inv(div_or_zero(hits, cand_total)), inv(div_or_zero(hits, ref_total))
        else:
            p, r = div_or_zero(hits, cand_total), div_or_zero(hits, ref_total)
        return TypeResult(rtype.name, hits, ref_total, cand_total, Score(p, r, f_score(p, r, self.alpha)), detail)

    def score_type(self, rtype, cand: TokenizedText, ref: TokenizedText, *, full: bool) -> TypeResult:
        k = rtype.kind
        hyps, refs = cand.sentence_tokens, ref.sentence_tokens
        detail = None
        if k == "N":
            h, r = _build_ngrams(cand.tokens, rtype.n), _build_ngrams(ref.tokens, rtype.n)
            hits, ctot, rtot = sum((h & r).values()), sum(h.values()), sum(r.values())
            if full:
                detail = {"n": rtype.n, "ngrams": ngram_table(ref.tokens, cand.tokens, rtype.n)}
        elif k in ("L", "Lsum"):
            if k == "L":
                hyps, refs = [cand.tokens], [ref.tokens]
            hits, ctot, rtot, _ = self._summary_lcs(hyps, refs, False)
        elif k == "W":
            hits, ctot, rtot, _ = self._summary_wlcs(hyps, refs, rtype.weight, False)
        else:
            hits, ctot, rtot, _ = self._skip(cand.tokens, ref.tokens, rtype, False)
        if full and k != "N":
            detail = self._shared_detail(rtype, cand, ref)
        return self.finish(rtype, hits, rtot, ctot, detail)

    def _shared_detail(self, rtype, cand: TokenizedText, ref: TokenizedText) -> dict:
        """The step-by-step record of the shared algorithms (LCS table, union LCS with budgets, WLCS runs, skip-bigram
        table): on PyRouge's tokens they count what PyRouge counts (its recorded numbers on 2,175 reference pairs,
        tests/test_dialects_new_parity.py, which also checks every trace against the numbers)."""
        k = rtype.kind
        if k == "L":
            return self._score_l(cand.tokens, ref.tokens, True)[3]
        if k == "Lsum":
            return self._score_lsum(cand, ref, True)[3]
        if k == "W":
            return self._score_w(rtype, cand, ref, True)[3]
        return self._score_skip(rtype, cand.tokens, ref.tokens, True)[3]

    def _summary_lcs(self, hyps, refs, full):
        """``_rouge_l_summary_level``."""
        budget = _build_ngrams([t for h in hyps for t in h], 1)
        hits = 0
        steps = []
        for ri, ref in enumerate(refs):
            union: set = set()
            for hyp in hyps:                # built as PyRouge builds it: the set's iteration order is the same
                # PyRouge's _lcs_elements(hyp, ref, _lcs_table(hyp, ref)): the same (i, j) in the same order, read
                # from the bit-parallel table (its tie rule drops a reference token when table[i][j] == table[i][j-1])
                union = union.union(j for _, j in lcs_mod.lcs_pairs(hyp, ref, drop_candidate_on_ties=True))
            took = []
            for j in union:                 # set order, as PyRouge iterates it
                u = (ref[j],)
                if budget.get(u, 0) > 0:
                    budget[u] -= 1
                    hits += 1
                    took.append(j)
            if full:
                steps.append({"ref_sentence": ri, "union_positions": sorted(union), "counted": sorted(took)})
        rtot = sum(len(r) for r in refs)
        ctot = sum(len(h) for h in hyps)
        detail = None
        if full:
            detail = {"hits": hits, "ref_tokens": rtot, "cand_tokens": ctot, "per_ref_sentence": steps,
                      "rule": "PyRouge: per reference sentence, the union of its LCS positions with every candidate "
                              "sentence; each counted once while the candidate's count of that word lasts (no "
                              "reference budget, unlike ROUGE-1.5.5)",
                      "tie_rule": "PyRouge _lcs_elements: diagonal on equal tokens; else drop a reference token when "
                                  "table[i][j] == table[i][j-1], otherwise a candidate token"}
        return hits, ctot, rtot, detail

    def _summary_wlcs(self, hyps, refs, w, full):
        """``_rouge_w_summary_level``."""
        f = _weight(w, False)
        budget = _build_ngrams([t for h in hyps for t in h], 1)
        ref_score = f(sum(f(len(r)) for r in refs))
        hyp_score = f(sum(len(h) for h in hyps))
        match = 0
        steps = []
        for ri, ref in enumerate(refs):
            union: set = set()
            for hyp in hyps:
                union |= {j for _, j in _lcs_elements(hyp, ref, _wlcs_table(hyp, ref, f))}
            ordered = sorted(union)
            run = 0
            for j in ordered:
                tok = (ref[j],)
                if budget[tok] > 0:
                    budget[tok] -= 1
                    run += 1
                    if j == len(ref) - 1 or j + 1 not in union:
                        match += f(run)
                        run = 0
            if full:
                steps.append({"ref_sentence": ri, "union_positions": ordered})
        detail = None
        if full:
            detail = {"weight": w, "hits": match, "ref_weight": ref_score, "cand_weight": hyp_score,
                      "per_ref_sentence": steps, "f": f"f(k) = k^{w}", "f_inverse": f"f^-1(x) = x^(1/{w})",
                      "formula": "P = f^-1(hits / f(candidate tokens)); R = f^-1(hits / f(sum_i f(|r_i|)))"}
        return match, hyp_score, ref_score, detail

    def _skip(self, c, r, rtype, full):
        gap = rtype.skip
        hs, rs = _skip_bigrams(c, gap), _skip_bigrams(r, gap)
        if rtype.kind == "SU":
            hs = hs | _build_ngrams(c[:-1], 1)
            rs = rs | _build_ngrams(r[:-1], 1)
        m = hs & rs
        detail = None
        if full:
            detail = {"max_gap": gap, "matches": [[list(g), v] for g, v in m.items()],
                      "note": "SU: unigrams of every token but the last (PyRouge hyp[:-1], as ROUGE-1.5.5)"
                      if rtype.kind == "SU" else "skip-bigrams with at most max_gap words between"}
        return sum(m.values()), sum(hs.values()), sum(rs.values()), detail

    # ---- several references, corpus ------------------------------------------------------------------
    def combine(self, rtype, results):
        if len(results) == 1:
            return results[0].score, 0, None
        if self.multi_ref == "pool":
            hits = sum(x.hits for x in results)
            rtot = sum(x.ref_total for x in results)
            ctot = sum(x.cand_total for x in results)
            tr = self.finish(rtype, hits, rtot, ctot)
            # multi_ref_mode='average': matches, candidate sizes and reference sizes summed over the references
            pool = {"hits": hits, "ref_total": rtot, "cand_total": ctot, "references": len(results)}
            if rtype.kind == "W":
                pool["rule"] = ("multi_ref_mode='average' for ROUGE-W: the weighted hits, f(|C|) and f(Σ f(|r|)) of "
                                "each reference summed, then P = f^-1(Σ hits / Σ f(|C|)), R = f^-1(Σ hits / Σ ref)")
            return tr.score, None, pool
        keys = [div_or_zero(x.hits, x.ref_total) for x in results]
        best = max(range(len(results)), key=lambda i: keys[i])     # max(): the first of equal keys
        return results[best].score, best, None

    def reported(self, scores):
        return {_pyrouge_name(t): {"r": s.recall, "p": s.precision, "f": s.fmeasure} for t, s in scores.items()}

    def aggregate(self, per_type):
        if self.options["aggregate"] == "individual":
            per = {t: [s for s in v] for t, v in per_type.items()}
            return ({t: v for t, v in per.items()}, {"method": "none", "note": "mode='individual': one score per "
                                                                                   "document"},
                    {_pyrouge_name(t): [s.to_dict() for s in v] for t, v in per.items()})
        agg = {}
        for t, scores in per_type.items():
            k = len(scores)
            tp = tr = 0
            for s in scores:
                tp += s.precision
                tr += s.recall
            p, r = div_or_zero(tp, k), div_or_zero(tr, k)
            agg[t] = Score(p, r, f_score(p, r, self.alpha))
        return agg, {"method": "mean", "note": "mode='average': the mean of P and the mean of R; F from those two "
                                              "means (ROUGE-1.5.5 averages F itself)"}, \
            {_pyrouge_name(t): {"r": s.recall, "p": s.precision, "f": s.fmeasure} for t, s in agg.items()}

    def call_snippet(self, n_refs):
        ns = [t.n for t in self.types if t.kind == "N"]
        kinds = {t.kind for t in self.types}
        if "L" in kinds:
            return None
        args = [f"rouge_n={tuple(ns)!r}"]
        if "Lsum" not in kinds:
            args.append("rouge_l=False")
        ws = [t.weight for t in self.types if t.kind == "W"]
        if ws:
            args += ["rouge_w=True", f"rouge_w_weight={ws[0]!r}"]
        sk = [t for t in self.types if t.kind in ("S", "SU")]
        if sk:
            args += [f"rouge_{t.kind.lower()}=True" for t in sk] + [f"skip_gap={sk[0].skip!r}"]
        if self.multi_ref != "pool":
            args.append("multi_ref_mode='best'")
        if self.alpha != 0.5:
            args.append(f"alpha={self.alpha!r}")
        return ("from rouge_metric import PyRouge  # pip install rouge-metric==1.0.1\n"
                f"PyRouge({', '.join(args)}).evaluate([candidate], [references])")


def _pyrouge_name(t: str) -> str:
    from explainer.rouge.types import parse_type

    rt = parse_type(t)
    if rt.kind == "N":
        return f"rouge-{rt.n}"
    if rt.kind == "Lsum":
        return "rouge-l"
    if rt.kind == "L":
        return "rouge-l (one line)"
    if rt.kind == "W":
        return f"rouge-w-{rt.weight}"
    return f"rouge-{rt.kind.lower()}{'*' if rt.skip is None else rt.skip}"
