"""BLEU's part of the Dialects page (``part.DialectsView``): the table of every implementation with its counts,
totals, lengths, brevity penalty, smoothing and tokenizer; the chart on one 0–1 axis; and each side of a
divergence with the tokens the implementation compared and its step table (matches, totals, precision used,
smoothing, c and r, BP, score), the differing cells marked."""
from __future__ import annotations

import html

from explainer.ui.dialects import steps_html as sh
from explainer.ui.dialects.part import DialectsView

__all__ = ["BleuView", "VIEW"]


def _text_parts(trace, ref: int | None):
    """(text, tokens compared, the same tokens as located in the text, starts, ends) of the candidate (ref None)
    or reference ``ref``."""
    t = trace.candidate if ref is None else trace.references[ref]
    toks = list(t.token_texts)
    return t.text, toks, toks, list(t.starts), list(t.ends)


def _failure_text(trace, cell: dict) -> str:
    """The real library's exception on this side, escaped."""
    err = trace.library_error or trace.combination.library_error
    return html.escape(f"{err.type}: {err.message}") if err else ""


def _bleu_steps(trace, div, side: str) -> str:
    comb = trace.combination
    hit_orders = {(c["n"], c["field"]) for c in div.cells if c.get("kind") == "order"}
    rows = []
    for o in comb.orders:
        rows.append("<tr>" + sh.td(f"{o.n}-gram", False, True)
                    + sh.td(sh.num(o.matches), (o.n, "matches") in hit_orders)
                    + sh.td(sh.num(o.totals), (o.n, "totals") in hit_orders)
                    + sh.td(sh.num(o.precision, 6), (o.n, "precision") in hit_orders)
                    + sh.td(o.smoothing, (o.n, "precision") in hit_orders) + "</tr>")
    kinds = {c.get("kind") for c in div.cells}
    refs = sh.cells_of(div, side, "reference")
    ref_note = ""
    if refs and hasattr(trace, "references"):
        lens = [len(r.token_texts) for r in trace.references]
        ref_note = " (reference lengths " + ", ".join(
            (f"[{L}]" if k in refs[0]["refs"] else str(L)) for k, L in enumerate(lens)) + ")"
    extra = ("<tr>" + sh.td("c, r", False, True) + sh.td(comb.c, False) + sh.td(comb.r, "ref_length" in kinds)
             + sh.td(ref_note.strip(" ()") or "", "ref_length" in kinds) + sh.td("", False) + "</tr>"
             + "<tr>" + sh.td("BP", False, True) + sh.td(sh.num(comb.bp, 6), "bp" in kinds)
             + sh.td(comb.bp_branch, "bp" in kinds) + sh.td("", False) + sh.td("", False) + "</tr>"
             + "<tr>" + sh.td("score", False, True) + sh.td(sh.num(comb.bleu, 6) + " (0–1)", "score" in kinds)
             + sh.td(f"{sh.num(comb.score, 6)} (0–{sh.num(comb.scale)})", "score" in kinds)
             + sh.td(comb.early_exit or f"effective order {comb.effective_order}", "score" in kinds) + sh.td("", False)
             + "</tr>")
    return ('<div class="dl-scroll"><table class="dl-steps"><tr><th>step</th><th>matches</th><th>totals</th>'
            "<th>precision used</th><th>smoothing</th></tr>" + "".join(rows) + extra + "</table></div>")


class BleuView(DialectsView):
    @property
    def caption(self) -> str:
        return ("One row per implementation and setting people use; the last column says at which step the row "
                "first differs from the first row. “open” shows that configuration step by step on the Explain "
                "page.")

    def table(self, cmp, candidate, references, *, base=None) -> list[dict]:
        return sh.ordered_table(cmp, self._record, 3, base=base)

    def _record(self, row) -> dict:
        d = row.data
        rec = {"implementation": row.label, "score": sh.num(d["score"]), "scale": f"0–{sh.num(d['scale'])}",
               "BLEU 0–1": sh.num(d["bleu"]),
               "matches / totals": "  ".join(f"{sh.num(m)}/{sh.num(t)}"
                                             for m, t in zip(d["counts"] or [], d["totals"] or [])),
               "c": d["sys_len"], "r": d["ref_len"], "BP": sh.num(d["bp"]), "smoothing": d["smoothing"],
               "tokenizer": d["tokenizer"]}
        err = d.get("library_error")
        if err:
            rec["score"] = f"fails: {err['type']}" if d["score"] is None else rec["score"] + " (library error)"
        return rec

    def figure(self, cmp):
        """Every row's BLEU on one 0–1 axis; where the real library fails it reports nothing: a zero-length bar
        labelled with the error."""
        rows = cmp.rows
        xs = [r.data["bleu"] or 0.0 for r in rows]
        texts = [f"{sh.num(r.data['score'])} (0–{sh.num(r.data['scale'])})" if r.data["score"] is not None
                 else f"fails: {r.data['library_error']['type']}" for r in rows]
        return sh.bars_figure(cmp, xs, texts, "BLEU of every implementation, on one 0–1 axis (label: the number it "
                              "reports)", x_range=(0, 1.05), x_title="0–1")

    def side_html(self, cmp, div, side: str) -> str:
        """One side of a divergence; a corpus: the segment where it shows (its tokens), else the corpus step table."""
        row = cmp.row(div.a if side == "a" else div.b)
        trace, note = row.trace, ""
        if cmp.level == "corpus":
            if div.segment is None:
                return f'<div class="dl-side"><h4>{html.escape(row.label)}</h4>{_bleu_steps(trace, div, side)}</div>'
            trace, note = trace.segment(div.segment), f'<div class="xp-note">segment {div.segment + 1}</div>'
        return sh.side_html(row, trace, div, side, text_parts=_text_parts, steps=_bleu_steps,
                            failure_text=_failure_text, note=note)

    def divergence_html(self, cmp, div) -> str:
        return sh.divergence_block(div)

    def show_divergence(self, cmp, div) -> None:
        import streamlit as st

        from explainer.ui import highlight as hl

        st.html(hl.STYLE + sh.STYLE + self.divergence_html(cmp, div))
        ca, cb = st.columns(2)
        for col, side in ((ca, "a"), (cb, "b")):
            with col:
                st.html(hl.STYLE + sh.STYLE + self.side_html(cmp, div, side))


VIEW = BleuView("bleu")
