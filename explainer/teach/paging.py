"""A step too long for one projector screen, as consecutive steps: a table of more rows than a screen shows
whole (two columns of :data:`PAGE_ROWS` / 2 rows each) is split between two (or more) steps, never put in a scroll
box. Pure (no Streamlit); the lesson builder applies it to every lecture, so the walkthrough, the projector, the
presenter and the handouts number the same steps.

The first part keeps what comes before the table (the sentence that explains the step, the texts' tokens) and the
step's question; the last part has the table's total row and what comes after the table (the formula, the notes,
the results). The parts share the step's id with a suffix (``bleu-clipping``, ``bleu-clipping~2``), so that a
question, a claim or an exercise still finds the first part by its id."""
from __future__ import annotations

import dataclasses
import math

from explainer.teach.model import Chart, ClaimCheck, LcsGrid, Para, Result, Step, Table, TokenRow

__all__ = ["PAGE_ROWS", "PAGE_ROWS_WITH_TEXTS", "GRID_ROWS", "TEXT_BUDGET", "CHART_TABLE_ROWS", "MAX_PARTS",
           "page_steps", "part_of", "text_weight"]

#: rows of one table a projector screen shows whole (two columns of 9; with the step's sentence and texts, at
#: 1024x768 and at browser zoom 125 %, its smallest text at 16 px)
PAGE_ROWS = 18
#: ... when the step also shows the texts' tokens (more than :data:`MANY_CHIPS` boxes): they take the room of rows
PAGE_ROWS_WITH_TEXTS = 12
MANY_CHIPS = 20
#: reference tokens (rows) of an LCS table a screen shows whole; a longer table is shown in parts of rows
GRID_ROWS = 10
#: the texts' token boxes a screen shows whole (:func:`text_weight`; at 1024x768 and browser zoom 125 %, measured
#: on the worked examples: 457 fitted, 608 and 614 did not)
TEXT_BUDGET = 450
ROW_WEIGHT = 40       # a row of boxes' own line (its label) and its margins, in characters' room
#: a chart shares a screen with a table, notes, results and claims of at most this many lines (chrF's six orders
#: and the chart did not fit at zoom 125 %, nor BLEU's smoothing table with its three notes, nor ROUGE's P/R/F table
#: with two results and two claims): beside more it goes to a part of its own
CHART_TABLE_ROWS = 4
#: a step needing more parts than this is left whole (a long own text, past the 25 tokens a lecture's screen is
#: made for: its table or token rows scroll in their box rather than over dozens of steps)
MAX_PARTS = 4


def part_of(step_id: str) -> tuple[str, int]:
    """(the step's own id, the part number 1…) of a step id."""
    base, _, k = step_id.partition("~")
    return base, int(k) if k.isdigit() else 1


def _budget(step: Step) -> int:
    """The rows of a table a screen shows whole beside the step's other blocks."""
    chips = sum(len(b.chips) for b in step.blocks if isinstance(b, TokenRow))
    return PAGE_ROWS_WITH_TEXTS if chips > MANY_CHIPS else PAGE_ROWS


def _longest(step: Step) -> int | None:
    """The index of the step's longest table when it has more rows than a screen shows."""
    best, at = _budget(step), None
    for i, b in enumerate(step.blocks):
        if isinstance(b, Table):
            n = len(b.rows) + (1 if b.total is not None else 0)
            if n > best:
                best, at = n, i
    return at


def _split(step: Step, at: int) -> list[Step]:
    table: Table = step.blocks[at]
    parts = math.ceil((len(table.rows) + (1 if table.total is not None else 0)) / _budget(step))
    size = math.ceil(len(table.rows) / parts)
    before, after = step.blocks[:at], step.blocks[at + 1:]
    lead = tuple(b for b in before if isinstance(b, Para) and b.kind == "key")
    out = []
    for k in range(parts):
        lo, hi = k * size, min(len(table.rows), (k + 1) * size)
        last = k == parts - 1
        piece = dataclasses.replace(table, rows=table.rows[lo:hi],
                                    emphasis=tuple(i - lo for i in table.emphasis if lo <= i < hi),
                                    total=table.total if last else None,
                                    caption=(f"Rows {lo + 1}–{hi} of {len(table.rows)}. " + table.caption).strip())
        blocks = (before if k == 0 else lead) + (piece,) + (after if last else ())
        out.append(dataclasses.replace(
            step, id=step.id if k == 0 else f"{step.id}~{k + 1}", title=f"{step.title} ({k + 1} of {parts})",
            blocks=blocks, question=step.question if k == 0 else None))
    return out


def _grid_at(step: Step) -> int | None:
    return next((i for i, b in enumerate(step.blocks) if isinstance(b, LcsGrid) and len(b.row_index) - 1 > GRID_ROWS),
                None)


