"""BLEU trace -> what the Explain page shows (marks, table rows, chart inputs, formula). Pure: no Streamlit.

Everything here reads a :class:`explainer.bleu.trace.BleuTrace`; nothing is recomputed. Where the page
shows a number, it is a field of the trace (or a count of trace entries).
"""
from __future__ import annotations

import math
from typing import Sequence

from explainer.ui.highlight import TokenMark

__all__ = ["candidate_marks", "reference_marks", "display_assignment", "ngram_rows", "ngram_display_rows", "order_rows", "formula_latex",
           "ref_length_rows", "ngram_choices", "fmt", "native"]

_ORDINAL = {1: "unigram", 2: "bigram", 3: "trigram", 4: "4-gram"}


def _gram(n: int) -> str:
    return _ORDINAL.get(n, f"{n}-gram")


def fmt(x, digits: int = 4) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) < 1e15):
        return str(int(x))
    if x != 0 and (abs(x) < 1e-4 or abs(x) >= 1e6):
        return f"{x:.{digits}g}"
    return f"{x:.{digits}f}"


def headline(score: float, scale: float) -> str:
    """The BLEU headline: 4 decimals on 0-100 dialects, 6 on 0-1 dialects; tiny non-zero values (NLTK's
    1e-154 when an order has no match) in scientific notation so they are not shown as 0."""
    if score and abs(score) < (1e-4 if scale == 100 else 1e-6):
        return f"{score:.4g}"
    return f"{score:.4f}" if scale == 100 else f"{score:.6f}"


def native(trace) -> str:
    """The headline BLEU value on the dialect's native scale, as text."""
    return fmt(trace.score, 2 if trace.scale == 100 else 4)


def display_assignment(trace) -> list[list[list[dict]]]:
    """Per order, per n-gram entry: the occurrences shown as counted, as ``{"cand_pos", "ref", "ref_pos"}``.

    The trace records ONE valid assignment (the first occurrences count). Clipping removes a count, not a
    particular occurrence, so any ``clipped`` of the ``cand_count`` occurrences can be shown as the counted
    ones. For display this prefers the occurrences that lie inside a longer counted match (so the ‘the’ of a
    counted ‘on the mat’ is not struck through while another ‘the’ is shown counted), then the earlier ones.
    Counts and the reference occurrences they are paired with are the trace's, unchanged."""
    if _DISPLAY_CACHE and _DISPLAY_CACHE[0] is trace:  # the page asks once per text of the same trace
        return _DISPLAY_CACHE[1]
    out = _display_assignment(trace)
    _DISPLAY_CACHE[:] = [trace, out]
    return out


_DISPLAY_CACHE: list = []


def _display_assignment(trace) -> list[list[list[dict]]]:
    orders = list(trace.ngrams)
    L = len(trace.candidate.tokens)
    out: list[list[list[dict]]] = [[] for _ in orders]
    # prefix[m][i] = number of counted m-gram occurrences starting before position i (orders shown so far)
    prefix: dict[int, list[int]] = {}
    for idx in sorted(range(len(orders)), key=lambda j: -orders[j].n):
        order = orders[idx]
        n = order.n
        longer = sorted((m for m in prefix if m > n), reverse=True)

        def inside(p: int) -> int:
            """Length of the longest counted match (shown so far) that contains the occurrence at p."""
            for m in longer:
                pre = prefix[m]
                lo, hi = max(0, p + n - m), min(p, L)
                if hi >= lo and pre[hi + 1] - pre[lo] > 0:
                    return m
            return 0

        per_entry = []
        starts = [0] * (L + 1)
        for e in order.entries:
            a = list(e.assignment)
            if a and e.clipped < e.cand_count and longer:
                ranked = sorted(range(len(e.cand_positions)), key=lambda j: (-inside(e.cand_positions[j]), j))
                chosen = sorted(e.cand_positions[j] for j in ranked[:len(a)])
                a = [{"cand_pos": p, "ref": x["ref"], "ref_pos": x["ref_pos"]} for p, x in zip(chosen, a)]
            per_entry.append(a)
            for x in a:
                if 0 <= x["cand_pos"] < L:
                    starts[x["cand_pos"] + 1] += 1
        for i in range(L):
            starts[i + 1] += starts[i]
        prefix[n] = starts
        out[idx] = per_entry
    return out


_CLIP_NOTE = ("clipping removes a count, not a particular occurrence; this view counts the occurrences inside "
              "longer matches first")


