"""BLEU trace -> what the Explain page shows (marks, table rows, chart inputs, formula). Pure: no Streamlit.

Everything here reads a :class:`explainer.bleu.trace.BleuTrace`; nothing is recomputed. Where the page
shows a number, it is a field of the trace (or a count of trace entries).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from explainer.analysis.bleu_terms import geometric_mean, log_terms, weighted_sum
from explainer.ui.highlight import TokenMark

__all__ = ["BleuView", "MarkedText", "NgramTable", "TableColumn", "bleu_view", "ngram_table", "smoothing_rows",
           "candidate_marks", "reference_marks", "display_assignment",
           "ngram_rows", "ngram_display_rows", "order_rows", "formula_latex", "precision_latex", "bp_latex",
           "ref_length_rows", "ngram_choices", "fmt", "native", "headline", "tex_num", "overflow_note"]

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
    1e-154 when an order has no match) in scientific notation so they are not shown as 0; an overflow as ∞."""
    if not math.isfinite(score):
        return "∞" if score > 0 else ("−∞" if score < 0 else "not a number")
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
        per_entry = []
        starts = [0] * (L + 1)
        for e in order.entries:
            a = list(e.assignment)
            if a and e.clipped < e.cand_count and longer:
                depth = [_inside(p, n, longer, prefix, L) for p in e.cand_positions]
                ranked = sorted(range(len(depth)), key=lambda j: (-depth[j], j))
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


def _inside(p: int, n: int, longer: list[int], prefix: dict[int, list[int]], L: int) -> int:
    """Length of the longest counted match (of the ``longer`` orders shown so far) that contains the n-gram
    occurrence at p."""
    for m in longer:
        pre = prefix[m]
        lo, hi = max(0, p + n - m), min(p, L)
        if hi >= lo and pre[hi + 1] - pre[lo] > 0:
            return m
    return 0


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
NGRAM_TABLE_MAX_ROWS = 5_000   # n-gram table rows shown (the CSV download has all)
_TEXT_COLUMNS = ("n-gram", "justified by", "count per reference")
_PINNED_COLUMNS = ("order", "n-gram")   # stay in view while the other columns scroll sideways on a narrow page


@dataclass(frozen=True)
class TableColumn:
    """How one column of the n-gram table is shown: short header, tooltip, width, text or number."""

    name: str            # the key in the rows (the CSV's column name)
    label: str
    help: str
    width: int
    text: bool
    pinned: bool


@dataclass(frozen=True)
class NgramTable:
    """The n-gram table as the page shows it: at most NGRAM_TABLE_MAX_ROWS rows, with its columns."""

    rows: list[dict]
    total: int                     # every n-gram of the trace (the CSV download has them all)
    columns: list[TableColumn]
    note: str                      # why fewer rows than ``total`` are shown ("" when all are)

    @property
    def ngram_texts(self) -> list[str]:
        """The n-gram of each shown row, in order (a selected row -> its n-gram)."""
        return [r["n-gram"] for r in self.rows]


def _table_column(name: str) -> TableColumn | None:
    if name in NGRAM_COLUMNS:
        label, help_, width = NGRAM_COLUMNS[name]
    elif name.startswith("ref "):
        label, help_, width = name, f"how often reference {name[4:]} has it", REF_COLUMN_WIDTH
    else:
        return None
    return TableColumn(name, label, help_, width, name in _TEXT_COLUMNS, name in _PINNED_COLUMNS)


def ngram_table(trace, max_rows: int = NGRAM_TABLE_MAX_ROWS) -> NgramTable:
    """:func:`ngram_display_rows`, cut to ``max_rows``, with the columns' display settings."""
    rows = ngram_display_rows(trace)
    shown = rows[:max_rows]
    names = list(shown[0]) if shown else []
    columns = [c for c in map(_table_column, names) if c is not None]
    note = (f"Showing the first {max_rows:,} of {len(rows):,} n-grams; the CSV download has all."
            if len(rows) > max_rows else "")
    return NgramTable(shown, len(rows), columns, note)


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


def smoothing_rows(orders: list[dict]) -> list[dict]:
    """Order by order (rows of :func:`order_rows`): the precision before and after smoothing, and why."""
    return [{"order": o["n"], "matches": o["matches"], "totals": o["totals"], "before": o["precision_raw"],
             "after": o["precision"], "smoothing": o["smoothing"], "formula": o["formula"], "why": o["reason"],
             "in the mean": o["included"], "weight": o["weight"]} for o in orders]


