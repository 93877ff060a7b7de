"""Teach: a lesson's blocks as escaped HTML with static SVG charts, and the self-contained handout. Pure (no
Streamlit).

The page (explainer/ui/teach/page.py) and the handout use the same functions, so they show the same
numbers. Every piece of text reaches markup through :func:`explainer.ui.highlight.escape_text` (element
content: HTML-escaped, invisible / bidi characters as visible ``U+XXXX`` badges) or ``escape_attr``
(attributes and SVG text). The handout has no script, no external resource, and a Content-Security-Policy
that forbids any request, so it opens offline and prints with one step per page.
"""
from __future__ import annotations

import base64
import math
import re
from typing import Iterable, Sequence

from explainer.teach.handout import SHEET_GRID_RULE, sheet_blocks, sheet_cell_given, sheet_checks
from explainer.teach.model import (
    Chart,
    Chip,
    ClaimCheck,
    Formula,
    LcsGrid,
    Lesson,
    Para,
    Question,
    Result,
    Step,
    Table,
    TokenRow,
    num,
)
from explainer.ui.highlight import escape_attr, escape_text
from explainer.ui.teach.handout_css import HANDOUT_CSS, SHEET_CSS

__all__ = ["TEACH_CSS", "block_html", "blocks_html", "step_html", "notes_html", "question_html", "grid_html",
           "cell_rule", "grid_cells", "claim_details", "svg_chart", "handout_html", "HANDOUT_CSS", "claims_table_html"]

BLUE, ORANGE, GREEN, PURPLE, VERMILLION, SKY = "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"

# Shared by the page and the handout. Large type and strong contrast for a projector at 1024x768; colour is
# never the only signal (borders, strike-through, labels, ▶ markers carry the same meaning).
TEACH_CSS = """
.tc{font-size:1.22rem;line-height:1.45}
.tc p{font-size:inherit;margin:.2em 0 .37em 0}
.tc .tp-key{font-weight:700;border-left:.29em solid #0072B2;padding-left:.5em}
.tc .tp-note{font-size:.82em;opacity:.85}
.tc .trow{margin:.12em 0 .25em 0}
.tc .trow-h{font-weight:700;font-size:.82em}
.tc .trow-h .trow-n{font-weight:400;opacity:.8;margin-left:.5em}
.tc .tks{display:flex;flex-wrap:wrap;gap:.25em .29em;max-height:7.8em;overflow-y:auto;padding:.08em}
.tc .tk{display:inline-flex;flex-direction:column;align-items:center;border:2px solid rgba(128,128,128,.55);
  border-radius:.29em;padding:0 .37em;min-width:1.31em;line-height:1.2;white-space:pre}
.tc .tk-t{font-size:.967em;font-weight:600}
.tc .tk-l{font-size:.82em;opacity:.85;min-height:1em;line-height:1}
.tc .tks:not(:has(.tk-l:not(:empty))) .tk-l{display:none}
.tc .tk-match{border-color:#0072B2;background:rgba(0,114,178,.18)}
.tc .tk-clip{border:2px dashed #D55E00;background:rgba(213,94,0,.12)}
.tc .tk-clip .tk-t{text-decoration:line-through;text-decoration-color:#D55E00;text-decoration-thickness:3px}
.tc .tk-lcs{border:4px double #009E73;background:rgba(0,158,115,.16)}
.tc .tk-focus{border:3px solid #E69F00;background:rgba(230,159,0,.22)}
.tc .tk-focus .tk-t{text-decoration:underline;text-decoration-thickness:3px;text-underline-offset:3px}
.tc .tscroll{max-height:13.5em;overflow:auto;margin:.25em 0 .41em 0}
.tc table.tt{border-collapse:collapse;font-size:.86em;line-height:1.3}
.tc table.tt th,.tc table.tt td{border:1px solid rgba(128,128,128,.55);padding:.05em .48em;text-align:left}
.tc table.tt th{background:rgba(128,128,128,.16);position:sticky;top:0}
.tc table.tt td.n{text-align:right;font-variant-numeric:tabular-nums}
.tc table.tt tr.em td{background:rgba(230,159,0,.22);font-weight:700}
.tc table.tt tr.em td:first-child::before{content:"▶ ";color:#B35E00}
.tc table.tt tr.tot td{font-weight:700;border-top:3px solid currentColor}
.tc .tcap{font-size:.82em;opacity:.85;margin-top:.1em}
.tc .tf{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:.885em;white-space:pre-wrap;
  background:rgba(128,128,128,.12);border-radius:.32em;padding:.32em .56em;margin:.32em 0}
.tc .tres{font-size:1.45em;font-weight:800;margin:.18em .94em .18em 0;display:inline-block}
.tc .tres .tres-v{border:3px solid #0072B2;border-radius:.24em;padding:0 .29em;margin-left:.24em}
.tc svg{max-width:100%;height:auto;display:block}
.tc img.tchart{width:30em;max-width:100%;height:auto;display:block;border-radius:.29em;
  border:1px solid rgba(128,128,128,.35)}
.tc svg text{font-family:"DejaVu Sans",Arial,sans-serif}
.tc .tgrid table{border-collapse:collapse;font-size:.82em}
.tc .tgrid td,.tc .tgrid th{border:1px solid rgba(128,128,128,.55);min-width:1.9em;height:1.5em;text-align:center;
  padding:0 .2em}
.tc .tgrid th{background:rgba(128,128,128,.16);font-weight:600;white-space:pre}
.tc .tgrid td.pz{opacity:.55}
.tc .tgrid td.path{background:rgba(0,158,115,.30);font-weight:800;outline:2px solid #009E73;outline-offset:-2px}
.tc .tgrid td.cur{outline:3px solid #D55E00;outline-offset:-3px;font-weight:800}
.tc .tgrid td.src{background:rgba(230,159,0,.28)}
.tc .tgrid td.empty{color:transparent}
.tc .tgrid th.hl{outline:3px solid #D55E00;outline-offset:-3px}
.tc .tnotes{border:2px solid #CC79A7;border-radius:.33em;padding:.29em .57em;margin:.33em 0;font-size:.836em}
.tc .tnotes b{color:inherit}
.tc .task{border:2px solid #0072B2;border-radius:.33em;padding:.29em .57em;margin:.33em 0}
.tc .task .thint{font-size:.82em;opacity:.85}
.tc .tclaim{border:3px solid #D55E00;border-radius:.33em;padding:.12em .5em;margin:.25em 0;font-weight:600;
  background:rgba(213,94,0,.08);font-size:.92em;line-height:1.3}
.tc .tclaim-l{padding:.04em 0}
.tc .tclaim table{border-collapse:collapse}
.tc .tclaim th{text-align:left;font-weight:700;font-size:.9em;padding:0 1em 0 0}
.tc .tclaim td{padding:0 1em 0 0;vertical-align:top}
.tc .tclaim-yes{border-color:#009E73;background:rgba(0,158,115,.08)}
.tc .tclaim-na{border-style:dashed;border-color:rgba(128,128,128,.8);background:none}
.tc .tclaim-mark{font-weight:800;font-size:1.15em;margin-right:.2em}
.tc .tok-yes{color:#006B4F;font-weight:800}
.tc .tok-no{color:#B03A00;font-weight:800}
.tc-fit{display:flex;flex-direction:column;overflow:visible}
.tc-fit>*{flex:0 0 auto}
.tc-fit .tscroll,.tc-fit>.tscroll-long,.tc-fit>.tlcs,.tc-fit .tks{max-height:none;overflow:visible}
.tc-fit img.tchart{flex:0 0 auto;height:auto;max-width:100%;object-fit:contain;object-position:left top;
  align-self:flex-start}
.tc-fit>.tsplit{display:flex;flex-wrap:wrap;align-items:flex-start;gap:.25em 1.2em}
.tc-fit>.tsplit>table.tt{flex:0 0 auto;font-size:.84em}
.tc-fit>.tsplit>table.tt th,.tc-fit>.tsplit>table.tt td{padding:.05em .3em}
.tc-fit table.tt th{white-space:nowrap}
.tc-fit>.tsplit>table.tt td{white-space:nowrap}
.tc-fit>.trows{display:flex;flex-wrap:wrap;column-gap:1.6em}
.tc-fit>.trows>.trow{flex:0 1 auto;min-width:0;max-width:100%}
.tc-fit .tgrid tr:first-child th{writing-mode:vertical-rl;text-align:left;vertical-align:bottom;padding:.2em 0;
  height:auto}
.tc-fit>.tside{display:flex;flex-wrap:wrap;align-items:flex-start;gap:.3em 1em}
.tc-fit>.tside>img.tchart{flex:0 0 auto;max-width:100%;height:auto}
.tc-fit>.tside>.tside-r{flex:1 1 15em;min-width:0}
.tc-fit>.tlcs{flex:0 0 auto;display:flex;flex-wrap:wrap;align-items:flex-start;gap:.4em 1.2em}
.tc-fit>.tlcs>.tgrid{flex:0 0 auto}
.tc-fit>.tlcs>.tlcs-side{flex:1 1 14em;min-width:14em}
.tc-fit .tgrid-wide td,.tc-fit .tgrid-wide th{min-width:1.45em;padding:0 .08em}
.tc-fit .tgrid td,.tc-fit .tgrid th{height:1.25em;line-height:1.15}
.tc-dense .tk-t{font-size:.84em}
.tc-dense .tk{padding:0 .25em;border-width:1.5px}
.tc-dense .tks{gap:.16em .2em}
.tc-dense .tk-l{font-size:.82em;min-height:1em}
.tc .xp-cp{font-family:monospace;font-size:.82em;border:1px solid currentColor;border-radius:.2em;padding:0 .15em}
"""


