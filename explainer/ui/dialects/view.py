"""The Dialects page's tables, chart, divergence panels and links, as pure functions (no Streamlit).

* ``table_rows(cmp)``: one record per row of the side-by-side table (BLEU or ROUGE), with the first step at
  which the row diverges from the first row and a link to the row's configuration on the Explain page;
* ``scores_figure(cmp)``: the rows' scores on one 0–1 axis, each bar labelled with its native number;
* ``side_html(cmp, div, side)``: one side of a divergence, escaped HTML: the text involved with the differing
  tokens highlighted in the user's own text, the token list, and the step table with the differing cells marked;
* ``explain_query(...)``: the Explain page's URL parameters for a configuration, made by the shared settings
  model (``explainer.ui.settings.explain_link_params``) on top of the settings the user has (``base``);
* ``match_rows(reproduction)``: the reproduce results as records, each with its Explain link;
"""
from __future__ import annotations

import html
import urllib.parse
from typing import Any, Mapping, Sequence

import plotly.graph_objects as go

from explainer.ui.highlight import TokenMark, escape_attr, escape_text, render_marked_text

__all__ = ["table_rows", "scores_figure", "side_html", "explain_query", "explain_link", "match_rows", "matches_html",
           "dropped_references_note", "STEP_WORDS", "STYLE",
           "COMPARE_METRICS"]

COMPARE_METRICS = ("bleu", "rouge")
STEP_WORDS = {
    "tokens": "tokens", "counts": "clipped counts", "totals": "totals (candidate n-grams)",
    "ref_length": "reference length", "smoothing": "smoothing", "brevity_penalty": "brevity penalty",
    "combination": "combination (weights, orders)", "scale": "scale / rounding", "stemming": "stemming",
    "overlap": "n-gram overlap", "lcs": "LCS", "multi_ref": "several references", "f_measure": "F-measure",
    "aggregation": "aggregation", None: "— (identical)",
}
STYLE = """
<style>
.dl-side h4{margin:.2rem 0 .4rem 0;font-size:1.05rem}
.dl-toks{line-height:2.1;font-size:.95rem;margin:.2rem 0 .6rem 0;word-break:break-word}
.dl-tok{border:1px solid rgba(128,128,128,.45);border-radius:.25rem;padding:.05rem .3rem;margin:0 .15rem;
  white-space:pre-wrap}
.dl-hit{outline:3px solid #D55E00;outline-offset:0;background:rgba(213,94,0,.18);font-weight:700}
.dl-also{outline:2px dashed #D55E00;outline-offset:0}
.dl-scroll{overflow-x:auto}
.dl-from{opacity:.7;font-weight:400}
.dl-side .xp-tok{margin:0 .1rem}
.dl-error{border-left:4px solid #D55E00;padding:.2rem .5rem;margin:.3rem 0 .6rem 0}
table.dl-steps{border-collapse:collapse;font-size:.88rem;margin-bottom:.6rem;width:100%}
table.dl-steps th,table.dl-steps td{border:1px solid rgba(128,128,128,.35);padding:.12rem .35rem;text-align:right}
table.dl-steps th{text-align:center}
table.dl-steps td.dl-label{text-align:left;white-space:nowrap}
td.dl-cell-hit{outline:3px solid #D55E00;outline-offset:-3px;background:rgba(213,94,0,.18);font-weight:700}
.dl-why{font-size:1.02rem;line-height:1.5}
ol.dl-matches{line-height:1.6;padding-left:1.6rem}
ol.dl-matches li{margin-bottom:.25rem}
.dl-unusual{font-size:.8rem;border:1px solid #E69F00;border-radius:.25rem;padding:0 .25rem;margin-left:.2rem}
a.dl-explain{white-space:nowrap;font-weight:600}
</style>
"""
def _num(x, digits: int = 4) -> str:
    if x is None:
        return "—"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) < 1e9):
        return str(int(x))
    if abs(x) < 1e-4 and x != 0:
        return f"{x:.3g}"
    return f"{x:.{digits}f}".rstrip("0").rstrip(".")


