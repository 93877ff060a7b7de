"""Google BLEU (GLEU): Hugging Face ``evaluate`` "google_bleu" (metric script huggingface/evaluate@a7dd338,
``metrics/google_bleu/google_bleu.py``), which is NLTK's ``nltk.translate.gleu_score.corpus_gleu`` (3.10.4) over
its ``Tokenizer13a``.

For each segment and each reference: tp = the n-grams of orders ``min_len``..``max_len`` the candidate shares
with THAT reference (multiset intersection: each clipped against that reference's count alone), tpfp = the
candidate's n-grams, tpfn = the reference's, n_all = max(tpfp, tpfn), so tp / n_all = min(precision, recall).
A reference with n_all = 0 is skipped; the reference with the highest tp / n_all is kept (the first listed on a
tie). The corpus score is Σtp / Σn_all over the segments (0.0 when Σn_all = 0): a sentence's GLEU is the corpus
of one (``sentence_gleu``). No brevity penalty, no logs, no smoothing.

The statistics vector keeps the contract's shape ``[c, r, m_1..m_N, t_1..t_N]``: r is the kept reference's
length, m_n its clipped matches of order n and t_n the n-grams of order n on the side that has more of them (the
candidate's when tpfp ≥ tpfn: precision is the minimum; the reference's otherwise: recall), so Σm = tp and
Σt = n_all per segment and the sums over a corpus are NLTK's. Tokenizer: HF's 13a copy (sacreBLEU's own class on
the unstripped line, as the ``hf-evaluate`` dialect) or ``str.split`` (``tokenizer=str.split``; NLTK given
``text.split()``). See docs/dialects-bleu.md.
"""
from __future__ import annotations

from typing import Sequence

from explainer.bleu.dialect_sacrebleu import changes_13a, sacrebleu_tokenizer
from explainer.bleu.dialects import (
    BleuDialect,
    Combination,
    LibraryError,
    OptionSpec,
    OrderResult,
    ReferencePick,
    RefLengthChoice,
    search_order_cost,
)
from explainer.search_space import point

RULE = "highest tp / n_all (min of precision and recall); the first listed reference wins a tie"


