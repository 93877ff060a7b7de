"""A step too long for one projector screen comes as consecutive steps (explainer/teach/paging.py; issue 31,
item 2): no table row and no LCS cell is lost, the total row and what follows the table are in the last part, the
question in the first, and every part's table fits a screen's budget — for every worked example and a 25-token
own text, in a lecture of every family with a lesson."""
from __future__ import annotations

import dataclasses

import pytest

from explainer.examples import EXAMPLES
from explainer.teach.families import lesson_family, lesson_names
from explainer.teach.lesson import LessonPart, build_lecture
from explainer.teach.model import Chart, Chip, ClaimCheck, Formula, LcsGrid, Para, Result, Step, Table, TokenRow
from explainer.teach.paging import CHART_TABLE_ROWS, GRID_ROWS, PAGE_ROWS, TEXT_BUDGET, page_steps, part_of, text_weight

PARTS = [LessonPart(n) for n in lesson_names()]
NEWS = ("the police arrested two men on friday after a robbery at a bank in the city centre and said two men had "
        "guns and a car", "police arrested two men after a robbery at a bank in the city centre on friday and said "
        "both men had guns and a car")


def _step(rows: int, total: bool = True) -> Step:
    table = Table(("n-gram", "count"), tuple((f"w{i}", i) for i in range(rows)), (0, rows - 1), "cap",
                  ("total", rows) if total else None)
    return Step("x-table", "X", "A table", (Para("what the step says", "key"), Para("a note", "note"), table,
                                            Formula(("a = b",))), "say", "mis", question=None)


def test_a_long_table_is_split_without_losing_a_row():
    parts = page_steps([_step(41)])
    assert [p.id for p in parts] == ["x-table", "x-table~2", "x-table~3"]
    tables = [next(b for b in p.blocks if isinstance(b, Table)) for p in parts]
    assert sum((t.rows for t in tables), ()) == _step(41).blocks[2].rows
    assert all(len(t.rows) + (t.total is not None) <= PAGE_ROWS for t in tables)
    assert [t.total for t in tables] == [None, None, ("total", 41)]
    assert tables[0].emphasis == (0,) and tables[-1].emphasis == (len(tables[-1].rows) - 1,)
    # the key sentence leads every part; the formula after the table is in the last part only
    assert all(isinstance(p.blocks[0], Para) and p.blocks[0].kind == "key" for p in parts)
    assert [any(isinstance(b, Formula) for b in p.blocks) for p in parts] == [False, False, True]
    assert [part_of(p.id) for p in parts] == [("x-table", 1), ("x-table", 2), ("x-table", 3)]


def test_a_table_that_fits_is_left_alone():
    s = _step(PAGE_ROWS - 1)
    assert page_steps([s]) == [s]


def _check(steps: list[Step]) -> None:
    for s in steps:
        for b in s.blocks:
            if isinstance(b, Table):
                assert len(b.rows) + (b.total is not None) <= PAGE_ROWS, (s.id, len(b.rows))
            if isinstance(b, LcsGrid):
                assert len(b.row_index) - 1 <= GRID_ROWS, (s.id, len(b.row_index))
        assert part_of(s.id)[1] == 1 or s.question is None, s.id


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: e.id)
def test_every_examples_lecture_fits_the_budget(ex):
    _check(build_lecture(ex.candidate, list(ex.references), PARTS).steps)


def test_a_25_token_own_texts_lcs_table_comes_in_parts_that_keep_every_cell():
    cand, ref = (" ".join(t.split()[:25]) for t in NEWS)
    steps = build_lecture(cand, [ref], PARTS).steps
    _check(steps)
    grids = [b for s in steps for b in s.blocks if isinstance(b, LcsGrid)]
    assert len(grids) >= 3
    # each part repeats the row above its first: together they are the table the trace records
    rouge = lesson_family("rouge")
    whole = next(b for s in rouge.steps(rouge.trace(None, {}, cand, [ref])) for b in s.blocks
                 if isinstance(b, LcsGrid))
    assert [grids[0].row_index[0]] + [i for g in grids for i in g.row_index[1:]] == list(whole.row_index)
    assert [grids[0].values[0]] + [v for g in grids for v in g.values[1:]] == list(whole.values)
    assert all(g.col_index == whole.col_index for g in grids)