def _e(s) -> str:
    return escape_text(str(s))


def _a(s) -> str:
    return escape_attr(str(s))


# ------------------------------------------------------------------------------------------------ blocks
def _chip_html(c: Chip) -> str:
    cls = "tk" + (f" tk-{c.kind}" if c.kind else "")
    title = f' title="{_a(c.title)}"' if c.title else ""
    return (f'<span class="{cls}"{title}><span class="tk-t">{_e(c.text)}</span>'
            f'<span class="tk-l">{_e(c.label)}</span></span>')


def _row_html(r: TokenRow) -> str:
    chips = "".join(_chip_html(c) for c in r.chips) or '<span class="tp-note">(no tokens)</span>'
    note = f'<span class="trow-n">{_e(r.note)}</span>' if r.note else ""
    return f'<div class="trow"><div class="trow-h">{_e(r.label)}{note}</div><div class="tks">{chips}</div></div>'


_NUMERIC = re.compile(r"[-+]?\d+(\.\d+)?([eE][-+]?\d+)?(/\d+)?( = [-+]?\d+(\.\d+)?)?")


def _td(v) -> str:
    """A table cell; numbers (also numbers already formatted as text) right-aligned."""
    text = num(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v)
    cls = ' class="n"' if _NUMERIC.fullmatch(text) else ""
    return f"<td{cls}>{_e(text)}</td>"


#: column heads as a table fitted to a screen writes them (one line each; the full head is its tooltip)
SHORT_HEADS = {"in candidate": "cand.", "count in candidate": "count", "max in one ref": "max ref",
               "justified by": "by", "starts at token": "starts at", "matched (clipped)": "matched",
               "overlap = min": "overlap", "candidate": "cand.", "cand. n-grams": "cand.", "ref. n-grams": "ref.",
               "in the average": "used", "count in references 1…K": "in refs"}
