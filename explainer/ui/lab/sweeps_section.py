"""The Gaming lab's Sweeps section: every metric against one knob, as a figure to publish.

The work is bounded and visible (:func:`explainer.attacks.sweeps.run_sweep`): a progress bar, a Stop button that
takes effect between two scores (:func:`explainer.ui.lab.common.yield_point`), a time limit as a safety net, and
the points computed so far kept when a run is stopped or interrupted (a later run continues from them). The series
drawn, the y range and the title are the user's (and in the link); the figure downloads as PNG (2×) and SVG at
1280×720, drawn from the very figure on screen, and its numbers as CSV.
"""
from __future__ import annotations

from functools import lru_cache

import pandas as pd
import streamlit as st

from explainer.attacks.sweeps import DEFAULT_PAD, SWEEPS, SweepPlan, empty_result, run_sweep, series_labels
from explainer.attacks.verdicts import Row, build_table
from explainer.ui import charts, figure_export
from explainer.ui import highlight as hl
from explainer.ui.display import data_table, large_text
from explainer.ui.lab import charts as lab_charts
from explainer.ui.lab.common import persistent_select, persistent_widget, show_verdicts, user_inputs, yield_point
from explainer.ui.lab.link import MAX_TITLE
from explainer.ui.progress import Progress

__all__ = ["render", "repair", "G9_SOURCE", "G9_REF", "verdict_table"]

RESULTS, PARTIAL, RUNNING, STOPPED = "_lab_sw_results", "_lab_sw_partial", "_lab_sw_running", "_lab_sw_stopped"
KEEP = 4   # complete sweeps kept per session (switching knobs back and forth redraws them at once)

G9_SOURCE = [
    "a fire destroyed a warehouse in the port of dover on sunday night",
    "firefighters battled the blaze for six hours before bringing it under control",
    "the damage is estimated at several million pounds according to the owners",
    "nobody was injured and the cause of the fire is still being investigated",
    "police said the road to the port would remain closed until tuesday",
    "local residents were told to keep their windows shut because of the smoke",
]
G9_REF = "a fire destroyed a warehouse in the port on sunday night causing millions in damage"


def _load_g9() -> None:
    ss = st.session_state
    ss["lab_cand"] = G9_SOURCE[0]
    ss["lab_refs"] = G9_REF
    ss["lab_sw_pad"] = " ".join(G9_SOURCE[1:])
    ss["lab_sw_len"] = sum(len(x.split()) for x in G9_SOURCE)


def repair() -> None:
    """Start of every script run: a sweep still marked running was interrupted — by Stop (its points so far are
    kept and shown as stopped) or by any other rerun (the next run continues from them)."""
    ss = st.session_state
    if not ss.get(RUNNING):
        return
    ss[RUNNING] = False
    part = ss.get(PARTIAL)
    if part is not None and ss.get("lab_sw_stop"):
        part[1].stopped = "by you"


@lru_cache(maxsize=16)
def _planned(knob: str, cand: str, refs: tuple, params: tuple) -> SweepPlan:
    """A plan made once for its inputs (every rerun, e.g. Stop or a new title, would redo 550 shuffles)."""
    return SWEEPS[knob][1](cand, list(refs), **dict(params))