class GoogleBleuDialect(BleuDialect):
    name = "google-bleu"
    label = "Google BLEU (GLEU, HF evaluate google_bleu)"
    implementation = "evaluate 0.4.6, metrics/google_bleu @a7dd338 (nltk 3.10.4 gleu_score.corpus_gleu)"
    description = ("evaluate.load('google_bleu') = NLTK's corpus_gleu over HF's 13a copy: min(precision, recall) "
                   "over all 1-4-grams together, the best reference per sentence, Σtp / Σmax(tpfp, tpfn) over a "
                   "corpus; no brevity penalty, no smoothing, 0-1.")
    short_label = "Google BLEU (GLEU)"
    scale = 1.0
    per_reference = True
    totals_rule = ("n-grams of this order on the side with more n-grams in all (max(tpfp, tpfn)): the candidate's "
                   "when precision is the minimum, the kept reference's when recall is")
    cli_flags = {"tokenize": "tokenize", "max_order": "max_len"}
    OPTIONS = (
        OptionSpec("tokenize", "choice", "13a", "13a: HF's copy of sacreBLEU's 13a (the metric's default); "
                   "split: str.split (tokenizer=str.split, or NLTK given text.split())", choices=("13a", "split")),
        OptionSpec("min_len", "int", 1, "the lowest n-gram order counted", min=1, max=10),
        OptionSpec("max_len", "int", 4, "the highest n-gram order counted", min=1, max=10),
    )

    @classmethod
    def search_configs(cls, context):
        """Another metric reported under the name BLEU: its default, and over whitespace tokens."""
        oc = search_order_cost(4, context)
        if oc is None:
            return []
        return [point({}, 2.0 + oc, "Google BLEU (GLEU: evaluate.load('google_bleu'))"),
                point({"tokenize": "split"}, 2.5 + oc, "Google BLEU (GLEU) over whitespace tokens")]

    def _setup(self) -> None:
        split = self.options["tokenize"] == "split"
        self._tok = None if split else sacrebleu_tokenizer("13a")
        self.tokenizer_name = "str.split" if split else "13a (HF copy: no rstrip)"
        self.align_mode = (False, not split)

    def tokenization_key(self) -> tuple:
        return (self.name, self.options["tokenize"])

    def tokenize(self, text: str) -> list[str]:
        return text.split() if self._tok is None else self._tok(text).split()

    def preprocess_changes(self, text: str) -> list[dict]:
        if self._tok is None:
            return [{"step": "tokenize", "detail": "str.split(): whitespace only, case and punctuation kept"}]
        return changes_13a(text, "13a rules (HF's copy of sacreBLEU's tokenizer)", "no rstrip first, unlike sacreBLEU")

    @property
    def max_order(self) -> int:
        return self.options["max_len"]

    def _grams(self, length: int) -> list[int]:
        """n-grams of each order 1..N in a text of ``length`` tokens that GLEU counts (orders ≥ min_len)."""
        lo = self.options["min_len"]
        return [max(0, length - n + 1) if n >= lo else 0 for n in range(1, self.max_order + 1)]

    def choose_ref_length(self, c, ref_lens):
        """The rule in words; with one reference its length (GLEU keeps a reference by its score, which lengths
        alone do not decide: ``pick_reference``)."""
        if len(ref_lens) > 1:
            raise ValueError("GLEU keeps a reference by its tp / n_all, not by length: see pick_reference")
        r = ref_lens[0] if ref_lens else 0
        return RefLengthChoice(r, [0] if ref_lens else [], "best GLEU", RULE, False,
                               "one reference: it is kept when it or the candidate has an n-gram to count")

    def ref_length_fast(self, c, ref_lens):
        return self.choose_ref_length(c, ref_lens).r

    def pick_reference(self, c: int, ref_lens: Sequence[int], matches: Sequence[Sequence[int]]) -> ReferencePick:
        N, lo = self.max_order, self.options["min_len"]
        cand = self._grams(c)
        tpfp = sum(cand)
        rows, best, best_key = [], None, None
        for k, (L, m) in enumerate(zip(ref_lens, matches)):
            ref = self._grams(L)
            m = [x if n + 1 >= lo else 0 for n, x in enumerate(m)]
            tpfn, tp = sum(ref), sum(m)
            n_all = max(tpfp, tpfn)
            row = {"ref": k, "length": L, "matches": m, "cand_ngrams": cand, "ref_ngrams": ref, "tp": tp,
                   "tpfp": tpfp, "tpfn": tpfn, "n_all": n_all, "precision": tp / tpfp if tpfp else None,
                   "recall": tp / tpfn if tpfn else None, "gleu": tp / n_all if n_all else None,
                   "skipped": n_all == 0, "kept": False}
            rows.append(row)
            if n_all > 0 and (best is None or tp / n_all > best_key):   # max(): the first maximum wins
                best, best_key = k, tp / n_all
        if best is None:
            expl = ("no reference has an n-gram to count and neither has the candidate (n_all = 0): the segment "
                    "adds nothing to Σtp or Σn_all")
            return ReferencePick(None, rows, RULE, expl, [c, 0] + [0] * (2 * N),
                                 RefLengthChoice(0, [], "best GLEU", RULE, False, expl))
        kept = rows[best]
        kept["kept"] = True
        side = cand if kept["tpfp"] >= kept["tpfn"] else kept["ref_ngrams"]
        ties = [r["ref"] for r in rows if r["gleu"] is not None and r["gleu"] == best_key and r["ref"] != best]
        expl = (f"reference {best + 1} has the highest tp / n_all = {kept['tp']} / {kept['n_all']} = {best_key:.6g}"
                + (f"; reference(s) {', '.join(str(t + 1) for t in ties)} tie, the first listed wins" if ties else ""))
        choice = RefLengthChoice(kept["length"], [best], "best GLEU", RULE, bool(ties), expl)
        return ReferencePick(best, rows, RULE, expl, [c, kept["length"]] + list(kept["matches"]) + list(side), choice)

    def combine(self, c, r, matches, totals, ctx, *, n_segments=1) -> Combination:
        N, lo = self.max_order, self.options["min_len"]
        tp, n_all = sum(matches), sum(totals)
        score = tp / n_all if n_all else 0.0
        orders = []
        for i in range(N):
            m, t = matches[i], totals[i]
            p = m / t if t else None
            orders.append(OrderResult(
                n=i + 1, matches=m, totals=t, precision_raw=p, precision=p if p is not None else 0.0,
                smoothing="none", formula=f"{m} / {t}" + (f" = {p:.6g}" if p is not None else ""),
                reason=("not counted (below min_len)" if i + 1 < lo else
                        "GLEU adds every order's matches and counts into one ratio: no logs, no mean"),
                weight=(t / n_all) if n_all else 0.0, included=i + 1 >= lo, log_term=None))
        formula = f"Σtp / Σn_all = {tp} / {n_all} = {score:.6g}" if n_all else "Σn_all = 0: GLEU = 0.0"
        return Combination(
            orders=orders, c=c, r=r, ratio=(c / r) if r else None, bp=1.0, bp_branch="no brevity penalty",
            bp_formula=("GLEU has no brevity penalty: a short candidate loses through recall (the reference's "
                        "n-gram count is the denominator when it is the larger)"),
            weights=[o.weight for o in orders], nominal_weights=[1.0 / N] * N,
            effective_order=sum(1 for o in orders if o.included), log_sum=None, log_mean=None, geo_mean=score,
            score=score, bleu=score, scale=1.0, early_exit=None if n_all else "Σn_all = 0: GLEU returns 0.0",
            extra={"ratio": {"numerator": tp, "denominator": n_all, "formula": formula,
                             "what": "GLEU = Σtp / Σmax(tpfp, tpfn): one ratio of summed counts, no BP, no logs"}})

    def signature(self, nrefs) -> str:
        o = self.options
        tok = "13a-hf" if o["tokenize"] == "13a" else "split"
        return (f"hf-evaluate:google_bleu@a7dd338|nltk:corpus_gleu|nrefs:{nrefs}|tok:{tok}|"
                f"min_len:{o['min_len']}|max_len:{o['max_len']}")

    def check_inputs(self, candidates, references, *, corpus):
        if corpus and not candidates:
            return [], LibraryError("IndexError", "list index out of range",
                                    "the real library fails here because the corpus is empty: google_bleu reads "
                                    "references[0] to see whether each prediction has one reference or several")
        return [], None