_REF_HEAD = re.compile(r"in reference (\d+)")


def _short_head(c: str) -> str:
    return SHORT_HEADS.get(c) or _REF_HEAD.sub(r"ref \1", c)


def _table_html(t: Table, *, scroll: bool = True, split: bool = False) -> str:
    """A table; ``split`` (a fitted step): its heads abbreviated (one line each), and a long table as two halves
    side by side (they wrap under each other when the window is too narrow), so it takes half the height."""
    if split:
        head = "".join(f'<th title="{_a(c)}">{_e(_short_head(c))}</th>' if _short_head(c) != c else
                       f"<th>{_e(c)}</th>" for c in t.columns)
    else:
        head = "".join(f"<th>{_e(c)}</th>" for c in t.columns)
    em = set(t.emphasis)
    rows = [("<tr class=\"em\">" if i in em else "<tr>") + "".join(_td(v) for v in row) + "</tr>"
            for i, row in enumerate(t.rows)]
    if t.total is not None:
        rows.append('<tr class="tot">' + "".join(_td(v) for v in t.total) + "</tr>")
    long = len(t.rows) > 5   # only a long table gives up height in a fitted step

    def table(part: list[str]) -> str:
        return f'<table class="tt"><thead><tr>{head}</tr></thead><tbody>{"".join(part)}</tbody></table>'

    cap = f'<div class="tcap">{_e(t.caption)}</div>' if t.caption else ""
    if split and long:
        half = (len(rows) + 1) // 2
        return f'<div class="tscroll tscroll-long tsplit">{table(rows[:half])}{table(rows[half:])}</div>{cap}'
    body = table(rows)
    return (f'<div class="tscroll{" tscroll-long" if long else ""}">{body}</div>' if scroll else body) + cap


def _formula_html(f: Formula) -> str:
    return '<div class="tf">' + "\n".join(_e(line) for line in f.lines) + "</div>"


def _result_html(r: Result) -> str:
    return (f'<div class="tres" data-metric="{_a(r.metric)}" data-value="{r.value!r}">{_e(r.label)} ='
            f'<span class="tres-v">{_e(r.shown)}</span></div>')


def _claims_html(claims: Sequence[ClaimCheck], *, fitted: bool = False) -> str:
    """The textbook's printed numbers of one step beside the trace's, in one box: one sentence for one
    number, a small table for several (each row: what the material says, what the implementation gives, ✓ / ✗).
    ✓ / ✗ and the border colour (any wrong number: orange) say the same. ``fitted`` (a step fitted to the
    window): the sentence without the three-way verdict's detail (in its tooltip and the presenter's notes)."""
    def attrs(c: ClaimCheck) -> str:
        agrees = {True: "yes", False: "no", None: "unknown"}[c.agrees]
        return (f'data-claim="{_a(c.metric)}" data-agrees="{agrees}" '
                f'data-value="{"" if c.value is None else repr(c.value)}"')

    cls = ("tclaim-no" if any(c.agrees is False for c in claims) else
           "tclaim-yes" if all(c.agrees for c in claims) else "tclaim-na")
    if len(claims) == 1:
        (c,) = claims
        said = c.brief if fitted else c.sentence
        tip = f' title="{_a(c.sentence)}"' if said != c.sentence else ""
        inner = (f'<div class="tclaim-l" {attrs(c)}{tip}><span class="tclaim-mark">{_e(c.mark)}</span>{_e(said)}'
                 "</div>")
    else:
        impls = list(dict.fromkeys(c.implementation for c in claims if c.implementation))
        gives = f"{' / '.join(impls)} gives" if impls else "the implementation gives"
        rows = "".join(f'<tr class="tclaim-l" {attrs(c)} title="{_a(c.sentence)}"><td>{_e(c.what)} '
                       f"{_e(c.said)}</td><td>{_e(c.shown or 'not computed')}</td><td>"
                       f'<span class="tclaim-mark">{_e(c.mark)}</span>{_e(c.short[2:])}</td></tr>' for c in claims)
        inner = (f"<table><thead><tr><th>The textbook says</th><th>{_e(gives)}</th><th>with these settings"
                 f"</th></tr></thead><tbody>{rows}</tbody></table>")
    return f'<div class="tclaim {cls}" role="note" aria-label="the textbook’s numbers">{inner}</div>'


def claims_table_html(claims) -> str:
    """The worked example's printed numbers, one row each, for the handout's first page."""
    if not claims:
        return ""
    rows = "".join(f"<tr><td>{_e(c.what)}</td><td>{_e(c.printed)}</td><td>{_e(c.implementation or '—')}</td>"
                   f"<td>{_e(c.shown or 'not computed')}</td><td>{_e(c.short)}</td></tr>" for c in claims)
    return ('<div class="tc tclaims"><table class="tt"><thead><tr><th>number</th><th>the textbook prints'
            "</th><th>implementation</th><th>it gives</th><th>verdict</th></tr></thead>"
            f"<tbody>{rows}</tbody></table><div class=\"tcap\">With the settings above; in the app, switch the "
            "dialect or an option to see under which one a printed number holds. Each comparison is repeated at "
            "the step where the number appears.</div></div>")


def block_html(b, *, upto: int | None = None, img_charts: bool = False, fitted: bool = False) -> str:
    """One block. ``upto`` (LCS grid only): how many inner cells are filled so far (row by row);
    ``img_charts``: charts as ``<img>`` (for ``st.html``), else inline ``<svg>`` (the handout); ``fitted``: laid
    out to fit the window (long tables in two halves side by side)."""
    if isinstance(b, Para):
        return f'<p class="tp-{b.kind}">{_e(b.text)}</p>'
    if isinstance(b, TokenRow):
        return _row_html(b)
    if isinstance(b, Table):
        return _table_html(b, split=fitted)
    if isinstance(b, Formula):
        return _formula_html(b)
    if isinstance(b, Result):
        return _result_html(b)
    if isinstance(b, Chart):
        return svg_chart(b, as_img=img_charts)
    if isinstance(b, LcsGrid):
        return grid_html(b, upto=upto)
    if isinstance(b, ClaimCheck):
        return _claims_html([b], fitted=fitted)
    raise TypeError(f"unknown block {type(b).__name__}")


