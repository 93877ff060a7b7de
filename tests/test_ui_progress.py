"""The progress bar moves at most every EVERY_SECONDS (each move is a message the browser renders the whole page
for: issue 18), appears late when asked to, and always shows its end."""
from __future__ import annotations

import pytest

from explainer.ui import progress as pg


class _Bar:
    def __init__(self, log: list) -> None:
        self.log = log

    def progress(self, frac: float, text: str | None = None) -> None:
        self.log.append((round(frac, 3), text))

    def empty(self) -> None:
        self.log.append("empty")


@pytest.fixture
def clock(monkeypatch):
    now = [100.0]
    log: list = []
    monkeypatch.setattr(pg.time, "perf_counter", lambda: now[0])
    monkeypatch.setattr(pg.st, "progress", lambda frac, text=None: (log.append(("drawn", text)), _Bar(log))[1])
    return now, log


def test_a_bar_ticked_at_every_segment_moves_four_times_a_second(clock):
    now, log = clock
    bar = pg.Progress("Scoring")
    assert log == [("drawn", "Scoring")]
    for k in range(1, 2001):            # 2,000 ticks over one second
        now[0] += 0.0005
        bar(k / 2000, f"segment {k}")
    moves = [x for x in log[1:] if x != "empty"]
    assert len(moves) == 4              # at 0.25, 0.5, 0.75 and 1.0 s
    assert moves[0] == (0.25, "segment 500") and moves[-1] == (1.0, "segment 2000")
    bar.finish("done: budget")
    assert log[-1] == (1.0, "done: budget")
    bar.done()
    assert log[-1] == "empty"


def test_a_late_bar_is_drawn_only_for_work_that_lasts(clock):
    now, log = clock
    quick = pg.Progress("Quick", after=0.3)
    for k in range(10):
        now[0] += 0.01
        quick(k / 10, "x")
    quick.done()
    assert log == []                    # nothing drawn, nothing to remove
    slow = pg.Progress("Slow", after=0.3)
    now[0] += 0.31
    slow(0.5, "half")
    assert log == [("drawn", "Slow"), (0.5, "half")]
    slow(0.6)                           # too soon after the last move
    assert len(log) == 2
    now[0] += 0.25
    slow(2.0)                           # clamped, and the label when no text is given
    assert log[-1] == (1.0, "Slow")
