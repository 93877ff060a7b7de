"""chrF's part of the Dialects page (issue 23; ``part.DialectsView``): sacreBLEU's chrF2, chrF2++ and eps
smoothing against NLTK's chrF (β = 3, its default, and β = 2) on the page's texts, from
:func:`explainer.dialectcmp.chrf_compare.segment_comparison` (the ``dialects --metric chrf`` command's data): a
table with each row's Explain link, a chart of the scores on one 0–100 axis, and the first step where two rows
disagree. Row labels are ours; user text never reaches HTML here (the cells of a divergence are shown in a table,
as data).

Pure helpers (``rows_table``, ``scores_figure``, ``divergence_rows``, also the Corpus page's) and the view
(:data:`VIEW`).
"""
from __future__ import annotations

import json
import urllib.parse
from typing import Any, Mapping, Sequence

import plotly.graph_objects as go

from explainer.ui import charts
from explainer.ui.dialects.part import DialectsView

__all__ = ["rows_table", "scores_figure", "divergence_rows", "explain_query", "ChrfView", "VIEW", "STEP_WORDS"]

STEP_WORDS = {"references": "the references compared with", "characters": "the characters read",
              "orders": "the n-gram orders", "counts": "the clipped counts", "beta": "β",
              "per-order F": "the per-order F", "averaging": "the averaging", "score": "the score"}


def _num(x, digits: int = 4) -> str:
    return f"{x:.{digits}f}" if isinstance(x, float) else str(x)


def explain_query(dialect: str, options: Mapping[str, Any], candidate: str, references: Sequence[str], *,
                  base=None) -> dict:
    """The Explain page's parameters that show this chrF configuration (the BLEU and ROUGE settings: ``base``)."""
    from explainer.ui.settings import configuration_link

    return configuration_link("chrf", dialect, options, candidate, references, base=base)


def explain_link(dialect: str, options: Mapping[str, Any], candidate: str, references: Sequence[str], *,
                 base=None) -> str:
    q = explain_query(dialect, options, candidate, references, base=base)
    return "./?" + urllib.parse.urlencode(q, doseq=True, quote_via=urllib.parse.quote)


def rows_table(res: dict, candidate: str, references: Sequence[str], *, base=None) -> list[dict]:
    """The side-by-side table: per row its score (0–100 and as the library reports it), the first difference
    from row 1, an Explain link, the averaging, the per-order F and the signature."""
    first = {p["b"]: p for p in res["pairs"] if p["a"] == res["rows"][0]["id"]}
    out = []
    for i, r in enumerate(res["rows"]):
        step = "(reference row)" if i == 0 else STEP_WORDS.get(first.get(r["id"], {}).get("first_step"), "same score")
        out.append({"implementation": r["label"], "score 0–100": _num(r["score"]),
                    "as the library reports it": _num(r["native_score"], 6 if r["scale"] == 1 else 4),
                    "first difference from row 1": step,
                    "explain": explain_link(r["dialect"], r["options"], candidate, references, base=base),
                    "name": r["name"], "averaging": r["averaging"],
                    "F per order": "  ".join(f"{o['kind'][0]}{o['n']} {o['f']:.4f}" for o in r["orders"]),
                    "signature": r["signature"], "warnings": " ".join(r["warnings"])})
    return out


def scores_figure(res: dict) -> go.Figure:
    """Horizontal bars: every row's score on one 0–100 axis (label: the number the library reports)."""
    rows = list(reversed(res["rows"]))
    labels = [charts.plotly_escape(r["label"]) for r in rows]
    texts = [_num(r["native_score"], 6 if r["scale"] == 1 else 4) for r in rows]
    colours = [charts.BLUE if r is res["rows"][0] else charts.ORANGE for r in rows]
    data = [dict(type="bar", orientation="h", y=labels, x=[r["score"] for r in rows], text=texts,
                 textposition="outside", cliponaxis=False, marker=dict(color=colours),
                 hovertemplate="%{y}: %{x:.6g} on 0–100<extra></extra>")]
    layout = dict(title=dict(text="chrF of every implementation, on one 0–100 axis (label: the number it reports)",
                             font=dict(size=17)), font=charts.FONT, height=90 + 34 * len(rows),
                  margin=dict(l=220, r=140, t=60, b=40), xaxis=dict(range=[0, 105], title=dict(text="0–100")),
                  showlegend=False)
    return go.Figure({"data": data, "layout": layout})


def divergence_rows(pair: dict, label_a: str, label_b: str) -> list[dict]:
    """The two cells of the first differing step, as table rows (JSON text: the values as the traces hold them)."""
    cells = pair.get("cells") or {}
    return [{"row": label, "value at this step": json.dumps(cells.get(side), ensure_ascii=False)[:2000]}
            for side, label in (("a", label_a), ("b", label_b)) if side in cells]


# ------------------------------------------------------------------------------------------------ the view
class ChrfView(DialectsView):
    """chrF's part of the Dialects page: ``rows_table``, ``scores_figure`` and the first divergence as a sentence
    with both cells in a table (``divergence_rows``), over ``explainer.dialectcmp.chrf_compare``'s comparison."""

    @property
    def caption(self) -> str:
        return ("sacreBLEU's CHRF (chrF2, chrF2++, eps smoothing) and NLTK's chrf_score (β = 3, its default, and "
                "β = 2) on these texts; “open” shows that configuration step by step on the Explain page (chrF tab).")

    def table(self, cmp, candidate, references, *, base=None) -> list[dict]:
        return rows_table(cmp.to_dict(), candidate, references, base=base)

    def figure(self, cmp) -> go.Figure:
        return scores_figure(cmp.to_dict())

    def show_divergence(self, cmp, div) -> None:
        import pandas as pd
        import streamlit as st

        from explainer.ui import highlight as hl

        labels = {r.id: r.label for r in cmp.rows}
        step = STEP_WORDS.get(div["first_step"], "none: the same score")
        st.markdown(f"**First divergence: {hl.md_escape(step)}** — {hl.md_escape(div['why'])}")
        if div.get("cells"):
            st.dataframe(pd.DataFrame(divergence_rows(div, labels[div["a"]], labels[div["b"]])), hide_index=True,
                         width="stretch")


VIEW = ChrfView("chrf")
