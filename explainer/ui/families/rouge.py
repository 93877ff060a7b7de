"""ROUGE's UI part (:class:`explainer.ui.families.base.UiFamily`): its link names, its types as a family value,
the headline's four types, the trace with the types a dialect does not define or cannot afford left out."""
from __future__ import annotations

from typing import Sequence

from explainer.options import OptionSpec
from explainer.ui.families.base import Computed, DialectChoice, Number, UiFamily
from explainer.ui.pagestate import Field

__all__ = ["UI", "RougeUi", "TYPE_CHOICES", "TYPES_PARAM"]

_PARAMS = {"use_stemmer": "stem", "multi_ref": "multi_ref", "tokenizer": "rouge_tokenize"}
TYPE_CHOICES = ("rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum", "rougeW-1.2",
                "rougeS4", "rougeSU4", "rougeS*", "rougeSU*")
TYPES_PARAM = "rouge_types"     # the link's name and the widget's session key
HEADLINE = (("ROUGE-1", "rouge1"), ("ROUGE-2", "rouge2"), ("ROUGE-L", "rougeL"), ("ROUGE-Lsum", "rougeLsum"))


def default_types() -> tuple[str, ...]:
    from explainer.rouge import DEFAULT_TYPES

    return tuple(DEFAULT_TYPES)


class RougeUi(UiFamily):
    name = "rouge"
    headline_order = 20
    corpus_cost = (0.9, 700.0)
    picker_help = "W = weighted LCS, S = skip-bigrams (max gap 4 or unlimited *), SU = S + unigrams."

    def option_param(self, dialect: str, option: str) -> str:
        return _PARAMS.get(option, f"rouge_{option}")

    def dialect_label(self, dialect: str) -> str:
        from explainer.rouge import get_dialect

        d = get_dialect(dialect)
        return f"{dialect} — {d.label}" if d.label else dialect

    def extra_fields(self) -> tuple[Field, ...]:
        return (Field(OptionSpec(TYPES_PARAM, "choice", default_types(), choices=TYPE_CHOICES), TYPES_PARAM,
                      multi=True, label="ROUGE types"),)

    def extra_option(self, f: Field) -> str:
        return "types"

    def supported(self, choice: DialectChoice) -> tuple[tuple[str, ...], list[str]]:
        """(types the chosen dialect defines, names it does not)."""
        from explainer.rouge import get_dialect, parse_type

        d = get_dialect(choice.dialect)
        ok, bad = [], []
        for t in choice.options.get("types", ()) or ():
            (ok if parse_type(t).kind in d.supported_kinds else bad).append(t)
        return tuple(ok), bad

    def usable(self, choice: DialectChoice) -> DialectChoice:
        ok = self.supported(choice)[0] or tuple(t for t in ("rouge1", "rouge2", "rougeL")
                                                if t in self.supported(choice.replace(types=TYPE_CHOICES))[0])
        return choice.replace(types=ok)

    def compute(self, choice: DialectChoice, candidate: str, references: Sequence[str], *,
                whole: bool = False) -> Computed:
        """The chosen types' trace; unless ``whole``, only the types that fit one view's work (the rest left to a
        click, :mod:`explainer.ui.view_more`); the core's own limits hold either way."""
        from explainer.rouge.limits import SummaryWorkTooLarge
        from explainer.ui.budget import left_out_note, plan_rouge

        types, dropped = self.supported(choice)
        notes = []
        if dropped:
            notes.append(f"{', '.join(dropped)} {'is' if len(dropped) == 1 else 'are'} not defined by the "
                         f"{choice.dialect} dialect and left out.")
        plan = plan_rouge(choice.replace(types=types), candidate, references)   # the view's work budget
        limited = bool(plan.left_out) and not whole
        notes += [left_out_note(plan)] if limited else []
        types = types if whole else plan.types
        if not types:
            return Computed(error="No other ROUGE type is selected." if dropped or plan.left_out else
                            "No ROUGE type is selected.", notes=notes)
        asked = tuple(choice.options.get("types", ()) or ())
        try:
            computed = self._traced(choice.replace(types=types), candidate, references, notes, asked)
            computed.recheck = plan.rescore
            computed.view_limited = limited
            return computed
        except SummaryWorkTooLarge as e:     # refused before any work: show the other types, say why not these
            rest = tuple(t for t in types if t not in e.types)
            why = "; ".join(e.reasons.values())
            notes.append(f"{', '.join(e.types)} {'is' if len(e.types) == 1 else 'are'} left out: {why}. Shorten the "
                         "texts, use fewer references or put fewer sentences on separate lines to see "
                         + ("it." if len(e.types) == 1 else "them."))
            if not rest:
                return Computed(error="No other ROUGE type is selected.", notes=notes)
            try:
                computed = self._traced(choice.replace(types=rest), candidate, references, notes, asked)
                computed.recheck = tuple(t for t in plan.rescore if t in rest)
                return computed
            except ValueError as e2:
                return Computed(error=str(e2), notes=notes)
        except ValueError as e:
            return Computed(error=str(e), notes=notes)

    def _traced(self, choice: DialectChoice, candidate, references, notes, asked) -> Computed:
        d = choice.bind()
        return Computed(self.core.explain(d, candidate, references), notes=notes, dialect=d, asked=asked)

    def headline(self, computed: Computed) -> list[Number]:
        from explainer.ui import rouge_view as rv

        t, out = computed.trace, []
        for label, key in HEADLINE:
            if t is not None and key in t.scores:
                s = t.scores[key]
                out.append(Number(label, rv.fmt_score(s.fmeasure),
                                  f"F-measure ({t.dialect}, 0–1). P {s.precision!r}, R {s.recall!r}, F {s.fmeasure!r}"))
            else:
                why = ("left out for these texts: see the note above" if t is not None and key in computed.asked else
                       "not selected in the ROUGE types (sidebar)" if t is not None else
                       ("not computed: " + computed.error) if computed.error else "")
                out.append(Number(label, "—", why))
        return out

    def section(self, computed: Computed, *, n_refs: int) -> None:
        if computed.trace is None:
            super().section(computed, n_refs=n_refs)
            return
        from explainer.ui.rouge_section import rouge_section

        self.more_button(computed)
        rouge_section(computed.trace, n_refs)

    def diagnosis(self, computed: Computed) -> list:
        from explainer.analysis import counterfactuals, diagnosis

        t = computed.trace
        if t is None:
            return []
        out = diagnosis.diagnose_rouge(t, stemmed=counterfactuals.rouge_with_stemming(t, computed.recheck))
        unchecked = [n for n in t.scores if computed.recheck is not None and n not in computed.recheck]
        if unchecked and (t.options or {}).get("use_stemmer") is False:
            out.append(diagnosis.Finding("info", "Stemming not checked", f"Whether stemming would change "
                                         f"{', '.join(unchecked)} is not checked for these texts: scoring them again "
                                         "is more work than one view may do on the server.", "stemming_unchecked"))
        return out


UI = RougeUi()
