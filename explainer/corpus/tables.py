"""Tables for the paper from a comparison (the JSON of ``python -m explainer compare``, one metric or several under
``"metrics"``): text as sacreBLEU prints its own table, LaTeX (booktabs) and Markdown.

Every table has the systems in order (the first is the baseline) and a column per metric; each score is marked
``*`` where its p-value against the baseline is at most 0.05 (sacreBLEU's own rule: ``p > 0.05`` is not marked),
each metric on its own test; with one metric the table also holds the bootstrap mean ± 95 % half-width where the
test computed one and the p-value. Each metric's signature is a footnote under a short marker (a, b, c) below the
table, breakable after every ``|``: the table fits one column of a two-column paper. An error rate (TER) says that
lower is better. The text table is sacreBLEU's: its own ``_format_score_lines`` and ``tabulate``'s ``fancy_grid``
(colours off). Nothing here names a metric: labels, scales and directions are the comparison's.

LaTeX needs ``\\usepackage{booktabs}`` (``latex_document`` wraps the table in a document that compiles with
pdflatex); user text (system names, the signature) is escaped.
"""
from __future__ import annotations

from typing import Any

__all__ = ["FORMATS", "render_table", "text_table", "latex_table", "markdown_table", "latex_document",
           "latex_escape", "latex_signature", "metric_columns", "MARKERS"]

FORMATS = ("json", "text", "latex", "markdown")
#: the signature footnotes' markers, one per metric column
MARKERS = "abcdefghijklmnopqrstuvwxyz"
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def latex_escape(s: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(s))


def latex_signature(sig: str) -> str:
    """A signature as the LaTeX tables print it: escaped, in typewriter type, with a break allowed after each
    ``|`` so that it wraps within one column of a two-column paper."""
    return r"\texttt{" + r"\allowbreak{}".join(latex_escape(p) + (r"\textbar{}" if k < sig.count("|") else "")
                                              for k, p in enumerate(str(sig).split("|"))) + "}"


def _md_escape(s: str) -> str:
    out = str(s).replace("\\", "\\\\").replace("|", "\\|")
    for c in "*_`[]<>#":
        out = out.replace(c, "\\" + c)
    return " ".join(out.split())


def metric_columns(out: dict) -> list[dict]:
    """The metrics of a comparison, each as ``compare`` writes one (``out["metrics"]`` when it holds several, each
    with the comparison's shared counts)."""
    if not out.get("metrics"):
        return [out]
    shared = {k: out[k] for k in ("n_segments", "n_references") if k in out}
    return [{**shared, **m} for m in out["metrics"]]


def _metric_label(col: dict) -> str:
    """The column's label as the comparison names it (a hand-written one: its family's label)."""
    if col.get("label"):
        return str(col["label"])
    from explainer.families import FAMILIES

    metric = col.get("metric") or "bleu"
    return FAMILIES[metric].label if metric in FAMILIES else str(metric)


def _unit(col: dict) -> bool:
    """A score on 0-1 (ROUGE's per-item F, NLTK's BLEU): two more decimals than on 0-100."""
    return float(col.get("scale", 100) or 100) <= 1


def _test_words(out: dict) -> str:
    t = out.get("test") or {}
    if t.get("type") == "bs":
        return f"paired bootstrap resampling, {t.get('n_samples'):,} resamples"
    if t.get("type") == "ar":
        return f"paired approximate randomization, {t.get('n_samples'):,} trials"
    if t.get("type") == "confidence":
        return f"bootstrap confidence intervals, {t.get('n_samples'):,} resamples"
    return ""


def _paired(out: dict) -> bool:
    return (out.get("test") or {}).get("type") in ("bs", "ar")


def _rows(out: dict, width: int) -> list[dict[str, Any]]:
    rows = []
    for k, s in enumerate(out["systems"]):
        p = s.get("p_value")
        rows.append({"name": s["name"], "baseline": k == 0 and _paired(out), "score": f"{s['score']:.{width}f}",
                     "mean_ci": (None if s.get("mean") is None or s.get("ci") is None
                                 else (f"{s['mean']:.{width}f}", f"{s['ci']:.{width}f}")),
                     "p": None if p is None else f"{p:.4f}", "significant": p is not None and p <= 0.05})
    return rows