def candidate_marks(trace, selected: str | None = None, *, by: str = "order") -> list[TokenMark]:
    """One mark per candidate token that can be located in the user's text. ``by="reference"`` colours
    each token by the reference that justified its longest counted n-gram instead of by the order."""
    toks = trace.candidate.tokens
    # per token: (order, n-gram text, justifying reference, the n-gram's count in every reference)
    best: list[tuple] = [(0, "", None, ())] * len(toks)
    clipped_info: dict[int, str] = {}
    sel_cover: set[int] = set()
    shown = display_assignment(trace)
    for order, per_entry in zip(trace.ngrams, shown):
        n = order.n
        for e, assignment in zip(order.entries, per_entry):
            counted = {a["cand_pos"]: a["ref"] for a in assignment}
            for k, p in enumerate(e.cand_positions):
                if e.text == selected:
                    sel_cover.update(range(p, p + n))
                if p in counted:
                    for i in range(p, min(p + n, len(toks))):
                        if n > best[i][0]:
                            best[i] = (n, e.text, counted[p], e.ref_counts)
                elif n == 1 and e.max_ref_count > 0:
                    clipped_info[p] = (f"occurrence {k + 1} of {e.cand_count} of ‘{e.text}’ is clipped away: "
                                       f"no single reference has it more than {e.max_ref_count}× ({_CLIP_NOTE})")
    marks = []
    for i, t in enumerate(toks):
        if t.start is None or t.end is None:
            continue
        n, gram, ref, ref_counts = best[i]
        if n:
            where = ", ".join(f"ref {j + 1} ×{c}" for j, c in enumerate(ref_counts) if c)
            title = (f"token {i + 1} ‘{t.text}’: longest counted match is the {_gram(n)} ‘{gram}’ (counted against "
                     f"reference {ref + 1}; it occurs in {where})")
        else:
            title = f"token {i + 1} ‘{t.text}’: no counted match"
        if i in clipped_info:
            title += "; " + clipped_info[i]
        marks.append(TokenMark(t.start, t.end, order=n, clipped=i in clipped_info, selected=i in sel_cover,
                               title=title, ref=ref if (by == "reference" and n) else None))
    return marks


def reference_marks(trace, k: int, selected: str | None = None, *, by: str = "order") -> list[TokenMark]:
    """Reference k's tokens: the candidate n-grams they justified (by order), every other occurrence of a
    counted candidate n-gram here (``also``: occurs here too, not used for the clip / assignment), and the
    selected n-gram."""
    ref = trace.references[k]
    toks = ref.tokens
    best: list[tuple[int, str]] = [(0, "")] * len(toks)
    also: list[tuple[int, str, str]] = [(0, "", "")] * len(toks)
    sel_cover: set[int] = set()
    for order, per_entry in zip(trace.ngrams, display_assignment(trace)):
        n = order.n
        for e, assignment in zip(order.entries, per_entry):
            if e.text == selected:
                for p in e.ref_positions[k]:
                    sel_cover.update(range(p, p + n))
            used = {a["ref_pos"] for a in assignment if a["ref"] == k}
            for p in used:
                for i in range(p, min(p + n, len(toks))):
                    if n > best[i][0]:
                        best[i] = (n, e.text)
            if not e.clipped:
                continue
            unused = [p for p in e.ref_positions[k] if p not in used]
            if not unused:
                continue
            refs_used = sorted({a["ref"] for a in assignment})
            used_txt = ", ".join(f"reference {j + 1}" for j in refs_used)
            if k in e.max_refs:
                why = (f"reference {k + 1} has it as often as the most ({e.max_ref_count}×), but this view pairs the "
                       f"counted occurrence{'s' if e.clipped != 1 else ''} with {used_txt}")
            else:
                why = (f"it occurs {e.ref_counts[k]}× here, fewer than the {e.max_ref_count}× of {used_txt}, which "
                       "sets the clip")
            for p in unused:
                for i in range(p, min(p + n, len(toks))):
                    if n > also[i][0]:
                        also[i] = (n, e.text, why)
    marks = []
    for i, t in enumerate(toks):
        if t.start is None or t.end is None:
            continue
        n, gram = best[i]
        an, agram, why = also[i]
        title = (f"reference {k + 1}, token {i + 1} ‘{t.text}’: justifies the candidate {_gram(n)} ‘{gram}’"
                 if n else f"reference {k + 1}, token {i + 1} ‘{t.text}’: not used by a counted match")
        if an and an >= n:
            title += (f"; the counted candidate {_gram(an)} ‘{agram}’ occurs here too, not used for the clip "
                      f"({why})")
        marks.append(TokenMark(t.start, t.end, order=n, selected=i in sel_cover, title=title,
                               ref=k if (by == "reference" and n) else None, also=an if an and not n else 0))
    return marks


