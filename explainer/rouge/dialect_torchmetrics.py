"""torchmetrics 1.9 ``ROUGEScore`` (torchmetrics/functional/text/rouge.py).

* tokens: ``re.sub(r"[^a-z0-9]+", " ", text.lower())`` split on whitespace, optional NLTK Porter stemming of tokens
  longer than 3 characters: the same tokens as rouge-score's tokenizer, which the explainer uses;
* ROUGE-N (clipped counts) and ROUGE-L (one LCS) as rouge-score; P, R, F1 computed in Python floats, then stored as
  float32 tensors: every reported value is rounded to float32;
* several references: ``accumulate="best"``: the reference with the highest float32 F (``torch.argmax``: the first
  of equal values); ``accumulate="avg"``: the float32 mean of P, of R and of F over the references (F is the mean of
  the Fs, not the F of the means);
* a corpus: the float32 mean of each value over the items;
* rougeLsum: torchmetrics splits sentences with ``nltk.sent_tokenize`` and downloads NLTK's punkt data when it is
  missing; nothing downloads here, so the dialect refuses rougeLsum.
"""
from __future__ import annotations

from explainer.options import OptionSpec
from explainer.rouge.dialects import RougeDialect, stemmer_option
from explainer.rouge.scoring import Score
from explainer.rouge.trace import TypeResult
from explainer.search_space import point

__all__ = ["TorchmetricsRougeDialect"]


def _f32(x: float) -> float:
    import numpy as np

    return float(np.float32(x))


class TorchmetricsRougeDialect(RougeDialect):
    name = "torchmetrics"
    label = "torchmetrics ROUGEScore"
    implementation = "torchmetrics 1.9 ROUGEScore (float32)"
    description = ("torchmetrics.text.ROUGEScore: rouge-score's tokens, ROUGE-N and ROUGE-L, values stored as float32; "
                   "several references: accumulate='best' (highest F) or 'avg' (mean of P, R and F); a corpus is the "
                   "mean.")
    native_kinds = frozenset({"N", "L"})
    supported_kinds = frozenset({"N", "L"})
    default_types = ("rouge1", "rouge2", "rougeL")
    short_label = "torchmetrics ROUGEScore"
    rank = 8
    search_multi_ref = (("best-f", 0.0, ""), ("avg", 0.5, "accumulate='avg'"))
    @classmethod
    def search_configs(cls, context):
        """Stemming; one segment only (see the pltrdy dialect's)."""
        if context.corpus:
            return []
        return [point({"use_stemmer": True} if stem else {}, 0.5 + 0.5 * stem, "use_stemmer=True" if stem else "")
                for stem in (False, True)]

    OPTIONS = (
        stemmer_option(),
        OptionSpec("multi_ref", "choice", "best-f",
                   "several references: best-f = accumulate='best' (highest float32 F, the first on ties); avg = "
                   "accumulate='avg' (float32 means of P, R and F over the references)",
                   choices=("best-f", "avg"), label="several references"),
        OptionSpec("tokenizer", "choice", "rouge-score", "torchmetrics' default normalizer and tokenizer (the same "
                   "tokens as rouge-score's)", choices=("rouge-score",), label="tokenizer"),
    )

    def check_types(self, types):
        for rtype in types:
            if rtype.kind == "Lsum":
                raise ValueError("the torchmetrics dialect does not compute rougeLsum: torchmetrics splits sentences "
                                 "with nltk.sent_tokenize and downloads NLTK's punkt data at run time, which the "
                                 "explainer never does")
            if rtype.kind not in self.supported_kinds:
                raise ValueError(f"the torchmetrics dialect does not define {rtype.name}")
        return []

    def finish(self, rtype, hits, ref_total, cand_total, detail=None) -> TypeResult:
        if cand_total == 0 or ref_total == 0:
            return TypeResult(rtype.name, hits, ref_total, cand_total, Score(0.0, 0.0, 0.0), detail)
        p, r = hits / cand_total, hits / ref_total
        f = 0.0 if p == r == 0.0 else 2 * p * r / (p + r)
        return TypeResult(rtype.name, hits, ref_total, cand_total, Score(_f32(p), _f32(r), _f32(f)), detail)

    def combine(self, rtype, results):
        if len(results) == 1:
            return results[0].score, 0, None
        if self.multi_ref == "avg":
            import numpy as np

            vals = []
            for k in range(3):
                s = np.float32(0)
                for x in results:
                    s = np.float32(s + np.float32(x.score[k]))
                vals.append(float(s / np.float32(len(results))))
            # accumulate='avg': no reference is kept and nothing is pooled (the means of P, R and F)
            return Score(*vals), None, None
        best = 0
        for i in range(1, len(results)):
            if results[i].score.fmeasure > results[best].score.fmeasure:
                best = i
        return results[best].score, best, None

    def reported(self, scores):
        return {f"{t}_{k}": getattr(s, k) for t, s in scores.items() for k in ("fmeasure", "precision", "recall")}

    def call_snippet(self, n_refs):
        acc = "avg" if self.multi_ref == "avg" else "best"
        keys = tuple(self.type_names)
        return ("from torchmetrics.text import ROUGEScore\n"
                f"ROUGEScore(use_stemmer={self.stem}, accumulate={acc!r}, rouge_keys={keys!r})"
                f"([candidate], [{'references' if n_refs > 1 else '[reference]'}])")

    def aggregate(self, per_type):
        import numpy as np

        agg = {}
        for t, scores in per_type.items():
            vals = []
            for k in range(3):
                arr = np.array([s[k] for s in scores], dtype=np.float32)
                vals.append(float(arr.mean(dtype=np.float32)) if len(arr) else 0.0)
            agg[t] = Score(*vals)
        return agg, {"method": "mean", "note": "torchmetrics: the float32 mean of each value over the items"}, \
            self.reported(agg)
