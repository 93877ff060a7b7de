"""rouge-score 0.1.2 (google-research) ``RougeScorer``: its own tokenizer (lowercase, only a-z 0-9), optional NLTK
Porter stemming, rougeL over all tokens, rougeLsum over newline-separated sentences (or ``nltk.sent_tokenize``
with ``split_summaries``), F1, ``score_multi`` keeping the best F per type; corpus: its BootstrapAggregator.
See docs/dialects-rouge.md."""
from __future__ import annotations

from explainer.options import OptionSpec
from explainer.rouge.dialects import (
    RougeDialect,
    bootstrap_corpus_options,
    multi_ref_option,
    stemmer_option,
    tokenizer_option,
)

__all__ = ["RougeScoreDialect"]


class RougeScoreDialect(RougeDialect):
    name = "rouge-score"
    label = "rouge-score 0.1.2 (google-research)"
    description = ("rouge-score's RougeScorer: its own tokenizer (lowercase, only a-z 0-9), optional NLTK Porter "
                   "stemming, rougeL over all tokens, rougeLsum over newline-separated sentences, F1, "
                   "score_multi keeps the best F per type.")
    OPTIONS = (stemmer_option(), multi_ref_option(), tokenizer_option(),
               OptionSpec("split_summaries", "bool", False,
                          "rougeLsum: split sentences with nltk.sent_tokenize instead of newlines "
                          "(needs NLTK punkt_tab)",
                          label="split sentences with NLTK (not newlines)"),
               *bootstrap_corpus_options())
    short_label = "rouge-score"
    search_multi_ref = (("best-f", 0.0, ""), ("pool", 1.5, "references pooled (as ROUGE-1.5.5 -f A)"),
                        ("best-recall", 1.5, "best-recall reference (as ROUGE-1.5.5 -f B)"))
    rank = 0

    @classmethod
    def comparison_rows(cls):
        return [{"options": {}, "id": cls.name, "label": "rouge-score",
                 "note": "rouge-score RougeScorer, no stemming, best-F reference"},
                {"options": {"use_stemmer": True}, "id": "rouge-score:stem", "label": "rouge-score (stemmer)",
                 "note": "rouge-score with use_stemmer=True"}]

    def call_snippet(self, n_refs):
        o = self.options
        if o["tokenizer"] != "rouge-score" or any(t.kind not in self.native_kinds for t in self.types):
            return None
        args = [repr(self.type_names), f"use_stemmer={self.stem}"]
        if o["split_summaries"]:
            args.append("split_summaries=True")
        head = f"from rouge_score import rouge_scorer\nscorer = rouge_scorer.RougeScorer({', '.join(args)})\n"
        if n_refs == 1:
            return head + "scores = scorer.score(target=reference, prediction=candidate)  # reference FIRST"
        if self.multi_ref != "best-f":
            return None
        return head + "scores = scorer.score_multi(targets=references, prediction=candidate)  # best F per type"
