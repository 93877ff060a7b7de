"""Tables for the paper from a comparison (the JSON of ``python -m explainer compare``): text as sacreBLEU prints
its own table, LaTeX (booktabs) and Markdown.

Every table has the systems in order (the first is the baseline), each score with the bootstrap mean ± 95 %
half-width where the test computed one, the p-value against the baseline, a marker ``*`` where it is at most
0.05 (sacreBLEU's own rule: ``p > 0.05`` is not marked), and the signature as a footnote. The text table is
sacreBLEU's: its own ``_format_score_lines`` and ``tabulate``'s ``fancy_grid`` (colours off).

LaTeX needs ``\\usepackage{booktabs}`` (``latex_document`` wraps the table in a document that compiles with
pdflatex); user text (system names, the signature) is escaped.
"""
from __future__ import annotations

from typing import Any

__all__ = ["FORMATS", "render_table", "text_table", "latex_table", "markdown_table", "latex_document",
           "latex_escape"]

FORMATS = ("json", "text", "latex", "markdown")
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def latex_escape(s: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(s))


def _md_escape(s: str) -> str:
    out = str(s).replace("\\", "\\\\").replace("|", "\\|")
    for c in "*_`[]<>#":
        out = out.replace(c, "\\" + c)
    return " ".join(out.split())


def _metric_label(out: dict) -> str:
    if out.get("metric") == "rouge":
        return f"{out.get('rouge_type', 'ROUGE')} {out.get('measure', 'fmeasure')}".replace("fmeasure", "F")
    if out.get("metric") == "chrf":
        return out.get("name") or "chrF"          # the dialect's own name: chrF2, chrF2++
    return "BLEU"


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


def text_table(out: dict, width: int = 1) -> str:
    """sacreBLEU's own table (``sacrebleu.utils._format_score_lines`` + ``tabulate`` fancy_grid), then the test
    and the signature."""
    from sacrebleu.significance import Result
    from sacrebleu.utils import _format_score_lines
    from tabulate import tabulate

    paired = _paired(out)
    names = [("Baseline: " if paired and k == 0 else "") + s["name"] for k, s in enumerate(out["systems"])]
    metric = _metric_label(out)
    results = [Result(s["score"], s.get("p_value"), s.get("mean"), s.get("ci")) for s in out["systems"]]
    from sacrebleu.utils import Color

    was, Color.ENABLE_COLORS = Color.ENABLE_COLORS, False      # sacreBLEU's --no-color
    try:
        cols = _format_score_lines({"System": names, metric: results}, width, multiline=True)
    finally:
        Color.ENABLE_COLORS = was
    table = tabulate(cols, headers="keys", tablefmt="fancy_grid", colalign=("right",), stralign="center",
                     numalign="center", floatfmt=f".{width}f")
    lines = [table, ""]
    words = _test_words(out)
    if words:
        lines.append(words.capitalize() + (f", seed {out['test'].get('seed')}" if out["test"].get("seed") else "")
                     + (" (* p <= 0.05 against the baseline)" if paired else ""))
    lines.append(f"Signature: {out.get('signature', '')}")
    return "\n".join(lines) + "\n"


def latex_table(out: dict, width: int = 2, caption: str | None = None) -> str:
    """A ``table`` with a booktabs ``tabular``: system, score, mean ± CI, p-value; markers; the signature as a
    footnote under the table."""
    rows = _rows(out, width)
    has_ci = any(r["mean_ci"] for r in rows)
    paired = _paired(out)
    metric = latex_escape(_metric_label(out))
    spec = "l" + "r" + ("r" if has_ci else "") + ("r" if paired else "")
    head = ["System", metric] + (["$\\mu \\pm$ 95\\,\\% CI"] if has_ci else []) + (["$p$"] if paired else [])
    body = []
    for r in rows:
        name = latex_escape(r["name"]) + (" (baseline)" if r["baseline"] else "")
        score = r["score"] + ("$^{*}$" if r["significant"] else "")
        cells = [name, score]
        if has_ci:
            cells.append(f"{r['mean_ci'][0]} $\\pm$ {r['mean_ci'][1]}" if r["mean_ci"] else "--")
        if paired:
            cells.append(r["p"] if r["p"] is not None else "--")
        body.append(" & ".join(cells) + r" \\")
    notes = []
    words = _test_words(out)
    if paired:
        notes.append(f"$^{{*}}$\\,$p \\le 0.05$ against the baseline ({latex_escape(words)}).")
    elif words:
        notes.append(latex_escape(words).capitalize() + ".")
    notes.append(r"Signature: \texttt{" + latex_escape(out.get("signature", "")) + "}")
    cap = latex_escape(caption or f"{_metric_label(out)} on {out.get('n_segments', 0):,} segments")
    return "\n".join([
        "% needs \\usepackage{booktabs}",
        "\\begin{table}[t]",
        "\\centering",
        f"\\caption{{{cap}}}",
        f"\\begin{{tabular}}{{{spec}}}",
        "\\toprule",
        " & ".join(head) + r" \\",
        "\\midrule",
        *body,
        "\\bottomrule",
        "\\end{tabular}",
        "\\par\\smallskip\\footnotesize " + " ".join(notes),
        "\\end{table}",
    ]) + "\n"