def blocks_html(blocks: Iterable, *, upto: int | None = None, img_charts: bool = False, fitted: bool = False) -> str:
    """Blocks in order; consecutive results share one line, consecutive claim comparisons one box. ``fitted``
    (a step that must fit the window): long tables in two halves, and a chart followed by more blocks (claims,
    results, notes) beside them rather than above them."""
    blocks = list(blocks)
    if fitted:
        # a chart wider than a screen would be drawn below the projector's 16 px: the step's other blocks say the
        # same (the alignment: the token boxes with their LCS ranks); the handout keeps it
        blocks = [b for b in blocks if not (isinstance(b, Chart) and chart_width(b) > MAX_FITTED_CHART)]
        at = next((i for i, b in enumerate(blocks) if isinstance(b, Chart)), None)
        # the results and the textbook's numbers after a chart go beside it (the chart is as tall as it is wide)
        results = [b for b in blocks[(at or 0) + 1:] if isinstance(b, (Result, ClaimCheck))] if at is not None else []
        if any(isinstance(b, Result) for b in results):
            rest = [b for b in blocks[at + 1:] if not isinstance(b, (Result, ClaimCheck))]
            return (blocks_html(blocks[:at], upto=upto, img_charts=img_charts, fitted=True) +
                    f'<div class="tside">{block_html(blocks[at], img_charts=img_charts)}'
                    f'<div class="tside-r">{blocks_html(results)}</div></div>' +
                    blocks_html(rest, upto=upto, img_charts=img_charts, fitted=True))
    out: list[str] = []
    results: list[str] = []
    claims: list[ClaimCheck] = []
    rows: list[str] = []

    def flush():
        if rows:   # a fitted step: consecutive short token rows side by side
            out.append(f'<div class="trows">{"".join(rows)}</div>' if len(rows) > 1 else rows[0])
            rows.clear()
        if results:
            out.append(f'<div class="tres-row">{"".join(results)}</div>')
            results.clear()
        if claims:
            out.append(_claims_html(claims, fitted=fitted))
            claims.clear()

    for b in blocks:
        if isinstance(b, Result):
            if claims or rows:
                flush()
            results.append(_result_html(b))
            continue
        if isinstance(b, ClaimCheck):
            if results or rows:
                flush()
            claims.append(b)
            continue
        if isinstance(b, TokenRow) and fitted:
            if results or claims:
                flush()
            rows.append(_row_html(b))
            continue
        flush()
        out.append(block_html(b, upto=upto, img_charts=img_charts, fitted=fitted))
    flush()
    return "".join(out)


def claim_details(step: Step) -> str:
    """The step's textbook comparisons in full (with where a wrong number holds), for the speaker's notes: a
    step fitted to the window shows them without that detail (:attr:`ClaimCheck.brief`)."""
    full = [c.sentence for c in step.blocks if isinstance(c, ClaimCheck) and c.brief != c.sentence]
    return " ".join(full)


def notes_html(step: Step) -> str:
    return (f'<div class="tnotes"><b>Say:</b> {_e(step.say)}<br><b>Common misconception:</b> '
            f"{_e(step.misconception)}</div>")


def question_html(q: Question, *, with_answer: bool = False) -> str:
    ans = (f'<br><b>Answer:</b> {_e(q.shown)} — {_e(q.explanation)}' if with_answer else "")
    return (f'<div class="task"><b>Predict first:</b> {_e(q.prompt)} <span class="thint">({_e(q.hint)})</span>'
            f"{ans}</div>")


def step_html(step: Step, *, upto: int | None = None, notes: bool = False, fit: str | None = None,
              lead: str = "", img_charts: bool = True, background: str = "", min_px: float = 0) -> str:
    """A step's body (without its title) wrapped in the teach style. ``fit`` (a CSS length such as
    ``calc(100vh - 220px)``) makes the body a column of at most that height in which the tables give up space
    and scroll inside their own box; many token boxes are drawn smaller (``DENSE_CHIPS``). ``lead``: a first
    sentence (the LCS cell being filled); ``background``: the page's colour (under a table's rows that stay in
    sight while the table scrolls); ``min_px``: the smallest type the browser may fit the step to (the projector:
    :data:`PROJECTOR_MIN_PX`)."""
    chips = sum(len(b.chips) for b in step.blocks if isinstance(b, TokenRow))
    cls = "tc" + (" tc-dense" if chips > DENSE_CHIPS else "")
    lead_html = f'<p class="tp-key">{_e(lead)}</p>' if lead else ""
    grid = next((b for b in step.blocks if isinstance(b, LcsGrid)), None)
    if fit and grid is not None:   # the LCS table with its explanation beside it
        side = lead_html + blocks_html([b for b in step.blocks if b is not grid], img_charts=img_charts, fitted=True)
        body = grid_html(grid, upto=upto, side=side)
    else:
        body = lead_html + blocks_html(step.blocks, upto=upto, img_charts=img_charts, fitted=bool(fit))
    body += notes_html(step) if notes else ""
    if fit:
        bg = f";--tbg:{_a(background)}" if background else ""
        floor = f' data-min-px="{min_px:g}"' if min_px else ""
        return f'<div class="{cls} tc-fit" style="max-height:{_a(fit)}{bg}"{floor}>{body}</div>'
    return f'<div class="{cls}">{body}</div>'


DENSE_CHIPS = 24   # more token boxes than this in one step: smaller boxes, so the texts fit the window
#: the projector's step is never fitted below this type size: its smallest text (.82 of it) stays at 16 px
PROJECTOR_MIN_PX = 19.6


