"""A family's part of the Dialects page's side by side: the controls above the table, the table, the chart and the
panel of the first divergence of two rows. :class:`DialectsView` is the generic part every registered family gets
(TER; a family registered later): a row per dialect and notable option combination with each of the family's
numbers, the options that set a row apart, and the difference of two rows named by option
(``explainer.dialectcmp.generic_compare``). BLEU, ROUGE and chrF have their own, in modules named after them,
registered in ``explainer/ui/dialects/views.py``.

The table, chart and panel HTML are pure (``table``, ``figure``, ``divergence_html``); ``show_divergence`` and
``controls`` draw with Streamlit.
"""
from __future__ import annotations

import html
from typing import Sequence

from explainer.ui.dialects import steps_html as sh

__all__ = ["DialectsView"]


def _value(v) -> str:
    from explainer.options import format_value

    return "(default)" if v is None else format_value(v)


class DialectsView:
    """The generic view of one family's comparison (see the module's docstring)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def own_fields(self) -> tuple:
        """Hook: the page-state fields of this view's own controls (``explainer.ui.pagestate.Field``; ROUGE's
        headline type), in the page's link only while the family is shown."""
        return ()

    @property
    def family(self):
        from explainer.families import get_family

        return get_family(self.name)

    @property
    def caption(self) -> str:
        return (f"One row per {self.family.label} implementation and per setting people change; the last column "
                "but one says how the row first differs from the first row. “open” shows that configuration step by "
                "step on the Explain page.")

    def controls(self) -> tuple:
        """Hook: widgets above the table (Streamlit); returns the family's types to compare (none here)."""
        return ()

    def trap_settings(self, settings, types: Sequence[str]):
        """The page's settings for the traps: the family's defaults, with the types compared where it has types."""
        return settings.replace(settings[self.name].replace(types=tuple(types))) if types else settings

    # ------------------------------------------------------------------------------------------ pure parts
    def table(self, cmp, candidate: str, references: Sequence[str], *, base=None) -> list[dict]:
        """One record per row: each of the family's numbers, the first difference from row 1, the Explain link,
        the options the row sets, the signature."""
        return sh.ordered_table(cmp, self._record, len(cmp.rows[0].data["measures"]), base=base)

    def _record(self, row) -> dict:
        d = row.data
        rec = {"implementation": row.label}
        for key, label in d["measures"].items():
            rec[label] = sh.num(d["scores"].get(key))
        rec["options"] = ", ".join(f"{k}={v}" for k, v in sorted(d["given"].items())) or "(defaults)"
        rec["signature"] = d.get("signature", "")
        return rec

    def figure(self, cmp):
        """Every row's headline number on its own scale (TER: lower is better, and may exceed 100)."""
        rows = cmp.rows
        xs = [r.data["score"] or 0.0 for r in rows]
        texts = [sh.num(r.data["score"]) for r in rows]
        d0 = rows[0].data
        label = d0["measures"][d0["measure"]]
        top = max([float(d0["scale"])] + [x * 1.05 for x in xs])
        better = "higher is better" if d0["higher_is_better"] else "lower is better"
        return sh.bars_figure(cmp, xs, texts, f"{label} of every implementation ({better})",
                              x_range=(0, top), x_title=f"0–{sh.num(d0['scale'])}")

    def divergence_html(self, cmp, div) -> str:
        """The sentence, then each option or number that differs, both rows' values side by side (escaped)."""
        la, lb = cmp.row(div.a).label, cmp.row(div.b).label
        rows = []
        for c in div.cells:
            if c.get("kind") == "option":
                rows.append((c["name"], _value(c["a"]), _value(c["b"])))
            elif c.get("kind") == "score":
                rows.append((cmp.row(div.a).data["measures"].get(c["field"], c["field"]),
                             sh.num(cmp.row(div.a).data["scores"].get(c["field"])),
                             sh.num(cmp.row(div.b).data["scores"].get(c["field"]))))
        table = ""
        if rows:
            head = (f"<tr><th>what</th><th>{html.escape(la)}</th><th>{html.escape(lb)}</th></tr>")
            body = "".join("<tr>" + sh.td(w, False, True) + sh.td(x, True) + sh.td(y, True) + "</tr>"
                           for w, x, y in rows)
            table = f'<div class="dl-scroll"><table class="dl-steps">{head}{body}</table></div>'
        return sh.divergence_block(div) + table

    # ------------------------------------------------------------------------------------------ Streamlit
    def show_divergence(self, cmp, div) -> None:
        """The first divergence of the two rows picked."""
        import streamlit as st

        from explainer.ui import highlight as hl

        st.html(hl.STYLE + sh.STYLE + self.divergence_html(cmp, div))
