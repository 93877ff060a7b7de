"""ROUGE's part of the Dialects page (``part.DialectsView``): the headline type picked above the table; the table
of every implementation with the F of each type and what it is computed from (hits, candidate and reference
totals of the kept reference or the pooled sums, the texts' token counts); the chart of the headline type's F;
and each side of a divergence with the tokens (or stems) compared and, per type, every reference's counts and
P/R/F, the differing cells marked."""
from __future__ import annotations

import html

from explainer.ui.dialects import steps_html as sh
from explainer.ui.dialects.bleu_part import BleuView

__all__ = ["RougeView", "VIEW", "HEAD_TYPES"]

#: the ROUGE types of the side-by-side view, the headline first (the link's ``head``)
HEAD_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _text_parts(trace, ref: int | None):
    """(text, tokens compared, the same tokens as located in the text, starts, ends): with stemming the compared
    tokens are the stems."""
    v = trace.candidate if ref is None else trace.references[ref]
    tt = v.tokenized
    spans = list(tt.spans)
    return tt.text, list(tt.tokens), list(tt.surface), [s.start for s in spans], [s.end for s in spans]


def _failure_text(trace, cell: dict) -> str:
    """ROUGE-1.5.5's death on this side, escaped."""
    s = trace.scores[cell["type"]]
    return html.escape(f"{cell['type']}: PerlDie: {getattr(s, 'died', '')}")


def _rouge_count_text(k: dict | None, n_refs: int) -> str:
    """``hits / candidate total / reference total`` of the reported score, and where they come from."""
    if k is None:
        return "n/a"
    if "died" in k:
        return "dies"
    text = f"{sh.num(k['hits'])} / {sh.num(k['cand_total'])} / {sh.num(k['ref_total'])}"
    if k["reference"] == "pooled":
        return text + " (pooled)"
    return text + (f" (ref {k['reference'] + 1})" if n_refs > 1 else "")


def _rouge_record(row, all_types: list[str]) -> dict:
    """A ROUGE row of the table: F per type, then what each F comes from (hits, candidate and reference totals
    of the reported reference or the pooled sums) and the texts' token counts, so that a reader sees why two
    implementations differ."""
    d = row.data
    rec = {"implementation": row.label}
    for t in all_types:
        s = d["scores"].get(t)
        rec[f"{t} F"] = ("dies" if s.get("died") else sh.num(s.get("fmeasure"))) if s else "n/a"
    h = d["scores"].get(d["type"], {})
    rec[f"{d['type']} P / R"] = f"{sh.num(h.get('precision'))} / {sh.num(h.get('recall'))}"
    counts = d.get("counts")
    if counts is not None:          # one segment (a corpus row has the aggregate only)
        n_refs = len(d["ref_lens"])
        for t in all_types:
            rec[f"{t} hits / cand / ref"] = _rouge_count_text(counts.get(t), n_refs)
        rec["tokens: candidate / references"] = f"{d['cand_len']} / " + ", ".join(map(str, d["ref_lens"]))
    rec["stemmer"] = "yes" if d.get("stemmer") or d.get("options", {}).get("use_stemmer") else "no"
    rec["several refs"] = d.get("multi_ref") or ""
    if d.get("tokenizer"):
        rec["tokenizer"] = d["tokenizer"]
    return rec