def _lower_better(cols: list[dict]) -> list[str]:
    return [_metric_label(c) for c in cols if c.get("higher_is_better") is False]


def text_table(out: dict, width: int | None = None) -> str:
    """sacreBLEU's own table (``sacrebleu.utils._format_score_lines`` + ``tabulate`` fancy_grid: a column per
    metric, as sacreBLEU prints several metrics), then the test and the signature of each metric."""
    from sacrebleu.significance import Result
    from sacrebleu.utils import Color, _format_score_lines
    from tabulate import tabulate

    cols = metric_columns(out)
    paired = _paired(cols[0])
    names = [("Baseline: " if paired and k == 0 else "") + s["name"] for k, s in enumerate(cols[0]["systems"])]
    table_cols: dict = {}
    was, Color.ENABLE_COLORS = Color.ENABLE_COLORS, False      # sacreBLEU's --no-color
    try:
        for c in cols:
            w = width if width is not None else (3 if _unit(c) else 1)
            results = [Result(s["score"], s.get("p_value"), s.get("mean"), s.get("ci")) for s in c["systems"]]
            got = _format_score_lines({"System": names, _metric_label(c): results}, w, multiline=True)
            table_cols.update(got)
    finally:
        Color.ENABLE_COLORS = was
    table = tabulate(table_cols, headers="keys", tablefmt="fancy_grid", colalign=("right",), stralign="center",
                     numalign="center")
    lines = [table, ""]
    words = _test_words(cols[0])
    if words:
        seed = cols[0]["test"].get("seed")
        lines.append(words.capitalize() + (f", seed {seed}" if seed else "")
                     + (" (* p <= 0.05 against the baseline)" if paired else ""))
    for name in _lower_better(cols):
        lines.append(f"{name}: lower is better")
    if len(cols) == 1:
        lines.append(f"Signature: {cols[0].get('signature', '')}")
    else:
        lines += [f"Signature of {_metric_label(c)}: {c.get('signature', '')}" for c in cols]
    return "\n".join(lines) + "\n"


def latex_table(out: dict, width: int | None = None, caption: str | None = None) -> str:
    """A ``table`` with a booktabs ``tabular`` that fits one column of a two-column paper: one metric — system,
    score, mean ± CI, p-value; several — a column per metric, each score marked where p <= 0.05 against the
    baseline; each metric's signature below the table under a short marker (a, b, c)."""
    cols = metric_columns(out)
    if len(cols) == 1:
        return _latex_one(cols[0], width if width is not None else (4 if _unit(cols[0]) else 2), caption)
    return _latex_several(cols, width, caption)


def _latex_wrap(caption: str, spec: str, head: list[str], body: list[str], notes: list[str]) -> str:
    return "\n".join([
        "% needs \\usepackage{booktabs}",
        "\\begin{table}[t]",
        "\\centering",
        f"\\caption{{{latex_escape(caption)}}}",
        f"\\begin{{tabular}}{{{spec}}}",
        "\\toprule",
        " & ".join(head) + r" \\",
        "\\midrule",
        *body,
        "\\bottomrule",
        "\\end{tabular}",
        "\\par\\smallskip\\footnotesize " + "\n\\par ".join(notes),
        "\\end{table}",
    ]) + "\n"


def _latex_one(col: dict, width: int, caption: str | None) -> str:
    rows = _rows(col, width)
    has_ci = any(r["mean_ci"] for r in rows)
    paired = _paired(col)
    label = _metric_label(col)
    spec = "l" + "r" + ("r" if has_ci else "") + ("r" if paired else "")
    head = ["System", latex_escape(label) + "$^{a}$"] + (["$\\mu \\pm$ 95\\,\\% CI"] if has_ci else []) + \
        (["$p$"] if paired else [])
    body = []
    for r in rows:
        cells = [latex_escape(r["name"]) + (" (baseline)" if r["baseline"] else ""),
                 r["score"] + ("$^{*}$" if r["significant"] else "")]
        if has_ci:
            cells.append(f"{r['mean_ci'][0]} $\\pm$ {r['mean_ci'][1]}" if r["mean_ci"] else "--")
        if paired:
            cells.append(r["p"] if r["p"] is not None else "--")
        body.append(" & ".join(cells) + r" \\")
    notes = _latex_test_notes([col])
    notes.append(f"$^{{a}}$\\,{latex_escape(label)}: {latex_signature(col.get('signature', ''))}")
    return _latex_wrap(caption or f"{label} on {col.get('n_segments', 0):,} segments", spec, head, body, notes)