def ngram_rows(trace) -> list[dict]:
    """The n-gram table: one row per distinct candidate n-gram, every order."""
    k = len(trace.references)
    rows = []
    for order in trace.ngrams:
        for e in order.entries:
            row = {"order": order.n, "n-gram": e.text, "candidate count": e.cand_count}
            for j in range(k):
                row[f"ref {j + 1}"] = e.ref_counts[j]
            row["max in one ref"] = e.max_ref_count
            row["justified by"] = ", ".join(f"ref {j + 1}" for j in e.max_refs) or "—"
            row["counted (clipped)"] = e.clipped
            row["clipped away"] = e.cand_count - e.clipped if e.max_ref_count > 0 else 0
            row["in no reference"] = e.cand_count if e.max_ref_count == 0 else 0
            rows.append(row)
    return rows


# How the n-gram table is shown (the CSV keeps the full column names): short headers with the full meaning
# in the header's tooltip and narrow numeric columns, so the whole table fits the page at 1400 px.
NGRAM_COLUMNS = {
    "order": ("n", "n-gram order", 44),
    "n-gram": ("n-gram", "the candidate n-gram (tokens as the dialect scores them)", 160),
    "candidate count": ("in cand.", "how often the candidate has it", 76),
    "max in one ref": ("max/ref", "the most times any single reference has it: the clip limit", 74),
    "justified by": ("justified by ref", "every reference that has it that often (reference numbers)", 124),
    "counted (clipped)": ("counted", "min(in cand., max/ref): occurrences that count (the clipped count)", 76),
    "clipped away": ("clipped", "occurrences beyond max/ref: clipped away", 70),
    "in no reference": ("in no ref", "occurrences found in no reference", 76),
    "count per reference": ("count per ref", "its count in reference 1 · 2 · 3 …", 140),
}
REF_COLUMN_WIDTH = 56
MAX_REF_COLUMNS = 3   # more references: one "count per reference" column instead of one column each


def ngram_display_rows(trace) -> list[dict]:
    """The n-gram table as the page shows it: :func:`ngram_rows` with reference numbers only in ``justified
    by`` (``1, 3``), and the per-reference counts folded into one ``count per reference`` column
    (``2 · 0 · 1 …``) when there are more than MAX_REF_COLUMNS references, so it fits the page."""
    rows = ngram_rows(trace)
    k = len(trace.references)
    out = []
    for r in rows:
        d = dict(r)
        d["justified by"] = ", ".join(str(j + 1) for j in range(k) if f"ref {j + 1}" in r["justified by"].split(", ")) \
            or "—"
        if k > MAX_REF_COLUMNS:
            counts = " · ".join(str(r[f"ref {j + 1}"]) for j in range(k))
            items = [(key, v) for key, v in d.items() if not (key.startswith("ref ") and key[4:].isdigit())]
            items.insert(3, ("count per reference", counts))
            d = dict(items)
        out.append(d)
    return out


def ngram_choices(trace, limit: int = 2000) -> list[str]:
    """Distinct candidate n-grams (all orders), matched ones first, for the 'where did it match' picker."""
    matched, other = [], []
    for order in trace.ngrams:
        for e in order.entries:
            (matched if e.clipped else other).append(e.text)
    return list(dict.fromkeys(matched + other))[:limit]


def order_rows(trace) -> list[dict]:
    """Per order: counts as the trace has them and precisions before/after smoothing (0..1)."""
    rows = []
    for o in trace.combination.orders:
        rows.append({"n": o.n, "matches": o.matches, "totals": o.totals, "precision_raw": o.precision_raw,
                     "precision": o.precision, "included": o.included, "smoothing": o.smoothing,
                     "formula": o.formula, "reason": o.reason, "weight": o.weight})
    return rows


def ref_length_rows(trace) -> list[dict]:
    rl = trace.ref_length
    c = trace.combination.c
    out = []
    for j, r in enumerate(trace.references):
        L = len(r.tokens)
        out.append({"reference": f"ref {j + 1}", "length (tokens)": L, "|c − length|": abs(c - L),
                    "chosen": "✔ chosen" if j in rl.chosen else ""})
    return out


def _tex_num(x: float, digits: int = 4) -> str:
    s = fmt(x, digits)
    if "e" in s:
        mant, exp = s.split("e")
        return rf"{mant}\times 10^{{{int(exp)}}}"
    return s