# ------------------------------------------------------------------------------------------------ table
def table_rows(cmp, *, base=None) -> list[dict]:
    """Records for the side-by-side table (BLEU or ROUGE), in row order. ``base``: the metric settings the row
    links keep for what the row does not set (see :func:`explain_query`)."""
    first = {d.b: d for d in cmp.pairs if d.a == cmp.rows[0].id}
    out = []
    for i, row in enumerate(cmp.rows):
        d = row.data
        step = "(reference row)" if i == 0 else STEP_WORDS.get(first[row.id].first_step, "") if row.id in first else ""
        link = explain_link_for_row(cmp, row, base=base) if cmp.level == "segment" else None
        if cmp.metric == "bleu":
            rec = {"implementation": row.label, "score": _num(d["score"]), "scale": f"0–{_num(d['scale'])}",
                   "BLEU 0–1": _num(d["bleu"]),
                   "matches / totals": "  ".join(f"{_num(m)}/{_num(t)}"
                                                 for m, t in zip(d["counts"] or [], d["totals"] or [])),
                   "c": d["sys_len"], "r": d["ref_len"], "BP": _num(d["bp"]), "smoothing": d["smoothing"],
                   "tokenizer": d["tokenizer"]}
            err = d.get("library_error")
            if err:
                rec["score"] = f"fails: {err['type']}" if d["score"] is None else rec["score"] + " (library error)"
        else:
            all_types = list(dict.fromkeys(t for r in cmp.rows for t in r.data["scores"]))
            rec = _rouge_record(row, all_types)
        # the answer columns first: they are what a reader looks for, and stay visible on a narrow screen
        front = {"implementation": rec.pop("implementation")}
        for k in list(rec)[:3 if cmp.metric == "bleu" else len(all_types)]:
            front[k] = rec.pop(k)
        front["first difference from row 1"] = step
        if link is not None:
            front["explain"] = link
        front.update(rec)
        out.append(front)
    return out


def _rouge_count_text(k: dict | None, n_refs: int) -> str:
    """``hits / candidate total / reference total`` of the reported score, and where they come from."""
    if k is None:
        return "n/a"
    if "died" in k:
        return "dies"
    text = f"{_num(k['hits'])} / {_num(k['cand_total'])} / {_num(k['ref_total'])}"
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
        rec[f"{t} F"] = ("dies" if s.get("died") else _num(s.get("fmeasure"))) if s else "n/a"
    h = d["scores"].get(d["type"], {})
    rec[f"{d['type']} P / R"] = f"{_num(h.get('precision'))} / {_num(h.get('recall'))}"
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


def scores_figure(cmp) -> go.Figure:
    """Horizontal bars: every row's score on the same 0–1 axis; the label is the number it reports."""
    from explainer.ui.charts import FONT, plotly_escape

    rows = list(reversed(cmp.rows))
    if cmp.metric == "bleu":
        # where the real library fails it reports nothing: a zero-length bar labelled with the error
        xs = [r.data["bleu"] or 0.0 for r in rows]
        texts = [f"{_num(r.data['score'])} (0–{_num(r.data['scale'])})" if r.data["score"] is not None
                 else f"fails: {r.data['library_error']['type']}" for r in rows]
        title = "BLEU of every implementation, on one 0–1 axis (label: the number it reports)"
    else:
        xs = [r.data["fmeasure"] for r in rows]
        # ROUGE-1.5.5 prints nothing where it dies: a zero-length bar labelled so
        texts = ["dies" if r.data["scores"].get(r.data["type"], {}).get("died") else _num(x, 5)
                 for r, x in zip(rows, xs)]
        title = f"{rows[0].data['type']} F of every implementation (label: the number it reports)"
    labels = [plotly_escape(r.label) for r in rows]
    colours = ["#0072B2" if r is cmp.rows[0] else "#E69F00" for r in rows]
    data = [dict(type="bar", orientation="h", y=labels, x=xs, text=[plotly_escape(t) for t in texts],
                 textposition="outside", cliponaxis=False, marker=dict(color=colours),
                 hovertemplate="%{y}: %{x:.6g} on 0–1<extra></extra>")]
    layout = dict(title=dict(text=title, font=dict(size=17)), font=FONT, height=90 + 34 * len(rows),
                  margin=dict(l=190, r=140, t=60, b=40), xaxis=dict(range=[0, 1.05], title=dict(text="0–1")),
                  showlegend=False)
    return go.Figure({"data": data, "layout": layout})


# --------------------------------------------------------------------------------------- divergence view
def _cells(div, side: str, kind: str) -> list[dict]:
    return [c for c in div.cells if c.get("kind") == kind and c.get("side", side) == side]


def _text_parts(trace, metric: str, ref: int | None):
    """(text, the tokens the dialect compared, the same tokens as located in the text, starts, ends) of the
    candidate (ref None) or reference ``ref``: for ROUGE with stemming the compared tokens are the stems."""
    if metric == "bleu":
        t = trace.candidate if ref is None else trace.references[ref]
        toks = list(t.token_texts)
        return t.text, toks, toks, list(t.starts), list(t.ends)
    v = trace.candidate if ref is None else trace.references[ref]
    tt = v.tokenized
    spans = list(tt.spans)
    return tt.text, list(tt.tokens), list(tt.surface), [s.start for s in spans], [s.end for s in spans]


