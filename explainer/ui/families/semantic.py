"""The semantic family's UI part (:class:`explainer.ui.families.base.UiFamily`): on the Explain page both of its
scores at once — STS and BERTScore F, each with its own steps — since they read meaning two ways and a reader
compares them (the chosen dialect's options apply to it; the other is computed with its defaults); the other pages
use the chosen dialect (``DialectChoice``) as for every family."""
from __future__ import annotations

from typing import Sequence

from explainer.options import OptionSpec
from explainer.ui.families.base import Computed, DialectChoice, Number, UiFamily
from explainer.ui.pagestate import MAX_REFS, Field

__all__ = ["UI", "SemanticUi"]


class SemanticUi(UiFamily):
    name = "semantic"
    headline_order = 60
    # the model's passes: the core's corpus call on WMT22 en-de (150 segments, one BLAS thread: 190 µs per
    # character, 42 ms per segment, busy machine), rounded up
    corpus_cost = (200.0, 700.0)
    picker_help = ("Both scores are shown on the Explain page; the dialect picked here is the one the Corpus page, "
                   "the Gaming lab and the Teach page use.")

    def tab_label(self) -> str:
        return "Meaning (STS, BERTScore)"

    def compute(self, choice: DialectChoice, candidate: str, references: Sequence[str], *,
                whole: bool = False) -> Computed:
        """Every dialect's trace (the chosen one with its options, the others with their defaults), the chosen
        first, as one Computed whose trace is the tuple of them; unless ``whole``, only those whose model runs fit
        one view's work (``explainer.ui.budget.VIEW_SEMANTIC_WORK``), the rest left to a click."""
        from explainer.ui.budget import VIEW_SEMANTIC_WORK

        order = [choice.dialect] + [d for d in self.dialects() if d != choice.dialect]
        traces, errors, waiting, spent = [], [], [], 0
        for d in order:
            one = choice if d == choice.dialect else DialectChoice(self.name, d, {})
            cost = 0 if whole else _cost(one, candidate, references)   # after the runs before it: theirs are free
            if cost > VIEW_SEMANTIC_WORK - spent:
                waiting.append(_left_out(self.dialect_label(d), self.label, cost, VIEW_SEMANTIC_WORK - spent))
                continue
            spent += cost
            c = super().compute(one, candidate, references)
            if c.trace is not None:
                traces.append(c.trace)
            elif c.error:
                errors.append(c.error)
        if not traces:
            return Computed(error=(waiting + errors)[0] if waiting or errors else "not computed",
                            view_limited=bool(waiting))
        notes = [e for e in errors if e != errors[0]] if len(traces) == 1 and errors else []
        return Computed(tuple(traces), notes=notes + waiting, view_limited=bool(waiting))

    def headline(self, computed: Computed) -> list[Number]:
        from explainer.ui import semantic_view as sv

        if computed.trace is None:
            return [Number("STS / BERTScore", "—", ("not computed: " + computed.error) if computed.error else "")]
        out = []
        for t in computed.trace:
            fam = self.core
            d = fam.bind(t.dialect, **t.options)
            m = fam.main_measure(d)
            v = fam.trace_scores(t)[m.key]
            out.append(Number(m.label, sv.fmt(v), f"{m.label} with {t.model.name} (0–1, higher is closer in meaning; "
                                                  f"{t.dialect}); exact value {v!r}"))
        return out

    def signature(self, computed: Computed) -> str | None:
        if computed.trace is None:
            return None
        return "\n".join(f"{t.dialect} signature: {t.signature}" for t in computed.trace)

    def view_fields(self) -> tuple[Field, ...]:
        from explainer.ui.semantic_section import REFERENCE_KEY

        return (Field(OptionSpec(REFERENCE_KEY, "int", 0, min=0, max=MAX_REFS - 1), REFERENCE_KEY, base=1,
                      what="a reference number", label="Show the matches against"),)

    def section(self, computed: Computed, *, n_refs: int) -> None:
        if computed.trace is None:
            super().section(computed, n_refs=n_refs)
            return
        from explainer.ui import semantic_section as ss

        for t in computed.trace:
            (ss.bertscore_section if hasattr(t, "pairs") else ss.sts_section)(t)
        self.more_button(computed)
        ss.blind_spots(computed.trace[0].blind_spots)

    def trace_dict(self, computed: Computed) -> dict | None:
        if computed.trace is None:
            return None
        return {t.dialect: t.to_dict() for t in computed.trace}


def _cost(choice: DialectChoice, candidate: str, references: Sequence[str]) -> int:
    """The model's work for this dialect's trace (``explainer.semantic.embed.run_cost``), counted from the word
    pieces before the model runs; 0 when the texts are refused (the core then says why)."""
    from explainer.semantic.algorithm import segment_cost

    try:
        return segment_cost(choice.bind(), candidate, references)
    except Exception:  # noqa: BLE001 - refused or failing: compute says why
        return 0


def _left_out(label: str, family: str, cost: int, left: int) -> str:
    from explainer.ui.budget import VIEW_SEMANTIC_WORK

    return (f"{label} is not computed yet: the model would run over {cost:,} units of word pieces "
            f"(explainer.semantic.embed.run_cost), more than the {max(left, 0):,} left of what one view of the page "
            f"does at once ({VIEW_SEMANTIC_WORK:,}, explainer.ui.budget.VIEW_SEMANTIC_WORK). Click “Compute "
            f"{family} for these texts” in its tab (about a quarter of a millisecond of the server's work per unit).")


UI = SemanticUi()