# -------------------------------------------------------------------------------------------- LCS grid
def grid_cells(g: LcsGrid) -> int:
    """Inner cells of a full grid (what the cell-by-cell slider runs over); 0 for a sampled grid."""
    return (len(g.row_index) - 1) * (len(g.col_index) - 1) if g.full else 0


def _cell_pos(g: LcsGrid, k: int) -> tuple[int, int]:
    """The k-th inner cell (1-based, row by row) as (row, column) indices into ``values``."""
    n = len(g.col_index) - 1
    return (k - 1) // n + 1, (k - 1) % n + 1


def cell_rule(g: LcsGrid, k: int) -> str:
    """Why the k-th cell (row by row) holds its value, read off the recorded table: the compared tokens are
    equal (diagonal + 1) or not (the larger neighbour)."""
    if not g.full or k < 1 or k > grid_cells(g):
        return ""
    a, b = _cell_pos(g, k)
    v = g.values
    rf, cf = g.ref_forms[a - 1], g.cand_forms[b - 1]
    ref_tok, cand_tok = g.ref_tokens[a - 1], g.cand_tokens[b - 1]
    where = f"Row {a} (reference ‘{ref_tok}’), column {b} (candidate ‘{cand_tok}’): "
    if rf == cf:
        return where + f"the tokens are equal, so diagonal {v[a - 1][b - 1]} + 1 = {v[a][b]}."
    return where + (f"the tokens differ, so the larger of above ({v[a - 1][b]}) and left ({v[a][b - 1]}) = "
                    f"{v[a][b]}.")


WIDE_GRID = 15   # columns: a wider LCS table gets narrower cells in a fitted step
GRID_TOKEN = 10   # a token longer than this is cut (…) in the LCS table's headers (whole in their tooltip)


def grid_html(g: LcsGrid, *, upto: int | None = None, side: str = "", blank: bool = False) -> str:
    """The LCS table: reference tokens down, candidate tokens across. With ``upto`` (full grids), only the
    first ``upto`` inner cells are filled, the last one outlined and the cells it was computed from shaded.
    ``side``: markup shown beside the table (with its legend), rather than the table alone. ``blank`` (the
    student's sheet): every inner cell empty, to fill in by hand; the first row and column (zeros) stay."""
    total = grid_cells(g)
    k = total if upto is None or not g.full else max(0, min(upto, total))
    cur = _cell_pos(g, k) if g.full and 0 < k < total + 1 and upto is not None else None
    src: set[tuple[int, int]] = set()
    if cur:
        a, b = cur
        src = {(a - 1, b - 1)} if g.ref_forms[a - 1] == g.cand_forms[b - 1] else {(a - 1, b), (a, b - 1)}
    head = ['<th></th><th>∅</th>']
    for j, ci in enumerate(g.col_index[1:], start=1):
        tok = g.cand_tokens[ci - 1] if 0 < ci <= len(g.cand_tokens) else ""
        hl = ' class="hl"' if cur and cur[1] == j else ""
        head.append(f'<th{hl} title="{_a(f"candidate token {ci}: {tok}")}">{_e(_short(tok, GRID_TOKEN))}</th>')
    rows = []
    for a, ri in enumerate(g.row_index):
        tok = "∅" if ri == 0 else (g.ref_tokens[ri - 1] if ri <= len(g.ref_tokens) else "")
        hl = ' class="hl"' if cur and cur[0] == a and a > 0 else ""
        cells = [f'<th>{ri}</th><th{hl} title="{_a(f"reference token {ri}: {tok}")}">{_e(_short(tok, GRID_TOKEN))}'
                 "</th>"]
        for b, ci in enumerate(g.col_index):
            cls = []
            # blank: only the true zeros (a part of a split table starts at a row of numbers, left empty too)
            filled = sheet_cell_given(ri, ci) if blank else (
                a == 0 or b == 0 or not g.full or (a - 1) * (len(g.col_index) - 1) + b <= k)
            if a == 0 or b == 0:
                cls.append("pz")
            if (ri, ci) in g.path and filled and (upto is None or k == total) and not blank:
                cls.append("path")
            if cur and (a, b) == cur:
                cls.append("cur")
            if (a, b) in src:
                cls.append("src")
            if not filled:
                cls.append("empty")
            c = f' class="{" ".join(cls)}"' if cls else ""
            cells.append(f"<td{c}>{g.values[a][b] if filled else '' if blank else '·'}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head_row = "<tr><th></th>" + "".join(head) + "</tr>"
    note = f'<div class="tcap">{_e(g.note)}</div>' if g.note else ""
    legend = ('<div class="tcap">' + (SHEET_GRID_RULE if blank else "Green, double-outlined: the alignment the "
              "backtrace picks.") + " Bottom right: the LCS length.</div>")
    table = f'<table>{head_row}{"".join(rows)}</table>'
    wide = " tgrid-wide" if len(g.col_index) > WIDE_GRID else ""
    if side:   # one scroll box (a long text) for the explanation and the table: side by side, or the
        # explanation above a table too wide for both
        return (f'<div class="tlcs tscroll tscroll-long"><div class="tlcs-side">{side}{legend}{note}</div>'
                f'<div class="tgrid{wide}">{table}</div></div>')
    return f'<div class="tgrid{wide} tscroll tscroll-long">{table}</div>{legend}{note}'


# ---------------------------------------------------------------------------------------------- charts
def _svg_text(x, y, s, *, size=14, anchor="middle", weight="normal", fill="currentColor", extra="") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}"{extra}>{_a(s)}</text>')


def _short(s: str, limit: int = 16) -> str:
    return s if len(s) <= limit else s[: limit - 1] + "…"


