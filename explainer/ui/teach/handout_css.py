"""The handouts' print style (beside :data:`explainer.ui.teach.teach_html.TEACH_CSS`): the teacher's handout prints
one step per page; the student's sheet (``body.sheet``) lets the steps flow, two or more to a page, each step whole,
in smaller type with room to write, and the answers from a new page on."""
from __future__ import annotations

__all__ = ["HANDOUT_CSS", "SHEET_CSS"]

HANDOUT_CSS = """
:root{color-scheme:light}
body{font-family:"DejaVu Sans",Arial,Helvetica,sans-serif;color:#111;background:#fff;max-width:60rem;
  margin:0 auto;padding:1.2rem 1.4rem}
h1{font-size:1.9rem;margin:.2rem 0 .6rem 0}
h2{font-size:1.45rem;margin:.2rem 0 .5rem 0;border-bottom:3px solid #0072B2;padding-bottom:.2rem}
h2 .fam{display:inline-block;font-size:.9rem;border:2px solid currentColor;border-radius:.3rem;padding:0 .35rem;
  margin-right:.5rem;vertical-align:middle}
.meta{font-size:.95rem;width:100%;table-layout:fixed}
.meta td{padding:.1rem .6rem .1rem 0;vertical-align:top}
.meta td:first-child{width:9.5rem}
.text{white-space:pre-wrap;border:1px solid #999;border-radius:.3rem;padding:.3rem .5rem;margin:.2rem 0}
/* long unbroken strings (a link, a token, a text without spaces) break anywhere rather than run off the page */
h1,h2,.text,code.link,.answers li,.tc p,.tc table.tt td,.tc .tf,.tc .tclaim,.tc .task,
.tc .tnotes,.tc .tcap,.tc .trow-h{overflow-wrap:anywhere}
/* column heads wrap between words only: "anywhere" let a narrow column break "implementatio|n" */
.tc table.tt th{overflow-wrap:normal;word-break:normal;hyphens:manual}
/* the header's settings (signatures, "implementation") wrap between words: "anywhere" let the table shrink the
   column below a word's width and broke "implementatio|n"; a string longer than the line still breaks */
.meta td{overflow-wrap:break-word;word-break:normal;hyphens:manual}
.meta td:first-child{white-space:nowrap}
.blank .line{display:inline-block;width:12em;border-bottom:1px solid currentColor;height:1.1em}
code.link{word-break:break-all}
.tc .tk{max-width:100%;white-space:pre-wrap;overflow-wrap:anywhere}
.tc .tk-t{min-width:0;max-width:100%}
.tc table.tt{max-width:100%}
/* the LCS table fits the page: smaller cells, the candidate's tokens written downwards above their columns */
.tc .tgrid table{font-size:.72em}
.tc .tgrid td,.tc .tgrid th{min-width:1.2em;height:1.35em;padding:0 .08em}
.tc .tgrid th{white-space:pre;overflow-wrap:normal}
.tc .tgrid tr:first-child th{writing-mode:vertical-rl;text-align:left;vertical-align:bottom;padding:.2em 0;height:auto}
@media (max-width:760px){.tc .tgrid table{font-size:.62em}}
nav ol{columns:2;font-size:.95rem}
section.step{margin:1.2rem 0 1.8rem 0}
.tc .tks{max-height:none;overflow:visible}
.tc .tscroll{max-height:none;overflow:visible}
.answers li{margin-bottom:.5rem}
footer{font-size:.85rem;opacity:.85;margin-top:2rem;border-top:1px solid #999;padding-top:.5rem}
@page{margin:1.4cm}
@media print{
  body{max-width:none;padding:0}
  nav{display:none}
  section.step,section.answers{break-before:page;page-break-before:always}
  table,tr,.trow,.tf,svg,.tres,.tnotes,.task{break-inside:avoid;page-break-inside:avoid}
  .tc table.tt th{position:static}
  a{color:inherit;text-decoration:none}
}
"""

# The student's sheet: a step is a short task (what the question gives and a line), so the steps flow, never one
# split across two pages; smaller printed type; LCS cells big enough to write a digit in.
SHEET_CSS = """
body.sheet .tc{font-size:1rem}
body.sheet h2{font-size:1.15rem;margin:.1rem 0 .35rem 0;border-bottom-width:2px}
body.sheet h2 .fam{font-size:.8rem}
body.sheet section.step{margin:.6rem 0 1rem 0}
body.sheet .blank{margin:.5em 0 .2em 0}
body.sheet .blank .line{width:16em;height:1.5em}
body.sheet .tc .tgrid td{min-width:2.1em;height:2.1em}
body.sheet .tc .tgrid td.pz{opacity:.7}
@media print{
  body.sheet{font-size:10pt}
  body.sheet h1{font-size:1.3rem;margin:0 0 .3rem 0}
  body.sheet .meta{font-size:.8rem}
  body.sheet .tc{font-size:.8rem}
  body.sheet section.step{break-before:auto;page-break-before:auto;break-inside:avoid;page-break-inside:avoid;
    margin:.3rem 0 .7rem 0}
  body.sheet section.answers{break-before:page;page-break-before:always}
  body.sheet .answers{font-size:.8rem}
  body.sheet ol.answers{columns:2;column-gap:1.6em;padding-left:0;list-style:none}
  /* in a column, a table's words wrap between words (only a word longer than the column breaks) */
  body.sheet .answers .tc table.tt td{overflow-wrap:break-word}
  body.sheet .answers li{margin-bottom:.3rem;break-inside:avoid;page-break-inside:avoid}
}
"""
