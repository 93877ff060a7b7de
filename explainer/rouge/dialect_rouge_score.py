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
    search_splits,
    stemmer_option,
    tokenizer_option,
)
from explainer.search_space import UNUSUAL_COST, point

__all__ = ["RougeScoreDialect"]

#: the library's tokenizer and the opt-in ones, in the reproduce search: (name, cost, words)
SEARCH_TOKENIZERS = (
    ("rouge-score", 0.0, ""),
    ("unicode", 2.0, "unicode tokenizer (not a library default)"),
    ("whitespace", UNUSUAL_COST, "whitespace tokens keeping case and punctuation (text.split(); not a library "
                                 "default)"),
)
#: a corpus score: the implementation's bootstrap mid, or the mean of the per-document scores (aggregation, cost,
#: words)
SEARCH_AGGREGATIONS = (("bootstrap", 0.0, ""), ("mean", 0.5, "the mean of the per-document scores "
                                                            "(-o aggregate=mean)"))


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
    def search_configs(cls, context):
        """Stemming, tokenizer (its own, the opt-in unicode one, and text.split() keeping case and punctuation as
        hand-written code does: that code does not stem); one segment: the Lsum sentence splitting; a corpus: its
        bootstrap mid or the mean of the per-document scores."""
        out = []
        if context.corpus:
            for stem in (False, True):
                for tok, tc, tw in SEARCH_TOKENIZERS:
                    if stem and tc >= UNUSUAL_COST:
                        continue
                    for agg, ac, aw in SEARCH_AGGREGATIONS:
                        opts = _options(stem, tok)
                        if agg != "bootstrap":
                            opts["aggregate"] = agg
                        out.append(point(opts, tc + ac, "use_stemmer=True" if stem else "", tw, aw,
                                         aggregation=agg))
            return out
        for split, sc, sw in search_splits(context):
            for stem in (False, True):
                for tok, tc, tw in SEARCH_TOKENIZERS:
                    if stem and tc >= UNUSUAL_COST:
                        continue
                    out.append(point(_options(stem, tok), sc + tc, "use_stemmer=True" if stem else "", tw, sw,
                                     lsum_split=split))
        return out

    @classmethod
    def comparison_rows(cls, texts=()):
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


def _options(stem: bool, tokenizer: str) -> dict:
    """The options of a search point (the library's own tokenizer is the default)."""
    opts: dict = {}
    if stem:
        opts["use_stemmer"] = True
    if tokenizer != SEARCH_TOKENIZERS[0][0]:
        opts["tokenizer"] = tokenizer
    return opts