def reference_pick_rows(trace) -> list[dict]:
    """A dialect keeping one reference's statistics (GLEU): each reference's shared n-grams (all orders), the
    candidate's and its own n-gram counts, precision, recall and their minimum, and the one kept."""
    out = []
    for row in trace.reference_pick.rows:
        out.append({"reference": f"ref {row['ref'] + 1}", "length (tokens)": row["length"],
                    "shared n-grams (tp)": row["tp"], "candidate n-grams": row["tpfp"],
                    "reference n-grams": row["tpfn"], "precision": fmt(row["precision"]),
                    "recall": fmt(row["recall"]), "min = tp / max(…)": fmt(row["gleu"]),
                    "kept": "✔ kept" if row["kept"] else ("skipped (nothing to count)" if row["skipped"] else "")})
    return out


def ref_length_rows(trace) -> list[dict]:
    if getattr(trace, "reference_pick", None) is not None:
        return reference_pick_rows(trace)
    rl = trace.ref_length
    c = trace.combination.c
    out = []
    for j, r in enumerate(trace.references):
        L = len(r.tokens)
        out.append({"reference": f"ref {j + 1}", "length (tokens)": L, "|c − length|": abs(c - L),
                    "chosen": "✔ chosen" if j in rl.chosen else ""})
    return out


def tex_num(x: float, digits: int = 4) -> str:
    """A number for a formula: integers as they are, others to ``digits`` significant digits (so 0.001699, not
    0.0017: each number in a formula carries the same relative precision), tiny and huge ones as a×10^b."""
    if x is None:
        return r"\text{n/a}"
    if isinstance(x, float) and math.isnan(x):
        return r"\text{NaN}"
    if isinstance(x, float) and math.isinf(x):
        return r"\infty" if x > 0 else r"-\infty"
    if x == 0:
        return "0"
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    s = f"{x:#.{digits}g}".rstrip(".")  # '#': 6.700, not 6.7 (the digits shown are the digits known)
    if "e" in s:
        mant, exp = s.split("e")
        return rf"{mant}\times 10^{{{int(exp)}}}"
    return s


_tex_num = tex_num


def _scale_prefix(trace) -> str:
    return r"100 \times " if trace.scale == 100 else ""


def _term_latex(term, weighted: bool) -> str:
    if term.sentinel is not None:
        # the library adds this number instead of log 0
        return f"({tex_num(term.sentinel)})"
    return (rf"{tex_num(term.weight, 3)}\log {tex_num(term.value)}" if weighted
            else rf"\log {tex_num(term.value)}")


def _term_value(term, weighted: bool) -> float:
    """The number a shown term stands for (so the sum shown is the sum of the terms shown)."""
    if term.sentinel is not None:
        return term.sentinel
    if term.value <= 0:
        return -math.inf
    lg = math.log(term.value) if math.isfinite(term.value) else math.inf
    return term.weight * lg if weighted else lg


def _direct_formula(trace) -> str:
    """The library returns without taking logs: the geometric mean as a product, when it gives the score."""
    comb = trace.combination
    ps = [o.precision for o in comb.orders]
    E = len(ps)
    scale = 100 if trace.scale == 100 else 1
    value = scale * comb.bp * (math.prod(ps) ** (1 / E) if all(p >= 0 for p in ps) and E else math.nan)
    note = r"\quad\text{(the library returns this without taking logs)}"
    if E and math.isclose(value, comb.score, rel_tol=1e-9, abs_tol=1e-12):
        pre = _scale_prefix(trace)
        prod = r"\cdot ".join(tex_num(p) for p in ps)
        return (rf"\text{{BLEU}} = {pre}\mathrm{{BP}}\cdot\Big(\prod_n p_n\Big)^{{1/{E}}} = "
                rf"{pre}{tex_num(comb.bp)}\cdot\big({prod}\big)^{{1/{E}}} = {tex_num(comb.score)}" + note)
    return rf"\text{{BLEU}} = {tex_num(comb.score)}\quad\text{{(the library returns this directly; see the note)}}"


LINE_CHARS = 30  # the sum of logs is cut into lines of about this many visible characters (a narrow page)


def _visible_len(tex: str) -> int:
    """Roughly how many characters a LaTeX snippet shows (commands and braces do not count)."""
    import re

    t = re.sub(r"\\times 10\^\{(-?\d+)\}", r"x10\1", tex)
    t = re.sub(r"\\log", "log", t)
    t = re.sub(r"\\[a-zA-Z]+|[{}\\]", "", t)
    return len(t)