def _plan(knob: str, cand: str, refs: list[str]) -> SweepPlan:
    ss = st.session_state
    if knob == "length":
        c1, c2 = st.columns([1, 2])
        with c1:
            n = max(2, len(cand.split()))
            ss.setdefault("lab_sw_len", min(2000, max(2 * n, 2 * max(len(r.split()) for r in refs))))
            max_len = st.number_input("longest length (words)", 2, 2000, key="lab_sw_len")
        with c2:
            ss.setdefault("lab_sw_pad", DEFAULT_PAD)
            pad = st.text_input("padding words (cycled)", key="lab_sw_pad", max_chars=2000,
                                help="Paste more source text here to reproduce the catalogue's verbosity sweep.")
        return _planned(knob, cand, tuple(refs), (("max_len", int(max_len)), ("pad_text", pad)))
    if knob == "shuffle":
        c1, c2 = st.columns(2)
        with c1:
            trials = st.number_input("shuffles averaged per point", 1, 50, 5, key="lab_sw_trials")
        with c2:
            seed = st.number_input("seed", 0, 10_000, 0, key="lab_sw_seed")
        return _planned(knob, cand, tuple(refs), (("trials", int(trials)), ("seed", int(seed))))
    if knob == "stuffing":
        n = st.number_input("up to n function words", 1, 200, 20, key="lab_sw_n")
        return _planned(knob, cand, tuple(refs), (("max_n", int(n)),))
    if knob == "repetitions":
        c1, c2 = st.columns([2, 1])
        with c1:
            word = st.text_input("word repeated (empty: the most frequent reference word)", key="lab_sw_word",
                                 max_chars=100)
        with c2:
            n = st.number_input("up to n repetitions", 1, 200, 20, key="lab_sw_reps")
        return _planned(knob, cand, tuple(refs), (("word", word), ("max_n", int(n))))
    return _planned(knob, cand, tuple(refs), ())


def _figure_controls(keys_labels: dict[str, str]) -> tuple[list[str], str, str]:
    keys = list(keys_labels)
    with st.expander("Figure: series, y range, title (kept in the link)"):
        series = persistent_widget(st.multiselect, "Series drawn", "lab_sw_series", "lab_sw_series_v", keys, keys,
                                   format_func=lambda k: keys_labels.get(k, k),
                                   normalize=lambda v: [k for k in keys if k in v])
        c1, c2 = st.columns([1, 2])
        with c1:
            yrange = persistent_widget(st.radio, "y range", "lab_sw_yrange", "lab_sw_yrange_v", "auto",
                                       list(lab_charts.Y_RANGES), horizontal=True,
                                       format_func=lambda v: "each panel's data" if v == "auto" else "whole scale")
        with c2:
            title = persistent_widget(st.text_input, "Title (empty: the knob)", "lab_sw_title", "lab_sw_title_v", "",
                                      max_chars=MAX_TITLE)
    return [k for k in keys if k in series], yrange, title


def _computed(plan: SweepPlan):
    """The complete result of ``plan`` (cached in the session), else the points kept from an earlier run of it."""
    ss = st.session_state
    done = ss.get(RESULTS, {}).get(plan)
    if done is not None:
        return done, None
    part = ss.get(PARTIAL)
    return None, (part[1] if part is not None and part[0] == plan else None)


def _run(plan: SweepPlan, start):
    """Run (or continue) the sweep with a progress bar; Stop (drawn before) interrupts it between two scores."""
    ss = st.session_state
    bar = Progress("sweeping…")
    owner = object()
    ss["_lab_sw_owner"] = owner

    def tick(done: int, total: int) -> None:
        yield_point()
        bar(done / max(total, 1), f"scored {done:,} of {total:,} texts")

    def keep(res) -> None:
        if ss.get("_lab_sw_owner") is owner:
            ss[PARTIAL] = (plan, res.snapshot())

    keep(start if start is not None else empty_result(plan))    # a Stop before the first point keeps this
    ss[RUNNING] = True
    res = run_sweep(plan, start=start, tick=tick, on_point=keep)
    ss[RUNNING] = False
    bar.done()
    if res.complete:
        ss[RESULTS] = dict(list({**ss.get(RESULTS, {}), plan: res}.items())[-KEEP:])
        ss.pop(PARTIAL, None)
    else:
        keep(res)
    return res


def render() -> None:
    inp = user_inputs()
    if inp is None:
        return
    cand, refs = inp
    knob = persistent_select("Knob", "lab_sweep", list(SWEEPS), format_func=lambda k: SWEEPS[k][0])
    if knob == "length":
        st.button("Load the catalogue's verbosity example (G9: lead sentence, padded with the rest of the article)",
                  key="lab_sw_g9", on_click=_load_g9)
    try:
        plan = _plan(knob, cand, refs)
    except ValueError as exc:
        st.warning(hl.md_escape(str(exc)))
        return
    done, partial = _computed(plan)
    b1, b2 = st.columns([1, 3])
    go_on = b1.button("Continue the sweep", key="lab_sw_continue",
                      disabled=done is not None or partial is None or not partial.stopped)
    b2.button("Stop the sweep", key="lab_sw_stop", help="Stops the sweep between two scores; the points so far are "
              "kept.")
    res = done
    if res is None:
        if partial is not None and partial.stopped and not go_on:
            res = partial
        else:
            res = _run(plan, partial)
    _show(res, plan, knob)