_PATTERNS = (f'<defs><pattern id="hatch" width="7" height="7" patternUnits="userSpaceOnUse" '
             f'patternTransform="rotate(45)"><rect width="7" height="7" fill="{ORANGE}"/>'
             f'<line x1="0" y1="0" x2="0" y2="7" stroke="#000" stroke-opacity=".45" stroke-width="3"/></pattern>'
             f'<pattern id="dots" width="8" height="8" patternUnits="userSpaceOnUse"><rect width="8" height="8" '
             f'fill="{GREEN}"/><circle cx="4" cy="4" r="1.8" fill="#000" fill-opacity=".45"/></pattern></defs>')


def _axes(x0, y0, w, h, ticks=(0, .25, .5, .75, 1), size: int = 13) -> list[str]:
    out = []
    for t in ticks:
        y = y0 + h - t * h
        out.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + w}" y2="{y:.1f}" stroke="currentColor" '
                   f'stroke-opacity=".2"/>')
        out.append(_svg_text(x0 - 6, y + 5, f"{t:g}", size=size, anchor="end"))
    out.append(f'<line x1="{x0}" y1="{y0 + h}" x2="{x0 + w}" y2="{y0 + h}" stroke="currentColor"/>')
    return out


def _precision_svg(data: dict) -> str:
    orders, smoothed = data["orders"], data.get("smoothed")
    W, H, x0, y0, h = 500, 230, 56, 26, 150
    w = W - x0 - 12
    group = w / max(1, len(orders))
    bw = group * (0.34 if smoothed else 0.5)
    parts = [_PATTERNS] + _axes(x0, y0, w, h, size=CHART_TEXT)
    for i, o in enumerate(orders):
        gx = x0 + i * group + group * (0.13 if smoothed else 0.25)
        vals = [("raw", o["raw"], BLUE)] + ([("smoothed", o["smoothed"], "url(#hatch)")] if smoothed else [])
        for j, (_, v, fill) in enumerate(vals):
            v = v or 0.0
            bh = max(0.0, min(1.0, v)) * h
            x = gx + j * (bw + 4)
            parts.append(f'<rect x="{x:.1f}" y="{y0 + h - bh:.1f}" width="{bw:.1f}" height="{bh:.1f}" fill="{fill}" '
                         f'stroke="#000" stroke-opacity=".5"/>')
            parts.append(_svg_text(x + bw / 2, y0 + h - bh - 5, num(v, 3), size=CHART_TEXT, weight="bold"))
        label = f"p{o['n']}: {num(o['matches'])}/{num(o['totals'])}"
        parts.append(_svg_text(x0 + i * group + group / 2, y0 + h + 22, label, size=CHART_TEXT))
    legend = [f'<rect x="{x0}" y="{H - 24}" width="16" height="16" fill="{BLUE}"/>',
              _svg_text(x0 + 22, H - 10, "precision m/t" + (" before smoothing" if smoothed else ""),
                        size=CHART_TEXT, anchor="start")]
    if smoothed:
        legend += [f'<rect x="{x0 + 272}" y="{H - 24}" width="16" height="16" fill="url(#hatch)"/>',
                   _svg_text(x0 + 294, H - 10, "smoothed", size=CHART_TEXT, anchor="start")]
    return parts + legend, W, H


CHART_TEXT = 17   # the charts' type (viewBox units): drawn near their own width, at least 16 px on a projector
CHART_EM = 20.7   # viewBox units per em of the step's type: a chart is drawn 1:1 at 1024x768 (type 20.7 px)
PRF_MANY_GROUP = 76   # one order's three bars when there are many (chrF's): its upright values clear the next order's
PRF_GROUP = 150   # width of one type's three bars (viewBox units): the chart is as wide as its types need


def _prf_svg(data: dict) -> tuple[list[str], int, int]:
    rows = data["rows"]
    group = PRF_GROUP if len(rows) <= 3 else PRF_MANY_GROUP
    x0 = 60
    spec = (("p", "precision", BLUE), ("r", "recall", "url(#hatch)"), ("f", "F-measure", "url(#dots)"))
    # the legend's entries side by side, each as wide as its name (at two types "F-measure" ran past the edge)
    at = [x0]
    for _, name, _ in spec:
        at.append(at[-1] + 22 + len(name) * CHART_TEXT * 0.6 + 20)
    W = int(max(420, x0 + 12 + len(rows) * group, at[-1] - 8))
    w = W - x0 - 12
    group = w / max(1, len(rows))
    bw = group * 0.27
    vsize = CHART_TEXT
    labels = [[num(r[k] or 0.0, 3) for k in ("p", "r", "f")] for r in rows]
    # values wider than their bar's pitch are written upwards (many types: chrF's orders)
    upright = max(len(t) for ts in labels for t in ts) * vsize * .6 > bw + 6 if rows else False
    y0, h = (58 if upright else 26), 100   # low: it shares a fitted step with a table, a formula and claims
    H = y0 + h + 46
    parts = [_PATTERNS] + _axes(x0, y0, w, h, size=CHART_TEXT)
    for i, r in enumerate(rows):
        gx = x0 + i * group + group * 0.08
        for j, (key, _, fill) in enumerate(spec):
            v = r[key] or 0.0
            bh = max(0.0, min(1.0, v)) * h
            x = gx + j * (bw + 6)
            parts.append(f'<rect x="{x:.1f}" y="{y0 + h - bh:.1f}" width="{bw:.1f}" height="{bh:.1f}" fill="{fill}" '
                         f'stroke="#000" stroke-opacity=".5"/>')
            ty = y0 + h - bh - 6
            turn = f' transform="rotate(-90 {x + bw / 2 + 6:.1f} {ty:.1f})"' if upright else ""
            parts.append(_svg_text(x + bw / 2 + (6 if upright else 0), ty, labels[i][j], size=vsize, weight="bold",
                                   anchor="start" if upright else "middle", extra=turn))
        parts.append(_svg_text(x0 + i * group + group / 2, y0 + h + 21, r.get("short") or r["label"], size=18,
                               weight="bold"))
    for lx, (_, name, fill) in zip(at, spec):
        parts += [f'<rect x="{lx:.1f}" y="{H - 19}" width="16" height="16" fill="{fill}"/>',
                  _svg_text(lx + 22, H - 5, name, size=CHART_TEXT, anchor="start")]
    return parts, W, H


