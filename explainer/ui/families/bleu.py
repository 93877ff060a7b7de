"""BLEU's UI part (:class:`explainer.ui.families.base.UiFamily`): its link names, headline, section, diagnosis."""
from __future__ import annotations

from explainer.ui.families.base import Computed, Download, Number, UiFamily

__all__ = ["UI", "BleuUi"]

# The link's names where an option has one meaning across BLEU dialects (the rest: bleu_<option>)
_PARAMS = {"tokenize": "tokenize", "lowercase": "lowercase", "smooth_method": "smooth", "smoothing": "smooth",
           "smooth": "smooth", "smooth_value": "smooth_value", "max_ngram_order": "max_order",
           "max_order": "max_order", "max_n": "max_order", "effective_order": "effective_order"}


class BleuUi(UiFamily):
    name = "bleu"
    headline_order = 10
    corpus_cost = (1.3, 100.0)

    def option_param(self, dialect: str, option: str) -> str:
        return _PARAMS.get(option, f"bleu_{option}")

    def dialect_label(self, dialect: str) -> str:
        cls = self.core.dialects.get(dialect)
        return f"{dialect} — {cls.implementation}" if cls is not None and cls.implementation else dialect

    def headline(self, computed: Computed) -> list[Number]:
        from explainer.ui import bleu_view as bv

        t = computed.trace
        if t is None:
            return [Number("BLEU", "—", ("not computed: " + computed.error) if computed.error else "")]
        if t.library_error is not None:
            e = t.library_error
            return [Number("BLEU", "fails", f"The real {t.implementation} raises {e.type} on this input: "
                                            f"{e.explanation}. (The trace continues with {t.score!r}.)")]
        return [Number("BLEU", bv.headline(t.score, t.scale),
                       f"{t.dialect}, native scale 0–{int(t.scale)}; exact value {t.score!r}")]

    def section(self, computed: Computed, *, n_refs: int) -> None:
        if computed.trace is None:
            super().section(computed, n_refs=n_refs)
            return
        from explainer.ui.bleu_section import bleu_section

        bleu_section(computed.trace)

    def diagnosis(self, computed: Computed) -> list:
        from explainer.analysis import counterfactuals, diagnosis

        t = computed.trace
        if t is None:
            return []
        return diagnosis.diagnose_bleu(
            t, alternatives=counterfactuals.bleu_other_entry_point(t),
            tokenizer_scores=(counterfactuals.bleu_with_tokenizers(t) if diagnosis.has_spaceless_text(t) else None))

    def downloads(self, computed: Computed) -> list[Download]:
        if computed.trace is None:
            return []
        from explainer.ui.bleu_section import ngram_csv

        t = computed.trace
        return [Download("BLEU n-gram table (CSV)", lambda: ngram_csv(t), "bleu_ngrams.csv", "text/csv", "dl_csv")]


UI = BleuUi()
