"""The Gaming lab's verdict table as escaped HTML (pure, no Streamlit): texts as rows, every family's measures as
columns grouped under the family's name, each cell's delta against its row's base, and one verdict row.

Cells carry ``data-col`` (the column key, ``bleu:score``), ``data-row``; deltas ``data-delta``; verdicts
``data-verdict`` (tests and the browser read them)."""
from __future__ import annotations

import html
import re
from itertools import groupby

from explainer.attacks.verdicts import VerdictTable
from explainer.family import VERDICT_WORDS
from explainer.ui.highlight import escape_text, md_escape

__all__ = ["verdict_table_html", "verdict_badge", "delta_text", "VERDICT_STYLE", "summary_markdown",
           "verdict_words", "summary_html"]

# colour-blind safe (Okabe-Ito) + a symbol and the word itself; the words of explainer.family for every family
VERDICT_STYLE = {
    "fooled": "#D55E00", "tie": "#D55E00", "resisted": "#009E73", "changed": "#E69F00", "unchanged": "#0072B2",
    "n/a": "#6E6E6E",
}
_PREFERENCE = {"fooled": "▲ rates it higher", "tie": "= same score", "resisted": "▼ rates it lower", "n/a": "—"}
_CONFIG = {"changed": "≠ changed", "unchanged": "= unchanged", "n/a": "—"}
VERDICT_HELP = {
    "fooled": "the attack scores at least as well as the honest text (in the metric's own direction: a lower TER "
              "is better)",
    "tie": "the attack scores exactly as well as the honest text: the metric cannot tell them apart, so the attack "
           "goes unnoticed",
    "resisted": "the attack scores worse than the honest text",
    "changed": "the setting changes the number", "unchanged": "the setting does not change the number",
    "n/a": "not computed for these texts",
}


def verdict_words(kind: str, word: str) -> str:
    if kind == "config":
        return _CONFIG.get(word, word)
    if kind == "preference":
        return _PREFERENCE.get(word, word)
    return VERDICT_WORDS.get(word, word)


def verdict_badge(kind: str, word: str) -> str:
    colour = VERDICT_STYLE.get(word, "#666666")
    tip = "" if kind == "preference" else VERDICT_HELP.get(word, "")
    words = html.escape(verdict_words(kind, word))
    if "(" in words:      # "✗ fooled (same score)": the reason on a line of its own, so a column stays narrow
        head, _, rest = words.partition(" (")
        words = f'{head}<span class="lab-why">{rest.rstrip(")")}</span>'
    return (f'<span class="lab-verdict" style="background:{colour}" title="{html.escape(tip, quote=True)}">'
            f'{words}</span>')


def delta_text(col, delta: float | None) -> str:
    """A delta in the column's decimals; a change too small to show in them says so ("+<0.1", never "−0.0")."""
    if delta is None:
        return ""
    if abs(delta) <= col.measure.resolution:        # the same score, up to the measure's rounding noise
        return "±0"
    shown = col.fmt(abs(delta))
    sign = "+" if delta > 0 else "−"
    if float(shown) == 0:
        return f"{sign}<{col.fmt(10 ** -col.shown_decimals)}"
    return sign + shown


def _delta_html(col, delta: float | None) -> str:
    if delta is None:
        return ""
    gain = delta if col.measure.higher_is_better else -delta
    cls = "lab-delta-up" if gain > 0 else ("lab-delta-down" if gain < 0 else "")
    tip = "better for this metric" if gain > 0 else ("worse for this metric" if gain < 0 else "the same")
    return f'<small class="{cls}" title="{tip}">{html.escape(delta_text(col, delta))}</small>'


def _head(table: VerdictTable) -> str:
    """Two header rows: the family (spanning its columns), then the measure; a family with one column has one
    cell spanning both rows."""
    top, sub = ['<th rowspan="2">text</th>'], []
    for _, cols in groupby(table.columns, key=lambda c: c.family):
        cols = list(cols)
        if len(cols) == 1:
            top.append(f'<th rowspan="2" class="lab-fam{_lesson_class(cols[0])}">{_col_label(cols[0])}</th>')
            continue
        label = cols[0].family_label or "the lesson"
        top.append(f'<th colspan="{len(cols)}" class="lab-fam">{escape_text(label)}</th>')
        sub += [f'<th class="{_lesson_class(c).strip()}">{_col_label(c)}</th>' for c in cols]
    return f"<thead><tr>{''.join(top)}</tr><tr>{''.join(sub)}</tr></thead>"


def _lesson_class(c) -> str:
    """A lesson's own number ("unigram precision without clipping") may wrap: its header is a phrase."""
    return " lab-lesson" if c.lesson else ""


def _col_label(c) -> str:
    arrow = "" if c.measure.higher_is_better else ' <span title="an error rate: lower is better">↓</span>'
    return escape_text(c.label) + arrow


def verdict_table_html(table: VerdictTable) -> str:
    rows = []
    for i, r in enumerate(table.rows):
        role = "" if r.role.lower() in r.label.lower() else f" <small>({escape_text(_role(r.role))})</small>"
        cells = [f'<td class="lab-rowlabel">{escape_text(r.label)}{role}</td>']
        for c in table.columns:
            v = r.values.get(c.key)
            tip = r.why.get(c.key, "")
            shown = c.fmt(v) if v is not None else "—"
            strong = c.key in table.headline
            body = f"<b>{shown}</b>" if strong else shown
            cells.append(f'<td data-col="{html.escape(c.key)}" data-row="{i}" title="{html.escape(tip, quote=True)}">'
                         f'{body}<span data-delta="{html.escape(c.key)}" data-row="{i}">'
                         f'{_delta_html(c, r.delta(table.rows, c.key))}</span></td>')
        rows.append(f'<tr class="{"head" if i in table.judged else ""}">{"".join(cells)}</tr>')
    if table.verdicts:
        cells = ['<td class="lab-rowlabel"><b>verdict</b></td>']
        for c in table.columns:
            w = table.verdicts.get(c.key)
            cells.append(f'<td data-verdict="{html.escape(c.key)}">{verdict_badge(table.kind, w) if w else ""}</td>')
        rows.append(f'<tr class="lab-verdict-row">{"".join(cells)}</tr>')
    return (f'<div class="lab-scroll"><table class="lab-table lab-verdicts">{_head(table)}'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


_ROLES = {"honest": "honest", "attack": "attack", "alternative": "alternative", "baseline": "baseline",
          "setting": "setting", "comparison": "comparison, no verdict"}


def _role(role: str) -> str:
    return _ROLES.get(role, role)


def summary_html(table: VerdictTable) -> str:
    """The one-line summary as HTML (labels escaped; the bold of :meth:`Summary.line` as <b>)."""
    s = table.summary()
    s.groups = {k: [html.escape(x) for x in v] for k, v in s.groups.items()}
    s.labels = tuple(html.escape(x) for x in s.labels)
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", s.line())


def summary_markdown(table: VerdictTable) -> str:
    """The one-line summary (what resisted), with every label escaped for Markdown."""
    s = table.summary()
    s.groups = {k: [md_escape(x) for x in v] for k, v in s.groups.items()}
    s.labels = tuple(md_escape(x) for x in s.labels)
    return s.line()
