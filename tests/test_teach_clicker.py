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


def test_a_pending_move_stands_until_the_browser_shows_it():
    """settle(goto, picked, widget, url_step) -> (the step drawn, the move still pending)."""
    from explainer.ui.teach.clicker import settle

    assert settle(None, False, 3, "4") == (3, None)           # no move of the keys: the widget's step
    assert settle(None, True, 2, "4") == (2, None)            # a pick without a move of the keys
    assert settle(4, False, 2, "3") == (4, 4)                 # the browser has not shown step 5 yet
    assert settle(4, False, 4, "3") == (4, 4)                 # its widget has, its address bar not yet
    assert settle(4, False, 4, "5") == (4, None)              # both show it: nothing pending


def test_an_old_step_coming_back_is_not_a_pick():
    """CI (load ~3): five quick PageDowns moved four steps. A press sent before the browser had the last run's
    step carries the old step widget value, which Streamlit reports as a change of the step list; that change
    dropped the pending move, and the next press counted from the step shown before it."""
    from explainer.ui.teach.clicker import settle

    # the keys moved to step 3 (index 2); the browser still shows step 2 in its widget and its address bar
    assert settle(2, True, 1, "2") == (2, 2)
    # the browser had shown the keys' step (its address bar says 3) when the user picked step 2: the pick wins
    assert settle(2, True, 1, "3") == (1, None)


def test_an_old_step_sent_by_a_press_is_not_a_pick_even_when_the_address_bar_matches():
    """Keys that go back revisit steps: after → → → ← the keys' step (3) was in the address bar once already, so
    the address bar alone cannot tell an old step-list value from a pick (a loaded run of → PageDown Space ↓
    PageDown PageUp ← ended two steps short). A list change that came with a press was sent by the press."""
    from explainer.ui.teach.clicker import settle

    assert settle(2, True, 0, "3", pressed=True) == (2, 2)     # old value 0 came with the press: the move stands
    assert settle(2, True, 0, "3", pressed=False) == (0, None)  # alone: the user's pick
