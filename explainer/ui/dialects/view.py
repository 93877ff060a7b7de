"""The Dialects page's tables, chart, divergence panels and links, as pure functions (no Streamlit).

* ``table_rows(cmp)``, ``scores_figure(cmp)``, ``side_html(cmp, div, side)``: the side-by-side table, the chart and
  one side of a divergence, by the comparison's family view (``explainer.ui.dialects.views``: BLEU's, ROUGE's and
  chrF's own, the generic one for any other family), over the shared pieces of ``steps_html``;
* ``explain_query(...)``: the Explain page's URL parameters for a configuration, made by the shared settings
  model (``explainer.ui.settings.configuration_link``) on top of the settings the user has (``base``);
* ``match_rows(reproduction)``: the reproduce results as records, each with its Explain link; ``matches_html``
  and ``ties_html`` show them;
"""
from __future__ import annotations

import html
from typing import Sequence

from explainer.ui.dialects.steps_html import (
    MAX_TOKEN_CHIPS,
    MAX_TOKEN_TEXTS,
    STEP_WORDS,
    STYLE,
    explain_link,
    explain_link_for_row,
    explain_query,
)
from explainer.ui.dialects.steps_html import num as _num
from explainer.ui.dialects.views import scores_figure, side_html, table_rows
from explainer.ui.highlight import escape_text

__all__ = ["table_rows", "scores_figure", "side_html", "explain_query", "explain_link", "explain_link_for_row",
           "match_rows", "matches_html", "ties_html", "dropped_references_note", "STEP_WORDS", "STYLE",
           "MAX_TOKEN_CHIPS", "MAX_TOKEN_TEXTS", "_num"]


def match_rows(res, which="matches", *, base=None) -> list[dict]:
    """The reproduce results (``matches``, ``truncated``, ``nearest``, ``ties``, or a list of matches) as records
    with their Explain link (``base``: as for :func:`explain_query`)."""
    import json

    out = []
    for m in (getattr(res, which) if isinstance(which, str) else which):
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


def ties_html(res) -> str:
    """The implementations that print the claimed number, the original script first (marked), each with its value
    (escaped; their Explain links are in the list of matches below)."""
    items = []
    for m in res.ties:
        mark = (' <span class="dl-unusual">the original script</span>'
                if m.config.dialect_class().original else "")
        items.append(f"<li>{escape_text(m.description)}{mark} = <b>{html.escape(m.shown)}</b> "
                     f'<span class="xp-note">value {html.escape(repr(m.value))}</span></li>')
    return f'<ul class="dl-matches" data-testid="dl-ties">{"".join(items)}</ul>'



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
