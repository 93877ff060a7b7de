"""The walkthrough's step fitted to the window in the browser, at any zoom.

A fitted step (``.tc-fit``, :func:`explainer.ui.teach.walkthrough.step_body`) has the window's height below the
page's rows as its maximum height, and its long tables, charts and LCS table give up height first (CSS). At browser
zoom 125 % (a 1024x768 screen is then an 819x614 window) the page's rows keep their size while the window shrinks: a
step's total row, LCS answer cell or final score and verdict went below the window (cat_mat's steps 4, 8 and 11 by
69, 48 and 180 px). Here the browser measures the step and, when it does not fit or a total row or the LCS table's
answer cell is out of sight (a long table scrolls in its box), sets its type smaller (everything in it is sized in
em) until it does, down to :data:`MIN_SCALE` of its size (on the projector, never below the size at which its smallest
text is 16 px: ``data-min-px``); a step that fits keeps its size. It runs again whenever the step's content or the
window changes.
"""
from __future__ import annotations

import streamlit as st

MIN_SCALE = 0.6   # the smallest type a fitted step gets, as a share of its own (at 1024x768 no step needs it)
KEY = "tch_fit"   # the component's key (in the hidden row ``.st-key-tch_fit_js``: the page's CSS hides it)

# Trusted constant code (no user data reaches it; nothing leaves it). One observer per document.
_JS = """
export default function () {
  const w = window;
  if (w.__tchFit) return;
  const MIN = %s;
  // on the screen: inside the window and inside every box that clips it (a scrolling table's box)
  const seen = (e) => {
    const r = e.getBoundingClientRect();
    if (!r.width) return true;
    if (r.bottom > w.innerHeight + 1 || r.right > w.innerWidth + 1) return false;
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflow === "visible") continue;
      const q = p.getBoundingClientRect();
      if (r.bottom > q.bottom + 1 || r.right > q.right + 1 || r.top < q.top - 1 || r.left < q.left - 1) return false;
    }
    return true;
  };
  // what must stay in sight: the tables' total rows and the LCS table's answer (its bottom-right cell)
  const key = (box) => {
    const out = [...box.querySelectorAll("tr.tot > *")];
    const rows = box.querySelectorAll(".tgrid tr");
    if (rows.length) out.push(rows[rows.length - 1].lastElementChild);
    return out;
  };
  // the page scrolls: the step's head wrapped to more lines than its maximum height allows for (a long title
  // at zoom 125 %%), so the step ends at the window's edge and the page's bottom padding goes below it
  const pageScrolls = () => {
    const main = document.querySelector('[data-testid="stMain"]');
    return !!main && main.scrollHeight > main.clientHeight + 1;
  };
  const over = (box) => box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1
    || box.getBoundingClientRect().bottom > w.innerHeight + 1 || !key(box).every(seen) || pageScrolls();
  const fitOne = (box) => {
    // what the step was last fitted for: its content, its maximum height and the window
    const html = box.innerHTML;
    let h = 5381;
    for (let k = 0; k < html.length; k++) h = ((h * 33) ^ html.charCodeAt(k)) | 0;
    // its own type size (the page's text-size control sets it by a rule): a style recalculation, no layout
    const fitted = box.style.fontSize;
    box.style.fontSize = "";
    const base = parseFloat(getComputedStyle(box).fontSize);
    const sig = [w.innerWidth, w.innerHeight, box.style.maxHeight, html.length, h, base].join(":");
    if (box.dataset.fitFor === sig) { box.style.fontSize = fitted; return; }
    if (over(box)) {
      // at most down to MIN of the step's own size: of the size before the text-size control's zoom (--tzoom)
      const zoom = parseFloat(getComputedStyle(box).getPropertyValue("--tzoom")) || 1;
      // a projector's step keeps its smallest text at 16 px: its type is never set below data-min-px
      const floor = (parseFloat(box.dataset.minPx) || 0) / base;
      let lo = Math.min(1, Math.max(MIN / Math.max(zoom, 1), floor)), hi = 1;
      for (let k = 0; k < 7; k++) {
        const mid = (lo + hi) / 2;
        box.style.fontSize = (base * mid) + "px";
        if (over(box)) hi = mid; else lo = mid;
      }
      box.style.fontSize = (base * lo) + "px";
    }
    box.dataset.fitFor = sig;
  };
  const fitAll = () => document.querySelectorAll(".tc-fit").forEach(fitOne);
  // once per frame, before it is painted (a rerun changes the page many times: measuring after each change
  // slowed the page enough on a busy machine that quick clicker presses were lost)
  let queued = false;
  const schedule = () => {
    if (queued) return;
    queued = true;
    w.requestAnimationFrame(() => { queued = false; fitAll(); });
  };
  w.__tchFit = { fitAll: fitAll };
  new MutationObserver(schedule).observe(document.body, { childList: true, subtree: true, characterData: true });
  w.addEventListener("resize", schedule);
  // a chart is an image: its height is known once it is decoded
  document.addEventListener("load", (e) => {
    const box = e.target && e.target.closest && e.target.closest(".tc-fit");
    if (box) { delete box.dataset.fitFor; schedule(); }
  }, true);
  fitAll();
}
""" % MIN_SCALE

_component = st.components.v2.component("explainer_teach_fit", js=_JS)


def mount() -> None:
    """Mount the fitter (once per page run; the page's CSS hides its row)."""
    with st.container(key="tch_fit_js", border=False):
        _component(key=KEY)