def _split_grid(step: Step, at: int) -> list[Step]:
    """An LCS table of more reference tokens than :data:`GRID_ROWS` in parts of rows, each part starting with the
    row above it (the cells its first row is computed from); the last part has the answer cell."""
    g: LcsGrid = step.blocks[at]
    rows = len(g.row_index) - 1
    parts = math.ceil(rows / GRID_ROWS)
    size = math.ceil(rows / parts)
    out = []
    for k in range(parts):
        lo, hi = k * size, min(rows, (k + 1) * size)          # positions lo..hi (0 = the empty prefix)
        piece = dataclasses.replace(g, row_index=g.row_index[lo:hi + 1], values=g.values[lo:hi + 1], full=False,
                                    note=(f"Rows {g.row_index[lo + 1]}–{g.row_index[hi]} of {g.row_index[-1]} "
                                          f"(row {g.row_index[lo]} repeated above them). " + g.note).strip())
        last = k == parts - 1
        blocks = step.blocks[:at] + (piece,) + (step.blocks[at + 1:] if last else ()) if k == 0 else \
            (piece,) + (step.blocks[at + 1:] if last else ())
        out.append(dataclasses.replace(
            step, id=step.id if k == 0 else f"{step.id}~{k + 1}", title=f"{step.title} ({k + 1} of {parts})",
            blocks=blocks, question=step.question if k == 0 else None))
    return out


def text_weight(rows) -> int:
    """The room rows of token boxes take, in characters: each box's text and its border, each row's label."""
    return sum(sum(len(c.text) + 2 for c in r.chips) + ROW_WEIGHT for r in rows)


def _rows_in_parts(rows: list[TokenRow]) -> list[list[TokenRow]]:
    """The rows in groups of at most :data:`TEXT_BUDGET`; a row longer than that alone in pieces."""
    groups: list[list[TokenRow]] = [[]]
    for r in rows:
        pieces, cur = [], []
        for c in r.chips:
            if cur and text_weight([TokenRow(r.label, tuple(cur + [c]))]) > TEXT_BUDGET:
                pieces.append(cur)
                cur = []
            cur.append(c)
        pieces.append(cur)
        for k, chips in enumerate(pieces):
            row = dataclasses.replace(r, chips=tuple(chips), label=r.label if k == 0 else f"{r.label} (continued)",
                                      note=r.note if k == len(pieces) - 1 else "")
            if groups[-1] and text_weight(groups[-1] + [row]) > TEXT_BUDGET:
                groups.append([])
            groups[-1].append(row)
    return groups


def _split_texts(step: Step) -> list[Step]:
    """A step whose texts' boxes (consecutive rows, no table beside them) take more than a screen, as parts: the
    step's key sentence leads each, what follows the rows is in the last."""
    at = [i for i, b in enumerate(step.blocks) if isinstance(b, TokenRow)]
    if (not at or at != list(range(at[0], at[-1] + 1)) or any(isinstance(b, (Table, LcsGrid)) for b in step.blocks)
            or text_weight(step.blocks[i] for i in at) <= TEXT_BUDGET):
        return [step]
    groups = _rows_in_parts([step.blocks[i] for i in at])
    before, after = step.blocks[:at[0]], step.blocks[at[-1] + 1:]
    lead = tuple(b for b in before if isinstance(b, Para) and b.kind == "key")
    return _parts(step, [(before if k == 0 else lead) + tuple(g) + (after if k == len(groups) - 1 else ())
                         for k, g in enumerate(groups)])


def _lines_beside(blocks, at: int) -> int:
    """The lines a chart (at ``at``) shares its screen with: a table's rows and each note before it (a line of
    small print), and each result and claim comparison after it."""
    before = sum(len(b.rows) if isinstance(b, Table) else 1 for b in blocks[:at]
                 if isinstance(b, Table) or (isinstance(b, Para) and b.kind == "note"))
    return before + sum(isinstance(b, _OUTCOME) for b in blocks[at + 1:])


_OUTCOME = (Result, ClaimCheck)


def _split_chart(step: Step) -> list[Step]:
    """A chart beside a table, notes, results and claims of more than :data:`CHART_TABLE_ROWS` lines goes, with
    what follows it, to a second part led by the step's key sentence; the step's results and claim comparisons
    stay in the first part, beside the table and formula they come from (so a claim is still found at the step's
    own id)."""
    at = next((i for i, b in enumerate(step.blocks) if isinstance(b, Chart)), None)
    if (at is None or not any(isinstance(b, Table) for b in step.blocks[:at])
            or _lines_beside(step.blocks, at) <= CHART_TABLE_ROWS):
        return [step]
    lead = tuple(b for b in step.blocks[:at] if isinstance(b, Para) and b.kind == "key")
    after = step.blocks[at + 1:]
    outcome = tuple(b for b in after if isinstance(b, _OUTCOME))
    rest = tuple(b for b in after if not isinstance(b, _OUTCOME))
    return _parts(step, [step.blocks[:at] + outcome, lead + (step.blocks[at],) + rest])


def _parts(step: Step, blocks: list[tuple]) -> list[Step]:
    n = len(blocks)
    return [dataclasses.replace(step, id=step.id if k == 0 else f"{step.id}~{k + 1}",
                                title=f"{step.title} ({k + 1} of {n})", blocks=b,
                                question=step.question if k == 0 else None) for k, b in enumerate(blocks)]


def _page_one(s: Step) -> list[Step]:
    at, grid = _longest(s), _grid_at(s)
    if at is not None:
        parts = _split(s, at)
    elif grid is not None:
        parts = _split_grid(s, grid)
    else:
        parts = [p for part in _split_texts(s) for p in _split_chart(part)]
    return parts if len(parts) <= MAX_PARTS else [s]


def page_steps(steps: list[Step]) -> list[Step]:
    """Every step as it fits a screen: a step with a longer table than :data:`PAGE_ROWS`, a larger LCS table than
    :data:`GRID_ROWS` rows, more token boxes than :data:`TEXT_BUDGET` or a chart beside a long table, as parts."""
    return [p for s in steps for p in _page_one(s)]
