"""TER's UI part (:class:`explainer.ui.families.base.UiFamily`): the headline's TER (an error rate: lower is
better) and the section of :mod:`explainer.ui.ter_section`."""
from __future__ import annotations

from explainer.options import OptionSpec
from explainer.ui.families.base import Computed, Number, UiFamily
from explainer.ui.pagestate import MAX_REFS, Field

__all__ = ["UI", "TerUi"]


class TerUi(UiFamily):
    name = "ter"
    headline_order = 40
    # sacreBLEU's shift search per character: the core's corpus call on WMT22 en-de (500 segments: 11 µs per
    # character, busy machine), rounded up
    corpus_cost = (12.0, 700.0)
    picker_help = "TER counts word edits and block shifts per reference word: lower is better."

    def headline(self, computed: Computed) -> list[Number]:
        from explainer.ui import ter_view as tv

        t = computed.trace
        if t is None:
            return [Number("TER", "—", ("not computed: " + computed.error) if computed.error else "")]
        if t.library_error is not None:
            e = t.library_error
            return [Number("TER", "fails", f"The real library raises {e.type} on this input: {e.explanation}.")]
        return [Number("TER", tv.fmt_score(t), f"{t.name} ({t.dialect}; an error rate: lower is better, 0 = the "
                                                f"reference itself); {t.num_edits:g} edits / {t.ref_length:g} "
                                                f"reference words; exact value {t.score!r}")]

    def explain(self, d, candidate, references, *, whole=False):
        """The trace within one view's work (``explainer.ui.budget.VIEW_TER_WORK``) unless ``whole``: then within
        the core's ``MAX_TRACE_WORK`` only."""
        from explainer.errors import TraceTooLarge
        from explainer.ter.algorithm import explain_segment
        from explainer.ter.limits import Budget
        from explainer.ui.budget import VIEW_TER_WORK, ViewWorkExceeded

        if whole:
            return self.core.explain(d, candidate, references)
        budget = Budget(VIEW_TER_WORK, named="more than one view of the page does at once "
                                             "(explainer.ui.budget.VIEW_TER_WORK)")
        try:
            return explain_segment(d, candidate, list(references), budget=budget)
        except TraceTooLarge as e:
            if budget.limit is None or budget.used <= budget.limit:
                raise       # the core's own limits: no click computes it
            raise ViewWorkExceeded(f"{e} Click “Compute TER for these texts” in the TER tab: up to the trace's "
                                   "own limit, about a second of the server's work.") from None

    def view_fields(self) -> tuple[Field, ...]:
        from explainer.ui.ter_section import REFERENCE_KEY

        return (Field(OptionSpec(REFERENCE_KEY, "int", 0, min=0, max=MAX_REFS - 1), REFERENCE_KEY, base=1,
                      what="a reference number", label="Show the alignment against"),)

    def section(self, computed: Computed, *, n_refs: int) -> None:
        if computed.trace is None:
            super().section(computed, n_refs=n_refs)
            return
        from explainer.ui.ter_section import ter_section

        ter_section(computed.trace)


UI = TerUi()