MAX_TOKEN_CHIPS = 400


def _chip(i: int, token: str, surface: str, cls: str) -> str:
    if token == surface:
        return f'<span class="{cls}" title="token {i + 1}">{escape_text(token)}</span>'
    # stemmed (or otherwise changed) before the comparison: the word as found, then what was compared
    title = escape_attr(f"token {i + 1}: {surface!r} compared as {token!r}")
    return (f'<span class="{cls}" title="{title}"><span class="dl-from">{escape_text(surface)} → </span>'
            f"{escape_text(token)}</span>")


def _token_block(trace, metric: str, ref: int | None, hits: set[int], first: set[int], name: str) -> str:
    """The text as typed with every differing token marked (the stretch the sentence above describes in bold
    outline, the others dashed; no inline label, which would cover a neighbouring token such as the `.` of
    `mat .`), and the tokens the dialect compared, marked the same way (a stem shows the word it came from)."""
    text, toks, surface, starts, ends = _text_parts(trace, metric, ref)
    marks = [TokenMark(a, b, selected=i in first, also=0 if i in first else 1,
                       title=f"token {i + 1}: tokenized differently", label="")
             for i, (a, b) in enumerate(zip(starts, ends)) if i in hits and a is not None and b is not None]
    chips = []
    for i, (t, sf) in enumerate(zip(toks[:MAX_TOKEN_CHIPS], surface)):
        cls = "dl-tok dl-hit" if i in first else ("dl-tok dl-also" if i in hits else "dl-tok")
        chips.append(_chip(i, t, sf, cls))
    more = (f' <span class="xp-note">… {len(toks) - MAX_TOKEN_CHIPS} more</span>'
            if len(toks) > MAX_TOKEN_CHIPS else "")
    return (f"<div><b>{html.escape(name)}</b> — as typed, the differing tokens marked:</div>"
            + render_marked_text(text, marks, max_chars=5_000, aria_label=name)
            + f'<div class="dl-toks" aria-label="{html.escape(name)} tokens">tokens compared ({len(toks)}): '
            + "".join(chips) + more + "</div>")


def _td(value, hit: bool, label: bool = False) -> str:
    cls = " ".join(x for x in ("dl-label" if label else "", "dl-cell-hit" if hit else "") if x)
    attr = f' class="{cls}"' if cls else ""
    return f"<td{attr}>{html.escape(str(value))}</td>"


def _bleu_steps(trace, div, side: str) -> str:
    comb = trace.combination
    hit_orders = {(c["n"], c["field"]) for c in div.cells if c.get("kind") == "order"}
    rows = []
    for o in comb.orders:
        rows.append("<tr>" + _td(f"{o.n}-gram", False, True)
                    + _td(_num(o.matches), (o.n, "matches") in hit_orders)
                    + _td(_num(o.totals), (o.n, "totals") in hit_orders)
                    + _td(_num(o.precision, 6), (o.n, "precision") in hit_orders)
                    + _td(o.smoothing, (o.n, "precision") in hit_orders) + "</tr>")
    kinds = {c.get("kind") for c in div.cells}
    refs = _cells(div, side, "reference")
    ref_note = ""
    if refs and hasattr(trace, "references"):
        lens = [len(r.token_texts) for r in trace.references]
        ref_note = " (reference lengths " + ", ".join(
            (f"[{L}]" if k in refs[0]["refs"] else str(L)) for k, L in enumerate(lens)) + ")"
    extra = ("<tr>" + _td("c, r", False, True) + _td(comb.c, False) + _td(comb.r, "ref_length" in kinds)
             + _td(ref_note.strip(" ()") or "", "ref_length" in kinds) + _td("", False) + "</tr>"
             + "<tr>" + _td("BP", False, True) + _td(_num(comb.bp, 6), "bp" in kinds)
             + _td(comb.bp_branch, "bp" in kinds) + _td("", False) + _td("", False) + "</tr>"
             + "<tr>" + _td("score", False, True) + _td(_num(comb.bleu, 6) + " (0–1)", "score" in kinds)
             + _td(f"{_num(comb.score, 6)} (0–{_num(comb.scale)})", "score" in kinds)
             + _td(comb.early_exit or f"effective order {comb.effective_order}", "score" in kinds) + _td("", False)
             + "</tr>")
    return ('<div class="dl-scroll"><table class="dl-steps"><tr><th>step</th><th>matches</th><th>totals</th>'
            "<th>precision used</th><th>smoothing</th></tr>" + "".join(rows) + extra + "</table></div>")


