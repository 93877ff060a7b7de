"""The walkthrough's key counter (explainer/ui/teach/clicker.py): the moves the server has not applied yet, from
the browser's state (a stranger's client may send anything: anything but the expected shape is no move)."""
from __future__ import annotations

from explainer.ui.teach.clicker import MAX_MOVES, unseen_moves


def test_only_the_unseen_moves_in_order():
    moves, seen = unseen_moves({"doc": "a", "seq": 3, "moves": [1, 1, -1]}, None)
    assert moves == [1, 1, -1] and seen == ("a", 3)
    moves, seen = unseen_moves({"doc": "a", "seq": 5, "moves": [1, 1, -1, 1, 1]}, seen)
    assert moves == [1, 1] and seen == ("a", 5)
    assert unseen_moves({"doc": "a", "seq": 5, "moves": [1, 1, -1, 1, 1]}, seen) == ([], ("a", 5))
    # a reloaded page (another document) counts from 1 again
    assert unseen_moves({"doc": "b", "seq": 1, "moves": [-1]}, seen) == ([-1], ("b", 1))


def test_anything_else_is_no_move():
    seen = ("a", 2)
    for bad in (None, "x", [], {"doc": "a", "seq": "3", "moves": [1]}, {"doc": "a", "seq": 3, "moves": [2]},
                {"doc": "a", "seq": 3, "moves": [True]}, {"doc": "a" * 40, "seq": 3, "moves": [1]},
                {"doc": "a", "seq": 3, "moves": [1] * (MAX_MOVES + 1)}, {"doc": "a", "seq": 10**12, "moves": [1]}):
        assert unseen_moves(bad, seen) == ([], seen), bad
