"""The walkthrough's keys, counted in the browser: every press of a clicker key (PageDown / PageUp / Space / the
arrows) moves one step, however fast they come.

Streamlit's button shortcuts lost presses: a press while the previous one's rerun was still running only set the
same button's trigger again, and the two merged into one move (five quick presses moved one to four steps). Here
the browser numbers each press and sends the count with the last moves as the component's state (a state value
is kept, not merged away: the latest holds every press); the server applies the moves it has not seen yet, in
order. The same keys' Streamlit shortcuts (the hidden clicker buttons, Next / Previous) never see these presses.

Until this counter listens, the page shows no step (``page.PAGE_CSS``; at most 3 s): the step appeared before the
counter's script and the hidden buttons were loaded (up to 0.8 s later on a busy machine), and a PageDown pressed
at once then had nothing to take it.
"""
from __future__ import annotations

import streamlit as st

from explainer.ui import pagestate as ps

KEY = "tch_clicker"             # the component's key
SEEN = "_tch_clicker_seen"      # session state: (the document's id, the last press applied)
GOTO = "_tch_clicker_goto"      # session state: the step the keys moved to, until the browser shows it
PICKED = "_tch_clicker_picked"  # session state: the step list changed in this run (a pick, or an old value back)
PRESSED = "_tch_clicker_pressed"  # session state: this run brought new presses (its list change is no pick)
MAX_MOVES = 64                  # the browser keeps this many last moves (more unapplied presses: the rest is lost)

# Trusted constant code (no user data reaches it; only counts and ±1 leave it). One listener per document, in the
# window's capture phase: it runs before Streamlit's shortcut handler (on the document) and stops the event.
_JS = """
export default function (component) {
  const { setStateValue } = component;
  const w = window;
  if (!w.__tchClicker) {
    const doc = Math.random().toString(36).slice(2, 12);
    const st = w.__tchClicker = { doc: doc, seq: 0, moves: [], set: null, blank: false };
    const FWD = new Set(["PageDown", " ", "ArrowDown", "ArrowRight"]);
    const BACK = new Set(["PageUp", "ArrowUp", "ArrowLeft"]);
    const BLANK = new Set(["b", "B", "."]);   // what clickers send for "blank screen": a move of 0
    w.addEventListener("keydown", (e) => {
      if (!st.set || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey && !BLANK.has(e.key)) return;
      const d = FWD.has(e.key) ? 1 : BACK.has(e.key) ? -1 : BLANK.has(e.key) && st.blank ? 0 : null;
      if (d === null) return;
      const t = e.target;
      if (t && t.closest && (t.isContentEditable || t.closest(
          'input,textarea,select,[role="slider"],[role="combobox"],[role="listbox"],[role="menu"],[role="dialog"]')))
        return;   // typing, a slider, an open list: the key is theirs
      e.preventDefault();
      e.stopImmediatePropagation();
      st.seq += 1;
      st.moves.push(d);
      if (st.moves.length > %d) st.moves.shift();
      st.set("presses", { doc: st.doc, seq: st.seq, moves: st.moves.slice() });
    }, { capture: true });
  }
  w.__tchClicker.set = setStateValue;
  document.documentElement.classList.add("tch-keys");
  w.__tchClicker.blank = !!(component.data && component.data.blank);
  return () => { if (w.__tchClicker && w.__tchClicker.set === setStateValue) w.__tchClicker.set = null; };
}
""" % MAX_MOVES

_component = st.components.v2.component("explainer_teach_clicker", js=_JS)


def unseen_moves(got, seen: tuple[str, int] | None) -> tuple[list[int], tuple[str, int] | None]:
    """The moves of ``got`` (the browser's state: doc, seq, moves) not applied yet, and the new ``seen``. A
    stranger's client may send anything: anything but the expected shape is no move."""
    if not isinstance(got, dict):
        return [], seen
    doc, seq, moves = got.get("doc"), got.get("seq"), got.get("moves")
    if not (isinstance(doc, str) and len(doc) <= 16 and type(seq) is int and 0 < seq < 10**9
            and isinstance(moves, list) and len(moves) <= MAX_MOVES and all(m in (1, -1, 0) and type(m) is int
                                                                            for m in moves)):
        return [], seen
    last = seen[1] if seen and seen[0] == doc else 0
    new = max(0, min(seq - last, len(moves)))
    return (moves[len(moves) - new:] if new else []), (doc, max(seq, last))


def picked() -> None:
    """The step list's change (its ``on_change``): decided in :func:`apply`, which knows what the browser shows."""
    st.session_state[PICKED] = True


def settle(goto: int | None, picked: bool, widget, url_step, pressed: bool = False) -> tuple[object, int | None]:
    """The step to draw and the keys' move still pending, from the pending move ``goto``, whether the step list
    changed in this run (``picked``), its value (``widget``), the browser's address bar (``url_step``, 1-based)
    and whether this run brought new presses (``pressed``).

    A move stays pending until the browser reports it back, in its step widget and in its address bar: a press sent
    while the last run's step was still on its way carries the old widget value and the old link, which would undo
    the move (five quick presses moved one to four steps). That old value also looks like a change of the step
    list. It is the user's pick only if no press came with it (else the press sent it) and the browser already
    showed the keys' step (its address bar, written after the step widget, says so); else it is the old value
    coming back, and the keys' move stands."""
    if goto is None:
        return widget, None
    at_goto = url_step == str(goto + 1)
    if picked and at_goto and not pressed and widget != goto:
        return widget, None          # the user picked another step after the keys' move arrived
    if widget == goto and at_goto:
        return goto, None            # the browser shows the move: nothing pending
    return goto, goto


def apply() -> None:
    """Before the step widget is drawn (after the link's step is read): the step the keys moved to (see
    :func:`settle`)."""
    ss = st.session_state
    step, goto = settle(ss.get(GOTO), bool(ss.pop(PICKED, False)), ss.get("tch_step"),
                        st.query_params.get("step"), bool(ss.pop(PRESSED, False)))
    if goto is None:
        ss.pop(GOTO, None)
    else:
        ss[GOTO] = goto
    if step != ss.get("tch_step"):
        ss["tch_step"] = step


def forget() -> None:
    """Outside the walkthrough (the student view): no key move is pending."""
    for k in (GOTO, PICKED, PRESSED):
        st.session_state.pop(k, None)


def keys(n: int, *, blank: bool = False) -> None:
    """Mount the key counter for a lesson of ``n`` steps (in a hidden row: the page's CSS hides
    ``.st-key-tch_keys_count``); ``blank``: ``b`` (what clickers send) blanks the projector (the presenter's)."""
    def pressed() -> None:
        ss = st.session_state
        moves, ss[SEEN] = unseen_moves((ss.get(KEY) or {}).get("presses"), ss.get(SEEN))
        if not moves:
            return
        i = ss.get(GOTO)
        i = ps.shown("tch_step", 0) if i is None else i
        moved = False
        for d in moves:
            if d == 0:
                ss["tch_blank"] = not ss.get("tch_blank")
                continue
            i, moved = max(0, min(n - 1, i + d)), True
        if moved:
            ss[PRESSED] = True
            ss[GOTO] = i

    with st.container(key="tch_keys_count", border=False):
        _component(key=KEY, data={"blank": blank}, on_presses_change=pressed)