def _lines_of_terms(parts: list[str]) -> list[str]:
    """The terms joined with '+', cut into lines of at most LINE_CHARS visible characters (one term at least)."""
    lines, cur, width = [], [], 0
    for p in parts:
        w = _visible_len(p) + 3
        if cur and width + w > LINE_CHARS:
            lines.append(" + ".join(cur))
            cur, width = [], 0
        cur.append(p)
        width += w
    if cur:
        lines.append(" + ".join(cur))
    return lines


def _sum_value(x: float) -> str:
    """The sum of logs with 4 decimals: exp() turns its absolute error into a relative one, so the next line
    keeps 4 significant digits whatever the size of the sum (NLTK's -177.7203)."""
    if not math.isfinite(x) or abs(x) >= 1e6:
        return tex_num(x)
    return f"{x:.4f}"


def _ratio_formula(trace) -> str:
    """A score that is one ratio of summed counts (``combination.extra["ratio"]``, GLEU): Σ matches / Σ n-grams of
    the larger side."""
    comb = trace.combination
    tp, n_all = sum(o.matches for o in comb.orders), sum(o.totals for o in comb.orders)
    if not n_all:
        return r"\textstyle\sum n_{\text{all}} = 0 \;\Rightarrow\; \text{GLEU} = 0"
    return (rf"\text{{GLEU}} = \frac{{\sum_n \text{{tp}}_n}}{{\max(\text{{tpfp}}, \text{{tpfn}})}} = "
            rf"\frac{{{tex_num(tp)}}}{{{tex_num(n_all)}}} = {tex_num(comb.score)}")


def formula_latex(trace) -> str:
    """BLEU = BP · exp(Σ w_n log p_n) with this trace's numbers: the terms the library adds (smoothed, floored, or
    its stand-in for log 0), their sum, and the score, so every line evaluates to the next and the last to the
    score. Written in short lines (LINE_CHARS) so it fits a narrow page."""
    comb = trace.combination
    if trace.library_error is not None:
        return r"\text{BLEU: the real library fails on this input (see the note below)}"
    if "ratio" in comb.extra:
        return _ratio_formula(trace)
    terms = log_terms(trace)
    if comb.log_sum is None or not terms:
        return _direct_formula(trace)
    weighted = weighted_sum(trace)
    pre = _scale_prefix(trace)
    E = comb.effective_order
    mean = "" if weighted else rf"\tfrac{{1}}{{{E}}}"
    sym = (r"\textstyle\sum_{n} w_n \log p_n" if weighted else r"\textstyle\sum_{n} \log p_n")
    chunks = _lines_of_terms([_term_latex(t, weighted) for t in terms])
    total = sum(_term_value(t, weighted) for t in terms)
    lines = [rf"\text{{BLEU}} &= {pre}\mathrm{{BP}}\cdot\exp\big({mean}{sym}\big)",
             rf"{sym} &= {chunks[0]}"]
    lines += [rf"&\hspace{{1em}} + {c}" for c in chunks[1:]]
    lines.append(rf"&= {_sum_value(total)}")
    arg = _sum_value(total) if total >= 0 else f"({_sum_value(total)})"
    times = mean + r"\cdot " if mean else ""
    lines.append(rf"\text{{BLEU}} &= {pre}{tex_num(comb.bp)}\cdot\exp\big({times}{arg}\big)")
    lines.append(rf"&= {pre}{tex_num(comb.bp)}\cdot {tex_num(geometric_mean(trace))} = {tex_num(comb.score)}")
    out = r"\begin{aligned}" + r"\\ ".join(lines) + r"\end{aligned}"
    skipped = [o.n for o in comb.orders if not o.included]
    if skipped:
        out += rf"\quad\text{{(orders {', '.join(map(str, skipped))} not in the mean)}}"
    return out


def bp_latex(trace) -> str:
    comb = trace.combination
    c, r = comb.c, comb.r
    if "ratio" in comb.extra:
        return r"\text{no brevity penalty: recall (the reference's n-grams) already counts a short candidate}"
    if c > r or r == 0:
        return rf"c = {c} > r = {r} \;\Rightarrow\; \mathrm{{BP}} = 1" if c > r else \
            rf"r = 0 \;\Rightarrow\; \mathrm{{BP}} = {tex_num(comb.bp)}"
    if c == 0:
        return rf"c = 0 \;\Rightarrow\; \mathrm{{BP}} = {tex_num(comb.bp)}"
    if c == r:
        return rf"c = {c} = r \;\Rightarrow\; \mathrm{{BP}} = {tex_num(comb.bp)}"
    return (rf"\begin{{aligned}}&c = {c} < r = {r} \;\Rightarrow\\ &\mathrm{{BP}} = e^{{\,1 - r/c}} = "
            rf"e^{{\,1 - {r}/{c}}} = {tex_num(comb.bp, 6)}\end{{aligned}}")


