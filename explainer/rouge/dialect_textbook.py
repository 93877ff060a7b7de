"""The textbook's from-scratch ROUGE-N and ROUGE-L: ``text.lower().split()`` tokens (punctuation
stays attached), clipped n-gram matches, LCS over the whole token list, F1. It defines nothing else: no
ROUGE-Lsum/W/S, no corpus aggregation (a corpus is the plain mean). See docs/dialects-rouge.md."""
from __future__ import annotations

from explainer.options import OptionSpec
from explainer.rouge.aggregate import mean_scores
from explainer.rouge.dialects import RougeDialect, multi_ref_option
from explainer.search_space import point

__all__ = ["TextbookDialect"]


class TextbookDialect(RougeDialect):
    name = "textbook"
    label = "textbook: from-scratch ROUGE-N and ROUGE-L"
    description = ("The textbook's own functions: text.lower().split() tokens (punctuation stays attached), "
                   "clipped n-gram matches, LCS over the whole token list, F1. Defines ROUGE-N and ROUGE-L only.")
    native_kinds = frozenset({"N", "L"})
    supported_kinds = frozenset({"N", "L"})
    short_label = "the textbook"
    rank = 5

    @classmethod
    def search_configs(cls, context):
        """Its one configuration (a corpus: the plain mean)."""
        return [point({}, 1.0, aggregation="mean" if context.corpus else "")]

    @classmethod
    def comparison_rows(cls, texts=()):
        return [{"options": {}, "id": cls.name, "label": "Textbook",
                 "note": "the textbook's rouge_n / rouge_l: lowercase + whitespace"}]
    default_types = ("rouge1", "rouge2", "rougeL")   # the textbook has no rougeLsum
    OPTIONS = (multi_ref_option(),
               OptionSpec("tokenizer", "choice", "whitespace-lower", "the textbook's tokenizer: text.lower().split()",
                          choices=("whitespace-lower",), label="tokenizer"))

    def check_types(self, types):
        for rtype in types:
            if rtype.kind not in self.supported_kinds:
                raise ValueError(f"the textbook dialect defines only ROUGE-N and ROUGE-L, not "
                                 f"{rtype.name}")
        return []

    def call_snippet(self, n_refs):
        if n_refs != 1:
            return None
        lines = [f"rouge_n(candidate, reference, n={t.n})" if t.kind == "N" else "rouge_l(candidate, reference)"
                 for t in self.types]
        return "# the textbook's own functions\n" + "\n".join(lines)

    def aggregate(self, per_type):
        agg = mean_scores(per_type)
        return agg, {"method": "mean", "note": "the textbook does not aggregate; plain mean"}, \
            {t: s.to_dict() for t, s in agg.items()}