def _bp_svg(data: dict) -> tuple[list[str], int, int]:
    c, r, bp = data["c"], data["r"], data["bp"]
    W, H, x0, y0, h = 540, 226, 56, 18, 150
    w = W - x0 - 16
    hi = max(2 * r, c + 2, 6)
    X = lambda x: x0 + x / hi * w  # noqa: E731
    Y = lambda y: y0 + h - y * h  # noqa: E731
    parts = _axes(x0, y0, w, h, size=CHART_TEXT)
    if r > 0:
        pts = []
        steps = 160
        for i in range(1, steps + 1):
            x = hi * i / steps
            y = math.exp(1 - r / x) if x < r else 1.0
            pts.append(f"{X(x):.1f},{Y(y):.1f}")
        parts.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{BLUE}" stroke-width="3"/>')
        parts.append(f'<line x1="{X(r):.1f}" y1="{y0}" x2="{X(r):.1f}" y2="{y0 + h}" stroke="{GREEN}" '
                     f'stroke-width="2" stroke-dasharray="6 4"/>')
        # at the foot of the dashed line: the curve is at BP = 1 there, and the candidate's label sits at the top
        # when c is near r (at the top both overlapped: "r = 6" over "c = 6, BP = 1")
        parts.append(_svg_text(X(r) + 4, y0 + h - 8, f"r = {r}", size=CHART_TEXT, anchor="start", fill=GREEN,
                               weight="bold"))
    cx, cy = X(c), Y(max(0.0, min(1.0, bp)))
    parts.append(f'<path d="M{cx:.1f},{cy - 9:.1f} L{cx + 9:.1f},{cy:.1f} L{cx:.1f},{cy + 9:.1f} L{cx - 9:.1f},'
                 f'{cy:.1f} Z" fill="{VERMILLION}" stroke="#000"/>')
    anchor = "end" if cx > x0 + w * 0.6 else "start"
    dx = -12 if anchor == "end" else 12
    parts.append(_svg_text(cx + dx, cy + (20 if bp > 0.8 else -9), f"c = {c}, BP = {num(bp)}", size=CHART_TEXT,
                           anchor=anchor, weight="bold"))
    for t in range(0, int(hi) + 1, max(1, int(hi) // 8)):
        parts.append(_svg_text(X(t), y0 + h + 20, str(t), size=CHART_TEXT))
    parts.append(_svg_text(x0 + w / 2, H - 6, "candidate length c — BP = exp(1 − r/c) if c < r, else 1",
                           size=CHART_TEXT))
    return parts, W, H


def _alignment_svg(data: dict) -> tuple[list[str], int, int]:
    cand, ref, pairs = data["cand"], data["ref"], data["pairs"]

    def layout(toks):
        xs, x = [], 10.0
        for t in toks:
            wdt = 16 + 10 * len(_short(t))
            xs.append((x, wdt))
            x += wdt + 8
        return xs, x

    cx, cw = layout(cand)
    rx, rw = layout(ref)
    W = int(max(cw, rw, 300)) + 10
    H = 156
    on_c = {c for _, c in pairs}
    on_r = {r for r, _ in pairs}
    parts = []
    for ri, ci in pairs:
        if ci < len(cx) and ri < len(rx):
            x1 = cx[ci][0] + cx[ci][1] / 2
            x2 = rx[ri][0] + rx[ri][1] / 2
            parts.append(f'<line x1="{x1:.1f}" y1="48" x2="{x2:.1f}" y2="102" stroke="{GREEN}" stroke-width="3"/>')
    for toks, xs, y, on in ((cand, cx, 18, on_c), (ref, rx, 102, on_r)):
        for i, (t, (x, wdt)) in enumerate(zip(toks, xs)):
            fill = "rgba(0,158,115,.25)" if i in on else "none"
            dash = "" if i in on else ' stroke-dasharray="4 3"'
            parts.append(f'<rect x="{x:.1f}" y="{y}" width="{wdt:.1f}" height="30" rx="5" fill="{fill}" '
                         f'stroke="currentColor" stroke-opacity=".7"{dash}/>')
            parts.append(_svg_text(x + wdt / 2, y + 21, _short(t), size=CHART_TEXT,
                                   weight="bold" if i in on else "normal"))
    parts.append(_svg_text(10, 14, "candidate", size=CHART_TEXT, anchor="start"))
    parts.append(_svg_text(10, 150, "reference", size=CHART_TEXT, anchor="start"))
    return parts, W, H


_FONTS = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
_CHARTS = {"precision_bars": _precision_svg, "prf_bars": _prf_svg, "bp_curve": _bp_svg, "alignment": _alignment_svg}
MAX_FITTED_CHART = 800   # viewBox units: a wider chart is left out of a step fitted to a screen


def chart_width(ch: Chart) -> int:
    """The chart's own width (viewBox units)."""
    return _CHARTS[ch.kind](ch.data)[1]


def svg_chart(ch: Chart, *, as_img: bool = False) -> str:
    """A chart as inline SVG (static: no script, no external resource). ``role="img"`` with the chart's
    alternative text as its accessible name. ``as_img``: the same SVG as an ``<img>`` with a ``data:`` URI
    (Streamlit's ``st.html`` removes inline ``<svg>``); it then has its own white background, since an image
    cannot inherit the page's text colour."""
    parts, W, H = _CHARTS[ch.kind](ch.data)
    if as_img:
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
               f'color="#111" font-family="{_FONTS}"><rect width="{W}" height="{H}" fill="#fff"/>'
               f'{"".join(parts)}</svg>')
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        # drawn at its own size in em of the step's type: its labels (CHART_TEXT) at the step's own scale, so a
        # projector's 16 px floor holds for them too
        return (f'<img class="tchart" src="data:image/svg+xml;base64,{data}" width="{W}" height="{H}" '
                f'style="width:{W / CHART_EM:.2f}em" alt="{_a(ch.alt)}" title="{_a(ch.alt)}">')
    width = f' style="max-width:min(100%,{W}px)"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" '
            f'font-family="{_FONTS}" aria-label="{_a(ch.alt)}"{width}><title>{_a(ch.alt)}</title>'
            f'{"".join(parts)}</svg>')


