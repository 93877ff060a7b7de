"""Teach: the same walkthrough as Markdown (for slides and notes). Pure (no Streamlit).

User text is escaped for Markdown (:func:`md_text`): every character that could start emphasis, a link, an
HTML tag, a table cell, maths or an entity is backslash-escaped, newlines become spaces, and invisible or
direction-changing characters are spelled out as ``<U+XXXX>``. Charts become their text alternative.
"""
from __future__ import annotations

import re
from typing import Sequence

from explainer.teach.handout import SHEET_GRID_RULE, STEP_TEX, sheet_blocks, sheet_cell_given, sheet_checks
from explainer.teach.model import Chart, ClaimCheck, Formula, LcsGrid, Lesson, Para, Result, Table, TokenRow, num
from explainer.ui.highlight import is_suspicious_char

__all__ = ["md_text", "handout_markdown", "block_markdown"]

# Inline Markdown syntax (emphasis, code, links, HTML, tables, strike-through, maths, entities). What only
# matters at the start of a line (#, -, +, >, "1.") is handled by _line_start; "://" and "www." are broken
# so a user's URL does not become a link.
_SPECIAL = set("\\`*_[]<>|~$&")
_LINE_START = re.compile(r"^(\s*)([#>+=-]|\d+[.)])")


def md_text(s) -> str:
    out = []
    for ch in str(s):
        if ch in "\r\n":
            out.append(" ")
        elif is_suspicious_char(ch):
            out.append(f"\\<U+{ord(ch):04X}\\>")
        elif ch in _SPECIAL:
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out).replace("://", "\\://").replace("www.", "www\\.")


def _line_start(s: str) -> str:
    """A paragraph that would start with list, heading or quote syntax gets that character escaped."""
    def esc(m):
        mark = m.group(2)
        return m.group(1) + (mark[:-1] + "\\" + mark[-1] if mark[0].isdigit() else "\\" + mark)
    return _LINE_START.sub(esc, s, count=1)