def precision_latex(o, trace=None) -> str:
    """p_n = matches / totals, and the value that enters the log when the library changes it (smoothing, the
    textbook's 1e-10 floor, or its stand-in for log 0). Without ``trace``: the recorded precision."""
    term = None
    if trace is not None:
        term = next((t for t in log_terms(trace) if t.n == o.n), None)
    if o.precision_raw is None:
        base = rf"p_{o.n}:\ \text{{no candidate {o.n}-grams}}"
        raw = None
    else:
        base = rf"p_{o.n} = \frac{{{fmt(o.matches)}}}{{{fmt(o.totals)}}} = {tex_num(o.precision_raw)}"
        raw = o.precision_raw
    if term is not None and term.sentinel is not None:
        return base + rf"\;\Rightarrow\;\log p_{o.n}\ \text{{taken as}}\ {tex_num(term.sentinel)}"
    used = term.value if term is not None else (o.precision if trace is None or o.included else None)
    if used is not None and (raw is None or not math.isclose(used, raw, rel_tol=1e-12, abs_tol=0)):
        label = o.smoothing if o.smoothing not in ("", "none") else "used"
        base += rf"\;\xrightarrow{{\text{{{_tex_escape(label)}}}}}\; {tex_num(used)}"
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


# ------------------------------------------------------------------------------------------- view model
@dataclass(frozen=True)
class MarkedText:
    """One text with its token marks, as the page highlights it."""

    heading: str                 # plain text, e.g. "Candidate — 6 tokens (13a)"
    text: str
    marks: list
    aria_label: str


@dataclass(frozen=True)
class BleuView:
    """Everything the BLEU section of the Explain page shows, read off one trace (``bleu_view``)."""

    title: str
    colour_by: str                         # "order" or "reference"
    n_orders: int
    n_references: int
    texts: list[MarkedText]                # candidate, then each reference
    token_rows: list[dict]                 # tokens exactly as scored
    ngram_caption: str
    ngram_choices: list[str]
    selected: str                          # the selected n-gram ("" when none or unknown)
    selected_unknown: str                  # a selection that is not among the n-grams ("" when none)
    selected_unknown_note: str             # ... said to the user ("" when none)
    selected_where: str                    # where the selected n-gram occurs, in words
    ngram_table: NgramTable                # display rows and columns (the CSV has the full rows)
    orders: list[dict]                     # per order: counts, precisions, smoothing (chart)
    orders_alt: str                        # the chart in words
    smoothing_rows: list[dict]             # per order: before/after smoothing and why (table)
    precision_formulas: list[str]          # LaTeX, one per order
    ref_length_text: str
    length_title: str                      # Step 3's heading (reference length and BP, or GLEU's reference choice)
    ref_length_rows: list[dict]
    bp_formula: str                        # LaTeX
    bp_curve: dict | None                  # charts.bp_curve_figure arguments (None: the dialect has no BP)
    bp_alt: str
    bp_caption: str
    score_formula: str                     # LaTeX
    score_note: str | None                 # an early return of the library, in its words
    overflow_note: str | None              # the score is not a finite number: why


def overflow_note(trace) -> str | None:
    """When the score is infinite or NaN (e.g. add-k with k = 1e308): why, in the page's words."""
    if math.isfinite(trace.score):
        return None
    bad = [o for o in trace.combination.orders if not math.isfinite(o.precision)]
    k = (trace.options or {}).get("smooth_value")
    if bad and bad[0].smoothing == "add-k" and k is not None:
        return (f"The smoothing value k = {k:g} is so large that the smoothed counts (matches + k) and the precisions "
                "made from them exceed the largest number a computer's floating point can hold (about 1.8e308), so "
                f"the library computes infinity and reports BLEU = {trace.score}. That is what it returns, not a "
                "meaningful score: choose a smaller k (add-k's usual value is 1).")
    return (f"The library's arithmetic runs out of floating-point range on these settings and reports BLEU = "
            f"{trace.score}: what the library returns, not a meaningful score.")


def _selected_where(trace, selected: str) -> str:
    occ = ngram_occurrences(trace, selected)
    if not occ:
        return ""
    where = "; ".join(f"reference {k + 1}: {c}× at token {', '.join(str(p + 1) for p in pos) or '—'}"
                      for k, (c, pos) in enumerate(zip(occ["ref_counts"], occ["ref_positions"])))
    return (f"‘{selected}’: {occ['cand_count']}× in the candidate (token "
            f"{', '.join(str(p + 1) for p in occ['cand_positions'])}); {where}. Counted {occ['clipped']}×.")


