"""The Dialects page's chrF side by side (issue 23): sacreBLEU's chrF2, chrF2++ and eps smoothing against NLTK's
chrF (β = 3, its default, and β = 2) on the page's texts, from :func:`explainer.dialectcmp.chrf_compare.compare_chrf`
(the ``dialects --metric chrf`` command's data): a table with each row's Explain link, a chart of the scores on one
0–100 axis, and the first step where two rows disagree. Row labels are ours; user text never reaches HTML here
(the cells of a divergence are shown in a table / code box, as data).

Pure helpers (``rows_table``, ``scores_figure``, ``divergence_rows``) and the Streamlit part (:func:`compare`).
"""
from __future__ import annotations

import json
import urllib.parse
from typing import Any, Mapping, Sequence

import plotly.graph_objects as go

from explainer.ui import charts

__all__ = ["rows_table", "scores_figure", "divergence_rows", "explain_query", "compare", "STEP_WORDS"]

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


# ------------------------------------------------------------------------------------------------ Streamlit
def compare(cand: str, refs: list[str], shared, *, base=None) -> None:
    """The chrF side by side on the page (``shared(kind, fn)``: the page's once-per-texts computation)."""
    import pandas as pd
    import streamlit as st

    from explainer.dialectcmp.chrf_compare import compare_chrf
    from explainer.ui import highlight as hl
    from explainer.ui import pagestate as ps

    try:
        res = shared("dialects:chrf", lambda: compare_chrf(cand, refs))
    except ValueError as e:
        st.error(hl.md_escape(str(e)))
        return
    st.subheader("Every implementation side by side")
    st.caption("sacreBLEU's CHRF (chrF2, chrF2++, eps smoothing) and NLTK's chrf_score (β = 3, its default, and "
               "β = 2) on these texts; “open” shows that configuration step by step on the Explain page (chrF tab).")
    st.dataframe(pd.DataFrame(rows_table(res, cand, refs, base=base)), hide_index=True, width="stretch",
                 column_config={"explain": st.column_config.LinkColumn("Explain", display_text="open")})
    st.plotly_chart(scores_figure(res), width="stretch", config={"displayModeBar": False})
    st.subheader("Where do two of them first disagree?")
    ids = [r["id"] for r in res["rows"]]
    labels = {r["id"]: r["label"] for r in res["rows"]}
    a0 = ps.choice("dl_a", ids, ids[0])
    other = next(i for i in ids if i != a0)
    if st.session_state.get("dl_b") == a0:
        st.session_state["dl_b"] = other
    ps.choice("dl_b", ids, other)
    c1, c2 = st.columns(2)
    with c1:
        a = st.selectbox("Row A", ids, key="dl_a", format_func=lambda i: labels.get(i, str(i)))
    with c2:
        b = st.selectbox("Row B", ids, key="dl_b", format_func=lambda i: labels.get(i, str(i)))
    if a == b:
        st.info("Pick two different rows.")
        return
    pair = next((p for p in res["pairs"] if p["a"] == a and p["b"] == b), None)
    if pair is None:
        pair = shared(f"dialects_pair:chrf:{a}:{b}", lambda: compare_chrf(cand, refs, [(a, b)])["pairs"][0])
    step = STEP_WORDS.get(pair["first_step"], "none: the same score")
    st.markdown(f"**First divergence: {hl.md_escape(step)}** — {hl.md_escape(pair['why'])}")
    if pair.get("cells"):
        st.dataframe(pd.DataFrame(divergence_rows(pair, labels[a], labels[b])), hide_index=True, width="stretch")
    st.download_button("Download the comparison (JSON)", json.dumps(res, ensure_ascii=False, indent=1),
                       file_name="dialects-chrf.json", mime="application/json", key="dl_dl_cmp",
                       icon=":material/download:")