# --------------------------------------------------------------------------------------------- handout

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"


def _sheet_html(blocks) -> str:
    """The student's blocks (:func:`~explainer.teach.handout.sheet_blocks`), an LCS table drawn empty."""
    out, run = [], []
    for b in blocks:
        if isinstance(b, LcsGrid):
            out += [blocks_html(run), grid_html(b, blank=True)]
            run = []
        else:
            run.append(b)
    return "".join(out) + blocks_html(run)


def _step_section(i: int, s: Step, *, student: bool) -> str:
    q = s.question
    if student:
        # the student's sheet: what the question gives and a line to write on, not the worked numbers
        body = (question_html(q) if q else "") + _sheet_html(sheet_blocks(s)) + (
            '<p class="blank"><b>Your answer:</b> <span class="line"></span></p>' if q else "")
    else:
        body = (question_html(q) if q else "") + blocks_html(s.blocks) + notes_html(s)
    return (f'<section class="step" id="step-{i + 1}"><h2><span class="fam">{_e(s.family)}</span>'
            f'Step {i + 1} · {_e(s.title)}</h2><div class="tc">{body}</div></section>')


def _answer_html(i: int, s: Step, *, student: bool) -> str:
    """A step's entry on the answers page: its question's answer worked out, with the tokens it is about
    marked; on the student's sheet also what the sheet left to fill in (an LCS table, a table's numbers)."""
    q = s.question
    checks = sheet_checks(s) if student else []
    if q is None and not checks:
        return ""
    head = (f"<b>Step {i + 1} · {_e(q.prompt)}</b><br>{_e(q.shown)} — {_e(q.explanation)}" if q else
            f"<b>Step {i + 1} · {_e(s.title)}</b>")
    blocks = list(q.marked if q else ()) + checks
    return f'<li value="{i + 1}">{head}' + (f'<div class="tc">{blocks_html(blocks)}</div>' if blocks else "") + "</li>"


def handout_html(lesson: Lesson, *, settings: Sequence[tuple[str, str]] = (), link: str = "",
                 link_note: str = "", student: bool = False) -> str:
    """The whole walkthrough as one self-contained HTML file: texts, every step's tables, formulas with
    numbers and charts (inline SVG), speaker notes, the predict-first questions and, at the end, their
    answers. No script and no external resource; a CSP forbids requests; print CSS puts each step on its own
    page (the student's sheet: the steps flow, each whole, the answers from a new page on). ``settings``:
    (label, value) lines for the header (dialects, signatures); ``link``: the Teach-page URL of this lesson
    (shown as text, not fetched); ``link_note``: why there is none (said in its place).
    ``student``: the student's sheet — a question's step shows what the question gives and a blank instead of
    its worked numbers, the LCS table empty, no speaker notes and no textbook-claims table; the answers last."""
    title = (lesson.title or "BLEU and ROUGE, step by step") + (" — student's handout" if student else "")
    meta = [("Candidate", f'<div class="text">{_e(lesson.candidate)}</div>')]
    for k, r in enumerate(lesson.references):
        meta.append((f"Reference {k + 1}", f'<div class="text">{_e(r)}</div>'))
    for label, value in settings:
        meta.append((label, _e(value)))
    if lesson.source:
        meta.append(("Source", _e(lesson.source)))
    if link:
        meta.append(("Open in the app", f'<code class="link">{_e(link)}</code>'))
    elif link_note:
        meta.append(("Open in the app", f"No link: {_e(link_note)}"))
    meta_html = "".join(f"<tr><td><b>{_e(a)}</b></td><td>{b}</td></tr>" for a, b in meta)
    claims = (f'<section class="claims" id="claims"><h2>The textbook’s numbers</h2>'
              f"{claims_table_html(lesson.claims)}</section>" if lesson.claims and not student else "")
    toc = "".join(f'<li><a href="#step-{i + 1}">{_e(s.family)}: {_e(s.title)}</a></li>'
                  for i, s in enumerate(lesson.steps))
    sections = [_step_section(i, s, student=student) for i, s in enumerate(lesson.steps)]
    answers = "".join(_answer_html(i, s, student=student) for i, s in enumerate(lesson.steps))
    notes = "".join(f"<li>{_e(n)}</li>" for n in lesson.notes)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_e(title)}</title><style>{TEACH_CSS}{HANDOUT_CSS}{SHEET_CSS if student else ''}</style></head>"
            + ('<body class="sheet">' if student else "<body>") +
            f"<h1>{_e(title)}</h1><table class=\"meta\">{meta_html}</table>"
            + (f'<ul class="tp-note">{notes}</ul>' if notes else "") + claims
            + f'<nav><h2>Steps</h2><ol>{toc}</ol></nav>{"".join(sections)}'
            f'<section class="answers" id="answers"><h2>Answers</h2><ol class="answers">{answers}</ol></section>'
            "<footer>Made with the BLEU, ROUGE &amp; chrF explainer. Every number comes from the trace of the "
            "dialects named above, which reproduce the real implementations.</footer></body></html>\n")