def _rouge_steps(trace, div, side: str) -> str:
    """Per type the divergence is about (else the headline type): every reference's counts (hits / candidate
    units / reference units) and P/R/F, and the reported numbers (the kept reference, or pooled). Five columns,
    so that it fits half of a laptop screen."""
    hit_types = {(c["type"], c.get("field"), c.get("ref")) for c in div.cells if c.get("kind") == "type"}
    chosen_hits = {c["refs"][0] for c in sh.cells_of(div, side, "reference")}
    n_refs = len(trace.per_reference)
    head = ("<tr><th>reference</th><th title=\"hits / candidate units / reference units\">hits / cand / ref</th>"
            "<th>P</th><th>R</th><th>F</th></tr>")
    shown = [t for t in trace.types if any(tt == t for tt, _, _ in hit_types)] or list(trace.types[:1])
    out = []
    for t in shown:
        chosen = trace.chosen_reference.get(t)
        rows = []
        for k, pr in enumerate(trace.per_reference):
            x = pr[t]
            label = f"{k + 1}" + (" (kept)" if chosen == k and n_refs > 1 else "")
            counts = f"{sh.num(x.hits)} / {sh.num(x.cand_total)} / {sh.num(x.ref_total)}"
            rows.append("<tr>" + sh.td(label, chosen == k and k in chosen_hits, True)
                        + sh.td(counts, (t, "hits", k) in hit_types)
                        + sh.td(sh.num(x.score.precision, 5), False) + sh.td(sh.num(x.score.recall, 5), False)
                        + sh.td(sh.num(x.score.fmeasure, 5), False) + "</tr>")
        s = trace.scores[t]
        fields = {f for tt, f, r in hit_types if tt == t and r is None}
        pooled = trace.pooled.get(t) if chosen is None else None
        how = "reported: pooled" if chosen is None else (f"reported: ref {chosen + 1}" if n_refs > 1 else "reported")
        counts = (f"{sh.num(pooled['hits'])} / {sh.num(pooled['cand_total'])} / {sh.num(pooled['ref_total'])}"
                  if pooled and "hits" in pooled else "")
        rows.append("<tr>" + sh.td(how, bool(fields) and div.first_step == "multi_ref", True)
                    + sh.td(counts, False)
                    + sh.td(sh.num(s.precision, 8), "precision" in fields)
                    + sh.td(sh.num(s.recall, 8), "recall" in fields)
                    + sh.td(sh.num(s.fmeasure, 8), "fmeasure" in fields) + "</tr>")
        died = getattr(s, "died", None)
        note = f'<div class="xp-note">ROUGE-1.5.5 dies here: {html.escape(died)}</div>' if died else ""
        out.append(f'<div class="xp-note"><b>{html.escape(t)}</b></div><div class="dl-scroll">'
                   f'<table class="dl-steps">{head}{"".join(rows)}</table></div>{note}')
    return "".join(out)


class RougeView(BleuView):
    def own_fields(self) -> tuple:
        from explainer.options import OptionSpec
        from explainer.ui.pagestate import Field

        # the headline ROUGE type: leads the chart and the table's columns (in the link when not the first)
        return (Field(OptionSpec("head", "choice", HEAD_TYPES[0], choices=HEAD_TYPES), "dl_head",
                      label="Headline ROUGE type"),)

    def controls(self) -> tuple:
        """The headline type (the chart and the "score" column), first among the types compared."""
        import streamlit as st

        from explainer.ui import pagestate as ps

        ps.choice("dl_head", HEAD_TYPES, HEAD_TYPES[0])
        head = st.selectbox("Headline ROUGE type (the chart and the 'score' column)", HEAD_TYPES, key="dl_head")
        return (head,) + tuple(t for t in HEAD_TYPES if t != head)

    def table(self, cmp, candidate, references, *, base=None) -> list[dict]:
        all_types = list(dict.fromkeys(t for r in cmp.rows for t in r.data["scores"]))
        return sh.ordered_table(cmp, lambda row: _rouge_record(row, all_types), len(all_types), base=base)

    def figure(self, cmp):
        """Every row's headline-type F on one 0–1 axis; ROUGE-1.5.5 prints nothing where it dies: a zero-length bar
        labelled so."""
        rows = cmp.rows
        xs = [r.data["fmeasure"] for r in rows]
        texts = ["dies" if r.data["scores"].get(r.data["type"], {}).get("died") else sh.num(x, 5)
                 for r, x in zip(rows, xs)]
        return sh.bars_figure(cmp, xs, texts, f"{rows[-1].data['type']} F of every implementation (label: the number "
                              "it reports)", x_range=(0, 1.05), x_title="0–1")

    def side_html(self, cmp, div, side: str) -> str:
        """One side of a divergence; a corpus: the aggregate is in the table above."""
        row = cmp.row(div.a if side == "a" else div.b)
        if cmp.level == "corpus":
            return (f'<div class="dl-side"><h4>{html.escape(row.label)}</h4><div class="xp-note">corpus: see the '
                    "table above for the aggregate</div></div>")
        return sh.side_html(row, row.trace, div, side, text_parts=_text_parts, steps=_rouge_steps,
                            failure_text=_failure_text)


VIEW = RougeView("rouge")