def latex_document(table: str) -> str:
    """A minimal document around :func:`latex_table`'s output (what pdflatex compiles in the tests)."""
    return ("\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
            "\\usepackage{booktabs}\n\\begin{document}\n" + table + "\\end{document}\n")


def markdown_table(out: dict, width: int = 2) -> str:
    rows = _rows(out, width)
    has_ci = any(r["mean_ci"] for r in rows)
    paired = _paired(out)
    head = ["System", _metric_label(out)] + (["μ ± 95% CI"] if has_ci else []) + (["p"] if paired else [])
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join([":---"] + ["---:"] * (len(head) - 1)) + "|"]
    for r in rows:
        cells = [_md_escape(r["name"]) + (" (baseline)" if r["baseline"] else ""),
                 r["score"] + ("\\*" if r["significant"] else "")]
        if has_ci:
            cells.append(f"{r['mean_ci'][0]} ± {r['mean_ci'][1]}" if r["mean_ci"] else "–")
        if paired:
            cells.append(r["p"] if r["p"] is not None else "–")
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    words = _test_words(out)
    if paired:
        lines.append(f"\\* p ≤ 0.05 against the baseline ({words}).  ")
    elif words:
        lines.append(words.capitalize() + ".  ")
    lines.append(f"Signature: `{out.get('signature', '')}`")
    return "\n".join(lines) + "\n"


def _matrix_rows(m: dict) -> tuple[list[str], list[list[str]]]:
    names = m["names"]
    rows = []
    for i, n in enumerate(names):
        rows.append([n] + ["–" if i == j else f"{m['p_values'][i][j]:.4f}" for j in range(len(names))])
    return names, rows


def matrix_text(m: dict, fmt: str) -> str:
    """The p-value matrix of every pair and the clusters (``compare --all-pairs``) in ``fmt``."""
    names, rows = _matrix_rows(m)
    cl = " > ".join("{" + ", ".join(c) + "}" for c in m["clusters"])
    if fmt == "markdown":
        lines = ["| p | " + " | ".join(_md_escape(n) for n in names) + " |",
                 "|:---|" + "|".join(["---:"] * len(names)) + "|"]
        lines += ["| " + _md_escape(r[0]) + " | " + " | ".join(r[1:]) + " |" for r in rows]
        return "\n".join(lines + ["", f"Clusters (best first; {m['clustering']}): {_md_escape(cl)}"]) + "\n"
    if fmt == "latex":
        body = [" & ".join([latex_escape(r[0])] + [x.replace("–", "--") for x in r[1:]]) + r" \\" for r in rows]
        return "\n".join([
            "\\begin{table}[t]", "\\centering", "\\caption{$p$-values of every pair of systems}",
            "\\begin{tabular}{l" + "r" * len(names) + "}", "\\toprule",
            " & ".join([""] + [latex_escape(n) for n in names]) + r" \\", "\\midrule", *body, "\\bottomrule",
            "\\end{tabular}",
            "\\par\\smallskip\\footnotesize Clusters (best first): " + latex_escape(cl) + ".",
            "\\end{table}"]) + "\n"
    from tabulate import tabulate

    return tabulate(rows, headers=["p"] + names, tablefmt="fancy_grid") + f"\nClusters (best first): {cl}\n"


def render_table(out: dict, fmt: str, width: int | None = None) -> str:
    """The comparison ``out`` as ``fmt`` (one of :data:`FORMATS`, json excluded: that is the CLI's own), and the
    matrix of every pair when it was computed."""
    text = _render_table(out, fmt, width)
    if out.get("matrix"):
        text += "\n" + matrix_text(out["matrix"], fmt)
    return text


def _render_table(out: dict, fmt: str, width: int | None = None) -> str:
    """The comparison ``out`` as ``fmt`` (one of :data:`FORMATS`, json excluded: that is the CLI's own);
    ``width``: decimals (default: sacreBLEU's 1 for text, 2 for the paper's tables)."""
    unit = out.get("metric") == "rouge"          # ROUGE's per-item F is 0-1: two more decimals
    if fmt == "text":
        return text_table(out, (3 if unit else 1) if width is None else width)
    width = (4 if unit else 2) if width is None else width
    if fmt == "latex":
        return latex_table(out, width)
    if fmt == "markdown":
        return markdown_table(out, width)
    raise ValueError(f"unknown table format {fmt!r}: choose one of {', '.join(FORMATS)}")