def _texts_step(words: int, rows: int) -> Step:
    toks = tuple(Chip(f"word{i}") for i in range(words))
    rows_ = tuple(TokenRow(f"Text {k}", toks, f"{words} tokens") for k in range(rows))
    return Step("x-texts", "X", "The texts", (Para("key", "key"),) + rows_ + (Para("note", "note"),), "say", "mis")


def test_many_token_boxes_come_in_parts_that_keep_every_box():
    s = _texts_step(40, 4)                       # 4 rows of 40 boxes of 5 characters: over a screen's room
    assert text_weight(b for b in s.blocks if isinstance(b, TokenRow)) > TEXT_BUDGET
    parts = page_steps([s])
    assert len(parts) > 1 and all(p.blocks[0] == Para("key", "key") for p in parts)
    rows = [b for p in parts for b in p.blocks if isinstance(b, TokenRow)]
    assert all(text_weight([r]) <= TEXT_BUDGET for r in rows)
    assert sum(len(r.chips) for r in rows) == 160 and [p.blocks[-1] for p in parts][-1] == Para("note", "note")
    assert page_steps([_texts_step(10, 2)]) == [_texts_step(10, 2)]


def test_a_chart_beside_a_long_table_gets_a_part_of_its_own():
    """The chart moves with what follows it; the step's result stays beside the table it comes from."""
    table = Table(("order", "P"), tuple((k, 0.5) for k in range(CHART_TABLE_ROWS + 2)))
    chart = Chart("prf_bars", {}, "alt")
    note = Para("after the chart", "note")
    result = Result("F", 0.5, "0.5", "f")
    s = Step("x-chart", "X", "P, R, F", (Para("key", "key"), table, chart, note, result), "say", "mis")
    parts = page_steps([s])
    assert [p.blocks for p in parts] == [(Para("key", "key"), table, result), (Para("key", "key"), chart, note)]
    assert [p.id for p in parts] == ["x-chart", "x-chart~2"]
    short = dataclasses.replace(s, blocks=(Para("key", "key"), Table(("order", "P"), ((1, 0.5),)), chart))
    assert page_steps([short]) == [short]


def test_results_and_claims_beside_a_chart_count_as_its_lines():
    """ROUGE's P/R/F step (a table of 2 rows, a formula, the chart, two claims, two results) did not fit a
    1024x768 screen at zoom 125 %; with the two results alone it did."""
    table = Table(("", "P"), ((1, 0.5), (2, 0.5)))
    chart = Chart("prf_bars", {}, "alt")
    results = tuple(Result(m, 0.5, "0.5", m) for m in ("r", "f"))
    claims = tuple(ClaimCheck(m, m, "0.5", 0.5, "0.5", "rouge-score 0.1.2", True) for m in ("r", "f"))
    fits = Step("prf", "R", "P, R, F", (Para("key", "key"), table, Formula(("f = x",)), chart) + results, "s", "m")
    assert page_steps([fits]) == [fits]
    full = dataclasses.replace(fits, blocks=fits.blocks[:4] + claims + results)
    first, second = page_steps([full])
    assert first.id == "prf" and first.blocks == fits.blocks[:3] + claims + results
    assert second.id == "prf~2" and second.blocks == (Para("key", "key"), chart)


def test_a_step_needing_more_parts_than_max_parts_is_left_whole():
    """A long own text (3,000 tokens) made its texts step 23 steps; it stays one (its rows scroll in their box)."""
    from explainer.teach.paging import MAX_PARTS

    long = _texts_step(40 * (MAX_PARTS + 2), 4)
    assert page_steps([long]) == [long]
    assert len(page_steps([_step(PAGE_ROWS * MAX_PARTS - 1)])) == MAX_PARTS