def _marked_texts(trace, selected: str, by: str) -> list[MarkedText]:
    out = [MarkedText(f"Candidate — {len(trace.candidate.tokens)} tokens ({trace.tokenizer})", trace.candidate.text,
                      candidate_marks(trace, selected, by=by), "candidate")]
    for k, ref in enumerate(trace.references):
        out.append(MarkedText(f"Reference {k + 1} — {len(ref.tokens)} tokens", ref.text,
                              reference_marks(trace, k, selected, by=by), f"reference {k + 1}"))
    return out


def _token_rows(trace) -> list[dict]:
    rows = [{"text": "candidate", "tokens": tokens_line(trace.candidate.tokens),
             "preprocessing": "; ".join(f"{c['step']}: {c['detail']}" for c in trace.candidate.changes) or "—"}]
    for k, ref in enumerate(trace.references):
        rows.append({"text": f"reference {k + 1}", "tokens": tokens_line(ref.tokens),
                     "preprocessing": "; ".join(f"{c['step']}: {c['detail']}" for c in ref.changes) or "—"})
    return rows


def _orders_alt(orders: list[dict]) -> str:
    return "Clipped matches of candidate n-grams per order: " + "; ".join(
        f"{o['n']}-grams {o['matches']:g} of {o['totals']:g}, precision {fmt(o['precision_raw'])} before and "
        f"{fmt(o['precision'])} after smoothing" for o in orders)


def _clip_words(trace) -> str:
    pick = getattr(trace, "reference_pick", None)
    if pick is None:
        return ("Each candidate n-gram counts at most as often as it occurs in the single reference where it is most "
                "frequent (the ‘max/ref’ column); the rest is clipped away. ")
    if pick.index is None:
        return "No reference is kept (nothing to count), so no n-gram counts. "
    return (f"Each candidate n-gram counts at most as often as it occurs in reference {pick.index + 1}, the reference "
            "kept (the ‘max/ref’ column is its count); the rest is clipped away. ")


def bleu_view(trace, *, selected: str | None = None, colour_by: str = "order") -> BleuView:
    """The BLEU section's view model. ``selected``: the n-gram picked in the table (outlined in the texts);
    ``colour_by``: "order" or "reference" (what the highlight colours encode)."""
    by = colour_by if colour_by in ("order", "reference") else "order"
    choices = ngram_choices(trace)
    sel = selected if selected in choices else ""
    unknown = (selected or "") if not sel else ""
    comb, rl = trace.combination, trace.ref_length
    orders = order_rows(trace)
    return BleuView(
        title=f"BLEU step by step — {trace.implementation}", colour_by=by, n_orders=len(trace.ngrams),
        n_references=len(trace.references), texts=_marked_texts(trace, sel, by), token_rows=_token_rows(trace),
        ngram_caption=(_clip_words(trace) + trace.totals_rule[:1].upper() + trace.totals_rule[1:] + "."),
        ngram_choices=choices, selected=sel, selected_unknown=unknown,
        selected_unknown_note=(f"The n-gram “{unknown[:80]}” (from the link or an earlier choice) is not among this "
                               "candidate's n-grams with these settings, so nothing is outlined." if unknown else ""),
        selected_where=_selected_where(trace, sel) if sel else "", ngram_table=ngram_table(trace),
        orders=orders, orders_alt=_orders_alt(orders), smoothing_rows=smoothing_rows(orders),
        precision_formulas=[precision_latex(o, trace) for o in comb.orders],
        ref_length_text=(f"Candidate length c = {comb.c}. Rule: {rl.rule} ({rl.tie_break}). {rl.explanation}. "
                         + ("" if trace.reference_pick is not None else f"Chosen r = {rl.r}.")),
        length_title=("Step 3 · Each reference's precision and recall: the best one is kept"
                      if trace.reference_pick is not None else "Step 3 · Reference length and brevity penalty"),
        ref_length_rows=ref_length_rows(trace), bp_formula=bp_latex(trace),
        bp_curve=(None if trace.reference_pick is not None else
                  {"c": comb.c, "r": comb.r, "bp": comb.bp, "rule": rl.rule}),
        bp_alt=(f"Brevity penalty curve exp(1 - r/c) for r = {comb.r}; this candidate: c = {comb.c}, "
                f"BP = {comb.bp:.4f}"),
        bp_caption=f"Branch of the BP formula taken: {comb.bp_branch}. {comb.bp_formula}",
        score_formula=formula_latex(trace), score_note=comb.early_exit, overflow_note=overflow_note(trace))
