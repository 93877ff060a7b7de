"""chrF's UI part (:class:`explainer.ui.families.base.UiFamily`): a link parameter per dialect and option (each
dialect keeps its own values: sacreBLEU's β = 2 and NLTK's β = 3 are two settings), written only when they differ
from the library's default; the headline's chrF; the section of :mod:`explainer.ui.chrf_section`."""
from __future__ import annotations

from explainer.ui.families.base import Computed, Number, UiFamily, option_label

__all__ = ["UI", "ChrfUi"]


class ChrfUi(UiFamily):
    name = "chrf"
    headline_order = 30
    corpus_cost = (3.0, 150.0)
    complete_links = False
    picker_help = "chrF++ is chrF with word n-grams too: word order 2 (sacreBLEU)."

    def option_param(self, dialect: str, option: str) -> str:
        return f"chrf_{dialect}_{option}"

    def option_widget_label(self, option: str) -> str:
        # the sidebar also shows BLEU's "lowercase": each widget's name says which it is
        return f"{option_label(option)} (chrF)"

    def dialect_label(self, dialect: str) -> str:
        cls = self.core.dialects.get(dialect)
        return f"{dialect} — {cls.label}" if cls is not None and cls.label else dialect

    def headline(self, computed: Computed) -> list[Number]:
        from explainer.ui import chrf_view as cview

        t = computed.trace
        if t is None:
            return [Number("chrF", "—", ("not computed: " + computed.error) if computed.error else "")]
        if t.library_error is not None:
            e = t.library_error
            return [Number("chrF", "fails", f"The real library raises {e.type} on this input: {e.explanation}.")]
        c = t.combination
        return [Number("chrF", cview.fmt_score(t),
                       f"{t.name} ({t.dialect}, native scale 0–{int(c.scale)}); exact value {c.score!r}")]

    def section(self, computed: Computed, *, n_refs: int) -> None:
        if computed.trace is None:
            super().section(computed, n_refs=n_refs)
            return
        from explainer.ui.chrf_section import chrf_section

        chrf_section(computed.trace)


UI = ChrfUi()