def _cell(v) -> str:
    return md_text(num(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v)


def _row(r: TokenRow) -> str:
    def chip(c) -> str:
        t = md_text(c.text)
        if c.kind == "match" or c.kind == "lcs":
            t = f"**{t}**"
        elif c.kind == "clip":
            t = f"~~{t}~~ ✂"
        elif c.kind == "focus":   # a token an answer talks about (highlight syntax of Marp, Obsidian, …)
            t = f"=={t}=="
        if c.label and c.kind != "clip":
            t += f" ({md_text(c.label)})"
        return t

    chips = " · ".join(chip(c) for c in r.chips) or "(no tokens)"
    note = f" — {md_text(r.note)}" if r.note else ""
    return f"**{md_text(r.label)}**{note}: {chips}"


def _table(t: Table) -> str:
    lines = ["| " + " | ".join(md_text(c) for c in t.columns) + " |",
             "|" + "|".join(" --- " for _ in t.columns) + "|"]
    em = set(t.emphasis)
    for i, row in enumerate(t.rows):
        cells = [_cell(v) for v in row]
        if i in em:
            cells = [f"**{c}**" if c else c for c in cells]
            cells[0] = "▶ " + cells[0]
        lines.append("| " + " | ".join(cells) + " |")
    if t.total is not None:
        lines.append("| " + " | ".join(f"**{_cell(v)}**" if _cell(v) else "" for v in t.total) + " |")
    out = "\n".join(lines)
    return out + (f"\n\n*{md_text(t.caption)}*" if t.caption else "")


def _grid(g: LcsGrid, *, blank: bool = False) -> str:
    """The LCS table; ``blank`` (the student's sheet): only its zeros, the cells to compute left empty."""
    head = ["", "∅"] + [md_text(g.cand_tokens[c - 1]) for c in g.col_index[1:]]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    for a, ri in enumerate(g.row_index):
        tok = "∅" if ri == 0 else md_text(g.ref_tokens[ri - 1])
        if blank:
            cells = [tok] + [str(v) if sheet_cell_given(ri, ci) else "" for ci, v in zip(g.col_index, g.values[a])]
        else:
            cells = [tok] + [f"**{v}**" if (ri, ci) in g.path else str(v) for ci, v in zip(g.col_index, g.values[a])]
        lines.append("| " + " | ".join(cells) + " |")
    legend = SHEET_GRID_RULE if blank else "Bold cells: the alignment the backtrace picks."
    out = "\n".join(lines) + f"\n\n*{legend} Bottom-right: the LCS length.*"
    return out + (f"\n\n*{md_text(g.note)}*" if g.note else "")


def block_markdown(b) -> str:
    if isinstance(b, Para):
        if b.kind == "key":
            return f"**{md_text(b.text)}**"
        if b.kind == "note":
            return f"*{md_text(b.text)}*"
        return _line_start(md_text(b.text))
    if isinstance(b, TokenRow):
        return _row(b)
    if isinstance(b, Table):
        return _table(b)
    if isinstance(b, Formula):
        # an indented code block keeps the arithmetic literal (no escaping needed inside it)
        return "\n".join("    " + "".join(f"<U+{ord(c):04X}>" if is_suspicious_char(c) else c for c in line)
                         for line in b.lines)
    if isinstance(b, Result):
        return f"**{md_text(b.label)} = {md_text(b.shown)}**"
    if isinstance(b, Chart):
        return f"*Chart: {md_text(b.alt)}*"
    if isinstance(b, LcsGrid):
        return _grid(b)
    if isinstance(b, ClaimCheck):
        return f"> **{md_text(b.mark)}** {md_text(b.sentence)}"
    raise TypeError(f"unknown block {type(b).__name__}")


BLANK = "\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_"   # a line to write on, escaped (not emphasis)


def _step_markdown(i: int, s, *, student: bool) -> list[str]:
    out = ["---", "", f"## Step {i + 1} · {s.family} · {md_text(s.title)}", ""]
    tex = STEP_TEX.get(getattr(s, "formula_id", "") or s.id)
    if tex:
        out += ["$$", tex, "$$", ""]
    q = s.question
    if student:
        # the worked numbers would give the answer away: what the question gives, and a blank
        if q:
            out += [f"> **Predict first:** {md_text(q.prompt)} ({md_text(q.hint)})", ""]
        for b in sheet_blocks(s):
            out += [_grid(b, blank=True) if isinstance(b, LcsGrid) else block_markdown(b), ""]
        return out + ([f"**Your answer:** {BLANK}", ""] if q else [])
    if q:
        out += [f"> **Predict first:** {md_text(q.prompt)} ({md_text(q.hint)})", ""]
    for b in s.blocks:
        out += [block_markdown(b), ""]
    if not student:
        out += [f"**Say:** {md_text(s.say)}", "", f"**Common misconception:** {md_text(s.misconception)}", ""]
    return out


def handout_markdown(lesson: Lesson, *, settings: Sequence[tuple[str, str]] = (), link: str = "",
                     link_note: str = "", student: bool = False) -> str:
    """The walkthrough as Markdown; ``link``: the Teach-page URL of the lesson, ``link_note``: why there is none.
    Each step's general formula in LaTeX ($$ … $$). ``student``: the student's handout — a question's step shows
    what the question gives and a blank instead of its worked numbers, no speaker notes, the answers at the end."""
    title = lesson.title or "BLEU and ROUGE, step by step"
    out = [f"# {md_text(title)}" + (" — student's handout" if student else ""), "",
           f"**Candidate:** {md_text(lesson.candidate)}", ""]
    for k, r in enumerate(lesson.references):
        out += [f"**Reference {k + 1}:** {md_text(r)}", ""]
    for label, value in settings:
        out += [f"**{md_text(label)}:** {md_text(value)}", ""]
    if lesson.source:
        out += [f"**Source:** {md_text(lesson.source)}", ""]
    if link:
        out += [f"**Open in the app:** <{link}>" if "<" not in link and ">" not in link and " " not in link
                else f"**Open in the app:** {md_text(link)}", ""]
    elif link_note:
        out += [f"**Open in the app:** no link — {md_text(link_note)}", ""]
    for n in lesson.notes:
        out += [f"*{md_text(n)}*", ""]
    if lesson.claims and not student:
        out += ["## The textbook’s numbers", "",
                "| number | the textbook prints | implementation | it gives | verdict |",
                "| --- | --- | --- | --- | --- |"]
        out += [f"| {md_text(c.what)} | {md_text(c.printed)} | {md_text(c.implementation or '—')} | "
                f"{md_text(c.shown or 'not computed')} | {md_text(c.short)} |" for c in lesson.claims]
        out += ["", "*With the settings above; in the app, switch the dialect or an option to see under which one a "
                "printed number holds. Each comparison is repeated at the step where the number appears.*", ""]
    for i, s in enumerate(lesson.steps):
        out += _step_markdown(i, s, student=student)
    answers = [line for i, s in enumerate(lesson.steps) for line in _answer_markdown(i, s, student=student)]
    if answers:
        out += ["---", "", "## Answers", ""] + answers
    return "\n".join(out).rstrip() + "\n"


def _answer_markdown(i: int, s, *, student: bool) -> list[str]:
    """A step's answer worked out, the tokens it is about marked; on the student's sheet also what the sheet left
    to fill in (an LCS table, a table's numbers)."""
    q = s.question
    checks = sheet_checks(s) if student else []
    out = [f"- **Step {i + 1} · {md_text(q.prompt)}** {md_text(q.shown)} — {md_text(q.explanation)}", ""] if q else (
        [f"- **Step {i + 1} · {md_text(s.title)}**", ""] if checks else [])
    out += [f"  {_row(r)}" for r in (q.marked if q else ())] + ([""] if q and q.marked else [])
    for b in checks:   # indented: part of the list item
        out += ["\n".join("  " + line if line else "" for line in block_markdown(b).split("\n")), ""]
    return out