def _latex_test_notes(cols: list[dict]) -> list[str]:
    words = _test_words(cols[0])
    notes = []
    if _paired(cols[0]):
        per = ", each metric on its own" if len(cols) > 1 else ""
        notes.append(f"$^{{*}}$\\,$p \\le 0.05$ against the baseline ({latex_escape(words)}{per}).")
    elif words:
        notes.append(latex_escape(words).capitalize() + ".")
    lower = _lower_better(cols)
    if lower:
        notes.append(latex_escape(", ".join(lower)) + ": lower is better.")
    return notes


def _latex_several(cols: list[dict], width: int | None, caption: str | None) -> str:
    per_col = [_rows(c, width if width is not None else (4 if _unit(c) else 2)) for c in cols]
    labels = [_metric_label(c) for c in cols]
    head = ["System"] + [f"{latex_escape(lab)}$^{{{MARKERS[k]}}}$" for k, lab in enumerate(labels)]
    body = []
    for i, first in enumerate(per_col[0]):
        cells = [latex_escape(first["name"]) + (" (baseline)" if first["baseline"] else "")]
        cells += [rows[i]["score"] + ("$^{*}$" if rows[i]["significant"] else "") for rows in per_col]
        body.append(" & ".join(cells) + r" \\")
    notes = _latex_test_notes(cols)
    notes += [f"$^{{{MARKERS[k]}}}$\\,{latex_escape(labels[k])}: {latex_signature(c.get('signature', ''))}"
              for k, c in enumerate(cols)]
    n = cols[0].get("n_segments") or 0
    cap = caption or f"{', '.join(labels[:-1])} and {labels[-1]} on {n:,} segments"
    return _latex_wrap(cap, "l" + "r" * len(cols), head, body, notes)


def latex_document(table: str) -> str:
    """A minimal two-column document around :func:`latex_table`'s output (what pdflatex compiles in the tests:
    the table must fit one column)."""
    return ("\\documentclass[twocolumn]{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
            "\\usepackage{booktabs}\n\\begin{document}\n" + table + "\\end{document}\n")


def markdown_table(out: dict, width: int | None = None) -> str:
    cols = metric_columns(out)
    if len(cols) == 1:
        return _markdown_one(cols[0], width if width is not None else (4 if _unit(cols[0]) else 2))
    per_col = [_rows(c, width if width is not None else (4 if _unit(c) else 2)) for c in cols]
    labels = [_metric_label(c) for c in cols]
    head = ["System"] + [f"{_md_escape(lab)} [{MARKERS[k]}]" for k, lab in enumerate(labels)]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join([":---"] + ["---:"] * len(cols)) + "|"]
    for i, first in enumerate(per_col[0]):
        cells = [_md_escape(first["name"]) + (" (baseline)" if first["baseline"] else "")]
        cells += [rows[i]["score"] + ("\\*" if rows[i]["significant"] else "") for rows in per_col]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", *_markdown_notes(cols)]
    lines += [f"[{MARKERS[k]}] {_md_escape(labels[k])}: `{c.get('signature', '')}`  " for k, c in enumerate(cols)]
    return "\n".join(lines) + "\n"


def _markdown_notes(cols: list[dict]) -> list[str]:
    words = _test_words(cols[0])
    out = []
    if _paired(cols[0]):
        per = ", each metric on its own" if len(cols) > 1 else ""
        out.append(f"\\* p ≤ 0.05 against the baseline ({words}{per}).  ")
    elif words:
        out.append(words.capitalize() + ".  ")
    lower = _lower_better(cols)
    if lower:
        out.append(f"{_md_escape(', '.join(lower))}: lower is better.  ")
    return out