def _rouge_steps(trace, div, side: str) -> str:
    """Per type the divergence is about (else the headline type): every reference's counts (hits / candidate
    units / reference units) and P/R/F, and the reported numbers (the kept reference, or pooled). Five columns,
    so that it fits half of a laptop screen."""
    hit_types = {(c["type"], c.get("field"), c.get("ref")) for c in div.cells if c.get("kind") == "type"}
    chosen_hits = {c["refs"][0] for c in _cells(div, side, "reference")}
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
            counts = f"{_num(x.hits)} / {_num(x.cand_total)} / {_num(x.ref_total)}"
            rows.append("<tr>" + _td(label, chosen == k and k in chosen_hits, True)
                        + _td(counts, (t, "hits", k) in hit_types)
                        + _td(_num(x.score.precision, 5), False) + _td(_num(x.score.recall, 5), False)
                        + _td(_num(x.score.fmeasure, 5), False) + "</tr>")
        s = trace.scores[t]
        fields = {f for tt, f, r in hit_types if tt == t and r is None}
        pooled = trace.pooled.get(t) if chosen is None else None
        how = "reported: pooled" if chosen is None else (f"reported: ref {chosen + 1}" if n_refs > 1 else "reported")
        counts = (f"{_num(pooled['hits'])} / {_num(pooled['cand_total'])} / {_num(pooled['ref_total'])}"
                  if pooled and "hits" in pooled else "")
        rows.append("<tr>" + _td(how, bool(fields) and div.first_step == "multi_ref", True)
                    + _td(counts, False)
                    + _td(_num(s.precision, 8), "precision" in fields) + _td(_num(s.recall, 8), "recall" in fields)
                    + _td(_num(s.fmeasure, 8), "fmeasure" in fields) + "</tr>")
        died = getattr(s, "died", None)
        note = f'<div class="xp-note">ROUGE-1.5.5 dies here: {html.escape(died)}</div>' if died else ""
        out.append(f'<div class="xp-note"><b>{html.escape(t)}</b></div><div class="dl-scroll">'
                   f'<table class="dl-steps">{head}{"".join(rows)}</table></div>{note}')
    return "".join(out)


MAX_TOKEN_TEXTS = 4


def _failure_text(trace, cell: dict) -> str:
    """The failure of the real library on this side, escaped (BLEU: its exception; ROUGE-1.5.5: its death)."""
    if cell.get("type"):
        s = trace.scores[cell["type"]]
        return html.escape(f"{cell['type']}: PerlDie: {getattr(s, 'died', '')}")
    err = trace.library_error or trace.combination.library_error
    return html.escape(f"{err.type}: {err.message}") if err else ""


def side_html(cmp, div, side: str) -> str:
    """One side ("a" or "b") of a divergence: the text involved with the differing tokens highlighted, then the
    step table with the differing cells marked. Every user string is escaped."""
    row = cmp.row(div.a if side == "a" else div.b)
    trace = row.trace
    parts = [f'<div class="dl-side"><h4>{html.escape(row.label)}</h4>']
    tok_cells = [c for c in div.cells if c.get("kind") == "token" and c.get("side") == side]
    if cmp.level == "corpus":
        seg = div.segment
        if seg is not None and cmp.metric == "bleu":
            trace = trace.segment(seg)
            parts.append(f'<div class="xp-note">segment {seg + 1}</div>')
        elif cmp.metric == "bleu":
            parts.append(_bleu_steps(trace, div, side) + "</div>")
            return "".join(parts)
        else:
            parts.append('<div class="xp-note">corpus: see the table above for the aggregate</div></div>')
            return "".join(parts)
    for c in tok_cells[:MAX_TOKEN_TEXTS]:           # every text tokenized differently, candidate first
        ref = c.get("ref")
        name = "candidate" if ref is None else (f"reference {ref + 1}" if len(trace.references) > 1 else "reference")
        parts.append(_token_block(trace, cmp.metric, ref, set(c.get("all", c["indices"])), set(c["indices"]), name))
    if len(tok_cells) > MAX_TOKEN_TEXTS:
        parts.append(f'<div class="xp-note">… and {len(tok_cells) - MAX_TOKEN_TEXTS} more text(s) tokenized '
                     "differently (download the comparison for every cell)</div>")
    err = _cells(div, side, "error")
    if err:
        parts.append(f'<div class="dl-error"><b>The real library fails here</b>: {_failure_text(trace, err[0])}'
                     "</div>")
    parts.append(_bleu_steps(trace, div, side) if cmp.metric == "bleu" else _rouge_steps(trace, div, side))
    parts.append("</div>")
    return "".join(parts)