def formula_latex(trace) -> str:
    """BLEU = BP · exp(Σ w_n log p_n) with this trace's numbers substituted."""
    comb = trace.combination
    used = [o for o in comb.orders if o.included and o.precision > 0]
    scale = r"100 \times " if trace.scale == 100 else ""
    if comb.early_exit or not used:
        return (rf"\text{{BLEU}} = {scale}\mathrm{{BP}}\cdot\exp\Big(\sum_n w_n \log p_n\Big) = "
                rf"{_tex_num(comb.score)}\quad\text{{(the library returns this directly; see the note)}}")
    terms = " + ".join(rf"{_tex_num(o.weight, 3)}\log {_tex_num(o.precision)}" for o in used)
    skipped = [o.n for o in comb.orders if not o.included]
    line1 = rf"\text{{BLEU}} &= {scale}\mathrm{{BP}}\cdot\exp\Big(\sum_{{n}} w_n \log p_n\Big)"
    line2 = rf"&= {scale}{_tex_num(comb.bp)}\cdot\exp\big({terms}\big)"
    if comb.log_mean is not None and comb.log_sum is not None and comb.effective_order and \
            not math.isclose(comb.log_mean, comb.log_sum):
        logs = " + ".join(rf"\log {_tex_num(o.precision)}" for o in used)
        line2 = rf"&= {scale}{_tex_num(comb.bp)}\cdot\exp\Big(\tfrac{{1}}{{{comb.effective_order}}}\big({logs}\big)\Big)"
    if math.isclose(comb.bp * comb.geo_mean, comb.score, rel_tol=1e-9, abs_tol=1e-12) and trace.scale != 1:
        # the library works in percent space (sacreBLEU): its geometric mean is already on 0-100
        line3 = rf"&= {_tex_num(comb.bp)}\cdot {_tex_num(comb.geo_mean)} = {_tex_num(comb.score)}" \
                r"\quad\text{(mean of log-precisions in percent, as the library computes it)}"
    else:
        line3 = rf"&= {scale}{_tex_num(comb.bp)}\cdot {_tex_num(comb.geo_mean)} = {_tex_num(comb.score)}"
    out = rf"\begin{{aligned}}{line1}\\ {line2}\\ {line3}\end{{aligned}}"
    if skipped:
        out += rf"\quad\text{{(orders {', '.join(map(str, skipped))} not in the mean)}}"
    return out


def bp_latex(trace) -> str:
    comb = trace.combination
    c, r = comb.c, comb.r
    if c > r or r == 0:
        return rf"c = {c} > r = {r} \;\Rightarrow\; \mathrm{{BP}} = 1" if c > r else \
            rf"r = 0 \;\Rightarrow\; \mathrm{{BP}} = {_tex_num(comb.bp)}"
    if c == 0:
        return rf"c = 0 \;\Rightarrow\; \mathrm{{BP}} = {_tex_num(comb.bp)}"
    return (rf"c = {c} \le r = {r} \;\Rightarrow\; \mathrm{{BP}} = e^{{\,1 - r/c}} = e^{{\,1 - {r}/{c}}} = "
            rf"{_tex_num(comb.bp, 6)}")


def precision_latex(o) -> str:
    if o.precision_raw is None:
        return rf"p_{o.n}:\ \text{{no candidate {o.n}-grams}}"
    base = rf"p_{o.n} = \frac{{{fmt(o.matches)}}}{{{fmt(o.totals)}}} = {_tex_num(o.precision_raw)}"
    if not math.isclose(o.precision, o.precision_raw):
        base += rf"\;\xrightarrow{{\text{{{_tex_escape(o.smoothing)}}}}}\; {_tex_num(o.precision)}"
    return base


def _tex_escape(s: str) -> str:
    rep = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#", "^": r"\^{}",
           "_": r"\_", "%": r"\%", "~": r"\~{}"}
    return "".join(rep.get(ch, ch) for ch in s if ch.isprintable())


def ngram_occurrences(trace, text: str) -> dict:
    """Where the n-gram ``text`` occurs: candidate positions and per-reference positions (token indices)."""
    for order in trace.ngrams:
        for e in order.entries:
            if e.text == text:
                return {"n": order.n, "cand_positions": list(e.cand_positions),
                        "ref_positions": [list(p) for p in e.ref_positions], "ref_counts": list(e.ref_counts),
                        "max_ref_count": e.max_ref_count, "max_refs": list(e.max_refs), "clipped": e.clipped,
                        "cand_count": e.cand_count}
    return {}


def tokens_line(tokens: Sequence) -> str:
    return " · ".join(t.text for t in tokens)