def _markdown_one(col: dict, width: int) -> str:
    rows = _rows(col, width)
    has_ci = any(r["mean_ci"] for r in rows)
    paired = _paired(col)
    head = ["System", _md_escape(_metric_label(col))] + (["μ ± 95% CI"] if has_ci else []) + (["p"] if paired else [])
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join([":---"] + ["---:"] * (len(head) - 1)) + "|"]
    for r in rows:
        cells = [_md_escape(r["name"]) + (" (baseline)" if r["baseline"] else ""),
                 r["score"] + ("\\*" if r["significant"] else "")]
        if has_ci:
            cells.append(f"{r['mean_ci'][0]} ± {r['mean_ci'][1]}" if r["mean_ci"] else "–")
        if paired:
            cells.append(r["p"] if r["p"] is not None else "–")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", *_markdown_notes([col]), f"Signature: `{col.get('signature', '')}`"]
    return "\n".join(lines) + "\n"


def _matrix_rows(m: dict) -> tuple[list[str], list[list[str]]]:
    names = m["names"]
    rows = []
    for i, n in enumerate(names):
        rows.append([n] + ["–" if i == j else f"{m['p_values'][i][j]:.4f}" for j in range(len(names))])
    return names, rows


def matrix_text(m: dict, fmt: str, *, title: str = "") -> str:
    """The p-value matrix of every pair and the clusters (``compare --all-pairs``) in ``fmt``; ``title`` (the
    metric's name, with several metrics) before it. The LaTeX matrix spans both columns of a two-column paper
    (``table*``)."""
    names, rows = _matrix_rows(m)
    cl = " > ".join("{" + ", ".join(c) + "}" for c in m["clusters"])
    if fmt == "markdown":
        lines = ([f"**{_md_escape(title.rstrip(': '))}**", ""] if title else [])
        lines += ["| p | " + " | ".join(_md_escape(n) for n in names) + " |",
                  "|:---|" + "|".join(["---:"] * len(names)) + "|"]
        lines += ["| " + _md_escape(r[0]) + " | " + " | ".join(r[1:]) + " |" for r in rows]
        return "\n".join(lines + ["", f"Clusters (best first; {m['clustering']}): {_md_escape(cl)}"]) + "\n"
    if fmt == "latex":
        body = [" & ".join([latex_escape(r[0])] + [x.replace("–", "--") for x in r[1:]]) + r" \\" for r in rows]
        return "\n".join([
            "\\begin{table*}[t]", "\\centering", "\\scriptsize", "\\setlength{\\tabcolsep}{3pt}",
            f"\\caption{{{latex_escape(title)}$p$-values of every pair of systems}}",
            "\\begin{tabular}{l" + "r" * len(names) + "}", "\\toprule",
            " & ".join([""] + [latex_escape(n) for n in names]) + r" \\", "\\midrule", *body, "\\bottomrule",
            "\\end{tabular}",
            "\\par\\smallskip\\footnotesize Clusters (best first): " + latex_escape(cl) + ".",
            "\\end{table*}"]) + "\n"
    from tabulate import tabulate

    return (title + "\n" if title else "") + tabulate(rows, headers=["p"] + names, tablefmt="fancy_grid") + \
        f"\nClusters (best first): {cl}\n"


def render_table(out: dict, fmt: str, width: int | None = None) -> str:
    """The comparison ``out`` (one metric as ``compare`` writes it, or several under ``"metrics"``) as ``fmt``
    (one of :data:`FORMATS`, json excluded: that is the CLI's own), and the matrix of every pair when it was
    computed (``width``: decimals; default: sacreBLEU's 1 for text, 2 for the paper's tables, two more for a
    0-1 score)."""
    if fmt == "text":
        text = text_table(out, width)
    elif fmt == "latex":
        text = latex_table(out, width)
    elif fmt == "markdown":
        text = markdown_table(out, width)
    else:
        raise ValueError(f"unknown table format {fmt!r}: choose one of {', '.join(FORMATS)}")
    for col in metric_columns(out):
        if col.get("matrix"):
            head = "" if len(metric_columns(out)) == 1 else f"{_metric_label(col)}: "
            text += "\n" + matrix_text(col["matrix"], fmt, title=head)
    if out.get("matrix") and out.get("metrics"):
        text += "\n" + matrix_text(out["matrix"], fmt)
    return text