# -------------------------------------------------------------------------------------------------- links
def explain_query(family: str, dialect: str, options: Mapping[str, Any], candidate: str,
                  references: Sequence[str], types: Sequence[str] = (), *, base=None) -> dict:
    """The Explain page's URL parameters for one configuration (:func:`explainer.ui.settings.configuration_link`)."""
    from explainer.ui.settings import configuration_link

    return configuration_link(family, dialect, options, candidate, references, types, base=base)


def _supported(dialect: str, types: list[str]) -> list[str]:
    """The types the ROUGE dialect computes (its ``supported_kinds``: the textbook has no ROUGE-Lsum)."""
    from explainer.rouge import DIALECTS, parse_type

    kinds = DIALECTS[dialect].supported_kinds
    return [t for t in types if parse_type(t).kind in kinds]


def explain_link(family: str, dialect: str, options: Mapping[str, Any], candidate: str,
                 references: Sequence[str], types: Sequence[str] = (), *, base=None) -> str | None:
    """A relative link to the Explain page (the app's default page) with these settings (None for a family the
    Explain page does not show: its command is shown instead)."""
    from explainer.ui.families import UI_FAMILIES

    if family not in UI_FAMILIES:
        return None
    q = explain_query(family, dialect, options, candidate, references, types, base=base)
    return "./?" + urllib.parse.urlencode(q, doseq=True, quote_via=urllib.parse.quote)


def explain_link_for_row(cmp, row, *, base=None) -> str | None:
    c = row.config
    return explain_link(c.family, c.dialect, c.opts, cmp.candidate, cmp.references, c.types, base=base)


def match_rows(res, which: str = "matches", *, base=None) -> list[dict]:
    """The reproduce results (``matches``, ``truncated`` or ``nearest``) as records with their Explain link
    (``base``: as for :func:`explain_query`)."""
    import json

    out = []
    for m in getattr(res, which):
        texts = json.loads(m.stdin)
        cfg = m.config
        link = explain_link(cfg.family, cfg.dialect, cfg.opts, texts["candidate"], texts["references"], cfg.types,
                            base=base)
        out.append({"shown": m.shown, "configuration": m.description, "explain": link,
                    "references": ", ".join(str(k + 1) for k in m.references), "value": m.value,
                    "unusual": m.unusual, "command": m.to_dict()["command"]})
    return out


def matches_html(rows: Sequence[dict], *, limit: int = 25, total: int | None = None) -> str:
    """The reproduce results as an ordered list: the value as the claim prints it, the configuration in words,
    and a link to its full explanation on the Explain page (same tab). Every string is escaped."""
    items = []
    for r in rows[:limit]:
        flag = ' <span class="dl-unusual">unusual setting</span>' if r["unusual"] else ""
        # a match of a family the Explain page does not show: the command that prints it instead
        go = (f'<a class="dl-explain" href="{html.escape(r["explain"], quote=True)}" target="_self">explain →</a>'
              if r["explain"] else f'<code>{html.escape(str(r["command"]))}</code>')
        items.append(f'<li><b>{html.escape(r["shown"])}</b> — {escape_text(r["configuration"])}{flag} {go} '
                     f"<span class=\"xp-note\">value {html.escape(repr(r['value']))}, "
                     f"reference(s) {html.escape(r['references'])}</span></li>")
    more = (total if total is not None else len(rows)) - min(limit, len(rows))
    tail = f'<div class="xp-note">… and {more:,} more (download the result for all of them)</div>' if more > 0 else ""
    return f'<ol class="dl-matches">{"".join(items)}</ol>{tail}'


# ------------------------------------------------------------------------------------------------ inputs
def _and(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def dropped_references_note(refs: Sequence[str]) -> str:
    """What leaving out the empty reference boxes does to the numbering ("" when no box is empty): the boxes
    left out, and, when a later box moves up, which of the user's references each reference below is."""
    empty = [i for i, r in enumerate(refs) if r == ""]
    kept = [i for i, r in enumerate(refs) if r != ""]
    if not empty:
        return ""
    boxes = _and([str(i + 1) for i in empty])
    s = (f"Reference box {boxes} is empty and left out." if len(empty) == 1
         else f"Reference boxes {boxes} are empty and left out.")
    moved = [(k, i) for k, i in enumerate(kept) if k != i]
    if moved:
        s = s[:-1] + ": below, " + _and([f"reference {k + 1} is your reference {i + 1}" for k, i in moved]) + "."
    return s