def _show(res, plan: SweepPlan, knob: str) -> None:
    if res.stopped:
        why = "Stopped by you" if res.stopped == "by you" else "Stopped at the time limit"
        st.warning(f"{why} after {res.done} of {res.total} points ({res.elapsed:.1f} s): the figure shows those. "
                   "**Continue the sweep** scores the rest.")
    if plan.note:
        st.caption(hl.md_escape(plan.note))
    labels = series_labels(res.columns)
    series, yrange, title = _figure_controls({k: labels.get(k, k) for k in res.values})
    fig = charts.readable(lab_charts.sweep_figure(res, series, yrange, title), large=large_text())
    st.plotly_chart(fig, key="lab_sweep_fig", theme=None, config=_chart_config(knob))
    if res.why:
        st.caption("No number (—): " + hl.md_escape("; ".join(sorted(set(res.why.values())))))
    if res.done >= 2:
        show_verdicts(verdict_table(res), caption="The sweep's start against its last point: does each metric "
                                                  "reward the far end of the knob?")
    df = pd.DataFrame(res.rows())
    with st.expander("The numbers behind the chart"):
        data_table(df, hide_index=True)
    _downloads(fig, df, knob)


def verdict_table(res):
    """The sweep's start (the user's unchanged candidate when it is on the curve, else the first point) against its
    last point, as a verdict table: does the metric reward the far end of the knob?"""
    first = res.x.index(res.marker) if res.marker in res.x[:-1] else 0
    last = res.done - 1
    name = {"fraction": "shuffled", "n": "words stuffed", "k": "references"}.get(res.knob, res.knob)
    rows = [Row(f"{name} = {res.x[i]:g}" + (" (your candidate)" if res.x[i] == res.marker else ""), role,
                {c.key: res.values[c.key][i] for c in res.columns}, base=None if role == "honest" else 0)
            for i, role in ((first, "honest"), (last, "attack"))]
    return build_table("attack", res.columns, rows, (1,))


def _chart_config(knob: str) -> dict:
    w, h = lab_charts.EXPORT_SIZE
    return {"displaylogo": False, "toImageButtonOptions": {"format": "png", "width": w, "height": h,
                                                           "scale": figure_export.PNG_SCALE,
                                                           "filename": f"sweep-{knob}"}}


def _downloads(fig, df: pd.DataFrame, knob: str) -> None:
    w, h = lab_charts.EXPORT_SIZE
    export = _export_figure(fig)
    c1, c2, c3 = st.columns(3)
    why = figure_export.unavailable()
    with c1:
        st.download_button(f"Figure (PNG, 2×, {w}×{h})", lambda: figure_export.to_png(export, w, h),
                           file_name=f"sweep-{knob}.png", mime="image/png", key="lab_dl_sweep_png",
                           on_click="ignore", disabled=why is not None)
    with c2:
        st.download_button(f"Figure (SVG, {w}×{h})", lambda: figure_export.to_svg(export, w, h),
                           file_name=f"sweep-{knob}.svg", mime="image/svg+xml", key="lab_dl_sweep_svg",
                           on_click="ignore", disabled=why is not None)
    with c3:
        st.download_button("Numbers (CSV)", df.to_csv(index=False).encode("utf-8"), file_name=f"sweep-{knob}.csv",
                           mime="text/csv", key="lab_dl_sweep", on_click="ignore")
    if why:
        st.caption(f"PNG and SVG need a browser on the server: {why}. The camera icon above the chart saves a "
                   f"{w}×{h} PNG drawn by your browser instead.")


def _export_figure(fig):
    """The figure as exported: the one on screen at the export size (its height set, the rest unchanged)."""
    w, h = lab_charts.EXPORT_SIZE
    out = type(fig)(fig)
    out.update_layout(width=w, height=h)
    return out
